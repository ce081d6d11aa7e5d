"""Benchmark of the game layer: `tactical bench game`.

A 4-player Planechase game with events and 120 pieces on a 40×25 board. Prints the machine,
medians of several runs and, as a baseline measured in the same run, the naive way of applying
an action (a full `copy.deepcopy` of the state instead of `GameState.clone`).

Goals: applying an action ≤ 1 ms, undo ≤ 5 ms (at most SNAPSHOT_EVERY actions replayed),
an autosaved action ≤ 20 ms (one fsync'd SQLite transaction), reloading 1000 actions ≤ 1 s.
"""
from __future__ import annotations

import copy
import random
import tempfile
import time

from boards import Board
from companion.bench.common import machine_summary, median_ms, print_table
from companion.game.dice import Dice
from companion.game.events import EventCard
from companion.game.game import Game
from companion.game.reducer import Action, apply
from companion.game.state import GameSetup, PlayerSetup
from companion.game.store import latest_game, load_game
from companion.rules import Piece

WIDTH, HEIGHT, PIECES_PER_PLAYER, ACTIONS = 40, 25, 30, 1000


def bench_game(save_dir=None) -> Game:
    rng = random.Random(2026)
    board = Board.from_rows([" ".join(rng.choice(["W", "U", "B", "R", "G", "WU"]) for _ in range(WIDTH))
                             for _ in range(HEIGHT)], name="bench 40x25")
    players = [PlayerSetup(f"P{i}", i, planar_deck=[f"plane {i}.{k}" for k in range(10)]) for i in range(1, 5)]
    events = [EventCard(f"E{i}", "mythic", "natural", 2) for i in range(33)]
    game = Game.new(GameSetup(players, board, planechase=True, events=events, starting_player=1),
                    dice=Dice.seeded(1), save_dir=save_dir)
    for player in game.unplaced_pawns:  # the board has no start squares: the pawns go on its last row (MT 2.04.a)
        game.place_pawn(player, (player * 8, HEIGHT - 1))
    for player in range(1, 5):
        for number in range(2, PIECES_PER_PLAYER + 2):  # token 1 is the player's pawn
            game.add_piece(Piece(player, number, name=f"c{number}", power=2, toughness=2,
                                 at=((player - 1) * 10 + number % 10, number // 10 * 3)))
    return game


def main(argv: list[str] | None = None) -> int:
    print(f"bench game — {machine_summary()}")
    game = bench_game()
    game.next_phase()
    while len(game.actions) < ACTIONS:
        game.change_life(1 + len(game.actions) % 4, -1)
        game.next_phase()
    state, action = game.state, Action("change_life", {"player": 2, "amount": -1}, "")
    apply_ms = median_ms(lambda: apply(state, action), repeat=9, number=200)
    naive_ms = median_ms(lambda: apply(copy.deepcopy(state), action), repeat=9, number=50)

    def undo_redo():
        game.undo()
        game.redo()
    undo_ms = median_ms(undo_redo, repeat=9, number=20) / 2
    document = game.to_dict()
    replay_ms = median_ms(lambda: Game.from_dict(document), repeat=5)

    with tempfile.TemporaryDirectory() as folder:
        saved = bench_game(folder)
        saved_ms = median_ms(lambda: saved.change_life(1, -1), repeat=9, number=10)
        for _ in range(ACTIONS - len(saved.actions)):
            saved.change_life(1, -1)
        saved.store.close()
        path = latest_game(folder)
        started = time.perf_counter()
        load_game(path).store.close()
        load_ms = (time.perf_counter() - started) * 1000

    print_table(f"{len(game.actions)}-action game, {4 * PIECES_PER_PLAYER} pieces (medians)", [
        ("apply one action (GameState.clone)", apply_ms, "goal ≤ 1 ms"),
        ("baseline: apply with copy.deepcopy", naive_ms, f"{naive_ms / apply_ms:.0f}× slower"),
        ("undo (replay from the last snapshot)", undo_ms, "goal ≤ 5 ms"),
        ("replay the whole log (import)", replay_ms, "goal ≤ 1000 ms"),
        ("autosaved action (SQLite WAL, fsync)", saved_ms, "goal ≤ 20 ms"),
        (f"load_game, {ACTIONS} actions (one run)", load_ms, "goal ≤ 1000 ms"),
    ])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
