"""The app starts on every damaged data folder of issue 19's audit, says what happened, and keeps the
other games reachable (companion.app.games start-up and its words; the real app once, in a subprocess)."""
from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import time
import zlib
from pathlib import Path

import pytest

from boards import Board
from companion.app import games
from companion.app.words import refusal
from companion.game import Dice, Game, GameSetup, PlayerSetup, SaveError, list_games
from companion.game.store import backup_path
from read_only import make_read_only, make_writable

BOARD = Board.from_rows([" ".join(["U"] * 20)] * 12, name="Test")


def played(folder: Path, names=("Anna", "Bruno"), actions: int = 5, close: bool = True) -> Game:
    setup = GameSetup([PlayerSetup(n, i) for i, n in enumerate(names, start=1)], BOARD, starting_player=1)
    game = Game.new(setup, dice=Dice.seeded(2), save_dir=folder)
    for _ in range(actions):
        game.change_life(1, -1)
    if close:
        game.store.close()
    time.sleep(0.02)  # the next game is newer
    return game


class Start:
    """What the app does at start-up (companion.app.main.build): open the latest game that opens, and the
    notices it shows in the top bar."""

    def __init__(self, folder: Path):
        self.notices: list[SaveError] = []
        self.game, problem = games.open_latest(folder, self.notices)
        if problem is not None:
            self.notices.append(problem)

    def text(self, lang: str) -> str:
        return "\n".join(refusal(notice, lang) for notice in self.notices)

    def close(self) -> None:
        games.close(self.game)


def older_and(folder: Path, make_newest) -> tuple[Game, Path]:
    """An intact older game, then the damaged newest one `make_newest(folder)` makes."""
    older = played(folder, ("Chloé", "David"), 3)
    return older, make_newest(folder)


def without_meta(folder: Path) -> Path:
    """A kill during Game.new (before this round): the newest save has no meta table."""
    path = folder / "game-29990101-000000-aaaaaa.sqlite"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE journal (seq INTEGER PRIMARY KEY, op TEXT, crc INTEGER)")
    conn.close()
    return path


def empty_journal(folder: Path) -> Path:
    """A kill during Game.new (before this round): meta but not one journal row, and no backup."""
    game = played(folder, actions=0)
    conn = sqlite3.connect(game.store.path)
    with conn:
        conn.execute("DELETE FROM journal")
    conn.close()
    backup_path(game.store.path).unlink()
    return game.store.path


def only_backup_left(folder: Path) -> Path:
    """A kill during a restore (before this round): only .bak, .damaged-* and .restoring were left."""
    game = played(folder, ("Eve", "Farid"))
    path = game.store.path
    path.rename(path.with_name(path.name + ".damaged-20260101-000000"))
    path.with_name(path.name + ".restoring").write_bytes(b"half a copy")
    return path


def edited_everywhere(folder: Path) -> Path:
    """`players: [1, 2]` in the setup of the save and of its backup (an edit with a valid checksum)."""
    game = played(folder)
    for file in (game.store.path, backup_path(game.store.path)):
        conn = sqlite3.connect(file)
        op = json.loads(conn.execute("SELECT op FROM journal WHERE seq = 1").fetchone()[0])
        op["action"]["data"]["players"] = [1, 2]
        text = json.dumps(op)
        with conn:
            conn.execute("UPDATE journal SET op = ?, crc = ? WHERE seq = 1", (text, zlib.crc32(text.encode())))
        conn.close()
    return game.store.path


def damaged_wal(folder: Path) -> Path:
    """A byte flipped in the WAL of a killed app."""
    live = folder.parent / f"{folder.name}-live"
    game = played(live, actions=45, close=False)
    for file in live.iterdir():
        if not file.name.endswith(".lock"):
            shutil.copyfile(file, folder / file.name)
    game.store.close()
    path = folder / game.store.path.name
    wal = path.with_name(path.name + "-wal")
    data = bytearray(wal.read_bytes())
    data[32 + 30 * (24 + 4096) + 24 + 100] ^= 1
    wal.write_bytes(bytes(data))
    return path


