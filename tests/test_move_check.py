"""Checking a detected move against the last roll (companion.move_check)."""
from hypothesis import given, settings
from hypothesis import strategies as st

from boards import Board
from companion.move_check import check_move, shortest_path_length
from companion.rules import Piece, reachable

# 8×4 board; '.' are obstacles. Row 1 has a wall from column 1 to 3.
BOARD = Board.from_rows([
    "W W W W W W W W",
    "W . . . W W W W",
    "W W W W W W W W",
    "W W W W W W W W",
])


def creature(at, **kw):
    return Piece(1, 7, at=at, **kw)


def test_within_the_roll_is_legal_MT_3_04_b():
    check = check_move(BOARD, creature((0, 0)), (5, 0), 5)
    assert check.legal and check.steps == 5
    assert check.text("en") == "5 squares, rolled 5: legal"


def test_fewer_squares_than_rolled_is_legal_MT_3_04_b():
    assert check_move(BOARD, creature((0, 0)), (2, 0), 6).legal


def test_too_far_names_the_squares_and_the_roll_MT_3_04_b():
    check = check_move(BOARD, creature((0, 0)), (7, 0), 5)
    assert not check.legal and check.steps == 7 and check.rule == "MT 3.04.b"
    assert check.text("en") == "7 squares but rolled 5 (MT 3.04.b)"
    assert check.text("fr") == "7 cases mais le jet est de 5 (MT 3.04.b)"


def test_detour_around_obstacles_counts_the_real_path_MT_2_03_b_and_3_07():
    # (2, 0) -> (2, 2): the wall at row 1 spans columns 1..3; shortest walk goes via column 0 or 4:
    # (2,0)->(1,0)->(0,0)->(0,1)->(0,2)->(1,2)->(2,2) = 6 steps.
    assert shortest_path_length(BOARD, (2, 0), (2, 2)) == 6
    assert not check_move(BOARD, creature((2, 0)), (2, 2), 5).legal
    assert check_move(BOARD, creature((2, 0)), (2, 2), 6).legal


def test_flying_crosses_obstacles_MT_6_03():
    flyer = creature((2, 0), keywords={"flying"})
    assert shortest_path_length(BOARD, (2, 0), (2, 2), flying=True) == 2
    assert check_move(BOARD, flyer, (2, 2), 2).legal


def test_diagonal_step_counts_two_orthogonal_squares_MT_3_07():
    check = check_move(BOARD, creature((5, 2)), (6, 3), 1)
    assert not check.legal and check.steps == 2 and check.rule == "MT 3.07"
    assert "orthogonal" in check.text("en") and "orthogonaux" in check.text("fr")


def test_ending_on_an_obstacle_is_illegal_MT_2_03_b():
    check = check_move(BOARD, creature((1, 0)), (1, 1), 4)
    assert not check.legal and check.reason == "obstacle" and check.rule == "MT 2.03.b"
    assert check.text("en") == "ends on an obstacle (MT 2.03.b)"


def test_ending_on_an_occupied_square_is_illegal_but_passing_through_is_fine_MT_3_06():
    piece = creature((4, 3))
    occupied = {(5, 3), (6, 3)}
    stop = check_move(BOARD, piece, (6, 3), 5, occupied=occupied)
    assert not stop.legal and stop.reason == "occupied" and stop.rule == "MT 3.06"
    assert stop.text("fr") == "finit sur une case occupée (MT 3.06)"
    assert check_move(BOARD, piece, (7, 3), 3, occupied=occupied).legal   # passes through both


def test_tapped_creatures_do_not_move_MT_3_02():
    check = check_move(BOARD, creature((0, 0), tapped=True), (1, 0), 5)
    assert not check.legal and check.rule == "MT 3.02"
    assert check.text("en") == "tapped creatures do not move (MT 3.02)"


def test_summoning_sick_creatures_do_not_move_MT_3_02():
    check = check_move(BOARD, creature((0, 0), summoning_sick=True), (1, 0), 5)
    assert not check.legal and check.reason == "sick"


def test_staying_put_is_always_legal_MT_3_04_b():
    check = check_move(BOARD, creature((0, 0), tapped=True), (0, 0), 0)
    assert check.legal and check.text("fr") == "n'a pas bougé"


def test_off_the_board_is_named():
    check = check_move(BOARD, creature((0, 0)), (9, 0), 12)
    assert not check.legal and check.reason == "off_grid"


walkable_rows = st.lists(st.lists(st.sampled_from(["W", "U", "."]), min_size=6, max_size=6), min_size=4, max_size=4)


@settings(max_examples=60, deadline=None)
@given(rows=walkable_rows, start=st.tuples(st.integers(0, 5), st.integers(0, 3)),
       to=st.tuples(st.integers(0, 5), st.integers(0, 3)), allowance=st.integers(0, 8),
       occupied=st.sets(st.tuples(st.integers(0, 5), st.integers(0, 3)), max_size=4))
def test_verdict_agrees_with_the_rules_engine_MT_3_04_b_3_06_3_07(rows, start, to, allowance, occupied):
    rows[start[1]][start[0]] = "W"
    board = Board.from_rows([" ".join(r) for r in rows])
    occupied = frozenset(occupied) - {start}
    check = check_move(board, creature(start), to, allowance, occupied=occupied)
    assert check.legal == (to in reachable(board, start, allowance, occupied=occupied))
    if not check.legal:
        assert check.reason and check.text("en") and check.text("fr")
