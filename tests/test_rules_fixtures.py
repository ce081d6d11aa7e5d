"""Perft-style fixture files for the rules engine (tests/fixtures/rules/*.txt).

Each file holds named boards and cases. A case is a board, one query line and the
expected squares drawn as a grid, written by reasoning about the rule, so that a
person can check every case by eye:

    board open5                    # a named board, reusable by later cases
      W W W W W
      ...

    == MT 4.03.c corner, MV 0 ==    # a case; its name is the pytest id
    board: open5                    # or `board:` followed by indented rows
    query: action_zone at=A1 mv=0
    expect:
      o x . . .
      x . . . .

Expected-grid legend: `x` in the result, `.` not in it, `o` the piece / centre (not in
the result), `O` the piece in the result (e.g. reachable's start), `#` an obstacle not
in the result, `+` an occupied square not in the result. `#` and `+` are checked
against the board and the query, so a mistyped grid is reported, not silently accepted.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from boards import Board, parse_square_label
from boards.io import BoardFileError
from companion.rules import (DEFAULT_HOUSE_RULES, HouseRules, Piece, action_zone, attack_squares,
                             creature_spell_entry, legal_moves, provoke_squares, reachable, return_entry,
                             spell_zone, token_entry)

FIXTURES = Path(__file__).parent / "fixtures" / "rules"
MARKS = {"x": True, ".": False, "o": False, "O": True, "#": False, "+": False}


class FixtureError(ValueError):
    """A fixture file that cannot be read, with file and line."""

    def __init__(self, path: Path, line: int, message: str):
        super().__init__(f"{path.name}:{line}: {message}")


@dataclass
class Case:
    name: str
    path: Path
    line: int
    board: Board
    query: str
    query_line: int
    expect: list[str]
    expect_line: int


def _squares(text: str) -> frozenset[tuple[int, int]]:
    return frozenset(parse_square_label(s) for s in text.split(",") if s)


def _flag(text: str) -> bool:
    if text not in ("yes", "no"):
        raise ValueError(f"expected yes or no, got {text!r}")
    return text == "yes"


def _piece(args: dict) -> Piece:
    """A piece from query arguments (for legal_moves)."""
    return Piece(1, 1, kind=args.pop("kind", "creature"), at=parse_square_label(args.pop("at")),
                 mana_value=int(args.pop("mv", "0")),
                 power=int(args.pop("power")) if "power" in args else None,
                 toughness=int(args.pop("toughness")) if "toughness" in args else None,
                 colours=frozenset(args.pop("colours", "")),
                 keywords=frozenset(k for k in args.pop("keywords", "").split(",") if k),
                 tapped=_flag(args.pop("tapped", "no")), summoning_sick=_flag(args.pop("sick", "no")))


def run_query(board: Board, query: str) -> tuple[frozenset, tuple[int, int] | None, frozenset]:
    """Evaluate a query line → (result squares, centre/piece square, occupied squares)."""
    name, *words = query.split()
    args = {}
    for word in words:
        if "=" not in word:
            raise ValueError(f"argument {word!r} is not key=value")
        key, value = word.split("=", 1)
        args[key] = value
    occupied = _squares(args.pop("occupied", ""))
    flying = _flag(args.pop("flying", "no"))
    house = HouseRules(metric=args.pop("metric", "manhattan"),
                       landwalk_reading=args.pop("landwalk", DEFAULT_HOUSE_RULES.landwalk_reading))
    if name == "action_zone":
        at = parse_square_label(args.pop("at"))
        result = action_zone(board, at, int(args.pop("mv")), reach=_flag(args.pop("reach", "no")),
                             metric=house.metric)
    elif name == "action_zone_offgrid":
        at, result = None, action_zone(board, None, int(args.pop("mv")))
    elif name == "spell_zone":
        at = parse_square_label(args.pop("at"))
        result = spell_zone(board, at, int(args.pop("mv")), metric=house.metric)
    elif name == "reachable":
        at = parse_square_label(args.pop("start"))
        result = reachable(board, at, int(args.pop("allowance")), occupied=occupied, flying=flying)
    elif name == "attack_squares":
        at = parse_square_label(args.pop("target"))
        result = attack_squares(board, at, occupied=occupied, flying=flying)
    elif name == "provoke_squares":
        at = parse_square_label(args.pop("attacker"))
        result = provoke_squares(board, at, occupied=occupied, flying=flying)
    elif name in ("creature_spell_entry", "return_entry"):
        at = parse_square_label(args.pop("at"))
        entry = creature_spell_entry if name == "creature_spell_entry" else return_entry
        result = entry(board, at, int(args.pop("mv")), occupied=occupied, flying=flying, house=house).squares
    elif name == "token_entry":
        source = args.pop("source")
        controller = parse_square_label(args.pop("controller"))
        source_at = None if source == "offgrid" else parse_square_label(source)
        at = source_at or controller
        result = token_entry(board, source_at, int(args.pop("mv")), controller, occupied=occupied,
                             flying=flying, house=house).squares
    elif name == "legal_moves":
        dice = tuple(int(d) for d in args.pop("dice").split(",") if d)
        piece = _piece(args)
        at, result = piece.at, legal_moves(board, piece, dice, occupied=occupied, house=house)
    else:
        raise ValueError(f"unknown query {name!r}")
    if args:
        raise ValueError(f"unknown arguments for {name}: {', '.join(sorted(args))}")
    return result, at, occupied


def parse_file(path: Path) -> list[Case]:
    """All cases of one fixture file; FixtureError (file:line) for anything malformed."""
    lines = path.read_text(encoding="utf-8").splitlines()
    boards: dict[str, Board] = {}
    cases: list[Case] = []
    i = 0

    def indented_block(start: int) -> tuple[list[str], int]:
        rows, j = [], start
        while j < len(lines) and lines[j].startswith((" ", "\t")) and lines[j].strip():
            rows.append(lines[j].strip())
            j += 1
        return rows, j

    def make_board(rows: list[str], line: int) -> Board:
        if not rows:
            raise FixtureError(path, line, "expected indented board rows after this line")
        try:
            return Board.from_rows(rows)
        except BoardFileError as exc:
            raise FixtureError(path, line + (exc.row or 1), str(exc)) from None

    while i < len(lines):
        text = lines[i].strip()
        if not text or text.startswith("//"):
            i += 1
        elif text.startswith("board ") and not text.startswith("board:"):
            name = text.split(None, 1)[1]
            rows, j = indented_block(i + 1)
            boards[name] = make_board(rows, i + 1)
            i = j
        elif text.startswith("==") and text.endswith("=="):
            name, start = text.strip("= ").strip(), i + 1
            if not name:
                raise FixtureError(path, start, "case without a name")
            if any(c.name == name for c in cases):
                raise FixtureError(path, start, f"case name {name!r} used twice")
            i += 1
            board = query = expect = None
            query_line = expect_line = 0
            while i < len(lines) and not lines[i].strip().startswith("=="):
                text = lines[i].strip()
                if not text or text.startswith("//"):
                    i += 1
                elif text.startswith("board:"):
                    ref = text[len("board:"):].strip()
                    if ref:
                        if ref not in boards:
                            raise FixtureError(path, i + 1, f"unknown board {ref!r}; define it with 'board {ref}'")
                        board, i = boards[ref], i + 1
                    else:
                        rows, j = indented_block(i + 1)
                        board, i = make_board(rows, i + 1), j
                elif text.startswith("query:"):
                    query, query_line, i = text[len("query:"):].strip(), i + 1, i + 1
                elif text.startswith("expect:"):
                    expect, i = indented_block(i + 1)
                    expect_line = i - len(expect) + 1  # 1-based line of the first grid row
                elif text.startswith("board "):
                    break
                else:
                    raise FixtureError(path, i + 1, f"expected 'board:', 'query:' or 'expect:', got {text!r}")
            for what, value in (("board:", board), ("query:", query), ("expect:", expect)):
                if not value:
                    raise FixtureError(path, start, f"case {name!r} has no {what}")
            cases.append(Case(name, path, start, board, query, query_line, expect, expect_line))
        else:
            raise FixtureError(path, i + 1, f"expected 'board NAME', '== case name ==' or a blank line, got {text!r}")
    return cases


def expected_squares(case: Case, centre, occupied) -> frozenset[tuple[int, int]]:
    """Decode the expected grid, checking its shape and its `o #  +` marks."""
    board = case.board
    if len(case.expect) != board.height:
        raise FixtureError(case.path, case.expect_line, f"expected grid has {len(case.expect)} rows, board has {board.height}")
    found = set()
    for y, row in enumerate(case.expect):
        marks = row.split()
        line = case.expect_line + y
        if len(marks) != board.width:
            raise FixtureError(case.path, line, f"row has {len(marks)} marks, board has {board.width} columns")
        for x, mark in enumerate(marks):
            if mark not in MARKS:
                raise FixtureError(case.path, line, f"unknown mark {mark!r} (x . o O # +)")
            if (mark in "oO") != ((x, y) == centre):
                raise FixtureError(case.path, line, f"'o'/'O' must mark exactly the piece square, see column {x + 1}")
            if mark == "#" and board.walkable((x, y)):
                raise FixtureError(case.path, line, f"'#' on a square that is not an obstacle, column {x + 1}")
            if mark == "+" and (x, y) not in occupied:
                raise FixtureError(case.path, line, f"'+' on a square that is not occupied, column {x + 1}")
            if MARKS[mark]:
                found.add((x, y))
    return frozenset(found)


def _all_cases() -> list[Case]:
    return [case for path in sorted(FIXTURES.glob("*.txt")) for case in parse_file(path)]


def _grid(board: Board, squares, centre) -> str:
    return "\n".join(" ".join(("O" if (x, y) in squares else "o") if (x, y) == centre else
                              ("x" if (x, y) in squares else ".") for x in range(board.width))
                     for y in range(board.height))


CASES = _all_cases()


@pytest.mark.parametrize("case", CASES, ids=[f"{c.path.stem}:{c.name}" for c in CASES])
def test_fixture_case(case: Case):
    """One fixture block: the query's squares equal the grid drawn by hand (rule named in the case)."""
    try:
        result, centre, occupied = run_query(case.board, case.query)
    except (ValueError, KeyError) as exc:
        raise FixtureError(case.path, case.query_line, f"bad query: {exc}") from None
    expected = expected_squares(case, centre, occupied)
    assert result == expected, (f"{case.path.name}:{case.line} {case.name}\n"
                                f"expected:\n{_grid(case.board, expected, centre)}\n"
                                f"got:\n{_grid(case.board, result, centre)}")


