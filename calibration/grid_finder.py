"""Markerless grid finding: the homography of any printed or drawn N×M grid in a photo.

Used when our fiducial markers are hidden and for boards we did not print
(a chessboard, a hand-drawn grid). Method (docs/grid-finding.md):

1. LSD line segments on a downscaled grey image (CLAHE first, for faint pencil), at a
   scale where a requested grid's squares stay >= `min_square_px`; each weighed by its
   length and its sharpness in the plain photo (table grain and cloth are soft);
2. the strongest line directions, a RANSAC vanishing point for each; pairs of
   directions are the hypotheses; each family keeps the segments lying where the
   other family is (wood grain beside the board is not a grid line);
3. affine rectification from a pair's vanishing points, where each family becomes
   parallel; an equally spaced comb fitted to each family's distinct lines gives
   its spacing and phase -> a lattice;
4. the lattice homography is refined on all segments that fall on lattice lines
   (a linear fit of point-on-line incidences, reweighted);
5. every lattice edge is scored by the edge contrast along it (in the CLAHE image and,
   so that table grain lifted by CLAHE does not count, in the plain one); the grid's extent is
   the rectangle of lattice edges with the most supported edges (and supported
   borders), of the requested size when it is known;
6. a last refinement on the segments inside that rectangle, a check that its squares
   look like printed squares (convex, not slivers), then the orientation closest to upright;
7. size unknown: the whole grid or none (a sub-grid is a wrong board): where the comb goes on
   past a border with supported edges the extent is searched again beyond it (or the fit
   refused); squares holding the lines of a finer comb are refused; a big fit with small
   squares is searched again at the scale its size needs.
"""
from __future__ import annotations

import warnings
from dataclasses import dataclass, replace

import cv2
import numpy as np

from calibration.grid_lines import (
    Segments,
    lines_seen,
    on_smooth_lines,
    sample,
    angle_to_point,
    angle_tolerance,
    apply_h,
    detect_segments,
    dominant_angles,
    fit_comb,
    line_positions,
    rectifying_transform,
    vanishing_point,
)
from calibration.chequer import ChequerFit, find_chequer
from calibration.config import GridFinderConfig
from calibration.grid_verify import Verdict, verify_grid
from calibration.lens import LineEvidence, fit_mapping
from calibration.mapping import GridMapping


@dataclass(frozen=True)
class GridFit:
    mapping: GridMapping     # grid units <-> image pixels, through the photo's lens when it shows one;
                             # (0,0) outer top-left corner of square (0,0)
    width: int               # squares across (columns)
    height: int              # squares down (rows)
    score: float             # 0..1 confidence in the fit
    method: str = "lines"    # "lines" (segments, combs, lattice) or "chequer" (findChessboardCornersSB)
    partial: tuple[str, ...] = ()   # size unknown: sides ("left", "top", ...) past which the photo does not
                                    # show whether the grid goes on (its next line is outside the frame)

    @property
    def homography(self) -> np.ndarray:
        """The plain 3x3 fit, grid units -> image pixels."""
        return self.mapping.homography


def find_grid(image_bgr: np.ndarray, grid: tuple[int, int] | None = None, *,
              config: GridFinderConfig | None = None) -> GridFit | None:
    """Find a grid of squares in a photo, or None when there is none.

    `grid=(w, h)` asks for a grid w squares across and h down, whichever way it lies
    in the photo; the rotation returned is the one closest to upright. `grid=None`
    also finds the size. Raises only for a programming error (not an image)."""
    return find_verified_grid(image_bgr, grid, config=config)[0]


def find_verified_grid(image_bgr: np.ndarray, grid: tuple[int, int] | None = None, *,
                       config: GridFinderConfig | None = None) -> tuple[GridFit | None, Verdict | None]:
    """`find_grid`, with the verification's verdict (calibration.grid_verify): (the grid, its
    verdict), (None, the verdict that refused the fit), or (None, None) when nothing was fitted.
    The search proposes; only a grid the photo proves is returned (issue 28: with the size given,
    the search laid boards over facades, brick and text)."""
    cfg = config or GridFinderConfig()
    fit = _unverified_grid(image_bgr, grid, cfg)
    if fit is None:
        return None, None
    verdict = verify_grid(image_bgr, fit.mapping, fit.width, fit.height, cfg.verify)
    return (fit if verdict.found else None), verdict


def _unverified_grid(image_bgr: np.ndarray, grid: tuple[int, int] | None, cfg: GridFinderConfig) -> GridFit | None:
    """The search's best grid (size given or not), before verification."""
    if not isinstance(image_bgr, np.ndarray) or image_bgr.ndim not in (2, 3) or image_bgr.size == 0:
        raise TypeError("find_grid expects a BGR or grey image as a numpy array")
    if grid is not None:
        w, h = (int(v) for v in grid)
        if w < 1 or h < 1:
            raise ValueError(f"grid size must be positive, got {grid!r}")
        grid = (w, h)
    fit = _search(image_bgr, grid, cfg)
    if grid is not None:
        if fit is None:   # never worse than the free search: a grid of this size found without it is kept
            free = _search(image_bgr, None, cfg)
            turned = None if free is None else upright_mapping(free.mapping, free.width, free.height, grid)
            if free is not None and turned is not None:
                fit = replace(free, mapping=turned[0], width=turned[1], height=turned[2])
        return fit
    if fit is None:
        return None
    open_ = open_sides(fit.mapping, fit.width, fit.height, image_bgr.shape[1::-1])
    maybe = _maybe_going_on(image_bgr, fit, cfg) if fit.method == "lines" else ()   # a chequer ends with its corners
    return replace(fit, partial=tuple(side for side in SIDES if side in open_ or side in maybe))


SIDES = ("left", "top", "right", "bottom")


def open_sides(mapping: GridMapping, width: int, height: int, image_size: tuple[int, int],
               reach: float = 0.5) -> tuple[str, ...]:
    """The sides of a width×height grid past which the photo cannot say whether it goes on: less
    than `reach` square of the photo lies beyond that side (on most of its length). Half a square
    past the border is enough to see the next row's separators, or their absence."""
    t = np.linspace(0.05, 0.95, 19)
    beyond = {"left": np.stack([np.full_like(t, -reach), t * height], 1),
              "top": np.stack([t * width, np.full_like(t, -reach)], 1),
              "right": np.stack([np.full_like(t, width + reach), t * height], 1),
              "bottom": np.stack([t * width, np.full_like(t, height + reach)], 1)}
    w, h = image_size
    sides = []
    for side in SIDES:
        with np.errstate(divide="ignore", invalid="ignore"):
            p = mapping.to_image(beyond[side])
        inside = (p[:, 0] >= 0) & (p[:, 0] <= w - 1) & (p[:, 1] >= 0) & (p[:, 1] <= h - 1)
        if inside.mean() < 0.5:
            sides.append(side)
    return tuple(sides)


def _search(image_bgr: np.ndarray, grid: tuple[int, int] | None, cfg: GridFinderConfig) -> GridFit | None:
    """The chequer candidate, then the line finder (module docstring). Size given: SB at that size,
    the lines, and only then SB's "larger" mode (a chequer partly out of view; it costs as much as
    SB itself on every photo that is no chequer); size unknown: SB's "larger" mode first (a chessboard
    read by its lines comes out in parts where a lens bends it)."""
    if cfg.chequer_candidate:
        fit = _chequer_candidate(image_bgr, grid, cfg, exact=True, larger=grid is None)
        if fit is not None and (grid is not None or not _not_the_board(image_bgr, fit, cfg)):
            return fit
    found = _line_search(image_bgr, grid, cfg)
    if found is None and grid is not None and cfg.chequer_candidate:
        return _chequer_candidate(image_bgr, grid, cfg, exact=False, larger=True)
    return found


def _chequer_candidate(image_bgr: np.ndarray, grid, cfg: GridFinderConfig, *, exact: bool, larger: bool
                       ) -> GridFit | None:
    chequer = find_chequer(image_bgr, grid, config=cfg.chequer, exact=exact, larger=larger)
    fit = None if chequer is None else _chequer_fit(chequer, grid)
    return fit if fit is not None and fit.score >= cfg.min_score else None


def _line_search(image_bgr: np.ndarray, grid: tuple[int, int] | None, cfg: GridFinderConfig) -> GridFit | None:
    """The line finder on its working image (and, size unknown, again where small squares need)."""
    gray, plain, scale = _working_gray(image_bgr, _working_long_side(image_bgr.shape[:2], grid, cfg), cfg)
    found = _Finder(gray, plain, grid, cfg, _working_chroma(image_bgr, gray.shape, cfg)).run(grid)
    if found is not None and grid is None:
        # a size found on small squares is checked where they are big enough: the same
        # search (size still unknown) on the working image that size would have asked for
        needed = _working_long_side(image_bgr.shape[:2], (found.width, found.height), cfg)
        big_and_fine = max(found.width, found.height) >= cfg.recheck_min_squares and \
            _square_side_px(found) < cfg.recheck_square_px
        if big_and_fine and needed > max(gray.shape) and scale < 1.0:
            gray, plain, scale = _working_gray(image_bgr, needed, cfg)
            # the size found only sets the shortest segment kept; the search is for any size
            found = _Finder(gray, plain, (found.width, found.height), cfg,
                            _working_chroma(image_bgr, gray.shape, cfg)).run(None)
    if found is None:
        return None
    return _full_size(found, scale, image_bgr.shape, cfg)


def _full_size(found: GridFit, scale: float, shape: tuple[int, ...], cfg: GridFinderConfig) -> GridFit:
    """The fit in the photo's own pixels. A lens found on the working image is fitted again in
    the photo's convention (centre, focal of the full photo) from its own grid corners."""
    if found.mapping.lens is None:
        to_image = np.diag([1 / scale, 1 / scale, 1.0]) @ found.homography
        return GridFit(GridMapping(to_image / to_image[2, 2]), found.width, found.height, found.score, found.method)
    gx, gy = np.meshgrid(np.linspace(0, found.width, 9), np.linspace(0, found.height, 9))
    grid = np.stack([gx.ravel(), gy.ravel()], axis=1)
    again = fit_mapping((shape[1], shape[0]), (found.width, found.height), grid, found.mapping.to_image(grid) / scale,
                        config=cfg.lens)
    mapping = again.mapping if again is not None else GridMapping(np.diag([1 / scale, 1 / scale, 1.0]) @ found.homography)
    return GridFit(mapping, found.width, found.height, found.score, found.method)


