"""`tactical watch`: events from an image folder, and clear messages for bad sources."""
import cv2
import numpy as np
import pytest

from boards import save_board, square_label
from companion.cli.main import main
from vision.video import make_video, random_board


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    """A short synthetic recording: 24 frames, one token carried to another square by a hand."""
    folder = tmp_path_factory.mktemp("frames")
    rng = np.random.default_rng(12)
    board = random_board(20, 12, rng)
    board_file = folder.parent / "board.yaml"
    save_board(board, board_file)
    _, frames = make_video(board, size=(1280, 720), frames=24, tokens=5, moves=1, seed=12, max_tilt_deg=25)
    for i, frame in enumerate(frames):
        cv2.imwrite(str(folder / f"{i:03d}.png"), frame.image)
    before = {(t.player, t.number): t.square for t in frames[0].tokens}
    after = {(t.player, t.number): t.square for t in frames[-1].tokens}
    (moved,) = [token for token in before if before[token] != after[token]]
    return folder, board_file, moved, before[moved], after[moved]


def test_watch_prints_the_move_a_hand_made(recorded, capsys):
    folder, board_file, moved, frm, to = recorded
    assert main(["watch", str(folder), "--board", str(board_file), "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "board found" in out and "too small" not in out   # the board fills the frame: tokens within reach
    assert f"moved {square_label(frm)} → {square_label(to)}" in out
    assert out.count("moved") == 1


def test_watch_stops_after_max_frames(recorded, capsys):
    folder, board_file, *_ = recorded
    assert main(["watch", str(folder), "--board", str(board_file), "--max-frames", "3", "--lang", "fr"]) == 0
    out = capsys.readouterr().out
    assert "plateau trouvé" in out and "→" not in out


@pytest.mark.parametrize("source, message", [("no/such/place", "no such file, folder or camera number"),
                                             ("missing.png", "no such image file")])
def test_watch_names_a_bad_source(recorded, capsys, source, message):
    _, board_file, *_ = recorded
    assert main(["watch", source, "--board", str(board_file)]) == 2
    assert message in capsys.readouterr().err


def test_watch_names_an_unreadable_video(tmp_path, recorded, capsys):
    _, board_file, *_ = recorded
    fake = tmp_path / "clip.mp4"
    fake.write_text("not a video")
    assert main(["watch", str(fake), "--board", str(board_file)]) == 2
    assert "clip.mp4" in capsys.readouterr().err


def test_watch_says_when_no_board_is_in_view(tmp_path, recorded, capsys):
    _, board_file, *_ = recorded
    cv2.imwrite(str(tmp_path / "blank.png"), np.full((240, 320, 3), 90, np.uint8))
    assert main(["watch", str(tmp_path), "--board", str(board_file), "--lang", "en"]) == 1
    assert "board not found" in capsys.readouterr().err


def test_watch_says_where_tokens_are_too_small_to_read_MT_2_05(tmp_path, capsys):
    """A camera far from the board: told once, when the board is found, in the table's language."""
    from vision.synth import photograph

    board = random_board(20, 12, np.random.default_rng(3))
    board_file = tmp_path / "board.yaml"
    save_board(board, board_file)
    photo = photograph(board, seed=3, hand=0.0, fill=(0.4, 0.45), max_tilt_deg=45)
    cv2.imwrite(str(tmp_path / "far.png"), photo.image)
    assert main(["watch", str(tmp_path / "far.png"), "--board", str(board_file), "--lang", "fr"]) == 0
    out = capsys.readouterr().out
    assert "plateau trouvé" in out and "sont trop petits dans l'image" in out
