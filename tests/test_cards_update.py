"""`tactical cards update` against a local HTTP server on 127.0.0.1: download with resume after a
dropped connection, the published checksum, and offline or bad downloads that lose nothing; servers
that drip, lie about sizes or cut every answer short are given up within the (small) limits the
tests set; nothing in downloads/ is written through a link."""
import hashlib
import http.server
import lzma
import socket
import threading
import time
from pathlib import Path

import pytest

from companion import cards
from companion.cards.download import DownloadLimits, file_name, update

ATOMIC = Path(__file__).parent / "fixtures" / "cards" / "AtomicCards.fixture.json"
ORACLE = Path(__file__).parent / "fixtures" / "cards" / "oracle-cards.fixture.json"


class CardServer:
    """Serves one file (at any path but /missing/…) and its .sha256; can drop the connection once
    mid-file, ignore Range, cut every answer after `cut_every` bytes, send one byte every `drip_s`
    seconds, declare another Content-Length (`length`; "" sends none)."""

    def __init__(self, payload: bytes, *, drop_after: int | None = None, ranges: bool = True,
                 digest: str | None = None, cut_every: int | None = None, drip_s: float | None = None,
                 length: str | None = None):
        self.payload, self.drop_after, self.ranges = payload, drop_after, ranges
        self.cut_every, self.drip_s, self.length = cut_every, drip_s, length
        self.digest = digest or hashlib.sha256(payload).hexdigest()
        self.requests: list[str | None] = []
        self.closing = threading.Event()
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                if self.path.endswith(".sha256"):
                    body = server.digest.encode()
                    self.send_response(200)
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                    return
                if self.path.startswith("/missing/"):
                    self.send_error(404)
                    return
                wanted = self.headers.get("Range")
                server.requests.append(wanted)
                start = int(wanted.split("=")[1].rstrip("-")) if wanted and server.ranges else 0
                if start >= len(server.payload) and wanted:
                    self.send_error(416)
                    return
                self.send_response(206 if start else 200)
                if start:
                    self.send_header("Content-Range", f"bytes {start}-{len(server.payload) - 1}/{len(server.payload)}")
                length = str(len(server.payload) - start) if server.length is None else server.length
                if length:
                    self.send_header("Content-Length", length)
                self.end_headers()
                body = server.payload[start:]
                if server.drip_s is not None:
                    for byte in body:
                        if server.closing.wait(server.drip_s):
                            return
                        self.wfile.write(bytes([byte]))
                        self.wfile.flush()
                    return
                cut = server.drop_after if server.drop_after is not None else server.cut_every
                if cut is not None:
                    self.wfile.write(body[:cut])
                    self.wfile.flush()
                    server.drop_after = None
                    self.close_connection = True
                    self.connection.shutdown(socket.SHUT_RDWR)
                    return
                self.wfile.write(body)

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/api/v5/AtomicCards.json.xz"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.closing.set()
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture(scope="module")
def payload():
    return lzma.compress(ATOMIC.read_bytes())


def run_update(folder, url, **kwargs):
    return update(folder, url, timeout=5, retry_pause=0.01, **kwargs)


def test_update_downloads_checks_and_imports(tmp_path, payload):
    steps = []
    with CardServer(payload) as server:
        report = run_update(tmp_path, server.url, progress=steps.append)
    assert (report.source, report.cards) == ("mtgjson", 36)
    assert not list((tmp_path / "downloads").iterdir())      # the download is removed once imported
    kinds = [s.step for s in steps]
    assert "cards.step.downloading" in kinds and "cards.step.checking" in kinds and kinds[-1] == "cards.step.done"
    assert [s.fraction for s in steps if s.step != "cards.step.connecting"] == \
           sorted(s.fraction for s in steps if s.step != "cards.step.connecting")
    with cards.open_database(tmp_path) as db:
        assert db.find("Ange de Serra").name == "Serra Angel"


