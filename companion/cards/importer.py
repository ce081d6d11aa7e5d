"""`import_file`: a downloaded card file (.json, .json.gz, .json.xz, .json.bz2, .zip) into the data
folder's card database, streamed, with progress, replacing the old database only on success.

The compression is recognised by the file's first bytes, not its name, and the format by its
content: MTGJSON AtomicCards (an object with `data`: name → list of faces) or a Scryfall bulk
file (an array of card objects). Anything else is refused with what it is and where.
"""
from __future__ import annotations

import bz2
import gzip
import io
import lzma
import os
import threading
import time
import zipfile
import zlib
from pathlib import Path
from typing import Callable, Iterator

from companion.cards.database import database_path, write_database
from companion.cards.formats import EntryError, mtgjson_faces, scryfall_faces
from companion.cards.jsonstream import JsonReader, JsonStreamError
from companion.cards.model import Card, CardDataError, ImportCancelled, ImportReport, Progress

ProgressCallback = Callable[[Progress], None]
READ_SHARE = 0.9          # reading the file is this share of the whole import; indexing the rest


class _CountingFile(io.RawIOBase):
    """A read-only file that counts the bytes read from it (for the progress fraction)."""

    def __init__(self, path: Path):
        self._file = open(path, "rb")
        self.size = os.fstat(self._file.fileno()).st_size
        self.done = 0

    def readable(self):
        return True

    def seekable(self):
        return True

    def readinto(self, buffer):
        n = self._file.readinto(buffer)
        self.done = max(self.done, self._file.tell())
        return n

    def seek(self, offset, whence=io.SEEK_SET):
        return self._file.seek(offset, whence)

    def tell(self):
        return self._file.tell()

    def close(self):
        self._file.close()
        super().close()


def _open_text(path: Path, raw: _CountingFile):
    """The decompressed text of a card file, by its magic bytes."""
    head = raw.read(6)
    raw.seek(0)
    if head.startswith(b"\x1f\x8b"):
        binary = gzip.GzipFile(fileobj=raw)
    elif head.startswith(b"\xfd7zXZ\x00"):
        binary = lzma.LZMAFile(raw)
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
        binary = raw
    return io.TextIOWrapper(io.BufferedReader(binary) if binary is raw else binary, encoding="utf-8-sig")


def read_faces(path: Path, progress: ProgressCallback | None = None, cancel: threading.Event | None = None,
               meta: dict | None = None) -> Iterator[Card]:
    """Every face of a card file, streamed. `meta` receives "source" ("mtgjson" or "scryfall")
    once the format is known and "skipped", the count of entries left out. Errors name the file
    and the place in it."""
    meta = {} if meta is None else meta
    meta["skipped"] = 0
    raw = _CountingFile(path)
    try:
        text = _open_text(path, raw)
        reader = JsonReader(text)
        first = reader.first_char()
        if first == "{":
            kind, entries, to_faces = "mtgjson", reader.items(("data",)), mtgjson_faces
        elif first == "[":
            kind, entries, to_faces = "scryfall", reader.items(()), lambda _, card: scryfall_faces(card)
        else:
            raise CardDataError("cards.errors.not_card_data", f"{path}: not a card data file (MTGJSON "
                                "AtomicCards or Scryfall oracle-cards JSON expected)", path=str(path))
        meta["source"] = kind
        seen: set[str] = set()
        last = 0.0
        for count, (key, entry) in enumerate(entries, start=1):
            try:
                faces = to_faces(key, entry)
            except ValueError as exc:
                raise CardDataError("cards.errors.bad_entry", f"{path}: {reader.location()}, entry {key!r}: {exc}",
                                    path=str(path), entry=str(key), reason=str(exc),
                                    detail_key="cards.errors.entry."
                                    + (exc.kind if isinstance(exc, EntryError) else "unreadable")) from None
            card_name = faces[0].card_name if faces else None
            if not faces or card_name in seen:
                meta["skipped"] += 1
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


def import_file(file: str | os.PathLike, folder: str | os.PathLike, *, progress: ProgressCallback | None = None,
                cancel: threading.Event | None = None) -> ImportReport:
    """Import a card file into `folder`'s card database and return what was written.

    Safe to run in a worker thread (the app's settings button): `progress` is called from that
    thread with a `Progress` (what, fraction of the job); setting `cancel` stops the import.
    On any error the previous database is untouched and CardDataError says why."""
    started = time.perf_counter()
    path, folder = Path(file), Path(folder)
    if not path.is_file():
        raise CardDataError("cards.errors.no_file", f"{path}: no such file", path=str(path))
    folder.mkdir(parents=True, exist_ok=True)
    target = database_path(folder)
    temporary = target.with_name(f".{target.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    temporary.unlink(missing_ok=True)
    meta = {"file": path.name}
    if progress:
        progress(Progress("cards.step.reading", 0.0, {"cards": 0}))
    try:
        info = write_database(temporary, read_faces(path, progress, cancel, meta), meta, progress=progress)
        if cancel is not None and cancel.is_set():  # asked while indexing (or a file too small to ask before)
            raise ImportCancelled("cards.errors.cancelled", "import cancelled; the previous cards are kept")
        with open(temporary, "rb+") as handle:
            os.fsync(handle.fileno())
        os.replace(temporary, target)
    finally:
        temporary.unlink(missing_ok=True)
    _sync_folder(folder)
    if progress:
        progress(Progress("cards.step.done", 1.0, {"cards": info["cards"]}))
    return ImportReport(path=str(target), source=info["source"], faces=info["faces"], cards=info["cards"],
                        french_names=info["french_names"], planes=info["planes"], skipped=info["skipped"],
                        size_bytes=target.stat().st_size, seconds=time.perf_counter() - started)


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable (POSIX); a no-op where folders cannot be opened."""
    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)
