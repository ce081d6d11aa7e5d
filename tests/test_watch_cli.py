"""`tactical watch`: the camera watcher from the command line — events from a recorded video of the
demo table, moves checked against the real rolls of a save (read only), a stream URL that drops
and comes back, and a clear message for every source that cannot be used (issue 19)."""
from __future__ import annotations

import os
import re
import sys
import threading
import time

import cv2
import numpy as np
import pytest

from boards import library_boards, save_board
from camera_video import MjpegServer, record_table_video
from companion.cli.main import main
from vision.video import random_board

DUEL = str(library_boards()["duel-20x12"])
SERRA, LIONS = (1, 2), (1, 3)       # the demo's Serra Angel (rolled 8 at set-up) and Savannah Lions (no roll)


@pytest.fixture(scope="module")
def video(tmp_path_factory):
    """Serra Angel carried 3 squares, Savannah Lions 4, a hand passing, the board bumped 3 cm."""
    folder = tmp_path_factory.mktemp("table")
    return record_table_video(folder / "table.avi", [(SERRA, (14, 4)), (LIONS, (18, 9))])


@pytest.fixture(scope="module")
def demo_save(tmp_path_factory):
    """The demo game, saved as the app saves it (the same seeded set-up: Serra Angel rolled 8)."""
    from companion.app.demo import start_demo

    folder = tmp_path_factory.mktemp("save")
    game, _ = start_demo(folder)
    assert game.movement_allowance(SERRA) == 8 and game.movement_roll(LIONS) is None
    game.store.close()
    return folder


def event_lines(out: str) -> list[tuple[int, str]]:
    return [(int(line.split("]")[0].split()[-1]), line.split("] ", 1)[1]) for line in out.splitlines()
            if line.startswith("[")]


