"""The Camera screen's live loop, off the UI thread: source → `CameraWatcher` → overlays → picture.

A `CameraLoop` owns one worker thread. It opens the source (`calibration.sources`, with its time
limit: a FIFO or a silent host cannot hang the app), reads every frame, runs the watcher, draws the
augmented-reality overlays on a copy of the frame reduced to the screen's size, and leaves the
newest result (`LiveView`) for the UI thread, whose only work per frame is to upload that picture
into a texture. A dropped camera or stream is reported (`LOST`) and retried by the source; the
game is never touched from here. No Kivy in this module: tests and the bench drive it directly.

What to draw comes from the UI thread as an immutable `Scene` (the selected token's layers, the
game's positions), replaced whenever the game or the selection changes.
"""
from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import cv2
import numpy as np

from boards import XY, Board
from calibration.config import DEFAULT_CONFIG, VisionConfig
from calibration.sources import FrameSource, SourceError
from companion.rules import Token
from vision.tracking import TrackEvent
from vision.watch import CameraWatcher, WatchFrame

# Loop states, said in the status line.
OPENING, LIVE, LOST, ENDED, CANNOT_OPEN = "opening", "live", "lost", "ended", "cannot_open"
LOST_AFTER_S = 1.5            # a live source with no frame for this long is said to be lost
DISPLAY_SIZE = (1280, 720)    # the largest picture sent to the screen (the camera image area is smaller)
EVENT_LOG = 200               # camera events kept for the screen's log
FPS_FRAMES = 10               # frames before the rate is said (the first frames, read in full, say nothing of it)

# BGR, alpha and inset (share of the side left free at each edge, as on the board view) of the
# overlay layers on the photo, drawn in this order: the squares where tokens are too small in the
# image to read well, those a hand hides, the selected token's zone, moves and attack squares
# (the board view's layers), the squares to confirm.
PHOTO_LAYERS: dict[str, tuple[tuple[int, int, int], float, float]] = {
    "too_small": ((40, 40, 40), 0.5, 0.0),
    "covered": ((200, 200, 200), 0.25, 0.0),
    "zone": ((30, 215, 255), 0.35, 0.0),
    "moves": ((90, 255, 30), 0.7, 0.22),
    "attack": ((30, 40, 255), 0.75, 0.36),
    "doubtful": ((255, 0, 255), 0.55, 0.10),
}
SEEN_RING = (255, 255, 255)       # a token the camera follows, where the game has it too
MOVED_RING = (0, 140, 255)        # a token the camera sees elsewhere than the game: to confirm


@dataclass(frozen=True)
class Scene:
    """What the UI wants drawn over the camera image (grid squares; set from the UI thread)."""

    layers: Mapping[str, frozenset[XY]] = field(default_factory=dict)
    recorded: Mapping[Token, XY] = field(default_factory=dict)   # where the game has each token


@dataclass(frozen=True)
class LiveView:
    """One processed frame, ready for the screen."""

    seq: int
    state: str                        # OPENING, LIVE, LOST, ENDED or CANNOT_OPEN
    source: str
    picture: np.ndarray | None        # BGR, bottom row first (as a texture wants it), ≤ DISPLAY_SIZE
    scale: float                      # picture pixels per frame pixel
    watch: WatchFrame | None          # (picture and watch: the last frame's, also once lost or ended)
    error: SourceError | None = None   # CANNOT_OPEN: why (said in the table's language)
    fps: float = 0.0                  # frames processed per second, lately (0: not known yet)
    work_ms: float = 0.0              # worker time for this frame (watcher + drawing)
    scene: Scene | None = None        # what the picture's overlays show

    def frame_pixel(self, picture_xy: tuple[float, float]) -> tuple[float, float]:
        """A point of the picture (x right, y down) in the camera frame's pixels."""
        return picture_xy[0] / self.scale, picture_xy[1] / self.scale


