"""`update`: download the current AtomicCards when online, resume a broken download, check the
published checksum, then import — keeping the current cards whenever anything fails.

MTGJSON publishes beside every file a `<file>.sha256` holding the file's SHA-256 as hex (its
build writes one per output file, compressed ones included). The download is written to
`downloads/<file>.part` in the data folder; a broken connection is resumed with an HTTP Range
request (here, or on the next `update`), and the file is imported only once its checksum
matches. Every download is bounded (`DownloadLimits`): in size, in time, and against a server that
stalls; nothing in downloads/ is written through a link.
"""
from __future__ import annotations

import errno
import hashlib
import http.client
import os
import re
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Callable

from companion.cards.importer import import_file
from companion.cards.model import CardDataError, ImportCancelled, ImportReport, Progress
from safeio.files import O_CLOEXEC, O_NOFOLLOW, link_problem, remove

DEFAULT_URL = "https://mtgjson.com/api/v5/AtomicCards.json.xz"
DEFAULT_NAME = "AtomicCards.json.xz"
READ_BYTES = 256 * 1024   # at most this much per read; a read returns whatever has arrived
DOWNLOAD_SHARE = 0.5      # of the whole update's progress; the import is the other half
ATTEMPTS = 4              # one download and three resumptions per update
_HEX_DIGEST = re.compile(r"\b[0-9a-fA-F]{64}\b")
_UNSAFE_NAME_CHARS = re.compile(r"[^A-Za-z0-9._-]")
_USER_AGENT = "magic-tactical-companion (card look-up)"


@dataclass(frozen=True)
class DownloadLimits:
    """How long and how large a download may be before it is given up, and how often it says where
    it is. Every byte resets a socket's timeout, so a server that drips a few bytes a second is
    caught by `stall_s` (less than `stall_bytes` in that time), not by the timeout; a server that
    answers more than any real card file is caught by `max_bytes` before the excess is written.

    `max_bytes`: the largest card file `update` is for is Scryfall's oracle-cards, 156 MB
    uncompressed (its bulk-data listing, 2026); MTGJSON's AtomicCards.json.xz is some tens of MB,
    its uncompressed JSON about 100-150 MB. 400 MB leaves room for years of new cards and refuses
    what no card file is (Scryfall's every-printing all-cards, over 2 GB, is downloaded by hand and
    imported with `tactical cards import`)."""

    max_bytes: int = 400_000_000
    stall_s: float = 60.0           # less than stall_bytes in this long: the download has stalled
    stall_bytes: int = 16 * 1024
    max_s: float = 3600.0           # the whole download, every resumption included
    progress_s: float = 0.5         # progress is reported at least this often while bytes arrive


def file_name(url: str) -> str:
    """The name the download is saved under in downloads/: the URL's last path segment reduced to
    letters, digits, '.', '_' and '-' (no separator, no leading dot: never '..' nor a hidden
    name), or the default file's name when nothing is left (the format is read from the content)."""
    segment = urllib.parse.unquote(PurePosixPath(urllib.parse.urlsplit(url).path).name)
    return _UNSAFE_NAME_CHARS.sub("_", segment).lstrip(".")[:100] or DEFAULT_NAME


def check_url(url: str) -> None:
    """Refuse what is no http(s) address of a file (CardDataError) before anything is asked of it:
    another scheme, no host, spaces or control characters (which urllib would refuse with a bare
    ValueError)."""
    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc or any(ch.isspace() or ord(ch) < 32 or ord(ch) == 127
                                                                         for ch in url):
        raise CardDataError("cards.errors.bad_url", f"{url}: not the http(s) address of a card file; the current "
                            "cards are kept", url=url)


def _request(url: str, timeout: float, start: int = 0) -> http.client.HTTPResponse:
    headers = {"User-Agent": _USER_AGENT}
    if start:
        headers["Range"] = f"bytes={start}-"
    response: http.client.HTTPResponse = urllib.request.urlopen(urllib.request.Request(url, headers=headers),
                                                                timeout=timeout)   # http(s) only: check_url
    return response


def _host(url: str) -> str:
    return urllib.parse.urlsplit(url).netloc


def _offline(url: str, exc: Exception) -> CardDataError:
    host = _host(url)
    reason = getattr(exc, "reason", None) or exc
    return CardDataError("cards.errors.offline", f"cannot reach {host} ({reason}): offline? The current cards "
                         "are kept", host=host, reason=str(reason))


def _mb(size: int | None) -> str:
    return f"{size / 1e6:.1f}" if size is not None else "?"


