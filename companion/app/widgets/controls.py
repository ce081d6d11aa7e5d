"""Touch-friendly controls shared by the screens (every target ≥ 48 dp, text legible across a table)."""
from __future__ import annotations

from kivy.properties import BooleanProperty, NumericProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.togglebutton import ToggleButton

from companion.app.kv import load_kv_beside

load_kv_beside(__file__)


class BigButton(Button):
    """A button at least 56 dp high (touch target ≥ 48 dp)."""


class BigToggle(ToggleButton):
    """A toggle at least 56 dp high."""


class Caption(Label):
    """A left-aligned label that wraps to its width."""


class Title(Label):
    """A section title."""


class Reveal(BoxLayout):
    """A box shown only when `shown`: hidden, its children leave the tree (height 0).

    Hiding by opacity + disabled is not enough: a disabled Kivy widget still swallows the
    touches that land on it, and children of a zero-height box overflow onto their neighbours.
    """

    shown = BooleanProperty(True)
    row_height = NumericProperty(0)  # a row's height when shown (0: fit the children, vertical boxes)

    def on_kv_post(self, *_):
        self._hidden: list = []
        self.bind(minimum_height=self._fit)
        self._apply()

    def on_shown(self, *_):
        if hasattr(self, "_hidden"):
            self._apply()

    def _apply(self) -> None:
        if self.shown and self._hidden:
            for child in self._hidden:
                self.add_widget(child)
            self._hidden = []
        elif not self.shown and self.children:
            self._hidden = list(reversed(self.children))
            self.clear_widgets()
        self._fit()

    def _fit(self, *_):
        self.height = (self.row_height or self.minimum_height) if self.shown else 0
