"""Stage 4's rectangle search (config section `grid.extent`): the rectangle of lattice lines that is the board.

On the lattice lines the segments span (`line_ranges`), every edge is measured (calibration.grid_finder.edges);
the rectangle maximising supported minus unsupported inside edges (`_best_rectangle`: two prefix-sum
look-ups per rectangle), whose border lines and outer rows' separators are supported, is the grid's extent
(`search_extent`), of the requested size when it is known. With the size given and no lines inside, the
outline alone may place it (`_outlined_rectangle`). Lines alternating between strong and weak subdivide the
squares (`_coarser_lattice`).
"""
from __future__ import annotations

import warnings

import numpy as np

from calibration.config import GridFinderConfig
from calibration.grid_lines import Segments
from calibration.grid_finder.edges import border_support, edge_support, edges_in_photo
from calibration.grid_finder.lattice import Lattice
from calibration.grid_finder.segments import WorkingImage


def search_extent(work: WorkingImage, lattice: Lattice, fam_x: Segments, fam_y: Segments, grid,
            around: tuple[int, int, int, int] | None = None, reach: float = 0.0):
    """Rectangle of lattice lines (a0, a1, b0, b1) bounding the grid, its score, and a
    lattice-to-lattice map doubling the period when every other line is only a subdivision.

    The lines searched span the family's segments, or `around` (a0, a1, b0, b1) when given;
    `reach`: an edge counts where it lies up to that many squares off its line (`edge_support`)."""
    cfg = work.cfg
    ranges = line_ranges(work, lattice, fam_x, fam_y) if around is None else \
        [(around[0], around[1]), (around[2], around[3])]
    if ranges is None:
        return None
    (alo, ahi), (blo, bhi) = ranges
    vert, horiz = edge_support(work, lattice, alo, ahi, blo, bhi, reach)
    # the rectangle search is cubic in the lattice size: drop the lines, at either end,
    # that carry no supported edge at all (keeping one as a margin)
    a_used = np.flatnonzero(np.nan_to_num(vert).any(axis=1))
    b_used = np.flatnonzero(np.nan_to_num(horiz).any(axis=0))
    if len(a_used) < 2 or len(b_used) < 2:
        return None
    i_lo, i_hi = max(a_used[0] - 1, 0), min(a_used[-1] + 1, vert.shape[0] - 1)
    j_lo, j_hi = max(b_used[0] - 1, 0), min(b_used[-1] + 1, horiz.shape[1] - 1)
    span_a, span_b = a_used[-1] - a_used[0], b_used[-1] - b_used[0]
    if grid is not None and not any(span_a >= w and span_b >= h for w, h in (grid, grid[::-1])):
        # ... nor, when the supported lines span less than the size asked, the lines outside the photo
        # (a line is out where the grid's supported lines cross it: the rest may be the table)
        out_a = ~np.isfinite(vert[:, b_used[0]:b_used[-1]]).any(axis=1)
        out_b = ~np.isfinite(horiz[a_used[0]:a_used[-1], :]).any(axis=0)   # it may go on in
        i_lo, i_hi = _past_unknown(out_a, i_lo, i_hi)
        j_lo, j_hi = _past_unknown(out_b, j_lo, j_hi)
    vert, horiz = vert[i_lo:i_hi + 1, j_lo:j_hi], horiz[i_lo:i_hi, j_lo:j_hi + 1]
    alo, blo = alo + i_lo, blo + j_lo
    in_photo = edges_in_photo(work, lattice, alo, alo + vert.shape[0] - 1, blo, blo + horiz.shape[1] - 1) \
        if grid is None else None

    def border():   # size given, asked only when the best rectangle's borders are not supported
        return border_support(work, lattice, alo, alo + vert.shape[0] - 1, blo, blo + horiz.shape[1] - 1,
                              threshold_lines=(*ranges[0], *ranges[1]))

    best = _best_rectangle(vert, horiz, grid, cfg, in_photo, border if grid is not None else None)
    if best is None:
        return None
    (i0, i1, j0, j1), score = best
    rect = (alo + i0, alo + i1, blo + j0, blo + j1)
    return rect, score, _coarser_lattice(vert[i0:i1 + 1, j0:j1], horiz[i0:i1, j0:j1 + 1].T, rect, work.cfg)


