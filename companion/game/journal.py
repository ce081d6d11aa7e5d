"""The files of one saved game, read and written safely; `companion.game.store` decides what to
do with them.

A game is a journal: one SQLite file (WAL mode, one transaction per entry) whose rows are
entries 1, 2, 3 … each an operation in JSON with its CRC-32. Reading never trusts a file:
`read_journal` returns the longest prefix of entries that pass every check (a regular file, not
a link; a readable database of our format; consecutive numbers from 1; the CRC; JSON of bounded
size and nesting; the operation's envelope) and says why it stopped, if it did. It also looks
at the write-ahead log itself (`wal_problem`), because SQLite silently drops every transaction
after a damaged frame.

Writing: `write_journal` makes a complete file under a temporary name (created exclusively,
never through a link), fsyncs it, renames it into place and fsyncs the folder, so a file appears
whole or not at all. `WriterLock` is the one-writer lock of a save: an OS lock on `<save>.lock` (flock; a byte-range
lock on Windows) that the kernel releases when the process ends, however it ends.
"""
from __future__ import annotations

import errno
import json
import os
import secrets
import socket
import sqlite3
import stat
import struct
import sys
import tempfile
import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn
from urllib.request import pathname2url

import numpy as np

from safeio.files import O_CLOEXEC, O_NOFOLLOW, fsync_dir, link_problem, remove

SAVE_FORMAT = "magic-tactical-game"
SAVE_VERSION = 1
SCHEMA = ("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
          "CREATE TABLE IF NOT EXISTS journal (seq INTEGER PRIMARY KEY AUTOINCREMENT, op TEXT NOT NULL,"
          " crc INTEGER NOT NULL)")
MAX_ENTRY_CHARS = 8_000_000   # the largest entry: a start with a 200×200 board and a full event deck is < 3 MB
MAX_NESTING = 32              # lists and mappings inside one another in one entry
OPERATIONS = ("do", "undo", "redo")
Operation = dict[str, Any]  # one journal entry: {"op": "do", "action": {...}} | {"op": "undo"} | {"op": "redo"}
SIDECARS = ("-wal", "-shm")