def square_polygons(watch: WatchFrame, squares, scale: float, inset: float = 0.0) -> np.ndarray:
    """Each square's outline (inset by that share of its side) in picture pixels (N×4×2, int32),
    through the frame's grid mapping."""
    squares = sorted(squares)
    a, b = inset, 1 - inset
    corners = np.array([[(x + a, y + a), (x + b, y + a), (x + b, y + b), (x + a, y + b)] for x, y in squares],
                       np.float64)
    return np.round(watch.to_image(corners.reshape(-1, 2)).reshape(-1, 4, 2) * scale).astype(np.int32)


def _blend_polygons(image: np.ndarray, polygons: np.ndarray, bgr, alpha: float) -> None:
    """Fill the polygons alpha-blended, in place, working only inside their bounding box."""
    h, w = image.shape[:2]
    x0, y0 = np.maximum(polygons.reshape(-1, 2).min(axis=0), 0)
    x1, y1 = np.minimum(polygons.reshape(-1, 2).max(axis=0) + 2, (w, h))
    if x1 <= x0 or y1 <= y0:
        return
    region = image[y0:y1, x0:x1]
    paint = region.copy()
    cv2.fillPoly(paint, list(polygons - (x0, y0)), bgr, lineType=cv2.LINE_AA)
    cv2.addWeighted(paint, alpha, region, 1 - alpha, 0, dst=region)


