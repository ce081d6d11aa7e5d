"""What every family of actions shares: the registry of kinds, the checks of the data against the
state (a player, a token, a square of the board, a free square) and the words of the history.

A family module (setup, turns, movement, pieces, dice, life, events, Planechase, Horde, the table's
corrections) holds, for each of its kinds, the handler that applies it (`@handles`) and its history
wording (`@words`) and, for the few that have one, the warning the table may pass over (`@warns`), so that
adding an action touches one module (and `Game`'s method that records it).
"""
from __future__ import annotations

from typing import Any, Callable, overload

from boards import XY, square_label
from companion.game.data import ActionData
from companion.game.errors import GameError
from companion.game.state import GameState, Player
from companion.rules import Piece, Token
from companion.rules.wording import Message

SOURCES = ("hand", "camera")  # who says where a token stands: the table by hand, or the camera
# MT 1.01 sets no maximum of players and MT 1.03.a allows any tokens that tell players apart: the five printed
# colours (MT 9.02.a) and numbers 1–40 are what the camera reads, not limits of the game.
MAX_SEATS, MAX_TOKEN_NUMBER = 64, 999


class NeedsShuffle(Exception):
    """Raised by `apply` when the action needs a recorded permutation of `size` items under `key`."""

    def __init__(self, key: str, size: int):
        super().__init__(f"{key} needs a permutation of {size} items")
        self.key, self.size = key, size


Handler = Callable[[GameState, ActionData], None]
Wording = Callable[[GameState, GameState, dict[str, Any]], Message]
# kind -> how it changes the state (every rule that changes it: `reducer.apply` runs them) and how the history
# says it (`history.summarise`); each family module of this package registers its kinds in both.
HANDLERS: dict[str, Handler] = {}
WORDINGS: dict[str, Wording] = {}
# kind -> what the table should hear about an action of that kind that still applies (a rule the table may
# pass over): `game.warning.*` messages, kept in the history and shown by the app (`Game.warnings`).
Caution = Callable[[GameState, GameState, dict[str, Any]], list[Message]]
WARNINGS: dict[str, Caution] = {}


def handles(kind: str) -> Callable[[Handler], Handler]:
    """Register the function that applies actions of `kind` (it checks their data and the rules)."""
    def register(handler: Handler) -> Handler:
        HANDLERS[kind] = handler
        return handler
    return register


def warns(*kinds: str) -> Callable[[Caution], Caution]:
    """Register what the table should hear about actions of these kinds that still apply."""
    def register(warning: Caution) -> Caution:
        for kind in kinds:
            WARNINGS[kind] = warning
        return warning
    return register


def words(*kinds: str) -> Callable[[Wording], Wording]:
    """Register the function that says actions of these kinds in the history (an i18n message)."""
    def register(wording: Wording) -> Wording:
        for kind in kinds:
            WORDINGS[kind] = wording
        return wording
    return register


def require(condition: bool, key: str, rule: str | None = None, **fields: Any) -> None:
    """Refuse the action (`GameError`: the i18n key, the rule, the fields) unless `condition` holds."""
    if not condition:
        raise GameError(key, rule, **fields)


def token_label(token: Token) -> str:
    return f"{token[0]}-{token[1]}"


def piece_label(piece: Piece) -> str:
    """How a piece is named in refusals and the history: "Serra Angel (#3)", or "#3"."""
    return f"{piece.name} (#{piece.number})" if piece.name else f"#{piece.number}"


def find_player(state: GameState, player_id: int, *, alive: bool = True) -> Player:
    try:
        player = state.player(player_id)
    except (KeyError, TypeError):
        raise GameError("game.error.no_player", player=str(player_id)[:20]) from None
    require(not (alive and player.left), "game.error.player_left", name=player.name)
    return player


def find_piece(state: GameState, token: Token) -> Piece:
    piece = state.pieces.get(token)
    if piece is None:
        raise GameError("game.error.no_token", token=token_label(token))
    return piece


@overload
def on_board(state: GameState, at: XY) -> XY: ...
@overload
def on_board(state: GameState, at: XY | None) -> XY | None: ...


def on_board(state: GameState, at: XY | None) -> XY | None:
    """The square of an action's data, refused when it is off the board (None: off the grid, kept)."""
    if at is None:
        return None
    board = state.board
    require(board.in_bounds(at), "game.error.off_board", square=str(list(at)), width=board.width,
            height=board.height)
    return at


def check_free(state: GameState, at: XY, token: Token | None = None) -> None:
    other = next((p for p in state.pieces.values() if p.at == at and p.token != token), None)
    require(other is None, "game.error.square_taken", "MT 3.06.a", square=square_label(at),
            piece=other and piece_label(other))


def permutation(d: ActionData, key: str, size: int) -> list[int]:
    order = d.data.get(key)
    if order is None:
        raise NeedsShuffle(key, size)
    require(isinstance(order, list) and all(isinstance(i, int) and not isinstance(i, bool) for i in order)
            and sorted(order) == list(range(size)), "game.error.bad_permutation", field=key, size=size)
    return list(order)


def controllers(state: GameState) -> frozenset[int]:
    """Who may own or control pieces: the players still in, and the Horde."""
    ids = {p.id for p in state.alive}
    return frozenset(ids | {state.horde.colour}) if state.horde else frozenset(ids)


def seat_after(state: GameState, player_id: int) -> Player | None:
    """The next player still in the game after `player_id`, in turn (seat) order."""
    ids = [p.id for p in state.players]
    start = ids.index(player_id)
    for offset in range(1, len(ids) + 1):
        candidate = state.players[(start + offset) % len(ids)]
        if not candidate.left and candidate.id != player_id:
            return candidate
    return None


def life_holder(state: GameState, player: Player) -> list[Player]:
    """Players sharing `player`'s life total: the team in Two-Headed Giant, else only them."""
    if state.format == "two_headed_giant":
        return [p for p in state.players if p.team == player.team]
    return [player]


def unplaced_pawns(state: GameState) -> list[int]:
    """Players still in whose pawn is off the grid (MT 2.04.a: every player starts on the grid)."""
    pawns = [(p.id, state.pawn(p.id)) for p in state.alive]
    return [player for player, pawn in pawns if pawn is not None and pawn.at is None]


# -- words of the history ------------------------------------------------------------------

def said(key: str, **fields: Any) -> Message:
    """A history message: `game.history.<key>` with its fields."""
    return Message(f"game.history.{key}", fields)


def nested(key: str, **fields: Any) -> dict[str, Any]:
    """A nested message for a `*_words` field (worded and joined by commas)."""
    return {"key": key, "fields": fields}


def square_text(at: Any) -> str:
    """A square of an action's data ([x, y]) as people read it ("C4"); "" for none."""
    return square_label((at[0], at[1])) if at is not None else ""


def player_name(state: GameState, player: Any) -> str:
    """A player of an action's data by name (players are never removed from the state: those who left
    keep their seat); what the data holds when it is no player."""
    if isinstance(player, int):
        return state.names.get(player, str(player))
    return "" if player is None else str(player)


def piece_name(before: GameState, after: GameState, data: dict[str, Any]) -> str:
    """The piece of an action's data (`token`, or the `piece` it adds) as the history names it."""
    raw = data.get("token") or (data.get("piece") and [data["piece"].get("player"), data["piece"].get("number")])
    if not raw:
        return ""
    token = (raw[0], raw[1])
    piece = after.pieces.get(token) or before.pieces.get(token)
    return piece_label(piece) if piece else f"#{token[1]}"
