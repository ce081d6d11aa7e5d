"""Board files: the YAML format of architecture.md, with errors that say where.

A board file either loads completely or raises BoardFileError naming the file,
the row, the column and what was expected; it never yields a half-loaded board.
Only PyYAML's safe loader is used: nothing read from a file is executed.
"""
from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
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
        line = lines[r - 1] if lines and r <= len(lines) else None
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


@dataclass(frozen=True)
class _Layout:
    """Where things are in the YAML text (1-based lines), for error messages only."""

    key_lines: dict[str, int]
    row_lines: list[int] | None
    commented_rows: set[int]  # rows (1-based) written without quotes and followed by '#'


def _yaml_error(exc: BaseException, path) -> BoardFileError:
    mark = getattr(exc, "problem_mark", None)
    problem = getattr(exc, "problem", None) or (str(exc).splitlines() or [type(exc).__name__])[0]
    if isinstance(exc, RecursionError):
        problem = "nested too deeply"
    return BoardFileError(f"not valid YAML: {problem}", path=path, line=mark.line + 1 if mark else None)


# PyYAML can fail outside YAMLError on ordinary bad text: 'name: 2024-13-45' (ValueError from
# its date constructor), '[[[[…' (RecursionError). All of them mean "this is not a board file".
_YAML_FAILURES = (yaml.YAMLError, ValueError, TypeError, OverflowError, RecursionError)


def _parse_yaml(text: str, path) -> tuple[object, yaml.Node | None]:
    """The data and its node tree from ONE parse (what yaml.safe_load does, keeping the nodes
    for line numbers): the safe loader builds plain data only, never objects."""
    try:
        loader = yaml.SafeLoader(text)  # already reads the first characters: may fail too
    except _YAML_FAILURES as exc:
        raise _yaml_error(exc, path) from None
    try:
        node = loader.get_single_node()
        return (loader.construct_document(node) if node is not None else None), node
    except _YAML_FAILURES as exc:
        raise _yaml_error(exc, path) from None
    finally:
        loader.dispose()


def _layout(node: yaml.Node | None, text: str, path) -> _Layout:
    """Key and row lines from the YAML node tree; also rejects duplicate keys, which
    yaml.safe_load would silently resolve by keeping the last one."""
    key_lines: dict[str, int] = {}
    row_lines, commented = None, set()
    if not isinstance(node, yaml.MappingNode):
        return _Layout(key_lines, row_lines, commented)
    for key, value in node.value:
        if not isinstance(key, yaml.ScalarNode):
            continue
        if key.value in key_lines:
            raise BoardFileError(f"key given twice (first on line {key_lines[key.value]})",
                                 path=path, line=key.start_mark.line + 1, field=key.value)
        key_lines[key.value] = key.start_mark.line + 1
        if key.value == "rows" and isinstance(value, yaml.SequenceNode):
            row_lines = [item.start_mark.line + 1 for item in value.value]
            for r, item in enumerate(value.value, start=1):
                if isinstance(item, yaml.ScalarNode) and item.style is None:
                    rest_of_line = text[item.end_mark.index:].split("\n", 1)[0]
                    if rest_of_line.lstrip().startswith("#"):
                        commented.add(r)
    return _Layout(key_lines, row_lines, commented)


def _check_commented_rows(rows, layout: _Layout, path) -> None:
    """An unquoted row cut short by '#' (YAML reads the rest as a comment) is reported as
    that, not as a puzzling width error; a complete row followed by a comment is fine."""
    if not isinstance(rows, list) or not layout.commented_rows:
        return
    widths = [len(row.split()) if isinstance(row, str) else 0 for row in rows]
    for r in sorted(layout.commented_rows):
        if r <= len(widths) and widths[r - 1] < max(widths):
            raise BoardFileError(
                "unquoted row contains '#', which YAML reads as the start of a comment: "
                'put the row in double quotes, e.g. - "W R# G"',
                path=path, line=layout.row_lines[r - 1], row=r, column=widths[r - 1] + 1, field="rows")


def board_from_text(text: str, path: str | os.PathLike | None = None) -> Board:
    """Parse the text of a board file (see load_board)."""
    data, node = _parse_yaml(text, path)
    layout = _layout(node, text, path)

    def error(message: str, field: str) -> BoardFileError:
        return BoardFileError(message, path=path, line=layout.key_lines.get(field), field=field)

    if data is None:
        raise BoardFileError(f"the file is empty: expected the keys {', '.join(REQUIRED_KEYS)}", path=path)
    if not isinstance(data, dict):
        raise BoardFileError(
            f"expected a mapping with keys {', '.join(REQUIRED_KEYS)}, got {type(data).__name__}", path=path)
    unknown = sorted(str(k) for k in data if k not in REQUIRED_KEYS + OPTIONAL_KEYS)
    if unknown:
        allowed = ", ".join(REQUIRED_KEYS + OPTIONAL_KEYS)
        raise error(f"unknown key(s) {', '.join(unknown)}; allowed: {allowed}", unknown[0])
    for key in REQUIRED_KEYS:
        if key not in data:
            raise BoardFileError("missing required key", path=path, field=key)
    name = data["name"]
    if not isinstance(name, str) or not name.strip():
        raise error(f"expected a non-empty text, got {name!r}", "name")
    players = data["players"]
    if isinstance(players, bool) or not isinstance(players, int) or players < 2:
        raise error(f"expected a whole number of players ≥ 2 (MT 1.01), got {players!r}", "players")
    dice = data.get("dice")
    if dice is not None and str(dice).upper() not in DICE:
        raise error(f"expected D10 or D12 (MT 1.04), got {dice!r}", "dice")
    description = data.get("description", "")
    if not isinstance(description, str):
        raise error(f"expected a text, got {description!r}", "description")
    _check_commented_rows(data["rows"], layout, path)
    squares = parse_rows(data["rows"], path=path, lines=layout.row_lines)
    return Board(squares, name=name.strip(), players=players,
                 dice=str(dice).upper() if dice is not None else None, description=description)


def load_board(path: str | os.PathLike) -> Board:
    """Load a board file; raise BoardFileError (file, row, column, field) when it is wrong."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise BoardFileError(f"cannot read the file: {exc.strerror or exc}", path=path) from None
    return board_from_bytes(raw, path)


def board_from_bytes(raw: bytes, path: str | os.PathLike | None = None) -> Board:
    """Parse the raw bytes of a board file: UTF-8 (a BOM is tolerated), then board_from_text."""
    try:
        text = raw.decode("utf-8-sig")  # tolerate the BOM some Windows editors add
    except UnicodeDecodeError as exc:
        line_start = raw.rfind(b"\n", 0, exc.start) + 1
        raise BoardFileError(
            f"not UTF-8 text: byte 0x{raw[exc.start]:02X} at byte {exc.start - line_start + 1} of the line; "
            "save the file as UTF-8", path=path, line=raw.count(b"\n", 0, exc.start) + 1) from None
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
