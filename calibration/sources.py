"""Camera sources: one interface for a webcam, a phone/IP stream, a video, an image, a folder, or
frames pushed by the app (Kivy's camera on Android).

`open_source(spec)` picks the kind from the spec ("0", "rtsp://…", "game.mp4", "photo.jpg",
"shots/"). Every source gives BGR frames through `read()`, which returns None when no frame is
available *right now*. A live source (camera, stream, pushed frames) may give frames again later:
a dropped camera or stream reconnects in the background of later reads, with exponential backoff,
so the game carries on. A file source is `finished` after its last frame.

Opening can hang where the operating system blocks (a FIFO without a writer, a stream host that
never answers): every open runs with a time limit (`OPEN_TIMEOUT_S`) and says so when it expires.
"""
from __future__ import annotations

import os
import select
import stat
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Literal, Protocol, TypedDict

import cv2
import numpy as np

from safeio.yamlfile import Limits, read_bytes
from calibration.imagefile import FORMATS, MAX_IMAGE_BYTES, decode_image, size_problem
from calibration.problems import Problem

IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp"}
STREAM_PREFIXES = ("rtsp://", "rtmp://", "http://", "https://", "udp://", "tcp://")
MAX_CAMERA_INDEX = 99          # OpenCV reads indices from 100 up as "backend × 100 + index"
OPEN_TIMEOUT_S = 8.0           # an open that takes longer has hung (FIFO without writer, silent host)
STREAM_READ_TIMEOUT_S = 5.0    # a stream giving no frame for this long has dropped (FFmpeg's own timer)
FOLDER_FPS = 10.0              # a folder of images is played at this rate (a file video at its own)


# Why a source cannot be opened or read, in English (the CLI's words); the app says the same
# problem in its own language from `companion/i18n/<lang>/camera.yaml` `sources.<key>`, same fields.
SOURCE_PROBLEMS = {
    "no_image_file": "{path}: no such image file",
    "bad_image_file": "{path}: {problem}",
    "unreadable_image": "{path}: not a readable image ({formats})",
    "no_answer": "{what}: no answer within {seconds} s (a pipe nobody writes to, or a host that does not respond)",
    "camera_not_found": "camera {number} not found",
    "camera_failed": "camera {number}: {problem}",
    "stream_unopened": "cannot open stream {target}",
    "video_unopened": "cannot open video {target} (not a video OpenCV can read)",
    "no_images": "{folder}: no images (expected {suffixes})",
    "camera_number": "camera {number}: camera numbers go from 0 to {most}",
    "no_source": "no source given: a camera number (0), a stream URL, a video, an image or a folder",
    "nothing_there": "{target}: no such camera, stream, file or folder",
    "not_a_file": "{path}: not a regular file (an image must be a file, not a pipe or a device)",
    "bad_settings": "the camera's settings cannot be used: {problem}",
}


class SourceError(RuntimeError):
    """A source that cannot be opened, said plainly ("camera 0 not found"); its `problem` (a key of
    SOURCE_PROBLEMS and fields) lets the app say it in the table's language."""

    def __init__(self, key: str, **fields):
        self.problem = Problem(SOURCE_PROBLEMS, "camera.sources", key, **fields)
        super().__init__(self.problem)


class FrameSource(Protocol):
    name: str
    live: bool                 # None from read() means "not now": it may come back

    @property
    def fps(self) -> float | None:
        """A file's frame rate, to play it in real time; None: the device paces. Read-only here, so
        a source whose rate is always known (a folder) is a FrameSource too."""

    def read(self) -> np.ndarray | None: ...

    @property
    def finished(self) -> bool: ...

    def close(self) -> None: ...


def as_bgr(frame: np.ndarray | None) -> np.ndarray | None:
    """A frame as 8-bit BGR (grey and BGRA are converted), None for nothing usable."""
    if frame is None or not isinstance(frame, np.ndarray) or frame.size == 0 or frame.ndim not in (2, 3):
        return None
    if frame.dtype != np.uint8:
        return None
    if frame.ndim == 2:
        return cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    if frame.shape[2] == 4:
        return cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR)
    return frame if frame.shape[2] == 3 else None


