"""A row of the New game form that folds on a narrow window (issue #27): its children side by side
where there is room for them, else one under the other at the full width (a phone's form is one
column: a text field and its button each get the whole width rather than a third of it each)."""
from __future__ import annotations

from kivy.clock import Clock
from kivy.metrics import dp
from kivy.properties import BooleanProperty, NumericProperty
from kivy.uix.boxlayout import BoxLayout


class FlowRow(BoxLayout):
    """Side by side from `wide_from` dp of width on (each child keeps its `size_hint_x`), else stacked
    at full width; as high as its children need either way (they have fixed heights)."""

    wide_from = NumericProperty(0)   # in dp
    wide = BooleanProperty(True)

    def __init__(self, **kwargs):
        self._hints: dict[int, float | None] = {}   # each child's size_hint_x side by side, by id()
        self._refold = Clock.create_trigger(self._place)   # next frame: kv has set the children's hints
        super().__init__(**kwargs)
        self.size_hint_y = None
        self.bind(width=self._fold, wide_from=self._fold, minimum_height=self._fit)

    def _fold(self, *_) -> None:
        self.wide = self.width >= dp(self.wide_from)

    def on_wide(self, *_) -> None:
        self._refold()

    def _place(self, *_) -> None:
        self.orientation = "horizontal" if self.wide else "vertical"
        for child in self.children:
            self._hints.setdefault(id(child), child.size_hint_x)
            child.size_hint_x = self._hints[id(child)] if self.wide else 1

    def _fit(self, *_) -> None:
        self.height = self.minimum_height
