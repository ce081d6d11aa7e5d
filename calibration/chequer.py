"""Chequered boards (a chessboard, a ChArUco board): OpenCV's `findChessboardCornersSB`, then grown.

A chequer without ink lines is exactly what OpenCV's sector-based corner finder is made for: it
finds the inner corners (where four squares meet, two dark and two light) to a fraction of a
pixel, in 30–60 ms on a 640×480 photo, with a lens bending the board or not (it works locally).
What it does not do is say how big a board is: asked for more corners than show it fails, and its
"larger" mode stops early on some photos. So here:

1. on a reduced copy of the photo (squares of `min_square_px` or more: SB is slow and no more
   accurate on large squares), the inner corners of the requested size: OpenCV's classic quad-based
   finder first (a few ms), kept when its lattice is smooth, else SB — or, size unknown or not all
   visible, SB for any chequer of 3×3 corners or more (`CALIB_CB_LARGER`). Size given and SB blind
   on that copy, a copy for a smaller board is tried next, after the "larger" mode on the first
   copy: the cheaper try first, and when it grows the whole board asked the larger copy is not needed;
2. the corners are refined on the full photo (`cornerSubPix`) and the lattice is **grown**: each
   missing neighbour of the corners found is predicted by a homography of its nearest known
   corners (local: a lens bends the board, not a neighbourhood of it), refined, and kept when it
   is a saddle of the right parity — each of its four quadrants differs from the two beside it
   by a good part of the board's own contrast. A board's border, a hinge, the paper around it:
   no saddle, growth stops;
3. the squares are the corners' rectangle plus one ring (a saddle needs its four squares). The ring
   has no saddles, but its outline has corners: each point of it is the corner of a dark ring square
   against the light squares and the margin (an "L" corner), measured where the inner corners nearest it
   predict it (`_Outline.measured`); the mapping (homography and lens) is fitted on every corner, inner
   and outline (`calibration.lens`), so the outer ring is measured, not extrapolated (issue 28: a GoPro's
   fisheye filling the frame, its k1, k2 from the inner corners alone half a square off at the outline).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import cv2
import numpy as np

from calibration.config import ChequerConfig
from calibration.lens import fit_mapping
from calibration.mapping import GridMapping, from_resized


class ChequerBeyondLens(Exception):
    """SB found (or grew) the whole chequer of the size asked, and no lens model we fit follows it out to its outline
    (`_Outline.disagreement`, a fisheye filling the frame, issue 28): the board is there and cannot be placed.
    The line finder fits the same lens model, so it could only place it as wrong, after 1–2 s: the search
    stops here and says why."""

    def __init__(self, disagreement: float):
        super().__init__(f"a chequer of the size asked is in the photo, but no lens model follows it out to its "
                         f"edge (its outline drawn {disagreement:.2f} square from where the photo shows it): "
                         f"a fisheye too strong to place it")
        self.disagreement = disagreement


@dataclass(frozen=True)
class ChequerFit:
    """Inner corners of a chequer: `corners[j, i]` photo pixels of the corner between squares
    (i, j), (i + 1, j), (i, j + 1), (i + 1, j + 1), NaN where not seen; squares = corners + 1."""

    corners: np.ndarray
    mapping: GridMapping     # grid units of the squares (corner (i, j) at grid point (i + 1, j + 1))

    @property
    def squares(self) -> tuple[int, int]:
        return self.corners.shape[1] + 1, self.corners.shape[0] + 1


def find_chequer(image: np.ndarray, grid: tuple[int, int] | None = None, *,
                 config: ChequerConfig | None = None, exact: bool = True, larger: bool = True) -> ChequerFit | None:
    """The chequered board in a photo (module docstring), or None when neither finder sees a chequer.

    `grid` (w, h): squares asked for, either orientation — the fit may still be smaller (a board
    running out of the frame) or larger; the caller decides. `exact`: the classic finder, then SB, at
    that size first;
    `larger`: SB's "larger" mode, grown (the size unknown, or not all of the board in view). Grid
    units of the fit: corner rows/columns as SB ordered them (not yet turned upright). Raises
    `ChequerBeyondLens` when the whole chequer asked for was found and its lens cannot be followed."""
    cfg = config or ChequerConfig()
    gray = image if image.ndim == 2 else cv2.cvtColor(image[:, :, :3], cv2.COLOR_BGR2GRAY)
    scale = _working_scale(gray.shape, grid, cfg)
    small = _reduced(gray, scale)
    corners, whole, grown_from = None, False, {}
    if grid is not None and exact and min(grid) >= 3:   # a whole chequer of the size asked for: the classic finder,
        # then SB; each succeeds only on a whole chequer of that size lying either way (asked w×h corners, they find
        # an h×w board as well: both ways gave the same answer on every real photo of the benches, so the other way
        # round would only double a failure's cost)
        pattern = (grid[0] - 1, grid[1] - 1)
        for at in dict.fromkeys(min(1.0, factor * scale) for factor in cfg.classic_copies) if cfg.classic_first else ():
            corners = _classic_corners(gray, small if at == scale else _reduced(gray, at), at, pattern, cfg)
            if corners is not None:
                break
        if corners is None:
            found, found_at = _sb(small, pattern, 0, cfg.sb_margin_px), scale
            retry = _smaller_board_scale(gray.shape, grid, scale, cfg) if found is None else None
            if retry is not None and larger:   # the "larger" mode on this copy first (~10 ms, where SB on the larger
                # copy takes 30-130): a chequer it grows to the whole size asked needs no larger copy (a small board
                # whose squares SB's exact mode misses on this copy: GoPro 0068 at 360×270, squares of 5-10 px, #28)
                start, seed = cfg.larger_starts[0]
                grown_from[start, seed] = _larger_grown(gray, small, scale, start, seed, cfg)
                early = grown_from[start, seed][1]
                if early is not None and _is_whole(early, pattern):
                    corners, whole = early, True   # the whole chequer asked, as the exact mode would have found it
            if retry is not None and corners is None:   # a board smaller in the photo than assumed: its squares
                # were too small there (a small board: far from the frame's edge, no margin needed)
                found, found_at = _sb(_reduced(gray, retry), pattern, 0), retry
            if found is not None:
                corners, whole = _refined(gray, from_resized(found, found_at)), True
        else:
            whole = True
    if corners is None and larger:   # any chequer, grown from what SB's "larger" mode gives
        for start, seed in cfg.larger_starts[:1] if grid is not None else cfg.larger_starts:
            any_chequer, grown = grown_from.get((start, seed)) or _larger_grown(gray, small, scale, start, seed, cfg)
            if not any_chequer and start <= cfg.min_corners:
                break   # not even the smallest chequer: there is none
            if grown is not None:
                corners = grown   # the first seed that alternates like a chequer: grown to its board
                break
    if corners is None or min(corners.shape[:2]) < cfg.min_corners:
        return None
    rows, cols = corners.shape[:2]
    seen = np.isfinite(corners[..., 0])
    ji = np.argwhere(seen)
    grid_points = np.stack([ji[:, 1] + 1.0, ji[:, 0] + 1.0], axis=1)
    outline = _Outline.of(corners)
    measured = outline.measured(gray, cfg)
    on_outline = np.isfinite(measured[:, 0])
    fit = fit_mapping((gray.shape[1], gray.shape[0]), (cols + 1, rows + 1),
                      np.concatenate([grid_points, outline.points[on_outline]]),
                      np.concatenate([corners[seen], measured[on_outline]]), whole_photo=False)
    if fit is None:
        return None
    disagreement = outline.disagreement(fit.mapping, measured)
    if disagreement > cfg.max_ring_disagreement:
        if whole:
            raise ChequerBeyondLens(disagreement)
        return None
    return ChequerFit(corners, fit.mapping)


def _larger_grown(gray: np.ndarray, small: np.ndarray, scale: float, start: int, seed: int, cfg: ChequerConfig
                  ) -> tuple[bool, np.ndarray | None]:
    """SB's "larger" mode from a `start`×`start` pattern on `small` (`scale` of `gray`): whether it saw a
    chequer at all, and that chequer grown to its board on `gray` and trimmed — None when its seed does
    not alternate like a chequer's or the board is under `cfg.min_corners` a side."""
    found = _sb(small, (start, start), cv2.CALIB_CB_LARGER, cfg.sb_margin_px, seed)
    grown = None if found is None else _grown(gray, _refined(gray, from_resized(found, scale)), cfg)
    grown = None if grown is None else _trimmed(grown, gray.shape, cfg)
    return found is not None, grown if grown is not None and min(grown.shape[:2]) >= cfg.min_corners else None


