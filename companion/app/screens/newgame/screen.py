"""New game and saved games: players (names, token colours, seats, planar decks), board (bundled,
generated or scanned from a photo), variant, starting life and player, event deck, house rules,
dice; and every saved game, to continue or delete.

The form only collects choices; `presenter.game_setup` turns them into a `companion.game` setup and
the app starts it — over a game in progress, after asking (that game stays saved and listed).
"""
from __future__ import annotations

import logging
import threading
from dataclasses import replace
from pathlib import Path

from kivy.clock import Clock
from kivy.metrics import dp
from kivy.properties import (BooleanProperty, ListProperty, NumericProperty, ObjectProperty, OptionProperty,
                             StringProperty)
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen
from kivy.uix.spinner import Spinner

from boards import square_label
from companion.app.device import PHONE
from companion.app.kv import load_kv_beside
from companion.app.running import running_app
from companion.app.screens.newgame import flow, presenter, saved  # noqa: F401  (flow: kv classes)
from companion.app.screens.newgame.decks import DECKS_FOLDER, DeckBuilderPopup
from companion.app.screens.newgame.presenter import NewGameChoices
from companion.app.screens.newgame.scanning import ScanError, ScannedBoard, scan_board
from companion.app.widgets import card_search, controls  # noqa: F401  (kv classes)
from companion.app.widgets.controls import ConfirmPopup, NumberPad, scrolling_views
from companion.app.words import MAX_PLAYERS, colour_name, refusal
from companion.game import EventDeckList, SaveError, load_event_deck, prebuilt_event_deck
from companion.rules import HouseRules

load_kv_beside(__file__)
log = logging.getLogger(__name__)

DOUBTS_LISTED = 12  # a scanned board's doubtful squares named on the form (the camera screen lists all)
SEATS_SHOWN_AT_START = 2


def _inside(widget, part) -> bool:
    """Whether `widget` is `part` or lies inside it (kv ids are proxies: compared by the widget itself)."""
    part = getattr(part, "__self__", part)
    node = getattr(widget, "__self__", widget)
    while node is not None:
        if node is part:
            return True
        node = node.parent if node.parent is not node else None
    return False


def _in_window(widget) -> bool:
    """Whether the whole of `widget` stands inside the window (not scrolled past its edges)."""
    from kivy.core.window import Window

    x, y = widget.to_window(widget.x, widget.y)
    right, top = widget.to_window(widget.right, widget.top)
    return x >= 0 and y >= 0 and right <= Window.width and top <= Window.height


class StartingPlayerSpinner(Spinner):
    """The first-player list (#27): while it is open, it stays beside its button when the form moves
    under it — the view scrolls, or a section above closes as the form is filled (a Horde table has no
    event deck), which left the list of a small tablet turned sideways off the window. Kivy places a
    spinner's list from where its button was, and follows only the button's own moves."""

    def on_kv_post(self, *_):
        self._follow = Clock.create_trigger(self._beside, -1)  # before the next frame

    def _beside(self, *_):
        """The views' content placed where they scrolled to first (they do it before a frame too, maybe
        after this), then the list beside the button."""
        if self.is_open:
            for view in reversed(scrolling_views(self)):
                view.update_from_scroll()
            self._dropdown._reposition()

    def on_is_open(self, instance, value):
        super().on_is_open(instance, value)
        for view in scrolling_views(self):
            if value:
                view.bind(scroll_y=self._follow, scroll_x=self._follow, pos=self._follow, size=self._follow)
                view.children[0].bind(size=self._follow, pos=self._follow)
            else:
                view.unbind(scroll_y=self._follow, scroll_x=self._follow, pos=self._follow, size=self._follow)
                view.children[0].unbind(size=self._follow, pos=self._follow)
        if value:
            self._follow()


