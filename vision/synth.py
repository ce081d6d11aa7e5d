"""The synthetic photographer: printed boards photographed on a table, with the truth.

Used by the tests, `tactical bench vision`, the token engineer and the app demo.
`photograph` takes one of our printed boards (render_board output, or a Board
to render) with tokens on it, lays it on a table and takes a phone-like photo:
random pose (tilt up to 45°, any rotation, the sheet filling 40–100 % of the
frame), each pixel averaging the light over its area (a thin printed line
fades with distance, it does not break up), lens distortion, light gradient
and shadow, warm/cool cast, blur, noise, JPEG, and sometimes a hand over the
board. `lay_pages` assembles a board printed over pages, as players do, before
it is photographed. `photograph_foreign` photographs a board of another style
the same way (other palette, no markers, split multicolour squares, thick or
thin lines); `photograph_no_board` shows a table with objects and no board.
Every photo carries the truth per square and the true homography (grid units
-> pixels, before lens distortion).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from boards.model import Board, Square, order_colours
from boards.printing import SQUARE_MM, plan_tiles
from calibration.mapping import GridMapping, RadialLens
from vision.printed import PrintedBoard, render_printed

SKIN_BGR = ((150, 180, 225), (120, 150, 200), (90, 120, 170), (60, 85, 130), (170, 195, 235))
TOKEN_SQUARES = 0.875  # printed token diameter (17.5 mm) in 20 mm squares


@dataclass(frozen=True)
class SquareTruth:
    colours: str
    obstacle: bool
    start: bool
    temple: bool
    covered: bool


@dataclass
class Photo:
    image: np.ndarray                      # BGR uint8
    truth: list[SquareTruth]               # reading order (y, then x); empty without a board
    homography: np.ndarray | None          # grid units -> pixels (before lens distortion)
    width: int = 0
    height: int = 0
    tokens: list[tuple[int, int, int, int]] = field(default_factory=list)  # (player, number, x, y)
    params: dict = field(default_factory=dict)
    lens: RadialLens | None = None         # the lens the photo was taken through (OpenCV convention)
    hidden: np.ndarray | None = None       # (height, width): ≥ 25 % under the hand or outside the frame (tokens aside)

    def square(self, x: int, y: int) -> SquareTruth:
        return self.truth[y * self.width + x]

    @property
    def mapping(self) -> GridMapping | None:
        """The true grid <-> photo mapping, lens included."""
        if self.homography is None:
            return None
        return GridMapping.with_lens(self.homography, self.lens, self.width, self.height)


# -- scene pieces -------------------------------------------------------------
def table_texture(rng: np.random.Generator, size: tuple[int, int]) -> np.ndarray:
    """A wood- or cloth-like surface: smooth low-frequency colour plus grain."""
    w, h = size
    base = np.array(rng.choice([(60, 90, 130), (40, 60, 90), (110, 120, 125), (30, 30, 35), (150, 160, 170),
                                (70, 110, 80)]), np.float32)
    coarse = rng.normal(1.0, 0.12, (9, 16, 1)).astype(np.float32)
    grain = rng.normal(1.0, 0.08, (h // 8, w // 8, 1)).astype(np.float32)
    if rng.random() < 0.5:  # wood: stretched grain
        grain = cv2.resize(rng.normal(1.0, 0.1, (h // 8, 6, 1)).astype(np.float32), (w // 8, h // 8))[..., None]
    texture = cv2.resize(coarse, (w, h))[..., None] * cv2.resize(grain, (w, h))[..., None] * base
    return np.clip(texture, 0, 255).astype(np.uint8)


def _camera_homography(rng: np.random.Generator, sheet: tuple[float, float, float, float], frame: tuple[int, int],
                       *, max_tilt_deg: float, fill: tuple[float, float]) -> tuple[np.ndarray, dict]:
    """Grid units -> pixels for a pinhole camera looking at the sheet: tilt, any rotation,
    the sheet's bounding box covering a `fill` share of the frame (by area, the sheet's
    long side limited by the frame)."""
    x0, y0, x1, y1 = sheet
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    diag = math.hypot(x1 - x0, y1 - y0)
    tilt = math.radians(rng.uniform(0, max_tilt_deg))
    axis = rng.uniform(0, 2 * math.pi)
    spin = rng.uniform(0, 2 * math.pi)
    rvec = np.array([math.cos(axis), math.sin(axis), 0.0]) * tilt
    r_tilt, _ = cv2.Rodrigues(rvec)
    r_spin = np.array([[math.cos(spin), -math.sin(spin), 0], [math.sin(spin), math.cos(spin), 0], [0, 0, 1]])
    rotation = r_tilt @ r_spin
    distance = 1.3 * diag
    extrinsic = np.column_stack([rotation[:, 0], rotation[:, 1], rotation @ np.array([-cx, -cy, 0]) + [0, 0, distance]])
    h_cam = extrinsic  # focal 1: normalised image coordinates
    corners = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float64)
    proj = cv2.perspectiveTransform(corners.reshape(-1, 1, 2), h_cam).reshape(-1, 2)
    span = proj.max(axis=0) - proj.min(axis=0)
    fw, fh = frame
    share = rng.uniform(*fill)  # of the frame's area covered by the sheet's bounding box
    scale = math.sqrt(share) * min(fw / span[0], fh / span[1])
    lo = proj.min(axis=0) * scale
    room = np.array([fw, fh]) - span * scale
    offset = -lo + room * rng.uniform(0.0, 1.0, 2)
    fit = np.array([[scale, 0, offset[0]], [0, scale, offset[1]], [0, 0, 1]])
    homography = fit @ h_cam
    return homography / homography[2, 2], {"tilt_deg": math.degrees(tilt), "spin_deg": math.degrees(spin),
                                           "fill": share}


def _lighting(rng: np.random.Generator, image: np.ndarray, *, shadow: bool) -> dict:
    """Light gradient, colour cast (≈3000 K warm to ≈7000 K cool) and a soft shadow, in place."""
    h, w = image.shape[:2]
    gx, gy = rng.uniform(-0.35, 0.35, 2)
    level = rng.uniform(0.75, 1.05)
    ramp = cv2.resize(np.array([[level - gx - gy, level + gx - gy], [level - gx + gy, level + gx + gy]], np.float32),
                      (w, h), interpolation=cv2.INTER_LINEAR)
    warmth = rng.uniform(-1, 1)  # -1 cool, +1 warm
    gains = np.array([1 - 0.28 * max(warmth, 0), 1 - 0.06 * abs(warmth), 1 - 0.22 * max(-warmth, 0)], np.float32)
    light = ramp[..., None] * gains
    if shadow:
        mask = np.zeros((h // 4, w // 4), np.float32)
        centre = rng.uniform(0, 1, 2) * (w // 4, h // 4)
        axes = rng.uniform(0.1, 0.35, 2) * (w // 4)
        cv2.ellipse(mask, (int(centre[0]), int(centre[1])), (int(axes[0]), int(axes[1])), rng.uniform(0, 180),
                    0, 360, 1.0, -1)
        mask = cv2.GaussianBlur(mask, (0, 0), w / 80)
        light *= (1 - rng.uniform(0.15, 0.35) * cv2.resize(mask, (w, h)))[..., None]
    np.multiply(image, light, out=image, casting="unsafe")
    return {"warmth": float(warmth), "light": float(level)}


def _hand(rng: np.random.Generator, image: np.ndarray, near: np.ndarray) -> np.ndarray:
    """A skin-coloured palm and arm reaching in from the frame edge; returns its mask."""
    h, w = image.shape[:2]
    mask = np.zeros((h, w), np.uint8)
    palm = near + rng.normal(0, 0.05, 2) * (w, h)
    side = rng.integers(4)
    edge = [(rng.uniform(0, w), h + 50), (rng.uniform(0, w), -50), (-50, rng.uniform(0, h)),
            (w + 50, rng.uniform(0, h))][side]
    scale = rng.uniform(0.06, 0.11) * min(w, h) * 1.6
    cv2.line(mask, tuple(int(v) for v in palm), tuple(int(v) for v in edge), 255, int(scale * 0.9))
    cv2.ellipse(mask, tuple(int(v) for v in palm), (int(scale * 0.7), int(scale)), rng.uniform(0, 180), 0, 360, 255, -1)
    skin = np.array(SKIN_BGR[rng.integers(len(SKIN_BGR))], np.float32) * rng.uniform(0.85, 1.1)
    soft = cv2.GaussianBlur(mask, (0, 0), 3).astype(np.float32)[..., None] / 255
    shade = cv2.GaussianBlur(cv2.resize(rng.normal(1, 0.08, (8, 8)).astype(np.float32), (w, h)), (0, 0), 9)[..., None]
    image[:] = np.clip(image * (1 - soft) + skin * shade * soft, 0, 255)
    return mask > 127


MILD_K1 = (-0.03, 0.03)      # a phone lens after its own correction: the earlier bench sets' lens
WIDE_K2 = (-0.1, 0.1)        # k2 of a wide lens, as a share of |k1|
LENS_MAP_STEP = 8            # px between the exact points of the photographer's lens map (bilinear between)


def _lens_map(lens: RadialLens, frame: tuple[int, int], pad: int) -> tuple[np.ndarray, np.ndarray]:
    """For every photo pixel, where the pinhole canvas (`pad` px wider each side) shows it:
    exact on a coarse lattice, bilinear between (the map is smooth: errors ≪ 0.01 px)."""
    w, h = frame
    step = LENS_MAP_STEP
    xs = np.arange(0, w - 1 + step, step, dtype=np.float64)
    ys = np.arange(0, h - 1 + step, step, dtype=np.float64)
    coarse = lens.undistort(np.stack(np.meshgrid(xs, ys), axis=-1)) + pad
    at_x = np.broadcast_to(np.arange(w, dtype=np.float32) / step, (h, w))
    at_y = np.broadcast_to((np.arange(h, dtype=np.float32) / step)[:, None], (h, w))
    full = cv2.remap(coarse.astype(np.float32), np.ascontiguousarray(at_x), np.ascontiguousarray(at_y),
                     cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return full[..., 0], full[..., 1]


def _lens_pad(lens: RadialLens, frame: tuple[int, int]) -> int:
    """How far outside the frame the pinhole view must reach for the lens to fill the frame."""
    w, h = frame
    t = np.linspace(0.0, 1.0, 33)
    border = np.concatenate([np.stack([t * (w - 1), np.zeros_like(t)], 1), np.stack([t * (w - 1), np.full_like(t, h - 1)], 1),
                             np.stack([np.zeros_like(t), t * (h - 1)], 1), np.stack([np.full_like(t, w - 1), t * (h - 1)], 1)])
    seen = lens.undistort(border)
    reach = max(-seen.min(axis=0).min(), (seen - [w - 1, h - 1]).max(axis=0).max(), 0.0)
    return int(np.ceil(reach)) + 2


def _distort(image: np.ndarray, lens: RadialLens, frame: tuple[int, int], pad: int) -> np.ndarray:
    """The photo through the lens, from the pinhole canvas (the frame plus `pad` px each side;
    with no pad, what falls outside is the canvas reflected, as the earlier sets had it)."""
    map_x, map_y = _lens_map(lens, frame, pad)
    return cv2.remap(image, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)


def _finish(rng: np.random.Generator, image: np.ndarray, *, distortion: bool, jpeg: bool,
            lens: RadialLens | None = None, pad: int = 0) -> tuple[np.ndarray, dict, RadialLens | None]:
    """Lens, blur, noise, JPEG. Without a `lens` drawn beforehand, `distortion` draws the mild
    one (`MILD_K1`) here, where the earlier sets drew theirs."""
    params = {}
    frame = (image.shape[1] - 2 * pad, image.shape[0] - 2 * pad)
    if distortion and lens is None:
        lens = RadialLens.for_image(frame, rng.uniform(*MILD_K1))
    if lens is not None:
        image = _distort(image, lens, frame, pad)
        params["k1"], params["k2"] = lens.k1, lens.k2
    sigma = rng.uniform(0.3, 1.3)
    image = cv2.GaussianBlur(image, (0, 0), sigma)
    noise = np.empty(image.shape, np.int16)
    cv2.setRNGSeed(int(rng.integers(2**31)))  # OpenCV's fast generator, seeded from ours: same seed, same photo
    cv2.randn(noise, 0, rng.uniform(1, 4))
    image = np.clip(image.astype(np.int16) + noise, 0, 255).astype(np.uint8)
    if jpeg:
        quality = int(rng.integers(70, 95))
        image = cv2.imdecode(cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])[1], cv2.IMREAD_COLOR)
        params["jpeg"] = quality
    params["blur"] = sigma
    return image, params, lens


def _covered_squares(mapping: GridMapping, pad: int, width: int, height: int, occluded: np.ndarray,
                     frame: tuple[int, int], min_share: float) -> np.ndarray:
    """(height, width) bool: squares whose area is at least min_share hidden (4×4 samples): by
    what `occluded` (the pinhole canvas, `pad` px around the frame) shows, or outside the frame."""
    offsets = (np.arange(4) + 0.5) / 4
    gx, gy = np.meshgrid(np.arange(width), np.arange(height))
    sx, sy = np.meshgrid(offsets, offsets)
    pts = np.stack([(gx[..., None, None] + sx).ravel(), (gy[..., None, None] + sy).ravel()], axis=1)
    pinhole = mapping.lens_homography if mapping.lens is not None else mapping.homography
    pix = cv2.perspectiveTransform(pts.reshape(-1, 1, 2).astype(np.float64), pinhole).reshape(-1, 2) + pad
    seen = mapping.to_image(pts)
    h, w = occluded.shape
    inside = (seen[:, 0] >= 0) & (seen[:, 0] < frame[0]) & (seen[:, 1] >= 0) & (seen[:, 1] < frame[1]) & \
        (pix[:, 0] >= 0) & (pix[:, 0] < w) & (pix[:, 1] >= 0) & (pix[:, 1] < h)
    hit = np.ones(len(pix), bool)  # outside the frame counts as hidden
    px, py = pix[inside].astype(int).T
    hit[inside] = occluded[py, px]
    return hit.reshape(height, width, 16).mean(axis=2) >= min_share


def _truth(board: Board, covered: np.ndarray) -> list[SquareTruth]:
    return [SquareTruth(order_colours(sq.colours), sq.obstacle, sq.start, sq.temple, bool(covered[y, x]))
            for (x, y), sq in zip(board.positions(), board)]


def _place_tokens(rng: np.random.Generator, printed: PrintedBoard, tokens) -> np.ndarray:
    """Tokens composited on a copy of the printed sheet, slightly off-centre and turned."""
    from boards.tokens import render_token

    image = printed.image.copy()
    px = printed.px_per_square
    diameter = int(round(TOKEN_SQUARES * px))
    for player, number, x, y in tokens:
        token = render_token(player, number, diameter)
        angle = rng.uniform(0, 360)
        rot = cv2.getRotationMatrix2D((diameter / 2, diameter / 2), angle, 1.0)
        token = cv2.warpAffine(token, rot, (diameter, diameter), flags=cv2.INTER_LINEAR, borderValue=(0, 0, 0, 0))
        jitter = rng.uniform(-0.05, 0.05, 2) * px
        cx = printed.origin[0] + (x + 0.5) * px + jitter[0]
        cy = printed.origin[1] + (y + 0.5) * px + jitter[1]
        x0, y0 = int(round(cx - diameter / 2)), int(round(cy - diameter / 2))
        region = image[y0:y0 + diameter, x0:x0 + diameter]
        alpha = token[..., 3:4].astype(np.float32) / 255
        region[:] = (region * (1 - alpha) + token[..., :3] * alpha).astype(np.uint8)
    return image


MIN_SAMPLES_PER_SHEET_PX = 0.7  # photo samples per printed pixel below which thin lines break up


def camera_warp(sheet: np.ndarray, sheet_to_frame: np.ndarray, image: np.ndarray) -> None:
    """Draws `sheet` into `image` (in place) as a camera sees it: each pixel averages the light
    over its area. Point sampling (one bilinear look per pixel) loses a printed line thinner
    than a pixel wherever the sample falls beside it: lines break into dashes and the hatch
    into moiré, which no camera shows. Where the sheet is shrunk, the frame is drawn `factor`
    times larger over the sheet's box and reduced by area averaging."""
    h, w = sheet.shape[:2]
    corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64).reshape(-1, 1, 2)
    factor = min(4, math.ceil(MIN_SAMPLES_PER_SHEET_PX / _smallest_scale(sheet_to_frame, corners)))
    if factor <= 1:
        cv2.warpPerspective(sheet, sheet_to_frame, image.shape[1::-1], dst=image, flags=cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_TRANSPARENT)
        return
    seen = cv2.perspectiveTransform(corners, sheet_to_frame).reshape(-1, 2)
    x0, y0 = np.clip(np.floor(seen.min(axis=0)).astype(int) - 1, 0, None)
    x1, y1 = np.minimum(np.ceil(seen.max(axis=0)).astype(int) + 2, image.shape[1::-1])
    if x1 <= x0 or y1 <= y0:
        return
    region = image[y0:y1, x0:x1]
    big = cv2.resize(region, None, fx=factor, fy=factor, interpolation=cv2.INTER_NEAREST)
    # the centre of frame pixel x is the mean of its factor sub-pixels' centres: factor·x + (factor-1)/2
    centre = (factor - 1) / 2
    to_big = np.array([[factor, 0, centre - factor * x0], [0, factor, centre - factor * y0], [0, 0, 1]])
    cv2.warpPerspective(sheet, to_big @ sheet_to_frame, big.shape[1::-1], dst=big, flags=cv2.INTER_LINEAR,
                        borderMode=cv2.BORDER_TRANSPARENT)
    region[:] = cv2.resize(big, region.shape[1::-1], interpolation=cv2.INTER_AREA)


