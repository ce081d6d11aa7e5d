"""Table screen: one panel per player — life (±1, ±5, or typed), the change of the last seconds,
poison and the other counters (energy, experience, rad), commander damage from each opponent, the
monarch's and the initiative's badges — readable from every seat of a table of 2 to 6; the Horde's
City; the turn, who is the monarch and has the initiative, day or night, the event, the plane; Next
phase and End turn. A held ±1 repeats (`widgets.repeat`), its steps joined into one change.

Each panel turns to face its player (0/90/180/270°, its turn button; kept per player between
runs), and the whole table can be turned at once in the settings. What the panels say comes
from `presenter`; the buttons call `companion.game` through `app.play`.
"""
from __future__ import annotations

from types import SimpleNamespace

from kivy.clock import Clock
from kivy.metrics import dp, sp
from kivy.properties import (BooleanProperty, DictProperty, ListProperty, NumericProperty, ObjectProperty,
                             StringProperty)
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.scatter import Scatter
from kivy.uix.screenmanager import Screen
from kivy.uix.scrollview import ScrollView
from kivy.uix.spinner import Spinner
from kivy.uix.widget import Widget

from companion.app.kv import load_kv_beside
from companion.app.running import running_app
from companion.app.screens.table import presenter
from companion.app.screens.table.presenter import RecentChange
from companion.app.widgets import card_search, controls, repeat  # noqa: F401  (kv classes)
from companion.app.widgets.controls import BigButton, ConfirmPopup, NumberPad, TextPopup
from companion.app.words import turn_header, turn_text

load_kv_beside(__file__)

GAP = dp(8)
NAME_MIN_SP = 20  # a player's name is never drawn smaller (see PlayerPanel._fit_name)


class LifeBox(BoxLayout):
    """The total (tap to type it) with −1 −5 +1 +5 around it, placed as the panel's size allows
    (`presenter.life_arrangement`): columns each side on a large tablet, one row in a wide short
    panel, the buttons under the total in a narrow one — the big number first."""

    arrangement = StringProperty("")

    def on_kv_post(self, *_):
        # the parts, held: kv ids are weak, and a part between two places has no parent
        self.parts = SimpleNamespace(**{name: self.ids[name].__self__
                                        for name in ("minus_1", "minus_5", "number", "plus_1", "plus_5")})
        self.bind(size=self._choose)
        self._choose()

    def _choose(self, *_):
        arrangement = presenter.life_arrangement(self.width / dp(1), self.height / dp(1))
        fives = presenter.life_fives_under(self.width / dp(1))
        if (arrangement, fives) != (self.arrangement, getattr(self, "_fives", None)):
            self._fives = fives
            if arrangement == self.arrangement:
                self.on_arrangement()
            self.arrangement = arrangement

    def on_arrangement(self, *_):
        ids = self.parts
        steps = (ids.minus_5, ids.minus_1, ids.plus_1, ids.plus_5)
        for widget in (*steps, ids.number):
            if widget.parent is not None:
                widget.parent.remove_widget(widget)
        self.clear_widgets()
        for small in (ids.minus_5, ids.plus_5):  # beside ±1 rather than under them: a little smaller
            small.font_size = sp(26) if self.arrangement == "columns" else sp(22)
        if self.arrangement == "columns":
            self.orientation = "horizontal"
            for big, small in ((ids.minus_1, ids.minus_5), (ids.plus_1, ids.plus_5)):
                column = BoxLayout(orientation="vertical", size_hint_x=None, width=dp(presenter.LIFE_COLUMN_DP),
                                   spacing=dp(4))
                big.size_hint, small.size_hint, small.height = (1, 1), (1, None), dp(presenter.LIFE_STEP_DP)
                column.add_widget(big)
                column.add_widget(small)
                self.add_widget(column)
                if big == ids.minus_1:
                    self.add_widget(ids.number)
        elif self.arrangement == "row":
            self.orientation = "horizontal"
            for widget in steps:
                widget.size_hint, widget.width = (None, 1), dp(presenter.LIFE_STEP_DP)
            for widget in (ids.minus_5, ids.minus_1, ids.number, ids.plus_1, ids.plus_5):
                self.add_widget(widget)
        elif self.arrangement == "under":
            self.orientation = "vertical"
            self.add_widget(ids.number)
            row = BoxLayout(size_hint_y=None, height=dp(presenter.LIFE_STEP_DP), spacing=dp(4))
            for widget in steps if presenter.life_fives_under(self.width / dp(1)) else (ids.minus_1, ids.plus_1):
                widget.size_hint = (1, 1)
                row.add_widget(widget)
            self.add_widget(row)
        else:  # "pair": −5 and +5 left out (the keypad types any change)
            self.orientation = "horizontal"
            for widget in (ids.minus_1, ids.number, ids.plus_1):
                if widget != ids.number:
                    widget.size_hint, widget.width = (None, 1), dp(presenter.LIFE_STEP_DP)
                self.add_widget(widget)


class NameButton(ButtonBehavior, Label):
    """A player's name: a tap opens the player's sheet, whose title shows the whole name (a compact
    panel may shorten it)."""

    whole_text_on_tap = True


