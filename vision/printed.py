"""The printed image of one of our boards, exactly as `boards.render.render_board` makes it.

Vision learns its glyph and hatch templates from the printer's own drawing, and
the synthetic photographer photographs it: one adapter so both read the same
fields.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from boards.model import Board


@dataclass(frozen=True)
class PrintedBoard:
    image: np.ndarray            # BGR, margin, markers and labels included
    origin: tuple[float, float]  # pixel of grid point (0, 0)
    px_per_square: int


def render_printed(board: Board, px_per_square: int) -> PrintedBoard:
    """render_board's output as a PrintedBoard."""
    from boards.render import render_board

    printed = render_board(board, px_per_square)
    return PrintedBoard(printed.image, tuple(float(v) for v in printed.origin), px_per_square)
