"""The physical board: an immutable grid of squares (MT 2.01–2.04).

Plain data only, so that the rules engine, the vision and the app can share it
without pulling in any heavy dependency.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Iterator

COLOURS = "WUBRG"  # canonical order used everywhere (labels, JSON, files)
# A square's place on the grid: (column, row), both from 0 at the printed top-left square (A1).
# The one name every package uses for a grid coordinate (a `Square` is what stands there).
XY = tuple[int, int]
# A token's identity: (player colour, number), MT 1.03.a, 2.05 — the one name the rules, the game, the camera
# reader and the app use for it (here, beside XY, because `vision` reads tokens and imports no `companion`).
Token = tuple[int, int]
# A board's size in squares: (width, height) — across, down. Every package calls a value of this kind `grid`
# (`scan(image, grid=(20, 12))`, `tactical scan --grid 20x12`); `size` is for pixels.
GridSize = tuple[int, int]
_GRID_SIZE_TEXT = re.compile(r"\s*(\d{1,9})\s*[xX×*]\s*(\d{1,9})\s*")
COLOUR_NAMES = {"W": "white", "U": "blue", "B": "black", "R": "red", "G": "green"}

_SQUARE_CODE = re.compile(r"^(?P<colours>[WUBRG]*)(?P<marks>[#@*]*)$")
MAX_CODE_CHARS = len("WUBRG@*")  # the longest valid code: five colours, a start and a Temple


class SquareCodeError(ValueError):
    """A square code that does not follow the board-file notation."""


def parse_grid_size(text: str) -> GridSize:
    """'20x12' (or '20×12', '20 * 12') -> (20, 12): the one reader of a grid size a person types, for
    the command line and the app's New game form. ValueError when it is not WIDTHxHEIGHT of positive
    whole numbers; how large a grid may be is the reader's business (`vision.scanner.grid_size_problem`)."""
    match = _GRID_SIZE_TEXT.fullmatch(text)
    if not match or int(match[1]) < 1 or int(match[2]) < 1:
        raise ValueError(f"{text!r} is not a grid size WIDTHxHEIGHT of positive numbers, such as 20x12")
    return int(match[1]), int(match[2])


def order_colours(colours) -> str:
    """Colours as a string in WUBRG order ('UW' -> 'WU')."""
    return "".join(c for c in COLOURS if c in colours)


@dataclass(frozen=True, slots=True)
class Square:
    """One 2 cm square (MT 2.01): its colours and special marks.

    A square without colour is an obstacle (MT 2.03.a); a coloured square may
    also be marked as an obstacle and still counts as coloured (MT 2.03.c).
    """

    colours: frozenset[str] = frozenset()
    obstacle: bool = False
    start: bool = False
    temple: bool = False

    def __post_init__(self):
        colours = frozenset(self.colours)
        if not colours <= set(COLOURS):
            raise SquareCodeError(f"unknown colours {sorted(colours - set(COLOURS))}")
        object.__setattr__(self, "colours", colours)
        if not colours and not self.obstacle:
            object.__setattr__(self, "obstacle", True)  # MT 2.03.a
        if self.obstacle and (self.start or self.temple):
            raise SquareCodeError("a start (@) or Temple (*) square cannot be an obstacle")

    @property
    def walkable(self) -> bool:
        """Whether a creature, planeswalker or player may stand here (MT 2.03.b)."""
        return not self.obstacle

    @property
    def code(self) -> str:
        """The square in board-file notation ('WU', 'R#', '.', 'G@')."""
        colours = order_colours(self.colours)
        if not colours:
            return "."
        marks = ("#" if self.obstacle else "") + ("@" if self.start else "") + ("*" if self.temple else "")
        return colours + marks

    @classmethod
    def parse(cls, code: str) -> "Square":
        """Parse one square code; raise SquareCodeError saying what was expected. A board repeats a
        few codes thousands of times: each distinct code is parsed once (squares are immutable)."""
        return _parse_code(code)

    @classmethod
    def _parse(cls, code: str) -> "Square":
        if code == ".":
            return cls(frozenset(), obstacle=True)
        if len(code) > MAX_CODE_CHARS:
            shown = code if len(code) <= 20 else code[:20] + "…"
            raise SquareCodeError(f"'{shown}' ({len(code):,} characters) is not a square code: a code has at most "
                                  f"{MAX_CODE_CHARS} characters, colour letters among W U B R G then marks # @ *")
        if code.startswith(".") and set(code[1:]) & set("@*"):
            raise SquareCodeError(f"'{code}': a start (@) or Temple (*) square cannot be an obstacle "
                                  "('.' is a colourless obstacle)")
        match = _SQUARE_CODE.match(code)
        if not match or not code:
            raise SquareCodeError(
                f"'{code}' is not a square code: expected colour letters among W U B R G, "
                "then optional marks # (obstacle), @ (start), * (Temple du Deus), or '.' alone"
            )
        letters, marks = match["colours"], match["marks"]
        for seq, what in ((letters, "colour"), (marks, "mark")):
            repeated = sorted({c for c in seq if seq.count(c) > 1})
            if repeated:
                raise SquareCodeError(f"'{code}': {what} {', '.join(repeated)} given more than once")
        obstacle = "#" in marks or not letters
        if obstacle and ("@" in marks or "*" in marks):
            raise SquareCodeError(f"'{code}': a start (@) or Temple (*) square cannot be an obstacle")
        return cls(frozenset(letters), obstacle=obstacle, start="@" in marks, temple="*" in marks)


