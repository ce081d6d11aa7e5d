"""Synthetic token photos and videos with truth, for tests, benchmarks and the demo.

A still camera looks at a board; tokens move between frames and hands pass over. Every frame
comes with the truth: where each token really is, and which pixels a hand covers.

The scene is drawn here from the board model (flat squares, grid lines, tokens from
`boards.tokens.render_token`) and seen through a pinhole camera with tilt, uneven light,
a colour cast, blur and sensor noise. It needs no other part of the project, so tests of token
reading do not depend on the printing or the calibration code being finished.
"""
from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field

import cv2
import numpy as np

from boards import Board
from boards.markers import ARUCO_DICTIONARY, MARGIN, MARKER_SIZE, board_markers
from boards.palette import INK_BGR, OBSTACLE_BGR, PAPER_BGR, SQUARE_BGR
from boards.tokens import TOKEN_DIAMETER_MM, render_token
from vision.synth import camera_warp

SQUARE_MM = 20.0
TOKEN_FRACTION = TOKEN_DIAMETER_MM / SQUARE_MM   # token diameter in squares

# A token placed on the grid: (player, number, x, y) with x, y the token centre in grid units
# (square (3, 4) has its centre at (3.5, 4.5)), plus its rotation in degrees.
@dataclass(frozen=True)
class PlacedToken:
    player: int
    number: int
    x: float
    y: float
    angle: float = 0.0

    @property
    def square(self) -> tuple[int, int]:
        return int(math.floor(self.x)), int(math.floor(self.y))


@dataclass(frozen=True)
class Camera:
    """A still camera: image size and the homography grid units → image pixels."""

    size: tuple[int, int]          # (width, height) in pixels
    homography: np.ndarray         # 3×3, grid units → pixels


@dataclass(frozen=True)
class Look:
    """Photometric conditions of a shot (light, colour cast, blur, noise)."""

    gains: tuple[float, float, float] = (1.0, 1.0, 1.0)
    light_low: float = 1.0        # darkest corner of the illumination gradient, relative
    light_angle: float = 0.0
    blur_sigma: float = 0.0
    noise_sigma: float = 0.0


@dataclass(frozen=True)
class Hand:
    """A hand and forearm over the board, in image pixels: a palm ellipse and an arm to an edge."""

    centre: tuple[float, float]
    radius: float
    edge_point: tuple[float, float]   # where the arm leaves the frame


@dataclass
class Frame:
    image: np.ndarray
    tokens: list[PlacedToken]            # truth: every token on the table (on or off the grid)
    hand_mask: np.ndarray | None = None  # uint8 mask of pixels covered by hands, None when no hand
    hands: list[Hand] = field(default_factory=list)


def random_camera(board: Board, size: tuple[int, int], rng: np.random.Generator, *,
                  max_tilt_deg: float = 45.0, fill: float = 0.97, frame_margin: float = MARGIN - 0.3) -> Camera:
    """A pinhole camera looking at the board with a tilt up to `max_tilt_deg`, small yaw and roll,
    framing the grid plus `frame_margin` squares (the printed markers stay in view) to about `fill`
    of the image: a 20×12 grid at 1080p then gets ≈65 px per square seen from above."""
    w_img, h_img = size
    tilt = math.radians(rng.uniform(0, max_tilt_deg))
    yaw = math.radians(rng.uniform(-8, 8))
    roll = math.radians(rng.uniform(-4, 4))
    m = frame_margin
    bw, bh = board.width + 2 * m, board.height + 2 * m
    pts = np.array([[-m, -m, 0], [board.width + m, -m, 0],
                    [board.width + m, board.height + m, 0], [-m, board.height + m, 0]], float)
    pts[:, 0] -= board.width / 2
    pts[:, 1] -= board.height / 2
    rx = np.array([[1, 0, 0], [0, math.cos(tilt), -math.sin(tilt)], [0, math.sin(tilt), math.cos(tilt)]])
    rz = np.array([[math.cos(yaw), -math.sin(yaw), 0], [math.sin(yaw), math.cos(yaw), 0], [0, 0, 1]])
    rot = rx @ rz
    dist = 1.8 * max(bw, bh)
    cam = pts @ rot.T + np.array([0, 0, dist])
    proj = cam[:, :2] / cam[:, 2:3]
    proj = proj @ np.array([[math.cos(roll), -math.sin(roll)], [math.sin(roll), math.cos(roll)]]).T
    span = proj.max(axis=0) - proj.min(axis=0)
    scale = fill * min(w_img / span[0], h_img / span[1])
    proj = (proj - (proj.max(axis=0) + proj.min(axis=0)) / 2) * scale
    proj += np.array([w_img / 2, h_img / 2]) + rng.uniform(-0.04, 0.04, 2) * np.array([w_img, h_img])
    src = pts[:, :2].astype(np.float32) + np.array([board.width / 2, board.height / 2], np.float32)
    return Camera(size, cv2.getPerspectiveTransform(src, proj.astype(np.float32)))


