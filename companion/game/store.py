"""Autosave: every game is saved after every action, and survives every fault a table can cause.

Files of one game in the data folder (`game-<date>-<id>.sqlite` = the save):

- the save: an append-only journal (`companion.game.journal`), one fsynced transaction per entry;
- `<save>.bak`: its backup, the same journal appended right after each entry, so that a restore
  loses nothing but the action being written when the fault came;
- `<save>.lock`: the one-writer lock (an OS lock, released by the kernel when the app ends);
- `<save>.restored`: a restore that was decided but not finished (finished at the next opening);
- `<save>.damaged-<time>` (with its `-wal`): a damaged file set aside, never deleted.

What the table can count on:

- one writer per save: a second app (or a second opening in this one) gets the game read-only and
  is told who writes it; a read-only folder or file opens read-only too, and says so;
- an action is saved and then shown, or refused (SaveError) and not shown: `append` raises only
  when the entry is not on disk, and after an uncertain failure it checks the disk to know;
- a new game appears complete (its first entry and its backup) or not at all;
- opening a game reads the save AND its backup, never trusting either: it continues from the
  longest history that passes every check and replays (ties: the save itself), restores the save
  from it when they differ, keeps the damaged file aside, and tells the table in `Game.recovered`
  what was wrong, what was kept and what was lost; a backup is never replaced by a shorter or
  different history without that message;
- every step of a restore can be interrupted: the next opening finishes it;
- nothing in the data folder is followed through a link; every copy is fsynced, and the folder
  after every rename.

`list_games` lists every game of a folder with its status and summary, without writing anything.
Tests inject faults at every step through `_fault` (tests/test_game_faults.py).
"""
from __future__ import annotations

import errno
import os
import sqlite3
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Callable

from companion.game.dice import Dice
from companion.game.errors import SaveError
from companion.game.game import Game, local_now
from companion.game.journal import (Entry, Journal, LockBusy, LockUnavailable, Operation, WriterLock, append_entries,
                                    last_seq, lock_holder, lock_path, open_writer, parse_entry, read_journal, sidecars,
                                    temp_path, write_journal)
from safeio.files import fsync_dir, link_problem, remove

SUFFIX = ".sqlite"
BACKUP = ".bak"
RESTORED = ".restored"
STATUSES = ("ok", "damaged", "read-only", "locked")
_OPEN: dict[str, "GameStore"] = {}  # saves this process writes, by real path


def _fault(step: str) -> None:
    """A named step of writing (tests replace this to fail or kill at any one of them)."""


def backup_path(path: Path) -> Path:
    return path.with_name(path.name + BACKUP)


def restored_path(path: Path) -> Path:
    return path.with_name(path.name + RESTORED)


def _stamp() -> str:
    return datetime.now().strftime("%Y%m%d-%H%M%S-%f")


def _reason(exc: BaseException) -> str:
    if isinstance(exc, OSError):
        return exc.strerror or str(exc)
    return str(exc).split("\n")[0][:160] or type(exc).__name__


def _entries_after(conn: sqlite3.Connection, seq: int) -> list[Entry]:
    conn.text_factory = bytes
    try:
        rows = conn.execute("SELECT seq, CAST(op AS BLOB), crc FROM journal WHERE seq > ? ORDER BY seq", (seq,))
        entries = []
        for row in rows:
            parsed = parse_entry(*row)
            if isinstance(parsed, str):
                raise sqlite3.DatabaseError(parsed)
            entries.append(parsed[0])
        return entries
    finally:
        conn.text_factory = str


