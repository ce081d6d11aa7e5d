"""`tactical scan` and `tactical calibrate` from the command line (issue 5)."""
from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest
import yaml

from boards import library_boards, load_board
from companion.cli.main import main
from vision.printed import render_printed
from vision.synth import photograph, photograph_no_board

REAL = Path(__file__).parent / "fixtures" / "real_photos"  # copies of ../shared/real-photos
LABELS = Path(__file__).parent / "fixtures" / "real_photos.yaml"


@pytest.fixture(scope="module")
def board_photo(tmp_path_factory):
    board_path = library_boards()["duel-20x12"]
    board = load_board(board_path)
    photo = photograph(render_printed(board, 48), board=board, seed=4, hand=0.0)
    path = tmp_path_factory.mktemp("scan") / "photo.jpg"
    cv2.imwrite(str(path), photo.image)
    return path, board_path


def test_scan_json_and_debug_image(board_photo, tmp_path, capsys):
    photo, board_file = board_photo
    debug = tmp_path / "debug.png"
    assert main(["scan", str(photo), "--board", str(board_file), "--json", "--debug-image", str(debug)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["found"] and doc["grid"] == {"width": 20, "height": 12} and len(doc["squares"]) == 240
    assert cv2.imread(str(debug)).shape == cv2.imread(str(photo)).shape


def test_scan_summary_for_people(board_photo, capsys):
    photo, _ = board_photo
    assert main(["scan", str(photo)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("board 20×12 found (markers)") and "to confirm" in out


@pytest.mark.parametrize("args, message", [
    (["scan", "/no/such/photo.jpg"], "no such image file"),
    (["scan", "{junk}"], "not a readable image"),
    (["calibrate", "--camera", "/no/such/video.mp4"], "no such camera, stream, file or folder"),
])
def test_bad_input_is_one_clear_line(tmp_path, capsys, args, message):
    junk = tmp_path / "junk.jpg"
    junk.write_bytes(b"\\x00garbage")
    args = [str(junk) if a == "{junk}" else a for a in args]
    assert main(args) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1 and "Traceback" not in err


def test_photo_of_something_else_says_no_board(tmp_path, capsys):
    path = tmp_path / "table.jpg"
    cv2.imwrite(str(path), photograph_no_board(seed=1).image)
    assert main(["scan", str(path)]) == 1
    said = capsys.readouterr().out.strip()
    assert said.startswith("no board found: ") and said.count("no board found") == 1
    assert main(["scan", str(path), "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["found"] is False


def test_a_one_pixel_image_says_why_once(tmp_path, capsys):
    """The 1×1 image: "no board found" said once, with the reason (it was said twice)."""
    path = tmp_path / "dot.png"
    cv2.imwrite(str(path), np.zeros((1, 1, 3), np.uint8))
    assert main(["scan", str(path)]) == 1
    assert capsys.readouterr().out.strip() == "no board found: the image is 1×1 px: too small to show a board"


def test_calibrate_an_unknown_board_from_a_folder(board_photo, tmp_path, capsys):
    """No board file: the calibration is saved, a new board file written, squares to confirm listed."""
    photo, board_file = board_photo
    folder = tmp_path / "frames"
    folder.mkdir()
    (folder / "0.jpg").write_bytes(photo.read_bytes())
    out = tmp_path / "calib"
    assert main(["calibrate", "--camera", str(folder), "--out", str(out)]) == 0
    assert (out / "calibration.json").exists()
    scanned = load_board(out / "scanned-board.yaml")
    truth = load_board(board_file)
    same = sum(a == b for a, b in zip(scanned, truth))
    assert (scanned.width, scanned.height) == (20, 12) and same >= 0.9 * 240
    assert "squares to confirm" in capsys.readouterr().out


def test_scan_a_real_photo_with_the_grid_size(capsys):
    """A real phone photo of a chessboard, size given: found, 64 squares, most read W/B right."""
    entry = next(e for e in yaml.safe_load(LABELS.read_text())["photos"] if e["file"] == "chess-8x8-topdown.jpg")
    assert main(["scan", str(REAL / entry["file"]), "--grid", "8x8", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    right = sum(s["colours"] == entry["colours"][s["y"]][s["x"]] for s in doc["squares"])
    assert doc["found"] and len(doc["squares"]) == 64 and right >= 40


def test_real_chess_photos_read_w_and_b_with_no_unflagged_error_MT_2_02_e():
    """All labelled real photos, size given: a per-photo two-tone profile reads W and B;
    glossy squares may be flagged uncertain (MT 2.02.e), never read wrong unflagged."""
    import cv2

    from vision import scan

    read = wrong = flagged = 0
    for entry in yaml.safe_load(LABELS.read_text())["photos"]:
        result = scan(cv2.imread(str(REAL / entry["file"])), grid=tuple(entry["grid"]))
        assert result.found, entry["file"]
        read += len(result.squares)
        flagged += sum(s.uncertain or s.covered for s in result.squares)
        wrong += sum(not (s.uncertain or s.covered) and s.colours != entry["colours"][s.y][s.x]
                     for s in result.squares)
    assert wrong == 0
    assert flagged <= 0.25 * read


def test_scan_says_where_tokens_are_too_small_to_read_MT_2_05(tmp_path, capsys):
    """A board seen small and tilted: the far squares' tokens cannot be promised, and both the JSON
    and the summary say where (the squares follow from the homography alone)."""
    from vision.tokens import squares_too_small

    board = load_board(library_boards()["duel-20x12"])
    photo = photograph(render_printed(board, 48), board=board, seed=5, hand=0.0, fill=(0.4, 0.45),
                       max_tilt_deg=45)
    path = tmp_path / "far.jpg"
    cv2.imwrite(str(path), photo.image)
    assert main(["scan", str(path), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    expected = squares_too_small(np.array(doc["homography"]), 20, 12)
    assert expected and doc["tokens_too_small"] == [list(at) for at in expected]
    assert main(["scan", str(path)]) == 0
    assert f"tokens on {len(expected)} squares" in capsys.readouterr().out
    assert main(["calibrate", "--camera", str(path), "--grid", "20x12", "--out", str(tmp_path / "cal")]) == 0
    assert f"tokens on {len(expected)} squares" in capsys.readouterr().out


def test_scan_says_the_lens_it_read_through(capsys):
    """Issue 18: a webcam chessboard with strong barrel distortion (real photo): the summary says
    the lens, the JSON gives it (OpenCV's model, k1 and k2) beside the plain homography."""
    photo = Path(__file__).parent / "fixtures" / "real_photos_2" / "webcam-chess-10x7-a.jpg"
    assert main(["scan", str(photo), "--grid", "7x10"]) == 0
    assert "read through the lens the photo shows: k1 -0.3" in capsys.readouterr().out
    assert main(["scan", str(photo), "--grid", "7x10", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["lens"]["model"] == "opencv-radial-k1k2" and doc["lens"]["k1"] < -0.25
    assert np.asarray(doc["homography"]).shape == (3, 3)


def test_a_grid_larger_than_any_board_is_refused_before_anything_is_allocated(board_photo, capsys):
    """`--grid 100000x100000` asked numpy for 522 GiB (ArrayMemoryError); the largest board the companion
    reads is boards.io.MAX_SIDE squares a side."""
    from types import SimpleNamespace

    from boards.io import MAX_SIDE
    from vision import scan
    from vision.watch import CameraWatcher

    photo, _ = board_photo
    with pytest.raises(SystemExit) as stopped:
        main(["scan", str(photo), "--grid", "100000x100000"])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert f"boards of 1 to {MAX_SIDE}×{MAX_SIDE}" in err and "Traceback" not in err
    image = cv2.imread(str(photo))
    for grid in ((100_000, 100_000), (MAX_SIDE + 1, 12), (20, 0)):
        result = scan(image, grid=grid)
        assert not result.found and result.error.key == "camera.vision.grid_too_large"
    with pytest.raises(ValueError, match="boards of 1 to 200×200"):
        CameraWatcher(SimpleNamespace(width=MAX_SIDE + 1, height=12))


def test_every_command_limits_numpy_blas_to_one_thread_before_numpy_loads():
    """`tactical` sets OPENBLAS_NUM_THREADS=1 (its busy-waiting threads doubled a 1080p scan's CPU, taken
    from the app's UI thread): only possible while the command line has not imported numpy yet."""
    import os
    import subprocess
    import sys

    probe = ("import sys, os; import companion.cli.main as m; loaded = 'numpy' in sys.modules; "
             "sys.argv = ['tactical', 'no-such-command']\n"
             "try: m.main()\nexcept SystemExit: pass\n"
             "print(loaded, os.environ.get('OPENBLAS_NUM_THREADS'))")
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, timeout=120)
    assert done.stdout.split() == ["False", "1"], done.stderr[-2000:]
