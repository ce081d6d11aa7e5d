"""The benches' shared drawing of tokens: a table as players set it (MT 2.05: one token per permanent)."""
from __future__ import annotations

import numpy as np

from boards import library_boards, load_board
from companion.bench.common import tokens_on_walkable


def test_drawn_tokens_are_each_on_the_table_once_on_distinct_walkable_squares_MT_2_05():
    board = load_board(library_boards()["duel-20x12"])
    for seed in range(5):
        tokens = tokens_on_walkable(board, np.random.default_rng(seed), 60)
        assert len(tokens) == 60
        assert len({(player, number) for player, number, _, _ in tokens}) == 60
        assert len({(x, y) for _, _, x, y in tokens}) == 60
        assert all(board.walkable((x, y)) and 1 <= p <= 5 and 1 <= n <= 20 for p, n, x, y in tokens)