def nudged(camera: Camera, board: Board, dx: float, dy: float, degrees: float = 0.0) -> Camera:
    """The same camera after the board slid by (dx, dy) squares on the table and turned by
    `degrees` about its centre (someone bumped it): the board's new homography."""
    c, s = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
    cx, cy = board.width / 2, board.height / 2
    # a board point p lands on the table at R (p - centre) + centre + (dx, dy)
    moved = np.array([[c, -s, cx + dx - (c * cx - s * cy)], [s, c, cy + dy - (s * cx + c * cy)], [0, 0, 1]])
    return Camera(camera.size, camera.homography @ moved)


def random_look(rng: np.random.Generator, *, hard: bool = True) -> Look:
    """Indoor light: warm/cool casts, a gradient across the table, a little blur and noise."""
    if not hard:
        return Look(noise_sigma=1.5)
    return Look(gains=tuple(rng.uniform(0.82, 1.08, 3)), light_low=rng.uniform(0.6, 0.95),
                light_angle=rng.uniform(0, 2 * math.pi), blur_sigma=rng.uniform(0.0, 1.2),
                noise_sigma=rng.uniform(1.0, 4.0))


def flat_board(board: Board, px: int) -> np.ndarray:
    """The board seen from above at `px` pixels per square, with its printed paper margin and markers.

    Multicolour squares are drawn as vertical stripes; obstacles grey with a dark hatch.
    """
    margin = int(round(MARGIN * px))
    img = np.full((board.height * px + 2 * margin, board.width * px + 2 * margin, 3), PAPER_BGR, np.uint8)
    for (x, y) in board.positions():
        sq = board.square(x, y)
        x0, y0 = margin + x * px, margin + y * px
        colours = [c for c in "WUBRG" if c in sq.colours]
        if not colours:
            img[y0:y0 + px, x0:x0 + px] = OBSTACLE_BGR
        else:
            edges = np.linspace(0, px, len(colours) + 1).astype(int)
            for c, a, b in zip(colours, edges[:-1], edges[1:]):
                img[y0:y0 + px, x0 + a:x0 + b] = SQUARE_BGR[c]
        if sq.obstacle:
            tile = img[y0:y0 + px, x0:x0 + px].copy()
            for k in range(-px, px, max(4, px // 6)):
                cv2.line(tile, (k, px), (k + px, 0), (90, 90, 90), max(1, px // 30))
            img[y0:y0 + px, x0:x0 + px] = tile
    _draw_board_markers(img, board, px, margin)
    line = max(1, px // 40)
    for x in range(board.width + 1):
        cv2.line(img, (margin + x * px, margin), (margin + x * px, margin + board.height * px), INK_BGR, line)
    for y in range(board.height + 1):
        cv2.line(img, (margin, margin + y * px), (margin + board.width * px, margin + y * px), INK_BGR, line)
    return img


def _draw_board_markers(img: np.ndarray, board: Board, px: int, margin: int) -> None:
    """The fiducial markers of `boards.markers`, so that calibration can register our frames."""
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, ARUCO_DICTIONARY))
    for marker in board_markers(board.width, board.height):
        x0, y0 = np.rint(marker.corners[0] * px + margin).astype(int)
        side = int(round(MARKER_SIZE * px))
        img[y0:y0 + side, x0:x0 + side] = cv2.aruco.generateImageMarker(dictionary, marker.id, side)[..., None]


def _paste_token(img: np.ndarray, token: PlacedToken, px: int, margin: int) -> None:
    diameter = int(round(TOKEN_FRACTION * px))
    rgba = render_token(token.player, token.number, diameter)
    pad = diameter // 4
    rgba = cv2.copyMakeBorder(rgba, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=(0, 0, 0, 0))
    size = rgba.shape[0]
    rot = cv2.getRotationMatrix2D((size / 2, size / 2), -token.angle, 1.0)
    cx, cy = margin + token.x * px, margin + token.y * px
    rot[:, 2] += (cx - size / 2, cy - size / 2)
    h, w = img.shape[:2]
    x0, y0 = max(0, int(cx - size)), max(0, int(cy - size))
    x1, y1 = min(w, int(cx + size)), min(h, int(cy + size))
    if x1 <= x0 or y1 <= y0:
        return
    rot[:, 2] -= (x0, y0)
    patch = cv2.warpAffine(rgba, rot, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR,
                           borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
    alpha = patch[..., 3:4].astype(np.float32) / 255.0
    region = img[y0:y1, x0:x1].astype(np.float32)
    img[y0:y1, x0:x1] = (patch[..., :3] * alpha + region * (1 - alpha)).astype(np.uint8)


def _draw_hands(image: np.ndarray, hands: list[Hand], rng: np.random.Generator) -> np.ndarray:
    """Hands drawn over `image` in place; returns the mask of covered pixels. Only the hands' own
    bounding box is worked on (a hand costs little on a 4K frame)."""
    h, w = image.shape[:2]
    mask = np.zeros((h, w), np.uint8)
    boxes = []
    for hand in hands:
        cx, cy = hand.centre
        ex, ey = hand.edge_point
        reach = hand.radius * 1.2
        boxes.append((min(cx, ex) - reach, min(cy, ey) - reach, max(cx, ex) + reach, max(cy, ey) + reach))
    pad = 20  # the shading blur's reach
    x0 = int(max(0, min(b[0] for b in boxes) - pad))
    y0 = int(max(0, min(b[1] for b in boxes) - pad))
    x1 = int(min(w, max(b[2] for b in boxes) + pad))
    y1 = int(min(h, max(b[3] for b in boxes) + pad))
    skin = np.array([rng.uniform(90, 150), rng.uniform(120, 170), rng.uniform(170, 230)], np.float32)
    if x1 <= x0 or y1 <= y0:
        return mask
    region = mask[y0:y1, x0:x1]
    for hand in hands:
        cx, cy = hand.centre[0] - x0, hand.centre[1] - y0
        ex, ey = hand.edge_point[0] - x0, hand.edge_point[1] - y0
        angle = math.degrees(math.atan2(ey - cy, ex - cx))
        cv2.ellipse(region, (int(cx), int(cy)), (int(hand.radius), int(hand.radius * 0.8)), angle, 0, 360, 255, -1)
        cv2.line(region, (int(cx), int(cy)), (int(ex), int(ey)), 255, int(hand.radius * 1.1))
    shade = cv2.GaussianBlur(region, (0, 0), 6).astype(np.float32)[..., None] / 255.0
    covered = region > 0
    image[y0:y1, x0:x1][covered] = (skin * (0.75 + 0.25 * shade[covered])).astype(np.uint8)
    return mask


def _light_field(size: tuple[int, int], look: Look) -> np.ndarray:
    """Per-pixel gain: the illumination gradient times the colour cast (computed once per camera)."""
    w, h = size
    field = np.ones((h, w), np.float32)
    if look.light_low < 1.0:
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        t = (xx / w - 0.5) * math.cos(look.light_angle) + (yy / h - 0.5) * math.sin(look.light_angle)
        field = look.light_low + (1 - look.light_low) * np.clip(t + 0.5, 0, 1)
    return field[..., None] * np.array(look.gains, np.float32)


def _photometric(image: np.ndarray, light: np.ndarray, look: Look) -> np.ndarray:
    out = image.astype(np.float32) * light
    if look.blur_sigma > 0.2:
        out = cv2.GaussianBlur(out, (0, 0), look.blur_sigma)
    if look.noise_sigma > 0:
        noise = np.empty(out.shape, np.float32)
        cv2.randn(noise, 0.0, look.noise_sigma)
        out += noise
    return np.clip(out, 0, 255).astype(np.uint8)


class Photographer:
    """Renders frames of one board from one still camera: the board is drawn once, tokens and
    hands per frame, so videos cost little more than their frames.

    `printed`: photograph the board as `boards.render.render_board` prints it (labels, glyphs,
    hatches: what the table really has) instead of the plain flat drawing."""

    def __init__(self, board: Board, camera: Camera, look: Look, *, seed: int = 0, printed: bool = False):
        self.board, self.camera, self.look = board, camera, look
        self.rng = np.random.default_rng(seed)
        # Draw at about 1.5× the camera's own pixels per square, so the warp only reduces.
        corners = cv2.perspectiveTransform(np.array([[[0, 0], [board.width, 0]]], np.float32), camera.homography)
        per_square = float(np.linalg.norm(corners[0, 1] - corners[0, 0])) / board.width
        self.px = int(min(160, max(40, round(per_square * 1.5))))
        self.margin = int(round(MARGIN * self.px))
        if printed:
            from boards.render import render_board

            sheet = render_board(board, self.px)
            self.flat, self.margin = sheet.image, sheet.origin[0]
        else:
            self.flat = flat_board(board, self.px)
        flat_to_grid = np.array([[1 / self.px, 0, -self.margin / self.px], [0, 1 / self.px, -self.margin / self.px],
                                 [0, 0, 1]])
        self.flat_to_image = camera.homography @ flat_to_grid
        self.table = tuple(float(v) for v in self.rng.uniform(60, 110, 3))
        self.light = _light_field(camera.size, look)
        cv2.setRNGSeed(seed)
        self._scene_key: tuple[PlacedToken, ...] | None = None
        self._scene: np.ndarray | None = None

    def _clean_view(self, tokens: tuple[PlacedToken, ...]) -> np.ndarray:
        """Board and tokens seen by the camera, before hands and light; cached while tokens stay put."""
        if tokens != self._scene_key:
            flat = self.flat.copy()
            for token in tokens:  # tokens beside the grid land on the paper margin
                _paste_token(flat, token, self.px, self.margin)
            width, height = self.camera.size
            self._scene = np.empty((height, width, 3), np.uint8)
            self._scene[:] = np.round(self.table).astype(np.uint8)
            camera_warp(flat, self.flat_to_image, self._scene)
            self._scene_key = tokens
        return self._scene

    def shoot(self, tokens: list[PlacedToken], hands: list[Hand] = ()) -> Frame:
        image = self._clean_view(tuple(tokens)).copy()
        mask = _draw_hands(image, list(hands), self.rng) if hands else None
        image = _photometric(image, self.light, self.look)
        return Frame(image, list(tokens), mask, list(hands))

    def stills(self, tokens: list[PlacedToken], count: int) -> list[np.ndarray]:
        """`count` shots of a still scene, each with its own sensor noise: a live feed cycles them
        instead of paying the light and noise of a full frame each time."""
        clean = self._clean_view(tuple(tokens))
        return [_photometric(clean.copy(), self.light, self.look) for _ in range(count)]

    def add_hands(self, image: np.ndarray, hands: list[Hand]) -> np.ndarray:
        """A copy of a shot with hands over it (cheap: only the hands' box is drawn)."""
        image = image.copy()
        if hands:
            _draw_hands(image, list(hands), self.rng)
        return image


def random_tokens(board: Board, count: int, rng: np.random.Generator, *, jitter: float = 0.06,
                  neighbours: bool = True) -> list[PlacedToken]:
    """`count` distinct tokens on distinct walkable squares, any rotation, slightly off-centre;
    when `neighbours`, about half are put next to another token (the hard case)."""
    free = [p for p in board.positions() if board.walkable(p)]
    rng.shuffle(free)
    chosen: list[tuple[int, int]] = []
    taken: set[tuple[int, int]] = set()
    for p in free:
        if len(chosen) >= count:
            break
        if p in taken:
            continue
        chosen.append(p)
        taken.add(p)
        if neighbours and len(chosen) < count and rng.random() < 0.5:
            nx, ny = p[0] + 1, p[1]
            if board.in_bounds((nx, ny)) and board.walkable((nx, ny)) and (nx, ny) not in taken:
                chosen.append((nx, ny))
                taken.add((nx, ny))
    ids = rng.choice(5 * 40, size=len(chosen), replace=False)
    tokens = []
    for (x, y), ident in zip(chosen, ids):
        player, number = divmod(int(ident), 40)
        dx, dy = rng.uniform(-jitter, jitter, 2)
        tokens.append(PlacedToken(player + 1, number + 1, x + 0.5 + dx, y + 0.5 + dy, float(rng.uniform(0, 360))))
    return tokens


def random_board(width: int, height: int, rng: np.random.Generator, *, obstacles: float = 0.06) -> Board:
    """A board with random square colours (one or two colours per square) and a few obstacles."""
    rows = []
    for _ in range(height):
        codes = []
        for _ in range(width):
            r = rng.random()
            if r < obstacles:
                codes.append(".")
            else:
                k = 2 if r > 0.85 else 1
                codes.append("".join(sorted(rng.choice(list("WUBRG"), k, replace=False), key="WUBRG".index)))
        rows.append(" ".join(codes))
    return Board.from_rows(rows)


# --- videos ---------------------------------------------------------------------------------

@dataclass
class VideoScript:
    """What happens in a token video: per frame, the tokens' positions and the hands."""

    tokens: list[list[PlacedToken]]
    hands: list[list[Hand]]


def hand_over(camera: Camera, at: tuple[float, float], rng: np.random.Generator, *, radius_squares: float = 1.6,
              ) -> Hand:
    """A hand whose palm covers grid point `at`, arm reaching out of the nearest image edge."""
    centre = cv2.perspectiveTransform(np.array([[at]], np.float32), camera.homography)[0, 0]
    side = cv2.perspectiveTransform(np.array([[(at[0] + radius_squares, at[1])]], np.float32), camera.homography)
    radius = float(np.linalg.norm(side[0, 0] - centre))
    w, h = camera.size
    edges = [(centre[0], h + 50), (centre[0], -50), (-50, centre[1]), (w + 50, centre[1])]
    edge = edges[int(rng.integers(0, 2))] if rng.random() < 0.8 else edges[int(rng.integers(2, 4))]
    return Hand((float(centre[0]), float(centre[1])), radius, (float(edge[0]), float(edge[1])))


def random_video_script(board: Board, camera: Camera, rng: np.random.Generator, *, frames: int = 60,
                        tokens: int = 8, moves: int = 3) -> VideoScript:
    """A scripted game moment: a hand comes in over a token, lifts it, sets it down on another free
    square and leaves; `moves` times. Hands cover the token for several frames on both squares."""
    current = random_tokens(board, tokens, rng)
    per_frame_tokens = [list(current) for _ in range(frames)]
    per_frame_hands: list[list[Hand]] = [[] for _ in range(frames)]
    span = max(6, frames // max(1, moves))
    hand_len = min(span - 2, 6)
    for m in range(moves):
        start = m * span + 1
        if start + 5 >= frames:
            break
        mover = current[int(rng.integers(0, len(current)))]
        occupied = {t.square for t in current}
        free = [p for p in board.positions() if board.walkable(p) and p not in occupied]
        to = free[int(rng.integers(0, len(free)))]
        moved = PlacedToken(mover.player, mover.number, to[0] + 0.5 + rng.uniform(-0.06, 0.06),
                            to[1] + 0.5 + rng.uniform(-0.06, 0.06), float(rng.uniform(0, 360)))
        for k in range(hand_len):   # the hand travels from the token to its new square
            frac = k / max(1, hand_len - 1)
            at = (mover.x + (moved.x - mover.x) * frac, mover.y + (moved.y - mover.y) * frac)
            per_frame_hands[start + k] = [hand_over(camera, at, rng)]
        put_down = start + hand_len // 2
        current = [moved if t is mover else t for t in current]
        for f in range(put_down, frames):
            per_frame_tokens[f] = list(current)
    return VideoScript(per_frame_tokens, per_frame_hands)


def make_video(board: Board, *, size: tuple[int, int] = (1280, 720), frames: int = 60, tokens: int = 8,
               moves: int = 3, seed: int = 0, max_tilt_deg: float = 35.0) -> tuple[Camera, list[Frame]]:
    """Frames of a still camera over `board` with tokens moving and hands passing over, with truth."""
    rng = np.random.default_rng(seed)
    camera = random_camera(board, size, rng, max_tilt_deg=max_tilt_deg)
    photographer = Photographer(board, camera, random_look(rng), seed=seed)
    script = random_video_script(board, camera, rng, frames=frames, tokens=tokens, moves=moves)
    return camera, [photographer.shoot(t, h) for t, h in zip(script.tokens, script.hands)]


def make_long_video(board: Board, *, size: tuple[int, int] = (1920, 1080), moves: int = 60,
                    still_frames: int = 40, tokens: int = 10, seed: int = 0, max_tilt_deg: float = 45.0,
                    variants: int = 3) -> tuple[Camera, int, Iterator[Frame]]:
    """A long stream (thousands of frames) cheaply: `moves` hand episodes as in `make_video`, each
    followed by `still_frames` frames of the still scene. A still scene is rendered `variants` times
    (each with its own sensor noise) and those frames are cycled, so a stretch costs a few renders.
    Returns the camera, the number of frames and a generator of the frames (made on demand)."""
    rng = np.random.default_rng(seed)
    camera = random_camera(board, size, rng, max_tilt_deg=max_tilt_deg)
    photographer = Photographer(board, camera, random_look(rng), seed=seed)
    span = 8   # random_video_script: a hand episode of 6 frames, then 2 hand-free frames
    script = random_video_script(board, camera, rng, frames=moves * span + 1, tokens=tokens, moves=moves)
    stretches = sum(1 for i, hands in enumerate(script.hands) if not hands and (i == 0 or script.hands[i - 1]))
    count = sum(1 for hands in script.hands if hands) + stretches * still_frames

    def frames() -> Iterator[Frame]:
        for i, (placed, hands) in enumerate(zip(script.tokens, script.hands)):
            if hands:
                yield photographer.shoot(placed, hands)
            elif i == 0 or script.hands[i - 1]:      # a still stretch starts; later hand-free frames merge into it
                stills = [photographer.shoot(placed) for _ in range(variants)]
                for k in range(still_frames):
                    yield stills[k % variants]

    return camera, count, frames()


def make_photo(board: Board, tokens: list[PlacedToken], *, size: tuple[int, int] = (1920, 1080), seed: int = 0,
               max_tilt_deg: float = 45.0, hands: list[Hand] = (), hard: bool = True) -> tuple[Camera, Frame]:
    """One seeded photo of `board` with `tokens` and optional hands; returns the camera (truth
    homography) and the frame."""
    rng = np.random.default_rng(seed)
    camera = random_camera(board, size, rng, max_tilt_deg=max_tilt_deg)
    photographer = Photographer(board, camera, random_look(rng, hard=hard), seed=seed)
    return camera, photographer.shoot(tokens, hands)
