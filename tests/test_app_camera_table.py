"""Camera and table screens of the demo driven like a player (real app, offscreen, one subprocess):
the demo camera reads every token; a doubtful square is confirmed and undone (MT 2.02.e); a camera
source that cannot be opened is said without losing the game; seats turn 90°/180°; a player
leaves the game only after confirming, and undo brings them back.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import cv2
import pytest

from companion.app.demo import demo_board, demo_pieces
from test_app_drive import run_autopilot

pytestmark = pytest.mark.slow   # each test here reads a run of the whole app (seconds to start): the second step of ./run.sh test

DOCS = Path(__file__).resolve().parents[1] / "docs" / "screenshots"
SHOTS = ("table-ends-fr.png", "table-leave-fr.png", "camera-confirm-fr.png", "camera-far-fr.png")


def wait(key: str, timeout: float = 180, **condition) -> dict:
    """Until the camera screen's report says so (the camera worker runs at its own pace)."""
    return {"wait_for": {"screen": "camera", "key": key, "timeout": timeout, **condition}}


@pytest.fixture(scope="module")
def demo_run(tmp_path_factory):
    tmp_path = tmp_path_factory.mktemp("camera_table")
    board = demo_board()
    tokens = [(p.player, p.number, *p.at) for p in demo_pieces(board)]
    from vision.synth import photograph

    photo = photograph(board, tokens=tokens, seed=9, frame=(1920, 1080), max_tilt_deg=15, hand=0.0,
                       fill=(0.85, 0.95))
    photo_path = tmp_path / "table-photo.png"
    cv2.imwrite(str(photo_path), photo.image)
    far = photograph(board, tokens=tokens, seed=9, frame=(1920, 1080), max_tilt_deg=45, hand=0.0, fill=(0.4, 0.45))
    far_path = tmp_path / "far-photo.png"
    cv2.imwrite(str(far_path), far.image)
    steps = [
        {"show": "settings"}, {"tap": "settings.seats_ends"}, {"show": "table"}, {"report": "ends"},
        {"screenshot": str(tmp_path / SHOTS[0])},
        {"show": "settings"}, {"tap": "settings.seats_facing"}, {"show": "table"}, {"report": "facing"},
        {"tap": "table.seat-2.leave"}, {"tap_text": "Retour"}, {"report": "cancelled"},
        {"tap": "table.seat-2.leave"}, {"screenshot": str(tmp_path / SHOTS[1])},
        {"tap_text": "Bruno quitte"}, {"report": "left"},
        {"tap": "undo"}, {"report": "back"},
        {"show": "camera"}, wait("found", equals=True), wait("frame_index", at_least=2), {"report": "camera"},
        {"tap": "camera.doubt-0"}, {"report": "picking"}, {"screenshot": str(tmp_path / SHOTS[2])},
        {"tap": "camera.colour_G"}, {"tap": "camera.confirm"}, {"report": "confirmed"},
        {"tap": "undo"}, {"report": "unconfirmed"},
        {"type": ["camera.source", str(tmp_path / "no-such-video.mp4")]}, {"tap": "camera.open_source"},
        wait("status", contains="no-such-video.mp4"), {"report": "bad_source"},
        {"type": ["camera.source", "7"]}, {"tap": "camera.open_source"}, wait("status", contains="caméra 7 introuvable"),
        {"report": "unplugged"},
        {"type": ["camera.source", str(photo_path)]}, {"tap": "camera.open_source"},
        wait("status", contains="fin du fichier"), {"report": "file_source"},
        {"type": ["camera.source", str(far_path)]}, {"tap": "camera.open_source"},
        wait("status", contains="fin du fichier"), {"report": "far_source"},
        {"screenshot": str(tmp_path / SHOTS[3])},
    ]
    report = run_autopilot(tmp_path, steps, name="camera_table", lang="fr", timeout=600)
    if os.environ.get("UPDATE_SCREENSHOTS"):
        for name in SHOTS:
            shutil.copy(tmp_path / name, DOCS / name)
    return report, tokens


