"""Registering our printed boards from their ArUco markers.

Stages, each testable alone: `detect_markers` (pixels of every marker
corner) -> `fit_homography` (grid units -> pixels from ALL detected corners,
RANSAC, so a hand over some markers does not matter) -> `RegistrationTracker`
(the fast path for a still camera: re-detect a few markers in small ROIs).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from collections.abc import Sequence

import cv2
import numpy as np

from boards.markers import ARUCO_DICTIONARY, BOARD_MARKER_IDS, board_markers
from calibration.config import DEFAULT_CONFIG, LensConfig, RegistrationConfig
from calibration.grid_lines import lines_seen
from calibration.lens import fit_mapping
from calibration.mapping import GridMapping, RadialLens, from_resized


@dataclass(frozen=True)
class MarkerDetection:
    id: int
    corners: np.ndarray  # (4, 2) float32 pixels, TL TR BR BL


@dataclass(frozen=True)
class Registration:
    homography: np.ndarray  # 3x3, grid units -> image pixels (the plain fit)
    width: int
    height: int
    markers_used: int       # inlier markers
    mean_error_px: float    # mean corner reprojection error of the inliers (through the lens, if any)
    lens: RadialLens | None = None          # the photo's lens, when its markers show bending
    lens_homography: np.ndarray | None = None   # ... and grid units -> pinhole pixels under it
    marker_ids: tuple[int, ...] = ()        # the inlier markers
    grid_lines: bool = False                # refined on the printed grid lines too (markers on few sides)

    @property
    def mapping(self) -> GridMapping:
        """Grid units <-> pixels (calibration.mapping), through the lens when there is one."""
        return GridMapping(self.homography, self.lens, self.lens_homography)


@lru_cache(maxsize=1)
def _board_dictionary() -> cv2.aruco.Dictionary:
    """`ARUCO_DICTIONARY` cut to the board markers' entries. OpenCV names a candidate quad by
    comparing its bits with the dictionary's entries in their order, the first one within the
    error correction winning: with only the entries looked for, in the same order and with the
    same correction, every board marker gets the id the whole dictionary gave it, and a quad that
    is none of them (another maker's dark squares, a token's marker) is given up after 50
    comparisons instead of 250 — on a chessboard's dozens of dark quads, 3/4 of the search."""
    whole = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, ARUCO_DICTIONARY))
    return cv2.aruco.Dictionary(whole.bytesList[list(BOARD_MARKER_IDS)].copy(), whole.markerSize,
                                whole.maxCorrectionBits)


_BOARD_IDS = np.array(BOARD_MARKER_IDS)          # an entry of `_board_dictionary` -> the marker's id


@lru_cache(maxsize=4)
def _detector(single_window: int = 0, offset: float | None = None) -> cv2.aruco.ArucoDetector:
    """The board markers' detector; `single_window` > 0 uses one threshold window (fast pass);
    `offset`: how much darker than its surroundings a pixel must be to count as ink."""
    params = cv2.aruco.DetectorParameters()
    if single_window:
        params.adaptiveThreshWinSizeMin = params.adaptiveThreshWinSizeMax = single_window
    if offset is not None:
        params.adaptiveThreshConstant = offset
    return cv2.aruco.ArucoDetector(_board_dictionary(), params)


def _board_markers_in(gray: np.ndarray, single_window: int = 0, offset: float | None = None
                      ) -> tuple[Sequence[np.ndarray], np.ndarray | None, Sequence[np.ndarray]]:
    """Board markers (corners, ids) in a grey image, and the quads the detector rejected."""
    corners, entries, rejected = _detector(single_window, offset).detectMarkers(gray)
    return corners, None if entries is None else _BOARD_IDS[entries], rejected


