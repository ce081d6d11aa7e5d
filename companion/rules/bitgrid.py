"""Sets of squares as the bits of one Python int, and back (shared by zones and moves).

Bit `y * width + x` stands for square (x, y). A step of every square at once, a row span or
"minus the occupied squares" is then one big-int operation instead of a loop over squares.

Turning a mask back into the frozenset of (x, y) tuples that the API returns is the costly
part: a fresh tuple is hashed again on every insertion (tuples do not keep their hash). So
each grid size keeps, per byte of a mask and per value of that byte, the frozenset of the
up-to-8 squares it stands for; a set union of those pieces runs in C and reuses their stored
hashes. A mask covering most of the grid is built the other way round, as a copy of the whole
grid (a plain table copy) minus the pieces of the few squares it lacks.
"""
from __future__ import annotations

from functools import lru_cache, reduce
from itertools import islice, repeat
from operator import or_
from typing import Iterable

from boards.model import XY



@lru_cache(maxsize=64)
def grid_positions(width: int, height: int) -> tuple[XY, ...]:
    """One shared (x, y) tuple per square, index y * width + x, so cached sets share them."""
    return tuple((x, y) for y in range(height) for x in range(width))


class _BytePieces(dict[int, frozenset[XY]]):
    """Byte value → frozenset of the squares its set bits stand for, for one byte of a mask.

    Filled on first use by `__missing__`, so that `map(dict.__getitem__, tables, data)` looks up
    every byte of a mask in C, with no Python loop (at most 256 entries per byte).
    """

    __slots__ = ("positions", "first")

    def __init__(self, positions: tuple[XY, ...], first: int):
        super().__init__({0: frozenset()})
        self.positions, self.first = positions, first

    def __missing__(self, byte: int) -> frozenset[XY]:
        piece = self[byte] = frozenset(self.positions[self.first + b] for b in range(8) if byte >> b & 1)
        return piece


class GridBits:
    """The squares of a width × height grid as bits, and the cached pieces that turn masks back into sets."""

    def __init__(self, width: int, height: int):
        self.width, self.height = width, height
        self.size = n = width * height
        self.positions = positions = grid_positions(width, height)
        self.everything = frozenset(positions)
        self.full = (1 << n) - 1
        first_column = int(("0" * (width - 1) + "1") * height, 2)
        self._left_of = [((1 << c) - 1) * first_column for c in range(width + 1)]  # columns < c (no carry)
        self.not_first_column = self.columns(1, width)      # a step east never lands in column 0
        self.not_last_column = self.columns(0, width - 1)   # a step west never lands in the last column
        self._bit_of = {q: 1 << i for i, q in enumerate(positions)}
        self._byte_pieces = [_BytePieces(positions, k * 8) for k in range((n + 7) // 8)]
        self._last_masked: tuple[frozenset[XY], int] | None = None

    def columns(self, low: int, high: int) -> int:
        """Mask of the columns low ≤ x < high, on every row."""
        return self._left_of[high] ^ self._left_of[low]

    def squares(self, mask: int) -> frozenset[XY]:
        """The squares whose bits are set in `mask` (a subset of `full`)."""
        if mask == self.full:
            return self.everything
        if mask.bit_count() * 2 > self.size:
            return self.everything.difference(*self._pieces(self.full & ~mask))
        return frozenset().union(*self._pieces(mask))

    def _pieces(self, mask: int) -> Iterable[frozenset[XY]]:
        """The cached per-byte pieces of `mask`, from its lowest to its highest non-zero byte."""
        if not mask:
            return ()
        first = ((mask & -mask).bit_length() - 1) >> 3
        data = (mask >> (first * 8)).to_bytes((mask.bit_length() + 7) // 8 - first, "little")
        return map(dict.__getitem__, islice(self._byte_pieces, first, None), data)

    def mask_of(self, squares: Iterable[XY]) -> int:
        """The bits of `squares`; squares off the grid are ignored.

        The last frozenset converted is remembered (frozensets are immutable): the overlays of
        one game state pass the same occupied set for every piece.
        """
        last = self._last_masked
        if last is not None and last[0] is squares:
            return last[1]
        mask = reduce(or_, map(self._bit_of.get, squares, repeat(0)), 0)
        if type(squares) is frozenset:
            self._last_masked = (squares, mask)
        return mask

    def forget_last_mask(self) -> None:
        """Drop the remembered frozenset (benchmarks measure cold queries with it)."""
        self._last_masked = None


@lru_cache(maxsize=64)
def grid_bits(width: int, height: int) -> GridBits:
    """The GridBits of a grid size, shared by every board of that size (positions only, no colours)."""
    return GridBits(width, height)