class SourcePicker(Button):
    """The commander whose damage the panel's −1 +1 +5 count (a script picks it by its words); a tap
    opens every opponent's commander in one grid (the player's sheet), not one source at a time."""


class CommanderRow(BoxLayout):
    """One row of the commander grid: an opponent's commander (or partner) and its damage so far."""

    label = StringProperty("")
    player_id = NumericProperty(0)     # who takes the damage
    source = ObjectProperty(None)      # (opponent, partner name "" or a name)

    def change(self, amount: int) -> None:
        running_app().screen("table").commander(self.player_id, amount, source=self.source)

    def typed(self) -> None:
        running_app().screen("table").type_commander(self.player_id, source=self.source)


class PlayerSheet(ModalView):
    """A player's sheet (#27): on a compact panel, its counters, turning it and leaving; on every
    panel, each opponent's commander damage in one grid (±1, ±5 and the keypad, partners apart)."""

    title = StringProperty("")
    rgba = ListProperty([1, 1, 1, 1])
    commanders = ListProperty([])   # [(label, (opponent, partner))] of the grid, then ("name a partner", …)

    def on_commanders(self, *_):
        grid = self.ids.grid
        keys = [key for _label, key in self.commanders]
        if keys != [getattr(row, "key", None) for row in reversed(grid.children)]:
            grid.clear_widgets()  # the sources changed (a partner named, a player out): the rows again
            for label, key in self.commanders:
                grid.add_widget(self._row(label, key))
        for row, (label, _key) in zip(reversed(grid.children), self.commanders):
            if isinstance(row, CommanderRow):
                row.label = label
            else:
                row.text = label

    def _row(self, label: str, key):
        opponent, partner = key
        if partner is None:  # "partner of …": the table names one first (CR 702.124)
            button = BigButton(text=label, font_size=sp(17), background_color=(0.3, 0.35, 0.45, 1))
            button.bind(on_release=lambda *_: running_app().screen("table").name_partner(self.player_id, opponent))
            button.key = key
            return button
        row = CommanderRow(label=label, player_id=self.player_id, source=key)
        row.key = key
        return row


class TurnSheet(ModalView):
    """Portrait: the side column (turn, phases, monarch, initiative, day/night, event, plane, Next
    phase, End turn) in a sheet the turn bar opens. The sheet is as tall as the column needs, its
    scrolling part shown whole, up to most of the window: a tall window showed an empty band."""

    content_height = NumericProperty(0)
    _followed = None   # the column whose height the sheet follows (bound once: it comes back at each turn)

    def hold(self, side) -> None:
        """Take the side column, and follow the height it needs (an event or a plane adds lines)."""
        self.add_widget(side)
        fit = Clock.create_trigger(lambda dt: setattr(self, "content_height", _whole_height(side)))
        if self._followed is not side:
            self._followed = side
            for child in side.children:
                child.bind(height=lambda *_: fit())
                if isinstance(child, ScrollView) and child.children:
                    child.children[0].bind(height=lambda *_: fit())
        fit()


def _whole_height(column) -> float:
    """A vertical BoxLayout's height with each of its scrolling views holding its content whole."""
    heights = [child.children[0].height if isinstance(child, ScrollView) and child.children else child.height
               for child in column.children]
    return sum(heights) + column.spacing * max(len(heights) - 1, 0) + column.padding[1] + column.padding[3]


