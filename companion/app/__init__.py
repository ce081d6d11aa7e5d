"""The Kivy companion app: screens that draw `companion.game` state and `companion.rules` overlays.

This package is the only one importing kivy, and kivy reads its environment at
import time, so nothing here imports kivy at module level: `run_app` prepares
the environment first (see `companion.app.env`), then builds the app.
"""
from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Callable

PACKAGE_DIR = Path(__file__).parent
NO_DISPLAY_SCREENS = {True: ("board", "table"), False: ("newgame", "table")}  # demo or not: the pictures
# a machine without a screen gets instead of a window


def run_app(*, demo: bool = False, screenshot: Path | None = None, screen: str | None = None,
            lang: str | None = None, data_dir: Path | None = None, say: Callable[[str], None] | None = None) -> int:
    """Start the app; with `screenshot`, render `screen` (default: board) to that PNG and exit.

    On the terminal it says what it does: starting, then where the window is — or, where no window
    can open (no display), why not, and the pictures of the app it drew instead. Kivy's own log
    lines go to a log file in the data folder, not to the terminal."""
    from companion.app.env import log_to_file, no_display, prepare_kivy
    from companion.app.platform_services import (
        ON_ANDROID,
        system_language,
        trust_bundled_certificates,
    )
    from companion.i18n import translate

    trust_bundled_certificates()

    say = say or _say
    lang = lang or system_language()
    cards_dir = data_dir  # the cards stay in the app's data folder, not in the demo's temporary one
    data_dir = data_dir or (_fresh_demo_dir() if demo else None)
    if not ON_ANDROID:
        from companion.app.games import desktop_data_dir

        cards_dir = cards_dir or desktop_data_dir()
        log_to_file((data_dir or desktop_data_dir()) / "app.log")
    if screenshot is None and no_display():
        out = Path(tempfile.mkdtemp(prefix="tactical-screens-"))
        say(translate(lang, "start.no_display"))
        names = NO_DISPLAY_SCREENS[demo]
        code = _render(demo, [(name, lang, out / f"{name}.png") for name in names], data_dir)
        for name in names:
            say(f"  {out / f'{name}.png'}")
        say(translate(lang, "start.no_display_after"))
        return code
    if screenshot is None:
        say(translate(lang, "start.starting"))
    prepare_kivy(headless=screenshot is not None)
    from companion.app.main import TacticalApp

    shots = [(screen or "board", lang, Path(screenshot))] if screenshot else None
    app = TacticalApp(demo=demo, shots=shots, start_screen=screen, lang=lang, data_dir=data_dir, cards_dir=cards_dir)
    if screenshot is None:
        _say_when_shown(app, lambda: say(translate(lang, "start.window", where=_where())))
    app.run()
    return app.exit_code


def capture_screens(shots: list[tuple[str, str, Path]], *, data_dir: Path | None = None) -> int:
    """Render several (screen, lang, out.png) of the demo in ONE app run (docs and tests: one start-up)."""
    return _render(True, shots, data_dir or _fresh_demo_dir())


def _render(demo: bool, shots: list[tuple[str, str, Path]], data_dir: Path | None) -> int:
    from companion.app.env import prepare_kivy

    prepare_kivy(headless=True)
    from companion.app.main import TacticalApp

    app = TacticalApp(demo=demo, shots=shots, start_screen=shots[0][0], lang=shots[0][1], data_dir=data_dir)
    app.run()
    return app.exit_code


def _say_when_shown(app, said: Callable[[], None]) -> None:
    """Say it once, after the first frame is on the screen."""
    from kivy.core.window import Window

    def first_frame(*_):
        Window.unbind(on_flip=first_frame)
        said()

    Window.bind(on_flip=first_frame)


def _where() -> str:
    import os

    from kivy.core.window import Window

    display = os.environ.get("WAYLAND_DISPLAY") or os.environ.get("DISPLAY") or ""
    return f"{Window.size[0]}×{Window.size[1]}" + (f", {display}" if display else "")


def _say(text: str) -> None:
    print(text, flush=True)  # at once, even when the terminal is a pipe


def _fresh_demo_dir() -> Path:
    """The demo saves into a new temporary directory, so it never touches (or continues) a real game."""
    return Path(tempfile.mkdtemp(prefix="tactical-demo-"))
