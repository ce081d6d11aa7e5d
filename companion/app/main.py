"""TacticalApp: the shell (navigation, language, undo/redo, messages) around the registered screens.

The app keeps only UI state (language, selected token, current screen) and the game in progress,
`app.game`, a `companion.game.Game`. Every button calls one of its methods through `play`, which
shows a refusal in the UI language instead of crashing (the game saves itself after every action)
and bumps `revision`, the one property screens watch to redraw from the state.
"""
from __future__ import annotations

import logging
import tempfile
import traceback
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Concatenate, ParamSpec, TypeVar

from kivy.app import App
from kivy.clock import Clock
from kivy.properties import BooleanProperty, NumericProperty, ObjectProperty, OptionProperty, StringProperty
from kivy.uix.screenmanager import NoTransition, ScreenManager

from companion import i18n
from companion.app import games
from companion.app.card_library import DEMO_CARD_FILE, CardLibrary
from companion.app.device import DEVICE_CLASSES, LARGE_TABLET, layout_for
from companion.app.env import folder_problem
from companion.app.kv import load_kv_beside
from companion.app.navigation import PLACES, TOP, nav_plan
from companion.app.platform_services import keep_screen_awake, system_language
from companion.app.preferences import Preferences
from companion.app.screens import SCREENS, screen_class
from companion.app.screens.history import presenter as history
from companion.app.screens.history.presenter import last_action, undo_label
from companion.app.screens.table.presenter import SEAT_LAYOUTS
from companion.app.words import refusal
from companion.game import Game, GameError, GameSetup, SaveError
from companion.game.game import local_now

log = logging.getLogger(__name__)
Args = ParamSpec("Args")
Result = TypeVar("Result")
# Before grabbing a screenshot, let layouts settle and animations end: a few frames AND some time,
# since on a loaded machine without a GPU the first frames can take seconds.
SCREENSHOT_MIN_FRAMES = 6
SCREENSHOT_MIN_S = 1.0
SHOT_SWITCH_S = 0.5  # after switching screen: the dice animation lasts 0.35 s
MESSAGE_S = 8.0      # a message stays this long over the screen (it never moves the layout)
REFUSALS = (GameError, SaveError, ValueError)  # shown to the table, never a crash (house-rules and
# event-deck errors are ValueErrors naming the file and field)

SCREENSHOT_MAX_BYTES = 250_000  # docs/screenshots stay light in the repository


def compact_png(path: Path) -> None:
    """Re-encode a screenshot opaque and at maximum compression; posterize slightly if still too big
    (a camera photo's noise compresses badly)."""
    import cv2

    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    for keep_bits in (8, 6, 5, 4):
        mask = (0xFF << (8 - keep_bits)) & 0xFF
        cv2.imwrite(str(path), image & mask, [cv2.IMWRITE_PNG_COMPRESSION, 9])
        if path.stat().st_size < SCREENSHOT_MAX_BYTES:
            return


