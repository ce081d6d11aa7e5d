"""Stage 2, line families and vanishing points (config section `grid.families`).

A grid's lines run in two directions, each to its vanishing point. The strongest directions of the
segments crossed by others (`crossed_share`: a grained table beside the board has one direction) are the
candidates, a RANSAC vanishing point each; pairs of them far enough apart, and a direction spread by
perspective over two close peaks paired with a third, are the hypotheses. Every segment goes to the
vanishing point it fits best, each family keeps the segments lying where the other family is (wood grain
beside the board is not a grid line), and each point is fitted again on its family.
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import cv2
import numpy as np

from calibration.grid_lines import Segments, angle_to_point, angle_tolerance, dominant_angles, vanishing_point
from calibration.grid_finder.segments import WorkingImage

_SHRINK = 0.25   # the regions of `_region` (and the crossing densities) are drawn at this share of the working image


@dataclass(frozen=True)
class LineFamilies:
    """Stage 2's answer: one hypothesis of the grid's two line families."""
    x: Segments            # the lines of constant grid x (the more vertical family in the image)
    y: Segments            # the lines of constant grid y
    vp_x: np.ndarray       # each family's vanishing point (homogeneous, 3)
    vp_y: np.ndarray
    strongest: bool        # from the two strongest directions: the grid's in most photos, searched first


def line_families(work: WorkingImage, segs: Segments) -> Iterator[LineFamilies]:
    """Stage 2: the line families of every pair of directions, strongest pair first, each pair once
    (two peaks of one grid direction spread by perspective, paired with the same other one, give the same
    families). A generator: the search may stop on the first pair's grid before the others are built."""
    cfg = work.cfg.families
    # the directions are those of segments crossed by others: a grained table's direction beside the
    # board (sharp enough to count) swallows a grid direction within `family_separation_deg` of it
    crossed = crossed_share(work, segs)
    clarity = np.ones(len(segs)) if segs.clarity is None else segs.clarity
    weighted = Segments(segs.p, segs.q, clarity * (cfg.uncrossed_weight + (1 - cfg.uncrossed_weight) * crossed))
    peaks = dominant_angles(weighted, cfg.family_separation_deg, cfg.direction_candidates)
    vps = [_peak_vanishing_point(work, segs, crossed, peaks, (k,)) for k in range(len(peaks))]
    apart = np.degrees(np.abs((np.array(peaks)[:, None] - np.array(peaks)[None, :] + np.pi / 2) % np.pi - np.pi / 2))
    pairs = []
    for i in range(len(peaks)):
        for j in range(i + 1, len(peaks)):
            if (vp_i := vps[i]) is not None and (vp_j := vps[j]) is not None and apart[i, j] >= cfg.min_pair_angle_deg:
                pairs.append((vp_i, vp_j))   # closer directions: one family spread by perspective ...
    for i in range(len(peaks)):
        for j in range(i + 1, len(peaks)):
            if apart[i, j] < cfg.min_pair_angle_deg:   # ... whose two peaks' segments give its point together
                spread = _peak_vanishing_point(work, segs, crossed, peaks, (i, j))
                pairs += [(spread, vp) for m, vp in enumerate(vps) if spread is not None and vp is not None
                          and min(apart[i, m], apart[j, m]) >= cfg.min_pair_angle_deg]
    seen = set()
    for k, pair in enumerate(pairs):
        families = _families(work, segs, pair)
        if families is None:
            continue
        signature = tuple((len(f), round(float(f.p.sum()), 3)) for f in families[:2])
        if signature in seen:
            continue
        seen.add(signature)
        yield LineFamilies(*families, strongest=k == 0)


