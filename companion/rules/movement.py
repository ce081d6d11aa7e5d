"""Where a piece may end its move (MT 2.03.b, 3.04.b, 3.06, 3.07, 6.03, 6.10).

The board is held as bit masks (bitgrid: one Python int, bit y*width+x per square). One
orthogonal step of every square at once is four shifts (MT 3.07), cut by the walkable mask
for walkers (MT 2.03.b), so a move of up to 24 squares costs ~24 big-int operations instead
of a search over hundreds of squares. Passing through occupied squares is allowed (MT 3.06.b),
so the occupied squares are only cleared from the result mask (MT 3.06.a) before it becomes
a set, once. Per board object, the masks within reach per (start, allowance, flying) and the
resulting sets are cached, as the app asks the same moves again on every redraw.
"""
from __future__ import annotations

import weakref
from collections import OrderedDict
from typing import Collection, TypeVar

from boards.model import XY, Board
from companion.rules.bitgrid import grid_bits
from companion.rules.geometry import check_on_board, zone_mask

_MOVES_KEPT = 1024  # cached move sets per board (≤ ~25 MB), and as many reach masks; least recently used dropped


class BoardMasks:
    """Bit masks of one board, and its cached reach masks and move sets."""

    def __init__(self, board: Board):
        self.grid = grid = grid_bits(board.width, board.height)
        self.width, self.size = grid.width, grid.size
        bits = "".join("1" if board.walkable(q) else "0" for q in reversed(grid.positions))
        self.walkable = int(bits, 2)
        self._reach: OrderedDict[tuple[int, int, bool], int] = OrderedDict()
        self._moves: OrderedDict[int, frozenset[XY]] = OrderedDict()

    def within(self, start: int, allowance: int, flying: bool) -> int:
        """Mask of the squares within `allowance` orthogonal steps of `start` (through walkable squares unless flying)."""
        key = (start, allowance, flying)
        reach = _recall(self._reach, key)
        if reach is not None:
            return reach
        grid, w, start_bit = self.grid, self.width, 1 << start
        if flying:  # nothing to go round (MT 6.03): an L-shaped path to a square at distance ≤ allowance
            # never leaves that distance, so the reach is the Manhattan zone of that radius plus the start
            y, x = divmod(start, w)
            return _remember(self._reach, key, zone_mask(w, grid.height, (x, y), allowance, "manhattan") | start_bit)
        allowed = self.walkable | start_bit
        east, west = grid.not_first_column, grid.not_last_column
        reach = start_bit
        for _ in range(allowance):
            grown = (reach | ((reach << 1) & east) | ((reach >> 1) & west) | (reach << w) | (reach >> w)) & allowed
            if grown == reach:
                break
            reach = grown
        return _remember(self._reach, key, reach)

    def squares(self, mask: int) -> frozenset[XY]:
        """The set of a move mask, cached by the mask itself (a 1000-bit int hashes in ~0.1 µs)."""
        squares = _recall(self._moves, mask)
        if squares is None:
            squares = _remember(self._moves, mask, self.grid.squares(mask))
        return squares


Key = TypeVar("Key")
Value = TypeVar("Value")


def _recall(cache: OrderedDict[Key, Value], key: Key) -> Value | None:
    """The cached value of `key` (marked as recently used), or None."""
    value = cache.get(key)
    if value is not None:
        cache.move_to_end(key)
    return value


def _remember(cache: OrderedDict[Key, Value], key: Key, value: Value) -> Value:
    cache[key] = value
    if len(cache) > _MOVES_KEPT:
        cache.popitem(last=False)
    return value


_boards: dict[int, tuple[weakref.ref[Board], BoardMasks]] = {}


def board_masks(board: Board) -> BoardMasks:
    """The cached BoardMasks of this board object (boards are immutable)."""
    key = id(board)
    entry = _boards.get(key)
    if entry is not None and entry[0]() is board:
        return entry[1]
    masks = BoardMasks(board)
    def forget(_ref: weakref.ref[Board]) -> None:
        _boards.pop(key, None)

    _boards[key] = (weakref.ref(board, forget), masks)
    return masks


def clear_caches(*, keep_boards: bool = False) -> None:
    """Forget cached moves, and the boards' masks too unless `keep_boards` (benchmarks measure
    cold queries with it)."""
    if keep_boards:
        for _ref, masks in _boards.values():
            masks._reach.clear()
            masks._moves.clear()
            masks.grid.forget_last_mask()
    else:
        _boards.clear()


def check_allowance(allowance: int) -> None:
    if not isinstance(allowance, int) or isinstance(allowance, bool) or allowance < 0:
        raise ValueError(f"movement allowance must be a whole number ≥ 0, got {allowance!r}")


def reachable(board: Board, start: XY, allowance: int, *, occupied: Collection[XY] = frozenset(),
              flying: bool = False) -> frozenset[XY]:
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
    reach = masks.within(index, min(allowance, masks.size), bool(flying))
    if occupied:
        reach &= ~masks.grid.mask_of(occupied)
    return masks.squares(reach | 1 << index)


def path_length(board: Board, start: XY, goal: XY, *, flying: bool = False) -> int | None:
    """Fewest orthogonal steps from `start` to `goal` (MT 3.07), through occupied squares (MT 3.06.b)
    but around obstacles unless flying (MT 2.03.b, 6.03, 6.10); None when no path exists. The goal
    itself may be any square: whether a piece may END there is another question (`judge_move`).

    The same bit-mask flood as `reachable`, one orthogonal step of every square at a time, stopped
    as soon as the goal is reached: the shortest path has exactly that many steps.
    """
    check_on_board(board, start, "start")
    check_on_board(board, goal, "goal")
    if start == goal:
        return 0
    if flying:  # nothing to go round: an L-shaped path stays on the grid
        return abs(start[0] - goal[0]) + abs(start[1] - goal[1])
    masks = board_masks(board)
    grid, w = masks.grid, masks.width
    start_bit, goal_bit = 1 << (start[1] * w + start[0]), 1 << (goal[1] * w + goal[0])
    allowed = masks.walkable | start_bit | goal_bit
    east, west = grid.not_first_column, grid.not_last_column
    reach, steps = start_bit, 0
    while not reach & goal_bit:
        grown = (reach | ((reach << 1) & east) | ((reach >> 1) & west) | (reach << w) | (reach >> w)) & allowed
        if grown == reach:
            return None
        reach, steps = grown, steps + 1
    return steps