def _gray(image: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image


def _detect(gray: np.ndarray, scale: float, window: int = 0, offset: float | None = None
            ) -> tuple[list[np.ndarray], np.ndarray | None, Sequence[np.ndarray]]:
    """Markers (corners, ids) and the candidates the detector rejected, on a copy scaled by `scale`; corners in the
    full frame's pixels. Pixel centres map as (x + 0.5) / scale − 0.5: dividing alone put every corner found at 1/4
    of a 4K frame 1.5 px up and left, past what the corner refinement's window corrects, and a 40×25 board's small
    markers then agreed with no homography (#28)."""
    small = gray if scale >= 1.0 else cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    corners, ids, rejected = _board_markers_in(small, window, offset)
    return [from_resized(c.reshape(4, 2), scale) for c in corners], ids, rejected


def detect_markers(image_bgr: np.ndarray, config: RegistrationConfig = DEFAULT_CONFIG.registration, *,
                   full_resolution: bool = False) -> list[MarkerDetection]:
    """Every board marker visible in the frame (token markers, ids ≥ 50, are not looked for).

    Searched on a downscaled frame first (fast: one threshold window, and first only clear ink,
    so that the faint grid lines do not make every square a marker candidate; then the detector's
    own bar, for a washed-out photo — not when the first pass saw `plenty_of_quads` dark quads and
    no marker among them: a washed-out photo shows few, a chessboard or a ChArUco board dozens),
    again at full resolution with the detector's defaults when too few are found (small or far
    boards) — not when those quads were large (`readable_quad_px`): a marker's cells would have
    been read on them at the reduced scale (a chessboard photo: 20-40 ms saved, #28); corners
    refined on the full frame. `full_resolution`: the full frame only, with the detector's defaults."""
    gray = _gray(image_bgr)
    corners, ids, _ = _detect(gray, 1.0) if full_resolution else _reduced_first(gray, config)
    if ids is None or len(corners) == 0:  # none found (an empty list, not None, in some OpenCV versions)
        return []
    points = np.concatenate(corners).astype(np.float32).reshape(-1, 1, 2)
    win = config.subpixel_window_px
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.05)
    refined = cv2.cornerSubPix(gray, points, (win, win), (-1, -1), criteria).reshape(-1, 4, 2)
    return [MarkerDetection(int(i), marker) for i, marker in zip(ids.ravel(), refined)]


def _reduced_first(gray: np.ndarray, config: RegistrationConfig
                   ) -> tuple[list[np.ndarray], np.ndarray | None, Sequence[np.ndarray]]:
    """`detect_markers`' search: the reduced frame, then the full one where too few markers showed."""
    scale = _reduced_scale(max(gray.shape), config.detect_max_side_px)
    large_quads_only = False
    for offset in (config.fast_threshold_offset, None):
        corners, ids, rejected = _detect(gray, scale, config.fast_threshold_window, offset)
        found = 0 if ids is None else len(ids)
        if found >= config.full_resolution_retry:
            break
        if found == 0 and len(rejected) >= config.plenty_of_quads:
            large_quads_only = _median_side(rejected) >= config.readable_quad_px
            break   # clear ink everywhere and no marker in it (a chessboard): a lower bar finds none either
    if found < config.full_resolution_retry and scale < 1.0 and not large_quads_only:
        return _detect(gray, 1.0)
    return corners, ids, rejected


def _reduced_scale(long_side: int, max_side: int) -> float:
    """The first search's scale: `max_side` over the frame's long side, or the whole fraction 1/n
    just under it (within 10 %: 1/2 for 1080p, 1/4 for 4K), which OpenCV's area averaging computes
    as plain n×n means — 0.1 ms at 1080p where the 1000/1920 ratio took 4-5 ms (#28)."""
    scale = min(1.0, max_side / long_side)
    whole = 1.0 / np.ceil(1.0 / scale)
    return float(whole) if whole >= 0.9 * scale else scale


def _median_side(quads: Sequence[np.ndarray]) -> float:
    """Median side (px) of the detector's quads, each (1, 4, 2) or (4, 2)."""
    corners = np.array(quads, np.float64).reshape(-1, 4, 2)
    return float(np.median(np.linalg.norm(corners - np.roll(corners, -1, axis=1), axis=2)))