def test_a_connection_dropped_mid_download_is_resumed_with_a_range_request(tmp_path, payload):
    with CardServer(payload, drop_after=len(payload) // 3) as server:
        report = run_update(tmp_path, server.url)
    assert report.cards == 36
    assert server.requests[0] is None and server.requests[1] == f"bytes={len(payload) // 3}-"


def test_a_download_broken_last_time_resumes_where_it_stopped(tmp_path, payload):
    part = tmp_path / "downloads" / "AtomicCards.json.xz.part"
    part.parent.mkdir(parents=True)
    part.write_bytes(payload[:1000])
    (part.parent / "AtomicCards.json.xz.part.sha256").write_text(hashlib.sha256(payload).hexdigest())
    with CardServer(payload) as server:
        run_update(tmp_path, server.url)
    assert server.requests == ["bytes=1000-"]
    assert not list(part.parent.iterdir())


def test_a_part_of_an_older_published_file_is_not_resumed(tmp_path, payload):
    """MTGJSON rebuilds its files daily: yesterday's part plus today's rest would be garbage."""
    part = tmp_path / "downloads" / "AtomicCards.json.xz.part"
    part.parent.mkdir(parents=True)
    part.write_bytes(b"yesterday's bytes" * 50)
    (part.parent / "AtomicCards.json.xz.part.sha256").write_text("1" * 64)
    with CardServer(payload) as server:
        assert run_update(tmp_path, server.url).cards == 36
    assert server.requests == [None]


def test_a_server_that_ignores_ranges_gets_the_file_again_whole(tmp_path, payload):
    with CardServer(payload, drop_after=500, ranges=False) as server:
        assert run_update(tmp_path, server.url).cards == 36


def test_a_wrong_checksum_deletes_the_download_and_keeps_the_cards(tmp_path, payload):
    cards.import_file(ORACLE, tmp_path)
    before = cards.database_path(tmp_path).read_bytes()
    with CardServer(payload, digest="0" * 64) as server:
        with pytest.raises(cards.CardDataError) as caught:
            run_update(tmp_path, server.url)
    assert caught.value.key == "cards.errors.checksum"
    assert cards.database_path(tmp_path).read_bytes() == before
    assert not list((tmp_path / "downloads").iterdir())


def test_offline_says_so_and_keeps_the_cards(tmp_path):
    cards.import_file(ORACLE, tmp_path)
    before = cards.database_path(tmp_path).read_bytes()
    with socket.socket() as probe:            # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(cards.CardDataError) as caught:
        run_update(tmp_path, f"http://127.0.0.1:{port}/api/v5/AtomicCards.json.xz")
    assert caught.value.key == "cards.errors.offline"
    assert "offline" in str(caught.value) and "hors ligne" in cards.error_text(caught.value, "fr")
    assert cards.database_path(tmp_path).read_bytes() == before


def test_a_missing_file_on_the_server_is_an_http_error(tmp_path, payload):
    with CardServer(payload) as server:
        with pytest.raises(cards.CardDataError) as caught:
            run_update(tmp_path, server.url.replace("/api/", "/missing/"))
    assert caught.value.key == "cards.errors.http"


def quick(**kwargs) -> DownloadLimits:
    """Limits small enough for a test to reach them in about a second."""
    return DownloadLimits(**{"stall_s": 1.0, "stall_bytes": 1024, "max_s": 10.0, "progress_s": 0.1, **kwargs})


def test_a_url_naming_no_file_is_saved_under_a_safe_name(tmp_path, payload):
    """`--url http://127.0.0.1:P/good/..` failed renaming downloads/...part onto downloads/.. (OSError)."""
    with CardServer(payload) as server:
        base = server.url.rsplit("/api/", 1)[0]
        assert run_update(tmp_path, f"{base}/good/..").cards == 36
    assert not list((tmp_path / "downloads").iterdir())
    assert not list(tmp_path.parent.glob("*.part"))
    assert [file_name(f"http://h/{tail}") for tail in ("good/..", "a/.hidden", "x%2F..%2F..%2Fetc", "")] == \
           ["AtomicCards.json.xz", "hidden", "x_.._.._etc", "AtomicCards.json.xz"]


def test_a_server_that_drips_is_given_up_as_stalled_and_progress_is_said_meanwhile(tmp_path, payload):
    """2.5 bytes/s used to hang forever on "0% Connecting…" (every byte reset the socket's timeout)."""
    steps = []
    started = time.monotonic()
    with CardServer(payload, drip_s=0.05) as server:
        with pytest.raises(cards.CardDataError) as caught:
            run_update(tmp_path, server.url, progress=steps.append, limits=quick())
    assert caught.value.key == "cards.errors.stalled" and "stalled" in str(caught.value)
    assert time.monotonic() - started < 8
    assert "cards.step.downloading" in [s.step for s in steps]      # by time, though far below 256 KB
    assert (tmp_path / "downloads" / "AtomicCards.json.xz.part").stat().st_size > 0   # kept, to resume


def test_a_download_that_outlasts_its_time_limit_is_given_up(tmp_path, payload):
    with CardServer(payload, drip_s=0.02) as server:
        with pytest.raises(cards.CardDataError) as caught:
            run_update(tmp_path, server.url, limits=quick(stall_bytes=1, max_s=1.0))
    assert caught.value.key == "cards.errors.too_slow"
    assert "1 s" in cards.error_text(caught.value, "en")


def test_a_body_declared_larger_than_any_card_file_is_refused_before_it_is_written(tmp_path, payload):
    """A body declared as 4 GB was accepted and 336 MB written."""
    with CardServer(payload, length="4000000000") as server:
        with pytest.raises(cards.CardDataError) as caught:
            run_update(tmp_path, server.url, limits=quick(max_bytes=len(payload) - 1))
    assert caught.value.key == "cards.errors.too_large" and caught.value.fields["size_mb"] == "4000.0"
    assert not list((tmp_path / "downloads").glob("*.part"))


def test_a_body_that_grows_past_the_limit_while_streaming_is_refused_and_deleted(tmp_path, payload):
    with CardServer(payload, length="") as server:          # no Content-Length: the size shows only streaming
        with pytest.raises(cards.CardDataError) as caught:
            run_update(tmp_path, server.url, limits=quick(max_bytes=len(payload) // 2))
    assert caught.value.key == "cards.errors.too_large"
    assert not list((tmp_path / "downloads").glob("*.part"))
    assert DownloadLimits().max_bytes == 400_000_000      # the documented cap (docs/cards.md)


def test_a_server_that_cuts_every_answer_short_says_the_download_broke_off_and_how_far(tmp_path, payload):
    """It used to say "cannot reach 127.0.0.1:P (IncompleteRead…): offline?" though the host answered."""
    with CardServer(payload, cut_every=1000) as server:
        with pytest.raises(cards.CardDataError) as caught:
            run_update(tmp_path, server.url, limits=quick())
    assert caught.value.key == "cards.errors.broken_off"
    text = cards.error_text(caught.value, "en")
    assert "broke off 4 time(s)" in text and f"at 0.0 of {len(payload) / 1e6:.1f} MB" in text
    assert caught.value.fields["done_mb"] == f"{4000 / 1e6:.1f}"
    assert (tmp_path / "downloads" / "AtomicCards.json.xz.part").stat().st_size == 4000


def test_a_download_whose_checksum_matches_but_that_does_not_import_is_deleted(tmp_path):
    """The refused file (~30 MB for a real one) used to stay in downloads/."""
    broken = lzma.compress(b'{"data": {"Serra Angel": [{"manaValue": 5')
    with CardServer(broken) as server:
        with pytest.raises(cards.CardDataError) as caught:
            run_update(tmp_path, server.url)
    assert caught.value.key == "cards.errors.bad_json"
    assert not list((tmp_path / "downloads").iterdir())


@pytest.mark.parametrize("planted", ["AtomicCards.json.xz.part.sha256", "AtomicCards.json.xz.part"])
def test_a_link_planted_in_downloads_is_refused_and_its_target_untouched(tmp_path, payload, planted):
    """`….part.sha256 -> victim` got the checksum written over the victim, `….part -> victim` the download
    appended to it."""
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    downloads = tmp_path / "data" / "downloads"
    downloads.mkdir(parents=True)
    (downloads / planted).symlink_to(victim)
    if planted.endswith(".part"):   # the digest it was started for, so that the part would be resumed
        (downloads / f"{planted}.sha256").write_text(hashlib.sha256(payload).hexdigest())
    with CardServer(payload) as server:
        with pytest.raises(cards.CardDataError) as caught:
            run_update(tmp_path / "data", server.url)
    assert caught.value.key == "cards.errors.link" and "symbolic link" in str(caught.value)
    assert victim.read_text() == "precious"


def test_a_downloads_folder_that_is_a_link_is_refused(tmp_path, payload):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "downloads").symlink_to(elsewhere)
    with CardServer(payload) as server:
        with pytest.raises(cards.CardDataError) as caught:
            run_update(tmp_path / "data", server.url)
    assert caught.value.key == "cards.errors.link"
    assert not list(elsewhere.iterdir())


@pytest.mark.parametrize("url", ["nonsense", "ftp://example.org/AtomicCards.json.xz", "http:///AtomicCards.json.xz",
                                 "http://127.0.0.1:1/a\x1b[2Jb.json.xz"])
def test_what_is_no_http_address_is_refused_by_name_before_any_request(tmp_path, url):
    """urllib refused these with a bare ValueError (a traceback from `tactical cards update --url`)."""
    with pytest.raises(cards.CardDataError) as caught:
        run_update(tmp_path, url)
    assert caught.value.key == "cards.errors.bad_url"
    assert not (tmp_path / "downloads").exists()
