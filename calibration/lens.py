"""Fitting the grid mapping with its lens: a homography and OpenCV's radial k1, k2, jointly.

What a photo offers (docs/vision.md, "Lenses"): point correspondences — our markers' corners,
a chessboard's inner corners, grid units ↔ pixels — and points seen on grid lines (pixels
known to lie on the line x = k or y = k of the grid). The fit minimises, in pixels, how far
each point is from where the mapping puts it (a Levenberg–Marquardt loop on the 8 homography
terms and k1, k2; robust: a Huber weight per point), starting from the plain homography.

A lens is kept only where the photo shows bending: the plain fit (the same robust loop with
k1 = k2 = 0) must leave clearly larger residuals (`LensConfig.min_gain`, on the robust RMS the
Huber cost gives: stray points weigh as they weigh in the fit), the lens must move
points by a visible amount over the grid (`min_shift_px`), and the model must stay monotonic
out to the photo's corners. Otherwise the mapping is the plain homography, exactly as before:
photos without distortion read the same.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from calibration.config import LensConfig
from calibration.mapping import GridMapping, RadialLens


DEFAULT_LENS = LensConfig()   # (also VisionConfig().lens: the `lens` section of the vision YAML)


@dataclass(frozen=True)
class LineEvidence:
    """Pixels seen on grid lines: point i lies on the line `axis` = `value` (axis 0: x = value,
    a line of constant x; axis 1: y = value), with a weight."""

    points: np.ndarray     # (n, 2) photo pixels
    axis: np.ndarray       # (n,) 0 or 1
    value: np.ndarray      # (n,) grid units
    weight: np.ndarray     # (n,)

    def __len__(self) -> int:
        return len(self.points)

    def subset(self, keep: np.ndarray) -> "LineEvidence":
        return LineEvidence(self.points[keep], self.axis[keep], self.value[keep], self.weight[keep])


@dataclass(frozen=True)
class LensFit:
    mapping: GridMapping        # plain, or through the lens when the photo shows bending
    rms_px: float               # robust residual RMS of the kept model (px; `_Problem.rms`)
    plain_rms_px: float         # ... of the plain homography fitted the same way
    lens_rms_px: float          # ... of the best lens model (NaN when none could be fitted)


def fit_mapping(image_size: tuple[int, int], extent: tuple[int, int], grid_points: np.ndarray | None = None,
                image_points: np.ndarray | None = None, lines: LineEvidence | None = None, *,
                initial: np.ndarray | None = None, config: LensConfig = DEFAULT_LENS,
                whole_photo: bool = True) -> LensFit | None:
    """The mapping (GridMapping) best explaining correspondences `grid_points` ↔ `image_points`
    (each (n, 2)) and/or `lines`, with a radial lens when the photo shows bending.

    `image_size` (width, height) sets the lens convention (`RadialLens.for_image`); `extent`
    (width, height) is the grid's, over which the plain homography is fitted and the lens's
    bending judged; `initial`: a plain homography to start from (needed with lines only).
    `whole_photo`: the mapping will be used over the whole photo (a lattice searched for its
    extent), so the lens must keep radii in order out to the photo's corners; False: only over the
    grid and `monotonic_margin` squares around it (a chequer's corners span its whole board). None
    when there is too little to fit."""
    grid_points = np.zeros((0, 2)) if grid_points is None else np.asarray(grid_points, np.float64).reshape(-1, 2)
    image_points = np.zeros((0, 2)) if image_points is None else np.asarray(image_points, np.float64).reshape(-1, 2)
    if initial is None:
        if len(grid_points) < 4:
            return None
        initial, _ = cv2.findHomography(grid_points, image_points, 0)
        if initial is None:
            return None
    if lines is not None and len(lines) > config.max_line_points:   # evenly thinned: the fit's time, not its aim
        lines = lines.subset(np.linspace(0, len(lines) - 1, config.max_line_points).round().astype(int))
    problem = _Problem(RadialLens.for_image(image_size, 0.0), grid_points, image_points, lines, config)
    plain = problem.solve(problem.params_from(np.asarray(initial, np.float64)), free=8)
    if plain is None:
        return None
    plain_rms = problem.rms(plain)
    best, best_rms, lens_rms = plain, plain_rms, float("nan")
    if problem.count >= config.min_points:
        candidate = problem.solve(plain, free=9)
        with_k2 = problem.solve(candidate, free=10) if candidate is not None and config.fit_k2 else None
        # k2 is tried even where k1 alone folds the grid over: a fisheye's k1 alone bends back within
        # the frame, k2 keeps it in order (issue 28, a GoPro chessboard)
        if candidate is None or not problem.plausible(candidate, extent, image_size, whole_photo):
            candidate = None
        else:
            lens_rms = problem.rms(candidate)
        if with_k2 is not None and problem.plausible(with_k2, extent, image_size, whole_photo) \
                and (candidate is None or problem.rms(with_k2) < (1 - config.k2_gain) * lens_rms):
            candidate, lens_rms = with_k2, problem.rms(with_k2)
        if candidate is not None and lens_rms < (1 - config.min_gain) * plain_rms and \
                problem.largest_shift(candidate, extent) >= config.min_shift_px:
            best, best_rms = candidate, lens_rms
    return LensFit(problem.mapping(best, extent), best_rms, plain_rms, lens_rms)


class _Problem:
    """One least-squares problem: parameters = the 8 free terms of a homography in normalised
    coordinates (grid: centred and scaled; photo: the lens's normalised coordinates) + k1, k2."""

    def __init__(self, lens: RadialLens, grid_points: np.ndarray, image_points: np.ndarray,
                 lines: LineEvidence | None, config: LensConfig):
        self.lens, self.config = lens, config
        every = [grid_points] if len(grid_points) else []
        if lines is not None and len(lines):
            every.append(np.stack([lines.value, lines.value], axis=1))
        pts = np.concatenate(every) if every else np.zeros((1, 2))
        centre = pts.mean(axis=0)
        scale = 1.0 / max(float(np.sqrt(((pts - centre) ** 2).sum(axis=1).mean())), 1e-9)
        self.grid_norm = np.array([[scale, 0, -scale * centre[0]], [0, scale, -scale * centre[1]], [0, 0, 1.0]])
        f, (cx, cy) = lens.focal, lens.centre
        self.image_norm = np.array([[1 / f, 0, -cx / f], [0, 1 / f, -cy / f], [0, 0, 1.0]])
        self.g = _apply(self.grid_norm, grid_points) if len(grid_points) else np.zeros((0, 2))
        self.p = _apply(self.image_norm, image_points) if len(image_points) else np.zeros((0, 2))
        self.lines = lines if lines is not None and len(lines) else None
        if self.lines is not None:
            self.lp = _apply(self.image_norm, self.lines.points)
            self.lw = np.sqrt(np.asarray(self.lines.weight, np.float64))
            self.laxis = self.lines.axis.astype(int)
            self.lrows = np.arange(len(self.laxis))
            self.grid_from_norm = np.linalg.inv(self.grid_norm)   # computed once: residuals run thousands of times
            self.lvalue = self.lines.value.astype(np.float64)
            self.lscale: np.ndarray | None = None   # px per grid unit across each line point, from the first fit
            self._undistorted: tuple[tuple[float, float], np.ndarray] | None = None   # (k1, k2) and the points
        self.count = len(self.g) + (0 if self.lines is None else len(self.lines))

    # -- parameters ------------------------------------------------------------------------------
    def params_from(self, homography: np.ndarray) -> np.ndarray:
        hn = self.image_norm @ homography @ np.linalg.inv(self.grid_norm)
        hn = hn / hn[2, 2]
        return np.concatenate([hn.ravel()[:8], [0.0, 0.0]])

    @staticmethod
    def _hn(params: np.ndarray) -> np.ndarray:
        return np.append(params[:8], 1.0).reshape(3, 3)

    def homography(self, params: np.ndarray) -> np.ndarray:
        """Grid units -> pinhole pixels."""
        h = np.linalg.inv(self.image_norm) @ self._hn(params) @ self.grid_norm
        return h / h[2, 2]

    def mapping(self, params: np.ndarray, extent: tuple[int, int]) -> GridMapping:
        h = self.homography(params)
        k1, k2 = float(params[8]), float(params[9])
        if k1 == 0.0 and k2 == 0.0:
            return GridMapping(h)
        return GridMapping.with_lens(h, RadialLens(k1, k2, self.lens.centre, self.lens.focal), *extent)

    # -- model -----------------------------------------------------------------------------------
    def residuals(self, params: np.ndarray) -> np.ndarray:
        """Pixels: (point residuals x, y ..., line residuals ...)."""
        hn, k1, k2 = self._hn(params), params[8], params[9]
        f = self.lens.focal
        parts = []
        if len(self.g):
            u = _apply(hn, self.g)
            r2 = (u * u).sum(axis=1, keepdims=True)
            parts.append(((u * (1 + r2 * (k1 + k2 * r2)) - self.p) * f).ravel())
        if self.lines is not None:
            parts.append(self._line_residuals(params))
        return np.concatenate(parts) if parts else np.zeros(0)

    def _line_residuals(self, params: np.ndarray) -> np.ndarray:
        """The line points' part of `residuals` alone (the Jacobian's forward differences need no more)."""
        assert self.lines is not None
        undistorted = self._undistorted_lines(float(params[8]), float(params[9]))
        try:
            to_grid = self.grid_from_norm @ np.linalg.inv(self._hn(params))
        except np.linalg.LinAlgError:   # a homography gone singular places no line point (issue 28: a lattice on
            return np.full(len(self.lrows), np.inf)   # a facade, mid-fit): the step is refused, a start fits nothing
        grid = _apply(to_grid, undistorted)
        across = grid[self.lrows, self.laxis] - self.lvalue
        if self.lscale is None:
            self.lscale = self._line_scale(params, self.lines)
        return across * self.lscale * self.lw

    def _undistorted_lines(self, k1: float, k2: float) -> np.ndarray:
        """The line points undistorted for (k1, k2), kept for the next call: the Jacobian's 8 homography
        columns move neither (issue 28: the undistortion was a fifth of a busy photo's search time)."""
        if self._undistorted is None or self._undistorted[0] != (k1, k2):
            self._undistorted = (k1, k2), _undistort_normalised(self.lp, k1, k2)
        return self._undistorted[1]

    def _line_scale(self, params: np.ndarray, lines: LineEvidence) -> np.ndarray:
        """Pixels per grid unit across each line point (the first fit's), so line residuals are
        in pixels like the points'."""
        h = self.homography(params)
        g = _apply(np.linalg.inv(h), lines.points)
        step = np.zeros_like(g)
        step[np.arange(len(g)), self.laxis] = 1e-3
        return np.linalg.norm(_apply(h, g + step) - _apply(h, g), axis=1) / 1e-3

    def rms(self, params: np.ndarray) -> float:
        """The robust RMS (px) of the residuals, from a Huber cost like the one the fit minimises (the plain
        RMS within `huber_px`, growing linearly beyond). Judged on the plain RMS, the strays of
        line points read on colour borders beside a line (a fifth of them on a board without lines
        inside) drowned a real lens's gain."""
        r = self.residuals(params)
        if not len(r):
            return float("nan")
        a, c = np.abs(r), self.config.huber_px
        return float(np.sqrt(np.mean(np.where(a <= c, a * a, 2 * c * a - c * c))))

    def solve(self, start: np.ndarray, free: int) -> np.ndarray | None:
        """Robust Levenberg–Marquardt on the first `free` parameters (8: plain, 9: + k1, 10: + k2);
        the Huber weights are those of the current estimate (iteratively reweighted)."""
        cfg = self.config
        params = start.copy()
        params[free:] = 0.0
        ridge = np.zeros(free)
        if free == 10:   # k2 is poorly told apart from k1 on a board's few radii: a mild pull to 0
            ridge[9] = cfg.k2_ridge * self.count * self.lens.focal ** 2 * 1e-4
        r = self.residuals(params)
        if not np.all(np.isfinite(r)):
            return None
        damping = 1e-3
        for _ in range(cfg.iterations):
            w = _huber_weights(r, cfg.huber_px)
            cost = float((w * r * r).sum() + (ridge * params[:free] ** 2).sum())
            jac = self._jacobian(params, r, free)
            a = (jac * w[:, None]).T @ jac + np.diag(ridge)
            b = (jac * w[:, None]).T @ r + ridge * params[:free]
            while damping < 1e8:
                try:
                    step = np.linalg.solve(a + damping * np.diag(np.diag(a) + 1e-12), -b)
                except np.linalg.LinAlgError:
                    return None
                candidate = params.copy()
                candidate[:free] += step
                moved = self.residuals(candidate)
                if np.all(np.isfinite(moved)) and \
                        float((w * moved * moved).sum() + (ridge * candidate[:free] ** 2).sum()) < cost:
                    break
                damping *= 10
            else:
                break
            gain = cost - float((w * moved * moved).sum() + (ridge * candidate[:free] ** 2).sum())
            params, r, damping = candidate, moved, max(damping / 3, 1e-9)
            if gain < 1e-6 * cost:
                break
        return params

    def _jacobian(self, params: np.ndarray, r: np.ndarray, free: int) -> np.ndarray:
        """d residuals / d parameters: analytic for the point correspondences, forward
        differences for the line points (undistorting has no closed form)."""
        jac = np.empty((len(r), free))
        n = 2 * len(self.g)
        if n:
            jac[:n] = self._point_jacobian(params, free)
        if self.lines is not None:
            for k in range(free):
                step = 1e-6 * max(1.0, abs(params[k]))
                moved = params.copy()
                moved[k] += step
                jac[n:, k] = (self._line_residuals(moved) - r[n:]) / step
        return jac

    def _point_jacobian(self, params: np.ndarray, free: int) -> np.ndarray:
        hn, k1, k2 = self._hn(params), params[8], params[9]
        g = np.hstack([self.g, np.ones((len(self.g), 1))])
        s, t, q = g @ hn[0], g @ hn[1], g @ hn[2]
        ux, uy = s / q, t / q
        # d(ux, uy) / d(h0..h7): rows a = h0..h2, b = h3..h5, c = h6, h7 (h8 = 1)
        du = np.zeros((len(g), 2, 8))
        du[:, 0, 0:3] = g / q[:, None]
        du[:, 1, 3:6] = g / q[:, None]
        du[:, 0, 6:8] = -(s / q ** 2)[:, None] * g[:, :2]
        du[:, 1, 6:8] = -(t / q ** 2)[:, None] * g[:, :2]
        r2 = ux * ux + uy * uy
        radial = 1 + r2 * (k1 + k2 * r2)
        grow = 2 * (k1 + 2 * k2 * r2)
        u = np.stack([ux, uy], axis=1)
        # d(distorted) / d(ux, uy) = radial * I + grow * u u^T (2x2 per point, written out)
        d00, d11, d01 = radial + grow * ux * ux, radial + grow * uy * uy, grow * ux * uy
        full = np.empty((len(g), 2, 10))
        full[:, 0, :8] = d00[:, None] * du[:, 0] + d01[:, None] * du[:, 1]
        full[:, 1, :8] = d01[:, None] * du[:, 0] + d11[:, None] * du[:, 1]
        full[:, :, 8] = u * r2[:, None]
        full[:, :, 9] = u * (r2 * r2)[:, None]
        return (full[:, :, :free] * self.lens.focal).reshape(-1, free)

    def plausible(self, params: np.ndarray, extent: tuple[int, int], image_size: tuple[int, int],
                  whole_photo: bool) -> bool:
        """A lens we know (|k1| under `max_k1`) that keeps radii in order where the mapping is used:
        out to the photo's corners, or (not `whole_photo`) over the grid grown by `monotonic_margin`
        squares if that is nearer. (Asked to stay monotonic out to the photo's corners, a fisheye's k1
        was refused for a chessboard in the middle of the frame, and the plain homography put its
        outer ring half a square off, issue 28.)"""
        lens = RadialLens(float(params[8]), float(params[9]), self.lens.centre, self.lens.focal)
        reach = np.hypot(*image_size) / 2 * 1.05
        if not whole_photo:
            reach = min(reach, self._reach_px(params, extent))
        return abs(lens.k1) < self.config.max_k1 and lens.monotonic_to(reach)

    def _reach_px(self, params: np.ndarray, extent: tuple[int, int]) -> float:
        """The farthest pinhole radius (px from the lens centre) of the grid's outline grown by
        `monotonic_margin` squares."""
        m = self.config.monotonic_margin
        (x0, y0), (x1, y1) = (-m, -m), (extent[0] + m, extent[1] + m)
        t = np.linspace(0.0, 1.0, 9)
        outline = np.concatenate([np.stack([x0 + t * (x1 - x0), np.full(9, y0)], 1),
                                  np.stack([x0 + t * (x1 - x0), np.full(9, y1)], 1),
                                  np.stack([np.full(9, x0), y0 + t * (y1 - y0)], 1),
                                  np.stack([np.full(9, x1), y0 + t * (y1 - y0)], 1)])
        pinhole = _apply(self.homography(params), outline)
        return float(np.linalg.norm(pinhole - np.asarray(self.lens.centre), axis=1).max())

    def largest_shift(self, params: np.ndarray, extent: tuple[int, int]) -> float:
        """How far the lens bends the grid in the photo (px): the largest distance, along the
        grid's outline (where a radial lens bends most), between the bent outline and the best
        homography of it — the part of the lens no straight fit absorbs."""
        h = self.homography(params)
        x0, y0, (x1, y1) = 0.0, 0.0, extent
        t = np.linspace(0.0, 1.0, 9)
        outline = np.concatenate([np.stack([x0 + t * (x1 - x0), np.full(9, y0)], 1),
                                  np.stack([x0 + t * (x1 - x0), np.full(9, y1)], 1),
                                  np.stack([np.full(9, x0), y0 + t * (y1 - y0)], 1),
                                  np.stack([np.full(9, x1), y0 + t * (y1 - y0)], 1)])
        pinhole = _apply(h, outline)
        lens = RadialLens(float(params[8]), float(params[9]), self.lens.centre, self.lens.focal)
        bent = lens.distort(pinhole)
        plain, _ = cv2.findHomography(outline, bent, 0)
        if plain is None:
            return float(np.linalg.norm(bent - pinhole, axis=1).max())
        return float(np.linalg.norm(_apply(plain, outline) - bent, axis=1).max())


def _undistort_normalised(xd: np.ndarray, k1: float, k2: float) -> np.ndarray:
    rd = np.sqrt((xd * xd).sum(axis=1))
    r = rd.copy()
    for _ in range(6):
        r2 = r * r
        slope = 1.0 + r2 * (3 * k1 + 5 * k2 * r2)
        r = r - (r * (1 + r2 * (k1 + k2 * r2)) - rd) / np.where(np.abs(slope) > 1e-6, slope, 1e-6)
    return xd * np.where(rd > 1e-12, r / np.maximum(rd, 1e-12), 1.0)[:, None]


def _huber_weights(r: np.ndarray, scale: float) -> np.ndarray:
    a = np.abs(r)
    return np.where(a <= scale, 1.0, scale / np.maximum(a, 1e-12))


def _apply(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    ph = pts @ h[:, :2].T + h[:, 2]
    return ph[:, :2] / ph[:, 2:3]
