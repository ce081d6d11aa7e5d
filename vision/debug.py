"""The debug picture of a scan: the found grid, square labels and doubtful squares on the photo."""
from __future__ import annotations

import cv2
import numpy as np

from boards.model import square_label

DOUBT_BGR = (0, 200, 255)    # amber: a person should confirm (MT 2.02.e)
COVERED_BGR = (255, 0, 255)  # magenta: hidden by a token or a hand
GRID_BGR = (0, 255, 0)


def draw_scan(image_bgr: np.ndarray, result) -> np.ndarray:
    """A copy of the photo with the scan drawn over it."""
    out = image_bgr.copy()
    if not result.found:
        cv2.putText(out, result.error or "no board", (20, 40), cv2.FONT_HERSHEY_SIMPLEX, 1.0, (0, 0, 255), 2)
        return out
    h = np.asarray(result.homography, float)
    w, ht = result.width, result.height

    def to_px(points) -> np.ndarray:
        return cv2.perspectiveTransform(np.asarray(points, np.float64).reshape(-1, 1, 2), h).reshape(-1, 2)

    thickness = max(1, out.shape[1] // 800)
    for x in range(w + 1):
        a, b = to_px([[x, 0], [x, ht]])
        cv2.line(out, tuple(map(int, a)), tuple(map(int, b)), GRID_BGR, thickness, cv2.LINE_AA)
    for y in range(ht + 1):
        a, b = to_px([[0, y], [w, y]])
        cv2.line(out, tuple(map(int, a)), tuple(map(int, b)), GRID_BGR, thickness, cv2.LINE_AA)
    scale = max(0.3, float(np.linalg.norm(to_px([[0, 0]]) - to_px([[1, 0]]))) / 70)
    for s in result.squares:
        corners = to_px([[s.x, s.y], [s.x + 1, s.y], [s.x + 1, s.y + 1], [s.x, s.y + 1]]).astype(np.int32)
        if s.covered or s.uncertain:
            cv2.polylines(out, [corners], True, COVERED_BGR if s.covered else DOUBT_BGR, thickness * 3)
        centre = to_px([[s.x + 0.5, s.y + 0.5]])[0]
        text = f"{square_label((s.x, s.y))} {s.colours or '.'}" + ("#" if s.obstacle and s.colours else "") + \
            ("@" if s.start else "") + ("*" if s.temple else "")
        org = (int(centre[0] - 20 * scale), int(centre[1]))
        cv2.putText(out, text, org, cv2.FONT_HERSHEY_SIMPLEX, 0.35 * scale, (0, 0, 0), 3, cv2.LINE_AA)
        cv2.putText(out, text, org, cv2.FONT_HERSHEY_SIMPLEX, 0.35 * scale, (255, 255, 255), 1, cv2.LINE_AA)
    return out
