"""The bit-mask shortcuts of the rules engine checked against plain definitions on boards wide
enough for them to matter: shifted zone templates near every edge (MT 4.03.b), a flyer's reach
taken as a zone (MT 6.03), and masks turned back into sets from either side (bitgrid)."""
from __future__ import annotations

import random
from collections import deque

from hypothesis import given, settings
from hypothesis import strategies as st

from boards import Board
from companion.rules import HouseRules, Piece, overlay, overlays, reachable, zone_around
from companion.rules.bitgrid import grid_bits

WIDE = settings(max_examples=40, deadline=None)


@st.composite
def wide_board_and_square(draw):
    """A board up to 45 × 30 (its squares from a drawn seed, so that examples stay quick) and a square."""
    width, height = draw(st.integers(8, 45)), draw(st.integers(1, 30))
    rng = random.Random(draw(st.integers(0, 2**32)))
    rows = [" ".join(rng.choice(["W", "G", "UB", "."]) for _ in range(width)) for _ in range(height)]
    board = Board.from_rows(rows)
    return board, (draw(st.integers(0, width - 1)), draw(st.integers(0, height - 1)))


@WIDE
@given(wide_board_and_square(), st.integers(0, 25), st.sampled_from(["manhattan", "chebyshev"]))
def test_zone_near_any_edge_matches_its_definition(bs, radius, metric):
    """MT 4.03.a–b: zone = {q : 1 ≤ dist ≤ radius} clipped to the grid, even where a shifted
    template would wrap past the left or right edge onto another row."""
    board, p = bs
    expected = {q for q in board.positions()
                if 1 <= (abs(p[0] - q[0]) + abs(p[1] - q[1]) if metric == "manhattan"
                         else max(abs(p[0] - q[0]), abs(p[1] - q[1]))) <= radius}
    assert zone_around(board, p, radius, metric) == expected


@WIDE
@given(wide_board_and_square(), st.integers(0, 30))
def test_flyer_reach_is_every_square_within_its_allowance(bs, allowance):
    """MT 6.03, 3.07: a flyer ignores obstacles, so it reaches exactly the squares at Manhattan
    distance ≤ allowance (a breadth-first search over the open grid as reference)."""
    board, start = bs
    seen, queue = {start: 0}, deque([start])
    while queue:
        x, y = at = queue.popleft()
        for q in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if board.in_bounds(q) and q not in seen and seen[at] < allowance:
                seen[q] = seen[at] + 1
                queue.append(q)
    assert reachable(board, start, allowance, flying=True) == frozenset(seen)


@WIDE
@given(st.integers(1, 40), st.integers(1, 30), st.data())
def test_masks_become_the_same_sets_sparse_or_dense(width, height, data):
    """Any set of squares survives mask_of → squares, whether it is built up from its own squares
    (sparse) or as the whole grid minus the missing ones (dense); off-grid squares are ignored."""
    grid = grid_bits(width, height)
    everything = sorted(grid.everything)
    chosen = frozenset(data.draw(st.lists(st.sampled_from(everything), max_size=len(everything))))
    dense = grid.everything - frozenset(data.draw(st.lists(st.sampled_from(everything), max_size=3)))
    for squares in (chosen, dense, frozenset()):
        assert grid.squares(grid.mask_of(squares | {(-1, 0), (width, height)})) == squares


def test_overlays_of_one_state_and_the_next_agree_with_single_overlays():
    """MT 3.06, 5.04.a through the app's calls: overlays of a state equal the per-piece overlays,
    before and after a piece moves (the remembered scene and blocker rows never go stale)."""
    board = Board.from_rows(["W G W W W W W W W W"] * 6)
    pieces = [Piece(1, 0, kind="player", at=(0, 0)), Piece(2, 0, kind="player", at=(9, 5)),
              Piece(1, 1, at=(2, 2), mana_value=2, keywords={"flying"}), Piece(2, 1, at=(4, 2), mana_value=2),
              Piece(2, 2, at=(7, 4), mana_value=1, keywords={"reach"}), Piece(1, 2, kind="planeswalker", at=(8, 5))]
    dice = {p.roll_key: (2,) for p in pieces}
    for house in (HouseRules(), HouseRules(metric="chebyshev")):
        state = list(pieces)
        for move in (None, (2, 1, (5, 2)), (1, 1, (4, 3))):
            if move:
                index = next(i for i, p in enumerate(state) if p.token == move[:2])
                state[index] = state[index].moved(move[2])
            everything = overlays(board, state, dice=dice, house=house)
            for piece in state:
                assert overlay(board, piece, state, dice=(2,), house=house) == everything[piece.token]
    blocker = next(p for p in state if p.token == (2, 1))
    flyer = next(p for p in state if p.token == (1, 1))
    walker = Piece(1, 1, at=flyer.at, mana_value=2)                    # same square, no flying
    assert overlay(board, walker, state).blockers == (blocker,)         # in the blocker's zone (distance 2)
    assert overlay(board, flyer, state).blockers == ()                  # CR 702.9: only flying or reach blocks it
