"""The fair board generator and the bundled library (MT 1.02.a, 2.01–2.04)."""
from __future__ import annotations

import re

import pytest

from boards import Board, library_boards, load_board
from boards.fairness import fairness_report, play_problems
from boards.generator import BoardGenerationError, generate_board

CASES = [(20, 12, 2, 1), (20, 12, 2, 99), (21, 13, 2, 5), (31, 18, 3, 1), (30, 19, 3, 4),
         (40, 25, 4, 1), (24, 24, 4, "abc")]


@pytest.fixture(scope="module", params=CASES, ids=lambda c: f"{c[0]}x{c[1]}-{c[2]}p-seed{c[3]}")
def generated(request) -> Board:
    width, height, players, seed = request.param
    board = generate_board(width, height, players, seed)
    assert (board.width, board.height, board.players) == (width, height, players)
    return board


def neighbour_pairs(board: Board):
    for x, y in board.positions():
        for q in ((x + 1, y), (x, y + 1)):
            if board.in_bounds(q):
                yield board.square(x, y), board.square(*q)


def plain_region_sizes(board: Board) -> list[int]:
    """Sizes of 4-connected groups of walkable single-colour squares of the same colour."""
    def plain(p):
        square = board.square(*p)
        return len(square.colours) == 1 and not square.obstacle

    seen, sizes = set(), []
    for p in board.positions():
        if p in seen or not plain(p):
            continue
        stack, colours, size = [p], board.square(*p).colours, 0
        seen.add(p)
        while stack:
            x, y = stack.pop()
            size += 1
            for q in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if board.in_bounds(q) and q not in seen and plain(q) and board.square(*q).colours == colours:
                    seen.add(q)
                    stack.append(q)
        sizes.append(size)
    return sizes


def check_board_features(board: Board) -> None:
    """What every generated and bundled board must have (MT 2.01–2.04.b), and fairness."""
    assert play_problems(board) == []                                   # MT 2.01, 2.04.a, 2.03.b
    report = fairness_report(board)
    assert report.fair, report.lines()
    assert len(board.starts) == board.players                           # MT 2.04.a
    assert board.temples                                                # MT 2.04.b
    assert None not in report.temple_distances.values()
    squares = list(board)
    assert set().union(*(sq.colours for sq in squares)) == set("WUBRG")  # MT 2.01
    assert any(len(sq.colours) > 1 for sq in squares)                   # MT 2.02.a
    assert any(sq.obstacle and not sq.colours for sq in squares)        # MT 2.03.a
    assert any(sq.obstacle and sq.colours for sq in squares)            # MT 2.03.c
    obstacles = sum(sq.obstacle for sq in squares)
    assert 0.03 * len(squares) <= obstacles <= 0.2 * len(squares)


def test_generated_boards_are_playable_fair_and_complete(generated):
    """MT 2.01, 2.02.a, 2.03.a, 2.03.c, 2.04.a, 2.04.b on generated boards."""
    check_board_features(generated)


def test_generated_colours_form_regions_not_noise(generated):
    """Natural regions: most neighbours share a colour and most squares lie in big regions.
    Per-square random colours would share a colour ~20–35 % of the time, in ~1.5-square regions."""
    pairs = [(a, b) for a, b in neighbour_pairs(generated) if a.colours and b.colours]
    sharing = sum(bool(a.colours & b.colours) for a, b in pairs) / len(pairs)
    assert sharing > 0.7  # 90 seeds tried: all ≥ 0.78; one random colour per square: ~0.2
    sizes = plain_region_sizes(generated)
    assert sum(s for s in sizes if s >= 6) > 0.75 * sum(sizes)  # 90 seeds tried: all ≥ 0.84


def test_generated_multicoloured_squares_sit_on_region_borders_mt_2_02_a(generated):
    for x, y in generated.positions():
        square = generated.square(x, y)
        if len(square.colours) > 1 and not square.obstacle:
            around = [generated.square(*q).colours for q in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1))
                      if generated.in_bounds(q)]
            assert any(c != square.colours for c in around), (x, y)


def test_generated_walkable_squares_are_all_reachable(generated):
    """No walkable pocket nobody can enter (such pockets become coloured obstacles, MT 2.03.c)."""
    from boards.fairness import path_lengths
    reached = path_lengths(generated, generated.starts[0])
    assert {p for p in generated.positions() if generated.walkable(p)} == set(reached)


def test_same_seed_same_board_other_seed_other_board():
    assert generate_board(20, 12, 2, 7) == generate_board(20, 12, 2, 7)
    assert generate_board(20, 12, 2, 7) != generate_board(20, 12, 2, 8)
    assert generate_board(20, 12, 2, "7") == generate_board(20, 12, 2, 7)  # CLI seeds are text


def test_name_and_description_say_what_was_generated():
    board = generate_board(20, 12, 2, 42, name="Ma carte")
    assert board.name == "Ma carte"
    for words in ("20×12", "2 joueurs", "graine 42"):
        assert words in board.description
    assert generate_board(20, 12, 2, 42).name == "Duel 20×12"


@pytest.mark.parametrize("args,words", [
    ((19, 12, 2), "at least 20×12 (MT 2.01)"),
    ((20, 11, 2), "at least 20×12 (MT 2.01)"),
    ((20, 12, 5), "2, 3 or 4 players"),
    ((20, 12, 1), "2, 3 or 4 players"),
    ((30, 18, 3), "odd width or height"),
])
def test_impossible_requests_say_why(args, words):
    with pytest.raises(BoardGenerationError, match=re.escape(words)):
        generate_board(*args, seed=0)


# -- bundled library ---------------------------------------------------------------

def test_library_has_the_recommended_boards_mt_1_02_a():
    """MT 1.02.a: 20×12 for 2 players, 40×25 for 4; plus a 3-player board."""
    boards = {stem: load_board(path) for stem, path in library_boards().items()}
    assert {"duel-20x12", "quatuor-40x25"} <= set(boards)
    for stem, expected in (("duel-20x12", (20, 12, 2)), ("quatuor-40x25", (40, 25, 4))):
        assert (boards[stem].width, boards[stem].height, boards[stem].players) == expected
    assert any(b.players == 3 for b in boards.values())


@pytest.mark.parametrize("stem", sorted(library_boards()))
def test_library_boards_load_validate_and_are_fair(stem):
    board = load_board(library_boards()[stem])
    check_board_features(board)
    assert f"{board.width}×{board.height}" in stem.replace("x", "×")
    assert f"{board.width}×{board.height}" in board.description
    assert f"{board.players} joueurs" in board.description and "graine" in board.description


@pytest.mark.parametrize("stem", sorted(library_boards()))
def test_library_files_are_as_save_board_writes_them(stem):
    """Rows aligned for people: the file is exactly what save_board produces."""
    from boards import board_to_text
    path = library_boards()[stem]
    assert path.read_text(encoding="utf-8") == board_to_text(load_board(path))


@pytest.mark.parametrize("stem", sorted(library_boards()))
def test_library_boards_are_what_their_seed_generates(stem):
    """The description's 'graine N' is true: the bundled file can be regenerated exactly with
    `tactical board new --size WxH --players P --seed N --name NAME --out FILE --force`."""
    board = load_board(library_boards()[stem])
    seed = re.search(r"graine (\S+)\)", board.description)[1]
    assert generate_board(board.width, board.height, board.players, seed, name=board.name) == board
