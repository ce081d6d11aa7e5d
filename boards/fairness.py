"""Is a board playable, and is it fair to every player?

Plain Python on the Board model (no numpy needed): boards are at most a few
thousand squares, and these checks run once per board, not per frame.

Definitions used by `tactical board check`, the generator and the library tests:

* playable (MT 2.01, 2.04.a, 2.03.b, 3.07): at least 20×12 squares, at least one
  start square per player, and every start reaches every other start by
  orthogonal steps over non-obstacle squares.
* fair: every player faces the same board. Precisely, all three hold:
  1. symmetry — the grid (colours, obstacles, starts and Temples included) is
     unchanged by a symmetry that fits the number of players:
     2 players: the 180° rotation;
     4 (or 8) players: the board's symmetries carry any start onto any other
     (on a grid that means both mirror axes, or the 90° rotation on a square board);
     any other number (3, 5, …): no grid symmetry can carry every start onto every
     other, so one mirror symmetry is required, plus condition 2 made explicit;
  2. distances — every start sees the same sorted list of path lengths to the
     other starts (for 3 players: all three start-to-start lengths are equal);
  3. Temples — every start is at the same path length from its nearest Temple du
     Deus (when the board has Temples).
  Path lengths are orthogonal steps over non-obstacle squares (MT 2.03.b, 3.07).
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Callable

from boards.model import XY, Board, square_label

MIN_WIDTH, MIN_HEIGHT = 20, 12  # MT 2.01
MAX_COMPARED_STARTS = 64  # path lengths from each start cost a search of the board: the check stays linear
MAX_LISTED = 10           # squares named in one problem line

Transform = Callable[[XY], XY]


def symmetry_transforms(width: int, height: int) -> dict[str, Transform]:
    """The grid's non-trivial symmetries by name (the diagonal ones only on square grids)."""
    transforms: dict[str, Transform] = {
        "rotation 180°": lambda p: (width - 1 - p[0], height - 1 - p[1]),
        "mirror left-right": lambda p: (width - 1 - p[0], p[1]),
        "mirror top-bottom": lambda p: (p[0], height - 1 - p[1]),
    }
    if width == height:
        transforms |= {
            "rotation 90°": lambda p: (width - 1 - p[1], p[0]),
            "rotation 270°": lambda p: (p[1], width - 1 - p[0]),
            "mirror diagonal": lambda p: (p[1], p[0]),
            "mirror anti-diagonal": lambda p: (width - 1 - p[1], width - 1 - p[0]),
        }
    return transforms


def board_symmetries(board: Board) -> dict[str, Transform]:
    """Symmetries that leave every square (colours, obstacle, start, Temple) unchanged."""
    return {name: t for name, t in symmetry_transforms(board.width, board.height).items()
            if all(board.square(*p) == board.square(*t(p)) for p in board.positions())}


def path_lengths(board: Board, source: XY) -> dict[XY, int]:
    """Orthogonal steps from `source` to every square reachable over non-obstacle squares
    (MT 2.03.b, 3.07); the rules engine has its own search with movement allowances."""
    lengths = {source: 0}
    queue = deque([source])
    while queue:
        x, y = queue.popleft()
        for nxt in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if nxt not in lengths and board.in_bounds(nxt) and board.walkable(nxt):
                lengths[nxt] = lengths[(x, y)] + 1
                queue.append(nxt)
    return lengths


def play_problems(board: Board) -> list[str]:
    """Why this board cannot be played; empty when it can (MT 2.01, 2.04.a, 2.03.b, 3.07)."""
    problems = []
    if board.width < MIN_WIDTH or board.height < MIN_HEIGHT:
        problems.append(f"the grid is {board.width}×{board.height}; it must be at least "
                        f"{MIN_WIDTH}×{MIN_HEIGHT} (MT 2.01)")
    starts = board.starts
    if len(starts) < board.players:
        problems.append(f"{len(starts)} start square(s) (@) for {board.players} players; "
                        "each player needs one (MT 2.04.a)")
    if starts:
        reached = path_lengths(board, starts[0])
        cut_off = [s for s in starts[1:] if s not in reached]
        if cut_off:
            named = ", ".join(square_label(s) for s in cut_off[:MAX_LISTED])
            more = f" and {len(cut_off) - MAX_LISTED} more" if len(cut_off) > MAX_LISTED else ""
            problems.append(f"start square(s) {named}{more} cannot be reached from "
                            f"{square_label(starts[0])} without crossing obstacles (MT 2.03.b, 3.07)")
    return problems