def draw_scene(picture: np.ndarray, watch: WatchFrame, scene: Scene, scale: float) -> None:
    """Overlays on the real board, in place: the layers, then a ring on every token the camera
    follows (orange with a line from the game's square when it stands elsewhere)."""
    if not watch.found:
        return
    layers = dict(scene.layers)
    layers.setdefault("too_small", watch.too_small)
    layers.setdefault("covered", watch.covered)
    for name, (bgr, alpha, inset) in PHOTO_LAYERS.items():
        squares = layers.get(name)
        if squares:
            _blend_polygons(picture, square_polygons(watch, squares, scale, inset), bgr, alpha)
    if not watch.positions:
        return
    tokens = sorted(watch.positions.items())
    centres = watch.to_image([(x + 0.5, y + 0.5) for _, (x, y) in tokens]) * scale
    sides = watch.to_image([(x + 1.0, y + 0.5) for _, (x, y) in tokens]) * scale
    for (token, square), centre, side in zip(tokens, centres, sides):
        radius = max(4, int(np.linalg.norm(side - centre) * 0.95))
        recorded = scene.recorded.get(token)
        moved = recorded is not None and recorded != square
        ring = MOVED_RING if moved else SEEN_RING
        if moved:
            start = watch.to_image([(recorded[0] + 0.5, recorded[1] + 0.5)])[0] * scale
            cv2.arrowedLine(picture, tuple(np.round(start).astype(int)), tuple(np.round(centre).astype(int)),
                            ring, max(2, radius // 8), cv2.LINE_AA, tipLength=0.15)
        cv2.circle(picture, tuple(np.round(centre).astype(int)), radius, ring, max(2, radius // 10), cv2.LINE_AA)


def render(frame: np.ndarray, watch: WatchFrame | None, scene: Scene,
           max_size: tuple[int, int] = DISPLAY_SIZE) -> tuple[np.ndarray, float]:
    """The frame reduced to fit `max_size`, the overlays drawn on it, bottom row first (a texture's
    order): (picture, scale)."""
    height, width = frame.shape[:2]
    scale = min(1.0, max_size[0] / width, max_size[1] / height)
    # down to half size each picture pixel blends its 2×2 nearest (a third of INTER_AREA's time at
    # 1080p → 720p); beyond, area averaging keeps a 4K frame from aliasing
    smooth = cv2.INTER_LINEAR if scale >= 0.5 else cv2.INTER_AREA
    picture = cv2.resize(frame, (round(width * scale), round(height * scale)), interpolation=smooth) \
        if scale < 1.0 else frame.copy()
    if watch is not None:
        draw_scene(picture, watch, scene, scale)
    return np.ascontiguousarray(picture[::-1]), scale


class CameraLoop:
    """One camera followed in a worker thread (see module docstring)."""

    def __init__(self, open_source: Callable[[], FrameSource], board: Board, *, name: str = "",
                 config: VisionConfig = DEFAULT_CONFIG, max_size: tuple[int, int] = DISPLAY_SIZE,
                 clock: Callable[[], float] = time.monotonic, on_view: Callable[[], None] | None = None):
        self._open_source = open_source
        self.name = name
        self.watcher = CameraWatcher(board, config)
        self.max_size = max_size
        self.scene = Scene()
        self.drawing = True               # False while the screen is hidden: watch, but draw nothing
        self._clock = clock
        self._on_view = on_view or (lambda: None)
        self._lock = threading.Lock()
        self._latest: LiveView | None = None
        self._seq = 0
        self._stop = threading.Event()
        self._recalibrate = False
        self._thread: threading.Thread | None = None
        self.source: FrameSource | None = None
        self.events: list[tuple[int, TrackEvent]] = []   # (frame index, event), the newest EVENT_LOG

    # -- control (any thread) -----------------------------------------------------------------
    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name=f"camera {self.name}", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 2.0) -> None:
        """Stop reading and release the source (waits a little for the worker)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def recalibrate(self) -> None:
        self._recalibrate = True

    def latest(self) -> LiveView | None:
        """The newest view not yet taken, or None."""
        with self._lock:
            view, self._latest = self._latest, None
        return view

    # -- worker --------------------------------------------------------------------------------
    def _post(self, **fields) -> None:
        self._seq += 1
        view = LiveView(seq=self._seq, source=self.name, **fields)
        with self._lock:
            self._latest = view
            watch = fields.get("watch")
            if fields["state"] == LIVE and watch is not None and watch.events:
                self.events = (self.events + [(watch.index, e) for e in watch.events])[-EVENT_LOG:]
        self._on_view()

    def _run(self) -> None:
        self._post(state=OPENING, picture=None, scale=1.0, watch=None)
        try:
            source = self._open_source()
        except SourceError as exc:
            self._post(state=CANNOT_OPEN, picture=None, scale=1.0, watch=None, error=exc)
            return
        self.source = source
        self.name = self.name or source.name
        try:
            self._follow(source)
        finally:
            source.close()

    def _follow(self, source: FrameSource) -> None:
        started = last_frame = self._clock()
        frames, times, said = 0, [], ""
        shown = dict(picture=None, scale=1.0, watch=None, scene=None)   # the last frame's, kept in every state
        last = None
        while not self._stop.is_set():
            frame = source.read()
            now = self._clock()
            if frame is None:
                state = ENDED if source.finished else (LOST if now - last_frame > LOST_AFTER_S else "")
                redraw = said and last is not None and self.drawing and self.scene is not shown["scene"]
                if redraw:      # the last picture follows the table's selection while no frame comes
                    scene = self.scene
                    picture, scale = render(last, shown["watch"], scene, self.max_size)
                    shown = dict(picture=picture, scale=scale, watch=shown["watch"], scene=scene)
                if state and (state != said or redraw):
                    self._post(state=state, **shown)
                    said = state
                self._stop.wait(0.05 if source.finished else 0.005)
                continue
            if source.fps:                      # a file plays in real time, every frame read
                due = started + frames / source.fps
                if due > now:
                    self._stop.wait(due - now)
            last_frame, said = self._clock(), ""
            if self._recalibrate:
                self._recalibrate = False
                self.watcher.recalibrate()
            t0 = time.perf_counter()
            watch = self.watcher.update(frame)
            last, scene = frame, self.scene
            picture, scale = render(frame, watch, scene, self.max_size) if self.drawing else (None, 1.0)
            shown = dict(picture=picture, scale=scale, watch=watch, scene=scene if self.drawing else None)
            work = (time.perf_counter() - t0) * 1000
            frames += 1
            times = (times + [self._clock()])[-30:]
            fps = (len(times) - 1) / (times[-1] - times[0]) if len(times) >= FPS_FRAMES and times[-1] > times[0] \
                else 0.0
            self._post(state=LIVE, fps=fps, work_ms=work, **shown)
