"""A board drawn in a terminal, for checking a board file without printing it.

Each square is a cell of (at least) two characters whose backgrounds show its
colours: a multicoloured square shows each colour in its own character
(MT 2.02.a). Obstacles are hatched (MT 2.03.a; a coloured obstacle keeps its
colour under the hatching, MT 2.03.c); '@' marks a start (MT 2.04.a) and '*' a
Temple du Deus (MT 2.04.b). Colours are those printed on paper (boards.palette).
"""
from __future__ import annotations

import os
import unicodedata
from enum import Enum

from boards.model import COLOURS, Board, Square, column_label, order_colours
from boards.palette import OBSTACLE_BGR, SQUARE_BGR

HATCH = "╱"
RESET = "\x1b[0m"


class ColourMode(Enum):
    TRUECOLOR = "truecolor"
    ANSI256 = "256"
    PLAIN = "plain"


def printable(text: str) -> str:
    """Text from a file, safe to print on a terminal: control and format characters (an escape
    sequence '\x1b[2J' that would clear the screen, a right-to-left override) shown as escapes."""
    return "".join(ch if unicodedata.category(ch) not in ("Cc", "Cf", "Zl", "Zp") or ch in "\t"
                   else ch.encode("unicode_escape").decode("ascii") for ch in str(text))


def detect_colour_mode(environ=os.environ) -> ColourMode:
    """Truecolour where the terminal says it has it, 256 colours otherwise; NO_COLOR means plain."""
    if "NO_COLOR" in environ:
        return ColourMode.PLAIN
    if environ.get("COLORTERM", "").lower() in ("truecolor", "24bit"):
        return ColourMode.TRUECOLOR
    return ColourMode.ANSI256


def _rgb(bgr: tuple[int, int, int]) -> tuple[int, int, int]:
    return bgr[2], bgr[1], bgr[0]


def _ansi256(rgb: tuple[int, int, int]) -> int:
    """Nearest xterm-256 entry, from the 6×6×6 cube or the grey ramp (dark grey must not turn blue)."""
    steps = (0, 95, 135, 175, 215, 255)
    cube = [min(range(6), key=lambda i: abs(steps[i] - c)) for c in rgb]
    cube_rgb = tuple(steps[i] for i in cube)
    grey_index = min(23, max(0, round((sum(rgb) / 3 - 8) / 10)))
    grey_rgb = (8 + 10 * grey_index,) * 3

    def error(candidate) -> int:
        return sum((a - b) ** 2 for a, b in zip(candidate, rgb))

    if error(grey_rgb) < error(cube_rgb):
        return 232 + grey_index
    return 16 + 36 * cube[0] + 6 * cube[1] + cube[2]


def _sgr(rgb: tuple[int, int, int], mode: ColourMode, background: bool) -> str:
    layer = 48 if background else 38
    if mode is ColourMode.TRUECOLOR:
        return f"\x1b[{layer};2;{rgb[0]};{rgb[1]};{rgb[2]}m"
    return f"\x1b[{layer};5;{_ansi256(rgb)}m"


def _ink_for(rgb: tuple[int, int, int]) -> tuple[int, int, int]:
    """Black ink on light squares, white ink on dark ones, so marks stay readable."""
    luminance = 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2]
    return (0, 0, 0) if luminance > 140 else (255, 255, 255)


def cell_width(board: Board) -> int:
    """Characters per square: two, or one per colour on squares with more colours."""
    return max(2, max(len(sq.colours) for sq in board))


def _cell_text(square: Square, width: int) -> str:
    marks = ("@" if square.start else "") + ("*" if square.temple else "")
    filler = HATCH if square.obstacle else " "
    return (marks + filler * width)[:width]


def _coloured_cell(square: Square, width: int, mode: ColourMode) -> str:
    colours = order_colours(square.colours)
    backgrounds = [_rgb(SQUARE_BGR[c]) for c in colours] or [_rgb(OBSTACLE_BGR)]
    text = _cell_text(square, width)
    # spread the colours over the cell's characters: 'WU' in 2 chars -> W, U
    out, current = [], None
    for i, char in enumerate(text):
        background = backgrounds[i * len(backgrounds) // width]
        if background != current:
            out.append(_sgr(background, mode, True) + _sgr(_ink_for(background), mode, False))
            current = background
        out.append(char)
    return "".join(out) + RESET


def render_board(board: Board, mode: ColourMode = ColourMode.TRUECOLOR) -> str:
    """The board as terminal text: column letters on top, row numbers on the left, a legend
    below; multicoloured squares (MT 2.02.a), hatched obstacles (MT 2.03.a/c), starts and
    Temples (MT 2.04.a/b) as described in the module docstring."""
    width = cell_width(board) if mode is not ColourMode.PLAIN else max(len(sq.code) for sq in board) + 1
    margin = len(str(board.height)) + 1
    lines = [f"{printable(board.name)} — {board.width}×{board.height}, {board.players} players"]
    lines += [(" " * margin + header).rstrip() for header in _column_headers(board.width, width)]
    for y, row in enumerate(board.squares, start=1):
        if mode is ColourMode.PLAIN:
            cells = "".join(sq.code.ljust(width) for sq in row).rstrip()
        else:
            cells = "".join(_coloured_cell(sq, width, mode) for sq in row)
        lines.append(f"{y:>{margin - 1}} {cells}")
    lines.append(_legend(mode))
    return "\n".join(lines) + "\n"


def _column_headers(columns: int, width: int) -> list[str]:
    """Column letters; when 'AA' does not fit with a space in a cell, one letter per line."""
    labels = [column_label(x) for x in range(columns)]
    longest = max(len(label) for label in labels)
    if longest < width:
        return ["".join(label.ljust(width) for label in labels)]
    stacked = [label.rjust(longest) for label in labels]
    return ["".join(label[i].ljust(width) for label in stacked) for i in range(longest)]


def _legend(mode: ColourMode) -> str:
    if mode is ColourMode.PLAIN:
        return ("W white  U blue  B black  R red  G green  # obstacle  . colourless obstacle  "
                "@ start  * Temple du Deus")
    swatches = "  ".join(
        _coloured_cell(Square(frozenset(c)), 2, mode) + f" {c}" for c in COLOURS)
    obstacle = _coloured_cell(Square(frozenset(), obstacle=True), 2, mode)
    return f"{swatches}  {obstacle} obstacle  @ start  * Temple du Deus"