@lru_cache(maxsize=4096)
def _parse_code(code: str) -> Square:
    return Square._parse(code)


def column_label(x: int) -> str:
    """Column letters as people say them: 0 -> A, 25 -> Z, 26 -> AA."""
    if x < 0:
        raise ValueError(f"column {x} is negative")
    label = ""
    x += 1
    while x:
        x, rem = divmod(x - 1, 26)
        label = chr(ord("A") + rem) + label
    return label


def square_label(at: XY) -> str:
    """(0, 0) -> 'A1', (26, 11) -> 'AA12'."""
    x, y = at
    return f"{column_label(x)}{y + 1}"


_LABEL = re.compile(r"^([A-Za-z]+)([1-9][0-9]*)$")


def parse_square_label(label: str) -> XY:
    """'AA12' -> (26, 11); raise ValueError for anything else."""
    match = _LABEL.match(label.strip())
    if not match:
        raise ValueError(f"'{label}' is not a square label like A1 or AA12")
    x = 0
    for ch in match[1].upper():
        x = x * 26 + (ord(ch) - ord("A") + 1)
    return x - 1, int(match[2]) - 1


@dataclass(frozen=True)
class Board:
    """A rectangular grid of squares; (x, y) = (column, row) from the top-left.

    Metadata (name, players, recommended dice) travels with the grid so that a
    board file round-trips without loss.
    """

    squares: tuple[tuple[Square, ...], ...]
    name: str = "Untitled"
    players: int = 2
    dice: str | None = None  # recommended movement dice, "D10" or "D12" (MT 1.04)
    description: str = ""
    _walkable: tuple[bool, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        if not self.squares or not self.squares[0]:
            raise ValueError("a board needs at least one row and one column")
        widths = {len(row) for row in self.squares}
        if len(widths) != 1:
            raise ValueError(f"rows have different lengths: {sorted(widths)}")
        object.__setattr__(self, "_walkable", tuple(sq.walkable for row in self.squares for sq in row))

    # -- construction -------------------------------------------------
    @classmethod
    def from_rows(cls, rows: list[str], **meta) -> "Board":
        """Build a board from rows in the board-file square notation (top row first)."""
        from boards.io import parse_rows  # one parser for files and code

        return cls(parse_rows(rows), **meta)

    def to_rows(self) -> list[str]:
        """Rows in board-file notation, columns aligned for people to read."""
        width = max(len(sq.code) for sq in self) + 1
        return ["".join(sq.code.ljust(width) for sq in row).rstrip() for row in self.squares]

    def replace_square(self, at: XY, square: Square) -> "Board":
        """A new board with one square changed (boards are immutable)."""
        x, y = at
        rows = [list(r) for r in self.squares]
        rows[y][x] = square
        return Board(tuple(tuple(r) for r in rows), self.name, self.players, self.dice, self.description)

    # -- queries ------------------------------------------------------
    @property
    def width(self) -> int:
        return len(self.squares[0])

    @property
    def height(self) -> int:
        return len(self.squares)

    def square(self, x: int, y: int) -> Square:
        if not self.in_bounds((x, y)):
            raise IndexError(f"square ({x}, {y}) is outside the {self.width}×{self.height} board")
        return self.squares[y][x]

    def in_bounds(self, at: XY) -> bool:
        x, y = at
        return 0 <= x < self.width and 0 <= y < self.height

    def walkable(self, at: XY) -> bool:
        """Fast walkability test used by the rules engine's searches (MT 2.03.b)."""
        return self._walkable[at[1] * self.width + at[0]]

    def positions(self) -> Iterator[XY]:
        for y in range(self.height):
            for x in range(self.width):
                yield x, y

    def __iter__(self) -> Iterator[Square]:
        for row in self.squares:
            yield from row

    @property
    def starts(self) -> list[XY]:
        """Start squares (planeswalker symbol, MT 2.04.a), in reading order."""
        return [p for p in self.positions() if self.square(*p).start]

    @property
    def temples(self) -> list[XY]:
        """Temple du Deus squares (black lotus, MT 2.04.b), in reading order."""
        return [p for p in self.positions() if self.square(*p).temple]
