"""Start / Temple glyphs and obstacle hatching, learnt from render_board's own drawing.

No hand-made template: a tiny board with, for every colour, a plain square, a
start, a Temple and an obstacle (plus a colourless obstacle) is rendered by the
printer at the scan's canonical resolution (4× larger, then reduced as a
camera would), and everything the reader needs is measured on it:
- glyphs are shapes (white with a black outline): zero-mean gray patches per
  square colour, a start-minus-Temple direction to tell the two apart, and the
  mask of the pixels a glyph paints so that the colour reading leaves them out;
- hatching is a texture: its magnitude spectrum (shift-invariant, so the
  lines may fall anywhere in the square) tells hatched from plain and the
  colourless obstacle's hatch from the coloured obstacles' one; hatched W and
  B blur into grey in a photo and are told apart by their mean gray.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from boards.model import COLOURS, Board
from vision.printed import render_printed

GLYPHS = ("start", "temple")
_MARKS = {"plain": "", "start": "@", "temple": "*", "hatch": "#"}
SHIFT = 2          # pixels of misregistration tolerated by the glyph match


@dataclass(frozen=True)
class MarkTemplates:
    px: int
    inner: slice                     # rows/cols of the square compared
    glyphs: np.ndarray               # (pixels, 5 colours × 2 glyphs) zero-mean unit gray patches
    discriminants: np.ndarray        # (pixels, 5) unit start-minus-Temple directions per colour
    separation: np.ndarray           # (5,) projection of a clean start on its discriminant
    masks: dict[str, np.ndarray]     # glyph -> (px, px) bool, pixels it paints (dilated)
    hatch_spectra: np.ndarray        # (k, f) unit, zero-mean magnitude spectra of the printed hatches
    hatched_levels: tuple[float, float]  # mean gray of hatched B and W squares
    colourless_level: float          # mean gray of the colourless obstacle (MT 2.03.a)
    glyph_spread: float              # gray std of the faintest printed glyph's compared inside


def hatch_spectrum(gray_cells: np.ndarray) -> np.ndarray:
    """(n, s, s) -> (n, f) magnitude spectrum without DC: a periodic hatch gives the
    same spectrum wherever its lines fall (shift-invariant)."""
    cells = gray_cells - gray_cells.mean(axis=(1, 2), keepdims=True)
    window = np.outer(np.hanning(cells.shape[1]), np.hanning(cells.shape[2]))
    spectrum = np.abs(np.fft.rfft2(cells * window))
    spectrum[:, 0, 0] = 0
    return spectrum.reshape(len(cells), -1)


def hatch_scores(gray_cells: np.ndarray, templates: "MarkTemplates"
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(n,) best correlation of each square's spectrum with a printed hatch's, whether
    the best is the colourless obstacle's hatch (MT 2.03.a) rather than the coloured
    obstacles' one, and by how much the two kinds differ (small: doubtful kind)."""
    spectra = hatch_spectrum(gray_cells)
    spectra = spectra - spectra.mean(axis=1, keepdims=True)
    spectra /= np.linalg.norm(spectra, axis=1, keepdims=True) + 1e-6
    corr = spectra @ templates.hatch_spectra.T
    colourless = corr[:, -1]
    coloured = corr[:, :-1].max(axis=1)
    return corr.max(axis=1), colourless > coloured, np.abs(colourless - coloured)


def _unit(v: np.ndarray) -> np.ndarray:
    v = v - v.mean()
    return v / (np.linalg.norm(v) + 1e-6)


@lru_cache(maxsize=8)
def mark_templates(px: int, inner_margin: float) -> MarkTemplates:
    """Templates at `px` pixels per square, from the printer's own rendering."""
    codes = [c + m for c in COLOURS for m in _MARKS.values()] + ["."]
    board = Board.from_rows([" ".join(codes)])
    printed = render_printed(board, px * 4)
    x0, y0 = (int(round(v)) for v in printed.origin)
    big = printed.image[y0:y0 + px * 4, x0:x0 + px * 4 * len(codes)]
    small = cv2.resize(big, (px * len(codes), px), interpolation=cv2.INTER_AREA)
    gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY).astype(np.float32)
    cut = int(round(px * inner_margin))
    inner = slice(cut, px - cut)

    def cell(image, code):
        i = codes.index(code)
        return image[:, i * px:(i + 1) * px]

    glyphs, discriminants, separation = [], [], []
    glyph_spread = min(float(cell(gray, c + _MARKS[k])[inner, inner].std()) for c in COLOURS for k in GLYPHS)
    for c in COLOURS:
        start, temple = (_unit(cell(gray, c + _MARKS[k])[inner, inner].ravel()) for k in GLYPHS)
        glyphs += [start, temple]
        d = _unit(start - temple)
        discriminants.append(d)
        separation.append(float(start @ d))
    masks = {}
    for kind in GLYPHS:
        painted = np.abs(cell(gray, "R" + _MARKS[kind]) - cell(gray, "R")) > 20
        masks[kind] = cv2.dilate(painted.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
    hatch_codes = [c + "#" for c in COLOURS] + ["."]
    spectra = np.stack([_unit(hatch_spectrum(cell(gray, code)[inner, inner][None])[0]) for code in hatch_codes])
    levels = tuple(float(cell(gray, code)[inner, inner].mean()) for code in ("B#", "W#"))
    return MarkTemplates(px, inner, np.stack(glyphs, axis=1), np.stack(discriminants, axis=1),
                         np.array(separation), masks, spectra, levels, float(cell(gray, ".")[inner, inner].mean()),
                         glyph_spread)


def match_glyphs(gray_patches: np.ndarray, templates: MarkTemplates) -> tuple[np.ndarray, np.ndarray]:
    """For each square (gray patch with SHIFT px of context): the best glyph
    correlation over colours and shifts (-1..1), and the start-vs-Temple evidence
    at that best match (> 0 start, < 0 Temple; ±1 is a clean printed glyph)."""
    inner = templates.inner
    size = inner.stop - inner.start
    n = len(gray_patches)
    best = np.full((n, len(COLOURS)), -1.0, np.float32)
    evidence = np.zeros((n, len(COLOURS)), np.float32)
    for shift_y in range(-SHIFT, SHIFT + 1):
        for shift_x in range(-SHIFT, SHIFT + 1):
            y0, x0 = SHIFT + inner.start + shift_y, SHIFT + inner.start + shift_x
            window = gray_patches[:, y0:y0 + size, x0:x0 + size].reshape(n, -1)
            window = window - window.mean(axis=1, keepdims=True)
            window /= np.linalg.norm(window, axis=1, keepdims=True) + 1e-6
            corr = (window @ templates.glyphs).reshape(n, len(COLOURS), 2).max(axis=2)
            proj = (window @ templates.discriminants) / templates.separation
            better = corr > best
            best[better] = corr[better]
            evidence[better] = proj[better]
    colour = best.argmax(axis=1)
    rows = np.arange(n)
    return best[rows, colour], evidence[rows, colour]
