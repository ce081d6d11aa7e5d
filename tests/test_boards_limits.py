"""Board inputs with limits (issue 19's audit): the largest board the companion reads (MAX_SIDE × MAX_SIDE;
MT 2.01 sets no maximum) loads and checks; anything larger, longer or stranger is refused with the limit,
the file, the row and the column; the generator has the same limit and is no longer quadratic (its
nearest-site search gives exactly what the full search gave); the command line never prints a board
file's escape sequences raw. Load times of the largest board: `tactical bench boards`."""
from __future__ import annotations

import json
import os
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boards import BoardFileError, board_from_text, load_board
from boards.fairness import MAX_COMPARED_STARTS, fairness_report, play_problems
from boards.generator import BoardGenerationError, _NearestSites, _distance, _weighted_distance, generate_board
from boards.io import BOARD_LIMITS, MAX_SIDE
from boards.terminal import ColourMode, printable, render_board
from companion.cli.main import main


def board_text(rows: list[str], name: str = "Big", players: int = 2) -> str:
    return f"name: {json.dumps(name)}\nplayers: {players}\nrows:\n" + "".join(f'  - "{row}"\n' for row in rows)


def test_the_largest_board_loads_and_checks_mt_2_01():
    rng = random.Random(3)
    rows = [" ".join(rng.choice(["W", "U", "B", "R", "G", "WU", "R#", "."]) for _ in range(MAX_SIDE))
            for _ in range(MAX_SIDE)]
    rows[0] = "W@ " + rows[0][rows[0].index(" ") + 1:]
    board = board_from_text(board_text(rows))
    assert (board.width, board.height) == (MAX_SIDE, MAX_SIDE)
    assert play_problems(board) is not None and fairness_report(board).players == 2


def test_a_board_of_starts_is_checked_without_running_out_of_memory(tmp_path, capsys):
    """Audit: `board check` on a 200 × 200 board of starts ran out of memory (a search from every start)."""
    path = tmp_path / "starts.yaml"
    path.write_text(board_text([" ".join(["W@"] * MAX_SIDE)] * MAX_SIDE))
    report = fairness_report(load_board(path))
    assert not report.fair and f"compares at most {MAX_COMPARED_STARTS}" in report.unfair_reasons[0]
    assert main(["board", "check", str(path)]) == 0
    assert "too many to compare" in capsys.readouterr().out


@pytest.mark.parametrize("rows,words", [
    ([" ".join(["W"] * (MAX_SIDE + 1))] * 12, f"201 squares; the companion reads rows of at most {MAX_SIDE}"),
    ([" ".join(["W"] * 20)] * (MAX_SIDE + 1), f"201 rows; the companion reads boards of at most {MAX_SIDE}"),
    (["W " * 10 + "U" * 5_000], "(5,000 characters) is not a square code: a code has at most 7"),
    (["W " * 10 + "U" * 100_000], "row 1: a value of 100,020 characters; the limit is 10,000"),
])
def test_boards_beyond_the_limits_are_refused_where_they_go_wrong(rows, words):
    """Audit: a 100 000-character square code took 5.8 s (quadratic); 2 000 × 2 000 took 25 s and 1.2 GB."""
    with pytest.raises(BoardFileError) as caught:
        board_from_text(board_text(rows))
    assert words in str(caught.value) and caught.value.field == "rows"


def test_huge_files_and_devices_are_refused_before_they_are_read(tmp_path):
    """Audit: a single 10 MB row took 32 s; /dev/zero and a FIFO read forever."""
    big = tmp_path / "big.yaml"
    big.write_text(board_text(["W " * 5_000_000]))
    with pytest.raises(BoardFileError, match=f"the limit is {BOARD_LIMITS.max_bytes:,}"):
        load_board(big)
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    for path in ("/dev/zero", fifo):
        with pytest.raises(BoardFileError, match="not a regular file"):
            load_board(path)


@pytest.mark.parametrize("args,words", [
    (["--size", "100000x100000"], "too large: the companion reads boards of at most 200×200"),
    (["--size", "400x240"], "too large"),
    (["--size", "9" * 5000 + "x12"], "expected WIDTHxHEIGHT"),
])
def test_board_new_refuses_sizes_beyond_the_limit_at_once(tmp_path, capsys, args, words):
    """Audit: `board new --size 100000x100000` hung (and 400x240 took 93 s)."""
    assert main(["board", "new", "--out", str(tmp_path / "x.yaml"), *args]) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1
    with pytest.raises(BoardGenerationError, match="too large"):
        generate_board(MAX_SIDE + 1, 20, 2, 0)


def test_board_new_out_a_folder_is_a_clear_error(tmp_path, capsys):
    """Audit: `--out DIR --force` raised IsADirectoryError."""
    assert main(["board", "new", "--out", str(tmp_path), "--force"]) == 2
    assert "is a folder: give the board file's name" in capsys.readouterr().err


SITES = st.lists(st.tuples(st.integers(0, 60), st.integers(0, 40), st.floats(0, 1.5)), min_size=1, max_size=80)


@settings(max_examples=150, deadline=None)
@given(SITES, st.lists(st.tuples(st.floats(-4, 64), st.floats(-4, 44)), min_size=1, max_size=20), st.booleans())
def test_the_generators_nearest_site_is_exactly_the_full_searchs(sites, queries, weighted):
    """The bucketed search returns what `min` over every site returned (so a seed still makes the same board),
    ties included (integer sites at equal distances are common)."""
    index = _NearestSites(4.0, max_weight=1.5)
    listed = []
    for x, y, weight in sites:
        site = ((x, y), "W", weight)
        index.add(site)
        listed.append(site)
    score = _weighted_distance if weighted else _distance
    for qx, qy in queries:
        assert index.nearest(qx, qy, score) is min(listed, key=lambda s: score(s, qx, qy))


ESCAPE = "Évil\x1b[2J\x1b]0;pwned\x07\u202e"


def test_board_names_with_escape_sequences_are_printed_safely(tmp_path, capsys, monkeypatch):
    """Audit: board names with escape sequences (ESC [2J) were printed raw by `board check/show/list`."""
    path = tmp_path / "evil.yaml"
    path.write_text(board_text([" ".join(["W@" if x in (0, 19) and y == 5 else "W" for x in range(20)])
                                for y in range(12)], name=ESCAPE), encoding="utf-8")
    assert load_board(path).name == ESCAPE
    assert printable(ESCAPE) == "Évil\\x1b[2J\\x1b]0;pwned\\x07\\u202e"
    monkeypatch.setattr("companion.cli.board_cmd.library_boards", lambda: {"evil\x1b[31m": path})
    for action in (["show", str(path), "--plain"], ["show", str(path), "--colours", "256"], ["check", str(path)],
                   ["list"]):
        main(["board", *action])
        out = capsys.readouterr().out
        assert "\x1b[2J" not in out and "\x1b]0" not in out and "\u202e" not in out and "\x1b[31m" not in out
        assert "Évil\\x1b[2J" in out
    bad = tmp_path / "bad.yaml"
    bad.write_text(board_text(["W \x1b[2J U"] * 12), encoding="utf-8")
    assert main(["board", "check", str(bad)]) == 2
    assert "\x1b" not in capsys.readouterr().err
    assert "\x1b[2J" not in render_board(load_board(path), ColourMode.TRUECOLOR).splitlines()[0]
