"""Following tokens over a video from a still, calibrated camera.

Two parts:

* `StillCameraReader` turns frames into observations cheaply. It keeps a small rectified view of
  the grid (a few pixels per square) and re-reads tokens only on squares whose look changed since
  they were last read. Changed squares still changing from one frame to the next, or forming a large
  patch (a hand and its arm) that has not settled yet, are reported as *covered* and not read; small
  still patches (a token put down or lifted) are re-read at once. A change over most of the board
  means the light moved: everything is read again. (A camera or board that moved is the watcher's
  business: `vision.watch` registers again and starts a new reader.)
* `TokenTracker` turns observations into events ("orange 7: C3 → F3" once worded). A token
  must be seen on a new square for a few frames before it counts as moved (smoothing); a token
  whose square is covered keeps its last position; one not seen for several frames while no hand is
  over the board has left it.
"""
from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass, field

import cv2
import numpy as np

from boards import XY, Token
from calibration.config import TrackingConfig
from calibration.mapping import GridMapping
from vision.tokens import TokenConfig, TokenObservation, detect_tokens, read_tokens_in


@dataclass(frozen=True)
class TrackEvent:
    """Something that happened on the board: a token moved, arrived, left, or shares a square.
    Worded for people by `companion.camera_words` (French and English)."""

    kind: str                          # "moved" | "new" | "left" | "shared"
    token: Token
    frm: XY | None = None
    to: XY | None = None
    other: Token | None = None         # the second token, for "shared"


@dataclass
class TokenTracker:
    """Stable token positions and events from per-frame observations.

    confirm_frames: frames a token must be seen on a new square before it counts (a token carried
    over the board by a hand is seen briefly on squares it only passes over).
    vanish_frames: frames a token may go unseen on an uncovered square, with no hand over the board
    (a hand may be carrying it), before it has left.
    """

    confirm_frames: int = 2
    vanish_frames: int = 8
    positions: dict[Token, XY] = field(default_factory=dict)
    _pending: dict[Token, tuple[XY, int]] = field(default_factory=dict)
    _missing: dict[Token, int] = field(default_factory=dict)
    _shared: set[frozenset[Token]] = field(default_factory=set)

    def update(self, observations: Iterable[TokenObservation], covered: Collection[XY] = (), *,
               sure: bool = False) -> list[TrackEvent]:
        """Take one frame's observations (and the squares hidden in it); return the new events.
        `sure`: a full reading of a still board (the watcher's registration scan), taken at once."""
        covered = set(covered)
        seen: dict[Token, TokenObservation] = {}
        for obs in observations:
            if obs.token not in seen or obs.confidence > seen[obs.token].confidence:
                seen[obs.token] = obs
        events: list[TrackEvent] = []
        for token, obs in seen.items():
            self._missing.pop(token, None)
            if self.positions.get(token) == obs.square:
                self._pending.pop(token, None)
                continue
            square, count = self._pending.get(token, (obs.square, 0))
            count = count + 1 if square == obs.square else 1
            if count < self.confirm_frames and not sure:
                self._pending[token] = (obs.square, count)
                continue
            self._pending.pop(token, None)
            previous = self.positions.get(token)
            self.positions[token] = obs.square
            events.append(TrackEvent("moved", token, previous, obs.square) if previous
                          else TrackEvent("new", token, None, obs.square))
        for token, square in list(self.positions.items()):
            if token in seen or square in covered:
                continue  # seen, or hidden by a hand: keeps its last position
            if covered:
                continue  # a hand is over the board: the token may be in it, carried to a new square
            self._missing[token] = self._missing.get(token, 0) + 1
            if self._missing[token] >= self.vanish_frames:
                del self.positions[token]
                self._missing.pop(token)
                self._pending.pop(token, None)
                events.append(TrackEvent("left", token, square, None))
        events += self._shared_squares()
        return events

    def _shared_squares(self) -> list[TrackEvent]:
        """One event when two tokens come to stand on one square (reported again only after they part)."""
        by_square: dict[XY, list[Token]] = {}
        for token, square in self.positions.items():
            by_square.setdefault(square, []).append(token)
        current = {frozenset(tokens) for tokens in by_square.values() if len(tokens) > 1}
        events = []
        for group in current - self._shared:
            first, second = sorted(group)[:2]
            events.append(TrackEvent("shared", first, None, self.positions[first], second))
        self._shared = current
        return events


@dataclass(frozen=True)
class FrameReading:
    """What `StillCameraReader.read` knows after one frame."""

    observations: list[TokenObservation]
    covered: frozenset[XY]              # squares hidden by a large change (a hand): not read
    reread: frozenset[XY]               # squares read again in this frame
    full_read: bool                     # the whole grid was read (first frame, or camera/light moved)


