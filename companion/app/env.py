"""Environment Kivy must see BEFORE it is imported (it reads env and config at import)."""
from __future__ import annotations

import os
import tempfile

TABLET_SIZE = (1280, 800)  # landscape tablet, the size of tests and screenshots


def prepare_kivy(*, headless: bool = False, size: tuple[int, int] = TABLET_SIZE) -> None:
    """Quiet Kivy's own argument parsing and logs, and fix the window size.

    Headless runs (screenshots, tests) get a private KIVY_HOME so that they
    neither read nor write the user's Kivy configuration.
    """
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
    os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")
    if headless:
        os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="tactical-kivy-"))
        os.environ.setdefault("KIVY_CLIPBOARD", "sdl2")  # no xclip/xsel probing (and tracebacks) offscreen
    from kivy.config import Config

    Config.set("graphics", "width", str(size[0]))
    Config.set("graphics", "height", str(size[1]))
    Config.set("graphics", "resizable", "1")
    Config.set("input", "mouse", "mouse,disable_multitouch")  # right click must not leave red dots
    Config.set("kivy", "exit_on_escape", "0")