def _is_whole(corners: np.ndarray, pattern: tuple[int, int]) -> bool:
    """Every inner corner of a `pattern` chequer (corners across, down; either way round), and no more."""
    return corners.shape[:2] in {(pattern[1], pattern[0]), pattern} and bool(np.isfinite(corners).all())


class _Outline:
    """The board's outline — the outer corners of its ring of squares, which no saddle marks — each point with
    the homography (grid units -> px) of the 3×3 inner corners nearest it (local: a lens bends the whole board,
    hardly three squares of it)."""

    def __init__(self, points: np.ndarray, local: np.ndarray):
        self.points, self.local = points, local      # (n, 2) grid units; (n, 3, 3)

    @classmethod
    def of(cls, corners: np.ndarray) -> "_Outline":
        """The outline of a chequer's `corners` (corner (i, j) at grid point (i + 1, j + 1)): its points that
        have at least 6 of their 3×3 nearest inner corners seen; none on a chequer under 3×3 corners. (The
        local homographies are solved together, `_local_fits`: one `findHomography` per point cost 20–30 ms
        a photo, a fifth of SB's own time.)"""
        rows, cols = corners.shape[:2]
        none = cls(np.zeros((0, 2)), np.zeros((0, 3, 3)))
        if rows < 3 or cols < 3:
            return none
        outline = np.array([(x, y) for x in range(cols + 2) for y in range(rows + 2)
                            if x in (0, cols + 1) or y in (0, rows + 1)], float)
        i0 = np.clip(outline[:, 0] - 2, 0, cols - 3).astype(int)
        j0 = np.clip(outline[:, 1] - 2, 0, rows - 3).astype(int)
        dj, di = (d.ravel() for d in np.mgrid[0:3, 0:3])
        ii, jj = i0[:, None] + di, j0[:, None] + dj
        seen = np.isfinite(corners[jj, ii, 0])
        checked = seen.sum(axis=1) >= 6
        if not checked.any():
            return none
        local = _local_fits(np.stack([ii + 1.0, jj + 1.0], axis=-1)[checked], corners[jj, ii][checked], seen[checked])
        return cls(outline[checked], local)

    @cached_property   # asked by the measurement and by the ring check of one fit
    def predicted(self) -> tuple[np.ndarray, np.ndarray]:
        """Where the inner corners nearest each outline point put it (px), and the local square's side there (px)."""
        probes = np.stack([self.points, self.points + [0.5, 0.0], self.points - [0.5, 0.0]], axis=1)
        there = _apply_each(self.local, probes)   # the point, half a square each way
        return there[:, 0], np.linalg.norm(there[:, 1] - there[:, 2], axis=1)

    def measured(self, gray: np.ndarray, cfg: ChequerConfig) -> np.ndarray:
        """(n, 2) px of each outline point measured as the corner of a dark ring square, NaN where it is not
        one: refined (`cornerSubPix`, a window a quarter of the board's median square, all points in one
        call) from its prediction, moved at most `max_shift` of its local square, and there one of its four
        quadrants — inside the board — darker than the three others by `min_outline_step` grey levels (a dark
        square's corner against the light squares and the margin; a piece of a larger chequer has a saddle
        there, two dark quadrants)."""
        predicted, sides = self.predicted
        out = np.full_like(predicted, np.nan)
        h, w = gray.shape
        win = int(np.clip(round(0.25 * float(np.nanmedian(sides))), 2, 15)) if len(sides) else 2
        near = (np.isfinite(predicted).all(axis=1) & np.isfinite(sides) & (predicted[:, 0] >= win)
                & (predicted[:, 0] < w - win) & (predicted[:, 1] >= win) & (predicted[:, 1] < h - win))
        if not near.any():
            return out
        criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 0.01)
        refined = np.full_like(predicted, np.nan)
        refined[near] = cv2.cornerSubPix(gray, predicted[near].astype(np.float32).reshape(-1, 1, 2), (win, win),
                                         (-1, -1), criteria).reshape(-1, 2)
        moved = np.linalg.norm(refined - predicted, axis=1)
        kept = near & (moved <= cfg.max_shift * np.where(np.isfinite(sides), sides, 0.0))
        # the four quadrants' grey, each the mean of 3×3 points over a patch (QUADRANT_REACH, QUADRANT_RADIUS) ...
        grid = np.linspace(-QUADRANT_RADIUS, QUADRANT_RADIUS, 3)
        patch = np.stack(np.meshgrid(grid, grid), -1).reshape(-1, 2)
        centres = QUADRANT_REACH * np.array([[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]])   # TL, TR, BR, BL
        probes = self.points[kept][:, None, :] + (centres[:, None, :] + patch[None, :, :]).reshape(1, -1, 2)
        at = _apply_each(self.local[kept], probes) + (refined[kept] - predicted[kept])[:, None, :]
        pixels = np.rint(at).astype(int)
        in_photo = ((pixels >= 0) & (pixels < [w, h])).all(axis=(1, 2))
        grey = gray[np.clip(pixels[..., 1], 0, h - 1), np.clip(pixels[..., 0], 0, w - 1)].astype(float)
        quadrants = grey.reshape(len(grey), 4, len(patch)).mean(axis=2)              # (kept, 4)
        # ... the darkest inside the board (TL, TR, BR, BL of the point, by the side it lies on) ...
        x, y = self.points[kept, 0], self.points[kept, 1]
        right_edge, bottom_edge = self.points.max(axis=0)
        inside = np.stack([(x > 0) & (y > 0), (x < right_edge) & (y > 0), (x < right_edge) & (y < bottom_edge),
                           (x > 0) & (y < bottom_edge)], axis=1)
        dark = np.argmin(quadrants, axis=1)
        rows = np.arange(len(quadrants))
        others = np.where(np.arange(4)[None, :] == dark[:, None], np.inf, quadrants).min(axis=1)
        corner = in_photo & inside[rows, dark] & (others - quadrants[rows, dark] >= cfg.min_outline_step)
        out[np.flatnonzero(kept)[corner]] = refined[kept][corner]
        return out

    def disagreement(self, mapping: GridMapping, measured: np.ndarray) -> float:
        """How far (squares) the mapping puts the outline from the board's: from each point measured
        (`measured`, NaN where not), else from where the inner corners nearest it put it. A lens model that
        cannot follow a strong fisheye out to the board's edge draws its outline off (issue 28: a board filling a
        GoPro's frame); 0 without any outline point."""
        if not len(self.points):
            return 0.0
        predicted, sides = self.predicted
        there = np.where(np.isfinite(measured), measured, predicted)
        missed = np.linalg.norm(mapping.to_image(self.points) - there, axis=1)
        return float(np.max(missed / np.maximum(sides, 1e-9)))


