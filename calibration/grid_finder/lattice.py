"""Stage 3, the lattice fit, through the lens (config section `grid.lattice`).

A pair of line families (stage 2) gives a lattice: the affine rectification from their vanishing points
makes each family parallel, and an equally spaced comb fitted to each family's distinct lines gives its
spacing and phase (`lattice_hypothesis`). The lattice is then refined on every segment lying on its lines
(`fit_lattice`: a linear fit of point-on-line incidences, reweighted). Where the photo's lines bend, the
lattice follows them with a lens (`follow_lens`, calibration.lens), from where each line is read
(`line_points`); the extent stage (stage 4) asks for that once it knows which lines are the board's.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property

import numpy as np

from calibration.grid_lines import (Segments, apply_h, fit_comb, line_positions, lines_seen, on_smooth_lines,
                                    rectifying_transform)
from calibration.grid_finder.families import LineFamilies
from calibration.grid_finder.numeric import hartley_normaliser, weighted_percentiles, well_conditioned
from calibration.grid_finder.segments import WorkingImage
from calibration.lens import LineEvidence, fit_mapping
from calibration.mapping import GridMapping, from_resized, to_resized


@dataclass(frozen=True)
class ScaledMapping:
    """A photo's grid mapping read in its working image, `scale` times the photo's size (pixel centres
    corresponding, `calibration.mapping.resized_to_photo`)."""
    mapping: GridMapping
    scale: float

    def to_image(self, points: np.ndarray) -> np.ndarray:
        return to_resized(self.mapping.to_image(points), self.scale)

    def to_grid(self, points: np.ndarray) -> np.ndarray:
        return self.mapping.to_grid(from_resized(points, self.scale))


@dataclass(frozen=True)
class Lattice:
    """Image -> lattice coordinates (a across the lines of family x, b across family y): a plain
    homography, or — once the lines have been followed and they bend (`follow_lens`) — a mapping
    through a lens (`curved`, lattice units -> working pixels; `to_lattice` stays its plain fit)."""
    to_lattice: np.ndarray
    curved: GridMapping | ScaledMapping | None = None   # a ScaledMapping only to measure a fit (`find._measuring`)

    @classmethod
    def fitted(cls, mapping: GridMapping) -> "Lattice":
        """The lattice of a mapping fitted on the photo's lines (lattice units -> working pixels): curved
        when the fit kept a lens."""
        return cls(np.linalg.inv(mapping.homography), None if mapping.lens is None else mapping)

    @cached_property
    def to_image(self) -> np.ndarray:
        """Lattice -> working pixels, plain (inverted once: the extent search maps points through it
        thousands of times a photo)."""
        return np.linalg.inv(self.to_lattice)

    def image_of(self, pts: np.ndarray) -> np.ndarray:
        """Lattice points (n, 2) -> working pixels (through the lens, if any)."""
        return apply_h(self.to_image, pts) if self.curved is None else self.curved.to_image(pts)

    def lattice_of(self, pts: np.ndarray) -> np.ndarray:
        """Working pixels (n, 2) -> lattice points."""
        return apply_h(self.to_lattice, pts) if self.curved is None else self.curved.to_grid(pts)


@dataclass(frozen=True)
class LatticeHypothesis:
    """Stage 3's start: a pair of line families and the lattice their combs give."""
    families: LineFamilies
    lattice: Lattice          # image -> lattice units, from the combs (before refinement)
    lines_seen: float         # lattice lines explained in the poorer family: how much grid it sees
    skewed: bool              # one family may be the other's squares' diagonals (`_skewed`): searched last


def lattice_hypothesis(work: WorkingImage, families: LineFamilies) -> LatticeHypothesis | None:
    """The lattice of a pair of line families (their combs after rectification), or None when either
    family is not periodic enough."""
    lattice, seen = _initial_lattice(work, families.x, families.y, families.vp_x, families.vp_y)
    if lattice is None:
        return None
    return LatticeHypothesis(families, lattice, seen, _skewed(work, lattice, families.x, families.y))