@dataclass(frozen=True)
class FairnessReport:
    """Symmetries and path lengths measured on a board, and the verdict (see module doc)."""

    players: int
    starts: tuple[XY, ...]
    symmetries: tuple[str, ...]
    start_distances: dict[tuple[XY, XY], int | None]  # path length per pair of starts
    temple_distances: dict[XY, int | None]  # start -> path length to its nearest Temple
    unfair_reasons: tuple[str, ...]

    @property
    def fair(self) -> bool:
        return not self.unfair_reasons

    def lines(self) -> list[str]:
        """The report as text lines for people."""
        def length(d: int | None) -> str:
            return "unreachable" if d is None else str(d)

        out = [f"fair: {'yes' if self.fair else 'no'} ({self.players} players)",
               f"symmetries: {', '.join(self.symmetries) or 'none'}"]
        out += [f"  {square_label(a)} ↔ {square_label(b)}: {length(d)} steps"
                for (a, b), d in self.start_distances.items()]
        out += [f"  {square_label(s)} → nearest Temple: {length(d)} steps"
                for s, d in self.temple_distances.items()]
        out += [f"  unfair: {reason}" for reason in self.unfair_reasons]
        return out


def fairness_report(board: Board) -> FairnessReport:
    """Measure symmetry and path lengths and judge fairness as defined in the module doc
    (MT 1.02.a boards for 2 and 4 players, MT 2.04.a starts, MT 2.04.b Temples)."""
    starts = tuple(board.starts)
    symmetries = board_symmetries(board)
    if len(starts) > MAX_COMPARED_STARTS:
        return FairnessReport(board.players, starts, tuple(symmetries), {}, {}, (
            f"{len(starts)} start squares: too many to compare (the check compares at most "
            f"{MAX_COMPARED_STARTS}; MT 2.04.a asks one per player)",))
    lengths = {s: path_lengths(board, s) for s in starts}
    start_distances = {(a, b): lengths[a].get(b) for i, a in enumerate(starts) for b in starts[i + 1:]}
    temples = board.temples
    temple_distances = {
        s: min((lengths[s][t] for t in temples if t in lengths[s]), default=None) for s in starts
    } if temples else {}

    reasons = []
    symmetry_reason = _missing_symmetry(board.players, starts, symmetries)
    if symmetry_reason:
        reasons.append(symmetry_reason)
    if None in start_distances.values():
        reasons.append("some start squares cannot reach each other")
    else:
        profiles = {tuple(sorted(lengths[s][o] for o in starts if o != s)) for s in starts}
        if len(profiles) > 1:
            reasons.append(f"starts see different path lengths to the other starts: {sorted(profiles)}")
    if len(set(temple_distances.values())) > 1:
        reasons.append("starts are at different path lengths from their nearest Temple")
    return FairnessReport(board.players, starts, tuple(symmetries), start_distances,
                          temple_distances, tuple(reasons))


def _missing_symmetry(players: int, starts: tuple[XY, ...],
                      symmetries: dict[str, Transform]) -> str | None:
    """Why the board lacks the symmetry its number of players needs, or None."""
    if players == 2:
        return None if "rotation 180°" in symmetries else "2 players need the 180° rotation symmetry"
    if players in (4, 8):
        orbit = {starts[0]} | {t(starts[0]) for t in symmetries.values()} if starts else set()
        if set(starts) <= orbit:
            return None
        return f"{players} players need symmetries carrying every start onto every other " \
               "(both mirror axes, or the 90° rotation on a square board)"
    if any(name.startswith("mirror") for name in symmetries):
        return None
    return f"{players} players need a mirror symmetry"
