"""What the table settles by hand: a square of the board confirmed (MT 2.02.e), a note in the history, and the
table-wide designations a card gives (#27): the monarch (CR 724), the initiative (CR 725), day and night (CR 726)."""
from __future__ import annotations

from typing import Any

from boards import Square, SquareCodeError, square_label
from companion.game.actions.common import (find_player, handles, on_board, piece_label, player_name, require, said,
                                           seat_after, square_text, words)
from companion.game.data import ActionData
from companion.game.errors import GameError
from companion.game.state import DAY_NIGHT, GameState, Player
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


DESIGNATIONS = ("monarch", "initiative")  # one player at a time holds each (CR 724.2, 725.2)


@handles("give_designation")
def _give_designation(state: GameState, d: ActionData) -> None:
    """A player becomes the monarch or takes the initiative: it leaves whoever held it, so there is only
    ever one holder (CR 724.2, 725.2), a player still in the game."""
    which = d.choice("designation", DESIGNATIONS)
    player = find_player(state, d.integer("player"))
    require(getattr(state, which) != player.id, f"game.error.already_{which}", name=player.name)
    setattr(state, which, player.id)


def hand_on_designations(state: GameState, leaver: Player) -> None:
    """A monarch or initiative holder who leaves passes it on (CR 724.4, 725.4): to the active player, or
    to the next player in turn order when it was the leaver's turn (or no player's: the Horde's)."""
    for which in DESIGNATIONS:
        if getattr(state, which) != leaver.id:
            continue
        active = next((p for p in state.alive if p.id in state.turn.active), None)
        successor = active or seat_after(state, leaver.id)
        setattr(state, which, successor.id if successor else None)


@handles("set_day_night")
def _set_day_night(state: GameState, d: ActionData) -> None:
    """It becomes day or night (CR 726): a table-wide state, unset until a card sets it, then one of the two."""
    value = d.choice("value", DAY_NIGHT)
    require(state.day_night != value, f"game.error.already_{value}")
    state.day_night = value


@words("give_designation")
def _designation_said(before: GameState, after: GameState, data: dict[str, Any]) -> Message:
    return said(f"give_{data['designation']}", player=player_name(after, data.get("player")))


@words("set_day_night")
def _day_night_said(before: GameState, after: GameState, data: dict[str, Any]) -> Message:
    return said(f"becomes_{data['value']}")


@words("set_square")
def _square_said(before: GameState, after: GameState, data: dict[str, Any]) -> Message:
    return said("set_square", square=square_text(data["at"]), code=data["code"])


@words("note")
def _note_said(before: GameState, after: GameState, data: dict[str, Any]) -> Message:
    return said("note", text=data["text"])
