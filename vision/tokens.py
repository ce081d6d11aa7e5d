"""Reading tokens on a calibrated view: which token (player, number) stands on which square.

Method (docs/tokens.md):
1. ArUco markers are searched in the image region covering the grid only (the grid mapping says
   where) — or, given the squares a token may stand on, around each group of them —, with
   contour sizes limited to a token marker's; token ids are 50..249
   (`boards.tokens`). The decoder gives identity and orientation, and its error-correcting code
   makes a wrong id much rarer than a missed one. Marker-sized quads that fail to decode get a
   second look, enlarged and sharpened (far, blurred tokens); where cells are small enough for
   the second reader (4.), only on squares it did not read (a second look is the dearest step).
   Where every cell is under `code_search_from_px`, the search itself waits for the second reader
   and covers only the squares it left unread.
2. Each marker's corners go back to grid units through the mapping (and its lens). A printed token
   lies flat on the board, so its marker must come out as a square of the printed size there;
   anything else (a token held in the air, a false detection) is dropped. The token centre is
   found from the marker and the known layout; the square is the one containing it, and a token
   whose centre is outside the grid (the twin lying beside the board) is not reported.
3. Colour cross-check (all tokens at once): the token's colour area is sampled at fixed points of the layout and
   divided by the token's own white (its marker's white cells, so the light's colour cancels), then compared in
   Lab with the five player colours. The decoded player must win on most sample points; a hand
   over part of the token makes it fail, and the token is then not reported rather than guessed.
4. Second reader, where a marker cell is under 4 px: squares without a decoded token are rectified
   and matched against the 200 printed token pictures (marker bits, number and colour together;
   a square whose patch at the found pose matches no printed token even roughly stops there);
   a code read where cells are under 3 px must agree with its picture (tiny bits can decode to a
   neighbouring id). Reported only when the match is strong and clearly beats every other token.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from boards.markers import ARUCO_DICTIONARY
from boards.tokens import LAYOUT, PLAYER_COLOURS, TOKEN_DIAMETER_MM, bgr_to_lab, number_ink, token_from_marker_id
from calibration.config import TokenConfig
from calibration.mapping import GridMapping, from_resized

TOKEN_SQUARES = TOKEN_DIAMETER_MM / 20.0   # token diameter in grid units (2 cm squares)

# Sample points in token units (fraction of the diameter, y down, marker up): the colour area
# left and right of the marker and beside the number, away from the edge, quiet zone and digits.
_COLOUR_POINTS = np.array([(-0.39, -0.08), (0.39, -0.08), (-0.36, 0.14), (0.36, 0.14),
                           (-0.31, 0.29), (0.31, 0.29), (-0.37, -0.22), (0.37, -0.22)])


@dataclass(frozen=True)
class TokenObservation:
    """One token read in one image: square (x, y), identity, and how sure we are (0..1)."""

    x: int
    y: int
    player: int
    number: int
    confidence: float

    @property
    def token(self) -> tuple[int, int]:
        return self.player, self.number

    @property
    def square(self) -> tuple[int, int]:
        return self.x, self.y

    def to_dict(self) -> dict:
        return {"x": self.x, "y": self.y, "player": self.player, "number": self.number,
                "confidence": round(self.confidence, 3)}


@dataclass
class _DetectorCache:
    detector: cv2.aruco.ArucoDetector | None = None
    rescue: cv2.aruco.ArucoDetector | None = None
    dictionary: cv2.aruco.Dictionary | None = None
    player_labs: np.ndarray = field(default_factory=lambda: np.zeros((0, 3)))
    white_cells: dict[int, np.ndarray] = field(default_factory=dict)
    pictures: "_TokenPictures | None" = None


_CACHE = _DetectorCache()   # one detector, re-tuned per call: call detect_tokens from one thread


def _detector() -> cv2.aruco.ArucoDetector:
    if _CACHE.detector is None:
        _CACHE.dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, ARUCO_DICTIONARY))
        params = cv2.aruco.DetectorParameters()
        params.polygonalApproxAccuracyRate = 0.05
        params.minCornerDistanceRate = 0.05
        params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_NONE
        params.perspectiveRemovePixelPerCell = 6
        params.perspectiveRemoveIgnoredMarginPerCell = 0.2
        params.maxErroneousBitsInBorderRate = 0.35
        params.errorCorrectionRate = 0.6
        _CACHE.detector = cv2.aruco.ArucoDetector(_CACHE.dictionary, params)
        _CACHE.player_labs = np.array([bgr_to_lab(c) for c in PLAYER_COLOURS])
    return _CACHE.detector


def _tune_for_size(detector: cv2.aruco.ArucoDetector, cell_range: tuple[float, float], image_side: int) -> None:
    """Only contours of about a token marker's size are examined: the board's own squares (three
    times larger) are rejected before any decoding, which is most of the speed."""
    params = detector.getDetectorParameters()
    smallest, largest = cell_range
    params.minMarkerPerimeterRate = 0.7 * 24 * smallest / image_side
    params.maxMarkerPerimeterRate = 1.6 * 24 * largest / image_side
    # Thresholding windows of about 3 cells; one window when near and far cells are alike (each
    # window is a full threshold-and-contour pass, the largest cost of the code reader).
    params.adaptiveThreshWinSizeMin = max(3, int(round(3 * smallest)) | 1)
    params.adaptiveThreshWinSizeMax = max(3, int(round(3 * largest)) | 1) if largest >= 1.5 * smallest \
        else params.adaptiveThreshWinSizeMin
    params.adaptiveThreshWinSizeStep = max(2, params.adaptiveThreshWinSizeMax - params.adaptiveThreshWinSizeMin)
    detector.setDetectorParameters(params)


def _white_cells(marker_id: int) -> np.ndarray:
    """Centres, in token units, of the white data cells of a marker: the token's own white."""
    if marker_id not in _CACHE.white_cells:
        bits = cv2.aruco.generateImageMarker(_CACHE.dictionary, marker_id, 6)[1:5, 1:5]
        rows, cols = np.nonzero(bits > 127)
        pts = np.stack([(cols - 1.5) * LAYOUT.cell, (rows - 1.5) * LAYOUT.cell + LAYOUT.marker_centre_y], axis=1)
        _CACHE.white_cells[marker_id] = pts
    return _CACHE.white_cells[marker_id]


def _search_region(shape: tuple[int, int], mapping: GridMapping, squares: tuple[int, int, int, int],
                   margin: float) -> tuple[int, int, int, int] | None:
    """Image rectangle (x0, y0, x1, y1) covering the given grid squares plus `margin` squares
    (its sides sampled too where a lens bends them outward)."""
    gx0, gy0, gx1, gy1 = squares
    corners = np.array([[gx0 - margin, gy0 - margin], [gx1 + margin, gy0 - margin],
                        [gx1 + margin, gy1 + margin], [gx0 - margin, gy1 + margin]])
    if not mapping.straight:
        t = np.linspace(0.0, 1.0, 9)[:, None]
        corners = np.concatenate([a + t * (b - a) for a, b in zip(corners, np.roll(corners, -1, axis=0))])
    img_pts = mapping.to_image(corners)
    x0, y0 = np.floor(img_pts.min(axis=0)).astype(int)
    x1, y1 = np.ceil(img_pts.max(axis=0)).astype(int)
    h, w = shape
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
    if x1 - x0 < 8 or y1 - y0 < 8:
        return None
    return x0, y0, x1, y1


def _cell_range(mapping: GridMapping, width: int, height: int) -> tuple[float, float]:
    """Smallest and largest image size of a marker cell over the grid (near and far side of a tilt)."""
    mapping = GridMapping.coerce(mapping)
    cell = LAYOUT.cell * TOKEN_SQUARES
    at = np.array([(0.5, 0.5), (width - 0.5, 0.5), (0.5, height - 0.5), (width - 0.5, height - 0.5),
                   (width / 2, height / 2)])
    # each place and a cell's step along x and along y from it, mapped at once (once per part searched)
    p = mapping.to_image(np.concatenate([at, at + (cell, 0), at + (0, cell)])).reshape(3, -1, 2)
    sizes = np.linalg.norm(p[1:] - p[0], axis=2)
    return float(sizes.min()), float(sizes.max())