class _Watch:
    """The clock of one download: its deadline, the stall window and when progress was last said."""

    def __init__(self, url: str, limits: DownloadLimits, timeout: float):
        self.url, self.limits, self.timeout = url, limits, timeout
        self.deadline = time.monotonic() + limits.max_s
        self.mark_time, self.mark_done = time.monotonic(), 0
        self.said_time, self.said_done = 0.0, 0

    def socket_timeout(self) -> float:
        """No single wait outlasts the stall window or the deadline."""
        return max(0.01, min(self.timeout, self.limits.stall_s, self.deadline - time.monotonic()))

    def restart(self, done: int) -> None:
        """A new connection: the stall window starts again from what is already there."""
        self.mark_time, self.mark_done = time.monotonic(), done

    def check(self, done: int, total: int | None) -> None:
        """Raise when the download stalled or ran out of time (`done` bytes so far)."""
        now = time.monotonic()
        if done - self.mark_done >= self.limits.stall_bytes:
            self.mark_time, self.mark_done = now, done
        host = _host(self.url)
        if now > self.deadline:
            raise CardDataError("cards.errors.too_slow", f"{host}: the download took more than "
                                f"{self.limits.max_s:.0f} s ({_mb(done)} of {_mb(total)} MB); what arrived is kept "
                                "and resumes next time; the current cards are kept", host=host,
                                seconds=f"{self.limits.max_s:.0f}", done_mb=_mb(done), total_mb=_mb(total))
        if now - self.mark_time > self.limits.stall_s:
            raise self.stalled(done, total)

    def stalled(self, done: int, total: int | None) -> CardDataError:
        host = _host(self.url)
        return CardDataError("cards.errors.stalled", f"{host}: the download stalled (less than "
                             f"{self.limits.stall_bytes} bytes in {self.limits.stall_s:g} s, at {_mb(done)} of "
                             f"{_mb(total)} MB); what arrived is kept and resumes next time; the current cards "
                             "are kept", host=host, seconds=f"{self.limits.stall_s:g}", done_mb=_mb(done),
                             total_mb=_mb(total))

    def due(self, done: int) -> bool:
        """Whether to report progress now: every READ_BYTES, or every `progress_s` however few bytes came."""
        now = time.monotonic()
        if done - self.said_done >= READ_BYTES or now - self.said_time >= self.limits.progress_s:
            self.said_time, self.said_done = now, done
            return True
        return False


def _too_large(url: str, size: int, limits: DownloadLimits) -> CardDataError:
    return CardDataError("cards.errors.too_large", f"{url}: {_mb(size)} MB or more, larger than any card file "
                         f"(at most {_mb(limits.max_bytes)} MB); nothing of it is kept and the current cards are kept",
                         url=url, size_mb=_mb(size), max_mb=_mb(limits.max_bytes))


def _refuse_links(*paths: Path) -> None:
    """Nothing in downloads/ is followed through a link (the save store's rule, and its check): a
    planted `.part -> victim` would get the download appended to the victim."""
    for path in paths:
        problem = link_problem(path)
        if problem:
            raise CardDataError("cards.errors.link", f"{path}: {problem}; nothing was written and the current "
                                "cards are kept", path=str(path))


def _open_for_writing(path: Path, append: bool) -> int:
    """A file descriptor on `path`, created if needed, never through a link (ELOOP instead)."""
    flags = os.O_WRONLY | os.O_CREAT | O_NOFOLLOW | O_CLOEXEC | (os.O_APPEND if append else os.O_TRUNC)
    try:
        return os.open(path, flags, 0o644)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            _refuse_links(path)
        raise


def _write_text(path: Path, text: str) -> None:
    fd = _open_for_writing(path, append=False)
    with os.fdopen(fd, "w", encoding="ascii") as out:
        out.write(text)


def _read_small(response: http.client.HTTPResponse, limit: int, watch: _Watch) -> bytes:
    """Up to `limit` bytes of an answer, within the download's stall window and deadline."""
    data = b""
    while len(data) < limit:
        chunk = response.read1(limit - len(data))
        if not chunk:
            break
        data += chunk
        watch.check(len(data), None)
    return data