@lru_cache(maxsize=4096)
def _layout(width: int, height: int) -> dict[int, np.ndarray]:
    return {m.id: m.corners.astype(np.float32) for m in board_markers(width, height)}


def _fit(detections: list[MarkerDetection], width: int, height: int, config: RegistrationConfig,
         image_size: tuple[int, int] | None = None, lens: LensConfig = DEFAULT_CONFIG.lens) -> Registration | None:
    layout = _layout(width, height)
    usable = [d for d in detections if d.id in layout]
    if len(usable) < config.min_markers:
        return None
    src = np.concatenate([layout[d.id] for d in usable])
    dst = np.concatenate([d.corners for d in usable])
    ids = [d.id for d in usable]
    plain = _plain_fit(src, dst, width, height, config, ids)
    if image_size is None or not config.fit_lens:
        return plain
    bending = plain is None or plain.markers_used < len(usable) or plain.mean_error_px > config.lens_trigger_px
    if not bending:
        return plain   # every marker agrees with one homography to a fraction of a pixel: no lens to see
    bent = _lens_fit(src, dst, width, height, image_size, config, lens, ids)
    if bent is None or (plain is not None and (bent.markers_used, -bent.mean_error_px)
                        <= (plain.markers_used, -plain.mean_error_px)):
        return plain
    return bent


def _plain_fit(src: np.ndarray, dst: np.ndarray, width: int, height: int, config: RegistrationConfig,
               ids: list[int]) -> Registration | None:
    """One homography, RANSAC over every corner (a marker counts when all four agree)."""
    homography, mask = cv2.findHomography(src, dst, cv2.RANSAC, config.ransac_reprojection_px)
    if homography is None:
        return None
    inlier_markers = np.all(mask.reshape(-1, 4), axis=1)   # (ndarray.all's stub allows a scalar)
    if inlier_markers.sum() < config.min_markers:
        return None
    keep = np.repeat(inlier_markers, 4)
    projected = cv2.perspectiveTransform(src[keep].reshape(-1, 1, 2), homography).reshape(-1, 2)
    error = float(np.linalg.norm(projected - dst[keep], axis=1).mean())
    return Registration(homography, width, height, int(inlier_markers.sum()), error,
                        marker_ids=tuple(i for i, ok in zip(ids, inlier_markers) if ok))


def _lens_fit(src: np.ndarray, dst: np.ndarray, width: int, height: int, image_size: tuple[int, int],
              config: RegistrationConfig, lens: LensConfig, ids: list[int]) -> Registration | None:
    """The homography and the lens together (calibration.lens), where a wide lens bends the
    markers' corners off any one homography: markers agreeing with a loose homography (RANSAC
    within `lens_ransac_share` of the board's size in the photo) give the first fit; every
    marker whose four corners then agree within `ransac_reprojection_px` the final one."""
    span = float(np.linalg.norm(dst.max(axis=0) - dst.min(axis=0)))
    loose = max(config.ransac_reprojection_px, config.lens_ransac_share * span)
    homography, mask = cv2.findHomography(src, dst, cv2.RANSAC, loose)
    if homography is None:
        return None
    keep = np.repeat(mask.reshape(-1, 4).all(axis=1), 4)
    for _ in range(2):
        if keep.sum() < 4 * config.min_markers:
            return None
        fit = fit_mapping(image_size, (width, height), src[keep], dst[keep], initial=homography, config=lens)
        if fit is None or fit.mapping.lens is None:
            return None
        mapping = fit.mapping
        errors = np.linalg.norm(fit.mapping.to_image(src) - dst, axis=1).reshape(-1, 4)
        agreeing = (errors < config.ransac_reprojection_px).all(axis=1)
        if np.array_equal(np.repeat(agreeing, 4), keep):
            break   # the fit's own markers, no more, no fewer: a refit on them is the same fit (2.5 ms at 1080p)
        keep = np.repeat(agreeing, 4)
    if agreeing.sum() < config.min_markers:
        return None
    return Registration(mapping.homography, width, height, int(agreeing.sum()), float(errors[agreeing].mean()),
                        mapping.lens, mapping.lens_homography, tuple(i for i, ok in zip(ids, agreeing) if ok))


