"""`import_file`: a downloaded card file (.json, .json.gz, .json.xz, .json.bz2, .zip) into the data
folder's card database, streamed, with progress, replacing the old database only on success.

The compression is recognised by the file's first bytes, not its name, and the format by its
content: MTGJSON AtomicCards (an object with `data`: name → list of faces) or a Scryfall bulk
file (an array of card objects). Anything else is refused with what it is and where.
"""
from __future__ import annotations

import bz2
import errno
import gzip
import io
import lzma
import os
import sqlite3
import threading
import time
import zipfile
import zlib
from dataclasses import replace
from pathlib import Path
from typing import IO, TYPE_CHECKING, Callable, Iterator, cast

if TYPE_CHECKING:
    from _typeshed import WriteableBuffer

from companion.cards.database import (
    DATABASE_NAME,
    database_path,
    not_a_database_file,
    write_database,
)
from companion.cards.formats import (
    NAME_CHARS,
    EntryError,
    mtgjson_faces,
    scryfall_faces,
)
from companion.cards.jsonstream import JsonReader, JsonStreamError
from companion.cards.model import (
    Card,
    CardDataError,
    ImportCancelled,
    ImportReport,
    Progress,
)
from safeio.files import fsync_dir

ProgressCallback = Callable[[Progress], None]
READ_SHARE = 0.9          # reading the file is this share of the whole import; indexing the rest


class _CountingFile(io.RawIOBase):
    """A read-only file that counts the bytes read from it (for the progress fraction)."""

    def __init__(self, path: Path):
        self._file = open(path, "rb")
        self.size = os.fstat(self._file.fileno()).st_size
        self.done = 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def readinto(self, buffer: WriteableBuffer) -> int:
        n = self._file.readinto(buffer)
        self.done = max(self.done, self._file.tell())
        return n

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        return self._file.seek(offset, whence)

    def tell(self) -> int:
        return self._file.tell()

    def close(self) -> None:
        self._file.close()
        super().close()


def _open_text(path: Path, raw: _CountingFile) -> io.TextIOWrapper:
    """The decompressed text of a card file, by its magic bytes."""
    head = raw.read(6) or b""
    raw.seek(0)
    binary: IO[bytes] | io.BufferedIOBase
    if head.startswith(b"\x1f\x8b"):
        binary = gzip.GzipFile(fileobj=raw)
    elif head.startswith(b"\xfd7zXZ\x00"):
        binary = lzma.LZMAFile(cast(IO[bytes], raw))
    elif head.startswith(b"BZh"):
        binary = bz2.BZ2File(raw)
    elif head.startswith(b"PK\x03\x04"):
        try:
            archive = zipfile.ZipFile(raw)
        except zipfile.BadZipFile as exc:
            raise CardDataError("cards.errors.bad_archive", f"{path}: damaged zip file ({exc})", path=str(path))
        members = [m for m in archive.infolist() if m.filename.lower().endswith(".json")]
        if len(members) != 1:
            raise CardDataError("cards.errors.zip_members", f"{path}: the zip file should hold one .json file, "
                                f"it holds {len(members)}", path=str(path), count=len(members))
        binary = archive.open(members[0])
    else:
        binary = io.BufferedReader(raw)
    return io.TextIOWrapper(binary, encoding="utf-8-sig")


FrenchNames = dict[tuple[str, str], list[str]]   # (English card name, side) → French names


def _entry_name(key: str | int, entry: object) -> str:
    """How an error names an entry: its key in AtomicCards, its place (and name) in a Scryfall array."""
    if isinstance(key, str):
        return repr(key) if len(key) <= NAME_CHARS else repr(key[:NAME_CHARS]) + "…"
    name = entry.get("name") if isinstance(entry, dict) else None
    return f"{key} ({name!r})" if isinstance(name, str) and len(name) <= NAME_CHARS else str(key)


