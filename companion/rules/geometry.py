"""Distances and action zones on the grid (MT 4.03, 4.04, 4.09, 6.07).

A zone depends only on the board's size, never on its colours (obstacles
inside a zone are still in it), so zones are cached by (width, height, centre,
radius, metric) and shared by every board of the same size. A zone is built as
a bit mask (a cached template shifted onto its centre) and turned into a set by
bitgrid's cached pieces, so that no square tuple is hashed again.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Iterable

from boards.model import XY, Board
from companion.rules.bitgrid import grid_bits

METRICS = ("manhattan", "chebyshev")


def check_metric(metric: str) -> None:
    if metric not in METRICS:
        raise ValueError(f"metric must be one of {METRICS}, got {metric!r}")


def distance(p: XY, q: XY, metric: str = "manhattan") -> int:
    """Grid distance: Manhattan by default (moves are orthogonal, MT 3.07), Chebyshev as a house rule."""
    dx, dy = abs(p[0] - q[0]), abs(p[1] - q[1])
    if metric == "manhattan":
        return dx + dy
    check_metric(metric)
    return max(dx, dy)


def check_on_board(board: Board, at: XY, what: str = "square") -> None:
    """Clear error for a position that is not a square of the board."""
    try:
        x, y = at
    except (TypeError, ValueError):
        raise ValueError(f"{what} must be an (x, y) pair, got {at!r}") from None
    if not (isinstance(x, int) and isinstance(y, int) and 0 <= x < board.width and 0 <= y < board.height):
        raise ValueError(f"{what} {at!r} is not on the {board.width}×{board.height} board")


def check_mana_value(mana_value: int) -> None:
    if not isinstance(mana_value, int) or isinstance(mana_value, bool) or mana_value < 0:
        raise ValueError(f"mana value must be a whole number ≥ 0, got {mana_value!r}")


def action_radius(mana_value: int, *, reach: bool = False, reach_zero_as_one: bool = True) -> int:
    """Radius of a permanent's action zone.

    MT 4.03.a: radius = mana value; MT 4.03.c: MV 0 → radius 1; MT 6.07: reach doubles
    the mana value. With `reach_zero_as_one` (the digest's reading) MV 0 counts as 1
    before doubling, so a 0-MV reach creature has radius 2; otherwise it keeps radius 1.
    """
    return radius_of_action(mana_value, reach, reach_zero_as_one)


@lru_cache(maxsize=512, typed=True)  # typed: True must not pass as MV 1
def radius_of_action(mana_value: int, reach: bool, reach_zero_as_one: bool) -> int:
    """action_radius with positional arguments only: the per-piece loops of a scene call it for
    every piece, and a cache lookup without keywords costs half as much."""
    check_mana_value(mana_value)
    if reach:
        doubled = 2 * (max(mana_value, 1) if reach_zero_as_one else mana_value)
        return max(doubled, 1)
    return max(mana_value, 1)


def spell_radius(mana_value: int, *, zero_as_one: bool = True) -> int:
    """Radius of a spell's zone, 3 × MV centred on the caster (MT 4.09.a).

    With `zero_as_one` (the digest's reading) a 0-MV spell has radius 3, so a
    0-MV creature spell can still enter next to its caster; otherwise radius 0.
    """
    check_mana_value(mana_value)
    return 3 * (max(mana_value, 1) if zero_as_one else mana_value)


def whole_grid(width: int, height: int) -> frozenset[XY]:
    """Every square of a width × height grid (MT 4.04, 4.07, 4.09.d)."""
    return grid_bits(width, height).everything


@lru_cache(maxsize=1024)  # a whole-grid 40×25 zone is ~32 KB of set table: ≤ ~35 MB in all
def _clipped_zone(width: int, height: int, x: int, y: int, radius: int, metric: str) -> frozenset[XY]:
    return grid_bits(width, height).squares(zone_mask(width, height, (x, y), radius, metric))


def zone_mask(width: int, height: int, centre: XY, radius: int, metric: str) -> int:
    """Bit mask of `{q : 1 ≤ dist(centre, q) ≤ radius}` clipped to the grid (MT 4.03.b).

    A zone narrower than the grid is a cached template (`_zone_template`) shifted onto its
    centre: a few big-int operations instead of one per row. A shift pushes the squares that
    fall past a side edge onto the next or previous row, but at least `width - 2·radius`
    columns away from the zone's own columns, so keeping those columns removes them; squares
    past the top or bottom edge fall off the mask.
    """
    x, y = centre
    if 2 * radius >= width:
        return _row_spans(width, height, centre, radius, metric)
    offset = (y - radius) * width + x - radius
    template = _zone_template(width, radius, metric)
    shifted = template << offset if offset >= 0 else template >> -offset
    return shifted & grid_bits(width, height).columns(max(0, x - radius), min(width, x + radius + 1))


@lru_cache(maxsize=256)
def _zone_template(width: int, radius: int, metric: str) -> int:
    """The zone of `radius` around square (radius, radius) of a grid `width` wide (2·radius < width)."""
    return _row_spans(width, 2 * radius + 1, (radius, radius), radius, metric)


def _row_spans(width: int, height: int, centre: XY, radius: int, metric: str) -> int:
    """The zone mask built one row span at a time, the centre left out."""
    x, y = centre
    mask = 0
    for qy in range(max(0, y - radius), min(height, y + radius + 1)):
        span = radius - abs(qy - y) if metric == "manhattan" else radius
        low, high = max(0, x - span), min(width, x + span + 1)
        mask |= ((1 << (high - low)) - 1) << (qy * width + low)
    return mask & ~(1 << (y * width + x))


def zone_around(board: Board, centre: XY, radius: int, metric: str = "manhattan") -> frozenset[XY]:
    """`{q : 1 ≤ dist(centre, q) ≤ radius}` clipped to the grid; the centre is excluded (MT 4.03.b)."""
    check_metric(metric)
    check_on_board(board, centre, "centre")
    return _clipped_zone(board.width, board.height, centre[0], centre[1], radius, metric)


def action_zone(board: Board, at: XY | None, mana_value: int, *, reach: bool = False,
                metric: str = "manhattan") -> frozenset[XY]:
    """Action zone of a permanent standing at `at` (MT 4.03.a–c, 6.07).

    `at=None` means the permanent is not on the grid: its zone is the whole grid (MT 4.04).
    Radius: MV, MV 0 → 1 (4.03.c); with reach 2 × MV, MV 0 counting as 1 (6.07).
    """
    radius = action_radius(mana_value, reach=reach)
    if at is None:
        return whole_grid(board.width, board.height)
    return zone_around(board, at, radius, metric)


def spell_zone(board: Board, caster_at: XY, mana_value: int, *, metric: str = "manhattan") -> frozenset[XY]:
    """Zone of a spell cast by the player standing at `caster_at` (MT 4.09.a–d).

    Radius 3 × max(MV, 1) centred on the caster (4.09.a); while the caster stands on a
    Temple du Deus square, the whole grid (4.09.d).
    """
    radius = spell_radius(mana_value)
    check_on_board(board, caster_at, "caster square")
    if board.square(*caster_at).temple:
        return whole_grid(board.width, board.height)
    return zone_around(board, caster_at, radius, metric)


def clear_caches() -> None:
    """Forget cached zones (benchmarks use it to measure cold queries)."""
    _clipped_zone.cache_clear()


def adjacent(board: Board, at: XY) -> frozenset[XY]:
    """The up-to-8 squares touching `at`, diagonals included (MT 5.03.a, 6.08)."""
    return _clipped_zone(board.width, board.height, at[0], at[1], 1, "chebyshev")


def nearest(centre: XY, squares: Iterable[XY], metric: str = "manhattan") -> frozenset[XY]:
    """The squares at the smallest distance from `centre`, all ties kept (MT 4.10.b)."""
    best, found = None, []
    for q in squares:
        d = distance(centre, q, metric)
        if best is None or d < best:
            best, found = d, [q]
        elif d == best:
            found.append(q)
    return frozenset(found)