def _not_the_board(image_bgr: np.ndarray, fit: GridFit, cfg: GridFinderConfig) -> bool:
    """Size unknown: is a chequer fit not a whole board? SB grows a chequer only as far as its corners stay
    regular, and on a big board bent by a lens, or a tiled board whose dark region alone reads as a
    chequer, it stops on part of it: the grid goes on past a side (`_Finder._continuing_sides`). Or its
    lattice runs along the squares' diagonals, where a chequer's edges are not: under
    `chequer_edge_support` of its inner edges show (a real chequer shows nearly all of them). The line
    finder is asked instead."""
    finder, lattice, rect = _measuring(image_bgr, fit, cfg)
    vert, horiz = finder._edge_support(lattice, *rect)
    inner = np.concatenate([vert[1:-1].ravel(), horiz[:, 1:-1].ravel()])
    return _supported_share(inner) < cfg.chequer_edge_support or any(finder._continuing_sides(lattice, rect))


def _maybe_going_on(image_bgr: np.ndarray, fit: GridFit, cfg: GridFinderConfig) -> tuple[str, ...]:
    """Size unknown: the sides past which the grid shows, if weakly (`maybe_continuing_support` of the
    next line and of the separators across the strip; a board's margin shows no separators at all):
    dark squares divided by dark lines, tiles merging with the paper. The line search could not close the
    board there, so the answer is partial on that side, not a smaller board said whole. (A chequer's
    corners end where it ends, and `_not_the_board` has judged it: past a real chessboard, a striped shirt
    would read as a grid going on.)"""
    finder, lattice, rect = _measuring(image_bgr, fit, cfg)
    going = finder._continuing_sides(lattice, rect, cfg.maybe_continuing_support, as_tiles=True)
    return tuple(side for side, on in zip(("left", "right", "top", "bottom"), going) if on)


def _measuring(image_bgr: np.ndarray, fit: GridFit, cfg: GridFinderConfig
               ) -> tuple["_Finder", "_Lattice", tuple[int, int, int, int]]:
    """A finder on the photo's working image for the fit's size, the fit as its lattice, and its rectangle."""
    gray, plain, scale = _working_gray(image_bgr, _working_long_side(image_bgr.shape[:2], (fit.width, fit.height), cfg),
                                       cfg)
    finder = _Finder(gray, plain, (fit.width, fit.height), cfg, _working_chroma(image_bgr, gray.shape, cfg))
    lattice = _Lattice(np.linalg.inv(np.diag([scale, scale, 1.0]) @ fit.homography), _ScaledMapping(fit.mapping, scale))
    return finder, lattice, (0, fit.width, 0, fit.height)


@dataclass(frozen=True)
class _ScaledMapping:
    """A photo's grid mapping read in its working image, `scale` times the photo's size."""
    mapping: GridMapping
    scale: float

    def to_image(self, points: np.ndarray) -> np.ndarray:
        return self.mapping.to_image(points) * self.scale

    def to_grid(self, points: np.ndarray) -> np.ndarray:
        return self.mapping.to_grid(np.asarray(points) / self.scale)


def _chequer_fit(chequer: ChequerFit, grid: tuple[int, int] | None) -> GridFit | None:
    """The chequer as a GridFit turned upright, or None when it is not the size asked for."""
    width, height = chequer.squares
    if grid is not None and sorted(grid) != sorted((width, height)):
        return None
    upright = upright_mapping(chequer.mapping, width, height, grid)
    if upright is None:
        return None
    mapping, width, height = upright
    seen = float(np.isfinite(chequer.corners[..., 0]).mean())
    return GridFit(mapping, width, height, seen, method="chequer")


def upright_mapping(mapping: GridMapping, width: int, height: int, grid: tuple[int, int] | None = None
                    ) -> tuple[GridMapping, int, int] | None:
    """The mapping in the grid units that read the board upright: of the 8 ways to number a
    width×height rectangle's squares, those seen with the photo's handedness (x right, y down),
    of the size `grid` when given, the one whose x axis is closest to the photo's +x."""
    best = None
    for t, (w, h) in _symmetries(width, height):
        if grid is not None and (w, h) != tuple(grid):
            continue
        new = mapping.regridded(t)
        origin, x_end, y_end = new.to_image(np.array([[w / 2, h / 2], [w / 2 + 1, h / 2], [w / 2, h / 2 + 1]]))
        x_axis, y_axis = x_end - origin, y_end - origin
        if x_axis[0] * y_axis[1] - x_axis[1] * y_axis[0] <= 0:
            continue   # read in a mirror
        upright = x_axis[0] / (np.linalg.norm(x_axis) + 1e-12)
        if best is None or upright > best[0]:
            best = (upright, new, w, h)
    return None if best is None else best[1:]


def _symmetries(width: int, height: int):
    """The 8 maps (3×3, new grid units -> old) of a width×height rectangle onto itself, each with
    the new (width, height): signed permutations of the axes, shifted back onto the rectangle."""
    for swap in (False, True):
        for sx in (1.0, -1.0):
            for sy in (1.0, -1.0):
                a = np.array([[0.0, sy], [sx, 0.0]]) if swap else np.array([[sx, 0.0], [0.0, sy]])
                w, h = (height, width) if swap else (width, height)
                ends = np.array([[0, 0], [w, 0], [0, h], [w, h]], float) @ a.T
                t = np.eye(3)
                t[:2, :2], t[:2, 2] = a, -ends.min(axis=0)
                yield t, (w, h)


def _square_side_px(fit: GridFit) -> float:
    """Mean side of the fit's squares in the image it was found in (root of the mean area)."""
    corners = cv2.perspectiveTransform(
        np.array([[[0, 0], [fit.width, 0], [fit.width, fit.height], [0, fit.height]]], np.float64), fit.homography)[0]
    return float(np.sqrt(abs(cv2.contourArea(corners.astype(np.float32))) / (fit.width * fit.height)))


def _working_long_side(shape: tuple[int, int], grid: tuple[int, int] | None, cfg: GridFinderConfig) -> float:
    """Long side of the working image: `working_size`, or more when the requested grid's
    squares would be under `min_square_px` there for a board spanning `min_board_fraction`
    of the photo's short side (a 40x25 board at 1080p needs the full frame)."""
    if grid is None:
        return cfg.working_size
    short_needed = cfg.min_square_px * max(grid) / cfg.min_board_fraction
    needed = short_needed * max(shape) / min(shape)
    return min(max(cfg.working_size, needed), cfg.max_working_size)


def _working_gray(image: np.ndarray, long_side: float, cfg: GridFinderConfig
                  ) -> tuple[np.ndarray, np.ndarray, float]:
    """(contrast-normalised grey, plain grey, scale) of the working image, `long_side` px
    on its long side at most."""
    if image.ndim == 3 and image.shape[2] == 1:
        image = image[:, :, 0]
    gray = image if image.ndim == 2 else cv2.cvtColor(image[:, :, :3], cv2.COLOR_BGR2GRAY)
    if gray.dtype != np.uint8:
        gray = cv2.normalize(gray, None, 0, 255, cv2.NORM_MINMAX).astype(np.uint8)  # type: ignore[call-overload]  # cv2 stubs: no dst=None
    scale = min(1.0, long_side / max(gray.shape))
    if scale < 1.0:
        gray = cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    tile = max(2, round(max(gray.shape) / 120))
    return cv2.createCLAHE(cfg.clahe_clip, (tile, tile)).apply(gray), gray, scale


def _working_chroma(image: np.ndarray, shape: tuple[int, int], cfg: GridFinderConfig) -> np.ndarray | None:
    """The colour of the working image without its brightness (CIELAB a*, b*), or None when the
    photo has no colour (its a*, b* span under `min_colour_range`): a grey line between green or red
    squares of its own brightness shows only there."""
    if image.ndim != 3 or image.shape[2] < 3:
        return None
    small = cv2.resize(image[:, :, :3], (shape[1], shape[0]), interpolation=cv2.INTER_AREA) \
        if image.shape[:2] != tuple(shape) else image[:, :, :3]
    lab = cv2.cvtColor(np.ascontiguousarray(small), cv2.COLOR_BGR2LAB)
    chroma = lab[:, :, 1:]
    if int(chroma.max()) - int(chroma.min()) < cfg.min_colour_range:
        return None
    return chroma


def _gradients(channels) -> np.ndarray:
    """The x and y gradients of each 8-bit channel, smoothed a little, as one float image
    (x0, y0, x1, y1, ...: 4 channels keep `sample`'s remap on its fast path)."""
    return cv2.merge([cv2.Sobel(cv2.GaussianBlur(np.ascontiguousarray(c), (3, 3), 0), cv2.CV_32F, dx, 1 - dx, ksize=3) / 8
                      for c in channels for dx in (1, 0)])


@dataclass(frozen=True)
class _Lattice:
    """Image -> lattice coordinates (a across the lines of family x, b across family y): a plain
    homography, or — once the lines have been followed and they bend (`_follow_lens`) — a mapping
    through a lens (`curved`, lattice units -> working pixels; `to_lattice` stays its plain fit)."""
    to_lattice: np.ndarray
    curved: GridMapping | _ScaledMapping | None = None   # a _ScaledMapping only to measure a fit (`_measuring`)

    @classmethod
    def fitted(cls, mapping: GridMapping) -> "_Lattice":
        """The lattice of a mapping fitted on the photo's lines (lattice units -> working pixels): curved
        when the fit kept a lens."""
        return cls(np.linalg.inv(mapping.homography), None if mapping.lens is None else mapping)

    @property
    def to_image(self) -> np.ndarray:
        return np.linalg.inv(self.to_lattice)

    def image_of(self, pts: np.ndarray) -> np.ndarray:
        """Lattice points (n, 2) -> working pixels (through the lens, if any)."""
        return apply_h(self.to_image, pts) if self.curved is None else self.curved.to_image(pts)

    def lattice_of(self, pts: np.ndarray) -> np.ndarray:
        """Working pixels (n, 2) -> lattice points."""
        return apply_h(self.to_lattice, pts) if self.curved is None else self.curved.to_grid(pts)