def _local_fits(src: np.ndarray, dst: np.ndarray, seen: np.ndarray) -> np.ndarray:
    """(n, 3, 3) homographies, each src[k] -> dst[k] ((n, m, 2)) on the points seen[k] ((n, m)) only:
    normalised direct linear transforms (each side centred, its mean distance scaled to √2), solved
    together by one batched SVD."""
    weight = seen.astype(np.float64)[..., None]
    dst = np.where(seen[..., None], dst, 0.0)
    count = np.maximum(weight.sum(axis=1), 1.0)

    def normaliser(points: np.ndarray) -> np.ndarray:
        centre = (points * weight).sum(axis=1) / count
        spread = (np.linalg.norm(points - centre[:, None], axis=-1, keepdims=True) * weight).sum(axis=1) / count
        scale = np.sqrt(2.0) / np.maximum(spread[:, 0], 1e-12)
        t = np.zeros((len(points), 3, 3))
        t[:, 0, 0] = t[:, 1, 1] = scale
        t[:, :2, 2] = -scale[:, None] * centre
        t[:, 2, 2] = 1.0
        return t

    t_src, t_dst = normaliser(src), normaliser(dst)
    (x, y), (u, v) = np.moveaxis(_apply_each(t_src, src), -1, 0), np.moveaxis(_apply_each(t_dst, dst), -1, 0)
    one, zero = np.ones_like(x), np.zeros_like(x)
    rows_u = np.stack([x, y, one, zero, zero, zero, -u * x, -u * y, -u], axis=-1)
    rows_v = np.stack([zero, zero, zero, x, y, one, -v * x, -v * y, -v], axis=-1)
    system = np.concatenate([rows_u, rows_v], axis=1) * np.concatenate([weight, weight], axis=1)
    normalised = np.linalg.svd(system)[2][:, -1].reshape(-1, 3, 3)
    return np.linalg.inv(t_dst) @ normalised @ t_src


