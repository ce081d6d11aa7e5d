"""The debug picture of a scan: the found grid, square labels and doubtful squares on the photo.

Everything is drawn through the scan's `GridMapping`: with a lens, grid lines are drawn as the
curves the photo shows, not as straight segments between their ends."""
from __future__ import annotations

import cv2
import numpy as np

from boards.model import square_label

DOUBT_BGR = (0, 200, 255)    # amber: a person should confirm (MT 2.02.e)
COVERED_BGR = (255, 0, 255)  # magenta: hidden by a token or a hand
GRID_BGR = (0, 255, 0)
STEPS_PER_SQUARE = 4         # points per square side along a drawn line (a lens bends it)


def draw_scan(image_bgr: np.ndarray, result) -> np.ndarray:
    """A copy of the photo with the scan drawn over it."""
    out = image_bgr.copy()
    if not result.found:
        cv2.putText(out, result.error or "no board", (20, 40), cv2.FONT_HERSHEY_SIMPLEX, 1.0, (0, 0, 255), 2)
        return out
    mapping = result.mapping
    w, ht = result.width, result.height

    def to_px(points) -> np.ndarray:
        return mapping.to_image(np.asarray(points, np.float64).reshape(-1, 2))

    def curve(a, b) -> np.ndarray:
        steps = 1 if mapping.straight else STEPS_PER_SQUARE * int(np.ceil(np.abs(np.subtract(b, a)).max()))
        t = np.linspace(0.0, 1.0, steps + 1)[:, None]
        return np.round(to_px(np.asarray(a, float) + t * np.subtract(b, a))).astype(np.int32)

    thickness = max(1, out.shape[1] // 800)
    lines = [curve((x, 0), (x, ht)) for x in range(w + 1)] + [curve((0, y), (w, y)) for y in range(ht + 1)]
    cv2.polylines(out, lines, False, GRID_BGR, thickness, cv2.LINE_AA)
    scale = max(0.3, float(np.linalg.norm(to_px([[0, 0]]) - to_px([[1, 0]]))) / 70)
    for s in result.squares:
        outline = np.concatenate([curve(a, b)[:-1] for a, b in (((s.x, s.y), (s.x + 1, s.y)),
                                                                ((s.x + 1, s.y), (s.x + 1, s.y + 1)),
                                                                ((s.x + 1, s.y + 1), (s.x, s.y + 1)),
                                                                ((s.x, s.y + 1), (s.x, s.y)))])
        if not s.visible:
            continue   # outside the photo: nothing to draw on
        if s.covered or s.uncertain:
            cv2.polylines(out, [outline], True, COVERED_BGR if s.covered else DOUBT_BGR, thickness * 3)
        centre = to_px([[s.x + 0.5, s.y + 0.5]])[0]
        text = f"{square_label((s.x, s.y))} {s.colours or '.'}" + ("#" if s.obstacle and s.colours else "") + \
            ("@" if s.start else "") + ("*" if s.temple else "")
        org = (int(centre[0] - 20 * scale), int(centre[1]))
        cv2.putText(out, text, org, cv2.FONT_HERSHEY_SIMPLEX, 0.35 * scale, (0, 0, 0), 3, cv2.LINE_AA)
        cv2.putText(out, text, org, cv2.FONT_HERSHEY_SIMPLEX, 0.35 * scale, (255, 255, 255), 1, cv2.LINE_AA)
    return out