def long_lines_hypothesis(work: WorkingImage, families: LineFamilies) -> LatticeHypothesis | None:
    """The lattice of a pair of families on their long segments only (`long_line_ratio` times the family's
    median length), or None. Columns of text beside a grid stack their lines more densely and in greater
    number than the grid's rows: every word's top and foot is a short segment, and the comb on all of them
    locks on the text's line spacing (issue 28: a newspaper sudoku read as a 9×9 of half-squares over the
    text). A grid's ruled lines are long; the text's are as long as its words."""
    cfg = work.cfg.lattice
    kept = []
    for fam in (families.x, families.y):
        length = fam.length
        long = length >= cfg.long_line_ratio * np.median(length) if len(fam) else np.zeros(0, bool)
        if long.sum() < cfg.long_line_segments or long.all():
            return None
        kept.append(Segments(fam.p[long], fam.q[long], None if fam.clarity is None else fam.clarity[long]))
    return lattice_hypothesis(work, replace(families, x=kept[0], y=kept[1], strongest=False))


def fit_lattice(work: WorkingImage, hypothesis: LatticeHypothesis) -> Lattice:
    """Stage 3: the hypothesis's lattice refined (twice) on every segment lying on its lines."""
    lattice = hypothesis.lattice
    for _ in range(2):
        lattice = refine(lattice, hypothesis.families.x, hypothesis.families.y, work.cfg.lattice.lattice_tolerance,
                         None) or lattice
    return lattice


def _initial_lattice(work: WorkingImage, fam_x: Segments, fam_y: Segments, vp_x: np.ndarray,
                     vp_y: np.ndarray) -> tuple[Lattice | None, float]:
    """Spacing and phase of each family after rectification -> (image-to-lattice map,
    lattice lines explained in the poorer family: how much grid this hypothesis sees)."""
    cfg = work.cfg
    rect = rectifying_transform(vp_y, vp_x)   # family y -> horizontal, family x -> vertical
    if rect is None:
        return None, 0.0
    axes, strengths = [], []
    for fam, axis in ((fam_x, 0), (fam_y, 1)):
        ends = apply_h(rect, np.vstack([fam.p, fam.q]))
        pos = (ends[: len(fam), axis] + ends[len(fam):, axis]) / 2
        if not np.all(np.isfinite(pos)):
            return None, 0.0
        lo, hi = weighted_percentiles(pos, fam.weight, (5, 95))   # soft clutter spreads wider
        spread = hi - lo
        if spread <= 0:
            return None, 0.0
        p_min = spread / (cfg.max_squares * 1.2)
        near = (pos > lo - spread) & (pos < hi + spread)   # far outliers (near the horizon) say nothing
        lines, line_strength, line_mass = line_positions(pos[near], fam.weight[near], 0.35 * p_min)
        period, phase, quality, explained = fit_comb(lines, line_strength, p_min, spread * 0.6, tol=cfg.lattice.comb_tolerance,
                                                     rank=line_mass)
        if quality < cfg.lattice.min_periodicity:
            return None, 0.0
        axes.append((period, phase))
        strengths.append(explained)
    (px, fx), (py, fy) = axes
    to_lattice = np.array([[1 / px, 0, -fx / px], [0, 1 / py, -fy / py], [0, 0, 1]]) @ rect
    return Lattice(to_lattice), min(strengths)


