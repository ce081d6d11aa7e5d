"""Colour between a camera and a printed sheet: white balance and a learnt palette.

Lighting is read from the sheet itself: the paper of the label band around
our grid gives a smooth illumination field (gradient, warm/cool cast) that is
divided out. Square colours are then Gaussians in CIELAB (mean, covariance)
per class — the five colours and the obstacle grey — started from the printing
palette, adapted to the board under the current light, and saved with the
calibration.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from boards.palette import OBSTACLE_BGR, SQUARE_BGR
from calibration.config import DEFAULT_CONFIG, ColourConfig
from calibration.mapping import GridMapping, RadialLens

CLASSES = ("W", "U", "B", "R", "G", "O")  # O = uncoloured obstacle grey (MT 2.03.a)
UNKNOWN = -1
BIN_BITS = 3  # colours are classified through a 32×32×32 BGR lookup table: 8-level bins


def bgr_bins(image_bgr: np.ndarray) -> np.ndarray:
    """Bin index per pixel of a (white-balanced) BGR image, for the lookup table."""
    q = (np.clip(image_bgr, 0, 255).astype(np.uint8) >> BIN_BITS).astype(np.int32)
    shift = 8 - BIN_BITS
    return (q[..., 0] << (2 * shift)) | (q[..., 1] << shift) | q[..., 2]


def _bin_lab() -> np.ndarray:
    levels = (np.arange(1 << (8 - BIN_BITS)) << BIN_BITS) + (1 << BIN_BITS) / 2
    b, g, r = np.meshgrid(levels, levels, levels, indexing="ij")
    return to_lab(np.stack([b, g, r], axis=-1).reshape(-1, 1, 3)).reshape(-1, 3)


def to_lab(image_bgr: np.ndarray) -> np.ndarray:
    """float32 CIELAB (L 0..100) of a BGR image, uint8 or float in 0..255."""
    return cv2.cvtColor(np.clip(image_bgr, 0, 255).astype(np.float32) / 255.0, cv2.COLOR_BGR2Lab)


def _lab_of(bgr) -> np.ndarray:
    return to_lab(np.array([[bgr]], np.float32)).reshape(3)


@dataclass
class ColourProfile:
    """Per-class Gaussian in Lab; classify pixels by Mahalanobis distance."""

    means: np.ndarray  # (k, 3)
    covs: np.ndarray   # (k, 3, 3)
    classes: tuple[str, ...] = CLASSES

    @classmethod
    def from_palette(cls, config: ColourConfig = DEFAULT_CONFIG.colour) -> "ColourProfile":
        """The printing palette as a prior: what the colours should look like on paper
        under white light."""
        means = np.array([_lab_of(SQUARE_BGR[c]) for c in CLASSES[:5]] + [_lab_of(OBSTACLE_BGR)])
        sigma = config.default_sigma_lab
        cov = np.diag([(1.6 * sigma) ** 2, sigma ** 2, sigma ** 2])  # lightness varies most
        return cls(means, np.repeat(cov[None], len(CLASSES), axis=0))

    def distances(self, lab: np.ndarray) -> np.ndarray:
        """(N, k) Mahalanobis distances of N Lab pixels to every class."""
        pixels = lab.reshape(-1, 3).astype(np.float32)
        out = np.empty((len(pixels), len(self.classes)), np.float32)
        # every class's whitening in one stacked call (numpy's per-call cost of two 3×3
        # factorisations per class was a third of this, on the few hundred bins a scan adapts on)
        whitens = np.linalg.inv(np.linalg.cholesky(self.covs)).transpose(0, 2, 1).astype(np.float32)
        means = self.means.astype(np.float32)
        for k, whiten in enumerate(whitens):
            z = (pixels - means[k]) @ whiten
            out[:, k] = np.sqrt(np.einsum("ni,ni->n", z, z))
        return out

    def classify(self, lab: np.ndarray, config: ColourConfig = DEFAULT_CONFIG.colour) -> np.ndarray:
        """Class index per pixel (shape of lab[..., 0]); UNKNOWN beyond max_distance."""
        d = self.distances(lab)
        labels = d.argmin(axis=1)
        labels[d[np.arange(len(d)), labels] > config.max_distance] = UNKNOWN
        return labels.reshape(lab.shape[:-1])

    def lookup_table(self, config: ColourConfig = DEFAULT_CONFIG.colour, present: np.ndarray | None = None
                     ) -> np.ndarray:
        """Class of every BGR bin: classifying a frame is then one table look-up per pixel.
        `present` (a bool per bin) limits the work to the bins a frame uses; the others stay UNKNOWN."""
        if present is None:
            return self.classify(BIN_LAB, config).astype(np.int8)
        table = np.full(len(BIN_LAB), UNKNOWN, np.int8)
        table[present] = self.classify(BIN_LAB[present], config)
        return table

    def classify_bgr(self, image_bgr: np.ndarray, config: ColourConfig = DEFAULT_CONFIG.colour) -> np.ndarray:
        return self.lookup_table(config)[bgr_bins(image_bgr)]

    def adapt(self, bins: np.ndarray, config: ColourConfig = DEFAULT_CONFIG.colour) -> "ColourProfile":
        """Re-learn the Gaussians from a histogram of the board's own pixels, keeping
        only those the current profile is sure of (MT 2.02.d: the light changes,
        the colours stay)."""
        counts = np.bincount(bins.ravel(), minlength=len(BIN_LAB)).astype(np.float64)
        occupied = counts > 0
        lab, weight = BIN_LAB[occupied], counts[occupied]
        profile = self
        for _ in range(config.adapt_iterations):
            d = profile.distances(lab)
            best = d.argmin(axis=1)
            sure = d[np.arange(len(d)), best] < config.adapt_sure_distance
            profile = profile.learn_weighted(lab, np.where(sure, best, UNKNOWN), weight,
                                             spread_scale=1.0 / truncated_variance_ratio(config.adapt_sure_distance))
        return profile

    def learn_weighted(self, lab: np.ndarray, labels: np.ndarray, weight: np.ndarray, *, min_weight: float = 30,
                       prior_weight: float = 0.05, spread_scale: float = 1.0) -> "ColourProfile":
        """A new profile re-estimated from labelled Lab histogram bins (with their pixel
        counts); classes with too few pixels keep their current Gaussian. `spread_scale`
        undoes the shrinking of a covariance measured on a truncated sample."""
        means, covs = self.means.copy(), self.covs.copy()
        for k in range(len(self.classes)):
            pick = labels == k
            w = weight[pick]
            total = w.sum()
            if total < min_weight:
                continue
            values = lab[pick]
            means[k] = (values * w[:, None]).sum(axis=0) / total
            if len(w) > 1:   # np.cov's weighted estimate (aweights, ddof 1), without its 0.2 ms of checks
                centred = values - means[k]
                spread = spread_scale * ((centred * w[:, None]).T @ centred) / (total - (w * w).sum() / total)
            else:
                spread = np.zeros((3, 3))
            covs[k] = (1 - prior_weight) * spread + prior_weight * self.covs[k] + _COV_FLOOR
        return ColourProfile(means, covs, self.classes)

    # -- persistence ---------------------------------------------------
    def to_dict(self) -> dict:
        return {"space": "CIELAB (L 0..100) after white balance on the paper",
                "classes": {c: {"mean": self.means[k].round(3).tolist(), "cov": self.covs[k].round(4).tolist()}
                            for k, c in enumerate(self.classes)}}

    @classmethod
    def from_dict(cls, data: dict) -> "ColourProfile":
        classes = data["classes"]
        names = tuple(classes)
        if set(names) != set(CLASSES):
            raise ValueError(f"colour profile classes {sorted(names)} != {sorted(CLASSES)}")
        return cls(np.array([classes[c]["mean"] for c in CLASSES], float),
                   np.array([classes[c]["cov"] for c in CLASSES], float))


def truncated_variance_ratio(radius: float) -> float:
    """Variance of a 3-D Gaussian kept only within Mahalanobis `radius`, per axis, as a
    share of the full variance: E[χ²₃ | χ²₃ ≤ r²] / 3 = P(χ²₅ ≤ r²) / P(χ²₃ ≤ r²). Learning
    a class from the pixels it is sure of sees only that core: without this correction
    every re-learning shrinks the class, and a colour a little off in one corner of the
    board (light not quite even) falls out of every class."""
    x = radius * radius
    inside3 = math.erf(math.sqrt(x / 2)) - math.sqrt(2 * x / math.pi) * math.exp(-x / 2)
    inside5 = inside3 - (x / 2) ** 1.5 * math.exp(-x / 2) / (0.75 * math.sqrt(math.pi))
    return inside5 / inside3 if inside3 > 0 else 1.0


BIN_LAB = _bin_lab()
_COV_FLOOR = np.diag([9.0, 6.0, 6.0])  # never collapse: noise, print texture and the 8-level bins


def illumination_field(image_bgr: np.ndarray, paper_mask: np.ndarray, *, percentile: float = 90.0,
                       iterations: int = 3, extrapolate: bool = True, min_brightness: float = 0.0
                       ) -> np.ndarray | None:
    """Per-pixel paper colour (H, W, 3) fitted as a quadratic surface to the pixels of
    `paper_mask`; ink of labels and smudges are dropped by robust re-fitting. Without
    `extrapolate` the field stays within the light it was fitted on: a quadratic bends
    away fast beyond its samples (a corner of coloured squares far from any white one
    would be lit to a glare and its red read white). `min_brightness` (share of the
    brightest samples) keeps dark samples out of the first fit: where black squares
    outnumber white ones, a top percentile alone would take black ink for dim paper."""
    h, w = paper_mask.shape
    # flat indices, then rows and columns of the samples kept only (np.nonzero's two index arrays
    # over the whole mask cost 4× more: 0.6 ms of a 1080p scan)
    flat = np.flatnonzero(paper_mask)
    step = max(1, len(flat) // 4000)  # a few thousand samples fit a quadratic surface well
    ys, xs = np.divmod(flat[::step], w)
    if len(xs) < 50:
        return None
    values = image_bgr[ys, xs].astype(np.float32)
    u, v = xs / w - 0.5, ys / h - 0.5
    design = np.stack([np.ones_like(u), u, v, u * v, u * u, v * v], axis=1).astype(np.float32)
    bright = values.sum(axis=1)
    keep = (bright >= np.percentile(bright, 100 - percentile)) & (bright >= min_brightness * np.percentile(bright, 99))
    coef = None
    for _ in range(iterations):
        if keep.sum() < 30:
            break
        a = design[keep]
        coef = np.linalg.solve(a.T @ a + 1e-6 * np.eye(a.shape[1]), a.T @ values[keep])
        fitted = design @ coef
        keep = (bright >= 0.85 * fitted.sum(axis=1))
    if coef is None:
        return None
    field = _quadratic_surface(coef.astype(np.float32), h, w)
    if not extrapolate:
        seen = design[keep] @ coef if keep.sum() else design @ coef
        low, high = seen.min(axis=0).astype(np.float32), seen.max(axis=0).astype(np.float32)
        for k in range(3):   # a channel at a time: clipping to bounds broadcast over the short last axis took 1.5 ms
            np.clip(field[..., k], low[k], high[k], out=field[..., k])
    return np.maximum(field, 8.0, out=field)


def _quadratic_surface(c: np.ndarray, h: int, w: int) -> np.ndarray:
    """The fitted surface (h, w, 3) float32 at every pixel as one product of rank 3: each pixel's
    value is (1, v, v²) of its row times (c0 + c1·u + c4·u², c2 + c3·u, c5) of its column, so a
    (h, 3) by (3, w·3) `cv2.gemm` writes it in one pass. Broadcasting term by term over the
    (h, w, 3) array (its short last axis) took 2.4 ms of a 1080p scan, this 0.7 ms; the sums
    differ from those in the last float32 bit only."""
    gu = ((np.arange(w) + 0.5) / w - 0.5).astype(np.float32)[:, None]
    gv = ((np.arange(h) + 0.5) / h - 0.5).astype(np.float32)
    rows = np.stack([np.ones_like(gv), gv, gv * gv], axis=1)                            # (h, 3)
    columns = np.stack([c[0] + gu * c[1] + gu * gu * c[4], c[2] + gu * c[3], np.broadcast_to(c[5], (w, 3))])
    # (the cv2 stubs do not allow src3=None, which OpenCV takes for "no third matrix")
    surface = cv2.gemm(rows, np.ascontiguousarray(columns.reshape(3, -1)), 1.0, None, 0.0)  # type: ignore[call-overload]
    return np.asarray(surface).reshape(h, w, 3)


def white_balance(image_bgr: np.ndarray, field: np.ndarray) -> np.ndarray:
    """Divide out the illumination so that paper is white (float32, 0..255)."""
    return image_bgr.astype(np.float32) * (255.0 / field)


def white_patch_field(image_bgr: np.ndarray, percentile: float) -> np.ndarray:
    """Uniform illumination from the brightest pixels, for boards with no paper margin."""
    level = np.percentile(image_bgr.reshape(-1, 3), percentile, axis=0).astype(np.float32)
    return np.broadcast_to(np.maximum(level, 8.0), image_bgr.shape).astype(np.float32)


@dataclass
class Calibration:
    """What `tactical calibrate` saves: the board size, the camera pose (the plain homography, and
    the lens when the photo showed one: `mapping`) and the colour profile learnt under this light."""

    width: int
    height: int
    homography: np.ndarray
    profile: ColourProfile
    source: str = ""
    lens: RadialLens | None = None            # calibration.mapping: the camera's radial lens, or None
    lens_homography: np.ndarray | None = None  # grid units -> pinhole pixels under that lens

    FILE_NAME = "calibration.json"

    @property
    def mapping(self) -> GridMapping:
        return GridMapping(self.homography, self.lens, self.lens_homography)

    @classmethod
    def from_scan(cls, result, source: str = "") -> "Calibration":
        """The calibration of a scan that found its board (`vision.scan`'s ScanResult)."""
        mapping = result.mapping
        return cls(result.width, result.height, mapping.homography, result.profile, source, mapping.lens,
                   mapping.lens_homography)

    def save(self, directory: Path) -> Path:
        directory = Path(directory)
        directory.mkdir(parents=True, exist_ok=True)
        path = directory / self.FILE_NAME
        geometry = self.mapping.to_dict()
        path.write_text(json.dumps({"grid": {"width": self.width, "height": self.height},
                                    "homography": geometry["homography"], "lens": geometry["lens"],
                                    "source": self.source, "colour_profile": self.profile.to_dict()},
                                   indent=1), encoding="utf-8")
        return path

    @classmethod
    def load(cls, directory: Path) -> "Calibration":
        path = Path(directory) / cls.FILE_NAME
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            mapping = GridMapping.from_dict(data)   # a calibration saved before lenses has no "lens": none
            return cls(int(data["grid"]["width"]), int(data["grid"]["height"]), mapping.homography,
                       ColourProfile.from_dict(data["colour_profile"]), str(data.get("source", "")),
                       mapping.lens, mapping.lens_homography)
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise ValueError(f"{path}: not a usable calibration ({exc})") from None


def default_calibration_dir() -> Path:
    """Per-user data directory (XDG_DATA_HOME on Linux), where calibrations live by default."""
    import os

    base = os.environ.get("XDG_DATA_HOME") or (Path.home() / ".local" / "share")
    return Path(base) / "magic-tactical" / "calibration"
