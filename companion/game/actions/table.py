"""What the table settles by hand: a square of the board confirmed (MT 2.02.e), a note in the history."""
from __future__ import annotations

from typing import Any

from boards import Square, SquareCodeError, square_label
from companion.game.actions.common import handles, on_board, piece_label, require, said, square_text, words
from companion.game.data import ActionData
from companion.game.errors import GameError
from companion.game.state import GameState
from companion.rules import (crosses_obstacles)
from companion.rules.wording import Message


@handles("set_square")
def _set_square(state: GameState, d: ActionData) -> None:
    """The table settles what a square really is (MT 2.02.e: a doubtful colour is confirmed by a
    person); the board of the game changes, so bonuses and moves follow it. Flying and distortion
    may stand on an obstacle (MT 6.03, 6.10); nobody else (MT 2.03.b)."""
    at = on_board(state, d.square("at"))
    try:
        square = Square.parse(d.text("code", limit=16))
    except SquareCodeError as exc:
        raise GameError("game.error.square_code", square=square_label(at), problem=str(exc)) from None
    x, y = at
    codes = state.board_rows[y].split()
    codes[x] = square.code
    # A new list, never an edit in place: states share their rows with the snapshots kept for undo.
    state.board_rows = [*state.board_rows[:y], " ".join(codes), *state.board_rows[y + 1:]]
    state.doubtful_squares = [square for square in state.doubtful_squares if square != at]
    if not square.walkable:
        standing = next((p for p in state.pieces.values() if p.at == at and not crosses_obstacles(p)), None)
        require(standing is None, "game.error.obstacle_holds", "MT 2.03.b", square=square_label(at),
                name=standing and piece_label(standing))


@handles("note")
def _note(state: GameState, d: ActionData) -> None:
    """A free text line in the history (no effect on the state)."""
    d.text("text", limit=5000)


@words("set_square")
def _square_said(before: GameState, after: GameState, data: dict[str, Any]) -> Message:
    return said("set_square", square=square_text(data["at"]), code=data["code"])


@words("note")
def _note_said(before: GameState, after: GameState, data: dict[str, Any]) -> Message:
    return said("note", text=data["text"])
