"""The board picture the app shows: one image of the whole printed board.

Drawing the board once as a single texture (instead of one widget per square)
is what keeps a 40×25 board light; overlays are drawn over it as meshes.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from boards import Board


@dataclass(frozen=True)
class BoardPicture:
    """A BGR image of the board and where its grid lies in it (image pixels, y down)."""

    image: np.ndarray
    origin: tuple[int, int]
    px_per_square: int

    def square_rect(self, at: tuple[int, int]) -> tuple[int, int, int, int]:
        """(left, top, width, height) of square `at` in image pixels."""
        x, y = at
        return (self.origin[0] + x * self.px_per_square, self.origin[1] + y * self.px_per_square,
                self.px_per_square, self.px_per_square)


def pixels_per_square(board: Board, *, max_side: int = 4096, preferred: int = 56) -> int:
    """Square size of the on-screen texture: sharp when zoomed in, within GPU texture limits."""
    longest = max(board.width, board.height) + 2  # + the coordinates around the grid
    return max(16, min(preferred, max_side // longest))


def board_picture(board: Board, px_per_square: int | None = None) -> BoardPicture:
    """The board as printed (colours, symbols, coordinates, from `boards.render`), cut to the grid
    and its coordinates: the camera markers around them are for the camera, not for people."""
    from boards.markers import LABEL_BAND
    from boards.render import render_board

    px = px_per_square or pixels_per_square(board)
    rendered = render_board(board, px)
    band = int(round(LABEL_BAND * px))
    left, top = (int(v) - band for v in rendered.origin)
    image = rendered.image[top:top + board.height * px + 2 * band, left:left + board.width * px + 2 * band]
    return BoardPicture(image=np.ascontiguousarray(image), origin=(band, band), px_per_square=px)
