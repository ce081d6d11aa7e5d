"""Playability (MT 2.01, 2.04.a, 2.03.b, 3.07) and fairness (see boards.fairness) of boards."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boards import Board, Square, parse_square_label
from boards.fairness import fairness_report, path_lengths, play_problems


def grid(width: int, height: int, players: int = 2, fill: str = "W", **codes: str) -> Board:
    """A board of `fill` squares with some squares changed: grid(..., A1="W@")."""
    cells = [[fill] * width for _ in range(height)]
    for label, code in codes.items():
        x, y = parse_square_label(label)
        cells[y][x] = code
    return Board.from_rows([" ".join(row) for row in cells], players=players)


DUEL = dict(B6="W@", S7="W@", J3="G*", K10="G*")  # 180° images of each other on 20×12


def test_symmetric_duel_is_playable_and_fair():
    board = grid(20, 12, **DUEL)
    assert play_problems(board) == []
    report = fairness_report(board)
    assert report.fair, report.lines()
    assert "rotation 180°" in report.symmetries
    assert report.start_distances == {((1, 5), (18, 6)): 17 + 1}
    assert set(report.temple_distances.values()) == {8 + 3}


def test_too_small_mt_2_01():
    problems = play_problems(grid(19, 12, B6="W@", R7="W@"))
    assert len(problems) == 1 and "MT 2.01" in problems[0] and "19×12" in problems[0]
    assert any("MT 2.01" in p for p in play_problems(grid(20, 11, B6="W@", S6="W@")))


def test_one_start_per_player_mt_2_04_a():
    problems = play_problems(grid(20, 12, players=3, **DUEL))
    assert len(problems) == 1 and "MT 2.04.a" in problems[0] and "2 start square(s) (@) for 3" in problems[0]


def test_starts_cut_off_by_obstacles_mt_2_03_b():
    wall = {f"J{y}": "." for y in range(1, 13)}
    problems = play_problems(grid(20, 12, **DUEL | wall))
    assert len(problems) == 1 and "S7" in problems[0] and "MT 2.03.b" in problems[0]


def test_coloured_obstacles_block_too_mt_2_03_c():
    wall = {f"J{y}": "R#" for y in range(1, 13)}
    assert play_problems(grid(20, 12, **DUEL | wall))


def test_diagonal_gaps_do_not_connect_mt_3_07():
    """A staircase wall touching only by corners still cuts the board: moves are orthogonal."""
    stairs = {f"{chr(ord('A') + i)}{i + 1}": "." for i in range(12)}
    board = grid(20, 12, A12="W@", T1="W@", **stairs)
    assert path_lengths(board, (0, 11)).get((19, 0)) is None
    assert play_problems(board)
    # one square less in the wall: a door, and the starts meet again
    assert not play_problems(board.replace_square((5, 5), Square(frozenset("W"))))


def test_colour_asymmetry_is_unfair_for_two_players():
    report = fairness_report(grid(20, 12, **DUEL | {"C3": "R"}))
    assert not report.fair
    assert any("180°" in reason for reason in report.unfair_reasons)


def test_asymmetric_temple_distances_are_reported():
    """A Temple nearer to one player: the symmetry and the Temple distances both fail."""
    report = fairness_report(grid(20, 12, B6="W@", S7="W@", C6="G*"))
    assert report.temple_distances == {(1, 5): 1, (18, 6): 17}
    assert not report.fair and len(report.unfair_reasons) == 2


FOUR_CORNERS = dict(C3="W@", R3="W@", C10="W@", R10="W@")


def test_four_players_need_both_mirrors_not_only_180():
    fair = grid(20, 12, players=4, **FOUR_CORNERS)
    assert fairness_report(fair).fair
    # 180° symmetric only: top-left and bottom-right differ from the others
    only_180 = grid(20, 12, players=4, **FOUR_CORNERS | {"E2": "R", "P11": "R"})
    report = fairness_report(only_180)
    assert report.symmetries == ("rotation 180°",)
    assert not report.fair


def test_four_players_on_a_square_board_may_use_the_90_degree_rotation():
    # a pinwheel: symmetric under 90° rotations but under no mirror
    board = grid(20, 20, players=4, C2="W@", S3="W@", R19="W@", B18="W@",
                 E2="R", S5="R", P19="R", B16="R")
    report = fairness_report(board)
    assert "rotation 90°" in report.symmetries and "mirror left-right" not in report.symmetries
    assert report.fair, report.lines()


def test_three_players_need_a_mirror_and_equal_lengths():
    """3 players: mirror symmetry + equal start-to-start and start-to-Temple lengths."""
    # 21 wide: axis is column K (x=10). B=(2,1), C=(18,1): 16 apart; A=(10,9): 8+8=16 from each.
    fair = grid(21, 12, players=3, C2="W@", S2="W@", K10="W@", K2="W*")
    report = fairness_report(fair)
    assert report.fair, report.lines()
    assert set(report.start_distances.values()) == {16}
    assert set(report.temple_distances.values()) == {8}
    # A one row lower: still a mirror, but A is now 17 from the others
    unfair = grid(21, 12, players=3, C2="W@", S2="W@", K11="W@", K2="W*")
    reasons = fairness_report(unfair).unfair_reasons
    assert any("path lengths to the other starts" in r for r in reasons)


def test_three_players_without_a_mirror_are_unfair():
    board = grid(21, 12, players=3, C2="W@", S2="W@", K10="W@", K2="W*", A1="R")
    assert any("mirror" in r for r in fairness_report(board).unfair_reasons)


def test_report_lines_name_squares_and_lengths():
    lines = fairness_report(grid(20, 12, **DUEL)).lines()
    assert lines[0] == "fair: yes (2 players)"
    assert "  B6 ↔ S7: 18 steps" in lines


@st.composite
def small_boards(draw):
    width, height = draw(st.integers(1, 7)), draw(st.integers(1, 7))
    cells = draw(st.lists(st.booleans(), min_size=width * height, max_size=width * height))
    rows = [" ".join("W" if cells[y * width + x] else "." for x in range(width)) for y in range(height)]
    return Board.from_rows(rows)


@settings(max_examples=150, deadline=None)
@given(small_boards(), st.data())
def test_path_lengths_match_repeated_relaxation(board, data):
    """MT 3.07/2.03.b path lengths against an independent fixed-point computation."""
    walkable = [p for p in board.positions() if board.walkable(p)]
    if not walkable:
        return
    source = data.draw(st.sampled_from(walkable))
    big = board.width * board.height + 1
    dist = {p: (0 if p == source else big) for p in walkable}
    changed = True
    while changed:
        changed = False
        for (x, y) in walkable:
            best = min([dist[(x, y)]] + [dist[q] + 1 for q in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1))
                                         if q in dist])
            if best < dist[(x, y)]:
                dist[(x, y)], changed = best, True
    assert path_lengths(board, source) == {p: d for p, d in dist.items() if d < big}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_board_without_starts_is_not_playable(players):
    problems = play_problems(grid(20, 12, players=players))
    assert any("0 start square(s)" in p for p in problems)
