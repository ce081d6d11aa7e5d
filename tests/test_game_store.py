"""Autosave (companion.game.store), against issue 19's audit of the saves: one writer per save, new
games complete or absent, damaged files reported and repaired from the backup with nothing lost but
the action in flight, validated journal entries, read-only folders, links never followed, and a
listing of every game of the folder. Faults at every step: tests/test_game_faults.py."""
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
import zlib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from boards import Board
from companion.game import (Dice, Game, GameSetup, PlayerSetup, SaveError, inspect_game, latest_game, list_games,
                            load_game)
from companion.game.journal import lock_holder, read_journal, wal_problem
from companion.game.store import backup_path, restored_path

from game_dice import with_corner_starts
from read_only import make_read_only, make_writable

BOARD = Board.from_rows(with_corner_starts([" ".join(["U"] * 20)] * 12), name="Test")
KILLS = 30


def new_game(save_dir, players=("Anna", "Bruno")) -> Game:
    setup = GameSetup([PlayerSetup(name, i) for i, name in enumerate(players, start=1)], BOARD, starting_player=1)
    return Game.new(setup, dice=Dice.seeded(5), save_dir=save_dir)


def played(save_dir, actions: int = 25) -> tuple[Game, Path]:
    """A game of `actions` life changes, closed (its files as a quit app leaves them)."""
    game = new_game(save_dir)
    for _ in range(actions):
        game.change_life(1, -1)
    game.store.close()
    return game, game.store.path


def edit_row(path: Path, seq: int, text: str | None) -> None:
    """Change (or delete, text None) one journal row, with a valid checksum: an edit, not bit rot."""
    conn = sqlite3.connect(path)
    with conn:
        if text is None:
            conn.execute("DELETE FROM journal WHERE seq = ?", (seq,))
        else:
            conn.execute("UPDATE journal SET op = ?, crc = ? WHERE seq = ?", (text, zlib.crc32(text.encode()), seq))
    conn.close()


def test_every_action_is_saved_at_once_and_the_game_continues_after_reload(tmp_path):
    game = new_game(tmp_path)
    game.next_phase()
    game.change_life(2, -3)
    game.undo()
    game.change_life(1, -2)
    game.undo(), game.redo()
    game.store.close()
    again = load_game(latest_game(tmp_path), dice=Dice.seeded(1))
    assert again.state == game.state and again.recovered is None and again.store.read_only is None
    again.change_life(2, -1)
    again.store.close()
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


# -- one writer per save --------------------------------------------------------------------------
def test_a_second_opening_is_read_only_and_refuses_every_action(tmp_path):
    """Audit: two instances on one save left the save and its backup unloadable (8 of 8 rounds)."""
    game, path = played(tmp_path, 3)
    first = load_game(path)
    second = load_game(path)
    assert first.store.read_only is None and "already open" in second.store.read_only
    assert second.state == first.state
    with pytest.raises(SaveError, match="not saved: it is already open"):
        second.change_life(1, -5)
    assert second.state == first.state  # refused, not shown
    first.change_life(2, -1)
    assert inspect_game(path).open_here and inspect_game(path).status == "ok"
    first.store.close()
    third = load_game(path)
    assert third.store.read_only is None and third.state.player(2).life == 19


HOLDER = textwrap.dedent("""
    import sys, time
    from companion.game import load_game
    game = load_game(sys.argv[1])
    print(game.store.read_only or "writer", flush=True)
    sys.stdin.readline()
""")


def test_another_process_holding_the_save_makes_it_read_only_here_and_listed_locked(tmp_path):
    game, path = played(tmp_path, 3)
    env = {**os.environ, "PYTHONPATH": os.getcwd()}
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(path)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True, env=env)
    try:
        assert holder.stdout.readline().strip() == "writer"
        here = load_game(path)
        assert f"process {holder.pid}" in here.store.read_only and "another app" in here.store.read_only
        listed = list_games(tmp_path)[0]
        assert listed.status == "locked" and f"process {holder.pid}" in listed.problem
        assert listed.summary.actions == 4
    finally:
        holder.kill()
        holder.wait()
    assert lock_holder(path) is None  # the kernel released the killed holder's lock: no stale lock file
    assert load_game(path).store.read_only is None