@pytest.mark.parametrize("make_newest,continued,notice", [
    (without_meta, "older", "is damaged and cannot be opened"),
    (empty_journal, "older", "is damaged and cannot be opened"),
    (only_backup_left, "newest", "restored from its backup, nothing lost (6 entries)"),
    (edited_everywhere, "older", "is damaged and cannot be opened"),
    (damaged_wal, "newest", "restored from its backup, nothing lost (46 entries)"),
])
def test_the_app_starts_on_a_damaged_folder_says_so_and_keeps_the_other_games(tmp_path, make_newest, continued,
                                                                            notice):
    older, newest = older_and(tmp_path, make_newest)
    start = Start(tmp_path)
    text = start.text("en")
    assert notice in text, text
    assert start.text("fr") and "[store." not in start.text("fr")
    if continued == "newest":
        assert start.game.store.path == newest and start.game.store.read_only is None
    else:
        assert start.game.store.path == older.store.path and "The game of 2" in text
    listing = {g.path: g for g in list_games(tmp_path)}
    assert listing[older.store.path].status in ("ok",) and newest in listing
    start.close()


def test_the_app_opens_a_read_only_folder_to_look_at(tmp_path):
    """Audit: a read-only data folder made the app exit 1 ('not a readable game database')."""
    game = played(tmp_path)
    make_read_only(tmp_path)
    try:
        start = Start(tmp_path)
        assert start.game.state == game.state
        assert "Read-only (the folder is read-only)" in start.text("en")
        assert "Lecture seule" in start.text("fr")
        with pytest.raises(SaveError):
            start.game.change_life(1, -1)
        assert start.game.state == game.state
    finally:
        make_writable(tmp_path)


def test_a_second_app_on_the_same_folder_opens_the_game_read_only(tmp_path):
    game = played(tmp_path)
    first = Start(tmp_path)
    second = Start(tmp_path)
    assert first.game.store.read_only is None
    assert "already open" in second.text("en") and second.game.state == game.state
    first.close(), second.close()


def test_only_an_unreadable_game_leaves_the_app_on_a_new_game_with_the_reason(tmp_path):
    without_meta(tmp_path)
    start = Start(tmp_path)
    assert start.game is None and "cannot be opened" in start.text("en")


def test_the_real_app_starts_on_a_damaged_folder_and_shows_why(tmp_path):
    """The real app (offscreen, subprocess) on a folder whose newest save lost its meta table: it starts on
    the older game, and its top bar says which save is damaged."""
    data = tmp_path / "save"
    data.mkdir()
    older, newest = older_and(data, without_meta)
    shot = Path(__file__).parent.parent / "docs" / "screenshots" / "damaged-save-fr.png"
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"data_dir": str(data), "demo": False, "lang": "fr",
                                  "steps": [{"report": "start"}, {"screenshot": str(tmp_path / "shot.png")}]}))
    report = tmp_path / "report.json"
    done = subprocess.run([sys.executable, "-m", "companion.app.autopilot", str(script), str(report)],
                          capture_output=True, text=True, timeout=180, env={**os.environ, "KIVY_NO_ARGS": "1"})
    assert done.returncode == 0, done.stderr[-3000:]
    start = json.loads(report.read_text())["start"]
    assert "La partie du 2999-01-01 00:00 est endommagée" in start["message"]
    assert start["life"] == {"1": 17, "2": 20}  # the older game (Chloé lost 3)
    if os.environ.get("UPDATE_SCREENSHOTS"):
        shutil.copyfile(tmp_path / "shot.png", shot)