def _smallest_scale(homography: np.ndarray, points: np.ndarray) -> float:
    """Smallest photo-pixels-per-sheet-pixel at `points` (n, 1, 2) in any direction: the
    smallest singular value of the map's local Jacobian (a tilt shrinks one way only)."""
    steps = np.concatenate([points, points + (1.0, 0.0), points + (0.0, 1.0)])
    mapped = cv2.perspectiveTransform(steps, homography).reshape(3, -1, 2)
    jacobians = np.stack([mapped[1] - mapped[0], mapped[2] - mapped[0]], axis=-1)  # (n, 2, 2)
    return float(np.linalg.svd(jacobians, compute_uv=False).min())


def _shoot(rng, sheet_image, to_grid, board: Board, frame, *, max_tilt_deg, fill, hand, shadow, distortion, jpeg,
           sheet_extent, extra_occluded=None, wide_lens: tuple[float, float] | None = None) -> Photo:
    """The scene (table, sheet, hand, light) on a pinhole canvas, then the lens, blur, noise and
    JPEG. `wide_lens`: k1 drawn from this range (k2 a small share of it) before the scene, which
    is then drawn wider than the frame as far as the lens looks; without it, the mild lens of
    the earlier sets is drawn at the end and what it shows past the frame is reflected."""
    homography, params = _camera_homography(rng, sheet_extent, frame, max_tilt_deg=max_tilt_deg, fill=fill)
    lens, pad = None, 0
    if wide_lens is not None and distortion:
        k1 = rng.uniform(*wide_lens)
        lens = RadialLens.for_image(frame, k1, rng.uniform(*WIDE_K2) * abs(k1))
        pad = _lens_pad(lens, frame)
    canvas_from_frame = np.array([[1.0, 0, pad], [0, 1.0, pad], [0, 0, 1]])
    image = table_texture(rng, frame)
    if pad:
        image = cv2.resize(image, (frame[0] + 2 * pad, frame[1] + 2 * pad), interpolation=cv2.INTER_LINEAR)
    camera_warp(sheet_image, canvas_from_frame @ homography @ to_grid, image)
    occluded = np.zeros(image.shape[:2], bool)
    work = image.astype(np.float32)
    if rng.random() < hand:
        target = np.array([rng.uniform(0, board.width), rng.uniform(0, board.height)])
        near = cv2.perspectiveTransform(target.reshape(1, 1, 2), canvas_from_frame @ homography).reshape(2)
        occluded |= _hand(rng, work, near)
        params["hand"] = True
    params.update(_lighting(rng, work, shadow=shadow and rng.random() < 0.5))
    image, finish, lens = _finish(rng, np.clip(work, 0, 255).astype(np.uint8), distortion=distortion, jpeg=jpeg,
                                  lens=lens, pad=pad)
    params.update(finish)
    truth = GridMapping.with_lens(homography, lens, board.width, board.height)
    hidden = _covered_squares(truth, pad, board.width, board.height, occluded, frame, 0.25)
    covered = hidden | extra_occluded if extra_occluded is not None else hidden
    return Photo(image, _truth(board, covered), homography, board.width, board.height, params=params, lens=lens,
                 hidden=hidden)