def fit_homography(detections: list[MarkerDetection], width: int, height: int,
                   config: RegistrationConfig = DEFAULT_CONFIG.registration,
                   image_size: tuple[int, int] | None = None, lens: LensConfig = DEFAULT_CONFIG.lens
                   ) -> Registration | None:
    """Homography grid units -> pixels for a width×height board, or None when the
    detected markers do not agree with that layout (not our board, or too few). Given the
    photo's `image_size` (width, height), a lens is fitted too where the markers show bending."""
    registration = _fit(detections, width, height, config, image_size, lens)
    if registration is None or registration.mean_error_px > config.max_mean_error_px:
        return None
    return registration


def infer_board_size(detections: list[MarkerDetection], config: RegistrationConfig = DEFAULT_CONFIG.registration,
                     *, max_width: int = 60, max_height: int = 40, shortlist: int = 6, id_slack: int = 12,
                     image_size: tuple[int, int] | None = None, lens: LensConfig = DEFAULT_CONFIG.lens
                     ) -> Registration | None:
    """For an unknown board (calibration): the size whose marker layout best explains
    the detections. A least-squares fit of marker centres ranks every size cheaply;
    the best few get the full RANSAC fit (most inlier markers, then smallest error)."""
    if len(detections) < max(4, config.min_markers):
        return None
    highest = max(d.id for d in detections)
    seen = np.array([d.corners.mean(axis=0) for d in detections], np.float32)
    ranked = []
    for width in range(2, max_width + 1):
        for height in range(2, max_height + 1):
            layout = _layout(width, height)
            if not highest < len(layout) <= highest + 1 + id_slack:
                continue  # ids run around the board: the highest seen is near the last one
            centres = np.array([layout[d.id].mean(axis=0) for d in detections], np.float32)
            homography, _ = cv2.findHomography(centres, seen, 0)
            if homography is None:
                continue
            projected = cv2.perspectiveTransform(centres.reshape(-1, 1, 2), homography).reshape(-1, 2)
            ranked.append((float(np.linalg.norm(projected - seen, axis=1).mean()), width, height))
    best: Registration | None = None
    for _, width, height in sorted(ranked)[:shortlist]:
        candidate = fit_homography(detections, width, height, config, image_size, lens)
        if candidate is None:
            continue
        if best is None or (candidate.markers_used, -candidate.mean_error_px) > (best.markers_used, -best.mean_error_px):
            best = candidate
    return best


def register_board(image_bgr: np.ndarray, width: int | None = None, height: int | None = None,
                   config: RegistrationConfig = DEFAULT_CONFIG.registration,
                   lens: LensConfig = DEFAULT_CONFIG.lens) -> Registration | None:
    """Detect markers and fit (with the photo's lens where the markers show bending); the size
    is inferred when not given."""
    detections = detect_markers(image_bgr, config)
    if not detections:
        return None
    image_size = (image_bgr.shape[1], image_bgr.shape[0])

    def fitted(detections: list[MarkerDetection]) -> Registration | None:
        if width is None or height is None:
            return infer_board_size(detections, config, image_size=image_size, lens=lens)
        return fit_homography(detections, width, height, config, image_size, lens)

    registration = fitted(detections)
    reduced = _reduced_scale(max(image_size), config.detect_max_side_px) < 1.0
    if registration is None and reduced and len(detections) >= config.full_resolution_retry:
        # markers read on the reduced frame that agree with no layout: small, soft markers (a 40×25 board in a 4K
        # photo, 7 px at its 1/4) leave their corners a reduced pixel off, 4 px of the photo; the full frame
        # places them (#28)
        detections = detect_markers(image_bgr, config, full_resolution=True)
        registration = fitted(detections)
    if registration is not None and len(_sides(registration)) < config.line_refine_sides:
        registration = _with_grid_lines(image_bgr, registration, detections, config, lens)
    return registration


