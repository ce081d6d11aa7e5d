"""The grid ↔ image mapping of one photo or frame: a homography, and the lens that bends it.

Grid units: (0, 0) is the outer top-left corner of square (0, 0), (width, height) the outer
bottom-right corner, so the centre of square (x, y) is (x + 0.5, y + 0.5). Image units: pixels,
pixel centres at integer coordinates (OpenCV's convention).

A plain camera model is a homography. Real tablet, phone and webcam lenses bend straight lines
(barrel distortion): then grid units go through `lens_homography` to the pixels an ideal pinhole
camera would see, and `RadialLens` bends those into the photo (OpenCV's radial model, k1 and k2,
principal point at the photo's centre). `homography` keeps its meaning in either case: the best
plain 3×3 fit, grid units → pixels (what the scan JSON has always given), for a reader that
ignores the lens. Every grid → pixel mapping of the project goes through `GridMapping`
(square and token reading, debug images, the app's overlays), so a bent grid is read where
it is, not where a straight one would put it.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

import cv2
import numpy as np

LENS_MODEL = "opencv-radial-k1k2"


@dataclass(frozen=True)
class RadialLens:
    """OpenCV's radial distortion, principal point at the photo's centre, no tangential terms.

    A pinhole pixel p goes to normalised x = (p - centre) / focal, then
    x_d = x (1 + k1 r² + k2 r⁴) with r² = |x|², then back to pixels: exactly what
    `cv2.projectPoints` does with camera matrix [[f, 0, cx], [0, f, cy], [0, 0, 1]] and
    distortion (k1, k2, 0, 0). From one photo of a flat board the focal length cannot be told
    apart from the coefficients (only k1 / f² matters), so `focal` is a convention: the
    photo's long side in pixels (`for_image`). k1 < 0 is barrel distortion (webcams, wide
    tablets: about −0.4 … −0.05 in this convention), k1 > 0 pincushion."""

    k1: float
    k2: float
    centre: tuple[float, float]   # principal point (px)
    focal: float                  # px, normalises the radius

    @classmethod
    def for_image(cls, size: tuple[int, int], k1: float, k2: float = 0.0) -> "RadialLens":
        """The lens convention of a photo `size` = (width, height) px."""
        w, h = size
        return cls(float(k1), float(k2), ((w - 1) / 2.0, (h - 1) / 2.0), float(max(w, h)))

    def _normalised(self, points: np.ndarray) -> np.ndarray:
        return (np.asarray(points, np.float64) - self.centre) / self.focal

    def distort(self, points: np.ndarray) -> np.ndarray:
        """Pinhole pixels (..., 2) → photo pixels (..., 2)."""
        x = self._normalised(points)
        r2 = np.einsum("...i,...i->...", x, x)[..., None]
        return x * (1.0 + r2 * (self.k1 + self.k2 * r2)) * self.focal + self.centre

    def undistort(self, points: np.ndarray) -> np.ndarray:
        """Photo pixels (..., 2) → pinhole pixels: the radius solved by Newton's method
        (a few steps reach 1e-9 px wherever the model is monotonic, `monotonic_to`)."""
        xd = self._normalised(points)
        rd = np.sqrt(np.einsum("...i,...i->...", xd, xd))
        r = rd.copy()
        for _ in range(8):
            r2 = r * r
            value = r * (1.0 + r2 * (self.k1 + self.k2 * r2)) - rd
            slope = 1.0 + r2 * (3.0 * self.k1 + 5.0 * self.k2 * r2)
            r = r - value / np.where(np.abs(slope) > 1e-6, slope, 1e-6)
        scale = np.where(rd > 1e-12, r / np.maximum(rd, 1e-12), 1.0)[..., None]
        return xd * scale * self.focal + self.centre

    def monotonic_to(self, radius_px: float) -> bool:
        """The model keeps radii in order (a real lens does) out to `radius_px` from the centre:
        beyond that a fitted polynomial folds the image over itself and means nothing."""
        r2 = np.linspace(0.0, (radius_px / self.focal) ** 2, 64)
        return bool(np.all(1.0 + r2 * (3.0 * self.k1 + 5.0 * self.k2 * r2) > 0.05))

    @property
    def camera_matrix(self) -> np.ndarray:
        return np.array([[self.focal, 0.0, self.centre[0]], [0.0, self.focal, self.centre[1]], [0.0, 0.0, 1.0]])

    @property
    def dist_coeffs(self) -> np.ndarray:
        """OpenCV's order (k1, k2, p1, p2)."""
        return np.array([self.k1, self.k2, 0.0, 0.0])

    def to_dict(self) -> dict:
        return {"model": LENS_MODEL, "k1": round(self.k1, 6), "k2": round(self.k2, 6),
                "camera_matrix": self.camera_matrix.round(3).tolist(), "dist_coeffs": self.dist_coeffs.round(6).tolist()}

    @classmethod
    def from_dict(cls, data: dict) -> "RadialLens":
        if data.get("model") != LENS_MODEL:
            raise ValueError(f"lens: unknown model {data.get('model')!r} (expected {LENS_MODEL})")
        matrix = np.asarray(data["camera_matrix"], np.float64)
        if matrix.shape != (3, 3):
            raise ValueError("lens: camera_matrix must be 3×3")
        return cls(float(data["k1"]), float(data["k2"]), (float(matrix[0, 2]), float(matrix[1, 2])), float(matrix[0, 0]))