def read_image(path: Path) -> np.ndarray:
    """An image file as BGR, or SourceError saying why not. The pixel count its header states is
    checked before decoding (calibration.imagefile); FIFOs and devices are never read."""
    path = Path(path)
    if not path.is_file():
        raise SourceError("no_image_file", path=path)
    data = read_bytes(path, limits=Limits(max_bytes=MAX_IMAGE_BYTES),
                      error=lambda message, **where: SourceError("bad_image_file", path=path, problem=message))
    problem = size_problem(data)
    if problem:
        raise SourceError("bad_image_file", path=path, problem=problem)
    image = decode_image(data)   # reduced when larger than a scan needs
    if image is None:
        raise SourceError("unreadable_image", path=path, formats=FORMATS)
    return image


def _quiet_opencv() -> None:
    logging = getattr(getattr(cv2, "utils", None), "logging", None)
    if logging is not None:
        logging.setLogLevel(logging.LOG_LEVEL_SILENT)


def within_time_limit(call: Callable[[], object], seconds: float, what: str, on_late: Callable[[object], None]
                      = lambda result: None):
    """`call()`'s result, run in a helper thread so that a call the system blocks (opening a FIFO,
    a silent host) cannot hang the caller; SourceError after `seconds`. A late result is handed to
    `on_late` (to release what it opened)."""
    outcome: dict[str, object] = {}
    raised: list[BaseException] = []  # what call() raised, if it did
    done = threading.Event()
    lock = threading.Lock()

    def run():
        try:
            result = call()
        except BaseException as exc:  # handed to the caller's thread below
            result = None
            raised.append(exc)
        with lock:
            if done.is_set():          # the caller gave up: release what was opened
                on_late(result)
                return
            outcome["result"] = result
            done.set()

    threading.Thread(target=run, name=f"open {what}", daemon=True).start()
    finished = done.wait(seconds)
    with lock:
        if not finished and not done.is_set():
            done.set()
            raise SourceError("no_answer", what=what, seconds=f"{seconds:g}")
    if raised:
        raise raised[0]
    return outcome["result"]


def default_capture(target):
    """cv2.VideoCapture, with FFmpeg's open and read timers set for streams (a dropped stream then
    ends a read after STREAM_READ_TIMEOUT_S instead of FFmpeg's 30 s)."""
    if isinstance(target, str) and target.lower().startswith(STREAM_PREFIXES):
        timers = [cv2.CAP_PROP_OPEN_TIMEOUT_MSEC, int(OPEN_TIMEOUT_S * 1000),
                  cv2.CAP_PROP_READ_TIMEOUT_MSEC, int(STREAM_READ_TIMEOUT_S * 1000)]
        return cv2.VideoCapture(target, cv2.CAP_FFMPEG, timers)
    return cv2.VideoCapture(target)


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


def _release(capture) -> None:
    if capture is not None:
        capture.release()


