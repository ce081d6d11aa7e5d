"""Stage 4, the extent (config section `grid.extent`): which lattice lines bound the board.

Every lattice edge is scored by the edge contrast along it (calibration.grid_finder.edges); the grid's
extent is the rectangle of lattice lines with the most supported edges and supported borders
(calibration.grid_finder.rectangle), of the requested size when it is known. Size unknown, the answer is
the whole grid or none (a sub-grid is a wrong board): where the comb goes on past a border with supported
edges the extent is searched again beyond it (or the fit refused); squares holding the lines of a finer
comb are refused. Size given and not seen on the lattice, the other lattices that may show it are tried
(`find_extent`).
"""
from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np

from calibration.grid_lines import Segments, line_positions
from calibration.grid_finder.edges import (border_support, edge_scores, edge_radius, edge_support, supported,
                                           supported_share, texture_offset)
from calibration.grid_finder.families import LineFamilies
from calibration.grid_finder.lattice import Lattice, follow_lens, line_points, on_its_lines, refine, refitted
from calibration.grid_finder.rectangle import line_ranges, search_extent
from calibration.grid_finder.segments import WorkingImage


@dataclass(frozen=True)
class GridExtent:
    """Stage 4's answer: the board on its lattice."""
    lattice: Lattice                      # image -> lattice units (through the lens when its lines bend)
    rect: tuple[int, int, int, int]       # the board's lattice lines a0, a1 (family x), b0, b1 (family y)
    score: float                          # 0..1: supported inside edges, and how many were measured


def find_extent(work: WorkingImage, lattice: Lattice, families: LineFamilies, grid: tuple[int, int] | None,
                *, fallbacks: bool = True) -> GridExtent | None:
    """Stage 4: the grid's extent on a fitted lattice (stage 3), or None.

    The rectangle of the lattice's lines the photo supports (`search_extent`). With the size given and not
    seen there, the other lattices that may show it are tried in turn: the part that is seen, on a comb of
    half the period or followed where its lines bend; the size seen with its edges up to `lens_reach` off;
    a period doubled; the outline; the lattice grown from its middle. The lattice is then refined on the
    rectangle and followed where its lines bend (the rectangle searched again on it); size unknown, the
    whole grid the rectangle belongs to, or none (`whole_grid`, `lines_inside_squares`). `fallbacks` False:
    the lattice as it is only (the search tries the other lattices on its first hypotheses only, issue 28)."""
    cfg = work.cfg
    fam_x, fam_y = families.x, families.y
    extent = search_extent(work, lattice, fam_x, fam_y, grid)
    if extent is None and not fallbacks:
        return None
    if extent is None and grid is not None:
        # the size asked for is not seen on the straight lattice (the size-given search is never
        # worse than the free one): what the part that is seen says about the lattice may show it
        seen = search_extent(work, lattice, fam_x, fam_y, None)
        # every other line only subdivides the squares: a comb locked on half the period, as ruler
        # ticks beside a board without lines inside allow (where no part is seen whole, the lines'
        # support over the lattice says it)
        coarser = seen[2] if seen is not None else half_period(work, lattice, fam_x, fam_y)
        if coarser is not None:
            lattice = Lattice(coarser @ lattice.to_lattice)
            extent = search_extent(work, lattice, fam_x, fam_y, grid)
            seen = search_extent(work, lattice, fam_x, fam_y, None) if extent is None else seen
        if extent is None and seen is not None and cfg.lattice.fit_lens:
            # ... or the part seen, followed where its lines bend
            lattice, extent = _bent_extent(work, lattice, seen[0], fam_x, fam_y, grid) or (lattice, None)
        if extent is None and cfg.lattice.fit_lens:
            # ... or the size asked for, seen where edges may lie up to `lens_reach` square off the
            # straight lattice (a strong lens bends a board's outer lines that far; one without
            # lines inside shows no part whole), followed where its lines bend, and checked again
            rough = search_extent(work, lattice, fam_x, fam_y, grid, reach=cfg.lattice.lens_reach)
            if rough is not None:
                lattice, extent = _rough_extent(work, lattice, rough[0], fam_x, fam_y, grid)
    if extent is None and grid is not None and lattice.curved is None:
        lattice, extent = _doubled_extent(work, lattice, fam_x, fam_y, grid) or (lattice, None)
    if extent is None and grid is not None:
        outlined = _outlined_lattice(work, lattice, fam_x, fam_y, grid)
        if outlined is not None:
            lattice, extent = outlined
    if extent is None and grid is not None and cfg.lattice.fit_lens:
        lattice, extent = _grown_extent(work, lattice, fam_x, fam_y, grid) or (lattice, None)
    if extent is None:
        return None
    rect, score, coarser = extent
    if coarser is not None and lattice.curved is not None:
        return None   # a lattice of half squares (subdivided ones) is not followed through a lens
    if coarser is not None:   # every other line was a subdivision: the squares are twice as big
        lattice = Lattice(coarser @ lattice.to_lattice)
        extent = search_extent(work, lattice, fam_x, fam_y, grid)
        if extent is None:
            return None
        rect, score, _ = extent
    for _ in range(2):
        lattice = refine(lattice, fam_x, fam_y, cfg.lattice.lattice_tolerance, rect) or lattice
    curved = follow_lens(work, lattice, rect) if cfg.lattice.fit_lens else None
    if curved is not None:   # the lines bend: the extent again, on the lattice that follows them
        extent = search_extent(work, curved, fam_x, fam_y, grid)
        # ... which, with the size given, may move the rectangle only to one that scores better (a lens
        # extrapolated past the part seen misplaces the lines there, and a sheet's edge a square away
        # can look a border; size unknown, the bent lattice may show more of the board)
        if extent is not None and (grid is None or extent[0] == rect or extent[1] > score):
            lattice, (rect, score, _) = curved, extent
            lattice = follow_lens(work, lattice, rect) or lattice
    if grid is None:
        grown = whole_grid(work, lattice, fam_x, fam_y, rect, score)
        if grown is None:
            return None
        lattice, rect, score = grown
        if lines_inside_squares(work, lattice, rect):
            return None
    return GridExtent(lattice, rect, score)