class GameStore:
    """The journal of one game and its backup. `append` saves one operation; `read_only` says why
    this game cannot be saved here (then `append` refuses every action), None when it can."""

    def __init__(self, path: Path, *, lock: WriterLock | None = None, seq: int = 0, read_only: str | None = None):
        self.path, self._lock, self._seq, self.read_only = Path(path), lock, seq, read_only
        self.backup_problem: str | None = None  # the backup is behind (it catches up at the next action)
        self._main: sqlite3.Connection | None = None
        self._backup: sqlite3.Connection | None = None
        self._broken: str | None = None
        if lock is not None:
            self._main = open_writer(self.path)
            _OPEN[os.path.realpath(self.path)] = self

    @classmethod
    def create(cls, directory: str | Path, first: Operation) -> "GameStore":
        """A new game's files in `directory`: the save holding `first` (its setup), then its backup.
        The game appears complete or not at all; on any failure SaveError and nothing is left."""
        directory = Path(directory)
        try:
            directory.mkdir(parents=True, exist_ok=True)
            path = directory / f"game-{datetime.now().strftime('%Y%m%d-%H%M%S')}-{os.urandom(3).hex()}{SUFFIX}"
            lock = WriterLock.acquire(path)
        except (OSError, LockUnavailable) as exc:
            raise SaveError(f"cannot create a game in {directory}: {_reason(exc)} (read-only?)", path=directory,
                            key="store.cannot_create", reason=_reason(exc)) from None
        entries = [Entry.of(1, first)]
        try:
            _fault("new")
            write_journal(path, entries)
            _fault("new backup")
            write_journal(backup_path(path), entries)
            _fault("new open")
            store = cls(path, lock=lock, seq=1)
        except Exception as exc:
            for file in (path, *sidecars(path), backup_path(path), *sidecars(backup_path(path))):
                remove(file)
            lock.release()
            remove(lock_path(path))
            raise SaveError(f"the new game could not be saved: {_reason(exc)}", path=path,
                            key="store.not_saved", reason=_reason(exc)) from None
        return store

    @property
    def broken(self) -> str | None:
        """Why this store stopped saving (a write failed and the disk could not be checked after it):
        reopen the game (load_game) to go on from what is on disk. None while it saves."""
        return self._broken

    # -- saving ------------------------------------------------------------------------------
    def append(self, op: Operation) -> None:
        """Save one journal operation, then bring the backup up to date. Raise SaveError when the
        operation is not on disk (the caller must then not show it)."""
        self.append_all([op])

    def append_all(self, ops: list[Operation]) -> None:
        """Save journal operations in one write — all of them or none, so a game killed meanwhile
        never holds half of them (an undo without the action replacing it) —, then bring the backup
        up to date. Raise SaveError when they are not on disk."""
        if self.read_only:
            raise SaveError(f"not saved: {self.read_only}", path=self.path, key="store.read_only",
                            reason=self.read_only)
        if self._broken:
            raise SaveError(f"not saved: {self._broken}", path=self.path, key="store.not_saved", reason=self._broken)
        entries = [Entry.of(self._seq + 1 + index, op) for index, op in enumerate(ops)]
        try:
            _fault("append")
            append_entries(self._writer(), entries)
            _fault("appended")
        except Exception as exc:
            if not self._landed(entries[-1]):   # one transaction: the last one landed, or none did
                raise SaveError(f"this action was not saved: {_reason(exc)}", path=self.path,
                                key="store.not_saved", reason=_reason(exc)) from None
        self._seq = entries[-1].seq
        self._mirror()

    def _writer(self) -> sqlite3.Connection:
        """The save's connection, which a store that is not read-only always has (`append` checks first)."""
        assert self._main is not None, "a read-only store has no writer"
        return self._main

    def _landed(self, entry: Entry) -> bool:
        """After a failed write: is the entry on disk? A fresh connection reads what SQLite recovers
        from the files. When even that fails the store stops saving (reopen the game to go on)."""
        try:
            self._writer().close()
        except sqlite3.Error:
            pass
        try:
            _fault("check")
            self._main = open_writer(self.path)
            row = self._main.execute("SELECT op FROM journal WHERE seq = ?", (entry.seq,)).fetchone()
        except Exception as exc:
            self._broken = f"the save could not be checked after a write error ({_reason(exc)}): reopen the game"
            raise SaveError(self._broken, path=self.path, key="store.not_saved", reason=self._broken) from None
        return row is not None and row[0] == entry.text

    def _mirror(self) -> None:
        """Append to the backup what it lacks. A failure is not the action's: it is saved; the backup
        catches up at the next action (or the next opening), and `backup_problem` says so meanwhile."""
        try:
            _fault("mirror")
            if self._backup is None:
                self._backup = open_writer(backup_path(self.path))
            have = last_seq(self._backup)
            if have < self._seq:
                append_entries(self._backup, _entries_after(self._writer(), have))
            _fault("mirrored")
            self.backup_problem = None
        except Exception as exc:
            self.backup_problem = f"the backup copy is behind ({_reason(exc)})"
            if self._backup is not None:
                try:
                    self._backup.close()
                except sqlite3.Error:
                    pass
                self._backup = None

    def close(self) -> None:
        for conn in (self._main, self._backup):
            if conn is not None:
                try:
                    conn.close()
                except sqlite3.Error:
                    pass
        self._main = self._backup = None
        if self._lock is not None:
            _OPEN.pop(os.path.realpath(self.path), None)
            self._lock.release()
            self._lock = None