class CaptureSource:
    """A cv2.VideoCapture-like device: webcam index, stream URL or video file.

    Live sources (camera, stream) reconnect after a drop; a video file ends (`finished`).
    `capture_factory`, `clock` and `open_timeout_s` are injectable so tests need no camera.
    """

    def __init__(self, target, *, live: bool, name: str, capture_factory: Callable = default_capture,
                 clock: Callable[[], float] = time.monotonic, backoff: Backoff | None = None,
                 open_timeout_s: float = OPEN_TIMEOUT_S):
        self.target, self.live, self.name = target, live, name
        self._factory, self._clock, self._open_timeout = capture_factory, clock, open_timeout_s
        self.backoff = backoff or Backoff()
        self.reconnects = 0
        self._retry_at: float | None = None
        self._ended = False
        _quiet_opencv()  # a missing camera is said in one line below, not in backend warnings
        self._capture = self._open()
        if self._capture is None:
            raise self._cannot_open()
        fps = self._capture.get(cv2.CAP_PROP_FPS) if hasattr(self._capture, "get") and not live else 0
        self.fps = float(fps) if not live and fps and 1 <= fps <= 240 else (None if live else 25.0)

    def _open(self):
        """A fresh capture, opened within the time limit; None when it did not open."""
        def attempt():
            capture = self._factory(self.target)
            if capture.isOpened():
                return capture
            capture.release()
            return None
        return within_time_limit(attempt, self._open_timeout, self.name, on_late=_release)

    def _cannot_open(self) -> SourceError:
        if isinstance(self.target, int):
            return SourceError("camera_not_found", number=self.target)
        return SourceError("stream_unopened" if self.live else "video_unopened", target=self.target)

    @property
    def finished(self) -> bool:
        return self._ended

    @property
    def waiting(self) -> bool:
        """A live source that dropped and is waiting to reconnect."""
        return self._retry_at is not None

    def read(self) -> np.ndarray | None:
        if self._ended:
            return None
        if self._retry_at is not None:
            if self._clock() < self._retry_at:
                return None
            self._reconnect()
            if self._retry_at is not None:
                return None
        ok, frame = self._capture.read()
        frame = as_bgr(frame) if ok else None
        if frame is None and self.live:
            self._retry_at = self._clock() + self.backoff.next_delay()
        elif frame is None:
            self._ended = True
        else:
            self.backoff.reset()
        return frame

    def _reconnect(self) -> None:
        _release(self._capture)
        self.reconnects += 1
        try:
            self._capture = self._open()
        except SourceError:
            self._capture = None
        if self._capture is not None:
            self._retry_at = None
        else:
            self._retry_at = self._clock() + self.backoff.next_delay()

    def close(self) -> None:
        _release(self._capture)
        self._capture, self._ended = None, True


class ImageFilesSource:
    """One image, or every image of a folder in name order; finished after the last."""

    live = False

    def __init__(self, paths: list[Path], name: str, fps: float = FOLDER_FPS):
        if not paths:
            raise SourceError("no_images", folder=name, suffixes=", ".join(sorted(IMAGE_SUFFIXES)))
        self.paths, self.name, self.fps, self._index = paths, name, fps, 0

    @property
    def finished(self) -> bool:
        return self._index >= len(self.paths)

    def read(self) -> np.ndarray | None:
        if self.finished:
            return None
        path = self.paths[self._index]
        self._index += 1
        return read_image(path)

    def close(self) -> None:
        self._index = len(self.paths)


# What PushSource holds until read: a frame pushed as it is, or a camera buffer with its size.
_Pushed = (tuple[Literal["array"], np.ndarray, None]
           | tuple[Literal["nv21", "rgba", "rgba_up"], bytes, tuple[int, int]])


