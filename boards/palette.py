"""Printed colours of squares, chosen for people and for the camera.

Owned by printing (boards.render); read by vision as the prior for square
colours. Values are BGR (OpenCV order). See docs/printing.md for the reasons
and the measured separations.
"""
import numpy as np

SQUARE_BGR = {
    "W": (228, 240, 246),   # warm white, kept apart from the paper margin
    "U": (232, 112, 24),    # blue, bright enough to stay apart from black under warm light
    "B": (48, 44, 42),      # black (dark grey so that ink glyphs still show)
    "R": (64, 32, 208),     # red, a touch towards crimson: apart from grey under warm light
    "G": (16, 150, 36),     # green, yellowish: apart from blue under warm light
}
OBSTACLE_BGR = (150, 150, 150)  # uncoloured square (MT 2.03.a): neutral grey, hatched
PAPER_BGR = (255, 255, 255)
INK_BGR = (20, 20, 20)


# --- Measuring the palette (docs/printing.md) -------------------------------------------
# Pure numpy so that tests and `python -m boards.palette` can recompute the separation table.

SQUARE_NAMES = ("W", "U", "B", "R", "G", "obstacle")

# Blackbody colours in sRGB (Mitchell Charity's table): light that the board is seen under.
ILLUMINANT_SRGB = {"3000 K": (255, 180, 107), "8000 K": (227, 233, 255)}
PRINT_SATURATION = 0.75     # office inkjet/laser on plain paper: colours lose about a quarter of chroma
PRINT_BLACK = 0.03          # linear reflectance of solid black ink (L* ≈ 20)
PRINT_PAPER = 0.88          # linear reflectance of office paper (L* ≈ 95)
_SRGB_TO_XYZ = np.array([[0.4124564, 0.3575761, 0.1804375],
                         [0.2126729, 0.7151522, 0.0721750],
                         [0.0193339, 0.1191920, 0.9503041]])
_D65 = np.array([0.95047, 1.0, 1.08883])