# -- what a save holds -------------------------------------------------------------------------
@dataclass
class _Candidate:
    """One file's history: its entries that pass the checks and replay, and the game they make."""

    name: str            # "save", "backup", "restore"
    journal: Journal
    entries: list[Entry]
    game: Game | None
    problem: str | None  # why its history stops before the file's end (None: the whole file is good)


def _replayed(name: str, journal: Journal, dice: Dice | None, clock: Callable[[], datetime]) -> _Candidate:
    """The longest prefix of the journal that replays (a bad entry ends it, with the reason)."""
    entries, ops, problem = journal.entries, journal.ops, journal.problem
    while ops:
        try:
            game = Game.replay(ops, dice=dice, clock=clock, where="journal")
            return _Candidate(name, journal, entries, game, problem)
        except SaveError as exc:
            bad = min(exc.entry or len(ops), len(ops))
            problem = exc.message
            entries, ops = entries[:bad - 1], ops[:bad - 1]
    return _Candidate(name, journal, [], None, problem)


def _agree(a: list[str], b: list[str]) -> bool:
    """One history is the other's beginning (or both are the same)."""
    n = min(len(a), len(b))
    return a[:n] == b[:n]


@dataclass
class _Decision:
    """What opening a save finds, and what it must do (nothing of it is done yet)."""

    path: Path
    best: _Candidate | None
    save: _Candidate
    backup: _Candidate
    restore: bool         # the save must be rewritten from `best`
    backup_action: str    # "" | "catch up" | "create" | "rebuild"
    message: str | None   # for the table: what was wrong, what is kept, what is lost
    lost: int | None      # entries known lost (None: unknown)


def _decide(path: Path, dice: Dice | None = None, clock: Callable[[], datetime] = local_now) -> _Decision:
    """Read the save, its backup and an unfinished restore; choose the history to continue from."""
    # the backup first: another app writes the save, then the backup, so read in this order the save
    # is never behind its backup unless it lost entries
    backup_journal = read_journal(backup_path(path))
    main_journal = read_journal(path)
    restored_file = restored_path(path)
    restored_journal = read_journal(restored_file) if os.path.lexists(restored_file) else None
    save = _replayed("save", main_journal, dice, clock)
    save_texts = [e.text for e in save.entries]
    if len(backup_journal.entries) <= len(save_texts) and _agree(backup_journal.texts, save_texts):
        # its entries are the beginning of a history that replays: no need to replay them again
        backup = _Candidate("backup", backup_journal, backup_journal.entries, None, backup_journal.problem)
    else:
        backup = _replayed("backup", backup_journal, dice, clock)
    candidates = [save, backup]
    if restored_journal is not None and restored_journal.problem is None:
        candidates.insert(1, _replayed("restore", restored_journal, dice, clock))
    best = max(candidates, key=lambda c: (len(c.entries), c.game is not None))  # equals: the save first
    if best.game is None:
        why = f"{save.problem}; the backup: {backup.problem or 'unusable'}" if backup_journal.exists else \
            f"{save.problem}; no backup to restore from"
        return _Decision(path, None, save, backup, False, "", why, None)
    texts = [e.text for e in best.entries]
    whole_save = best is save and main_journal.problem is None and len(save.entries) == len(main_journal.entries)
    restore = not whole_save
    if not backup_journal.exists:
        backup_action = "create"
    elif backup_journal.problem is None and _agree(backup_journal.texts, texts) \
            and len(backup_journal.entries) <= len(texts):
        backup_action = "catch up" if len(backup_journal.entries) < len(texts) else ""
    else:
        backup_action = "rebuild"
    lost, words = None, []
    if restore:
        if best.name == "save":
            problem, source = save.problem, "the readable part of the save"
            beyond = main_journal.stored - len(best.entries)
            lost = beyond if beyond > 0 else None
            tail = f"{lost} entries after it are lost" if lost else "what came after it could not be read"
        else:
            problem = save.problem or (f"the save ends at entry {len(save.entries)} but its backup goes on to "
                                       f"{len(best.entries)}: entries were lost from the save")
            source = "the backup" if best.name == "backup" else "an interrupted restore"
            lost = 0 if best.problem is None else None
            tail = "nothing lost" if lost == 0 else f"the backup stops there too ({best.problem})"
        words.append(f"{problem}; restored {len(best.entries)} entries from {source}; {tail}")
    if backup_action == "rebuild":
        why = backup.problem or backup_journal.problem or "it holds a different history"
        words.append(f"the backup copy was unusable ({why}): it is kept aside and a new one made from the game")
    return _Decision(path, best, save, backup, restore, backup_action, "; ".join(words) or None, lost)


