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


def render_flat_grid(rng: np.random.Generator, grid: tuple[int, int], px: int, style: str) -> tuple[np.ndarray, int]:
    """Top-down grid image with a paper margin; returns (image, margin px)."""
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
        return img, margin
    thick = max(1, px // 30)
    ink = INK_BGR if style == "coloured" else (150, 150, 150)
    for x in range(gw + 1):
        cv2.line(img, (margin + x * px, margin), (margin + x * px, margin + gh * px), ink, thick)
    for y in range(gh + 1):
        cv2.line(img, (margin, margin + y * px), (margin + gw * px, margin + y * px), ink, thick)
    return img, margin


def random_pose(rng: np.random.Generator, grid: tuple[int, int], size: tuple[int, int]) -> np.ndarray:
    """Grid -> image homography: random scale, rotation, tilt and position, grid inside the frame."""
    w, h = size
    gw, gh = grid
    while True:
        # squares at least 1/70 of the frame's width: what a phone shows of a board it is aimed at
        side = max(rng.uniform(0.45, 0.85) * min(w, h), max(gw, gh) * w / 70)
        sq = side / max(gw, gh)
        angle = rng.uniform(-np.pi, np.pi)
        rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
        corners = np.array([[0, 0], [gw, 0], [gw, gh], [0, gh]], float) - [gw / 2, gh / 2]
        pts = corners * sq @ rot.T
        pts += rng.uniform(-0.12, 0.12, (4, 2)) * side      # perspective: move each corner a little
        pts += [w / 2 + rng.uniform(-0.1, 0.1) * w, h / 2 + rng.uniform(-0.1, 0.1) * h]
        inside = (pts[:, 0] > 0.03 * w).all() and (pts[:, 0] < 0.97 * w).all() and \
                 (pts[:, 1] > 0.03 * h).all() and (pts[:, 1] < 0.97 * h).all()
        if inside and cv2.isContourConvex(pts.astype(np.float32)):
            src = np.array([[0, 0], [gw, 0], [gw, gh], [0, gh]], np.float32)
            return cv2.getPerspectiveTransform(src, pts.astype(np.float32)).astype(np.float64)


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