RIVAL = textwrap.dedent("""
    import sys
    from companion.game import Dice, SaveError, latest_game, load_game
    game = load_game(latest_game(sys.argv[1]), dice=Dice.seeded(int(sys.argv[2])))
    saved = refused = 0
    for i in range(30):
        try:
            if i % 5 == 4:
                game.undo()
            else:
                game.change_life(1 + i % 2, -1)
            saved += 1
        except SaveError:
            refused += 1
    print(saved, refused, flush=True)
""")


def test_two_apps_playing_one_save_at_once_never_break_it(tmp_path):
    """Audit: 'entry 4 cannot be replayed: nothing to undo; the backup is unusable too' after two
    instances wrote one save; two loads at once crashed in backup(). Eight rounds of two rival processes."""
    env = {**os.environ, "PYTHONPATH": os.getcwd()}
    game, path = played(tmp_path, 2)
    expected = len(game.actions)
    for round_ in range(8):
        rivals = [subprocess.Popen([sys.executable, "-c", RIVAL, str(tmp_path), str(round_ * 2 + i)],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
                  for i in range(2)]
        outcomes = []
        for rival in rivals:
            out, err = rival.communicate(timeout=120)
            assert rival.returncode == 0, err
            outcomes.append(tuple(map(int, out.split())))
        assert sorted(refused == 30 for _, refused in outcomes) in ([False, True], [False, False])
        expected += sum(saved for saved, _ in outcomes)
        again = load_game(path)
        assert again.recovered is None, again.recovered
        assert len(read_journal(path).entries) == len(read_journal(backup_path(path)).entries)
        again.store.close()
        assert len(read_journal(path).entries) == expected


# -- a new game appears complete or not at all -------------------------------------------------------
def test_a_new_game_has_its_setup_and_its_backup_from_the_start(tmp_path):
    game = new_game(tmp_path)
    path = game.store.path
    backup = read_journal(backup_path(path))
    assert [e.seq for e in read_journal(path).entries] == [1] == [e.seq for e in backup.entries]
    assert not list(tmp_path.glob(".*.tmp"))  # no temporary file left


def test_a_damaged_newest_game_never_hides_the_others(tmp_path):
    """Audit: a kill during Game.new left a newest save without meta table or journal and no backup:
    the app exited 1 on every start and the older games could no longer be reached."""
    older, older_path = played(tmp_path, 4)
    time.sleep(0.02)
    broken = tmp_path / "game-29990101-000000-abcdef.sqlite"
    conn = sqlite3.connect(broken)
    conn.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    conn.close()
    empty = tmp_path / "game-29990101-000001-abcdef.sqlite"
    empty.write_bytes(b"")
    listing = {g.path: g for g in list_games(tmp_path)}
    assert set(listing) == {older_path, broken, empty}
    assert listing[older_path].status == "ok" and listing[older_path].summary.players == (("Anna", 1), ("Bruno", 2))
    for bad in (broken, empty):
        assert listing[bad].status == "damaged" and not listing[bad].restorable and listing[bad].summary is None
        assert listing[bad].problem
    assert latest_game(tmp_path) == older_path
    with pytest.raises(SaveError, match="no backup to restore from"):
        load_game(broken)


# -- damaged files: reported, repaired, nothing lost but the action in flight ------------------------
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


@pytest.mark.parametrize("damage,problem", [(truncate, "not a readable game database|damaged|missing"),
                                            (garbage, "not a readable game database"),
                                            (bit_rot, "journal entry 3 is damaged")])
def test_a_damaged_save_is_restored_from_its_backup_with_nothing_lost(tmp_path, damage, problem):
    """Audit: restoring the backup lost up to 19 actions (a backup every 20). Now the backup follows every
    action: nothing is lost, the damaged file is kept aside and the message names file, fault and result."""
    game, path = played(tmp_path)
    damage(path)
    restored = load_game(path)
    message = str(restored.recovered)
    assert str(path) in message and "restored 26 entries from the backup; nothing lost" in message
    assert any(__import__("re").search(p, message) for p in problem.split("|"))
    assert restored.recovered.restored_from == backup_path(path)
    assert (restored.recovered.kept, restored.recovered.lost) == (26, 0)
    assert restored.state == game.state
    assert list(tmp_path.glob(f"{path.name}.damaged-*"))
    restored.change_life(1, -1)  # autosave goes on in the restored file
    restored.store.close()
    again = load_game(path)
    assert again.recovered is None and again.state.player(1).life == game.state.player(1).life - 1


def test_a_damaged_save_without_backup_is_a_clear_error(tmp_path):
    game, path = played(tmp_path, 1)
    backup_path(path).unlink()
    garbage(path)
    with pytest.raises(SaveError, match=r"game-.*\.sqlite: not a readable game database .*no backup"):
        load_game(path)


def test_missing_file_is_a_clear_error(tmp_path):
    with pytest.raises(SaveError, match="the file is missing; no backup"):
        load_game(tmp_path / "game-x.sqlite")


def test_a_save_with_only_its_backup_left_is_listed_and_restored(tmp_path):
    """Audit: a kill during a restore left only .bak, .damaged-* and .restoring: latest_game() was None."""
    game, path = played(tmp_path, 5)
    path.rename(path.with_name(path.name + ".damaged-20260101-000000"))
    assert latest_game(tmp_path) == path
    listed = list_games(tmp_path)[0]
    assert listed.status == "damaged" and listed.restorable and listed.summary.actions == 6
    assert load_game(path).state == game.state


def kill_snapshot(game: Game, folder: Path) -> Path:
    """The files of a game still being played, as a kill would leave them (save, WAL and backup)."""
    folder.mkdir()
    for file in game.store.path.parent.iterdir():
        if file.name.startswith(game.store.path.name) and not file.name.endswith(".lock"):
            shutil.copyfile(file, folder / file.name)
    return folder / game.store.path.name


def flip_wal_frame(path: Path, frame: int) -> None:
    wal = path.with_name(path.name + "-wal")
    data = bytearray(wal.read_bytes())
    page = int.from_bytes(data[8:12], "big")
    data[32 + frame * (24 + page) + 24 + page // 2] ^= 0x40
    wal.write_bytes(bytes(data))


def test_a_damaged_wal_is_reported_and_the_backup_never_shortened(tmp_path):
    """Audit: one flipped byte in the WAL after a kill loaded silently with 24 of 46 actions gone, and the
    load then refreshed the backup from 40 actions down to 22. SQLite's checksums reveal the damage."""
    game = new_game(tmp_path / "live")
    for _ in range(45):
        game.change_life(1, -1)
    path = kill_snapshot(game, tmp_path / "killed")
    assert wal_problem(path) is None  # a kill alone is no damage
    flip_wal_frame(path, 30)
    assert "damaged at frame 31" in wal_problem(path)
    backup_before = read_journal(backup_path(path)).texts
    restored = load_game(path)
    message = str(restored.recovered)
    assert "write-ahead log (-wal) is damaged at frame 31" in message and "nothing lost" in message
    assert restored.state == game.state and len(restored.actions) == 46
    assert read_journal(backup_path(path)).texts == backup_before


def test_a_damaged_wal_without_backup_is_reported_not_absorbed(tmp_path):
    game = new_game(tmp_path / "live")
    for _ in range(45):
        game.change_life(1, -1)
    path = kill_snapshot(game, tmp_path / "killed")
    backup_path(path).unlink()
    flip_wal_frame(path, 30)
    restored = load_game(path)
    assert "write-ahead log (-wal) is damaged" in str(restored.recovered)
    assert "could not be read" in str(restored.recovered) and len(restored.actions) < 46


def test_a_backup_with_another_history_is_kept_aside_and_the_table_told(tmp_path):
    game, path = played(tmp_path, 5)
    edit_row(backup_path(path), 4, '{"op":"undo"}')
    again = load_game(path)
    assert "the backup copy was unusable" in str(again.recovered) and "kept aside" in str(again.recovered)
    assert again.state == game.state and list(tmp_path.glob("*.bak.damaged-*"))
    assert read_journal(backup_path(path)).texts == read_journal(path).texts


def test_a_shorter_save_is_restored_from_its_longer_backup(tmp_path):
    """A last row deleted from the save (or lost with its WAL): the backup knows more, and wins."""
    game, path = played(tmp_path, 5)
    edit_row(path, 6, None)
    again = load_game(path)
    assert "the save ends at entry 5 but its backup goes on to 6" in str(again.recovered)
    assert again.state == game.state and (again.recovered.kept, again.recovered.lost) == (6, 0)


# -- every journal row validated before it is replayed -----------------------------------------------
START = 1


def start_row(path: Path) -> dict:
    import json
    return json.loads(read_journal(path).entries[0].text)


@pytest.mark.parametrize("seq,edit,words", [
    (START, lambda op: op["action"]["data"].update(players=[1, 2]), "entry 1 cannot be replayed"),
    (START, lambda op: op["action"]["data"].update(board_rows=5), "entry 1 cannot be replayed"),
    (3, "not json {", "entry 3 is not valid JSON"),
    (3, "[" * 5000 + "]" * 5000, "entry 3 is nested too deeply|entry 3 is nested more than 32"),
    (3, '{"op":"do","action":{"kind":"change_life","data":{},"time":"x"},"extra":1}', "exactly 'op' and 'action'"),
    (3, '{"op":"jump"}', "unknown operation 'jump'"),
    (3, '{"op":"do","action":{"kind":"change_life","data":{"player":1,"amount":NaN},"time":""}}', "not valid JSON"),
    (3, None, "entry 3 is missing (the journal jumps from 2 to 4)"),
])
def test_an_edited_row_is_refused_and_the_backup_restores_it(tmp_path, seq, edit, words):
    """Audit: rows edited with a valid checksum crashed (players: [1, 2] → AttributeError, board_rows: 5 →
    TypeError, JSONDecodeError, RecursionError) or loaded silently with an action missing (deleted row)."""
    import json
    game, path = played(tmp_path, 5)
    if callable(edit):
        op = start_row(path)
        edit(op)
        edit = json.dumps(op)
    edit_row(path, seq, edit)
    problem = read_journal(path).problem or ""
    restored = load_game(path)
    message = str(restored.recovered)
    assert any(w in message for w in words.split("|")), message
    assert seq == START or problem in message
    assert "nothing lost" in message and restored.state == game.state


def test_rows_edited_in_the_save_and_its_backup_keep_what_replays_and_say_what_is_lost(tmp_path):
    game, path = played(tmp_path, 5)
    for file in (path, backup_path(path)):
        edit_row(file, 4, '{"op":"undo"}')
        edit_row(file, 5, '{"op":"undo"}')
        edit_row(file, 6, '{"op":"undo"}')  # the third undo goes past the setup: nothing to undo
    restored = load_game(path)
    message = str(restored.recovered)
    assert "entry 6 cannot be replayed: nothing to undo" in message and "restored 5 entries" in message
    assert restored.recovered.lost == 1 and len(restored.actions) == 1


# -- read-only folders and files -------------------------------------------------------------------
def snapshot(folder: Path) -> dict[str, bytes]:
    return {f.name: f.read_bytes() for f in folder.iterdir()}


@pytest.mark.parametrize("which", ["folder", "save"])
def test_a_read_only_folder_or_save_opens_to_look_at_and_saves_nothing(tmp_path, which):
    """Audit: a read-only data folder was reported as 'not a readable game database … the backup is unusable
    too' (both files intact) and the app exited 1; an immutable save made every action raise OperationalError."""
    game = new_game(tmp_path)
    for _ in range(5):
        game.change_life(1, -1)
    path = kill_snapshot(game, tmp_path / "copy")  # with its WAL, as a killed app leaves it
    target = path.parent if which == "folder" else path
    before = snapshot(path.parent)
    make_read_only(target)
    try:
        again = load_game(path)
        assert "read-only" in again.store.read_only and again.recovered is None
        assert again.state == game.state
        with pytest.raises(SaveError, match="not saved: .*read-only"):
            again.change_life(1, -1)
        assert again.state == game.state
        listed = list_games(path.parent)[0]
        assert listed.status == "read-only" and listed.summary.actions == 6
        assert latest_game(path.parent) == path
    finally:
        make_writable(target)
    after = snapshot(path.parent)
    assert {k: v for k, v in after.items() if not k.endswith("-shm")} == \
        {k: v for k, v in before.items() if not k.endswith("-shm")}


# -- links are never followed in the data folder --------------------------------------------------
def test_a_planted_link_never_makes_a_restore_write_elsewhere(tmp_path):
    """Audit: a planted <save>.restoring symlink made the restore overwrite another file."""
    game, path = played(tmp_path / "data", 5)
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    restored_path(path).symlink_to(victim)
    bit_rot(path)
    again = load_game(path)
    assert "nothing lost" in str(again.recovered) and again.state == game.state
    assert victim.read_text() == "keep me"
    assert not restored_path(path).is_symlink()


def test_a_save_that_is_a_link_is_not_opened_through_it(tmp_path):
    game, path = played(tmp_path / "data", 3)
    other, other_path = played(tmp_path / "other", 7)
    before = other_path.read_bytes()
    path.unlink()
    path.symlink_to(other_path)
    listed = inspect_game(path)
    assert listed.status == "damaged" and listed.restorable and "symbolic link" in listed.problem
    again = load_game(path)  # restored from its own backup; the link itself set aside
    assert again.state == game.state and other_path.read_bytes() == before


def test_restores_fsync_the_copy_and_the_folder_after_each_rename(tmp_path, monkeypatch):
    from companion.game import journal, store
    events = []
    for module in (journal, store):
        monkeypatch.setattr(module, "fsync_dir", lambda folder, real=journal.fsync_dir: (events.append("dir"),
                                                                                          real(folder)))
    monkeypatch.setattr(journal, "fsync_file", lambda p, real=journal.fsync_file: (events.append("file"), real(p)))
    real_replace = os.replace
    monkeypatch.setattr(os, "replace", lambda a, b: (events.append("rename"), real_replace(a, b)))
    game, path = played(tmp_path, 3)
    bit_rot(path)
    events.clear()
    load_game(path)
    assert events[0] == "file"  # the restore's copy is durable before it is renamed in
    for i, event in enumerate(events):
        if event == "rename" and (i + 1 == len(events) or events[i + 1] != "rename"):
            assert "dir" in events[i + 1:i + 2], events  # the folder is synced after the renames


# -- the kill test of the previous round, kept ---------------------------------------------------------
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
        for _ in range(rng.randint(1, 40)):
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


def test_deleting_a_game_removes_every_file_of_it_but_never_one_being_played(tmp_path):
    from companion.game.store import delete_game
    keep, keep_path = played(tmp_path, 2)
    game, path = played(tmp_path, 3)
    bit_rot(path)
    load_game(path).store.close()  # leaves a .damaged-* copy and side files
    playing = load_game(path)
    with pytest.raises(SaveError, match="open for play in this app"):
        delete_game(path)
    playing.store.close()
    delete_game(path)
    assert [f.name for f in tmp_path.iterdir() if f.name.startswith(path.name)] == []
    assert [g.path for g in list_games(tmp_path)] == [keep_path]
