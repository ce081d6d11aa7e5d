"""Camera sources: files, folders, a fake capture that drops, the app's push source (issue 5);
sources that would hang or crash are refused with a clear message (issue 19)."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

import os
import threading
import time

from calibration.sources import PushSource, SourceError, open_source


class FakeCapture:
    """A capture that gives `frames` frames, then drops until reopened `fail_opens` times."""

    opened = 0
    fail_opens = 0

    def __init__(self, target):
        FakeCapture.opened += 1
        self.ok = FakeCapture.opened == 1 or FakeCapture.opened > 1 + FakeCapture.fail_opens
        self.frames = 2

    def isOpened(self):
        return self.ok

    def read(self):
        if not self.ok or self.frames == 0:
            return False, None
        self.frames -= 1
        return True, np.zeros((4, 4, 3), np.uint8)

    def release(self):
        self.ok = False


class Clock:
    now = 0.0

    def __call__(self):
        return self.now


def test_image_and_folder_sources_give_bgr_frames(tmp_path):
    for i in range(3):
        cv2.imwrite(str(tmp_path / f"{i}.png"), np.full((5, 6, 3), i, np.uint8))
    folder = open_source(str(tmp_path))
    assert not folder.live and folder.fps and not folder.finished
    frames = [folder.read() for _ in range(4)]
    assert [f[0, 0, 0] for f in frames[:3]] == [0, 1, 2] and frames[3] is None and folder.finished
    single = open_source(str(tmp_path / "1.png"))
    assert single.read().shape == (5, 6, 3)


def test_clear_errors_for_missing_things(tmp_path):
    with pytest.raises(SourceError, match="no such camera, stream, file or folder"):
        open_source(str(tmp_path / "nope.mp4"))
    with pytest.raises(SourceError, match="camera 3 not found"):
        open_source("3", capture_factory=lambda t: type("Closed", (), {"isOpened": lambda self: False,
                                                                      "release": lambda self: None})())
    (tmp_path / "empty").mkdir()
    with pytest.raises(SourceError, match="no images"):
        open_source(str(tmp_path / "empty"))
    (tmp_path / "junk.png").write_bytes(b"not a png")
    with pytest.raises(SourceError, match="not a readable image"):
        open_source(str(tmp_path / "junk.png")).read()


def test_dropped_stream_reconnects_with_backoff():
    """The stream drops after 2 frames; reopening fails twice, then works: reads return
    None meanwhile (the game goes on) and retries wait 0.5 s, 1 s, 2 s."""
    FakeCapture.opened, FakeCapture.fail_opens = 0, 2
    clock = Clock()
    source = open_source("rtsp://phone/live", capture_factory=FakeCapture, clock=clock)
    assert source.read() is not None and source.read() is not None
    assert source.read() is None            # drop: retry in 0.5 s
    clock.now = 0.4
    assert source.read() is None and FakeCapture.opened == 1   # too early: no reopen
    clock.now = 0.5
    assert source.read() is None and FakeCapture.opened == 2   # reopen fails: retry in 1 s
    clock.now = 1.6
    assert source.read() is None and FakeCapture.opened == 3   # fails again: retry in 2 s
    clock.now = 3.7
    assert source.read() is not None and source.reconnects == 3


def test_push_source_gives_the_newest_frame_once():
    source = PushSource()
    assert source.read() is None
    source.push(np.zeros((2, 2, 4), np.uint8))
    source.push(np.ones((2, 2, 3), np.uint8))
    frame = source.read()
    assert frame.shape == (2, 2, 3) and frame[0, 0, 0] == 1 and source.read() is None


class CountingCapture:
    """A capture of a file: `frames` frames, then the end."""

    def __init__(self, target, frames: int = 2):
        self.frames = frames

    def isOpened(self):
        return True

    def get(self, prop):
        return 12.0 if prop == cv2.CAP_PROP_FPS else 0.0

    def read(self):
        if self.frames == 0:
            return False, None
        self.frames -= 1
        return True, np.zeros((4, 4, 3), np.uint8)

    def release(self):
        pass


def test_a_video_file_plays_at_its_frame_rate_and_then_is_finished(tmp_path):
    video = tmp_path / "game.mp4"
    video.write_bytes(b"frames")
    source = open_source(str(video), capture_factory=CountingCapture)
    assert not source.live and source.fps == 12.0
    assert source.read() is not None and source.read() is not None and not source.finished
    assert source.read() is None and source.finished


@pytest.mark.parametrize("index", ["99999999999999999999", "100", "123456"])
def test_a_camera_number_out_of_range_is_said_not_a_traceback(index):
    """Issue 19: `99999999999999999999` overflowed OpenCV's int; OpenCV also reads 100+ as a backend code."""
    with pytest.raises(SourceError, match=f"camera {index}: camera numbers go from 0 to 99"):
        open_source(index, capture_factory=lambda target: pytest.fail("no capture should be tried"))


