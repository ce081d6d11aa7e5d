"""Synthetic photos of grids (and of scenes without one) with known ground truth.

Small and self-contained on purpose: the grid finder's tests and benchmark need
exact homographies for many sizes, poses and drawing styles, independent of the
full-board renderer in `vision.synth`.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from boards.palette import INK_BGR, SQUARE_BGR

STYLES = ("chequer", "coloured", "drawn")


@dataclass(frozen=True)
class SynthPhoto:
    image: np.ndarray               # BGR uint8
    homography: np.ndarray | None   # grid units -> pixels, None when there is no grid
    grid: tuple[int, int] | None    # (width, height) in squares


def table_texture(rng: np.random.Generator, size: tuple[int, int]) -> np.ndarray:
    """Wood-like table: stretched noise grain, a light gradient, a random tint."""
    w, h = size
    coarse_grain = rng.normal(0, 1, (h // 16 + 2, w // 48 + 2)).astype(np.float32)
    grain = cv2.resize(coarse_grain, (w, h), interpolation=cv2.INTER_CUBIC)
    fine = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), 1.5)
    ramp = np.linspace(-1, 1, w, dtype=np.float32)[None, :] * rng.uniform(-25, 25)
    base = 120 + 10 * grain + 4 * fine + ramp
    tint = rng.uniform(0.7, 1.2, 3).astype(np.float32)
    img = np.clip(base[:, :, None] * tint[None, None, :], 0, 255).astype(np.uint8)
    angle = rng.uniform(0, 180)
    m = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.5)
    return cv2.warpAffine(img, m, (w, h), borderMode=cv2.BORDER_REFLECT)


def render_flat_grid(rng: np.random.Generator, grid: tuple[int, int], px: int, style: str) -> tuple[np.ndarray, float]:
    """Top-down grid image with a paper margin; returns (image, where the grid's outer top-left corner is, in
    its pixels). Lines are drawn centred on pixels (`margin`); a chequer's squares are whole pixel blocks,
    so its edges lie between two pixels, half a pixel before (OpenCV's pixel centres are integers)."""
    gw, gh = grid
    margin = int(px * rng.uniform(0.3, 0.9))   # paper margin: not a whole number of squares
    img = np.full((gh * px + 2 * margin, gw * px + 2 * margin, 3), 250, np.uint8)
    colours = list(SQUARE_BGR.values())
    for y in range(gh):
        for x in range(gw):
            if style == "chequer":
                c = SQUARE_BGR["B"] if (x + y) % 2 else SQUARE_BGR["W"]
            elif style == "coloured":
                c = colours[rng.integers(len(colours))]
            else:
                continue
            x0, y0 = margin + x * px, margin + y * px
            img[y0:y0 + px, x0:x0 + px] = c
    if style == "chequer":
        return img, margin - 0.5
    thick = max(1, px // 30)
    ink = INK_BGR if style == "coloured" else (150, 150, 150)
    for x in range(gw + 1):
        cv2.line(img, (margin + x * px, margin), (margin + x * px, margin + gh * px), ink, thick)
    for y in range(gh + 1):
        cv2.line(img, (margin, margin + y * px), (margin + gw * px, margin + y * px), ink, thick)
    return img, margin


# A phone's or a webcam's pinhole camera, focal length ÷ the photo's diagonal: 0.55 (a 24 mm-equivalent
# main camera) to 1.7 (a 3× telephoto, 75 mm); webcams 0.6-0.9. Its principal point is the photo's centre.
FOCAL_RANGE = (0.55, 1.7)
MAX_TILT_DEG = 45.0     # the camera's axis off the board's normal: a board on a table shot from a chair


def camera_homography(focal: float, tilt_deg: float, tilt_towards: float, spin: float, aim: tuple[float, float],
                      distance: float, grid: tuple[int, int], size: tuple[int, int]) -> np.ndarray:
    """Grid units -> pixels for a pinhole camera (square pixels, `focal` px, principal point at the photo's
    centre) looking at the board's plane: the board turned by `spin` (radians) in its plane, the camera's
    axis through the point `aim` of the board (grid units), `distance` grid units from it along an axis
    tilted `tilt_deg` off the board's normal towards the direction `tilt_towards` (radians)."""
    w, h = size
    gw, gh = grid
    turn = np.array([[np.cos(spin), -np.sin(spin), 0.0], [np.sin(spin), np.cos(spin), 0.0], [0.0, 0.0, 1.0]])
    on_plane = turn @ np.array([[1.0, 0, -gw / 2], [0, 1.0, -gh / 2], [0, 0, 1.0]])   # grid -> board plane
    target = on_plane @ np.array([aim[0], aim[1], 1.0])
    axis = np.array([np.cos(tilt_towards), np.sin(tilt_towards), 0.0]) * np.radians(tilt_deg)
    world_to_camera, _ = cv2.Rodrigues(axis)
    centre = np.array([target[0], target[1], 0.0]) - distance * world_to_camera[2]   # behind the plane, looking at it
    extrinsic = np.column_stack([world_to_camera[:, 0], world_to_camera[:, 1], -world_to_camera @ centre])
    intrinsic = np.array([[focal, 0, w / 2], [0, focal, h / 2], [0, 0, 1.0]])
    homography = intrinsic @ extrinsic @ on_plane
    return homography / homography[2, 2]


def random_pose(rng: np.random.Generator, grid: tuple[int, int], size: tuple[int, int]) -> np.ndarray:
    """Grid -> image homography of a real camera's photo of the board (`camera_homography`): a focal length in
    `FOCAL_RANGE`, tilted up to `MAX_TILT_DEG`, the board turned any way, aimed at a point of its middle half,
    at the distance where its long side spans 45-85 % of the frame's short side (its squares there at least
    1/70 of the frame's width: what a phone shows of a board it is aimed at), the whole grid inside."""
    w, h = size
    gw, gh = grid
    while True:
        focal = float(np.exp(rng.uniform(*np.log(FOCAL_RANGE)))) * float(np.hypot(w, h))
        side = max(rng.uniform(0.45, 0.85) * min(w, h), max(gw, gh) * w / 70)
        aim = (gw * rng.uniform(0.25, 0.75), gh * rng.uniform(0.25, 0.75))
        pose = camera_homography(focal, rng.uniform(0, MAX_TILT_DEG), rng.uniform(-np.pi, np.pi),
                                 rng.uniform(-np.pi, np.pi), aim, focal * max(gw, gh) / side, grid, size)
        corners = np.array([[0, 0, 1], [gw, 0, 1], [gw, gh, 1], [0, gh, 1]], float) @ pose.T
        if (corners[:, 2] <= 0).any():
            continue
        pts = corners[:, :2] / corners[:, 2:]
        inside = (pts[:, 0] > 0.03 * w).all() and (pts[:, 0] < 0.97 * w).all() and \
                 (pts[:, 1] > 0.03 * h).all() and (pts[:, 1] < 0.97 * h).all()
        if inside:
            return pose



def synthetic_grid_photo(rng: np.random.Generator, grid: tuple[int, int] | None, *,
                         size: tuple[int, int] = (1280, 960), style: str = "chequer") -> SynthPhoto:
    """A photo-like image of a grid (or of a bare table when grid is None), with its truth."""
    background = table_texture(rng, size)
    if grid is None:
        return SynthPhoto(background, None, None)
    px = 40
    flat, margin = render_flat_grid(rng, grid, px, style)
    h = random_pose(rng, grid, size)
    flat_to_grid = np.array([[1 / px, 0, -margin / px], [0, 1 / px, -margin / px], [0, 0, 1]])
    warp = h @ flat_to_grid
    fw, fh = size
    warped = cv2.warpPerspective(flat, warp, (fw, fh), flags=cv2.INTER_AREA)
    mask = cv2.warpPerspective(np.full(flat.shape[:2], 255, np.uint8), warp, (fw, fh), flags=cv2.INTER_LINEAR)
    alpha = (mask.astype(np.float32) / 255)[:, :, None]
    light = np.linspace(rng.uniform(0.75, 1.0), rng.uniform(0.85, 1.1), fw, dtype=np.float32)[None, :, None]
    img = (warped * alpha + background * (1 - alpha)) * light
    img += rng.normal(0, 3, img.shape).astype(np.float32)
    photo = cv2.GaussianBlur(np.clip(img, 0, 255).astype(np.uint8), (3, 3), 0.8)
    return SynthPhoto(photo, h, grid)


def no_grid_scenes(rng: np.random.Generator, size: tuple[int, int] = (1280, 960)) -> dict[str, np.ndarray]:
    """Images in which no grid exists: noise, a gradient, a table, a page of text."""
    w, h = size
    noise = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
    gradient = np.dstack([np.tile(np.linspace(20, 230, w, dtype=np.float32), (h, 1))] * 3).astype(np.uint8)
    page = np.full((h, w, 3), 245, np.uint8)
    words = "le sorcier lance une boule de feu sur la case voisine et pioche deux cartes".split()
    y = 60
    while y < h - 20:
        line = " ".join(rng.choice(words, 8))
        cv2.putText(page, line, (40, y), cv2.FONT_HERSHEY_SIMPLEX, 1.1, (30, 30, 30), 2, cv2.LINE_AA)
        y += 48
    return {"noise": noise, "gradient": gradient, "table": table_texture(rng, size), "text": page}
