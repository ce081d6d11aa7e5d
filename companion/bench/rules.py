"""`tactical bench rules`: speed of the rules engine on a 40×25 board with 120 pieces (MT 1.02.a, 4 players).

Prints the machine, the medians of several runs, and a naive baseline measured in the
same run (a textbook breadth-first search over squares and a zone built by testing
every square), so that figures can be compared across machines.

Goals (issue 3, one core): each single query ≤ 0.2 ms, overlays of all 120 pieces ≤ 20 ms.
"cold" = the board's caches emptied before each run, untimed (first time a square is asked);
"warm" = the same queries again, as on every redraw of the app; "first after a move" = each
query on a new game state where one other piece has just moved, so the scene that one
state's overlays share is built again (caches emptied too).
Each figure is the median of the CPU time of this thread (what one core costs, even when
other programs share the machine), with the wall-clock median beside it.
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections import deque

from boards import Board
from companion.bench.common import machine_summary, print_table
from companion.rules import Piece, action_zone, overlay, overlays, reachable
from companion.rules import combat, geometry, movement

WIDTH, HEIGHT, PIECES, ALLOWANCE = 40, 25, 120, 24
SEED = 2026


def bench_board(seed: int = SEED) -> Board:
    """A 40×25 board like the bundled ones: mostly coloured squares, ~12 % obstacles."""
    rng = random.Random(seed)
    codes = ["W", "U", "B", "R", "G", "WU", "BR", "G", "W", "UB", "RG", "."]
    rows = [" ".join(rng.choice(codes) for _ in range(WIDTH)) for _ in range(HEIGHT)]
    return Board.from_rows(rows, name="bench 40x25", players=4)


def bench_pieces(board: Board, seed: int = SEED) -> list[Piece]:
    """120 pieces for 4 players: a pawn each, planeswalkers and creatures with assorted keywords."""
    rng = random.Random(seed)
    free = [p for p in board.positions() if board.walkable(p)]
    rng.shuffle(free)
    keyword_sets = [(), (), ("flying",), ("reach",), ("trample",), ("forestwalk",), ("horsemanship",),
                    ("defender",), ("flying", "vigilance")]
    pieces = []
    for i in range(PIECES):
        player, number = i % 4 + 1, i // 4
        if number == 0:
            pieces.append(Piece(player, 0, kind="player", at=free[i]))
            continue
        kind = "planeswalker" if number % 10 == 0 else "creature"
        pieces.append(Piece(player, number, kind=kind, at=free[i], mana_value=rng.randint(0, 7),
                            power=rng.randint(0, 6), toughness=rng.randint(1, 6),
                            colours=frozenset(rng.sample("WUBRG", rng.randint(0, 2))),
                            keywords=frozenset(rng.choice(keyword_sets)) if kind == "creature" else frozenset()))
    return pieces


def naive_reachable(board: Board, start, allowance: int, occupied) -> frozenset:
    """Baseline: a plain breadth-first search with a dict of distances (MT 3.06, 3.07, 2.03.b)."""
    distance = {start: 0}
    queue = deque([start])
    while queue:
        x, y = at = queue.popleft()
        if distance[at] == allowance:
            continue
        for q in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if board.in_bounds(q) and board.walkable(q) and q not in distance:
                distance[q] = distance[at] + 1
                queue.append(q)
    return frozenset(q for q in distance if q == start or q not in occupied)


def naive_zone(board: Board, at, radius: int) -> frozenset:
    """Baseline: test every square of the grid (MT 4.03)."""
    return frozenset(q for q in board.positions() if 1 <= abs(q[0] - at[0]) + abs(q[1] - at[1]) <= radius)


def cpu_and_wall_ms(fn, *, repeat: int, per: int = 1, setup=None) -> tuple[float, float]:
    """Medians over `repeat` runs (after one warm-up) of CPU and wall time, in ms per `per` queries.
    `setup` runs before each run, untimed (emptying caches is not part of a query)."""
    setup = setup or (lambda: None)
    setup()
    fn()
    cpu, wall = [], []
    for _ in range(repeat):
        setup()
        c0, w0 = time.thread_time(), time.perf_counter()
        fn()
        cpu.append((time.thread_time() - c0) * 1000 / per)
        wall.append((time.perf_counter() - w0) * 1000 / per)
    return statistics.median(cpu), statistics.median(wall)


def empty_caches() -> None:
    """Forget the cached zones, moves and blocker rows (squares never asked on a known board, pieces
    never seen): makes the next queries cold."""
    movement.clear_caches(keep_boards=True)
    geometry.clear_caches()
    combat.clear_caches()


def forget_boards() -> None:
    """Forget every board's masks too: the next query prepares its board again."""
    movement.clear_caches()