class TacticalApp(App):
    lang = StringProperty("fr")
    revision = NumericProperty(0)          # bumped after every game action: screens redraw on it
    game = ObjectProperty(None, allownone=True)  # the companion.game.Game in progress, or None
    selected = ObjectProperty(None, allownone=True)  # selected token (player, number) or None
    message = StringProperty("")           # last status/error line, shown over the screen for a while
    undo_text = StringProperty("")         # the Undo button: what it will undo
    seat_layout = OptionProperty("upright", options=SEAT_LAYOUTS)  # table screen: the quick turn of every panel
    camera_source = StringProperty("")     # camera screen: "0", a stream URL or a file; "" = the default camera
    camera_view = ObjectProperty(None, allownone=True)  # what the camera sees against the game (the Board
    # screen's "seen by the camera, to confirm"), set by the camera screen
    cards_revision = NumericProperty(0)    # bumped after a card import: searches, hints and plane texts reread
    # The layout every screen follows (companion.app.device): the device class from the window's size in
    # dp, and whether it is held upright; both change when the window does (the device turns).
    device = OptionProperty(LARGE_TABLET, options=DEVICE_CLASSES)
    portrait = BooleanProperty(False)
    nav_place = OptionProperty(TOP, options=PLACES)  # where the shell's tabs are (companion.app.navigation)

    def __init__(self, *, demo: bool = False, shots: list[tuple[str, str, Path]] | None = None,
                 start_screen: str | None = None, lang: str | None = None, data_dir: Path | None = None,
                 cards_dir: Path | None = None, demo_cards: bool | None = None,
                 clock: Callable[[], datetime] = local_now, **kwargs):
        """`shots`: (screen, lang, out.png) to render one after the other, then the app stops.
        `cards_dir`: where the card database is (default: the data folder); `demo_cards`: search the
        project's card fixture while that folder has none (default: in the demo). `clock`: the table's
        time, which every game played here records and joins quick taps by (`Game.change_life(join=True)`)
        and the Table's recent change fades by — the autopilot gives its own, so that a script's quick
        taps are quick however loaded the machine running it is."""
        super().__init__(**kwargs)
        self.title = "Magic Tactical"
        self.icon = str(Path(__file__).parent / "data" / "icon.png")
        self.demo = demo
        self.shots = list(shots or [])
        self.start_screen = start_screen
        self.forced_lang = lang
        self.lang = lang or system_language()
        self.forced_data_dir = data_dir
        self.forced_cards_dir = cards_dir
        self.demo_cards = demo if demo_cards is None else demo_cards
        self.exit_code = 0
        self._message_clear = None
        self.clock = clock

    # -- strings -------------------------------------------------------
    def t(self, key: str, _lang: str | None = None, **fields) -> str:
        """Translated UI string; kv passes `app.lang` as `_lang` so it re-evaluates on a switch."""
        return i18n.translate(_lang or self.lang, key, **fields)

    # -- life cycle ----------------------------------------------------
    @property
    def save_dir(self) -> Path:
        """Where the games autosave: the app's data folder (Android: its private storage) unless a
        directory was given (tests, demo)."""
        if self.forced_data_dir:
            return Path(self.forced_data_dir)
        from companion.app.platform_services import ON_ANDROID

        return Path(self.user_data_dir) if ON_ANDROID else games.desktop_data_dir(self.name)

    @property
    def cards_dir(self) -> Path:
        """Where the card database is: the app's data folder, kept between games (the demo's games go
        to a temporary folder, its cards do not), unless a folder was given."""
        return Path(self.forced_cards_dir) if self.forced_cards_dir else self.save_dir

    @property
    def settings_dir(self) -> Path:
        """Where the camera's settings are (`companion.camera.camera_settings`): with the cards, in the
        app's data folder kept between games (where `tactical watch` looks too)."""
        return self.cards_dir

    def build(self):
        from kivy.core.window import Window

        self._follow_window(Window, *Window.size)
        Window.bind(size=lambda window, size: self._follow_window(window, *size))
        load_kv_beside(__file__)
        # A data folder nothing can be written in (read-only medium, immutable, permissions) still
        # opens: the table looks and plays, nothing is saved, and it is told once, below.
        self.folder_problem = folder_problem(self.save_dir)
        demo_cards = self.save_dir / "demo-cards" if self.folder_problem is None else \
            Path(tempfile.mkdtemp(prefix="tactical-demo-cards-"))
        self.card_library = CardLibrary(self.cards_dir, demo_file=DEMO_CARD_FILE if self.demo_cards else None,
                                        demo_folder=demo_cards)
        self.prefs = Preferences.load(self.save_dir)
        if self.forced_lang is None and self.prefs.lang:
            self.lang = self.prefs.lang
        if self.prefs.seat_layout in SEAT_LAYOUTS:
            self.seat_layout = self.prefs.seat_layout
        notices: list = []
        game, problem = games.open_latest(self.save_dir, notices)
        if game is None and problem is None and self.demo:
            from companion.app.demo import start_demo

            # a newcomer sees a token's overlays at once; on a read-only folder, a game not saved
            game, self.selected = start_demo(self.save_dir if self.folder_problem is None else None)
        self.game = game
        root = self._build_root()
        self.root = root  # screens are built on first use (launch time), and they reach the app through it
        keep_screen_awake(True)
        first = self.start_screen or ("board" if self.game is not None else "newgame")
        root.ids.manager.current = self.screen(first).name
        Clock.schedule_once(lambda dt: self._mark_nav(first), 0)
        if problem is not None:
            notices.append(problem)
        if self.folder_problem is not None and not any(n.key == "store.read_only" for n in notices):
            notices.insert(0, SaveError(self.folder_problem, path=self.save_dir, key="start.read_only_folder",
                                        folder=str(self.save_dir)))
        if notices:  # damaged saves skipped, repaired, read-only: the table is told at start-up
            self.say("\n".join(refusal(notice, self.lang) for notice in notices))
        self.on_revision()
        if self.shots:
            self._wait_then(self._next_shot)
        return root

    def _follow_window(self, _window, width: float, height: float) -> None:
        """Choose the layout for a window of `width` × `height` pixels (a turn, a resize)."""
        from kivy.metrics import dp

        layout = layout_for(width / dp(1), height / dp(1))
        self.device, self.portrait = layout.device, layout.portrait
        self.nav_place = nav_plan(layout.device, layout.portrait, SCREENS).place
        if self.root is not None:
            self.root.arrange(layout.device, layout.portrait)

    def _build_root(self):
        from companion.app.shell import RootLayout

        root = RootLayout()
        root.ids.manager.transition = NoTransition()  # redraws within one frame; no sliding on a slow tablet
        root.arrange(self.device, self.portrait)
        # the Undo button names what it undoes in the words its width holds, in every layout
        root.ids.undo.bind(width=self.on_revision, font_size=self.on_revision)
        return root

    def on_stop(self):
        keep_screen_awake(False)
        self.card_library.close()
        games.close(self.game)

    def screen(self, name: str):
        """The screen registered as `name`, built the first time it is asked for (keeps launch fast)."""
        manager: ScreenManager = self.root.ids.manager
        if not manager.has_screen(name):
            manager.add_widget(screen_class(name)(name=name))
        return manager.get_screen(name)

    def show(self, name: str) -> None:
        """Switch to the screen registered as `name` (its tab in the bar or in the "More" menu). A sheet or
        pop-up still open belongs to the screen left (a Table's turn sheet when a refused Next phase leads
        to the Board to place a pawn): it is closed, or it would cover the new screen and take its taps."""
        if self.root.ids.manager.current != name:
            from kivy.core.window import Window
            from kivy.uix.modalview import ModalView

            for popup in [w for w in Window.children if isinstance(w, ModalView)]:
                popup.dismiss(animation=False)
        self.root.ids.manager.current = self.screen(name).name
        self.root.close_menu()
        self._mark_nav(name)

    def _mark_nav(self, name: str) -> None:
        self.root.mark(name)

    def reveal(self, widget) -> bool:
        """Open what hides a widget of the shell (a tab in the "More" menu); True if it had to (the
        autopilot then taps it on its next step)."""
        return self.root.reveal(widget)

    def layout_cases(self) -> dict[str, Callable[[], object]]:
        """The shell's own menu and the shared pop-ups (companion.app.widgets.controls), opened as the
        screens open them, with long French and English words, for the layout matrix (the menu where
        this layout has one)."""
        from companion.app.widgets import controls

        menu = {"menu": self.root.open_menu} if self.root.plan.more else {}
        return {**menu, **controls.layout_cases(self)}

    # -- the game ------------------------------------------------------
    def on_game(self, _app, game: Game | None) -> None:
        """Whichever way a game comes (opened, started, the demo, reopened after a save problem), it
        keeps the table's clock."""
        if game is not None:
            game.clock = self.clock

    @property
    def game_key(self) -> str:
        """The game's save file name: what display choices (panel turns) are kept under."""
        store = self.game.store if self.game is not None else None
        return store.path.name if store is not None else ""

    def play(self, action: Callable[Concatenate[Game, Args], Result], *args: Args.args,
             **kwargs: Args.kwargs) -> Result | None:
        """Do `action(game, *args, **kwargs)` on the game in progress. `action` is a `companion.game.Game`
        method as a screen's presenter names it (on the Table: `app.play(presenter.change_life, 2, -1)`):
        a function, not its name in a string, so a type checker checks the arguments and an editor
        follows the call. A refused action says why (in the UI language) instead of crashing, and a
        bug never kills a game in progress (the log names the action). Returns its result, or None."""
        if self.game is None:
            self.say(self.t("errors.no_game"))
            return None
        try:
            result = action(self.game, *args, **kwargs)
        except REFUSALS as exc:
            self.say(refusal(exc, self.lang))
            fresh = games.reopened_if_broken(self.game)
            if fresh is not None:  # the save could not be checked after an error: show what is on disk
                self._switch_to(fresh)
            elif getattr(exc, "key", None) == "game.error.pawns_unplaced":
                self.place_next_pawn(refusal(exc, self.lang))
            return None
        except Exception:
            log.error("action %s failed:\n%s", action.__name__, traceback.format_exc())
            self.say(self.t("errors.internal", action=action.__name__))
            return None
        self.say("")
        self.revision += 1
        return result

    def place_next_pawn(self, why: str = "") -> bool:
        """Lead the table to a pawn still off the grid (MT 2.04.a: every player starts on the board):
        the Board screen, the pawn chosen, its squares drawn; a tap there places it. False when none is left."""
        unplaced = self.game.unplaced_pawns if self.game is not None else []
        if not unplaced:
            return False
        state = self.game.state
        self.selected = state.pawn(unplaced[0]).token
        self.show("board")
        self.say("\n".join(filter(None, (why, self.t("board.place_pawn", name=state.player(unplaced[0]).name)))))
        return True

    def _fits_undo_button(self, line: str) -> bool:
        """Whether one line fits the Undo button as this layout sizes it (main.kv: 6 dp of margin each side)."""
        from kivy.core.text import Label as CoreLabel
        from kivy.metrics import dp

        button = self.root.ids.undo
        core = CoreLabel(text=line, font_size=button.font_size)
        core.refresh()
        return core.content_width <= button.width - dp(12)

    def undo(self) -> None:
        """Undo the last action and say what was undone."""
        what = last_action(self.game, self.lang)
        if self.play(history.undo) is not None and what:
            self.say(self.t("nav.undone", what=what))

    def start_game(self, setup: GameSetup, *, confirmed: bool = False) -> bool:
        """Start the game set up on the New game screen. Over a game in progress, ask first: that game
        stays saved and listed, to continue later."""
        if games.in_progress(self.game) and not confirmed:
            from companion.app.widgets.controls import ConfirmPopup

            state = self.game.state
            popup = ConfirmPopup(title=self.t("newgame.replace_title"),
                                 question=self.t("newgame.replace_question", turn=state.turn.number,
                                                 players=", ".join(p.name for p in state.players)),
                                 yes=self.t("newgame.replace_yes"), no=self.t("table.cancel"))
            popup.on_agree = lambda: self.start_game(setup, confirmed=True)
            popup.open()
            return False
        try:
            game = games.start(setup, self.save_dir)
        except REFUSALS as exc:
            self.say(refusal(exc, self.lang))
            return False
        self._switch_to(game)
        self.show("board")
        warnings = game.setup_warnings()  # e.g. fewer start squares than players: the table places a pawn
        if warnings:
            self.say("\n".join(message.text(self.lang) for message in warnings))
        return True

    def open_game(self, path: Path) -> bool:
        """Continue a saved game."""
        from companion.game import load_game

        if self.game is not None and self.game.store is not None and self.game.store.path == Path(path):
            self.show("board")
            return True
        try:
            game = load_game(path)
        except SaveError as exc:
            self.say(self.t("saves.cannot_continue", error=refusal(exc, self.lang)))
            return False
        self._switch_to(game)
        notices = games.opening_notices(game)
        if notices:
            self.say("\n".join(refusal(notice, self.lang) for notice in notices))
        self.show("board")
        return True

    def _switch_to(self, game: Game) -> None:
        games.close(self.game)
        self.game = game
        self.selected = None
        self.say("")
        self.revision += 1

    def on_revision(self, *_):
        self.undo_text = undo_label(self.game, self.lang, fits=self._fits_undo_button if self.root else None)

    def on_lang(self, *_):
        self.revision += 1

    def set_language(self, lang: str) -> None:
        """The table chose a language: kept for the next runs."""
        self.lang = lang
        if hasattr(self, "prefs"):
            self.prefs.lang = lang
            self.prefs.save()

    def on_seat_layout(self, *_):
        if hasattr(self, "prefs") and self.prefs.seat_layout != self.seat_layout:
            self.prefs.seat_layout = self.seat_layout
            self.prefs.save()

    # -- messages ------------------------------------------------------
    def say(self, text: str) -> None:
        """Show a status or refusal line over the screen for a while (the layout never moves)."""
        self.message = text
        if self._message_clear is not None:
            self._message_clear.cancel()
        self._message_clear = Clock.schedule_once(lambda dt: setattr(self, "message", ""), MESSAGE_S) if text \
            else None

    # -- screenshots ---------------------------------------------------
    def _wait_then(self, callback, *, frames: int = SCREENSHOT_MIN_FRAMES, seconds: float = SCREENSHOT_MIN_S) -> None:
        """Call `callback` once `frames` frames were drawn and `seconds` passed (layouts settled)."""
        first_frame, waited = Clock.frames_displayed, [0.0]

        def check(dt):
            waited[0] += dt
            if Clock.frames_displayed - first_frame >= frames and waited[0] >= seconds:
                callback()
                return False
            return True

        Clock.schedule_interval(check, 0)

    def _next_shot(self):
        """Show the next planned screen, wait for it to settle, save it; stop after the last one."""
        if not self.shots:
            self.stop()
            return
        screen, lang, out = self.shots[0]
        if (self.root.ids.manager.current, self.lang) != (screen, lang):
            self.lang = lang
            self.show(screen)
            self._wait_then(self._next_shot, seconds=SHOT_SWITCH_S)
            return
        if getattr(self.root.ids.manager.current_screen, "busy", False):  # still reading (the camera opening)
            self._wait_then(self._next_shot, frames=1, seconds=0.05)
            return
        self.shots.pop(0)
        out = Path(out)
        out.parent.mkdir(parents=True, exist_ok=True)
        # Rendered through an Fbo: reliable offscreen, where reading the window's buffer gives black.
        self.root.export_to_png(str(out))
        compact_png(out)
        self._wait_then(self._next_shot, seconds=0) if self.shots else self.stop()
