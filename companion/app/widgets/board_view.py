"""The board as the players see it, tokens on it, overlays over it; pinch to zoom, drag to pan.

One texture for the board, one Mesh per overlay layer and per ring style, and
all tokens as ONE Mesh over one atlas texture: a full frame of a 40×25 board with
120 tokens and every overlay is a handful of draw calls, not a thousand widgets.
Only what changed is rebuilt: a layer whose squares are the same keeps its Mesh,
and the tokens' mesh is rebuilt only when a token moves (measured by `companion.bench.app`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

import numpy as np
from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, InstructionGroup, Mesh, Rectangle
from kivy.graphics.texture import Texture
from kivy.metrics import dp, sp
from kivy.properties import BooleanProperty, NumericProperty, ObjectProperty
from kivy.uix.scatter import Scatter
from kivy.uix.stencilview import StencilView
from kivy.uix.widget import Widget

from boards import XY, GridSize
from boards.model import column_label
from companion.app.widgets.board_image import BoardPicture


@dataclass(frozen=True)
class OverlayStyle:
    """How one overlay layer looks: RGBA fill and how far the quad is inset in its square (0..0.5);
    `outline`: drawn as a frame of that many squares' width inside each square, not filled — the
    square's own colour stays readable in its middle (issue #27: a yellow tint over the whole square
    made blue read grey and green olive)."""

    rgba: tuple[float, float, float, float]
    inset: float = 0.0
    outline: float = 0.0


# Drawn in this order, so later layers sit on top of earlier ones.
OVERLAY_STYLES: dict[str, OverlayStyle] = {
    "zone": OverlayStyle((1.0, 0.85, 0.1, 0.95), outline=0.12),  # action zone (MT 4.03): a yellow frame
    "moves": OverlayStyle((0.1, 1.0, 0.35, 0.60), 0.22),   # where the piece may end its move (MT 3.04.b)
    "attack": OverlayStyle((1.0, 0.15, 0.1, 0.75), 0.36),  # squares to attack from (MT 5.03.a)
    "doubtful": OverlayStyle((1.0, 0.0, 1.0, 0.45), 0.10), # camera: colour to confirm (MT 2.02.e)
    "entry": OverlayStyle((0.62, 0.2, 1.0, 0.9), 0.25),    # where a new token may enter (MT 4.09.c, 2.04.a)
}
RING_STYLES = {
    "blockers": (1.0, 0.45, 0.0, 1.0),   # pieces that may block the selected one (MT 5.04)
    "selected": (1.0, 1.0, 1.0, 1.0),
}


def bgr_texture(image_bgr: np.ndarray) -> Texture:
    """A Kivy texture (origin bottom-left) from an OpenCV-style BGR/BGRA image (origin top-left)."""
    height, width = image_bgr.shape[:2]
    fmt = "bgra" if image_bgr.ndim == 3 and image_bgr.shape[2] == 4 else "bgr"
    texture = Texture.create(size=(width, height), colorfmt=fmt)
    texture.blit_buffer(np.ascontiguousarray(image_bgr[::-1]).tobytes(), colorfmt=fmt, bufferfmt="ubyte")
    return texture


def quad_mesh_arrays(corners: np.ndarray, uvs: np.ndarray | None = None) -> tuple[list[float], list[int]]:
    """Vertices (x, y, u, v) and triangle indices for quads given as an (n, 4, 2) array
    (texture coordinates `uvs` of the same shape, for textured quads)."""
    n = len(corners)
    vertices = np.zeros((n, 4, 4), dtype=np.float32)
    vertices[:, :, :2] = corners
    if uvs is not None:
        vertices[:, :, 2:] = uvs
    base = (np.arange(n, dtype=np.int64) * 4)[:, None]
    indices = (base + np.array([0, 1, 2, 2, 3, 0])).ravel()
    return vertices.ravel().tolist(), indices.tolist()


class BoardSurface(Widget):
    """The board in image-pixel units (1 unit = 1 texture pixel, y up); the scatter scales it."""

    picture = ObjectProperty(None, allownone=True)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.size_hint = (None, None)
        self._board_group = InstructionGroup()
        self._overlay_group = InstructionGroup()
        self._token_group = InstructionGroup()
        self._ring_group = InstructionGroup()
        for group in (self._board_group, self._overlay_group, self._token_group, self._ring_group):
            self.canvas.add(group)
        # one group per layer / ring style, in drawing order, rebuilt only when its squares change
        self._layer_groups = {name: InstructionGroup() for name in OVERLAY_STYLES}
        for group in self._layer_groups.values():
            self._overlay_group.add(group)
        self._ring_groups = {name: InstructionGroup() for name in RING_STYLES}
        for group in self._ring_groups.values():
            self._ring_group.add(group)
        self._atlas: tuple[tuple, Texture, dict] | None = None  # (token keys, texture, key -> uv quad)
        self._drawn_tokens: tuple | None = None
        self.drawn: dict[str, frozenset[XY]] = {}  # squares of each layer/ring now on screen
        self.grid: GridSize = (0, 0)                # the board's columns and rows

    # -- geometry ------------------------------------------------------
    def square_origin(self, at: XY) -> tuple[float, float]:
        """Bottom-left corner of square `at` in surface coordinates."""
        pic: BoardPicture = self.picture
        left, top, side, _ = pic.square_rect(at)
        return float(left), float(pic.image.shape[0] - top - side)

    def square_at(self, x: float, y: float) -> XY | None:
        """The square under a surface point, or None outside the grid."""
        pic: BoardPicture = self.picture
        if pic is None:
            return None
        side = pic.px_per_square
        col = int((x - pic.origin[0]) // side)
        row = int((pic.image.shape[0] - y - pic.origin[1]) // side)
        width, height = self.grid
        return (col, row) if 0 <= col < width and 0 <= row < height else None

    def set_picture(self, picture: BoardPicture, grid: GridSize) -> None:
        self.picture = picture
        self.grid = grid
        height, width = picture.image.shape[:2]
        self.size = (width, height)
        self._board_group.clear()
        self._board_group.add(Color(1, 1, 1, 1))
        self._board_group.add(Rectangle(texture=bgr_texture(picture.image), pos=(0, 0), size=(width, height)))
        self.drawn, self._drawn_tokens = {}, None  # a new picture: every layer is drawn afresh
        for group in (*self._layer_groups.values(), *self._ring_groups.values(), self._token_group):
            group.clear()

    # -- drawing -------------------------------------------------------
    def _quads(self, squares: Iterable[XY], inset: float) -> np.ndarray:
        pic: BoardPicture = self.picture
        side = pic.px_per_square
        pts = np.array(sorted(squares), dtype=np.float32).reshape(-1, 2)
        left = pic.origin[0] + pts[:, 0] * side + inset * side
        bottom = pic.image.shape[0] - pic.origin[1] - (pts[:, 1] + 1) * side + inset * side
        size = side * (1 - 2 * inset)
        corners = np.stack([np.stack([left, bottom], 1), np.stack([left + size, bottom], 1),
                            np.stack([left + size, bottom + size], 1), np.stack([left, bottom + size], 1)], 1)
        return corners

    def _ring_quads(self, squares: Iterable[XY], width: float | None = None, inset: float | None = None) -> np.ndarray:
        """Four thin quads (a frame, `width` texture pixels wide) inside each square, as an (4n, 4, 2) array."""
        side = self.picture.px_per_square
        width = width or max(2.0, side / 14)
        inner = self._quads(squares, 2 / side if inset is None else inset)  # (n, 4, 2): bottom-left, bottom-right, top-right, top-left
        (x0, y0), (x1, y1) = inner[:, 0].T, inner[:, 2].T
        bars = [(x0, y0, x1, y0 + width), (x0, y1 - width, x1, y1), (x0, y0, x0 + width, y1), (x1 - width, y0, x1, y1)]
        quads = [np.stack([np.stack([l, b], 1), np.stack([r, b], 1), np.stack([r, t], 1), np.stack([l, t], 1)], 1)
                 for l, b, r, t in bars]
        return np.concatenate(quads)

    def draw_overlays(self, layers: dict[str, Iterable[XY]], rings: dict[str, Iterable[XY]]) -> None:
        """Show these overlays: filled layers (OVERLAY_STYLES) and rings around squares (RING_STYLES).
        A layer or ring whose squares did not change keeps its Mesh (nothing re-sent to the GPU)."""
        wanted = {name: frozenset(squares) for name, squares in {**layers, **rings}.items()}
        if self.picture is None:
            self.drawn = wanted
            return
        for name, style in OVERLAY_STYLES.items():
            squares = wanted.get(name, frozenset())
            if squares != self.drawn.get(name, frozenset()):
                if style.outline and squares:
                    quads = self._ring_quads(squares, style.outline * self.picture.px_per_square, style.inset + 1 / 14)
                else:
                    quads = self._quads(squares, style.inset) if squares else None
                self._fill(self._layer_groups[name], style.rgba, quads)
        for name, rgba in RING_STYLES.items():
            squares = wanted.get(name, frozenset())
            if squares != self.drawn.get(name, frozenset()):
                self._fill(self._ring_groups[name], rgba, self._ring_quads(squares) if squares else None)
        self.drawn = wanted

    @staticmethod
    def _fill(group: InstructionGroup, rgba, corners: np.ndarray | None) -> None:
        group.clear()
        if corners is not None:
            vertices, indices = quad_mesh_arrays(corners)
            group.add(Color(*rgba))
            group.add(Mesh(vertices=vertices, indices=indices, mode="triangles"))

    def _token_atlas(self, keys: tuple, render_token, diameter: int) -> tuple[Texture, dict]:
        """All token pictures in one texture (a grid of `diameter` cells): one texture bind for every token.
        A key is what `render_token(key, diameter)` draws (e.g. player, number, kind)."""
        if self._atlas is None or not set(keys) <= set(self._atlas[0]):
            keys = tuple(sorted(set(keys) | set(self._atlas[0] if self._atlas else ())))
            cols = max(1, int(np.ceil(np.sqrt(len(keys)))))
            rows = max(1, -(-len(keys) // cols))
            sheet = np.zeros((rows * diameter, cols * diameter, 4), np.uint8)
            uv = {}
            for index, key in enumerate(keys):
                row, col = divmod(index, cols)
                picture = render_token(key, diameter)
                if picture.shape[2] == 3:
                    picture = np.dstack([picture, np.full(picture.shape[:2], 255, np.uint8)])
                sheet[row * diameter:(row + 1) * diameter, col * diameter:(col + 1) * diameter] = picture
                # texture v grows upwards; the sheet is flipped when uploaded (bgr_texture)
                u0, u1 = col / cols, (col + 1) / cols
                v0, v1 = 1 - (row + 1) / rows, 1 - row / rows
                uv[key] = np.array([(u0, v0), (u1, v0), (u1, v1), (u0, v1)], np.float32)
            self._atlas = (keys, bgr_texture(sheet), uv)
        return self._atlas[1], self._atlas[2]

    def draw_tokens(self, tokens: Iterable[tuple[tuple, XY]], render_token) -> None:
        """Tokens (key, square) drawn with `render_token(key, diameter) -> BGRA`, all in one Mesh;
        nothing is rebuilt when no token moved or changed."""
        tokens = tuple(sorted(tokens))
        if self.picture is None or tokens == self._drawn_tokens:
            return
        self._drawn_tokens = tokens
        self._token_group.clear()
        if not tokens:
            return
        side = self.picture.px_per_square
        diameter = int(side * 0.86)
        texture, uv = self._token_atlas(tuple(key for key, _ in tokens), render_token, diameter)
        pad = (side - diameter) / 2 / side
        corners = self._quads([at for _, at in tokens], pad)
        # _quads sorts squares: keep each token's uv with its own square
        order = sorted(range(len(tokens)), key=lambda i: tokens[i][1])
        uvs = np.stack([uv[tokens[i][0]] for i in order])
        vertices, indices = quad_mesh_arrays(corners, uvs)
        self._token_group.add(Color(1, 1, 1, 1))
        self._token_group.add(Mesh(vertices=vertices, indices=indices, mode="triangles", texture=texture))


def ruler_marks(first: float, side: float, count: int, low: float, high: float, gap: float) -> list[tuple[int, float]]:
    """(index, centre) of the rows or columns to label along one edge of the view: square `index`
    has its centre at `first + (index + 0.5) * side`; only the centres inside [low, high], and no two
    labels closer than `gap` (every second, fourth… square when they are small). Pure."""
    step = 1
    while side * step < gap:
        step *= 2
    marks = []
    for index in range(0, count, step):
        centre = first + (index + 0.5) * side
        if low <= centre <= high:
            marks.append((index, centre))
    return marks


class BoardView(StencilView):
    """Clips the zoomable board; dispatches `on_square_tap(square)` for a tap that did not pan.

    A finger needs a square of at least `finger_dp`: while the squares on screen are smaller (a
    40×25 board fitted whole gives about 22 dp), a tap zooms in around the finger to `zoom_dp`
    squares instead of choosing a square; the next tap chooses. `fit` shows the whole board again.

    Zoomed in, the coordinates printed around the grid leave the view: rulers along its top and
    left edges then name the columns and rows shown (issue #27), as a map keeps its grid letters.
    """

    min_zoom = NumericProperty(0.3)
    max_zoom = NumericProperty(6.0)
    square_dp = NumericProperty(0)    # a square's side on screen now, in dp
    finger_dp = NumericProperty(48)
    zoom_dp = NumericProperty(64)
    fitted = BooleanProperty(True)    # the whole board is shown (no zoom or pan since `fit`)
    TAP_SLOP = 12  # pixels a finger may drift and still count as a tap

    __events__ = ("on_square_tap",)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.scatter = Scatter(do_rotation=False, auto_bring_to_front=False,
                               size_hint=(None, None), scale_min=0.05, scale_max=8)
        self.surface = BoardSurface()
        self.scatter.add_widget(self.surface)
        self.add_widget(self.scatter)
        self.scatter.bind(scale=self._measure, pos=self._moved)
        self.bind(size=lambda *_: self.fit(), pos=lambda *_: self.fit())
        self._fitting = False
        self._rulers = InstructionGroup()
        self.canvas.after.add(self._rulers)
        self._label_textures: dict[str, Texture] = {}
        self.rulers: dict[str, list[str]] = {"columns": [], "rows": []}   # the labels the rulers show now
        self._redraw_rulers = Clock.create_trigger(lambda dt: self.draw_rulers(), 0)
        self.scatter.bind(transform=lambda *_: self._redraw_rulers())
        self.bind(fitted=lambda *_: self._redraw_rulers(), size=lambda *_: self._redraw_rulers())

    RULER_DP = 18      # the rulers' thickness
    RULER_GAP_DP = 26  # the least room between two labels of a ruler

    def _label_texture(self, text: str) -> Texture:
        if text not in self._label_textures:
            label = CoreLabel(text=text, font_size=sp(11), bold=True)
            label.refresh()
            self._label_textures[text] = label.texture
        return self._label_textures[text]

    def draw_rulers(self) -> None:
        """The column letters along the top edge and the row numbers along the left edge, for the
        squares shown, while the view is zoomed or panned (fitted, the printed ones are in sight)."""
        self._rulers.clear()
        self.rulers = {"columns": [], "rows": []}
        picture = self.surface.picture
        if picture is None or self.fitted:
            return
        width, height = self.surface.grid
        thickness, gap = dp(self.RULER_DP), dp(self.RULER_GAP_DP)
        side = picture.px_per_square * self.scatter.scale
        left, top = self.scatter.to_parent(picture.origin[0], picture.image.shape[0] - picture.origin[1])
        columns = ruler_marks(left, side, width, self.x + thickness, self.right, gap)
        rows = ruler_marks(-top, side, height, -self.top + thickness, -self.y, gap)  # rows count downwards
        self._rulers.add(Color(0.08, 0.09, 0.12, 0.85))
        self._rulers.add(Rectangle(pos=(self.x, self.top - thickness), size=(self.width, thickness)))
        self._rulers.add(Rectangle(pos=(self.x, self.y), size=(thickness, self.height - thickness)))
        self._rulers.add(Color(1, 1, 1, 1))
        for index, centre in columns:
            texture = self._label_texture(column_label(index))
            self._rulers.add(Rectangle(texture=texture, size=texture.size,
                                       pos=(centre - texture.width / 2, self.top - (thickness + texture.height) / 2)))
        for index, centre in rows:
            texture = self._label_texture(str(index + 1))
            self._rulers.add(Rectangle(texture=texture, size=texture.size,
                                       pos=(self.x + (thickness - texture.width) / 2, -centre - texture.height / 2)))
        self.rulers = {"columns": [column_label(i) for i, _ in columns], "rows": [str(i + 1) for i, _ in rows]}

    def set_picture(self, picture: BoardPicture, grid: GridSize) -> None:
        self.surface.set_picture(picture, grid)
        self.scatter.size = self.surface.size
        self.fit()

    def fit(self) -> None:
        """Show the whole board centred in the view (the state before any pinch)."""
        if self.surface.picture is None or not self.width or not self.height:
            return
        width, height = self.surface.size
        scale = min(self.width / width, self.height / height)
        self._fitting = True
        self.scatter.scale = scale
        self.scatter.pos = (self.x + (self.width - width * scale) / 2, self.y + (self.height - height * scale) / 2)
        self._fitting = False
        self.fitted = True
        self._measure()

    def _measure(self, *_):
        picture = self.surface.picture
        self.square_dp = self.scatter.scale * picture.px_per_square / dp(1) if picture is not None else 0

    def _moved(self, *_):
        if not self._fitting:
            self.fitted = False

    def zoom_at(self, window_pos: tuple[float, float], square_dp: float) -> None:
        """Zoom so that squares measure `square_dp`, keeping the point under the finger in place."""
        from kivy.graphics.transformation import Matrix

        factor = square_dp * dp(1) / self.surface.picture.px_per_square / self.scatter.scale
        # the scale is applied in the scatter's parent space (pre-multiplied): the anchor is a point there
        anchor = self.to_widget(*window_pos, relative=False)
        self.scatter.apply_transform(Matrix().scale(factor, factor, 1), anchor=anchor)

    def window_point_of(self, at: XY) -> tuple[float, float]:
        """Window coordinates of the centre of square `at` (used by tests to tap a token)."""
        x, y = self.surface.square_origin(at)
        half = self.surface.picture.px_per_square / 2
        return self.to_window(*self.scatter.to_parent(x + half, y + half))

    WHEEL_STEP = 1.15  # desktop: one mouse-wheel notch zooms by this factor around the pointer

    def on_touch_down(self, touch):
        if not self.collide_point(*touch.pos):
            return False  # a zoomed board reaches past the view: a tap on the nav bar is not the board's
        if touch.is_mouse_scrolling:
            factor = self.WHEEL_STEP if touch.button == "scrolldown" else 1 / self.WHEEL_STEP
            new_scale = min(self.max_zoom, max(self.min_zoom, self.scatter.scale * factor))
            if new_scale != self.scatter.scale:
                from kivy.graphics.transformation import Matrix

                self.scatter.apply_transform(Matrix().scale(new_scale / self.scatter.scale,
                                                            new_scale / self.scatter.scale, 1), anchor=touch.pos)
            return True
        touch.ud.setdefault("board_tap_start", touch.pos)
        return super().on_touch_down(touch)

    def on_touch_up(self, touch):
        handled = super().on_touch_up(touch)
        start = touch.ud.get("board_tap_start")
        if start and self.collide_point(*touch.pos) and touch.grab_current in (None, self):
            if abs(touch.x - start[0]) <= self.TAP_SLOP and abs(touch.y - start[1]) <= self.TAP_SLOP:
                square = self.surface.square_at(*self.scatter.to_local(*touch.pos))
                touch.ud.pop("board_tap_start")
                if square is not None and self.square_dp < self.finger_dp:
                    self.zoom_at(self.to_window(*touch.pos), self.zoom_dp)  # too small for a finger: zoom first
                    return True
                if square is not None:
                    self.dispatch("on_square_tap", square)
                    return True
        return handled

    def on_square_tap(self, square: XY) -> None:
        """Default handler: screens bind to this event."""
