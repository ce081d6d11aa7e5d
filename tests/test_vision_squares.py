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