def test_watch_prints_each_move_a_hand_made_within_five_frames(video, capsys):
    assert main(["watch", str(video.path), "--board", DUEL, "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "board found (frame 0)" in out and "too small" not in out   # 1080p, the sheet fills the frame
    moves = [(index, text) for index, text in event_lines(out) if "moved" in text]
    assert [text for _, text in moves] == ["yellow 2 moved R5 → O5", "yellow 3 moved S6 → S10"]
    for (index, _), left in zip(moves, video.hand_left):
        assert 0 <= index - left < 5, f"move seen at frame {index}, the hand left at {left}"
    assert "left the board" not in out and "two tokens" not in out, "the passing hand and the bump make no event"
    bumped = [int(line.split("(frame ")[1].rstrip(")")) for line in out.splitlines() if "registered again" in line]
    assert len(bumped) == 1 and 0 <= bumped[0] - video.hand_left[3] <= 2, (bumped, video.hand_left)


def test_watch_checks_moves_against_the_saves_real_rolls_and_writes_nothing(video, demo_save, capsys):
    """MT 3.04: Serra Angel rolled 8 and moved 3 — legal; Savannah Lions has not rolled yet."""
    def saved():  # SQLite's own -wal/-shm files of a reader aside: the save and its backup, as they were
        return {p.name: (p.stat().st_mtime_ns, p.stat().st_size) for p in demo_save.iterdir()
                if not p.name.endswith(("-wal", "-shm"))}

    files = saved()
    assert main(["watch", str(video.path), "--game", str(demo_save), "--lang", "fr"]) == 0
    out = capsys.readouterr().out
    lines = [text for _, text in event_lines(out)]
    serra = next(line for line in lines if line.startswith("jaune 2 : R5 → O5"))
    assert serra == "jaune 2 : R5 → O5, jet 8 : 3 cases, il en reste 8 : permis", serra
    lions = next(line for line in lines if line.startswith("jaune 3 : S6 → S10"))
    assert re.fullmatch(r"jaune 3 : S6 → S10, pas encore de jet : \d+ cases, il en reste 0 : trop loin \(MT 3.04.a\)",
                        lions), lions
    assert saved() == files


def test_watch_follows_a_stream_url_that_drops_and_comes_back(video, board_file, capsys):
    """A phone's MJPEG stream: unplugged after a few frames, plugged back: said both times."""
    capture = cv2.VideoCapture(str(video.path))
    frames = [capture.read()[1] for _ in range(6)]
    server = MjpegServer(frames)
    worker = threading.Thread(target=lambda: main(["watch", server.url, "--board", DUEL, "--max-frames", "40",
                                                   "--lang", "en"]), daemon=True)
    try:
        worker.start()
        deadline = time.monotonic() + 60
        while server.served[0] < 10 and time.monotonic() < deadline:
            time.sleep(0.05)
        server.unplug()
        time.sleep(2.0)
        server.plug()
        worker.join(90)
    finally:
        server.close()
    assert not worker.is_alive()
    out = capsys.readouterr().out
    assert "board found" in out
    assert out.index("no picture from") < out.index("pictures again")


@pytest.fixture(scope="module")
def board_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("board") / "board.yaml"
    save_board(random_board(20, 12, np.random.default_rng(12)), path)
    return path


def test_watch_stops_after_max_frames(video, capsys):
    assert main(["watch", str(video.path), "--board", DUEL, "--max-frames", "3", "--lang", "fr"]) == 0
    out = capsys.readouterr().out
    assert "plateau trouvé" in out and "→" not in out


@pytest.mark.parametrize("source, message", [
    ("no/such/place", "no/such/place: no such camera, stream, file or folder"),
    ("99999999999999999999", "camera numbers go from 0 to 99"),
])
def test_watch_names_a_bad_source(board_file, capsys, source, message):
    assert main(["watch", source, "--board", str(board_file)]) == 2
    assert message in capsys.readouterr().err


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_watch_does_not_hang_on_a_fifo_nobody_writes_to(tmp_path, board_file, capsys, monkeypatch):
    import calibration.sources

    monkeypatch.setattr(calibration.sources, "OPEN_TIMEOUT_S", 0.5)
    os.mkfifo(tmp_path / "camera")
    assert main(["watch", str(tmp_path / "camera"), "--board", str(board_file)]) == 2
    assert "no answer within 0.5 s" in capsys.readouterr().err


def test_watch_names_an_unreadable_video(tmp_path, board_file, capsys):
    fake = tmp_path / "clip.mp4"
    fake.write_text("not a video")
    assert main(["watch", str(fake), "--board", str(board_file)]) == 2
    assert "clip.mp4" in capsys.readouterr().err


def test_watch_names_a_game_folder_without_a_game(tmp_path, capsys):
    assert main(["watch", "0", "--game", str(tmp_path)]) == 2
    assert f"--game {tmp_path}" in capsys.readouterr().err


def test_watch_says_when_no_board_is_in_view(tmp_path, board_file, capsys):
    cv2.imwrite(str(tmp_path / "blank.png"), np.full((240, 320, 3), 90, np.uint8))
    assert main(["watch", str(tmp_path), "--board", str(board_file), "--lang", "en"]) == 1
    assert "board not found" in capsys.readouterr().err


def test_watch_says_where_tokens_are_too_small_to_read_MT_2_05(tmp_path, capsys):
    """A camera far from the board: told once, when the board is found, in the table's language."""
    from vision.synth import photograph

    board = random_board(20, 12, np.random.default_rng(3))
    board_path = tmp_path / "board.yaml"
    save_board(board, board_path)
    photo = photograph(board, seed=3, hand=0.0, fill=(0.4, 0.45), max_tilt_deg=45)
    cv2.imwrite(str(tmp_path / "far.png"), photo.image)
    assert main(["watch", str(tmp_path / "far.png"), "--board", str(board_path), "--lang", "fr"]) == 0
    out = capsys.readouterr().out
    assert "plateau trouvé" in out and "sont trop petits dans l'image" in out



def test_watch_reads_the_apps_camera_settings_or_the_file_given_and_names_a_bad_field(
        board_file, tmp_path, capsys, monkeypatch):
    """Issue 18: `tactical watch` takes the vision YAML the app's camera takes (vision.yaml in the
    app's data folder), or `--config FILE`; a value that cannot be used stops it before any frame,
    with the file, the line and the field."""
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    (tmp_path / "tactical").mkdir()
    (tmp_path / "tactical" / "vision.yaml").write_text("tracking:\n  vanish_frames: -3\n", encoding="utf-8")
    assert main(["watch", "no/such/place", "--board", str(board_file)]) == 2
    err = capsys.readouterr().err
    assert f"{tmp_path / 'tactical' / 'vision.yaml'}:2" in err and "tracking.vanish_frames" in err, err
    import vision.watch

    used = []

    class Recording(vision.watch.CameraWatcher):
        def __init__(self, board, config):
            used.append(config)
            super().__init__(board, config)

    monkeypatch.setattr(vision.watch, "CameraWatcher", Recording)
    blank = tmp_path / "table.png"
    cv2.imwrite(str(blank), np.full((240, 320, 3), 90, np.uint8))
    given = tmp_path / "mine.yaml"
    given.write_text("tracking:\n  settle_frames: 6\n", encoding="utf-8")
    assert main(["watch", str(blank), "--board", str(board_file), "--config", str(given), "--max-frames", "1"]) == 1
    (tmp_path / "tactical" / "vision.yaml").write_text("tracking:\n  vanish_frames: 30\n", encoding="utf-8")
    assert main(["watch", str(blank), "--board", str(board_file), "--max-frames", "1"]) == 1
    assert [(c.tracking.settle_frames, c.tracking.vanish_frames) for c in used] == [(6, 8), (12, 30)]