def test_a_stream_url_opens_as_a_live_source():
    seen = []

    def factory(target):
        seen.append(target)
        return CountingCapture(target)

    source = open_source("http://192.168.1.20:8080/video", capture_factory=factory)
    assert source.live and source.fps is None and seen == ["http://192.168.1.20:8080/video"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_fifo_nobody_writes_to_does_not_hang_the_open(tmp_path):
    """Issue 19: opening a FIFO blocks until a writer comes; the open gives up after its time limit."""
    fifo = tmp_path / "camera.mjpg"
    os.mkfifo(fifo)
    started = time.monotonic()
    with pytest.raises(SourceError, match="no answer within 0.5 s"):
        open_source(str(fifo), open_timeout_s=0.5)
    assert time.monotonic() - started < 5
    clip = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(clip), cv2.VideoWriter_fourcc(*"MJPG"), 10, (64, 48))
    for level in (40, 90, 140):
        writer.write(np.full((48, 64, 3), level, np.uint8))
    writer.release()
    started = time.monotonic()
    assert open_source(str(clip)).read() is not None, "a later open is not held up by the refused pipe"
    assert time.monotonic() - started < 5
    picture = tmp_path / "photo.png"
    os.mkfifo(picture)
    with pytest.raises(SourceError, match="not a regular file"):
        open_source(str(picture))


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_fifo_fed_by_another_program_is_read_until_its_writer_ends(tmp_path):
    """`ffmpeg … -f mjpeg camera.pipe`: a pipe with a writer opens and gives its frames."""
    stream = b"".join(cv2.imencode(".jpg", np.full((48, 64, 3), level, np.uint8))[1].tobytes()
                      for level in (40, 90, 140))
    fifo = tmp_path / "camera.pipe"
    os.mkfifo(fifo)

    def feed():
        with open(fifo, "wb") as pipe:
            pipe.write(stream)
            pipe.flush()
            time.sleep(1.0)   # a writer streams on; this one stops after three frames

    threading.Thread(target=feed, daemon=True).start()
    source = open_source(str(fifo), open_timeout_s=5)
    frames = [source.read() for _ in range(4)]
    assert not source.live and source.fps is None
    assert [f is not None for f in frames] == [True, True, True, False] and source.finished


def test_an_open_that_never_returns_gives_up_and_a_late_capture_is_released():
    release = threading.Event()
    released = []

    class Late(CountingCapture):
        def __init__(self, target):
            release.wait(5)
            super().__init__(target)

        def release(self):
            released.append(True)

    with pytest.raises(SourceError, match="rtsp://tablet/live: no answer within 0.2 s"):
        open_source("rtsp://tablet/live", capture_factory=Late, open_timeout_s=0.2)
    release.set()
    deadline = time.monotonic() + 5
    while not released and time.monotonic() < deadline:
        time.sleep(0.01)
    assert released, "the capture that opened too late is released, not leaked"


def test_push_source_converts_android_and_texture_buffers_on_the_reading_side():
    """Kivy's Android camera gives NV21 preview buffers, other providers RGBA texture pixels
    (bottom row first): the reading thread gets BGR, top row first."""
    source = PushSource()
    width, height = 4, 2
    luma = np.full((height, width), 120, np.uint8)
    chroma = np.full((height // 2, width), 128, np.uint8)   # V, U interleaved: no colour
    source.push_nv21(np.concatenate([luma, chroma]).tobytes(), (width, height))
    grey = source.read()
    assert grey.shape == (2, 4, 3) and abs(int(grey[0, 0, 0]) - int(grey[0, 0, 2])) <= 2
    rgba = np.zeros((height, width, 4), np.uint8)
    rgba[0] = (255, 0, 0, 255)      # bottom row (OpenGL order) red
    source.push_rgba(rgba.tobytes(), (width, height))
    bgr = source.read()
    assert bgr[1, 0].tolist() == [0, 0, 255] and bgr[0, 0].tolist() == [0, 0, 0]
    source.push_rgba(b"short", (width, height))
    assert source.read() is None, "a buffer of the wrong size is no frame, not a crash"