class PlayerRow(BoxLayout):
    """One seat of the form: playing or not, name, token colour, planar deck (Planechase). `wide`: all
    on one line; else (a phone, a column of a tablet in portrait) the planar deck under the name."""

    seat = NumericProperty(1)
    colour = NumericProperty(1)
    enabled = BooleanProperty(False)
    colour_names = ListProperty([])
    planechase = BooleanProperty(False)
    wide = BooleanProperty(True)

    def on_kv_post(self, *_):
        self._planes = self.ids.planes.__self__  # kept here: out of the tree, a kv id alone would lose it
        self._place_planes()

    def on_wide(self, *_):
        self._place_planes()

    def on_planechase(self, *_):
        self._place_planes()

    def on_enabled(self, *_):
        self._place_planes()

    def _place_planes(self) -> None:
        """The planar deck field with Planechase only (out of the tree otherwise: no empty gap, no
        hidden target): at the end of the line when wide (greyed for a seat not playing, the lines
        stay aligned), else on its own line under it, for the seats playing only."""
        planes = getattr(self, "_planes", None)
        if planes is None:
            return
        if planes.parent is not None:
            planes.parent.remove_widget(planes)
        if self.planechase and (self.wide or self.enabled):
            (self.ids.line if self.wide else self).add_widget(planes)


class SavedGameRow(BoxLayout):
    """One saved game: when, who, where, which turn; continue or delete."""

    text = StringProperty("")
    path = ObjectProperty(None)
    open_label = StringProperty("")
    openable = BooleanProperty(True)
    current = BooleanProperty(False)
    screen = ObjectProperty(None)


