"""The per-square reader alone, on render_board's own drawing warped to the canonical grid
(MT 2.02.d–e, 2.03.a–c, 2.04.a–b)."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from boards.model import Board, order_colours
from calibration.colour import ColourProfile, bgr_bins
from calibration.config import DEFAULT_CONFIG
from vision.printed import render_printed
from vision.squares import read_squares

ROWS = ["W U B R G WU BR", "G@ R* U# . WUB B@ W*", "RG# W# B# UG WUBRG BG R"]
PX = 24


@pytest.fixture(scope="module")
def board():
    return Board.from_rows(ROWS)


def _canonical(board: Board, light=(1.0, 1.0, 1.0)) -> np.ndarray:
    """The grid as the scan warps it: rendered 4× larger, reduced to PX per square."""
    printed = render_printed(board, PX * 4)
    x0, y0 = (int(round(v)) for v in printed.origin)
    grid = printed.image[y0:y0 + board.height * PX * 4, x0:x0 + board.width * PX * 4]
    small = cv2.resize(grid, (board.width * PX, board.height * PX), interpolation=cv2.INTER_AREA)
    return small.astype(np.float32) * np.array(light, np.float32)


def _read(board, image):
    profile = ColourProfile.from_palette().adapt(bgr_bins(image))
    labels = profile.lookup_table()[bgr_bins(image)]
    return read_squares(image, labels, board.width, board.height, PX, profile=profile,
                        colour=DEFAULT_CONFIG.colour, symbols=DEFAULT_CONFIG.symbols)


def test_every_square_of_a_clean_print_reads_right(board):
    """Colours (multicoloured pie sectors too), obstacles, coloured obstacles, start and Temple."""
    for reading in _read(board, _canonical(board)):
        square = board.square(reading.x, reading.y)
        assert (reading.colours, reading.obstacle, reading.start, reading.temple) == \
            (order_colours(square.colours), square.obstacle, square.start, square.temple), square.code
        assert not reading.uncertain and not reading.covered


def test_a_hidden_square_is_covered_not_guessed(board):
    """A skin-coloured blob over one square: covered (its colour then comes from the file)."""
    image = _canonical(board)
    image[PX:2 * PX, 2 * PX:3 * PX] = (120, 150, 205)
    reading = _read(board, image)[board.width + 2]
    assert reading.covered and reading.uncertain


def test_a_small_fleck_of_colour_is_doubtful_MT_2_02_e():
    """A red fleck over ~8 % of a white square: too little to count, too much to ignore —
    the square is flagged for a person to confirm, never read as WR."""
    board = Board.from_rows(["W G"])
    image = _canonical(board)
    image[10:15, 10:15] = (40, 44, 208)
    reading = _read(board, image)[0]
    assert reading.uncertain and reading.colours in ("W", "WR")
    clean = _read(board, _canonical(board))[0]
    assert not clean.uncertain and clean.colours == "W"


def test_a_pale_hand_over_a_square_is_covered_not_read_white_MT_2_02_e(board):
    """Skin is a hue no square of ours is printed in: a pale hand over half a white square
    and a darker one over a cross-hatched black square make them covered (asked to a
    person), never W + a colour nor a hatched R."""
    image = _canonical(board)
    white, hatched_black = (0, 0), (2, 2)  # "W" and "B#"
    for (x, y), skin in ((white, (170, 195, 235)), (hatched_black, (120, 150, 205))):
        image[y * PX:(y + 1) * PX, x * PX + PX // 3:(x + 1) * PX] = skin
    readings = _read(board, image)
    for x, y in (white, hatched_black):
        assert readings[y * board.width + x].covered, (x, y)
    assert sum(r.covered for r in readings) == 2


def test_grid_lines_are_found_off_by_a_pixel(board):
    """A registration one or two canonical pixels off must not hide the printed lines:
    light squares stay read, not covered. (Inner squares: the reader sees only the grid,
    so a shift rolls the outer lines off its image.)"""
    for shift in (1, 2):
        image = np.roll(_canonical(board), (shift, -shift), axis=(0, 1))
        readings = _read(board, image)
        inner = [r for r in readings if 0 < r.x < board.width - 1 and 0 < r.y < board.height - 1]
        assert not any(r.covered for r in inner), shift


def test_blurred_multicoloured_squares_are_not_doubted(board):
    """Where two printed colours meet, a soft camera blends them into no class: that is no
    reason to flag the square (MT 2.02.d, a multicoloured square has all its colours)."""
    image = cv2.GaussianBlur(_canonical(board), (0, 0), 1.0)
    for reading in _read(board, image):
        square = board.square(reading.x, reading.y)
        if len(square.colours) >= 2 and not square.obstacle:
            assert reading.colours == order_colours(square.colours) and not reading.uncertain, square.code


def _chessboard(px: int, rng: np.random.Generator) -> tuple[np.ndarray, list[str]]:
    """A glossy two-tone board under a light gradient, with glare on some black squares."""
    rows = ["".join("W" if (x + y) % 2 == 0 else "B" for x in range(8)) for y in range(8)]
    image = np.zeros((8 * px, 8 * px, 3), np.float32)
    for y, row in enumerate(rows):
        for x, tone in enumerate(row):
            image[y * px:(y + 1) * px, x * px:(x + 1) * px] = 235 if tone == "W" else 35
    ramp = np.linspace(0.7, 1.0, 8 * px, dtype=np.float32)
    image *= ramp[None, :, None]
    glared = [(x, y) for y, row in enumerate(rows) for x, tone in enumerate(row) if tone == "B"]
    for k in rng.choice(len(glared), 4, replace=False):
        x, y = glared[k]
        centre = (int((x + rng.uniform(0.3, 0.7)) * px), int((y + rng.uniform(0.3, 0.7)) * px))
        cv2.ellipse(image, centre, (int(px * 0.45), int(px * 0.3)), float(rng.uniform(0, 180)), 0, 360,
                    (200, 200, 200), -1)
    return image + rng.normal(0, 4, image.shape).astype(np.float32), rows


def test_two_tone_board_reads_w_and_b_and_doubts_glare_MT_2_02_e():
    """A foreign two-tone board (chess): the per-photo lightness split reads W and B;
    glare on a glossy black square makes it uncertain, never a confident W. Over 10 boards."""
    from vision.squares import read_two_tone

    wrong = flagged = 0
    for seed in range(10):
        image, rows = _chessboard(PX, np.random.default_rng(seed))
        readings = read_two_tone(image, 8, 8, PX, DEFAULT_CONFIG.colour)
        assert readings is not None
        wrong += sum(not r.uncertain and r.colours != rows[r.y][r.x] for r in readings)
        flagged += sum(r.uncertain for r in readings)
    assert wrong == 0
    assert 40 <= flagged <= 0.25 * 640  # the 40 glared squares, and not the whole board


def test_a_coloured_board_is_not_two_tone(board):
    from vision.squares import read_two_tone

    assert read_two_tone(_canonical(board), board.width, board.height, PX, DEFAULT_CONFIG.colour) is None