# -- opening -------------------------------------------------------------------------------------
def _why_read_only(path: Path) -> str | None:
    """Why this process cannot write the save (a folder or a file that is not writable), or None."""
    for file in (path.parent, path, *sidecars(path), backup_path(path), *sidecars(backup_path(path))):
        if os.path.lexists(file) and not os.access(file, os.W_OK):
            return f"{'the folder' if file == path.parent else file.name} is read-only"
    return None


def _set_aside(file: Path, stamp: str) -> None:
    """Keep a damaged file (and its WAL, still paired) as `<file>.damaged-<stamp>`; never deleted."""
    aside = file.with_name(f"{file.name}.damaged-{stamp}")
    if os.path.lexists(file):
        _fault("set aside")
        os.replace(file, aside)
    wal, shm = sidecars(file)
    if os.path.lexists(wal):
        _fault("set aside wal")
        os.replace(wal, aside.with_name(aside.name + "-wal"))
    remove(shm)  # a cache of the WAL's index: SQLite rebuilds it


def _repair(decision: _Decision) -> None:
    """Do what `_decide` chose, each step resumable: build the restore completely (`.restored`),
    set the damaged save aside, put the restore in its place; then set up the backup."""
    path, best = decision.path, decision.best
    assert best is not None, "only a save with a history that replays is repaired"
    folder = path.parent
    if decision.restore:
        restored = restored_path(path)
        if best.name != "restore":
            _fault("restore build")
            if os.path.lexists(restored):
                _set_aside(restored, _stamp())
            write_journal(restored, best.entries, meta={"restored": _stamp()})
        _set_aside(path, best.journal.meta.get("restored", _stamp()) if best.name == "restore" else _stamp())
        _fault("restore rename")
        os.replace(restored, path)
        fsync_dir(folder)
    elif os.path.lexists(restored_path(path)):
        _set_aside(restored_path(path), _stamp())  # an older unfinished restore, superseded by the save
    backup = backup_path(path)
    if decision.backup_action == "rebuild":
        _set_aside(backup, _stamp())
        fsync_dir(folder)
    if decision.backup_action in ("rebuild", "create"):
        _fault("backup build")
        write_journal(backup, best.entries)
    elif decision.backup_action == "catch up":
        _fault("backup catch up")
        conn = open_writer(backup)
        try:
            append_entries(conn, best.entries[len(decision.backup.journal.entries):])
        finally:
            conn.close()


def _recovered_key(decision: _Decision) -> str:
    """The words for the table (companion.i18n, area saves) of what a repair did."""
    if not decision.restore:
        return "store.backup_rebuilt"
    return {0: "store.recovered", None: "store.recovered_unknown"}.get(decision.lost, "store.recovered_lost")