def _skewed(work: WorkingImage, lattice: Lattice, fam_x: Segments, fam_y: Segments) -> bool:
    """Is one family of this lattice the diagonals of the squares the other family's lines bound?
    Diagonal lines through a grid's corners (staircase colour borders, obstacles' crosses, squares
    split corner to corner) make a lattice of the same corners on a skewed basis, whose cells' one
    diagonal is a side of the true squares: seen at the segments' middle, that diagonal is shorter
    than `skew_ratio` of the cell's longer side, which no square seen at up to 60° of tilt is."""
    middle = np.median(np.vstack([(fam_x.p + fam_x.q) / 2, (fam_y.p + fam_y.q) / 2]), axis=0)
    with np.errstate(divide="ignore", invalid="ignore"):
        a, b = lattice.lattice_of(middle[None, :])[0]
        o, ea, eb = lattice.image_of(np.array([[a, b], [a + 1, b], [a, b + 1]]))
    ea, eb = ea - o, eb - o
    if not (np.all(np.isfinite(ea)) and np.all(np.isfinite(eb))):
        return False
    diagonal = min(np.linalg.norm(ea + eb), np.linalg.norm(ea - eb))
    return bool(diagonal < work.cfg.lattice.skew_ratio * max(np.linalg.norm(ea), np.linalg.norm(eb)))


def refine(lattice: Lattice, fam_x: Segments, fam_y: Segments, tol: float,
           extent: tuple[int, int, int, int] | None) -> Lattice | None:
    """Refit the image-to-lattice map on segment endpoints lying on lattice lines.

    An endpoint e on line a = k says (g1 . e) - k (g3 . e) = 0: linear in the map G,
    so all incidences are solved at once (normalised DLT), then reweighted. A lattice that
    follows a lens is refitted by `follow_lens` instead (None here: no change)."""
    if lattice.curved is not None:
        return None
    rows, weights = [], []
    g = lattice.to_lattice
    for fam, axis in ((fam_x, 0), (fam_y, 1)):
        cp, cq = apply_h(g, fam.p), apply_h(g, fam.q)
        kp, kq = np.round(cp[:, axis]), np.round(cq[:, axis])
        ok = (kp == kq) & (np.abs(cp[:, axis] - kp) < tol) & (np.abs(cq[:, axis] - kq) < tol)
        if extent is not None:
            a0, a1, b0, b1 = extent
            lo, hi = (a0, a1) if axis == 0 else (b0, b1)
            olo, ohi = (b0, b1) if axis == 0 else (a0, a1)
            other = 1 - axis
            # border lines only when there are too few interior ones: a printed border
            # (a chessboard's white fillet) sits beside the squares' true edge
            ok &= ((kp > lo) & (kp < hi)) if hi - lo >= 3 else ((kp >= lo) & (kp <= hi))
            ok &= (np.minimum(cp[:, other], cq[:, other]) > olo - tol) & (np.maximum(cp[:, other], cq[:, other]) < ohi + tol)
        for ends in (fam.p[ok], fam.q[ok]):
            rows.append((ends, kp[ok], axis))
            weights.append(fam.length[ok])
    if sum(len(r[0]) for r in rows) < 8:
        return None
    pts = np.vstack([r[0] for r in rows])
    ks = np.concatenate([r[1] for r in rows])
    axes = np.concatenate([np.full(len(r[0]), r[2]) for r in rows])
    w = np.concatenate(weights)
    if len(np.unique(ks[axes == 0])) < 2 or len(np.unique(ks[axes == 1])) < 2:
        return None
    norm_img = hartley_normaliser(pts)
    norm_lat = np.diag([1.0, 1.0, 1.0])
    k_centre, k_scale = ks.mean(), max(ks.std(), 1.0)
    norm_lat[:2, 2] = -k_centre / k_scale
    norm_lat[0, 0] = norm_lat[1, 1] = 1 / k_scale
    e = np.hstack([pts, np.ones((len(pts), 1))]) @ norm_img.T
    kn = (ks - k_centre) / k_scale
    for _ in range(3):
        a = np.zeros((len(e), 9))
        a[:, 6:9] = -kn[:, None] * e
        a[axes == 0, 0:3] = e[axes == 0]
        a[axes == 1, 3:6] = e[axes == 1]
        # the right singular vector of the smallest singular value of sqrt(w) A, from the 9x9
        # normal matrix (the SVD of the tall matrix itself cost ~15 ms per call)
        g_n = np.linalg.eigh((a * w[:, None]).T @ a)[1][:, 0].reshape(3, 3)
        to_lat = np.linalg.inv(norm_lat) @ g_n @ norm_img
        result = to_lat / np.linalg.norm(to_lat)
        if not well_conditioned(result):
            return None
        coords = apply_h(result, pts)
        resid = np.abs(coords[np.arange(len(pts)), axes] - ks)
        w = np.concatenate(weights) * (resid < tol * 0.75)
        if w.sum() == 0:
            return None
    return Lattice(result)


