"""Camera sources: files, folders, a fake capture that drops, the app's push source (issue 5)."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

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
    frames = [folder.read() for _ in range(4)]
    assert [f[0, 0, 0] for f in frames[:3]] == [0, 1, 2] and frames[3] is None
    single = open_source(str(tmp_path / "1.png"))
    assert single.read().shape == (5, 6, 3)


def test_clear_errors_for_missing_things(tmp_path):
    with pytest.raises(SourceError, match="no such camera, stream, file or folder"):
        open_source(str(tmp_path / "nope.mp4"))
    with pytest.raises(SourceError, match="camera 3 not found"):
        open_source("3", capture_factory=lambda t: type("Closed", (), {"isOpened": lambda self: False})())
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
