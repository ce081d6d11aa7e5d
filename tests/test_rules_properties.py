"""Property-based tests of zones and moves (hypothesis), and a brute-force cross-check of `reachable`."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from boards import Board
from companion.rules import HouseRules, Piece, action_zone, blockers, reachable, spell_zone, why_cannot_block

FAST = settings(max_examples=60, deadline=None)


@st.composite
def boards(draw, max_side: int = 7):
    """Small random boards: each square walkable ('W', 'UG', ...) or an obstacle ('.')."""
    width = draw(st.integers(1, max_side))
    height = draw(st.integers(1, max_side))
    codes = st.sampled_from(["W", "U", "BR", "G", ".", "."])
    rows = [" ".join(draw(st.lists(codes, min_size=width, max_size=width))) for _ in range(height)]
    return Board.from_rows(rows)


@st.composite
def board_and_square(draw, max_side: int = 7):
    board = draw(boards(max_side))
    return board, (draw(st.integers(0, board.width - 1)), draw(st.integers(0, board.height - 1)))


metrics = st.sampled_from(["manhattan", "chebyshev"])


def dist(p, q, metric):
    dx, dy = abs(p[0] - q[0]), abs(p[1] - q[1])
    return dx + dy if metric == "manhattan" else max(dx, dy)


@FAST
@given(board_and_square(), st.integers(0, 6), st.booleans(), metrics, st.data())
def test_action_zone_is_symmetric(bs, mv, reach, metric, data):
    """MT 4.03.a: q is in the zone of p iff p is in the zone of q (same MV): distance is symmetric."""
    board, p = bs
    q = (data.draw(st.integers(0, board.width - 1)), data.draw(st.integers(0, board.height - 1)))
    assert (q in action_zone(board, p, mv, reach=reach, metric=metric)) == \
           (p in action_zone(board, q, mv, reach=reach, metric=metric))


@FAST
@given(board_and_square(), st.integers(0, 8), metrics)
def test_action_zone_grows_with_mana_value_and_stays_on_grid(bs, mv, metric):
    """MT 4.03.a–b: a bigger MV never loses squares; zones stay on the grid and exclude their centre."""
    board, p = bs
    small, big = action_zone(board, p, mv, metric=metric), action_zone(board, p, mv + 1, metric=metric)
    assert small <= big
    assert p not in big
    assert all(board.in_bounds(q) for q in big)


@FAST
@given(board_and_square(), st.integers(0, 6), metrics)
def test_action_zone_matches_its_definition(bs, mv, metric):
    """MT 4.03.a–c, 6.07: zone = {q : 1 ≤ dist ≤ radius}; radius max(MV,1), reach 2·max(MV,1)."""
    board, p = bs
    everything = [(x, y) for y in range(board.height) for x in range(board.width)]
    for reach, radius in ((False, max(mv, 1)), (True, 2 * max(mv, 1))):
        expected = {q for q in everything if 1 <= dist(p, q, metric) <= radius}
        assert action_zone(board, p, mv, reach=reach, metric=metric) == expected


@FAST
@given(board_and_square(), st.integers(0, 4), metrics)
def test_spell_zone_contains_the_action_zone(bs, mv, metric):
    """MT 4.09.a: a spell's zone (3×max(MV,1)) contains the same MV's action zone, and stays on the grid."""
    board, p = bs
    zone = spell_zone(board, p, mv, metric=metric)
    assert action_zone(board, p, mv, metric=metric) <= zone
    assert all(board.in_bounds(q) for q in zone)


@FAST
@given(board_and_square(), st.integers(0, 10), st.booleans(), st.data())
def test_reachable_invariants(bs, allowance, flying, data):
    """MT 3.04.b, 3.06, 3.07, 2.03.b: start included; grows with allowance; never ends on an occupied
    square other than the start; a walker never ends on an obstacle; everything within Manhattan ≤ allowance."""
    board, start = bs
    squares = [(x, y) for y in range(board.height) for x in range(board.width)]
    occupied = frozenset(data.draw(st.lists(st.sampled_from(squares), max_size=6)))
    moves = reachable(board, start, allowance, occupied=occupied, flying=flying)
    more = reachable(board, start, allowance + 1, occupied=occupied, flying=flying)
    assert start in moves
    assert moves <= more
    assert not (moves - {start}) & occupied
    assert all(dist(start, q, "manhattan") <= allowance for q in moves)
    if not flying:
        assert all(board.walkable(q) for q in moves - {start})
    # a flyer can reach at least what a walker can (MT 6.10)
    assert reachable(board, start, allowance, occupied=occupied) <= reachable(
        board, start, allowance, occupied=occupied, flying=True)


def brute_force_reachable(board, start, allowance, occupied, flying):
    """Independent reference: enumerate every orthogonal path of length ≤ allowance (no search
    tricks, no distance bookkeeping), then keep the end squares a piece may stop on."""
    def steps(at):
        x, y = at
        for q in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if board.in_bounds(q) and (flying or board.walkable(q)):
                yield q

    ends, paths = {start}, [start]
    for _ in range(allowance):
        paths = [q for at in paths for q in steps(at)]
        ends.update(paths)
    return frozenset(q for q in ends if q == start or q not in occupied)


@settings(max_examples=80, deadline=None)
@given(board_and_square(max_side=4), st.integers(0, 6), st.booleans(), st.data())
def test_reachable_matches_brute_force_paths(bs, allowance, flying, data):
    """MT 3.06–3.07, 2.03.b, 6.10: `reachable` equals the end squares of all enumerated paths."""
    board, start = bs
    squares = [(x, y) for y in range(board.height) for x in range(board.width)]
    occupied = frozenset(data.draw(st.lists(st.sampled_from(squares), max_size=4)))
    assert reachable(board, start, allowance, occupied=occupied, flying=flying) == \
        brute_force_reachable(board, start, allowance, occupied, flying)


@settings(max_examples=40, deadline=None)
@given(board_and_square(max_side=5), st.data())
def test_cached_moves_stay_right_when_occupied_squares_change(bs, data):
    """MT 3.06: the per-board cache must not leak one query's occupied squares into the next."""
    board, start = bs
    squares = [(x, y) for y in range(board.height) for x in range(board.width)]
    for _ in range(3):
        occupied = frozenset(data.draw(st.lists(st.sampled_from(squares), max_size=5)))
        allowance = data.draw(st.integers(0, 5))
        assert reachable(board, start, allowance, occupied=occupied) == \
            brute_force_reachable(board, start, allowance, occupied, False)


