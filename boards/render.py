"""Render a board to the exact image that gets printed (MT 1.02.b, 2.02.d, 2.03.c, 2.04).

The image holds the white margin of `boards.markers.MARGIN` squares around the
grid, the coordinates in the label band on all four sides and the ArUco markers
at `boards.markers.board_markers` — the printing side of the contract with
calibration. Pixel convention: pixel (i, j) covers [i, i+1) × [j, j+1), so grid
point (gx, gy) is at `origin + (gx, gy) * px_per_square` exactly (subtract 0.5
for OpenCV's pixel-centre convention).

Every distinct square is drawn once as a tile and the grid is assembled by numpy
indexing, so a 40×25 board at 100 px/square renders in about 0.2 s.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from boards.markers import ARUCO_DICTIONARY, LABEL_BAND, MARGIN, board_markers
from boards.model import Board, Square, column_label, order_colours
from boards.palette import INK_BGR, OBSTACLE_BGR, PAPER_BGR, SQUARE_BGR
from boards.tokens import render_token  # re-exported: `from boards.render import render_board, render_token`

__all__ = ["BoardImage", "render_board", "render_token", "colour_sectors"]


@dataclass(frozen=True)
class BoardImage:
    """A rendered board: `image` (BGR) is exactly what gets printed."""

    image: np.ndarray
    origin: tuple[int, int]      # pixel of grid point (0, 0), the outer top-left corner of A1
    px_per_square: int
    width: int                   # grid size in squares
    height: int


def _margin_px(px_per_square: int) -> int:
    return round(MARGIN * px_per_square)


def colour_sectors(count: int, size: int) -> np.ndarray:
    """Index map (size×size, values 0..count-1) splitting a square into `count` pie sectors (MT 2.02.d).

    Sectors meet at the centre and are turned so that every colour owns at least one
    corner of the square when count ≤ 4: a token (≈ 17.5 mm in a 20 mm square)
    hides the centre, and the corners are what stays visible around it. With
    five colours the third one (B) owns the middle of the bottom edge instead.
    """
    if count <= 1:
        return np.zeros((size, size), dtype=np.intp)
    centre = (size - 1) / 2
    ys, xs = np.mgrid[0:size, 0:size]
    # angle counter-clockwise from "up", in [0, 360); corners sit at 45°, 135°, 225°, 315°,
    # so sectors starting at "up" give: 2 colours left/right halves, 3 → TL | BL+BR | TR, 4 → one corner each
    angle = (np.degrees(np.arctan2(-(xs - centre), -(ys - centre))) + 360.0) % 360.0
    return np.minimum(angle // (360.0 / count), count - 1).astype(np.intp)


def _hatch(tile: np.ndarray, spacing: int, both_ways: bool) -> None:
    """Diagonal hatching (obstacle mark, MT 2.03): black lines edged in white, visible on every colour."""
    size = tile.shape[0]
    ys, xs = np.mgrid[0:size, 0:size]
    width = max(1.0, size / 28)
    distances = [np.abs(((xs + ys) % spacing) - spacing / 2)]
    if both_ways:
        distances.append(np.abs(((xs - ys) % spacing) - spacing / 2))
    for d in distances:
        tile[d < width * 1.2] = PAPER_BGR
        tile[d < width * 0.55] = INK_BGR


def _polygon(tile, points: np.ndarray, outline: int) -> None:
    pts = np.round(points * 16).astype(np.int32)  # 4 fractional bits: smooth, deterministic edges
    cv2.fillPoly(tile, [pts], PAPER_BGR, cv2.LINE_AA, shift=4)
    cv2.polylines(tile, [pts], True, INK_BGR, outline, cv2.LINE_AA, shift=4)


def _petal(cx: float, cy: float, length: float, width: float, angle_deg: float) -> np.ndarray:
    """A pointed petal (a parabolic lens) of given length, pointing along angle (0 = up)."""
    t = np.linspace(-1.0, 1.0, 25)
    half = width / 2 * (1 - t ** 2)               # lens shape, pointed at both ends
    along = (t + 1) / 2 * length
    side = np.concatenate([half, -half[::-1]])
    along = np.concatenate([along, along[::-1]])
    a = math.radians(angle_deg)
    ux, uy = math.sin(a), -math.cos(a)            # direction of the petal
    px, py = -uy, ux                              # perpendicular
    return np.stack([cx + along * ux + side * px, cy + along * uy + side * py], axis=1)


def _draw_planeswalker(tile: np.ndarray) -> None:
    """Start square glyph (MT 2.04.a): the planeswalker spark — tall central blade, two side
    blades and an arc below, white with a black outline so it reads on every colour."""
    s = tile.shape[0]
    outline = max(1, round(s / 40))
    c = s / 2
    blades = [
        np.array([[c, 0.08 * s], [c + 0.10 * s, 0.62 * s], [c, 0.72 * s], [c - 0.10 * s, 0.62 * s]]),
        np.array([[c - 0.27 * s, 0.20 * s], [c - 0.14 * s, 0.60 * s], [c - 0.21 * s, 0.68 * s],
                  [c - 0.32 * s, 0.58 * s]]),
        np.array([[c + 0.27 * s, 0.20 * s], [c + 0.32 * s, 0.58 * s], [c + 0.21 * s, 0.68 * s],
                  [c + 0.14 * s, 0.60 * s]]),
    ]
    t = np.radians(np.linspace(200, 340, 30))     # the arc under the blades
    outer = np.stack([c + 0.38 * s * np.cos(t), 0.50 * s - 0.38 * s * np.sin(t)], axis=1)
    inner = np.stack([c + 0.26 * s * np.cos(t), 0.50 * s - 0.26 * s * np.sin(t)], axis=1)
    arc = np.concatenate([outer, inner[::-1]])
    for shape in [arc, *blades]:
        _polygon(tile, shape, outline)


def _draw_lotus(tile: np.ndarray) -> None:
    """Temple du Deus glyph (MT 2.04.b): a lotus of five pointed petals on a base, white with a
    black outline."""
    s = tile.shape[0]
    outline = max(1, round(s / 40))
    cx, base = s / 2, 0.76 * s
    petals = [(0.56, 0.20, 0), (0.48, 0.20, -32), (0.48, 0.20, 32), (0.40, 0.17, -64), (0.40, 0.17, 64)]
    for length, width, angle in sorted(petals, key=lambda p: -abs(p[2])):  # back petals first
        _polygon(tile, _petal(cx, base, length * s, width * s, angle), outline)
    cup = np.array([[cx - 0.30 * s, base - 0.04 * s], [cx + 0.30 * s, base - 0.04 * s],
                    [cx + 0.18 * s, base + 0.10 * s], [cx - 0.18 * s, base + 0.10 * s]])
    _polygon(tile, cup, outline)


def _square_tile(square: Square, size: int) -> np.ndarray:
    """One square at `size` px: colours as pie sectors, obstacle hatching, special glyph."""
    colours = order_colours(square.colours)
    if colours:
        palette = np.array([SQUARE_BGR[c] for c in colours], dtype=np.uint8)
        tile = palette[colour_sectors(len(colours), size)]
    else:
        tile = np.empty((size, size, 3), dtype=np.uint8)
        tile[:] = OBSTACLE_BGR
    tile = np.ascontiguousarray(tile)
    if square.obstacle:
        # colourless: dense single hatch; coloured obstacle (MT 2.03.c): a sparse cross-hatch
        # so that the colours keep most of the surface
        _hatch(tile, spacing=max(4, size // (3 if colours else 5)), both_ways=bool(colours))
    if square.start:
        _draw_planeswalker(tile)
    if square.temple:
        _draw_lotus(tile)
    return tile


def _paint_squares(grid: np.ndarray, board: Board, p: int) -> None:
    """Fill the grid area (a view of the image) with one tile per distinct square code."""
    codes: dict[str, int] = {}
    index = np.empty((board.height, board.width), dtype=np.intp)
    for (x, y) in board.positions():
        index[y, x] = codes.setdefault(board.square(x, y).code, len(codes))
    tiles = np.stack([_square_tile(Square.parse(code), p) for code in codes])
    # (rows, p, columns, p, 3) view of the grid area: tiles land in place, no intermediate image
    blocks = grid.view()
    blocks.shape = (board.height, p, board.width, p, 3)  # raises rather than silently copying
    blocks[...] = tiles[index].transpose(0, 2, 1, 3, 4)


def _draw_grid_lines(image: np.ndarray, origin: tuple[int, int], board: Board, p: int) -> None:
    """Thin ink lines (≈ 0.4 mm printed) centred on every square edge."""
    ox, oy = origin
    t = max(1, round(p / 50))
    lo = t // 2
    top, bottom = oy - lo, oy + board.height * p - lo + t
    left, right = ox - lo, ox + board.width * p - lo + t
    for i in range(board.width + 1):
        x = ox + i * p - lo
        image[top:bottom, x:x + t] = INK_BGR
    for j in range(board.height + 1):
        y = oy + j * p - lo
        image[y:y + t, left:right] = INK_BGR


def _put_centred(image, text: str, centre: tuple[float, float], height_px: float) -> None:
    font = cv2.FONT_HERSHEY_SIMPLEX
    base = cv2.getTextSize(text, font, 1.0, 1)[0][1]
    scale = height_px / base
    thickness = max(1, round(height_px / 9))
    (tw, th), _ = cv2.getTextSize(text, font, scale, thickness)
    org = (round(centre[0] - tw / 2), round(centre[1] + th / 2))
    cv2.putText(image, text, org, font, scale, INK_BGR, thickness, cv2.LINE_AA)


def _draw_coordinates(image, origin, board: Board, p: int) -> None:
    """Column letters above and below, row numbers left and right, in the label band."""
    ox, oy = origin
    band = LABEL_BAND * p
    height = 0.32 * p
    for x in range(board.width):
        cx = ox + (x + 0.5) * p
        for cy in (oy - band / 2, oy + board.height * p + band / 2):
            _put_centred(image, column_label(x), (cx, cy), height)
    for y in range(board.height):
        cy = oy + (y + 0.5) * p
        for cx in (ox - band / 2, ox + board.width * p + band / 2):
            _put_centred(image, str(y + 1), (cx, cy), height)


def _draw_markers(image, board: Board, origin, p: int) -> None:
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, ARUCO_DICTIONARY))
    for marker in board_markers(board.width, board.height):
        # round both corners, not the side: every corner lands within half a pixel of the contract
        x0, y0 = (int(round(v)) for v in np.asarray(origin) + marker.corners[0] * p)
        x1, y1 = (int(round(v)) for v in np.asarray(origin) + marker.corners[2] * p)
        code = cv2.aruco.generateImageMarker(dictionary, marker.id, x1 - x0, borderBits=1)
        if y1 - y0 != x1 - x0:
            code = cv2.resize(code, (x1 - x0, y1 - y0), interpolation=cv2.INTER_NEAREST)
        image[y0:y1, x0:x1] = code[..., None]


def render_board(board: Board, px_per_square: int) -> BoardImage:
    """The printed board (MT 1.02.b: one square = `px_per_square` px, printed at 2 cm): margin,
    squares in the palette colours (multicoloured squares as sectors, MT 2.02.d), obstacles
    hatched (MT 2.03.c), start and Temple glyphs (MT 2.04), grid lines, coordinates on all four
    sides and ArUco markers where `boards.markers.board_markers` puts them. Deterministic."""
    p = int(px_per_square)
    if p < 8:
        raise ValueError(f"px_per_square must be at least 8 to draw markers and labels, got {px_per_square}")
    m = _margin_px(p)
    origin = (m, m)
    image = np.empty((board.height * p + 2 * m, board.width * p + 2 * m, 3), dtype=np.uint8)
    image[:m] = image[-m:] = image[:, :m] = image[:, -m:] = PAPER_BGR  # the grid area is painted next
    _paint_squares(image[m:m + board.height * p, m:m + board.width * p], board, p)
    _draw_grid_lines(image, origin, board, p)
    _draw_coordinates(image, origin, board, p)
    _draw_markers(image, board, origin, p)
    return BoardImage(image=image, origin=origin, px_per_square=p, width=board.width, height=board.height)
