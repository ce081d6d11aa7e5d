"""`CameraWatcher`: one camera frame in, what the camera knows of the board out (`WatchFrame`).

The one pipeline behind `tactical watch` and the app's Camera screen. Each frame goes through
named stages, as in chesscog's recogniser:

1. **re-check** — the still-camera fast path (`RegistrationTracker`): a few printed markers are
   where they were (≈ 1 ms);
2. **re-register** — only when the re-check fails: the markers are found again. The same pose
   (a hand over some markers) keeps everything; a new pose (the board or the camera moved) is
   followed by the overlays at once and read in full once it holds still for a second frame;
3. **read** — tokens only where the picture changed (`StillCameraReader`), the first time and
   after a move with a full `vision.scan` (squares to confirm, squares a hand hides);
4. **track** — stable positions and events (`TokenTracker`): a hand is no event, a token under a
   hand keeps its square.

Frames come from `calibration.sources`; nothing here knows about files, cameras or Kivy.
"""
from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

import numpy as np

from boards import XY, Board
from calibration.config import DEFAULT_CONFIG, VisionConfig
from calibration.mapping import GridMapping
from calibration.problems import Problem
from calibration.registration import RegistrationTracker, register_board
from vision.scanner import SCAN_PROBLEMS, ScanResult, grid_size_problem, scan
from vision.tokens import TokenObservation, squares_too_small
from vision.tracking import StillCameraReader, Token, TokenTracker, TrackEvent


@dataclass(frozen=True)
class WatchTimings:
    """Milliseconds spent in each stage of one frame."""

    recheck: float = 0.0
    register: float = 0.0
    read: float = 0.0
    track: float = 0.0

    @property
    def total(self) -> float:
        return self.recheck + self.register + self.read + self.track


# What happened to the registration in a frame.
SEARCHING = "searching"      # no board yet (or not since it was lost)
KEPT = "kept"                # the fast re-check agreed, or a re-registration found the same pose
REGISTERED = "registered"    # registered and read in full in this frame (first time, or after a move)
MOVING = "moving"            # the board or the camera is moving: followed, not read
HIDDEN = "hidden"            # the re-check failed and the markers cannot be found (a hand, a dropped frame)


@dataclass(frozen=True)
class WatchFrame:
    """What the watcher knows after one frame. Grid coordinates are (column, row); the mapping
    takes grid units to this frame's pixels through the lens (architecture.md), None while the
    board is not found."""

    index: int
    registration: str                          # SEARCHING, KEPT, REGISTERED, MOVING or HIDDEN
    mapping: GridMapping | None                # grid units ↔ this frame's pixels (homography and lens)
    observations: tuple[TokenObservation, ...]  # tokens read (or kept from an earlier read) in this frame
    covered: frozenset[XY]                     # squares hidden by a hand: not read, tokens there kept
    positions: Mapping[Token, XY]              # the tracker's stable positions
    events: tuple[TrackEvent, ...]             # what happened in this frame
    doubtful: frozenset[XY]                    # squares whose printed colour the table should confirm
    too_small: frozenset[XY]                   # squares where tokens are too small to read reliably
    timings: WatchTimings
    size: tuple[int, int]                      # the frame's (width, height) in pixels
    grid: tuple[int, int]                      # the board's (width, height) in squares
    error: str = ""                            # why the board is not found or not read, when it is not

    @property
    def found(self) -> bool:
        """The board's place in this frame is known (overlays can be drawn); while its markers are
        HIDDEN, the last pose stands in."""
        return self.mapping is not None

    @property
    def homography(self) -> np.ndarray | None:
        """The plain 3×3 fit, grid units → pixels (the scan JSON's), without the lens."""
        return None if self.mapping is None else self.mapping.homography

    @property
    def lens(self):
        """The lens model the mapping goes through (`calibration.mapping.RadialLens`), or None."""
        return None if self.mapping is None else self.mapping.lens

    @property
    def read(self) -> bool:
        """Tokens were read in this frame (not while the board moves or is hidden)."""
        return self.registration in (KEPT, REGISTERED)

    def to_image(self, points_grid) -> np.ndarray:
        """Grid points (N×2, grid units) to this frame's pixels, through the lens."""
        return self.mapping.to_image(np.asarray(points_grid, np.float64).reshape(-1, 2))

    def to_grid(self, points_px) -> np.ndarray:
        """Pixels of this frame (N×2) to grid units."""
        return self.mapping.to_grid(np.asarray(points_px, np.float64).reshape(-1, 2))

    def square_at(self, pixel: tuple[float, float]) -> XY | None:
        """The square under a pixel of this frame, None off the grid or when the board is not found."""
        if not self.found:
            return None
        gx, gy = self.to_grid([pixel])[0]
        width, height = self.grid
        x, y = int(np.floor(gx)), int(np.floor(gy))
        return (x, y) if 0 <= x < width and 0 <= y < height else None