def published_checksum(url: str, timeout: float = 30, limits: DownloadLimits = DownloadLimits()) -> str:
    """The SHA-256 published at `url` + ".sha256" (a bare hex digest, or "digest  name")."""
    watch = _Watch(url, limits, timeout)
    try:
        with _request(url + ".sha256", watch.socket_timeout()) as response:
            text = _read_small(response, 4096, watch).decode("ascii", "replace")
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
             cancel: threading.Event | None = None, timeout: float = 30, retry_pause: float = 1.0,
             limits: DownloadLimits = DownloadLimits()) -> Path:
    """Download `url` to `target`, resuming from `target`.part when it exists; returns `target`.

    Gives up (CardDataError) when the server stalls or the download outlasts `limits.max_s` (the
    part is kept, to resume), when the file is larger than `limits.max_bytes` (the part is
    deleted), and after ATTEMPTS connections that failed or broke off."""
    partial = target.with_name(target.name + ".part")
    _refuse_links(target, partial)
    host = _host(url)
    watch = _Watch(url, limits, timeout)
    last_error: Exception | None = None
    broke_off, done, total = 0, 0, None
    for attempt in range(ATTEMPTS):
        if attempt:
            time.sleep(retry_pause * attempt)
        start = partial.stat().st_size if partial.exists() else 0
        if progress:
            progress(Progress("cards.step.connecting", 0.0, {"host": host}))
        watch.restart(start)
        try:
            response = _request(url, watch.socket_timeout(), start)
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
            if total is not None and total > limits.max_bytes:
                remove(partial)
                raise _too_large(url, total, limits)
            done = start
            try:
                with os.fdopen(_open_for_writing(partial, append=bool(start)), "ab" if start else "wb") as out:
                    while True:
                        if cancel is not None and cancel.is_set():
                            raise ImportCancelled("cards.errors.cancelled", "download cancelled; the current "
                                                  "cards are kept (the download resumes next time)")
                        chunk = response.read1(READ_BYTES)
                        if not chunk:
                            break
                        if done + len(chunk) > limits.max_bytes:
                            out.close()
                            remove(partial)
                            raise _too_large(url, done + len(chunk), limits)
                        out.write(chunk)
                        done += len(chunk)
                        watch.check(done, total)
                        if progress and watch.due(done):
                            progress(Progress("cards.step.downloading", DOWNLOAD_SHARE * (done / total if total else 0),
                                              {"done_mb": _mb(done), "total_mb": _mb(total)}))
            except TimeoutError:                                  # silent for the whole stall window
                raise watch.stalled(done, total) from None
            except (OSError, http.client.HTTPException) as exc:   # dropped connection: resume
                last_error = exc
                broke_off += 1
                continue
            if total is not None and done < total:
                last_error = http.client.IncompleteRead(b"", total - done)
                broke_off += 1
                continue
        break
    else:
        if broke_off:
            raise CardDataError("cards.errors.broken_off", f"{host} answered but the download broke off {broke_off} "
                                f"time(s), last at {_mb(done)} of {_mb(total)} MB ({last_error!r}); what arrived is "
                                "kept and resumes next time; the current cards are kept", host=host,
                                times=broke_off, done_mb=_mb(done), total_mb=_mb(total))
        raise _offline(url, last_error or OSError("no answer"))
    os.replace(partial, target)
    return target


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def update(folder: str | os.PathLike[str], url: str = DEFAULT_URL, *,
           progress: Callable[[Progress], None] | None = None, cancel: threading.Event | None = None,
           timeout: float = 30, retry_pause: float = 1.0, limits: DownloadLimits = DownloadLimits()) -> ImportReport:
    """Download the card file at `url` into `folder`, check it, import it (see module docstring).

    Offline, or on any failure, raises CardDataError and the current database stays. The download
    is deleted once imported, and when its import fails (it would fail again: only a new one can help)."""
    check_url(url)
    folder = Path(folder)
    downloads = folder / "downloads"
    if downloads.is_symlink():
        raise CardDataError("cards.errors.link", f"{downloads}: a symbolic link (never followed in the data "
                            "folder); nothing was written and the current cards are kept", path=str(downloads))
    downloads.mkdir(parents=True, exist_ok=True)
    name = file_name(url)
    # A part left by an earlier run resumes only if it is of the same published file (MTGJSON
    # rebuilds daily): the digest it was started for is kept beside it.
    partial, started_for = downloads / f"{name}.part", downloads / f"{name}.part.sha256"
    _refuse_links(downloads / name, partial, started_for)
    expected = published_checksum(url, timeout, limits)
    if partial.exists() and (not started_for.exists() or started_for.read_text().strip() != expected):
        partial.unlink()
    _write_text(started_for, expected)
    target = download(url, downloads / name, progress=progress, cancel=cancel, timeout=timeout,
                      retry_pause=retry_pause, limits=limits)
    remove(started_for)
    try:
        if progress:
            progress(Progress("cards.step.checking", DOWNLOAD_SHARE, {}))
        if sha256_of(target) != expected:
            raise CardDataError("cards.errors.checksum", f"{name}: the SHA-256 does not match the published "
                                "one; the download was deleted and the current cards are kept", file=name)

        def import_progress(step: Progress) -> None:
            if progress:
                progress(Progress(step.step, DOWNLOAD_SHARE + (1 - DOWNLOAD_SHARE) * step.fraction, step.fields))

        return import_file(target, folder, progress=import_progress, cancel=cancel)
    finally:
        remove(target)
