"""Reading each square of a registered, white-balanced board (MT 2.02, 2.03, 2.04).

Arrangement-agnostic: every pixel of a square's inner region is classified by
the colour profile, and a colour counts when it covers enough of the square —
so vertical bands, diagonals, quadrants or a foreign style all read the same.
Marks (start, Temple, hatching) are matched first and their pixels left out.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from boards.model import COLOURS
from calibration.colour import CLASSES, ColourProfile, to_lab
from calibration.config import ColourConfig, SymbolConfig
from vision.symbols import GLYPHS, SHIFT, hatch_scores, mark_templates, match_glyphs

OBSTACLE_CLASS = CLASSES.index("O")


@dataclass(frozen=True)
class SquareReading:
    x: int
    y: int
    colours: str        # WUBRG order
    obstacle: bool
    start: bool
    temple: bool
    confidence: float
    uncertain: bool
    covered: bool

    def to_dict(self) -> dict:
        return {"x": self.x, "y": self.y, "colours": self.colours, "obstacle": self.obstacle,
                "start": self.start, "temple": self.temple, "confidence": round(self.confidence, 3),
                "uncertain": self.uncertain, "covered": self.covered}


def _cells(image: np.ndarray, width: int, height: int, px: int) -> np.ndarray:
    """(H·px, W·px, ...) -> (height, width, px, px, ...)."""
    rest = image.shape[2:]
    return image.reshape(height, px, width, px, *rest).swapaxes(1, 2)


def _padded_cells(image: np.ndarray, width: int, height: int, px: int) -> np.ndarray:
    """Square patches with SHIFT pixels of context on every side, (n, px+2S, px+2S)."""
    padded = np.pad(image, SHIFT, mode="edge")
    size = px + 2 * SHIFT
    view = np.lib.stride_tricks.sliding_window_view(padded, (size, size))
    return view[::px, ::px][:height, :width].reshape(height * width, size, size)


def inner_mask(px: int, margin: float) -> np.ndarray:
    cut = int(round(px * margin))
    mask = np.zeros((px, px), bool)
    mask[cut:px - cut, cut:px - cut] = True
    return mask


def _line_contrast(gray: np.ndarray, width: int, height: int, px: int, inner: np.ndarray) -> np.ndarray:
    """(n,) how much darker than its inside the faintest of the four printed grid lines
    around each square is (a hand's edge darkens one side, never all four)."""
    cells = _cells(gray, width, height, px).reshape(width * height, px, px)
    middle = np.median(cells[:, inner], axis=1)  # median: a glyph is no line
    sides = np.stack([cells[:, 0, :].mean(axis=1), cells[:, -1, :].mean(axis=1),
                      cells[:, :, 0].mean(axis=1), cells[:, :, -1].mean(axis=1)], axis=1)
    return middle - sides.max(axis=1)


def _hue_shares(lab_pixels: np.ndarray, profile: ColourProfile, min_chroma: float) -> np.ndarray:
    """(m, p, 3) Lab pixels of hatched squares -> (m, 5) share of pixels of each chromatic
    colour (U, R, G) by hue. Black-and-white hatching dilutes chroma but keeps hue."""
    a, b = lab_pixels[..., 1], lab_pixels[..., 2]
    chroma = np.hypot(a, b)
    hue = np.arctan2(b, a)
    shares = np.zeros((len(lab_pixels), 5))
    centres = {c: np.arctan2(profile.means[CLASSES.index(c), 2], profile.means[CLASSES.index(c), 1]) for c in "URG"}
    gaps = np.stack([np.abs(np.angle(np.exp(1j * (hue - centres[c])))) for c in "URG"], axis=-1)
    nearest = gaps.argmin(axis=-1)
    coloured = (chroma >= min_chroma) & (gaps.min(axis=-1) < np.radians(45))
    for k, c in enumerate("URG"):
        shares[:, COLOURS.index(c)] = ((nearest == k) & coloured).mean(axis=1)
    return shares


def _hatched_colours(hues: np.ndarray, lightness: float, single: bool, levels: tuple[float, float],
                     symbols: SymbolConfig) -> tuple[str, bool]:
    """Colours of a hatched square (MT 2.03.a/c): none under the colourless obstacle's
    hatch; else U/R/G by hue, and without a hue B or W by lightness against the
    printer's own hatched B and W squares."""
    if single:
        return "", False
    colours = "".join(c for c, v in zip(COLOURS, hues) if v >= symbols.hatch_hue_cover)
    doubtful = bool((np.abs(hues - symbols.hatch_hue_cover) < symbols.hatch_hue_doubt).any())
    if not colours:
        cut = sum(levels) / 2
        colours = "W" if lightness >= cut else "B"
        doubtful |= abs(lightness - cut) < symbols.hatch_lightness_doubt
    return colours, doubtful


def read_squares(balanced: np.ndarray, labels: np.ndarray, width: int, height: int, px: int, *,
                 profile: ColourProfile, colour: ColourConfig, symbols: SymbolConfig | None,
                 covered_hint: np.ndarray | None = None) -> list[SquareReading]:
    """Per-square colours, marks, confidence (MT 2.02.d–e, 2.03.a–c, 2.04.a–b).

    balanced (white-balanced BGR, float 0..255) and labels cover exactly the grid (height·px × width·px). `symbols` None
    means a foreign board: no start/Temple glyphs are looked for. A colour whose
    coverage is doubtful makes the square `uncertain` (MT 2.02.e: it does not
    count until a person confirms it).
    """
    n = width * height
    gray = cv2.cvtColor(np.clip(balanced, 0, 255).astype(np.float32), cv2.COLOR_BGR2GRAY)
    inner = inner_mask(px, colour.inner_margin)
    ignore = np.zeros((n, px, px), bool)
    glyph_of = np.full(n, -1)
    mark_sure = np.ones(n, bool)
    hatched = np.zeros(n, bool)
    lightness = np.zeros(n)
    levels = (0.0, 0.0)
    single_hatch = np.zeros(n, bool)  # the colourless obstacle's hatch (MT 2.03.a)
    cell_labels = _cells(labels, width, height, px).reshape(n, px, px)
    considered = np.broadcast_to(inner, (n, px, px))
    if symbols is not None:
        templates = mark_templates(px, colour.inner_margin)
        patches = _padded_cells(gray, width, height, px)
        inner_gray = _cells(gray, width, height, px).reshape(n, px, px)[:, templates.inner, templates.inner]
        structured = np.nonzero(inner_gray.std(axis=(1, 2)) >= symbols.min_structure)[0]
        if len(structured):
            score, evidence = match_glyphs(patches[structured], templates)
            gray_cells = inner_gray
            hatch, single = hatch_scores(gray_cells[structured], templates)
            # a cross-hatch also half-matches a glyph: the periodic texture decides first
            is_hatch = hatch >= symbols.hatch_min_score
            hatched[structured[is_hatch]] = True
            single_hatch[structured[is_hatch & single]] = True
            is_glyph = (score >= symbols.glyph_min_score) & ~is_hatch
            kind = np.where(evidence >= 0, 0, 1)
            glyph_of[structured[is_glyph]] = kind[is_glyph]
            sure_glyph = (score >= symbols.glyph_sure_score) & (np.abs(evidence) >= symbols.glyph_min_evidence)
            hatch_unsure = np.abs(hatch - symbols.hatch_min_score) < symbols.hatch_doubt
            mark_sure[structured] = ~hatch_unsure & (~is_glyph | sure_glyph)
            for k, name in enumerate(GLYPHS):
                ignore[glyph_of == k] = templates.masks[name]
            lightness[hatched] = gray_cells[hatched].mean(axis=(1, 2))
            levels = templates.hatched_levels
        considered = considered & ~ignore
    total = considered.sum(axis=(1, 2)).clip(min=1)
    counts = np.stack([((cell_labels == k) & considered).sum(axis=(1, 2)) for k in range(len(CLASSES))], axis=1)
    unknown = 1.0 - counts.sum(axis=1) / total
    # boundaries between colours blur into no class: shares are among the pixels that have one
    fractions = counts / counts.sum(axis=1, keepdims=True).clip(min=1)
    hues = np.zeros((n, 5))
    if hatched.any():
        lab_cells = _cells(to_lab(balanced), width, height, px).reshape(n, px, px, 3)[:, inner]
        hues[hatched] = _hue_shares(lab_cells[hatched], profile, symbols.hatch_min_chroma)
    line_contrast = _line_contrast(gray, width, height, px, inner)
    readings = []
    for i in range(n):
        y, x = divmod(i, width)
        f = fractions[i]
        colour_f = f[:5]
        kind = GLYPHS[glyph_of[i]] if glyph_of[i] >= 0 else ("hatch" if hatched[i] else None)
        grey_dominant = f[OBSTACLE_CLASS] >= max(colour_f.max(), colour.min_cover)
        if hatched[i]:
            colours, doubtful = _hatched_colours(hues[i], lightness[i], single_hatch[i], levels, symbols)
        else:
            colours = "".join(c for c, v in zip(COLOURS, colour_f) if v >= colour.min_cover)
            doubtful = bool(((colour_f >= colour.min_cover - colour.doubt_below)
                             & (colour_f < colour.min_cover + colour.doubt_above)).any())
            if grey_dominant:
                colours = "".join(c for c, v in zip(COLOURS, colour_f)
                                  if v >= colour.min_cover + 2 * colour.doubt_above)
        obstacle = kind == "hatch" or grey_dominant or not colours
        start, temple = kind == "start", kind == "temple"
        if obstacle and (start or temple):  # a glyph on an obstacle cannot be: doubt the glyph
            start = temple = False
            doubtful = True
        covered = bool(unknown[i] >= colour.covered_unknown) and not hatched[i]
        # a light square with no grid line around it is something lying on the board (a hand)
        covered |= bool(symbols is not None and colours == "W" and line_contrast[i] < colour.min_line_contrast)
        if covered_hint is not None and covered_hint[y, x]:
            covered = True
        explained = 1.0 if hatched[i] else 1.0 - unknown[i]  # a hatch blurs into no class by design
        gaps = np.abs((hues[i] if hatched[i] else colour_f) - colour.min_cover)
        confidence = explained * min(1.0, gaps.min() / (2 * colour.doubt_below))
        if not mark_sure[i] and not (kind in (None, "hatch") and not colours):
            doubtful = True  # a weak mark matters unless the square is a colourless obstacle anyway
            confidence *= 0.5
        uncertain = doubtful or explained < colour.min_explained or covered or confidence < colour.min_confidence
        readings.append(SquareReading(x, y, colours, bool(obstacle), bool(start), bool(temple),
                                      float(np.clip(confidence, 0, 1)), bool(uncertain), covered))
    return readings
