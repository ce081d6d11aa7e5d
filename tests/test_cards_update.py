"""`tactical cards update` against a local HTTP server on 127.0.0.1: download with resume after a
dropped connection, the published checksum, and offline or bad downloads that lose nothing."""
import hashlib
import http.server
import lzma
import socket
import threading
from pathlib import Path

import pytest

from companion import cards
from companion.cards.download import update

ATOMIC = Path(__file__).parent / "fixtures" / "cards" / "AtomicCards.fixture.json"
ORACLE = Path(__file__).parent / "fixtures" / "cards" / "oracle-cards.fixture.json"


class CardServer:
    """Serves one file and its .sha256; can drop the connection once mid-file and ignore Range."""

    def __init__(self, payload: bytes, *, drop_after: int | None = None, ranges: bool = True,
                 digest: str | None = None):
        self.payload, self.drop_after, self.ranges = payload, drop_after, ranges
        self.digest = digest or hashlib.sha256(payload).hexdigest()
        self.requests: list[str | None] = []
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
                if not self.path.endswith("AtomicCards.json.xz"):
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
                self.send_header("Content-Length", str(len(server.payload) - start))
                self.end_headers()
                body = server.payload[start:]
                if server.drop_after is not None:
                    self.wfile.write(body[:server.drop_after])
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
            run_update(tmp_path, server.url.replace("AtomicCards", "Nothing"))
    assert caught.value.key == "cards.errors.http"