class StillCameraReader:
    """Cheap per-frame token reading for a camera that does not move (see module docstring)."""

    def __init__(self, mapping, width: int, height: int, *, config: TrackingConfig | None = None,
                 token_config: TokenConfig | None = None):
        """`mapping`: grid units ↔ pixels (a `calibration.mapping.GridMapping`, lens and all, or a
        plain 3×3 homography)."""
        self.mapping = GridMapping.coerce(mapping)
        self.width, self.height = width, height
        self.config = config or TrackingConfig()
        self.token_config = token_config or TokenConfig()
        self.px = self.config.px_per_square
        self._small_to_grid = np.diag([1.0 / self.px, 1.0 / self.px, 1.0])
        self._reference: np.ndarray | None = None   # per-square look when last read
        self._previous: np.ndarray | None = None
        self._still = np.zeros((height, width), np.int32)   # frames since each square last changed
        self._hidden: set[XY] = set()                       # hidden when last read: not known yet
        self._readings: dict[XY, TokenObservation] = {}

    def _small_view(self, image: np.ndarray) -> np.ndarray:
        return self.mapping.warp(image, self._small_to_grid, (self.width * self.px, self.height * self.px))

    def _square_change(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Mean absolute difference per square (area resize = block mean), averaged over channels."""
        per_square = cv2.resize(cv2.absdiff(a, b), (self.width, self.height), interpolation=cv2.INTER_AREA)
        return per_square.mean(axis=2)

    def start(self, image: np.ndarray, observations: Iterable[TokenObservation],
              hidden: Collection[XY] = ()) -> FrameReading:
        """Begin from a full reading made elsewhere (the watcher's registration scan): its tokens,
        and the squares a hand hid in it, which stay covered until they change and settle."""
        small = self._small_view(image)
        observations = list(observations)
        self._readings = {o.square: o for o in observations}
        self._reference, self._previous = small.copy(), small
        self._still[:] = 0
        self._hidden = set(hidden)
        everything = frozenset((x, y) for y in range(self.height) for x in range(self.width))
        return FrameReading(observations, frozenset(self._hidden), everything, True)

    def read(self, image: np.ndarray) -> FrameReading:
        small = self._small_view(image)
        if self._reference is None:
            return self._full_read(image)
        config = self.config
        dirty = self._square_change(small, self._reference) > config.change_level
        if dirty.mean() > config.global_change:
            return self._full_read(image)
        moving = self._square_change(small, self._previous) > config.change_level
        self._previous = small
        self._still = np.where(moving, 0, self._still + 1)
        covered: set[XY] = set()
        to_read: list[np.ndarray] = []
        count, labels, stats, _ = cv2.connectedComponentsWithStats(dirty.astype(np.uint8), connectivity=8)
        for label in range(1, count):
            blob = labels == label
            still_changing = bool((blob & moving).any())
            unsettled = stats[label, cv2.CC_STAT_AREA] >= config.hand_squares and \
                int(self._still[blob].min()) < config.settle_frames
            if still_changing or unsettled:
                ys, xs = np.nonzero(blob)
                covered.update(zip(xs.tolist(), ys.tolist()))
            else:
                to_read.append(blob)
        reread: set[XY] = set()
        for blob in to_read:
            reread |= self._reread(image, small, blob)
        self._hidden -= reread
        covered |= self._hidden
        return FrameReading(list(self._readings.values()), frozenset(covered), frozenset(reread), False)

    def _reread(self, image: np.ndarray, small: np.ndarray, blob: np.ndarray) -> set[XY]:
        """Read the tokens of one changed patch again; its look becomes the new reference."""
        ys, xs = np.nonzero(blob)
        rect = (int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1)
        found = {o.square: o for o in read_tokens_in(image, self.mapping, self.width, self.height, rect,
                                                     config=self.token_config)}
        squares = set(zip(xs.tolist(), ys.tolist()))
        for sq in squares:
            self._readings.pop(sq, None)
            if sq in found:
                self._readings[sq] = found[sq]
            y0, x0 = sq[1] * self.px, sq[0] * self.px
            self._reference[y0:y0 + self.px, x0:x0 + self.px] = small[y0:y0 + self.px, x0:x0 + self.px]
        return squares

    def _full_read(self, image: np.ndarray) -> FrameReading:
        return self.start(image, detect_tokens(image, self.mapping, self.width, self.height,
                                               config=self.token_config))
