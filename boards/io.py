"""Board files: the YAML format of architecture.md, with errors that say where.

A board file either loads completely or raises BoardFileError naming the file,
the row, the column and what was expected; it never yields a half-loaded board.
Only yaml.safe_load/compose are used: nothing read from a file is executed.
"""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

import yaml

from boards.model import Board, Square, SquareCodeError, column_label

REQUIRED_KEYS = ("name", "players", "rows")
OPTIONAL_KEYS = ("dice", "description")
DICE = ("D10", "D12")


class BoardFileError(ValueError):
    """A board file (or list of rows) that cannot be read, with its location."""

    def __init__(self, message: str, *, path=None, line=None, row=None, column=None, field=None):
        self.message, self.path, self.line = message, path, line
        self.row, self.column, self.field = row, column, field
        super().__init__(str(self))

    def __str__(self) -> str:
        where = []
        if self.path is not None:
            where.append(f"{self.path}" + (f":{self.line}" if self.line else ""))
        if self.field is not None:
            where.append(f"field '{self.field}'")
        if self.row is not None:
            where.append(f"row {self.row}")
        if self.column is not None:
            where.append(f"column {self.column} ({column_label(self.column - 1)})")
        return (", ".join(where) + ": " if where else "") + self.message


def parse_rows(rows, *, path=None, lines=None) -> tuple[tuple[Square, ...], ...]:
    """Rows in square notation -> squares; rows and columns in errors count from 1."""
    if not isinstance(rows, (list, tuple)) or not rows:
        raise BoardFileError("expected a non-empty list of row strings", path=path, field="rows")
    parsed = []
    width = None
    for r, text in enumerate(rows, start=1):
        line = lines[r - 1] if lines else None
        if not isinstance(text, str):
            raise BoardFileError(
                f"expected a string of square codes, got {type(text).__name__} {text!r}"
                " (quote the row: '#' starts a YAML comment)",
                path=path, line=line, row=r, field="rows")
        codes = text.split()
        if not codes:
            raise BoardFileError("empty row", path=path, line=line, row=r, field="rows")
        squares = []
        for c, code in enumerate(codes, start=1):
            try:
                squares.append(Square.parse(code))
            except SquareCodeError as exc:
                raise BoardFileError(str(exc), path=path, line=line, row=r, column=c, field="rows") from None
        if width is None:
            width = len(squares)
        elif len(squares) != width:
            raise BoardFileError(
                f"row has {len(squares)} squares, expected {width} like row 1",
                path=path, line=line, row=r, column=min(len(squares), width) + 1, field="rows")
        parsed.append(tuple(squares))
    return tuple(parsed)


def _row_lines(text: str) -> list[int] | None:
    """YAML line numbers (1-based) of each item of `rows`, for error messages."""
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        return None
    if not isinstance(node, yaml.MappingNode):
        return None
    for key, value in node.value:
        if key.value == "rows" and isinstance(value, yaml.SequenceNode):
            return [item.start_mark.line + 1 for item in value.value]
    return None


def board_from_text(text: str, path: str | os.PathLike | None = None) -> Board:
    """Parse the text of a board file (see load_board)."""
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise BoardFileError(f"not valid YAML: {problem}", path=path,
                             line=mark.line + 1 if mark else None) from None
    if not isinstance(data, dict):
        raise BoardFileError(
            f"expected a mapping with keys {', '.join(REQUIRED_KEYS)}, got {type(data).__name__}", path=path)
    unknown = sorted(str(k) for k in data if k not in REQUIRED_KEYS + OPTIONAL_KEYS)
    if unknown:
        raise BoardFileError(
            f"unknown key(s) {', '.join(unknown)}; allowed: {', '.join(REQUIRED_KEYS + OPTIONAL_KEYS)}",
            path=path, field=unknown[0])
    for key in REQUIRED_KEYS:
        if key not in data:
            raise BoardFileError("missing required key", path=path, field=key)
    name = data["name"]
    if not isinstance(name, str) or not name.strip():
        raise BoardFileError("expected a non-empty text", path=path, field="name")
    players = data["players"]
    if isinstance(players, bool) or not isinstance(players, int) or players < 2:
        raise BoardFileError(f"expected a whole number of players ≥ 2 (MT 1.01), got {players!r}",
                             path=path, field="players")
    dice = data.get("dice")
    if dice is not None and str(dice).upper() not in DICE:
        raise BoardFileError(f"expected D10 or D12 (MT 1.04), got {dice!r}", path=path, field="dice")
    description = data.get("description", "")
    if not isinstance(description, str):
        raise BoardFileError("expected a text", path=path, field="description")
    squares = parse_rows(data["rows"], path=path, lines=_row_lines(text))
    return Board(squares, name=name.strip(), players=players,
                 dice=str(dice).upper() if dice is not None else None, description=description)


def load_board(path: str | os.PathLike) -> Board:
    """Load a board file; raise BoardFileError (file, row, column, field) when it is wrong."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise BoardFileError(f"cannot read the file: {exc.strerror or exc}", path=path) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BoardFileError(f"not UTF-8 text (byte {exc.start})", path=path) from None
    return board_from_text(text, path)


def board_to_text(board: Board) -> str:
    """The board as board-file YAML (rows aligned so people can read and edit them)."""
    data = {"name": board.name, "players": board.players}
    if board.dice:
        data["dice"] = board.dice
    if board.description:
        data["description"] = board.description
    head = yaml.safe_dump(data, allow_unicode=True, sort_keys=False)
    rows = "".join(f'  - "{row}"\n' for row in board.to_rows())
    return f"{head}rows:\n{rows}"


def save_board(board: Board, path: str | os.PathLike) -> None:
    """Write a board file atomically (a crash never leaves half a file)."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(board_to_text(board))
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
