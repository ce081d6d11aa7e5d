"""Autosave: each game is an append-only journal in one SQLite file (WAL mode, one
transaction per action), so a crash or a killed process loses at most the action
being written and never corrupts what was saved before.

A verified copy (`<file>.bak`) is refreshed every few actions and whenever a game
loads cleanly, by writing a temporary file and renaming it over the old copy, so a
half-written backup never replaces a good one. When a save cannot be read, the
damaged file is kept aside (`<file>.damaged-<time>`), the backup is restored, and the
loaded game carries a `SaveError` in `Game.recovered` saying which file and what was wrong.
"""
from __future__ import annotations

import json
import os
import secrets
import shutil
import sqlite3
import zlib
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Callable

from companion.game.dice import Dice
from companion.game.errors import SaveError
from companion.game.game import SAVE_FORMAT, SAVE_VERSION, Game, local_now

BACKUP_EVERY = 20
SUFFIX = ".sqlite"
SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS journal (seq INTEGER PRIMARY KEY AUTOINCREMENT, op TEXT NOT NULL, crc INTEGER NOT NULL);
"""


def _connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    return conn


def _sidecars(path: Path) -> list[Path]:
    return [path.with_name(path.name + s) for s in ("-wal", "-shm")]


class GameStore:
    """The journal of one game: `append` writes one operation in its own transaction."""

    def __init__(self, path: Path, conn: sqlite3.Connection, ops_written: int = 0):
        self.path, self._conn, self._since_backup = path, conn, ops_written % BACKUP_EVERY

    @classmethod
    def create(cls, directory: str | Path) -> "GameStore":
        """A new, empty journal file in `directory` (created if needed)."""
        directory = Path(directory)
        directory.mkdir(parents=True, exist_ok=True)
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        path = directory / f"game-{stamp}-{secrets.token_hex(3)}{SUFFIX}"
        conn = _connect(path)
        with conn:
            conn.execute("BEGIN")
            for statement in filter(str.strip, SCHEMA.split(";")):
                conn.execute(statement)
            conn.executemany("INSERT INTO meta VALUES (?, ?)", [("format", SAVE_FORMAT), ("version", str(SAVE_VERSION))])
        return cls(path, conn)

    def append(self, op: dict) -> None:
        """Write one journal operation durably (one transaction)."""
        text = json.dumps(op, ensure_ascii=False, separators=(",", ":"))
        with self._conn:
            self._conn.execute("BEGIN IMMEDIATE")
            self._conn.execute("INSERT INTO journal (op, crc) VALUES (?, ?)", (text, zlib.crc32(text.encode())))
        self._since_backup += 1
        if self._since_backup >= BACKUP_EVERY:
            self.backup()

    def backup(self) -> Path:
        """Refresh `<file>.bak` atomically (temporary file, then rename)."""
        target = backup_path(self.path)
        temp = target.with_name(target.name + ".tmp")
        temp.unlink(missing_ok=True)
        dest = sqlite3.connect(temp)
        try:
            self._conn.backup(dest)
        finally:
            dest.close()
        os.replace(temp, target)
        self._since_backup = 0
        return target

    def close(self) -> None:
        self._conn.close()


def backup_path(path: Path) -> Path:
    return path.with_name(path.name + ".bak")


def read_journal(path: Path) -> list[dict]:
    """All operations of a journal file, checked; raise SaveError saying what is wrong."""
    if not path.is_file():
        raise SaveError("file not found", path=path)
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            check = conn.execute("PRAGMA quick_check").fetchone()[0]
            if check != "ok":
                raise SaveError(f"the database is damaged ({check})", path=path)
            meta = dict(conn.execute("SELECT key, value FROM meta"))
            rows = conn.execute("SELECT seq, op, crc FROM journal ORDER BY seq").fetchall()
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        raise SaveError(f"not a readable game database ({exc})", path=path) from None
    if meta.get("format") != SAVE_FORMAT or meta.get("version") != str(SAVE_VERSION):
        raise SaveError(f"not a version {SAVE_VERSION} Magic Tactical game (meta {meta})", path=path)
    ops = []
    for seq, text, crc in rows:
        if zlib.crc32(text.encode()) != crc:
            raise SaveError(f"journal entry {seq} is damaged (checksum mismatch)", path=path)
        ops.append(json.loads(text))
    if not ops:
        raise SaveError("the journal is empty (the game was never started)", path=path)
    return ops


def _replay(path: Path, dice: Dice | None, clock) -> tuple[Game, int]:
    ops = read_journal(path)
    return Game.replay(ops, dice=dice, clock=clock, where=str(path)), len(ops)


def _restore(path: Path, backup: Path) -> None:
    """Put the backup in place of `path`, keeping the damaged file (and its WAL) aside."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    for file in [path, *_sidecars(path)]:
        if file.exists():
            os.replace(file, file.with_name(f"{file.name}.damaged-{stamp}"))
    temp = path.with_name(path.name + ".restoring")
    shutil.copyfile(backup, temp)
    os.replace(temp, path)


def load_game(path: str | Path, *, dice: Dice | None = None, clock: Callable[[], datetime] = local_now) -> Game:
    """Open a saved game to continue it (autosave goes on in the same file).

    A damaged file is replaced by its backup; the returned game then has `recovered` set to the
    SaveError describing the damage. Raise SaveError when neither the file nor its backup loads.
    """
    path = Path(path)
    recovered = None
    try:
        game, count = _replay(path, dice, clock)
    except SaveError as problem:
        backup = backup_path(path)
        if not backup.is_file():
            raise SaveError(f"{problem.message}; no backup to restore from", path=path) from None
        try:
            _replay(backup, dice, clock)
        except SaveError as backup_problem:
            raise SaveError(f"{problem.message}; the backup is unusable too: {backup_problem}", path=path) from None
        _restore(path, backup)
        game, count = _replay(path, dice, clock)
        recovered = SaveError(f"{problem.message}; restored the backup ({len(game.actions)} actions)",
                              path=path, restored_from=backup)
    game.store = GameStore(path, _connect(path), count)
    game.recovered = recovered
    game.store.backup()  # the file just loaded cleanly: it is the new last good copy
    return game


@dataclass(frozen=True)
class SavedGame:
    path: Path
    updated: datetime


def list_games(directory: str | Path) -> list[SavedGame]:
    """Saved games in `directory`, most recently played first."""
    directory = Path(directory)
    if not directory.is_dir():
        return []
    found = []
    for path in directory.glob(f"game-*{SUFFIX}"):
        times = [f.stat().st_mtime for f in [path, *_sidecars(path)] if f.exists()]
        found.append(SavedGame(path, datetime.fromtimestamp(max(times)).astimezone()))
    return sorted(found, key=lambda g: g.updated, reverse=True)


def latest_game(directory: str | Path) -> Path | None:
    """The game to offer to continue on start: the most recently played one, or None."""
    games = list_games(directory)
    return games[0].path if games else None
