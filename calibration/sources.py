"""Camera sources: one interface for a webcam, a phone/IP stream, a video, an image or a folder.

`open_source(spec)` picks the kind from the spec ("0", "rtsp://…", "game.mp4",
"photo.jpg", "shots/"). Every source gives BGR frames through `read()`, which
returns None when no frame is available *right now* — a dropped live stream
reconnects in the background of later reads, with exponential backoff, so the
game carries on. The app pushes Kivy camera frames into a `PushSource`.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Protocol

import cv2
import numpy as np

from boards.yamlfile import Limits, read_bytes
from calibration.imagefile import FORMATS, MAX_IMAGE_BYTES, size_problem

IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp"}
STREAM_PREFIXES = ("rtsp://", "rtmp://", "http://", "https://", "udp://", "tcp://")


class SourceError(RuntimeError):
    """A source that cannot be opened, said plainly ("camera 0 not found")."""


class FrameSource(Protocol):
    name: str

    def read(self) -> np.ndarray | None: ...

    def close(self) -> None: ...


def _as_bgr(frame: np.ndarray | None) -> np.ndarray | None:
    if frame is None or not isinstance(frame, np.ndarray) or frame.size == 0:
        return None
    if frame.ndim == 2:
        return cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    if frame.shape[2] == 4:
        return cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR)
    return frame


def read_image(path: Path) -> np.ndarray:
    """An image file as BGR, or SourceError saying why not. The pixel count its header states is
    checked before decoding (calibration.imagefile); FIFOs and devices are never read."""
    path = Path(path)
    if not path.is_file():
        raise SourceError(f"{path}: no such image file")
    data = read_bytes(path, limits=Limits(max_bytes=MAX_IMAGE_BYTES),
                      error=lambda message, **where: SourceError(f"{path}: {message}"))
    problem = size_problem(data)
    if problem:
        raise SourceError(f"{path}: {problem}")
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if image is None:
        raise SourceError(f"{path}: not a readable image ({FORMATS})")
    return image


def _quiet_opencv() -> None:
    logging = getattr(getattr(cv2, "utils", None), "logging", None)
    if logging is not None:
        logging.setLogLevel(logging.LOG_LEVEL_SILENT)


@dataclass
class Backoff:
    """Reconnection delays: first, then doubling up to a ceiling."""

    first_s: float = 0.5
    max_s: float = 10.0
    _next: float = field(default=0.0, init=False)

    def reset(self) -> None:
        self._next = 0.0

    def next_delay(self) -> float:
        self._next = self.first_s if self._next == 0 else min(self._next * 2, self.max_s)
        return self._next


class CaptureSource:
    """A cv2.VideoCapture-like device: webcam index, stream URL or video file.

    Live sources (camera, stream) reconnect after a drop; a video file ends.
    `capture_factory` and `clock` are injectable so tests need no camera.
    """

    def __init__(self, target, *, live: bool, name: str, capture_factory: Callable = cv2.VideoCapture,
                 clock: Callable[[], float] = time.monotonic, backoff: Backoff | None = None):
        self.target, self.live, self.name = target, live, name
        self._factory, self._clock = capture_factory, clock
        self.backoff = backoff or Backoff()
        self.reconnects = 0
        self._retry_at: float | None = None
        _quiet_opencv()  # a missing camera is said in one line below, not in backend warnings
        self._capture = capture_factory(target)
        if not self._capture.isOpened():
            raise SourceError(self._cannot_open())

    def _cannot_open(self) -> str:
        if isinstance(self.target, int):
            return f"camera {self.target} not found"
        if self.live:
            return f"cannot open stream {self.target}"
        return f"cannot open video {self.target}"

    def read(self) -> np.ndarray | None:
        if self._retry_at is not None:
            if self._clock() < self._retry_at:
                return None
            self._reconnect()
            if self._retry_at is not None:
                return None
        ok, frame = self._capture.read()
        frame = _as_bgr(frame) if ok else None
        if frame is None and self.live:
            self._retry_at = self._clock() + self.backoff.next_delay()
        elif frame is not None:
            self.backoff.reset()
        return frame

    def _reconnect(self) -> None:
        self._capture.release()
        self._capture = self._factory(self.target)
        self.reconnects += 1
        if self._capture.isOpened():
            self._retry_at = None
        else:
            self._retry_at = self._clock() + self.backoff.next_delay()

    def close(self) -> None:
        self._capture.release()


class ImageFilesSource:
    """One image, or every image of a folder in name order; None after the last."""

    def __init__(self, paths: list[Path], name: str):
        if not paths:
            raise SourceError(f"{name}: no images (expected {', '.join(sorted(IMAGE_SUFFIXES))})")
        self.paths, self.name, self._index = paths, name, 0

    def read(self) -> np.ndarray | None:
        if self._index >= len(self.paths):
            return None
        path = self.paths[self._index]
        self._index += 1
        return read_image(path)

    def close(self) -> None:
        self._index = len(self.paths)


class PushSource:
    """Frames pushed by someone else (the Kivy camera widget); read() gives the newest once."""

    def __init__(self, name: str = "app camera"):
        self.name = name
        self._frame: np.ndarray | None = None

    def push(self, frame: np.ndarray) -> None:
        self._frame = _as_bgr(frame)

    def read(self) -> np.ndarray | None:
        frame, self._frame = self._frame, None
        return frame

    def close(self) -> None:
        self._frame = None


def open_source(spec: str | int, *, capture_factory: Callable = cv2.VideoCapture,
                clock: Callable[[], float] = time.monotonic) -> FrameSource:
    """Open what `spec` names: a camera index, a stream URL, a folder, an image or a video."""
    text = str(spec).strip()
    if text.isdigit():
        return CaptureSource(int(text), live=True, name=f"camera {text}", capture_factory=capture_factory,
                             clock=clock)
    if text.lower().startswith(STREAM_PREFIXES):
        return CaptureSource(text, live=True, name=text, capture_factory=capture_factory, clock=clock)
    path = Path(text)
    if path.is_dir():
        images = sorted(p for p in path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        return ImageFilesSource(images, str(path))
    if not path.exists():
        raise SourceError(f"{text}: no such camera, stream, file or folder")
    if path.suffix.lower() in IMAGE_SUFFIXES:
        return ImageFilesSource([path], str(path))
    return CaptureSource(str(path), live=False, name=str(path), capture_factory=capture_factory, clock=clock)