# -- public -------------------------------------------------------------------
def photograph(printed: Board | PrintedBoard, *, board: Board | None = None, tokens=(), seed: int | None = None,
               rng: np.random.Generator | None = None, frame: tuple[int, int] = (1920, 1080),
               max_tilt_deg: float = 45.0, fill: tuple[float, float] = (0.4, 1.0), hand: float = 0.3,
               shadow: bool = True, distortion: bool = True, jpeg: bool = True, px_per_square: int = 48,
               wide_lens: tuple[float, float] | None = None) -> Photo:
    """A photo of one of our printed boards. `printed` is render_board's output (then
    give `board` for the truth) or a Board (rendered here). tokens: (player, number, x, y).
    `wide_lens`: the k1 range of a wide-angle lens (e.g. (-0.35, 0.1): webcams and tablets);
    default: the mild lens of a phone after its own correction (|k1| ≤ 0.03)."""
    rng = rng or np.random.default_rng(seed)
    if isinstance(printed, Board):
        board, printed = printed, render_printed(printed, px_per_square)
    elif board is None:
        raise ValueError("photograph: pass the Board too (board=...) to know the truth")
    else:
        printed = PrintedBoard(printed.image, tuple(printed.origin), int(printed.px_per_square))
    sheet_image = _place_tokens(rng, printed, tokens) if tokens else printed.image
    px = printed.px_per_square
    to_grid = np.array([[1 / px, 0, -printed.origin[0] / px], [0, 1 / px, -printed.origin[1] / px], [0, 0, 1]])
    h, w = printed.image.shape[:2]
    extent = (-printed.origin[0] / px, -printed.origin[1] / px, (w - printed.origin[0]) / px,
              (h - printed.origin[1]) / px)
    token_cover = np.zeros((board.height, board.width), bool)
    for _, _, x, y in tokens:
        token_cover[y, x] = True
    photo = _shoot(rng, sheet_image, to_grid, board, frame, max_tilt_deg=max_tilt_deg, fill=fill, hand=hand,
                   shadow=shadow, distortion=distortion, jpeg=jpeg, sheet_extent=extent, extra_occluded=token_cover,
                   wide_lens=wide_lens)
    photo.tokens = list(tokens)
    return photo