class PlayerPanel(BoxLayout):
    """One player's life, poison and commander damage, big enough to read across the table."""

    player_id = NumericProperty(0)
    name = StringProperty("")
    rgba = ListProperty([1, 1, 1, 1])
    life = StringProperty("")
    recent = StringProperty("")              # "−7": the change of the last seconds
    poison = NumericProperty(0)
    active = BooleanProperty(False)
    left = BooleanProperty(False)
    pregame = BooleanProperty(False)         # before turn 1: mulligan / keep
    kept = BooleanProperty(False)
    hand = StringProperty("")
    horde = BooleanProperty(False)           # Horde: no life of one's own, no commander damage
    sources = ListProperty([])               # labels of the commanders that may deal damage (partners apart),
    # then one "partner of …" entry per opponent to name a partner
    source_ids = DictProperty({})            # label -> (player id, partner name) or (player id, None): name one
    source = ObjectProperty(None, allownone=True)  # the commander picked: (player id, partner name "" or a name)
    source_label = StringProperty("")
    elimination = StringProperty("")         # why the game proposes that this player leaves
    counter = StringProperty("poison")       # the counter the counter row's −/+ change (presenter.COUNTERS)
    counter_value = NumericProperty(0)
    counter_ids = DictProperty({})           # the counter menu: "Energy 3" -> "energy"
    counter_labels = ListProperty([])
    counter_label = StringProperty("")
    in_use = StringProperty("")              # the other counters that are not 0, "Energy 3 · Rad 1"
    badges = ListProperty([])                # [which, its words, who it may be given to] per badge held
    compact = BooleanProperty(False)         # name and life only; the rest in the player's sheet
    pregame_stacked = BooleanProperty(False)  # Mulligan over Keep: a narrow panel
    slim = BooleanProperty(False)            # a short compact panel: no gaps, rows of a finger's height
    row_min = NumericProperty(dp(52))        # the least height of a row of buttons (mulligans, elimination)
    elimination_stacked = BooleanProperty(False)  # the reason over its two buttons: a narrow slim panel

    def on_kv_post(self, *_):
        self.sheet = PlayerSheet()
        self.sheet.player_id = self.player_id
        # the parts that move between the panel and its sheet, held (kv ids are weak)
        self.parts = SimpleNamespace(**{name: self.ids[name].__self__
                                        for name in ("more_button", "turn", "leave", "more", "header", "tools",
                                                     "commander_row", "life", "filler")})
        self.bind(size=self.arrange, name=self.arrange, compact=self.arrange, elimination=self.arrange)
        self.arrange()

    def on_name(self, *_):
        if hasattr(self, "sheet"):
            self.sheet.title = self.name

    def on_rgba(self, *_):
        if hasattr(self, "sheet"):
            self.sheet.rgba = self.rgba

    def arrange(self, *_) -> None:
        """Where the panel's parts go. Full panel (large tablet, landscape): a name that would be smaller
        than NAME_MIN_SP beside the turn and leave buttons gets the header to itself (the buttons go
        to a row below), and the counters sit in the panel. Compact panel: the name and the sheet's
        button; turning, leaving and the counters in the player's sheet. Slim panel (a short compact one:
        five strips on a phone held upright, a phone turned sideways, #27): no gaps between its rows, rows
        of buttons of a finger's height, and a proposed elimination alone in it."""
        ids, sheet = self.parts, self.sheet.ids
        self.slim = self.compact and presenter.slim_panel(self.height / dp(1))
        self.row_min = dp(presenter.FINGER_DP if self.slim else presenter.LIFE_STEP_DP)
        self.elimination_stacked = self.slim and self.width < dp(300)
        # Mulligan over Keep in a narrow panel, when its height has room for both under the name's row (else
        # side by side, wrapped); a slim panel keeps no gaps between its rows
        chrome = dp(14) if self.slim else dp(30)
        self.pregame_stacked = self.compact and self.width < dp(250) and \
            self.height >= dp(48) + 2 * self.row_min + dp(4) + chrome
        # a slim panel shows a proposed elimination alone (its words name the player): no room for its life
        proposed_out = self.slim and bool(self.elimination)
        self._show_life(not self.horde and not (self.compact and self.pregame) and not proposed_out)
        if self.compact:
            places = {ids.more_button: ids.header, ids.turn: sheet.tools, ids.leave: sheet.tools,
                      ids.more: sheet.counters}
        else:
            beside = self.width - self.padding[0] - self.padding[2] - dp(52 + 100 + 12)
            narrow = beside / max(1, len(self.name)) * 1.6 < sp(NAME_MIN_SP)
            target = ids.tools if narrow else ids.header
            places = {ids.more_button: None, ids.turn: target, ids.leave: target, ids.more: self}
        for widget, target in places.items():
            if widget.parent == target:  # (kv ids are proxies: compare, not `is`)
                continue
            if widget.parent is not None:
                widget.parent.remove_widget(widget)
            if target is self:  # the counters: back above the commander row
                self.add_widget(widget, index=self.children.index(ids.commander_row) + 1)
            elif target is not None:
                target.add_widget(widget)

    def on_pregame(self, *_):
        if hasattr(self, "parts"):
            self.arrange()

    def _show_life(self, shown: bool) -> None:
        """The life box, or a filler that keeps the rows at the top: the Horde's players share the City's
        life (its own panel), and a compact panel before the game shows the mulligans where its life
        goes (it does not change yet): the small panels of a phone keep buttons of a finger's size."""
        life, filler = self.parts.life, self.parts.filler
        present, absent = (life, filler) if shown else (filler, life)
        if absent.parent is not None:
            self.remove_widget(absent)
        if present.parent is None and shown:
            after = self.parts.more if self.parts.more.parent == self else self.parts.commander_row
            self.add_widget(life, index=self.children.index(after) + 1)
        elif present.parent is None:
            self.add_widget(filler)  # the last row

    def pick_counter(self, label: str) -> None:
        """The counter menu: −/+ now change that counter (the screen refreshes its value)."""
        if label in self.counter_ids and self.counter_ids[label] != self.counter:
            self.counter = self.counter_ids[label]
            running_app().screen("table").refresh()

    def on_badges(self, *_):
        """The monarch's or the initiative's badge on its holder's panel: a menu of the players it may go
        to, one tap gives it (autopilot: 'seat-2.badge_monarch')."""
        row = self.ids.badges
        row.clear_widgets()
        for key in [key for key in self.ids if key.startswith("badge_")]:
            del self.ids[key]
        for which, words, choices in self.badges:
            badge = Spinner(text=words, values=choices, font_size=sp(15), bold=True, option_cls="TableOption",
                            background_color=(0.85, 0.65, 0.2, 1), size_hint_x=None, width=dp(104))
            badge.bind(text=lambda menu, text, w=which: running_app().screen("table").give(w, text, menu))
            row.add_widget(badge)
            self.ids[f"badge_{which}"] = badge

    def pick_source(self, label: str) -> None:
        if label not in self.source_ids:
            return
        player, partner = self.source_ids[label]
        if partner is None:  # "partner of …": the table names the partner first
            running_app().screen("table").name_partner(self.player_id, player)
            self.ids.source.text = self.source_label
            return
        self.source = (player, partner)
        self.source_label = label


