"""Table screen: life, poison and commander damage per player, readable from every seat;
turn, phase and the three movement steps; the event, the plane, the Horde's City.

With the seat option (settings), the panels of the players across the table are
turned 180°, and with "ends" those at the table's ends 90°, so each player reads their own numbers.
"""
from __future__ import annotations

from kivy.app import App
from kivy.properties import BooleanProperty, DictProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.modalview import ModalView
from kivy.uix.scatter import Scatter
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from companion.app.kv import load_kv_beside
from companion.game import PREGAME
from companion.app.widgets import controls  # noqa: F401

load_kv_beside(__file__)


class PlayerPanel(BoxLayout):
    """One player's life, poison and commander damage, big enough to read across the table."""

    player_id = NumericProperty(0)
    name = StringProperty("")
    rgba = ListProperty([1, 1, 1, 1])
    life = StringProperty("")
    poison = StringProperty("")
    commander = StringProperty("")
    active = BooleanProperty(False)
    left = BooleanProperty(False)
    pregame = BooleanProperty(False)        # before turn 1: mulligan / keep instead of commander damage
    kept = BooleanProperty(False)
    hand = StringProperty("")
    sources = ListProperty([])              # names of the opponents whose commander may deal damage
    source = StringProperty("")             # the one picked
    source_ids = DictProperty({})           # name -> player id


class SeatFrame(Widget):
    """Holds one player's panel turned to face its seat: 0° (near side), 180° (far side),
    90° / 270° (the table's ends). The panel is laid out in the turned frame (width and height
    swap at 90°) and touches follow the turn (Scatter)."""

    def __init__(self, panel, rotation: int, **kwargs):
        super().__init__(**kwargs)
        self.panel, self.seat_rotation = panel, rotation
        panel.size_hint = (None, None)
        self.turn = Scatter(do_rotation=False, do_scale=False, do_translation=False, auto_bring_to_front=False,
                            size_hint=(None, None))
        self.turn.add_widget(panel)
        self.add_widget(self.turn)
        self.bind(size=self._place, pos=self._place)

    def _place(self, *_):
        width, height = self.size
        self.panel.size = (height, width) if self.seat_rotation % 180 else (width, height)
        self.turn.rotation = 0
        self.turn.size = self.panel.size
        self.turn.pos = self.pos
        self.turn.rotation = self.seat_rotation
        self.turn.center = self.center


SEAT_LAYOUTS = ("upright", "facing", "ends")  # settings: all at 0°; far side at 180°; also 90° at the ends


def seat_places(count: int, layout: str) -> list[tuple[str, int]]:
    """Where each seat's panel goes, in seat order: (row "left"|"far"|"near"|"right", rotation°).

    Seats go round the table: with "ends", the first seat sits at the left end (turned 270°, its
    text facing the left edge) and the last at the right end (90°); the
    others share the long sides, the far one turned 180°. "facing" turns the far side only."""
    far_count = count // 2
    places = [("far", 180 if layout != "upright" else 0) if i < far_count else ("near", 0) for i in range(count)]
    if layout == "ends":
        places[0] = ("left", 270)
        if count >= 2:
            places[-1] = ("right", 90)
    return places


