"""The Board/Square model and the square notation (MT 2.01–2.04)."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from boards import Board, Square, SquareCodeError, column_label, parse_grid_size, parse_square_label, square_label


def test_square_codes_mt_2_02_a_multicoloured_in_any_order():
    """MT 2.02.a: a square can carry several colours; letters in any order, stored as a set."""
    assert Square.parse("UW").colours == {"W", "U"}
    assert Square.parse("UW").code == "WU"
    assert Square.parse("GRBUW").code == "WUBRG"


def test_colourless_square_is_an_obstacle_mt_2_03_a():
    for code in (".", "#"):
        square = Square.parse(code)
        assert square.obstacle and not square.walkable and not square.colours
    assert Square().obstacle  # even built directly, no colour means obstacle


def test_coloured_obstacle_keeps_its_colour_mt_2_03_c():
    square = Square.parse("R#")
    assert square.obstacle and not square.walkable
    assert square.colours == {"R"}
    assert square.code == "R#"


def test_start_and_temple_marks_mt_2_04_a_b():
    assert Square.parse("G@").start and not Square.parse("G@").temple
    assert Square.parse("B*").temple
    both = Square.parse("W@*")
    assert both.start and both.temple and both.walkable


@pytest.mark.parametrize("code", ["R#@", "#*", "@", ".@", ".*", "U#*"])
def test_start_or_temple_on_an_obstacle_is_refused_mt_2_03_b(code):
    """MT 2.03.b: nobody may stand on an obstacle, so a start/Temple there makes no sense."""
    with pytest.raises(SquareCodeError, match="cannot be an obstacle"):
        Square.parse(code)


@pytest.mark.parametrize("code,words", [("WW", "colour W given more than once"),
                                         ("R##", "mark # given more than once"),
                                         ("X", "not a square code"), ("@R", "not a square code"),
                                         ("", "not a square code")])
def test_bad_square_codes_say_what_was_expected(code, words):
    with pytest.raises(SquareCodeError, match=words):
        Square.parse(code)


@given(colours=st.sets(st.sampled_from("WUBRG"), min_size=1), obstacle=st.booleans(),
       start=st.booleans(), temple=st.booleans())
def test_every_valid_square_round_trips_through_its_code(colours, obstacle, start, temple):
    if obstacle and (start or temple):
        return  # refused, tested above
    square = Square(frozenset(colours), obstacle=obstacle, start=start, temple=temple)
    assert Square.parse(square.code) == square


@given(st.integers(0, 2000), st.integers(0, 2000))
def test_square_labels_round_trip(x, y):
    assert parse_square_label(square_label((x, y))) == (x, y)


def test_square_labels_as_people_say_them():
    assert square_label((0, 0)) == "A1"
    assert square_label((25, 11)) == "Z12"
    assert square_label((26, 0)) == "AA1"
    assert column_label(39) == "AN"
    assert parse_square_label("aa12") == (26, 11)
    with pytest.raises(ValueError):
        parse_square_label("12A")


def test_board_is_rectangular_and_indexed_x_then_y_mt_2_01():
    board = Board.from_rows(["W U B", "R G WU"])
    assert (board.width, board.height) == (3, 2)
    assert board.square(2, 1).colours == {"W", "U"}
    with pytest.raises(IndexError, match="outside"):
        board.square(3, 0)
    with pytest.raises(ValueError, match="different lengths"):
        Board((tuple(board.squares[0]), tuple(board.squares[1][:2])))


def test_replace_square_returns_a_new_board():
    board = Board.from_rows(["W U", "R G"], name="x", players=3)
    changed = board.replace_square((1, 0), Square.parse("B*"))
    assert board.square(1, 0).colours == {"U"}
    assert changed.square(1, 0).temple and changed.players == 3 and changed.name == "x"
    assert changed.temples == [(1, 0)]


@pytest.mark.parametrize("text, grid", [("20x12", (20, 12)), (" 40 × 25 ", (40, 25)), ("8X8", (8, 8)), ("9*9", (9, 9))])
def test_a_grid_size_is_read_as_width_by_height(text, grid):
    """The one reader of a typed grid size, shared by `tactical scan --grid` and the New game form."""
    assert parse_grid_size(text) == grid


@pytest.mark.parametrize("text", ["", "20", "20x", "x12", "0x5", "5x0", "-3x4", "2.5x4", "20x12x3", "1234567890x2"])
def test_what_is_not_a_grid_size_is_refused_with_what_was_expected(text):
    with pytest.raises(ValueError, match="WIDTHxHEIGHT"):
        parse_grid_size(text)