def _outlined_lattice(work: WorkingImage, lattice: Lattice, fam_x: Segments, fam_y: Segments, grid):
    """Size given, and no lattice of that size seen: the lattice from the grid's outline.

    A board printed without lines inside shows its squares only where colours change, too
    few lines for the comb (which may lock on a wrong period) but its outline is long and
    strong. Between two of a family's strongest lines (`outline_candidates`), the asked
    number of squares puts the inside lines at a period; a pair whose period puts the
    segments between them on lines (weight on a line within `comb_tolerance`, beyond what
    chance puts there) may be the outline. Through a lens the true outline's inside lines
    bend off its straight comb and a pair of other lines (the paper's edge, a colour area's)
    can score as well: the best pairs (`outline_pairs` per family and size), best together
    first, are each tried (`outline_tries` at most) until one's extent, searched around it as
    usual (its border and inside edges must show it), is found. Returns (lattice, extent) or None."""
    cfg = work.cfg
    pairs = {}
    for fam, axis in ((fam_x, 0), (fam_y, 1)):
        with np.errstate(divide="ignore", invalid="ignore"):
            coords = lattice.lattice_of(np.vstack([fam.p, fam.q]))
        pos = (coords[: len(fam), axis] + coords[len(fam):, axis]) / 2
        ok = np.isfinite(pos)
        pos, weight = pos[ok], fam.weight[ok]
        if len(pos) < cfg.families.min_family_segments or weight.sum() <= 0:
            return None
        lines, _, mass = line_positions(pos, weight, cfg.lattice.outline_line_separation)
        top = lines[np.argsort(-mass)[: cfg.lattice.outline_candidates]]
        lo, hi = np.meshgrid(top, top, indexing="ij")
        lo, hi = lo[lo < hi], hi[lo < hi]
        for n in set(grid):
            period = (hi - lo) / n
            t = (pos[None, :] - lo[:, None]) / period[:, None]
            inside = (t > 0.5) & (t < n - 0.5)
            on = np.abs(t - np.round(t)) < cfg.lattice.comb_tolerance
            excess = ((on - 2 * cfg.lattice.comb_tolerance) * inside) @ weight / weight.sum()
            ranked = [k for k in np.argsort(-excess, kind="stable")[: cfg.lattice.outline_pairs]
                      if excess[k] >= cfg.lattice.outline_min_excess]
            pairs[axis, n] = [(float(excess[k]), float(lo[k]), float(period[k])) for k in ranked]
    w, h = grid
    options = [((na, nb), pa, pb) for na, nb in {(w, h), (h, w)}
               for pa in pairs[0, na] for pb in pairs[1, nb]]
    options.sort(key=lambda o: -(o[1][0] + o[2][0]))
    for (na, nb), (_, a0, pa), (_, b0, pb) in options[: cfg.lattice.outline_tries]:
        outlined = Lattice(np.array([[1 / pa, 0, -a0 / pa], [0, 1 / pb, -b0 / pb], [0, 0, 1]]) @ lattice.to_lattice)
        found = _outline_extent(work, outlined, fam_x, fam_y, grid, (na, nb))
        if found is not None:
            return found
    return None