@dataclass
class _Pose:
    """The registration being read from, and its fast re-check."""

    mapping: GridMapping
    check: RegistrationTracker | None          # None for a board found by its grid lines (no markers)
    corners: np.ndarray                        # the grid's four corners in pixels, to compare poses


class CameraWatcher:
    """Follows one board through a camera's frames (see module docstring). Not thread-safe: one
    thread feeds it (the app's camera worker, or the command line)."""

    def __init__(self, board: Board, config: VisionConfig = DEFAULT_CONFIG):
        """`config`: every stage's settings (the vision YAML, `VisionConfig.load`); the watcher's
        own are its `tracking` section. A board larger than any the companion reads is refused
        (ValueError) before a frame is sized from it."""
        too_large = grid_size_problem(board.width, board.height)
        if too_large is not None:
            raise ValueError(str(too_large))
        self.board = board
        self.config = config
        tracking = config.tracking
        self.tracker = TokenTracker(confirm_frames=tracking.confirm_frames, vanish_frames=tracking.vanish_frames)
        self._pose: _Pose | None = None
        self._candidate: _Pose | None = None       # a new pose seen once, read when seen again
        self._reader: StillCameraReader | None = None
        self._doubtful: frozenset[XY] = frozenset()
        self._too_small: frozenset[XY] = frozenset()
        self._index = -1
        self._force = False
        self._error = ""

    def recalibrate(self) -> None:
        """Register and read everything again on the next frame (the table asked for it)."""
        self._force = True

    def update(self, frame: np.ndarray) -> WatchFrame:
        """One frame through the stages: re-check, re-register, read, track."""
        self._index += 1
        t0 = time.perf_counter()
        fine = self._pose is not None and not self._force and self._still_valid(frame)
        t1 = time.perf_counter()
        registration, scanned = (KEPT, None) if fine else self._register(frame)
        t2 = time.perf_counter()
        reading = None
        if registration in (KEPT, REGISTERED):
            reading = self._reader.start(frame, scanned.tokens, _hidden_by_hands(scanned)) if scanned \
                else self._reader.read(frame)
            if reading.full_read and not scanned and self._pose.check is None:
                # a board found by its grid lines has no markers to re-check: the look of most of its
                # squares changing at once is the board or the camera moved (or the light): found again
                self._force = True
                registration, scanned = self._register(frame)
                reading = self._reader.start(frame, scanned.tokens, _hidden_by_hands(scanned)) if scanned else None
                self._force = scanned is None        # not found now (a hand?): tried again next frame
        t3 = time.perf_counter()
        events = self.tracker.update(reading.observations, reading.covered, sure=scanned is not None) \
            if reading else []
        t4 = time.perf_counter()
        pose = self._candidate if registration == MOVING else self._pose
        return WatchFrame(
            index=self._index, registration=registration,
            mapping=pose.mapping if pose is not None else None,
            observations=tuple(reading.observations) if reading else (),
            covered=reading.covered if reading else frozenset(),
            positions=MappingProxyType(dict(self.tracker.positions)), events=tuple(events),
            doubtful=self._doubtful, too_small=self._too_small,
            timings=WatchTimings((t1 - t0) * 1000, (t2 - t1) * 1000, (t3 - t2) * 1000, (t4 - t3) * 1000),
            size=(frame.shape[1], frame.shape[0]), grid=(self.board.width, self.board.height),
            error=self._error if registration in (SEARCHING, HIDDEN) else "")

    # -- stages -----------------------------------------------------------------------------
    def _still_valid(self, frame: np.ndarray) -> bool:
        """The fast path: the tracked markers are where they were. A board found by its grid
        lines has no markers to re-check: the reader's whole-board change test stands in (a
        change over most of the grid registers it again, see `update`)."""
        check = self._pose.check
        return check is None or check.still_valid(frame)

    def _register(self, frame: np.ndarray) -> tuple[str, ScanResult | None]:
        """Find the board again; read it in full when its pose is new and holds still."""
        force, self._force = self._force, False
        found = self._find(frame)
        if found is None:
            self._candidate = None
            return (HIDDEN if self._pose is not None else SEARCHING), None
        pose, result = found
        if self._pose is not None and not force and self._same(pose, self._pose):
            self._pose = pose                   # a hand was over some markers: same pose, new re-check
            return KEPT, None
        settled = force or self._pose is None or (self._candidate is not None and self._same(pose, self._candidate))
        if not settled:
            self._candidate = pose               # moving: followed by the overlays, read once still
            return MOVING, None
        return REGISTERED, self._adopt(frame, pose, result)

    def _find(self, frame: np.ndarray) -> tuple[_Pose, ScanResult | None] | None:
        """The board's pose in this frame: by its printed markers, else (a board of another maker)
        by its grid lines through `vision.scan`, whose reading then serves as the full read."""
        config = self.config
        registration = register_board(frame, self.board.width, self.board.height, config=config.registration)
        if registration is not None:
            self._error = ""
            return self._pose_of(registration.mapping, RegistrationTracker(registration, config.registration)), None
        if self._pose is not None and self._pose.check is not None:
            self._error = Problem(SCAN_PROBLEMS, "camera.vision", "markers_hidden")
            return None                          # our board, its markers hidden: no grid-line search
        result = scan(frame, board=self.board, config=config)
        if not result.found:
            self._error = result.error or Problem(SCAN_PROBLEMS, "camera.vision", "nothing_in_view")
            return None
        self._error = ""
        return self._pose_of(result.mapping, None), result

    def _pose_of(self, mapping: GridMapping, check: RegistrationTracker | None) -> _Pose:
        w, h = self.board.width, self.board.height
        return _Pose(mapping, check, mapping.to_image(np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64)))

    def _same(self, a: _Pose, b: _Pose) -> bool:
        return float(np.linalg.norm(a.corners - b.corners, axis=1).max()) <= self.config.tracking.same_pose_px

    def _adopt(self, frame: np.ndarray, pose: _Pose, result: ScanResult | None) -> ScanResult:
        """Read the board in full at its new pose: tokens, squares to confirm (kept in grid
        coordinates, so they stay true when the board moves), squares a hand hides."""
        if result is None:
            result = scan(frame, board=self.board, config=self.config, mapping=pose.mapping)
        self._pose, self._candidate = pose, None
        self._reader = StillCameraReader(pose.mapping, self.board.width, self.board.height,
                                         config=self.config.tracking, token_config=self.config.tokens)
        self._doubtful = frozenset((s.x, s.y) for s in result.squares if s.uncertain and not s.covered)
        self._too_small = frozenset(squares_too_small(pose.mapping, self.board.width, self.board.height,
                                                      self.config.tokens))
        return result


def _hidden_by_hands(result: ScanResult) -> frozenset[XY]:
    """Squares the scan saw covered where no token was read: a hand or an object over them."""
    tokens = {(t.x, t.y) for t in result.tokens}
    return frozenset((s.x, s.y) for s in result.squares if s.covered and (s.x, s.y) not in tokens)
