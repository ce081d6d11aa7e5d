"""The edge evidence the extent stage reads (config section `grid.extent`, its contrasts).

Every lattice edge (one side of one square) is scored by the contrast across it: the gradient near
the line minus the gradient a little further away (texture is not a line), in the CLAHE image and, so
that table grain lifted by CLAHE does not count, in the plain one, each the greater of its own and the
colour's. An edge is supported where both pass their floors and the CLAHE one a share of the strong
edges' (`edge_support`); as a border, an edge may lie a little inside its line (tiles: `border_support`).
"""
from __future__ import annotations

import numpy as np

from calibration.grid_lines import sample_images
from calibration.grid_finder.lattice import Lattice
from calibration.numeric import nanmedian_last
from calibration.grid_finder.segments import WorkingImage


def edge_support(work: WorkingImage, lattice: Lattice, alo: int, ahi: int, blo: int, bhi: int, reach: float = 0.0):
    """Per lattice edge: +1 supported, 0 not supported, NaN outside the image.

    vert[i, j]: edge on line a = alo + i between b = blo + j and blo + j + 1;
    horiz[i, j]: edge on line b = blo + j between a = alo + i and alo + i + 1.
    `reach`: an edge found on a parallel up to that many squares either side counts too."""
    v_scores, h_scores = _line_scores(work, lattice, alo, ahi, blo, bhi)
    threshold = _threshold(work, v_scores, h_scores)
    if threshold is None:
        return v_scores[0], h_scores[0]
    vert, horiz = supported(work, v_scores, threshold), supported(work, h_scores, threshold)
    shifts = np.arange(work.cfg.lattice.lens_step, reach + 1e-9, work.cfg.lattice.lens_step)
    return _shifted_support(work, lattice, (alo, ahi, blo, bhi), threshold, np.concatenate([shifts, -shifts]),
                            vert, horiz)


def _shifted_support(work: WorkingImage, lattice: Lattice, lines: tuple[int, int, int, int], threshold: float,
                     shifts: np.ndarray, vert: np.ndarray, horiz: np.ndarray):
    """`vert`, `horiz` (support of lines alo..ahi, blo..bhi) where each edge also counts when found on
    its line moved by one of `shifts` (squares across)."""
    for d in shifts:
        v, h = _line_scores(work, lattice, *lines, shift=d)
        vert, horiz = np.fmax(vert, supported(work, v, threshold)), np.fmax(horiz, supported(work, h, threshold))
    return vert, horiz


def border_support(work: WorkingImage, lattice: Lattice, alo: int, ahi: int, blo: int, bhi: int,
                   threshold_lines: tuple[int, int, int, int] | None = None):
    """`edge_support` for lines taken as a border: (vert low, vert high, horiz low, horiz high),
    where a low border (the rectangle's first line) counts an edge found on it or on a parallel up
    to `border_reach` square toward higher lines (inside the board), a high border the other way;
    then the separators as tiles show them (vert, horiz) and where the photo is blank (vert, horiz).

    A board of tiles has no outline: its outer edges are the tiles', half a paper gap inside
    the line through the gaps, beyond the ±0.05 square an edge is searched within when the
    squares are big (at a slant, the near rows); the threshold stays the lattice's own. Its
    separators are paper gaps: one counts where it is seen on its line or where both tiles' edges
    are, on the parallels ±d (d up to `border_reach`: a wide gap's edges lie outside the ±0.05
    square). Blank (True): no contrast in the plain photo (under `min_plain_contrast`) on the
    line nor on any of those parallels — tiles merged with the paper, a separator there cannot
    be seen whether it is there or not. `threshold_lines` (alo, ahi, blo, bhi): the lines whose edges set
    the contrast a line needs, when wider than those measured (the rectangle search measures borders only
    on the lines it keeps, and its threshold is the lattice's own)."""
    cfg = work.cfg
    v_scores, h_scores = _line_scores(work, lattice, alo, ahi, blo, bhi, raw=True)
    threshold = _threshold(work, *(_line_scores(work, lattice, *threshold_lines) if threshold_lines else
                                   (v_scores, h_scores)))
    if threshold is None:
        nothing = (v_scores[0], h_scores[0])
        return nothing * 3 + (np.zeros(v_scores[0].shape, bool), np.zeros(h_scores[0].shape, bool))
    on = (supported(work, v_scores, threshold), supported(work, h_scores, threshold))
    low, high, gap = on, on, on
    blank = (v_scores[2] < cfg.extent.min_plain_contrast, h_scores[2] < cfg.extent.min_plain_contrast)
    for d in np.arange(cfg.extent.border_step, cfg.extent.border_reach + 1e-9, cfg.extent.border_step):
        inward, outward = (_line_scores(work, lattice, alo, ahi, blo, bhi, shift=shift, raw=True) for shift in (d, -d))
        up = [supported(work, scores, threshold) for scores in inward]
        down = [supported(work, scores, threshold) for scores in outward]
        low = tuple(np.fmax(m, u) for m, u in zip(low, up))
        high = tuple(np.fmax(m, u) for m, u in zip(high, down))
        gap = tuple(np.fmax(m, np.minimum(u, w)) for m, u, w in zip(gap, up, down))   # both tiles' edges
        blank = tuple(b & (i[2] < cfg.extent.min_plain_contrast) & (o[2] < cfg.extent.min_plain_contrast)
                      for b, i, o in zip(blank, inward, outward))
    return low[0], high[0], low[1], high[1], gap[0], gap[1], blank[0], blank[1]