def _apply_each(homographies: np.ndarray, points: np.ndarray) -> np.ndarray:
    """homographies[k] applied to points[k] ((n, m, 2) -> (n, m, 2))."""
    mapped = np.einsum("nij,nmj->nmi", homographies, np.concatenate([points, np.ones(points.shape[:2] + (1,))], -1))
    return mapped[..., :2] / mapped[..., 2:]


def _working_scale(shape: tuple[int, int], grid, cfg: ChequerConfig, board_fraction: float | None = None) -> float:
    short, long_side = min(shape), max(shape)
    if grid is None:
        return min(1.0, cfg.unknown_long_side / long_side)
    square = (board_fraction or cfg.board_fraction) * short / max(grid)
    return min(1.0, max(cfg.min_square_px / square, 0.05))


def _smaller_board_scale(shape: tuple[int, int], grid, scale: float, cfg: ChequerConfig) -> float | None:
    """Size given, SB having found no chequer on the copy for a board spanning `board_fraction` of the
    photo: the scale of a copy where a board spanning `small_board_fraction` has squares of `min_square_px`
    (issue 28: calibration boards on a wall, seen across a corridor through a GoPro, squares of 4 px on
    the first copy; the line search then took 1–3 s where SB on a larger copy takes 30–50 ms), or None
    when it would be no larger or hold more than `small_board_pixels` (SB's cost, paid on every photo of
    a board without a chequer, grows with them)."""
    retry = _working_scale(shape, grid, cfg, cfg.small_board_fraction)
    return retry if retry > scale and retry * retry * shape[0] * shape[1] <= cfg.small_board_pixels else None