def test_after_a_write_the_store_could_not_check_the_app_shows_the_game_on_disk(tmp_path, monkeypatch):
    """A write fails and even the check after it fails: the store stops saving, and the app reopens the game
    from disk so that its screens show what is saved (companion.app.games.reopened_if_broken)."""
    import errno
    from companion.game import store
    game = played(tmp_path, close=False)
    steps = []

    def fail(step):
        steps.append(step)
        if step in ("appended", "check"):
            raise OSError(errno.EIO, "I/O error")
    monkeypatch.setattr(store, "_fault", fail)
    with pytest.raises(SaveError):
        game.change_life(2, -4)
    monkeypatch.setattr(store, "_fault", lambda step: None)
    assert game.store.broken and games.reopened_if_broken(played(tmp_path / "other")) is None
    fresh = games.reopened_if_broken(game)
    assert fresh.state.player(2).life == 16  # the entry had landed before the check failed: it is shown now
    assert fresh.store.broken is None
    fresh.change_life(2, -1)
    fresh.store.close()


def test_the_saved_games_list_says_damaged_offers_restore_and_says_what_was_recovered(tmp_path):
    """Issue 19's listing in the Game screen's words: a damaged game that cannot be opened is said so
    and has no button; a damaged one whose history can be read back is offered to *restore* (how many
    actions it keeps); opening it tells the table what was recovered (`Game.recovered`)."""
    from companion.app.screens.newgame.saved import saved_games
    from companion.game import load_game

    lost = edited_everywhere(tmp_path)
    restorable = damaged_wal(tmp_path)
    intact = played(tmp_path, ("Chloé", "David"), 3).store.path
    statuses = {g.path: (g.status, g.restorable) for g in list_games(tmp_path)}
    assert statuses == {lost: ("damaged", False), restorable: ("damaged", True), intact: ("ok", False)}
    for lang, restore, damaged in (("fr", "Restaurer", "ne peut pas être ouverte"), ("en", "Restore", "cannot be opened")):
        rows = {row.path: row for row in saved_games(tmp_path, None, lang)}
        assert not rows[lost].openable and damaged in rows[lost].text
        assert rows[restorable].openable and rows[restorable].open_label == restore
        assert "46" in rows[restorable].text.split("\n")[1]  # the setup and 45 life changes can be read back
        assert rows[intact].openable and rows[intact].open_label != restore and "\n" not in rows[intact].text
    game = load_game(restorable)
    try:
        said = "\n".join(refusal(notice, "fr") for notice in games.opening_notices(game))
        assert "restaurée depuis sa copie, rien n'est perdu (46 entrées)" in said
        assert {g.path: g.status for g in list_games(tmp_path)}[restorable] == "ok"
    finally:
        games.close(game)


def test_the_saved_games_list_says_planechase_horde_and_events(tmp_path):
    """#27: the list named the board and the players only: the Planechase evening, the Horde game and
    the game with an event deck (MT 7) looked like any other."""
    from companion.app.screens.newgame.saved import saved_games
    from companion.game import prebuilt_event_deck

    people = [PlayerSetup(name, i, planar_deck=[f"{name[0]}{k}" for k in range(1, 3)])
              for i, name in enumerate(("Anna", "Bruno"), start=1)]
    planar = Game.new(GameSetup(people, BOARD, starting_player=1, planechase=True, events=prebuilt_event_deck()),
                      dice=Dice.seeded(2), save_dir=tmp_path)
    planar.store.close()
    time.sleep(0.02)
    horde = Game.new(GameSetup(people[:1], BOARD, starting_player=1, format="horde"), dice=Dice.seeded(2),
                     save_dir=tmp_path)
    horde.store.close()
    time.sleep(0.02)
    plain = played(tmp_path)
    for lang, words in (("fr", ("Chacun pour soi", "Planechase", "Paquet d'événements", "Horde")),
                        ("en", ("Free-for-all", "Planechase", "Event deck", "Horde"))):
        rows = {row.path: row.text for row in saved_games(tmp_path, None, lang)}
        ffa, planes, events, horde_word = words
        assert f"{ffa} · {planes} · {events}" in rows[planar.store.path]
        assert horde_word in rows[horde.store.path] and planes not in rows[horde.store.path]
        assert planes not in rows[plain.store.path] and events not in rows[plain.store.path]
