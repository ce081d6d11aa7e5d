"""Following tokens over a video from a still, calibrated camera.

Two parts:

* `StillCameraReader` turns frames into observations cheaply. It keeps a small rectified view of
  the grid (a few pixels per square) and re-reads tokens only on squares whose look changed since
  they were last read. Changed squares that form a large patch (a hand and its arm) are reported as
  *covered* and not read until the patch goes away; small still patches (a token put down or
  lifted) are re-read at once. A change over most of the board means the camera or the light moved:
  everything is read again.
* `TokenTracker` turns observations into events people understand ("rouge 7 : C3 → F3"). A token
  must be seen on a new square for a few frames before it counts as moved (smoothing); a token
  whose square is covered keeps its last position; one not seen on an uncovered square for several
  frames has left the board.
"""
from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass, field

import cv2
import numpy as np

from boards import square_label
from boards.tokens import player_name
from vision.tokens import TokenConfig, TokenObservation, detect_tokens, read_tokens_in

Token = tuple[int, int]            # (player, number)
SquareXY = tuple[int, int]

_MESSAGES = {
    "moved": {"en": "{token} moved {frm} → {to}", "fr": "{token} : {frm} → {to}"},
    "left": {"en": "{token} left the board", "fr": "{token} a quitté le plateau"},
    "new": {"en": "a new token {token} on {to}", "fr": "nouveau jeton {token} en {to}"},
    "shared": {"en": "two tokens on one square: {token} and {other} on {to}",
               "fr": "deux jetons sur une case : {token} et {other} en {to}"},
}


_TOO_SMALL = {
    "en": "tokens on {count} ({rows}) are too small in the image to be read reliably: "
          "bring the camera closer or use a higher resolution",
    "fr": "les jetons de {count} ({rows}) sont trop petits dans l'image pour être lus sûrement : "
          "rapprochez la caméra ou augmentez la résolution",
}


def too_small_advice(squares: Collection[SquareXY], lang: str = "en") -> str:
    """What to tell the table when tokens on some squares are too small to read well
    (`vision.tokens.squares_too_small`); empty when every square is fine."""
    if not squares:
        return ""
    lang = lang if lang in _TOO_SMALL else "en"
    rows = sorted({y + 1 for _, y in squares})
    one, many = {"fr": (("case", "cases"), ("rangée", "rangées")),
                 "en": (("square", "squares"), ("row", "rows"))}[lang]
    count = f"{len(squares)} {one[0] if len(squares) == 1 else one[1]}"
    word = many[0] if len(rows) == 1 else many[1]
    spans, start = [], rows[0]
    for prev, row in zip(rows, rows[1:] + [None]):
        if row != prev + 1:
            spans.append(f"{start}" if start == prev else f"{start}–{prev}")
            start = row
    return _TOO_SMALL[lang].format(count=count, rows=f"{word} {', '.join(spans)}")


def token_name(token: Token, lang: str = "en") -> str:
    """'red 7' / 'rouge 7': the player's colour name and the number."""
    return f"{player_name(token[0], lang)} {token[1]}"


@dataclass(frozen=True)
class TrackEvent:
    """Something that happened on the board: a token moved, arrived, left, or shares a square."""

    kind: str                          # "moved" | "new" | "left" | "shared"
    token: Token
    frm: SquareXY | None = None
    to: SquareXY | None = None
    other: Token | None = None         # the second token, for "shared"

    def text(self, lang: str = "en") -> str:
        """The event as a sentence in French ('fr') or English ('en')."""
        lang = lang if lang in ("fr", "en") else "en"
        return _MESSAGES[self.kind][lang].format(
            token=token_name(self.token, lang),
            other=token_name(self.other, lang) if self.other else "",
            frm=square_label(self.frm) if self.frm else "",
            to=square_label(self.to) if self.to else "",
        )


@dataclass
class TokenTracker:
    """Stable token positions and events from per-frame observations.

    confirm_frames: frames a token must be seen on a new square before it counts (a token carried
    over the board by a hand is seen briefly on squares it only passes over).
    vanish_frames: frames a token may go unseen on an uncovered square before it has left.
    """

    confirm_frames: int = 2
    vanish_frames: int = 8
    positions: dict[Token, SquareXY] = field(default_factory=dict)
    _pending: dict[Token, tuple[SquareXY, int]] = field(default_factory=dict)
    _missing: dict[Token, int] = field(default_factory=dict)
    _shared: set[frozenset[Token]] = field(default_factory=set)

    def update(self, observations: Iterable[TokenObservation], covered: Collection[SquareXY] = ()
               ) -> list[TrackEvent]:
        """Take one frame's observations (and the squares hidden in it); return the new events."""
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
            if count < self.confirm_frames:
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
        by_square: dict[SquareXY, list[Token]] = {}
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
    covered: frozenset[SquareXY]        # squares hidden by a large change (a hand): not read
    reread: frozenset[SquareXY]         # squares read again in this frame
    full_read: bool                     # the whole grid was read (first frame, or camera/light moved)


