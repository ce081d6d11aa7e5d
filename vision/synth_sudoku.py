"""Synthetic photos of a newspaper sudoku on its page, with exact truth (issue 28).

What the markerless finder met on real newspaper pages and got wrong: a 9×9 grid with a thicker line
every 3 squares, whose thick inner lines look like an outline; columns of text beside it, whose lines
stack as regularly as a grid's rows, and ruled column separators; small solution grids below a sudoku
that fills a third of the page. Two layouts:

- "beside": the sudoku in a page's column, text columns beside it, the photo aimed at the sudoku;
- "third": a big sudoku filling about a third of the page, small solution grids below it, the whole
  page in the photo (a busy page: many lines, every one of them straight).

The page is drawn flat in the sudoku's units (one unit a square), photographed with vision.synth's
camera (perspective tilt, lighting, blur, noise, JPEG; no lens, so the truth is one homography).
"""
from __future__ import annotations

import cv2
import numpy as np

from calibration.grid_synth import SynthPhoto
from vision.synth import _camera_homography, _finish, _lighting, camera_warp, table_texture

LAYOUTS = ("beside", "third")
SUDOKU = (9, 9)
_WORDS = ("le maire a annonce hier soir que la route du col sera fermee pendant les travaux de "
          "printemps les commercants du centre ville demandent une aide au conseil municipal").split()


def _ink(rng: np.random.Generator) -> tuple[int, int, int]:
    grey = int(rng.integers(15, 60))
    return grey, grey, grey


def text_column(rng: np.random.Generator, page: np.ndarray, box: tuple[int, int, int, int], line_px: float) -> None:
    """Lines of small printed words filling `box` (x0, y0, x1, y1) of the page, a paragraph break now and then."""
    x0, y0, x1, y1 = box
    scale = line_px / 38.0           # Hershey simplex: about 22 px of cap height at scale 1
    thick = max(1, int(round(line_px / 14)))
    y = y0 + line_px
    while y < y1:
        if rng.random() < 0.08:       # paragraph break
            y += line_px
            continue
        x = x0 + (int(line_px) if rng.random() < 0.1 else 0)
        while True:
            word = str(rng.choice(_WORDS))
            (tw, _), _ = cv2.getTextSize(word, cv2.FONT_HERSHEY_SIMPLEX, scale, thick)
            if x + tw > x1:
                break
            cv2.putText(page, word, (x, int(y)), cv2.FONT_HERSHEY_SIMPLEX, scale, _ink(rng), thick, cv2.LINE_AA)
            x += tw + int(line_px * 0.35)
        y += line_px


def draw_sudoku(rng: np.random.Generator, page: np.ndarray, origin: tuple[float, float], px: float,
                *, digits: float, block: int = 3) -> None:
    """A 9×9 grid at `origin` (page px), squares `px` wide: thin lines, a thick line every `block`
    squares and round it, digits in a `digits` share of the squares."""
    ox, oy = origin
    thin = max(1, int(round(px * rng.uniform(0.025, 0.05))))
    thick = max(thin + 2, int(round(px * rng.uniform(0.08, 0.14))))
    ink = _ink(rng)
    for k in range(10):
        width = thick if k % block == 0 else thin
        a = int(round(ox + k * px)), int(round(oy + k * px))
        cv2.line(page, (a[0], int(oy)), (a[0], int(round(oy + 9 * px))), ink, width)
        cv2.line(page, (int(ox), a[1]), (int(round(ox + 9 * px)), a[1]), ink, width)
    scale = px / 40.0
    for row in range(9):
        for col in range(9):
            if rng.random() < digits:
                text = str(int(rng.integers(1, 10)))
                (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, max(1, int(px / 16)))
                at = (int(ox + (col + 0.5) * px - tw / 2), int(oy + (row + 0.5) * px + th / 2))
                cv2.putText(page, text, at, cv2.FONT_HERSHEY_SIMPLEX, scale, ink, max(1, int(px / 16)), cv2.LINE_AA)


