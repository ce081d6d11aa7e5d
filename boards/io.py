"""Board files: the YAML format of architecture.md, with errors that say where.

A board file either loads completely or raises BoardFileError naming the file,
the row, the column and what was expected; it never yields a half-loaded board.
Files are read through `safeio.yamlfile` (bounded: size, nesting, aliases, text length;
PyYAML's safe constructor only, nothing read from a file is executed).

Limits: the seeds set no largest board (MT 2.01 only a smallest, 20×12); the companion reads
boards up to MAX_SIDE × MAX_SIDE squares (200 × 200 = 4 m × 4 m of 2 cm squares, ten times the
recommended sides of MT 1.02.a) for up to MAX_PLAYERS players, in time linear in the file's size
(`tactical bench boards` prints the load time of the largest board).
"""
from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

import yaml

from boards.model import Board, Square, SquareCodeError, column_label
from safeio.yamlfile import FileError, Limits, brief, decode_text, parse_yaml, read_bytes

REQUIRED_KEYS = ("name", "players", "rows")
OPTIONAL_KEYS = ("dice", "description")
DICE = ("D10", "D12")
MAX_SIDE = 200           # squares per row and rows per board
MAX_PLAYERS = 64
MAX_NAME_CHARS, MAX_DESCRIPTION_CHARS = 200, 10_000
MAX_ROW_CHARS = MAX_SIDE * 40  # a row of MAX_SIDE codes with generous spacing
BOARD_LIMITS = Limits(max_bytes=1 << 20, max_depth=4, max_values=MAX_SIDE + 100,
                      max_text=max(MAX_ROW_CHARS, MAX_DESCRIPTION_CHARS))


class BoardFileError(FileError):
    """A board file (or list of rows) that cannot be read, with its location."""

    def __init__(self, message: str, *, path=None, line=None, row=None, column=None, field=None):
        self.row, self.column = row, column
        super().__init__(message, path=path, line=line, field=field)

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


def _board_error(message, *, path=None, line=None, at=()) -> BoardFileError:
    """The yamlfile error factory for board files: the field is the top-level key, a row counts from 1."""
    row = at[1] + 1 if len(at) > 1 and at[0] == "rows" and isinstance(at[1], int) else None
    return BoardFileError(message, path=path, line=line, row=row, field=str(at[0]) if at else None)


def parse_rows(rows, *, path=None, lines=None) -> tuple[tuple[Square, ...], ...]:
    """Rows in square notation -> squares; rows and columns in errors count from 1. At most
    MAX_SIDE rows of MAX_SIDE squares: every step below is linear in the rows' length."""
    if not isinstance(rows, (list, tuple)) or not rows:
        raise BoardFileError("expected a non-empty list of row strings", path=path, field="rows")
    if len(rows) > MAX_SIDE:
        raise BoardFileError(f"{len(rows)} rows; the companion reads boards of at most {MAX_SIDE} rows "
                             f"(MT 2.01 sets no maximum)", path=path, field="rows")
    parsed = []
    width = None
    for r, text in enumerate(rows, start=1):
        line = lines[r - 1] if lines and r <= len(lines) else None
        if not isinstance(text, str):
            raise BoardFileError(
                f"expected a string of square codes, got {type(text).__name__} {brief(text)}"
                " (quote the row: '#' starts a YAML comment)",
                path=path, line=line, row=r, field="rows")
        if len(text) > MAX_ROW_CHARS:
            raise BoardFileError(f"the row is {len(text):,} characters long; at most {MAX_ROW_CHARS:,}",
                                 path=path, line=line, row=r, field="rows")
        codes = text.split()
        if not codes:
            raise BoardFileError("empty row", path=path, line=line, row=r, field="rows")
        if len(codes) > MAX_SIDE:
            raise BoardFileError(f"{len(codes)} squares; the companion reads rows of at most {MAX_SIDE} squares "
                                 f"(MT 2.01 sets no maximum)", path=path, line=line, row=r, field="rows")
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


@dataclass(frozen=True)
class _Layout:
    """Where things are in the YAML text (1-based lines), for error messages only."""

    key_lines: dict[str, int]
    row_lines: list[int] | None
    commented_rows: set[int]  # rows (1-based) written without quotes and followed by '#'


def _layout(node: yaml.Node | None, text: str) -> _Layout:
    """Key and row lines from the YAML node tree (duplicate keys were refused by the reader)."""
    key_lines: dict[str, int] = {}
    row_lines: list[int] | None = None
    commented: set[int] = set()
    if not isinstance(node, yaml.MappingNode):
        return _Layout(key_lines, row_lines, commented)
    for key, value in node.value:
        if not isinstance(key, yaml.ScalarNode):
            continue
        key_lines[key.value] = key.start_mark.line + 1
        if key.value == "rows" and isinstance(value, yaml.SequenceNode):
            row_lines = [item.start_mark.line + 1 for item in value.value]
            for r, item in enumerate(value.value, start=1):
                if isinstance(item, yaml.ScalarNode) and not item.style:  # plain (libyaml says "")
                    end = text.find("\n", item.end_mark.index)
                    rest_of_line = text[item.end_mark.index:end if end >= 0 else len(text)]
                    if rest_of_line.lstrip().startswith("#"):
                        commented.add(r)
    return _Layout(key_lines, row_lines, commented)