def _entry_error(path: Path, reader: JsonReader, key: str | int, entry: object, exc: ValueError) -> CardDataError:
    """The located error of an entry that is not what its format says: `FILE: line L, column C, entry
    NAME, field F: expected …` (the line and column where the entry begins)."""
    line, column = reader.value_at
    entry_name = _entry_name(key, entry)
    kind = exc.kind if isinstance(exc, EntryError) else "unreadable"
    field = exc.field if isinstance(exc, EntryError) else ""
    fields = exc.fields if isinstance(exc, EntryError) else {}
    where = f"{path}: line {line}, column {column}, entry {entry_name}" + (f", field {field}" if field else "")
    return CardDataError("cards.errors.bad_field" if field else "cards.errors.bad_entry", f"{where}: {exc}",
                         path=str(path), line=line, column=column, entry=entry_name, field=field,
                         reason=str(exc), detail_key=f"cards.errors.entry.{kind}", **fields)


def read_faces(path: Path, progress: ProgressCallback | None = None, cancel: threading.Event | None = None,
               meta: dict[str, object] | None = None, french: FrenchNames | None = None) -> Iterator[Card]:
    """Every face of a card file, streamed. `meta` receives "source" ("mtgjson" or "scryfall")
    once the format is known and "skipped", the count of entries left out. The French names of a
    Scryfall file's French printings go to `french` rather than to the faces (the English printing
    of the same card may come before or after them; `write_database` adds them at the end). Errors
    name the file and the place in it."""
    meta = {} if meta is None else meta
    french = {} if french is None else french
    meta["skipped"] = skipped = 0
    raw = _CountingFile(path)
    try:
        text = _open_text(path, raw)
        reader = JsonReader(text)
        first = reader.first_char()
        entries: Iterator[tuple[str | int, object]]
        if first == "{":
            kind, entries = "mtgjson", reader.items(("data",))
        elif first == "[":
            kind, entries = "scryfall", reader.items(())
        else:
            raise CardDataError("cards.errors.not_card_data", f"{path}: not a card data file (MTGJSON "
                                "AtomicCards or Scryfall oracle-cards JSON expected)", path=str(path))
        meta["source"] = kind
        seen: set[str] = set()
        last = 0.0
        for count, (key, entry) in enumerate(entries, start=1):
            try:
                faces = mtgjson_faces(str(key), entry) if kind == "mtgjson" else scryfall_faces(entry)
            except ValueError as exc:
                raise _entry_error(path, reader, key, entry, exc) from None
            gave_french = kind == "scryfall" and any(face.names_fr for face in faces)
            if gave_french:
                for face in faces:
                    names = french.setdefault((face.card_name, face.side), [])
                    names += (name for name in face.names_fr if name not in names)
                faces = [replace(face, names_fr=()) for face in faces]
            card_name = faces[0].card_name if faces else None
            if card_name is None or card_name in seen:
                skipped += not gave_french
            else:
                seen.add(card_name)
                yield from faces
            if count % 256 == 0:
                if cancel is not None and cancel.is_set():
                    raise ImportCancelled("cards.errors.cancelled", "import cancelled; the previous cards are kept")
                fraction = raw.done / raw.size if raw.size else 0.0
                if progress and fraction - last >= 0.005:
                    last = fraction
                    progress(Progress("cards.step.reading", READ_SHARE * fraction, {"cards": len(seen)}))
        meta["skipped"] = skipped
        if not seen:
            raise CardDataError("cards.errors.no_cards", f"{path}: the file holds no card the table can use",
                                path=str(path))
    except JsonStreamError as exc:
        raise CardDataError("cards.errors.bad_json", f"{path}: {exc}", path=str(path), line=exc.line,
                            column=exc.column, reason=exc.reason, detail_key=f"cards.errors.json.{exc.kind}") from None
    except (EOFError, lzma.LZMAError, zipfile.BadZipFile, zlib.error, OSError) as exc:
        raise CardDataError("cards.errors.bad_archive", f"{path}: the compressed file is damaged or "
                            f"incomplete ({exc})", path=str(path)) from None
    finally:
        raw.close()


