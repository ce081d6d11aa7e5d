"""Board screen: the board as printed, tokens where they stand, and the overlays of the tapped token.

Tap a token: its action zone, its legal moves for the current roll, its colour bonus on its
square, who may block it, where it may attack from (`presenter`, from `companion.rules`). Tap a
square: its colours and what stands there. Pinch to zoom, drag to pan; while squares are too
small for a finger, a tap zooms in around it first.

Layouts (issue #27): held upright, the board fills the width and its panel is below it; turned, the
panel is beside it. On a phone the panel is the tapped token's sheet: a tap on a token opens it (the
token, its movement, what it may do, Roll and Edit), Close or a tap elsewhere gives the turn back
(the hint, Next phase, End of turn). The sheet never covers the board: a move is a tap on it.
"""
from __future__ import annotations

from kivy.factory import Factory
from kivy.properties import BooleanProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.screenmanager import Screen

from boards import XY
from companion.app.device import LARGE_TABLET, PHONE
from companion.app.kv import load_kv_beside
from companion.app.running import running_app
from companion.app.screens.board import presenter
from companion.app.widgets.board_image import board_picture
from companion.app.widgets.board_view import BoardView
from companion.app.widgets.token_art import screen_token
from companion.app.words import token_text, turn_text
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
    board_aspect = NumericProperty(0.65)    # the board picture's height / width: upright, the view fits the width
    sheet_layout = BooleanProperty(False)   # a phone: the panel is the tapped token's sheet
    sheet_open = BooleanProperty(False)     # a token is tapped: its sheet is shown
    sheet_title = StringProperty("")
    roomy = BooleanProperty(True)           # a large tablet turned: the panel's height holds a button a row

    def on_kv_post(self, *_):
        app = running_app()
        app.bind(revision=lambda *_: self.redraw(), selected=lambda *_: self.redraw_overlays(),
                 device=lambda *_: self._follow_device(), portrait=lambda *_: self._follow_device())
        self._follow_device()
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
            picture = board_picture(board)
            self.board_aspect = picture.image.shape[0] / picture.image.shape[1]
            self.board_view.set_picture(picture, (board.width, board.height))
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
        self.sheet_open = token is not None
        self.sheet_title = f"[b]{token_text(state, token, app.lang)}[/b]" if token is not None else ""
        self._offer_bonus_choice(token)
        if token is not None:
            self.ids.panel_scroll.scroll_y = 1   # a token tapped: its sheet from the top

    def _follow_device(self) -> None:
        app = running_app()
        self.sheet_layout = app.device == PHONE
        self.roomy = app.device == LARGE_TABLET and not app.portrait

    def close_sheet(self) -> None:
        """The phone's piece sheet closed: no token chosen, the turn's panel again."""
        running_app().selected = None

    def _offer_bonus_choice(self, token) -> None:
        """MT 2.02.c: in its controller's upkeep, one button per bonus a multicoloured creature may pick."""
        app = running_app()
        row = self.ids.bonus_choices
        row.clear_widgets()
        for colour in presenter.bonus_choices_open(app.game, token):
            button = Factory.BoardPanelButton(text=app.t(f"colours.{colour}"))
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

    # -- layouts, the autopilot and the device matrix ---------------------------------------------
    def reveal(self, widget) -> bool:
        """The autopilot taps a turn button hidden under a phone's piece sheet: close the sheet first
        (True: it had to). The sheet's own buttons need a token, tapped on the board first."""
        if self.sheet_layout and self.sheet_open and widget in (self.ids.next_phase, self.ids.end_turn):
            self.close_sheet()
            return True
        return False

    def layout_cases(self) -> dict:
        """What the Board shows besides the turn's panel, for the device matrix: the sheet of a token
        on the grid (rolled: its movement line and moves), of a pawn to place, and the board zoomed in."""
        return {"sheet": lambda: self._select_for_matrix(rolled=False),
                "sheet_rolled": lambda: self._select_for_matrix(rolled=True),
                "zoomed": self._zoom_for_matrix}

    def _select_for_matrix(self, rolled: bool) -> None:
        app = running_app()
        pieces = [p for p in app.game.state.pieces.values() if p.at is not None]
        if pieces:
            app.selected = pieces[0].token
            if rolled:
                self.roll_selected()

    def _zoom_for_matrix(self) -> None:
        view = self.board_view
        view.zoom_at(view.to_window(*view.center), view.zoom_dp)

    def autopilot_report(self) -> dict:
        """The layout as shown (for the tests): the sheet, the rulers of a zoomed board."""
        return {"sheet_layout": self.sheet_layout, "sheet_open": self.sheet_open,
                "rulers": dict(self.board_view.rulers), "fitted": self.board_view.fitted,
                "next_phase_shown": self.ids.next_phase.get_root_window() is not None}

    def roll_selected(self) -> None:
        app = running_app()
        if app.selected is not None:
            app.play(presenter.roll_movement, tuple(app.selected))
