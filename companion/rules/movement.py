"""Where a piece may end its move (MT 2.03.b, 3.04.b, 3.06, 3.07, 6.03, 6.10).

The board is held as bit masks (one Python int, bit y*width+x per square). One
orthogonal step of every square at once is four shifts (MT 3.07), cut by the
walkable mask for walkers (MT 2.03.b), so a move of up to 24 squares costs ~24
big-int operations instead of a search over hundreds of squares. Passing through
occupied squares is allowed (MT 3.06.b), so the occupied squares are only removed
from the result (MT 3.06.a); the squares within reach per (start, allowance, flying)
are cached per board object, as the app asks the same moves again on every redraw.
"""
from __future__ import annotations

import weakref
from collections import OrderedDict
from typing import Collection

from companion.rules.geometry import Pos, check_on_board, grid_positions

_MOVES_KEPT = 1024  # cached (start, allowance, flying) results per board (≤ ~25 MB), least recently used dropped


class BoardMasks:
    """Bit masks of one board and cached move masks."""

    def __init__(self, board):
        self.width, self.height = w, h = board.width, board.height
        self.size = n = w * h
        self.positions = grid_positions(w, h)
        self.full = (1 << n) - 1
        first_column = int(("0" * (w - 1) + "1") * h, 2)
        last_column = first_column << (w - 1)
        self.not_first_column = self.full & ~first_column   # a step east never lands in column 0
        self.not_last_column = self.full & ~last_column     # a step west never lands in the last column
        bits = "".join("1" if board.walkable(self.positions[i]) else "0" for i in reversed(range(n)))
        self.walkable = int(bits, 2)
        self.nbytes = (n + 7) // 8
        self._moves: OrderedDict[tuple[int, int, bool], frozenset[Pos]] = OrderedDict()
        self._byte_squares: dict[int, frozenset[Pos]] = {}

    def within(self, start: int, allowance: int, flying: bool) -> frozenset[Pos]:
        """Squares within `allowance` orthogonal steps of `start` (through walkable squares unless flying)."""
        key = (start, allowance, flying)
        cached = self._moves.get(key)
        if cached is not None:
            self._moves.move_to_end(key)
            return cached
        w, start_bit = self.width, 1 << start
        allowed = self.full if flying else self.walkable | start_bit
        east, west = self.not_first_column, self.not_last_column
        reach = start_bit
        for _ in range(allowance):
            grown = (reach | ((reach << 1) & east) | ((reach >> 1) & west) | (reach << w) | (reach >> w)) & allowed
            if grown == reach:
                break
            reach = grown
        squares = self.squares_of(reach)
        self._moves[key] = squares
        if len(self._moves) > _MOVES_KEPT:
            self._moves.popitem(last=False)
        return squares

    def squares_of(self, mask: int) -> frozenset[Pos]:
        """The squares whose bits are set, as one union of cached per-byte pieces: a set union
        reuses the stored hashes, so no square tuple is hashed again."""
        pieces, positions = self._byte_squares, self.positions
        chunks = []
        for k, byte in enumerate(mask.to_bytes(self.nbytes, "little")):
            if byte:
                key = k << 8 | byte
                piece = pieces.get(key)
                if piece is None:
                    piece = pieces[key] = frozenset(positions[k * 8 + b] for b in range(8) if byte >> b & 1)
                chunks.append(piece)
        return frozenset().union(*chunks)


_boards: dict[int, tuple[weakref.ref, BoardMasks]] = {}


def board_masks(board) -> BoardMasks:
    """The cached BoardMasks of this board object (boards are immutable)."""
    key = id(board)
    entry = _boards.get(key)
    if entry is not None and entry[0]() is board:
        return entry[1]
    masks = BoardMasks(board)
    _boards[key] = (weakref.ref(board, lambda _ref, key=key: _boards.pop(key, None)), masks)
    return masks


def clear_caches(*, keep_boards: bool = False) -> None:
    """Forget cached moves, and the boards' masks too unless `keep_boards` (benchmarks measure
    cold queries with it)."""
    if keep_boards:
        for _ref, masks in _boards.values():
            masks._moves.clear()
    else:
        _boards.clear()


def check_allowance(allowance: int) -> None:
    if not isinstance(allowance, int) or isinstance(allowance, bool) or allowance < 0:
        raise ValueError(f"movement allowance must be a whole number ≥ 0, got {allowance!r}")


def reachable(board, start: Pos, allowance: int, *, occupied: Collection[Pos] = frozenset(),
              flying: bool = False) -> frozenset[Pos]:
    """Squares where a piece at `start` may END a move of at most `allowance` squares, start included.

    MT 3.07: orthogonal steps only. MT 3.04.b: fewer squares than the roll is fine, and not
    moving is always allowed. MT 3.06: it may pass through occupied squares but not end on one.
    MT 2.03.b: a walker never enters an obstacle. MT 6.03/6.10: a flyer (or a piece with
    distortion: pass `flying=True`) crosses and stops on obstacles.
    """
    check_on_board(board, start, "start")
    check_allowance(allowance)
    masks = board_masks(board)
    index = start[1] * masks.width + start[0]
    squares = masks.within(index, min(allowance, masks.size), bool(flying))
    if occupied:
        squares = squares.difference(occupied)
    return squares | {start}
