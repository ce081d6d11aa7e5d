"""Line evidence for the markerless grid finder: segments, vanishing points, lattice period.

Pure geometry on line segments (no decisions about the board's extent): the
finder in `calibration.grid_finder` chains these steps. Coordinates are pixels
of the working (downscaled) image unless said otherwise.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from calibration.lens import LineEvidence
from calibration.mapping import from_resized


@dataclass(frozen=True)
class Segments:
    """Line segments as endpoint arrays, with derived quantities kept together."""
    p: np.ndarray       # (n, 2) first endpoints
    q: np.ndarray       # (n, 2) second endpoints
    clarity: np.ndarray | None = None   # (n,) 0..1: how sharp an edge each is in the photo (None: all 1)

    @property
    def length(self) -> np.ndarray:
        return np.hypot(*(self.q - self.p).T)

    @property
    def weight(self) -> np.ndarray:
        """Evidence of a line: length times clarity (a table's grain or a cloth's weave
        gives many long but soft segments; printed and drawn lines are sharp)."""
        return self.length if self.clarity is None else self.length * self.clarity

    @property
    def angle(self) -> np.ndarray:
        """Undirected angle in [0, pi)."""
        d = self.q - self.p
        return np.mod(np.arctan2(d[:, 1], d[:, 0]), np.pi)

    @property
    def mid(self) -> np.ndarray:
        return (self.p + self.q) / 2

    def subset(self, mask: np.ndarray) -> "Segments":
        return Segments(self.p[mask], self.q[mask], None if self.clarity is None else self.clarity[mask])

    def __len__(self) -> int:
        return len(self.p)


LSD_SCALE = 0.8   # the copy OpenCV's LSD reads (its default `scale`)
# LSD maps its segments back from that copy by dividing by the scale alone, which leaves the copy's 0 at 0; by
# pixel centres (`calibration.mapping.from_resized`) it lies here, and every point as far down and right of it
LSD_OFFSET_PX = float(from_resized(0.0, LSD_SCALE))


def detect_segments(gray: np.ndarray, min_length: float) -> Segments:
    """LSD segments longer than `min_length` px, in the photo's pixel centres. LSD needs no thresholds tuned per
    photo, which matters for faint pencil grids as much as for printed ones. Its segments are put back the
    `LSD_OFFSET_PX` its reduced copy moves them (a step edge at 99.5 is reported at 99.375): on a lined 10×8 grid
    at 4000×3000 every crossing 0.5 px up and left before, 0.05–0.11 px off after (issue 28, stop 69)."""
    lsd = cv2.createLineSegmentDetector(cv2.LSD_REFINE_STD, LSD_SCALE)
    found = lsd.detect(gray)[0]
    if found is None:
        return Segments(np.zeros((0, 2)), np.zeros((0, 2)))
    xy = found.reshape(-1, 4).astype(np.float64) + LSD_OFFSET_PX
    segs = Segments(xy[:, :2], xy[:, 2:])
    return segs.subset(segs.length >= min_length)


def homogeneous_lines(segs: Segments) -> np.ndarray:
    """(n, 3) lines through each segment, scaled so that (a, b) is a unit normal."""
    ones = np.ones((len(segs), 1))
    lines = np.cross(np.hstack([segs.p, ones]), np.hstack([segs.q, ones]))
    return lines / np.linalg.norm(lines[:, :2], axis=1, keepdims=True)


def dominant_angles(segs: Segments, min_separation_deg: float, count: int) -> list[float]:
    """Up to `count` strongest undirected orientations (weighted circular histogram,
    peaks at least `min_separation_deg` apart), strongest first."""
    if len(segs) < 4:
        return []
    bins = 180
    hist = np.bincount((segs.angle / np.pi * bins).astype(int) % bins, weights=segs.weight, minlength=bins)
    kernel = np.exp(-0.5 * (np.arange(-6, 7) / 2.0) ** 2)
    smooth = np.convolve(np.concatenate([hist[-6:], hist, hist[:6]]), kernel, mode="same")[6:-6]
    peaks: list[float] = []
    for _ in range(count):
        k = int(np.argmax(smooth))
        if smooth[k] <= 0:
            break
        peaks.append((k + 0.5) * np.pi / bins)
        dist = np.abs((np.arange(bins) - k + bins / 2) % bins - bins / 2)
        smooth = np.where(dist < min_separation_deg, 0.0, smooth)
    return peaks


def angle_to_point(segs: Segments, vp: np.ndarray) -> np.ndarray:
    """Angle (rad, 0..pi/2) between each segment and the direction from its midpoint
    to the homogeneous point `vp` (a direction when vp[2] == 0); vp may be (k, 3),
    giving (k, n) angles."""
    vps = np.atleast_2d(vp)
    d = segs.q - segs.p
    mid = segs.mid
    # direction from midpoint m to v = (vx, vy, vw): (vx - vw * mx, vy - vw * my), valid at infinity too
    tx = vps[:, 0:1] - vps[:, 2:3] * mid[None, :, 0]
    ty = vps[:, 1:2] - vps[:, 2:3] * mid[None, :, 1]
    cross = np.abs(d[None, :, 0] * ty - d[None, :, 1] * tx)
    dot = np.abs(d[None, :, 0] * tx + d[None, :, 1] * ty)
    out = np.arctan2(cross, dot)
    return out[0] if np.ndim(vp) == 1 else out


def angle_tolerance(segs: Segments, tol_rad: float, endpoint_px: float = 0.5) -> np.ndarray:
    """Per-segment angular tolerance: `tol_rad`, or more for short segments, whose angle
    LSD knows only to about `endpoint_px` at each end."""
    return np.maximum(tol_rad, np.arctan2(endpoint_px, segs.length / 2))


def vanishing_point(segs: Segments, tol_rad: float, rng: np.random.Generator, iterations: int = 100) -> np.ndarray | None:
    """RANSAC vanishing point of one family of segments, refined by least squares.

    Returned as a unit homogeneous 3-vector in the coordinates of `segs`; may lie at
    infinity (a top-down photo). All hypotheses are scored at once (vectorised)."""
    n = len(segs)
    if n < 2:
        return None
    lines = homogeneous_lines(segs)
    w = segs.length
    pick = rng.choice(n, size=(iterations, 2), p=w / w.sum())
    pick = pick[pick[:, 0] != pick[:, 1]]
    hyp = np.cross(lines[pick[:, 0]], lines[pick[:, 1]])
    norm = np.linalg.norm(hyp, axis=1)
    hyp = hyp[norm > 1e-12] / norm[norm > 1e-12, None]
    if len(hyp) == 0:
        return None
    scores = (angle_to_point(segs, hyp) < angle_tolerance(segs, tol_rad)) @ w
    return refine_vanishing_point(segs, hyp[int(np.argmax(scores))], tol_rad)


def refine_vanishing_point(segs: Segments, vp: np.ndarray, tol_rad: float) -> np.ndarray:
    """Weighted least-squares point closest to the lines of the segments agreeing with `vp`."""
    lines = homogeneous_lines(segs)
    for _ in range(2):
        inl = angle_to_point(segs, vp) < angle_tolerance(segs, tol_rad)
        if inl.sum() < 2:
            break
        m = (lines[inl] * segs.length[inl, None]).T @ lines[inl]
        vp = np.linalg.eigh(m)[1][:, 0]
    return vp


def rectifying_transform(vp_a: np.ndarray, vp_b: np.ndarray) -> np.ndarray | None:
    """Image -> plane coordinates where lines through vp_a are horizontal and lines
    through vp_b are vertical (an affine rectification, then an un-shear)."""
    horizon = np.cross(vp_a, vp_b)
    if abs(horizon[2]) < 1e-9 * np.linalg.norm(horizon):
        return None
    horizon = horizon / horizon[2]
    to_affine = np.array([[1.0, 0, 0], [0, 1.0, 0], horizon])
    da, db = to_affine @ vp_a, to_affine @ vp_b
    basis = np.array([[da[0], db[0]], [da[1], db[1]]])
    if abs(np.linalg.det(basis)) < 1e-12:
        return None
    unshear = np.eye(3)
    unshear[:2, :2] = np.linalg.inv(basis)
    return unshear @ to_affine


def apply_h(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Apply a 3x3 homography to (n, 2) points."""
    ph = np.hstack([pts, np.ones((len(pts), 1))]) @ h.T
    return ph[:, :2] / ph[:, 2:3]