class StillCameraReader:
    """Cheap per-frame token reading for a camera that does not move (see module docstring)."""

    def __init__(self, homography, width: int, height: int, *, px_per_square: int = 12,
                 change_level: float = 14.0, hand_squares: int = 4, global_change: float = 0.6,
                 config: TokenConfig | None = None):
        self.h = np.asarray(homography, np.float64).reshape(3, 3)
        self.width, self.height, self.px = width, height, px_per_square
        self.change_level, self.hand_squares, self.global_change = change_level, hand_squares, global_change
        self.config = config or TokenConfig()
        scale = np.diag([1.0 / px_per_square, 1.0 / px_per_square, 1.0])
        self._small_to_image = self.h @ scale
        self._reference: np.ndarray | None = None   # per-square look when last read
        self._previous: np.ndarray | None = None
        self._readings: dict[SquareXY, TokenObservation] = {}

    def _small_view(self, image: np.ndarray) -> np.ndarray:
        return cv2.warpPerspective(image, self._small_to_image, (self.width * self.px, self.height * self.px),
                                   flags=cv2.WARP_INVERSE_MAP | cv2.INTER_LINEAR)

    def _square_change(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Mean absolute difference per square (area resize = block mean), averaged over channels."""
        per_square = cv2.resize(cv2.absdiff(a, b), (self.width, self.height), interpolation=cv2.INTER_AREA)
        return per_square.mean(axis=2)

    def read(self, image: np.ndarray) -> FrameReading:
        small = self._small_view(image)
        if self._reference is None:
            return self._full_read(image, small)
        dirty = self._square_change(small, self._reference) > self.change_level
        if dirty.mean() > self.global_change:
            return self._full_read(image, small)
        moving = self._square_change(small, self._previous) > self.change_level
        self._previous = small
        covered: set[SquareXY] = set()
        to_read: list[np.ndarray] = []
        count, labels, stats, _ = cv2.connectedComponentsWithStats(dirty.astype(np.uint8), connectivity=8)
        for label in range(1, count):
            blob = labels == label
            if stats[label, cv2.CC_STAT_AREA] >= self.hand_squares or (blob & moving).any():
                ys, xs = np.nonzero(blob)
                covered.update(zip(xs.tolist(), ys.tolist()))
            else:
                to_read.append(blob)
        reread: set[SquareXY] = set()
        for blob in to_read:
            ys, xs = np.nonzero(blob)
            rect = (int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1)
            found = {o.square: o for o in read_tokens_in(image, self.h, self.width, self.height, rect,
                                                         config=self.config)}
            for sq in zip(xs.tolist(), ys.tolist()):
                reread.add(sq)
                self._readings.pop(sq, None)
                if sq in found:
                    self._readings[sq] = found[sq]
                y0, x0 = sq[1] * self.px, sq[0] * self.px
                self._reference[y0:y0 + self.px, x0:x0 + self.px] = small[y0:y0 + self.px, x0:x0 + self.px]
        return FrameReading(list(self._readings.values()), frozenset(covered), frozenset(reread), False)

    def _full_read(self, image: np.ndarray, small: np.ndarray) -> FrameReading:
        observations = detect_tokens(image, self.h, self.width, self.height, config=self.config)
        self._readings = {o.square: o for o in observations}
        self._reference = small.copy()
        self._previous = small
        everything = frozenset((x, y) for y in range(self.height) for x in range(self.width))
        return FrameReading(observations, frozenset(), everything, True)


def follow(frames: Iterable[np.ndarray], homography, width: int, height: int, *,
           tracker: TokenTracker | None = None) -> Iterable[tuple[int, list[TrackEvent], TokenTracker]]:
    """Frame index, new events and the tracker, for each frame of a still camera's stream."""
    reader = StillCameraReader(homography, width, height)
    tracker = tracker or TokenTracker()
    for index, frame in enumerate(frames):
        reading = reader.read(frame)
        yield index, tracker.update(reading.observations, reading.covered), tracker