class PushSource:
    """Frames pushed by someone else (the app's Kivy camera); read() gives the newest once, as BGR.

    Pushing is cheap (the UI thread only hands over the buffer); the conversion to BGR happens in
    read(), on the reading thread. Thread-safe: one thread pushes, another reads.
    """

    live = True
    fps = None
    finished = False

    def __init__(self, name: str = "app camera"):
        self.name = name
        self._lock = threading.Lock()
        self._pending: _Pushed | None = None
        self.pushed = 0

    def push(self, frame: np.ndarray) -> None:
        """A BGR, BGRA or grey frame."""
        self._hand_over(("array", frame, None))

    def push_nv21(self, buffer: bytes, size: tuple[int, int]) -> None:
        """A camera preview buffer in Android's NV21 layout (Kivy's `CameraAndroid.grab_frame()`)."""
        self._hand_over(("nv21", buffer, size))

    def push_rgba(self, buffer: bytes, size: tuple[int, int], *, bottom_up: bool = True) -> None:
        """RGBA pixels of a texture (`Texture.pixels`), bottom row first as OpenGL keeps them."""
        self._hand_over(("rgba_up" if bottom_up else "rgba", buffer, size))

    def _hand_over(self, item: _Pushed) -> None:
        with self._lock:
            self._pending = item
            self.pushed += 1

    def read(self) -> np.ndarray | None:
        with self._lock:
            item, self._pending = self._pending, None
        if item is None:
            return None
        if item[0] == "array":
            return as_bgr(item[1])
        kind, data, (width, height) = item
        raw = np.frombuffer(data, np.uint8)
        if kind == "nv21":
            if raw.size != width * height * 3 // 2:
                return None
            return cv2.cvtColor(raw.reshape(height * 3 // 2, width), cv2.COLOR_YUV2BGR_NV21)
        if raw.size != width * height * 4:
            return None
        rgba = raw.reshape(height, width, 4)
        return cv2.cvtColor(rgba[::-1] if kind == "rgba_up" else rgba, cv2.COLOR_RGBA2BGR)

    def close(self) -> None:
        with self._lock:
            self._pending = None


def camera_index(text: str) -> int:
    """The camera number in `text` ("0", "1" ...), SourceError when out of range."""
    if len(text) > 3 or int(text) > MAX_CAMERA_INDEX:
        raise SourceError("camera_number", number=text, most=MAX_CAMERA_INDEX)
    return int(text)


class _CaptureOptions(TypedDict):
    """What open_source hands to every CaptureSource it opens."""
    capture_factory: Callable
    clock: Callable[[], float]
    open_timeout_s: float


def open_source(spec: str | int, *, capture_factory: Callable = default_capture,
                clock: Callable[[], float] = time.monotonic, open_timeout_s: float | None = None
                ) -> FrameSource:
    """Open what `spec` names: a camera index, a stream URL, a folder, an image or a video; opening
    gives up after `open_timeout_s` (default OPEN_TIMEOUT_S)."""
    text = str(spec).strip()
    options: _CaptureOptions = dict(capture_factory=capture_factory, clock=clock,
                                    open_timeout_s=OPEN_TIMEOUT_S if open_timeout_s is None else open_timeout_s)
    if not text:
        raise SourceError("no_source")
    if text.isdigit():
        index = camera_index(text)
        return CaptureSource(index, live=True, name=f"camera {index}", **options)
    if text.lower().startswith(STREAM_PREFIXES):
        return CaptureSource(text, live=True, name=text, **options)
    path = Path(text)
    if path.is_dir():
        images = sorted(p for p in path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES and p.is_file())
        return ImageFilesSource(images, str(path))
    if not path.exists():
        raise SourceError("nothing_there", target=text)
    if path.suffix.lower() in IMAGE_SUFFIXES:
        return ImageFilesSource([path], str(path)) if path.is_file() else _refuse_special(path)
    mode = os.stat(path).st_mode
    # a video file, a pipe fed by another program (ffmpeg … > fifo: it ends with its writer) or a
    # capture device (/dev/video0: live)
    if not (stat.S_ISREG(mode) or stat.S_ISFIFO(mode) or stat.S_ISCHR(mode)):
        _refuse_special(path)
    if not stat.S_ISFIFO(mode):
        return CaptureSource(str(path), live=stat.S_ISCHR(mode), name=str(path), **options)
    with _pipe_with_data(path, options["open_timeout_s"]):
        source = CaptureSource(str(path), live=False, name=str(path), **options)
    source.fps = None  # the writer paces a pipe
    return source


@contextmanager
def _pipe_with_data(path: Path, seconds: float):
    """Hold a pipe open for reading once something is written to it; SourceError when nothing is
    within `seconds`. OpenCV's own open of a pipe nobody writes to never returns, and holds a lock
    that every later capture waits for: it is only asked once the pipe has data. Keeping a reader
    open meanwhile spares the writer a broken pipe."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        readable, _, _ = select.select([fd], [], [], seconds)
        if not readable:
            raise SourceError("no_answer", what=path, seconds=f"{seconds:g}")
        yield
    finally:
        os.close(fd)


def _refuse_special(path: Path):
    raise SourceError("not_a_file", path=path)