def _reduced(gray: np.ndarray, scale: float) -> np.ndarray:
    return gray if scale >= 1.0 else cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)


SB_SEED = 1   # SB draws from OpenCV's random generator: seeded before each call, same photo, same answer


def _sb(gray: np.ndarray, pattern: tuple[int, int], flags: int, margin: int = 0, seed: int = SB_SEED
        ) -> np.ndarray | None:
    """SB's inner corners as a (rows, cols, 2) array (pixels of `gray`), or None. SB is run on `gray` framed
    in `margin` px of mid-grey: it reads each corner's sectors a few pixels around it, and a board
    running to the frame's edge (a calibration board held close) was missed on a reduced copy, at a cost
    of 70–130 ms a failure, and found only on a copy twice as large (issue 28: lanecam calibration4, GoPro
    0044 and 0070); a plain frame holds no corner. (SB samples with OpenCV's thread-local random generator:
    it is seeded first, so a photo always gives the same corners.)"""
    framed = cv2.copyMakeBorder(gray, margin, margin, margin, margin, cv2.BORDER_CONSTANT, value=128) if margin else gray
    cv2.setRNGSeed(seed)
    try:
        ok, corners, meta = cv2.findChessboardCornersSBWithMeta(framed, pattern, flags)
    except cv2.error:
        return None
    if not ok or corners is None:
        return None
    rows, cols = (meta.shape if meta is not None and meta.size == len(corners) else (pattern[1], pattern[0]))
    found = corners.reshape(rows, cols, 2).astype(np.float64) - margin
    inside = (found >= 0).all() and (found[..., 0] <= gray.shape[1] - 1).all() and (found[..., 1] <= gray.shape[0] - 1).all()
    return found if inside else None   # (a corner on the frame took its grey for a square: no chequer's)


CLASSIC_FLAGS = cv2.CALIB_CB_ADAPTIVE_THRESH + cv2.CALIB_CB_NORMALIZE_IMAGE + cv2.CALIB_CB_FAST_CHECK


