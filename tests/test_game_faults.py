"""Fault injection in the spirit of SQLite's own tests: a table plays a short game while every step of
writing (new game, each action, the backup, the check after an error, every step of a restore) in turn
fails with a full disk, fails with an I/O error, or kills the process. After each fault the game that
loads is the one the table saw — the action being written when the fault came is either saved and shown
or refused and not shown — or the table is told exactly what was lost.

The steps are the `companion.game.store._fault` points; a real full disk inside SQLite's own writes is
swept too (a file-size limit, EFBIG, at many sizes). Heavier sweeps: `scripts/fault_sweep.py`."""
from __future__ import annotations

import errno
import os
import resource
import signal
import sqlite3
from pathlib import Path

import pytest

from boards import Board
from companion.game import Dice, Game, GameSetup, PlayerSetup, SaveError, latest_game, list_games, load_game
from companion.game import store
from companion.game.store import backup_path

from forked import forked_reports
from game_dice import SteadyClock as Clock, with_corner_starts

BOARD = Board.from_rows(with_corner_starts([" ".join(["U"] * 20)] * 12), name="Test")


def setup() -> GameSetup:
    return GameSetup([PlayerSetup("Anna", 1), PlayerSetup("Bruno", 2)], BOARD, starting_player=1)


# What the table does, tap after tap (each a Game method; undo/redo are taps too). The last two are
# quick taps on a counter, joined into one change: an undo and the joined action saved in one write.
TAPS = [lambda g: g.next_phase(), lambda g: g.change_life(1, -3), lambda g: g.undo(),
        lambda g: g.change_life(2, -2), lambda g: g.roll_die("D6"), lambda g: g.undo(), lambda g: g.redo(),
        lambda g: g.change_life(1, -1), lambda g: g.commander_damage(1, 2, 1, join=True),
        lambda g: g.commander_damage(1, 2, 1, join=True)]
STEP_S = 1   # the clock between two readings: the two commander taps are close enough to join


def visible(game: Game) -> tuple:
    """What the screens show of a game."""
    return game.state, game.history("en"), game.can_undo, game.can_redo, tuple(a.kind for a in game.actions)


def kinds(shown: tuple) -> tuple:
    """The taps that took effect (a refused roll tapped again rolls again, later: same taps, other values)."""
    return shown[2:]


class Injector:
    """Counts the store's fault points; does `what` at the `at`-th one (1-based), once."""

    def __init__(self, at: int = 0, what: str = "count"):
        self.at, self.what, self.seen = at, what, 0

    def __call__(self, step: str) -> None:
        self.seen += 1
        if self.seen != self.at:
            return
        if self.what == "kill":
            os.kill(os.getpid(), signal.SIGKILL)
        code = {"full": errno.ENOSPC, "io": errno.EIO}[self.what]
        raise OSError(code, os.strerror(code))


def play(folder: Path, report=lambda shown: None, taps=TAPS, refusals: list | None = None) -> Game | None:
    """The table's evening: start a game, tap every tap; a refused tap (SaveError) is tapped again once,
    as players do; a store that stopped saving after an uncertain failure is reopened, as the app does."""
    clock = Clock(step_s=STEP_S)
    game = None
    for attempt in range(2):
        try:
            game = Game.new(setup(), dice=Dice.seeded(3), clock=clock, save_dir=folder)
            break
        except SaveError:
            assert latest_game(folder) is None and not list_games(folder)  # refused: no game at all
    report(visible(game))
    for tap in taps:
        for attempt in range(2):
            try:
                tap(game)
                break
            except SaveError as refusal:
                if refusals is not None:
                    refusals.append(refusal)
                if game.store.broken:
                    game.store.close()
                    game = load_game(game.store.path, dice=game.dice, clock=clock)
        report(visible(game))
    return game


def reference() -> list[tuple]:
    """What the table sees after each tap, in a run without faults."""
    import tempfile
    shown = []
    folder = Path(tempfile.mkdtemp(prefix="faults-ref-"))
    play(folder, shown.append).store.close()
    return shown


def fault_points() -> int:
    import tempfile
    injector = Injector()
    store._fault, real = injector, store._fault
    try:
        play(Path(tempfile.mkdtemp(prefix="faults-count-"))).store.close()
    finally:
        store._fault = real
    return injector.seen


POINTS = fault_points()


def loaded(folder: Path) -> Game:
    path = latest_game(folder)
    assert path is not None, sorted(os.listdir(folder))
    game = load_game(path, dice=Dice.seeded(3))
    game.store.close()
    return game


def test_the_scenario_passes_every_kind_of_fault_point():
    assert POINTS >= 30


def test_the_scenario_saves_a_joined_tap_as_an_undo_and_the_joined_action():
    """Its last two taps are one commander-damage action of 2: the write the faults below hit."""
    state, _, _, _, actions = reference()[-1]
    assert actions[-1] == "commander_damage" and actions.count("commander_damage") == 1
    assert state.player(1).commander_damage == {"2": 2}