def _outline_extent(work: WorkingImage, outlined: Lattice, fam_x: Segments, fam_y: Segments, grid, size: tuple[int, int]):
    """(lattice, extent) of the grid whose outline is lines 0 and `size` of `outlined`, or None:
    the lattice refined on that rectangle, the extent searched around it; through a strong lens
    the straight outline leaves its own bent border lines (and the colour borders inside) up
    to a fifth of a square off, beyond the ±0.05 square an edge is searched within, so where
    the size is seen with edges up to `lens_reach` off, the rectangle is followed where its
    lines bend and searched again."""
    cfg = work.cfg
    na, nb = size
    for _ in range(2):
        outlined = refine(outlined, fam_x, fam_y, cfg.lattice.lattice_tolerance, (0, na, 0, nb)) or outlined
    around = (-1, na + 1, -1, nb + 1)
    extent = search_extent(work, outlined, fam_x, fam_y, grid, around=around)
    if extent is not None:
        return outlined, extent
    if not cfg.lattice.fit_lens:
        return None
    if search_extent(work, outlined, fam_x, fam_y, grid, around=around, reach=cfg.lattice.lens_reach) is not None:
        bent = _bent_extent(work, outlined, (0, na, 0, nb), fam_x, fam_y, grid, around=around)
        if bent is not None:
            return bent
    return _grown_extent(work, outlined, fam_x, fam_y, grid, around)   # bent beyond that reach: from its middle out


def _doubled_extent(work: WorkingImage, lattice: Lattice, fam_x: Segments, fam_y: Segments, grid):
    """(lattice, extent) of the size asked for on the lattice with one family's period doubled (or both),
    at either phase, or None. Squares split in two colours (stripes, quadrants) put a colour border
    half-way across many squares of a board without lines inside: its comb may lock on half the
    period where `half_period`'s medians cannot tell which lines are the grid's; each doubled
    lattice is refitted on its own lines and judged strictly (the lens paths are not tried on it)."""
    cfg = work.cfg
    for axes in ((0,), (1,), (0, 1)):
        for phases in np.ndindex(*(2,) * len(axes)):
            double = np.eye(3)
            for axis, phase in zip(axes, phases):
                double[axis, axis], double[axis, 2] = 0.5, -phase / 2
            doubled = Lattice(double @ lattice.to_lattice)
            for _ in range(2):
                doubled = refine(doubled, fam_x, fam_y, cfg.lattice.lattice_tolerance, None) or doubled
            extent = search_extent(work, doubled, fam_x, fam_y, grid)
            if extent is not None:
                return doubled, extent
    return None


def _rough_extent(work: WorkingImage, lattice: Lattice, rect: tuple[int, int, int, int], fam_x: Segments, fam_y: Segments,
                  grid) -> tuple[Lattice, tuple | None]:
    """(lattice, extent) once the rectangle `rect`, seen with edges up to `lens_reach` off the lattice,
    has placed it: the straight lattice refitted on that rectangle alone (a slanted board's
    perspective, fitted on every segment of the photo, can leave its far rows that far off), checked
    strictly; else followed where its lines bend. Extent None when neither shows the size."""
    cfg = work.cfg
    refined = lattice
    for _ in range(2):
        refined = refine(refined, fam_x, fam_y, cfg.lattice.lattice_tolerance, rect) or refined
    extent = search_extent(work, refined, fam_x, fam_y, grid)
    if extent is not None:
        return refined, extent
    return _bent_extent(work, refined, rect, fam_x, fam_y, grid) or (lattice, None)


