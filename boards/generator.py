"""Random boards that are fair by construction and look like a map.

How a board is made (all from one `random.Random` seeded with text, so a seed
gives the same board on every machine; nothing depends on hash or set order):

1. choose the symmetry the number of players needs (see boards.fairness):
   2 players → 180° rotation, 4 → both mirror axes, 3 → one mirror axis with a
   start on the axis and the two others placed so that all start-to-start and
   start-to-Temple path lengths are equal;
2. colour regions: a weighted Voronoi diagram of sites placed symmetrically,
   sampled through a smooth noise warp so borders wander like coastlines, then
   smoothed by a majority cellular automaton (no single-square speckle);
3. some squares on region borders take both neighbouring colours (MT 2.02.a);
4. obstacles as small clumps and short walls, some colourless '.' (MT 2.03.a),
   some keeping their colour 'R#' (MT 2.03.c), never next to a start or Temple;
   walkable pockets cut off from the starts become coloured obstacles too;
5. every orbit of squares under the symmetry gets identical content, then the
   board is checked (play_problems, fairness_report) and redrawn until it passes.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

from boards.fairness import (MIN_HEIGHT, MIN_WIDTH, Transform, fairness_report, path_lengths,
                             play_problems, symmetry_transforms)
from boards.io import MAX_SIDE
from boards.model import COLOURS, XY, Board, Square


DEFAULT_NAMES = {2: "Duel", 3: "Trio", 4: "Quatuor"}
SQUARES_PER_REGION = 16      # average size of a colour region, in squares
WARP_SPACING = 6             # squares between noise lattice points: the scale of border wiggles
WARP_AMPLITUDE = 3.0         # how far (in squares) borders wander from the straight Voronoi edges
MULTICOLOUR_CHANCE = 0.15    # chance that a border square carries both colours (MT 2.02.a)
OBSTACLE_SHARE = 0.07        # share of squares that are obstacles
COLOURED_OBSTACLE_CHANCE = 0.4
MAX_ATTEMPTS = 200
MAX_SITE_WEIGHT = 1.5        # a region's centre pulls its border up to this many squares further out


class BoardGenerationError(ValueError):
    """The requested board cannot be generated (bad size or number of players)."""


@dataclass
class _Canvas:
    """The board being drawn, with the symmetry group every change must respect."""

    width: int
    height: int
    group: list[Transform]  # identity included; every change is copied to the whole orbit
    colours: dict[XY, frozenset[str]] = field(default_factory=dict)
    obstacles: set[XY] = field(default_factory=set)
    starts: set[XY] = field(default_factory=set)
    temples: set[XY] = field(default_factory=set)

    def orbit(self, p: XY) -> set[XY]:
        return {t(p) for t in self.group}

    def representative(self, p: XY) -> XY:
        return min(self.orbit(p))

    def positions(self) -> list[XY]:
        return [(x, y) for y in range(self.height) for x in range(self.width)]

    def representatives(self) -> list[XY]:
        return [p for p in self.positions() if self.representative(p) == p]

    def in_bounds(self, p: XY) -> bool:
        return 0 <= p[0] < self.width and 0 <= p[1] < self.height

    def neighbours(self, p: XY, diagonal: bool = False) -> list[XY]:
        steps = [(1, 0), (-1, 0), (0, 1), (0, -1)]
        if diagonal:
            steps += [(1, 1), (1, -1), (-1, 1), (-1, -1)]
        return [q for q in ((p[0] + dx, p[1] + dy) for dx, dy in steps) if self.in_bounds(q)]

    def symmetrise_colours(self) -> None:
        """Give every square the colours of its orbit's representative."""
        self.colours = {p: self.colours[self.representative(p)] for p in self.positions()}

    def to_board(self, **meta) -> Board:
        rows = tuple(
            tuple(Square(self.colours[(x, y)], obstacle=(x, y) in self.obstacles,
                         start=(x, y) in self.starts, temple=(x, y) in self.temples)
                  for x in range(self.width))
            for y in range(self.height))
        return Board(rows, **meta)


