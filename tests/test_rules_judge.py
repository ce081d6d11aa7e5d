"""One verdict on a move for the engine, the camera and the app: companion.rules.judge_move."""
from hypothesis import given, settings
from hypothesis import strategies as st

from boards import Board
from companion.rules import HouseRules, Piece, judge_move, legal_moves, path_length, reachable

HOUSE = HouseRules()
# 8×4 board; '.' are obstacles. Row 1 has a wall from column 1 to 3.
BOARD = Board.from_rows([
    "W W W W W W W W",
    "W . . . W W W W",
    "W W W W W W W W",
    "W W W W W W W W",
])


def creature(at, **kw):
    return Piece(1, 7, at=at, **kw)


def judge(piece, to, left, **kw):
    return judge_move(BOARD, piece, to, left=left, house=kw.pop("house", HOUSE), **kw)


def test_within_what_is_left_is_legal_MT_3_04_b():
    verdict = judge(creature((0, 0)), (5, 0), 5)
    assert verdict.legal and verdict.steps == 5 and verdict.key == "game.move.legal"
    assert verdict.text("en") == "5 squares, 5 left: allowed"
    assert verdict.text("fr") == "5 cases, il en reste 5 : permis"


def test_fewer_squares_than_left_is_legal_MT_3_04_b():
    assert judge(creature((0, 0)), (2, 0), 6).legal


def test_too_far_names_the_squares_and_what_is_left_MT_3_04_a():
    verdict = judge(creature((0, 0)), (7, 0), 5)
    assert not verdict.legal and verdict.steps == 7 and verdict.rule == "MT 3.04.a"
    assert (verdict.key, verdict.fields["steps"], verdict.fields["left"]) == ("game.move.too_far", 7, 5)
    assert verdict.text("en") == "7 squares, 5 left: too far (MT 3.04.a)"
    assert verdict.text("fr") == "7 cases, il en reste 5 : trop loin (MT 3.04.a)"


def test_detour_around_obstacles_counts_the_real_path_MT_2_03_b_and_3_07():
    # (2, 0) -> (2, 2): the wall at row 1 spans columns 1..3; shortest walk goes via column 0 or 4:
    # (2,0)->(1,0)->(0,0)->(0,1)->(0,2)->(1,2)->(2,2) = 6 steps.
    assert path_length(BOARD, (2, 0), (2, 2)) == 6
    assert not judge(creature((2, 0)), (2, 2), 5).legal
    assert judge(creature((2, 0)), (2, 2), 6).legal


def test_flying_and_distortion_cross_obstacles_MT_6_03_and_6_10():
    assert path_length(BOARD, (2, 0), (2, 2), flying=True) == 2
    for keyword in ("flying", "distortion"):
        piece = creature((2, 0), keywords={keyword})
        assert judge(piece, (2, 2), 2).legal and judge(piece, (2, 1), 1).legal  # may stop on the obstacle


def test_diagonal_step_counts_two_orthogonal_squares_MT_3_07():
    verdict = judge(creature((5, 2)), (6, 3), 1)
    assert not verdict.legal and verdict.steps == 2 and verdict.rule == "MT 3.07"
    assert "diagonal" in verdict.text("en") and "diagonale" in verdict.text("fr")


def test_ending_on_an_obstacle_is_illegal_MT_2_03_b():
    verdict = judge(creature((1, 0)), (1, 1), 4)
    assert not verdict.legal and verdict.key == "game.move.obstacle" and verdict.rule == "MT 2.03.b"
    assert verdict.text("en") == "B2 is an obstacle (MT 2.03.b)"


def test_ending_on_an_occupied_square_is_illegal_but_passing_through_is_fine_MT_3_06():
    piece = creature((4, 3))
    occupied = {(5, 3), (6, 3)}
    stop = judge(piece, (6, 3), 5, occupied=occupied)
    assert not stop.legal and stop.key == "game.move.occupied" and stop.rule == "MT 3.06.a"
    assert stop.text("fr") == "G4 est déjà occupée (MT 3.06.a)"
    assert judge(piece, (7, 3), 3, occupied=occupied).legal   # passes through both (MT 3.06.b)
    assert judge(piece, (5, 3), 1, occupied={(4, 3)}).legal   # its own square in `occupied` is ignored


def test_tapped_sick_and_defender_creatures_do_not_move_MT_3_02_and_3_08_a():
    tapped = judge(creature((0, 0), tapped=True), (1, 0), 5)
    assert not tapped.legal and tapped.rule == "MT 3.02"
    assert tapped.text("en") == "tapped, it does not move (MT 3.02)"
    sick = judge(creature((0, 0), summoning_sick=True), (1, 0), 5)
    assert not sick.legal and sick.key == "game.move.sick"
    wall = judge(creature((0, 0), keywords={"defender"}), (1, 0), 5)
    assert not wall.legal and wall.rule == "MT 3.08.a" and "{T}" in wall.text("fr")


def test_staying_put_is_always_legal_MT_3_04_b():
    verdict = judge(creature((0, 0), tapped=True), (0, 0), 0)
    assert verdict.legal and verdict.steps == 0 and verdict.text("fr") == "n'a pas bougé"