def _bent_extent(work: WorkingImage, lattice: Lattice, rect: tuple[int, int, int, int], fam_x: Segments, fam_y: Segments,
                 grid, around: tuple[int, int, int, int] | None = None):
    """(lattice, extent) of the size `grid` once the rectangle `rect` is followed where its lines
    bend (`follow_lens`), or None when they do not bend or that size is not seen on the result."""
    curved = follow_lens(work, lattice, rect)
    extent = None if curved is None else search_extent(work, curved, fam_x, fam_y, grid, around=around)
    return None if extent is None else (curved, extent)


def _grown_extent(work: WorkingImage, lattice: Lattice, fam_x: Segments, fam_y: Segments, grid,
                  around: tuple[int, int, int, int] | None = None):
    """(lattice, extent) of the size `grid` on the lattice grown from its middle (`_grown_lattice`),
    or None when it cannot be grown or that size is not seen on it."""
    grown = _grown_lattice(work, lattice, fam_x, fam_y, around)
    extent = None if grown is None else search_extent(work, grown, fam_x, fam_y, grid, around=around)
    return None if extent is None else (grown, extent)


def _grown_lattice(work: WorkingImage, lattice: Lattice, fam_x: Segments, fam_y: Segments,
                   around: tuple[int, int, int, int] | None = None) -> Lattice | None:
    """The lattice refitted from its centre outward, where a straight lattice fitted on the whole photo
    is off by more than a border search reaches: a large board through a strong lens, its squares
    bigger at the middle than at the edges (a comb's one period is then a fraction of a square off at
    both ends). The lines are read (`line_points`) over a `grow_start` square window around the
    middle of the segments, where the lattice holds; the mapping fitted on them (with a lens where
    they bend) reads them over a window `grow_factor` times wider, and so on until the window spans
    every line the segments show (or the lines `around`, a0, a1, b0, b1, from the window at their
    middle). None when too little is seen: lines found on fewer than `grow_min_seen` of a window's
    reads (an unlined board's colour borders show on a fifth to a third of them, a ruled one's on
    nearly all; no-board photos' clutter on 0.12 at most)."""
    cfg = work.cfg
    if around is None:
        ranges = line_ranges(work, lattice, fam_x, fam_y)
        if ranges is None:
            return None
        (alo, ahi), (blo, bhi) = ranges
        with np.errstate(divide="ignore", invalid="ignore"):
            middle = lattice.lattice_of(np.vstack([(fam_x.p + fam_x.q) / 2, (fam_y.p + fam_y.q) / 2]))
        ca, cb = (int(round(float(np.nanmedian(middle[:, k])))) for k in (0, 1))
    else:
        alo, ahi, blo, bhi = around
        ca, cb = (alo + ahi) // 2, (blo + bhi) // 2
    half = cfg.lattice.grow_start / 2
    while True:
        rect = (int(max(alo, ca - half)), int(min(ahi, ca + half)), int(max(blo, cb - half)), int(min(bhi, cb + half)))
        a0, a1, b0, b1 = rect
        if a1 - a0 < 2 or b1 - b0 < 2:
            return None
        evidence = line_points(work, lattice, rect)
        if evidence is not None:   # colour borders inside split squares lie a third or half a square off
            with np.errstate(divide="ignore", invalid="ignore"):
                at = lattice.lattice_of(evidence.points)[np.arange(len(evidence)), evidence.axis]
            evidence = evidence.subset(np.abs(at - evidence.value) < cfg.lattice.grow_tolerance)
        # a window's lines are read every quarter square: a grid shows on a share of those reads
        reads = 4 * ((a1 - a0 + 1) * (b1 - b0) + (b1 - b0 + 1) * (a1 - a0))
        mapping = None if evidence is None or len(evidence) < max(cfg.lens.min_points, cfg.lattice.grow_min_seen * reads) \
            else refitted(work, lattice, rect, evidence)
        if mapping is None:
            return None
        lattice = Lattice.fitted(mapping)
        if rect == (alo, ahi, blo, bhi):
            return lattice
        half *= cfg.lattice.grow_factor