_NEIGHBOURS = np.array([(dx, dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1)])


def _sample(image: np.ndarray, pts: np.ndarray, reduce=np.mean) -> np.ndarray:
    """BGR of a 3×3 neighbourhood at each point, reduced per channel (NaN rows outside the image)."""
    h, w = image.shape[:2]
    xy = np.rint(pts).astype(int)
    inside = (xy[:, 0] >= 1) & (xy[:, 0] < w - 1) & (xy[:, 1] >= 1) & (xy[:, 1] < h - 1)
    out = np.full((len(pts), 3), np.nan)
    if inside.any():
        around = xy[inside][:, None, :] + _NEIGHBOURS[None, :, :]
        out[inside] = reduce(image[around[..., 1], around[..., 0]], axis=1)
    return out


def _project_each(points: np.ndarray, h_each: np.ndarray) -> np.ndarray:
    """Points (n, m, 2) through one homography per row (n, 3, 3): (n, m, 2)."""
    ones = np.ones(points.shape[:2] + (1,))
    mapped = np.einsum("nij,nmj->nmi", h_each, np.concatenate([points, ones], axis=2))
    return mapped[..., :2] / mapped[..., 2:]


def _token_points_to_image(mapping: GridMapping, points: np.ndarray, token_to_grid: np.ndarray) -> np.ndarray:
    """Points (n, m, 2) in each token's own units (`token_to_grid` (n, 3, 3) to grid units)
    to image pixels (n, m, 2): one product per token when the mapping is straight."""
    if mapping.straight:
        return _project_each(points, mapping.homography[None] @ token_to_grid)
    return mapping.to_image(_project_each(points, token_to_grid))


_WHITE_PX = 12   # pixels per square of the view in which a token's nearby white is looked for


