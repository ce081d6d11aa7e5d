"""The first run on a fresh account, and the README's first command where no display exists: the app
starts (its data folder created with its parents), and the terminal says what happens — never a
traceback, never Kivy's own log lines (clipboard providers probed, configuration notes). A data folder
that is a file is said so; one nothing can be written in opens all the same, says so once, and plays
without saving."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion.i18n import translate

pytestmark = pytest.mark.slow   # each test here reads a run of the whole app (seconds to start): the second step of ./run.sh test

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


def test_a_data_folder_that_is_a_file_is_said_so(tmp_path, capsys):
    """`tactical app --data-dir F` with F a file stopped on FileExistsError (`tactical cards` too)."""
    from companion.cli.main import main

    file = tmp_path / "notes.txt"
    file.write_text("not a folder")
    assert main(["app", "--data-dir", str(file)]) == 2
    assert main(["cards", "--data-dir", str(file), "info"]) == 2
    err = capsys.readouterr().err
    assert err.count(f"--data-dir {file}: this is a file") == 2 and "Traceback" not in err
    assert file.read_text() == "not a folder"


@pytest.fixture
def read_only_data(tmp_path):
    """An empty data folder nothing can be written in. Tests run as root, where chmod stops no write:
    `chattr +i` (immutable) does, and `make_read_only` uses it then (chmod otherwise)."""
    from read_only import make_read_only, make_writable

    folder = tmp_path / "data"
    folder.mkdir()
    make_read_only(folder)
    try:
        with pytest.raises(OSError):
            (folder / "probe").touch()
        yield folder
    finally:
        make_writable(folder)


def test_the_app_opens_on_a_read_only_data_folder_without_a_traceback(read_only_data, tmp_path):
    """Audit: PermissionError on D/app.log, then on D/demo-cards, then an uncaught SaveError ("cannot create
    a game … (read-only?)") for the demo's game."""
    home = tmp_path / "home"
    home.mkdir()
    shot = tmp_path / "table.png"
    done = run_tactical(["app", "--demo", "--data-dir", str(read_only_data), "--screenshot", str(shot),
                         "--screen", "table"], home)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Traceback" not in done.stderr and shot.stat().st_size > 10_000
    assert list(read_only_data.iterdir()) == []


def test_on_a_read_only_data_folder_the_table_is_told_once_and_plays_without_saving(read_only_data, tmp_path):
    """The real app (autopilot, offscreen): the demo opens on a game that is not saved, says once why, and
    an action (Undo) still plays."""
    import json

    script = tmp_path / "script.json"
    script.write_text(json.dumps({"data_dir": str(read_only_data), "demo": True, "lang": "en",
                                  "steps": [{"report": "start"}, {"tap": "undo"}, {"report": "after"}]}))
    report = tmp_path / "report.json"
    done = subprocess.run([sys.executable, "-m", "companion.app.autopilot", str(script), str(report)],
                          capture_output=True, text=True, timeout=180, env={**os.environ, "KIVY_NO_ARGS": "1"})
    assert done.returncode == 0, done.stderr[-3000:]
    start, after = (json.loads(report.read_text())[label] for label in ("start", "after"))
    told = translate("en", "start.read_only_folder", folder=read_only_data, reason="{reason}").split("{reason}")
    assert start["message"].count(told[0]) == 1 and start["message"].endswith(told[1]), start["message"]
    assert start["game_file"] == "" and len(after["history"]) == len(start["history"]) - 1
    assert list(read_only_data.iterdir()) == []
