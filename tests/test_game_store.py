"""Autosave: SQLite journal, crash safety under SIGKILL, damaged files restored from the backup."""
import os
import random
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from boards import Board
from companion.game import Dice, Game, GameSetup, PlayerSetup, SaveError, latest_game, list_games, load_game
from companion.game.store import BACKUP_EVERY, backup_path

BOARD = Board.from_rows([" ".join(["U"] * 20)] * 12, name="Test")
KILLS = 30


def new_game(save_dir) -> Game:
    setup = GameSetup([PlayerSetup("Anna", 1), PlayerSetup("Bruno", 2)], BOARD, starting_player=1)
    return Game.new(setup, dice=Dice.seeded(5), save_dir=save_dir)


def test_every_action_is_saved_at_once_and_the_game_continues_after_reload(tmp_path):
    game = new_game(tmp_path)
    game.next_phase()
    game.change_life(2, -3)
    game.undo()
    game.change_life(1, -2)
    game.undo(), game.redo()
    again = load_game(latest_game(tmp_path), dice=Dice.seeded(1))  # the first game is still open
    assert again.state == game.state and again.recovered is None
    again.change_life(2, -1)
    game.store.close(), again.store.close()
    third = load_game(latest_game(tmp_path))
    assert third.state.player(2).life == 19 and third.state.player(1).life == 18


def test_latest_game_is_the_one_played_last(tmp_path):
    assert latest_game(tmp_path / "none") is None
    first = new_game(tmp_path)
    time.sleep(0.02)
    second = new_game(tmp_path)
    assert latest_game(tmp_path) == second.store.path
    time.sleep(0.02)
    first.change_life(1, -1)
    assert latest_game(tmp_path) == first.store.path
    assert [g.path for g in list_games(tmp_path)] == [first.store.path, second.store.path]


CHILD = textwrap.dedent("""
    import sys
    from pathlib import Path
    from boards import Board
    from companion.game import Dice, Game, GameSetup, PlayerSetup, latest_game, load_game
    folder = Path(sys.argv[1])
    path = latest_game(folder)
    if path:
        game = load_game(path, dice=Dice.seeded(0))
    else:
        board = Board.from_rows([" ".join(["U"] * 20)] * 12)
        setup = GameSetup([PlayerSetup("Anna", 1), PlayerSetup("Bruno", 2)], board, starting_player=1)
        game = Game.new(setup, dice=Dice.seeded(0), save_dir=folder)
    print(len(game.actions), flush=True)
    step = 0
    while True:
        step += 1
        if step % 7 == 0:
            game.undo()
            game.redo()
        game.change_life(1, -1)
        print(len(game.actions), flush=True)
""")


def kill_chain(folder, seed: int, kills: int) -> int:
    """Start, kill, reload the same game `kills` times; return the number of actions finally saved."""
    rng = random.Random(seed)
    env = {**os.environ, "PYTHONPATH": os.getcwd()}
    saved = 0
    for attempt in range(kills):
        child = subprocess.Popen([sys.executable, "-c", CHILD, str(folder)], stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True, env=env)
        start = int(child.stdout.readline())
        assert start >= saved, f"attempt {attempt}: reloaded {start} actions, {saved} were saved"
        for _ in range(rng.randint(1, 2 * BACKUP_EVERY)):
            line = child.stdout.readline()
        time.sleep(rng.random() * 0.003)
        child.send_signal(signal.SIGKILL)
        rest = child.stdout.read().split()
        child.wait()
        reported = int(rest[-1]) if rest else int(line)
        game = load_game(latest_game(folder))
        count = len(game.actions)
        assert game.recovered is None, f"attempt {attempt}: {game.recovered}"
        # after the last line it printed, the child may have saved an undo (−1), its redo, one more action (+1)
        assert reported - 1 <= count <= reported + 1, f"attempt {attempt}: {count} actions, {reported} reported"
        assert game.state.player(1).life == 20 - (count - 1)
        game.store.close()
        saved = count
    return saved


def test_killing_the_process_while_saving_never_loses_the_last_good_state(tmp_path):
    """SIGKILL at random moments (mid-transaction, mid-backup) 30 times, in three games played side by side:
    each game always loads, with every action reported as saved, and its state is the fold of its actions."""
    chains = 3
    with ThreadPoolExecutor(chains) as pool:
        futures = [pool.submit(kill_chain, tmp_path / f"chain{i}", 2026 + i, KILLS // chains) for i in range(chains)]
        saved = [f.result() for f in futures]
    assert all(count > KILLS // chains for count in saved)


def damaged_save(tmp_path, damage) -> tuple:
    game = new_game(tmp_path)
    for _ in range(BACKUP_EVERY + 5):
        game.change_life(1, -1)
    game.store.close()
    path = game.store.path
    damage(path)
    return game, path


def truncate(path):
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def garbage(path):
    path.write_bytes(random.Random(1).randbytes(path.stat().st_size))


def bit_rot(path):
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("UPDATE journal SET op = replace(op, '-1', '-9') WHERE seq = 3")
    conn.close()


@pytest.mark.parametrize("damage,problem", [(truncate, "not a readable game database|damaged"),
                                            (garbage, "not a readable game database"),
                                            (bit_rot, "journal entry 3 is damaged")])
def test_a_damaged_save_is_reported_and_the_backup_restored(tmp_path, damage, problem):
    """A truncated, garbage or altered file is detected; the backup is restored, the damaged file kept aside,
    and the message names the file and what was wrong."""
    game, path = damaged_save(tmp_path, damage)
    restored = load_game(path)
    assert restored.recovered is not None
    message = str(restored.recovered)
    assert str(path) in message and "restored the backup" in message
    assert any(__import__("re").search(p, message) for p in problem.split("|"))
    assert restored.recovered.restored_from == backup_path(path)
    saved = len(restored.actions)
    assert BACKUP_EVERY - 1 <= saved < len(game.actions)
    assert restored.state.player(1).life == 20 - (saved - 1)
    assert list(tmp_path.glob(f"{path.name}.damaged-*"))
    restored.change_life(1, -1)  # autosave goes on in the restored file
    restored.store.close()
    assert load_game(path).recovered is None


def test_a_damaged_save_without_backup_is_a_clear_error(tmp_path):
    game = new_game(tmp_path)
    game.store.close()
    backup_path(game.store.path).unlink(missing_ok=True)
    garbage(game.store.path)
    with pytest.raises(SaveError, match=r"game-.*\.sqlite: not a readable game database .*no backup"):
        load_game(game.store.path)


def test_missing_file_is_a_clear_error(tmp_path):
    with pytest.raises(SaveError, match="file not found; no backup"):
        load_game(tmp_path / "game-x.sqlite")