@dataclass(frozen=True)
class LaidPages:
    """A printed board as the players assemble it, and where each page ended up."""

    printed: PrintedBoard
    pages: int
    offsets: tuple[tuple[float, float, float], ...]  # per page: (dx px, dy px, turn °); page 1 is (0, 0, 0)


PAGE_EDGE_SHADE = 0.75  # a laid page's cut edge darkens the line of pixels under it to this share


def lay_pages(printed: PrintedBoard, board: Board, rng: np.random.Generator, *, shift_mm: float, turn_deg: float,
              paper: str = "a4") -> LaidPages:
    """Our board printed over pages (`boards.printing.plan_tiles`, MT 1.02.b) and assembled by hand: every page
    after the first is cut along its overlap's middle and laid on the earlier ones, off by up to `shift_mm` each
    way and turned by up to `turn_deg` about its piece's centre, its cut edge a thin shadow. Page 1 is laid
    exactly, so the photo's truth stays the board's nominal grid: a page 1 mm off puts its squares 0.05 square
    off. The bench measures whether a table's careful (and careless) assembly still reads as the board."""
    px = printed.px_per_square
    image = printed.image
    height, width = image.shape[:2]
    plan = plan_tiles((width, height), (round(printed.origin[0]), round(printed.origin[1])), px,
                      (board.width, board.height), paper)
    half_overlap = plan.overlap_px // 2
    laid = np.full_like(image, 255)
    offsets = []
    for tile in plan.tiles:                      # in page order: later pages lie on earlier ones
        x0 = tile.x0 + (half_overlap if tile.sheet_column > 1 else 0)
        y0 = tile.y0 + (half_overlap if tile.sheet_row > 1 else 0)
        piece = np.zeros((height, width), np.uint8)
        piece[y0:tile.y1, x0:tile.x1] = 255
        if tile.number == 1:
            dx = dy = turn = 0.0
        else:
            dx, dy = rng.uniform(-shift_mm, shift_mm, 2) * px / SQUARE_MM
            turn = float(rng.uniform(-turn_deg, turn_deg))
        offsets.append((float(dx), float(dy), turn))
        move = cv2.getRotationMatrix2D(((x0 + tile.x1) / 2, (y0 + tile.y1) / 2), turn, 1.0)
        move[:, 2] += (dx, dy)
        moved = cv2.warpAffine(image, move, (width, height), flags=cv2.INTER_LINEAR, borderValue=(255, 255, 255))
        placed = cv2.warpAffine(piece, move, (width, height), flags=cv2.INTER_NEAREST) > 0
        laid[placed] = moved[placed]
        if tile.number > 1:
            edge = cv2.morphologyEx(placed.astype(np.uint8), cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8)) > 0
            laid[edge] = (laid[edge] * PAGE_EDGE_SHADE).astype(np.uint8)
    return LaidPages(PrintedBoard(laid, printed.origin, px), plan.pages, tuple(offsets))