def _classic_corners(gray: np.ndarray, small: np.ndarray, scale: float, pattern: tuple[int, int],
                     cfg: ChequerConfig) -> np.ndarray | None:
    """The inner corners of a whole `pattern` (corners across, down) by OpenCV's classic finder on the copy
    `small` (`scale` of `gray`), refined on `gray` as SB's are, or None: none found, or a lattice bent
    past `cfg.max_classic_bend`. The classic finder links the dark squares it thresholds into quads, in
    1–20 ms where SB takes 10–60 ms (issue 28: the speed against SB); it needs larger squares than SB
    (`cfg.classic_copies`: on SB's copy it found 63 of the 88 chessboards of the speed bench, 20 more on
    a copy twice as large — SB found 83 on its copy); its corners agree with SB's to
    0.06 px on every chessboard of the benches, save where linking put one or two on the wrong saddle
    (lanecam calibration7 and 17, a quarter to half a square off) — which bends the lattice there by
    at least twice that, while SB's lattices bend by at most 0.24 square on the benches' chessboards (a
    GoPro's fisheye), save webcam d's 0.48 (SB put one corner a fifth of a square off; the classic finder's
    lattice there bends 0.10). On a photo without a chequer FAST_CHECK gives up early: both copies cost 11 ms
    median, 42 ms at the 90th percentile, 143 ms at worst over 224 scans of the negative set's photos (4
    sizes), whose scans take 680 ms median."""
    try:
        ok, found = cv2.findChessboardCorners(small, pattern, flags=CLASSIC_FLAGS)
    except cv2.error:
        return None
    if not ok or found is None or len(found) != pattern[0] * pattern[1]:
        return None
    corners = _refined(gray, from_resized(found.reshape(pattern[1], pattern[0], 2), scale))
    return corners if largest_bend(corners) <= cfg.max_classic_bend else None


def largest_bend(corners: np.ndarray) -> float:
    """The largest second difference of a whole lattice of corners along its rows and columns, in squares
    (each against the local square's side): 0 for a plane seen square on, small under perspective and a
    lens (they bend a lattice smoothly), at least twice a corner's error where one corner is out of place."""
    side = _local_side(corners)
    along_rows = np.linalg.norm(corners[:, :-2] - 2 * corners[:, 1:-1] + corners[:, 2:], axis=-1) / side[:, 1:-1]
    along_columns = np.linalg.norm(corners[:-2] - 2 * corners[1:-1] + corners[2:], axis=-1) / side[1:-1]
    return float(max(along_rows.max(initial=0.0), along_columns.max(initial=0.0)))


def _refined(gray: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """Corners refined on the full photo, in a window a quarter of the local square."""
    flat = corners.reshape(-1, 2)
    ok = np.isfinite(flat[:, 0])
    side = _local_side(corners)
    win = int(np.clip(round(0.25 * np.nanmedian(side)), 2, 15))
    pts = flat[ok].astype(np.float32).reshape(-1, 1, 2)
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 0.01)
    refined = cv2.cornerSubPix(gray, pts, (win, win), (-1, -1), criteria).reshape(-1, 2)
    out = flat.copy()
    moved = np.linalg.norm(refined - flat[ok], axis=1) <= 0.2 * np.nanmedian(side)
    out[np.flatnonzero(ok)[moved]] = refined[moved]
    return out.reshape(corners.shape)


def _local_side(corners: np.ndarray) -> np.ndarray:
    """(rows, cols) distance to the nearest lattice neighbour (px), NaN where unknown."""
    neighbour_gaps = []
    for axis in (0, 1):
        d = np.linalg.norm(np.diff(corners, axis=axis), axis=-1)
        pad = [(0, 0), (0, 0)]
        pad[axis] = (1, 0)
        before = np.pad(d, pad, constant_values=np.nan)
        pad[axis] = (0, 1)
        after = np.pad(d, pad, constant_values=np.nan)
        neighbour_gaps += [before, after]
    gaps = np.stack(neighbour_gaps)
    return np.where(np.isfinite(gaps).any(axis=0), np.fmin.reduce(gaps, axis=0), np.nan)


