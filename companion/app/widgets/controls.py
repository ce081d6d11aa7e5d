"""Touch-friendly controls shared by the screens (every target ≥ 48 dp, text legible across a table).

The pop-ups (ConfirmPopup, NumberPad, TextPopup) fit every device class (issue #27): their titles and
questions wrap and their height follows, within the window, and their buttons stack on a phone held
upright where two long answers side by side would be cut.
"""
from __future__ import annotations

from collections.abc import Callable

from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.scrollview import ScrollView
from kivy.uix.spinner import Spinner
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

    def on_row_height(self, *_):
        if hasattr(self, "_hidden"):
            self._fit()

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


class TurnButton(Button):
    """A square button with a quarter-turn arrow drawn on it (the fonts have no arrow glyph)."""

    icon_arrow = ListProperty([0, 0, 0, 0, 0, 0])

    def on_size(self, *_):
        self._place_arrow()

    def on_pos(self, *_):
        self._place_arrow()

    def _place_arrow(self) -> None:
        """The arrow head at the open end of the arc (at 40°, pointing along the turn)."""
        import math

        radius = min(self.width, self.height) * 0.26
        angle = math.radians(40)
        tip_x, tip_y = self.center_x + radius * math.sin(angle), self.center_y + radius * math.cos(angle)
        head = radius * 0.55
        self.icon_arrow = [tip_x - head, tip_y + head * 0.6, tip_x + head * 0.4, tip_y - head * 0.9,
                           tip_x + head * 0.9, tip_y + head * 0.5]


class ScrollSpinner(Spinner):
    """A menu button in a scrolling view (the Table's side panel): its list opens once the view stands
    still. Kivy places a drop-down from where its button is as it opens, and leaves it there: a tap
    while the view sprang back from past its end opened the list, and the button went on moving away
    from it (#27)."""

    def on_is_open(self, instance, value):
        if value:
            for view in scrolling_views(self):
                hold_still(view)
        super().on_is_open(instance, value)


def scrolling_views(widget) -> list[ScrollView]:
    """The scrolling views that hold `widget`, innermost first."""
    views, node = [], widget.parent
    while node is not None and node is not node.parent:
        if isinstance(node, ScrollView):
            views.append(node)
        node = node.parent
    return views


def hold_still(view: ScrollView) -> None:
    """Stop a scrolling view where it stands, within its ends (a spring back from past an end too),
    its content moved there at once."""
    for effect in (view.effect_x, view.effect_y):
        if effect is not None:
            effect.velocity = 0
    view.scroll_x = min(max(view.scroll_x, 0.0), 1.0)
    view.scroll_y = min(max(view.scroll_y, 0.0), 1.0)
    view._update_effect_bounds()  # the effects' values follow the scroll (Kivy does so on a resize only)
    view.update_from_scroll()


class ConfirmPopup(ModalView):
    """A yes/no question with big buttons; `on_agree` runs after a yes."""

    title = StringProperty("")
    question = StringProperty("")
    yes = StringProperty("")
    no = StringProperty("")

    def on_agree(self) -> None:
        """Replaced by the caller."""

    def answer(self, agreed: bool) -> None:
        self.dismiss(animation=False)  # gone at once: the next tap reaches the screen
        if agreed:
            self.on_agree()


class NumberPad(ModalView):
    """Type a number with big keys (no system keyboard over the table): `on_enter(text)` gets what
    was typed, e.g. "12", "-7" or "+3"."""

    title = StringProperty("")
    typed = StringProperty("")
    hint = StringProperty("")
    ok = StringProperty("OK")
    cancel = StringProperty("")
    erase = StringProperty("")
    wide = BooleanProperty(False)   # the keys beside the title and answers, not under them (controls.kv)

    def on_wide(self, *_) -> None:
        """The answers under the keys, or under the title beside them."""
        answers = self.ids.answers.__self__
        holder = (self.ids.side if self.wide else self.ids.content).__self__
        if answers.parent is not holder:
            answers.parent.remove_widget(answers)
            holder.add_widget(answers)

    def erase_last(self) -> None:
        self.typed = self.typed[:-1]

    def press(self, key: str) -> None:
        if key in "+−":
            self.typed = ("" if self.typed[:1] == key else key) + self.typed.lstrip("+−")
        elif len(self.typed.lstrip("+−")) < 4:
            self.typed += key

    def on_enter(self, text: str) -> None:
        """Replaced by the caller."""

    def answer(self, agreed: bool) -> None:
        self.dismiss(animation=False)
        if agreed and self.typed.lstrip("+−"):
            self.on_enter(self.typed)


class TextPopup(ModalView):
    """Type a short name (the system keyboard opens): `on_enter(text)` gets it."""

    title = StringProperty("")
    hint = StringProperty("")
    ok = StringProperty("OK")
    cancel = StringProperty("")

    def on_enter(self, text: str) -> None:
        """Replaced by the caller."""

    def answer(self, agreed: bool) -> None:
        self.dismiss(animation=False)
        if agreed and self.ids.text.text.strip():
            self.on_enter(self.ids.text.text.strip())


# The longest names a table types (companion.app.layout_matrix's players), for the pop-ups' layout cases.
LONG_NAME, LONG_COMMANDER = "Marie-Thérèse", "Jean-Baptiste"


def layout_cases(app) -> dict[str, Callable[[], object]]:
    """The shared pop-ups as the screens open them, with the longest words they show (issue #27's
    layout matrix): the New game's question over a game in progress, a player leaving, commander
    damage on the keypad, a partner commander's name."""

    def confirm():
        popup = ConfirmPopup(title=app.t("newgame.replace_title"),
                             question=app.t("newgame.replace_question", turn=12,
                                            players=", ".join([LONG_NAME, LONG_COMMANDER, "Alexandrine", "Maximilien"])),
                             yes=app.t("newgame.replace_yes"), no=app.t("table.cancel"))
        popup.open(animation=False)

    def confirm_leave():
        popup = ConfirmPopup(title=app.t("table.leave_title"), question=app.t("table.leave_question", name=LONG_NAME),
                             yes=app.t("table.leave_yes", name=LONG_NAME), no=app.t("table.cancel"))
        popup.open(animation=False)

    def number_pad():
        pad = NumberPad(title=app.t("table.type_commander", name=LONG_NAME, commander=LONG_COMMANDER),
                        hint=app.t("table.type_hint"), ok=app.t("table.ok"), cancel=app.t("table.cancel"),
                        erase=app.t("table.erase"))
        pad.open(animation=False)

    def text_popup():
        popup = TextPopup(title=app.t("table.partner_title", name=LONG_NAME), hint=app.t("table.partner_hint"),
                          ok=app.t("table.ok"), cancel=app.t("table.cancel"))
        popup.open(animation=False)

    return {"confirm": confirm, "confirm_leave": confirm_leave, "numberpad": number_pad, "text": text_popup}