@pytest.mark.parametrize("what", ["full", "io"])
def test_a_failed_write_at_any_step_leaves_the_screen_and_the_disk_equal(tmp_path, monkeypatch, what):
    """Audit: a full disk while the backup was refreshed committed the action, raised, and the table tapped
    again: the screen said life 15, the game after a restart 10. At every step, what the screen shows after
    the fault is exactly what loads from disk, and the finished evening is the same as without the fault."""
    final = kinds(reference()[-1])
    for at in range(1, POINTS + 1):
        folder = tmp_path / f"{what}-{at}"
        monkeypatch.setattr(store, "_fault", Injector(at, what))
        game = play(folder)
        monkeypatch.setattr(store, "_fault", lambda step: None)
        shown = visible(game)
        game.store.close()
        again = loaded(folder)
        assert visible(again) == shown, f"fault {what} at point {at}"
        assert again.recovered is None, f"fault {what} at point {at}: {again.recovered}"
        assert kinds(shown) == final, f"fault {what} at point {at}: a tap was lost"


def run_child(folder: Path, injector: Injector) -> list[int]:
    """Play in a forked child that the injector may kill; return the taps the table saw done."""
    def child(report):
        store._fault = injector
        count = iter(range(1000))
        play(folder, lambda shown: report(next(count)))
    return forked_reports(child)


def test_a_kill_at_any_step_loses_at_most_the_tap_in_flight(tmp_path):
    """Kill the app at every step of a new game, of each action, of the backup: the game that loads is the
    one the table last saw, or that one plus the tap being saved when the app died — never less, never
    another; and never a damaged save to repair (a kill is no damage)."""
    shown = reference()
    killed_mid_game = 0
    for at in range(1, POINTS + 1):
        folder = tmp_path / f"kill-{at}"
        seen = run_child(folder, Injector(at, "kill"))
        if not seen:  # killed while the new game was being created: no game, or a complete one
            games = list_games(folder)
            assert games == [] or (len(games) == 1 and games[0].status == "ok"), games
            continue
        killed_mid_game += 1
        again = loaded(folder)
        assert again.recovered is None, f"kill at point {at}: {again.recovered}"
        last = seen[-1]
        assert visible(again) in shown[last:last + 2], f"kill at point {at}: saw tap {last}"
    assert killed_mid_game >= len(TAPS)  # most kills came after the game was on screen: each was checked


def damaged(tmp_path: Path) -> tuple[Path, tuple]:
    folder = tmp_path / "damaged"
    game = play(folder)
    shown = visible(game)
    game.store.close()
    conn = sqlite3.connect(game.store.path)
    with conn:
        conn.execute("UPDATE journal SET crc = crc + 1 WHERE seq = 3")
    conn.close()
    return game.store.path, shown


def restore_points(path: Path) -> int:
    import shutil
    import tempfile
    copy = Path(tempfile.mkdtemp(prefix="faults-restore-"))
    for file in path.parent.iterdir():
        shutil.copyfile(file, copy / file.name)
    injector = Injector()
    store._fault, real = injector, store._fault
    try:
        load_game(copy / path.name).store.close()
    finally:
        store._fault = real
    return injector.seen


def test_a_kill_or_a_failure_at_any_step_of_a_restore_is_finished_at_the_next_start(tmp_path, monkeypatch):
    """Audit: a kill during a backup restore (1 of 80) left only .bak, .damaged-* and .restoring and the game
    disappeared. Every step of a restore is killed or failed in turn: the next start lists the game, finishes
    the restore and the table gets its whole game back, told that it was restored with nothing lost."""
    import shutil
    path, shown = damaged(tmp_path)
    points = restore_points(path)
    assert points >= 4
    for at in range(1, points + 1):
        for what in ("kill", "full"):
            folder = tmp_path / f"restore-{what}-{at}"
            shutil.copytree(path.parent, folder)
            target = folder / path.name
            if what == "kill":
                pid = os.fork()
                if pid == 0:
                    try:
                        store._fault = Injector(at, "kill")
                        load_game(target)
                    finally:
                        os._exit(0)
                os.waitpid(pid, 0)
            else:
                monkeypatch.setattr(store, "_fault", Injector(at, "full"))
                with pytest.raises(SaveError, match="the repair failed .*resumes at the next opening"):
                    load_game(target)
                monkeypatch.setattr(store, "_fault", lambda step: None)
            assert latest_game(folder) == target, sorted(os.listdir(folder))
            again = load_game(target)
            assert visible(again) == shown, f"{what} at restore point {at}"
            assert again.recovered is not None and again.recovered.lost == 0, f"{what} at {at}: {again.recovered}"
            again.store.close()
            assert load_game(target).recovered is None


def test_a_real_full_disk_inside_sqlite_leaves_the_screen_and_the_disk_equal(tmp_path):
    """The disk fills up inside SQLite's own writes (a file-size limit: EFBIG) at many sizes: whatever the
    table saw last before the disk was full is exactly what loads."""
    refused = 0
    for limit_kb in range(8, 200, 12):
        folder = tmp_path / f"limit-{limit_kb}"

        def child(report):
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit_kb * 1024, limit_kb * 1024))
            refusals = []
            play(folder, lambda screen: report((screen, len(refusals))), taps=TAPS * 4, refusals=refusals)
        seen = forked_reports(child)
        if not seen:
            assert latest_game(folder) is None, f"limit {limit_kb} KB: a game appeared that the table never saw"
            continue
        again = loaded(folder)
        assert visible(again) == seen[-1][0], f"limit {limit_kb} KB"
        assert backup_path(again.store.path).exists()
        refused += seen[-1][1]
    assert refused > 10  # the disk was full for some taps at most sizes