def load_game(path: str | Path, *, dice: Dice | None = None, clock: Callable[[], datetime] = local_now,
              read_only: bool = False) -> Game:
    """Open a saved game to continue it (autosave goes on in the same file).

    The game continues from the best history of the save and its backup (module doc); when anything
    was repaired, `game.recovered` is a SaveError saying what was wrong, kept and lost. When this
    process cannot write the save (`read_only=True`, another app writes it, a read-only folder or
    file), the game opens to be looked at: `game.store.read_only` says why, and every action is
    refused with SaveError. Raise SaveError when no history of the game can be read at all."""
    path = Path(path)
    lock, why = None, "opened to look at only" if read_only else _why_read_only(path)
    if why is None and os.path.realpath(path) in _OPEN:
        why = "it is already open for play in this app"
    if why is None:
        try:
            lock = WriterLock.acquire(path)
        except LockBusy as busy:
            why = f"it is open in another app ({busy.holder})"
        except LockUnavailable as exc:
            why = f"its lock cannot be taken ({exc})"
    try:
        try:
            decision = _decide(path, dice, clock)
        except Exception as exc:  # whatever a damaged file makes the readers raise: still the file's fault
            raise SaveError(f"cannot be read ({_reason(exc)})", path=path, key="store.damaged",
                            problem=f"cannot be read ({_reason(exc)})") from None
        if decision.best is None:
            message = decision.message or "no history replays"
            raise SaveError(message, path=path, key="store.damaged", problem=message)
        recovered = None
        if lock is not None:
            try:
                _repair(decision)
            except Exception as exc:
                raise SaveError(f"{decision.message or 'the save'}: the repair failed ({_reason(exc)}); "
                                "nothing was lost, it resumes at the next opening", path=path,
                                key="store.repair_failed", reason=_reason(exc)) from None
            try:
                store = GameStore(path, lock=lock, seq=len(decision.best.entries))
            except Exception as exc:
                raise SaveError(f"the save cannot be opened for writing: {_reason(exc)}", path=path,
                                key="store.not_saved", reason=_reason(exc)) from None
            if decision.message:
                recovered = SaveError(decision.message, path=path, key=_recovered_key(decision),
                                      restored_from=backup_path(path) if decision.best.name == "backup" else None,
                                      kept=len(decision.best.entries), lost=decision.lost, problem=decision.message)
        else:
            store = GameStore(path, read_only=why)
            if decision.message:
                recovered = SaveError(f"{decision.message} (shown only: nothing repaired, {why})", path=path,
                                      key=_recovered_key(decision), kept=len(decision.best.entries), lost=decision.lost,
                                      problem=decision.message)
    except BaseException:
        if lock is not None and os.path.realpath(path) not in _OPEN:
            lock.release()
        raise
    game = decision.best.game
    assert game is not None, "the best history is one that replays"
    game.store, game.recovered = store, recovered
    return game


def delete_game(path: str | Path) -> None:
    """Remove a saved game for good: its save, backup, pending restore, damaged copies set aside and
    their side files, then its lock. Refused (SaveError) while an app (this one included) plays it."""
    path = Path(path)
    if os.path.realpath(path) in _OPEN:
        raise SaveError("it is open for play in this app", path=path, key="store.not_deleted",
                        reason="it is open for play in this app")
    try:
        lock = WriterLock.acquire(path)
    except LockBusy as busy:
        raise SaveError(f"it is open in another app ({busy.holder})", path=path, key="store.not_deleted",
                        reason=f"it is open in another app ({busy.holder})") from None
    except LockUnavailable as exc:
        raise SaveError(f"the folder is read-only ({exc})", path=path, key="store.not_deleted",
                        reason=f"the folder is read-only ({exc})") from None
    try:
        for entry in os.scandir(path.parent):
            if entry.name.startswith(path.name) and entry.name != lock_path(path).name:
                remove(path.parent / entry.name)
        remove(lock_path(path))
        fsync_dir(path.parent)
    except OSError as exc:
        raise SaveError(f"cannot delete it: {_reason(exc)}", path=path, key="store.not_deleted",
                        reason=_reason(exc)) from None
    finally:
        lock.release()