def crossed_share(work: WorkingImage, segs: Segments) -> np.ndarray:
    """How much of each segment (0..1, at five points along it) is crossed by others: there, the weight of segments of another direction
    (`min_pair_angle_deg` away at least) is at least `crossing_share` of that of its own
    direction (a third of that angle either way), within `cross_family_reach` of the long side.
    A grid's two families are as dense as each other where it is; a table's grain, a cloth's
    weave or a sheet's shading beside the board have one direction."""
    cfg = work.cfg
    step = cfg.families.min_pair_angle_deg / 3
    bins = int(np.ceil(180 / step))
    which = (np.degrees(segs.angle) // step).astype(int) % bins
    shrink = _SHRINK
    shape = (int(work.gray.shape[0] * shrink) + 2, int(work.gray.shape[1] * shrink) + 2)
    box = max(3, int(round(2 * cfg.families.cross_family_reach * max(work.gray.shape) * shrink)) | 1)
    density = np.zeros((bins,) + shape, np.float32)
    t = np.linspace(0.0, 1.0, 5)[None, :, None]
    pts = (segs.p[:, None, :] + (segs.q - segs.p)[:, None, :] * t) * shrink
    xs = np.clip(np.round(pts[..., 0]).astype(int), 0, shape[1] - 1)
    ys = np.clip(np.round(pts[..., 1]).astype(int), 0, shape[0] - 1)
    np.add.at(density, (np.repeat(which, 5), ys.ravel(), xs.ravel()), np.repeat(segs.weight / 5, 5))
    for k in np.unique(which):
        density[k] = cv2.blur(density[k], (box, box))
    around = density[:, ys, xs]                          # (bins, segments, 5): each direction's weight there
    apart = (np.abs((np.arange(bins)[:, None] - which[None, :] + bins / 2) % bins - bins / 2) * step)[..., None]
    own = np.where(apart <= step, around, 0.0).sum(axis=0)
    other = np.where(apart > cfg.families.min_pair_angle_deg, around, 0.0).sum(axis=0)
    return (other >= cfg.families.crossing_share * own).mean(axis=1)


def _peak_vanishing_point(work: WorkingImage, segs: Segments, crossed: np.ndarray, peaks: list[float],
                          members: tuple[int, ...]) -> np.ndarray | None:
    """Vanishing point of the segments near the directions `peaks[k]`, k in `members` (one
    peak, or two close ones: a family spread by perspective), nearer to them than to any other
    peak, and crossed by others (wood grain a few degrees off a grid family must not pull its
    point away)."""
    cfg = work.cfg
    diff = np.stack([np.abs((segs.angle - peak + np.pi / 2) % np.pi - np.pi / 2) for peak in peaks])
    peak_rows = list(members)   # a list: numpy reads a tuple index as one index per axis
    mine = np.isin(np.argmin(diff, axis=0), peak_rows) & (diff[peak_rows].min(axis=0) < np.radians(cfg.families.family_tolerance_deg))
    if (mine & (crossed >= 0.5)).sum() >= cfg.families.min_family_segments:
        mine &= crossed >= 0.5   # nor a grained table in that direction beside the board (`crossed_share`)
    group = segs.subset(mine)
    if len(group) < cfg.families.min_family_segments:
        return None
    return vanishing_point(group, np.radians(cfg.families.vp_tolerance_deg), work.rng)


def _families(work: WorkingImage, segs: Segments, vps: tuple[np.ndarray, np.ndarray]
              ) -> tuple[Segments, Segments, np.ndarray, np.ndarray] | None:
    """Segments of the two line families, each consistent with one vanishing point,
    as (family x, family y, vp x, vp y); family x holds the lines of constant grid x."""
    cfg = work.cfg
    vp_tol = np.radians(cfg.families.vp_tolerance_deg)
    # every segment goes to the vanishing point it fits best (perspective spreads angles)
    err = np.stack([angle_to_point(segs, vp) for vp in vps])
    owner = np.argmin(err, axis=0)
    tol = angle_tolerance(segs, 2 * vp_tol)
    fams = [segs.subset((owner == k) & (err[k] < tol)) for k in range(2)]
    if min(len(f) for f in fams) < cfg.families.min_family_segments:
        return None
    fams = [fams[0].subset(_near(work, fams[0], fams[1])), fams[1].subset(_near(work, fams[1], fams[0]))]
    if min(len(f) for f in fams) < cfg.families.min_family_segments:
        return None
    refined = [vanishing_point(f, vp_tol, work.rng) for f in fams]
    if refined[0] is None or refined[1] is None:
        return None
    # family x: the more vertical one in the image
    if abs(np.sin(np.median(fams[0].angle))) < abs(np.sin(np.median(fams[1].angle))):
        fams.reverse()
        refined.reverse()
    return fams[0], fams[1], refined[0], refined[1]


def _near(work: WorkingImage, fam: Segments, other: Segments) -> np.ndarray:
    """Segments of `fam` lying (for the most part) where the other family has segments too.

    A grid's lines of one direction lie where its lines of the other direction are; a
    table's wood grain or a book's edges parallel to one family, beside the board, do
    not. Without this a grained table adds dozens of "lines" at every spacing and the comb
    locks onto a wrong period."""
    return _inside(fam, _region(work, other))


def _region(work: WorkingImage, segs: Segments) -> np.ndarray:
    """Where segments are: drawn with the gaps between them closed (up to `cross_family_gap`
    of the photo's long side: a big square's width), widened by `cross_family_reach` (a
    border line, where the other family's lines stop); a mask at `_SHRINK` scale."""
    long_side = max(work.gray.shape)
    shrink = _SHRINK
    mask = np.zeros((int(work.gray.shape[0] * shrink) + 2, int(work.gray.shape[1] * shrink) + 2), np.uint8)
    ends = np.stack([segs.p, segs.q], axis=1) * shrink
    cv2.polylines(mask, list(np.round(ends).astype(np.int32)), False, 255, 1)

    def disc(diameter: float) -> np.ndarray:   # square: OpenCV erodes and dilates those fast
        size = max(3, int(round(diameter * shrink)) | 1)
        return cv2.getStructuringElement(cv2.MORPH_RECT, (size, size))

    closed = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, disc(work.cfg.families.cross_family_gap * long_side))
    return cv2.dilate(closed, disc(2 * work.cfg.families.cross_family_reach * long_side))


def _inside(segs: Segments, mask: np.ndarray) -> np.ndarray:
    """Segments lying inside a `_region` mask for at least half of their length."""
    t = np.linspace(0.0, 1.0, 5)[None, :, None]
    pts = (segs.p[:, None, :] + (segs.q - segs.p)[:, None, :] * t) * _SHRINK
    xs = np.clip(np.round(pts[..., 0]).astype(int), 0, mask.shape[1] - 1)
    ys = np.clip(np.round(pts[..., 1]).astype(int), 0, mask.shape[0] - 1)
    return (mask[ys, xs] > 0).mean(axis=1) >= 0.5
