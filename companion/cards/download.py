"""`update`: download the current AtomicCards when online, resume a broken download, check the
published checksum, then import — keeping the current cards whenever anything fails.

MTGJSON publishes beside every file a `<file>.sha256` holding the file's SHA-256 as hex (its
build writes one per output file, compressed ones included). The download is written to
`downloads/<file>.part` in the data folder; a broken connection is resumed with an HTTP Range
request (here, or on the next `update`), and the file is imported only once its checksum
matches.
"""
from __future__ import annotations

import hashlib
import http.client
import os
import re
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Callable

from companion.cards.importer import import_file
from companion.cards.model import CardDataError, ImportCancelled, ImportReport, Progress

DEFAULT_URL = "https://mtgjson.com/api/v5/AtomicCards.json.xz"
CHUNK_BYTES = 256 * 1024
DOWNLOAD_SHARE = 0.5      # of the whole update's progress; the import is the other half
ATTEMPTS = 4              # one download and three resumptions per update
_HEX_DIGEST = re.compile(r"\b[0-9a-fA-F]{64}\b")
_USER_AGENT = "magic-tactical-companion (card look-up)"


def _request(url: str, timeout: float, start: int = 0):
    headers = {"User-Agent": _USER_AGENT}
    if start:
        headers["Range"] = f"bytes={start}-"
    return urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=timeout)


def _offline(url: str, exc: Exception) -> CardDataError:
    host = urllib.parse.urlsplit(url).netloc
    reason = getattr(exc, "reason", None) or exc
    return CardDataError("cards.errors.offline", f"cannot reach {host} ({reason}): offline? The current cards "
                         "are kept", host=host, reason=str(reason))


def published_checksum(url: str, timeout: float = 30) -> str:
    """The SHA-256 published at `url` + ".sha256" (a bare hex digest, or "digest  name")."""
    try:
        with _request(url + ".sha256", timeout) as response:
            text = response.read(4096).decode("ascii", "replace")
    except urllib.error.HTTPError as exc:
        raise CardDataError("cards.errors.http", f"{url}.sha256: the server answered {exc.code}; the current "
                            "cards are kept", url=url + ".sha256", status=exc.code) from None
    except (urllib.error.URLError, OSError, http.client.HTTPException) as exc:
        raise _offline(url, exc) from None
    match = _HEX_DIGEST.search(text)
    if not match:
        raise CardDataError("cards.errors.http", f"{url}.sha256: no SHA-256 digest in the answer",
                            url=url + ".sha256", status="?")
    return match.group(0).lower()


def download(url: str, target: Path, *, progress: Callable[[Progress], None] | None = None,
             cancel: threading.Event | None = None, timeout: float = 30, retry_pause: float = 1.0) -> Path:
    """Download `url` to `target`, resuming from `target`.part when it exists; returns `target`."""
    partial = target.with_name(target.name + ".part")
    host = urllib.parse.urlsplit(url).netloc
    last_error: Exception | None = None
    for attempt in range(ATTEMPTS):
        if attempt:
            time.sleep(retry_pause * attempt)
        start = partial.stat().st_size if partial.exists() else 0
        if progress:
            progress(Progress("cards.step.connecting", 0.0, {"host": host}))
        try:
            response = _request(url, timeout, start)
        except urllib.error.HTTPError as exc:
            if exc.code == 416 and start:          # nothing left to fetch: the part is whole
                break
            raise CardDataError("cards.errors.http", f"{url}: the server answered {exc.code}; the current "
                                "cards are kept", url=url, status=exc.code) from None
        except (urllib.error.URLError, OSError, http.client.HTTPException) as exc:
            last_error = exc
            continue
        with response:
            if start and response.status != 206:   # the server ignored the range: start again
                start = 0
            length = response.headers.get("Content-Length")
            total = start + int(length) if length and length.isdigit() else None
            done = start
            try:
                with open(partial, "ab" if start else "wb") as out:
                    while True:
                        if cancel is not None and cancel.is_set():
                            raise ImportCancelled("cards.errors.cancelled", "download cancelled; the current "
                                                  "cards are kept (the download resumes next time)")
                        chunk = response.read(CHUNK_BYTES)
                        if not chunk:
                            break
                        out.write(chunk)
                        done += len(chunk)
                        if progress:
                            progress(Progress("cards.step.downloading", DOWNLOAD_SHARE * (done / total if total else 0),
                                              {"done_mb": f"{done / 1e6:.1f}", "total_mb":
                                               f"{total / 1e6:.1f}" if total else "?"}))
            except (OSError, http.client.HTTPException) as exc:   # dropped connection: resume
                last_error = exc
                continue
            if total is not None and done < total:
                last_error = http.client.IncompleteRead(b"", total - done)
                continue
        break
    else:
        raise _offline(url, last_error or OSError("no answer"))
    os.replace(partial, target)
    return target


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def update(folder: str | os.PathLike, url: str = DEFAULT_URL, *,
           progress: Callable[[Progress], None] | None = None, cancel: threading.Event | None = None,
           timeout: float = 30, retry_pause: float = 1.0) -> ImportReport:
    """Download the card file at `url` into `folder`, check it, import it (see module docstring).

    Offline, or on any failure, raises CardDataError and the current database stays."""
    folder = Path(folder)
    downloads = folder / "downloads"
    downloads.mkdir(parents=True, exist_ok=True)
    name = Path(urllib.parse.urlsplit(url).path).name or "AtomicCards.json.xz"
    expected = published_checksum(url, timeout)
    # A part left by an earlier run resumes only if it is of the same published file (MTGJSON
    # rebuilds daily): the digest it was started for is kept beside it.
    partial, started_for = downloads / f"{name}.part", downloads / f"{name}.part.sha256"
    if partial.exists() and (not started_for.exists() or started_for.read_text().strip() != expected):
        partial.unlink()
    started_for.write_text(expected)
    target = download(url, downloads / name, progress=progress, cancel=cancel, timeout=timeout,
                      retry_pause=retry_pause)
    started_for.unlink(missing_ok=True)
    if progress:
        progress(Progress("cards.step.checking", DOWNLOAD_SHARE, {}))
    if sha256_of(target) != expected:
        target.unlink()
        raise CardDataError("cards.errors.checksum", f"{name}: the SHA-256 does not match the published "
                            "one; the download was deleted and the current cards are kept", file=name)

    def import_progress(step: Progress) -> None:
        if progress:
            progress(Progress(step.step, DOWNLOAD_SHARE + (1 - DOWNLOAD_SHARE) * step.fraction, step.fields))

    report = import_file(target, folder, progress=import_progress, cancel=cancel)
    target.unlink()
    return report
