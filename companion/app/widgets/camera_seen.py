"""The Board screen's "seen by the camera, to confirm": a layer the board view draws over its
tokens, and a short panel with the moves and a Record button.

What the camera sees never moves the game's tokens by itself: each token seen elsewhere is drawn
as a ghost on the square where it is seen, framed green when the move is legal and orange when
it is not (cards may allow it), with a line from the square the game has it on. One tap on
Record makes the game agree: each move recorded as the game's judged move (`Game.move_piece`,
spending its steps; one the rules refuse, as allowed by a card), one undo step each. Driven by `App.camera_view` through the pure
presenter `companion.app.screens.camera.presenter.seen_layer`.
"""
from __future__ import annotations

from kivy.graphics import Color, Line, Rectangle
from kivy.lang import Builder
from kivy.properties import BooleanProperty, ObjectProperty, StringProperty
from kivy.uix.widget import Widget

from companion.camera import record_seen
from companion.app.running import running_app
from companion.app.screens.camera.presenter import markup, move_lines, namer, seen_layer
from companion.app.widgets.board_view import bgr_texture
from companion.app.widgets.controls import Reveal
from companion.app.widgets.token_art import screen_token

LEGAL_RGBA = (0.1, 1.0, 0.35, 1.0)
ILLEGAL_RGBA = (1.0, 0.55, 0.0, 1.0)
GHOST_ALPHA = 0.6

Builder.load_string('''
<CameraSeenPanel>:
    orientation: "vertical"
    spacing: dp(4)
    Caption:
        text: "[b]" + app.t("camera.moves", app.lang) + "[/b]\\n" + root.text
        markup: True
        color: 1, 0.8, 0.55, 1
    BigButton:
        id: record
        text: app.t("camera.record", app.lang)
        font_size: sp(18)
        halign: "center"
        text_size: self.width - dp(12), None
        height: max(dp(56), self.texture_size[1] + dp(14))
        disabled: not root.has_moves
        on_release: root.record()
''')


class CameraSeenLayer(Widget):
    """Ghost tokens where the camera sees them, in the board surface's coordinates."""

    def __init__(self, surface, **kwargs):
        super().__init__(**kwargs)
        self.surface = surface
        self._textures: dict = {}
        self.drawn: tuple = ()        # (token, square, legal) drawn now

    def show(self, layer) -> None:
        self.canvas.clear()
        self.drawn = layer.ghosts
        picture = self.surface.picture
        if picture is None or not layer.ghosts:
            return
        side = picture.px_per_square
        with self.canvas:
            for (frm, to) in layer.arrows:
                Color(1, 1, 1, 0.85)
                Line(points=[*self._centre(frm), *self._centre(to)], width=max(1.5, side / 18))
            for token, at, legal in layer.ghosts:
                x, y = self.surface.square_origin(at)
                Color(1, 1, 1, GHOST_ALPHA)
                pad = side * 0.07
                Rectangle(texture=self._texture(token, int(side * 0.86)), pos=(x + pad, y + pad),
                          size=(side - 2 * pad, side - 2 * pad))
                Color(*(LEGAL_RGBA if legal else ILLEGAL_RGBA))
                Line(rectangle=(x + 2, y + 2, side - 4, side - 4), width=max(1.5, side / 16))

    def _centre(self, at) -> tuple[float, float]:
        x, y = self.surface.square_origin(at)
        half = self.surface.picture.px_per_square / 2
        return x + half, y + half

    def _texture(self, token, diameter: int):
        """The token as the board view draws it (its colour, number and kind's shape)."""
        game = running_app().game
        piece = game.state.pieces.get(token) if game is not None else None
        key = (token, diameter, piece.kind if piece else "creature")
        if key not in self._textures:
            self._textures[key] = bgr_texture(screen_token(token[0], token[1], diameter, key[2]))
        return self._textures[key]


class CameraSeenPanel(Reveal):
    """The moves the camera saw, with their verdicts, and Record, and the tokens it sees that the
    game does not know (the table enters them: a card, its owner); hidden when there is none.
    `board_view`: the board view whose surface gets the ghost layer."""

    board_view = ObjectProperty(None)
    text = StringProperty("")
    has_moves = BooleanProperty(False)

    def on_board_view(self, _panel, view) -> None:
        self.layer = CameraSeenLayer(view.surface)
        view.surface.add_widget(self.layer)
        app = running_app()
        app.bind(camera_view=lambda *_: self.refresh(), lang=lambda *_: self.refresh())
        view.surface.bind(picture=lambda *_: self.refresh())
        self.refresh()

    def refresh(self) -> None:
        app = running_app()
        view = app.camera_view
        self.layer.show(seen_layer(view))
        lines = move_lines(view, app.t, app.lang, namer(app.game.state)) if view is not None and app.game else []
        self.has_moves = bool(view is not None and view.moves)
        self.text, self.shown = markup(lines), bool(view is not None and (view.moves or view.unknown or view.catching_up))

    def record(self) -> None:
        """The table agrees with the camera: the game moves the tokens (legal or not: cards may allow it)."""
        app = running_app()
        if app.camera_view is not None and app.camera_view.moves:
            record_seen(app.game, app.camera_view.positions, app.play)