def import_file(file: str | os.PathLike[str], folder: str | os.PathLike[str], *,
                progress: ProgressCallback | None = None, cancel: threading.Event | None = None) -> ImportReport:
    """Import a card file into `folder`'s card database and return what was written.

    Safe to run in a worker thread (the app's settings button): `progress` is called from that
    thread with a `Progress` (what, fraction of the job); setting `cancel` stops the import.
    On any error the previous database is untouched and CardDataError says why — including a
    folder that cannot be written (`cards.errors.cannot_write`, with the path and the reason)."""
    started = time.perf_counter()
    path, folder = Path(file), Path(folder)
    if not path.is_file():
        raise CardDataError("cards.errors.no_file", f"{path}: no such file", path=str(path))
    target = database_path(folder)
    _check_writable_place(folder, target)
    remove_leftovers(folder)
    temporary = target.with_name(f"{TEMPORARY_PREFIX}{os.getpid()}.{threading.get_ident()}.tmp")
    meta: dict[str, object] = {"file": path.name}
    french: FrenchNames = {}
    if progress:
        progress(Progress("cards.step.reading", 0.0, {"cards": 0}))
    place = folder   # what refuses to be written: the folder (the new file), then the database it replaces
    try:
        temporary.unlink(missing_ok=True)
        info = write_database(temporary, read_faces(path, progress, cancel, meta, french), meta,
                              progress=progress, french_names=french)
        if cancel is not None and cancel.is_set():  # asked while indexing (or a file too small to ask before)
            raise ImportCancelled("cards.errors.cancelled", "import cancelled; the previous cards are kept")
        with open(temporary, "rb+") as handle:
            os.fsync(handle.fileno())
        place = target
        os.replace(temporary, target)
    except (OSError, sqlite3.OperationalError) as exc:
        raise _cannot_write(place, exc) from None
    finally:
        try:
            temporary.unlink(missing_ok=True)
        except OSError:  # the folder refused the file too: nothing was left in it
            pass
    try:
        fsync_dir(folder)   # the rename itself made durable
    except OSError:         # the new cards are in place already; a folder that cannot be synced changes nothing
        pass
    if progress:
        progress(Progress("cards.step.done", 1.0, {"cards": info["cards"]}))
    return ImportReport(path=str(target), source=info["source"], faces=info["faces"], cards=info["cards"],
                        french_names=info["french_names"], planes=info["planes"], skipped=info["skipped"],
                        size_bytes=target.stat().st_size, seconds=time.perf_counter() - started)


def _cannot_write(path: Path, exc: BaseException) -> CardDataError:
    """The error of a place the database cannot be written to, with the system's reason (in English)
    and what it means in a word the app translates (`cards.errors.write.*`)."""
    reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
    number = exc.errno if isinstance(exc, OSError) else None
    if number in (errno.EACCES, errno.EPERM, errno.EROFS) or "unable to open" in reason or "readonly" in reason:
        kind = "permission"
    elif number == errno.ENOSPC or "full" in reason:
        kind = "full"
    elif number in (errno.ENOTDIR, errno.EEXIST):
        kind = "not_a_folder"
    else:
        kind = "other"
    return CardDataError("cards.errors.cannot_write", f"{path}: cannot write the card database here ({reason}); "
                         "the previous cards are kept", path=str(path), reason=reason,
                         detail_key=f"cards.errors.write.{kind}")


def _check_writable_place(folder: Path, target: Path) -> None:
    """Refuse before reading a 100 MB file: a data folder that is a file or cannot be made, a
    `cards.sqlite` that is a folder (or anything but a file)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise _cannot_write(folder, exc) from None
    if os.path.lexists(target) and not target.is_file():
        raise not_a_database_file(target)


TEMPORARY_PREFIX = f".{DATABASE_NAME}."   # + "<pid>.<thread>.tmp": an import being written


def remove_leftovers(folder: Path) -> list[Path]:
    """Remove the temporary databases of imports that died (killed, power cut): those whose process
    is gone. A running import's file — of another process still alive, or of this process — is
    never touched. Returns what was removed. POSIX only (elsewhere a process cannot be probed
    safely: on Windows, os.kill would end it)."""
    if os.name != "posix":
        return []
    removed = []
    for leftover in folder.glob(f"{TEMPORARY_PREFIX}*.tmp"):
        pid_text = leftover.name[len(TEMPORARY_PREFIX):].split(".")[0]
        if not pid_text.isdigit() or int(pid_text) == os.getpid() or _alive(int(pid_text)):
            continue
        try:
            leftover.unlink()
        except OSError:  # another import removed it first, or the folder is read-only: harmless
            continue
        removed.append(leftover)
    return removed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    except OverflowError:  # not a process id at all
        return False
    return True
