"""Where the fiducial markers sit on our printed boards, in grid units.

The contract between printing (boards.render draws them) and calibration
(finds them in a photo): every marker's four corners in grid units, with
grid point (0, 0) the outer top-left corner of square A1. Pure numpy, no cv2,
so that calibration and printing agree by construction.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

ARUCO_DICTIONARY = "DICT_4X4_250"   # name in cv2.aruco; 4×4 bits stay readable when small
BOARD_MARKER_IDS = range(0, 50)     # ids on board margins; tokens use the ids above (boards.tokens)
LABEL_BAND = 0.7                    # squares between grid edge and markers (coordinates printed there)
MARKER_SIZE = 1.4                   # marker side in squares (2.8 cm printed)
MAX_SPACING = 5.0                   # at most this many squares between marker centres along an edge
MARGIN = LABEL_BAND + MARKER_SIZE + 0.4  # printed margin around the grid, in squares


@dataclass(frozen=True)
class PlacedMarker:
    id: int
    corners: np.ndarray  # (4, 2) float, grid units, order TL, TR, BR, BL (as cv2.aruco reports)

    @property
    def centre(self) -> np.ndarray:
        return self.corners.mean(axis=0)


def _centres(length: float, spacing: float) -> np.ndarray:
    n = max(2, math.ceil(length / spacing) + 1)
    half = MARKER_SIZE / 2
    return np.linspace(half, length - half, n)


def board_markers(width: int, height: int) -> list[PlacedMarker]:
    """Markers around a width×height grid: along all four edges, so that any
    few of them (a hand over the rest) still register the board."""
    spacing = MAX_SPACING
    while True:
        top = _centres(width, spacing)
        side = _centres(height, spacing)
        if 2 * (len(top) + len(side)) <= len(BOARD_MARKER_IDS):
            break
        spacing *= 1.25
    s, off = MARKER_SIZE, LABEL_BAND
    placed: list[tuple[float, float]] = []  # top-left corners
    placed += [(cx - s / 2, -off - s) for cx in top]            # above the grid
    placed += [(width + off, cy - s / 2) for cy in side]        # right of it
    placed += [(cx - s / 2, height + off) for cx in top[::-1]]  # below it
    placed += [(-off - s, cy - s / 2) for cy in side[::-1]]     # left of it
    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], dtype=float) * s
    return [PlacedMarker(i, unit + np.array(tl)) for i, tl in zip(BOARD_MARKER_IDS, placed)]