def line_positions(pos: np.ndarray, weight: np.ndarray, separation: float
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Distinct lines among 1-D segment positions: peaks of the weighted histogram at
    least `separation` apart, each with its share (0..1] of a typical line's weight, and
    its weight relative to a typical line, uncapped (which lines are the longest).

    Counting lines rather than segments keeps a band of clutter (a frame's ridges,
    printed coordinates) from outvoting the grid's lines."""
    lo, hi = pos.min(), pos.max()
    step = separation / 4
    n = int((hi - lo) / step) + 3
    binned = np.bincount(np.round((pos - lo) / step).astype(int) + 1, weights=weight, minlength=n)
    hist = np.convolve(binned, [0.25, 0.5, 0.25], mode="same")
    order = np.argsort(-hist)
    taken = np.zeros(n, bool)
    peaks = []
    for k in order:
        if hist[k] <= 0:
            break
        if not taken[max(0, k - 3): k + 4].any():
            peaks.append(k)
        taken[k] = True
    centres = lo + (np.array(sorted(peaks), dtype=int) - 1) * step
    # each line at the weighted mean of the segments its peak absorbed (within the 3 bins
    # that kept other peaks away): the two sides of a thick ink line (LSD finds both) then
    # give its middle, not whichever side was longer
    order = np.argsort(pos)
    pos, weight = pos[order], weight[order]
    cum_w = np.concatenate([[0.0], np.cumsum(weight)])
    cum_wp = np.concatenate([[0.0], np.cumsum(weight * pos)])
    first = np.searchsorted(pos, centres - 3.5 * step)
    last = np.searchsorted(pos, centres + 3.5 * step)
    window = cum_w[last] - cum_w[first]
    lines = np.where(window > 0, (cum_wp[last] - cum_wp[first]) / np.maximum(window, 1e-12), centres)
    mass = window / max(np.median(window), 1e-12)
    return lines, np.minimum(1.0, mass), mass


def fit_comb(lines: np.ndarray, strength: np.ndarray, p_min: float, p_max: float,
             tol: float = 0.1, miss_cost: float = 1.0, max_seeds: int = 16, max_reach: int = 150,
             max_steps: int = 48, rank: np.ndarray | None = None) -> tuple[float, float, float, float]:
    """Equally spaced lattice (period, phase, quality, score) best explaining 1-D line positions.

    Hypotheses come from pairs of the `max_seeds` strongest lines (by `rank`, default
    `strength`), k = 1..`max_steps` steps apart: a pair of lines far apart gives the period
    precisely enough for the comb to stay on a long grid's lines. Along each hypothesis'
    lattice, a position scores the strength of the line on it (soft: clutter falls
    anywhere in the tolerance, true lines near its centre) or -`miss_cost` when empty;
    the hypothesis' score is its best run of consecutive positions (maximum subarray).
    So a half period (every other position empty), a double one (lines left out) and
    stray lines far from the grid all lose. Quality is the share of the run's positions
    holding a line. Lattice positions are counted up to `max_reach` steps from the
    hypothesis' first line (memory stays bounded when a position is far out)."""
    n = len(lines)
    if n < 2:
        return p_max, 0.0, 0.0, 0.0
    order_by = strength if rank is None else rank
    seeds = np.sort(np.argsort(-order_by, kind="stable")[:max_seeds])   # hypotheses from the strongest lines
    i, j = np.triu_indices(len(seeds), 1)
    i, j = seeds[i], seeds[j]
    ks = np.arange(1, max_steps + 1)
    periods = ((lines[j] - lines[i])[:, None] / ks[None, :]).ravel()
    phases = np.repeat(lines[i], len(ks))
    keep = (periods >= p_min) & (periods <= p_max)
    periods, phases = periods[keep], phases[keep]
    if len(periods) == 0:
        return p_max, 0.0, 0.0, 0.0
    # many pairs propose the same lattice: keep one per (period within 0.5 %, phase within 3 %)
    key = np.round(np.log(periods) / 0.005).astype(np.int64) * 64 + np.round((phases / periods) % 1.0 / 0.03).astype(np.int64) % 34
    _, first = np.unique(key, return_index=True)
    periods, phases = periods[first], phases[first]
    t = (lines[None, :] - phases[:, None]) / periods[:, None]
    reach = min(int(np.ceil((lines[-1] - lines[0]) / periods.min())) + 1, max_reach)
    idx = np.clip(np.round(t), -reach, reach)
    dist = np.abs(t - idx)
    hit = dist < tol                      # lines beyond `reach` steps are never hits
    value = np.where(hit, strength[None, :] * (1 - (dist / tol) ** 2), 0.0)
    slots = 2 * reach + 1
    flat = (np.arange(len(periods))[:, None] * slots + (idx.astype(int) + reach)).ravel()
    best_flat = np.zeros(len(periods) * slots)
    np.maximum.at(best_flat, flat, value.ravel())
    best_at = best_flat.reshape(len(periods), slots)
    gain = np.where(best_at > 0, best_at, -miss_cost)
    cum = np.concatenate([np.zeros((len(periods), 1)), np.cumsum(gain, axis=1)], axis=1)
    low = np.minimum.accumulate(cum, axis=1)
    run = cum[:, 1:] - low[:, :-1]                 # best run ending at each position
    h = int(np.argmax(run.max(axis=1)))
    end = int(np.argmax(run[h]))
    start = int(np.argmin(cum[h, : end + 1]))      # run covers positions start..end
    score = float(run[h, end])
    in_run = hit[h] & (idx[h] + reach >= start) & (idx[h] + reach <= end)
    if len(np.unique(idx[h, in_run])) < 2:   # lines on one lattice position say nothing of the period
        return p_max, 0.0, 0.0, 0.0
    a = np.stack([idx[h, in_run], np.ones(in_run.sum())], axis=1)
    (period, phase), *_ = np.linalg.lstsq(a, lines[in_run], rcond=None)
    if not p_min * 0.5 <= period <= p_max * 2:   # degenerate fit (near-coincident lines)
        return p_max, 0.0, 0.0, 0.0
    quality = float((best_at[h, start: end + 1] > 0).sum() / (end - start + 1))
    return float(period), float(phase), quality, score


def sample(image: np.ndarray, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """Bilinear samples of a float image (channels on the last axis of the result)
    at (xs, ys), NaN outside."""
    return sample_images([image], xs, ys)[0]


def sample_images(images: list[np.ndarray], xs: np.ndarray, ys: np.ndarray) -> list[np.ndarray]:
    """`sample` of each image at the same points, the points' maps laid out once (the edge scores
    sample two gradient images at every point). cv2.remap limits its maps to 32767 rows, so the
    points are laid out in rows of 1024."""
    n = xs.size
    rows = -(-n // 1024)
    pad = rows * 1024 - n
    mx = np.concatenate([xs.ravel(), np.full(pad, -1.0)]).astype(np.float32).reshape(rows, 1024)
    my = np.concatenate([ys.ravel(), np.full(pad, -1.0)]).astype(np.float32).reshape(rows, 1024)
    samples = []
    for image in images:
        out = cv2.remap(image, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=(np.nan,) * 4)
        channels = image.shape[2] if image.ndim == 3 else 1
        samples.append(out.reshape(rows * 1024, channels)[:n].reshape(*xs.shape, channels))
    return samples


def _refined_peak(profile: np.ndarray, at: np.ndarray) -> np.ndarray:
    """Sub-sample position of the peak of each row of `profile` found at index `at` (a parabola
    through it and its two neighbours)."""
    rows = np.arange(len(profile))
    inner = np.clip(at, 1, profile.shape[1] - 2)
    left, mid, right = profile[rows, inner - 1], profile[rows, inner], profile[rows, inner + 1]
    curve = left - 2 * mid + right
    with np.errstate(divide="ignore", invalid="ignore"):
        frac = np.where(np.abs(curve) > 1e-9, 0.5 * (left - right) / curve, 0.0)
    return inner + np.clip(frac, -0.5, 0.5)


def lines_seen(gradients: np.ndarray, image_of, rect: tuple[int, int, int, int], min_contrast: float,
               reach: float = 0.35, step: float = 0.25) -> LineEvidence | None:
    """Where each grid line of the rectangle (x0, x1, y0, y1) is in the photo, followed where it
    bends: every `step` square along it, the gradient across the line (`gradients`: (h, w, 2)
    x and y derivatives) is read within `reach` squares of where `image_of` (grid points (n, 2) ->
    pixels: a homography or a mapping through a lens) puts it. A printed line is a dark (or light)
    stripe: a falling and a rising edge within a quarter square of each other — its middle is
    between them, however thick the line; a colour border is one edge. A point counts when its
    edge stands clear of the profile (3× its median) and above `min_contrast`. Weight: that
    edge's contrast (mean 1)."""
    a0, a1, b0, b1 = rect
    samples = 29
    offsets = np.linspace(-reach, reach, samples)
    pair_reach = int(round(0.25 / (offsets[1] - offsets[0])))   # both sides of a line: a quarter square apart at most
    points, axes, values, weights = [], [], [], []
    for axis in (0, 1):
        lines = np.arange(a0, a1 + 1) if axis == 0 else np.arange(b0, b1 + 1)
        lo, hi = (b0, b1) if axis == 0 else (a0, a1)
        k, t = np.meshgrid(lines, np.arange(lo + step / 2, hi, step), indexing="ij")
        k, t = k.ravel().astype(float), t.ravel()
        base = np.stack([k, t], 1) if axis == 0 else np.stack([t, k], 1)
        across = np.zeros(2)
        across[axis] = 1.0
        probe = base[:, None, :] + offsets[None, :, None] * across   # grid units, across the line
        with np.errstate(divide="ignore", invalid="ignore"):
            pix = image_of(probe.reshape(-1, 2)).reshape(len(base), samples, 2)
        normal = pix[:, -1] - pix[:, 0]
        normal /= np.maximum(np.linalg.norm(normal, axis=1, keepdims=True), 1e-9)
        grads = sample(gradients, pix[..., 0], pix[..., 1])
        signed = np.nan_to_num(grads[..., 0] * normal[:, None, 0] + grads[..., 1] * normal[:, None, 1], nan=0.0)
        signed = (np.roll(signed, 1, axis=1) + 2 * signed + np.roll(signed, -1, axis=1)) / 4
        signed[:, [0, -1]] = 0.0
        rows = np.arange(len(signed))
        strength = np.abs(signed)
        top_at = np.argmax(strength, axis=1)
        top = strength[rows, top_at]
        up, down = np.argmax(signed, axis=1), np.argmin(signed, axis=1)
        paired = (signed[rows, up] >= 0.5 * top) & (-signed[rows, down] >= 0.5 * top) & (np.abs(up - down) <= pair_reach)
        where = np.where(paired, (_refined_peak(signed, up) + _refined_peak(-signed, down)) / 2,
                         _refined_peak(strength, top_at))
        clear = (top >= 3.0 * np.maximum(np.median(strength, axis=1), 0.5)) & (top >= min_contrast) \
            & np.isfinite(pix[:, [0, -1]].reshape(len(pix), -1)).all(axis=1)
        if not clear.any():
            continue
        at = where[clear]
        cell = np.clip(np.floor(at).astype(int), 0, samples - 2)
        frac = (at - cell)[:, None]
        chosen = pix[clear]
        idx = np.arange(len(chosen))
        points.append(chosen[idx, cell] * (1 - frac) + chosen[idx, cell + 1] * frac)
        axes.append(np.full(len(at), axis))
        values.append(k[clear])
        weights.append(top[clear])
    if not points:
        return None
    weight = np.concatenate(weights)
    return LineEvidence(np.concatenate(points), np.concatenate(axes), np.concatenate(values), weight / weight.mean())


def on_smooth_lines(evidence: LineEvidence, lattice_of, tolerance: float, min_points: int = 6,
                    degree: int = 3, rounds: int = 3) -> LineEvidence:
    """The points of `evidence` that lie on a smooth curve along their line (`lattice_of`: pixels
    (n, 2) -> grid units, the mapping the lines were read with): a lens bends a printed line
    smoothly, by a cubic along it at most; a colour border inside a square (a stripe a third of a
    square from the line), an obstacle's cross or a tint's edge read in its place jump off it.
    Per line, a weighted polynomial of the offset across (grid units) against the position along
    is fitted robustly (`rounds` times on the points kept: within 3 robust sigmas, but within 1 to
    3 × `tolerance` square); lines with fewer than `min_points` points say nothing of their shape
    and are dropped."""
    if len(evidence) == 0:
        return evidence
    with np.errstate(divide="ignore", invalid="ignore"):
        coords = lattice_of(evidence.points)
    rows = np.arange(len(evidence))
    across = coords[rows, evidence.axis] - evidence.value
    along = coords[rows, 1 - evidence.axis]
    line_id = np.unique(np.stack([evidence.axis, evidence.value], 1), axis=0, return_inverse=True)[1].ravel()
    lines = int(line_id.max()) + 1
    ok = np.isfinite(across) & np.isfinite(along)
    counts = np.bincount(line_id[ok], minlength=lines)
    keep = ok & (counts[line_id] >= min_points)
    if not keep.any():
        return evidence.subset(keep)
    # the position along each line scaled to -1..1 (a Legendre basis: a well-conditioned cubic)
    lo = np.full(lines, np.inf)
    hi = np.full(lines, -np.inf)
    np.minimum.at(lo, line_id[keep], along[keep])
    np.maximum.at(hi, line_id[keep], along[keep])
    t = np.clip(2 * (np.nan_to_num(along) - lo[line_id]) / np.maximum(hi - lo, 1e-9)[line_id] - 1, -1, 1)
    basis = np.polynomial.legendre.legvander(t, degree)                     # (n, degree + 1)
    ridge = 1e-6 * np.eye(degree + 1)
    for _ in range(rounds):
        w = np.where(keep, evidence.weight, 0.0)
        normal = np.zeros((lines, degree + 1, degree + 1))
        rhs = np.zeros((lines, degree + 1))
        np.add.at(normal, line_id, w[:, None, None] * basis[:, :, None] * basis[:, None, :])
        np.add.at(rhs, line_id, (w * np.nan_to_num(across))[:, None] * basis)
        coef = np.linalg.solve(normal + ridge, rhs[..., None])[..., 0]
        residual = np.abs(np.nan_to_num(across) - (basis * coef[line_id]).sum(axis=1))
        spread = np.zeros(lines)
        for k in np.unique(line_id[keep]):   # per line: 1.4826 × the median absolute residual
            spread[k] = 1.4826 * np.median(residual[keep & (line_id == k)])
        cutoff = np.clip(3 * spread, tolerance, 3 * tolerance)
        keep = ok & (counts[line_id] >= min_points) & (residual <= cutoff[line_id])
    kept = np.bincount(line_id[keep], minlength=lines)
    return evidence.subset(keep & (kept[line_id] >= min_points))
