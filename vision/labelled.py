"""The labelled real photos (tests/fixtures/real_photos*, copies of ../shared/real-photos*), and
how a scan of one is scored: the same rules for the tests and `tactical bench vision`.

Two sets with two label formats, read into one `LabelledPhoto`: the first set
(`real_photos.yaml`: outer corners measured along each border, colours per row) and the second
(`real_photos_2/labels.json`: outer corners, every square's centre, size, colour and visibility).

Scoring (`score_scan`), as the second set's README states it:
- **placed right**: the right size (either orientation) and each labelled outer corner (those in
  the photo) within half a square of the found grid's corner;
- **phantom square**: a square the scan reports without a flag (not uncertain, not covered, not
  marked not visible) where the photo shows none — its centre outside the photo, farther than half
  a square from every labelled square, or on a labelled square that is not visible;
- **wrong and not flagged**: a reported square on a labelled one (nearest centre within half a
  square), read a colour other than the label's, without a flag (ChArUco marker squares, `M`, are
  not scored).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import yaml

FIXTURES = Path(__file__).resolve().parents[1] / "tests" / "fixtures"


@dataclass(frozen=True)
class LabelledPhoto:
    name: str
    path: Path
    set: str                    # "real-photos" or "real-photos-2"
    grid: tuple[int, int]       # squares across, down, as seen upright
    corners: list               # TL, TR, BR, BL pixels, None where outside the photo
    centres: np.ndarray         # (h, w, 2) square centres, px
    sizes: np.ndarray           # (h, w) square sides, px
    colours: np.ndarray         # (h, w) 'W', 'B' or 'M' (not scored)
    visible: np.ndarray         # (h, w) bool
    size_findable: bool = True  # the free path is expected to find this size

    def image(self) -> np.ndarray:
        image = cv2.imread(str(self.path))
        if image is None:
            raise FileNotFoundError(f"cannot read {self.path}")
        return image


@dataclass
class RealScore:
    found: bool
    right_size: bool = False
    placed: bool = False
    squares: int = 0
    phantom: int = 0
    wrong_unflagged: int = 0
    flagged: int = 0
    corner_error: float = float("nan")   # worst labelled corner, in squares


def labelled_photos(fixtures: Path = FIXTURES) -> list[LabelledPhoto]:
    """Both labelled sets, first set first."""
    photos = []
    first = yaml.safe_load((fixtures / "real_photos.yaml").read_text(encoding="utf-8"))["photos"]
    for entry in first:
        w, h = entry["grid"]
        corners = [None if c is None else np.asarray(c, float) for c in entry["corners"]]
        frame = entry.get("frame_corners", corners)   # corners to place squares with (extrapolated ones too)
        centres, sizes = _centres_from_corners(frame, w, h)
        colours = np.array([list(row) for row in entry["colours"]])
        photos.append(LabelledPhoto(entry["file"], fixtures / "real_photos" / entry["file"], "real-photos", (w, h),
                                    corners, centres, sizes, colours, np.ones((h, w), bool),
                                    bool(entry.get("size_findable", True))))
    for entry in json.loads((fixtures / "real_photos_2" / "labels.json").read_text(encoding="utf-8")):
        w, h = entry["grid"]
        photos.append(LabelledPhoto(entry["file"], fixtures / "real_photos_2" / entry["file"], "real-photos-2", (w, h),
                                    [np.asarray(c, float) for c in entry["outer_corners_px"]],
                                    np.asarray(entry["square_centres_px"], float),
                                    np.asarray(entry["square_size_px"], float), np.array(entry["colours"]),
                                    np.asarray(entry["square_visible"], bool)))
    return photos


def _centres_from_corners(corners: list, w: int, h: int) -> tuple[np.ndarray, np.ndarray]:
    """Square centres and sides from the four outer corners (one homography: the first set's
    boards are flat but for a fold, within 0.05 square)."""
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    h_mat = cv2.getPerspectiveTransform(src, np.array(corners, np.float32))
    gx, gy = np.meshgrid(np.arange(w) + 0.5, np.arange(h) + 0.5)
    pts = np.stack([gx, gy], axis=-1).reshape(-1, 1, 2)
    centres = cv2.perspectiveTransform(pts, h_mat).reshape(h, w, 2)
    right = cv2.perspectiveTransform(pts + [0.5, 0.0], h_mat).reshape(h, w, 2)
    down = cv2.perspectiveTransform(pts + [0.0, 0.5], h_mat).reshape(h, w, 2)
    a, b = right - centres, down - centres
    sizes = np.sqrt(4 * np.abs(a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]))
    return centres, sizes


def score_scan(result, photo: LabelledPhoto, image_shape: tuple[int, int]) -> RealScore:
    """How a ScanResult of `photo` compares with its labels (module docstring)."""
    if not result.found:
        return RealScore(False)
    gw, gh = photo.grid
    score = RealScore(True, right_size=sorted((result.width, result.height)) == sorted((gw, gh)),
                      squares=len(result.squares))
    mapping = result.mapping
    if score.right_size:
        ours = mapping.to_image(np.array([[0, 0], [result.width, 0], [result.width, result.height],
                                          [0, result.height]], float))
        known = [k for k, c in enumerate(photo.corners) if c is not None]
        best = float("inf")
        for turn in range(4):
            for order in (1, -1):
                mine = ours[[(turn + order * k) % 4 for k in range(4)]]
                worst = max(np.linalg.norm(mine[k] - photo.corners[k]) / _local_side(photo, photo.corners[k])
                            for k in known)
                best = min(best, worst)
        score.corner_error = best
        score.placed = best < 0.5
    h, w = image_shape[:2]
    centres = photo.centres.reshape(-1, 2)
    sizes = photo.sizes.ravel()
    colours = photo.colours.ravel()
    visible = photo.visible.ravel()
    seen = mapping.to_image(np.array([[s.x + 0.5, s.y + 0.5] for s in result.squares], float).reshape(-1, 2))
    for reading, at in zip(result.squares, seen):
        flagged = reading.uncertain or reading.covered or not getattr(reading, "visible", True)
        score.flagged += flagged
        distances = np.linalg.norm(centres - at, axis=1)
        k = int(np.argmin(distances))
        inside = 0 <= at[0] < w and 0 <= at[1] < h
        on_label = distances[k] <= 0.5 * sizes[k] and visible[k]
        if not (inside and on_label):
            score.phantom += not flagged
            continue
        if colours[k] != "M":
            score.wrong_unflagged += (not flagged) and reading.colours != colours[k]
    return score


def _local_side(photo: LabelledPhoto, at: np.ndarray) -> float:
    """The labelled square side nearest a point (a corner of the grid), px."""
    k = int(np.argmin(np.linalg.norm(photo.centres.reshape(-1, 2) - at, axis=1)))
    return float(photo.sizes.ravel()[k])
