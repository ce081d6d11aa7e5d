"""Benchmark of the inputs and the saves: `tactical bench inputs`.

Boards: the largest board the companion reads (boards.io.MAX_SIDE², 200 × 200) loaded from its file,
checked (play_problems + fairness_report) and generated, against the recommended 40 × 25 board and the
way it was done before this round (every square code parsed anew; the generator's nearest region site
sought among all of them) measured in the same run. Saves: an autosaved action (the save and its
backup, two fsynced SQLite transactions), opening a 1 000-action game (both files read, checked,
replayed), and listing a folder of 20 games.

Goals: the largest board loads in ≤ 0.5 s and checks in ≤ 1 s; an autosaved action ≤ 20 ms; opening
1 000 actions ≤ 1 s.
"""
from __future__ import annotations

import math
import random
import tempfile
import time
from pathlib import Path

from boards import Board, board_from_text, library_boards, load_board
from boards.fairness import fairness_report, play_problems
from boards.generator import generate_board
from boards.io import BOARD_LIMITS, MAX_SIDE
from boards.model import Square
from safeio.yamlfile import parse_yaml
from companion.bench.common import machine_summary, median_ms, print_table

CODES = ["W", "U", "B", "R", "G", "WU", "UB", "BR", "RG", "GW", "R#", "U#", ".", "WUB"]


def largest_board_text(seed: int = 2026) -> str:
    """A 200 × 200 board file as people write them: varied codes, two starts, a Temple."""
    rng = random.Random(seed)
    rows = [[rng.choice(CODES) for _ in range(MAX_SIDE)] for _ in range(MAX_SIDE)]
    rows[MAX_SIDE // 2][1], rows[MAX_SIDE // 2][-2], rows[MAX_SIDE // 2][MAX_SIDE // 2] = "W@", "W@", "G*"
    return f"name: Largest\nplayers: 2\nrows:\n" + "".join(f'  - "{" ".join(r)}"\n' for r in rows)


def _load_without_cache(text: str) -> Board:
    """The baseline: every square code parsed anew, as before this round."""
    data = parse_yaml(text, limits=BOARD_LIMITS).data
    return Board(tuple(tuple(Square._parse(code) for code in row.split()) for row in data["rows"]))


def _nearest_by_full_search(width: int, height: int) -> None:
    """The baseline of the generator's region painting: every site tried for every square."""
    rng = random.Random(1)
    sites = [((rng.randrange(width), rng.randrange(height)), "W", rng.uniform(0, 1.5))
             for _ in range(width * height // 16)]
    for y in range(height):
        for x in range(width):
            min(sites, key=lambda s: math.hypot(s[0][0] - x, s[0][1] - y) - s[2])


def bench_boards() -> None:
    text = largest_board_text()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "largest.yaml"
        path.write_text(text, encoding="utf-8")
        load_ms = median_ms(lambda: load_board(path), repeat=7)
    board = board_from_text(text)
    recommended = load_board(library_boards()["quatuor-40x25"])
    recommended_text = library_boards()["quatuor-40x25"].read_text(encoding="utf-8")
    started = time.perf_counter()
    generate_board(MAX_SIDE, MAX_SIDE, 2, 7)
    generate_s = time.perf_counter() - started
    started = time.perf_counter()
    generate_board(40, 25, 4, 7)
    generate_small_s = time.perf_counter() - started
    print_table(f"boards: the largest ({MAX_SIDE}×{MAX_SIDE}, {len(text) // 1024} KB) and the recommended "
                f"(40×25) (medians)", [
        (f"load {MAX_SIDE}×{MAX_SIDE} from its file", load_ms, "goal ≤ 500 ms"),
        ("baseline: every code parsed anew", median_ms(lambda: _load_without_cache(text), repeat=5), "before"),
        ("load 40×25", median_ms(lambda: board_from_text(recommended_text), repeat=9), "—"),
        (f"check {MAX_SIDE}×{MAX_SIDE} (play problems + fairness)",
         median_ms(lambda: (play_problems(board), fairness_report(board)), repeat=5), "goal ≤ 1000 ms"),
        ("check 40×25", median_ms(lambda: (play_problems(recommended), fairness_report(recommended)), repeat=9),
         "—"),
        (f"generate {MAX_SIDE}×{MAX_SIDE}, 2 players (one run)", generate_s * 1000, "report"),
        ("generate 40×25, 4 players (one run)", generate_small_s * 1000, "report"),
        ("baseline: regions by full search, 60×40 only", median_ms(lambda: _nearest_by_full_search(60, 40),
                                                                  repeat=3), "before (quadratic)"),
    ])


def bench_saves() -> None:
    from companion.game import Dice, Game, GameSetup, PlayerSetup, list_games, load_game
    from companion.game.journal import Entry, append_entries, open_writer, write_journal

    board = Board.from_rows([" ".join(["U"] * 20)] * 12, name="bench")
    setup = GameSetup([PlayerSetup("A", 1), PlayerSetup("B", 2)], board, starting_player=1)
    with tempfile.TemporaryDirectory() as folder:
        game = Game.new(setup, dice=Dice.seeded(1), save_dir=folder)
        autosave_ms = median_ms(lambda: game.change_life(1, 0), repeat=9, number=20)
        while len(game.actions) < 1000:
            game.change_life(1, 0)
        game.store.close()
        path = game.store.path
        open_ms = median_ms(lambda: load_game(path).store.close(), repeat=5)
        for i in range(19):
            other = Game.new(setup, dice=Dice.seeded(i), save_dir=folder)
            for _ in range(50):
                other.change_life(1, 0)
            other.store.close()
        list_ms = median_ms(lambda: list_games(folder), repeat=3)
        single = Path(folder) / "single.sqlite"
        write_journal(single, [Entry.of(1, {"op": "undo"})])
        conn, seq = open_writer(single), iter(range(2, 10 ** 6))
        single_ms = median_ms(lambda: append_entries(conn, [Entry.of(next(seq), {"op": "undo"})]), repeat=9,
                              number=20)
        conn.close()
        replay_ms = median_ms(lambda: Game.replay([{"op": "do", "action": a.to_dict()} for a in game.actions]),
                              repeat=5)
    print_table("saves (medians)", [
        ("autosaved action (save + backup, 2 fsynced transactions)", autosave_ms, "goal ≤ 20 ms"),
        ("baseline: one fsynced transaction (the save alone, as before)", single_ms, "—"),
        ("open a 1000-action game (both files checked, replayed)", open_ms, "goal ≤ 1000 ms"),
        ("baseline: replay the same 1000 actions in memory", replay_ms, "—"),
        ("list_games: 20 games (1000 + 19 × 50 actions)", list_ms, "report"),
    ])


def main(argv: list[str] | None = None) -> int:
    print(f"bench inputs — {machine_summary()}")
    bench_boards()
    bench_saves()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
