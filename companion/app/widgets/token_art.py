"""Tokens as people read them on the screen: the player's colour and a big number.

The printed token carries a camera code (`boards.tokens.render_token`); on the screen that code is
noise a few pixels tall. Here a token is a disc in its player's colour with its number as large as
it fits, in dark or white ink for contrast; a player's pawn has a white ring, a planeswalker is an
octagon, so the kinds differ at a glance (MT 2.05). Pure numpy + OpenCV drawing (no kivy).
"""
from __future__ import annotations

import cv2
import numpy as np

from companion.app.words import player_bgr

INK_DARK = (25, 25, 25)
INK_LIGHT = (255, 255, 255)
OUTLINE = (20, 20, 20)
FONT = cv2.FONT_HERSHEY_DUPLEX
SUPERSAMPLE = 4  # drawn larger, then shrunk: smooth edges at any size


def ink_for(bgr: tuple[int, int, int]) -> tuple[int, int, int]:
    """Dark ink on light colours, white on dark ones (luma, as the printed tokens choose it)."""
    b, g, r = bgr
    return INK_DARK if 0.114 * b + 0.587 * g + 0.299 * r > 110 else INK_LIGHT


def _shape(kind: str, centre: float, radius: float) -> np.ndarray:
    if kind == "planeswalker":
        angles = np.radians(np.arange(8) * 45 + 22.5)
        return np.stack([centre + radius * np.cos(angles), centre + radius * np.sin(angles)], 1)
    angles = np.radians(np.arange(72) * 5)
    return np.stack([centre + radius * np.cos(angles), centre + radius * np.sin(angles)], 1)


def _fill(image: np.ndarray, points: np.ndarray, bgra) -> None:
    cv2.fillPoly(image, [np.round(points * 16).astype(np.int32)], bgra, lineType=cv2.LINE_AA, shift=4)


def screen_token(player: int, number: int, diameter: int, kind: str = "creature") -> np.ndarray:
    """The token picture (BGRA, `diameter` pixels square, transparent outside the shape)."""
    size = diameter * SUPERSAMPLE
    image = np.zeros((size, size, 4), np.uint8)
    centre, radius = size / 2, size / 2 - SUPERSAMPLE
    colour = player_bgr(player)
    _fill(image, _shape(kind, centre, radius), (*OUTLINE, 255))
    inner = radius * 0.9
    if kind == "player":  # the pawn: a white ring inside the outline
        _fill(image, _shape(kind, centre, inner), (255, 255, 255, 255))
        inner = radius * 0.74
    _fill(image, _shape(kind, centre, inner), (*colour, 255))
    text = str(number)
    box = inner * (1.25 if len(text) == 1 else 1.5)   # the width the digits may take
    thickness = max(1, round(size / 14))
    (width, height), _ = cv2.getTextSize(text, FONT, 1.0, thickness)
    scale = min(box / width, inner * 1.05 / height)
    thickness = max(1, round(thickness * min(scale, 1.6)))
    (width, height), _ = cv2.getTextSize(text, FONT, scale, thickness)
    origin = (round(centre - width / 2), round(centre + height / 2))
    cv2.putText(image, text, origin, FONT, scale, (*ink_for(colour), 255), thickness, cv2.LINE_AA)
    return cv2.resize(image, (diameter, diameter), interpolation=cv2.INTER_AREA)