def _nearby_whites(image: np.ndarray, mapping: GridMapping, centres: np.ndarray) -> np.ndarray:
    """(n, 3) the light's colour around each token: the brightest neutral-looking patch within a
    square of it (white squares, the paper, the token's own white), smoothed over a few pixels.
    Small tokens' white cells are too blurred to show it; a wrong white would cast every colour
    vote wrong. All tokens' views come from one remap."""
    side = 3 * _WHITE_PX
    across, along = np.meshgrid(np.arange(side) / _WHITE_PX - 1.5, np.arange(side) / _WHITE_PX - 1.5)
    gx = centres[:, 0, None, None] + across[None]
    gy = centres[:, 1, None, None] + along[None]
    pts = np.stack([gx.ravel(), gy.ravel()], axis=1)
    pix = mapping.to_image(pts).reshape(len(centres), -1, 2).astype(np.float32)   # a view per row: see _upright_patches
    views = cv2.remap(image, pix[..., 0], pix[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    views = np.array([cv2.blur(v, (3, 3)) for v in views.reshape(len(centres), side, side, 3)])
    views = views.reshape(len(centres), -1, 3)
    # A white has all three channels high; yellow has not. (Channel planes compared elementwise:
    # a reduction over a last axis of 3 is numpy's slow case.)
    weakest = np.minimum(np.minimum(views[..., 0], views[..., 1]), views[..., 2])
    brightest = _at_or_above_percentile(weakest, 98).astype(np.float32)
    # sums of whole grey levels: exact in float32, as one product per token
    sums = np.matmul(brightest[:, None, :], views.astype(np.float32))[:, 0].astype(np.float64)
    return sums / brightest.sum(axis=1, keepdims=True, dtype=np.float64)


def _at_or_above_percentile(levels: np.ndarray, percent: float) -> np.ndarray:
    """(n, m) whole numbers → (n, m) bool: each row's values at or above its `percent` percentile
    (`np.percentile`'s linear one). A value of whole numbers is at or above a percentile between
    two neighbouring order statistics when it is at or above the upper one: one partition
    instead of the percentile's work, ≈ 0.3 ms of a 1080p scan with tokens (#28)."""
    past = math.ceil(percent / 100 * (levels.shape[1] - 1))
    return levels >= np.partition(levels, past, axis=1)[:, past:past + 1]


def _colour_distances(image: np.ndarray, mapping: GridMapping, token_to_grid: np.ndarray,
                      marker_ids: list[int], centres: np.ndarray) -> np.ndarray:
    """(tokens, sample points, players) Lab distances of each token's colour area to each player
    colour, after dividing by the white; NaN rows where a point cannot be measured. All tokens are
    sampled together (one projection, one sampling call): a token costs little more than a point.
    `token_to_grid` (n, 3, 3) maps token units to grid units."""
    n, points = len(marker_ids), len(_COLOUR_POINTS)
    dist = np.full((n, points, len(PLAYER_COLOURS)), np.nan)
    if not n:
        return dist
    _detector()   # the dictionary (white cells) and the players' Lab colours
    colours = _sample(image, _token_points_to_image(mapping, np.broadcast_to(_COLOUR_POINTS, (n, points, 2)),
                                                    token_to_grid).reshape(-1, 2))
    colours = colours.reshape(n, points, 3)
    # The token's white: the brightest pixel near each white cell centre. Cells are 3-5 px in a
    # photo, so means mix in the black around them; the maximum does not.
    cells = [_white_cells(m) for m in marker_ids]
    counts = np.array([len(c) for c in cells])
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    padded = np.zeros((n, counts.max(), 2))
    for i, c in enumerate(cells):
        padded[i, :len(c)] = c
    projected = _token_points_to_image(mapping, padded, token_to_grid)
    flat = np.concatenate([projected[i, :counts[i]] for i in range(n)])
    whites = np.fmax.reduceat(_sample(image, flat, reduce=np.max), starts, axis=0)   # NaN: none measurable
    nearby = _nearby_whites(image, mapping, centres)
    use_nearby = nearby.min(axis=1) > whites.min(axis=1)
    white = np.where(use_nearby[:, None], nearby, whites)
    measurable = np.isfinite(whites).all(axis=1) & (white.min(axis=1) >= 20)
    ok = np.isfinite(colours).all(axis=2) & measurable[:, None]
    if not ok.any():
        return dist
    balanced = np.clip(colours / white[:, None, :] * 255.0, 0, 255)[ok]
    delta = bgr_to_lab(balanced)[:, None, :] - _CACHE.player_labs[None, :, :]
    delta[..., 0] *= 0.5   # lightness suffers most from uneven light; hue and chroma decide
    dist[ok] = np.linalg.norm(delta, axis=2)
    return dist


def _colour_votes(dist: np.ndarray, config: TokenConfig) -> np.ndarray:
    """Player index voted by each colour sample point (-1: no player close enough), from
    `_colour_distances`."""
    measured = np.isfinite(dist).all(axis=-1)
    best = np.where(measured, np.nan_to_num(dist, nan=np.inf).argmin(axis=-1), -1)
    too_far = np.nan_to_num(dist, nan=np.inf).min(axis=-1) > config.max_colour_distance
    return np.where(measured & ~too_far, best, -1)


def _token_frame(grid_corners: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """From a marker's corners in grid units (TL, TR, BR, BL of the marker's own up): the token's
    centre, its x axis and y axis as grid vectors one token diameter long."""
    tl, tr, br, bl = grid_corners
    right = ((tr - tl) + (br - bl)) / 2 / LAYOUT.marker_side
    down = ((bl - tl) + (br - tr)) / 2 / LAYOUT.marker_side
    centre = grid_corners.mean(axis=0) - LAYOUT.marker_centre_y * down
    return centre, right, down


def _is_flat_token_marker(grid_corners: np.ndarray, config: TokenConfig) -> np.ndarray:
    """A printed marker lying on the board: a square of the printed size in grid units. Checks
    many quads at once: (n, 4, 2) corners → (n,) bools (one (4, 2) quad → a 0-d bool)."""
    sides = np.linalg.norm(np.roll(grid_corners, -1, axis=-2) - grid_corners, axis=-1)
    diagonals = np.stack([np.linalg.norm(grid_corners[..., 2, :] - grid_corners[..., 0, :], axis=-1),
                          np.linalg.norm(grid_corners[..., 3, :] - grid_corners[..., 1, :], axis=-1)], axis=-1)
    expected = LAYOUT.marker_side * TOKEN_SQUARES
    mean_side = sides.mean(axis=-1)
    return ((np.abs(mean_side / expected - 1) <= config.size_tolerance)
            & ((sides.max(axis=-1) - sides.min(axis=-1)) / mean_side <= config.shape_tolerance)
            & (np.abs(diagonals[..., 0] - diagonals[..., 1]) / diagonals.mean(axis=-1) <= config.shape_tolerance))


def _quads_to_rescue(rejected, decoded: list[tuple[np.ndarray, int]], zoom: float, offset: tuple[int, int],
                     mapping: GridMapping, config: TokenConfig) -> tuple[np.ndarray, np.ndarray]:
    """The rejected quads worth a second look, (n, 4, 2) image pixels, and their centres in grid
    units (n, 2): flat marker-sized squares on the board not already covered by a decoded marker
    (the decoder also rejects the inner outline or a second threshold window's copy of a marker it
    read; looking again would only read it again)."""
    quads = np.array(rejected, np.float64).reshape(-1, 4, 2) / zoom + offset
    if not len(quads):
        return quads, np.zeros((0, 2))
    grid_quads = mapping.to_grid(quads).reshape(-1, 4, 2)
    keep = _is_flat_token_marker(grid_quads, config)
    if decoded:
        centres = np.array([c.mean(axis=0) for c, _ in decoded])
        sides = np.array([np.linalg.norm(c - np.roll(c, -1, axis=0), axis=1).mean() for c, _ in decoded])
        gaps = np.linalg.norm(quads.mean(axis=1)[:, None, :] - centres[None, :, :], axis=2)   # (quads, decoded)
        keep &= ~(gaps < 0.5 * sides[None, :]).any(axis=1)
    return quads[keep], grid_quads[keep].mean(axis=1)


def _rescue(image_bgr: np.ndarray, quad: np.ndarray) -> list[tuple[np.ndarray, int]]:
    """Second look at a marker-sized quad that did not decode: the patch around it, enlarged so a
    cell spans about 8 px and sharpened, decoded again. Far, tilted tokens (cells of ~3 px) are read this way
    without enlarging the whole frame."""
    side = float(np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1).mean())
    pad = 0.6 * side
    h, w = image_bgr.shape[:2]
    x0, y0 = np.maximum(np.floor(quad.min(axis=0) - pad).astype(int), 0)
    x1, y1 = np.minimum(np.ceil(quad.max(axis=0) + pad).astype(int), (w, h))
    if x1 - x0 < 8 or y1 - y0 < 8:
        return []
    factor = max(1.0, 8.0 / (side / 6))
    patch = cv2.resize(cv2.cvtColor(image_bgr[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY), None, fx=factor, fy=factor,
                       interpolation=cv2.INTER_CUBIC).astype(np.float32)
    # Unsharp mask: undoes part of the lens/motion blur that merges 3 px cells.
    patch = cv2.addWeighted(patch, 2.0, cv2.GaussianBlur(patch, (0, 0), factor), -1.0, 0)
    patch = np.clip(patch, 0, 255).astype(np.uint8)
    detector = _rescue_detector()
    corners_list, ids, _ = detector.detectMarkers(patch)
    if ids is None:
        return []
    return [(from_resized(c.reshape(4, 2), factor) + (x0, y0), int(i)) for c, i in zip(corners_list, ids.ravel())]


def _rescue_detector() -> cv2.aruco.ArucoDetector:
    """Detector for enlarged patches: cells of about 8 px, the marker a large part of the patch."""
    if _CACHE.rescue is None:
        _detector()
        params = cv2.aruco.DetectorParameters()
        params.minMarkerPerimeterRate = 0.5
        params.maxMarkerPerimeterRate = 4.0
        params.adaptiveThreshWinSizeMin = 13
        params.adaptiveThreshWinSizeMax = 33
        params.adaptiveThreshWinSizeStep = 10
        params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_NONE
        params.errorCorrectionRate = 0.6
        _CACHE.rescue = cv2.aruco.ArucoDetector(_CACHE.dictionary, params)
    return _CACHE.rescue


# --- second reader: the whole printed token, matched as a picture ----------------------------
#
# Below ≈ 3 px per marker cell (a board filling little of the frame) the ArUco bits blur into each
# other and the decoder gives up. The token is still ≈ 20–35 px across, and what is printed on it is
# known exactly: 200 possible pictures. Each unread square is rectified through the grid mapping
# (perspective removed) at a fixed scale; the token's position and rotation are found by matching
# the average token (marker square, number box and notch are where every token has them); then the
# upright patch is compared, colour channel by channel (normalised, so light level and colour cast
# cancel), with all 200 printed tokens at once. A token is reported only when its picture matches
# well AND clearly better than any other token's; a partly hidden token matches poorly and is left out.
#
# Speed: every correlation is a matrix product over all the squares to read at once (`_product`
# for the large ones, numpy's stacked matmul for each square's few rivals: products this small
# stay on one BLAS thread, so one core means one core; an einsum of the same was 4× slower, #28),
# instead of thousands of small `matchTemplate` calls, whose per-call cost dominated; and all
# patches are cut by one remap. The large products go to numpy's `@` where numpy was built with
# an optimised BLAS (OpenBLAS, MKL, Accelerate, BLIS: 3.5–4× faster than OpenCV's gemm on this
# Linux machine, ≈ 4 ms of a 1080p scan with 12 tokens, 5 Dec 2026), and to `cv2.gemm` where it
# was not: python-for-android builds numpy without BLAS, where `@` falls back to numpy's own
# unblocked loop, while OpenCV's gemm is the same blocked product everywhere.


def _numpy_has_blas() -> bool:
    """Whether numpy was built against an optimised BLAS (its build configuration says which)."""
    try:
        blas = np.show_config(mode="dicts")["Build Dependencies"]["blas"]
    except (AttributeError, KeyError, TypeError, ValueError):   # a numpy that does not say: assume the plain loop
        return False
    name = str(blas.get("name", "")).lower()
    return bool(blas.get("found")) and any(k in name for k in ("openblas", "mkl", "accelerate", "blis"))


_BLAS = _numpy_has_blas()
PRODUCT_PATH = "numpy's BLAS" if _BLAS else "OpenCV's gemm (numpy without BLAS, as on the tablet)"   # for the bench


def _product(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a @ b.T in float32 (the correlations' large products): numpy's BLAS where it has one,
    OpenCV's blocked gemm where it has not (the comment above)."""
    if _BLAS:
        return a @ b.T
    return cv2.gemm(a, b, 1.0, None, 0.0, flags=cv2.GEMM_2_T)


_CANON_PX = 36                         # canonical pixels per grid square (a token ≈ 31 px across)
_CROP = 0.70                           # compared area: the square inscribed in the disc (× diameter)
_POSE_STEP_DEG = 15.0                  # pose search step; the decode refines by a third of it
_POSE_REFINE_PX = 3                    # full-scale search around a half-scale pose (pixels)
_POSE_KEEP = 8                         # half-scale poses refined at full scale
_SHIFTS = tuple((dx, dy) for dy in (0, -1, 1) for dx in (0, -1, 1))   # decode variants (grid px), (0, 0) first


@dataclass
class _TokenPictures:
    """The 200 printed tokens, upright, at the canonical scale, ready for correlation."""

    crop_px: int
    upright: np.ndarray                # (200, 3 * crop²) per-channel normalised colour pictures
    ids: np.ndarray                    # marker id of each row
    angles: np.ndarray                 # (poses,) degrees: the average token turned by each angle
    pose_bank: np.ndarray              # (poses, crop²) grey average tokens, zero mean, unit norm
    coarse_bank: np.ndarray            # (poses, (crop // 2)²) the same at half scale


def _normalise_channels(patches: np.ndarray) -> np.ndarray:
    """(n, h, w, 3) → (n, 3·h·w): each channel zero mean, unit norm, so a gain or offset per channel
    (light, colour cast) does not change the score; the three are weighted equally."""
    n = len(patches)
    # (n, 3, h·w): channels apart before converting (a third of the strided reads' cost for uint8
    # patches, #28; converting is exact either way), always a copy: normalised in place below
    flat = np.ascontiguousarray(patches.reshape(n, -1, 3).transpose(0, 2, 1)).astype(np.float32)
    flat -= flat.mean(axis=2, keepdims=True)
    flat /= np.sqrt(np.einsum("ncp,ncp->nc", flat, flat))[..., None] * np.float32(np.sqrt(3.0)) + 1e-6
    return flat.reshape(n, -1)


def _unit_rows(rows: np.ndarray) -> np.ndarray:
    """(m, n) → each row zero mean, unit norm (float32): a product of two such rows is the
    normalised correlation `cv2.TM_CCOEFF_NORMED` gives."""
    rows = rows.astype(np.float32)
    rows = rows - rows.mean(axis=1, keepdims=True)
    rows /= np.linalg.norm(rows, axis=1, keepdims=True) + 1e-6
    return rows


def _halve(views: np.ndarray) -> np.ndarray:
    """(n, h, w) → (n, h // 2, w // 2) by averaging 2×2 blocks (an odd last row/column is dropped),
    so half-scale position c is full-scale position 2c exactly."""
    n, h, w = views.shape
    return views[:, :h // 2 * 2, :w // 2 * 2].reshape(n, h // 2, 2, w // 2, 2).mean(axis=(2, 4))


def _token_pictures() -> _TokenPictures:
    """Built once per process (≈ 1 s: 200 renders), then shared by every read."""
    if _CACHE.pictures is None:
        from boards.tokens import TOKEN_MARKER_IDS, render_token

        diameter = TOKEN_SQUARES * _CANON_PX
        crop = int(round(_CROP * diameter)) | 1
        big = 4 * int(round(diameter))
        ids = np.array(list(TOKEN_MARKER_IDS))
        renders = []
        for marker_id in ids:
            player, number = token_from_marker_id(int(marker_id))
            renders.append(render_token(player, number, big)[..., :3].astype(np.float32))
        renders = np.array(renders)
        small = np.array([_canonical_view(r, diameter, crop, 0.0) for r in renders])
        # Two average tokens for the pose: dark numbers on light discs, and white on purple.
        white_ink = np.array([number_ink(token_from_marker_id(int(i))[0]) == (255, 255, 255) for i in ids])
        angles, templates = [], []
        for group in (renders[~white_ink], renders[white_ink]):
            mean_grey = cv2.cvtColor(group.mean(axis=0), cv2.COLOR_BGR2GRAY)
            for a in np.arange(0.0, 360.0, _POSE_STEP_DEG):
                angles.append(float(a))
                templates.append(_canonical_view(mean_grey, diameter, crop, a))
        templates = np.array(templates, np.float32)
        _CACHE.pictures = _TokenPictures(
            crop, _normalise_channels(small), ids, np.array(angles),
            _unit_rows(templates.reshape(len(templates), -1)),
            _unit_rows(_halve(templates).reshape(len(templates), -1)))
    return _CACHE.pictures


def _window_norms(views: np.ndarray, size: int, at: tuple[np.ndarray, ...] | None = None) -> np.ndarray:
    """(n, h, w) → (n, h - size + 1, w - size + 1): the norm of every size×size window minus its
    mean, from integral images (no window is copied; OpenCV's, a few times faster than two numpy
    cumsums over a 4-d array, and the same sums: grey levels are whole or quarter numbers).
    `at` = (view, y, x) index arrays: only those windows' norms (the same sums), (len(view),)."""
    n, h, w = views.shape
    sums = np.empty((2, n, h + 1, w + 1))
    for i, view in enumerate(views):
        sums[0, i], sums[1, i] = cv2.integral2(view, sdepth=cv2.CV_64F, sqdepth=cv2.CV_64F)
    if at is None:
        box = sums[:, :, size:, size:] - sums[:, :, :-size, size:] - sums[:, :, size:, :-size] + sums[:, :, :-size, :-size]
    else:
        i, y, x = at
        box = sums[:, i, y + size, x + size] - sums[:, i, y, x + size] - sums[:, i, y + size, x] + sums[:, i, y, x]
    return np.sqrt(np.maximum(box[1] - box[0] ** 2 / (size * size), 0.0)) + 1e-6


def _find_poses(views: np.ndarray, pictures: _TokenPictures, count: int = 1, apart_px: int = 0
                ) -> list[list[tuple[float, float, int, int]]]:
    """The `count` best (match, angle, x, y) per grey search view (n, side, side), best first, each
    more than `apart_px` from the others: where and how turned the average token best fits it. A
    second place is worth decoding: on a dim token beside a bright square the average token can
    fit the bright edge slightly better than the token itself. All 48 poses are tried at half
    scale; the few best, each with its two neighbouring angles, are refined at full scale within a
    few pixels — the full search's answer at a fraction of the cost. The correlations are matrix
    products of the raw windows with the zero-mean templates (a window's mean then drops out),
    divided by each window's own spread.
    What is tried, the windows and the choice are found for all squares at once; only the product
    stays per square (each square multiplies its own few angles: one product for all would need
    them all, and would not give the very same sums)."""
    n, side, _ = views.shape
    crop, poses = pictures.crop_px, len(pictures.angles)
    half = _halve(views)
    c = crop // 2
    windows = np.lib.stride_tricks.sliding_window_view(half, (c, c), axis=(1, 2))
    places = windows.shape[1]
    coarse = _product(np.ascontiguousarray(windows).reshape(-1, c * c), pictures.coarse_bank)
    coarse = (coarse / _window_norms(half, c).reshape(-1, 1)).reshape(n, -1, poses)
    kept = _largest_per_row(coarse, _POSE_KEEP)
    # Tried (square, y, x, angle): a few pixels around each kept place at full scale, with the
    # kept angle and its two neighbours within its group of average tokens.
    limit, per_group = side - crop, poses // 2
    place, k = np.divmod(kept, poses)
    cy, cx = np.divmod(place, places)
    reach = np.arange(-_POSE_REFINE_PX, _POSE_REFINE_PX + 1)
    ys = np.clip(2 * cy[..., None] + reach, 0, limit)[..., :, None, None]             # (n, keep, dy, 1, 1)
    xs = np.clip(2 * cx[..., None] + reach, 0, limit)[..., None, :, None]             # (n, keep, 1, dx, 1)
    turns = (k - k % per_group)[..., None] + ((k % per_group)[..., None] + np.array([-1, 0, 1])) % per_group
    side_places = limit + 1
    place_at = (np.arange(n)[:, None, None, None] * side_places + ys[..., 0]) * side_places + xs[..., 0]
    tried = np.zeros((n * side_places * side_places, poses), bool)
    tried[place_at[..., None], turns[:, :, None, None, :]] = True
    # the places tried and each square's angles, from the kept poses themselves (a reduction of
    # `tried` over its last axis of 48 cost more than all the rest of this; flat indices: numpy's
    # nonzero of a 3-d array is several times slower than of a flat one)
    at_place = np.zeros(n * side_places * side_places, bool)
    at_place[place_at] = True
    tried_place = np.flatnonzero(at_place)                                             # square-major, row-major
    square, ty, tx = np.unravel_index(tried_place, (n, side_places, side_places))
    used_by = np.zeros((n, poses), bool)
    used_by[np.arange(n)[:, None, None], turns] = True
    full = np.lib.stride_tricks.sliding_window_view(views, (crop, crop), axis=(1, 2))
    tried_windows = full[square, ty, tx].reshape(len(square), -1)
    bounds = np.searchsorted(square, np.arange(n + 1))
    scores = np.zeros((len(square), poses))
    for i in range(n):
        used = np.flatnonzero(used_by[i])   # the few angles tried, not all 48
        scores[bounds[i]:bounds[i + 1], used] = _product(tried_windows[bounds[i]:bounds[i + 1]], pictures.pose_bank[used])
    scores /= _window_norms(views, crop, (square, ty, tx))[:, None]
    scores[~tried[tried_place]] = -2.0
    best = scores.max(axis=1)
    found: list[list[tuple[float, float, int, int]]] = [[] for _ in range(n)]
    for _ in range(count):
        # each square's first best row (rows are square-major: every square has some)
        top = np.maximum.reduceat(best, bounds[:-1])
        first = np.flatnonzero(best == top[square])
        first = first[np.searchsorted(square[first], np.arange(n))]
        for i, at in enumerate(first):
            if top[i] > -2.0:
                pose = int(scores[at].argmax())
                found[i].append((float(scores[at, pose]), float(pictures.angles[pose]), int(tx[at]), int(ty[at])))
        near = np.maximum(abs(tx - tx[first][square]), abs(ty - ty[first][square])) <= apart_px
        best[near] = -2.0
    return found


def _largest_per_row(values: np.ndarray, count: int) -> np.ndarray:
    """(n, count) flat indices of the `count` largest values of each (n, places, poses) row, in no
    order (`np.argpartition`'s set, ties aside). A row's count-th best place bounds them from
    below, so only the few values from there are ordered: partitioning all places × poses of
    every square was ≈ 1 ms of a 1080p scan (#28)."""
    n = len(values)
    tops = values.max(axis=2)
    floor = np.partition(tops, -count, axis=1)[:, -count] if tops.shape[1] >= count else np.full(n, -np.inf)
    flat = values.reshape(n, -1)
    row, index = np.divmod(np.flatnonzero(flat >= floor[:, None]), flat.shape[1])
    order = np.lexsort((-flat[row, index], row))
    starts = np.searchsorted(row[order], np.arange(n))
    return index[order][starts[:, None] + np.arange(count)]


def _canonical_view(render: np.ndarray, diameter: float, crop: int, angle_deg: float) -> np.ndarray:
    """A token render seen at the canonical scale, turned by `angle_deg` (its 'up' turned clockwise
    in the grid), cropped to the inscribed square and slightly blurred like a photo."""
    big = render.shape[0]
    scale = diameter / big
    rot = cv2.getRotationMatrix2D((big / 2, big / 2), -angle_deg, scale)
    rot[:, 2] += (crop / 2 - big / 2, crop / 2 - big / 2)
    out = cv2.warpAffine(render, rot, (crop, crop), flags=cv2.INTER_AREA)
    return cv2.GaussianBlur(out, (0, 0), 1.0)


_REMAP_ROWS = 32000   # remap's maps must stay under 32767 rows (and columns: a patch is a row)


def _upright_patches(image: np.ndarray, mapping: GridMapping, centres: np.ndarray, angles_deg: np.ndarray,
                     crop: int) -> np.ndarray:
    """The image around each token centre (grid units), turned upright by its angle (the token's up
    turned clockwise in the grid), at the canonical scale: (n, crop, crop, 3) from one remap (one
    warp call per patch cost more than the patch)."""
    # Grid point = centre + across·(cos, sin) + along·(-sin, cos); through the homography each
    # of its three homogeneous coordinates is a per-patch constant plus a term in `across` and one
    # in `along`, so the maps are outer sums (no (n·crop², 2) point list to build and transform).
    a = np.radians(angles_deg)
    cos, sin = np.cos(a), np.sin(a)
    offsets = (np.arange(crop) - (crop - 1) / 2) / _CANON_PX
    if mapping.straight:
        h = mapping.homography
        base = centres @ h[:, :2].T + h[:, 2]                            # (n, 3)
        per_across = np.outer(cos, h[:, 0]) + np.outer(sin, h[:, 1])     # (n, 3)
        per_along = np.outer(-sin, h[:, 0]) + np.outer(cos, h[:, 1])
        # float32 throughout (coordinates of a few thousand px: errors ~1e-4 px, far below remap's 1/32 px).
        base, per_across, per_along = (v.astype(np.float32) for v in (base, per_across, per_along))
        offsets = offsets.astype(np.float32)
        x, y, w = (base[:, k, None, None] + np.outer(per_across[:, k], offsets)[:, None, :]
                   + np.outer(per_along[:, k], offsets)[:, :, None] for k in range(3))   # (n, row, column)
        x /= w
        y /= w
    else:   # through the lens: the grid points themselves, then the mapping
        gx = centres[:, 0, None, None] + np.outer(cos, offsets)[:, None, :] - np.outer(sin, offsets)[:, :, None]
        gy = centres[:, 1, None, None] + np.outer(sin, offsets)[:, None, :] + np.outer(cos, offsets)[:, :, None]
        pixels = mapping.to_image(np.stack([gx, gy], axis=-1)).astype(np.float32)
        x, y = pixels[..., 0], pixels[..., 1]
    # One patch per row of the maps: remap samples every map entry alike, and its rows of a few
    # hundred points ran ≈ 25 % faster than one row per patch row of 23 (#28).
    x, y = x.reshape(len(centres), -1), y.reshape(len(centres), -1)
    out = [cv2.remap(image, x[r:r + _REMAP_ROWS], y[r:r + _REMAP_ROWS], cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_REPLICATE) for r in range(0, len(x), _REMAP_ROWS)]
    return np.concatenate(out).reshape(len(centres), crop, crop, 3)


@dataclass(frozen=True)
class _PictureMatch:
    centre: np.ndarray                 # grid units
    angle: float                       # degrees, the token's up turned clockwise
    marker_id: int
    score: float                       # correlation with the best printed token (0..1)
    margin: float                      # ... minus the best score of any other token
    worst_part: float                  # lowest correlation of the four quarters (NaN: not a clear winner)


def _search_side(config: TokenConfig) -> int:
    """Side (canonical pixels) of the grey view searched for a square's token."""
    return _token_pictures().crop_px + 2 * int(round(config.picture_search * _CANON_PX))


def _search_views(image: np.ndarray, mapping: GridMapping, squares: tuple[int, int, int, int],
                  todo: list[tuple[int, int]], config: TokenConfig) -> np.ndarray:
    """The grey search views (n, side, side) of the `todo` squares among `squares`: one warp of
    all the squares, cut in blocks, or — when the views together are smaller than that warp — one
    small warp per square (a few squares to look at on a 20×12 board: 2 ms of a 1080p scan were
    the warp of the whole board, #28). Both sample the same points."""
    gx0, gy0, gx1, gy1 = squares
    side = _search_side(config)
    whole = ((gx1 - gx0 - 1) * _CANON_PX + side) * ((gy1 - gy0 - 1) * _CANON_PX + side)
    if len(todo) * side * side < whole:
        return np.array([_grey_grid(image, mapping, (sx, sy, sx + 1, sy + 1), config) for sx, sy in todo])
    grid = _grey_grid(image, mapping, squares, config)
    return np.array([grid[(sy - gy0) * _CANON_PX:(sy - gy0) * _CANON_PX + side,
                          (sx - gx0) * _CANON_PX:(sx - gx0) * _CANON_PX + side] for sx, sy in todo])


def _grey_grid(image: np.ndarray, mapping: GridMapping, squares: tuple[int, int, int, int],
               config: TokenConfig) -> np.ndarray:
    """The squares x0..x1, y0..y1 rectified at the canonical scale in one warp, in grey: square
    (x, y)'s search view is the side×side block at ((x - x0), (y - y0)) × _CANON_PX, sampled at
    exactly the points warping that square alone would use (one warp instead of one per square)."""
    gx0, gy0, gx1, gy1 = squares
    side = _search_side(config)
    start = 0.5 - (side - 1) / (2 * _CANON_PX)
    to_grid = np.array([[1 / _CANON_PX, 0, gx0 + start], [0, 1 / _CANON_PX, gy0 + start], [0, 0, 1]])
    size = ((gx1 - gx0 - 1) * _CANON_PX + side, (gy1 - gy0 - 1) * _CANON_PX + side)
    view = mapping.warp(image, to_grid, size, border_mode=cv2.BORDER_REPLICATE)
    return cv2.cvtColor(view, cv2.COLOR_BGR2GRAY).astype(np.float32)


def _match_pictures(image: np.ndarray, mapping: GridMapping, squares: list[tuple[int, int]],
                    views: np.ndarray, config: TokenConfig) -> list[_PictureMatch | None]:
    """The printed token best matching the picture on each square (its centre within
    `picture_search` squares of the square's centre), or None where the square looks plain or
    holds nothing token-like. `views`: the squares' grey search views (n, side, side)."""
    pictures = _token_pictures()
    crop = pictures.crop_px
    reach = int(round(config.picture_search * _CANON_PX))
    # A plain square has no white marker cells next to black ones. The spread asked for is that of
    # a lit token, scaled down with the square's brightest level: a token in a shadow keeps the
    # printed contrast, on less light.
    centre = views[:, reach:reach + crop, reach:reach + crop]
    light = np.clip(centre.max(axis=(1, 2)) / config.picture_lit_level, config.picture_min_light, 1.0)
    busy = centre.std(axis=(1, 2)) >= config.picture_min_contrast * light
    matches: list[_PictureMatch | None] = [None] * len(squares)
    if not busy.any():
        return matches
    busy_at = np.flatnonzero(busy)
    apart = int(round(config.picture_pose_apart * _CANON_PX))
    hypotheses = _find_poses(views[busy_at], pictures, config.picture_pose_hypotheses, apart)
    for rank in range(config.picture_pose_hypotheses):
        # A further place is decoded only where the ones before named no token with confidence.
        posed = []
        for i, poses in zip(busy_at, hypotheses):
            if rank < len(poses) and not _confident(matches[i], config):
                value, angle, lx, ly = poses[rank]
                if value >= config.picture_min_pose:   # below: printed board detail (a glyph, an edge)
                    centre = np.array([squares[i][0] + 0.5, squares[i][1] + 0.5])
                    posed.append((i, centre + (np.array([lx, ly]) - reach) / _CANON_PX, angle))
        if posed:
            decoded = _decode_pictures(image, mapping, [p[1:] for p in posed], config)
            for (i, _, _), match in zip(posed, decoded):
                if match is not None and (matches[i] is None or match.score > matches[i].score):
                    matches[i] = match
    return matches


def _decode_pictures(image: np.ndarray, mapping: GridMapping, poses: list[tuple[np.ndarray, float]],
                     config: TokenConfig) -> list[_PictureMatch | None]:
    """Which printed token is at each (centre in grid units, angle), None where the patch cut at
    the pose itself matches no printed token even roughly (`picture_min_first`: printed board
    detail that passed the pose search; most squares looked at on a board without tokens). Each
    pose against all 200 tokens is one product for all squares; the rest see `_decode_variants`."""
    pictures = _token_pictures()
    found = np.array([p[0] for p in poses], np.float64).reshape(-1, 2)
    angles = np.array([p[1] for p in poses], np.float64)
    own = _normalise_channels(_upright_patches(image, mapping, found, angles, pictures.crop_px))
    first = _product(pictures.upright, own)   # (200, squares)
    matches: list[_PictureMatch | None] = [None] * len(found)
    worth = np.flatnonzero(first.max(axis=0) >= config.picture_min_first)
    if len(worth):
        for i, match in zip(worth, _decode_variants(image, mapping, found[worth], angles[worth],
                                                    first[:, worth], config)):
            matches[i] = match
    return matches


def _decode_variants(image: np.ndarray, mapping: GridMapping, found: np.ndarray, angles: np.ndarray,
                     first: np.ndarray, config: TokenConfig) -> list[_PictureMatch]:
    """The token at each pose (centres (n, 2) grid units, angles (n,)), given each pose's first look
    (200, n): the patch is cut upright at the found angle and a third of a pose step either side,
    at the 3×3 positions a canonical pixel apart along the grid's axes, and correlated with the
    printed tokens. A pixel's shift changes the scores a lot (bits of 2 px), so every token is
    compared at its best of these variants."""
    pictures = _token_pictures()
    crop, shifts = pictures.crop_px, len(_SHIFTS)
    step = _POSE_STEP_DEG / 3
    # Variant order: pose, then turn (-step, 0, +step), then shift (`_SHIFTS`).
    centres = np.repeat(found[:, None, :] + np.array(_SHIFTS)[None, :, :] / _CANON_PX, 3, axis=0).reshape(-1, 2)
    turns = np.repeat((angles[:, None] + np.array([-step, 0.0, step])[None, :]).ravel(), shifts)
    variants = _upright_patches(image, mapping, centres, turns, crop)
    seen = _normalise_channels(variants).reshape(len(found), 3 * shifts, -1)
    # Every variant against the best few of the first look only: the right token and its closest
    # rivals are always among them.
    candidates = np.argpartition(first, -config.picture_candidates, axis=0)[-config.picture_candidates:]
    rivals = candidates.T                                                       # (squares, rivals)
    scores = seen @ pictures.upright[rivals].transpose(0, 2, 1)                  # (squares, variants, rivals)
    per_id = scores.max(axis=1)
    order = np.argsort(per_id, axis=1)
    top, second = order[:, -1], order[:, -2]
    every = np.arange(len(found))
    best_variant = scores[every, :, top].argmax(axis=1)
    best = every * 3 * shifts + best_variant
    score, margin = per_id[every, top], per_id[every, top] - per_id[every, second]
    winners = rivals[every, top]
    # The quarters only matter for a match that would otherwise name a token (most do not).
    clear = np.array([_clear_winner(float(sc), float(mg), config) for sc, mg in zip(score, margin)], bool)
    worst = np.full(len(found), np.nan)
    if clear.any():
        worst[clear] = _worst_quarters(variants[best[clear]], pictures.upright[winners[clear]], crop)
    return [_PictureMatch(centres[b], float(turns[b]) % 360.0, int(pictures.ids[w]), float(sc), float(mg), float(wq))
            for b, w, sc, mg, wq in zip(best, winners, score, margin, worst)]


def _worst_quarters(patches: np.ndarray, pictures: np.ndarray, crop: int) -> np.ndarray:
    """Correlation of the worst of the four quarters of each patch (n, crop, crop, 3) with its
    printed token (n, 3·crop²): a hand or another object over part of a token leaves the rest
    matching well, and the covered part can turn one number into another. All in one product."""
    expected = pictures.reshape(-1, 3, crop, crop).transpose(0, 2, 3, 1)
    half = crop // 2
    corners = [(rows, cols) for rows in (slice(0, half), slice(crop - half, crop))
               for cols in (slice(0, half), slice(crop - half, crop))]
    seen = _normalise_channels(np.stack([patches[:, r, c] for r, c in corners], axis=1).reshape(-1, half, half, 3))
    want = _normalise_channels(np.stack([expected[:, r, c] for r, c in corners], axis=1).reshape(-1, half, half, 3))
    return np.einsum("qk,qk->q", seen, want).reshape(-1, 4).min(axis=1)


def _clear_winner(score: float, margin: float, config: TokenConfig) -> bool:
    """A best printed token scoring high and clearly above every other token."""
    needed = config.picture_min_margin / 2 if score >= config.picture_sure_score else config.picture_min_margin
    return score >= config.picture_min_score and margin >= needed


def _confident(match: _PictureMatch | None, config: TokenConfig) -> bool:
    """A picture match good enough to name a token: a clear winner with no part of it badly
    matched (a partly hidden token is not guessed)."""
    return (match is not None and _clear_winner(match.score, match.margin, config)
            and match.worst_part >= config.picture_min_part)


def squares_too_small(mapping, width: int, height: int, config: TokenConfig | None = None
                      ) -> list[tuple[int, int]]:
    """The squares (x, y) where a token's code cells are under `reliable_cell_px` in the image.

    Tokens there are still read, but fewer of them (the token bench's recall by cell size: under
    2 px it falls to 93–98 %); what is missed is never guessed, so the camera only has to come
    closer. The mapping alone decides it (a GridMapping or a plain homography), so the app can say
    so as soon as the board is found."""
    config = config or TokenConfig()
    mapping = GridMapping.coerce(mapping)
    every = [(x, y) for y in range(height) for x in range(width)]
    small = _cells_under(mapping, np.array(every, np.float64) + 0.5, config.reliable_cell_px)
    return [at for at, is_small in zip(every, small) if is_small]


def _cells_over_parts(mapping: GridMapping, parts: list[tuple[int, int, int, int]]) -> np.ndarray:
    """(len(parts),) the largest image size (px) of a marker cell over each part's squares x0..x1,
    y0..y1: at one of the part's corners (a homography's scale is extreme there; a lens changes
    that by far less). All parts' corners are mapped at once (a dozen groups of squares to read
    on a board in play: three mapping calls each were 0.3 ms of a scan, #28)."""
    corners = np.array([[(x0, y0), (x1, y0), (x0, y1), (x1, y1)] for x0, y0, x1, y1 in parts], np.float64)
    return np.maximum(*_cell_sides(mapping, corners)).reshape(-1, 4).max(axis=1)


def _cells_under(mapping: GridMapping, points: np.ndarray, limit_px: float) -> np.ndarray:
    """Whether a marker cell at each grid point (n, 2) is under `limit_px` in the image (shortest axis)."""
    return np.minimum(*_cell_sides(mapping, points)) < limit_px


def _cell_sides(mapping: GridMapping, points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The image length (px) of a marker cell's side along the grid's x and along its y at each
    grid point (..., 2) → two (n,): the point and its two steps mapped in one call."""
    cell = LAYOUT.cell * TOKEN_SQUARES
    points = np.asarray(points, np.float64).reshape(-1, 2)
    at, step_x, step_y = mapping.to_image(np.stack([points, points + (cell, 0), points + (0, cell)]))
    return np.linalg.norm(step_x - at, axis=1), np.linalg.norm(step_y - at, axis=1)


def _read_pictures(image_bgr: np.ndarray, mapping: GridMapping, squares: tuple[int, int, int, int],
                   decoded: list[TokenObservation], config: TokenConfig,
                   examine: np.ndarray | None = None) -> list[TokenObservation]:
    """Second reader on the squares whose token code did not decode (see `_match_pictures`),
    among those `examine` allows (all when None)."""
    gx0, gy0, gx1, gy1 = squares
    done = {o.square for o in decoded}
    known = {o.token for o in decoded}
    every = [(sx, sy) for sy in range(gy0, gy1) for sx in range(gx0, gx1)]
    if not every:
        return []
    small = _cells_under(mapping, np.array(every) + 0.5, config.picture_below_px)
    todo = [s for s, is_small in zip(every, small)   # else: code large enough
            if is_small and s not in done and (examine is None or examine[s[1], s[0]])]
    if not todo:
        return []
    views = _search_views(image_bgr, mapping, squares, todo, config)
    read: list[tuple[int, int, int, int, _PictureMatch]] = []
    for (sx, sy), match in zip(todo, _match_pictures(image_bgr, mapping, todo, views, config)):
        if not _confident(match, config):
            continue
        square = (int(math.floor(match.centre[0])), int(math.floor(match.centre[1])))
        if square != (sx, sy):
            continue   # the matched token stands on another square: read from there
        player, number = token_from_marker_id(match.marker_id)
        if (player, number) in known:
            continue   # already read from its code: one token is never reported twice
        read.append((sx, sy, player, number, match))
    if not read:
        return []
    frames = []
    for *_, match in read:
        a = math.radians(match.angle)
        frames.append(_token_to_grid(match.centre, np.array([math.cos(a), math.sin(a)]) * TOKEN_SQUARES,
                                     np.array([-math.sin(a), math.cos(a)]) * TOKEN_SQUARES))
    # The picture already weighs colour (channel by channel); here colour only has to
    # fit: every point near the decoded player's colour (a hand's skin is near none) and
    # not much nearer another player's (a warm light turns orange towards yellow).
    dist = _colour_distances(image_bgr, mapping, np.array(frames), [r[4].marker_id for r in read],
                             np.array([r[4].centre for r in read]))
    players = np.array([r[2] for r in read])
    own = np.take_along_axis(dist, (players - 1)[:, None, None], axis=2)[..., 0]
    nearest = np.nanmin(np.where(np.isnan(dist), np.inf, dist), axis=2)
    fits = (own <= config.max_colour_distance) & (own <= nearest + config.picture_colour_slack)
    agreements = fits.mean(axis=1)
    return [TokenObservation(sx, sy, player, number, round(float(agreement) * match.score, 3))
            for (sx, sy, player, number, match), agreement in zip(read, agreements)
            if agreement >= config.min_colour_agreement]


def _token_to_grid(centre: np.ndarray, right: np.ndarray, down: np.ndarray) -> np.ndarray:
    """Token units (x right, y down, one diameter long, origin at the centre) → grid units."""
    return np.array([[right[0], down[0], centre[0]], [right[1], down[1], centre[1]], [0, 0, 1]])


@dataclass(frozen=True, eq=False)   # compared and hashed by identity: two decodes are never merged
class _Decoded:
    """A token code decoded flat on one of the asked squares, before its picture and colour checks."""

    player: int
    number: int
    marker_id: int
    centre: np.ndarray                 # grid units
    right: np.ndarray                  # the token's x axis, one diameter long (grid units)
    down: np.ndarray                   # its y axis
    square: tuple[int, int]


def detect_tokens(image_bgr: np.ndarray, mapping, width: int, height: int, *,
                  config: TokenConfig | None = None, examine: np.ndarray | None = None) -> list[TokenObservation]:
    """Tokens standing on the width×height grid seen in `image_bgr` (MT 2.05: a token per permanent).

    `mapping` maps grid units to image pixels (a GridMapping, with its lens, or a plain 3×3
    homography). Returns one observation per token whose marker
    decodes, lies flat on the board, has its centre inside the grid and whose colour agrees with
    the decoded player; sorted by square. Tokens half hidden (by a hand) are left out, not guessed.

    `examine` (height × width, bool): the squares a token may stand on (default: every square).
    A caller whose colour reading already explains a square (a token's disc colours are none of
    the board's) spares the picture reader that square, and the code search covers only the
    groups of examined squares — unless they are many or large (a hand), then the whole board.
    """
    return read_tokens_in(image_bgr, mapping, width, height, (0, 0, width, height), config=config,
                          examine=examine)


def read_tokens_in(image_bgr: np.ndarray, mapping, width: int, height: int,
                   squares: tuple[int, int, int, int], *, config: TokenConfig | None = None,
                   examine: np.ndarray | None = None) -> list[TokenObservation]:
    """`detect_tokens` limited to the squares x0 <= x < x1, y0 <= y < y1 (x0, y0, x1, y1): the
    tracker re-reads only where the picture changed, which is what keeps a video frame cheap."""
    config = config or TokenConfig()
    if image_bgr is None or image_bgr.ndim != 3 or image_bgr.shape[2] != 3:
        raise ValueError("detect_tokens needs a BGR colour image (H×W×3)")
    mapping = GridMapping.coerce(mapping)
    gx0, gy0, gx1, gy1 = squares
    if _search_region(image_bgr.shape[:2], mapping, (gx0, gy0, gx1, gy1), config.margin_squares) is None:
        return []
    parts = _code_search_parts(squares, examine, config)
    # Where code cells are tiny the picture reader reads the tokens anyway (and a code read there
    # must agree with its picture): those parts are searched for codes only on the squares it left
    # unread, which on a board in play is none of them (the dearest step of a 1080p scan, #28).
    deferred = [p for p, cells in zip(parts, _cells_over_parts(mapping, parts))
                if config.read_pictures and cells < config.code_search_from_px]
    found, quads, quad_centres = _codes_in(image_bgr, mapping, width, height,
                                           [p for p in parts if p not in deferred], config)
    # A rescue is the dearest step per token. Where cells are small the picture reader also reads
    # an undecoded token, so those quads get their second look only if it did not.
    later = _cells_under(mapping, quad_centres, config.picture_below_px) if config.read_pictures and len(quads) \
        else np.zeros(len(quads), bool)
    for quad in quads[~later]:
        found += _rescue(image_bgr, quad)
    observations = _read_codes(image_bgr, mapping, found, squares, width, height, config)
    if config.read_pictures:
        observations += _read_pictures(image_bgr, mapping, (max(gx0, 0), max(gy0, 0), min(gx1, width),
                                                          min(gy1, height)), observations, config, examine)
        read = {o.square for o in observations}
        unread = np.ones((height, width), bool) if examine is None else examine.copy()
        for sx, sy in read:
            unread[sy, sx] = False
        late_found, late_quads, late_centres = _codes_in(
            image_bgr, mapping, width, height,
            [p for part in deferred if unread[max(part[1], 0):part[3], max(part[0], 0):part[2]].any()
             for p in _code_search_parts(part, unread, config)], config)
        quads = np.concatenate([quads[later], late_quads])
        quad_centres = np.concatenate([quad_centres[later], late_centres])
        late_found += [marker for quad, centre in zip(quads, quad_centres)
                       if (int(math.floor(centre[0])), int(math.floor(centre[1]))) not in read
                       for marker in _rescue(image_bgr, quad)]
        known = {o.token for o in observations}
        observations += [o for o in _read_codes(image_bgr, mapping, late_found, squares, width, height, config)
                         if o.square not in read and o.token not in known]
    observations.sort(key=lambda o: (o.y, o.x, o.player, o.number))
    return observations


def _codes_in(image_bgr: np.ndarray, mapping: GridMapping, width: int, height: int,
              parts: list[tuple[int, int, int, int]], config: TokenConfig
              ) -> tuple[list[tuple[np.ndarray, int]], np.ndarray, np.ndarray]:
    """The codes decoded in each part's image region (image corners, id), once each, and the
    marker-sized quads that did not decode there (image pixels (n, 4, 2), grid centres (n, 2))."""
    found: list[tuple[np.ndarray, int]] = []
    quads, quad_centres = np.zeros((0, 4, 2)), np.zeros((0, 2))
    for part in parts:
        part_found, rejected, zoom, offset = _search_codes(image_bgr, mapping, width, height, part, config)
        if part_found is None:
            continue
        more, centres = _quads_to_rescue(rejected, part_found, zoom, offset, mapping, config)
        # overlapping boxes (two L-shaped groups) may decode one marker twice
        found += [(corners, marker_id) for corners, marker_id in part_found
                  if not any(seen_id == marker_id and np.abs(seen - corners).max() < 4 for seen, seen_id in found)]
        quads, quad_centres = np.concatenate([quads, more]), np.concatenate([quad_centres, centres])
    return found, quads, quad_centres


def _code_search_parts(squares: tuple[int, int, int, int], examine: np.ndarray | None, config: TokenConfig
                       ) -> list[tuple[int, int, int, int]]:
    """Where the code reader searches: the asked squares as one region, or — given the squares a
    token may stand on (`examine`) when they form a few small groups — each group's bounding box:
    the enlarged search then covers a few squares per token instead of the whole board."""
    if examine is None:
        return [squares]
    gx0, gy0, gx1, gy1 = squares
    inside = np.zeros(examine.shape, np.uint8)
    inside[max(gy0, 0):gy1, max(gx0, 0):gx1] = examine[max(gy0, 0):gy1, max(gx0, 0):gx1]
    _, _, stats, _ = cv2.connectedComponentsWithStats(inside, connectivity=8)
    boxes = [(int(x), int(y), int(x + w), int(y + h)) for x, y, w, h, _ in stats[1:]]
    covered = sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in boxes)
    if len(boxes) > config.max_code_parts or covered > config.max_code_share * (gx1 - gx0) * (gy1 - gy0):
        return [squares]
    return boxes


def _search_codes(image_bgr: np.ndarray, mapping: GridMapping, width: int, height: int,
                  squares: tuple[int, int, int, int], config: TokenConfig):
    """ArUco over the image around `squares` (enlarged 2× where code cells are small): (decoded
    (corners in image pixels, id), rejected candidates as the detector gives them, zoom, offset of
    the searched rectangle), or Nones where the squares are out of the image."""
    region = _search_region(image_bgr.shape[:2], mapping, squares, config.margin_squares)
    if region is None:
        return None, None, 1.0, (0, 0)
    x0, y0, x1, y1 = region
    gx0, gy0, gx1, gy1 = squares
    grey = cv2.cvtColor(image_bgr[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY)
    smallest, largest = _cell_range(mapping, width, height)
    few = (gx1 - gx0) * (gy1 - gy0) <= config.region_squares
    zoom = 2.0 if smallest < (config.upsample_region_below_px if few else config.upsample_below_px) else 1.0
    if zoom != 1.0:
        grey = cv2.resize(grey, None, fx=zoom, fy=zoom, interpolation=cv2.INTER_LINEAR)
    detector = _detector()
    _tune_for_size(detector, (smallest * zoom, largest * zoom), max(grey.shape))
    corners_list, ids, rejected = detector.detectMarkers(grey)
    found = [(c.reshape(4, 2) / zoom + (x0, y0), int(i)) for c, i in zip(corners_list, ids.ravel())] \
        if ids is not None else []
    return found, rejected, zoom, (x0, y0)


def _read_codes(image_bgr: np.ndarray, mapping: GridMapping, found: list[tuple[np.ndarray, int]],
                squares: tuple[int, int, int, int], width: int, height: int, config: TokenConfig
                ) -> list[TokenObservation]:
    """Tokens from decoded markers (image corners, id): flat on the board, centre on one of the
    asked squares, picture not contradicting a code read from tiny cells, colour agreeing."""
    gx0, gy0, gx1, gy1 = squares
    tokens = [(corners, marker_id, identity) for corners, marker_id in found
              if (identity := token_from_marker_id(marker_id)) is not None]
    if not tokens:
        return []
    grid_quads = mapping.to_grid(np.array([c for c, _, _ in tokens])).reshape(-1, 4, 2)
    flat = _is_flat_token_marker(grid_quads, config)
    placed: list[_Decoded] = []
    for (_, marker_id, (player, number)), grid_corners, is_flat in zip(tokens, grid_quads, flat):
        if not is_flat:
            continue
        centre, right, down = _token_frame(grid_corners)
        sx, sy = int(math.floor(centre[0])), int(math.floor(centre[1]))
        if not (gx0 <= sx < gx1 and gy0 <= sy < gy1 and 0 <= sx < width and 0 <= sy < height):
            continue  # beside the grid (the twin lying off the board) or outside the asked squares
        placed.append(_Decoded(player, number, marker_id, centre, right, down, (sx, sy)))
    if config.read_pictures and placed:
        # Bits of 2–3 px can decode to a neighbouring id: the whole printed picture must agree.
        tiny = _cells_under(mapping, np.array([d.centre for d in placed]), config.picture_check_below_px)
        checked = [d for d, small in zip(placed, tiny) if small]
        # The decoded marker already gives the token's pose: no search, its picture is cut there.
        poses = [(d.centre, math.degrees(math.atan2(d.right[1], d.right[0]))) for d in checked]
        matches = _decode_pictures(image_bgr, mapping, poses, config) if checked else []
        refuted = {d for d, match in zip(checked, matches)
                   if _confident(match, config) and match.marker_id != d.marker_id}
        placed = [d for d in placed if d not in refuted]
    if not placed:
        return []
    dist = _colour_distances(image_bgr, mapping, np.array([_token_to_grid(d.centre, d.right, d.down) for d in placed]),
                             [d.marker_id for d in placed], np.array([d.centre for d in placed]))
    observations: list[TokenObservation] = []
    for d, voted in zip(placed, _colour_votes(dist, config)):
        agreement = float(np.mean(voted == d.player - 1))
        if agreement < config.min_colour_agreement:
            continue
        # Confidence: colour agreement, lowered when the centre sits near a square edge.
        (sx, sy), centre = d.square, d.centre
        edge = min(centre[0] - sx, sx + 1 - centre[0], centre[1] - sy, sy + 1 - centre[1])
        confidence = agreement * min(1.0, 0.5 + edge * 2)
        observations.append(TokenObservation(sx, sy, d.player, d.number, round(confidence, 3)))
    return observations