def test_off_the_board_and_off_the_grid_are_named_MT_2_01_and_5_01_b():
    assert judge(creature((0, 0)), (9, 0), 12).key == "game.move.off_board"
    off = judge(creature(None), (1, 0), 3)
    assert not off.legal and off.rule == "MT 5.01.b"


# -- the two disagreements between the camera's old check and the engine (issue 17), pinned --------

RED_GREEN = Board.from_rows(["RG RG W", "R W W"])


def test_sick_red_creature_on_red_is_refused_when_the_table_says_haste_does_not_lift_sickness_MT_3_02():
    """MT 3.02 with the house rule haste_moves_when_sick=False: a summoning-sick red creature on a red square
    (MT 2.02.b.04 haste) does not move — the camera said legal before, the engine refused."""
    sick_red = Piece(1, 4, colours={"R"}, summoning_sick=True, at=(0, 1))
    strict = HouseRules(haste_moves_when_sick=False)
    assert judge_move(RED_GREEN, sick_red, (1, 1), left=3, house=HOUSE).legal
    refused = judge_move(RED_GREEN, sick_red, (1, 1), left=3, house=strict)
    assert not refused.legal and refused.key == "game.move.sick" and refused.rule == "MT 3.02"
    assert legal_moves(RED_GREEN, sick_red, left=3, house=strict) == {(0, 1)}


def test_sick_red_green_creature_with_red_chosen_on_a_red_green_square_moves_MT_2_02_c():
    """MT 2.02.c: a red-green creature on a red-green square chose red at upkeep: it has haste and moves while
    summoning sick — the engine allowed it, the camera said "sick"; without the choice it is sick."""
    gruul = Piece(1, 5, colours={"R", "G"}, summoning_sick=True, at=(0, 0))
    assert judge_move(RED_GREEN, gruul, (0, 1), left=2, house=HOUSE, chosen_bonus="R").legal
    assert judge_move(RED_GREEN, gruul, (0, 1), left=2, house=HOUSE, chosen_bonus="G").key == "game.move.sick"
    assert judge_move(RED_GREEN, gruul, (0, 1), left=2, house=HOUSE).key == "game.move.sick"
    assert (0, 1) in legal_moves(RED_GREEN, gruul, left=2, chosen_bonus="R", house=HOUSE)


def test_red_square_haste_is_read_where_the_movement_began_MT_2_02_b_04():
    """A sick red creature that started on a red square keeps moving after it left it (its movement began
    there); judged from a white square alone it would be sick."""
    moved_on = Piece(1, 4, colours={"R"}, summoning_sick=True, at=(1, 1))
    assert judge_move(RED_GREEN, moved_on, (2, 1), left=2, house=HOUSE, start=(0, 1)).legal
    assert not judge_move(RED_GREEN, moved_on, (2, 1), left=2, house=HOUSE).legal


walkable_rows = st.lists(st.lists(st.sampled_from(["W", "G", "U", ".", "G#"]), min_size=6, max_size=6),
                         min_size=4, max_size=4)


@settings(max_examples=150, deadline=None)
@given(rows=walkable_rows, start=st.tuples(st.integers(0, 5), st.integers(0, 3)),
       left=st.integers(0, 8), occupied=st.sets(st.tuples(st.integers(0, 5), st.integers(0, 3)), max_size=4),
       keywords=st.sets(st.sampled_from(["flying", "distortion", "forestwalk", "defender"]), max_size=2),
       sick=st.booleans(), tapped=st.booleans(), red=st.booleans(),
       reading=st.sampled_from(["start_square", "start_or_end_square"]), haste_when_sick=st.booleans())
def test_verdict_agrees_with_legal_moves_square_by_square_MT_3_02_to_3_07_and_6_09(
        rows, start, left, occupied, keywords, sick, tapped, red, reading, haste_when_sick):
    """judge_move(q).legal ⇔ q ∈ legal_moves(left=…) on every square, whatever the keywords, house rules,
    sickness and obstacles: the app's green squares and the verdict the camera shows never disagree."""
    rows[start[1]][start[0]] = "R" if red else "W"
    board = Board.from_rows([" ".join(r) for r in rows])
    occupied = frozenset(occupied) - {start}
    house = HouseRules(landwalk_reading=reading, haste_moves_when_sick=haste_when_sick)
    piece = Piece(1, 7, at=start, colours={"R"}, keywords=keywords, summoning_sick=sick, tapped=tapped)
    moves = legal_moves(board, piece, left=left, occupied=occupied, house=house)
    for to in board.positions():
        verdict = judge_move(board, piece, to, left=left, house=house, occupied=occupied)
        assert verdict.legal == (to in moves), (to, verdict.key)
        if not verdict.legal:
            assert verdict.rule and verdict.text("en") and verdict.text("fr")
    if not keywords & {"forestwalk", "defender", "flying", "distortion"} and not sick and not tapped:
        assert moves == reachable(board, start, left, occupied=occupied)
