"""Board screen: the board as printed, tokens where they stand, and the overlays of the tapped token.

Tap a token: its action zone, its legal moves for the current roll, its colour
bonus on its square, who may block it, where it may attack from (all from
`companion.rules` through the session). Tap a square: its colours and what
stands there. Pinch to zoom, drag to pan.
"""
from __future__ import annotations

from kivy.app import App
from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.screenmanager import Screen

from companion.app.kv import load_kv_beside
from companion.app.widgets.controls import BigButton
from companion.app.widgets.board_view import BoardView

load_kv_beside(__file__)


class BoardScreen(Screen):
    info = StringProperty("")
    board_view: BoardView = ObjectProperty(None)

    def on_kv_post(self, *_):
        app = App.get_running_app()
        app.bind(revision=lambda *_: self.redraw(), selected=lambda *_: self.redraw_overlays())
        self.board_view.bind(on_square_tap=lambda _view, at: self.on_tap(at))
        self._shown_board = None
        self.redraw()

    # -- drawing -------------------------------------------------------
    def redraw(self) -> None:
        """Board texture (only when the board changed), tokens, overlays and the info panel."""
        session = App.get_running_app().session
        if not session.has_game:
            return
        if self._shown_board is not session.board:
            self.board_view.set_picture(session.board_picture(), (session.board.width, session.board.height))
            self._shown_board = session.board
        self.board_view.surface.draw_tokens(session.tokens_on_board(), session.render_token)
        self.redraw_overlays()

    def redraw_overlays(self) -> None:
        app = App.get_running_app()
        session = app.session
        if not session.has_game:
            return
        token = app.selected if app.selected in session.tokens() else None
        overlay = session.overlays(token) if token else None
        layers = overlay.layers if overlay else {}
        rings = overlay.rings if overlay else {}
        self.board_view.surface.draw_overlays(layers, rings)
        self.info = session.describe_piece(token, app.lang) if token else self._last_square_info
        self._offer_bonus_choice(token)

    def _offer_bonus_choice(self, token) -> None:
        """MT 2.02.c: in its controller's upkeep, one button per bonus a multicoloured creature may pick."""
        app = App.get_running_app()
        row = self.ids.bonus_choices
        row.clear_widgets()
        for colour in (app.session.bonus_choices_open(token) if token else []):
            button = BigButton(text=app.t(f"colours.{colour}"), font_size="16sp")
            button.bind(on_release=lambda _b, c=colour: app.perform("choose_bonus", token, c))
            row.add_widget(button)

    _last_square_info = ""

    # -- touches -------------------------------------------------------
    def on_tap(self, at: tuple[int, int]) -> None:
        """A tap on a token selects it (overlays); on a square it moves the selected token there when
        that is one of its legal moves (or places a token not yet on the grid), else tells the square."""
        app = App.get_running_app()
        session = app.session
        piece = session.piece_at(at)
        if piece is not None:
            app.selected = None if app.selected == piece.token else piece.token
        else:
            if app.selected in session.tokens():
                off_grid = session.piece(app.selected).at is None  # a new token: placed where tapped
                if off_grid or at in session.overlays(app.selected).layers.get("moves", ()):
                    app.perform("move_piece", app.selected, at)
                    return
            app.selected = None
            self._last_square_info = session.describe_square(at, app.lang)
            self.info = self._last_square_info

    def roll_selected(self) -> None:
        app = App.get_running_app()
        if app.selected is not None:
            app.perform("roll_movement", app.selected)