def test_fixture_count():
    """The fixture files hold at least 150 hand-checked cases (issue 3)."""
    assert len(CASES) >= 150, len(CASES)


def test_fixture_errors_name_file_and_line(tmp_path):
    """A malformed fixture file is reported with its file name and line number."""
    bad = tmp_path / "bad.txt"
    bad.write_text("== broken ==\nboard:\n  W W\n  W\nquery: reachable start=A1 allowance=1\n", encoding="utf-8")
    with pytest.raises(FixtureError, match=r"bad\.txt:4: .*row has 1 squares"):
        parse_file(bad)
    bad.write_text("== no query ==\nboard:\n  W W\nexpect:\n  O x\n", encoding="utf-8")
    with pytest.raises(FixtureError, match=r"bad\.txt:1: case 'no query' has no query:"):
        parse_file(bad)
    bad.write_text("nonsense\n", encoding="utf-8")
    with pytest.raises(FixtureError, match=r"bad\.txt:1: expected 'board NAME'"):
        parse_file(bad)


def test_expected_grid_marks_are_checked(tmp_path):
    """A `#` drawn on a walkable square is a fixture error, not a silent pass."""
    path = tmp_path / "marks.txt"
    path.write_text("== wrong mark ==\nboard:\n  W W\nquery: reachable start=A1 allowance=1\nexpect:\n  O #\n",
                    encoding="utf-8")
    (case,) = parse_file(path)
    _, centre, occupied = run_query(case.board, case.query)
    with pytest.raises(FixtureError, match=r"marks\.txt:6: '#' on a square that is not an obstacle"):
        expected_squares(case, centre, occupied)
