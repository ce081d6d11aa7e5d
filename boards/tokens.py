"""The printed token: player colour, a big number for people, an ArUco code for the camera.

A token is a disc ≈17.5 mm across that sits inside a 2 cm square (MT 2.05).
Layout, in fractions of the diameter D (see docs/tokens.md for the measured trade-off):

* the whole disc is the player colour, with a thin ink edge: people tell players apart by colour
  and the camera cross-checks the decoded id against it;
* a white square in the upper part holds an ArUco 4×4 marker (`boards.markers.ARUCO_DICTIONARY`)
  whose id encodes player AND number; the decoder gives identity and orientation robustly;
* the number, as large as the lower segment allows, printed upright relative to the marker;
* a white notch at the top edge: the orientation mark people see (the marker's "up").

This module holds the id scheme and the layout without importing cv2; only `render_token`
(rendering) uses cv2, imported there.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from boards.markers import ARUCO_DICTIONARY, BOARD_MARKER_IDS
from boards.palette import INK_BGR

PLAYER_COUNT = 5
MAX_NUMBER = 40                       # numbers 1..40 per player
TOKEN_MARKER_BASE = BOARD_MARKER_IDS.stop  # 50: first id above the board markers
TOKEN_MARKER_IDS = range(TOKEN_MARKER_BASE, TOKEN_MARKER_BASE + PLAYER_COUNT * MAX_NUMBER)  # 50..249
TOKEN_DIAMETER_MM = 17.5              # printed diameter, inside a 20 mm square

# Player colours, BGR, players 1..5 in this order. Chosen apart from each other and from the
# square colours of boards.palette; weakest Lab (ΔE76) pairs, measured by `colour_separations`:
# cyan–grey obstacle 39.2, purple–blue square 40.1, pink–purple 42.4, yellow–orange 48.1,
# cyan–white square 48.9. The ArUco id, not the colour, decides identity; colour is a cross-check.
PLAYER_COLOURS: tuple[tuple[int, int, int], ...] = (
    (20, 205, 245),    # 1 yellow
    (170, 60, 235),    # 2 pink (magenta)
    (10, 125, 250),    # 3 orange
    (215, 190, 20),    # 4 cyan
    (150, 40, 115),    # 5 purple
)
PLAYER_NAMES: dict[str, list[str]] = {
    "fr": ["jaune", "rose", "orange", "cyan", "violet"],
    "en": ["yellow", "pink", "orange", "cyan", "purple"],
}


@dataclass(frozen=True)
class TokenLayout:
    """Where things sit on a token, in fractions of its diameter, origin at the centre, y down.

    The detector uses the same numbers to find the colour area and the token centre from a
    decoded marker, so printing and reading agree by construction.
    """

    cell: float = 0.078          # one ArUco cell; the marker is 6 cells (4 data + black border)
    marker_centre_y: float = -0.12
    edge: float = 0.018          # ink outline width
    notch: float = 0.07          # height of the orientation notch at the top edge
    number_top: float = 0.175    # number box, below the marker's white quiet zone
    number_bottom: float = 0.43
    number_half_width: float = 0.22

    @property
    def marker_side(self) -> float:
        return 6 * self.cell

    @property
    def quiet_side(self) -> float:
        """White square around the marker: half a cell each side is enough for the decoder to
        see the black border, and every saved fraction makes the cells bigger."""
        return 7 * self.cell


LAYOUT = TokenLayout()


def _check_player(player: int) -> None:
    if not 1 <= player <= PLAYER_COUNT:
        raise ValueError(f"player must be 1..{PLAYER_COUNT}, got {player}")


def token_marker_id(player: int, number: int) -> int:
    """ArUco id printed on token (player, number): 50 + (player-1)*40 + (number-1).

    MT 1.03: every token is numbered and tells its player apart; the id carries both."""
    _check_player(player)
    if not 1 <= number <= MAX_NUMBER:
        raise ValueError(f"token number must be 1..{MAX_NUMBER}, got {number}")
    return TOKEN_MARKER_BASE + (player - 1) * MAX_NUMBER + (number - 1)


def token_from_marker_id(marker_id: int) -> tuple[int, int] | None:
    """(player, number) for a token marker id, None for any other id (board markers included)."""
    if marker_id not in TOKEN_MARKER_IDS:
        return None
    player, number = divmod(marker_id - TOKEN_MARKER_BASE, MAX_NUMBER)
    return player + 1, number + 1


def player_name(player: int, lang: str = "en") -> str:
    """'red', 'rouge'... for messages; unknown languages fall back to English."""
    _check_player(player)
    return PLAYER_NAMES.get(lang, PLAYER_NAMES["en"])[player - 1]


def number_ink(player: int) -> tuple[int, int, int]:
    """Ink for the number: dark on light player colours, white on dark ones, for contrast."""
    _check_player(player)
    b, g, r = PLAYER_COLOURS[player - 1]
    luma = 0.114 * b + 0.587 * g + 0.299 * r
    return INK_BGR if luma > 110 else (255, 255, 255)


def colour_separations() -> list[tuple[float, str, str]]:
    """CIE76 ΔE between every player colour and every other player/square colour, weakest first.

    Pure numpy sRGB→Lab (D65) so it runs without cv2; used by tests and docs/tokens.md.
    """
    from boards.palette import OBSTACLE_BGR, SQUARE_BGR

    named = {f"player {PLAYER_NAMES['en'][i]}": c for i, c in enumerate(PLAYER_COLOURS)}
    squares = {f"square {k}": v for k, v in SQUARE_BGR.items()} | {"square obstacle": OBSTACLE_BGR}
    labs = {name: bgr_to_lab(c) for name, c in (named | squares).items()}
    pairs = []
    names = list(named)
    for i, a in enumerate(names):
        for b in names[i + 1:] + list(squares):
            pairs.append((float(np.linalg.norm(labs[a] - labs[b])), a, b))
    return sorted(pairs)


def bgr_to_lab(bgr) -> np.ndarray:
    """sRGB (BGR order, 0..255) to CIE Lab D65; works on one colour or an (..., 3) array."""
    c = np.asarray(bgr, dtype=float)[..., ::-1] / 255.0
    lin = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    m = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]])
    xyz = lin @ m.T / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > 0.008856, np.cbrt(xyz), 7.787 * xyz + 16 / 116)
    return np.stack([116 * f[..., 1] - 16, 500 * (f[..., 0] - f[..., 1]), 200 * (f[..., 1] - f[..., 2])], axis=-1)


def render_token(player: int, number: int, diameter_px: int) -> np.ndarray:
    """The token as printed, BGRA with alpha 0 outside the disc (MT 2.05 token: colour + number).

    Drawn 4× larger then reduced with area averaging, so edges are anti-aliased like a print.
    """
    import cv2  # rendering only: boards stays importable without OpenCV

    marker_id = token_marker_id(player, number)
    if diameter_px < 8:
        raise ValueError(f"diameter_px must be at least 8, got {diameter_px}")
    scale = 4 if diameter_px < 600 else 1
    big = diameter_px * scale
    lay = LAYOUT
    centre = big / 2.0

    def px(v: float) -> int:
        return int(round(centre + v * big))

    canvas: np.ndarray = np.zeros((big, big, 3), np.uint8)   # (cv2.resize below may replace them)
    alpha: np.ndarray = np.zeros((big, big), np.uint8)
    radius = big / 2.0
    cv2.circle(alpha, (int(centre), int(centre)), int(radius), 255, -1, cv2.LINE_AA)
    cv2.circle(canvas, (int(centre), int(centre)), int(radius), INK_BGR, -1, cv2.LINE_AA)
    cv2.circle(canvas, (int(centre), int(centre)), int(radius - lay.edge * big), PLAYER_COLOURS[player - 1], -1,
               cv2.LINE_AA)

    # Orientation notch: a white triangle pointing out of the top edge.
    tip = -0.5 + lay.edge
    notch = np.array([[px(0), px(tip)], [px(-lay.notch * 0.8), px(tip + lay.notch)],
                      [px(lay.notch * 0.8), px(tip + lay.notch)]], np.int32)
    cv2.fillConvexPoly(canvas, notch, (255, 255, 255), cv2.LINE_AA)

    # White quiet zone, then the marker, cell-aligned.
    q = lay.quiet_side / 2
    my = lay.marker_centre_y
    cv2.rectangle(canvas, (px(-q), px(my - q)), (px(q), px(my + q)), (255, 255, 255), -1)
    side = px(lay.marker_side / 2) - px(-lay.marker_side / 2)
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, ARUCO_DICTIONARY))
    marker = cv2.aruco.generateImageMarker(dictionary, marker_id, 6)
    marker = cv2.resize(marker, (side, side), interpolation=cv2.INTER_NEAREST)
    x0, y0 = px(-lay.marker_side / 2), px(my - lay.marker_side / 2)
    canvas[y0:y0 + side, x0:x0 + side] = marker[..., None]

    # The number, as large as its box allows.
    text = str(number)
    font, thickness_frac = cv2.FONT_HERSHEY_DUPLEX, 0.11
    box_h = (lay.number_bottom - lay.number_top) * big
    box_w = 2 * lay.number_half_width * big
    (tw, th), _ = cv2.getTextSize(text, font, 1.0, 1)
    font_scale = min(box_h / th, box_w / tw) * 0.85
    thickness = max(1, int(round(thickness_frac * box_h)))
    (tw, th), _ = cv2.getTextSize(text, font, font_scale, thickness)
    font_scale *= min(box_h / (th + thickness), box_w / (tw + thickness))
    (tw, th), _ = cv2.getTextSize(text, font, font_scale, thickness)
    mid_y = centre + (lay.number_top + lay.number_bottom) / 2 * big
    origin = (int(round(centre - tw / 2)), int(round(mid_y + th / 2)))
    cv2.putText(canvas, text, origin, font, font_scale, number_ink(player), thickness, cv2.LINE_AA)

    if scale != 1:
        canvas = cv2.resize(canvas, (diameter_px, diameter_px), interpolation=cv2.INTER_AREA)
        alpha = cv2.resize(alpha, (diameter_px, diameter_px), interpolation=cv2.INTER_AREA)
    canvas[alpha == 0] = 0
    return np.dstack([canvas, alpha])