def _quadrants(gray: np.ndarray, local: np.ndarray, index: tuple[int, int], at: np.ndarray) -> np.ndarray | None:
    """Mean grey of the four squares around corner (j, i) seen at `at` (px): their centres from
    `local` (lattice (i, j) -> px, a homography of the corners around), in lattice order TL, TR, BR,
    BL, each a patch of 0.3 of the local square's side."""
    j, i = index
    d = QUADRANT_REACH
    lattice = np.array([[i, j], [i - d, j - d], [i + d, j - d], [i + d, j + d], [i - d, j + d]], float)
    mapped = cv2.perspectiveTransform(lattice.reshape(-1, 1, 2), local).reshape(-1, 2)
    centres = mapped[1:] - mapped[0] + at
    side = float(np.linalg.norm(mapped[2] - mapped[1])) / (2 * d)
    radius = max(1, int(round(QUADRANT_RADIUS * side)))
    h, w = gray.shape
    values = []
    for x, y in centres:
        x0, y0 = int(round(x)) - radius, int(round(y)) - radius
        if x0 < 0 or y0 < 0 or x0 + 2 * radius + 1 > w or y0 + 2 * radius + 1 > h:
            return None
        values.append(float(gray[y0:y0 + 2 * radius + 1, x0:x0 + 2 * radius + 1].mean()))
    return np.array(values)


def _saddle_step(q: np.ndarray) -> float:
    """Signed weakest step of a chequer corner: each quadrant against the two beside it; > 0 when
    TL/BR are the light pair, < 0 when they are the dark one, ~0 when it is no saddle."""
    tl, tr, br, bl = q
    light_diagonal = min(tl - tr, tl - bl, br - tr, br - bl)
    dark_diagonal = min(tr - tl, bl - tl, tr - br, bl - br)
    return light_diagonal if light_diagonal > 0 else -max(dark_diagonal, 0.0)


QUADRANT_REACH = 0.3   # a quadrant is sampled this far (squares) from the corner along both axes ...
QUADRANT_RADIUS = 0.1  # ... in a patch of this half-side: inside the visible part of a partly hidden square
GROWTH_ROOM = 48   # corners the lattice may grow by on each side (a 50×50 board from a 3×3 seed)


def _grown(gray: np.ndarray, corners: np.ndarray, cfg: ChequerConfig) -> np.ndarray | None:
    """SB's corners checked (its "larger" mode takes a board's edge against a dark frame for
    corners; None when they do not alternate like a chequer's), then the lattice grown outward
    while the next corner is a saddle of the right parity where a homography of its known
    neighbours predicts it."""
    room = GROWTH_ROOM
    canvas = np.pad(corners, ((room, room), (room, room), (0, 0)), constant_values=np.nan)   # even pad: parity kept
    known = np.isfinite(canvas[..., 0])
    steps = {}
    for j, i in np.argwhere(known):
        local = _local_homography(canvas, known, j, i)
        q = None if local is None else _quadrants(gray, local, (j, i), canvas[j, i])
        steps[(j, i)] = np.nan if q is None else _saddle_step(q) * (1 if (i + j) % 2 == 0 else -1)
    values = np.array([v for v in steps.values() if np.isfinite(v)])
    if len(values) == 0:
        return None
    level = float(np.median(np.abs(values)))
    needed = cfg.saddle_share * level
    saddles = values[np.abs(values) >= needed]
    parity = 1.0 if np.median(saddles) > 0 else -1.0
    # a seed that alternates is a chequer's; SB's "larger" mode sometimes strings corners two
    # squares apart, or none, into a lattice: their saddles do not alternate
    if level < cfg.min_saddle or (saddles * parity > 0).mean() < cfg.min_parity:
        return None
    typical = float(np.nanmedian(_local_side(canvas)))
    for (j, i), step in steps.items():
        if np.isfinite(step) and step * parity < needed:
            canvas[j, i] = np.nan
    h, w = gray.shape
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 0.01)
    tried: set[tuple[int, int]] = set()
    while True:
        known = np.isfinite(canvas[..., 0])
        sides = _local_side(canvas)
        added = {}
        for j, i in np.argwhere(cv2.dilate(known.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool) & ~known):
            if (j, i) in tried or not (1 <= j < canvas.shape[0] - 1 and 1 <= i < canvas.shape[1] - 1):
                continue
            if not (known[j, i - 1] or known[j, i + 1] or known[j - 1, i] or known[j + 1, i]):
                continue
            local = _local_homography(canvas, known, j, i)
            if local is None:
                continue
            tried.add((j, i))
            p = local @ np.array([i, j, 1.0])
            predicted = p[:2] / p[2]
            side = float(np.nanmedian(sides[max(j - 2, 0):j + 3, max(i - 2, 0):i + 3]))
            if not cfg.side_range[0] * typical <= side <= cfg.side_range[1] * typical:
                continue
            win = int(np.clip(round(0.25 * side), 2, 15))
            if not (win <= predicted[0] < w - win and win <= predicted[1] < h - win):
                continue
            refined = cv2.cornerSubPix(gray, predicted.astype(np.float32).reshape(1, 1, 2), (win, win), (-1, -1),
                                       criteria).reshape(2).astype(np.float64)
            if np.linalg.norm(refined - predicted) > cfg.max_shift * side:
                continue
            q = _quadrants(gray, local, (j, i), refined)
            if q is not None and _saddle_step(q) * (1 if (i + j) % 2 == 0 else -1) * parity >= needed:
                added[(j, i)] = refined
        if not added:
            return _crop(canvas)
        for (j, i), p in added.items():
            canvas[j, i] = p