def _as_points(points) -> tuple[np.ndarray, tuple[int, ...]]:
    pts = np.asarray(points, np.float64)
    return pts.reshape(-1, 2), pts.shape


def _well_inside(xs: np.ndarray, ys: np.ndarray, width: int, height: int) -> bool:
    """All photo points (xs, ys) a pixel or more inside a width × height photo: each one's four
    bilinear neighbours are photo pixels, so a warp of a white frame would read white there."""
    return bool(xs.min() >= 1 and ys.min() >= 1 and xs.max() <= width - 3 and ys.max() <= height - 3)


@dataclass(frozen=True, eq=False)
class GridMapping:
    """Grid units ↔ image pixels for one photo or frame (module docstring).

    `homography`: the plain 3×3 fit, grid units → pixels. `lens`: the radial model or None;
    with a lens, `lens_homography` maps grid units to the pinhole pixels that the lens then
    bends. Build one with `GridMapping(homography)` (no lens) or `GridMapping.with_lens`."""

    homography: np.ndarray
    lens: RadialLens | None = None
    lens_homography: np.ndarray | None = None

    def __post_init__(self):
        object.__setattr__(self, "homography", _as_matrix(self.homography))
        if self.lens is not None:
            if self.lens_homography is None:
                raise ValueError("GridMapping: a lens needs its lens_homography (grid units -> pinhole pixels)")
            object.__setattr__(self, "lens_homography", _as_matrix(self.lens_homography))

    @classmethod
    def with_lens(cls, lens_homography: np.ndarray, lens: RadialLens | None, width: int, height: int
                  ) -> "GridMapping":
        """A mapping through `lens`, whose plain `homography` is fitted (least squares) to the
        bent grid's (width + 1) × (height + 1) corners. `lens=None`: no lens, plain mapping."""
        if lens is None:
            return cls(lens_homography)
        corners = _lattice(width, height)
        bent = lens.distort(_apply(np.asarray(lens_homography, np.float64), corners))
        plain, _ = cv2.findHomography(corners, bent, 0)
        if plain is None:
            plain = lens_homography
        return cls(plain / plain[2, 2], lens, lens_homography)

    @classmethod
    def coerce(cls, mapping) -> "GridMapping":
        """A GridMapping from a GridMapping or a plain 3×3 homography (older callers)."""
        return mapping if isinstance(mapping, GridMapping) else cls(np.asarray(mapping, np.float64).reshape(3, 3))

    def regridded(self, new_to_old: np.ndarray) -> "GridMapping":
        """The same photo mapping in other grid units: `new_to_old` (3×3) takes a point in the
        new units to the old ones (a turn of the board, a shift of its origin)."""
        t = np.asarray(new_to_old, np.float64)
        if self.lens is None:
            return GridMapping(self.homography @ t)
        return GridMapping(self.homography @ t, self.lens, self._pinhole_homography @ t)

    @property
    def straight(self) -> bool:
        """True when no lens bends the mapping: one homography says it all."""
        return self.lens is None

    @property
    def _pinhole_homography(self) -> np.ndarray:
        """Grid units → the pixels before the lens bends them: `lens_homography` with a lens, the
        plain `homography` without one."""
        if self.lens is None:
            return self.homography
        assert self.lens_homography is not None  # __post_init__ refuses a lens without its homography
        return self.lens_homography

    @cached_property
    def _inverse(self) -> np.ndarray:
        return np.linalg.inv(self._pinhole_homography)

    def to_image(self, points_grid) -> np.ndarray:
        """Grid units (..., 2) → image pixels (..., 2)."""
        pts, shape = _as_points(points_grid)
        if len(pts) == 0:   # (cv2.perspectiveTransform gives None for no points)
            return pts.reshape(shape)
        if self.lens is None:
            out = cv2.perspectiveTransform(pts.reshape(-1, 1, 2), self.homography).reshape(-1, 2)
        else:
            out = self.lens.distort(_apply(self._pinhole_homography, pts))
        return out.reshape(shape)

    def to_grid(self, points_px) -> np.ndarray:
        """Image pixels (..., 2) → grid units (..., 2)."""
        pts, shape = _as_points(points_px)
        if len(pts) == 0:
            return pts.reshape(shape)
        if self.lens is not None:
            pts = self.lens.undistort(pts)
        return cv2.perspectiveTransform(pts.reshape(-1, 1, 2), self._inverse).reshape(shape)

    def inside_share(self, width: int, height: int, image_size: tuple[int, int], samples: int = 4) -> np.ndarray:
        """(height, width): the share of each square that lies inside a photo of `image_size`
        (width, height) px — `samples`² points per square."""
        t = (np.arange(samples) + 0.5) / samples
        gx = (np.arange(width)[:, None] + t[None, :]).ravel()
        gy = (np.arange(height)[:, None] + t[None, :]).ravel()
        pts = np.stack(np.meshgrid(gx, gy), axis=-1)                       # (height·s, width·s, 2)
        with np.errstate(divide="ignore", invalid="ignore"):
            seen = self.to_image(pts)
        w, h = image_size
        inside = (seen[..., 0] >= 0) & (seen[..., 0] <= w - 1) & (seen[..., 1] >= 0) & (seen[..., 1] <= h - 1)
        return inside.reshape(height, samples, width, samples).mean(axis=(1, 3))

    def local_homography(self, region: tuple[float, float, float, float]) -> np.ndarray:
        """The homography that best matches the mapping over the grid region (x0, y0, x1, y1):
        for code that works patch by patch (a token's picture, a square's view), where a lens's
        bending over a square or two is far below a pixel. Without a lens: `homography`."""
        if self.lens is None:
            return self.homography
        x0, y0, x1, y1 = region
        gx, gy = np.meshgrid(np.linspace(x0, x1, 4), np.linspace(y0, y1, 4))
        grid = np.stack([gx.ravel(), gy.ravel()], axis=1)
        local, _ = cv2.findHomography(grid, self.to_image(grid), 0)
        return self.homography if local is None else local / local[2, 2]

    def warp(self, image: np.ndarray, canvas_to_grid: np.ndarray, size: tuple[int, int], *,
             interpolation: int = cv2.INTER_LINEAR, border_mode: int = cv2.BORDER_CONSTANT,
             border_value=0) -> np.ndarray:
        """The rectifying warp: a canvas of `size` (width, height) px whose pixel (u, v) shows the
        photo at grid point `canvas_to_grid` @ (u, v, 1). Straight: one `warpPerspective`; with
        a lens, a `remap` through the lens (the map computed in float32 from separable sums)."""
        if self.lens is None:
            return cv2.warpPerspective(image, self.homography @ canvas_to_grid, size,
                                       flags=interpolation | cv2.WARP_INVERSE_MAP, borderMode=border_mode,
                                       borderValue=border_value)
        map_x, map_y = self.canvas_map(canvas_to_grid, size)
        return cv2.remap(image, map_x, map_y, interpolation, borderMode=border_mode, borderValue=border_value)

    def rectify(self, image: np.ndarray, canvas_to_grid: np.ndarray, size: tuple[int, int]
                ) -> tuple[np.ndarray, np.ndarray]:
        """`warp` (bilinear, black outside) and the mask of canvas pixels that came from inside
        the photo (the map is computed once for both). Where every canvas pixel samples a pixel or
        more inside the photo — the whole board in view, as at the table — the mask is all true
        without warping a white frame too (≈ 0.7 ms of a 1080p scan)."""
        photo_h, photo_w = image.shape[:2]
        if self.lens is None:
            warped = self.warp(image, canvas_to_grid, size, border_value=(0, 0, 0))
            w, h = size
            corners = np.array([[0, 0, 1], [w - 1, 0, 1], [w - 1, h - 1, 1], [0, h - 1, 1]], np.float64)
            seen = corners @ (self.homography @ np.asarray(canvas_to_grid, np.float64)).T
            # in front of the camera at all four corners, the canvas's image is the convex hull of theirs
            if (seen[:, 2] > 0).all() and _well_inside(seen[:, 0] / seen[:, 2], seen[:, 1] / seen[:, 2],
                                                      photo_w, photo_h):
                return warped, np.ones((h, w), bool)
            return warped, self.warp(np.full((photo_h, photo_w), 255, np.uint8), canvas_to_grid, size) > 250
        map_x, map_y = self.canvas_map(canvas_to_grid, size)
        warped = cv2.remap(image, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))
        if _well_inside(map_x, map_y, photo_w, photo_h):
            return warped, np.ones(map_x.shape, bool)
        full = np.full((photo_h, photo_w), 255, np.uint8)
        return warped, cv2.remap(full, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT) > 250

    def canvas_map(self, canvas_to_grid: np.ndarray, size: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
        """(map_x, map_y) float32 (height, width): the photo pixel seen at each canvas pixel."""
        w, h = size
        m = self._pinhole_homography @ np.asarray(canvas_to_grid, np.float64)
        u = np.arange(w, dtype=np.float64)
        v = np.arange(h, dtype=np.float64)[:, None]
        hx, hy, hw = (m[k, 0] * u + m[k, 1] * v + m[k, 2] for k in range(3))
        x, y = hx / hw, hy / hw
        if self.lens is not None:
            lens = self.lens
            nx, ny = (x - lens.centre[0]) / lens.focal, (y - lens.centre[1]) / lens.focal
            r2 = nx * nx + ny * ny
            factor = (1.0 + r2 * (lens.k1 + lens.k2 * r2)) * lens.focal
            x, y = nx * factor + lens.centre[0], ny * factor + lens.centre[1]
        return x.astype(np.float32), y.astype(np.float32)

    def to_dict(self) -> dict:
        """{"homography": plain 3×3, "lens": None or the lens with its own homography}."""
        doc = {"homography": self.homography.tolist(), "lens": None}
        if self.lens is not None:
            doc["lens"] = {**self.lens.to_dict(), "homography": self._pinhole_homography.tolist()}
        return doc

    @classmethod
    def from_dict(cls, data: dict) -> "GridMapping":
        """From `to_dict` or a scan JSON document (its `homography` and `lens`)."""
        plain = np.asarray(data["homography"], np.float64)
        if plain.shape != (3, 3):
            raise ValueError("homography must be 3×3")
        lens = data.get("lens")
        if not lens:
            return cls(plain)
        return cls(plain, RadialLens.from_dict(lens), np.asarray(lens["homography"], np.float64))


def sides_out_of_photo(to_image: Callable[[np.ndarray], np.ndarray], width: int, height: int,
                       image_size: tuple[int, int], reach: float = 0.0) -> dict[str, bool]:
    """Per side ("left", "right", "top", "bottom") of a width×height grid placed by `to_image` (grid units →
    pixels): whether less than half of the line `reach` square past that side (the border line itself at 0)
    lies in a photo of `image_size` (w, h), on 19 points along its length."""
    t = np.linspace(0.05, 0.95, 19)
    left, right = np.full_like(t, -reach), np.full_like(t, width + reach)
    top, bottom = np.full_like(t, -reach), np.full_like(t, height + reach)
    lines = {"left": (left, t * height), "right": (right, t * height),
             "top": (t * width, top), "bottom": (t * width, bottom)}
    w, h = image_size
    out = {}
    for side, (u, v) in lines.items():
        with np.errstate(divide="ignore", invalid="ignore"):
            p = to_image(np.stack([u, v], 1))
        inside = (p[:, 0] >= 0) & (p[:, 0] <= w - 1) & (p[:, 1] >= 0) & (p[:, 1] <= h - 1)
        out[side] = bool(inside.mean() < 0.5)
    return out


def resized_to_photo(scale: float) -> np.ndarray:
    """The 3×3 transform from the pixels of a copy resized by `scale` (`cv2.resize` with fx = fy = `scale`,
    whatever the interpolation) to the photo's own pixels. Pixel centres correspond, x = (x' + 0.5) / scale − 0.5:
    dividing by the scale alone would put every point (1 / scale − 1) / 2 px up and to the left, 1.5 px on a
    4K photo read at a quarter of its size."""
    shift = 0.5 / scale - 0.5
    return np.array([[1.0 / scale, 0.0, shift], [0.0, 1.0 / scale, shift], [0.0, 0.0, 1.0]])


def from_resized(points, scale: float) -> np.ndarray:
    """Points found on a copy resized by `scale`, in the photo's pixels (`resized_to_photo`)."""
    return (np.asarray(points, np.float64) + 0.5) / scale - 0.5


def to_resized(points, scale: float) -> np.ndarray:
    """Points of the photo in the pixels of its copy resized by `scale` (`resized_to_photo`'s inverse)."""
    return (np.asarray(points, np.float64) + 0.5) * scale - 0.5


def _as_matrix(h) -> np.ndarray:
    return np.asarray(h, np.float64).reshape(3, 3)


def _apply(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """A 3×3 homography on (n, 2) points (float64, no OpenCV round trip)."""
    ph = pts @ h[:, :2].T + h[:, 2]
    return ph[:, :2] / ph[:, 2:3]


def _lattice(width: int, height: int) -> np.ndarray:
    gx, gy = np.meshgrid(np.arange(width + 1, dtype=np.float64), np.arange(height + 1, dtype=np.float64))
    return np.stack([gx.ravel(), gy.ravel()], axis=1)