def _sides(registration: Registration) -> set[str]:
    """The board's sides (top, right, bottom, left) its inlier markers lie on."""
    layout = _layout(registration.width, registration.height)
    sides = set()
    for marker_id in registration.marker_ids:
        x, y = layout[marker_id].mean(axis=0)
        sides.add("top" if y < 0 else "bottom" if y > registration.height else "left" if x < 0 else "right")
    return sides


def _with_grid_lines(image_bgr: np.ndarray, registration: Registration, detections: list[MarkerDetection],
                     config: RegistrationConfig, lens: LensConfig) -> Registration:
    """The registration refitted on the printed grid lines as well as the markers, where the
    markers seen lie on fewer than `line_refine_sides` sides of the board (the rest outside the
    frame or under a hand): markers along one edge leave the far side of the board a square or
    more off. Lines are followed from the markers outward (`lines_seen`: each line read where the
    mapping so far puts it, within a third of a square), the rectangle doubling each round, the
    mapping refitted each time (with the lens where the photo shows one). Kept only when the
    markers agree with it as well as before (within `max_mean_error_px`)."""
    width, height = registration.width, registration.height
    layout = _layout(width, height)
    used = [d for d in detections if d.id in registration.marker_ids]
    src = np.concatenate([layout[d.id] for d in used])
    dst = np.concatenate([d.corners for d in used])
    inside = src.clip([0, 0], [width, height])
    rect = (int(np.floor(inside[:, 0].min())), int(np.ceil(inside[:, 0].max())),
            int(np.floor(inside[:, 1].min())), int(np.ceil(inside[:, 1].max())))
    rect = (max(0, rect[0] - 2), min(width, rect[1] + 2), max(0, rect[2] - 2), min(height, rect[3] + 2))
    gray = _gray(image_bgr)
    gradients = cv2.merge([cv2.Sobel(cv2.GaussianBlur(gray, (3, 3), 0), cv2.CV_32F, dx, 1 - dx, ksize=3) / 8
                           for dx in (1, 0)])
    image_size = (image_bgr.shape[1], image_bgr.shape[0])
    mapping = registration.mapping
    refined = None
    for _ in range(6):
        lines = lines_seen(gradients, mapping.to_image, rect, config.line_min_contrast)
        start = mapping.lens_homography if mapping.lens is not None else mapping.homography
        fit = fit_mapping(image_size, (width, height), src, dst, lines=lines, initial=start, config=lens)
        if fit is None:
            break
        mapping = refined = fit.mapping
        if rect == (0, width, 0, height):
            break
        grow_x, grow_y = max(2, rect[1] - rect[0]), max(2, rect[3] - rect[2])
        rect = (max(0, rect[0] - grow_x), min(width, rect[1] + grow_x), max(0, rect[2] - grow_y),
                min(height, rect[3] + grow_y))
    if refined is None:
        return registration
    error = float(np.linalg.norm(refined.to_image(src) - dst, axis=1).mean())
    if error > max(config.max_mean_error_px, registration.mean_error_px):
        return registration
    return Registration(refined.homography, width, height, registration.markers_used, error, refined.lens,
                        refined.lens_homography, registration.marker_ids, grid_lines=True)


