"""The Kivy companion app: screens that draw `companion.game` state and `companion.rules` overlays.

This package is the only one importing kivy, and kivy reads its environment at
import time, so nothing here imports kivy at module level: `run_app` prepares
the environment first (see `companion.app.env`), then builds the app.
"""
from __future__ import annotations

from pathlib import Path

PACKAGE_DIR = Path(__file__).parent


def run_app(*, demo: bool = False, screenshot: Path | None = None, screen: str | None = None,
            lang: str | None = None, data_dir: Path | None = None) -> int:
    """Start the app; with `screenshot`, render `screen` (default: board) to that PNG and exit."""
    from companion.app.env import prepare_kivy

    prepare_kivy(headless=screenshot is not None)
    from companion.app.main import TacticalApp
    from companion.app.platform_services import system_language

    lang = lang or system_language()
    shots = [(screen or "board", lang, Path(screenshot))] if screenshot else None
    app = TacticalApp(demo=demo, shots=shots, start_screen=screen, lang=lang,
                      data_dir=data_dir or (_fresh_demo_dir() if demo else None))
    app.run()
    return app.exit_code


def capture_screens(shots: list[tuple[str, str, Path]], *, data_dir: Path | None = None) -> int:
    """Render several (screen, lang, out.png) of the demo in ONE app run (docs and tests: one start-up)."""
    from companion.app.env import prepare_kivy

    prepare_kivy(headless=True)
    from companion.app.main import TacticalApp

    app = TacticalApp(demo=True, shots=shots, start_screen=shots[0][0], lang=shots[0][1],
                      data_dir=data_dir or _fresh_demo_dir())
    app.run()
    return app.exit_code


def _fresh_demo_dir() -> Path:
    """The demo saves into a new temporary directory, so it never touches (or continues) a real game."""
    import tempfile

    return Path(tempfile.mkdtemp(prefix="tactical-demo-"))
