"""A board read from a photo of it (`vision.scan`) for the New game form: each square's colours and
marks, and the squares the table should confirm (MT 2.02.e). No kivy."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from boards import XY, Board, GridSize, parse_grid_size
from boards.model import Square
from calibration.problems import Problem, say


FORM_PROBLEMS = {"grid_size": "grid size: expected WIDTHxHEIGHT such as 40x25, got {text}"}


class ScanError(ValueError):
    """A board photo that cannot become a game board, said plainly (file and reason); `problem`
    (a `calibration.problems.Problem`) says it in the table's language."""

    def __init__(self, problem: Problem, path: Path | None = None):
        self.problem, self.path = problem, path
        super().__init__(f"{path}: {problem}" if path else problem)

    def say(self, translate) -> str:
        """The problem in the language of `translate(key, **fields)`, after the photo's path."""
        reason = say(self.problem, translate)
        return translate("newgame.problems.of_photo", path=self.path, reason=reason) if self.path else reason


@dataclass(frozen=True)
class ScannedBoard:
    """A board read from a photo, and the squares read with low confidence or hidden by a token."""

    board: Board
    doubtful: tuple[XY, ...]
    source: str


def form_grid_size(text: str) -> GridSize | None:
    """The form's grid size field: '40x25' → (40, 25); empty → None (the markers give the size)."""
    if not text.strip():
        return None
    try:
        return parse_grid_size(text)
    except ValueError:
        raise ScanError(Problem(FORM_PROBLEMS, "newgame.problems", "grid_size", text=repr(text))) from None


def scan_board(photo: str, grid: str = "") -> ScannedBoard:
    """Build a board from a photo of one. `grid` "40x25" fixes the size (needed when the board has no
    markers of ours)."""
    from calibration.sources import SourceError, read_image
    from vision import scan

    given = form_grid_size(grid)
    path = Path(photo.strip())
    try:
        image = read_image(path)
    except SourceError as exc:
        raise ScanError(exc.problem) from None
    result = scan(image, grid=given)
    if not result.found:
        raise ScanError(result.error, path)
    rows, doubtful = [], []
    for y in range(result.height):
        row = []
        for x in range(result.width):
            read = result.square(x, y)
            obstacle = read.obstacle or not read.colours
            row.append(Square(frozenset(read.colours), obstacle=obstacle, start=read.start and not obstacle,
                              temple=read.temple and not obstacle))
            if read.uncertain or read.covered:
                doubtful.append((x, y))
        rows.append(tuple(row))
    return ScannedBoard(Board(tuple(rows), name=f"scanned {path.stem}", players=2), tuple(doubtful), str(path))