def test_the_demo_camera_reads_every_token_on_the_board(demo_run):
    """The synthetic camera frames the board large enough for every token code to be read."""
    report, tokens = demo_run
    camera = report["camera"]["screens"]["camera"]
    assert camera["found"]
    on_board = sorted([p, n, *at] for key, at in report["camera"]["pieces"].items() if at
                      for p, n in [map(int, key.split("-"))])
    assert camera["tokens_read"] == on_board
    assert len(on_board) == len(tokens)


def test_a_doubtful_square_is_confirmed_through_an_undoable_action(demo_run):
    """MT 2.02.e: the table says what a doubtful square is; the board changes, undo takes it back."""
    report, _ = demo_run
    doubtful = report["camera"]["screens"]["camera"]["doubtful"]
    assert doubtful, "the demo photo should leave at least one doubtful square to confirm"
    x, y = report["picking"]["screens"]["camera"]["confirming"]
    assert [x, y] == doubtful[0]

    def square(rep):
        return rep["board_rows"][y].split()[x]

    before, after = square(report["camera"]), square(report["confirmed"])
    colours = lambda code: set(code.rstrip("#@*.")) if code != "." else set()  # noqa: E731
    assert colours(after) == colours(before) ^ {"G"}
    assert [x, y] not in report["confirmed"]["screens"]["camera"]["doubtful"]
    assert any(line.endswith(f": {after}") for line in report["confirmed"]["history"])
    assert square(report["unconfirmed"]) == before
    assert [x, y] in report["unconfirmed"]["screens"]["camera"]["doubtful"]


def test_a_camera_source_that_cannot_be_opened_is_said_and_the_game_goes_on(demo_run):
    report, _ = demo_run
    for label, needle in (("bad_source", "no-such-video.mp4 : ni caméra, ni flux, ni fichier, ni dossier de ce nom"),
                          ("unplugged", "caméra 7 introuvable")):
        shown = report[label]
        assert needle in shown["screens"]["camera"]["status"]
        assert "la partie continue" in shown["screens"]["camera"]["status"].lower()
        assert shown["pieces"] == report["camera"]["pieces"] and shown["history"] == report["camera"]["history"]


def test_a_photo_file_as_camera_source_is_read(demo_run):
    report, tokens = demo_run
    camera = report["file_source"]["screens"]["camera"]
    assert camera["found"] and camera["source"].endswith("table-photo.png")
    assert camera["tokens_read"] == sorted(map(list, tokens))


def test_a_camera_too_far_for_tokens_is_told_so_and_the_demo_camera_is_not_MT_2_05(demo_run):
    """The status says how many squares' tokens are too small to read well; the demo frames the
    board so that none is."""
    report, _ = demo_run
    assert "trop petits" not in report["camera"]["screens"]["camera"]["status"]
    far = report["far_source"]["screens"]["camera"]
    assert far["found"] and "sont trop petits dans l'image" in far["status"], far["status"]


def test_seats_turn_to_face_their_players(demo_run):
    """Two players with 'ends': the first at the left end (270°), the last at the right end (90°);
    'facing': the far side turned 180°, the near side upright."""
    report, _ = demo_run
    assert report["ends"]["screens"]["table"]["rotations"] == {"1": 270, "2": 90}
    assert report["facing"]["screens"]["table"]["rotations"] == {"1": 180, "2": 0}


def test_a_player_leaves_only_after_confirming_and_undo_brings_them_back(demo_run):
    report, _ = demo_run
    assert report["cancelled"]["players"]["2"]["left"] is False
    assert report["cancelled"]["history"] == report["facing"]["history"]
    assert report["left"]["players"]["2"]["left"] is True
    assert report["left"]["screens"]["table"]["sources"]["1"] == []  # nobody left to deal commander damage
    assert report["back"]["players"]["2"]["left"] is False