def _line_scores(work: WorkingImage, lattice: Lattice, alo: int, ahi: int, blo: int, bhi: int, shift: float = 0.0,
                 raw: bool = False):
    """`edge_scores` of every edge of lines alo..ahi, blo..bhi (moved by `shift` square across).

    Remembered for the working image's life (`WorkingImage.edge_memo`): the extent stage asks the same
    lattice's edges again and again (the size given, then free, then as a border; a quarter of a busy
    page's edge scoring, issue 28). An edge's scores do not depend on the lines asked with it, so lines
    within ones already scored are read from those. The budget is spent as if they were scored again:
    the search's answers do not depend on what was remembered."""
    a_lines, b_lines = np.arange(alo, ahi + 1), np.arange(blo, bhi + 1)
    t = np.linspace(0.15, 0.85, 7)
    remembered = _remembered(work, lattice, (alo, ahi, blo, bhi), shift, raw)
    if remembered is not None:
        work.budget.spend(len(t) * (len(a_lines) * (len(b_lines) - 1) + (len(a_lines) - 1) * len(b_lines)))
        return remembered
    # vertical edges: points (a, b + t)
    va, vb, vt = np.meshgrid(a_lines, b_lines[:-1], t, indexing="ij")
    ha, hb, ht = np.meshgrid(a_lines[:-1], b_lines, t, indexing="ij")
    scores = (edge_scores(work, lattice, va + shift, vb + vt, along=(0.0, 1.0), raw=raw),
              edge_scores(work, lattice, ha + ht, hb + shift, along=(1.0, 0.0), raw=raw))
    work.edge_memo.setdefault(_memo_key(lattice, shift), []).append(((alo, ahi, blo, bhi), raw, lattice, scores))
    return scores


def _memo_key(lattice: Lattice, shift: float) -> tuple:
    """A lattice's edges moved by `shift`, as `_line_scores` remembers them: the plain fit, and the lens
    by identity (each entry keeps its lattice, so the identity is not reused while it is remembered)."""
    return lattice.to_lattice.tobytes(), id(lattice.curved), float(shift)


def _remembered(work: WorkingImage, lattice: Lattice, lines: tuple[int, int, int, int], shift: float, raw: bool):
    """The scores of `lines` (alo, ahi, blo, bhi) cut from remembered lines that contain them (raw ones
    hold the others' scores first), or None."""
    alo, ahi, blo, bhi = lines
    for (a0, a1, b0, b1), had_raw, _, (vert, horiz) in work.edge_memo.get(_memo_key(lattice, shift), ()):
        if (had_raw or not raw) and a0 <= alo and ahi <= a1 and b0 <= blo and bhi <= b1:
            i, j = alo - a0, blo - b0
            count = 3 if raw else 2
            return ([v[i:ahi - a0 + 1, j:bhi - b0] for v in vert[:count]],
                    [h[i:ahi - a0, j:bhi - b0 + 1] for h in horiz[:count]])
    return None


def _threshold(work: WorkingImage, v_scores, h_scores) -> float | None:
    """The contrast an edge needs to count as a line: absolute, and relative to the strong ones."""
    cfg = work.cfg
    finite = np.concatenate([v_scores[0][np.isfinite(v_scores[0])], h_scores[0][np.isfinite(h_scores[0])]])
    if finite.size == 0:
        return None
    return max(cfg.extent.min_edge_contrast, cfg.extent.relative_edge_contrast * np.percentile(finite, 90))


def supported(work: WorkingImage, scores: tuple[np.ndarray, np.ndarray], threshold: float) -> np.ndarray:
    """+1 where an edge's (CLAHE, plain) contrasts make it a line, 0 where not, NaN unknown."""
    normalised, plain = scores[:2]
    strong = (normalised >= threshold) & (plain >= work.cfg.extent.min_plain_contrast)
    return np.where(np.isfinite(normalised), strong.astype(float), np.nan)