def generate_board(width: int, height: int, players: int, seed: int | str, name: str | None = None) -> Board:
    """A fair, playable board (MT 2.01 size, MT 2.02.a multicoloured squares, MT 2.03.a/c
    obstacles, MT 2.04.a one start per player, MT 2.04.b Temples du Deus), the same for
    the same arguments. Sizes of MT 1.02.a: 20×12 for 2 players, 40×25 for 4; at most MAX_SIDE a side,
    in time linear in the area (about 5 s for 200×200)."""
    if width < MIN_WIDTH or height < MIN_HEIGHT:
        raise BoardGenerationError(f"{width}×{height} is too small: a board is at least "
                                   f"{MIN_WIDTH}×{MIN_HEIGHT} (MT 2.01)")
    if width > MAX_SIDE or height > MAX_SIDE:
        raise BoardGenerationError(f"{width}×{height} is too large: the companion reads boards of at most "
                                   f"{MAX_SIDE}×{MAX_SIDE} squares (MT 2.01 sets no maximum)")
    if players not in GROUP_FOR_PLAYERS:
        raise BoardGenerationError(f"the generator makes boards for 2, 3 or 4 players, not {players}")
    if players == 3 and width % 2 == 0 and height % 2 == 0:
        raise BoardGenerationError(
            f"3 players need an odd width or height (e.g. {width + 1}×{height}): one start must sit "
            "on the mirror axis, which then runs through a column or row of squares")
    transpose = players == 3 and width % 2 == 0  # draw with a vertical axis, then turn it
    draw_w, draw_h = (height, width) if transpose else (width, height)
    rng = random.Random(f"magic-tactical:{width}x{height}:{players}:{seed}")
    meta = dict(name=name or f"{DEFAULT_NAMES[players]} {width}×{height}", players=players,
                description=f"{width}×{height}, {players} joueurs ; plateau généré "
                            f"(tactical board new, graine {seed})")
    for _ in range(MAX_ATTEMPTS):
        canvas = _draw(draw_w, draw_h, players, rng)
        if transpose:
            canvas = _transposed(canvas)
        board = canvas.to_board(**meta)
        if _acceptable(board):
            return board
    raise BoardGenerationError(f"no fair {width}×{height} board for {players} players found "
                               f"in {MAX_ATTEMPTS} attempts with seed {seed}; try another seed")


def _acceptable(board: Board) -> bool:
    """Playable, fair, every start reaches a Temple, all five colours and some
    multicoloured squares are on the board (so every colour bonus can be had, MT 2.02.b)."""
    report = fairness_report(board)
    colours_seen = set().union(*(sq.colours for sq in board))
    return (not play_problems(board) and report.fair and None not in report.temple_distances.values()
            and colours_seen == set(COLOURS) and any(len(sq.colours) > 1 for sq in board))


def _draw(width: int, height: int, players: int, rng: random.Random) -> _Canvas:
    """One candidate board; it may still fail the checks (then the caller draws again)."""
    canvas = _Canvas(width, height, _symmetry_group(width, height, players))
    protected = _place_starts_and_temples(canvas, players, rng)
    _paint_regions(canvas, rng)
    _add_multicoloured_borders(canvas, rng)
    _add_obstacles(canvas, protected, rng)
    _close_pockets(canvas)
    return canvas


GROUP_FOR_PLAYERS = {  # symmetries (names from boards.fairness) that make the board fair
    2: ("rotation 180°",),
    3: ("mirror left-right",),
    4: ("mirror left-right", "mirror top-bottom", "rotation 180°"),
}


def _symmetry_group(width: int, height: int, players: int) -> list[Transform]:
    transforms = symmetry_transforms(width, height)
    return [lambda p: p, *(transforms[name] for name in GROUP_FOR_PLAYERS[players])]