pieces_on = st.builds(
    lambda player, x, y, mv, kw, tapped, kind: Piece(player, x * 10 + y, kind=kind, at=(x, y), mana_value=mv,
                                                      keywords=frozenset(kw), tapped=tapped),
    st.integers(1, 3), st.integers(0, 5), st.integers(0, 4), st.integers(0, 3),
    st.lists(st.sampled_from(["flying", "reach", "horsemanship", "forestwalk", "unblockable"]), max_size=2),
    st.booleans(), st.sampled_from(["creature", "creature", "planeswalker"]))

FOREST = Board.from_rows(["G W G W G W"] * 5)


@settings(max_examples=60, deadline=None)
@given(st.lists(pieces_on, min_size=1, max_size=12, unique_by=lambda p: p.at), metrics)
def test_blocker_list_agrees_with_single_block_checks(pieces, metric):
    """MT 5.04.a, 5.05, 6.09: the fast blocker table gives exactly the pieces why_cannot_block accepts."""
    house = HouseRules(metric=metric)
    for attacker in (p for p in pieces if p.kind == "creature"):
        expected = tuple(p for p in pieces if why_cannot_block(FOREST, p, attacker, house=house) is None)
        assert blockers(FOREST, attacker, pieces, house=house) == expected


@FAST
@given(board_and_square(), st.integers(0, 8), st.booleans(), st.data())
def test_square_colours_never_change_movement(bs, allowance, flying, data):
    """MT 3.05: recolouring the walkable squares leaves `reachable` unchanged (only obstacles matter)."""
    board, start = bs
    recoloured = Board.from_rows([
        " ".join(data.draw(st.sampled_from(["W", "U", "B", "R", "G", "WUBRG"])) if board.walkable((x, y)) else "."
                 for x in range(board.width))
        for y in range(board.height)])
    assert reachable(board, start, allowance, flying=flying) == reachable(recoloured, start, allowance, flying=flying)
