"""Registering our printed boards from their ArUco markers.

Stages, each testable alone: `detect_markers` (pixels of every marker
corner) -> `fit_homography` (grid units -> pixels from ALL detected corners,
RANSAC, so a hand over some markers does not matter) -> `RegistrationTracker`
(the fast path for a still camera: re-detect a few markers in small ROIs).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from boards.markers import ARUCO_DICTIONARY, BOARD_MARKER_IDS, board_markers
from calibration.config import DEFAULT_CONFIG, RegistrationConfig


@dataclass(frozen=True)
class MarkerDetection:
    id: int
    corners: np.ndarray  # (4, 2) float32 pixels, TL TR BR BL


@dataclass(frozen=True)
class Registration:
    homography: np.ndarray  # 3x3, grid units -> image pixels
    width: int
    height: int
    markers_used: int       # inlier markers
    mean_error_px: float    # mean corner reprojection error of the inliers


@lru_cache(maxsize=4)
def _detector(single_window: int = 0) -> cv2.aruco.ArucoDetector:
    """The marker detector; `single_window` > 0 uses one threshold window (fast pass)."""
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, ARUCO_DICTIONARY))
    params = cv2.aruco.DetectorParameters()
    if single_window:
        params.adaptiveThreshWinSizeMin = params.adaptiveThreshWinSizeMax = single_window
    return cv2.aruco.ArucoDetector(dictionary, params)


def _gray(image: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image


def _detect(gray: np.ndarray, scale: float, window: int = 0) -> tuple[list, np.ndarray | None]:
    small = gray if scale >= 1.0 else cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    corners, ids, _ = _detector(window).detectMarkers(small)
    return [c.reshape(4, 2) / scale for c in corners], ids


def detect_markers(image_bgr: np.ndarray, config: RegistrationConfig = DEFAULT_CONFIG.registration
                   ) -> list[MarkerDetection]:
    """Every board marker visible in the frame (token markers, ids ≥ 50, are ignored).

    Searched on a downscaled frame first (fast), again at full resolution when
    too few are found (small or far boards); corners refined on the full frame."""
    gray = _gray(image_bgr)
    scale = min(1.0, config.detect_max_side_px / max(gray.shape))
    corners, ids = _detect(gray, scale, config.fast_threshold_window)
    board_ids = set(BOARD_MARKER_IDS)
    found = 0 if ids is None else sum(int(i) in board_ids for i in ids.ravel())
    if found < config.full_resolution_retry and scale < 1.0:
        corners, ids = _detect(gray, 1.0)
    if ids is None:
        return []
    keep = [k for k, i in enumerate(ids.ravel()) if int(i) in board_ids]
    if not keep:
        return []
    points = np.concatenate([corners[k] for k in keep]).astype(np.float32).reshape(-1, 1, 2)
    win = config.subpixel_window_px
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.05)
    points = cv2.cornerSubPix(gray, points, (win, win), (-1, -1), criteria).reshape(-1, 4, 2)
    return [MarkerDetection(int(ids.ravel()[k]), points[n]) for n, k in enumerate(keep)]


@lru_cache(maxsize=4096)
def _layout(width: int, height: int) -> dict[int, np.ndarray]:
    return {m.id: m.corners.astype(np.float32) for m in board_markers(width, height)}


def _fit(detections: list[MarkerDetection], width: int, height: int, config: RegistrationConfig
         ) -> Registration | None:
    layout = _layout(width, height)
    usable = [d for d in detections if d.id in layout]
    if len(usable) < config.min_markers:
        return None
    src = np.concatenate([layout[d.id] for d in usable])
    dst = np.concatenate([d.corners for d in usable])
    homography, mask = cv2.findHomography(src, dst, cv2.RANSAC, config.ransac_reprojection_px)
    if homography is None:
        return None
    inlier_markers = mask.reshape(-1, 4).all(axis=1)
    if inlier_markers.sum() < config.min_markers:
        return None
    keep = np.repeat(inlier_markers, 4)
    projected = cv2.perspectiveTransform(src[keep].reshape(-1, 1, 2), homography).reshape(-1, 2)
    error = float(np.linalg.norm(projected - dst[keep], axis=1).mean())
    return Registration(homography, width, height, int(inlier_markers.sum()), error)


def fit_homography(detections: list[MarkerDetection], width: int, height: int,
                   config: RegistrationConfig = DEFAULT_CONFIG.registration) -> Registration | None:
    """Homography grid units -> pixels for a width×height board, or None when the
    detected markers do not agree with that layout (not our board, or too few)."""
    registration = _fit(detections, width, height, config)
    if registration is None or registration.mean_error_px > config.max_mean_error_px:
        return None
    return registration


def infer_board_size(detections: list[MarkerDetection], config: RegistrationConfig = DEFAULT_CONFIG.registration,
                     *, max_width: int = 60, max_height: int = 40, shortlist: int = 6, id_slack: int = 12
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
        candidate = fit_homography(detections, width, height, config)
        if candidate is None:
            continue
        if best is None or (candidate.markers_used, -candidate.mean_error_px) > (best.markers_used, -best.mean_error_px):
            best = candidate
    return best


def register_board(image_bgr: np.ndarray, width: int | None = None, height: int | None = None,
                   config: RegistrationConfig = DEFAULT_CONFIG.registration) -> Registration | None:
    """Detect markers and fit; the size is inferred when not given."""
    detections = detect_markers(image_bgr, config)
    if not detections:
        return None
    if width is None or height is None:
        return infer_board_size(detections, config)
    return fit_homography(detections, width, height, config)


class RegistrationTracker:
    """Fast re-check that a still camera has not moved (≤ 10 ms at 1080p).

    Instead of searching the whole frame, it re-detects a few well-spread
    markers inside small regions around where the known homography puts them.
    """

    def __init__(self, registration: Registration, config: RegistrationConfig = DEFAULT_CONFIG.registration):
        self.registration = registration
        self.config = config
        layout = _layout(registration.width, registration.height)
        ids = sorted(layout)
        step = max(1, len(ids) // config.track_markers)
        self._expected = {}
        for marker_id in ids[::step]:
            pts = cv2.perspectiveTransform(layout[marker_id].reshape(-1, 1, 2), registration.homography)
            self._expected[marker_id] = pts.reshape(4, 2)

    def still_valid(self, image_bgr: np.ndarray) -> bool:
        """True when enough of the tracked markers are found where expected."""
        gray = _gray(image_bgr)
        h, w = gray.shape
        agreeing = 0
        for marker_id, expected in self._expected.items():
            side = float(np.linalg.norm(expected[1] - expected[0]))
            pad = side * self.config.track_roi_margin
            x0, y0 = np.floor(expected.min(axis=0) - pad).astype(int)
            x1, y1 = np.ceil(expected.max(axis=0) + pad).astype(int)
            x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
            if x1 - x0 < 8 or y1 - y0 < 8:
                continue
            corners, ids, _ = _detector(self.config.fast_threshold_window).detectMarkers(gray[y0:y1, x0:x1])
            if ids is None:
                continue
            for c, i in zip(corners, ids.ravel()):
                if int(i) == marker_id:
                    moved = np.linalg.norm(c.reshape(4, 2) + (x0, y0) - expected, axis=1).max()
                    agreeing += moved <= self.config.track_tolerance_px
        return agreeing >= min(self.config.min_markers, len(self._expected))