def half_period(work: WorkingImage, lattice: Lattice, fam_x: Segments, fam_y: Segments) -> np.ndarray | None:
    """Map (3x3, lattice -> lattice) doubling the period of each family whose every other line
    is far less supported than the lines between (medians: under `half_period_ratio` of them,
    over the whole range its segments span), or None. On a board without lines inside, only colour
    borders show where squares meet, and ruler ticks at half squares can lock the comb on
    half the period: its odd lines are then ticks and stray edges, its even ones the grid's."""
    cfg = work.cfg
    ranges = line_ranges(work, lattice, fam_x, fam_y)
    if ranges is None:
        return None
    (alo, ahi), (blo, bhi) = ranges
    vert, horiz = edge_support(work, lattice, alo, ahi, blo, bhi)
    result = np.eye(3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for per_line, axis, first in ((np.nanmean(vert, axis=1), 0, alo), (np.nanmean(horiz, axis=0), 1, blo)):
            if np.isfinite(per_line).sum() < 6:
                continue
            even, odd = np.nanmedian(per_line[0::2]), np.nanmedian(per_line[1::2])   # (a frame's lines aside)
            strong, weak = (0, odd) if even >= odd else (1, even)
            if max(even, odd) >= cfg.lattice.half_period_min_support and weak < cfg.lattice.half_period_ratio * max(even, odd):
                result[axis, axis] = 0.5
                result[axis, 2] = -(first + strong) / 2
    return None if np.array_equal(result, np.eye(3)) else result


def whole_grid(work: WorkingImage, lattice: Lattice, fam_x: Segments, fam_y: Segments,
                rect: tuple[int, int, int, int], score: float):
    """(lattice, rectangle, score) of the whole grid the rectangle belongs to, or None.

    With the size unknown a rectangle may be PART of a bigger board (the lattice range was
    cut short, or its outer rows were weaker than the inner ones): a sub-grid is a wrong
    board, worse than none. Look outward: where the same comb goes on past a border with
    its squares' edges supported, the grid is bigger; search the extent again on a range
    reaching past those borders, refined on the larger grid. A grid still going on after
    `max_growth_rounds` is refused."""
    cfg = work.cfg
    grown = 0
    # also a curved lattice just followed on this rectangle: one more refit from where it now puts the
    # lines reads points its last one missed (skipping it lost two whole boards, 2043 #19 and 2046 #24)
    lattice = on_its_lines(work, lattice, rect) or lattice
    while any(sides := continuing_sides(work, lattice, rect)):
        a0, a1, b0, b1 = rect
        reach_a, reach_b = cfg.max_squares - (a1 - a0), cfg.max_squares - (b1 - b0)
        if grown == cfg.extent.max_growth_rounds or (any(sides[:2]) and reach_a < 1) or (any(sides[2:]) and reach_b < 1):
            return None   # it goes on: part of a bigger grid (or of one bigger than any searched for)
        grown += 1
        around = (a0 - reach_a * sides[0], a1 + reach_a * sides[1], b0 - reach_b * sides[2], b1 + reach_b * sides[3])
        extent = search_extent(work, lattice, fam_x, fam_y, None, around=around)
        if extent is None:
            return None
        rect, score, _ = extent
        for _ in range(2):
            lattice = refine(lattice, fam_x, fam_y, cfg.lattice.lattice_tolerance, rect) or lattice
        lattice = on_its_lines(work, lattice, rect) or lattice
    return lattice, rect, score


def lines_inside_squares(work: WorkingImage, lattice: Lattice, rect: tuple[int, int, int, int]) -> bool:
    """Do the rectangle's squares hold the lines of a finer comb (a lattice 2 to
    `max_finer_comb` times too coarse, fitted to the borders of big colour areas)?

    Lines at every k-th of a square, supported across the rectangle like grid lines
    (`finer_comb_support`), mean the squares found are groups of the true ones: a wrong
    board. (A paper grid's squares subdivided here and there stay under that share.) A finer line nearer
    the grid's own lines than the edge measure reads beside them (`texture_offset`: small squares, a
    big k) would read those lines' edges: that comb is not measured across those lines."""
    cfg = work.cfg
    # a central window is enough: a too coarse comb has the finer lines everywhere
    windows = [_central_window(lo, hi, cfg.extent.finer_comb_window) for lo, hi in (rect[:2], rect[2:])]
    centre = np.array([[(lo + hi) / 2 for lo, hi in windows]])
    with np.errstate(divide="ignore", invalid="ignore"):
        sides = [float(np.linalg.norm(lattice.image_of(centre + np.eye(2)[axis]) - lattice.image_of(centre)))
                 for axis in (0, 1)]   # px per square across the lines of family x, of family y
    nearest = [sides[axis] / texture_offset(edge_radius(sides[1 - axis])) for axis in (0, 1)]   # largest k measured
    combs = range(2, cfg.extent.max_finer_comb + 1)
    fractions = np.array(sorted({j / k for k in combs for j in range(k)}))   # 0: the grid's own lines
    t = np.linspace(0.15, 0.85, 7)
    scores = []
    for axis in (0, 1):
        (c0, c1), (e0, e1) = windows[axis], windows[1 - axis]
        across = (np.arange(c0, c1)[:, None] + fractions[None, :]).ravel()
        pos, edge, tt = np.meshgrid(across, np.arange(e0, e1), t, indexing="ij")
        a, b = (pos, edge + tt) if axis == 0 else (edge + tt, pos)
        normalised, plain = edge_scores(work, lattice, a, b, along=(0.0, 1.0) if axis == 0 else (1.0, 0.0))
        scores.append((normalised.reshape(c1 - c0, len(fractions), -1), plain.reshape(c1 - c0, len(fractions), -1)))
    own = np.concatenate([normalised[:, 0].ravel() for normalised, _ in scores])
    if not np.isfinite(own).any():
        return False
    threshold = max(cfg.extent.min_edge_contrast, cfg.extent.relative_edge_contrast * np.nanpercentile(own, 90))
    for k in combs:
        between = (np.abs(fractions * k - np.round(fractions * k)) < 1e-6) & (fractions > 0)   # j / k, j > 0
        for axis, (normalised, plain) in enumerate(scores):
            if not k <= nearest[axis]:   # (nor where the window's squares are not in the photo: NaN)
                continue
            support = supported(work, (normalised[:, between], plain[:, between]), threshold)
            if supported_share(support.ravel()) >= cfg.extent.finer_comb_support:
                return True
    return False


def continuing_sides(work: WorkingImage, lattice: Lattice, rect: tuple[int, int, int, int], support: float | None = None,
                      as_tiles: bool = False) -> tuple[bool, bool, bool, bool]:
    """For each side of the rectangle (a0, a1, b0, b1): does the grid go on past it?

    It does when the lattice line one step outside is supported along the side AND the
    grid's lines across the strip between them are too (a board's paper margin may show
    an edge near the next line, never the separators of a row of squares), each on `support` of
    their edges (`continuation_support` unless given). A strip outside the photo says nothing.
    `as_tiles`: the separators as tiles show them too (`border_support`, as the extent search
    judges them): a wide paper gap between two tiles has its tiles' edges outside the ±0.05
    square an edge is searched within. (The next line stays as it is: taken as a tile border,
    up to `border_reach` off, text beside a real sudoku read as a grid going on.)"""
    cfg = work.cfg
    support = cfg.extent.continuation_support if support is None else support
    a0, a1, b0, b1 = rect
    lines = (a0 - 1, a1 + 1, b0 - 1, b1 + 1)
    vert, horiz = edge_support(work, lattice, *lines)
    v_sep, h_sep = border_support(work, lattice, *lines)[4:6] if as_tiles else (vert, horiz)
    # vert[i, j]: line a0-1+i, edge j (b0-1+j .. +1); horiz[i, j]: line b0-1+j, cell a0-1+i;
    # separators: the strip's cells on the inner lines of the other family
    strips = ((vert[0, 1:-1], h_sep[0, 2:-2]), (vert[-1, 1:-1], h_sep[-1, 2:-2]),
              (horiz[1:-1, 0], v_sep[2:-2, 0]), (horiz[1:-1, -1], v_sep[2:-2, -1]))
    left, right, top, bottom = (supported_share(line) >= support and supported_share(across) >= support
                                for line, across in strips)
    return left, right, top, bottom


def _central_window(lo: int, hi: int, size: int) -> tuple[int, int]:
    """The `size` lines-wide middle of the range lo..hi (all of it when smaller)."""
    start = lo + max(0, (hi - lo - size) // 2)
    return start, min(hi, start + size)