def follow_lens(work: WorkingImage, lattice: Lattice, rect: tuple[int, int, int, int]) -> Lattice | None:
    """The lattice refitted with a lens (calibration.lens) on where the photo's lines are, or
    None when they do not bend (or too little is seen). Families, vanishing points and combs
    assume straight lines; here each line is followed where it is (`line_points`, within the
    rectangle and one line beyond it), so a bent grid keeps its squares out to its edges."""
    cfg = work.cfg
    a0, a1, b0, b1 = rect
    for _ in range(2):   # once more from the lens found: the outer lines are then searched where they are
        evidence = line_points(work, lattice, rect)
        if evidence is None or len(evidence) < cfg.lens.min_points:
            return None if lattice.curved is None else lattice
        if lattice.curved is None:
            # a straight lattice is furthest off a bent grid at its border lines, where the sheet's edge
            # or a frame a margin away can be read instead: the inside lines alone place the lens first
            inside = np.where(evidence.axis == 0, (evidence.value > a0) & (evidence.value < a1),
                              (evidence.value > b0) & (evidence.value < b1))
            if inside.sum() >= cfg.lens.min_points:
                evidence = evidence.subset(inside)
        curved = refitted(work, lattice, rect, evidence)
        if curved is None or curved.lens is None:
            return None if lattice.curved is None else lattice
        lattice = Lattice.fitted(curved)
    return lattice


def refitted(work: WorkingImage, lattice: Lattice, rect: tuple[int, int, int, int], evidence: LineEvidence
             ) -> GridMapping | None:
    """The mapping (lattice units -> working pixels) fitted, from `lattice`, on line points of the
    rectangle's lines: through a lens where they bend (calibration.lens), else plain."""
    a0, a1, b0, b1 = rect
    shift = np.array([[1.0, 0, a0], [0, 1.0, b0], [0, 0, 1]])   # rectangle units -> lattice units
    assert not isinstance(lattice.curved, ScaledMapping)  # `find._measuring`'s lattices are measured, never refitted
    start = (lattice.curved.lens_homography if lattice.curved is not None else lattice.to_image) @ shift
    moved = LineEvidence(evidence.points, evidence.axis, evidence.value - np.where(evidence.axis == 0, a0, b0),
                         evidence.weight)
    fit = fit_mapping(work.gray.shape[::-1], (a1 - a0, b1 - b0), lines=moved, initial=start, config=work.cfg.lens)
    if fit is None or not well_conditioned(fit.mapping.homography):   # a fit gone degenerate: no lattice
        return None
    return fit.mapping.regridded(np.linalg.inv(shift))


def line_points(work: WorkingImage, lattice: Lattice, rect: tuple[int, int, int, int]) -> LineEvidence | None:
    """Where each lattice line of the rectangle is in the working image (`lines_seen`)."""
    seen = lines_seen(work.clahe_gradients, lattice.image_of, rect, work.cfg.extent.min_edge_contrast)
    return None if seen is None else on_smooth_lines(seen, lattice.lattice_of, work.cfg.lattice.line_smooth_tolerance)


def on_its_lines(work: WorkingImage, lattice: Lattice, rect: tuple[int, int, int, int]) -> Lattice | None:
    """The lattice refitted on where the rectangle's lines are in the photo (`line_points`): through a
    lens where they bend, else plain; None when too little is seen."""
    evidence = line_points(work, lattice, rect)
    if evidence is None or len(evidence) < work.cfg.lens.min_points:
        return None
    mapping = refitted(work, lattice, rect, evidence)
    return None if mapping is None else Lattice.fitted(mapping)
