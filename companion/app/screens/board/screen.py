"""Board screen: the board as printed, tokens where they stand, and the overlays of the tapped token.

Tap a token: its action zone, its legal moves for the current roll, its colour bonus on its
square, who may block it, where it may attack from (`presenter`, from `companion.rules`). Tap a
square: its colours and what stands there. Pinch to zoom, drag to pan; while squares are too
small for a finger, a tap zooms in around it first.
"""
from __future__ import annotations

from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.screenmanager import Screen

from boards import XY
from companion.app.kv import load_kv_beside
from companion.app.running import running_app
from companion.app.screens.board import presenter
from companion.app.widgets.board_image import board_picture
from companion.app.widgets.board_view import BoardView
from companion.app.widgets.controls import BigButton
from companion.app.widgets.token_art import screen_token
from companion.app.words import turn_text
from companion.game import Entry

load_kv_beside(__file__)


def _draw_token(key, diameter: int):
    player, number, kind = key
    return screen_token(player, number, diameter, kind)


class BoardScreen(Screen):
    info = StringProperty("")
    turn = StringProperty("")
    movement = StringProperty("")   # the movement left this turn for the selected piece
    board_view: BoardView = ObjectProperty(None)

    def on_kv_post(self, *_):
        app = running_app()
        app.bind(revision=lambda *_: self.redraw(), selected=lambda *_: self.redraw_overlays())
        self.board_view.bind(on_square_tap=lambda _view, at: self.on_tap(at))
        self._shown_board = None
        self._square_info = ""
        self.redraw()

    # -- drawing -------------------------------------------------------
    def redraw(self) -> None:
        """Board texture (only when the board changed), tokens, overlays and the side panel."""
        app = running_app()
        if app.game is None:
            return
        state = app.game.state
        board = state.board
        if self._shown_board is not board:
            self.board_view.set_picture(board_picture(board), (board.width, board.height))
            self._shown_board = board
        self.board_view.surface.draw_tokens([((p.player, p.number, p.kind), p.at) for p in state.pieces.values()
                                             if p.at is not None], _draw_token)
        self.turn = turn_text(state, app.lang)
        self.redraw_overlays()

    def redraw_overlays(self) -> None:
        app = running_app()
        if app.game is None:
            return
        state = app.game.state
        token = app.selected if app.selected is not None and tuple(app.selected) in state.pieces else None
        overlay = presenter.piece_overlay(state, token)
        entry = presenter.entry_overlay(app.game, token)  # a token off the grid: where it may enter
        self.board_view.surface.draw_overlays({**overlay.layers, **entry.layers}, overlay.rings)
        self.movement = presenter.movement_line(app.game, token, app.lang)
        self.info = presenter.describe_piece(app.game, token, app.lang) if token else self._square_info
        self._offer_bonus_choice(token)

    def _offer_bonus_choice(self, token) -> None:
        """MT 2.02.c: in its controller's upkeep, one button per bonus a multicoloured creature may pick."""
        app = running_app()
        row = self.ids.bonus_choices
        row.clear_widgets()
        for colour in presenter.bonus_choices_open(app.game, token):
            button = BigButton(text=app.t(f"colours.{colour}"), font_size="16sp")
            button.bind(on_release=lambda _b, c=colour: app.play(presenter.choose_bonus, tuple(token), c))
            row.add_widget(button)

    # -- touches -------------------------------------------------------
    def on_tap(self, at: XY) -> None:
        """A tap on a token selects it (overlays); on a square it moves the selected token there when
        that is one of its legal moves (or places a token not yet on the grid), else tells the square.
        `at`: the board view's `on_square_tap` square, a (column, row) tuple."""
        app = running_app()
        if app.game is None:
            return
        state = app.game.state
        piece = next((p for p in state.pieces.values() if p.at == at), None)
        if piece is not None:
            app.selected = None if app.selected == piece.token else piece.token
            return
        if app.selected is not None and presenter.may_move_to(state, app.selected, at):
            chosen = state.pieces[tuple(app.selected)]
            if chosen.at is not None:
                app.play(presenter.move_piece, chosen.token, at)
            elif chosen.kind == "player":  # a pawn the table places (no start square was left for it)
                if app.play(presenter.place_pawn, chosen.player, at) is not None and not app.place_next_pawn():
                    app.selected = None
            else:  # a new token enters as a creature spell (MT 4.09.c)
                app.play(presenter.place_piece, chosen.token, at, entry=Entry("cast"))
            return
        app.selected = None
        self._square_info = presenter.describe_square(state, at, app.lang)
        self.info = self._square_info

    def roll_selected(self) -> None:
        app = running_app()
        if app.selected is not None:
            app.play(presenter.roll_movement, tuple(app.selected))