class CityPanel(BoxLayout):
    """Horde (HO 300.3): the City's life, shared by the players, as the big number."""

    life = StringProperty("")
    recent = StringProperty("")
    start = NumericProperty(0)
    wave = StringProperty("")
    result = StringProperty("")
    draw_due = BooleanProperty(False)        # the Horde's turn prompts its draw (HO 201.2)
    revealed = StringProperty("")            # what its last draw or damage revealed
    narrow = BooleanProperty(False)          # a phone turned sideways: the City in a column
    bosses = ListProperty([])                # (which, words) of each boss on the battlefield: its leaving is a
    # button (HO 202.2)

    def on_width(self, *_):
        """A narrow City (a phone turned sideways) draws on a row of its own: its damage buttons keep
        their words."""
        if "horde_draw" not in self.ids:
            return  # before its kv rule
        draw = self.ids.horde_draw.__self__
        self.narrow = self.width < dp(360)
        target = self.ids.draw_row if self.narrow else self.ids.actions
        if draw.parent != target:
            draw.parent.remove_widget(draw)
            target.add_widget(draw, index=len(target.children))

    def on_bosses(self, *_):
        row = self.ids.bosses
        row.clear_widgets()
        for which, words in self.bosses:
            button = BigButton(text=words, font_size="16sp", background_color=(0.55, 0.25, 0.2, 1))
            button.which = which
            button.bind(on_release=lambda _b, w=which: running_app().play(presenter.horde_boss_leaves, w))
            row.add_widget(button)
        self.ids.boss_row.shown = bool(self.bosses)


class SeatFrame(Widget):
    """Holds one panel turned to face its seat (0°, 90°, 180°, 270°). The panel is laid out in the
    turned frame (width and height swap at 90°) and touches follow the turn (Scatter)."""

    def __init__(self, panel, rotation: int, **kwargs):
        super().__init__(**kwargs)
        self.panel, self.seat_rotation = panel, rotation
        panel.size_hint = (None, None)
        self.turn = Scatter(do_rotation=False, do_scale=False, do_translation=False, auto_bring_to_front=False,
                            size_hint=(None, None))
        self.turn.add_widget(panel)
        self.add_widget(self.turn)
        self.bind(size=self._place, pos=self._place)

    def set_rotation(self, rotation: int) -> None:
        self.seat_rotation = rotation
        self._place()
        if isinstance(self.parent, SeatGrid):
            self.parent._layout()  # a panel turned across its row may need the row's height back

    def _place(self, *_):
        width, height = self.size
        self.panel.size = (height, width) if self.seat_rotation % 180 else (width, height)
        self.turn.rotation = 0
        self.turn.size = self.panel.size
        self.turn.pos = self.pos
        self.turn.rotation = self.seat_rotation
        self.turn.center = self.center


class SeatGrid(Widget):
    """The seats in rows of near-square cells (`presenter.grid_shape`), so a panel reads as well
    turned as upright."""

    frames = ListProperty([])
    city = BooleanProperty(False)   # the first frame is the Horde's City: a row of its own
    rows = ListProperty([])         # panels per row, far row first (`presenter.seat_rows`)
    city_beside = BooleanProperty(False)  # the City in a column on the left, the players' rows beside it

    def on_city_beside(self, *_):
        self._layout()

    def on_rows(self, *_):
        self._layout()

    def on_frames(self, *_):
        self.clear_widgets()
        for frame in self.frames:
            self.add_widget(frame)
            frame.panel.bind(minimum_height=lambda *_: self._layout())
        self._layout()

    def on_size(self, *_):
        self._layout()

    def on_pos(self, *_):
        self._layout()

    def _layout(self) -> None:
        if not self.frames:
            return
        rows = list(self.rows) or presenter.grid_shape(len(self.frames) - self.city, self.city)
        if sum(rows) != len(self.frames):
            return  # the frames of a new table, the rows of the one before: laid out once both are set
        left, width, frames = self.x, self.width, list(self.frames)
        if self.city and self.city_beside:
            city, *frames = frames
            city.size = (width * presenter.CITY_COLUMN - GAP / 2, self.height)
            city.pos = (left, self.y)
            left, width, rows = left + city.width + GAP, width - city.width - GAP, rows[1:]
            heights = [(self.height - GAP * (len(rows) - 1)) / len(rows)] * len(rows)
        else:
            heights = self._row_heights(rows)
        frames = iter(frames)
        top = self.top
        for row_height, count in zip(heights, rows):
            cell = (width - GAP * (count - 1)) / count
            for column in range(count):
                frame = next(frames)
                frame.size = (cell, row_height)
                frame.pos = (left + column * (cell + GAP), top - row_height)
            top -= row_height + GAP

    def _row_heights(self, rows: list[int]) -> list[float]:
        free = self.height - GAP * (len(rows) - 1)
        if self.city:
            players = self.frames[1:]
            heights = presenter.horde_rows(free,
                                           [frame.panel.minimum_height for frame in players],
                                           turned=any(frame.seat_rotation % 180 for frame in players),
                                           player_rows=len(rows) - 1,
                                           city_need=self.frames[0].panel.minimum_height if len(rows) > 2 else None)
            return heights
        return [free / len(rows)] * len(rows)