class NewGameScreen(Screen):
    mode = OptionProperty("form", options=("form", "saved"))
    columns = NumericProperty(2)        # the form's columns for this window (presenter.form_columns)
    board_labels = ListProperty([])     # the boards offered, as the table reads them
    board_label = StringProperty("")
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
    setup_warning = StringProperty("")
    scanned = ObjectProperty(None, allownone=True)
    starting_life = NumericProperty(20)
    starting_player = NumericProperty(0)          # a token colour; 0 = drawn at random
    starting_player_label = StringProperty("")
    starting_player_choices = ListProperty([])
    saved_count = NumericProperty(0)
    saved_note = StringProperty("")
    busy = BooleanProperty(False)                 # the saved games are being read (the autopilot waits)
    opening = BooleanProperty(False)              # a layout case's list waits for its button to stand still

    def on_kv_post(self, *_):
        app = running_app()
        # the form and the saved games take turns in the body; kept here (kv ids are weak references)
        self._parts = {"form": self.ids.form.__self__, "saved": self.ids.saved_panel.__self__}
        self._options = (self.ids.options_part.__self__, self.ids.options_scroll.__self__)  # moved by _arrange
        self._start = self.ids.start.__self__
        app.bind(device=lambda *_: self._place_start(), portrait=lambda *_: self._place_start())
        for part in self._parts.values():
            self.remove_widget(part)
        self.ids.body.add_widget(self._parts["form"])
        self._arrange()
        self._place_start()
        self._boards = presenter.board_choices()
        self.board_choice = self._boards[0] if self._boards else ""
        self.house_base = HouseRules()
        self.event_deck = prebuilt_event_deck()
        self.deck_builder: DeckBuilderPopup | None = None
        self._listing = 0
        app.bind(lang=lambda *_: self._reword())
        rows = self.ids.players
        for index in range(MAX_PLAYERS):
            row = PlayerRow(seat=index + 1, colour=index + 1, enabled=index < SEATS_SHOWN_AT_START)
            row.bind(enabled=lambda *_: self.check_deck())
            row.ids.name.bind(text=lambda *_: self.check_setup())
            rows.add_widget(row)
        self.bind(events=lambda *_: self.check_deck(), variant=lambda *_: self.check_deck())
        self._reword()
        self.list_saved()

    def on_pre_enter(self, *_):
        self.list_saved()

    def on_columns(self, *_):
        if hasattr(self, "_parts"):
            self._arrange()

    def on_width(self, *_):
        """The seats column's share of two (it changes with the width, the columns staying two)."""
        if hasattr(self, "_parts") and self.columns == 2:
            self.ids.first_column.size_hint_x = presenter.seats_column_weight(self.width / dp(1))

    def _arrange(self) -> None:
        """Two columns (seats, board and the start button | the options, each scrolling), or one: the
        options under the board in the one scrolling column, the start button still at its foot."""
        form, (options, scroll) = self.ids.form, self._options
        options.parent.remove_widget(options)
        if scroll.parent is not None:
            form.remove_widget(scroll)
        if self.columns == 2:
            scroll.add_widget(options)
            form.add_widget(scroll)
            self.on_width()
        else:
            self.ids.stack.add_widget(options)
            self.ids.first_column.size_hint_x = 1

    def _place_start(self) -> None:
        """The start button at the foot of the form; on a phone turned sideways (#27), beside the
        form's and saved games' tabs, leaving the form's few rows of height to the form, and only
        while the form is shown."""
        app, start = running_app(), self._start
        header = app.device == PHONE and not app.portrait
        if start.parent is not None:
            start.parent.remove_widget(start)
        if not header:
            self.ids.first_column.add_widget(start)
        elif self.mode == "form":
            self.ids.header.add_widget(start)

    def on_mode(self, *_):
        body = self.ids.body
        body.clear_widgets()
        body.add_widget(self._parts[self.mode])
        self._place_start()
        if self.mode == "saved":
            self.list_saved()

    def find_widget(self, path: str):
        """'player-3.name': a widget of a player row; 'saved-0.open': of the first saved game listed;
        'deck.save': of the deck builder; 'deck-2.plus': of its second card (driven by the autopilot
        like a tap)."""
        head, _, rest = path.partition(".")
        if head == "deck":
            return self.deck_builder.ids[rest]
        kind, index = head.split("-")
        if kind == "deck":
            row = list(reversed(self.deck_builder.ids.cards.children))[int(index) - 1]
        elif kind == "saved":
            row = list(reversed(self.ids.saved_list.children))[int(index)]
        else:
            row = self.rows()[int(index) - 1]
        return row.ids[rest] if rest else row

    def reveal(self, widget) -> bool:
        """The autopilot taps a widget of the form (or its start button) while the saved games are
        shown, or one of the saved games while the form is: show its part first, as a person taps the
        tab (#27: the same scripts on every device class). True when the screen had to change."""
        if _inside(widget, self._parts["saved"]):
            wanted = "saved"
        elif _inside(widget, self._parts["form"]) or _inside(widget, self._start):
            wanted = "form"
        else:
            return False
        if wanted == self.mode:
            return False
        self.mode = wanted
        return True

    def reset_for_layout(self) -> None:
        """The device matrix's cases each start from the form as a table first finds it, not from what
        the case before left (the saved games shown, a photo's board chosen, a plane typed)."""
        self.mode = "form"
        for index, row in enumerate(self.rows()):
            row.enabled, row.colour = index < SEATS_SHOWN_AT_START, index + 1
            row.ids.name.text = row.ids.planes.text = ""
        self.variant, self.planechase, self.events = "free_for_all", False, False
        self.board_choice = self._boards[0] if self._boards else ""
        self.check_deck()

    def layout_cases(self) -> dict:
        """What this screen opens, for the device matrix (#27), each in a realistic state: the form
        filled for the table in progress, its drop-down lists, the starting life pad, the planes
        suggestions, the deck builder and its list of decks, a board read from a photo, the
        confirmations; the saved games last."""
        def form(then):   # (each case starts from the form: reset_for_layout)
            return lambda: Clock.schedule_once(lambda dt: then(), 0)   # once the form is laid out

        def drop_down(spinner, frames_left: int = 60, seen_at=None, still: int = 0):
            """Scrolled to, as a person does, and opened once it has stood still in the window for a
            few frames: the form may still be laying out what it was just given (a phone folds its
            rows, a Horde table closes the event deck's section), which moves the button. The screen
            is `opening` meanwhile, and the matrix measures once it is not (however many frames)."""
            self.opening = True
            self._scroll_to(spinner)
            at = tuple(spinner.to_window(*spinner.pos))
            still = still + 1 if at == seen_at and _in_window(spinner) else 0
            if frames_left and still < 3:
                Clock.schedule_once(lambda dt: drop_down(spinner, frames_left - 1, at, still))
                return
            spinner.is_open = True
            self.opening = False

        def planes():
            self.fill_like_game()
            self.planechase = True

            def scroll_there(dt):   # a frame on: the planes fields are laid out
                field = self.rows()[0].ids.planes
                self._scroll_to(field)
                # a frame on again: the view has scrolled there, the list opens under the field
                Clock.schedule_once(lambda dt: setattr(field, "text", "a"))
            Clock.schedule_once(scroll_there)

        def builder_list():
            self.open_deck_builder()
            Clock.schedule_once(lambda dt: setattr(self.deck_builder.ids.start_from, "is_open", True), 0)

        def shown_at(widget_id):
            """Scrolled there a frame on (once laid out): a phone's long column is measured at its top
            and its end, and what lies between is measured here."""
            Clock.schedule_once(lambda dt: self._scroll_to(self.ids[widget_id]))

        def scanned():
            self.board_choice = "scanned"
            self.scan()   # no photo named yet: the form says why it cannot read one
            shown_at("photo")

        def replace():
            self.fill_like_game()
            self.play_without_events()
            self.start()

        return {"filled": form(self.fill_like_game),
                "variants": form(lambda: (self.fill_like_game(), shown_at("variant_horde"))),
                "deck_warning": form(lambda: (self.fill_like_game(), setattr(self, "events", True),
                                              shown_at("without_events"))),
                "board_list": form(lambda: drop_down(self.ids.board)),
                "colour_list": form(lambda: drop_down(self.rows()[0].ids.colour)),
                "starting_player_list": form(lambda: (self.fill_like_game(), drop_down(self.ids.starting_player))),
                "life_pad": form(self.type_starting_life), "planes": form(planes),
                "deck_builder": form(lambda: (self.fill_like_game(), self.open_deck_builder())),
                "deck_builder.decks": form(builder_list), "replace": form(replace),
                "delete": lambda: (setattr(self, "mode", "saved"), self.delete_saved(self._a_saved_game())),
                "scan": form(scanned),
                "saved": lambda: setattr(self, "mode", "saved")}

    def fill_like_game(self) -> None:
        """The form as the table in progress was set up: its players (names, colours), variant,
        Planechase and events (the matrix's realistic state: long names, every option shown)."""
        game = running_app().game
        if game is None:
            return
        state = game.state
        players = list(state.players)
        for row in self.rows():
            playing = row.seat <= len(players)
            row.enabled = playing
            row.ids.name.text = players[row.seat - 1].name if playing else ""
            if playing:
                row.colour = players[row.seat - 1].id  # the token colour
        self.variant = state.format
        self.planechase = bool(state.planechase)
        self.events = state.events is not None
        self.check_deck()

    def _a_saved_game(self) -> Path:
        rows = [row for row in self.ids.saved_list.children if not row.current]
        return rows[0].path if rows else running_app().game.store.path

    def _scroll_to(self, widget) -> None:
        """Scroll the form's view to `widget`, as a person does before opening its list (a view whose
        content it holds whole does not scroll: Kivy would move that content off the view)."""
        for view in (self.ids.first_scroll, self._options[1]):
            if _inside(widget, view) and view.children and view.children[0].height > view.height:
                view.scroll_to(widget, animate=False)

    def autopilot_report(self) -> dict:
        return {"board": self.board_choice, "scan": self.scan_text, "events": self.events,
                "events_text": self.events_text, "deck_warning": self.deck_warning,
                "deck_builder": ({"tally": self.deck_builder.tally, "status": self.deck_builder.status,
                                  "choices": list(self.deck_builder.choices), "cards": self.deck_builder.draft.total,
                                  "rows": [row.text for row in reversed(self.deck_builder.ids.cards.children)]}
                                 if self.deck_builder is not None and self.deck_builder.parent else None), "house_text": self.house_text,
                "house": {"metric": self.metric, "die": self.movement_die, "extra_die_threshold": self.extra_die_threshold,
                          "landwalk_reading": self.landwalk_reading, "mana_burn": self.mana_burn},
                "doubtful": [list(at) for at in self.scanned.doubtful] if self.scanned else None,
                "setup_warning": self.setup_warning, "mode": self.mode,
                "saved": [row.text for row in reversed(self.ids.saved_list.children)]}

    def rows(self) -> list[PlayerRow]:
        return sorted(self.ids.players.children, key=lambda r: r.seat)

    def on_board_choice(self, *_):
        self.board_label = presenter.board_label(self.board_choice, running_app().lang)
        self.check_setup()

    def check_setup(self) -> None:
        """The board's warnings for the seats playing (a small board, fewer start squares than players)."""
        app = running_app()
        if not hasattr(self, "_boards"):
            return
        names = [row.ids.name.text.strip() or app.t("newgame.default_name", n=row.seat) for row in self.rows()
                 if row.enabled]
        scanned = self.scanned.board if self.scanned else None
        self.setup_warning = presenter.setup_warnings(self.board_choice, scanned, names, app.lang)

    def pick_board(self, label: str) -> None:
        app = running_app()
        chosen = next((b for b in self._boards if presenter.board_label(b, app.lang) == label), None)
        if chosen is not None:
            self.board_choice = chosen

    def _reword(self) -> None:
        app = running_app()
        self.board_labels = [presenter.board_label(b, app.lang) for b in self._boards]
        self.on_board_choice()
        self.colour_names = [colour_name(n, app.lang) for n in range(1, MAX_PLAYERS + 1)]
        for row in self.ids.players.children:
            row.colour_names = self.colour_names
        self._describe_deck()
        self.offer_starting_players()
        if self.manager is not None and self.manager.current == self.name:
            self.list_saved()

    def on_planechase(self, *_):
        for row in self.ids.players.children:
            row.planechase = self.planechase

    # -- starting life and player ------------------------------------------
    def type_starting_life(self) -> None:
        """Any starting life the table chooses (20, 30, 40 or another number)."""
        app = running_app()
        pad = NumberPad(title=app.t("newgame.starting_life"), hint=app.t("newgame.life_hint"),
                        ok=app.t("table.ok"), cancel=app.t("table.cancel"), erase=app.t("table.erase"))

        def enter(text: str) -> None:
            digits = text.lstrip("+−")
            if digits.isdigit() and int(digits) > 0:
                self.starting_life = int(digits)

        pad.on_enter = enter
        pad.open()

    def offer_starting_players(self) -> None:
        """The starting player: drawn at random (the game announces who), or one of the seats playing."""
        app = running_app()
        random_label = app.t("newgame.starting_random")
        self._starters = {random_label: 0}
        for row in self.rows():
            if row.enabled:
                self._starters[row.ids.name.text.strip() or app.t("newgame.default_name", n=row.seat)] = row.colour
        self.starting_player_choices = list(self._starters)
        if self.starting_player not in self._starters.values():
            self.starting_player = 0
        self.starting_player_label = next(k for k, v in self._starters.items() if v == self.starting_player)

    def pick_starting_player(self, label: str) -> None:
        if label not in getattr(self, "_starters", {}):
            self.offer_starting_players()  # names typed since the list was made
        if label in self._starters:
            self.starting_player = self._starters[label]
            self.starting_player_label = label

    # -- board ---------------------------------------------------------
    def scan(self) -> None:
        """Read the board from the photo file named in the form (vision.scan)."""
        app = running_app()
        try:
            self.scanned = scan_board(self.ids.photo.text, self.ids.grid.text)
        except ValueError as exc:  # a ScanError, or a board the scan cannot make (Board's own checks)
            self.scanned = None
            self.scan_text = app.t("newgame.scan_failed", error=exc.say(app.t) if isinstance(exc, ScanError) else str(exc))
            return
        board, doubts = self.scanned.board, self.scanned.doubtful
        listed = ", ".join(square_label(at) for at in doubts[:DOUBTS_LISTED]) + (" …" if len(doubts) > DOUBTS_LISTED
                                                                                 else "")
        self.scan_text = app.t("newgame.scanned_ok", width=board.width, height=board.height, count=len(doubts),
                               squares=listed or "–")
        self.board_choice = "scanned"
        self.check_setup()

    # -- event deck (MT 7.02.a) ----------------------------------------
    def load_events(self) -> None:
        app = running_app()
        path = self.ids.events_file.text.strip()
        try:
            deck = load_event_deck(path) if path else prebuilt_event_deck()
        except ValueError as exc:
            self.events_text = "[color=ff7060]" + app.t("newgame.load_failed", error=str(exc)) + "[/color]"
            return
        self.use_deck(deck)

    def _describe_deck(self) -> None:
        app = running_app()
        if hasattr(self, "event_deck"):
            self.events_text = app.t("newgame.deck_loaded", name=presenter.deck_name(self.event_deck, app.lang),
                                     count=len(self.event_deck.cards))

    def check_deck(self) -> None:
        """MT 7.02.a: 25 cards for two players, 4 more per extra player; say how many are missing."""
        app = running_app()
        shortfall = presenter.deck_shortfall(len(self.event_deck.cards), self.players_count(), app.lang)
        self.deck_warning = shortfall if self.events else ""
        self.offer_starting_players()
        self.check_setup()

    def players_count(self) -> int:
        return sum(row.enabled for row in self.ids.players.children)

    def open_deck_builder(self) -> None:
        """Build, extend, save or pick an event deck for the players of the form."""
        self.deck_builder = DeckBuilderPopup(self.event_deck, self.players_count(),
                                             running_app().save_dir / DECKS_FOLDER, self.use_deck)
        self.deck_builder.open()

    def use_deck(self, deck: EventDeckList) -> None:
        self.event_deck = deck
        self.events = True
        self._describe_deck()
        self.check_deck()

    def play_without_events(self) -> None:
        self.events = False

    # -- house rules (MT 8.04) -------------------------------------------
    def load_house_rules(self) -> None:
        """Read a house-rules YAML file; its options fill the form (the file's other options are kept)."""
        app = running_app()
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
        app = running_app()
        rows = [row for row in self.rows() if row.enabled]
        players = [(row.ids.name.text.strip() or app.t("newgame.default_name", n=row.seat), row.colour)
                   for row in rows]
        scanned: ScannedBoard | None = self.scanned
        return NewGameChoices(players=players, board=self.board_choice, variant=self.variant,
                              planechase=self.planechase, events=self.events,
                              horde_difficulty=self.horde_difficulty, house_rules=self.house_rules(),
                              planes=[row.ids.planes.text for row in rows], event_deck=self.event_deck,
                              scanned_board=scanned.board if scanned else None,
                              doubtful_squares=scanned.doubtful if scanned else (),
                              starting_life=int(self.starting_life), starting_player=self.starting_player or None)

    def start(self) -> None:
        app = running_app()
        choices = self.choices()
        if len(choices.players) < (1 if choices.variant == "horde" else 2):
            app.say(app.t("newgame.need_players"))
            return
        if len({colour for _, colour in choices.players}) < len(choices.players):
            app.say(app.t("newgame.colours_repeat"))
            return
        self.check_deck()
        if self.deck_warning:
            app.say(self.deck_warning)
            return
        if choices.board == "scanned" and choices.scanned_board is None:
            app.say(app.t("newgame.scan_first"))
            return
        try:
            setup = presenter.game_setup(choices)
        except ValueError as exc:
            app.say(refusal(exc, app.lang))
            return
        app.start_game(setup)

    # -- saved games -------------------------------------------------------
    def list_saved(self) -> None:
        """Every saved game of the data folder, newest first, the one being played marked. Listing
        replays each game: it runs off the UI thread, and the list fills in when done."""
        app = running_app()
        if not hasattr(app, "prefs"):
            return
        current = app.game.store.path if app.game is not None and app.game.store is not None else None
        self._listing += 1
        ticket, folder, lang = self._listing, app.save_dir, app.lang
        self.busy = True
        self.saved_note = app.t("saves.loading")

        def work() -> None:
            try:
                rows = saved.saved_games(folder, current, lang)
            except Exception:  # never for one bad file (list_games); a folder gone: an empty list, logged
                log.exception("listing %s", folder)
                rows = []
            Clock.schedule_once(lambda dt: self._show_saved(ticket, rows))

        threading.Thread(target=work, name="saved-games", daemon=True).start()

    def _show_saved(self, ticket: int, rows) -> None:
        if ticket != self._listing:
            return  # a newer listing is on its way
        app = running_app()
        self.saved_count = len(rows)
        self.saved_note = "" if rows else app.t("saves.none")
        box = self.ids.saved_list
        box.clear_widgets()
        for row in rows:
            box.add_widget(SavedGameRow(text=row.text, path=row.path, open_label=row.open_label,
                                        openable=row.openable, current=row.current, screen=self))
        self.busy = False

    def open_saved(self, path: Path) -> None:
        running_app().open_game(path)

    def delete_saved(self, path: Path) -> None:
        """Deleting a game cannot be undone: ask first."""
        app = running_app()
        popup = ConfirmPopup(title=app.t("saves.delete_title"), question=app.t("saves.delete_question"),
                             yes=app.t("saves.delete_yes"), no=app.t("table.cancel"))

        def delete() -> None:
            try:
                saved.delete_game(path)
            except SaveError as exc:  # an app plays it, or the folder is read-only: said, nothing deleted
                app.say(refusal(exc, app.lang))
            self.list_saved()

        popup.on_agree = delete
        popup.open()