def line_ranges(work: WorkingImage, lattice: Lattice, fam_x: Segments, fam_y: Segments) -> list[tuple[int, int]] | None:
    """The lattice lines (lo, hi) each family's segments span, at most `max_squares` + 6 of them
    (around their median), or None when a family has fewer than two segment ends on a line."""
    cfg = work.cfg
    ranges = []
    for fam, axis in ((fam_x, 0), (fam_y, 1)):
        coords = lattice.lattice_of(np.vstack([fam.p, fam.q]))
        on = np.abs(coords[:, axis] - np.round(coords[:, axis])) < cfg.lattice.lattice_tolerance
        if on.sum() < 2:
            return None
        vals = coords[on, axis]
        lo, hi = np.floor(np.percentile(vals, 1)) - 1, np.ceil(np.percentile(vals, 99)) + 1
        if hi - lo > cfg.max_squares + 6:
            centre = np.round(np.median(vals))
            lo, hi = centre - (cfg.max_squares // 2 + 3), centre + (cfg.max_squares // 2 + 3)
        ranges.append((int(lo), int(hi)))
    return ranges


def _past_unknown(unknown: np.ndarray, lo: int, hi: int) -> tuple[int, int]:
    """The index range lo..hi widened over the lines just beyond it that are `unknown` (outside the photo)."""
    while lo > 0 and unknown[lo - 1]:
        lo -= 1
    while hi < len(unknown) - 1 and unknown[hi + 1]:
        hi += 1
    return lo, hi


def _best_rectangle(vert: np.ndarray, horiz: np.ndarray, grid, cfg: GridFinderConfig,
                    in_photo: tuple[np.ndarray, np.ndarray] | None = None, border=None):
    """Rectangle of lattice lines maximising supported minus unsupported inside edges.

    Unknown edges (outside the photo) count for nothing, so a board running out of
    the frame keeps its size when the size is given. Each border line must be supported
    on `min_border_support` of its measured edges, the separators across each outer row
    and column on `min_separator_support`. The objective of every rectangle is two
    prefix-sum look-ups; the border conditions are checked only on the best ones, in
    batches, until one passes. `in_photo` (size unknown: 1 where an edge lies in the photo, same
    shapes): each border line must lie in the photo for half its length at least — beyond the
    frame nothing says where a board of unknown size ends, and a rectangle reaching out there
    would only add squares nobody saw. `border` (size given): a function giving
    `border_support`'s arrays (same shapes), tried on the rectangles better than the first whose
    borders pass on the lines (all of them when none does)."""
    na, nb = vert.shape[0], horiz.shape[1]       # number of a lines, b lines
    known_v, known_h = np.isfinite(vert), np.isfinite(horiz)
    sup_v, sup_h = np.nan_to_num(vert), np.nan_to_num(horiz)

    def prefix(m: np.ndarray) -> np.ndarray:
        p = np.zeros((m.shape[0] + 1, m.shape[1] + 1))
        p[1:, 1:] = m.cumsum(0).cumsum(1)
        return p

    def inside(p, lines_lo, lines_hi, cells_lo, cells_hi):
        # lines lines_lo..lines_hi inclusive (rows of p), cells cells_lo..cells_hi-1 (columns)
        return p[lines_hi + 1, cells_hi] - p[lines_lo, cells_hi] - p[lines_hi + 1, cells_lo] + p[lines_lo, cells_lo]

    pv = prefix(np.where(known_v, sup_v - cfg.extent.empty_edge_cost, 0.0))
    ph = prefix(np.where(known_h, sup_h - cfg.extent.empty_edge_cost, 0.0).T)
    kv, kh = prefix(known_v.astype(float)), prefix(known_h.T.astype(float))
    sv, sh = prefix(sup_v), prefix(sup_h.T)
    framed = None if in_photo is None else (prefix(in_photo[0]), prefix(in_photo[1].T))
    if grid is None:
        shapes = [(da, None) for da in range(cfg.min_squares, min(cfg.max_squares, na - 1) + 1)]
    else:
        shapes = sorted({(grid[0], grid[1]), (grid[1], grid[0])})
    # 1. the objective of every admissible rectangle (two prefix-sum look-ups each)
    values, rects = [], []
    b0, b1 = np.meshgrid(np.arange(nb), np.arange(nb), indexing="ij", sparse=True)
    for da, db in shapes:
        if da > na - 1:
            continue
        valid = (b1 > b0) if db is None else (b1 - b0 == db)
        if db is None:
            valid = valid & (b1 - b0 >= cfg.min_squares) & (b1 - b0 <= cfg.max_squares)
        j0, j1 = np.nonzero(np.broadcast_to(valid, (nb, nb)))
        if len(j0) == 0:
            continue
        i0 = np.repeat(np.arange(na - da), len(j0))
        j0, j1 = np.tile(j0, na - da), np.tile(j1, na - da)
        i1 = i0 + da
        known = inside(kv, i0, i1, j0, j1) + inside(kh, j0, j1, i0, i1)
        keep = known >= cfg.extent.min_known_edges
        i0, i1, j0, j1 = i0[keep], i1[keep], j0[keep], j1[keep]
        values.append(inside(pv, i0, i1, j0, j1) + inside(ph, j0, j1, i0, i1))
        rects.append(np.stack([i0, i1, j0, j1], axis=1))
    if not values:
        return None
    objective, candidates = np.concatenate(values), np.concatenate(rects)
    # 2. the borders, best objective first, in batches: the best rectangles nearly always pass
    ordered = candidates[_best_first(objective, _FIRST_LOOKED_AT)]
    first = _first_bordered(ordered, None, (sv, kv, sh, kh), inside, cfg, framed)
    if first is None and len(ordered) < len(candidates):   # rare: every one of the best failed its borders
        everything = candidates[np.argsort(-objective, kind="stable")]
        rest = _first_bordered(everything[len(ordered):], None, (sv, kv, sh, kh), inside, cfg, framed)
        ordered, first = everything, None if rest is None else len(ordered) + rest
    ssv, skv, ssh, skh = sv, kv, sh, kh   # what the confidence is measured on
    if border is not None and first != 0:
        # none passed, or not the best one: a border's edge may lie a little inside its line, and the
        # separators be tiles' (`edges.border_support`); a better rectangle passing so wins
        v_lo, v_hi, h_lo, h_hi, v_gap, h_gap, v_blank, h_blank = border()

        def seen(support, blank):   # (supported, seen, in the photo): a blank edge is not seen
            blank = blank & ~(np.nan_to_num(support) > 0)   # (an edge supported in colour alone was seen)
            return prefix(np.nan_to_num(support) * ~blank), prefix(np.isfinite(support) & ~blank), \
                prefix(np.isfinite(support))

        # the horizontal ones transposed, as the prefix sums hold them (lines first)
        on_lines = [seen(v_lo, v_blank), seen(v_hi, v_blank), seen(h_lo.T, h_blank.T), seen(h_hi.T, h_blank.T)]
        separators = [seen(v_gap, v_blank), seen(h_gap.T, h_blank.T)]
        better = _first_bordered(ordered[:first], on_lines, (sv, kv, sh, kh), inside, cfg, framed, separators)
        if better is not None:   # its confidence too from its edges as tiles show them (a blank one unseen)
            first, (ssv, _, skv), (ssh, _, skh) = better, *separators
    best = None if first is None else tuple(int(v) for v in ordered[first])
    score = 0.0
    if best is not None:
        # confidence from the edges inside the border lines: a chequer's border is half invisible
        # on white paper without the grid being any less certain
        first_i, last_i, first_j, last_j = best
        k = inside(skv, first_i + 1, last_i - 1, first_j, last_j) + inside(skh, first_j + 1, last_j - 1, first_i, last_i)
        s = inside(ssv, first_i + 1, last_i - 1, first_j, last_j) + inside(ssh, first_j + 1, last_j - 1, first_i, last_i)
        n_inner = (last_i - first_i - 1) * (last_j - first_j) + (last_j - first_j - 1) * (last_i - first_i)
        score = float((s / k) * (k / n_inner) ** 0.25) if k else 0.0
    if score >= cfg.min_score:
        return best, score
    return _outlined_rectangle(candidates, (sv, kv, sh, kh), inside, cfg) if grid is not None else None


def _outlined_rectangle(rects: np.ndarray, sums, inside, cfg: GridFinderConfig):
    """Size given, no rectangle whose inside edges show it: a board printed without lines inside
    (squares told apart by their colours alone, where neighbours differ) still has its outline.
    The rectangle of the asked size whose border lines are the most supported, each on
    `outline_support` of its length measured in the photo, with some of its inside edges
    supported (`outline_inside`: colour borders); its score is its weakest border's support. A
    border line less than half in the photo (a board framed edge to edge) is not judged, but each
    family must show one of its two (with the size, they place the board)."""
    if len(rects) == 0:   # no rectangle of the size fits the lattice's lines (a facade: ValueError before)
        return None
    sv, kv, sh, kh = sums
    i0, i1, j0, j1 = rects.T
    weakest = np.full(len(rects), np.inf)
    seen = np.zeros((2, len(rects)), bool)   # per family: one of its two border lines in the photo
    for family, p_s, p_k, line, lo, hi in ((0, sv, kv, i0, j0, j1), (0, sv, kv, i1, j0, j1),
                                           (1, sh, kh, j0, i0, i1), (1, sh, kh, j1, i0, i1)):
        s, k = inside(p_s, line, line, lo, hi), inside(p_k, line, line, lo, hi)
        in_photo = k >= 0.5 * (hi - lo)   # a border out of the frame (edge to edge) says nothing
        weakest = np.minimum(weakest, np.where(in_photo, s / np.maximum(k, 1), np.inf))
        seen[family] |= in_photo
    weakest = np.where(seen.all(axis=0), weakest, 0.0)
    k = inside(kv, i0 + 1, i1 - 1, j0, j1) + inside(kh, j0 + 1, j1 - 1, i0, i1)
    s = inside(sv, i0 + 1, i1 - 1, j0, j1) + inside(sh, j0 + 1, j1 - 1, i0, i1)
    weakest = np.where(s >= cfg.extent.outline_inside * np.maximum(k, 1), weakest, 0.0)
    best = int(np.argmax(weakest))
    if weakest[best] < max(cfg.extent.outline_support, cfg.min_score):   # the finder's confidence floor holds here too
        return None
    return tuple(int(v) for v in rects[best]), float(weakest[best])


_FIRST_LOOKED_AT = 4096   # rectangles put in order before their borders are checked (the rest only if none passes)


def _best_first(objective: np.ndarray, count: int) -> np.ndarray:
    """Indices of the rectangles whose objective is among the `count` best (ties at the last one
    included), best first, ties in their original order: exactly the start of a stable sort of
    them all, without sorting the hundreds of thousands a size-unknown search weighs (issue 28)."""
    if len(objective) <= count:
        return np.argsort(-objective, kind="stable")
    least = np.partition(objective, len(objective) - count)[len(objective) - count]
    chosen = np.flatnonzero(objective >= least)
    return chosen[np.argsort(-objective[chosen], kind="stable")]


def _first_bordered(ordered: np.ndarray, on_lines, sums, inside, cfg: GridFinderConfig, framed, separators=None):
    """The index of the first rectangle, in batches of 256 (the best ones nearly always pass), whose
    borders are supported (`_borders_supported`); None when none is."""
    for start in range(0, len(ordered), 256):
        batch = ordered[start:start + 256]
        ok = _borders_supported(batch, sums, inside, cfg, framed, on_lines, separators)
        if ok.any():
            return start + int(np.argmax(ok))
    return None


def _borders_supported(rects: np.ndarray, sums, inside, cfg: GridFinderConfig, framed=None,
                       on_lines=None, separators=None) -> np.ndarray:
    """Per rectangle (rows i0, i1, j0, j1): each border line is supported on
    `min_border_support` of its measured edges, and the separators across each outer row and
    column on `min_separator_support` (a band closed by a line but not divided into squares,
    a title strip, is not part of the grid). `framed` (prefix sums of the edges in the photo,
    vertical and horizontal): each border line must also lie in the photo for half its length.
    `on_lines`: the (supported, seen, in the photo) prefix sums the four borders (i0, i1, j0, j1) are
    measured on, `separators` those of the separators (vertical, horizontal), when not `sums`' own
    (`border_support`, tiles: a border's edge a little inside it, a separator seen as a paper gap; a
    blank edge is not seen, and a border or outer row in the photo must show some of its own)."""
    sv, kv, sh, kh = sums
    i0, i1, j0, j1 = rects.T
    ok = np.ones(len(rects), bool)
    borders = on_lines or ((sv, kv, kv), (sv, kv, kv), (sh, kh, kh), (sh, kh, kh))
    for (p_s, p_k, p_m), line, lo, hi in zip(borders, (i0, i1, j0, j1), (j0, j0, i0, i0), (j1, j1, i1, i1)):
        s, k, m = (inside(p, line, line, lo, hi) for p in (p_s, p_k, p_m))
        ok &= (m == 0) | ((k > 0) & (s >= cfg.extent.min_border_support * k))
    if framed is not None:
        fv, fh = framed
        for p_f, line, lo, hi in ((fv, i0, j0, j1), (fv, i1, j0, j1), (fh, j0, i0, i1), (fh, j1, i0, i1)):
            ok &= inside(p_f, line, line, lo, hi) >= 0.5 * (hi - lo)
    (gv, sep_v, photo_v), (gh, sep_h, photo_h) = separators or ((sv, kv, kv), (sh, kh, kh))
    end = 0 if separators is None else 1   # tiles: the inner lines only (a tile's border is not on its line)
    for p_s, p_k, p_m, lo, hi, cell in ((gv, sep_v, photo_v, i0, i1, j0), (gv, sep_v, photo_v, i0, i1, j1 - 1),
                                        (gh, sep_h, photo_h, j0, j1, i0), (gh, sep_h, photo_h, j0, j1, i1 - 1)):
        s, k, m = (inside(p, lo + end, hi - end, cell, cell + 1) for p in (p_s, p_k, p_m))
        ok &= (m == 0) | ((k > 0) & (s >= cfg.extent.min_separator_support * k))
    return ok


def _coarser_lattice(vert: np.ndarray, horiz: np.ndarray, rect: tuple[int, int, int, int],
                     cfg: GridFinderConfig) -> np.ndarray | None:
    """Map (3x3, lattice -> lattice) that doubles the period of a family whose lines
    alternate between supported all along and supported only here and there (a hand-drawn
    grid with some squares divided in four), or None.

    vert / horiz: support of the edges inside the rectangle, one row per line of the
    family x / y."""
    a0, _, b0, _ = rect
    result = np.eye(3)
    for support, axis, first in ((vert, 0, a0), (horiz, 1, b0)):
        if support.shape[0] < 5:
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            per_line = np.nanmean(support, axis=1)
        even, odd = np.nanmean(per_line[0::2]), np.nanmean(per_line[1::2])
        strong, weak = (0, odd) if even >= odd else (1, even)
        if max(even, odd) >= cfg.extent.subdivision_strong and weak < cfg.extent.subdivision_weak:
            result[axis, axis] = 0.5
            result[axis, 2] = -(first + strong) / 2
    return None if np.array_equal(result, np.eye(3)) else result
