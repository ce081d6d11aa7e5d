"""New game / continue: players (names, token colours, seats, planar decks), board (bundled,
generated or scanned from a photo), variant, event deck, house rules, dice.

The form only collects choices; `session.new_game(NewGameChoices)` turns them
into a `companion.game` setup. "Continue" reloads the autosaved game.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from kivy.app import App
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from boards import square_label
from companion.app.kv import load_kv_beside
from companion.app.session import GameSession, ScannedBoard
from companion.app.widgets import controls  # noqa: F401
from companion.game import EventDeckList, load_event_deck, minimum_deck_size, prebuilt_event_deck
from companion.rules import HouseRules

load_kv_beside(__file__)

MAX_PLAYERS = 5  # five token colours (MT 9.02.a)
DOUBTS_LISTED = 12  # a scanned board's doubtful squares named on the form (the camera screen lists all)


@dataclass
class NewGameChoices:
    """What the form collects; seats are the order of `players` (name, token colour 1..5)."""

    players: list[tuple[str, int]]
    board: str                      # a library board name, "generated" or "scanned"
    variant: str = "free_for_all"
    planechase: bool = False
    events: bool = False
    horde_difficulty: str = "beginner"
    house_rules: HouseRules = field(default_factory=HouseRules)
    planes: list[str] = field(default_factory=list)  # per player: plane names typed (comma/line separated)
    event_deck: EventDeckList | None = None          # the deck used when `events` is on
    scanned: ScannedBoard | None = None


class PlayerRow(BoxLayout):
    """One seat of the form: playing or not, name, token colour, planar deck (Planechase)."""

    seat = NumericProperty(1)
    colour = NumericProperty(1)
    enabled = BooleanProperty(False)
    colour_names = ListProperty([])
    planechase = BooleanProperty(False)


class NewGameScreen(Screen):
    board_names = ListProperty([])
    variant = StringProperty("free_for_all")
    horde_difficulty = StringProperty("beginner")
    movement_die = StringProperty("D12")
    metric = StringProperty("manhattan")
    extra_die_threshold = NumericProperty(HouseRules().extra_die_threshold)
    landwalk_reading = StringProperty(HouseRules().landwalk_reading)
    mana_burn = BooleanProperty(False)
    board_choice = StringProperty("")
    colour_names = ListProperty([])
    planechase = BooleanProperty(False)
    events = BooleanProperty(False)
    scan_text = StringProperty("")
    events_text = StringProperty("")
    house_text = StringProperty("")
    deck_warning = StringProperty("")   # MT 7.02.a: the deck is too small for this many players
    scanned = ObjectProperty(None, allownone=True)

    def on_kv_post(self, *_):
        app = App.get_running_app()
        self.board_names = app.session.board_choices()
        self.board_choice = self.board_names[0] if self.board_names else ""
        self.house_base = HouseRules()
        self.event_deck = prebuilt_event_deck()
        app.bind(lang=lambda *_: self._fill_colours())
        rows = self.ids.players
        for index in range(MAX_PLAYERS):
            row = PlayerRow(seat=index + 1, colour=index + 1, enabled=index < 2)
            row.bind(enabled=lambda *_: self.check_deck())
            rows.add_widget(row)
        self._fill_colours()
        self.bind(events=lambda *_: self.check_deck(), variant=lambda *_: self.check_deck())
        self._describe_deck()

    def find_widget(self, path: str):
        """'player-3.name': a widget of a player row (driven by the autopilot like a tap)."""
        head, _, rest = path.partition(".")
        row = self.rows()[int(head.split("-")[1]) - 1]
        return row.ids[rest] if rest else row

    def autopilot_report(self) -> dict:
        return {"board": self.board_choice, "scan": self.scan_text, "events": self.events,
                "events_text": self.events_text, "deck_warning": self.deck_warning, "house_text": self.house_text,
                "house": {"metric": self.metric, "die": self.movement_die, "extra_die_threshold": self.extra_die_threshold,
                          "landwalk_reading": self.landwalk_reading, "mana_burn": self.mana_burn},
                "doubtful": [list(at) for at in self.scanned.doubtful] if self.scanned else None}

    def rows(self) -> list[PlayerRow]:
        return sorted(self.ids.players.children, key=lambda r: r.seat)

    def _fill_colours(self) -> None:
        app = App.get_running_app()
        self.colour_names = app.session.colour_names(app.lang)
        for row in self.ids.players.children:
            row.colour_names = self.colour_names
        self._describe_deck()

    def on_planechase(self, *_):
        for row in self.ids.players.children:
            row.planechase = self.planechase

    # -- board ---------------------------------------------------------
    def scan(self) -> None:
        """Read the board from the photo file named in the form (vision.scan)."""
        app = App.get_running_app()
        try:
            self.scanned = GameSession.scan_board(self.ids.photo.text, self.ids.grid.text)
        except ValueError as exc:
            self.scanned = None
            self.scan_text = app.t("newgame.scan_failed", error=str(exc))
            return
        board, doubts = self.scanned.board, self.scanned.doubtful
        listed = ", ".join(square_label(at) for at in doubts[:DOUBTS_LISTED]) + (" …" if len(doubts) > DOUBTS_LISTED
                                                                                 else "")
        self.scan_text = app.t("newgame.scanned_ok", width=board.width, height=board.height, count=len(doubts),
                               squares=listed or "–")
        self.board_choice = "scanned"

    # -- event deck (MT 7.02.a) ----------------------------------------
    def load_events(self) -> None:
        app = App.get_running_app()
        path = self.ids.events_file.text.strip()
        try:
            self.event_deck = load_event_deck(path) if path else prebuilt_event_deck()
        except ValueError as exc:
            self.events_text = "[color=ff7060]" + app.t("newgame.load_failed", error=str(exc)) + "[/color]"
            return
        self.events = True
        self._describe_deck()
        self.check_deck()

    def _describe_deck(self) -> None:
        app = App.get_running_app()
        if hasattr(self, "event_deck"):
            self.events_text = app.t("newgame.deck_loaded", name=self.event_deck.name, count=len(self.event_deck.cards))

    def check_deck(self) -> None:
        """MT 7.02.a: 25 cards for two players, 4 more per extra player; say so when the deck is short."""
        app = App.get_running_app()
        players = sum(row.enabled for row in self.ids.players.children)
        needed = minimum_deck_size(players)
        have = len(self.event_deck.cards)
        self.deck_warning = (app.t("newgame.deck_too_small", count=have, players=players, needed=needed)
                             if self.events and have < needed else "")

    def play_without_events(self) -> None:
        self.events = False

    # -- house rules (MT 8.04) -------------------------------------------
    def load_house_rules(self) -> None:
        """Read a house-rules YAML file; its options fill the form (the file's other options are kept)."""
        app = App.get_running_app()
        try:
            house = HouseRules.load(self.ids.house_file.text.strip())
        except ValueError as exc:
            self.house_text = "[color=ff7060]" + app.t("newgame.load_failed", error=str(exc)) + "[/color]"
            return
        self.house_base = house
        self.metric, self.movement_die = house.metric, f"D{house.die_sides}"
        self.extra_die_threshold, self.landwalk_reading, self.mana_burn = (house.extra_die_threshold,
                                                                           house.landwalk_reading, house.mana_burn)
        self.house_text = app.t("newgame.house_loaded", path=self.ids.house_file.text.strip())

    def house_rules(self) -> HouseRules:
        return replace(self.house_base, metric=self.metric, die_sides=int(self.movement_die[1:]),
                       extra_die_threshold=int(self.extra_die_threshold), landwalk_reading=self.landwalk_reading,
                       mana_burn=self.mana_burn)

    # -- start ---------------------------------------------------------
    def choices(self) -> NewGameChoices:
        app = App.get_running_app()
        rows = [row for row in self.rows() if row.enabled]
        players = [(row.ids.name.text.strip() or app.t("newgame.default_name", n=row.seat), row.colour)
                   for row in rows]
        return NewGameChoices(players=players, board=self.board_choice, variant=self.variant,
                              planechase=self.planechase, events=self.events,
                              horde_difficulty=self.horde_difficulty, house_rules=self.house_rules(),
                              planes=[row.ids.planes.text for row in rows], event_deck=self.event_deck,
                              scanned=self.scanned)

    def start(self) -> None:
        app = App.get_running_app()
        choices = self.choices()
        if len(choices.players) < (1 if choices.variant == "horde" else 2):
            app.message = app.t("newgame.need_players")
            return
        if len({colour for _, colour in choices.players}) < len(choices.players):
            app.message = app.t("newgame.colours_repeat")
            return
        self.check_deck()
        if self.deck_warning:
            app.message = self.deck_warning
            return
        if choices.board == "scanned" and choices.scanned is None:
            app.message = app.t("newgame.scan_first")
            return
        if app.perform("new_game", choices) is not None:
            app.selected = None
            app.show("board")

    def continue_game(self) -> None:
        app = App.get_running_app()
        if app.perform("continue_game") is not None:
            app.show("board")