def _check_commented_rows(rows, layout: _Layout, path) -> None:
    """An unquoted row cut short by '#' (YAML reads the rest as a comment) is reported as
    that, not as a puzzling width error; a complete row followed by a comment is fine."""
    if not isinstance(rows, list) or not layout.commented_rows:
        return
    assert layout.row_lines is not None  # commented rows are only found in a rows sequence, whose lines are known
    widths = [len(row.split()) if isinstance(row, str) else 0 for row in rows]
    for r in sorted(layout.commented_rows):
        if r <= len(widths) and widths[r - 1] < max(widths):
            raise BoardFileError(
                "unquoted row contains '#', which YAML reads as the start of a comment: "
                'put the row in double quotes, e.g. - "W R# G"',
                path=path, line=layout.row_lines[r - 1], row=r, column=widths[r - 1] + 1, field="rows")


def board_from_text(text: str, path: str | os.PathLike | None = None) -> Board:
    """Parse the text of a board file (see load_board)."""
    document = parse_yaml(text, path=path, limits=BOARD_LIMITS, error=_board_error)
    data, layout = document.data, _layout(document.root, text)

    def error(message: str, field: str) -> BoardFileError:
        return BoardFileError(message, path=path, line=layout.key_lines.get(field), field=field)

    if data is None:
        raise BoardFileError(f"the file is empty: expected the keys {', '.join(REQUIRED_KEYS)}", path=path)
    if not isinstance(data, dict):
        raise BoardFileError(
            f"expected a mapping with keys {', '.join(REQUIRED_KEYS)}, got {type(data).__name__}", path=path)
    unknown = sorted(k if isinstance(k, str) else brief(k, 40) for k in data if k not in REQUIRED_KEYS + OPTIONAL_KEYS)
    if unknown:
        allowed = ", ".join(REQUIRED_KEYS + OPTIONAL_KEYS)
        raise error(f"unknown key(s) {', '.join(unknown)}; allowed: {allowed}", unknown[0])
    for key in REQUIRED_KEYS:
        if key not in data:
            raise BoardFileError("missing required key", path=path, field=key)
    name = data["name"]
    if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME_CHARS:
        raise error(f"expected a non-empty text of at most {MAX_NAME_CHARS} characters, got {brief(name)}", "name")
    players = data["players"]
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= MAX_PLAYERS:
        raise error(f"expected a whole number of players ≥ 2 (MT 1.01), at most {MAX_PLAYERS}, got {brief(players)}",
                    "players")
    dice = data.get("dice")
    if dice is not None and (not isinstance(dice, str) or dice.upper() not in DICE):
        raise error(f"expected D10 or D12 (MT 1.04), got {brief(dice)}", "dice")
    description = data.get("description", "")
    if not isinstance(description, str) or len(description) > MAX_DESCRIPTION_CHARS:
        raise error(f"expected a text of at most {MAX_DESCRIPTION_CHARS:,} characters, got {brief(description)}",
                    "description")
    _check_commented_rows(data["rows"], layout, path)
    squares = parse_rows(data["rows"], path=path, lines=layout.row_lines)
    return Board(squares, name=name.strip(), players=players,
                 dice=dice.upper() if dice is not None else None, description=description)


def load_board(path: str | os.PathLike) -> Board:
    """Load a board file; raise BoardFileError (file, row, column, field) when it is wrong."""
    path = Path(path)
    return board_from_bytes(read_bytes(path, limits=BOARD_LIMITS, error=_board_error), path)


def board_from_bytes(raw: bytes, path: str | os.PathLike | None = None) -> Board:
    """Parse the raw bytes of a board file: UTF-8 (a BOM is tolerated), then board_from_text."""
    if len(raw) > BOARD_LIMITS.max_bytes:
        raise BoardFileError(f"the file is {len(raw):,} bytes; the limit is {BOARD_LIMITS.max_bytes:,}", path=path)
    return board_from_text(decode_text(raw, path=path, error=_board_error), path)


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


def _file_mode(path: Path) -> int:
    """The existing file's permissions, or those a newly created file gets (umask applied)."""
    if path.exists():
        return path.stat().st_mode & 0o777
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def save_board(board: Board, path: str | os.PathLike) -> None:
    """Write a board file atomically (a crash never leaves half a file)."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.chmod(tmp, _file_mode(path))  # mkstemp makes 0600 files; a board file is ordinary
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(board_to_text(board))
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
