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
    longest = max(board.width, board.height) + 4  # + the printed margins and labels
    return max(16, min(preferred, max_side // longest))


def board_picture(board: Board, px_per_square: int | None = None) -> BoardPicture:
    """The board exactly as printed (colours, symbols, coordinates), from `boards.render`."""
    from boards.render import render_board

    px = px_per_square or pixels_per_square(board)
    rendered = render_board(board, px)
    origin = tuple(int(v) for v in rendered.origin)
    return BoardPicture(image=rendered.image, origin=origin, px_per_square=px)