def srgb_to_linear(rgb8) -> np.ndarray:
    c = np.asarray(rgb8, dtype=float) / 255.0
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def linear_to_lab(linear) -> np.ndarray:
    """Linear sRGB (…, 3) -> CIELAB under D65 (the camera's encoded image read as sRGB)."""
    xyz = np.clip(linear, 0.0, 1.0) @ _SRGB_TO_XYZ.T / _D65
    f = np.where(xyz > (6 / 29) ** 3, np.cbrt(xyz), xyz / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.stack([116 * f[..., 1] - 16, 500 * (f[..., 0] - f[..., 1]), 200 * (f[..., 1] - f[..., 2])], -1)


def delta_e_2000(lab1, lab2) -> np.ndarray:
    """CIEDE2000 colour difference (Sharma, Wu & Dalal 2005), broadcasting over leading axes."""
    L1, a1, b1 = np.moveaxis(np.asarray(lab1, dtype=float), -1, 0)
    L2, a2, b2 = np.moveaxis(np.asarray(lab2, dtype=float), -1, 0)
    c_mean = (np.hypot(a1, b1) + np.hypot(a2, b2)) / 2
    g = 0.5 * (1 - np.sqrt(c_mean ** 7 / (c_mean ** 7 + 25.0 ** 7)))
    a1p, a2p = a1 * (1 + g), a2 * (1 + g)
    c1p, c2p = np.hypot(a1p, b1), np.hypot(a2p, b2)
    h1p = np.degrees(np.arctan2(b1, a1p)) % 360
    h2p = np.degrees(np.arctan2(b2, a2p)) % 360
    dL, dC = L2 - L1, c2p - c1p
    dh = h2p - h1p
    dh = np.where(dh > 180, dh - 360, np.where(dh < -180, dh + 360, dh))
    dh = np.where(c1p * c2p == 0, 0.0, dh)
    dH = 2 * np.sqrt(c1p * c2p) * np.sin(np.radians(dh / 2))
    L_mean, cp_mean = (L1 + L2) / 2, (c1p + c2p) / 2
    h_sum = h1p + h2p
    h_mean = np.where(np.abs(h1p - h2p) > 180, np.where(h_sum < 360, h_sum + 360, h_sum - 360), h_sum) / 2
    h_mean = np.where(c1p * c2p == 0, h_sum, h_mean)
    t = (1 - 0.17 * np.cos(np.radians(h_mean - 30)) + 0.24 * np.cos(np.radians(2 * h_mean))
         + 0.32 * np.cos(np.radians(3 * h_mean + 6)) - 0.20 * np.cos(np.radians(4 * h_mean - 63)))
    s_l = 1 + 0.015 * (L_mean - 50) ** 2 / np.sqrt(20 + (L_mean - 50) ** 2)
    s_c = 1 + 0.045 * cp_mean
    s_h = 1 + 0.015 * cp_mean * t
    r_t = (-2 * np.sqrt(cp_mean ** 7 / (cp_mean ** 7 + 25.0 ** 7))
           * np.sin(np.radians(60 * np.exp(-(((h_mean - 275) / 25) ** 2)))))
    return np.sqrt((dL / s_l) ** 2 + (dC / s_c) ** 2 + (dH / s_h) ** 2 + r_t * (dC / s_c) * (dH / s_h))


def _printed(linear: np.ndarray) -> np.ndarray:
    """Print model: ink cannot go darker than PRINT_BLACK nor lighter than the paper, and loses chroma."""
    ranged = PRINT_BLACK + (PRINT_PAPER - PRINT_BLACK) * linear
    luma = ranged @ _SRGB_TO_XYZ[1]
    return luma[..., None] + PRINT_SATURATION * (ranged - luma[..., None])


def _gains(illuminant: str) -> np.ndarray:
    g = srgb_to_linear(ILLUMINANT_SRGB[illuminant])
    return g / g.max()


def _gray_world(linear: np.ndarray) -> np.ndarray:
    """The camera's gray-world white balance over the board squares (equal share of each colour):
    imperfect on purpose — a colourful board is not grey on average."""
    mean = linear.mean(axis=0)
    return linear * (mean.mean() / mean)


def palette_conditions(colours_bgr: dict[str, tuple[int, int, int]] | None = None) -> dict[str, np.ndarray]:
    """Lab of every square colour (rows in SQUARE_NAMES order) under each viewing condition.

    White-paper white balance cancels a channel-gain (von Kries) cast exactly, so it equals the
    plain "printed" row; gray-world and no balance at all are the harder cases."""
    bgr = colours_bgr or {**SQUARE_BGR, "obstacle": OBSTACLE_BGR}
    linear = srgb_to_linear([bgr[name][::-1] for name in SQUARE_NAMES])
    printed = _printed(linear)
    conditions = {"design (sRGB)": linear, "printed, daylight / white-paper balance": printed}
    for illuminant in ILLUMINANT_SRGB:
        lit = printed * _gains(illuminant)
        conditions[f"printed, {illuminant}, gray-world balance"] = _gray_world(lit)
        conditions[f"printed, {illuminant}, no balance"] = lit
    return {name: linear_to_lab(values) for name, values in conditions.items()}


def separation_table(colours_bgr=None) -> dict[str, np.ndarray]:
    """ΔE2000 between every pair of square colours (matrix in SQUARE_NAMES order) per condition."""
    return {name: delta_e_2000(lab[:, None, :], lab[None, :, :])
            for name, lab in palette_conditions(colours_bgr).items()}


def minimum_separation(colours_bgr=None) -> tuple[float, str, str, str]:
    """The closest pair over all conditions: (ΔE2000, condition, colour, colour)."""
    worst = (float("inf"), "", "", "")
    for condition, table in separation_table(colours_bgr).items():
        masked = table + np.diag(np.full(len(SQUARE_NAMES), np.inf))
        i, j = np.unravel_index(np.argmin(masked), masked.shape)
        if masked[i, j] < worst[0]:
            worst = (float(masked[i, j]), condition, SQUARE_NAMES[i], SQUARE_NAMES[j])
    return worst


def format_separation_table(colours_bgr=None) -> str:
    """The Markdown table of docs/printing.md: minimum and per-pair ΔE2000 per condition."""
    pairs = [(i, j) for i in range(len(SQUARE_NAMES)) for j in range(i + 1, len(SQUARE_NAMES))]
    short = {"obstacle": "grey"}
    head = "| condition | min | " + " | ".join(
        f"{short.get(SQUARE_NAMES[i], SQUARE_NAMES[i])}–{short.get(SQUARE_NAMES[j], SQUARE_NAMES[j])}"
        for i, j in pairs) + " |"
    lines = [head, "|" + "---|" * (len(pairs) + 2)]
    for condition, table in separation_table(colours_bgr).items():
        values = [table[i, j] for i, j in pairs]
        lines.append(f"| {condition} | **{min(values):.1f}** | " + " | ".join(f"{v:.0f}" for v in values) + " |")
    return "\n".join(lines)


if __name__ == "__main__":
    print(format_separation_table())
    print("closest pair: ΔE2000 %.1f under '%s' (%s vs %s)" % minimum_separation())
