"""The first run on a fresh account, and the README's first command where no display exists: the app
starts (its data folder created with its parents), and the terminal says what happens — never a
traceback, never Kivy's own log lines (clipboard providers probed, configuration notes)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from companion.i18n import translate

TACTICAL = [sys.executable, "-c", "import sys; from companion.cli.main import main; sys.exit(main())"]


def run_tactical(args: list[str], home: Path, **env) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items()
             if k not in ("DISPLAY", "WAYLAND_DISPLAY", "XDG_CONFIG_HOME", "KIVY_HOME", "SDL_VIDEODRIVER")}
    return subprocess.run([*TACTICAL, *args], capture_output=True, text=True, timeout=180,
                          env={**clean, "HOME": str(home), "LANG": "en_GB.UTF-8", **env})


def test_a_fresh_account_without_a_config_folder_starts_and_gets_its_data_folder(tmp_path):
    """`HOME=$(mktemp -d) tactical app` used to stop on FileNotFoundError (no ~/.config)."""
    home = tmp_path / "home"
    home.mkdir()
    shot = tmp_path / "first.png"
    done = run_tactical(["app", "--screenshot", str(shot), "--screen", "newgame"], home)
    assert done.returncode == 0, done.stderr[-2000:]
    assert shot.is_file() and (home / ".config" / "tactical").is_dir()
    assert "Traceback" not in done.stderr and "xclip" not in done.stderr and "Config:" not in done.stderr


def test_without_a_display_the_demo_says_why_there_is_no_window_and_draws_its_screens(tmp_path):
    """The README's first command where no display exists (no DISPLAY, no WAYLAND_DISPLAY): it says
    it is starting, why no window can open, and where the pictures of the app are."""
    home = tmp_path / "home"
    home.mkdir()
    done = run_tactical(["app", "--demo"], home)
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.splitlines()
    assert lines[0] == translate("en", "start.no_display")
    pictures = [Path(line.strip()) for line in lines[1:3]]
    assert [p.name for p in pictures] == ["board.png", "table.png"] and all(p.stat().st_size > 10_000 for p in pictures)
    assert lines[-1] == translate("en", "start.no_display_after")
    assert done.stderr.strip() == "", done.stderr[-2000:]


def test_with_a_screen_the_app_says_it_starts_then_where_its_window_is(tmp_path):
    """Where a window can open (here SDL's offscreen driver stands for the screen), the terminal says
    that the app is starting, then that its window is open and its size."""
    home = tmp_path / "home"
    home.mkdir()
    clean = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "XDG_CONFIG_HOME")}
    app = subprocess.Popen([*TACTICAL, "app", "--demo"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           env={**clean, "HOME": str(home), "LANG": "fr_FR.UTF-8", "SDL_VIDEODRIVER": "offscreen"})
    try:
        said = [app.stdout.readline().rstrip("\n") for _ in range(2)]
    finally:
        app.terminate()
        app.wait(timeout=30)
    assert said == [translate("fr", "start.starting"), translate("fr", "start.window", where="1280×800")]
