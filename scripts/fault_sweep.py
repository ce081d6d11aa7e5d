"""The heavier fault sweep of the saves (the test suite runs a short one: tests/test_game_faults.py).

    .venv/bin/python scripts/fault_sweep.py [--games 10] [--taps 40] [--seed 1]

Each game is a random evening (life, poison, dice, phases, undo, redo) on a Planechase table with an
event deck; for each, every fault point of companion.game.store (every write, the backup, the check
after an error) in turn fails with a full disk, fails with an I/O error, or kills the process (a forked
child). After each fault the game that loads must be what the table saw (a kill: or that plus the tap in
flight), with no repair to report. Prints the points swept and every violation; exit 1 if any.
"""
from __future__ import annotations

import argparse
import errno
import os
import random
import signal
import sys
import tempfile
from pathlib import Path

from boards import library_boards, load_board
from companion.game import Dice, Game, GameSetup, PlayerSetup, SaveError, latest_game, load_game, prebuilt_event_deck
from companion.game import store

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from forked import forked_reports  # noqa: E402  (the test suite's helpers: one way to fork a faulted evening)
from game_dice import SteadyClock as Clock  # noqa: E402


def taps_for(rng: random.Random, count: int) -> list[tuple[str, tuple]]:
    choices = [("next_phase", ()), ("change_life", (1, -2)), ("change_life", (2, -1)), ("change_poison", (1, 1)),
               ("roll_die", ("D6",)), ("roll_die", ("D20",)), ("undo", ()), ("redo", ()), ("end_turn", ())]
    return [rng.choice(choices) for _ in range(count)]


def visible(game: Game) -> tuple:
    return game.state, game.history("en"), game.can_undo, game.can_redo


class Injector:
    def __init__(self, at: int = 0, what: str = "count"):
        self.at, self.what, self.seen = at, what, 0

    def __call__(self, step: str) -> None:
        self.seen += 1
        if self.seen == self.at:
            if self.what == "kill":
                os.kill(os.getpid(), signal.SIGKILL)
            code = errno.ENOSPC if self.what == "full" else errno.EIO
            raise OSError(code, os.strerror(code))


def play(folder: Path, taps, report=lambda screen: None) -> Game | None:
    board = load_board(library_boards()["duel-20x12"])
    setup = GameSetup([PlayerSetup("Anna", 1, planar_deck=[f"P{i}" for i in range(10)]),
                       PlayerSetup("Bruno", 2, planar_deck=[f"Q{i}" for i in range(10)])],
                      board, starting_player=1, events=prebuilt_event_deck(), planechase=True)
    game, clock = None, Clock()
    for _ in range(2):
        try:
            game = Game.new(setup, dice=Dice.seeded(7), clock=clock, save_dir=folder)
            break
        except SaveError:
            pass
    if game is None:
        return None
    report(visible(game))
    for name, args in taps:
        for _ in range(2):
            try:
                getattr(game, name)(*args)
                break
            except SaveError:
                if game.store.broken:
                    game.store.close()
                    game = load_game(game.store.path, dice=game.dice, clock=clock)
            except Exception:  # a tap the rules refuse (nothing to undo …): the table moves on
                break
        report(visible(game))
    return game


def sweep(seed: int, taps_count: int, work: Path) -> tuple[int, list[str]]:
    taps = taps_for(random.Random(seed), taps_count)
    counter, reference = Injector(), []
    store._fault = counter
    play(work / f"count-{seed}", taps, reference.append).store.close()
    store._fault = lambda step: None
    problems = []
    for at in range(1, counter.seen + 1):
        for what in ("full", "io", "kill"):
            folder = work / f"{seed}-{what}-{at}"

            def child(report, at=at, what=what, folder=folder):
                store._fault = Injector(at, what)
                game = play(folder, taps, report)
                if game is not None:
                    game.store.close()
            seen = forked_reports(child)
            path = latest_game(folder)
            if not seen:
                continue  # the new game itself was refused or killed: checked by the test suite
            if path is None:
                problems.append(f"seed {seed}, {what} at {at}: the game disappeared")
                continue
            game = load_game(path)
            shown = visible(game)
            game.store.close()
            if game.recovered is not None:
                problems.append(f"seed {seed}, {what} at {at}: a repair was needed: {game.recovered}")
            if what == "kill":  # no refusal before a kill: the child's screens are the reference's first ones
                if shown not in reference[len(seen) - 1:len(seen) + 1]:
                    problems.append(f"seed {seed}, kill at {at}: loaded a game the table did not see")
            elif shown != seen[-1]:
                problems.append(f"seed {seed}, {what} at {at}: the screen and the disk differ")
    return counter.seen, problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--taps", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="fault-sweep-"))
    points = 0
    problems: list[str] = []
    for seed in range(args.seed, args.seed + args.games):
        swept, found = sweep(seed, args.taps, work)
        points += swept
        problems += found
        print(f"game {seed}: {swept} fault points × 3 faults, {len(found)} problem(s)", flush=True)
    print(f"{args.games} games, {points} fault points, {3 * points} faults injected: {len(problems)} problem(s)")
    for problem in problems:
        print("  " + problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