class RegistrationTracker:
    """Fast re-check that a still camera has not moved (≤ 10 ms at 1080p).

    Tracks a few markers, the ones nearest the board's corners (well spread, so a
    small rotation shows too). The first check re-detects them with ArUco inside
    small ROIs around where the homography puts them and keeps a grey patch of each
    as it was seen; later checks only correlate that patch within ± the tolerance
    (a few hundred pixels of work, lighting changes cancel out in a normalised
    correlation). A patch that no longer matches there (a hand over it, the camera
    moved) falls back to ArUco in its ROI, which decides and refreshes the patch.
    Only the ROIs are converted to grey: the whole frame never is.
    """

    def __init__(self, registration: Registration, config: RegistrationConfig = DEFAULT_CONFIG.registration,
                 *, min_correlation: float = 0.9):
        self.registration = registration
        self.config = config
        self.min_correlation = min_correlation   # normalised correlation of a patch that has not moved
        layout = _layout(registration.width, registration.height)
        centre = np.array([registration.width, registration.height], np.float32) / 2
        # the markers farthest out in each quadrant direction first: well spread over the board
        by_direction: dict[tuple[bool, bool], list[tuple[float, int]]] = {}
        for marker_id, corners in layout.items():
            offset = corners.mean(axis=0) - centre
            by_direction.setdefault((offset[0] >= 0, offset[1] >= 0), []).append((-float(np.abs(offset).sum()), marker_id))
        ranked = [sorted(group) for group in by_direction.values()]
        chosen: list[int] = []
        while len(chosen) < config.track_markers and any(ranked):
            for group in ranked:
                if group and len(chosen) < config.track_markers:
                    chosen.append(group.pop(0)[1])
        mapping = registration.mapping
        self._expected = {marker_id: mapping.to_image(layout[marker_id]).astype(np.float32) for marker_id in chosen}
        self._patches: dict[int, tuple[np.ndarray, int, int]] = {}   # id -> (grey patch, x0, y0)

    def still_valid(self, image_bgr: np.ndarray) -> bool:
        """True when enough of the tracked markers are found where expected."""
        needed = min(self.config.min_markers, len(self._expected))
        agreeing = 0
        for marker_id, expected in self._expected.items():
            agreeing += self._unmoved_patch(image_bgr, marker_id) or self._redetected(image_bgr, marker_id, expected)
            if agreeing >= needed:
                return True
        return False

    def _unmoved_patch(self, image: np.ndarray, marker_id: int) -> bool:
        """The patch kept from the last detection is still at its place (± tolerance)."""
        if marker_id not in self._patches:
            return False
        patch, x0, y0 = self._patches[marker_id]
        slack = int(np.ceil(self.config.track_tolerance_px))
        ph, pw = patch.shape
        ih, iw = image.shape[:2]
        if x0 - slack < 0 or y0 - slack < 0 or x0 + pw + slack > iw or y0 + ph + slack > ih:
            return False
        window = _gray(image[y0 - slack:y0 + ph + slack, x0 - slack:x0 + pw + slack])
        score = cv2.matchTemplate(window, patch, cv2.TM_CCOEFF_NORMED)
        _, best, _, (bx, by) = cv2.minMaxLoc(score)
        return best >= self.min_correlation and np.hypot(bx - slack, by - slack) <= self.config.track_tolerance_px

    def _redetected(self, image: np.ndarray, marker_id: int, expected: np.ndarray) -> bool:
        """ArUco inside the marker's ROI, reduced so that the marker is ~32 px wide;
        on agreement the marker's patch is kept for the next checks."""
        h, w = image.shape[:2]
        side = float(np.linalg.norm(expected[1] - expected[0]))
        pad = side * self.config.track_roi_margin
        x0, y0 = np.floor(expected.min(axis=0) - pad).astype(int)
        x1, y1 = np.ceil(expected.max(axis=0) + pad).astype(int)
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
        if x1 - x0 < 8 or y1 - y0 < 8:
            return False
        roi = _gray(image[y0:y1, x0:x1])
        scale = min(1.0, 32.0 / max(side, 1.0))
        small = roi if scale >= 1.0 else cv2.resize(roi, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        corners, ids, _ = _board_markers_in(small, self.config.fast_threshold_window)
        if ids is None:
            return False
        for c, i in zip(corners, ids.ravel()):
            if int(i) != marker_id:
                continue
            moved = np.linalg.norm(from_resized(c.reshape(4, 2), scale) + (x0, y0) - expected, axis=1).max()
            if moved > self.config.track_tolerance_px:
                return False
            px0, py0 = np.floor(expected.min(axis=0)).astype(int)
            px1, py1 = np.ceil(expected.max(axis=0)).astype(int)
            if px0 >= x0 and py0 >= y0 and px1 <= x1 and py1 <= y1:
                self._patches[marker_id] = (roi[py0 - y0:py1 - y0, px0 - x0:px1 - x0].copy(), int(px0), int(py0))
            return True
        return False
