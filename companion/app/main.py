"""TacticalApp: the shell (navigation, language, undo/redo) around the registered screens.

The app keeps only UI state (language, selected token, current screen). Game
state lives in `companion.game`; every button goes through `perform`, which
calls one game method (the game saves itself) and bumps `revision`, the one
property screens watch to redraw from the state.
"""
from __future__ import annotations

import logging
import traceback
from pathlib import Path

from kivy.app import App
from kivy.clock import Clock
from kivy.properties import NumericProperty, ObjectProperty, OptionProperty, StringProperty
from kivy.uix.screenmanager import NoTransition, ScreenManager

from companion import i18n
from companion.app.kv import load_kv_beside
from companion.app.platform_services import keep_screen_awake, system_language
from companion.app.screens import screen_class
from companion.app.session import GameSession

log = logging.getLogger(__name__)
# Before grabbing a screenshot, let layouts settle and animations end: a few frames AND some time,
# since on a loaded machine without a GPU the first frames can take seconds.
SCREENSHOT_MIN_FRAMES = 6
SCREENSHOT_MIN_S = 1.0
SHOT_SWITCH_S = 0.5  # after switching screen: the dice animation lasts 0.35 s


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
    selected = ObjectProperty(None, allownone=True)  # selected token (player, number) or None
    message = StringProperty("")           # last status/error line shown in the top bar
    seat_layout = OptionProperty("upright", options=("upright", "facing", "ends"))  # table screen: how the seats'
    # panels turn to face their players (see screens.table.seat_places)
    camera_source = StringProperty("")     # camera screen: "0", a stream URL or a file; "" = the default camera
    camera_view = ObjectProperty(None, allownone=True)  # what the camera sees against the game (the Board
    # screen's "seen by the camera, to confirm"), set by the camera screen
    session: GameSession

    def __init__(self, *, demo: bool = False, shots: list[tuple[str, str, Path]] | None = None,
                 start_screen: str | None = None, lang: str | None = None, data_dir: Path | None = None, **kwargs):
        """`shots`: (screen, lang, out.png) to render one after the other, then the app stops."""
        super().__init__(**kwargs)
        self.title = "Magic Tactical"
        self.icon = str(Path(__file__).parent / "data" / "icon.png")
        self.demo = demo
        self.shots = list(shots or [])
        self.start_screen = start_screen
        self.lang = lang or system_language()
        self.forced_data_dir = data_dir
        self.exit_code = 0

    # -- strings -------------------------------------------------------
    def t(self, key: str, _lang: str | None = None, **fields) -> str:
        """Translated UI string; kv passes `app.lang` as `_lang` so it re-evaluates on a switch."""
        return i18n.translate(_lang or self.lang, key, **fields)

    # -- life cycle ----------------------------------------------------
    @property
    def save_dir(self) -> Path:
        """Where the game autosaves: App.user_data_dir unless a directory was given (tests, demo)."""
        return Path(self.forced_data_dir or self.user_data_dir)

    def build(self):
        load_kv_beside(__file__)
        self.session = GameSession(self.save_dir, demo=self.demo)
        root = self._build_root()
        self.root = root  # screens are built on first use (launch time), and they reach the app through it
        keep_screen_awake(True)
        first = self.start_screen or ("board" if self.session.has_game else "newgame")
        root.ids.manager.current = self.screen(first).name
        Clock.schedule_once(lambda dt: self._mark_nav(first), 0)
        if self.demo and self.session.demo_focus is not None:
            self.selected = self.session.demo_focus  # a newcomer sees overlays at once
        if self.shots:
            self._wait_then(self._next_shot)
        return root

    def _build_root(self):
        from kivy.factory import Factory

        root = Factory.RootLayout()
        root.ids.manager.transition = NoTransition()  # redraws within one frame; no sliding on a slow tablet
        return root

    def on_stop(self):
        keep_screen_awake(False)
        self.session.close()

    def screen(self, name: str):
        """The screen registered as `name`, built the first time it is asked for (keeps launch fast)."""
        manager: ScreenManager = self.root.ids.manager
        if not manager.has_screen(name):
            manager.add_widget(screen_class(name)(name=name))
        return manager.get_screen(name)

    def show(self, name: str) -> None:
        """Switch to the screen registered as `name`."""
        self.root.ids.manager.current = self.screen(name).name
        self._mark_nav(name)

    def _mark_nav(self, name: str) -> None:
        for button in self.root.ids.nav.children:
            if getattr(button, "screen_name", None):
                button.state = "down" if button.screen_name == name else "normal"

    # -- actions -------------------------------------------------------
    def perform(self, action: str, *args, **kwargs):
        """Run one game action through the session; on a refused action show why instead of crashing."""
        try:
            result = getattr(self.session, action)(*args, **kwargs)
        except self.session.refusals as exc:
            self.message = str(exc)
            return None
        except Exception:  # a bug must not kill a game in progress: log it, show it, keep the table going
            log.error("action %s failed:\n%s", action, traceback.format_exc())
            self.message = self.t("errors.internal", action=action)
            return None
        self.message = ""
        self.revision += 1
        return result

    def on_lang(self, *_):
        self.revision += 1

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
        self.shots.pop(0)
        out = Path(out)
        out.parent.mkdir(parents=True, exist_ok=True)
        # Rendered through an Fbo: reliable offscreen, where reading the window's buffer gives black.
        self.root.export_to_png(str(out))
        compact_png(out)
        self._wait_then(self._next_shot, seconds=0) if self.shots else self.stop()
