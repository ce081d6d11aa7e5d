"""Stage 1, segments: the working image and the line segments on it (config section `grid.segments`).

The finder works on a copy of the photo scaled so that a requested grid's squares stay at least
`min_square_px` (`working_long_side`), contrast-normalised (CLAHE, for faint pencil); its gradients, in
that image, in the plain one and in colour, are what every later stage measures edges on
(`WorkingImage`). The segments are LSD's (`grid_lines.detect_segments`), at least `min_segment_px`
long, each weighed by its clarity: its sharpness in the plain photo (table grain and cloth are soft).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import cv2
import numpy as np

from calibration.config import GridFinderConfig
from calibration.grid_lines import Segments, detect_segments, sample
from calibration.numeric import nanmedian_last


class SearchBudgetSpent(Exception):
    """Raised where a search has spent its `WorkBudget` (caught by the search that armed it)."""


@dataclass
class WorkBudget:
    """Edge samples a search may still score (`edges.edge_scores` spends them) while it is armed, None:
    unbounded. Counted, not timed: the same photo gets the same answer on a busy machine (issue 28: the
    line search's fallbacks cost 0.5–1.3 s a hypothesis on photos where they find nothing). `spent_out`
    says a search stopped on it, for the answer's reason."""
    left: int | None = None
    spent_out: bool = False

    def spend(self, samples: int) -> None:
        if self.left is None:
            return
        self.left -= samples
        if self.left < 0:
            self.spent_out = True
            raise SearchBudgetSpent


@dataclass(frozen=True)
class WorkingImage:
    """One working image and what every stage reads on it: its grey levels, gradients (CLAHE and plain,
    and colour when the photo has some), its scale from the photo, the shortest segment kept, the
    finder's configuration and its random generator (deterministic: same photo, same answer)."""
    gray: np.ndarray                       # contrast-normalised (CLAHE) grey, the segments' image
    gradients: np.ndarray                  # x, y gradients of the CLAHE image (faint pencil lines stand out)
                                           # and of the plain one (CLAHE also lifts a table's smooth grain)
    colour_gradients: np.ndarray | None    # ... of CIELAB a*, b* (None: the photo has no colour)
    scale: float                           # working image size / photo size
    min_segment_px: float                  # shortest segment kept
    cfg: GridFinderConfig
    rng: np.random.Generator
    budget: WorkBudget = field(default_factory=WorkBudget)   # the search's, shared by its working images
    edge_memo: dict = field(default_factory=dict, compare=False, repr=False)   # `edges._line_scores`' scores

    @classmethod
    def of(cls, gray: np.ndarray, plain: np.ndarray, size: tuple[int, int] | None, cfg: GridFinderConfig,
           chroma: np.ndarray | None = None, scale: float = 1.0, budget: WorkBudget | None = None) -> "WorkingImage":
        """The working image of grey images already scaled (CLAHE and plain), for a grid of `size` (None:
        unknown; it only sets the shortest segment kept)."""
        min_length = cfg.segments.min_segment_frac * max(gray.shape)
        if size is not None:   # a big board's squares may be shorter than that
            smallest_square = cfg.segments.min_board_fraction * min(gray.shape) / max(size)
            min_length = min(min_length, cfg.segments.min_segment_squares * smallest_square)
        return cls(gray, _gradients((gray, plain)),
                   None if chroma is None else _gradients((chroma[:, :, 0], chroma[:, :, 1])),
                   scale, max(min_length, 3.0), cfg, np.random.default_rng(0), budget or WorkBudget())

    @cached_property
    def clahe_gradients(self) -> np.ndarray:
        """The CLAHE image's gradients alone, contiguous (line following reads them)."""
        return np.ascontiguousarray(self.gradients[..., :2])


def working_image(image_bgr: np.ndarray, size: tuple[int, int] | None, cfg: GridFinderConfig,
                  budget: WorkBudget | None = None) -> WorkingImage:
    """The working image of a photo for a grid of `size` (None: unknown), with the search's `budget`."""
    gray, plain, scale = working_gray(image_bgr, working_long_side(image_bgr.shape[:2], size, cfg), cfg)
    return WorkingImage.of(gray, plain, size, cfg, working_chroma(image_bgr, gray.shape, cfg), scale, budget)


def find_segments(work: WorkingImage) -> Segments:
    """Stage 1: the working image's line segments, each weighed by its clarity."""
    return _with_clarity(work, detect_segments(work.gray, work.min_segment_px))


def working_long_side(shape: tuple[int, int], grid: tuple[int, int] | None, cfg: GridFinderConfig) -> float:
    """Long side of the working image: `working_size`, or more when the requested grid's
    squares would be under `min_square_px` there for a board spanning `min_board_fraction`
    of the photo's short side (a 40x25 board at 1080p needs the full frame)."""
    if grid is None:
        return cfg.segments.working_size
    short_needed = cfg.segments.min_square_px * max(grid) / cfg.segments.min_board_fraction
    needed = short_needed * max(shape) / min(shape)
    return min(max(cfg.segments.working_size, needed), cfg.segments.max_working_size)


def working_gray(image: np.ndarray, long_side: float, cfg: GridFinderConfig
                  ) -> tuple[np.ndarray, np.ndarray, float]:
    """(contrast-normalised grey, plain grey, scale) of the working image, `long_side` px
    on its long side at most."""
    if image.ndim == 3 and image.shape[2] == 1:
        image = image[:, :, 0]
    gray = image if image.ndim == 2 else cv2.cvtColor(image[:, :, :3], cv2.COLOR_BGR2GRAY)
    if gray.dtype != np.uint8:
        gray = cv2.normalize(gray, None, 0, 255, cv2.NORM_MINMAX).astype(np.uint8)  # type: ignore[call-overload]  # cv2 stubs: no dst=None
    scale = min(1.0, long_side / max(gray.shape))
    if scale < 1.0:
        gray = cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    tile = max(2, round(max(gray.shape) / 120))
    return cv2.createCLAHE(cfg.segments.clahe_clip, (tile, tile)).apply(gray), gray, scale


def working_chroma(image: np.ndarray, shape: tuple[int, int], cfg: GridFinderConfig) -> np.ndarray | None:
    """The colour of the working image without its brightness (CIELAB a*, b*), or None when the
    photo has no colour (its a*, b* span under `min_colour_range`): a grey line between green or red
    squares of its own brightness shows only there."""
    if image.ndim != 3 or image.shape[2] < 3:
        return None
    small = cv2.resize(image[:, :, :3], (shape[1], shape[0]), interpolation=cv2.INTER_AREA) \
        if image.shape[:2] != tuple(shape) else image[:, :, :3]
    lab = cv2.cvtColor(np.ascontiguousarray(small), cv2.COLOR_BGR2LAB)
    chroma = lab[:, :, 1:]
    if int(chroma.max()) - int(chroma.min()) < cfg.segments.min_colour_range:
        return None
    return chroma


def _gradients(channels) -> np.ndarray:
    """The x and y gradients of each 8-bit channel, smoothed a little, as one float image
    (x0, y0, x1, y1, ...: 4 channels keep `sample`'s remap on its fast path)."""
    return cv2.merge([cv2.Sobel(cv2.GaussianBlur(np.ascontiguousarray(c), (3, 3), 0), cv2.CV_32F, dx, 1 - dx, ksize=3) / 8
                      for c in channels for dx in (1, 0)])


def _with_clarity(work: WorkingImage, segs: Segments) -> Segments:
    """Segments with their clarity: the gradient across each, in the plain photo (the
    strongest within 1.5 px of it, median of 5 points along it), relative to
    `sharp_edge_contrast` and squared, so that soft texture weighs far less than ink."""
    if len(segs) == 0:
        return segs
    d = segs.q - segs.p
    normal = np.stack([-d[:, 1], d[:, 0]], axis=1) / np.maximum(segs.length, 1e-9)[:, None]
    along = np.linspace(0.1, 0.9, 5)[None, :, None, None]
    across = np.linspace(-1.5, 1.5, 5)[None, None, :, None]
    pts = segs.p[:, None, None, :] + d[:, None, None, :] * along + normal[:, None, None, :] * across
    grads = sample(work.gradients, pts[..., 0], pts[..., 1])[..., 2:]
    size = np.abs(grads[..., 0] * normal[:, None, None, 0] + grads[..., 1] * normal[:, None, None, 1])
    contrast = np.nan_to_num(nanmedian_last(size.max(axis=2)))   # points outside the photo are NaN
    return Segments(segs.p, segs.q, np.clip(contrast / work.cfg.segments.sharp_edge_contrast, 0.0, 1.0) ** 2)