class _Finder:
    """One search on one working image; holds the shared intermediate results."""

    def __init__(self, gray: np.ndarray, plain: np.ndarray, grid: tuple[int, int] | None, cfg: GridFinderConfig,
                 chroma: np.ndarray | None = None):
        self.gray, self.cfg = gray, cfg
        min_length = cfg.min_segment_frac * max(gray.shape)
        if grid is not None:   # a big board's squares may be shorter than that
            smallest_square = cfg.min_board_fraction * min(gray.shape) / max(grid)
            min_length = min(min_length, cfg.min_segment_squares * smallest_square)
        self.min_segment_px = max(min_length, 3.0)
        self.rng = np.random.default_rng(0)   # deterministic: same photo, same answer
        # gradients of the contrast-normalised image (faint pencil lines stand out) and of the
        # plain one (CLAHE also lifts a table's smooth grain to the strength of a drawn line)
        self.gradients = _gradients((gray, plain))
        self._clahe_gradients: np.ndarray | None = None   # its first two channels, contiguous (line following)
        self.colour_gradients = None if chroma is None else _gradients((chroma[:, :, 0], chroma[:, :, 1]))

    def run(self, grid: tuple[int, int] | None) -> GridFit | None:
        """Pair the strongest line directions and search the pairs for a grid, best score wins.

        Early scoring: the pair of the two strongest directions is searched first, and a fit
        scoring `good_enough_score` ends the search before the other pairs' lattices are even
        built. Otherwise the other pairs are ranked by the lattice lines they explain (1-D comb
        fits) and searched best first, up to `max_hypotheses` searches in all."""
        cfg = self.cfg
        segs = self._with_clarity(detect_segments(self.gray, self.min_segment_px))
        self.segs = segs   # every segment: where the lines are once they bend (`_follow_lens`)
        # the directions are those of segments crossed by others: a grained table's direction beside the
        # board (sharp enough to count) swallows a grid direction within `family_separation_deg` of it
        crossed = self._crossed(segs)
        self.crossed = crossed
        clarity = np.ones(len(segs)) if segs.clarity is None else segs.clarity
        weighted = Segments(segs.p, segs.q, clarity * (cfg.uncrossed_weight + (1 - cfg.uncrossed_weight) * crossed))
        peaks = dominant_angles(weighted, cfg.family_separation_deg, cfg.direction_candidates)
        vps = [self._peak_vanishing_point(segs, peaks, (k,)) for k in range(len(peaks))]
        apart = np.degrees(np.abs((np.array(peaks)[:, None] - np.array(peaks)[None, :] + np.pi / 2) % np.pi - np.pi / 2))
        pairs = []
        for i in range(len(peaks)):
            for j in range(i + 1, len(peaks)):
                if (vp_i := vps[i]) is not None and (vp_j := vps[j]) is not None and apart[i, j] >= cfg.min_pair_angle_deg:
                    pairs.append((vp_i, vp_j))   # closer directions: one family spread by perspective ...
        for i in range(len(peaks)):
            for j in range(i + 1, len(peaks)):
                if apart[i, j] < cfg.min_pair_angle_deg:   # ... whose two peaks' segments give its point together
                    spread = self._peak_vanishing_point(segs, peaks, (i, j))
                    pairs += [(spread, vp) for m, vp in enumerate(vps) if spread is not None and vp is not None
                              and min(apart[i, m], apart[j, m]) >= cfg.min_pair_angle_deg]
        best: GridFit | None = None
        searched = 0

        def search(lattice: _Lattice, fam_x: Segments, fam_y: Segments) -> bool:
            nonlocal best, searched
            searched += 1
            fit = self._fit_lattice(lattice, fam_x, fam_y, grid)
            if fit is not None and (best is None or fit.score > best.score):
                best = fit
            return best is not None and best.score >= cfg.good_enough_score

        candidates, seen = [], set()
        for k, pair in enumerate(pairs):
            families = self._families(segs, pair)
            if families is None:
                continue
            # two peaks of one grid direction (spread by perspective) paired with the same other
            # one give the same families: one search is enough
            signature = tuple((len(f), round(float(f.p.sum()), 3)) for f in families[:2])
            if signature in seen:
                continue
            seen.add(signature)
            lattice, lines_seen = self._initial_lattice(*families)
            if lattice is None:
                continue
            skewed = self._skewed(lattice, families[0], families[1])
            if k == 0 and not skewed:   # the two strongest directions: the grid's in most photos
                if search(lattice, families[0], families[1]):
                    return best
            else:
                candidates.append((skewed, lines_seen, lattice, families[0], families[1]))
        candidates.sort(key=lambda c: (c[0], -c[1]))
        for _, _, lattice, fam_x, fam_y in candidates[: cfg.max_hypotheses - searched]:
            if search(lattice, fam_x, fam_y):
                break
        return best

    def _skewed(self, lattice: _Lattice, fam_x: Segments, fam_y: Segments) -> bool:
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
        return bool(diagonal < self.cfg.skew_ratio * max(np.linalg.norm(ea), np.linalg.norm(eb)))

    def _with_clarity(self, segs: Segments) -> Segments:
        """Segments with their clarity: the gradient across each, in the plain photo (the
        strongest within 1.5 px of it, median of 5 points along it), relative to
        `sharp_edge_contrast` and squared, so that soft texture weighs far less than ink."""
        if len(segs) == 0:
            return segs
        d = segs.q - segs.p
        normal = np.stack([-d[:, 1], d[:, 0]], axis=1) / np.maximum(segs.length, 1e-9)[:, None]
        along = np.linspace(0.1, 0.9, 5)[None, :, None, None]
        across = np.linspace(-1.5, 1.5, 5)[None, None, :, None]
        pts = segs.p[:, None, None, :] + d[:, None, None, :] * along + normal[:, None, None, :] * across
        grads = sample(self.gradients, pts[..., 0], pts[..., 1])[..., 2:]
        size = np.abs(grads[..., 0] * normal[:, None, None, 0] + grads[..., 1] * normal[:, None, None, 1])
        contrast = np.nan_to_num(_nanmedian_last(size.max(axis=2)))   # points outside the photo are NaN
        return Segments(segs.p, segs.q, np.clip(contrast / self.cfg.sharp_edge_contrast, 0.0, 1.0) ** 2)

    def _peak_vanishing_point(self, segs: Segments, peaks: list[float], members: tuple[int, ...]) -> np.ndarray | None:
        """Vanishing point of the segments near the directions `peaks[k]`, k in `members` (one
        peak, or two close ones: a family spread by perspective), nearer to them than to any other
        peak, and crossed by others (wood grain a few degrees off a grid family must not pull its
        point away)."""
        cfg = self.cfg
        diff = np.stack([np.abs((segs.angle - peak + np.pi / 2) % np.pi - np.pi / 2) for peak in peaks])
        peak_rows = list(members)   # a list: numpy reads a tuple index as one index per axis
        mine = np.isin(np.argmin(diff, axis=0), peak_rows) & (diff[peak_rows].min(axis=0) < np.radians(cfg.family_tolerance_deg))
        if (mine & (self.crossed >= 0.5)).sum() >= cfg.min_family_segments:
            mine &= self.crossed >= 0.5   # nor a grained table in that direction beside the board (`_crossed`)
        group = segs.subset(mine)
        if len(group) < cfg.min_family_segments:
            return None
        return vanishing_point(group, np.radians(cfg.vp_tolerance_deg), self.rng)

    def _fit_lattice(self, lattice: _Lattice, fam_x: Segments, fam_y: Segments, grid) -> GridFit | None:
        """Refine a lattice hypothesis, find the grid's extent on it, refine on that extent."""
        cfg = self.cfg
        for _ in range(2):
            lattice = _refine(lattice, fam_x, fam_y, cfg.lattice_tolerance, None) or lattice
        extent = self._extent(lattice, fam_x, fam_y, grid)
        if extent is None and grid is not None:
            # the size asked for is not seen on the straight lattice (the size-given search is never
            # worse than the free one): what the part that is seen says about the lattice may show it
            seen = self._extent(lattice, fam_x, fam_y, None)
            # every other line only subdivides the squares: a comb locked on half the period, as ruler
            # ticks beside a board without lines inside allow (where no part is seen whole, the lines'
            # support over the lattice says it)
            coarser = seen[2] if seen is not None else self._half_period(lattice, fam_x, fam_y)
            if coarser is not None:
                lattice = _Lattice(coarser @ lattice.to_lattice)
                extent = self._extent(lattice, fam_x, fam_y, grid)
                seen = self._extent(lattice, fam_x, fam_y, None) if extent is None else seen
            if extent is None and seen is not None and cfg.fit_lens:
                # ... or the part seen, followed where its lines bend
                lattice, extent = self._bent_extent(lattice, seen[0], fam_x, fam_y, grid) or (lattice, None)
            if extent is None and cfg.fit_lens:
                # ... or the size asked for, seen where edges may lie up to `lens_reach` square off the
                # straight lattice (a strong lens bends a board's outer lines that far; one without
                # lines inside shows no part whole), followed where its lines bend, and checked again
                rough = self._extent(lattice, fam_x, fam_y, grid, reach=cfg.lens_reach)
                if rough is not None:
                    lattice, extent = self._rough_extent(lattice, rough[0], fam_x, fam_y, grid)
        if extent is None and grid is not None and lattice.curved is None:
            lattice, extent = self._doubled_extent(lattice, fam_x, fam_y, grid) or (lattice, None)
        if extent is None and grid is not None:
            outlined = self._outlined_lattice(lattice, fam_x, fam_y, grid)
            if outlined is not None:
                lattice, extent = outlined
        if extent is None and grid is not None and cfg.fit_lens:
            lattice, extent = self._grown_extent(lattice, fam_x, fam_y, grid) or (lattice, None)
        if extent is None:
            return None
        rect, score, coarser = extent
        if coarser is not None and lattice.curved is not None:
            return None   # a lattice of half squares (subdivided ones) is not followed through a lens
        if coarser is not None:   # every other line was a subdivision: the squares are twice as big
            lattice = _Lattice(coarser @ lattice.to_lattice)
            extent = self._extent(lattice, fam_x, fam_y, grid)
            if extent is None:
                return None
            rect, score, _ = extent
        for _ in range(2):
            lattice = _refine(lattice, fam_x, fam_y, cfg.lattice_tolerance, rect) or lattice
        curved = self._follow_lens(lattice, rect) if cfg.fit_lens else None
        if curved is not None:   # the lines bend: the extent again, on the lattice that follows them
            extent = self._extent(curved, fam_x, fam_y, grid)
            # ... which, with the size given, may move the rectangle only to one that scores better (a lens
            # extrapolated past the part seen misplaces the lines there, and a sheet's edge a square away
            # can look a border; size unknown, the bent lattice may show more of the board)
            if extent is not None and (grid is None or extent[0] == rect or extent[1] > score):
                lattice, (rect, score, _) = curved, extent
                lattice = self._follow_lens(lattice, rect) or lattice
        if grid is None:
            grown = self._whole_grid(lattice, fam_x, fam_y, rect, score)
            if grown is None:
                return None
            lattice, rect, score = grown
            if self._lines_inside_squares(lattice, rect):
                return None
        if not _plausible_squares(lattice, rect, cfg):
            return None
        return _oriented_fit(lattice, rect, grid, score)

    def _outlined_lattice(self, lattice: _Lattice, fam_x: Segments, fam_y: Segments, grid):
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
        cfg = self.cfg
        pairs = {}
        for fam, axis in ((fam_x, 0), (fam_y, 1)):
            with np.errstate(divide="ignore", invalid="ignore"):
                coords = lattice.lattice_of(np.vstack([fam.p, fam.q]))
            pos = (coords[: len(fam), axis] + coords[len(fam):, axis]) / 2
            ok = np.isfinite(pos)
            pos, weight = pos[ok], fam.weight[ok]
            if len(pos) < cfg.min_family_segments or weight.sum() <= 0:
                return None
            lines, _, mass = line_positions(pos, weight, cfg.outline_line_separation)
            top = lines[np.argsort(-mass)[: cfg.outline_candidates]]
            lo, hi = np.meshgrid(top, top, indexing="ij")
            lo, hi = lo[lo < hi], hi[lo < hi]
            for n in set(grid):
                period = (hi - lo) / n
                t = (pos[None, :] - lo[:, None]) / period[:, None]
                inside = (t > 0.5) & (t < n - 0.5)
                on = np.abs(t - np.round(t)) < cfg.comb_tolerance
                excess = ((on - 2 * cfg.comb_tolerance) * inside) @ weight / weight.sum()
                ranked = [k for k in np.argsort(-excess, kind="stable")[: cfg.outline_pairs]
                          if excess[k] >= cfg.outline_min_excess]
                pairs[axis, n] = [(float(excess[k]), float(lo[k]), float(period[k])) for k in ranked]
        w, h = grid
        options = [((na, nb), pa, pb) for na, nb in {(w, h), (h, w)}
                   for pa in pairs[0, na] for pb in pairs[1, nb]]
        options.sort(key=lambda o: -(o[1][0] + o[2][0]))
        for (na, nb), (_, a0, pa), (_, b0, pb) in options[: cfg.outline_tries]:
            outlined = _Lattice(np.array([[1 / pa, 0, -a0 / pa], [0, 1 / pb, -b0 / pb], [0, 0, 1]]) @ lattice.to_lattice)
            found = self._outline_extent(outlined, fam_x, fam_y, grid, (na, nb))
            if found is not None:
                return found
        return None

    def _outline_extent(self, outlined: _Lattice, fam_x: Segments, fam_y: Segments, grid, size: tuple[int, int]):
        """(lattice, extent) of the grid whose outline is lines 0 and `size` of `outlined`, or None:
        the lattice refined on that rectangle, the extent searched around it; through a strong lens
        the straight outline leaves its own bent border lines (and the colour borders inside) up
        to a fifth of a square off, beyond the ±0.05 square an edge is searched within, so where
        the size is seen with edges up to `lens_reach` off, the rectangle is followed where its
        lines bend and searched again."""
        cfg = self.cfg
        na, nb = size
        for _ in range(2):
            outlined = _refine(outlined, fam_x, fam_y, cfg.lattice_tolerance, (0, na, 0, nb)) or outlined
        around = (-1, na + 1, -1, nb + 1)
        extent = self._extent(outlined, fam_x, fam_y, grid, around=around)
        if extent is not None:
            return outlined, extent
        if not cfg.fit_lens:
            return None
        if self._extent(outlined, fam_x, fam_y, grid, around=around, reach=cfg.lens_reach) is not None:
            bent = self._bent_extent(outlined, (0, na, 0, nb), fam_x, fam_y, grid, around=around)
            if bent is not None:
                return bent
        return self._grown_extent(outlined, fam_x, fam_y, grid, around)   # bent beyond that reach: from its middle out

    def _doubled_extent(self, lattice: _Lattice, fam_x: Segments, fam_y: Segments, grid):
        """(lattice, extent) of the size asked for on the lattice with one family's period doubled (or both),
        at either phase, or None. Squares split in two colours (stripes, quadrants) put a colour border
        half-way across many squares of a board without lines inside: its comb may lock on half the
        period where `_half_period`'s medians cannot tell which lines are the grid's; each doubled
        lattice is refitted on its own lines and judged strictly (the lens paths are not tried on it)."""
        cfg = self.cfg
        for axes in ((0,), (1,), (0, 1)):
            for phases in np.ndindex(*(2,) * len(axes)):
                double = np.eye(3)
                for axis, phase in zip(axes, phases):
                    double[axis, axis], double[axis, 2] = 0.5, -phase / 2
                doubled = _Lattice(double @ lattice.to_lattice)
                for _ in range(2):
                    doubled = _refine(doubled, fam_x, fam_y, cfg.lattice_tolerance, None) or doubled
                extent = self._extent(doubled, fam_x, fam_y, grid)
                if extent is not None:
                    return doubled, extent
        return None

    def _rough_extent(self, lattice: _Lattice, rect: tuple[int, int, int, int], fam_x: Segments, fam_y: Segments,
                      grid) -> tuple[_Lattice, tuple | None]:
        """(lattice, extent) once the rectangle `rect`, seen with edges up to `lens_reach` off the lattice,
        has placed it: the straight lattice refitted on that rectangle alone (a slanted board's
        perspective, fitted on every segment of the photo, can leave its far rows that far off), checked
        strictly; else followed where its lines bend. Extent None when neither shows the size."""
        cfg = self.cfg
        refined = lattice
        for _ in range(2):
            refined = _refine(refined, fam_x, fam_y, cfg.lattice_tolerance, rect) or refined
        extent = self._extent(refined, fam_x, fam_y, grid)
        if extent is not None:
            return refined, extent
        return self._bent_extent(refined, rect, fam_x, fam_y, grid) or (lattice, None)

    def _bent_extent(self, lattice: _Lattice, rect: tuple[int, int, int, int], fam_x: Segments, fam_y: Segments,
                     grid, around: tuple[int, int, int, int] | None = None):
        """(lattice, extent) of the size `grid` once the rectangle `rect` is followed where its lines
        bend (`_follow_lens`), or None when they do not bend or that size is not seen on the result."""
        curved = self._follow_lens(lattice, rect)
        extent = None if curved is None else self._extent(curved, fam_x, fam_y, grid, around=around)
        return None if extent is None else (curved, extent)

    def _grown_extent(self, lattice: _Lattice, fam_x: Segments, fam_y: Segments, grid,
                      around: tuple[int, int, int, int] | None = None):
        """(lattice, extent) of the size `grid` on the lattice grown from its middle (`_grown_lattice`),
        or None when it cannot be grown or that size is not seen on it."""
        grown = self._grown_lattice(lattice, fam_x, fam_y, around)
        extent = None if grown is None else self._extent(grown, fam_x, fam_y, grid, around=around)
        return None if extent is None else (grown, extent)

    def _grown_lattice(self, lattice: _Lattice, fam_x: Segments, fam_y: Segments,
                       around: tuple[int, int, int, int] | None = None) -> _Lattice | None:
        """The lattice refitted from its centre outward, where a straight lattice fitted on the whole photo
        is off by more than a border search reaches: a large board through a strong lens, its squares
        bigger at the middle than at the edges (a comb's one period is then a fraction of a square off at
        both ends). The lines are read (`_line_points`) over a `grow_start` square window around the
        middle of the segments, where the lattice holds; the mapping fitted on them (with a lens where
        they bend) reads them over a window `grow_factor` times wider, and so on until the window spans
        every line the segments show (or the lines `around`, a0, a1, b0, b1, from the window at their
        middle). None when too little is seen: lines found on fewer than `grow_min_seen` of a window's
        reads (an unlined board's colour borders show on a fifth to a third of them, a ruled one's on
        nearly all; no-board photos' clutter on 0.12 at most)."""
        cfg = self.cfg
        if around is None:
            ranges = self._line_ranges(lattice, fam_x, fam_y)
            if ranges is None:
                return None
            (alo, ahi), (blo, bhi) = ranges
            with np.errstate(divide="ignore", invalid="ignore"):
                middle = lattice.lattice_of(np.vstack([(fam_x.p + fam_x.q) / 2, (fam_y.p + fam_y.q) / 2]))
            ca, cb = (int(round(float(np.nanmedian(middle[:, k])))) for k in (0, 1))
        else:
            alo, ahi, blo, bhi = around
            ca, cb = (alo + ahi) // 2, (blo + bhi) // 2
        half = cfg.grow_start / 2
        while True:
            rect = (int(max(alo, ca - half)), int(min(ahi, ca + half)), int(max(blo, cb - half)), int(min(bhi, cb + half)))
            a0, a1, b0, b1 = rect
            if a1 - a0 < 2 or b1 - b0 < 2:
                return None
            evidence = self._line_points(lattice, rect)
            if evidence is not None:   # colour borders inside split squares lie a third or half a square off
                with np.errstate(divide="ignore", invalid="ignore"):
                    at = lattice.lattice_of(evidence.points)[np.arange(len(evidence)), evidence.axis]
                evidence = evidence.subset(np.abs(at - evidence.value) < cfg.grow_tolerance)
            # a window's lines are read every quarter square: a grid shows on a share of those reads
            reads = 4 * ((a1 - a0 + 1) * (b1 - b0) + (b1 - b0 + 1) * (a1 - a0))
            mapping = None if evidence is None or len(evidence) < max(cfg.lens.min_points, cfg.grow_min_seen * reads) \
                else self._refitted(lattice, rect, evidence)
            if mapping is None:
                return None
            lattice = _Lattice.fitted(mapping)
            if rect == (alo, ahi, blo, bhi):
                return lattice
            half *= cfg.grow_factor

    def _follow_lens(self, lattice: _Lattice, rect: tuple[int, int, int, int]) -> _Lattice | None:
        """The lattice refitted with a lens (calibration.lens) on where the photo's lines are, or
        None when they do not bend (or too little is seen). Families, vanishing points and combs
        assume straight lines; here each line is followed where it is (`_line_points`, within the
        rectangle and one line beyond it), so a bent grid keeps its squares out to its edges."""
        cfg = self.cfg
        a0, a1, b0, b1 = rect
        for _ in range(2):   # once more from the lens found: the outer lines are then searched where they are
            evidence = self._line_points(lattice, rect)
            if evidence is None or len(evidence) < cfg.lens.min_points:
                return None if lattice.curved is None else lattice
            if lattice.curved is None:
                # a straight lattice is furthest off a bent grid at its border lines, where the sheet's edge
                # or a frame a margin away can be read instead: the inside lines alone place the lens first
                inside = np.where(evidence.axis == 0, (evidence.value > a0) & (evidence.value < a1),
                                  (evidence.value > b0) & (evidence.value < b1))
                if inside.sum() >= cfg.lens.min_points:
                    evidence = evidence.subset(inside)
            curved = self._refitted(lattice, rect, evidence)
            if curved is None or curved.lens is None:
                return None if lattice.curved is None else lattice
            lattice = _Lattice.fitted(curved)
        return lattice

    def _refitted(self, lattice: _Lattice, rect: tuple[int, int, int, int], evidence: LineEvidence
                  ) -> GridMapping | None:
        """The mapping (lattice units -> working pixels) fitted, from `lattice`, on line points of the
        rectangle's lines: through a lens where they bend (calibration.lens), else plain."""
        a0, a1, b0, b1 = rect
        shift = np.array([[1.0, 0, a0], [0, 1.0, b0], [0, 0, 1]])   # rectangle units -> lattice units
        assert not isinstance(lattice.curved, _ScaledMapping)  # `_measuring`'s lattices are measured, never refitted
        start = (lattice.curved.lens_homography if lattice.curved is not None else lattice.to_image) @ shift
        moved = LineEvidence(evidence.points, evidence.axis, evidence.value - np.where(evidence.axis == 0, a0, b0),
                             evidence.weight)
        fit = fit_mapping(self.gray.shape[::-1], (a1 - a0, b1 - b0), lines=moved, initial=start, config=self.cfg.lens)
        if fit is None or not _well_conditioned(fit.mapping.homography):   # a fit gone degenerate: no lattice
            return None
        return fit.mapping.regridded(np.linalg.inv(shift))

    def _line_points(self, lattice: _Lattice, rect: tuple[int, int, int, int]) -> LineEvidence | None:
        """Where each lattice line of the rectangle is in the working image (`lines_seen`)."""
        if self._clahe_gradients is None:
            self._clahe_gradients = np.ascontiguousarray(self.gradients[..., :2])
        seen = lines_seen(self._clahe_gradients, lattice.image_of, rect, self.cfg.min_edge_contrast)
        return None if seen is None else on_smooth_lines(seen, lattice.lattice_of, self.cfg.line_smooth_tolerance)

    def _whole_grid(self, lattice: _Lattice, fam_x: Segments, fam_y: Segments,
                    rect: tuple[int, int, int, int], score: float):
        """(lattice, rectangle, score) of the whole grid the rectangle belongs to, or None.

        With the size unknown a rectangle may be PART of a bigger board (the lattice range was
        cut short, or its outer rows were weaker than the inner ones): a sub-grid is a wrong
        board, worse than none. Look outward: where the same comb goes on past a border with
        its squares' edges supported, the grid is bigger; search the extent again on a range
        reaching past those borders, refined on the larger grid. A grid still going on after
        `max_growth_rounds` is refused."""
        cfg = self.cfg
        grown = 0
        # also a curved lattice just followed on this rectangle: one more refit from where it now puts the
        # lines reads points its last one missed (skipping it lost two whole boards, 2043 #19 and 2046 #24)
        lattice = self._on_its_lines(lattice, rect) or lattice
        while any(sides := self._continuing_sides(lattice, rect)):
            a0, a1, b0, b1 = rect
            reach_a, reach_b = cfg.max_squares - (a1 - a0), cfg.max_squares - (b1 - b0)
            if grown == cfg.max_growth_rounds or (any(sides[:2]) and reach_a < 1) or (any(sides[2:]) and reach_b < 1):
                return None   # it goes on: part of a bigger grid (or of one bigger than any searched for)
            grown += 1
            around = (a0 - reach_a * sides[0], a1 + reach_a * sides[1], b0 - reach_b * sides[2], b1 + reach_b * sides[3])
            extent = self._extent(lattice, fam_x, fam_y, None, around=around)
            if extent is None:
                return None
            rect, score, _ = extent
            for _ in range(2):
                lattice = _refine(lattice, fam_x, fam_y, cfg.lattice_tolerance, rect) or lattice
            lattice = self._on_its_lines(lattice, rect) or lattice
        return lattice, rect, score

    def _on_its_lines(self, lattice: _Lattice, rect: tuple[int, int, int, int]) -> _Lattice | None:
        """The lattice refitted on where the rectangle's lines are in the photo (`_line_points`): through a
        lens where they bend, else plain; None when too little is seen."""
        evidence = self._line_points(lattice, rect)
        if evidence is None or len(evidence) < self.cfg.lens.min_points:
            return None
        mapping = self._refitted(lattice, rect, evidence)
        return None if mapping is None else _Lattice.fitted(mapping)

    def _lines_inside_squares(self, lattice: _Lattice, rect: tuple[int, int, int, int]) -> bool:
        """Do the rectangle's squares hold the lines of a finer comb (a lattice 2 to
        `max_finer_comb` times too coarse, fitted to the borders of big colour areas)?

        Lines at every k-th of a square, supported across the rectangle like grid lines
        (`finer_comb_support`), mean the squares found are groups of the true ones: a wrong
        board. (A paper grid's squares subdivided here and there stay under that share.) A finer line nearer
        the grid's own lines than the edge measure reads beside them (`_texture_offset`: small squares, a
        big k) would read those lines' edges: that comb is not measured across those lines."""
        cfg = self.cfg
        # a central window is enough: a too coarse comb has the finer lines everywhere
        windows = [_central_window(lo, hi, cfg.finer_comb_window) for lo, hi in (rect[:2], rect[2:])]
        centre = np.array([[(lo + hi) / 2 for lo, hi in windows]])
        with np.errstate(divide="ignore", invalid="ignore"):
            sides = [float(np.linalg.norm(lattice.image_of(centre + np.eye(2)[axis]) - lattice.image_of(centre)))
                     for axis in (0, 1)]   # px per square across the lines of family x, of family y
        nearest = [sides[axis] / _texture_offset(_edge_radius(sides[1 - axis])) for axis in (0, 1)]   # largest k measured
        combs = range(2, cfg.max_finer_comb + 1)
        fractions = np.array(sorted({j / k for k in combs for j in range(k)}))   # 0: the grid's own lines
        t = np.linspace(0.15, 0.85, 7)
        scores = []
        for axis in (0, 1):
            (c0, c1), (e0, e1) = windows[axis], windows[1 - axis]
            across = (np.arange(c0, c1)[:, None] + fractions[None, :]).ravel()
            pos, edge, tt = np.meshgrid(across, np.arange(e0, e1), t, indexing="ij")
            a, b = (pos, edge + tt) if axis == 0 else (edge + tt, pos)
            normalised, plain = self._edge_scores(lattice, a, b, along=(0.0, 1.0) if axis == 0 else (1.0, 0.0))
            scores.append((normalised.reshape(c1 - c0, len(fractions), -1), plain.reshape(c1 - c0, len(fractions), -1)))
        own = np.concatenate([normalised[:, 0].ravel() for normalised, _ in scores])
        if not np.isfinite(own).any():
            return False
        threshold = max(cfg.min_edge_contrast, cfg.relative_edge_contrast * np.nanpercentile(own, 90))
        for k in combs:
            between = (np.abs(fractions * k - np.round(fractions * k)) < 1e-6) & (fractions > 0)   # j / k, j > 0
            for axis, (normalised, plain) in enumerate(scores):
                if not k <= nearest[axis]:   # (nor where the window's squares are not in the photo: NaN)
                    continue
                support = self._supported((normalised[:, between], plain[:, between]), threshold)
                if _supported_share(support.ravel()) >= cfg.finer_comb_support:
                    return True
        return False

    def _continuing_sides(self, lattice: _Lattice, rect: tuple[int, int, int, int], support: float | None = None,
                          as_tiles: bool = False) -> tuple[bool, bool, bool, bool]:
        """For each side of the rectangle (a0, a1, b0, b1): does the grid go on past it?

        It does when the lattice line one step outside is supported along the side AND the
        grid's lines across the strip between them are too (a board's paper margin may show
        an edge near the next line, never the separators of a row of squares), each on `support` of
        their edges (`continuation_support` unless given). A strip outside the photo says nothing.
        `as_tiles`: the separators as tiles show them too (`_border_support`, as the extent search
        judges them): a wide paper gap between two tiles has its tiles' edges outside the ±0.05
        square an edge is searched within. (The next line stays as it is: taken as a tile border,
        up to `border_reach` off, text beside a real sudoku read as a grid going on.)"""
        cfg = self.cfg
        support = cfg.continuation_support if support is None else support
        a0, a1, b0, b1 = rect
        lines = (a0 - 1, a1 + 1, b0 - 1, b1 + 1)
        vert, horiz = self._edge_support(lattice, *lines)
        v_sep, h_sep = self._border_support(lattice, *lines)[4:6] if as_tiles else (vert, horiz)
        # vert[i, j]: line a0-1+i, edge j (b0-1+j .. +1); horiz[i, j]: line b0-1+j, cell a0-1+i;
        # separators: the strip's cells on the inner lines of the other family
        strips = ((vert[0, 1:-1], h_sep[0, 2:-2]), (vert[-1, 1:-1], h_sep[-1, 2:-2]),
                  (horiz[1:-1, 0], v_sep[2:-2, 0]), (horiz[1:-1, -1], v_sep[2:-2, -1]))
        left, right, top, bottom = (_supported_share(line) >= support and _supported_share(across) >= support
                                    for line, across in strips)
        return left, right, top, bottom

    # -- directions and lattice -------------------------------------------------
    def _families(self, segs: Segments, vps: tuple[np.ndarray, np.ndarray]):
        """Segments of the two line families, each consistent with one vanishing point,
        as (family x, family y, vp x, vp y); family x holds the lines of constant grid x."""
        cfg = self.cfg
        vp_tol = np.radians(cfg.vp_tolerance_deg)
        # every segment goes to the vanishing point it fits best (perspective spreads angles)
        err = np.stack([angle_to_point(segs, vp) for vp in vps])
        owner = np.argmin(err, axis=0)
        tol = angle_tolerance(segs, 2 * vp_tol)
        fams = [segs.subset((owner == k) & (err[k] < tol)) for k in range(2)]
        if min(len(f) for f in fams) < cfg.min_family_segments:
            return None
        fams = [fams[0].subset(self._near(fams[0], fams[1])), fams[1].subset(self._near(fams[1], fams[0]))]
        if min(len(f) for f in fams) < cfg.min_family_segments:
            return None
        refined = [vanishing_point(f, vp_tol, self.rng) for f in fams]
        if any(vp is None for vp in refined):
            return None
        # family x: the more vertical one in the image
        if abs(np.sin(np.median(fams[0].angle))) < abs(np.sin(np.median(fams[1].angle))):
            fams.reverse()
            refined.reverse()
        return fams[0], fams[1], refined[0], refined[1]

    def _near(self, fam: Segments, other: Segments) -> np.ndarray:
        """Segments of `fam` lying (for the most part) where the other family has segments too.

        A grid's lines of one direction lie where its lines of the other direction are; a
        table's wood grain or a book's edges parallel to one family, beside the board, do
        not. Without this a grained table adds dozens of "lines" at every spacing and the comb
        locks onto a wrong period."""
        return self._inside(fam, self._region(other))

    _SHRINK = 0.25   # the regions of `_region` are drawn at this share of the working image

    def _region(self, segs: Segments) -> np.ndarray:
        """Where segments are: drawn with the gaps between them closed (up to `cross_family_gap`
        of the photo's long side: a big square's width), widened by `cross_family_reach` (a
        border line, where the other family's lines stop); a mask at `_SHRINK` scale."""
        long_side = max(self.gray.shape)
        shrink = self._SHRINK
        mask = np.zeros((int(self.gray.shape[0] * shrink) + 2, int(self.gray.shape[1] * shrink) + 2), np.uint8)
        ends = np.stack([segs.p, segs.q], axis=1) * shrink
        cv2.polylines(mask, list(np.round(ends).astype(np.int32)), False, 255, 1)

        def disc(diameter: float) -> np.ndarray:   # square: OpenCV erodes and dilates those fast
            size = max(3, int(round(diameter * shrink)) | 1)
            return cv2.getStructuringElement(cv2.MORPH_RECT, (size, size))

        closed = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, disc(self.cfg.cross_family_gap * long_side))
        return cv2.dilate(closed, disc(2 * self.cfg.cross_family_reach * long_side))

    def _inside(self, segs: Segments, mask: np.ndarray) -> np.ndarray:
        """Segments lying inside a `_region` mask for at least half of their length."""
        t = np.linspace(0.0, 1.0, 5)[None, :, None]
        pts = (segs.p[:, None, :] + (segs.q - segs.p)[:, None, :] * t) * self._SHRINK
        xs = np.clip(np.round(pts[..., 0]).astype(int), 0, mask.shape[1] - 1)
        ys = np.clip(np.round(pts[..., 1]).astype(int), 0, mask.shape[0] - 1)
        return (mask[ys, xs] > 0).mean(axis=1) >= 0.5

    def _crossed(self, segs: Segments) -> np.ndarray:
        """How much of each segment (0..1, at five points along it) is crossed by others: there, the weight of segments of another direction
        (`min_pair_angle_deg` away at least) is at least `crossing_share` of that of its own
        direction (a third of that angle either way), within `cross_family_reach` of the long side.
        A grid's two families are as dense as each other where it is; a table's grain, a cloth's
        weave or a sheet's shading beside the board have one direction."""
        cfg = self.cfg
        step = cfg.min_pair_angle_deg / 3
        bins = int(np.ceil(180 / step))
        which = (np.degrees(segs.angle) // step).astype(int) % bins
        shrink = self._SHRINK
        shape = (int(self.gray.shape[0] * shrink) + 2, int(self.gray.shape[1] * shrink) + 2)
        box = max(3, int(round(2 * cfg.cross_family_reach * max(self.gray.shape) * shrink)) | 1)
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
        other = np.where(apart > cfg.min_pair_angle_deg, around, 0.0).sum(axis=0)
        return (other >= cfg.crossing_share * own).mean(axis=1)

    def _initial_lattice(self, fam_x: Segments, fam_y: Segments, vp_x: np.ndarray,
                         vp_y: np.ndarray) -> tuple[_Lattice | None, float]:
        """Spacing and phase of each family after rectification -> (image-to-lattice map,
        lattice lines explained in the poorer family: how much grid this hypothesis sees)."""
        cfg = self.cfg
        rect = rectifying_transform(vp_y, vp_x)   # family y -> horizontal, family x -> vertical
        if rect is None:
            return None, 0.0
        axes, strengths = [], []
        for fam, axis in ((fam_x, 0), (fam_y, 1)):
            ends = apply_h(rect, np.vstack([fam.p, fam.q]))
            pos = (ends[: len(fam), axis] + ends[len(fam):, axis]) / 2
            if not np.all(np.isfinite(pos)):
                return None, 0.0
            lo, hi = _weighted_percentiles(pos, fam.weight, (5, 95))   # soft clutter spreads wider
            spread = hi - lo
            if spread <= 0:
                return None, 0.0
            p_min = spread / (cfg.max_squares * 1.2)
            near = (pos > lo - spread) & (pos < hi + spread)   # far outliers (near the horizon) say nothing
            lines, line_strength, line_mass = line_positions(pos[near], fam.weight[near], 0.35 * p_min)
            period, phase, quality, explained = fit_comb(lines, line_strength, p_min, spread * 0.6, tol=cfg.comb_tolerance,
                                                         rank=line_mass)
            if quality < cfg.min_periodicity:
                return None, 0.0
            axes.append((period, phase))
            strengths.append(explained)
        (px, fx), (py, fy) = axes
        to_lattice = np.array([[1 / px, 0, -fx / px], [0, 1 / py, -fy / py], [0, 0, 1]]) @ rect
        return _Lattice(to_lattice), min(strengths)

    # -- extent ----------------------------------------------------------------
    def _extent(self, lattice: _Lattice, fam_x: Segments, fam_y: Segments, grid,
                around: tuple[int, int, int, int] | None = None, reach: float = 0.0):
        """Rectangle of lattice lines (a0, a1, b0, b1) bounding the grid, its score, and a
        lattice-to-lattice map doubling the period when every other line is only a subdivision.

        The lines searched span the family's segments, or `around` (a0, a1, b0, b1) when given;
        `reach`: an edge counts where it lies up to that many squares off its line (`_edge_support`)."""
        cfg = self.cfg
        ranges = self._line_ranges(lattice, fam_x, fam_y) if around is None else \
            [(around[0], around[1]), (around[2], around[3])]
        if ranges is None:
            return None
        (alo, ahi), (blo, bhi) = ranges
        vert, horiz = self._edge_support(lattice, alo, ahi, blo, bhi, reach)
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
        in_photo = self._edges_in_photo(lattice, alo, alo + vert.shape[0] - 1, blo, blo + horiz.shape[1] - 1) \
            if grid is None else None

        def border():   # size given, asked only when the best rectangle's borders are not supported
            support = self._border_support(lattice, *ranges[0], *ranges[1])
            crop_v, crop_h = np.s_[i_lo:i_hi + 1, j_lo:j_hi], np.s_[i_lo:i_hi, j_lo:j_hi + 1]
            v_lo, v_hi, h_lo, h_hi, v_gap, h_gap, v_blank, h_blank = support
            return (v_lo[crop_v], v_hi[crop_v], h_lo[crop_h], h_hi[crop_h], v_gap[crop_v], h_gap[crop_h],
                    v_blank[crop_v], h_blank[crop_h])

        best = _best_rectangle(vert, horiz, grid, cfg, in_photo, border if grid is not None else None)
        if best is None:
            return None
        (i0, i1, j0, j1), score = best
        rect = (alo + i0, alo + i1, blo + j0, blo + j1)
        return rect, score, _coarser_lattice(vert[i0:i1 + 1, j0:j1], horiz[i0:i1, j0:j1 + 1].T, rect, self.cfg)

    def _line_ranges(self, lattice: _Lattice, fam_x: Segments, fam_y: Segments) -> list[tuple[int, int]] | None:
        """The lattice lines (lo, hi) each family's segments span, at most `max_squares` + 6 of them
        (around their median), or None when a family has fewer than two segment ends on a line."""
        cfg = self.cfg
        ranges = []
        for fam, axis in ((fam_x, 0), (fam_y, 1)):
            coords = lattice.lattice_of(np.vstack([fam.p, fam.q]))
            on = np.abs(coords[:, axis] - np.round(coords[:, axis])) < cfg.lattice_tolerance
            if on.sum() < 2:
                return None
            vals = coords[on, axis]
            lo, hi = np.floor(np.percentile(vals, 1)) - 1, np.ceil(np.percentile(vals, 99)) + 1
            if hi - lo > cfg.max_squares + 6:
                centre = np.round(np.median(vals))
                lo, hi = centre - (cfg.max_squares // 2 + 3), centre + (cfg.max_squares // 2 + 3)
            ranges.append((int(lo), int(hi)))
        return ranges

    def _half_period(self, lattice: _Lattice, fam_x: Segments, fam_y: Segments) -> np.ndarray | None:
        """Map (3x3, lattice -> lattice) doubling the period of each family whose every other line
        is far less supported than the lines between (medians: under `half_period_ratio` of them,
        over the whole range its segments span), or None. On a board without lines inside, only colour
        borders show where squares meet, and ruler ticks at half squares can lock the comb on
        half the period: its odd lines are then ticks and stray edges, its even ones the grid's."""
        cfg = self.cfg
        ranges = self._line_ranges(lattice, fam_x, fam_y)
        if ranges is None:
            return None
        (alo, ahi), (blo, bhi) = ranges
        vert, horiz = self._edge_support(lattice, alo, ahi, blo, bhi)
        result = np.eye(3)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            for per_line, axis, first in ((np.nanmean(vert, axis=1), 0, alo), (np.nanmean(horiz, axis=0), 1, blo)):
                if np.isfinite(per_line).sum() < 6:
                    continue
                even, odd = np.nanmedian(per_line[0::2]), np.nanmedian(per_line[1::2])   # (a frame's lines aside)
                strong, weak = (0, odd) if even >= odd else (1, even)
                if max(even, odd) >= cfg.half_period_min_support and weak < cfg.half_period_ratio * max(even, odd):
                    result[axis, axis] = 0.5
                    result[axis, 2] = -(first + strong) / 2
        return None if np.array_equal(result, np.eye(3)) else result

    def _edges_in_photo(self, lattice: _Lattice, alo: int, ahi: int, blo: int, bhi: int
                        ) -> tuple[np.ndarray, np.ndarray]:
        """Like `_edge_support`'s arrays: 1 where the edge's middle lies in the working image."""
        hgt, wid = self.gray.shape

        def inside(a: np.ndarray, b: np.ndarray) -> np.ndarray:
            with np.errstate(divide="ignore", invalid="ignore"):
                p = lattice.image_of(np.stack([a.ravel(), b.ravel()], axis=1))
            ok = (p[:, 0] >= 0) & (p[:, 0] < wid) & (p[:, 1] >= 0) & (p[:, 1] < hgt)
            return ok.reshape(a.shape).astype(float)

        va, vb = np.meshgrid(np.arange(alo, ahi + 1), np.arange(blo, bhi) + 0.5, indexing="ij")
        ha, hb = np.meshgrid(np.arange(alo, ahi) + 0.5, np.arange(blo, bhi + 1), indexing="ij")
        return inside(va, vb), inside(ha, hb)

    def _edge_support(self, lattice: _Lattice, alo: int, ahi: int, blo: int, bhi: int, reach: float = 0.0):
        """Per lattice edge: +1 supported, 0 not supported, NaN outside the image.

        vert[i, j]: edge on line a = alo + i between b = blo + j and blo + j + 1;
        horiz[i, j]: edge on line b = blo + j between a = alo + i and alo + i + 1.
        `reach`: an edge found on a parallel up to that many squares either side counts too."""
        v_scores, h_scores = self._line_scores(lattice, alo, ahi, blo, bhi)
        threshold = self._threshold(v_scores, h_scores)
        if threshold is None:
            return v_scores[0], h_scores[0]
        vert, horiz = self._supported(v_scores, threshold), self._supported(h_scores, threshold)
        shifts = np.arange(self.cfg.lens_step, reach + 1e-9, self.cfg.lens_step)
        return self._shifted_support(lattice, (alo, ahi, blo, bhi), threshold, np.concatenate([shifts, -shifts]),
                                     vert, horiz)

    def _shifted_support(self, lattice: _Lattice, lines: tuple[int, int, int, int], threshold: float,
                         shifts: np.ndarray, vert: np.ndarray, horiz: np.ndarray):
        """`vert`, `horiz` (support of lines alo..ahi, blo..bhi) where each edge also counts when found on
        its line moved by one of `shifts` (squares across)."""
        for d in shifts:
            v, h = self._line_scores(lattice, *lines, shift=d)
            vert, horiz = np.fmax(vert, self._supported(v, threshold)), np.fmax(horiz, self._supported(h, threshold))
        return vert, horiz

    def _border_support(self, lattice: _Lattice, alo: int, ahi: int, blo: int, bhi: int):
        """`_edge_support` for lines taken as a border: (vert low, vert high, horiz low, horiz high),
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
        be seen whether it is there or not."""
        cfg = self.cfg
        v_scores, h_scores = self._line_scores(lattice, alo, ahi, blo, bhi, raw=True)
        threshold = self._threshold(v_scores, h_scores)
        if threshold is None:
            nothing = (v_scores[0], h_scores[0])
            return nothing * 3 + (np.zeros(v_scores[0].shape, bool), np.zeros(h_scores[0].shape, bool))
        on = (self._supported(v_scores, threshold), self._supported(h_scores, threshold))
        low, high, gap = on, on, on
        blank = (v_scores[2] < cfg.min_plain_contrast, h_scores[2] < cfg.min_plain_contrast)
        for d in np.arange(cfg.border_step, cfg.border_reach + 1e-9, cfg.border_step):
            inward, outward = (self._line_scores(lattice, alo, ahi, blo, bhi, shift=shift, raw=True) for shift in (d, -d))
            up = [self._supported(scores, threshold) for scores in inward]
            down = [self._supported(scores, threshold) for scores in outward]
            low = tuple(np.fmax(m, u) for m, u in zip(low, up))
            high = tuple(np.fmax(m, u) for m, u in zip(high, down))
            gap = tuple(np.fmax(m, np.minimum(u, w)) for m, u, w in zip(gap, up, down))   # both tiles' edges
            blank = tuple(b & (i[2] < cfg.min_plain_contrast) & (o[2] < cfg.min_plain_contrast)
                          for b, i, o in zip(blank, inward, outward))
        return low[0], high[0], low[1], high[1], gap[0], gap[1], blank[0], blank[1]

    def _line_scores(self, lattice: _Lattice, alo: int, ahi: int, blo: int, bhi: int, shift: float = 0.0,
                     raw: bool = False):
        """`_edge_scores` of every edge of lines alo..ahi, blo..bhi (moved by `shift` square across)."""
        a_lines, b_lines = np.arange(alo, ahi + 1), np.arange(blo, bhi + 1)
        t = np.linspace(0.15, 0.85, 7)
        # vertical edges: points (a, b + t)
        va, vb, vt = np.meshgrid(a_lines, b_lines[:-1], t, indexing="ij")
        ha, hb, ht = np.meshgrid(a_lines[:-1], b_lines, t, indexing="ij")
        return (self._edge_scores(lattice, va + shift, vb + vt, along=(0.0, 1.0), raw=raw),
                self._edge_scores(lattice, ha + ht, hb + shift, along=(1.0, 0.0), raw=raw))

    def _threshold(self, v_scores, h_scores) -> float | None:
        """The contrast an edge needs to count as a line: absolute, and relative to the strong ones."""
        cfg = self.cfg
        finite = np.concatenate([v_scores[0][np.isfinite(v_scores[0])], h_scores[0][np.isfinite(h_scores[0])]])
        if finite.size == 0:
            return None
        return max(cfg.min_edge_contrast, cfg.relative_edge_contrast * np.percentile(finite, 90))

    def _supported(self, scores: tuple[np.ndarray, np.ndarray], threshold: float) -> np.ndarray:
        """+1 where an edge's (CLAHE, plain) contrasts make it a line, 0 where not, NaN unknown."""
        normalised, plain = scores[:2]
        strong = (normalised >= threshold) & (plain >= self.cfg.min_plain_contrast)
        return np.where(np.isfinite(normalised), strong.astype(float), np.nan)

    def _edge_scores(self, lattice: _Lattice, a: np.ndarray, b: np.ndarray, along: tuple[float, float],
                     raw: bool = False) -> list[np.ndarray]:
        """Median contrast of the edge at lattice points (..., samples): gradient across the
        edge near the line minus the gradient a little further away (texture is not a line), in the
        CLAHE image and in the plain one, each the greater of its own and the colour's (`chroma`); `raw`:
        also the plain photo's strongest grey gradient across, near the line or further (median along
        the edge: under the plain floor, the photo is blank — a tile's white on the paper's own white
        may differ a little in colour, not enough to be seen as an edge)."""
        shape = a.shape
        pts = np.stack([a.ravel(), b.ravel()], axis=1)
        da = np.array(along) * 0.05
        p0, p1, pc = lattice.image_of(pts - da), lattice.image_of(pts + da), lattice.image_of(pts)
        tangent = p1 - p0
        seg_px = np.linalg.norm(tangent, axis=1) / 0.1     # image px per square along the edge
        normal = np.stack([-tangent[:, 1], tangent[:, 0]], axis=1) / np.maximum(np.linalg.norm(tangent, axis=1), 1e-9)[:, None]
        r = _edge_radius(seg_px)[:, None]
        on_off = np.concatenate([np.linspace(-1, 1, 5)[None, :] * r, -_texture_offset(r), _texture_offset(r)], axis=1)
        xs = pc[:, 0:1] + on_off * normal[:, 0:1]
        ys = pc[:, 1:2] + on_off * normal[:, 1:2]
        grads = sample(self.gradients, xs, ys)
        hgt, wid = self.gray.shape
        inside = (pc[:, 0] >= 2) & (pc[:, 0] < wid - 2) & (pc[:, 1] >= 2) & (pc[:, 1] < hgt - 2)

        def across(g: np.ndarray) -> np.ndarray:   # gradient across the edge: one (x, y) pair of channels, or two
            first = g[..., 0] * normal[:, 0:1] + g[..., 1] * normal[:, 1:2]
            return np.abs(first) if g.shape[-1] == 2 else np.hypot(first, g[..., 2] * normal[:, 0:1] + g[..., 3] * normal[:, 1:2])

        clahe, plain = across(grads[..., 0:2]), across(grads[..., 2:4])
        if self.colour_gradients is not None:
            # a colour edge counts as an edge of either grey: a grey line between squares of
            # its own brightness (green, red) shows only in colour
            colour = across(sample(self.colour_gradients, xs, ys))
            contrasts = [np.fmax(_line_contrast(g), _line_contrast(colour)) for g in (clahe, plain)]
        else:
            contrasts = [_line_contrast(clahe), _line_contrast(plain)]
        medians = []
        for contrast in contrasts:
            contrast = np.where(inside & np.isfinite(contrast), contrast, np.nan).reshape(shape)
            known = np.isfinite(contrast).mean(axis=-1) >= 0.6
            medians.append(np.where(known, _nanmedian_last(contrast), np.nan))
        if raw:
            strongest = np.where(inside & np.isfinite(plain).all(axis=1), plain.max(axis=1), np.nan).reshape(shape)
            medians.append(np.where(known, _nanmedian_last(strongest), np.nan))
        return medians


def _edge_radius(seg_px: np.ndarray | float) -> np.ndarray:
    """How far (px) either side of a lattice line `_edge_scores` looks for its edge, for squares `seg_px` long
    along it: a twentieth of a square, 1 to 4 px."""
    return np.clip(0.05 * np.asarray(seg_px, float), 1.0, 4.0)


def _texture_offset(radius: np.ndarray) -> np.ndarray:
    """Where (px either side) `_edge_scores` reads the texture beside an edge looked for within `radius`."""
    return 2 * radius + 2


def _line_contrast(across: np.ndarray) -> np.ndarray:
    """Per point: the strongest gradient near the line (the first 5 samples) minus the mean of the
    two a little further away (texture is not a line)."""
    return across[:, :5].max(axis=1) - across[:, 5:].mean(axis=1)


def _nanmedian_last(values: np.ndarray) -> np.ndarray:
    """Median over the last axis ignoring NaN (NaN where all are): np.nanmedian goes through
    masked arrays, ~1 ms per call on the few thousand short rows of an edge measurement."""
    ordered = np.sort(values, axis=-1)   # NaN sorts last
    count = np.isfinite(values).sum(axis=-1)
    low = np.take_along_axis(ordered, np.maximum(count - 1, 0)[..., None] // 2, axis=-1)[..., 0]
    high = np.take_along_axis(ordered, (count // 2)[..., None], axis=-1)[..., 0]
    return np.where(count > 0, (low + high) / 2, np.nan)


def _past_unknown(unknown: np.ndarray, lo: int, hi: int) -> tuple[int, int]:
    """The index range lo..hi widened over the lines just beyond it that are `unknown` (outside the photo)."""
    while lo > 0 and unknown[lo - 1]:
        lo -= 1
    while hi < len(unknown) - 1 and unknown[hi + 1]:
        hi += 1
    return lo, hi


def _central_window(lo: int, hi: int, size: int) -> tuple[int, int]:
    """The `size` lines-wide middle of the range lo..hi (all of it when smaller)."""
    start = lo + max(0, (hi - lo - size) // 2)
    return start, min(hi, start + size)


def _supported_share(support: np.ndarray) -> float:
    """Share of supported edges among those measured; 0 when fewer than half were measured
    (outside the photo: no evidence either way)."""
    known = np.isfinite(support)
    if support.size == 0 or known.mean() < 0.5:
        return 0.0
    return float(support[known].mean())


def _weighted_percentiles(values: np.ndarray, weights: np.ndarray, percents: tuple[float, ...]) -> np.ndarray:
    """Percentiles of `values` where each counts with its weight."""
    order = np.argsort(values)
    cum = np.cumsum(weights[order])
    if cum[-1] <= 0:
        return np.percentile(values, percents)
    return values[order][np.searchsorted(cum, np.array(percents) / 100 * cum[-1]).clip(0, len(values) - 1)]


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
        if max(even, odd) >= cfg.subdivision_strong and weak < cfg.subdivision_weak:
            result[axis, axis] = 0.5
            result[axis, 2] = -(first + strong) / 2
    return None if np.array_equal(result, np.eye(3)) else result


def _refine(lattice: _Lattice, fam_x: Segments, fam_y: Segments, tol: float,
            extent: tuple[int, int, int, int] | None) -> _Lattice | None:
    """Refit the image-to-lattice map on segment endpoints lying on lattice lines.

    An endpoint e on line a = k says (g1 . e) - k (g3 . e) = 0: linear in the map G,
    so all incidences are solved at once (normalised DLT), then reweighted. A lattice that
    follows a lens is refitted by `_follow_lens` instead (None here: no change)."""
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
    norm_img = _normaliser(pts)
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
        if not _well_conditioned(result):
            return None
        coords = apply_h(result, pts)
        resid = np.abs(coords[np.arange(len(pts)), axes] - ks)
        w = np.concatenate(weights) * (resid < tol * 0.75)
        if w.sum() == 0:
            return None
    return _Lattice(result)


def _well_conditioned(h: np.ndarray) -> bool:
    """Is this 3x3 map finite and safely invertible (a lattice both ways)?"""
    return bool(np.all(np.isfinite(h)) and np.linalg.cond(h) <= 1e12)


def _normaliser(pts: np.ndarray) -> np.ndarray:
    """Hartley normalisation: centre the points, mean distance sqrt(2)."""
    c = pts.mean(axis=0)
    s = np.sqrt(2) / max(np.mean(np.linalg.norm(pts - c, axis=1)), 1e-9)
    return np.array([[s, 0, -s * c[0]], [0, s, -s * c[1]], [0, 0, 1]])


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
    `_border_support`'s arrays (same shapes), tried on the rectangles better than the first whose
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

    pv = prefix(np.where(known_v, sup_v - cfg.empty_edge_cost, 0.0))
    ph = prefix(np.where(known_h, sup_h - cfg.empty_edge_cost, 0.0).T)
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
        keep = known >= cfg.min_known_edges
        values.append((inside(pv, i0, i1, j0, j1) + inside(ph, j0, j1, i0, i1))[keep])
        rects.append(np.stack([i0, i1, j0, j1], axis=1)[keep])
    if not values:
        return None
    objective, candidates = np.concatenate(values), np.concatenate(rects)
    # 2. the borders, best objective first, in batches: the best rectangles nearly always pass
    ordered = candidates[np.argsort(-objective, kind="stable")]
    first = _first_bordered(ordered, None, (sv, kv, sh, kh), inside, cfg, framed)
    ssv, skv, ssh, skh = sv, kv, sh, kh   # what the confidence is measured on
    if border is not None and first != 0:
        # none passed, or not the best one: a border's edge may lie a little inside its line, and the
        # separators be tiles' (`_Finder._border_support`); a better rectangle passing so wins
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
    weakest = np.where(s >= cfg.outline_inside * np.maximum(k, 1), weakest, 0.0)
    best = int(np.argmax(weakest))
    if weakest[best] < max(cfg.outline_support, cfg.min_score):   # the finder's confidence floor holds here too
        return None
    return tuple(int(v) for v in rects[best]), float(weakest[best])


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
    (`_border_support`, tiles: a border's edge a little inside it, a separator seen as a paper gap; a
    blank edge is not seen, and a border or outer row in the photo must show some of its own)."""
    sv, kv, sh, kh = sums
    i0, i1, j0, j1 = rects.T
    ok = np.ones(len(rects), bool)
    borders = on_lines or ((sv, kv, kv), (sv, kv, kv), (sh, kh, kh), (sh, kh, kh))
    for (p_s, p_k, p_m), line, lo, hi in zip(borders, (i0, i1, j0, j1), (j0, j0, i0, i0), (j1, j1, i1, i1)):
        s, k, m = (inside(p, line, line, lo, hi) for p in (p_s, p_k, p_m))
        ok &= (m == 0) | ((k > 0) & (s >= cfg.min_border_support * k))
    if framed is not None:
        fv, fh = framed
        for p_f, line, lo, hi in ((fv, i0, j0, j1), (fv, i1, j0, j1), (fh, j0, i0, i1), (fh, j1, i0, i1)):
            ok &= inside(p_f, line, line, lo, hi) >= 0.5 * (hi - lo)
    (gv, sep_v, photo_v), (gh, sep_h, photo_h) = separators or ((sv, kv, kv), (sh, kh, kh))
    end = 0 if separators is None else 1   # tiles: the inner lines only (a tile's border is not on its line)
    for p_s, p_k, p_m, lo, hi, cell in ((gv, sep_v, photo_v, i0, i1, j0), (gv, sep_v, photo_v, i0, i1, j1 - 1),
                                        (gh, sep_h, photo_h, j0, j1, i0), (gh, sep_h, photo_h, j0, j1, i1 - 1)):
        s, k, m = (inside(p, lo + end, hi - end, cell, cell + 1) for p in (p_s, p_k, p_m))
        ok &= (m == 0) | ((k > 0) & (s >= cfg.min_separator_support * k))
    return ok


def _plausible_squares(lattice: _Lattice, rect: tuple[int, int, int, int], cfg: GridFinderConfig) -> bool:
    """Every square of the rectangle seen as a convex quadrilateral, sides at least
    `min_square_side_px` long and no side under `min_square_aspect` of the other: a printed
    square photographed at up to ~60 degrees of tilt. A lattice squashed to a sliver (table
    grain fitted by a degenerate map) is not a board."""
    a0, a1, b0, b1 = rect
    ga, gb = np.meshgrid(np.arange(a0, a1 + 1, dtype=float), np.arange(b0, b1 + 1, dtype=float), indexing="ij")
    with np.errstate(divide="ignore", invalid="ignore"):   # points on the horizon: not finite, refused below
        pts = lattice.image_of(np.stack([ga.ravel(), gb.ravel()], axis=1)).reshape(*ga.shape, 2)
    if not np.all(np.isfinite(pts)):
        return False
    along_a = np.linalg.norm(np.diff(pts, axis=0), axis=-1)   # sides across the a lines
    along_b = np.linalg.norm(np.diff(pts, axis=1), axis=-1)
    if min(along_a.min(), along_b.min()) < cfg.min_square_side_px:
        return False
    side_a = np.minimum(along_a[:, :-1], along_a[:, 1:])
    side_b = np.minimum(along_b[:-1, :], along_b[1:, :])
    ratio = np.minimum(side_a, side_b) / np.maximum(np.maximum(along_a[:, :-1], along_a[:, 1:]),
                                                    np.maximum(along_b[:-1, :], along_b[1:, :]))
    if ratio.min() < cfg.min_square_aspect:
        return False
    # convex and consistently oriented: the cross products at every corner share one sign
    u, v = pts[1:, :-1] - pts[:-1, :-1], pts[:-1, 1:] - pts[:-1, :-1]
    u2, v2 = pts[:-1, 1:] - pts[1:, 1:], pts[1:, :-1] - pts[1:, 1:]
    turn = np.concatenate([(u[..., 0] * v[..., 1] - u[..., 1] * v[..., 0]).ravel(),
                           (u2[..., 0] * v2[..., 1] - u2[..., 1] * v2[..., 0]).ravel()])
    return bool(np.all(turn > 0) or np.all(turn < 0))


def _oriented_fit(lattice: _Lattice, extent: tuple[int, int, int, int], grid, score: float) -> GridFit | None:
    """GridFit of the rectangle, with corners in clockwise image order and the
    rotation whose x axis is closest to the image's +x among those of the right size."""
    a0, a1, b0, b1 = extent
    lat_corners = np.array([[a0, b0], [a1, b0], [a1, b1], [a0, b1]], dtype=float)
    img = lattice.image_of(lat_corners)
    if not np.all(np.isfinite(img)):
        return None
    centre = img.mean(axis=0)
    order = np.argsort(np.arctan2(img[:, 1] - centre[1], img[:, 0] - centre[0]))  # clockwise on screen
    lat_sorted, img_sorted = lat_corners[order], img[order]
    best = None
    for start in range(4):
        idx = [(start + k) % 4 for k in range(4)]
        tl, tr, br = lat_sorted[idx[0]], lat_sorted[idx[1]], lat_sorted[idx[2]]
        width = int(round(np.abs(tr - tl).sum()))
        height = int(round(np.abs(br - tr).sum()))
        if grid is not None and (width, height) != tuple(grid):
            continue
        x_axis = img_sorted[idx[1]] - img_sorted[idx[0]]
        upright = x_axis[0] / (np.linalg.norm(x_axis) + 1e-12)
        if best is None or upright > best[0]:
            best = (upright, idx, width, height)
    if best is None:
        return None
    _, idx, width, height = best
    src = np.array([[0, 0], [width, 0], [width, height], [0, height]], dtype=np.float64)
    grid_to_lat = cv2.getPerspectiveTransform(src.astype(np.float32), lat_sorted[idx].astype(np.float32)).astype(np.float64)
    assert not isinstance(lattice.curved, _ScaledMapping)  # `_measuring`'s lattices are measured, never made a fit
    if lattice.curved is not None:
        mapping = lattice.curved.regridded(grid_to_lat)
    else:
        h = lattice.to_image @ grid_to_lat
        mapping = GridMapping(h / h[2, 2])
    return GridFit(mapping, width, height, float(np.clip(score, 0.0, 1.0)))

