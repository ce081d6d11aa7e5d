"""Stage 6, the result (config section `grid.result`): the board found as a `GridFit`.

The extent's rectangle (stage 4) becomes a fit only when its squares look like printed squares (convex,
not slivers: `plausible_squares`); it is numbered so that it reads upright (`oriented_fit`,
`upright_mapping`: of the 8 ways to number a rectangle's squares, the one whose x axis is closest to the
photo's +x) and taken to the photo's own pixels (`full_size`: a lens fitted again in the photo's
convention). Size unknown, the sides past which the photo does not show whether the grid goes on are said
(`open_sides`, and calibration.grid_finder.find's weakly continuing ones): the answer is partial there.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from calibration.config import GridFinderConfig
from calibration.grid_finder.extent import GridExtent
from calibration.grid_finder.lattice import Lattice, ScaledMapping
from calibration.lens import fit_mapping
from calibration.mapping import GridMapping, from_resized, resized_to_photo, sides_out_of_photo


@dataclass(frozen=True)
class GridFit:
    """The finder's answer: a grid of squares in the photo."""
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


def grid_result(extent: GridExtent, grid: tuple[int, int] | None, cfg: GridFinderConfig) -> GridFit | None:
    """Stage 6 on the working image: the extent as a fit read upright, or None when its squares are not
    squares a photo of a printed board shows (or, size given, no way of reading it has that size)."""
    if not plausible_squares(extent.lattice, extent.rect, cfg):
        return None
    return oriented_fit(extent.lattice, extent.rect, grid, extent.score)


SIDES = ("left", "top", "right", "bottom")


def open_sides(mapping: GridMapping, width: int, height: int, image_size: tuple[int, int],
               reach: float = 0.5) -> tuple[str, ...]:
    """The sides of a width×height grid past which the photo cannot say whether it goes on: less
    than `reach` square of the photo lies beyond that side (on most of its length). Half a square
    past the border is enough to see the next row's separators, or their absence."""
    out = sides_out_of_photo(mapping.to_image, width, height, image_size, reach)
    return tuple(side for side in SIDES if out[side])


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


def plausible_squares(lattice: Lattice, rect: tuple[int, int, int, int], cfg: GridFinderConfig) -> bool:
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
    if min(along_a.min(), along_b.min()) < cfg.result.min_square_side_px:
        return False
    side_a = np.minimum(along_a[:, :-1], along_a[:, 1:])
    side_b = np.minimum(along_b[:-1, :], along_b[1:, :])
    ratio = np.minimum(side_a, side_b) / np.maximum(np.maximum(along_a[:, :-1], along_a[:, 1:]),
                                                    np.maximum(along_b[:-1, :], along_b[1:, :]))
    if ratio.min() < cfg.result.min_square_aspect:
        return False
    # convex and consistently oriented: the cross products at every corner share one sign
    u, v = pts[1:, :-1] - pts[:-1, :-1], pts[:-1, 1:] - pts[:-1, :-1]
    u2, v2 = pts[:-1, 1:] - pts[1:, 1:], pts[1:, :-1] - pts[1:, 1:]
    turn = np.concatenate([(u[..., 0] * v[..., 1] - u[..., 1] * v[..., 0]).ravel(),
                           (u2[..., 0] * v2[..., 1] - u2[..., 1] * v2[..., 0]).ravel()])
    return bool(np.all(turn > 0) or np.all(turn < 0))


def oriented_fit(lattice: Lattice, extent: tuple[int, int, int, int], grid: tuple[int, int] | None, score: float
                 ) -> GridFit | None:
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
    assert not isinstance(lattice.curved, ScaledMapping)  # `find._measuring`'s lattices are measured, never made a fit
    if lattice.curved is not None:
        mapping = lattice.curved.regridded(grid_to_lat)
    else:
        h = lattice.to_image @ grid_to_lat
        mapping = GridMapping(h / h[2, 2])
    return GridFit(mapping, width, height, float(np.clip(score, 0.0, 1.0)))


def full_size(found: GridFit, scale: float, shape: tuple[int, ...], cfg: GridFinderConfig) -> GridFit:
    """The fit in the photo's own pixels. A lens found on the working image is fitted again in
    the photo's convention (centre, focal of the full photo) from its own grid corners."""
    to_image = resized_to_photo(scale) @ found.homography
    plain = GridMapping(to_image / to_image[2, 2])
    if found.mapping.lens is None:
        return GridFit(plain, found.width, found.height, found.score, found.method)
    gx, gy = np.meshgrid(np.linspace(0, found.width, 9), np.linspace(0, found.height, 9))
    grid = np.stack([gx.ravel(), gy.ravel()], axis=1)
    again = fit_mapping((shape[1], shape[0]), (found.width, found.height), grid,
                        from_resized(found.mapping.to_image(grid), scale), config=cfg.lens)
    mapping = again.mapping if again is not None else plain
    return GridFit(mapping, found.width, found.height, found.score, found.method)


def square_side_px(fit: GridFit) -> float:
    """Mean side of the fit's squares in the image it was found in (root of the mean area)."""
    corners = cv2.perspectiveTransform(
        np.array([[[0, 0], [fit.width, 0], [fit.width, fit.height], [0, fit.height]]], np.float64), fit.homography)[0]
    return float(np.sqrt(abs(cv2.contourArea(corners.astype(np.float32))) / (fit.width * fit.height)))