def _page(rng: np.random.Generator, layout: str, px: int) -> tuple[np.ndarray, tuple[float, float],
                                                                   tuple[float, float, float, float]]:
    """The flat page (page px), the sudoku's top-left corner on it, and the part the photo frames
    (x0, y0, x1, y1 in page px)."""
    gutter = int(px * rng.uniform(0.4, 0.8))
    line_px = px * rng.uniform(0.38, 0.55)
    if layout == "beside":
        columns = 4
        column_w = 9 * px + int(px * rng.uniform(0, 0.6))       # the sudoku fills its column
    else:
        columns = 3
        column_w = int(9 * px * rng.uniform(0.62, 0.75))         # the sudoku spans about a column and a half
    width = columns * column_w + (columns - 1) * gutter + 2 * gutter
    height = int(width * rng.uniform(1.25, 1.4))
    page = np.full((height, width, 3), [int(v) for v in rng.integers(225, 246, 3)], np.uint8)
    top = int(2.2 * px)
    cv2.putText(page, "SUDOKU", (gutter, int(1.6 * px)), cv2.FONT_HERSHEY_DUPLEX, px / 22.0, _ink(rng),
                max(2, px // 12), cv2.LINE_AA)
    cv2.line(page, (gutter, top - px // 4), (width - gutter, top - px // 4), _ink(rng), max(1, px // 20))
    lefts = [gutter + c * (column_w + gutter) for c in range(columns)]
    for left in lefts[1:]:                                       # ruled column separators
        cv2.line(page, (left - gutter // 2, top), (left - gutter // 2, height - gutter), _ink(rng), 1)
    if layout == "beside":
        sudoku_col = int(rng.integers(columns))
        origin = (lefts[sudoku_col] + (column_w - 9 * px) / 2, top + px * rng.uniform(1.0, 4.0))
        for c, left in enumerate(lefts):
            if c == sudoku_col:
                text_column(rng, page, (left, top, left + column_w, int(origin[1] - 0.6 * px)), line_px)
                text_column(rng, page, (left, int(origin[1] + 9.6 * px), left + column_w, height - gutter), line_px)
            else:
                text_column(rng, page, (left, top, left + column_w, height - gutter), line_px)
        draw_sudoku(rng, page, origin, px, digits=rng.uniform(0.25, 0.4))
        margin = px * rng.uniform(1.5, 5.0)                     # the photo frames the sudoku and its neighbours
        frame = (origin[0] - margin, origin[1] - margin, origin[0] + 9 * px + margin, origin[1] + 9 * px + margin)
        return page, origin, frame
    origin = (float(lefts[0]), top + 0.5 * px)
    right = origin[0] + 9 * px
    solution_px = px * rng.uniform(0.22, 0.3)
    below = origin[1] + 9.8 * px
    x = origin[0]
    while x + 9 * solution_px <= right:                          # the previous issue's solutions, in a row below
        draw_sudoku(rng, page, (x, below), solution_px, digits=1.0)
        x += 9 * solution_px + px * 0.5
    text_column(rng, page, (int(origin[0]), int(below + 9 * solution_px + px * 0.5), int(right),
                             height - gutter), line_px)
    column_x = int(right + gutter)
    cv2.line(page, (column_x - gutter // 2, top), (column_x - gutter // 2, height - gutter), _ink(rng), 1)
    text_column(rng, page, (column_x, top, width - gutter, height - gutter), line_px)
    draw_sudoku(rng, page, origin, px, digits=rng.uniform(0.25, 0.4))
    return page, origin, (0.0, 0.0, float(width), float(height))


def photograph_sudoku(rng: np.random.Generator, layout: str = "beside", *, frame: tuple[int, int] = (1600, 1200),
                      max_tilt_deg: float = 25.0) -> SynthPhoto:
    """A photo of a newspaper sudoku (`layout` one of LAYOUTS) with its truth: `homography` maps the
    sudoku's units ((0, 0) its outer top-left corner, (9, 9) the bottom-right) to the photo's pixels."""
    if layout not in LAYOUTS:
        raise ValueError(f"layout must be one of {LAYOUTS}, got {layout!r}")
    px = int(rng.integers(36, 56))
    page, origin, framed = _page(rng, layout, px)
    to_grid = np.array([[1 / px, 0, -origin[0] / px], [0, 1 / px, -origin[1] / px], [0, 0, 1]])
    framed_grid = ((framed[0] - origin[0]) / px, (framed[1] - origin[1]) / px,
                   (framed[2] - origin[0]) / px, (framed[3] - origin[1]) / px)
    fill = (0.55, 0.85) if layout == "third" else (0.6, 1.0)
    homography, _ = _camera_homography(rng, framed_grid, frame, max_tilt_deg=max_tilt_deg, fill=fill)
    image = table_texture(rng, frame)
    camera_warp(page, homography @ to_grid, image)
    work = image.astype(np.float32)
    _lighting(rng, work, shadow=rng.random() < 0.5)
    photo, _, _ = _finish(rng, np.clip(work, 0, 255).astype(np.uint8), distortion=False, jpeg=True)
    return SynthPhoto(photo, homography, SUDOKU)