FOREIGN_PALETTE = {"W": (236, 246, 252), "U": (205, 140, 60), "B": (70, 55, 45), "R": (60, 70, 215),
                   "G": (90, 170, 70)}
FOREIGN_OBSTACLE = (165, 170, 168)


def render_foreign(board: Board, px: int, rng: np.random.Generator) -> tuple[np.ndarray, float]:
    """Another maker's board: other palette, no markers, multicoloured squares split in
    halves, stripes, diagonals or quadrants, thick or thin lines, obstacles grey with a
    cross. Coloured obstacles have no agreed look across makers: they are drawn (and
    counted in the truth) as plain colour. Returns (image, margin px)."""
    margin = int(px * rng.uniform(0.3, 1.2))
    style = rng.choice(["stripes", "diagonal", "quadrants"])
    line = max(1, int(px * rng.choice([0.03, 0.06, 0.12])))
    h, w = board.height * px, board.width * px
    image = np.full((h + 2 * margin, w + 2 * margin, 3), 250, np.uint8)
    ys, xs = np.mgrid[0:px, 0:px]
    for (x, y), sq in zip(board.positions(), board):
        colours = order_colours(sq.colours)
        cell = image[margin + y * px:margin + (y + 1) * px, margin + x * px:margin + (x + 1) * px]
        if not colours:
            cell[:] = FOREIGN_OBSTACLE
            cv2.line(cell, (0, 0), (px, px), (90, 90, 90), max(1, px // 16))
            cv2.line(cell, (px, 0), (0, px), (90, 90, 90), max(1, px // 16))
            continue
        n = len(colours)
        if style == "stripes" or n > 4:
            part = np.minimum(xs * n // px, n - 1)
        elif style == "diagonal":
            part = np.minimum(((xs + ys) * n) // (2 * px), n - 1)
        else:
            quad = (ys >= px // 2) * 2 + (xs >= px // 2)
            part = np.array([0, 1, 1, 0])[quad] if n == 2 else np.minimum(quad, n - 1)
        cell[:] = np.array([FOREIGN_PALETTE[c] for c in colours], np.uint8)[part]
    for k in range(board.width + 1):
        cv2.line(image, (margin + k * px, margin), (margin + k * px, margin + h), (30, 30, 30), line)
    for k in range(board.height + 1):
        cv2.line(image, (margin, margin + k * px), (margin + w, margin + k * px), (30, 30, 30), line)
    return image, float(margin)


# Other makers' palettes (BGR for W U B R G) and two-tone chequers (light, dark): what the broadened
# photographer draws boards in, none of them ours.
FOREIGN_PALETTES = (
    FOREIGN_PALETTE,
    {"W": (245, 245, 240), "U": (230, 190, 150), "B": (95, 90, 90), "R": (150, 150, 235), "G": (160, 215, 160)},
    {"W": (255, 255, 255), "U": (200, 80, 0), "B": (20, 20, 20), "R": (0, 0, 220), "G": (0, 160, 0)},
    {"W": (220, 230, 235), "U": (160, 120, 80), "B": (50, 45, 40), "R": (70, 80, 170), "G": (80, 140, 100)},
)
CHEQUER_TONES = (((235, 235, 235), (25, 25, 25)), ((180, 220, 240), (60, 90, 140)), ((210, 235, 235), (60, 110, 70)),
                 ((250, 250, 250), (110, 110, 110)))
BROAD_STYLES = ("ruled", "unlined", "chequer", "tiles")


def render_foreign_broad(board: Board, px: int, rng: np.random.Generator) -> tuple[np.ndarray, float, Board, str]:
    """A board in a style we did not design for, as another maker would print it: ruled (lines
    2–16 % of a square thick, another palette), unlined (colour borders and the grid's outline
    only: same colours merge), a two-tone chequer (no lines, light squares merging with the paper
    at the border), or tiles (squares with paper between them); unlined and tiled white squares are
    printed in a tint the paper is not (else no one could see them); sometimes a frame around
    the sheet and printed rulers (coordinates and ticks) beside the grid. Returns (image, margin px, the truth as a Board —
    a chequer's is its W/B pattern —, style)."""
    style = str(rng.choice(BROAD_STYLES))
    margin = int(px * rng.uniform(0.6, 1.4))
    h, w = board.height * px, board.width * px
    paper = np.array(rng.choice([(250, 250, 250), (235, 240, 245), (225, 235, 240)]), np.uint8)
    image = np.empty((h + 2 * margin, w + 2 * margin, 3), np.uint8)
    image[:] = paper
    palette = FOREIGN_PALETTES[int(rng.integers(len(FOREIGN_PALETTES)))]
    ys, xs = np.mgrid[0:px, 0:px]
    if style == "chequer":
        light, dark = CHEQUER_TONES[int(rng.integers(len(CHEQUER_TONES)))]
        start = int(rng.integers(2))
        rows = ["".join("W" if (x + y + start) % 2 == 0 else "B" for x in range(board.width)) for y in range(board.height)]
        truth = Board.from_rows([" ".join(r) for r in rows])
        for y, row in enumerate(rows):
            for x, code in enumerate(row):
                image[margin + y * px:margin + (y + 1) * px, margin + x * px:margin + (x + 1) * px] = \
                    light if code == "W" else dark
    else:
        truth = Board(tuple(tuple(Square(sq.colours) if sq.colours else sq for sq in row) for row in board.squares))
        gap = int(round(px * rng.uniform(0.08, 0.18))) if style == "tiles" else 0
        split = str(rng.choice(["stripes", "diagonal", "quadrants"]))
        if style != "ruled":   # with no line around them, white squares are printed in a tint the paper is not
            white = np.array(palette["W"], float)
            if np.abs(white.mean() - paper.astype(float).mean()) < 25:
                palette = {**palette, "W": tuple(int(v) for v in np.clip(paper.astype(float) * 0.86, 0, 255))}
        for (x, y), sq in zip(board.positions(), board):
            colours = order_colours(sq.colours)
            cell = image[margin + y * px + gap // 2:margin + (y + 1) * px - (gap - gap // 2),
                         margin + x * px + gap // 2:margin + (x + 1) * px - (gap - gap // 2)]
            size = px - gap
            if not colours:
                cell[:] = FOREIGN_OBSTACLE
                cv2.line(cell, (0, 0), (size, size), (90, 90, 90), max(1, size // 16))
                cv2.line(cell, (size, 0), (0, size), (90, 90, 90), max(1, size // 16))
                continue
            n = len(colours)
            cx, cy = xs[:size, :size], ys[:size, :size]
            if split == "stripes" or n > 4:
                part = np.minimum(cx * n // size, n - 1)
            elif split == "diagonal":
                part = np.minimum(((cx + cy) * n) // (2 * size), n - 1)
            else:
                quad = (cy >= size // 2) * 2 + (cx >= size // 2)
                part = np.array([0, 1, 1, 0])[quad] if n == 2 else np.minimum(quad, n - 1)
            cell[:] = np.array([palette[c] for c in colours], np.uint8)[part]
        if style == "unlined":   # only the grid's outline is drawn
            cv2.rectangle(image, (margin, margin), (margin + w, margin + h), (40, 40, 40), max(1, int(px * 0.03)))
        if style == "ruled":
            line = max(1, int(round(px * rng.choice([0.02, 0.05, 0.1, 0.16]))))
            ink = tuple(int(v) for v in rng.choice([(30, 30, 30), (90, 90, 90), (60, 40, 20)]))
            for k in range(board.width + 1):
                cv2.line(image, (margin + k * px, margin), (margin + k * px, margin + h), ink, line)
            for k in range(board.height + 1):
                cv2.line(image, (margin, margin + k * px), (margin + w, margin + k * px), ink, line)
    if rng.random() < 0.5:   # rulers: coordinates and ticks beside the grid
        scale, ink = px / 60, (40, 40, 40)
        for x in range(board.width):
            text = chr(ord("A") + x % 26)
            cv2.putText(image, text, (margin + x * px + px // 3, margin - max(2, margin // 4)), cv2.FONT_HERSHEY_SIMPLEX,
                        scale, ink, max(1, px // 30), cv2.LINE_AA)
        for y in range(board.height):
            cv2.putText(image, str(y + 1), (max(1, margin // 8), margin + y * px + 2 * px // 3), cv2.FONT_HERSHEY_SIMPLEX,
                        scale * 0.8, ink, max(1, px // 30), cv2.LINE_AA)
            cv2.line(image, (margin - px // 6, margin + y * px), (margin - 2, margin + y * px), ink, max(1, px // 40))
    if rng.random() < 0.4:   # a frame around the sheet (wood or plastic)
        frame_px = max(2, int(margin * rng.uniform(0.25, 0.5)))
        colour = tuple(int(v) for v in rng.choice([(40, 60, 90), (30, 30, 30), (120, 120, 120)]))
        cv2.rectangle(image, (0, 0), (image.shape[1] - 1, image.shape[0] - 1), colour, 2 * frame_px)
    return image, float(margin), truth, style


def photograph_foreign(board: Board, *, seed: int | None = None, rng: np.random.Generator | None = None,
                       frame: tuple[int, int] = (1920, 1080), max_tilt_deg: float = 45.0,
                       fill: tuple[float, float] = (0.5, 1.0), hand: float = 0.0, px_per_square: int = 48,
                       wide_lens: tuple[float, float] | None = None, broad: bool = False) -> Photo:
    """A photo of a board in someone else's style (no markers: found by grid lines); `wide_lens`
    as in `photograph`. `broad`: the styles we did not design for (`render_foreign_broad`);
    default: the earlier bench sets' style (`render_foreign`), drawn from the same random draws."""
    rng = rng or np.random.default_rng(seed)
    if broad:
        image, margin, plain, style = render_foreign_broad(board, px_per_square, rng)
    else:
        image, margin = render_foreign(board, px_per_square, rng)
        style = "foreign"
        plain = Board(tuple(tuple(Square(sq.colours) if sq.colours else sq for sq in row) for row in board.squares))
    px = px_per_square
    to_grid = np.array([[1 / px, 0, -margin / px], [0, 1 / px, -margin / px], [0, 0, 1]])
    extent = (-margin / px, -margin / px, board.width + margin / px, board.height + margin / px)
    photo = _shoot(rng, image, to_grid, plain, frame, max_tilt_deg=max_tilt_deg, fill=fill, hand=hand,
                   shadow=True, distortion=True, jpeg=True, sheet_extent=extent, wide_lens=wide_lens)
    photo.params["style"] = style
    return photo


def photograph_no_board(*, seed: int | None = None, rng: np.random.Generator | None = None,
                        frame: tuple[int, int] = (1920, 1080), hand: float = 0.3) -> Photo:
    """A table with everyday objects (books, cups, cards, a phone) and no board."""
    rng = rng or np.random.default_rng(seed)
    w, h = frame
    image = table_texture(rng, frame)
    for _ in range(rng.integers(2, 9)):
        colour = tuple(int(v) for v in rng.integers(0, 256, 3))
        kind = rng.integers(4)
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        size = rng.uniform(0.05, 0.3) * min(w, h)
        if kind == 0:  # a card or a book
            rect = ((cx, cy), (size, size * rng.uniform(0.6, 1.6)), rng.uniform(0, 180))
            cv2.fillPoly(image, [cv2.boxPoints(rect).astype(np.int32)], colour, cv2.LINE_AA)
        elif kind == 1:  # a cup seen from above
            cv2.circle(image, (int(cx), int(cy)), int(size / 2), colour, -1, cv2.LINE_AA)
            cv2.circle(image, (int(cx), int(cy)), int(size / 3), tuple(c // 2 for c in colour), -1, cv2.LINE_AA)
        elif kind == 2:  # a pen
            end = (int(cx + size * math.cos(cx)), int(cy + size * math.sin(cy)))
            cv2.line(image, (int(cx), int(cy)), end, colour, max(3, int(size / 20)), cv2.LINE_AA)
        else:  # printed text
            cv2.putText(image, "Magic " * 3, (int(cx), int(cy)), cv2.FONT_HERSHEY_SIMPLEX, size / 150, colour, 2,
                        cv2.LINE_AA)
    work = image.astype(np.float32)
    if rng.random() < hand:
        _hand(rng, work, rng.uniform(0, 1, 2) * (w, h))
    _lighting(rng, work, shadow=True)
    image, params, _ = _finish(rng, np.clip(work, 0, 255).astype(np.uint8), distortion=False, jpeg=True)
    return Photo(image, [], None, params=params)


@dataclass
class ScanScore:
    """How a scan compares with a photo's truth (the bench goals, MT 2.02.e)."""

    found: bool
    squares: int = 0
    wrong_unflagged: int = 0   # read wrong and neither uncertain nor covered: the dangerous case
    flagged: int = 0           # uncertain or covered: a person will confirm
    flagged_needlessly: int = 0  # flagged although visible and read right
    hidden_covered: int = 0    # truly hidden (token, hand) and reported covered: right, not a doubt
    corner_error_px: float = float("nan")
    split: int = 0             # squares of two colours or more in the truth (halves, stripes, diagonals), read
    split_wrong_unflagged: int = 0   # ... of them read wrong and not flagged (issue 28: one colour read, no flag)


def _turns(width: int, height: int) -> list[np.ndarray]:
    """Grid-unit maps of the board onto itself: a board without markers may be read
    from any side (half turn; quarter turns too for a square board)."""
    turns = [np.eye(3), np.array([[-1, 0, width], [0, -1, height], [0, 0, 1]], float)]
    if width == height:
        turns += [np.array([[0, -1, width], [1, 0, 0], [0, 0, 1]], float),
                  np.array([[0, 1, 0], [-1, 0, height], [0, 0, 1]], float)]
    return turns


def compare(result, photo: Photo, *, any_side: bool = False) -> ScanScore:
    """Score a ScanResult against the truth of the photo it was made from (both through their
    mappings, lenses included). `any_side`: the board has no markers, so its reading may start
    from any corner (the truth is turned to match the found mapping)."""
    if not result.found or {result.width, result.height} != {photo.width, photo.height}:
        return ScanScore(False)
    corners = np.array([[0, 0], [result.width, 0], [result.width, result.height], [0, result.height]], np.float64)
    found_mapping = getattr(result, "mapping", None) or GridMapping.coerce(result.homography)
    seen = found_mapping.to_image(corners)
    truth = photo.mapping
    best = None
    for turn in (_turns(photo.width, photo.height) if any_side else [np.eye(3)]):
        true = truth.to_image(cv2.perspectiveTransform(corners.reshape(-1, 1, 2), turn).reshape(-1, 2))
        error = float(np.linalg.norm(seen - true, axis=1).max())
        if best is None or error < best[0]:
            best = (error, turn)
    if (result.width, result.height) != (photo.width, photo.height) and not any_side:
        return ScanScore(False)
    error, turn = best
    score = ScanScore(True, len(result.squares), corner_error_px=error)
    for reading in result.squares:
        cx, cy, _ = turn @ np.array([reading.x + 0.5, reading.y + 0.5, 1.0])
        truth_square = photo.square(int(np.floor(cx)), int(np.floor(cy)))
        right = (reading.colours, reading.obstacle, reading.start, reading.temple) == \
            (truth_square.colours, truth_square.obstacle, truth_square.start, truth_square.temple)
        hidden = reading.covered or not getattr(reading, "visible", True)
        flagged = reading.uncertain or hidden
        score.flagged += flagged
        score.wrong_unflagged += (not right) and not flagged
        if len(truth_square.colours or ()) >= 2:
            score.split += 1
            score.split_wrong_unflagged += (not right) and not flagged
        score.flagged_needlessly += flagged and right and not truth_square.covered
        score.hidden_covered += hidden and truth_square.covered
    return score