def _place_starts_and_temples(canvas: _Canvas, players: int, rng: random.Random) -> set[XY]:
    """Starts and Temples (MT 2.04.a/b); returns the squares obstacles must leave free."""
    w, h = canvas.width, canvas.height
    corridors: set[XY] = set()
    if players == 2:
        start = (rng.randint(1, 2), rng.randint(h // 3, h - 1 - h // 3))
        temple = (rng.randint(w // 2 - w // 5, w // 2 - 2), rng.randint(1, h - 2))
    elif players == 4:
        start = (rng.randint(1, 3), rng.randint(1, 3))
        temple = (w // 2 - rng.randint(2, max(2, w // 6)), h // 2 - rng.randint(1, max(1, h // 6)))
    else:
        # A on the axis, B and C mirrored on one row; with |yA - yB| = mid - xB every
        # start-to-start length is 2·(mid - xB) and the Temple halfway between B and C
        # is at mid - xB from all three. Straight lines are the only shortest paths, so
        # they are kept free of obstacles.
        mid = (w - 1) // 2
        drop = min(h - 3 - rng.randint(0, 1), mid - 1)
        top = (h - 1 - drop) // 2  # centred along the axis when the board is long
        start, temple = (mid - drop, top), (mid, top)
        canvas.starts.add((mid, top + drop))
        corridors = ({(x, top) for x in range(mid - drop, w - mid + drop)}
                     | {(mid, y) for y in range(top, top + drop + 1)})
    canvas.starts |= canvas.orbit(start)
    canvas.temples |= canvas.orbit(temple)
    near = {q for p in canvas.starts | canvas.temples for q in [p, *canvas.neighbours(p, diagonal=True)]}
    return near | corridors


class _NearestSites:
    """Region sites bucketed on a grid, so that the nearest one to a point is found among a few
    neighbouring cells instead of all of them (the generator stays linear in the board's area).
    The answer is exactly what `min` over the whole list gives: the lowest score (distance minus the
    site's weight, at most `max_weight`), ties to the site added first."""

    def __init__(self, cell: float, max_weight: float = 0.0):
        self.cell, self.max_weight = cell, max_weight
        self.sites: list[tuple[XY, str, float]] = []
        self._buckets: dict[tuple[int, int], list[int]] = {}

    def _key(self, x: float, y: float) -> tuple[int, int]:
        return math.floor(x / self.cell), math.floor(y / self.cell)

    def add(self, site: tuple[XY, str, float]) -> None:
        self._buckets.setdefault(self._key(*site[0]), []).append(len(self.sites))
        self.sites.append(site)

    def nearest(self, x: float, y: float, score) -> tuple[XY, str, float]:
        """The site of lowest `score(site, x, y)`; a site r cells away (Chebyshev) is farther than
        (r - 1) cells, so the search stops at the first ring that cannot hold a better one."""
        cx, cy = self._key(x, y)
        best: tuple[float, int] | None = None
        ring = 0
        while True:
            for key in _ring(cx, cy, ring):
                for index in self._buckets.get(key, ()):
                    candidate = (score(self.sites[index], x, y), index)
                    if best is None or candidate < best:
                        best = candidate
            if best is not None and best[0] < ring * self.cell - self.max_weight - 1e-9:
                return self.sites[best[1]]
            ring += 1


def _ring(cx: int, cy: int, r: int) -> list[tuple[int, int]]:
    """The cells at Chebyshev distance r of (cx, cy)."""
    if r == 0:
        return [(cx, cy)]
    top = [(cx + dx, cy - r) for dx in range(-r, r + 1)]
    bottom = [(cx + dx, cy + r) for dx in range(-r, r + 1)]
    sides = [(cx + dx, cy + dy) for dy in range(-r + 1, r) for dx in (-r, r)]
    return top + bottom + sides


def _weighted_distance(site: tuple[XY, str, float], x: float, y: float) -> float:
    return math.hypot(site[0][0] - x, site[0][1] - y) - site[2]


def _distance(site: tuple[XY, str, float], x: float, y: float) -> float:
    return math.dist(site[0], (x, y))


def _paint_regions(canvas: _Canvas, rng: random.Random) -> None:
    """Colour regions: weighted Voronoi through a smooth noise warp, then majority smoothing."""
    sites = _region_sites(canvas, rng)
    warp_x, warp_y = _value_noise(canvas, rng), _value_noise(canvas, rng)
    primary: dict[XY, str] = {}
    for p in canvas.positions():
        qx, qy = p[0] + WARP_AMPLITUDE * warp_x(p), p[1] + WARP_AMPLITUDE * warp_y(p)
        primary[p] = sites.nearest(qx, qy, _weighted_distance)[1]
    primary = {p: primary[canvas.representative(p)] for p in primary}
    for _ in range(2):
        primary = _majority_smoothed(canvas, primary)
    canvas.colours = {p: frozenset(c) for p, c in primary.items()}
    canvas.symmetrise_colours()


def _region_sites(canvas: _Canvas, rng: random.Random) -> _NearestSites:
    """Region centres on a jittered grid (evenly spread, unlike uniform draws, so no part of
    the board is one huge region), placed in one symmetric copy of the board and mirrored.
    Each takes the least used colour that differs from its nearest neighbour's."""
    spacing = math.sqrt(SQUARES_PER_REGION)
    used = dict.fromkeys(COLOURS, 0)
    sites = _NearestSites(spacing, max_weight=MAX_SITE_WEIGHT)
    for gy in range(math.ceil(canvas.height / spacing)):
        for gx in range(math.ceil(canvas.width / spacing)):
            site = (min(canvas.width - 1, int((gx + rng.random()) * spacing)),
                    min(canvas.height - 1, int((gy + rng.random()) * spacing)))
            if canvas.representative(site) != site:
                continue
            nearest = sites.nearest(*site, _distance)[1] if sites.sites else None
            colour = min((c for c in COLOURS if c != nearest), key=lambda c: (used[c], rng.random()))
            used[colour] += 1
            for p in canvas.orbit(site):
                sites.add((p, colour, rng.uniform(0.0, MAX_SITE_WEIGHT)))
    return sites


def _value_noise(canvas: _Canvas, rng: random.Random):
    """Smooth noise in [-1, 1]: random values on a coarse lattice, interpolated with smoothstep."""
    cols, rows = canvas.width // WARP_SPACING + 2, canvas.height // WARP_SPACING + 2
    lattice = [[rng.uniform(-1, 1) for _ in range(cols)] for _ in range(rows)]

    def smooth(t: float) -> float:
        return t * t * (3 - 2 * t)

    def noise(p: XY) -> float:
        gx, gy = p[0] / WARP_SPACING, p[1] / WARP_SPACING
        ix, iy = int(gx), int(gy)
        tx, ty = smooth(gx - ix), smooth(gy - iy)
        top = lattice[iy][ix] * (1 - tx) + lattice[iy][ix + 1] * tx
        bottom = lattice[iy + 1][ix] * (1 - tx) + lattice[iy + 1][ix + 1] * tx
        return top * (1 - ty) + bottom * ty

    return noise


def _majority_smoothed(canvas: _Canvas, primary: dict[XY, str]) -> dict[XY, str]:
    """A square takes the colour of at least 5 of its 8 neighbours (removes specks)."""
    result = dict(primary)
    for p in canvas.positions():
        around = [primary[q] for q in canvas.neighbours(p, diagonal=True)]
        best = max(sorted(set(around)), key=around.count)  # sorted: ties break the same in every run
        if best != primary[p] and around.count(best) >= 5:
            result[p] = best
    return {p: result[canvas.representative(p)] for p in result}


def _add_multicoloured_borders(canvas: _Canvas, rng: random.Random) -> None:
    """Some border squares carry their neighbour's colour as well (MT 2.02.a)."""
    base = dict(canvas.colours)
    for p in canvas.representatives():
        others = sorted({c for q in canvas.neighbours(p) for c in base[q]} - base[p])
        if others and rng.random() < MULTICOLOUR_CHANCE:
            mixed = base[p] | {rng.choice(others)}
            for q in canvas.orbit(p):
                canvas.colours[q] = mixed


def _add_obstacles(canvas: _Canvas, protected: set[XY], rng: random.Random) -> None:
    """Clumps and short walls of obstacles, colourless (MT 2.03.a) or coloured (MT 2.03.c)."""
    target = round(OBSTACLE_SHARE * canvas.width * canvas.height)
    placed = {True: 0, False: 0}  # shapes placed, by "coloured"
    for _ in range(canvas.width * canvas.height):
        if len(canvas.obstacles) >= target:
            break
        # one shape of each kind first, so that every board shows both
        if not placed[False] or not placed[True]:
            coloured = bool(placed[False])
        else:
            coloured = rng.random() < COLOURED_OBSTACLE_CHANCE
        free = [p for p in _obstacle_shape(canvas, rng) if p not in protected and p not in canvas.obstacles]
        for p in free:
            for q in canvas.orbit(p):
                canvas.obstacles.add(q)
                if not coloured:
                    canvas.colours[q] = frozenset()
        placed[coloured] += bool(free)


def _obstacle_shape(canvas: _Canvas, rng: random.Random) -> list[XY]:
    """A short straight wall or a small random clump."""
    x, y = rng.randrange(canvas.width), rng.randrange(canvas.height)
    if rng.random() < 0.4:
        length = rng.randint(3, 5)
        dx, dy = rng.choice([(1, 0), (0, 1)])
        return [(x + i * dx, y + i * dy) for i in range(length) if canvas.in_bounds((x + i * dx, y + i * dy))]
    shape = [(x, y)]
    for _ in range(rng.randint(1, 4)):
        shape.append(rng.choice(canvas.neighbours(rng.choice(shape))))
    return shape


def _close_pockets(canvas: _Canvas) -> None:
    """Walkable squares that no start can reach become coloured obstacles (MT 2.03.c): a
    pocket nobody can enter is a rock, and it keeps its colour for the camera."""
    reached = path_lengths(canvas.to_board(), min(canvas.starts))
    # a cut-off start or Temple stays as it is: the checks then reject this draw
    canvas.obstacles |= set(canvas.positions()) - reached.keys() - canvas.starts - canvas.temples


def _transposed(canvas: _Canvas) -> _Canvas:
    """The same drawing with rows and columns swapped (3 players on a board whose odd side is
    its height). Only to_board is used afterwards, so the group is left as the identity."""
    def flip(p: XY) -> XY:
        return p[1], p[0]

    return _Canvas(canvas.height, canvas.width, [lambda p: p],
                   {flip(p): c for p, c in canvas.colours.items()},
                   {flip(p) for p in canvas.obstacles}, {flip(p) for p in canvas.starts},
                   {flip(p) for p in canvas.temples})
