"""Environment Kivy must see BEFORE it is imported (it reads env and config at import), where its
logs go, and whether a window can be shown at all."""
from __future__ import annotations

import logging
import os
import sys
import tempfile
from pathlib import Path

TABLET_SIZE = (1280, 800)  # landscape tablet, the size of tests and screenshots


def prepare_kivy(*, headless: bool = False, size: tuple[int, int] = TABLET_SIZE) -> None:
    """Quiet Kivy's own argument parsing and logs, and fix the window size.

    Headless runs (screenshots, tests) get a private KIVY_HOME so that they
    neither read nor write the user's Kivy configuration.
    """
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
    os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")
    os.environ.setdefault("KIVY_CLIPBOARD", "sdl2")  # no xclip/xsel probing for the clipboard
    if headless:
        os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="tactical-kivy-"))
    from kivy.config import Config

    Config.set("graphics", "width", str(size[0]))
    Config.set("graphics", "height", str(size[1]))
    Config.set("graphics", "resizable", "1")
    Config.set("input", "mouse", "mouse,disable_multitouch")  # right click must not leave red dots
    Config.set("kivy", "exit_on_escape", "0")


def log_to_file(path: Path) -> Path:
    """Send every log line (Kivy's included: its configuration notes, the clipboard providers it
    probes and their tracebacks) to `path`, not to the terminal; the terminal keeps only what the
    app says itself. Where `path` cannot be written (a read-only data folder: the app still opens,
    see `folder_problem`), to a new temporary file instead. Returns the log file used."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handler = logging.FileHandler(path, encoding="utf-8")
    except OSError:
        fd, fallback = tempfile.mkstemp(prefix="tactical-app-", suffix=".log")
        os.close(fd)
        path = Path(fallback)
        handler = logging.FileHandler(path, encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.INFO)
    return path


def folder_problem(folder: Path) -> str | None:
    """Why nothing can be saved in the data folder `folder` (None: it can), found by creating it and
    a temporary file in it: permission bits do not tell (root passes them; a read-only medium or an
    immutable folder refuses root too). The app then opens all the same, says so once, and lets the
    table look and play without saving."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as exc:
        return exc.strerror or type(exc).__name__
    return None


def no_display() -> bool:
    """True when no window can be shown here: a Linux session with neither an X11 nor a Wayland
    display (Android, Windows and macOS always have a screen)."""
    from companion.app.platform_services import ON_ANDROID

    if ON_ANDROID or not sys.platform.startswith("linux"):
        return False
    if os.environ.get("SDL_VIDEODRIVER") in ("offscreen", "dummy"):
        return False  # asked for on purpose
    return not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
