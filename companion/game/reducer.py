"""state = fold(apply, actions): every rule that changes the state lives here.

An action is a plain record (`Action`: kind, data, time). `apply` checks it against the
state and returns a NEW state (the old one is never touched), or raises GameError saying
which rule forbids it. Random results (dice, shuffles) are inside the action's data, so a
replay is deterministic. Where a shuffle's size is only known while applying (the Horde
reshuffling its graveyard, HO 202.1/203), `apply` raises NeedsShuffle and the caller
retries with a permutation of that size recorded in the action.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from typing import Callable

from boards import Square, SquareCodeError, square_label
from companion.game.dice import PLANAR_FACES, die_sides
from companion.game.errors import GameError
from companion.game.events import EventCard, check_deck_size
from companion.rules import HouseRules, HouseRulesError, movement_dice, why_cannot_move
from companion.game.state import (
    FORMATS, HORDE_DIFFICULTIES, MOVEMENT_STEPS, PHASES, PREGAME, EventState, GameState, HordeState,
    PlanarState, Player, piece_from_dict,
)

ACTION_KINDS: dict[str, Callable[[GameState, dict], None]] = {}


@dataclass(frozen=True)
class Action:
    """One thing that happened at the table; `time` is an ISO timestamp with its offset."""

    kind: str
    data: dict = field(default_factory=dict)
    time: str = ""

    def to_dict(self) -> dict:
        return {"kind": self.kind, "data": self.data, "time": self.time}

    @classmethod
    def from_dict(cls, raw) -> "Action":
        if not isinstance(raw, dict) or not isinstance(raw.get("kind"), str) or not isinstance(raw.get("data", {}), dict):
            raise ValueError("an action must be a mapping with 'kind' (text), 'data' (mapping) and 'time'")
        return cls(raw["kind"], raw.get("data", {}), str(raw.get("time", "")))


class NeedsShuffle(Exception):
    """Raised by `apply` when the action needs a recorded permutation of `size` items under `key`."""

    def __init__(self, key: str, size: int):
        super().__init__(f"{key} needs a permutation of {size} items")
        self.key, self.size = key, size


def handles(kind: str):
    def register(fn):
        ACTION_KINDS[kind] = fn
        return fn
    return register


def apply(state: GameState, action: Action) -> GameState:
    """The state after `action`; raise GameError (state untouched) when the rules forbid it."""
    handler = ACTION_KINDS.get(action.kind)
    if handler is None:
        raise GameError(f"unknown action {action.kind!r}")
    if action.kind != "start" and not state.players:
        raise GameError("the game has not been set up: its first action must be 'start'")
    if state.over and action.kind != "note":
        raise GameError("the game is over (undo to go back)")
    new = state.clone()
    handler(new, action.data)
    return new


# -- helpers -----------------------------------------------------------------

def _require(condition: bool, message: str, rule: str | None = None) -> None:
    if not condition:
        raise GameError(message, rule)


def _player(state: GameState, player_id) -> Player:
    try:
        player = state.player(player_id)
    except KeyError:
        raise GameError(f"no player with colour {player_id!r}") from None
    _require(not player.left, f"{player.name} has left the game")
    return player


def _int(data: dict, key: str, *, minimum: int | None = None) -> int:
    value = data.get(key)
    _require(isinstance(value, int) and not isinstance(value, bool), f"'{key}' must be a whole number, got {value!r}")
    if minimum is not None:
        _require(value >= minimum, f"'{key}' must be at least {minimum}, got {value}")
    return value


def _token(data: dict) -> tuple[int, int]:
    token = data.get("token")
    _require(isinstance(token, (list, tuple)) and len(token) == 2 and all(isinstance(v, int) for v in token),
             f"'token' must be [player colour, number], got {token!r}")
    return tuple(token)


def _permutation(data: dict, key: str, size: int) -> list[int]:
    order = data.get(key)
    if order is None:
        raise NeedsShuffle(key, size)
    _require(sorted(order) == list(range(size)), f"'{key}' must be a permutation of 0..{size - 1}")
    return order


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


# -- setup ---------------------------------------------------------------------

@handles("start")
def _start(state: GameState, data: dict) -> None:
    """Build the initial state from the setup recorded in the action (and its shuffles)."""
    _require(not state.players, "the game has already started")
    fmt = data.get("format", "free_for_all")
    _require(fmt in FORMATS, f"format must be one of {FORMATS}, got {fmt!r}")
    players = data.get("players") or []
    _require(isinstance(players, list), "'players' must be a list")
    ids = [p.get("colour") for p in players]
    _require(all(isinstance(i, int) and i >= 1 for i in ids), "every player needs a token colour number ≥ 1")
    _require(len(set(ids)) == len(ids), "two players have the same token colour (MT 1.03.a)", "MT 1.03.a")
    if fmt == "horde":
        _require(1 <= len(players) <= 4, f"the Horde is played by 1 to 4 players, not {len(players)}", "HO 100.2")
    else:
        _require(len(players) >= 2, "Magic Tactical needs at least two players", "MT 1.01")
    try:
        state.house_rules = asdict(HouseRules.from_mapping(data.get("house_rules") or {}))
    except HouseRulesError as exc:
        raise GameError(f"house rules: {exc}", "MT 8.04") from None
    _require(bool(data.get("board_rows")), "a game needs a board (its rows)")
    life = data.get("team_life", 30) if fmt == "two_headed_giant" else data.get("starting_life", 20)
    state.format, state.planechase = fmt, bool(data.get("planechase"))
    state.board_name = data.get("board_name", "")
    state.board_rows = list(data.get("board_rows") or [])
    doubtful = data.get("doubtful_squares") or []
    _require(isinstance(doubtful, list), "'doubtful_squares' must be a list of squares")
    state.doubtful_squares = [_check_square(state, at) for at in doubtful if at is not None]
    state.players = [Player(p["colour"], str(p.get("name") or f"Player {p['colour']}"), p.get("team"), life)
                     for p in players]
    if fmt == "two_headed_giant":
        teams = {}
        for p in state.players:
            teams.setdefault(p.team, []).append(p)
        _require(None not in teams and len(teams) >= 2 and all(len(t) == 2 for t in teams.values()),
                 "Two-Headed Giant needs teams of exactly two players (give each player a team number)")
    state.starting_player = data.get("starting_player")
    _require(state.starting_player in ids, "the starting player must be one of the players")
    if data.get("events") is not None:
        deck = [EventCard.from_dict(c) for c in data["events"]]
        check_deck_size(deck, len(players))
        state.events = EventState(deck=deck)
    if state.planechase:
        decks = {int(k): list(v) for k, v in data.get("planar_decks", [])}
        for pid in ids:
            _require(len(decks.get(pid, [])) >= 1, f"player {pid} needs a planar deck of at least one plane (PC)")
        state.planar = PlanarState(decks=decks)
    if fmt == "horde":
        difficulty = data.get("horde_difficulty", "beginner")
        _require(difficulty in HORDE_DIFFICULTIES, f"difficulty must be one of {list(HORDE_DIFFICULTIES)}", "HO 4")
        base, levels = HORDE_DIFFICULTIES[difficulty]
        waves = data.get("horde_waves") or []
        _require(len(waves) == len(levels),
                 f"{difficulty} uses {len(levels)} Horde deck(s) ({', '.join(levels)}), got {len(waves)}", "HO 103.3a")
        start = base if difficulty == "infernal" else base - 10 * len(players)  # HO 300.2, 404.1a
        _require(start > 0, f"{len(players)} players bring the City's starting life to {start}", "HO 300.2")
        state.horde = HordeState(difficulty, start, start, waves=[dict(w) for w in waves],
                                 secret_boss=data.get("secret_boss", "Boss secret"))
        _next_wave(state)


# -- turns and phases ------------------------------------------------------------

def _side_key(state: GameState, player: Player):
    return player.team if state.format == "two_headed_giant" else player.id


def _next_side(state: GameState) -> tuple[bool, list[int]]:
    """Who plays next: (Horde's turn?, active player ids).

    Free-for-all: the next player still in, in seat order. Two-Headed Giant: the next team.
    Horde: the players together; the Horde starts after their second turn, then the sides
    alternate (HO 104.2–104.3). Queued extra turns come first.
    """
    turn = state.turn
    alive = [p.id for p in state.alive]
    if turn.extra_turns:
        side = turn.extra_turns.pop(0)
        return (True, []) if side == "horde" else (False, alive)
    if state.format == "horde":
        return (True, []) if turn.number and not turn.horde and turn.players_turns >= 2 else (False, alive)
    if turn.number == 0:
        side = _side_key(state, state.player(state.starting_player))
    else:
        sides = list(dict.fromkeys(_side_key(state, p) for p in state.players))
        current = sides.index(_side_key(state, state.player(turn.active[0])))
        alive_sides = {_side_key(state, p) for p in state.alive}
        side = next((sides[(current + k) % len(sides)] for k in range(1, len(sides) + 1)
                     if sides[(current + k) % len(sides)] in alive_sides), None)
    return False, [p.id for p in state.alive if _side_key(state, p) == side]


def _begin_turn(state: GameState) -> None:
    horde, active = _next_side(state)
    turn = state.turn
    turn.number += 1
    turn.horde, turn.active, turn.phase, turn.step = horde, active, "untap", None
    if not horde:
        turn.players_turns += 1
    state.movement_rolls.clear()
    for token, piece in list(state.pieces.items()):  # untap step: their permanents untap, sickness ends
        if piece.player in active:
            state.pieces[token] = replace(piece, tapped=False, summoning_sick=False)
    if state.planar:
        state.planar.rolls_this_turn = 0
        if active:
            state.planar.controller = active[0]  # PC: the active player controls the face-up plane


def _enter_phase(state: GameState, phase: str) -> None:
    state.turn.phase, state.turn.step = phase, (MOVEMENT_STEPS[0] if phase == "movement" else None)
    if phase == "upkeep":
        # MT 2.02.c: a chosen bonus lasts until its controller's next upkeep.
        for token in [t for t in state.bonus_choices if t[0] in state.turn.active]:
            del state.bonus_choices[token]


def _count_event_turn(state: GameState) -> None:
    """MT 7.06.d.1–2, read as: every turn that ends after the event was revealed is counted (one per
    player's turn, per team turn in Two-Headed Giant, the Horde's turns too); as the X-th counted turn
    ends, its active player reveals the next event (the Horde's turn: the player who revealed the last
    one). Without a counter yet (the table is asked), turns are still counted and the first turn end
    with count ≥ X reveals."""
    events = state.events
    if not events or events.revealed is None:
        return
    events.counted += 1
    if events.counter is not None and events.counted >= events.counter:
        revealer = state.turn.active[0] if state.turn.active else events.revealed_by
        _reveal_event(state, revealer)


def _reveal_event(state: GameState, player_id: int | None) -> None:
    """MT 7.07: the revealed event goes to the bottom, the top card is revealed; one at a time."""
    events = state.events
    if events.revealed is not None:
        events.deck.append(events.revealed)
    events.revealed = events.deck.pop(0) if events.deck else None
    events.revealed_by, events.counted = player_id, 0
    events.counter = events.revealed.turns if events.revealed else None


def _end_turn(state: GameState, d6: int | None, *, end_step: bool = True) -> None:
    """The turn ends (after its end step, unless an effect ends it at once) and the next begins."""
    turn = state.turn
    if end_step and turn.horde and state.horde and state.horde.difficulty == "infernal":
        # HO 404.3: at each of its end steps the Horde rolls a D6; on a 6 it takes an extra turn.
        _require(isinstance(d6, int) and 1 <= d6 <= 6, "the Horde's D6 roll is missing", "HO 404.3")
        state.rolls.append({"die": "D6", "results": [d6], "by": "horde", "for": "HO 404.3"})
        if d6 == 6:
            turn.extra_turns.insert(0, "horde")
    _count_event_turn(state)
    _begin_turn(state)


@handles("next_phase")
def _next_phase(state: GameState, data: dict) -> None:
    """Advance the turn machine: pregame → turn 1; phases in order; movement steps (MT 3.01)."""
    turn = state.turn
    if turn.phase == PREGAME:
        _begin_turn(state)
        if state.events:  # MT 7.03: the starting player reveals the first event
            _reveal_event(state, state.starting_player)
        if state.planar:  # PC: after mulligans the starting player turns their top plane face up
            _planeswalk_to_top(state, state.starting_player)
        return
    if turn.phase == "movement" and MOVEMENT_STEPS.index(turn.step) < len(MOVEMENT_STEPS) - 1:
        turn.step = MOVEMENT_STEPS[MOVEMENT_STEPS.index(turn.step) + 1]
        return
    if turn.phase == "end":
        _end_turn(state, data.get("d6"))
        return
    _enter_phase(state, PHASES[PHASES.index(turn.phase) + 1])


@handles("end_turn")
def _end_turn_now(state: GameState, data: dict) -> None:
    """Skip the rest of the turn (the table says it is over)."""
    _require(state.turn.phase != PREGAME, "the game has not started: use next_phase to begin")
    _end_turn(state, data.get("d6"))


@handles("mulligan")
def _mulligan(state: GameState, data: dict) -> None:
    player = _player(state, data.get("player"))
    _require(state.turn.phase == PREGAME and not player.kept, "mulligans happen before the first turn, before keeping")
    _require(hand_size(state, player.id) > 0, f"{player.name} has no cards left to mulligan to")
    player.mulligans += 1


@handles("keep_hand")
def _keep(state: GameState, data: dict) -> None:
    player = _player(state, data.get("player"))
    _require(state.turn.phase == PREGAME, "hands are kept before the first turn")
    player.kept = True


def hand_size(state: GameState, player_id: int) -> int:
    """Cards in the next hand after the player's mulligans so far.

    BR: 7 cards, one fewer per mulligan. PC (multiplayer) and HO 103.4: the first mulligan is free
    (7 again), then one fewer each time. "Multiplayer" = three or more players, or the Horde.
    """
    mulligans = state.player(player_id).mulligans
    free = 1 if (len(state.players) > 2 or state.format in ("horde", "two_headed_giant")) and mulligans else 0
    return max(0, 7 - mulligans + free)


def draws_this_turn(state: GameState) -> int:
    """Cards the active player draws in the draw step.

    BR: one per turn. Two players: the starting player skips the first draw (base game).
    PC multiplayer text: "le joueur qui commence ... ne passe pas sa première pioche" — in a game of
    three or more players the starting player does NOT skip it.
    """
    if state.turn.horde:
        return 0  # HO 201.2: the Horde reveals instead of drawing
    first_turn = state.turn.number == 1
    return 0 if first_turn and len(state.players) == 2 and state.format == "free_for_all" else 1


# -- pieces --------------------------------------------------------------------

def _check_square(state: GameState, at) -> tuple[int, int] | None:
    if at is None:
        return None
    _require(isinstance(at, (list, tuple)) and len(at) == 2 and all(isinstance(v, int) for v in at),
             f"a square is [x, y], got {at!r}")
    board = state.board
    _require(board.in_bounds(tuple(at)), f"square {tuple(at)} is outside the {board.width}×{board.height} board")
    return tuple(at)


@handles("add_piece")
def _add_piece(state: GameState, data: dict) -> None:
    try:
        piece = piece_from_dict(data.get("piece") or {})
    except (TypeError, ValueError) as exc:
        raise GameError(f"bad piece: {exc}") from None
    _player(state, piece.player)
    _require(piece.token not in state.pieces, f"token {piece.player}-{piece.number} is already in play (MT 1.03.b)")
    state.pieces[piece.token] = piece.moved(_check_square(state, piece.at))


@handles("update_piece")
def _update_piece(state: GameState, data: dict) -> None:
    token = _token(data)
    _require(token in state.pieces, f"no token {token[0]}-{token[1]} in play")
    changes = dict(data.get("changes") or {})
    _require(not {"player", "number"} & set(changes), "a token keeps its colour and number; remove and add instead")
    if "at" in changes:
        changes["at"] = _check_square(state, changes["at"])
    for key in ("colours", "keywords"):
        if key in changes:
            changes[key] = frozenset(changes[key])
    try:
        state.pieces[token] = replace(state.pieces[token], **changes)
    except (TypeError, ValueError) as exc:
        raise GameError(f"bad change to token {token[0]}-{token[1]}: {exc}") from None


@handles("move_piece")
def _move_piece(state: GameState, data: dict) -> None:
    """Where a token stands, from the camera or set by hand (legality is shown by the rules engine)."""
    token = _token(data)
    _require(token in state.pieces, f"no token {token[0]}-{token[1]} in play")
    at = _check_square(state, data.get("at"))
    if at is not None:
        other = next((p for p in state.pieces.values() if p.at == at and p.token != token), None)
        _require(other is None, f"square {at} is taken by token {other and other.player}-{other and other.number}",
                 "MT 3.06.a")
    state.pieces[token] = state.pieces[token].moved(at)


@handles("set_positions")
def _set_positions(state: GameState, data: dict) -> None:
    """Several tokens placed at once (one camera reading = one undo step); MT 3.06.a still holds."""
    moves = data.get("positions")
    _require(isinstance(moves, list), "'positions' must be a list of {token, at}")
    for move in moves:
        token = _token(move)
        _require(token in state.pieces, f"no token {token[0]}-{token[1]} in play: add it first")
        state.pieces[token] = state.pieces[token].moved(_check_square(state, move.get("at")))
    squares = [p.at for p in state.pieces.values() if p.at is not None]
    doubled = sorted({at for at in squares if squares.count(at) > 1})
    _require(not doubled, f"two tokens on square(s) {doubled}", "MT 3.06.a")


@handles("remove_piece")
def _remove_piece(state: GameState, data: dict) -> None:
    """The permanent left the grid: its token number is free again (MT 5.02.d)."""
    token = _token(data)
    _require(token in state.pieces, f"no token {token[0]}-{token[1]} in play")
    del state.pieces[token]
    state.bonus_choices.pop(token, None)


@handles("choose_bonus")
def _choose_bonus(state: GameState, data: dict) -> None:
    """MT 2.02.c: in its controller's upkeep, a multicoloured creature on a multicoloured square
    gets one bonus among the colours it shares with the square, until the next upkeep."""
    token = _token(data)
    piece = state.pieces.get(token)
    _require(piece is not None, f"no token {token[0]}-{token[1]} in play")
    _require(state.turn.phase == "upkeep" and piece.player in state.turn.active,
             "the bonus is chosen during its controller's upkeep", "MT 2.02.c")
    colour = data.get("colour")
    _require(colour in bonus_options(state, token), f"{colour!r} is not a colour shared by the creature and its square",
             "MT 2.02.c")
    state.bonus_choices[token] = colour


def bonus_options(state: GameState, token: tuple[int, int]) -> list[str]:
    """MT 2.02.c: colours shared by a multicoloured creature and the multicoloured square it stands on."""
    piece, board = state.pieces.get(token), state.board
    if piece is None or piece.at is None or piece.kind != "creature":
        return []
    square = board.square(*piece.at)
    if len(piece.colours) < 2 or len(square.colours) < 2:
        return []
    return [c for c in "WUBRG" if c in piece.colours and c in square.colours]


# -- dice ----------------------------------------------------------------------

@handles("roll_movement")
def _roll_movement(state: GameState, data: dict) -> None:
    """MT 3.03–3.04: one roll per distinct object per turn, by its controller, in the movement phase."""
    token = _token(data)
    piece = state.pieces.get(token)
    _require(piece is not None, f"no token {token[0]}-{token[1]} in play")
    _require(state.turn.phase == "movement", "movement dice are rolled in the movement phase", "MT 3.01.a")
    _require(piece.player in state.turn.active, "only the active player moves their pieces", "MT 3.01.b")
    blocked = why_cannot_move(state.board, piece, chosen_bonus=state.bonus_choices.get(token), house=state.house)
    _require(blocked is None, f"{piece.name or 'this piece'} does not move: {blocked}", "MT 3.02")
    _require(piece.roll_key not in state.movement_rolls,
             f"{piece.name or 'this object'} already rolled this turn; all its copies use that roll", "MT 3.03")
    results, die = data.get("results"), state.movement_die
    count = movement_dice(piece, state.house)
    _require(isinstance(results, list) and len(results) == count and
             all(isinstance(r, int) and 1 <= r <= die_sides(die) for r in results),
             f"expected {count} result(s) of {die}, got {results!r}", "MT 3.04.d")
    roll = {"die": die, "results": results, "total": sum(results), "token": list(token),
            "by": piece.player, "for": piece.name}
    state.movement_rolls[piece.roll_key] = roll
    state.rolls.append(roll)


@handles("roll_die")
def _roll_die(state: GameState, data: dict) -> None:
    """A free roll of any die (the D6 and others) for the roll log."""
    die = data.get("die", "D6")
    try:
        sides = die_sides(die)
    except ValueError as exc:
        raise GameError(str(exc)) from None
    results = data.get("results")
    _require(isinstance(results, list) and results and all(isinstance(r, int) and 1 <= r <= sides for r in results),
             f"results must be numbers from 1 to {sides}")
    state.rolls.append({"die": die, "results": results, "total": sum(results), "by": data.get("player"),
                        "for": data.get("reason", "")})


# -- life ----------------------------------------------------------------------

def _city_change(state: GameState, delta: int) -> None:
    """HO 300.3–300.5: players' life gain, loss and payment go to the City; it never exceeds its start."""
    horde = state.horde
    horde.city_life = min(horde.city_start, horde.city_life + delta)
    if horde.city_life <= 0:
        horde.result = "city_defeated"  # HO 105.3


@handles("change_life")
def _change_life(state: GameState, data: dict) -> None:
    player = _player(state, data.get("player"))
    delta = _int(data, "amount")
    if state.horde:
        _city_change(state, delta)
        return
    for holder in life_holder(state, player):  # Two-Headed Giant: one team total
        holder.life += delta


@handles("set_life")
def _set_life(state: GameState, data: dict) -> None:
    player = _player(state, data.get("player"))
    value = _int(data, "value")
    if state.horde:
        _city_change(state, value - state.horde.city_life)
        return
    for holder in life_holder(state, player):
        holder.life = value


@handles("change_poison")
def _change_poison(state: GameState, data: dict) -> None:
    player = _player(state, data.get("player"))
    player.poison = max(0, player.poison + _int(data, "amount"))


@handles("commander_damage")
def _commander_damage(state: GameState, data: dict) -> None:
    """Commander damage is also life loss, so it goes through the same life rules."""
    player = _player(state, data.get("player"))
    source = _player(state, data.get("source"))
    amount = _int(data, "amount")  # negative: the table takes back damage entered by mistake
    _require(player.commander_damage.get(source.id, 0) + amount >= 0,
             f"{player.name} has taken only {player.commander_damage.get(source.id, 0)} damage from {source.name}'s commander")
    player.commander_damage[source.id] = player.commander_damage.get(source.id, 0) + amount
    _change_life(state, {"player": player.id, "amount": -amount})


def losing_players(state: GameState) -> list[int]:
    """Players a state-based check says have lost: life ≤ 0 (BR), 10 poison, 21 commander damage
    from one commander (Comprehensive Rules 704.5c, 903.10a). The table confirms with `player_leaves`."""
    if state.horde:
        return []
    return [p.id for p in state.alive
            if p.life <= 0 or p.poison >= 10 or any(v >= 21 for v in p.commander_damage.values())]


@handles("player_leaves")
def _player_leaves(state: GameState, data: dict) -> None:
    """A player loses or concedes (PC "Quitter la partie"; HO 105.4); in Two-Headed Giant the whole
    team leaves. The current turn goes on even if it was theirs; the last side in wins."""
    player = _player(state, data.get("player"))
    reason = str(data.get("reason") or "lost")
    for leaver in life_holder(state, player):
        _leave(state, leaver, reason)
    if state.horde:
        if reason == "lost":
            state.horde.result = "city_defeated"  # HO 105.4
    elif len({_side_key(state, p) for p in state.alive}) <= 1:
        state.winner = [p.id for p in state.alive]


def _leave(state: GameState, player: Player, reason: str) -> None:
    """Their pieces leave the grid. Planechase: if they control the face-up plane, the next player in
    turn order takes control first; triggers they control cease to exist; if they own the face-up
    plane it leaves, pending planeswalk triggers vanish (chaos ones stay), and its controller turns
    the top of their own planar deck face up."""
    planar = state.planar
    if planar and planar.controller == player.id:
        successor = seat_after(state, player.id)
        planar.controller = successor.id if successor else None
    player.left, player.left_reason = True, reason
    for token in [t for t, p in state.pieces.items() if p.player == player.id]:
        del state.pieces[token]
        state.bonus_choices.pop(token, None)
    if planar:
        planar.pending = [t for t in planar.pending if t["controller"] != player.id]
        planar.decks.pop(player.id, None)
        if planar.owner == player.id:
            planar.face_up = planar.owner = None
            planar.pending = [t for t in planar.pending if t["kind"] != "planeswalk"]
            if planar.decks.get(planar.controller):
                _planeswalk_to_top(state, planar.controller)


# -- events (MT 7) -----------------------------------------------------------------

@handles("set_event_counter")
def _set_event_counter(state: GameState, data: dict) -> None:
    """MT 7.06.d: the table enters X for a revealed event whose card gives no counter."""
    events = state.events
    _require(events is not None and events.revealed is not None, "no event is revealed")
    events.counter = _int(data, "turns", minimum=1)


# -- Planechase ----------------------------------------------------------------------

def _planeswalk_to_top(state: GameState, player_id: int) -> None:
    deck = state.planar.decks.get(player_id) or []
    _require(bool(deck), "this player's planar deck is empty")
    state.planar.face_up, state.planar.owner = deck.pop(0), player_id


@handles("roll_planar")
def _roll_planar(state: GameState, data: dict) -> None:
    """PC: only the active player rolls, in a main phase; the n-th roll of a turn costs n−1 mana
    (not reset by planeswalking); chaos or planeswalk triggers one pending ability."""
    planar = state.planar
    _require(planar is not None, "this game is not played with Planechase")
    player = _player(state, data.get("player"))
    _require(player.id in state.turn.active, "only the active player rolls the planar die", "PC")
    _require(state.turn.phase in ("main1", "main2"), "the planar die is rolled when a sorcery could be cast", "PC")
    face = data.get("face")
    _require(face in PLANAR_FACES, f"a planar die shows planeswalk, chaos or blank, not {face!r}")
    _require(data.get("cost") == planar.rolls_this_turn,
             f"this roll costs {planar.rolls_this_turn} mana", "PC")
    planar.rolls_this_turn += 1
    state.rolls.append({"die": "planar", "results": [face], "by": player.id, "for": planar.face_up,
                        "cost": data["cost"]})
    if face != "blank":
        planar.pending.append({"kind": face, "controller": player.id, "plane": planar.face_up})


@handles("resolve_planar")
def _resolve_planar(state: GameState, data: dict) -> None:
    """PC: a chaos trigger resolves (the table reads the plane); a planeswalk trigger puts the plane
    on the bottom of its OWNER's deck and its controller turns the top of THEIR OWN deck face up."""
    planar = state.planar
    _require(planar is not None and planar.pending, "no planar ability is waiting to resolve")
    index = data.get("index", 0)
    _require(isinstance(index, int) and 0 <= index < len(planar.pending), f"no pending planar ability #{index}")
    trigger = planar.pending.pop(index)
    if trigger["kind"] == "planeswalk" and planar.face_up is not None:
        planar.decks.setdefault(planar.owner, []).append(planar.face_up)
        _planeswalk_to_top(state, trigger["controller"])


# -- Horde -----------------------------------------------------------------------------

def _next_wave(state: GameState) -> None:
    """HO 202.2–202.5: exile the current deck face down and start the next; none left → Horde defeated."""
    horde = state.horde
    if not horde.waves:
        if horde.city_life > 0:  # HO 105.6
            horde.result = "horde_defeated"  # HO 202.4, 105.2
        return
    wave = horde.waves.pop(0)
    horde.wave += 1
    horde.wave_total = max(horde.wave_total, horde.wave + len(horde.waves))
    horde.level, horde.library, horde.boss = wave["level"], list(wave["cards"]), wave["boss"]
    horde.boss_in_library, horde.boss_on_battlefield, horde.graveyard = True, False, []


def _horde(state: GameState) -> HordeState:
    _require(state.horde is not None, "this game is not a Horde game")
    return state.horde


def _boss_revealed(state: GameState, data: dict) -> None:
    """HO 202.1: exile the boss instead, end the turn, shuffle the graveyard into the deck, cast the
    boss for free, and take an extra turn if it was the Horde's turn."""
    horde = state.horde
    order = _permutation(data, "order", len(horde.graveyard))
    horde.library = [horde.graveyard[i] for i in order] + horde.library
    horde.graveyard, horde.boss_in_library, horde.boss_on_battlefield = [], False, True
    horde.last_revealed.append({"name": horde.boss, "token": False, "boss": True})
    if state.turn.horde:
        state.turn.extra_turns.insert(0, "horde")
    _end_turn(state, None, end_step=False)


def _reveal_horde_cards(state: GameState, data: dict, count: int | None) -> None:
    """Reveal from the top: `count` cards to the graveyard (HO 301.3, 301.4), or, for count None, until
    a non-token (HO 201.2). Reaching the boss triggers HO 202.1; an empty deck, the next wave (202.3)."""
    horde = state.horde
    horde.last_revealed = []
    while count is None or len(horde.last_revealed) < count:
        if not horde.library:
            if horde.boss_in_library:
                _boss_revealed(state, data)
                return
            break
        card = horde.library.pop(0)
        horde.last_revealed.append(card)
        if count is not None:
            horde.graveyard.append(card)
        elif not card["token"]:
            horde.graveyard.append(card)  # cast for free; a resolved spell ends in the graveyard
            break
    if not horde.library and not horde.boss_in_library:
        _next_wave(state)


@handles("horde_draw")
def _horde_draw(state: GameState, data: dict) -> None:
    """HO 201.2: in its draw step the Horde exiles from the top until a non-token; tokens enter the
    battlefield, the non-token is cast without paying its mana cost."""
    _horde(state)
    _require(state.turn.horde and state.turn.phase == "draw", "the Horde reveals cards in its own draw step", "HO 201.2")
    _reveal_horde_cards(state, data, None)


@handles("damage_horde")
def _damage_horde(state: GameState, data: dict) -> None:
    """HO 301.3: damage or life loss to the Horde mills (revealed) that many cards; it gains no life (201.6)."""
    _horde(state)
    _reveal_horde_cards(state, data, _int(data, "amount", minimum=1))


@handles("horde_boss_leaves")
def _horde_boss_leaves(state: GameState, data: dict) -> None:
    """HO 202.2: no boss on the battlefield any more (wave boss or secret boss) → next wave."""
    horde = _horde(state)
    _require(horde.boss_on_battlefield or horde.secret_boss_on_battlefield, "no Horde boss is on the battlefield")
    horde.boss_on_battlefield = horde.secret_boss_on_battlefield = False
    _next_wave(state)


@handles("horde_secret_boss")
def _horde_secret_boss(state: GameState, data: dict) -> None:
    """HO 203: a win/lose-the-game effect or a shown infinite loop brings out the secret boss instead:
    shuffle the graveyard into the deck, cast the secret boss, end the turn (extra turn if the Horde's)."""
    horde = _horde(state)
    _require(not horde.secret_boss_on_battlefield, "the secret boss is already on the battlefield")
    order = _permutation(data, "order", len(horde.graveyard))
    horde.library = [horde.graveyard[i] for i in order] + horde.library
    horde.graveyard, horde.secret_boss_on_battlefield = [], True
    if state.turn.horde:
        state.turn.extra_turns.insert(0, "horde")
    _end_turn(state, None, end_step=False)


@handles("city_defeated")
def _city_defeated(state: GameState, data: dict) -> None:
    """HO 105.4–105.5: an effect says a player loses, or that an opponent wins."""
    _horde(state).result = "city_defeated"


@handles("horde_choice")
def _horde_choice(state: GameState, data: dict) -> None:
    """HO 201.5: the Horde chooses at random; the choice is logged."""
    _horde(state)
    options = data.get("options")
    _require(isinstance(options, list) and data.get("chosen") in options, "the chosen option must be one of the options")
    state.rolls.append({"die": "choice", "results": [data["chosen"]], "by": "horde", "for": data.get("question", "")})


@handles("set_square")
def _set_square(state: GameState, data: dict) -> None:
    """The table settles what a square really is (MT 2.02.e: a doubtful colour is confirmed by a
    person); the board of the game changes, so bonuses and moves follow it."""
    at = _check_square(state, data.get("at"))
    _require(at is not None, "set_square needs a square")
    try:
        square = Square.parse(str(data.get("code", "")))
    except SquareCodeError as exc:
        raise GameError(f"square {square_label(at)}: {exc}") from None
    x, y = at
    codes = state.board_rows[y].split()
    codes[x] = square.code
    # A new list, never an edit in place: states share their rows with the snapshots kept for undo.
    state.board_rows = [*state.board_rows[:y], " ".join(codes), *state.board_rows[y + 1:]]
    state.doubtful_squares = [square for square in state.doubtful_squares if square != at]
    if not square.walkable:
        standing = next((p for p in state.pieces.values() if p.at == at and "flying" not in p.keywords), None)
        _require(standing is None, f"token {standing and standing.player}-{standing and standing.number} stands on "
                 f"{square_label(at)}: an obstacle cannot hold it", "MT 2.03.b")


@handles("note")
def _note(state: GameState, data: dict) -> None:
    """A free text line in the history (no effect on the state)."""
    _require(isinstance(data.get("text"), str), "a note needs text")