# -- listing -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class GameSummary:
    """What the saved-games screen shows of a game, from the history that opening it would continue."""

    started: datetime | None     # time of its setup
    updated: datetime | None     # time of its last action
    players: tuple[tuple[str, int], ...]  # (name, colour) in seat order
    board: str
    board_size: tuple[int, int]  # (width, height)
    turn: int                    # turns started (0 before the first)
    format: str
    planechase: bool
    actions: int                 # actions in effect
    over: bool
    events: bool = False         # played with an event deck (MT 7)


@dataclass(frozen=True)
class SavedGame:
    """One game of a data folder. `status`: "ok"; "damaged" (`problem` says why; `restorable` when
    opening it restores a history, `summary` is then that history's); "read-only" (it opens to be
    looked at only); "locked" (another app writes it: `problem` names it). `open_here`: this app
    writes it now."""

    path: Path
    updated: datetime      # when its files last changed (the order of the list)
    status: str
    problem: str | None
    summary: GameSummary | None
    restorable: bool
    open_here: bool = False


def _time(text: str) -> datetime | None:
    try:
        return datetime.fromisoformat(text)
    except (TypeError, ValueError):
        return None


def _summary(game: Game) -> GameSummary:
    state, actions = game.state, game.actions
    board = state.board
    return GameSummary(
        started=_time(actions[0].time) if actions else None, updated=_time(actions[-1].time) if actions else None,
        players=tuple((p.name, p.id) for p in state.players), board=state.board_name,
        board_size=(board.width, board.height), turn=state.turn.number, format=state.format,
        planechase=state.planechase, actions=len(actions), over=bool(state.over), events=state.events is not None)


def _game_files(directory: Path) -> list[Path]:
    """Every save of the folder, also one whose save file is missing but whose backup or restore is there."""
    names = set()
    for entry in os.scandir(directory):
        name = entry.name
        for suffix in (SUFFIX, SUFFIX + BACKUP, SUFFIX + RESTORED):
            if name.startswith("game-") and name.endswith(suffix):
                names.add(name[:len(name) - len(suffix)] + SUFFIX)
    return [directory / name for name in sorted(names)]


def _changed(path: Path) -> datetime:
    times = []
    for file in (path, *sidecars(path), backup_path(path), restored_path(path)):
        try:
            times.append(os.lstat(file).st_mtime)
        except OSError:
            pass
    return datetime.fromtimestamp(max(times, default=0)).astimezone()


def inspect_game(path: str | Path) -> SavedGame:
    """One game's status and summary, read without writing anything (see SavedGame)."""
    path = Path(path)
    here = _OPEN.get(os.path.realpath(path))
    problem: str | None
    decision: _Decision | None
    try:
        decision = _decide(path)
    except Exception as exc:  # a listing never fails on one file: that file is reported damaged
        decision = None
        problem = f"cannot be read ({_reason(exc)})"
    summary = _summary(decision.best.game) if decision and decision.best and decision.best.game else None
    if decision is not None:
        problem = decision.message
    holder = None if here else lock_holder(path)
    read_only = _why_read_only(path)
    if decision is None or decision.best is None or decision.restore:
        status = "damaged"
    elif holder:
        status, problem = "locked", f"open in another app ({holder})"
    elif read_only:
        status, problem = "read-only", read_only
    else:
        status = "ok"
    return SavedGame(path, _changed(path), status, problem, summary,
                     restorable=bool(decision and decision.best and decision.restore), open_here=here is not None)


def list_games(directory: str | Path) -> list[SavedGame]:
    """Every saved game in `directory` with its status and summary, most recently played first.
    A damaged game is listed as such (never hides the others); nothing is written."""
    directory = Path(directory)
    if not directory.is_dir():
        return []
    return sorted((inspect_game(path) for path in _game_files(directory)), key=lambda g: g.updated, reverse=True)


def latest_game(directory: str | Path, skipped: list[SavedGame] | None = None) -> Path | None:
    """The game to offer to continue: the most recently played one that can be opened, or None.
    Newer games that cannot be opened at all are appended to `skipped` (to tell the table)."""
    directory = Path(directory)
    if not directory.is_dir():
        return None
    for path in sorted(_game_files(directory), key=_changed, reverse=True):
        game = inspect_game(path)
        if game.summary is not None:
            return path
        if skipped is not None:
            skipped.append(game)
    return None