def _local_homography(corners: np.ndarray, known: np.ndarray, j: int, i: int) -> np.ndarray | None:
    """Lattice (i, j) -> px from the known corners within two lattice steps of (j, i) (local: a
    lens bends the whole board, hardly a few squares of it)."""
    j0, j1, i0, i1 = max(j - 2, 0), min(j + 3, known.shape[0]), max(i - 2, 0), min(i + 3, known.shape[1])
    jj, ii = np.nonzero(known[j0:j1, i0:i1])
    if len(jj) < 4 or len(set(jj.tolist())) < 2 or len(set(ii.tolist())) < 2:
        return None
    src = np.stack([ii + i0, jj + j0], axis=1).astype(np.float64)
    h, _ = cv2.findHomography(src, corners[jj + j0, ii + i0], 0)
    return h


def _crop(corners: np.ndarray) -> np.ndarray:
    """The corner array without rows and columns that hold no corner."""
    known = np.isfinite(corners[..., 0])
    rows, cols = np.flatnonzero(known.any(axis=1)), np.flatnonzero(known.any(axis=0))
    return corners[rows[0]:rows[-1] + 1, cols[0]:cols[-1] + 1]


def _trimmed(corners: np.ndarray, shape: tuple[int, int], cfg: ChequerConfig) -> np.ndarray | None:
    """The corner rectangle, outer rows/columns dropped while too few of their corners were seen
    (`fill_share`, among those the lattice puts inside the photo: a board running out of the frame
    keeps its last rows): growth along a border may run a little past the board. None when a line
    dropped held `max_cut_share` of its corners or more: the chequer goes on past that side, where
    its saddles could not all be followed (a fisheye bends a board's last row, issue 28), and the
    rectangle left would be read as a whole board one row short."""
    corners = _crop(corners)
    h, w = shape
    while min(corners.shape[:2]) >= 2:
        known = np.isfinite(corners[..., 0])
        jj, ii = np.nonzero(known)
        src = np.stack([ii, jj], axis=1).astype(np.float64)
        model, _ = cv2.findHomography(src, corners[known], 0) if len(src) >= 4 else (None, None)
        if model is None:
            return None
        gi, gj = np.meshgrid(np.arange(corners.shape[1], dtype=float), np.arange(corners.shape[0], dtype=float))
        where = cv2.perspectiveTransform(np.stack([gi, gj], -1).reshape(-1, 1, 2), model).reshape(corners.shape)
        inside = (where[..., 0] >= 0) & (where[..., 0] < w) & (where[..., 1] >= 0) & (where[..., 1] < h)
        edges = [(known[0], inside[0]), (known[-1], inside[-1]), (known[:, 0], inside[:, 0]), (known[:, -1], inside[:, -1])]
        shares = [k.sum() / max(1, (k | i).sum()) for k, i in edges]
        worst = int(np.argmin(shares))
        if shares[worst] >= cfg.fill_share:
            return corners
        if shares[worst] >= cfg.max_cut_share:
            return None
        corners = _crop([corners[1:], corners[:-1], corners[:, 1:], corners[:, :-1]][worst])
    return None