def after_one_move(board: Board, pieces: list[Piece], chosen: list[Piece]) -> list[tuple[Piece, list[Piece]]]:
    """For each chosen piece, the game state just after the next piece in the list moved to a free
    square: the same Piece objects but one, as the game keeps them, so each query meets a new scene."""
    occupied = {p.at for p in pieces}
    free = [q for q in board.positions() if board.walkable(q) and q not in occupied]
    states = []
    for piece, to in zip(chosen, free):
        mover = (pieces.index(piece) + 1) % len(pieces)
        state = list(pieces)
        state[mover] = pieces[mover].moved(to)
        states.append((piece, state))
    return states


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tactical bench rules", description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7, help="runs per figure; the median is printed")
    args = parser.parse_args(argv)

    board = bench_board()
    pieces = bench_pieces(board)
    occupied = frozenset(p.at for p in pieces)
    rng = random.Random(SEED)
    walkers = [p for p in pieces if p.kind != "player"]
    starts = [p.at for p in rng.sample(walkers, 20)]
    mvs = [rng.randint(0, 7) for _ in starts]
    dice = {p.roll_key: (rng.randint(1, 10), rng.randint(1, 10)) for p in pieces}
    n = len(starts)

    def zones():
        for at, mv in zip(starts, mvs):
            action_zone(board, at, mv)

    def moves():
        for at in starts:
            reachable(board, at, ALLOWANCE, occupied=occupied)

    def all_overlays():
        return overlays(board, pieces, dice=dice)

    chosen = [p for p in pieces if p.at in starts]

    def one_overlay_each():  # as the app asks: one selected piece at a time, same game state
        for piece in chosen:
            overlay(board, piece, pieces, dice=dice[piece.roll_key])

    changed_states = after_one_move(board, pieces, chosen)

    def one_overlay_after_a_move():  # the first question about a new game state
        for piece, state in changed_states:
            overlay(board, piece, state, dice=dice[piece.roll_key])

    assert all(naive_reachable(board, at, ALLOWANCE, occupied) == reachable(board, at, ALLOWANCE, occupied=occupied)
               for at in starts), "baseline and engine disagree"
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"machine: {machine_summary()}; load average {load:.1f} (other work slows every figure)")
    print(f"board {WIDTH}×{HEIGHT}, {PIECES} pieces, allowance {ALLOWANCE}, {n} queries per run, "
          f"median of {args.repeat} runs, one core")
    measures = [  # what, queries, queries per run, goal, untimed setup before each run
        ("action_zone, cold", zones, n, "goal ≤ 0.2 ms", empty_caches),
        ("action_zone, warm", zones, n, "goal ≤ 0.2 ms", None),
        ("baseline: zone testing every square",
         lambda: [naive_zone(board, at, max(mv, 1)) for at, mv in zip(starts, mvs)], n, "baseline", None),
        ("reachable(24), cold", moves, n, "goal ≤ 0.2 ms", empty_caches),
        ("reachable(24), warm", moves, n, "goal ≤ 0.2 ms", None),
        ("baseline: naive BFS reachable(24)",
         lambda: [naive_reachable(board, at, ALLOWANCE, occupied) for at in starts], n, "baseline", None),
        ("overlay of one piece, cold", one_overlay_each, len(chosen), "goal ≤ 0.2 ms", empty_caches),
        ("overlay of one piece, warm", one_overlay_each, len(chosen), "goal ≤ 0.2 ms", None),
        ("overlay of one piece, first after a move, cold", one_overlay_after_a_move, len(chosen),
         "not an issue query; the app redraws within a frame (16 ms)", empty_caches),
        ("overlays of all 120 pieces, cold", all_overlays, 1, "goal ≤ 20 ms", empty_caches),
        ("(once per board) preparing a new board", lambda: reachable(board, next(board.positions()), 0), 1,
         "not a per-query cost", forget_boards),
        ("overlays of all 120 pieces, warm", all_overlays, 1, "goal ≤ 20 ms", None),
    ]
    rows = []
    for what, fn, per, goal, setup in measures:
        cpu, wall = cpu_and_wall_ms(fn, repeat=args.repeat, per=per, setup=setup)
        rows.append((what, cpu, f"(wall {wall:.3f} ms)  {goal}"))
    print_table("rules engine: CPU ms per query (overlays: per call of all 120)", rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