@dataclass(frozen=True)
class Entry:
    """One journal row as stored: its number, its JSON text and that text's CRC-32."""

    seq: int
    text: str
    crc: int

    @classmethod
    def of(cls, seq: int, op: Operation) -> "Entry":
        text = json.dumps(op, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
        return cls(seq, text, zlib.crc32(text.encode()))


@dataclass
class Journal:
    """What a file holds: `entries` (and their `ops`), the longest prefix that passed every check,
    and `problem`, why reading stopped before the file's end (None: the whole file is good)."""

    path: Path
    entries: list[Entry] = field(default_factory=list)
    ops: list[Operation] = field(default_factory=list)
    problem: str | None = None
    exists: bool = True
    stored: int = 0                                     # rows in the file, read or not
    meta: dict[str, str] = field(default_factory=dict)

    @property
    def texts(self) -> list[str]:
        return [e.text for e in self.entries]


def sidecars(path: Path) -> list[Path]:
    return [path.with_name(path.name + s) for s in SIDECARS]


# -- reading -----------------------------------------------------------------------------------
def _nesting(value: object) -> int:
    """Depth of lists and mappings, iteratively (a deep value must not recurse)."""
    deepest, stack = 0, [(value, 1)]
    item: object
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            deepest = max(deepest, depth)
            if deepest > MAX_NESTING:
                return deepest
            stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


def envelope_problem(op: object) -> str | None:
    """Why a parsed entry is not a journal operation: {"op": "do", "action": {"kind", "data", "time"}}
    or {"op": "undo"} / {"op": "redo"}; the reducer checks each action's own data."""
    if not isinstance(op, dict):
        return "is not a mapping"
    kind = op.get("op")
    if kind in ("undo", "redo"):
        return None if set(op) == {"op"} else f"an {kind} entry with other fields ({', '.join(sorted(map(str, op)))})"
    if kind != "do":
        return f"unknown operation {str(kind)[:40]!r} (expected {', '.join(OPERATIONS)})"
    if set(op) != {"op", "action"}:
        return "a 'do' entry must hold exactly 'op' and 'action'"
    action = op["action"]
    if not isinstance(action, dict) or set(action) != {"kind", "data", "time"}:
        return "its action must be a mapping of exactly 'kind', 'data' and 'time'"
    if not isinstance(action["kind"], str) or not 0 < len(action["kind"]) <= 64:
        return "its action's 'kind' must be a short text"
    if not isinstance(action["data"], dict):
        return "its action's 'data' must be a mapping"
    if not isinstance(action["time"], str) or len(action["time"]) > 64:
        return "its action's 'time' must be a short text"
    return None


def _refuse_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not a number a game holds")


def parse_entry(seq: int, raw: object, crc: object) -> tuple[Entry, Operation] | str:
    """One stored row → (entry, operation), or the problem that stops the journal at this entry."""
    if not isinstance(raw, bytes):
        return f"journal entry {seq} is not text"
    if len(raw) > MAX_ENTRY_CHARS:
        return f"journal entry {seq} is {len(raw):,} bytes long (at most {MAX_ENTRY_CHARS:,})"
    if isinstance(crc, bool) or not isinstance(crc, int) or zlib.crc32(raw) != crc:
        return f"journal entry {seq} is damaged (checksum mismatch)"
    try:
        text = raw.decode("utf-8")
        op = json.loads(text, parse_constant=_refuse_constant)
    except RecursionError:
        return f"journal entry {seq} is nested too deeply"
    except ValueError as exc:  # UnicodeDecodeError and JSONDecodeError are ValueErrors
        return f"journal entry {seq} is not valid JSON ({str(exc)[:80]})"
    if _nesting(op) > MAX_NESTING:
        return f"journal entry {seq} is nested more than {MAX_NESTING} levels deep"
    problem = envelope_problem(op)
    if problem is None and seq == 1 and not (op["op"] == "do" and op["action"]["kind"] == "start"):
        problem = "is not the game's setup ('start')"
    if problem is not None:
        return f"journal entry {seq} {problem}"
    return Entry(seq, text, crc), op


def _uri(path: Path, **params: str) -> str:
    return "file:" + pathname2url(str(path.absolute())) + "?" + "&".join(f"{k}={v}" for k, v in params.items())


class _Snapshot:
    """A private copy of a save and its WAL in a temporary folder, for reading a file SQLite cannot
    open read-only in place (a read-only folder: a WAL reader needs to create the -shm file)."""

    def __init__(self, path: Path):
        self.folder = tempfile.TemporaryDirectory(prefix="mt-save-")
        self.path = Path(self.folder.name) / path.name
        for source, target in zip([path, *sidecars(path)[:1]], [self.path, *sidecars(self.path)[:1]]):
            if source.exists():
                copy_file(source, target)

    def close(self) -> None:
        self.folder.cleanup()


def open_reader(path: Path) -> tuple[sqlite3.Connection, _Snapshot | None]:
    """A read-only connection to the save, in place when possible, else to a private copy."""
    try:
        conn = sqlite3.connect(_uri(path, mode="ro"), uri=True, isolation_level=None)
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return conn, None
    except sqlite3.OperationalError as exc:
        if "unable to open" not in str(exc) and "readonly" not in str(exc):
            raise
    snapshot = _Snapshot(path)
    try:
        return sqlite3.connect(snapshot.path, isolation_level=None), snapshot
    except sqlite3.Error:
        snapshot.close()
        raise


def read_journal(path: Path) -> Journal:
    """Every entry of a journal file that passes every check, and why reading stopped (see module doc).
    Reading never writes: the file, its WAL and its backup stay as they are."""
    path = Path(path)
    journal = Journal(path)
    for file in (path, *sidecars(path)):
        problem = link_problem(file)
        if problem:
            journal.problem = problem
            return journal
    if not path.exists():
        journal.exists, journal.problem = False, "the file is missing"
        return journal
    wal = wal_problem(path)
    try:
        conn, snapshot = open_reader(path)
    except (sqlite3.Error, OSError, ValueError) as exc:  # ValueError: SQLite's message about a damaged
        journal.problem = f"not a readable game database ({str(exc)[:120]})"  # file, itself not UTF-8
        return journal
    try:
        conn.text_factory = bytes
        damaged = conn.execute("PRAGMA quick_check").fetchone()[0]
        rows = conn.execute("SELECT CAST(key AS BLOB), CAST(value AS BLOB) FROM meta").fetchall()
        if any(key is None or value is None for key, value in rows):   # (a flipped byte can empty a row)
            journal.problem = "its settings table is damaged (a row without its key or value)"
            return journal
        meta = {key.decode(errors="replace"): value.decode(errors="replace") for key, value in rows}
        journal.meta = meta
        if meta.get("format") != SAVE_FORMAT or meta.get("version") != str(SAVE_VERSION):
            journal.problem = f"not a version {SAVE_VERSION} Magic Tactical game"
            return journal
        journal.stored = conn.execute("SELECT count(*) FROM journal").fetchone()[0]
        cursor = conn.execute("SELECT seq, CASE typeof(op) WHEN 'text' THEN CAST(op AS BLOB) END, crc FROM journal "
                              "ORDER BY seq")
        expected = 1
        for seq, raw, crc in cursor:
            if seq != expected:
                journal.problem = (f"journal entry {expected} is missing (the journal jumps from "
                                   f"{expected - 1} to {seq})")
                break
            parsed = parse_entry(seq, raw, crc)
            if isinstance(parsed, str):
                journal.problem = parsed
                break
            journal.entries.append(parsed[0])
            journal.ops.append(parsed[1])
            expected += 1
        if journal.problem is None and damaged != b"ok":
            journal.problem = f"the database is damaged ({damaged.decode(errors='replace')[:120]})"
    except (sqlite3.Error, ValueError) as exc:
        journal.problem = journal.problem or f"not a readable game database ({str(exc)[:120]})"
    finally:
        conn.close()
        if snapshot is not None:
            snapshot.close()
    if journal.problem is None and wal:
        journal.problem = wal
    if journal.problem is None and not journal.entries:
        journal.problem = "the journal is empty (the game was never started)"
    return journal


# -- the write-ahead log ---------------------------------------------------------------------------
WAL_MAGIC = (0x377F0682, 0x377F0683)  # checksums on little-endian / big-endian words
WAL_HEADER, FRAME_HEADER = 32, 24


def _power_table(pairs: int) -> np.ndarray:
    """M^k mod 2^32 for k < pairs, M = [[1, 1], [1, 2]]: SQLite's checksum step on one pair of words
    (s0 += a + s1; s1 += b + s0) is u → M·u + (a, a + b), so a whole frame sums in one vector pass."""
    table = np.empty((pairs, 2, 2), np.uint64)
    current: np.ndarray = np.eye(2, dtype=np.uint64)
    step = np.array([[1, 1], [1, 2]], np.uint64)
    for k in range(pairs):
        table[k] = current
        current = (step @ current) & 0xFFFFFFFF
    return table


def _frame_checksums(words: np.ndarray, start: np.ndarray, powers: np.ndarray) -> np.ndarray:
    """The checksum of each frame (rows of `words`, uint64 holding 32-bit words) from its own start
    value (rows of `start`), all frames at once; arithmetic wraps mod 2^64, exact mod 2^32."""
    a, b = words[:, 0::2], words[:, 1::2]
    w0, w1 = a, (a + b) & 0xFFFFFFFF
    p = powers[::-1]  # the first pair is multiplied by the highest power
    s0 = (w0 * p[:, 0, 0] + w1 * p[:, 0, 1]).sum(axis=1)
    s1 = (w0 * p[:, 1, 0] + w1 * p[:, 1, 1]).sum(axis=1)
    n = len(powers)
    top = (np.array([[1, 1], [1, 2]], np.uint64) @ powers[n - 1]) & 0xFFFFFFFF  # M^n
    s0 = s0 + top[0, 0] * start[:, 0] + top[0, 1] * start[:, 1]
    s1 = s1 + top[1, 0] * start[:, 0] + top[1, 1] * start[:, 1]
    return np.stack([s0 & 0xFFFFFFFF, s1 & 0xFFFFFFFF], axis=1)


def wal_problem(path: Path) -> str | None:
    """Transactions the write-ahead log holds that SQLite will not read back, or None.

    SQLite reads the WAL's frames up to the first whose salt or checksum is wrong and silently drops
    the rest. A process killed while writing leaves at most its last frames unfinished, and the next
    writer overwrites them; so a frame of the log (right salts) that closes a transaction and whose
    checksum follows from the frame before it, found AFTER a bad frame, is committed data that a
    damaged byte would make SQLite lose without a word."""
    wal = path.with_name(path.name + "-wal")
    try:
        fd = os.open(wal, os.O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"the write-ahead log cannot be read ({exc.strerror})"
    with os.fdopen(fd, "rb") as fh:
        data = fh.read()
    if len(data) < WAL_HEADER:
        return None
    magic, _version, page_size, _checkpoint, salt1, salt2, check1, check2 = struct.unpack(">8I", data[:WAL_HEADER])
    frame_size = FRAME_HEADER + page_size
    if magic not in WAL_MAGIC or page_size < 512 or page_size > 65536 or page_size & (page_size - 1):
        return "the write-ahead log (-wal) is damaged: its header is not SQLite's"
    frames = (len(data) - WAL_HEADER) // frame_size
    if frames == 0:
        return None
    order = ">" if magic & 1 else "<"
    body = np.frombuffer(data, np.uint8, frames * frame_size, WAL_HEADER).reshape(frames, frame_size)
    headers = body[:, :FRAME_HEADER].copy().view(">u4").astype(np.uint64)  # page, commit size, salts, checksum
    covered = np.concatenate([body[:, :8], body[:, FRAME_HEADER:]], axis=1)
    words = covered.copy().view(f"{order}u4").astype(np.uint64)
    powers = _power_table(words.shape[1] // 2)
    header_words = np.frombuffer(data[:24], f"{order}u4").astype(np.uint64)[None, :]
    if tuple(_frame_checksums(header_words, np.zeros((1, 2), np.uint64), _power_table(3))[0]) != (check1, check2):
        return "the write-ahead log (-wal) is damaged: its header checksum is wrong"
    stored = headers[:, 4:6]
    starts = np.vstack([[[check1, check2]], stored[:-1]]).astype(np.uint64)
    consistent = (_frame_checksums(words, starts, powers) == stored).all(axis=1)
    ours = (headers[:, 2] == salt1) & (headers[:, 3] == salt2)
    valid = ours & consistent
    stop = int(np.argmin(valid)) if not valid.all() else frames
    lost = [j for j in range(stop + 1, frames) if valid[j] and headers[j, 1] != 0]
    if not lost:
        return None
    return (f"the write-ahead log (-wal) is damaged at frame {stop + 1} of {frames}: "
            f"{len(lost)} saved transaction(s) after it cannot be read back")


# -- writing ---------------------------------------------------------------------------------------
def fsync_file(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def temp_path(target: Path, purpose: str) -> Path:
    """A hidden name beside `target` that no listing mistakes for a game ('.game-….sqlite.new-3fa2.tmp')."""
    return target.with_name(f".{target.name}.{purpose}-{secrets.token_hex(3)}.tmp")


def create_exclusive(path: Path) -> None:
    """Create an empty regular file that did not exist: a planted link or file there is refused."""
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644))


def copy_file(source: Path, target: Path) -> None:
    """Copy bytes without following a link at either end, and fsync the copy."""
    fd_in = os.open(source, os.O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
    try:
        fd_out = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        try:
            while chunk := os.read(fd_in, 1 << 20):
                os.write(fd_out, chunk)
            os.fsync(fd_out)
        finally:
            os.close(fd_out)
    finally:
        os.close(fd_in)


def write_journal(target: Path, entries: list[Entry], meta: dict[str, str] | None = None) -> None:
    """Make `target` a complete journal of `entries` (WAL mode), atomically: a temporary file built,
    fsynced, renamed over `target`, the folder fsynced. On any failure nothing changed at `target`."""
    temp = temp_path(target, "new")
    create_exclusive(temp)
    try:
        conn = sqlite3.connect(temp, isolation_level=None)
        try:
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute("BEGIN")
            for statement in SCHEMA:
                conn.execute(statement)
            conn.executemany("INSERT INTO meta VALUES (?, ?)",
                             [("format", SAVE_FORMAT), ("version", str(SAVE_VERSION)), *(meta or {}).items()])
            conn.executemany("INSERT INTO journal (seq, op, crc) VALUES (?, ?, ?)",
                             [(e.seq, e.text, e.crc) for e in entries])
            conn.execute("COMMIT")
            conn.execute("PRAGMA journal_mode=WAL")
        finally:
            conn.close()
        for leftover in sidecars(temp):
            remove(leftover)
        fsync_file(temp)
        os.replace(temp, target)
        fsync_dir(target.parent)
    except BaseException:
        for leftover in (temp, *sidecars(temp), temp.with_name(temp.name + "-journal")):
            remove(leftover)
        raise


def open_writer(path: Path) -> sqlite3.Connection:
    """A connection that appends to a journal (WAL, every commit fsynced)."""
    if link_problem(path) or any(link_problem(s) for s in sidecars(path)):
        raise sqlite3.OperationalError("a file of the save is a link")
    conn = sqlite3.connect(_uri(path, mode="rw"), uri=True, isolation_level=None)
    try:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
    except sqlite3.Error:
        conn.close()
        raise
    return conn


def append_entries(conn: sqlite3.Connection, entries: list[Entry]) -> None:
    """Write entries in one transaction (all or none)."""
    with conn:
        conn.execute("BEGIN IMMEDIATE")
        conn.executemany("INSERT INTO journal (seq, op, crc) VALUES (?, ?, ?)",
                         [(e.seq, e.text, e.crc) for e in entries])


def last_seq(conn: sqlite3.Connection) -> int:
    return int(conn.execute("SELECT coalesce(max(seq), 0) FROM journal").fetchone()[0])


# -- the one-writer lock ---------------------------------------------------------------------------
class LockBusy(Exception):
    """Another process writes this save; `holder` says which, as it wrote it in the lock file."""

    def __init__(self, holder: str):
        super().__init__(holder)
        self.holder = holder


class LockUnavailable(Exception):
    """The lock file cannot be created or opened for writing (a read-only folder, a link)."""


def lock_path(save: Path) -> Path:
    return save.with_name(save.name + ".lock")


if sys.platform != "win32":  # POSIX (Linux, Android, macOS): flock, released by the kernel with the process
    import fcntl

    def _try_lock(fd: int, shared: bool = False) -> bool:
        try:
            fcntl.flock(fd, (fcntl.LOCK_SH if shared else fcntl.LOCK_EX) | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            return False
else:  # Windows: a byte-range lock far past the text (Windows locks are mandatory)
    import msvcrt

    def _try_lock(fd: int, shared: bool = False) -> bool:
        os.lseek(fd, 1 << 30, os.SEEK_SET)
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        if shared:  # a probe: let go at once
            os.lseek(fd, 1 << 30, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
        return True


def _holder_text(fd: int) -> str:
    try:
        os.lseek(fd, 0, os.SEEK_SET)
        text = os.read(fd, 200).decode("utf-8", "replace").strip()
    except OSError:
        text = ""
    return text or "another process"


class WriterLock:
    """The one-writer lock of a save (see module doc). A second lock of the same save, in this
    process or any other, raises LockBusy while the first is held."""

    def __init__(self, save: Path, fd: int):
        self.save = save
        self._fd: int | None = fd

    @classmethod
    def acquire(cls, save: Path, *, wait_s: float = 0.3) -> "WriterLock":
        path = lock_path(save)
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
        except OSError as exc:
            reason = "its lock file is a symbolic link" if exc.errno == errno.ELOOP else exc.strerror
            raise LockUnavailable(reason) from None
        deadline = time.monotonic() + wait_s  # a listing in another instance may probe it for an instant
        while not _try_lock(fd):
            if time.monotonic() >= deadline:
                holder = _holder_text(fd)
                os.close(fd)
                raise LockBusy(holder)
            time.sleep(0.02)
        try:
            os.ftruncate(fd, 0)
            os.lseek(fd, 0, os.SEEK_SET)
            os.write(fd, f"process {os.getpid()} on {socket.gethostname()} since "
                         f"{time.strftime('%Y-%m-%d %H:%M')}\n".encode())
        except OSError:
            pass  # the lock holds all the same; only the words for a second instance are missing
        return cls(save, fd)

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the descriptor releases the flock
            self._fd = None


def lock_holder(save: Path) -> str | None:
    """Who holds the save's writer lock now (None: nobody). Probes with a shared lock, released at once."""
    try:
        fd = os.open(lock_path(save), os.O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
    except OSError:
        return None
    try:
        return None if _try_lock(fd, shared=True) else _holder_text(fd)
    finally:
        os.close(fd)
