"""Terminal rendering (boards.terminal) and `tactical board new|show|check|list`."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from boards import Board, library_boards, load_board
from boards.fairness import fairness_report
from boards.palette import OBSTACLE_BGR, SQUARE_BGR
from boards.terminal import ColourMode, detect_colour_mode, render_board
from companion.cli.main import main

HAND_WRITTEN = Path(__file__).parent / "fixtures" / "boards" / "good" / "hand-written.yaml"
BAD = Path(__file__).parent / "fixtures" / "boards" / "bad"
SGR = re.compile(r"\x1b\[([0-9;]*)m")


def backgrounds(cell: str) -> list[tuple[int, int, int]]:
    """Truecolour backgrounds in order of appearance."""
    found = []
    for params in SGR.findall(cell):
        parts = [int(p) for p in params.split(";") if p]
        if parts[:2] == [48, 2]:
            found.append(tuple(parts[2:5]))
    return found


def rgb(colour: str) -> tuple[int, int, int]:
    b, g, r = SQUARE_BGR[colour] if colour in SQUARE_BGR else OBSTACLE_BGR
    return r, g, b


def board_lines(text: str) -> list[str]:
    return text.splitlines()


# -- rendering --------------------------------------------------------------------

def test_multicoloured_square_shows_each_colour_mt_2_02_a():
    text = render_board(Board.from_rows(["WU"]), ColourMode.TRUECOLOR)
    row = next(line for line in board_lines(text) if line.startswith("1 "))
    assert backgrounds(row) == [rgb("W"), rgb("U")]


def test_obstacles_are_hatched_and_keep_their_colour_mt_2_03_a_c():
    text = render_board(Board.from_rows([". R#"]), ColourMode.TRUECOLOR)
    row = next(line for line in board_lines(text) if line.startswith("1 "))
    assert backgrounds(row) == [rgb("obstacle"), rgb("R")]
    assert SGR.sub("", row) == "1 ╱╱╱╱"


def test_start_and_temple_marks_are_drawn_mt_2_04_a_b():
    text = render_board(Board.from_rows(["G@ B* W"]), ColourMode.TRUECOLOR)
    row = next(line for line in board_lines(text) if line.startswith("1 "))
    assert SGR.sub("", row) == "1 @ *   "


def test_three_colour_square_gets_a_wider_cell():
    text = render_board(Board.from_rows(["WUB G"]), ColourMode.TRUECOLOR)
    row = next(line for line in board_lines(text) if line.startswith("1 "))
    assert backgrounds(row) == [rgb("W"), rgb("U"), rgb("B"), rgb("G")]
    assert len(SGR.sub("", row)) == len("1 ") + 2 * 3


def test_plain_rendering_has_codes_letters_and_row_numbers():
    board = load_board(HAND_WRITTEN)
    lines = board_lines(render_board(board, ColourMode.PLAIN))
    assert "\x1b" not in "".join(lines)
    assert lines[1].split() == ["A", "B", "C", "D"]
    assert lines[3].split() == ["2", "G", "R#", "B*", "UBRG"]
    assert "Temple du Deus" in lines[-1]


def test_column_letters_past_z_stay_readable():
    """40 columns (MT 1.02.a 4-player board): AA..AN are written on two header lines."""
    board = load_board(library_boards()["quatuor-40x25"])
    lines = board_lines(render_board(board, ColourMode.TRUECOLOR))
    top, bottom = lines[1], lines[2]
    pairs = [(top[i], bottom[i]) for i in range(len(bottom)) if bottom[i] != " "]
    labels = ["".join(p).strip() for p in pairs]
    assert labels[:3] == ["A", "B", "C"] and labels[26:28] == ["AA", "AB"] and labels[-1] == "AN"
    assert lines[3].startswith(" 1 ") and lines[27].startswith("25 ")


def test_256_colour_mode_keeps_black_grey():
    """The dark-grey 'black' squares must not turn blue in 256 colours."""
    text = render_board(Board.from_rows(["B"]), ColourMode.ANSI256)
    code = int(re.search(r"48;5;(\d+)m", text)[1])
    assert 232 <= code <= 255 or code == 16


def test_colour_mode_detection():
    assert detect_colour_mode({"NO_COLOR": "1", "COLORTERM": "truecolor"}) is ColourMode.PLAIN
    assert detect_colour_mode({"COLORTERM": "truecolor"}) is ColourMode.TRUECOLOR
    assert detect_colour_mode({}) is ColourMode.ANSI256


# -- command line -----------------------------------------------------------------

def test_board_new_writes_a_fair_board_and_is_repeatable(tmp_path, capsys):
    first, second = tmp_path / "a.yaml", tmp_path / "b.yaml"
    for out in (first, second):
        assert main(["board", "new", "--size", "20x12", "--players", "2", "--seed", "5",
                     "--out", str(out), "--name", "Essai"]) == 0
    assert first.read_text(encoding="utf-8") == second.read_text(encoding="utf-8")
    board = load_board(first)
    assert (board.name, board.width, board.height) == ("Essai", 20, 12)
    assert fairness_report(board).fair
    assert "wrote" in capsys.readouterr().out


def test_board_new_refuses_to_overwrite_without_force(tmp_path, capsys):
    out = tmp_path / "a.yaml"
    out.write_text("keep me", encoding="utf-8")
    assert main(["board", "new", "--seed", "1", "--out", str(out)]) == 2
    assert "already exists" in capsys.readouterr().err
    assert out.read_text(encoding="utf-8") == "keep me"
    assert main(["board", "new", "--seed", "1", "--out", str(out), "--force"]) == 0


@pytest.mark.parametrize("args,words", [
    (["--size", "20by12"], "expected WIDTHxHEIGHT"),
    (["--size", "10x10"], "MT 2.01"),
    (["--players", "6"], "2, 3 or 4 players"),
])
def test_board_new_bad_requests_exit_2_with_one_line(tmp_path, capsys, args, words):
    assert main(["board", "new", "--out", str(tmp_path / "x.yaml"), *args]) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1 and "Traceback" not in err
    assert not (tmp_path / "x.yaml").exists()


def test_board_show_library_board_by_name(capsys):
    assert main(["board", "show", "duel-20x12", "--plain"]) == 0
    out = capsys.readouterr().out
    board = load_board(library_boards()["duel-20x12"])
    assert board.name in out
    assert out.count("@") == 2 + 1  # two starts and the legend


def test_board_show_colours(capsys):
    assert main(["board", "show", str(HAND_WRITTEN), "--colours", "truecolor"]) == 0
    out = capsys.readouterr().out
    assert rgb("U") in backgrounds(out)


@pytest.mark.parametrize("action", ["show", "check"])
def test_bad_board_file_exits_2_with_the_location(capsys, action):
    path = BAD / "bad-square-code.yaml"
    assert main(["board", action, str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.err == f"error: {path}:5, field 'rows', row 2, column 3 (C): " \
                           "'WX' is not a square code: expected colour letters among W U B R G, " \
                           "then optional marks # (obstacle), @ (start), * (Temple du Deus), or '.' alone\n"
    assert captured.out == ""


def test_board_show_missing_file_exits_2(capsys, tmp_path):
    assert main(["board", "show", str(tmp_path / "nothing.yaml")]) == 2
    assert "cannot read the file" in capsys.readouterr().err


def test_board_check_fair_library_board(capsys):
    assert main(["board", "check", "quatuor-40x25"]) == 0
    out = capsys.readouterr().out
    assert "playable: yes" in out and "fair: yes (4 players)" in out
    assert "mirror left-right" in out and "mirror top-bottom" in out


def test_board_check_unplayable_board_exits_1_mt_2_01(capsys):
    assert main(["board", "check", str(HAND_WRITTEN)]) == 1
    out = capsys.readouterr().out
    assert "playable: no" in out and "MT 2.01" in out


def test_board_list_names_every_bundled_board(capsys):
    assert main(["board", "list"]) == 0
    out = capsys.readouterr().out
    for stem, path in library_boards().items():
        assert stem in out and load_board(path).name in out
