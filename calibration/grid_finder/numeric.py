"""Small numeric helpers shared by the finder's stages (no image, no threshold)."""
from __future__ import annotations

import numpy as np


def weighted_percentiles(values: np.ndarray, weights: np.ndarray, percents: tuple[float, ...]) -> np.ndarray:
    """Percentiles of `values` where each counts with its weight."""
    order = np.argsort(values)
    cum = np.cumsum(weights[order])
    if cum[-1] <= 0:
        return np.percentile(values, percents)
    return values[order][np.searchsorted(cum, np.array(percents) / 100 * cum[-1]).clip(0, len(values) - 1)]


def hartley_normaliser(pts: np.ndarray) -> np.ndarray:
    """Hartley normalisation: centre the points, mean distance sqrt(2)."""
    c = pts.mean(axis=0)
    s = np.sqrt(2) / max(np.mean(np.linalg.norm(pts - c, axis=1)), 1e-9)
    return np.array([[s, 0, -s * c[0]], [0, s, -s * c[1]], [0, 0, 1]])


def well_conditioned(h: np.ndarray) -> bool:
    """Is this 3x3 map finite and safely invertible (a lattice both ways)?"""
    return bool(np.all(np.isfinite(h)) and np.linalg.cond(h) <= 1e12)