class TableScreen(Screen):
    turn_text = StringProperty("")
    event_text = StringProperty("")
    plane_text = StringProperty("")
    winner = StringProperty("")
    horde_draw_due = BooleanProperty(False)
    event_needs_counter = BooleanProperty(False)
    planar_pending = BooleanProperty(False)
    side_wide = BooleanProperty(False)   # the side column holds an event, a plane or the winner
    phase_track = StringProperty("")     # the turn's phases, the current one marked
    monarch_text = StringProperty("")    # "Monarch: Anna" (CR 724)
    monarch_choices = ListProperty([])   # "Bruno becomes the monarch", … : one tap gives it
    initiative_text = StringProperty("")  # (CR 725)
    initiative_choices = ListProperty([])
    day_night_text = StringProperty("")  # day, night or not yet (CR 726)
    next_day_night = StringProperty("day")  # what a tap on it makes it
    event_counter = NumericProperty(3)  # turn counter X the table enters for an event without one (MT 7.06.d)
    bar_text = StringProperty("")       # portrait: the turn bar's one line
    side_width = NumericProperty(dp(196))  # landscape: the side column's width

    def on_kv_post(self, *_):
        app = running_app()
        app.bind(revision=lambda *_: self.refresh(), seat_layout=lambda *_: self.reset_rotations(),
                 device=self._apply_layout, portrait=self._apply_layout)
        self._turn_sheet = TurnSheet()
        # the side column and the turn bar, held (kv ids are weak): each is out of the tree in one layout
        self._side, self._turn_bar = self.ids.side.__self__, self.ids.turn_bar.__self__
        self._built_for = None
        self._panels: dict[int, PlayerPanel] = {}
        self._frames: dict[int, SeatFrame] = {}
        self._city: CityPanel | None = None
        self._recent: dict[int, RecentChange] = {}
        self._partners: dict[int, set[str]] = {}  # partner commanders named at this table (damage apart)
        self._give_choices: dict[str, dict[str, int]] = {}  # which -> the menu's words -> the player given it
        self._turn_seen = None
        self._fade = None
        self.refresh()
        self._apply_layout()

    def on_pre_enter(self, *_):
        self.refresh()

    def find_widget(self, path: str):
        """'seat-2.leave': a widget of player 2's panel; 'city.life.plus_1' of the City's;
        'seat-2.commander-1.minus_5' of the row of player 1's commander in player 2's commander grid
        (driven by the autopilot like a tap)."""
        head, *rest = path.split(".")
        widget = self._city if head == "city" else self._panels[int(head.split("-")[1])]
        if rest and rest[0].startswith("commander-"):  # 'seat-2.commander-1.minus_5': the sheet's grid, the
            opponent = int(rest.pop(0).split("-")[1])   # row of player 1's commander
            widget = next(row for row in widget.sheet.ids.grid.children
                          if isinstance(row, CommanderRow) and row.source == (opponent, ""))
        for name in rest:  # 'seat-2.life.minus_5': ids of the parts inside the panel too
            widget = widget.ids[name]
        return widget

    def autopilot_report(self) -> dict:
        return {"rotations": {str(pid): frame.seat_rotation for pid, frame in self._frames.items()},
                "sources": {str(pid): list(panel.sources) for pid, panel in self._panels.items()},
                "source": {str(pid): list(panel.source) if panel.source else None for pid, panel in self._panels.items()},
                "recent": {str(pid): panel.recent for pid, panel in self._panels.items()},
                "life_shown": {str(pid): panel.life for pid, panel in self._panels.items()},
                "elimination": {str(pid): panel.elimination for pid, panel in self._panels.items()},
                "city": self._city.life if self._city is not None else None,
                "city_share": round(self._city.parent.parent.height / self.ids.seats.height, 3)  # its frame's
                if self._city is not None and self.ids.seats.height else None,
                "winner": self.winner, "horde_draw_due": self.horde_draw_due,
                "counter": {str(pid): [panel.counter, panel.counter_value] for pid, panel in self._panels.items()},
                "in_use": {str(pid): panel.in_use for pid, panel in self._panels.items()},
                "badges": {str(pid): [which for which, *_ in panel.badges] for pid, panel in self._panels.items()},
                "monarch": self.monarch_text, "initiative": self.initiative_text, "day_night": self.day_night_text,
                "name_alone": {str(pid): panel.ids.turn.parent == panel.ids.tools for pid, panel in self._panels.items()},
                "name_sp": {str(pid): round(panel.ids.name.font_size / sp(1), 1) for pid, panel in self._panels.items()}}

    # -- building ------------------------------------------------------
    def _rotation(self, seat: int, player: int, count: int) -> int:
        """The player's kept turn, else the quick layout's for this device class and orientation."""
        app = running_app()
        kept = app.prefs.rotation(app.game_key, player)
        if kept is not None:
            return kept
        return presenter.default_rotation(seat, count, presenter.seat_layout_for(app.seat_layout, app.device, app.portrait),
                                          presenter.seat_rows(count, app.device, app.portrait))

    # -- laying out for the device -------------------------------------
    def _apply_layout(self, *_) -> None:
        """The layout of the device class and orientation (issue #27), again when the window turns:
        compact or full panels, their rows, their default turns, the side column or the turn bar."""
        app = running_app()
        compact = presenter.compact_panels(app.device, app.portrait)
        for panel in self._panels.values():
            panel.compact = compact
        self._place_side(presenter.turn_in_bar(app.portrait))
        self.side_width = self._side_width()
        if app.game is not None and self._panels:
            players = app.game.state.players
            self.ids.seats.city_beside = presenter.city_beside(app.device, app.portrait)
            self.ids.seats.rows = presenter.seat_rows(len(players), app.device, app.portrait, self._city is not None)
            for seat, player in enumerate(players):
                if player.id in self._frames:
                    self._frames[player.id].set_rotation(self._rotation(seat, player.id, len(players)))

    def _side_width(self) -> float:
        app = running_app()
        if app.device == "large":
            return dp(300) if self.side_wide else dp(196)
        return dp(260) if app.device == "small" else dp(210)

    def _place_side(self, in_bar: bool) -> None:
        """Portrait: the side column goes into the turn sheet, the bar takes its place below the seats."""
        body, side, bar = self.ids.body, self._side, self._turn_bar
        if in_bar:
            if side.parent == body:
                body.remove_widget(side)
                self._turn_sheet.hold(side)
            if bar.parent is None:
                body.add_widget(bar)
            return
        if self._turn_sheet.parent is not None:
            self._turn_sheet.dismiss(animation=False)
        if side.parent != body:
            side.parent.remove_widget(side)
            body.add_widget(side)
            side.width = self.side_width  # the sheet's width it had: the column's again
        if bar.parent is not None:
            body.remove_widget(bar)

    def _sheets(self) -> list[ModalView]:
        return [self._turn_sheet, *(panel.sheet for panel in self._panels.values())]

    def open_turn_sheet(self) -> None:
        """The turn bar's tap (portrait): the turn, the phases and the events in a sheet."""
        if self.ids.side.parent == self._turn_sheet and self._turn_sheet.parent is None:
            self._turn_sheet.open(animation=False)

    def open_sheet(self, player_id: int) -> None:
        """A panel's sheet: its counters, its commander grid, turning and leaving (compact panels)."""
        sheet = self._panels[player_id].sheet
        if sheet.parent is None:
            sheet.open(animation=False)

    def reveal(self, widget) -> bool:
        """The autopilot taps `widget` (issue #27: one script for every device class): open the sheet
        holding it, or close a sheet that covers the panels; True when something had to change."""
        holder, node = None, widget
        while node is not None and node is not node.parent:
            if isinstance(node, ModalView):
                holder = node
                break
            node = node.parent
        changed = False
        for sheet in self._sheets():
            if sheet.parent is not None and sheet is not holder:
                sheet.dismiss(animation=False)
                changed = True
        if holder is not None and holder.parent is None and holder in self._sheets():
            holder.open(animation=False)
            changed = True
        return changed

    def layout_cases(self) -> dict:
        """Every pop-up, sheet and menu the Table opens (the layout matrix measures each)."""
        def first() -> PlayerPanel:
            return next(iter(self._panels.values()))

        def menu(spinner):  # scrolled into sight first, as a finger does: its list opens beside it
            self.reveal(spinner)
            view = spinner.parent
            while view is not None and view is not view.parent and not isinstance(view, ScrollView):
                view = view.parent
            if isinstance(view, ScrollView):
                view.scroll_to(spinner, padding=dp(8), animate=False)
            spinner.is_open = True

        def source():  # an opponent's commander (none in the Horde: the players are allies)
            return next((key for key in first().source_ids.values() if key[1] is not None), None)

        return {"life_keypad": lambda: self.type_life(first().player_id),
                "player_sheet": lambda: self.open_sheet(first().player_id),
                "counter_menu": lambda: menu(first().ids.poison.ids.counter),
                "commander_keypad": lambda: source() and self.type_commander(first().player_id, source=source()),
                "partner": lambda: source() and self.name_partner(first().player_id, source()[0]),
                "leave": lambda: self.confirm_leave(first().player_id),
                "turn_sheet": self.open_turn_sheet,
                "monarch_menu": lambda: menu(self.ids.monarch),
                "initiative_menu": lambda: menu(self.ids.initiative)}

    def _build(self, state) -> None:
        self._panels, self._frames, self._recent, self._city = {}, {}, {}, None
        frames = []
        if state.horde is not None:
            self._city = CityPanel()
            frames.append(SeatFrame(self._city, 0))
        for seat, player in enumerate(state.players):
            panel = PlayerPanel(player_id=player.id, horde=state.horde is not None)
            self._panels[player.id] = panel
            self._frames[player.id] = SeatFrame(panel, self._rotation(seat, player.id, len(state.players)))
            self._recent[player.id] = RecentChange()
            frames.append(self._frames[player.id])
        self._recent[0] = RecentChange()  # the City's
        self.ids.seats.city = self._city is not None
        self.ids.seats.frames = frames
        self._apply_layout()

    def reset_rotations(self) -> None:
        """Settings turned the whole table: every panel takes the layout's turn (kept turns forgotten)."""
        app = running_app()
        if app.game is None:
            return
        app.prefs.rotations.pop(app.game_key, None)
        app.prefs.save()
        self._apply_layout()

    def turn_panel(self, player_id: int) -> None:
        """The panel's turn button: a quarter turn, kept for this player."""
        app = running_app()
        frame = self._frames[player_id]
        rotation = presenter.next_rotation(frame.seat_rotation)
        app.prefs.set_rotation(app.game_key, player_id, rotation)
        frame.set_rotation(rotation)

    # -- refreshing ----------------------------------------------------
    def refresh(self) -> None:
        app = running_app()
        if app.game is None:
            return
        state = app.game.state
        key = (app.game_key, tuple(p.id for p in state.players), state.horde is not None)
        if self._built_for != key:
            self._build(state)
            self._built_for = key
        now = app.clock().timestamp()
        turn = (state.turn.number, tuple(state.turn.active), state.turn.horde)
        new_turn, self._turn_seen = turn != self._turn_seen, turn
        self._give_choices = {which: presenter.give_choices(state, which, app.lang)
                              for which in presenter.DESIGNATIONS}
        self.monarch_text = presenter.designation_text(state, "monarch", app.lang)
        self.initiative_text = presenter.designation_text(state, "initiative", app.lang)
        self.monarch_choices = list(self._give_choices["monarch"])
        self.initiative_choices = list(self._give_choices["initiative"])
        self.day_night_text = presenter.day_night_text(state, app.lang)
        self.next_day_night = presenter.next_day_night(state)
        for view in presenter.panels(app.game, app.lang, self._partners):
            panel = self._panels[view.player]
            panel.name, panel.rgba, panel.life = view.name, list(view.rgba), view.life
            panel.recent = RecentChange.text(self._recent[view.player].update(
                int(view.life) if view.life else None, now))
            panel.poison, panel.active, panel.left = view.poison, view.active, view.left
            panel.pregame, panel.kept, panel.hand = view.pregame, view.kept, view.hand
            panel.elimination = view.elimination
            panel.counter_ids = presenter.counter_choices(view, app.lang)
            panel.counter_labels = list(panel.counter_ids)
            panel.counter_label = next(label for label, name in panel.counter_ids.items() if name == panel.counter)
            panel.counter_value = view.counter(panel.counter)
            panel.in_use = presenter.counters_in_use(view, panel.counter, app.lang)
            panel.badges = [[which, app.t(f"table.{which}_badge"), list(self._give_choices[which])]
                            for which in view.badges]
            labels = {source.label(app.lang): (source.player, source.partner) for source in view.sources}
            commanders = set(labels.values())
            for opponent in dict.fromkeys(source.player for source in view.sources
                                          if not state.player(source.player).left):
                labels[app.t("table.name_partner", name=state.player(opponent).name)] = (opponent, None)
            panel.source_ids = labels
            panel.sources = list(labels)
            if new_turn or panel.source not in commanders:  # each turn: who attacks now
                panel.source = (view.default_source, "") if view.default_source else None
            panel.source_label = next((label for label, key in labels.items() if key == panel.source), "")
            panel.sheet.commanders = [] if view.left else list(labels.items())
        city = presenter.city(state, app.lang)
        if city is not None and self._city is not None:
            self._city.life, self._city.start, self._city.wave, self._city.result = (
                str(city.life), city.start, city.wave, city.result)
            self._city.bosses = list(city.bosses)
            self._city.revealed = city.revealed
            self._city.recent = RecentChange.text(self._recent[0].update(city.life, now))
        self.phase_track = presenter.phase_track(state, app.lang)
        self.turn_text = turn_header(state, app.lang) if self.phase_track else turn_text(state, app.lang)
        self.event_text = presenter.event_text(state, app.lang)
        self.plane_text = presenter.plane_text(state, app.lang)
        self.winner = presenter.winner_text(state, app.lang)
        self.horde_draw_due = presenter.horde_draw_due(app.game)
        if self._city is not None:
            self._city.draw_due = self.horde_draw_due
        self.event_needs_counter = app.game.event_needs_counter
        self.planar_pending = bool(state.planar and state.planar.pending)
        self.side_wide = presenter.side_wide(state)
        self.side_width = self._side_width()
        self.bar_text = presenter.turn_bar_text(state, app.lang)
        if self._fade is not None:
            self._fade.cancel()
        self._fade = Clock.schedule_once(lambda dt: self._fade_recent(), presenter.RECENT_CHANGE_S + 0.1)

    def _fade_recent(self) -> None:
        """The recent change fades after a pause: refresh the numbers beside the totals."""
        now = running_app().clock().timestamp()
        for pid, panel in self._panels.items():
            panel.recent = RecentChange.text(self._recent[pid].update(int(panel.life) if panel.life else None, now))
        if self._city is not None:
            self._city.recent = RecentChange.text(self._recent[0].update(int(self._city.life), now))

    # -- actions -------------------------------------------------------
    def life_holder(self) -> int:
        """Horde: the City's life changes through any player still in (HO 300.3)."""
        return running_app().game.state.alive[0].id

    def step_counter(self, player_id: int, counter: str, amount: int) -> None:
        """A tap (or a held button's step) on a panel's counter row: joined to the taps a moment ago."""
        app = running_app()
        if counter == "poison":
            app.play(presenter.change_poison, player_id, amount, join=True)
        else:
            app.play(presenter.change_counter, player_id, counter, amount, join=True)

    def give(self, which: str, label: str, menu) -> None:
        """A player picked in the monarch's or the initiative's menu (the turn panel's, or the badge on
        its holder's panel) gets it; the menu goes back to its own words (who holds it, or the badge's),
        refused or not."""
        player = self._give_choices.get(which, {}).get(label)
        if player is None:
            return
        app = running_app()
        app.play(presenter.give_monarch if which == "monarch" else presenter.give_initiative, player)
        self.refresh()
        side = menu in (self.ids.monarch, self.ids.initiative)  # (kv ids are proxies: compare, not `is`)
        menu.text = getattr(self, f"{which}_text") if side else app.t(f"table.{which}_badge")

    def type_life(self, player_id: int | None) -> None:
        """Tap on the total: type the new total ("12") or a change ("−7", "+3") on big keys."""
        app = running_app()
        state = app.game.state
        name = state.player(player_id).name if player_id else app.t("table.city")
        pad = NumberPad(title=app.t("table.type_life", name=name), hint=app.t("table.type_hint"),
                        ok=app.t("table.ok"), cancel=app.t("table.cancel"), erase=app.t("table.erase"))
        holder = player_id or self.life_holder()

        def enter(text: str) -> None:
            meant = presenter.typed_life(text)
            if meant is None:
                return
            kind, value = meant
            app.play(presenter.change_life if kind == "change" else presenter.set_life, holder, value)

        pad.on_enter = enter
        pad.open()

    def commander(self, player_id: int, amount: int, *, join: bool = True, source=None) -> None:
        """Commander damage from `source` (opponent, partner), a row of the sheet's grid, or else the
        commander picked in the panel: a tap (joined to the taps of the last seconds: one change, one
        history line) or an amount typed on the keypad."""
        source = source or self._panels[player_id].source
        if source:
            opponent, partner = source
            running_app().play(presenter.commander_damage, player_id, opponent, amount, partner=partner, join=join)

    def type_commander(self, player_id: int, source=None) -> None:
        """The "…" of the panel or of a row of the grid: commander damage typed on big keys — the new
        total ("21") or a change ("+7")."""
        app = running_app()
        picked = source or self._panels[player_id].source
        if not picked:
            return
        state = app.game.state
        source, partner = picked
        pad = NumberPad(title=app.t("table.type_commander", name=state.player(player_id).name,
                                    commander=partner or state.player(source).name),
                        hint=app.t("table.type_hint"), ok=app.t("table.ok"), cancel=app.t("table.cancel"),
                        erase=app.t("table.erase"))

        def enter(text: str) -> None:
            amount = presenter.typed_commander_damage(text, presenter.commander_taken(state, player_id, source, partner))
            if amount:
                self.commander(player_id, amount, join=False, source=picked)

        pad.on_enter = enter
        pad.open()

    def name_partner(self, player_id: int, opponent: int) -> None:
        """An opponent plays partner commanders (CR 702.124): the table names one, its damage counts apart."""
        app = running_app()
        popup = TextPopup(title=app.t("table.partner_title", name=app.game.state.player(opponent).name),
                          hint=app.t("table.partner_hint"), ok=app.t("table.ok"), cancel=app.t("table.cancel"))

        def named(text: str) -> None:
            name = " ".join(text.split())[:40].replace(":", " ")
            if name:
                self._partners.setdefault(opponent, set()).add(name)
                self._panels[player_id].source = (opponent, name)
                self.refresh()

        popup.on_enter = named
        popup.open()

    def confirm_leave(self, player_id: int) -> None:
        """Leaving the game cannot be taken back by mistake: ask first (undo still works after)."""
        app = running_app()
        name = app.game.state.player(player_id).name
        popup = ConfirmPopup(title=app.t("table.leave_title"), question=app.t("table.leave_question", name=name),
                             yes=app.t("table.leave_yes", name=name), no=app.t("table.cancel"))

        def leave() -> None:
            app.play(presenter.player_leaves, player_id, "conceded")

        popup.on_agree = leave
        popup.open()