class TableScreen(Screen):
    turn_text = StringProperty("")
    event_text = StringProperty("")
    plane_text = StringProperty("")
    horde_text = StringProperty("")
    event_counter = NumericProperty(3)  # turn counter X the table enters for an event without one (MT 7.06.d)

    def on_kv_post(self, *_):
        app = App.get_running_app()
        app.bind(revision=lambda *_: self.refresh(), seat_layout=lambda *_: self.rebuild())
        self._built_for = None
        self._panels: dict[int, PlayerPanel] = {}
        self.refresh()

    def on_pre_enter(self, *_):
        self.refresh()

    def find_widget(self, path: str):
        """'seat-2.leave': a widget of player 2's panel (driven by the autopilot like a tap)."""
        head, _, rest = path.partition(".")
        panel = self._panels[int(head.split("-")[1])]
        return panel.ids[rest] if rest else panel

    def autopilot_report(self) -> dict:
        return {"rotations": {str(pid): panel.parent.parent.seat_rotation for pid, panel in self._panels.items()},
                "sources": {str(pid): list(panel.sources) for pid, panel in self._panels.items()}}

    def rebuild(self) -> None:
        self._built_for = None
        self.refresh()

    def refresh(self) -> None:
        app = App.get_running_app()
        session = app.session
        if not session.has_game:
            return
        state = session.state
        seats = tuple(p.id for p in state.players)
        if self._built_for != (seats, app.seat_layout, app.lang):
            self._build_panels(state.players, app.seat_layout)
            self._built_for = (seats, app.seat_layout, app.lang)
        active = set(state.turn.active)
        pregame = state.turn.phase == PREGAME
        for player in state.players:
            panel = self._panels[player.id]
            panel.name = player.name + (f" ({app.t('table.left')})" if player.left else "")
            panel.rgba = session.player_rgba(player.id)
            panel.life = str(player.life)
            panel.poison = str(player.poison)
            panel.active = player.id in active
            panel.left = player.left
            panel.commander = session.commander_text(player, app.lang)
            panel.pregame = pregame and not player.left
            panel.kept = player.kept
            panel.hand = app.t("table.hand", n=session.hand_size(player.id)) if panel.pregame else ""
            opponents = [p for p in state.players if p.id != player.id and not p.left]
            panel.source_ids = {p.name: p.id for p in opponents}
            panel.sources = [p.name for p in opponents]
            if panel.source not in panel.sources:  # by default the active player's commander, who attacks now
                first = next((p for p in opponents if p.id in active), opponents[0] if opponents else None)
                panel.source = first.name if first else ""
        self.turn_text = session.turn_text(app.lang)
        self.event_text = session.event_text(app.lang)
        self.plane_text = session.plane_text(app.lang)
        self.horde_text = session.horde_text(app.lang)

    def _build_panels(self, players, layout: str) -> None:
        rows = {"far": self.ids.far_seats, "near": self.ids.near_seats, "left": self.ids.left_seat,
                "right": self.ids.right_seat}
        for row in rows.values():
            row.clear_widgets()
        self._panels = {}
        for player, (row, rotation) in zip(players, seat_places(len(players), layout)):
            panel = PlayerPanel(player_id=player.id)
            self._panels[player.id] = panel
            rows[row].add_widget(SeatFrame(panel, rotation))
        # A panel turned 90° lays out its rows across the seat's width: the seats take two thirds
        # of the screen and each end seat as much as a long-side column.
        self.ids.seats.size_hint_x = 2.0 if layout == "ends" else 0.68
        sides = bool(rows["far"].children or rows["near"].children)
        self.ids.middle_seats.size_hint_x = 1 if sides else None
        self.ids.middle_seats.width = 0
        for name in ("left", "right"):
            rows[name].size_hint_x = 1 if rows[name].children else None
            rows[name].width = 0

    def confirm_leave(self, player_id: int) -> None:
        """Leaving the game cannot be taken back by mistake: ask first (undo still works after)."""
        app = App.get_running_app()
        name = app.session.state.player(player_id).name
        popup = ConfirmPopup(title=app.t("table.leave_title"), question=app.t("table.leave_question", name=name),
                             yes=app.t("table.leave_yes", name=name), no=app.t("table.cancel"))
        popup.on_yes = lambda: app.perform("player_leaves", player_id)
        popup.open()


class ConfirmPopup(ModalView):
    """A yes/no question with big buttons."""

    title = StringProperty("")
    question = StringProperty("")
    yes = StringProperty("")
    no = StringProperty("")

    def answer(self, agreed: bool) -> None:
        self.dismiss(animation=False)  # gone at once: the next tap reaches the screen
        if agreed:
            self.on_yes()
