"""Camera screen helpers (no window): overlays land on the right squares of the photographed board.

The synthetic photographer knows where it put the board (its true homography), so the
app's reading of a photo and its augmented-reality drawing are checked against that truth.
"""
from __future__ import annotations

import numpy as np
import pytest

from boards import library_boards, load_board
from companion.app.screens.camera.feed import PHOTO_LAYERS, SyntheticFeed, draw_on_photo, read_board


def centre_pixel(homography: np.ndarray, at: tuple[int, int]) -> tuple[int, int]:
    """Pixel of the centre of square `at` (grid point (x + 0.5, y + 0.5), architecture.md)."""
    point = homography @ np.array([at[0] + 0.5, at[1] + 0.5, 1.0])
    return int(round(point[0] / point[2])), int(round(point[1] / point[2]))


def test_overlay_fills_exactly_the_squares_given_through_the_homography():
    image = np.full((300, 400, 3), 128, np.uint8)
    homography = np.array([[20.0, 0, 50], [0, 20.0, 40], [0, 0, 1]])  # 20 px per square, grid at (50, 40)
    out = draw_on_photo(image, homography, {"moves": {(2, 3)}})
    colour, alpha = PHOTO_LAYERS["moves"]
    x, y = centre_pixel(homography, (2, 3))
    expected = np.round(np.array(colour) * alpha + 128 * (1 - alpha))
    assert np.abs(out[y, x].astype(int) - expected).max() <= 2
    nx, ny = centre_pixel(homography, (3, 3))  # the neighbour square is untouched
    assert out[ny, nx].tolist() == [128, 128, 128]
    assert (image == 128).all(), "the camera frame itself is not modified"


@pytest.fixture(scope="module")
def duel_photo():
    board = load_board(library_boards()["duel-20x12"])
    from vision.synth import photograph

    photo = photograph(board, tokens=[(1, 2, 5, 5), (2, 1, 14, 6)], seed=3, frame=(1280, 720), hand=0.0,
                       max_tilt_deg=30, fill=(0.75, 0.9))
    return board, photo


def test_reading_a_photo_finds_the_board_where_the_photographer_put_it(duel_photo):
    """The AR overlay is drawn through the scan's homography: it must match the true one within 3 px."""
    board, photo = duel_photo
    reading = read_board(photo.image, board)
    assert reading.found, reading.error
    for at in [(0, 0), (19, 0), (0, 11), (19, 11), (10, 6)]:
        got = np.array(centre_pixel(reading.homography, at))
        truth = np.array(centre_pixel(np.asarray(photo.homography), at))
        assert np.linalg.norm(got - truth) <= 3, f"square {at}: {got} vs {truth}"


def test_doubtful_squares_leave_out_squares_hidden_by_tokens(duel_photo):
    """MT 2.02.e: only visible doubtful colours are asked; a token's square keeps the board file's colour."""
    board, photo = duel_photo
    reading = read_board(photo.image, board)
    assert (5, 5) not in reading.doubtful and (14, 6) not in reading.doubtful


def test_the_synthetic_feed_reshoots_only_when_the_tokens_move():
    board = load_board(library_boards()["duel-20x12"])
    feed = SyntheticFeed(seed=1)
    first = feed.frame(board, [(1, 1, 3, 3)])
    assert feed.frame(board, [(1, 1, 3, 3)]) is first
    assert feed.frame(board, [(1, 1, 4, 3)]) is not first
