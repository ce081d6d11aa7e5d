"""Reading each square of a registered, white-balanced board (MT 2.02, 2.03, 2.04).

Arrangement-agnostic: every pixel of a square's inner region is classified by
the colour profile, and a colour counts when it covers enough of the square —
so vertical bands, diagonals, quadrants or a foreign style all read the same.
Marks (start, Temple, hatching) are matched first and their pixels left out.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from functools import cached_property

import cv2
import numpy as np

from boards.model import COLOURS
from boards.palette import SQUARE_BGR
from calibration.colour import CLASSES, ColourProfile, to_lab
from calibration.config import ColourConfig, SymbolConfig
from calibration.numeric import median_along
from vision.symbols import GLYPHS, SHIFT, hatch_scores, mark_templates, match_glyphs

OBSTACLE_CLASS = CLASSES.index("O")
WHITE_CLASS = CLASSES.index("W")


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
    visible: bool = True   # False: the photo does not show this square (outside the frame): nothing is read
    why: tuple[str, ...] = ()   # why it is covered or uncertain, in words a person can read

    def to_dict(self) -> dict:
        return {"x": self.x, "y": self.y, "colours": self.colours, "obstacle": self.obstacle,
                "start": self.start, "temple": self.temple, "confidence": round(self.confidence, 3),
                "uncertain": self.uncertain, "covered": self.covered, "visible": self.visible, "why": list(self.why)}


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


def _line_contrast(gray: np.ndarray, width: int, height: int, px: int, inner: np.ndarray, band: int,
                   surround: tuple[np.ndarray, int] | None = None,
                   glyphs: dict[int, np.ndarray] | None = None) -> np.ndarray:
    """(n,) how much darker than its inside the faintest of the four printed grid lines
    around each square is (a hand's edge darkens one side, never all four), against the
    median of the square's inner pixels (`glyphs`: square -> pixels of its glyph, left out:
    a large glyph is no part of the paper). Each line is
    looked for within `band` pixels of the square's edge: a registration off by a pixel
    must not lose it. `surround` (gray image around the grid, offset of the grid in it)
    keeps the outer lines when they fall just outside the grid."""
    cells = _cells(gray, width, height, px).reshape(width * height, px, px)
    middle = median_along(cells[:, inner])
    for i, glyph in (glyphs or {}).items():
        middle[i] = np.median(cells[i][inner & ~glyph])
    if surround is not None and surround[1] >= band:
        image, offset = surround
        padded = image[offset - band:offset + height * px + band, offset - band:offset + width * px + band]
    else:
        padded = np.pad(gray, band, mode="edge")
    half = slice(px // 4, px - px // 4)  # the middle half of each side: corners are shared
    rows = np.stack([padded[k * px:k * px + 2 * band] for k in range(height + 1)])  # (h+1, 2b, W)
    across = rows[:, :, band:band + width * px].reshape(height + 1, 2 * band, width, px)[..., half]
    horizontal = across.mean(axis=-1).min(axis=1)  # (h+1, w): darkest row near each horizontal edge
    cols = np.stack([padded[:, k * px:k * px + 2 * band] for k in range(width + 1)])  # (w+1, H, 2b)
    down = cols[:, band:band + height * px].reshape(width + 1, height, px, 2 * band)[:, :, half]
    vertical = down.mean(axis=2).min(axis=-1).T  # (h, w+1): darkest column near each vertical edge
    sides = np.stack([horizontal[:-1], horizontal[1:], vertical[:, :-1], vertical[:, 1:]], axis=-1)
    return middle - sides.reshape(width * height, 4).max(axis=1)


def _typical_line_contrast(line_contrast: np.ndarray, white_share: np.ndarray, hatched: np.ndarray,
                           glyph_of: np.ndarray, colour: ColourConfig, photo_px: np.ndarray | None = None
                           ) -> np.ndarray | None:
    """(n,) the line contrast plain white squares show in this photo, near each square: those seen
    about as large as the square (`photo_px`, its side in the photo), since a tilted photo resolves
    the near lines and blurs the far ones. Squares with no line at all (a large pale palm) are no
    reference, so that a palm over many squares cannot lower it. None: too few white squares."""
    plain_white = np.flatnonzero((white_share >= 0.9) & ~hatched & (glyph_of < 0)
                                 & (line_contrast > colour.min_line_floor))
    if len(plain_white) < colour.min_line_reference:
        return None
    if photo_px is None:
        return np.full(len(line_contrast), np.median(line_contrast[plain_white]))
    return _median_of_alike(line_contrast, plain_white, photo_px, max(colour.min_line_reference, len(plain_white) // 4))


def _median_of_alike(values: np.ndarray, refs: np.ndarray, photo_px: np.ndarray, nearest: int) -> np.ndarray:
    """(n,) for each square, the median of `values` over the `nearest` reference squares (`refs`,
    indices) whose size in the photo (`photo_px`) is closest to its own: what a square of that
    size shows in this photo, as tilt makes near squares large and far ones small."""
    size = np.log(np.asarray(photo_px, np.float64).ravel())
    if nearest >= len(refs):
        return np.full(len(size), np.median(values[refs]))
    apart = np.abs(size[:, None] - size[refs][None, :])
    return np.median(values[refs[np.argpartition(apart, nearest - 1, axis=1)[:, :nearest]]], axis=1)


def _missing_line_threshold(line_contrast: np.ndarray, fractions: np.ndarray, hatched: np.ndarray,
                            glyph_of: np.ndarray, colour: ColourConfig, photo_px: np.ndarray | None = None
                            ) -> np.ndarray:
    """(n,) line contrast below which a light square's line is missing (a hand lies on it): a share
    of the typical contrast (`_typical_line_contrast`: a photo with few pixels per square or soft
    focus blurs the thin printed lines), never under the floor (a square with no line at all)."""
    typical = _typical_line_contrast(line_contrast, fractions[:, WHITE_CLASS], hatched, glyph_of, colour, photo_px)
    if typical is None:
        return np.full(len(line_contrast), colour.min_line_contrast)
    return np.maximum(colour.min_line_floor, np.minimum(colour.min_line_contrast, colour.line_contrast_share * typical))


def skin_mask(lab: np.ndarray, colour: ColourConfig) -> np.ndarray:
    """Pixels of skin colour (a hand over the board): orange-yellow hue of moderate chroma,
    a hue none of our printed squares has."""
    a, b = lab[..., 1], lab[..., 2]
    squared = a * a + b * b
    # hue within [min, max] (both in the first quadrant, 0–90°) as two half-planes: no arctan per pixel
    low, high = np.radians(colour.skin_min_hue), np.radians(colour.skin_max_hue)
    return ((b * np.cos(low) >= a * np.sin(low)) & (b * np.cos(high) <= a * np.sin(high)) & (a >= 0)
            & (squared >= colour.skin_min_chroma ** 2) & (squared <= colour.skin_max_chroma ** 2))


def paper_not_skin(skin: np.ndarray, considered: np.ndarray, line_contrast: np.ndarray, lab_cells: np.ndarray,
                   paper_white: np.ndarray, colour: ColourConfig, typical_lines: np.ndarray | None = None
                   ) -> np.ndarray:
    """`skin` (n, px, px) without the squares whose skin-hued pixels are the paper. A warm light
    that the white balance did not remove tints white paper the way a pale hand is tinted. A hand
    hides the grid lines; where all four lines of a square show clearly (`paper_lines`) and its
    skin-hued pixels sit near this photo's paper white (`paper_tint`), they are paper. A soft photo
    blurs every line: there, lines as clear as most white squares' of that size
    (`typical_lines` × `paper_line_share`) are clear enough."""
    bar = np.full(len(line_contrast), colour.paper_lines)
    if typical_lines is not None:
        bar = np.minimum(bar, colour.paper_line_share * typical_lines)
    lines_seen = line_contrast >= bar
    suspect = np.flatnonzero(lines_seen & (skin & considered).any(axis=(1, 2)))
    kept = skin.copy()
    for i in suspect:
        pixels = lab_cells[i][skin[i] & considered[i]]
        if np.linalg.norm(np.median(pixels, axis=0) - paper_white) <= colour.paper_tint:
            kept[i] = False
    return kept


def _texture_beyond_gradient(cells: np.ndarray, inner: np.ndarray) -> np.ndarray:
    """(n,) spread of each square's inner gray pixels around the plane that fits them best: a
    soft shadow edge across a square is a gradient, not texture, and must not make paper look
    printed (the hatch's stripes stay whole). One least-squares solve serves every square."""
    v, u = np.nonzero(inner)
    basis, _ = np.linalg.qr(np.column_stack([np.ones(len(u)), u, v]).astype(np.float64))   # (p, 3) orthonormal
    values = cells[:, inner].astype(np.float64)          # (n, p), same pixel order as the basis
    # the residual's energy is the values' minus their projection's (the plane holds the mean)
    residual = np.einsum("np,np->n", values, values) - np.square(values @ basis).sum(axis=1)
    return np.sqrt(np.maximum(residual, 0.0) / len(u))


def flat_as_paper(texture: np.ndarray, paper: np.ndarray, photo_px: np.ndarray | None, symbols: SymbolConfig,
                  min_reference: int) -> np.ndarray:
    """(n,) squares whose inside (gray std, `texture`) is as flat as this photo's plain paper
    squares (`paper`) while seen large enough for our printed hatch to leave more texture than
    that: a flat grey there is white paper in a shadow the margin did not see, not an obstacle
    of ours (every obstacle we print is hatched), and it reads W. On 400 bench photos every
    square this rule caught was paper."""
    if photo_px is None or paper.sum() < min_reference:
        return np.zeros(len(texture), bool)
    noise = float(np.median(texture[paper]))
    flat = texture < symbols.paper_noise_factor * noise + symbols.paper_noise_offset
    return flat & (np.asarray(photo_px, np.float64).ravel() >= symbols.hatch_texture_px)


def flatter_than_our_hatch(texture: np.ndarray, colourless: np.ndarray, photo_px: np.ndarray | None,
                           symbols: SymbolConfig) -> np.ndarray:
    """(n,) squares far flatter (gray std, `texture`) than the colourless obstacle's hatch is in
    this very photo, measured on the squares where that hatch was recognised (`colourless`), seen
    about as large: where the photo shows our hatch, a grey square without its texture is no
    obstacle of ours but paper in a shadow, however small the squares. Squares smaller than
    every reference (by more than `hatch_reference_reach`) are left alone: a hatch may blur away there."""
    refs = np.flatnonzero(colourless)
    if photo_px is None or len(refs) < symbols.min_hatch_reference:
        return np.zeros(len(texture), bool)
    typical = _median_of_alike(texture, refs, photo_px, symbols.min_hatch_reference)
    size = np.asarray(photo_px, np.float64).ravel()
    return (size >= size[refs].min() * symbols.hatch_reference_reach) & (texture < symbols.hatch_texture_share * typical)


def split_parts(px: int, margin: float) -> np.ndarray:
    """(ways, p) for each way a maker splits a square in two — left/right and top/bottom halves, the
    triangles each side of either diagonal, opposite quadrants (a two-colour chequer inside the
    square) —, which side each inner pixel lies on: +1, -1, or 0 on the cut itself."""
    v, u = np.nonzero(inner_mask(px, margin))
    u, v = u - (px - 1) / 2, v - (px - 1) / 2
    return np.sign(np.stack([u, v, u + v, u - v, u * v]))


def split_contrast(lab_cells: np.ndarray, inner: np.ndarray, parts: np.ndarray) -> np.ndarray:
    """(n,) the largest Lab distance between the typical colours (medians: a grid line that the
    registration lets into one side does not move them) of the two sides of a square's inside,
    over the ways a square is split in two (`split_parts`). A plain square shows the noise of the
    photo; a square drawn in two colours, however it is split, shows their distance."""
    pixels = lab_cells[:, inner]                       # (n, p, 3), the order of `parts`
    largest = np.zeros(len(pixels))
    for way in parts:
        one, other = np.median(pixels[:, way > 0], axis=1), np.median(pixels[:, way < 0], axis=1)
        largest = np.maximum(largest, np.linalg.norm(one - other, axis=1))
    return largest


@functools.cache
def printed_hues() -> np.ndarray:
    """(3,) the hue angles (Lab, radians) of our printed U, R and G: the order every maker's blue, red
    and green keep, whatever their chroma (a learnt profile may drift towards another maker's shade)."""
    inks = np.array([[SQUARE_BGR[c] for c in "URG"]], np.float32)
    lab = to_lab(inks).reshape(3, 3)
    return np.arctan2(lab[:, 2], lab[:, 1])


def blend_mask(labels: np.ndarray, radius: int) -> np.ndarray:
    """Pixels where printed colours meet: the camera blurs two colours into a shade of no
    class, or of a third class (blue and red make a dark purple that reads black). They
    count for no colour and are no reason for doubt; a fleck of one colour on another
    (two classes only) still counts."""
    def classes_near(r: int) -> np.ndarray:
        kernel = np.ones((2 * r + 1, 2 * r + 1), np.uint8)
        return sum(cv2.dilate((labels == k).astype(np.uint8), kernel) for k in range(len(CLASSES)))

    # a shade of no class is a blend across the whole transition; a third class only on its thin middle
    return np.where(labels < 0, classes_near(radius) >= 2, classes_near(max(1, radius // 2)) >= 3)


def _edge_steps(lightness: np.ndarray, width: int, height: int, px: int, near: float, far: float
                ) -> tuple[np.ndarray, np.ndarray]:
    """Signed lightness step across every grid line (the right or lower square minus the left
    or upper one), measured between thin strips just inside the two squares (from `near` to
    `far` of a side from the edge, beyond the printed line), along the middle half of the
    edge: (height, width-1) across vertical lines, (height-1, width) across horizontal ones."""
    cells = _cells(lightness, width, height, px)
    a = int(round(near * px))
    b = max(int(round(far * px)), a + 1)
    half = slice(px // 4, px - px // 4)

    def strip(rows: slice, cols: slice) -> np.ndarray:
        return median_along(cells[:, :, rows, cols].reshape(height, width, -1))

    left, right = strip(half, slice(a, b)), strip(half, slice(px - b, px - a))
    top, bottom = strip(slice(a, b), half), strip(slice(px - b, px - a), half)
    return left[:, 1:] - right[:, :-1], top[1:] - bottom[:-1]


def neutral_regions(fractions: np.ndarray, lightness: np.ndarray, width: int, height: int, px: int,
                    colour: ColourConfig) -> np.ndarray:
    """(n,) region label of every neutral square (white + grey ≥ shade_neutral_share), -1
    for the others. Print changes colour at the grid lines with a step, and a shadow's
    edge does not follow them: neutral squares joined by lines with no lightness step
    across them are one print colour, whatever the light makes of them."""
    neutral = fractions[:, WHITE_CLASS] + fractions[:, OBSTACLE_CLASS] >= colour.shade_neutral_share
    across, down = _edge_steps(lightness, width, height, px, colour.shade_strip_near, colour.shade_strip_far)
    parent = np.arange(width * height)

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    index = np.arange(width * height).reshape(height, width)
    for first, second, step in ((index[:, :-1], index[:, 1:], across), (index[:-1], index[1:], down)):
        smooth = np.abs(step) < colour.shade_max_step
        for i, j in zip(first[smooth], second[smooth]):
            if neutral[i] and neutral[j]:
                parent[root(int(i))] = root(int(j))
    return np.where(neutral, [root(i) for i in range(width * height)], -1)


def shade_doubts(fractions: np.ndarray, lightness: np.ndarray, width: int, height: int, px: int,
                 colour: ColourConfig) -> tuple[np.ndarray, np.ndarray]:
    """(doubted, doubted last), each (n,): neutral squares whose white-or-grey reading a shadow may have
    decided (MT 2.02.e).

    Without a paper margin the light is fitted to the board's whites, and a shadow darkens
    white paper to a grey no light field tells from grey ink. Within one print region
    (`neutral_regions`) white and grey readings cannot both be right: the fewer are
    doubtful. A wide grey region is more likely paper in shade than obstacles (those are
    single squares or small clumps): doubtful too — and so is the rest of a region of both once its
    greys are that many (issue 28: paper half in a shadow, 15 squares read grey beside 9 read white, the
    whites doubted and the greys left sure). Those are doubted last (`ForeignBoards.settle`): the board's
    later rules take their sure whites as the paper, and a region's lit whites still show it."""
    regions = neutral_regions(fractions, lightness, width, height, px, colour)
    grey = fractions[:, OBSTACLE_CLASS] > fractions[:, WHITE_CLASS]
    doubt, last = np.zeros(len(fractions), bool), np.zeros(len(fractions), bool)
    for region in np.unique(regions[regions >= 0]):
        members = regions == region
        greys, whites = int((members & grey).sum()), int((members & ~grey).sum())
        if greys and whites:
            fewer = members & (grey if greys <= whites else ~grey)
            doubt |= fewer
            if greys >= colour.shade_max_grey_region:
                last |= members & ~fewer
        elif greys >= colour.shade_max_grey_region:
            doubt |= members
    return doubt, last


def grid_neighbours(width: int, height: int) -> tuple[np.ndarray, np.ndarray]:
    """(first, second): the squares each side of every inner grid line, in `_edge_steps`' order (the
    vertical lines row by row, then the horizontal ones)."""
    index = np.arange(width * height).reshape(height, width)
    return (np.concatenate([index[:, :-1].ravel(), index[:-1].ravel()]),
            np.concatenate([index[:, 1:].ravel(), index[1:].ravel()]))


def paper_in_shade(log_gray: np.ndarray, kinds: np.ndarray, candidates: np.ndarray, printed: np.ndarray,
                   width: int, height: int, px: int, colour: ColourConfig) -> tuple[np.ndarray, np.ndarray]:
    """(verdict, contradicted), each (n,): for each candidate square (grey or white, no mark, the light
    may have decided between them) +1 white paper in a shadow, -1 printed grey, 0 undecided; and the
    decided ones whose neighbours' steps disagree (`_contradicted`).

    A shadow dims a square and the one next to it alike, so the step of log lightness across
    the grid line between them is the printed ratio of their inks, whatever the light. This
    photo's own steps between squares read with confidence (`kinds`: class of a sure plain
    square, -1 otherwise) give each ink's level against the paper; a candidate's steps to its
    sure neighbours give its own. Paper found so vouches for its neighbours in turn, so a deep
    shadow is followed in from its lit edge; a printed grey step stops it. Where no sure
    colourless hatch borders paper (a small photo blurs the hatch away), the grey's level is its
    printed one (`printed`: log grey of each class's ink over the paper's) scaled by the photo's
    tone, fitted on the inks it does see."""
    n = width * height
    verdict = np.zeros(n, int)
    across, down = _edge_steps(log_gray, width, height, px, colour.shade_strip_near, colour.shade_strip_far)
    first, second = grid_neighbours(width, height)
    step = np.concatenate([across.ravel(), down.ravel()])  # level of `second` minus level of `first`
    level = np.full(len(CLASSES), np.nan)
    level[WHITE_CLASS] = 0.0
    for k in range(len(CLASSES)):
        if k != WHITE_CLASS:
            seen = np.concatenate([step[(kinds[first] == WHITE_CLASS) & (kinds[second] == k)],
                                   -step[(kinds[first] == k) & (kinds[second] == WHITE_CLASS)]])
            if len(seen) >= colour.min_level_pairs:
                level[k] = np.median(seen)
    if np.isnan(level[OBSTACLE_CLASS]):
        inks = ~np.isnan(level) & (printed < 0)
        if inks.sum() < colour.min_level_inks:
            return verdict, np.zeros(n, bool)
        tone = float(level[inks] @ printed[inks] / (printed[inks] @ printed[inks]))
        level[OBSTACLE_CLASS] = tone * printed[OBSTACLE_CLASS]
    cut = colour.paper_level_share * level[OBSTACLE_CLASS]
    doubt = colour.paper_level_doubt * abs(level[OBSTACLE_CLASS])
    known = np.where(kinds >= 0, level[kinds.clip(min=0)], np.nan)
    open_ = candidates.copy()
    towards = np.concatenate([second, first])
    while open_.any():
        # each candidate's level, as seen from every neighbour whose level is known
        estimates = np.concatenate([known[first] + step, known[second] - step])
        usable = open_[towards] & ~np.isnan(estimates)
        if not usable.any():
            break
        order = np.argsort(towards[usable], kind="stable")
        squares, starts = np.unique(towards[usable][order], return_index=True)
        own = np.array([np.median(part) for part in np.split(estimates[usable][order], starts[1:])])
        paper, grey = own > cut + doubt, own < cut - doubt
        if not (paper | grey).any():
            break
        verdict[squares[paper]], verdict[squares[grey]] = 1, -1
        known[squares[paper]], known[squares[grey]] = 0.0, level[OBSTACLE_CLASS]
        open_[squares[paper | grey]] = False
    return verdict, _contradicted(verdict, known, (first, second, step), cut, doubt)


def _contradicted(verdict: np.ndarray, known: np.ndarray, steps: tuple[np.ndarray, np.ndarray, np.ndarray],
                  cut: float, doubt: float) -> np.ndarray:
    """(n,) decided squares (`verdict` ±1) that the steps to their neighbours, all known now, do not
    agree on: one neighbour says paper beyond doubt, another grey. A square is decided from the
    neighbours known when it is reached, and one of them may be misread — half of a square split white
    and green, its white in the shadow, read green alone: then every step from it says grey ink, and a
    band of shaded paper read as grey obstacles, sure (issue 28, our boards at 20–30 px a square). The
    paper on the band's lit side says otherwise across a step of nothing. Such a square is doubted, and
    so is the grey read through it: the grey squares it reaches by steps of nothing (the same print)."""
    first, second, step = steps
    towards = np.concatenate([second, first])
    estimates = np.concatenate([known[first] + step, known[second] - step])
    says_paper = np.zeros(len(verdict), bool)
    says_grey = np.zeros(len(verdict), bool)
    np.logical_or.at(says_paper, towards, estimates > cut + doubt)
    np.logical_or.at(says_grey, towards, estimates < cut - doubt)
    doubted = (verdict != 0) & says_paper & says_grey
    # the grey read through a doubted square: same print (a step of nothing), also decided grey
    same = (np.abs(step) < abs(cut) - doubt) & (verdict[first] == -1) & (verdict[second] == -1)
    links = (first[same], second[same])
    while True:
        reached = doubted.copy()
        reached[links[1][doubted[links[0]]]] = True
        reached[links[0][doubted[links[1]]]] = True
        if (reached == doubted).all():
            return doubted
        doubted = reached


def _components(n: int, first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """(n,) a label per connected set of squares, joined by the pairs (first[k], second[k])."""
    label = np.arange(n)
    while True:
        low = np.minimum(label[first], label[second])
        before = label.copy()
        np.minimum.at(label, first, low)
        np.minimum.at(label, second, low)
        label = label[label]
        if (label == before).all():
            return label


def _carried_chroma(level: np.ndarray, kinds: np.ndarray, paper: np.ndarray, split: np.ndarray | None,
                    covered: list[bool], first: np.ndarray, second: np.ndarray, step: np.ndarray) -> np.ndarray:
    """(n, 3) each square's print colour against the white (log B, G, R less their mean), carried from the
    squares that know it — sure squares of a colour whose step from the white is known (`level`), and the
    white squares taken for the paper (`paper`) — across the grid lines' colour steps, wave by wave (each square the median of
    what its known neighbours say), as `paper_in_shade` carries lightness; NaN where nothing reaches.
    Squares split in two colours and covered ones carry nothing: the step on one side of them is not the
    step on the other."""
    n = len(kinds)
    known = np.full((n, 3), np.nan)
    anchors = (kinds >= 0) & (kinds != WHITE_CLASS)
    anchors[anchors] = ~np.isnan(level[kinds[anchors], 0])
    known[anchors] = level[kinds[anchors]]
    known[paper] = 0.0
    open_ = ~anchors & ~paper & ~np.asarray(covered, bool)
    if split is not None:
        open_ &= ~split
    towards = np.concatenate([second, first])
    while open_.any():
        estimates = np.concatenate([known[first] + step, known[second] - step])
        usable = open_[towards] & ~np.isnan(estimates[:, 0])
        if not usable.any():
            break
        order = np.argsort(towards[usable], kind="stable")
        squares, starts = np.unique(towards[usable][order], return_index=True)
        known[squares] = [np.median(part, axis=0) for part in np.split(estimates[usable][order], starts[1:])]
        open_[squares] = False
    return known


def _hatch_settled(hatched: bool, colours: str, counts: np.ndarray, total: int, colour: ColourConfig) -> bool:
    """Whether a square's pixels settle a borderline hatch score (MT 2.03.c): a hatch blends
    ink into a hue's colour (U, R, G), so few pixels keep the plain colour; a plain square
    keeps most. (Hatched W and B are told from the colourless grey by lightness: nothing
    to settle there.)"""
    plain_share = sum(int(counts[CLASSES.index(c)]) for c in colours) / total if colours else 0.0
    if hatched:
        return bool(colours) and set(colours) <= set("URG") and plain_share <= 1 - colour.settled_share
    return plain_share >= colour.settled_share


def _white_offset(lab_cell: np.ndarray, white_pixels: np.ndarray, white: np.ndarray) -> float:
    """How far (Lab) the W pixels of a square typically are from this photo's paper white:
    chroma off it, and lightness below it. Printed white is the paper itself; a pale hand
    read as white is tinted and darker."""
    pixels = lab_cell[white_pixels]
    off_chroma = np.hypot(pixels[:, 1] - white[1], pixels[:, 2] - white[2])
    return float(np.median(np.hypot(off_chroma, np.maximum(white[0] - pixels[:, 0], 0))))


def _hue_shares(lab_pixels: np.ndarray, profile: ColourProfile, min_chroma: float, skin: np.ndarray) -> np.ndarray:
    """(m, p, 3) Lab pixels of hatched squares -> (m, 5) share of pixels of each chromatic
    colour (U, R, G) by hue. Black-and-white hatching dilutes chroma but keeps hue; skin
    (a hand) is no colour of the square."""
    a, b = lab_pixels[..., 1], lab_pixels[..., 2]
    chroma = np.hypot(a, b)
    hue = np.arctan2(b, a)
    shares = np.zeros((len(lab_pixels), 5))
    centres = {c: np.arctan2(profile.means[CLASSES.index(c), 2], profile.means[CLASSES.index(c), 1]) for c in "URG"}
    # the angle between two hues, wrapped to [0, π] (a remainder, not a complex exponential: ~1 ms at 1080p)
    gaps = np.stack([np.abs(np.remainder(hue - centres[c] + np.pi, 2 * np.pi) - np.pi) for c in "URG"], axis=-1)
    nearest = gaps.argmin(axis=-1)
    coloured = (chroma >= min_chroma) & (gaps.min(axis=-1) < np.radians(45)) & ~skin
    for k, c in enumerate("URG"):
        shares[:, COLOURS.index(c)] = ((nearest == k) & coloured).mean(axis=1)
    return shares


def _hatched_colours(hues: np.ndarray, lightness: float, single: bool, levels: tuple[float, float, float],
                     symbols: SymbolConfig) -> tuple[str, bool]:
    """Colours of a hatched square (MT 2.03.a/c): none under the colourless obstacle's
    hatch; else U/R/G by hue, and without a hue B or W by lightness against the
    printer's own hatched B and W squares (levels: hatched B, colourless, hatched W).
    A lightness close to the W/B cut, or a W nearer the colourless obstacle's grey, is
    doubtful: a blurred or small photo can blur the two hatch kinds together."""
    if single:
        return "", False
    colours = "".join(c for c, v in zip(COLOURS, hues) if v >= symbols.hatch_hue_cover)
    doubtful = bool((np.abs(hues - symbols.hatch_hue_cover) < symbols.hatch_hue_doubt).any())
    if not colours:
        black, colourless, white = levels
        cut = (black + white) / 2
        colours = "W" if lightness >= cut else "B"
        doubtful |= abs(lightness - cut) < symbols.hatch_lightness_doubt
        doubtful |= colours == "W" and abs(lightness - colourless) <= abs(lightness - white)
    return colours, doubtful


# -- the evidence, the decisions, the two policies ----------------------------------------------
@dataclass
class Marks:
    """What our printed marks show on each square (arrays over the squares): glyphs (start,
    Temple) and hatches (obstacles, MT 2.03), and the pixels a glyph paints (left out of colours)."""

    hatched: np.ndarray            # (n,) a printed hatch (an obstacle of ours)
    single_hatch: np.ndarray       # (n,) ... the colourless obstacle's (MT 2.03.a)
    glyph_of: np.ndarray           # (n,) index into GLYPHS, -1 none
    mark_sure: np.ndarray          # (n,) the mark (or its absence) is clear
    borderline_hatch: np.ndarray   # (n,) a hatch score too close to the threshold to decide alone
    lightness: np.ndarray          # (n,) mean grey of hatched squares
    levels: tuple[float, float, float]   # this photo's hatched B, colourless, hatched W grey levels
    ignore: np.ndarray             # (n, px, px) glyph pixels
    colourless_level: float = 0.0  # the colourless hatch's printed grey level

    @classmethod
    def none(cls, n: int, px: int) -> "Marks":
        zeros = np.zeros(n, bool)
        return cls(zeros, zeros.copy(), np.full(n, -1), np.ones(n, bool), zeros.copy(), np.zeros(n),
                   (0.0, 0.0, 0.0), np.zeros((n, px, px), bool))


@dataclass
class SquareEvidence:
    """One record of what the photo shows of every square (arrays over the n squares, reading
    order), gathered once; the decisions below only read it."""

    width: int
    height: int
    marks: Marks
    fractions: np.ndarray        # (n, classes) shares of the classified pixels (blends, glyphs and skin aside)
    counts: np.ndarray           # (n, classes) those pixels
    total: np.ndarray            # (n,) pixels considered
    unknown: np.ndarray          # (n,) share of considered pixels of no class
    skin_share: np.ndarray       # (n,) share of skin pixels (a hand)
    hues: np.ndarray             # (n, 5) hatched squares: share of each colour by hue
    line_contrast: np.ndarray    # (n,) the faintest of the four grid lines around the square
    line_threshold: np.ndarray   # (n,) below it, a light square's line is missing
    shaded: np.ndarray           # (n,) a shadow may have decided white or grey (foreign boards)
    shaded_last: np.ndarray      # (n,) the same, doubted after the board's other rules (`shade_doubts`)
    flat: np.ndarray             # (n,) flat as paper where our hatch would show texture
    white_offsets: np.ndarray    # (n,) how far a square's W pixels are from the paper white (Lab)
    photo_px: np.ndarray | None  # (height, width) the squares' sides in the photo
    split: np.ndarray | None = None   # (n,) two sides of the square differ by more than the photo's noise (foreign)
    plain: np.ndarray | None = None   # (n,) as flat inside as most squares of the photo (foreign)
    typical_lab: np.ndarray | None = None   # (n, 3) median Lab of the square's inside
    exposure: np.ndarray | None = None   # (n,) median brightest channel of its inside over the white's (1: as light)
    chroma_steps: np.ndarray | None = None   # (lines, 3) print colour step across each inner grid line (foreign)
    white_band: np.ndarray | None = None   # (n,) its white pixels lie along one side, next to the grid (foreign)

    @property
    def colour_shares(self) -> np.ndarray:
        return self.fractions[:, :5]

    @cached_property   # the per-square decisions read a few numbers each: Python floats, not numpy scalars
    def fraction_rows(self) -> list[list[float]]:
        """`fractions` as Python lists, one per square (a numpy scalar costs ~10× a float to compare)."""
        return self.fractions.tolist()

    @cached_property
    def grey_dominance_flags(self) -> list[bool]:
        return self.grey_dominance.tolist()

    @cached_property   # asked once per square by each decision: computed once (4 ms of a 1080p scan, #28)
    def grey_dominance(self) -> np.ndarray:
        """(n,) the obstacle grey covers more than any colour (and the colour bar)."""
        return self.fractions[:, OBSTACLE_CLASS] >= np.maximum(self.colour_shares.max(axis=1), self._min_cover)

    _min_cover: float = 0.09


class OurBoards:
    """The policy for the boards we print: marks (glyphs, hatches) are read, a hand is skin over
    squares whose grid lines it hides, every obstacle is hatched (a flat grey is paper in a
    shadow), and the paper margin has given the light."""

    ours = True

    def __init__(self, symbols: SymbolConfig):
        self.symbols = symbols

    def skin(self, lab: np.ndarray, colour: ColourConfig) -> np.ndarray:
        return skin_mask(lab, colour)   # our palette has no skin tone

    def marks(self, gray: np.ndarray, width: int, height: int, px: int, colour: ColourConfig) -> Marks:
        symbols, n = self.symbols, width * height
        marks = Marks.none(n, px)
        templates = mark_templates(px, colour.inner_margin)
        marks.colourless_level = templates.colourless_level
        patches = _padded_cells(gray, width, height, px)
        inner_gray = _cells(gray, width, height, px).reshape(n, px, px)[:, templates.inner, templates.inner]
        spread = inner_gray.std(axis=(1, 2))
        structured = np.nonzero(spread >= symbols.min_structure)[0]
        if not len(structured):
            return marks
        score, evidence = match_glyphs(patches[structured], templates)
        hatch, single, kind_gap = hatch_scores(inner_gray[structured], templates)
        # a cross-hatch also half-matches a glyph: the periodic texture decides first
        is_hatch = hatch >= symbols.hatch_min_score
        marks.hatched[structured[is_hatch]] = True
        marks.single_hatch[structured[is_hatch & single]] = True
        # correlation ignores contrast: a faint line across a plain square (a laid page's cut edge) matches a
        # glyph's blade, at a tenth of a printed glyph's contrast
        printed_contrast = spread[structured] >= symbols.glyph_min_contrast * templates.glyph_spread
        is_glyph = (score >= symbols.glyph_min_score) & ~is_hatch & printed_contrast
        kind = np.where(evidence >= 0, 0, 1)
        marks.glyph_of[structured[is_glyph]] = kind[is_glyph]
        sure_glyph = (score >= symbols.glyph_sure_score) & (np.abs(evidence) >= symbols.glyph_min_evidence)
        # a faint hatch (a small or blurred photo) is no plain square either: a person decides
        faint_hatch = (hatch >= symbols.hatch_faint_score) & ~is_hatch & ~is_glyph
        marks.borderline_hatch[structured] = np.abs(hatch - symbols.hatch_min_score) < symbols.hatch_doubt
        hatch_unsure = faint_hatch | (is_hatch & (kind_gap < symbols.hatch_kind_doubt))
        marks.mark_sure[structured] = ~hatch_unsure & (~is_glyph | sure_glyph)
        for k, name in enumerate(GLYPHS):
            marks.ignore[marks.glyph_of == k] = templates.masks[name]
        marks.lightness[marks.hatched] = inner_gray[marks.hatched].mean(axis=(1, 2))
        levels = (templates.hatched_levels[0], templates.colourless_level, templates.hatched_levels[1])
        if marks.single_hatch.sum() >= symbols.min_colourless_reference:
            # a camera's tone curve lifts mid-greys: the colourless obstacle's hatch, told by its
            # pattern, shows how much in this photo, and the W/B cut moves with it
            shift = float(np.median(marks.lightness[marks.single_hatch])) - templates.colourless_level
            levels = tuple(v + shift for v in levels)
        marks.levels = levels
        return marks

    def split(self, lab_cells, inner, colour) -> None:
        return None   # ours draw a square's colours in bands of known shares: the shares read them

    def plain(self, gray_cells, inner, colour) -> None:
        return None   # ours hatch every obstacle: `flat` weighs their texture

    def exposure(self, balanced, width, height, px, inner) -> None:
        return None   # ours are balanced on their paper margin, which the photo shows

    def typical_lab(self, lab_cells, inner) -> None:
        return None   # ours: the profile is our palette, no decision needs a square's typical colour

    def chroma_steps(self, balanced, width, height, px, colour) -> None:
        return None   # ours: the paper margin gave the light, and a W is the paper

    def white_band(self, white, colour) -> None:
        return None   # ours are registered on their markers: a W beside a colour is printed so

    def pale_colour(self, ev: SquareEvidence, i: int, colours: str, profile: ColourProfile, colour: ColourConfig
                    ) -> tuple[str, list[str]]:
        return colours, []   # our palette is the profile's: a W is the paper

    def paper_not_skin(self, skin, considered, line_contrast, lab_cells, paper_white, white_share, marks, colour,
                       photo_px):
        typical = _typical_line_contrast(line_contrast, white_share, marks.hatched, marks.glyph_of, colour, photo_px)
        return paper_not_skin(skin, considered, line_contrast, lab_cells, paper_white, colour, typical)

    def shaded(self, fractions, lightness, width, height, px, colour) -> tuple[np.ndarray, np.ndarray]:
        none = np.zeros(len(fractions), bool)   # ours hatch their grey, and their paper margin gives the light
        return none, none

    def flat(self, gray_cells, inner, fractions, marks, skin_share, photo_px, colour) -> np.ndarray:
        texture = _texture_beyond_gradient(gray_cells, inner)
        paper = (fractions[:, WHITE_CLASS] >= 0.9) & ~marks.hatched & (marks.glyph_of < 0) & (skin_share == 0)
        flat = flat_as_paper(texture, paper, photo_px, self.symbols, colour.min_line_reference)
        return flat | flatter_than_our_hatch(texture, marks.single_hatch, photo_px, self.symbols)

    def white_grey_mix(self, colour: ColourConfig) -> float:
        return colour.min_white_grey_mix   # a plain square of ours has no grey at all: a larger share

    def hatch_shows(self, ev: SquareEvidence, i: int) -> bool:
        """Whether the photo is sharp enough here for our hatch to show, had the square one."""
        y, x = divmod(i, ev.width)
        return ev.photo_px is not None and ev.photo_px[y, x] >= self.symbols.hatch_visible_px

    def board_doubts(self, ev: SquareEvidence, i: int, colours: str, pastel: bool) -> list[str]:
        return []

    def obstacle_doubts(self, ev: SquareEvidence, i: int, obstacle: bool, kind: str | None,
                        colour: ColourConfig) -> list[str]:
        # ours print every obstacle hatched: where the hatch would show, a flat grey is something else
        return [DOUBT_FLAT_GREY] if obstacle and kind != "hatch" and self.hatch_shows(ev, i) else []

    def line_missing(self, ev: SquareEvidence, i: int, colours: str) -> bool:
        # a light square with no grid line around it is something lying on the board (a hand)
        return colours == "W" and ev.line_contrast[i] < ev.line_threshold[i]

    def settle(self, readings, ev: SquareEvidence, gray, shade_candidate, width, height, px, colour, covered_hint):
        readings = _settle_shaded_paper(readings, gray, shade_candidate, ev.marks.single_hatch, ev.marks.glyph_of,
                                        ev.marks.colourless_level, width, height, px, colour)
        return _pale_edges_beside_hidden(readings, ev.line_contrast, ev.line_threshold * colour.multicolour_line_share,
                                         width, height, covered_hint)


class ForeignBoards:
    """The policy for other makers' boards: no marks of ours, no skin test (a wooden board is
    skin-coloured), white and grey told apart by lightness alone (a shadow may decide: doubted by
    print region), colour on their grey is no agreed obstacle."""

    ours = False

    def skin(self, lab: np.ndarray, colour: ColourConfig) -> np.ndarray:
        return np.zeros(lab.shape[:2], bool)

    def marks(self, gray, width, height, px, colour) -> Marks:
        return Marks.none(width * height, px)

    def paper_not_skin(self, skin, *args):
        return skin

    def shaded(self, fractions, lightness, width, height, px, colour) -> tuple[np.ndarray, np.ndarray]:
        return shade_doubts(fractions, lightness, width, height, px, colour)

    def flat(self, gray_cells, inner, fractions, marks, skin_share, photo_px, colour) -> np.ndarray:
        return np.zeros(len(fractions), bool)

    def white_grey_mix(self, colour: ColourConfig) -> float:
        return colour.min_cover

    def hatch_shows(self, ev: SquareEvidence, i: int) -> bool:
        return False

    def split(self, lab_cells: np.ndarray, inner: np.ndarray, colour: ColourConfig) -> np.ndarray:
        """(n,) squares whose two sides differ (`split_contrast`) by more than this photo's plain squares
        do (most squares are plain: the median is its noise), and by more than a colour's shade does: at
        20–30 px a square split in two colours blurs into one shade that may read as one of them."""
        contrast = split_contrast(lab_cells, inner, split_parts(lab_cells.shape[1], colour.inner_margin))
        return contrast >= max(colour.split_min_contrast, colour.split_noise_factor * float(np.median(contrast)))

    def white_band(self, white: np.ndarray, colour: ColourConfig) -> np.ndarray:
        """(n,) squares whose white pixels (`white`: (n, px, px), inside the inner margin) lie, `white_band_share`
        of them or more, in a band along one side `white_band_depth` of a square deep past the margin: the paper
        or grout between another maker's squares let in by a grid read a little off (issue 28: tiles with wide
        grout at 21 px a square, the fit 0.15 square off at one end: red tiles read white and red, sure). A
        square drawn in two colours, split by a diagonal or in halves, has at most ~60 % of its white there."""
        px = white.shape[1]
        v, u = np.mgrid[0:px, 0:px]
        reach = (colour.inner_margin + colour.white_band_depth) * px
        bands = np.stack([u < reach, u >= px - reach, v < reach, v >= px - reach])      # left, right, top, bottom
        counts = white.sum(axis=(1, 2))
        in_band = np.einsum("nij,kij->nk", white.astype(np.int32), bands.astype(np.int32)).max(axis=1)
        return (counts > 0) & (in_band >= colour.white_band_share * counts)

    def typical_lab(self, lab_cells: np.ndarray, inner: np.ndarray) -> np.ndarray:
        """(n, 3) the median Lab of each square's inside: the hue and lightness another maker printed,
        which the profile (learnt on our palette) may have put in the wrong class."""
        return median_along(lab_cells[:, inner], axis=1)

    def exposure(self, balanced: np.ndarray, width: int, height: int, px: int, inner: np.ndarray) -> np.ndarray:
        """(n,) median brightest channel of each square's inside over the balanced white's (1: as light):
        `settle` doubts a square far lighter than the white the balance was learnt on. (The channels a
        pair at a time: a max over the short last axis costs more than the comparisons.)"""
        brightest = np.maximum(np.maximum(balanced[..., 0], balanced[..., 1]), balanced[..., 2])
        cells = _cells(brightest, width, height, px).reshape(width * height, px, px)
        return median_along(cells[:, inner]) / 255.0

    def chroma_steps(self, balanced: np.ndarray, width: int, height: int, px: int, colour: ColourConfig) -> np.ndarray:
        """(lines, 3) the step of log B, G, R across every inner grid line (`grid_neighbours`' order: the
        second square's minus the first's), less its mean: the change of print colour, whatever the light
        (a light field is smooth, so its share of the step cancels, and so does a change of lightness)."""
        logs = np.log(np.maximum(balanced, 1.0))
        steps = []
        for k in range(3):
            across, down = _edge_steps(np.ascontiguousarray(logs[..., k]), width, height, px, colour.shade_strip_near,
                                       colour.shade_strip_far)
            steps.append(np.concatenate([across.ravel(), down.ravel()]))
        step = np.stack(steps, axis=1)
        return step - step.mean(axis=1, keepdims=True)

    def plain(self, gray_cells: np.ndarray, inner: np.ndarray, colour: ColourConfig) -> np.ndarray:
        """(n,) squares as flat in their middle (`_texture_beyond_gradient` within `plain_centre_margin`) as
        most squares of the photo: another maker's obstacle is drawn (a cross, a hatch) and its marks cross the
        middle; a flat grey may be their dark colour. Not the whole inside: at 20–30 px a square, a dark tile's
        neighbours (paper gaps, light squares) blur into its inside's border and made it look drawn on, and
        it read as a sure obstacle (issue 28: on the photos where dark tiles were read so, their middles
        were 1–2.4× the photo's typical texture, crosses' 14–27×; the whole insides 1.7–3.5× and 7–12×)."""
        centre = inner & inner_mask(gray_cells.shape[1], colour.plain_centre_margin)
        texture = _texture_beyond_gradient(gray_cells, centre)
        return texture <= max(colour.plain_texture_factor * float(np.median(texture)), colour.plain_texture_floor)

    def pale_colour(self, ev: SquareEvidence, i: int, colours: str, profile: ColourProfile, colour: ColourConfig
                    ) -> tuple[str, list[str]]:
        """Another maker's palette read by hue order, not by our inks' chroma (issue 28). Their pale colours
        (pastels) are light and of low chroma, and the profile takes them for white; their hue is still
        there. A square read W whose typical colour is further from this photo's white (`profile`, learnt
        on the board's own pixels) than a paper's tint (`max_white_offset`) is doubtful; clearly chromatic
        (`pastel_min_chroma`), it reads the colour nearest its hue (U, R or G: `printed_hues`), and is
        doubtful when no hue is near enough. So does a plain square read as a grey obstacle (nothing drawn
        on it): grey has no hue. A square read B with a clear hue may be their dark blue, red or green,
        and one read U, R or G whose hue is nearer another of them may be another maker's shade: both
        doubtful. A plain grey darker than grey inks (`plain_grey_max_lightness`) is no pastel: a pastel is
        light, and a dark tile lit warm has a hue too (issue 28: dark grey B tiles read as sure R, L* 52-54);
        `obstacle_doubts` doubts it as maybe their dark colour."""
        plain_grey = colours == "" and ev.plain[i] and ev.typical_lab[i, 0] >= colour.plain_grey_max_lightness
        if len(colours) != 1 and not plain_grey:
            return colours, []
        a, b = ev.typical_lab[i, 1:]
        white = profile.means[WHITE_CLASS]
        off_white = np.hypot(a - white[1], b - white[2])
        if off_white < (colour.max_white_offset if colours in ("W", "") else colour.pastel_min_chroma):
            return colours, []
        if off_white < colour.pastel_min_chroma:   # tinted more than paper, too little to tell a hue
            return colours, [DOUBT_TINTED_WHITE]
        gaps = np.abs(np.angle(np.exp(1j * (np.arctan2(b, a) - printed_hues()))))
        nearest = "URG"[int(gaps.argmin())]
        if colours == "B" or (colours in ("U", "R", "G") and colours != nearest):
            return colours, [DOUBT_OTHER_HUE]
        if colours in ("U", "R", "G"):
            return colours, []
        if gaps.min() > np.radians(colour.pastel_max_hue_gap):
            return colours, [DOUBT_TINTED_WHITE]
        return nearest, []

    def board_doubts(self, ev: SquareEvidence, i: int, colours: str, pastel: bool) -> list[str]:
        """Other makers have no agreed coloured obstacle: colour on their grey is a doubt, whether drawn
        on it (a cross) or all over a plain square (a dusty tile whose grey outweighs its hue, issue 28:
        19 blue tiles read as sure blue obstacles on one photo). Only a pastel read from a plain grey
        (`pale_colour`) is not: that reading already weighed the grey."""
        doubts = [DOUBT_COLOUR_ON_GREY] if bool(ev.grey_dominance[i]) and bool(colours) and not pastel else []
        # a square that shows two colours side by side cannot be read as one (issue 28) ...
        doubts += [DOUBT_SPLIT] if len(colours) <= 1 and ev.split[i] else []
        # ... nor as white and a colour where its white is the paper along one side
        white_band = ev.white_band is not None and bool(ev.white_band[i])
        return doubts + ([DOUBT_WHITE_BAND] if len(colours) > 1 and "W" in colours and white_band else [])

    def obstacle_doubts(self, ev: SquareEvidence, i: int, obstacle: bool, kind: str | None,
                        colour: ColourConfig) -> list[str]:
        # a flat grey with nothing drawn on it, darker than an obstacle's grey ink, may be a dark grey
        # of the maker's palette (their B): pale greys, ours and theirs, stay obstacles
        dark = ev.typical_lab[i, 0] < colour.plain_grey_max_lightness
        return [DOUBT_PLAIN_GREY] if obstacle and ev.plain[i] and dark else []

    def line_missing(self, ev: SquareEvidence, i: int, colours: str) -> bool:
        return False

    def settle(self, readings, ev: SquareEvidence, gray, shade_candidate, width, height, px, colour, covered_hint):
        """A washed-out pastel (a bright photo) comes within a paper's tint of white, but stands apart from
        this photo's own whites, which lie close together: a sure W further from their middle (Lab a, b)
        than `white_spread_factor` × their typical distance (and `white_spread_floor`) is doubtful, and so
        are the sure whites of the same print as a doubted one (`_tint_of_one_print`).
        Then a square far lighter than the white the balance was learnt on (`max_exposure`) is doubtful
        whatever it reads: the light there was misjudged (a glare, a corner far from any neutral square),
        the camera clipped it, and a clipped pastel looks as white as the paper (`_overexposed`).
        Last, the paper half in a shadow (`shade_doubts`' late doubts, `SquareEvidence.shaded_last`): the
        rules above take its sure whites as the paper's white, so they are doubted only after. First of all,
        the squares of one ink are judged against each other (`_blacks_of_one_ink`, `_inks_read_unsure`)."""
        readings = self._inks_read_unsure(self._blacks_of_one_ink(readings, ev, colour), ev, colour)
        readings = self._same_ink_as_doubted_grey(readings, ev, colour)
        readings = self._whites_of_another_print(readings, ev, colour)
        readings = self._pale_and_overexposed(readings, ev, colour)
        # last, the shade's doubts the rules above must not see (their sure whites: `shade_doubts`)
        return [replace(r, uncertain=True, why=r.why + (DOUBT_SHADE,))
                if ev.shaded_last[k] and not r.covered and DOUBT_SHADE not in r.why else r
                for k, r in enumerate(readings)]

    @staticmethod
    def _blacks_of_one_ink(readings: list[SquareReading], ev: SquareEvidence, colour: ColourConfig
                           ) -> list[SquareReading]:
        """A square read B with a clear hue is doubted as maybe another maker's dark blue, red or green
        (`pale_colour`); but many makers' black is itself tinted, and then every B square of the board was
        doubted (issue 28: 10–14 % of the squares of the first foreign style, 1 in 1 100 of them wrong). Their
        black is one ink: the B squares lie close together in Lab a, b. Where at most `black_max_stray` of
        the B squares (sure, or doubted for their hue alone) lie further from their middle than
        `ink_spread_factor` × their typical distance (and `ink_spread_floor`: `_within_spread`), the others are that ink:
        their hue is no doubt. Two inks read B (a dark colour among the blacks), or squares half black and
        half a colour, lie apart from the black's middle and stay doubted; with more of them than that, none
        is cleared."""
        blacks = np.array([k for k, r in enumerate(readings) if r.colours == "B" and not r.obstacle and not r.covered
                           and (not r.uncertain or r.why == (DOUBT_OTHER_HUE,))])
        if len(blacks) < colour.min_line_reference:
            return readings
        ab = ev.typical_lab[blacks, 1:]
        within = _within_spread(ab, ab, colour.ink_spread_factor, colour.ink_spread_floor)
        if np.mean(~within) > colour.black_max_stray:
            return readings
        one_ink = set(blacks[within].tolist())
        return [replace(r, uncertain=False, why=()) if k in one_ink and r.why == (DOUBT_OTHER_HUE,) else r
                for k, r in enumerate(readings)]

    @staticmethod
    def _inks_read_unsure(readings: list[SquareReading], ev: SquareEvidence, colour: ColourConfig
                          ) -> list[SquareReading]:
        """Our profile knows our inks: another maker's blue, red or green leaves part of each square's pixels
        in no class, and a square of it falls under `min_explained` or `min_confidence` — doubted with no other
        reason (issue 28: 2–6 % of another maker's squares, every one of them read right on the development
        seeds). A square read one colour whose only doubts are those, and whose typical colour (Lab) lies within
        the spread of that colour's sure squares (`ink_spread_factor`, `ink_spread_floor`; `min_line_reference`
        of them at least), is of the same ink: sure. A square half another colour, or under something, reads
        a typical colour apart from the ink's, and stays doubted."""
        unsure_only = {DOUBT_CONFIDENCE, DOUBT_UNEXPLAINED}
        cleared: set[int] = set()
        for ink in "WUBRG":
            of_ink = [k for k, r in enumerate(readings) if r.colours == ink and not r.obstacle and not r.covered]
            sure = np.array([k for k in of_ink if not readings[k].uncertain], int)
            unsure = np.array([k for k in of_ink if readings[k].why and set(readings[k].why) <= unsure_only], int)
            if len(sure) < colour.min_line_reference or len(unsure) == 0:
                continue
            within = _within_spread(ev.typical_lab[unsure], ev.typical_lab[sure], colour.ink_spread_factor,
                                    colour.ink_spread_floor)
            cleared.update(unsure[within].tolist())
        return [replace(r, uncertain=False, why=(), confidence=max(r.confidence, colour.min_confidence)) if k in cleared
                else r for k, r in enumerate(readings)]

    def _pale_and_overexposed(self, readings: list[SquareReading], ev: SquareEvidence, colour: ColourConfig
                              ) -> list[SquareReading]:
        """The sure whites' spread, the pastels as light as them, and the overexposed squares (`settle`)."""
        whites = np.array([k for k, r in enumerate(readings) if r.colours == "W" and not r.uncertain and not r.covered])
        if len(whites) < colour.min_line_reference:
            return self._overexposed(readings, ev, colour)
        ab = ev.typical_lab[whites, 1:]
        stray = set(whites[~_within_spread(ab, ab, colour.white_spread_factor, colour.white_spread_floor)].tolist())
        readings = [replace(r, uncertain=True, why=r.why + (DOUBT_TINTED_WHITE,)) if k in stray else r
                    for k, r in enumerate(readings)]
        readings = self._tint_of_one_print(readings, ev, colour)
        readings = self._pastels_as_light_as_white(readings, ev, float(np.median(ev.typical_lab[whites, 0])), colour)
        return self._overexposed(readings, ev, colour)

    @staticmethod
    def _tint_of_one_print(readings: list[SquareReading], ev: SquareEvidence, colour: ColourConfig
                           ) -> list[SquareReading]:
        """A W square doubted as tinted (its typical colour off the white: `pale_colour`, the whites' spread)
        casts its doubt on the sure W squares joined to it by grid lines with no colour step
        (`print_chroma_same`): they are one print, and a light that falls off by degrees decides where
        a bar on each square's own tint cuts through it (issue 28: a pale red corner read W, its squares
        towards the board's middle doubted as tinted, the nine in the corner sure)."""
        if ev.chroma_steps is None:
            return readings
        first, second = grid_neighbours(ev.width, ev.height)
        white = np.array([r.colours == "W" and not r.covered for r in readings], bool)
        tinted = white & np.array([DOUBT_TINTED_WHITE in r.why for r in readings], bool)
        sure = white & ~np.array([r.uncertain for r in readings], bool)
        if not tinted.any() or not sure.any():
            return readings
        member = tinted | sure
        joined = member[first] & member[second] & (np.linalg.norm(ev.chroma_steps, axis=1) < colour.print_chroma_same)
        block = _components(len(readings), first[joined], second[joined])
        doubted = sure & np.isin(block, block[tinted])
        return [replace(r, uncertain=True, why=r.why + (DOUBT_TINTED_WHITE,)) if doubted[k] else r
                for k, r in enumerate(readings)]

    @staticmethod
    def _whites_of_another_print(readings: list[SquareReading], ev: SquareEvidence, colour: ColourConfig
                                 ) -> list[SquareReading]:
        """A board without a paper margin is balanced on its neutral-looking squares, and where its white
        squares are far away (a corner, an edge of the board) a washed-out pastel is lit to the paper's
        white and read W, sure (issue 28: blocks of pale red and blue at a board's edges). The light cannot
        hide the print's colour step across a grid line (`chroma_steps`): each colour's step from the white
        is learnt from this photo's sure pairs, and a block of W squares joined by lines with no colour
        step (one print) gets, from every sure neighbour of another colour outside it, an estimate of its
        own colour against the white. Where their median is a colour (`white_print_chroma`), the block is
        another print than the white: every square of it is doubted; where it is white, it is the paper the
        others are judged against (no block judged so: the largest). A block with no sure neighbour of a
        known colour gets its colour carried to it through the squares around (`_carried_chroma`), and is
        doubted the same way. And two W blocks with a colour step between them are not both white: the one
        that is not the paper is doubted (both, when both were taken for it)."""
        if ev.chroma_steps is None:
            return readings
        first, second = grid_neighbours(ev.width, ev.height)
        step = ev.chroma_steps
        kinds = np.array([CLASSES.index(r.colours) if len(r.colours) == 1 and not r.obstacle else
                          OBSTACLE_CLASS if r.obstacle and not r.colours else -1 for r in readings])
        kinds[[r.uncertain or r.covered for r in readings]] = -1
        level = np.full((len(CLASSES), 3), np.nan)
        level[WHITE_CLASS] = 0.0
        for k in range(len(CLASSES)):
            pairs = np.concatenate([step[(kinds[first] == WHITE_CLASS) & (kinds[second] == k)],
                                    -step[(kinds[first] == k) & (kinds[second] == WHITE_CLASS)]])
            if k != WHITE_CLASS and len(pairs) >= colour.min_level_pairs:
                level[k] = np.median(pairs, axis=0)
        white = kinds == WHITE_CLASS
        joined = white[first] & white[second] & (np.linalg.norm(step, axis=1) < colour.print_chroma_same)
        block = _components(len(readings), first[joined], second[joined])
        # estimates of a white square's colour from its sure neighbours of another known colour
        known = (kinds >= 0) & (kinds != WHITE_CLASS)
        known[known] = ~np.isnan(level[kinds[known], 0])
        into_second = known[first] & white[second]
        into_first = known[second] & white[first]
        towards = np.concatenate([second[into_second], first[into_first]])
        estimates = np.concatenate([level[kinds[first[into_second]]] + step[into_second],
                                    level[kinds[second[into_first]]] - step[into_first]])
        doubted = np.zeros(len(readings), bool)
        judged = set()
        for b in np.unique(block[towards]) if len(towards) else ():
            said = estimates[block[towards] == b]
            if len(said) >= colour.min_level_pairs:
                judged.add(int(b))
                if np.linalg.norm(np.median(said, axis=0)) > colour.white_print_chroma:
                    doubted |= block == b
        if not white.any():
            return readings
        # the white the others are judged against: the blocks their neighbours said were white, or else the largest
        paper = white & np.isin(block, list(judged)) & ~doubted
        if not paper.any():
            paper = white & (block == np.bincount(block[white]).argmax())
        # a block with no sure neighbour of a known colour: its colour carried to it through the squares around
        carried = _carried_chroma(level, kinds, paper, ev.split, [r.covered for r in readings], first, second, step)
        for b in np.unique(block[white & ~paper]):
            if int(b) not in judged:
                said = carried[(block == b) & white & ~np.isnan(carried[:, 0])]
                if len(said) and np.linalg.norm(np.median(said, axis=0)) > colour.white_print_chroma:
                    doubted |= block == b
        apart = white[first] & white[second] & (np.linalg.norm(step, axis=1) > colour.white_print_chroma)
        for one, other in zip(first[apart], second[apart]):
            if not paper[one] or paper[other]:   # both taken for the paper: they contradict, both doubted
                doubted |= block == block[one]
            if not paper[other] or paper[one]:
                doubted |= block == block[other]
        return [replace(r, uncertain=True, why=r.why + (DOUBT_OTHER_PRINT,)) if doubted[k] else r
                for k, r in enumerate(readings)]

    @staticmethod
    def _same_ink_as_doubted_grey(readings: list[SquareReading], ev: SquareEvidence, colour: ColourConfig
                                  ) -> list[SquareReading]:
        """A plain grey read as an obstacle and doubted as maybe the maker's dark colour (`obstacle_doubts`)
        casts its doubt on every plain grey obstacle of the same ink: one within `plain_same_ink` (Lab) of
        it, or of one doubted so in turn (a light falling off across the board shifts an ink by degrees).
        One ink is one reading: the dark tiles on a board's lit edge came out a few L* over the lightness
        bar and read as sure obstacles, while the same tiles in its middle were doubted (issue 28)."""
        grey = np.array([r.obstacle and not r.colours and not r.covered and bool(ev.plain[k])
                         for k, r in enumerate(readings)], bool)
        doubted = grey & np.array([DOUBT_PLAIN_GREY in r.why for r in readings], bool)
        lab = ev.typical_lab
        while True:
            near = np.zeros(len(readings), bool)
            if doubted.any():
                gaps = np.linalg.norm(lab[grey & ~doubted][:, None] - lab[doubted][None], axis=2)
                near[np.flatnonzero(grey & ~doubted)[(gaps < colour.plain_same_ink).any(axis=1)]] = True
            if not near.any():
                break
            doubted |= near
            readings = [replace(r, uncertain=True, why=r.why + (DOUBT_PLAIN_GREY,)) if near[k] else r
                        for k, r in enumerate(readings)]
        return readings

    @staticmethod
    def _overexposed(readings: list[SquareReading], ev: SquareEvidence, colour: ColourConfig) -> list[SquareReading]:
        return [replace(r, uncertain=True, why=r.why + (DOUBT_OVEREXPOSED,))
                if ev.exposure[k] > colour.max_exposure and not r.covered else r for k, r in enumerate(readings)]

    @staticmethod
    def _pastels_as_light_as_white(readings: list[SquareReading], ev: SquareEvidence, white_lightness: float,
                                   colour: ColourConfig) -> list[SquareReading]:
        """A foreign board is balanced on its lightest neutral squares (it has no paper margin). When
        its palette is pastel and a coloured light (a warm lamp makes a pale blue look grey), the
        balance may take a pastel for the white: that pastel then reads W, clipped as light as the
        paper, and the real white and the other pastels read as tints of the wrong hue. The sign is
        in the photo itself: plain one-colour squares (U, R or G) as light as its whites (within
        `pastel_white_gap` L*, at least `pastel_white_min` of them; printed pastels stay darker than
        their white under a true balance). Then no white or pale colour of the photo is sure: every
        W and every plain one-colour square within `pastel_white_reach` L* of the whites is doubtful."""
        def plain_colour(k: int, r: SquareReading) -> bool:
            return len(r.colours) == 1 and r.colours in "URG" and bool(ev.plain[k]) and not r.uncertain and not r.covered
        lightness = ev.typical_lab[:, 0]
        as_light = sum(plain_colour(k, r) and lightness[k] >= white_lightness - colour.pastel_white_gap
                       for k, r in enumerate(readings))
        if as_light < colour.pastel_white_min:
            return readings
        pale = {k for k, r in enumerate(readings)
                if not r.uncertain and not r.covered and (r.colours == "W" or (
                    plain_colour(k, r) and lightness[k] >= white_lightness - colour.pastel_white_reach))}
        return [replace(r, uncertain=True, why=r.why + (DOUBT_PASTEL_WHITE,)) if k in pale else r
                for k, r in enumerate(readings)]


# Readable reasons of a doubt (MT 2.02.e: a person decides) or of a hidden square.
DOUBT_COVERAGE = "a colour covers about the share that decides it"
DOUBT_HATCH_COLOUR = "the colour of its hatch is unclear"
DOUBT_WHITE_GREY = "white and grey both"
DOUBT_COLOUR_GREY = "a colour and grey both: white in a shadow, or a hatch too small to show"
DOUBT_SHADE = "a shadow may have decided between white and grey"
DOUBT_COLOUR_ON_GREY = "a colour drawn on a grey obstacle"
DOUBT_OFF_WHITE = "its white is not the paper's white"
DOUBT_FLAT_GREY = "a flat grey where our hatch would show"
DOUBT_MARK_ON_OBSTACLE = "a start or Temple mark on an obstacle"
DOUBT_WEAK_MARK = "its mark is unclear"
DOUBT_UNEXPLAINED = "too few pixels of a board colour"
DOUBT_CONFIDENCE = "low confidence"
HIDDEN_TOKEN = "a token"
HIDDEN_UNKNOWN = "mostly no board colour"
HIDDEN_SKIN = "skin (a hand)"
HIDDEN_NO_LINE = "no grid line around it (something lies on it)"
HIDDEN_HAND_DOUBT = "doubtful where part of a hand lies"
HIDDEN_PALM_EDGE = "beside a hidden square, its lines faint (a palm's edge)"
DOUBT_TINTED_WHITE = "its white is tinted, of no hue of the board"
DOUBT_OTHER_HUE = "its hue is another colour's: a shade of another maker's palette"
DOUBT_PLAIN_GREY = "a plain grey with nothing drawn on it: an obstacle or a dark colour"
DOUBT_OVEREXPOSED = "far lighter than the paper: the light there is unknown, its colour clipped"
DOUBT_PASTEL_WHITE = "its pale colours are as light as its white: the white may be a pastel"
DOUBT_OTHER_PRINT = "its neighbours' colour steps say it is printed in a colour, not white"
DOUBT_SPLIT = "its two sides differ: a square of two colours read as one"
DOUBT_WHITE_BAND = "its white lies along one side: the paper between squares, the grid read a little off"
DOUBT_NEAR_SPLIT = "its lightness is near the light/dark split"
DOUBT_STRAY_TONE = "much of it has the other tone (glare)"
DOUBT_COLOUR_ON_TWO_TONE = "it shows a colour on a board read as two greys"


def gather_evidence(balanced: np.ndarray, labels: np.ndarray, width: int, height: int, px: int, profile: ColourProfile,
                    colour: ColourConfig, policy, surround, photo_px) -> tuple[SquareEvidence, np.ndarray, np.ndarray]:
    """The evidence record of every square, with the grey image and the classified cells (for the
    policy's last step)."""
    n = width * height
    gray = cv2.cvtColor(np.clip(balanced, 0, 255).astype(np.float32), cv2.COLOR_BGR2GRAY)
    inner = inner_mask(px, colour.inner_margin)
    cell_labels = _cells(labels, width, height, px).reshape(n, px, px)
    considered = np.broadcast_to(inner, (n, px, px))
    lab = to_lab(balanced)
    skin = _cells(policy.skin(lab, colour), width, height, px).reshape(n, px, px)
    skin_share = (skin & considered).sum(axis=(1, 2)) / considered.sum(axis=(1, 2)).clip(min=1)
    blend_px = max(1, int(round(colour.blend_radius * px)))
    blends = _cells(blend_mask(labels, blend_px), width, height, px).reshape(n, px, px)
    marks = policy.marks(gray, width, height, px, colour)
    considered = considered & ~marks.ignore
    band = max(1, int(round(colour.line_band * px)))
    glyph_pixels = {int(i): marks.ignore[i] for i in np.nonzero(marks.glyph_of >= 0)[0]}
    line_contrast = _line_contrast(gray, width, height, px, inner, band, surround, glyph_pixels)
    lab_cells = _cells(lab, width, height, px).reshape(n, px, px, 3)
    if policy.ours:
        white_share = ((cell_labels == WHITE_CLASS) & considered).sum(axis=(1, 2)) / considered.sum(axis=(1, 2)).clip(min=1)
        skin = policy.paper_not_skin(skin, considered, line_contrast, lab_cells, profile.means[WHITE_CLASS],
                                     white_share, marks, colour, photo_px)
        skin_share = (skin & considered).sum(axis=(1, 2)) / considered.sum(axis=(1, 2)).clip(min=1)
    considered = considered & ~skin & ~blends
    total = considered.sum(axis=(1, 2)).clip(min=1)
    counts = np.stack([((cell_labels == k) & considered).sum(axis=(1, 2)) for k in range(len(CLASSES))], axis=1)
    unknown = 1.0 - counts.sum(axis=1) / total
    # boundaries between colours blur into no class: shares are among the pixels that have one
    fractions = counts / counts.sum(axis=1, keepdims=True).clip(min=1)
    hues = np.zeros((n, 5))
    if marks.hatched.any():
        hues[marks.hatched] = _hue_shares(lab_cells[marks.hatched][:, inner], profile, policy.symbols.hatch_min_chroma,
                                          skin[marks.hatched][:, inner])
    shaded, shaded_last = policy.shaded(fractions, lab[..., 0], width, height, px, colour)
    line_threshold = _missing_line_threshold(line_contrast, fractions, marks.hatched, marks.glyph_of, colour, photo_px)
    flat = policy.flat(_cells(gray, width, height, px).reshape(n, px, px), inner, fractions, marks, skin_share,
                       photo_px, colour)
    # the white of a multicoloured square must be this board's paper: a pale palm is whitish too
    white = (cell_labels == WHITE_CLASS) & considered
    offsets = np.full(n, np.nan)
    paper_white = profile.means[WHITE_CLASS]
    for i in np.flatnonzero(white.any(axis=(1, 2)) & ((fractions[:, :5] >= colour.min_cover).sum(axis=1) > 1)):
        offsets[i] = _white_offset(lab_cells[i], white[i], paper_white)
    evidence = SquareEvidence(width, height, marks, fractions, counts, total, unknown, skin_share, hues, line_contrast,
                              line_threshold, shaded, shaded_last, flat, offsets, photo_px, policy.split(lab_cells, inner, colour),
                              policy.plain(_cells(gray, width, height, px).reshape(n, px, px), inner, colour),
                              policy.typical_lab(lab_cells, inner),
                              policy.exposure(balanced, width, height, px, inner),
                              policy.chroma_steps(balanced, width, height, px, colour),
                              policy.white_band(white, colour),
                              _min_cover=colour.min_cover)
    return evidence, gray, cell_labels


def decide_colours(ev: SquareEvidence, i: int, colour: ColourConfig, symbols: SymbolConfig | None
                   ) -> tuple[str, list[str]]:
    """The colours a square reads (WUBRG order), and the doubts their shares leave."""
    if ev.marks.hatched[i]:
        colours, doubtful = _hatched_colours(ev.hues[i], ev.marks.lightness[i], ev.marks.single_hatch[i],
                                             ev.marks.levels, symbols)
        return colours, [DOUBT_HATCH_COLOUR] if doubtful else []
    shares = ev.fraction_rows[i][:len(COLOURS)]
    low, high = colour.min_cover - colour.doubt_below, colour.min_cover + colour.doubt_above
    near_bar = any(low <= v < high for v in shares)
    bar = colour.min_cover + (2 * colour.doubt_above if ev.grey_dominance_flags[i] else 0.0)   # on grey, a colour needs more
    colours = "".join(c for c, v in zip(COLOURS, shares) if v >= bar)
    return colours, [DOUBT_COVERAGE] if near_bar else []


def decide_doubts(ev: SquareEvidence, i: int, colours: str, policy, colour: ColourConfig, pastel: bool
                  ) -> list[str]:
    """Why a square's reading is doubtful, besides its colour shares and its mark (MT 2.02.e); `pastel`:
    the colour is a pale one the profile took for white or grey (`pale_colour`)."""
    f = ev.fraction_rows[i]
    reasons = []
    # white and the obstacle grey differ only in lightness: a shadow, a light grey print or a blurred
    # hatch (ours print their grey hatched) mixes them; a hatch is white and grey by design
    mixed = 0.0 if ev.marks.hatched[i] else min(f[WHITE_CLASS], f[OBSTACLE_CLASS])
    if mixed >= policy.white_grey_mix(colour):
        reasons.append(DOUBT_WHITE_GREY)
    # ... and ours print no plain grey at all: an unhatched square much of a colour and much grey is that
    # colour beside white in a shadow (a square split white and green), or a hatch too small to show
    read = max((f[CLASSES.index(c)] for c in colours if c != "W"), default=0.0)
    if policy.ours and not ev.marks.hatched[i] and min(read, f[OBSTACLE_CLASS]) >= policy.white_grey_mix(colour):
        reasons.append(DOUBT_COLOUR_GREY)
    if ev.shaded[i]:
        reasons.append(DOUBT_SHADE)
    reasons += policy.board_doubts(ev, i, colours, pastel)
    if len(colours) > 1 and "W" in colours and ev.white_offsets[i] > colour.max_white_offset:
        reasons.append(DOUBT_OFF_WHITE)
    return reasons


def decide_covered(ev: SquareEvidence, i: int, colours: str, policy, colour: ColourConfig, token: bool) -> list[str]:
    """Why a square is hidden (something lies on it), or [] when it is seen."""
    reasons = []
    if token:
        reasons.append(HIDDEN_TOKEN)
    if ev.unknown[i] >= colour.covered_unknown and not ev.marks.hatched[i]:
        reasons.append(HIDDEN_UNKNOWN)
    if ev.skin_share[i] >= colour.covered_skin:
        reasons.append(HIDDEN_SKIN)
    if policy.line_missing(ev, i, colours):
        reasons.append(HIDDEN_NO_LINE)
    return reasons


def read_squares(balanced: np.ndarray, labels: np.ndarray, width: int, height: int, px: int, *,
                 profile: ColourProfile, colour: ColourConfig, symbols: SymbolConfig | None,
                 covered_hint: np.ndarray | None = None, surround: tuple[np.ndarray, int] | None = None,
                 photo_px: np.ndarray | None = None) -> list[SquareReading]:
    """Per-square colours, marks, confidence (MT 2.02.d–e, 2.03.a–c, 2.04.a–b).

    balanced (white-balanced BGR, float 0..255) and labels cover exactly the grid (height·px ×
    width·px). The evidence of every square is gathered once (`gather_evidence`), then each square
    gets its named decisions — colours (`decide_colours`), doubts (`decide_doubts`, each with a
    reason a person can read: `SquareReading.why`), hidden (`decide_covered`) — under one of two
    policies: `OurBoards` (`symbols` given: glyphs, hatches, skin, paper in shadow) or
    `ForeignBoards` (`symbols` None). A doubtful reading is `uncertain` (MT 2.02.e: it does not
    count until a person confirms it).
    """
    policy = OurBoards(symbols) if symbols is not None else ForeignBoards()
    ev, gray, _ = gather_evidence(balanced, labels, width, height, px, profile, colour, policy, surround, photo_px)
    marks = ev.marks
    # how far each share is from the bar that decided it (on grey, a colour needs more)
    bars = colour.min_cover + np.where(ev.grey_dominance & ~marks.hatched, 2 * colour.doubt_above, 0.0)
    smallest_gaps = np.abs(np.where(marks.hatched[:, None], ev.hues, ev.colour_shares) - bars[:, None]).min(axis=1)
    cover_doubts = ((ev.colour_shares >= colour.min_cover - colour.doubt_below)
                    & (ev.colour_shares < colour.min_cover + colour.doubt_above)).any(axis=1).tolist()
    explained = np.where(marks.hatched, 1.0, 1.0 - ev.unknown)   # a hatch blurs into no class by design
    confidences = (explained * np.minimum(1.0, smallest_gaps / (2 * colour.doubt_below))).tolist()
    explained = explained.tolist()
    kinds = [GLYPHS[g] if g >= 0 else ("hatch" if h else None) for g, h in zip(marks.glyph_of.tolist(), marks.hatched)]
    # the loop reads Python values (a numpy scalar costs more to index and compare: ~1 ms at 1080p)
    hatched, mark_sure, borderline = marks.hatched.tolist(), marks.mark_sure.tolist(), marks.borderline_hatch.tolist()
    flat, skin_share = ev.flat.tolist(), ev.skin_share.tolist()
    token_on = covered_hint.ravel().tolist() if covered_hint is not None else [False] * (width * height)
    readings = []
    shade_candidate = np.zeros(width * height, bool)  # flat grey squares a shadow on paper could explain
    for i in range(width * height):
        y, x = divmod(i, width)
        kind = kinds[i]
        colours, why = decide_colours(ev, i, colour, symbols)
        read, pale_doubts = policy.pale_colour(ev, i, colours, profile, colour)
        pastel, colours = read != colours, read   # a pale colour the profile took for white or grey
        why += pale_doubts + decide_doubts(ev, i, colours, policy, colour, pastel)
        obstacle = not pastel and (kind == "hatch" or ev.grey_dominance_flags[i] or not colours)
        flat_paper = obstacle and kind is None and flat[i] and colours in ("", "W")
        if flat_paper:
            # ours print every obstacle hatched, and at this size the hatch would leave texture:
            # a grey as flat as the paper is white paper in a shadow the margin did not see
            colours, obstacle = "W", False
        why += policy.obstacle_doubts(ev, i, obstacle, kind, colour)
        doubtful = bool(why)
        start, temple = kind == "start", kind == "temple"
        if obstacle and (start or temple):  # a glyph on an obstacle cannot be: doubt the glyph
            start = temple = False
            why.append(DOUBT_MARK_ON_OBSTACLE)
            doubtful = True
        hidden = decide_covered(ev, i, colours, policy, colour, token_on[i])
        confidence = confidences[i]
        unsettled = borderline[i] and not _hatch_settled(hatched[i], colours, ev.counts[i], ev.total[i], colour)
        # grey or white with nothing else in doubt: the light may have decided between them (not
        # where our hatch could not hide: there a flat square is no print of ours whatever its level)
        shade_candidate[i] = (kind is None and colours in ("", "W") and (obstacle or doubtful or flat_paper)
                              and not (flat_paper and policy.hatch_shows(ev, i)) and mark_sure[i]
                              and not unsettled and not cover_doubts[i])
        if (not mark_sure[i] or unsettled) and not (kind in (None, "hatch") and not colours):
            why.append(DOUBT_WEAK_MARK)  # a weak mark matters unless the square is a colourless obstacle anyway
            doubtful = True
            confidence *= 0.5
        if explained[i] < colour.min_explained:
            why.append(DOUBT_UNEXPLAINED)
        if confidence < colour.min_confidence:
            why.append(DOUBT_CONFIDENCE)
        uncertain = doubtful or explained[i] < colour.min_explained or bool(hidden) or confidence < colour.min_confidence
        # a doubt where part of a hand lies is the hand's doing: the square is hidden, not unclear
        if uncertain and skin_share[i] >= colour.covered_skin_doubt and not hidden:
            hidden = [HIDDEN_HAND_DOUBT]
        readings.append(SquareReading(x, y, colours, bool(obstacle), bool(start), bool(temple),
                                      min(max(confidence, 0.0), 1.0), bool(uncertain), bool(hidden),
                                      why=tuple(hidden + why)))
    return policy.settle(readings, ev, gray, shade_candidate, width, height, px, colour, covered_hint)


def _printed_levels(grey_level: float) -> np.ndarray:
    """(classes,) log grey of each class's printed ink over the printed white's; `grey_level`:
    the mean grey of the hatched colourless obstacle as printed."""
    inks = np.array([[SQUARE_BGR[c] for c in CLASSES[:OBSTACLE_CLASS]]], np.float32)
    greys = np.append(cv2.cvtColor(inks, cv2.COLOR_BGR2GRAY).ravel(), grey_level)
    return np.log(greys / greys[WHITE_CLASS])


def _settle_shaded_paper(readings: list[SquareReading], gray: np.ndarray, candidates: np.ndarray,
                         colourless_hatch: np.ndarray, glyph_of: np.ndarray, grey_level: float, width: int,
                         height: int, px: int, colour: ColourConfig) -> list[SquareReading]:
    """Flat grey squares (`candidates`) that `paper_in_shade` finds to be paper read W, sure;
    those it finds printed grey read as the colourless obstacle. The sure references are the
    plain one-colour squares and the colourless hatches read without a doubt."""
    kinds = np.full(len(readings), -1)
    for i, r in enumerate(readings):
        if r.uncertain or r.covered or glyph_of[i] >= 0 or candidates[i]:
            continue
        if not r.obstacle and len(r.colours) == 1:
            kinds[i] = CLASSES.index(r.colours)
        elif r.obstacle and not r.colours and colourless_hatch[i]:
            kinds[i] = OBSTACLE_CLASS
    open_ = candidates & ~np.array([r.covered for r in readings], bool)
    verdict, contradicted = paper_in_shade(np.log(np.maximum(gray, 1.0)), kinds, open_, _printed_levels(grey_level),
                                           width, height, px, colour)
    settled = [replace(r, colours="W", obstacle=False, uncertain=False, confidence=max(r.confidence, colour.min_confidence),
                       why=()) if verdict[i] > 0 else replace(r, colours="", obstacle=True) if verdict[i] < 0 else r
               for i, r in enumerate(readings)]
    return [replace(r, uncertain=True, why=r.why + (DOUBT_SHADE,)) if contradicted[i] else r
            for i, r in enumerate(settled)]


def _pale_edges_beside_hidden(readings: list[SquareReading], line_contrast: np.ndarray, bar: np.ndarray,
                              width: int, height: int, tokens: np.ndarray | None = None) -> list[SquareReading]:
    """The fading edge of a pale palm reads as white paper: beside the squares it hides, it turns a
    coloured square into W + that colour. A printed multicoloured square keeps its grid lines; a
    multicoloured square with W beside a covered square whose faintest line is under `bar` (n,) is
    covered too. Squares hidden by a read token (`tokens`, height × width) do not count: a
    token is a printed disc with a hard edge, not a palm."""
    hidden = np.array([r.covered for r in readings], bool).reshape(height, width)
    if tokens is not None:
        hidden &= ~tokens
    hidden = hidden.astype(np.uint8)
    beside = cv2.dilate(hidden, np.ones((3, 3), np.uint8)).ravel().astype(bool)
    return [replace(r, covered=True, uncertain=True, why=(HIDDEN_PALM_EDGE,) + r.why)
            if beside[i] and not r.covered and len(r.colours) > 1 and "W" in r.colours and line_contrast[i] < bar[i]
            else r for i, r in enumerate(readings)]


def _within_spread(values: np.ndarray, reference: np.ndarray, factor: float, floor: float) -> np.ndarray:
    """(n,) whether each of `values` (n, k: Lab or its a, b) lies within the spread of one print's squares
    (`reference`, m × k): no further from their middle than `factor` × their median distance from it, or than
    `floor` (the whites' spread, one ink's)."""
    middle = np.median(reference, axis=0)
    spread = float(np.median(np.linalg.norm(reference - middle, axis=1)))
    return np.linalg.norm(values - middle, axis=1) <= max(floor, factor * spread)


def _otsu(values: np.ndarray) -> float:
    """The split of 1-D values that maximises the between-class variance (the first such split, between two
    neighbours in order; the middle value when there is only one)."""
    ordered = np.sort(np.asarray(values, float))
    n = len(ordered)
    if n < 2:
        return float(ordered[0])
    below = np.arange(1, n)                       # values below each candidate split
    low_sum = np.cumsum(ordered)[:-1]
    between = below * (n - below) * ((ordered.sum() - low_sum) / (n - below) - low_sum / below) ** 2
    i = int(np.argmax(between)) + 1
    return float((ordered[i - 1] + ordered[i]) / 2)


def read_two_tone(balanced: np.ndarray, width: int, height: int, px: int, colour: ColourConfig
                  ) -> list[SquareReading] | None:
    """A foreign board printed in two greys (a chessboard, a drawn grid): learnt per
    photo, the lightness split between its squares decides W or B (MT 2.02.d); squares
    near the split, or with much of their surface nearer the other tone (glare on a
    glossy black square), are uncertain (MT 2.02.e), and so is a square that shows a colour: a chessboard
    has none, and a board of white and black with a few coloured squares is read as two tones too
    (issue 28: its green read W, sure). None when the board is coloured."""
    n = width * height
    lab = _cells(to_lab(balanced), width, height, px).reshape(n, px, px, 3)[:, inner_mask(px, colour.inner_margin)]
    lightness = np.median(lab[..., 0], axis=1)
    chroma = np.median(np.hypot(lab[..., 1], lab[..., 2]), axis=1)
    if (chroma < colour.two_tone_max_chroma).mean() < colour.two_tone_share:
        return None
    low, high = np.percentile(lightness, [5, 95])
    if high - low < colour.two_tone_min_split:  # one tone: a plain drawn grid
        tone = "W" if np.median(lightness) >= 50 else "B"
        return [SquareReading(i % width, i // width, tone, False, False, False, 1.0, False, False) for i in range(n)]
    split = _otsu(lightness)
    dark, light = lightness[lightness < split].mean(), lightness[lightness >= split].mean()
    gap = max(light - dark, 1e-6)
    is_light = lightness >= split
    below = lab[..., 0] < split
    stray = np.where(is_light, below.mean(axis=1), (~below).mean(axis=1))   # of its pixels, the other tone's share
    confidence = np.clip(np.abs(lightness - split) / (0.5 * gap), 0, 1) * (1 - stray)
    near = (gap < colour.two_tone_min_split) | (np.abs(lightness - split) < colour.two_tone_margin * gap)
    doubts = np.stack([near, stray >= colour.two_tone_stray, chroma >= colour.two_tone_max_chroma], 1)
    readings = []
    for i in range(n):
        why = tuple(doubt for doubt, doubted in zip((DOUBT_NEAR_SPLIT, DOUBT_STRAY_TONE, DOUBT_COLOUR_ON_TWO_TONE),
                                                    doubts[i]) if doubted)
        readings.append(SquareReading(i % width, i // width, "W" if is_light[i] else "B", False, False, False,
                                      float(confidence[i]), bool(why), False, why=why))
    return readings