def edge_scores(work: WorkingImage, lattice: Lattice, a: np.ndarray, b: np.ndarray, along: tuple[float, float],
                 raw: bool = False) -> list[np.ndarray]:
    """Median contrast of the edge at lattice points (..., samples): gradient across the
    edge near the line minus the gradient a little further away (texture is not a line), in the
    CLAHE image and in the plain one, each the greater of its own and the colour's (`chroma`); `raw`:
    also the plain photo's strongest grey gradient across, near the line or further (median along
    the edge: under the plain floor, the photo is blank — a tile's white on the paper's own white
    may differ a little in colour, not enough to be seen as an edge).

    The samples across each edge are laid out first (9, points), each channel apart: the reductions
    over the 9 then run row by row over long rows, not over a short last axis (the extent stage
    scores millions of edge samples on a busy page, issue 28)."""
    work.budget.spend(a.size)   # (issue 28: the line search's fallbacks are budgeted in these samples)
    shape = a.shape
    pts = np.stack([a.ravel(), b.ravel()], axis=1)
    da = np.array(along) * 0.05
    p0, p1, pc = np.split(lattice.image_of(np.concatenate([pts - da, pts + da, pts])), 3)
    tangent = p1 - p0
    seg_px = np.linalg.norm(tangent, axis=1) / 0.1     # image px per square along the edge
    nx, ny = np.stack([-tangent[:, 1], tangent[:, 0]]) / np.maximum(np.linalg.norm(tangent, axis=1), 1e-9)
    r = edge_radius(seg_px)
    on_off = np.concatenate([np.linspace(-1, 1, 5)[:, None] * r, -texture_offset(r)[None], texture_offset(r)[None]])
    xs, ys = pc[:, 0] + on_off * nx, pc[:, 1] + on_off * ny      # (9, points)
    samples = sample_images([work.gradients] + ([] if work.colour_gradients is None else [work.colour_gradients]),
                            xs, ys)
    grads = _channels(samples[0])
    hgt, wid = work.gray.shape
    inside = (pc[:, 0] >= 2) & (pc[:, 0] < wid - 2) & (pc[:, 1] >= 2) & (pc[:, 1] < hgt - 2)

    cos, sin = nx.astype(np.float32), ny.astype(np.float32)   # (in the samples' precision: half the memory)

    def across(gx: np.ndarray, gy: np.ndarray) -> np.ndarray:   # gradient across the edge, (9, points)
        return gx * cos + gy * sin

    clahe, plain = np.abs(across(*grads[0:2])), np.abs(across(*grads[2:4]))
    if work.colour_gradients is not None:
        # a colour edge counts as an edge of either grey: a grey line between squares of
        # its own brightness (green, red) shows only in colour
        chroma = _channels(samples[1])
        colour = np.hypot(across(*chroma[0:2]), across(*chroma[2:4]))
        contrasts = [np.fmax(_line_contrast(g), _line_contrast(colour)) for g in (clahe, plain)]
    else:
        contrasts = [_line_contrast(clahe), _line_contrast(plain)]
    medians = []
    for contrast in contrasts:
        contrast = np.where(inside & np.isfinite(contrast), contrast, np.nan).reshape(shape)
        known = np.isfinite(contrast).mean(axis=-1) >= 0.6
        medians.append(np.where(known, nanmedian_last(contrast), np.nan))
    if raw:
        strongest = np.where(inside & np.isfinite(plain).all(axis=0), plain.max(axis=0), np.nan).reshape(shape)
        medians.append(np.where(known, nanmedian_last(strongest), np.nan))
    return medians


def _channels(samples: np.ndarray) -> list[np.ndarray]:
    """`sample`'s (..., channels) result as one contiguous array per channel."""
    return [np.ascontiguousarray(samples[..., k]) for k in range(samples.shape[-1])]


def edges_in_photo(work: WorkingImage, lattice: Lattice, alo: int, ahi: int, blo: int, bhi: int
                    ) -> tuple[np.ndarray, np.ndarray]:
    """Like `edge_support`'s arrays: 1 where the edge's middle lies in the working image."""
    hgt, wid = work.gray.shape

    def inside(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        with np.errstate(divide="ignore", invalid="ignore"):
            p = lattice.image_of(np.stack([a.ravel(), b.ravel()], axis=1))
        ok = (p[:, 0] >= 0) & (p[:, 0] < wid) & (p[:, 1] >= 0) & (p[:, 1] < hgt)
        return ok.reshape(a.shape).astype(float)

    va, vb = np.meshgrid(np.arange(alo, ahi + 1), np.arange(blo, bhi) + 0.5, indexing="ij")
    ha, hb = np.meshgrid(np.arange(alo, ahi) + 0.5, np.arange(blo, bhi + 1), indexing="ij")
    return inside(va, vb), inside(ha, hb)


def edge_radius(seg_px: np.ndarray | float) -> np.ndarray:
    """How far (px) either side of a lattice line `edge_scores` looks for its edge, for squares `seg_px` long
    along it: a twentieth of a square, 1 to 4 px."""
    return np.clip(0.05 * np.asarray(seg_px, float), 1.0, 4.0)


def texture_offset(radius: np.ndarray) -> np.ndarray:
    """Where (px either side) `edge_scores` reads the texture beside an edge looked for within `radius`."""
    return 2 * radius + 2


def _line_contrast(across: np.ndarray) -> np.ndarray:
    """Per point (across: (9, points)): the strongest gradient near the line (the first 5 samples)
    minus the mean of the four a little further away (texture is not a line)."""
    return across[:5].max(axis=0) - across[5:].mean(axis=0)


def supported_share(support: np.ndarray) -> float:
    """Share of supported edges among those measured; 0 when fewer than half were measured
    (outside the photo: no evidence either way)."""
    known = np.isfinite(support)
    if support.size == 0 or known.mean() < 0.5:
        return 0.0
    return float(support[known].mean())
