"""state = fold(apply, actions): every rule that changes the state lives here.

An action is a plain record (`Action`: kind, data, time). `apply` checks it against the
state and returns a NEW state (the old one is never touched), or raises GameError saying
which rule forbids it (an i18n key, its fields and the rule). Every handler reads its data
through `ActionData`, which checks each field's type, so a damaged journal row is a clear
error naming the action and the field. Random results (dice, shuffles, the Horde's random
squares) are inside the action's data, so a replay is deterministic. Where a shuffle's size is
only known while applying (the Horde reshuffling its graveyard, HO 202.1/203), `apply` raises
NeedsShuffle and the caller retries with a permutation of that size recorded in the action.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Callable

from boards import XY, Board, Square, SquareCodeError, square_label
from boards.io import BoardFileError
from boards.tokens import PLAYER_COUNT
from companion.game.data import ActionData
from companion.game.dice import PLANAR_FACES, die_sides
from companion.game.errors import EventDeckError, GameError
from companion.game.events import RARITY_LIMITS, SUPERTYPES, EventCard, check_deck_size
from companion.game.setup import seat_starts
from companion.game.state import (
    ENTRIES_WITHOUT_SICKNESS, ENTRY_KINDS, ENTRY_RULES, FORMATS, HORDE_DIFFICULTIES, MOVEMENT_STEPS, PAWN_NUMBER,
    PHASES, PREGAME, STEP_OF_KIND, Entry, EventState, GameState, HordeCard, HordeState, HordeWave, Movement, PlanarState,
    PlanarTrigger, Player, Roll,
)
from companion.rules import (KEYWORDS, KINDS, EntrySquares, HouseRules, HouseRulesError, MoveVerdict, Piece, Token,
                             counted_colours, creature_spell_entry, crosses_obstacles, judge_move,
                             move_to_target_squares, movement_blocker, movement_dice, return_entry, token_entry,
                             whole_grid)
from companion.rules.moves import free_squares
from companion.rules.wording import Message

ACTION_KINDS: dict[str, Callable[[GameState, dict], None]] = {}
SOURCES = ("hand", "camera")
# MT 1.01 sets no maximum of players and MT 1.03.a allows any tokens that tell players apart: the five printed
# colours (MT 9.02.a) and numbers 1–40 are what the camera reads, not limits of the game.
MAX_SEATS, MAX_TOKEN_NUMBER = 64, 999


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
        raise GameError("game.error.unknown_action", action=str(action.kind)[:40])
    if action.kind != "start" and not state.players:
        raise GameError("game.error.not_set_up")
    if state.over and action.kind != "note":
        raise GameError("game.error.game_over")
    new = state.clone()
    handler(new, ActionData(action.kind, action.data))
    return new


# -- helpers -----------------------------------------------------------------

def _require(condition: bool, key: str, rule: str | None = None, **fields) -> None:
    if not condition:
        raise GameError(key, rule, **fields)


def _token_label(token: Token) -> str:
    return f"{token[0]}-{token[1]}"


def piece_label(piece: Piece) -> str:
    """How a piece is named in refusals and the history: "Serra Angel (#3)", or "#3"."""
    return f"{piece.name} (#{piece.number})" if piece.name else f"#{piece.number}"


def _player(state: GameState, player_id, *, alive: bool = True) -> Player:
    try:
        player = state.player(player_id)
    except (KeyError, TypeError):
        raise GameError("game.error.no_player", player=str(player_id)[:20]) from None
    _require(not (alive and player.left), "game.error.player_left", name=player.name)
    return player


def _piece(state: GameState, token: Token) -> Piece:
    piece = state.pieces.get(token)
    _require(piece is not None, "game.error.no_token", token=_token_label(token))
    return piece


def _on_board(state: GameState, at: XY | None) -> XY | None:
    if at is None:
        return None
    board = state.board
    _require(board.in_bounds(at), "game.error.off_board", square=str(list(at)), width=board.width,
             height=board.height)
    return at


def _free(state: GameState, at: XY, token: Token | None = None) -> None:
    other = next((p for p in state.pieces.values() if p.at == at and p.token != token), None)
    _require(other is None, "game.error.square_taken", "MT 3.06.a", square=square_label(at),
             piece=other and piece_label(other))


def _permutation(d: ActionData, key: str, size: int) -> list[int]:
    order = d.data.get(key)
    if order is None:
        raise NeedsShuffle(key, size)
    _require(isinstance(order, list) and all(isinstance(i, int) and not isinstance(i, bool) for i in order)
             and sorted(order) == list(range(size)), "game.error.bad_permutation", field=key, size=size)
    return order


def _controllers(state: GameState) -> frozenset[int]:
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


# -- setup ---------------------------------------------------------------------

def _event_card(d: ActionData) -> EventCard:
    """One event card of the start action, every field checked (MT 7.02.b, 7.06.b, 7.06.d)."""
    name = d.text("name", limit=200)
    _require(bool(name.strip()), "game.error.bad_field", action=d.action, field=f"{d.prefix}name",
             expected_key="game.expected.name", got=repr(name))
    supertype = d.optional_text("supertype", limit=20)
    if supertype is not None:
        supertype = d.choice("supertype", SUPERTYPES)
    return EventCard(name, d.choice("rarity", RARITY_LIMITS), supertype, d.optional_integer("turns", minimum=1),
                     d.text("text", default="", limit=5000) or "")


def _check_event_copies(deck: list[EventCard]) -> None:
    """MT 7.02.c, when the game starts and whenever it is loaded: mythic 1, uncommon 2, common 4 copies."""
    copies = Counter(card.name.casefold() for card in deck)
    rarity_of: dict[str, str] = {}
    for card in deck:
        key = card.name.casefold()
        _require(rarity_of.setdefault(key, card.rarity) == card.rarity, "game.error.event_two_rarities", "MT 7.02.b",
                 name=card.name)
        limit = RARITY_LIMITS[card.rarity]
        _require(copies[key] <= limit, "game.error.event_copies", "MT 7.02.c", name=card.name, copies=copies[key],
                 rarity_key=f"game.rarity.{card.rarity}", limit=limit)


def _horde_wave(d: ActionData) -> HordeWave:
    cards = []
    for index, raw in enumerate(d.sequence("cards"), start=1):
        c = d.sub(raw, f"cards[{index}]")
        permanent = None if c.data.get("permanent") is None else c.flag("permanent")
        cards.append(HordeCard(c.text("name", default="", limit=200), c.flag("token"), permanent))
    return HordeWave(d.text("level", limit=40), tuple(cards), d.text("boss", default="Boss", limit=200))


@handles("start")
def _start(state: GameState, d: ActionData) -> None:
    """Build the initial state from the setup recorded in the action (and its random draws)."""
    _require(not state.players, "game.error.already_started")
    fmt = d.choice("format", FORMATS, default="free_for_all")
    raw_players = d.sequence("players", limit=64)
    seats = [d.sub(raw, f"players[{i}]") for i, raw in enumerate(raw_players, start=1)]
    ids = [s.integer("colour", minimum=1, maximum=MAX_SEATS) for s in seats]
    duplicate = next((c for c in ids if ids.count(c) > 1), None)
    _require(duplicate is None, "game.error.same_colour", "MT 1.03.a", colour=duplicate)
    if fmt == "horde":
        _require(1 <= len(ids) <= 4, "game.error.horde_players", "HO 100.2", count=len(ids))
    else:
        _require(len(ids) >= 2, "game.error.too_few_players", "MT 1.01", count=len(ids))
    try:
        state.house_rules = HouseRules.from_mapping(d.mapping("house_rules", default={}))
    except HouseRulesError as exc:
        raise GameError("game.error.house_rules", "MT 8.04", option=exc.field or "", problem=exc.message) from None
    rows = d.texts("board_rows", limit=100_000)
    _require(bool(rows), "game.error.no_board")
    state.board_name = d.text("board_name", default="", limit=200)
    try:
        Board.from_rows(rows, name=state.board_name)
    except (BoardFileError, ValueError) as exc:
        raise GameError("game.error.bad_board", problem=str(exc)[:300]) from None
    state.board_rows = list(rows)
    doubtful = d.sequence("doubtful_squares", default=[], limit=100_000)
    state.doubtful_squares = [_on_board(state, d.pair(f"doubtful_squares[{i}]", at)) for i, at in
                              enumerate(doubtful, start=1) if at is not None]
    life = (d.integer("team_life", minimum=1, default=30) if fmt == "two_headed_giant"
            else d.integer("starting_life", minimum=1, default=20))
    state.format, state.planechase = fmt, d.flag("planechase", default=False)
    state.players = [Player(colour, s.text("name", default="", limit=100) or f"{colour}",
                            s.optional_integer("team"), life) for colour, s in zip(ids, seats)]
    if fmt == "two_headed_giant":
        teams = Counter(p.team for p in state.players)
        _require(None not in teams and len(teams) >= 2 and all(n == 2 for n in teams.values()),
                 "game.error.two_headed_teams")
    state.starting_player = d.integer("starting_player")
    _require(state.starting_player in ids, "game.error.starting_player", player=state.starting_player)
    state.starting_player_drawn = d.flag("starting_player_drawn", default=False)
    state.rules_edition = d.integer("rules", minimum=1, default=1)
    events = d.optional_sequence("events", limit=10_000)
    if events is not None:
        deck = [_event_card(d.sub(raw, f"events[{i}]")) for i, raw in enumerate(events, start=1)]
        _check_event_copies(deck)
        try:
            check_deck_size(deck, len(ids))
        except EventDeckError:
            raise GameError("game.error.event_deck_size", "MT 7.02.a", cards=len(deck), players=len(ids),
                            needed=25 + 4 * max(0, len(ids) - 2)) from None
        state.events = EventState(deck=deck)
    if state.planechase:
        decks: dict[int, list[str]] = {}
        for index, raw in enumerate(d.sequence("planar_decks", default=[]), start=1):
            _require(isinstance(raw, list) and len(raw) == 2, "game.error.bad_field", action="start",
                     field=f"planar_decks[{index}]", expected_key="game.expected.planar_deck", got=str(raw)[:60])
            owner = d.sub({"colour": raw[0], "planes": raw[1]}, f"planar_decks[{index}]")
            decks[owner.integer("colour")] = owner.texts("planes", limit=200)
        for player in state.players:
            _require(len(decks.get(player.id, [])) >= 1, "game.error.planar_deck_missing", "PC", name=player.name)
        state.planar = PlanarState(decks={pid: decks[pid] for pid in ids})
    if fmt == "horde":
        _start_horde(state, d, ids)
    if state.rules_edition >= 2:
        for player, at in zip(state.players, seat_starts(state.board, len(state.players))):
            state.pieces[(player.id, PAWN_NUMBER)] = Piece(player.id, PAWN_NUMBER, kind="player", name=player.name,
                                                           at=at)


def _start_horde(state: GameState, d: ActionData, ids: list[int]) -> None:
    difficulty = d.choice("horde_difficulty", HORDE_DIFFICULTIES, default="beginner")
    base, levels = HORDE_DIFFICULTIES[difficulty]
    waves = [_horde_wave(d.sub(raw, f"horde_waves[{i}]")) for i, raw in enumerate(d.sequence("horde_waves", default=[]),
                                                                                   start=1)]
    _require(len(waves) == len(levels), "game.error.horde_waves", "HO 103.3a", difficulty_key=f"game.difficulty.{difficulty}",
             needed=len(levels), got=len(waves))
    start = base if difficulty == "infernal" else base - 10 * len(ids)  # HO 300.2, 404.1a
    _require(start > 0, "game.error.city_life", "HO 300.2", players=len(ids), life=start)
    free_colours = [c for c in range(PLAYER_COUNT, 0, -1) if c not in ids]
    colour = d.integer("horde_colour", minimum=1, maximum=PLAYER_COUNT, default=free_colours[0])
    _require(colour not in ids, "game.error.same_colour", "MT 1.03.a", colour=colour)
    state.horde = HordeState(difficulty, start, start, waves=waves, secret_boss=d.text("secret_boss", default="Boss secret",
                                                                                        limit=200), colour=colour)
    _next_wave(state)


def unplaced_pawns(state: GameState) -> list[int]:
    """Players still in whose pawn is off the grid (MT 2.04.a: every player starts on the grid)."""
    return [p.id for p in state.alive if state.pawn(p.id) is not None and state.pawn(p.id).at is None]


def pawn_squares(state: GameState, player_id: int) -> frozenset[XY]:
    """Where `place_pawn` may put the player's pawn. Before the first turn: a free start square
    (MT 2.04.a), or any free square the pawn may stand on once no start square is left for it (the
    table places the extra pawns). Later, a pawn off the grid (a save, a camera that lost it) goes
    back where it truly stands: any free square it may stand on (MT 2.03.b, 3.06.a)."""
    pawn = state.pawn(player_id)
    if pawn is None or (state.turn.phase != PREGAME and (pawn.at is not None or state.rules_edition < 3)):
        return frozenset()
    board = state.board
    occupied = {p.at for p in state.pieces.values() if p.at is not None and p.token != pawn.token}
    if state.turn.phase == PREGAME:
        starts = frozenset(s for s in board.starts if s not in occupied)
        if starts:
            return starts
    return frozenset(at for at in board.positions() if board.walkable(at) and at not in occupied)


@handles("place_pawn")
def _place_pawn(state: GameState, d: ActionData) -> None:
    """A pawn goes on the grid, or moves before the first turn: on a square of `pawn_squares`."""
    player = _player(state, d.integer("player"))
    at = _on_board(state, d.square("at"))
    pawn = state.pawn(player.id)
    _require(pawn is not None, "game.error.no_pawn", name=player.name)
    _require(state.turn.phase == PREGAME or (pawn.at is None and state.rules_edition >= 3), "game.error.pawn_timing",
             "MT 2.04.a")
    _free(state, at, pawn.token)
    board = state.board
    _require(board.walkable(at), "game.error.obstacle_square", "MT 2.03.b", square=square_label(at))
    squares = pawn_squares(state, player.id)
    _require(at in squares, "game.error.pawn_not_on_start", "MT 2.04.a", square=square_label(at),
             starts=[square_label(s) for s in sorted(squares, key=lambda q: (q[1], q[0]))])
    state.pieces[pawn.token] = pawn.moved(at)


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
    turn.draw_instead_of_attack = False
    if not horde:
        turn.players_turns += 1
    state.movement_rolls.clear()
    state.movement.clear()
    acting = state.acting
    for token, piece in list(state.pieces.items()):  # untap step: their permanents untap, sickness ends
        if piece.controller in acting and (piece.tapped or piece.summoning_sick):
            state.pieces[token] = replace(piece, tapped=False, summoning_sick=False)
    if state.planar:
        state.planar.rolls_this_turn = 0
        if active:
            state.planar.controller = active[0]  # PC: the active player controls the face-up plane


def _enter_phase(state: GameState, phase: str) -> None:
    state.turn.phase, state.turn.step = phase, (MOVEMENT_STEPS[0] if phase == "movement" else None)
    if phase == "upkeep":
        # MT 2.02.c: a chosen bonus lasts until the next upkeep of the player who chooses it.
        acting = state.acting
        for token in [t for t in state.bonus_choices if bonus_chooser(state, state.pieces[t]) in acting]:
            del state.bonus_choices[token]
    horde = state.horde
    if phase == "combat" and state.turn.horde and horde and horde.attacks_replaced:
        horde.attacks_replaced -= 1  # HO 201.3a: this attack phase is a draw phase
        state.turn.draw_instead_of_attack = True


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
        _require(d6 is not None, "game.error.horde_d6", "HO 404.3")
        state.rolls.append(Roll("D6", (d6,), "horde", "HO 404.3"))
        if d6 == 6:
            turn.extra_turns.insert(0, "horde")
    _count_event_turn(state)
    _begin_turn(state)


@handles("next_phase")
def _next_phase(state: GameState, d: ActionData) -> None:
    """Advance the turn machine: pregame → turn 1; phases in order; movement steps (MT 3.01)."""
    turn = state.turn
    d6 = d.optional_integer("d6", minimum=1, maximum=6)
    if turn.phase == PREGAME:
        unplaced = [state.player(p).name for p in unplaced_pawns(state)]
        _require(state.rules_edition < 3 or not unplaced, "game.error.pawns_unplaced", "MT 2.04.a", names=unplaced)
        _begin_turn(state)
        if state.events:  # MT 7.03: the starting player reveals the first event
            _reveal_event(state, state.starting_player)
        if state.planar:  # PC: after mulligans the starting player turns their top plane face up
            _planeswalk_to_top(state, state.starting_player)
        return
    if turn.phase == "movement" and MOVEMENT_STEPS.index(turn.step) < len(MOVEMENT_STEPS) - 1:
        turn.step = MOVEMENT_STEPS[MOVEMENT_STEPS.index(turn.step) + 1]  # unused movement of the step is lost
        return
    if turn.phase == "end":
        _end_turn(state, d6)
        return
    _enter_phase(state, PHASES[PHASES.index(turn.phase) + 1])


@handles("end_turn")
def _end_turn_now(state: GameState, d: ActionData) -> None:
    """Skip the rest of the turn (the table says it is over)."""
    _require(state.turn.phase != PREGAME, "game.error.not_begun")
    _end_turn(state, d.optional_integer("d6", minimum=1, maximum=6))


@handles("mulligan")
def _mulligan(state: GameState, d: ActionData) -> None:
    player = _player(state, d.integer("player"))
    _require(state.turn.phase == PREGAME and not player.kept, "game.error.mulligan_timing")
    _require(hand_size(state, player.id) > 0, "game.error.no_cards_left", name=player.name)
    player.mulligans += 1


@handles("keep_hand")
def _keep(state: GameState, d: ActionData) -> None:
    player = _player(state, d.integer("player"))
    _require(state.turn.phase == PREGAME, "game.error.keep_timing")
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

PIECE_FIELDS = {f.name for f in fields(Piece)}


def _piece_value(d: ActionData, name: str):
    """One field of a piece, type checked (MT 2.05: what the rules need to know of a token)."""
    if name in ("player", "number"):
        return d.integer(name, minimum=1, maximum=MAX_SEATS if name == "player" else MAX_TOKEN_NUMBER)
    if name == "kind":
        return d.choice(name, KINDS)
    if name == "name":
        return d.text(name, limit=200)
    if name == "object_key":
        return d.optional_text(name, limit=200)
    if name == "mana_value":
        return d.integer(name, minimum=0, maximum=1000)
    if name in ("power", "toughness", "loyalty"):
        return d.optional_integer(name, minimum=-1000, maximum=1000)
    if name == "controller":
        return d.optional_integer(name, minimum=1, maximum=MAX_SEATS)
    if name in ("tapped", "summoning_sick"):
        return d.flag(name)
    if name == "at":
        return d.optional_square(name)
    allowed = "WUBRG" if name == "colours" else KEYWORDS
    values = d.sequence(name, limit=64)
    for index, value in enumerate(values, start=1):
        if not isinstance(value, str) or value not in allowed:
            raise d.error(f"{name}[{index}]", "one_of", value, options=", ".join(sorted(allowed)))
    return frozenset(values)


def _read_piece(d: ActionData) -> Piece:
    unknown = sorted(set(d.data) - PIECE_FIELDS)
    if unknown:
        raise d.error(str(unknown[0])[:40], "piece_field", d.data.get(unknown[0]), fields=", ".join(sorted(PIECE_FIELDS)))
    values = {name: _piece_value(d, name) for name in d.data}
    for name in ("player", "number"):
        values.setdefault(name, _piece_value(d, name))  # missing: the same clear error
    return Piece(**values)


def _check_owner_and_controller(state: GameState, piece: Piece) -> None:
    controllers = _controllers(state)
    _require(piece.player in controllers, "game.error.no_player", player=piece.player)
    _require(piece.controller in controllers, "game.error.no_player", player=piece.controller)


def entry_source(state: GameState, entry: Entry) -> Piece | None:
    """The source of an entry: a token in play, or one that just left the battlefield as it last
    stood — a dies trigger resolves in the zone the permanent had before its death (MT 4.11.b)."""
    if entry.source is None:
        return None
    return state.pieces.get(entry.source) or state.last_known.get(entry.source)


def _zone_player(state: GameState, piece: Piece, entry: Entry) -> int:
    """Whose pawn an entry's zone is centred on: the entering piece's controller — its caster (MT 4.09.a),
    its controller (5.02.a, 5.02.h, 6.02) — except for an effect, whose zone is the source's (4.10.a),
    centred on the source's controller when the source is off the grid (the player whose effect it is)."""
    if entry.kind == "effect" and state.rules_edition >= 3:
        source = entry_source(state, entry)
        if source is not None:
            return source.controller
        if entry.source_controller is not None:
            return entry.source_controller
    return piece.controller


def _whole_grid_entry(state: GameState, piece: Piece, entry: Entry) -> bool:
    """Whether the piece may enter anywhere it may stand: set up before the first turn, or a zone with
    no pawn to centre on (the Horde has none; a save from before pawns)."""
    if entry.kind == "setup":
        return True
    source = entry_source(state, entry)
    if entry.kind == "effect" and source is not None and source.at is not None:
        return False
    pawn = state.pawn(_zone_player(state, piece, entry))
    return pawn is None or (pawn.at is None and state.rules_edition < 3)


def entry_squares(state: GameState, piece: Piece, entry: Entry) -> EntrySquares:
    """The squares where `piece` may come onto the grid by `entry` (MT 4.09.c, 4.10.a–b, 4.11.b, 5.02.a,
    5.02.h, 6.02).

    Zones are centred on a pawn (`_zone_player`); with no pawn in the game (the Horde has none) a
    zone has nothing to centre on, and the whole grid is offered (MT 4.04's reading of an off-grid
    source). A player's pawn off the grid offers nothing until it is placed again (`place_pawn`).
    Reading of MT 4.10.a: a source off the grid has an action zone of its own mana value centred
    on its controller, as MT 5.02.a and 4.08.b say for the same wording (not the whole grid).
    """
    board = state.board
    occupied = frozenset(p.at for p in state.pieces.values() if p.at is not None and p.token != piece.token)
    flying = crosses_obstacles(piece)
    house = state.house
    source = entry_source(state, entry)
    if entry.kind == "effect" and source is not None and source.at is not None:
        return token_entry(board, source.at, source.mana_value, source.at, source_reach="reach" in source.keywords,
                           occupied=occupied, flying=flying, house=house)
    if _whole_grid_entry(state, piece, entry):
        return EntrySquares(free_squares(board, whole_grid(board.width, board.height), occupied, flying=flying))
    centre = state.pawn(_zone_player(state, piece, entry)).at
    if centre is None:
        return EntrySquares(frozenset())
    if entry.kind == "cast":
        return creature_spell_entry(board, centre, piece.mana_value, occupied=occupied, flying=flying, house=house)
    if entry.kind == "effect":
        mana_value = entry.source_mana_value if entry.source_mana_value is not None else (
            source.mana_value if source is not None else 0)
        if entry.source_spell:
            return creature_spell_entry(board, centre, mana_value, occupied=occupied, flying=flying, house=house)
        return token_entry(board, None, mana_value, centre, occupied=occupied, flying=flying, house=house)
    return return_entry(board, centre, piece.mana_value, occupied=occupied, flying=flying, house=house)


def _read_entry(state: GameState, d: ActionData) -> Entry:
    """The entry of an action; without a kind: set up before the first turn, else cast (MT 4.09.c)."""
    kind = d.choice("kind", ENTRY_KINDS, default="setup" if state.turn.phase == PREGAME else "cast")
    source = d.data.get("source")
    source = None if source is None else d.token("source")
    if source is not None and source not in state.last_known:
        _piece(state, source)
    controller = d.optional_integer("source_controller", minimum=1, maximum=MAX_SEATS)
    if controller is not None:
        _require(controller in _controllers(state), "game.error.no_player", player=controller)
    return Entry(kind, source, d.optional_integer("source_mana_value", minimum=0, maximum=1000),
                 d.flag("source_spell", default=False), controller)


def _enter(state: GameState, piece: Piece, entry: Entry, by_card: bool) -> None:
    """`piece` (with its square) comes onto the grid by `entry`; refused outside the legal squares
    unless a card allows it (then recorded as such)."""
    if piece.at is None:
        return
    _on_board(state, piece.at)
    _free(state, piece.at, piece.token)
    if entry.kind == "setup":
        _require(state.turn.phase == PREGAME, "game.error.setup_timing")
    if by_card:
        return
    if _whole_grid_entry(state, piece, entry):  # any square it may stand on
        _require(crosses_obstacles(piece) or state.board.walkable(piece.at), "game.error.obstacle_square",
                 "MT 2.03.b", square=square_label(piece.at))
        return
    options = entry_squares(state, piece, entry)
    centre = state.pawn(_zone_player(state, piece, entry))
    _require(options.squares or centre.at is not None, "game.error.pawn_off_grid", ENTRY_RULES[entry.kind],
             name=piece_label(piece), player=state.names.get(centre.player, centre.player))
    _require(piece.at in options.squares, "game.error.entry_outside", ENTRY_RULES[entry.kind],
             name=piece_label(piece), square=square_label(piece.at), how_key=f"game.entry.{entry.kind}",
             count=len(options.squares))


def _entered(state: GameState, piece: Piece, entry: Entry | None) -> Piece:
    """A creature entering the battlefield, or the grid as a new object, is summoning sick until its
    controller's next turn begins (MT 3.02 with CR 302.6; haste lets it move all the same, MT 2.02.b.04);
    not a piece set up before turn 1, nor a permanent its controller already had (it becomes a creature,
    5.02.a, or phases in, 6.02). Who controls it as it enters is kept (PC "Quitter la partie")."""
    if state.rules_edition < 3:
        return piece
    if piece.controller != piece.player:
        state.entered_under[piece.token] = piece.controller
    else:
        state.entered_under.pop(piece.token, None)
    kind = entry.kind if entry is not None else ("setup" if state.turn.phase == PREGAME else "cast")
    if piece.kind == "creature" and kind not in ENTRIES_WITHOUT_SICKNESS:
        return replace(piece, summoning_sick=True)
    return piece


def _horde_piece(state: GameState, piece: Piece) -> Piece:
    """HO 201.3: the Horde's creatures have haste."""
    if state.horde and piece.player == state.horde.colour and piece.kind == "creature":
        return replace(piece, keywords=piece.keywords | {"haste"})
    return piece


@handles("add_piece")
def _add_piece(state: GameState, d: ActionData) -> None:
    """A new token in play (MT 2.05), off the grid (MT 5.01.b) or entering it by an entry rule."""
    piece = _read_piece(d.sub(d.mapping("piece"), "piece"))
    _check_owner_and_controller(state, piece)
    _require(piece.token not in state.pieces, "game.error.token_in_play", "MT 1.03.b", token=_token_label(piece.token))
    by_card = d.flag("by_card", default=False)
    if state.rules_edition >= 2:
        _require(piece.kind != "player", "game.error.one_pawn", "MT 2.05")
        _require(piece.number != PAWN_NUMBER or piece.player == (state.horde.colour if state.horde else None),
                 "game.error.pawn_number", "MT 2.05", number=PAWN_NUMBER)
        entry = d.data.get("entry")
        entry = _read_entry(state, d.sub(entry if entry is not None else {}, "entry"))
        _enter(state, piece, entry, by_card)
        piece = _entered(state, piece, entry)
    piece = _horde_piece(state, piece)
    state.last_known.pop(piece.token, None)  # the token number is used again (MT 5.02.f)
    state.pieces[piece.token] = piece.moved(_on_board(state, piece.at))


@handles("place_piece")
def _place_piece(state: GameState, d: ActionData) -> None:
    """A token in play but off the grid comes onto it by an entry rule (MT 5.02.a, 5.02.h, 6.02, 4.10.a)."""
    piece = _piece(state, d.token())
    _require(piece.at is None, "game.error.already_on_grid", name=piece_label(piece))
    at = _on_board(state, d.square("at"))
    entering = piece.moved(at)
    entry = _read_entry(state, d.sub(d.mapping("entry", default={}), "entry"))
    _enter(state, entering, entry, d.flag("by_card", default=False))
    state.pieces[piece.token] = _entered(state, entering, entry)


_CHANGEABLE = PIECE_FIELDS - {"player", "number", "at"}


@handles("update_piece")
def _update_piece(state: GameState, d: ActionData) -> None:
    """What a token stands for changes (tapped, power, keywords, its controller …)."""
    token = d.token()
    piece = _piece(state, token)
    c = d.sub(d.mapping("changes", default={}), "changes")
    _require(not {"player", "number"} & set(c.data), "game.error.token_identity")
    if "at" in c.data:  # saves from before checked moves; now a move is move_piece or set_positions
        _require(state.rules_edition < 2, "game.error.at_is_a_move")
        changes = {"at": _on_board(state, c.optional_square("at"))}
    else:
        changes = {}
    unknown = sorted(set(c.data) - _CHANGEABLE - {"at"})
    if unknown:
        raise c.error(str(unknown[0])[:40], "piece_field", c.data.get(unknown[0]), fields=", ".join(sorted(_CHANGEABLE)))
    changes.update({name: _piece_value(c, name) for name in c.data if name != "at"})
    if "kind" in changes:
        _require((changes["kind"] == "player") == (piece.kind == "player"), "game.error.pawn_kind", "MT 2.05")
    updated = replace(piece, **changes)
    if (state.rules_edition >= 3 and updated.controller != piece.controller and updated.kind == "creature"
            and "summoning_sick" not in changes):
        updated = replace(updated, summoning_sick=True)  # a new controller: sick until their next turn (CR 302.6)
    _check_owner_and_controller(state, updated)
    state.pieces[token] = updated


def step_under_way(state: GameState) -> bool:
    """Whether a movement step has begun: a piece of its kind has moved in it. MT 3.01.d: spells and
    abilities are played « qu'entre les étapes » — before a step's first move, the table is still between
    two steps; after it, the step is under way until `next_phase` ends it."""
    turn = state.turn
    if turn.phase != "movement":
        return False
    return any(moved.spent and token in state.pieces and STEP_OF_KIND[state.pieces[token].kind] == turn.step
               for token, moved in state.movement.items())


def judge(state: GameState, token: Token, to: XY) -> MoveVerdict:
    """`judge_move` for a token of the game, with everything the game knows: what it has left this
    turn, where its movement began, its chosen bonus, the house rules and the other tokens."""
    piece = state.pieces[token]
    occupied = frozenset(p.at for p in state.pieces.values() if p.at is not None and p.token != token)
    return judge_move(state.board, piece, to, left=state.movement_left(token) or 0, house=state.house,
                      chosen_bonus=state.bonus_choices.get(token), occupied=occupied,
                      start=state.movement_start(token), uncertain=state.uncertain)


@handles("move_piece")
def _move_piece(state: GameState, d: ActionData) -> None:
    """A token moves. In the movement phase, a piece of the active player walks in the step of its
    kind (MT 3.01.b–c), judged by `judge_move` against what it has left this turn, which the move
    then spends (MT 3.04.a–c). A move the rules refuse is recorded only when the table says a card
    allows it (`by_card`); it then spends all the movement left. `at` None: it leaves the grid."""
    token = d.token()
    piece = _piece(state, token)
    at = _on_board(state, d.optional_square("at"))
    by_card = d.flag("by_card", default=False)
    d.choice("source", SOURCES, default="hand")
    if at is None:
        state.pieces[token] = piece.moved(None)
        state.movement.pop(token, None)
        return
    if state.rules_edition >= 2 and at != piece.at:
        _walk(state, piece, at, by_card)
    _free(state, at, token)  # MT 3.06.a, even when a card allows the move
    state.pieces[token] = piece.moved(at)


def _walk(state: GameState, piece: Piece, at: XY, by_card: bool) -> None:
    """Check and spend one move of a piece already on the grid (see _move_piece)."""
    name = piece_label(piece)
    if piece.at is None:
        _require(by_card, "game.error.enter_first", name=name)
        return
    turn = state.turn
    if turn.phase != "movement" or piece.controller not in state.acting:
        _require(by_card, "game.error.move_timing", "MT 3.01.a" if turn.phase != "movement" else "MT 3.01.b",
                 name=name)
        return
    step = STEP_OF_KIND[piece.kind]
    _require(by_card or step == turn.step, "game.error.move_step", "MT 3.01.c", name=name, step_key=f"game.step.{step}",
             current_key=f"game.step.{turn.step}")
    left = state.movement_left(piece.token)
    _require(by_card or left is not None, "game.error.not_rolled", "MT 3.04.a", name=name)
    verdict = judge(state, piece.token, at)
    _require(by_card or verdict.legal, "game.error.move_refused", verdict.rule, name=name, reason_key=verdict.key,
             **verdict.fields)
    moved = state.movement.get(piece.token) or Movement(piece.at)
    # a legal move spends its steps; one a card allowed spends all that was left
    state.movement[piece.token] = replace(moved, spent=moved.spent + (verdict.steps if verdict.legal else left or 0))


@handles("set_positions")
def _set_positions(state: GameState, d: ActionData) -> None:
    """Where several tokens truly stand (one camera reading, or the table correcting the record: one
    undo step). A correction, not a move: no movement is spent. MT 3.06.a still holds."""
    moves = d.sequence("positions", limit=1000)
    d.choice("source", SOURCES, default="camera")
    for index, raw in enumerate(moves, start=1):
        move = d.sub(raw, f"positions[{index}]")
        token = move.token()
        _require(token in state.pieces, "game.error.no_token", token=_token_label(token))
        state.pieces[token] = state.pieces[token].moved(_on_board(state, move.optional_square("at")))
    squares = [p.at for p in state.pieces.values() if p.at is not None]
    doubled = sorted({at for at in squares if squares.count(at) > 1})
    _require(not doubled, "game.error.two_on_a_square", "MT 3.06.a", squares=[square_label(at) for at in doubled])


@handles("remove_piece")
def _remove_piece(state: GameState, d: ActionData) -> None:
    """The permanent left the battlefield: its token number is free again (MT 5.02.d, 5.02.f)."""
    piece = _piece(state, d.token())
    _require(piece.kind != "player" or state.rules_edition < 2, "game.error.pawn_stays", "MT 2.05")
    del state.pieces[piece.token]
    state.bonus_choices.pop(piece.token, None)
    state.movement.pop(piece.token, None)
    state.entered_under.pop(piece.token, None)
    state.last_known[piece.token] = piece  # its dies triggers use its zone before its death (MT 4.11.b)


@handles("move_to_target")
def _move_to_target(state: GameState, d: ActionData) -> None:
    """"Move to target square in its action zone": a defender's {T} ability (MT 3.08.b, it taps)
    or a planeswalker's loyalty ability (MT 3.09, its loyalty changes by planeswalker_move_loyalty,
    +0 by default; a planeswalker whose loyalty is tracked cannot pay more than it has)."""
    piece = _piece(state, d.token())
    at = _on_board(state, d.square("at"))
    rule = "MT 3.09" if piece.kind == "planeswalker" else "MT 3.08.b"
    occupied = frozenset(p.at for p in state.pieces.values() if p.at is not None and p.token != piece.token)
    targets = move_to_target_squares(state.board, piece, occupied=occupied, uncertain=state.uncertain,
                                     chosen_bonus=state.bonus_choices.get(piece.token), house=state.house)
    _require(bool(targets), "game.error.no_jump", rule, name=piece_label(piece))
    _require(at in targets, "game.error.jump_outside", rule, name=piece_label(piece), square=square_label(at))
    if piece.kind == "planeswalker":
        cost = state.house.planeswalker_move_loyalty
        if piece.loyalty is not None:
            _require(piece.loyalty + cost >= 0, "game.error.loyalty", "MT 3.09", name=piece_label(piece),
                     loyalty=piece.loyalty, cost=cost)
            piece = replace(piece, loyalty=piece.loyalty + cost)
    else:
        piece = replace(piece, tapped=True)
    state.pieces[piece.token] = piece.moved(at)


def bonus_chooser(state: GameState, piece: Piece) -> int:
    """Who picks the piece's bonus, in their own upkeep (MT 2.02.c): its owner, as the seed says, or its
    controller under the house rule `bonus_chooser: controller` — and in saves started before rules
    edition 4, which were played under that reading."""
    if state.rules_edition >= 4 and state.house.bonus_chooser == "owner":
        return piece.owner
    return piece.controller


@handles("choose_bonus")
def _choose_bonus(state: GameState, d: ActionData) -> None:
    """MT 2.02.c: at the start of its owner's upkeep (« au début de l'entretien de son propriétaire, ce
    joueur choisit »), a multicoloured creature on a multicoloured square gets one bonus among the colours
    it shares with the square, until the next upkeep. House rule: its controller, in theirs."""
    piece = _piece(state, d.token())
    chooser = bonus_chooser(state, piece)
    _require(state.turn.phase == "upkeep" and chooser in state.acting, "game.error.bonus_timing", "MT 2.02.c",
             chooser_key=f"game.chooser.{'owner' if chooser == piece.owner else 'controller'}")
    colour = d.text("colour", limit=8)
    _require(colour in bonus_options(state, piece.token), "game.error.bonus_colour", "MT 2.02.c",
             colour=colour, name=piece_label(piece))
    state.bonus_choices[piece.token] = colour


def bonus_options(state: GameState, token: Token) -> list[str]:
    """MT 2.02.c: colours shared by a multicoloured creature and the multicoloured square it stands on
    (the colours that count: none on a doubtful square, MT 2.02.e)."""
    piece, board = state.pieces.get(token), state.board
    if piece is None or piece.at is None or piece.kind != "creature":
        return []
    colours = counted_colours(board, piece.at, state.uncertain, state.house)
    if len(piece.colours) < 2 or len(colours) < 2:
        return []
    return [c for c in "WUBRG" if c in piece.colours and c in colours]


# -- dice ----------------------------------------------------------------------

@handles("roll_movement")
def _roll_movement(state: GameState, d: ActionData) -> None:
    """MT 3.03–3.04: one roll per distinct object per turn, by its controller, in the movement phase,
    no later than the step of its kind (MT 3.01.c)."""
    piece = _piece(state, d.token())
    name = piece_label(piece)
    turn = state.turn
    _require(turn.phase == "movement", "game.error.roll_timing", "MT 3.01.a")
    _require(piece.controller in state.acting, "game.error.roll_not_active", "MT 3.01.b", name=name)
    step = STEP_OF_KIND[piece.kind]
    _require(MOVEMENT_STEPS.index(step) >= MOVEMENT_STEPS.index(turn.step), "game.error.step_over", "MT 3.01.c",
             name=name, step_key=f"game.step.{step}")
    blocked = movement_blocker(state.board, piece, chosen_bonus=state.bonus_choices.get(piece.token),
                               uncertain=state.uncertain, house=state.house)
    _require(blocked is None, "game.error.cannot_move", blocked and blocked.rule, name=name,
             reason_key=blocked and blocked.key)
    _require(piece.roll_key not in state.movement_rolls, "game.error.already_rolled", "MT 3.03", name=name)
    die = state.movement_die
    count = movement_dice(piece, state.house)
    results = d.sequence("results", limit=8)
    _require(len(results) == count and all(isinstance(r, int) and not isinstance(r, bool) and 1 <= r <= die_sides(die)
                                           for r in results),
             "game.error.dice_results", "MT 3.04.d", count=count, die=die)
    roll = Roll(die, tuple(results), piece.controller, piece.name, total=sum(results), token=piece.token)
    state.movement_rolls[piece.roll_key] = roll
    state.rolls.append(roll)


@handles("roll_die")
def _roll_die(state: GameState, d: ActionData) -> None:
    """A free roll of any die (the D6 and others) for the roll log."""
    die = d.text("die", default="D6", limit=8)
    try:
        sides = die_sides(die)
    except ValueError:
        raise GameError("game.error.not_a_die", die=die) from None
    results = d.sequence("results", limit=100)
    _require(bool(results) and all(isinstance(r, int) and not isinstance(r, bool) and 1 <= r <= sides
                                   for r in results), "game.error.die_results", sides=sides)
    player = d.optional_integer("player")
    state.rolls.append(Roll(die, tuple(results), player, d.text("reason", default="", limit=200), total=sum(results)))


# -- life ----------------------------------------------------------------------

def _city_change(state: GameState, delta: int) -> None:
    """HO 300.3–300.5: players' life gain, loss and payment go to the City; it never exceeds its start."""
    horde = state.horde
    horde.city_life = min(horde.city_start, horde.city_life + delta)
    if horde.city_life <= 0:
        horde.result = "city_defeated"  # HO 105.3


def _lose_life(state: GameState, player: Player, delta: int) -> None:
    if state.horde:
        _city_change(state, delta)
        return
    for holder in life_holder(state, player):  # Two-Headed Giant: one team total
        holder.life += delta


@handles("change_life")
def _change_life(state: GameState, d: ActionData) -> None:
    player = _player(state, d.integer("player"))
    _lose_life(state, player, d.integer("amount", minimum=-10**6, maximum=10**6))


@handles("set_life")
def _set_life(state: GameState, d: ActionData) -> None:
    player = _player(state, d.integer("player"))
    value = d.integer("value", minimum=-10**6, maximum=10**6)
    if state.horde:
        _city_change(state, value - state.horde.city_life)
        return
    for holder in life_holder(state, player):
        holder.life = value


def shares_poison(state: GameState) -> bool:
    """Two-Headed Giant teams share their poison counters as they share their life (CR 810.10, 704.6b: 15
    for the team); saves started before rules edition 4 counted them per player, and replay so."""
    return state.format == "two_headed_giant" and state.rules_edition >= 4


def poison_limit(state: GameState) -> tuple[int, str]:
    """(counters that make a player lose, the rule): 10 (CR 704.5c), a Two-Headed Giant team 15 (CR 704.6b)."""
    return (15, "CR 704.6b") if shares_poison(state) else (10, "CR 704.5c")


@handles("change_poison")
def _change_poison(state: GameState, d: ActionData) -> None:
    player = _player(state, d.integer("player"))
    poison = max(0, player.poison + d.integer("amount", minimum=-1000, maximum=1000))
    for holder in life_holder(state, player) if shares_poison(state) else [player]:
        holder.poison = poison


def commander_key(source: int, partner: str = "") -> str:
    """Which commander dealt damage: "2" (player 2's commander), "2:Tymna" (one of their partners,
    counted apart, Comprehensive Rules 702.124)."""
    return f"{source}:{partner}" if partner else str(source)


@handles("commander_damage")
def _commander_damage(state: GameState, d: ActionData) -> None:
    """Combat damage from a commander is tracked per commander (partners apart) and lost as life; a
    negative amount takes back damage entered by mistake (never below what was taken)."""
    player = _player(state, d.integer("player"))
    source = _player(state, d.integer("source"), alive=False)
    amount = d.integer("amount", minimum=-10**6, maximum=10**6)  # negative: damage entered by mistake taken back
    key = commander_key(source.id, d.text("partner", default="", limit=100))
    taken = player.commander_damage.get(key, 0)
    _require(taken + amount >= 0, "game.error.commander_taken_back", name=player.name, taken=taken,
             source=source.name)
    player.commander_damage[key] = taken + amount
    _lose_life(state, player, -amount)


@handles("mana_burn")
def _mana_burn(state: GameState, d: ActionData) -> None:
    """BR mana burn, when the table plays it (house rule mana_burn): as a phase ends, a player loses
    1 life per unspent mana left in their pool (the app does not see the pool: the table says)."""
    _require(state.house.mana_burn, "game.error.mana_burn_off", "BR")
    player = _player(state, d.integer("player"))
    _lose_life(state, player, -d.integer("mana", minimum=1, maximum=10**6))


@dataclass(frozen=True)
class Elimination:
    """A player the game says has lost (`reasons`, each a Message with its rule); the table confirms
    with `player_leaves`, or keeps them in when a card says otherwise (`keep_in_game`)."""

    player: int
    reasons: tuple[Message, ...]


def _totals(player: Player) -> list:
    return [player.life, player.poison, sorted(player.commander_damage.items())]


def _has_lost(state: GameState, player: Player) -> bool:
    return ((player.life <= 0 and not state.horde) or player.poison >= poison_limit(state)[0]
            or any(damage >= 21 for damage in player.commander_damage.values()))


def eliminations(state: GameState) -> list[Elimination]:
    """Players a state-based check says have lost: life ≤ 0 (BR), 10 poison (Comprehensive Rules
    704.5c; a Two-Headed Giant team, 15 shared, 704.6b), 21 combat damage from one commander, partners
    counted apart (903.10a). In a Horde game life is the City's, which falls by itself (HO 105.3). A
    player the table kept in is proposed again once their totals change."""
    found = []
    poison, poison_rule = poison_limit(state)
    for player in state.alive:
        if not _has_lost(state, player):
            continue
        reasons = []
        if player.life <= 0 and not state.horde:
            reasons.append(Message("game.elimination.life", {"name": player.name, "life": player.life}, "BR"))
        if player.poison >= poison:
            reasons.append(Message("game.elimination.poison", {"name": player.name, "poison": player.poison},
                                   poison_rule))
        for key, damage in sorted(player.commander_damage.items()):
            if damage >= 21:
                source, _, partner = key.partition(":")
                commander = partner or state.names.get(int(source), source)
                reasons.append(Message("game.elimination.commander", {"name": player.name, "commander": commander,
                                                                       "damage": damage}, "CR 903.10a"))
        if reasons and state.kept_in.get(player.id) != _totals(player):
            found.append(Elimination(player.id, tuple(reasons)))
    return found


def losing_players(state: GameState) -> list[int]:
    """The players `eliminations` proposes, without wording the reasons (cheap: asked after every action)."""
    kept = state.kept_in
    return [p.id for p in state.alive if _has_lost(state, p) and (p.id not in kept or kept[p.id] != _totals(p))]


@handles("keep_in_game")
def _keep_in_game(state: GameState, d: ActionData) -> None:
    """The table keeps a player the game proposed to eliminate (a card says they do not lose)."""
    player = _player(state, d.integer("player"))
    _require(player.id in losing_players(state), "game.error.not_losing", name=player.name)
    state.kept_in[player.id] = _totals(player)


@handles("player_leaves")
def _player_leaves(state: GameState, d: ActionData) -> None:
    """A player loses or concedes (PC "Quitter la partie"; HO 105.4); in Two-Headed Giant the whole
    team leaves. The current turn goes on even if it was theirs; the last side in wins."""
    player = _player(state, d.integer("player"))
    reason = d.choice("reason", ("lost", "conceded"), default="lost")
    for leaver in life_holder(state, player):
        _leave(state, leaver, reason)
    if state.horde:
        if reason == "lost" or (not state.alive and state.rules_edition >= 3):
            state.horde.result = "city_defeated"  # HO 105.4; HO 105.1: every player gave up, the City falls
    elif len({_side_key(state, p) for p in state.alive}) <= 1:
        state.winner = [p.id for p in state.alive]


def _leave(state: GameState, player: Player, reason: str) -> None:
    """PC "Quitter la partie": what they own leaves the game. The effects that gave them control of
    others' permanents end: each goes back to the player it entered the battlefield under, and one
    that entered under the leaver's own control goes to no one: it is exiled ("s'ils sont arrivés
    sur le champ de bataille sous le contrôle du joueur qui est parti, ils sont exilés").
    Planechase: if they control the face-up plane, the next player in turn order takes control
    first; triggers they control cease to exist; if they own the face-up plane it leaves, pending
    planeswalk triggers vanish (chaos ones stay), and its controller turns the top of their own
    planar deck face up."""
    planar = state.planar
    if planar and planar.controller == player.id:
        successor = seat_after(state, player.id)
        planar.controller = successor.id if successor else None
    player.left, player.left_reason = True, reason
    for token, piece in list(state.pieces.items()):
        back = state.entered_under.get(token, piece.player)
        if piece.player == player.id or (piece.controller == player.id and back == player.id):
            del state.pieces[token]
            state.bonus_choices.pop(token, None)
            state.movement.pop(token, None)
            state.entered_under.pop(token, None)
        elif piece.controller == player.id:
            back = back if back in {p.id for p in state.alive} else piece.player
            state.pieces[token] = replace(piece, controller=back)
    if planar:
        planar.pending = [t for t in planar.pending if t.controller != player.id]
        planar.decks.pop(player.id, None)
        if planar.owner == player.id:
            planar.face_up = planar.owner = None
            planar.pending = [t for t in planar.pending if t.kind != "planeswalk"]
            if planar.decks.get(planar.controller):
                _planeswalk_to_top(state, planar.controller)


# -- events (MT 7) -----------------------------------------------------------------

@handles("set_event_counter")
def _set_event_counter(state: GameState, d: ActionData) -> None:
    """MT 7.06.d: the table enters X for a revealed event whose card gives no counter."""
    events = state.events
    _require(events is not None and events.revealed is not None, "game.error.no_event")
    events.counter = d.integer("turns", minimum=1, maximum=10_000)


# -- Planechase ----------------------------------------------------------------------

def _planeswalk_to_top(state: GameState, player_id: int) -> None:
    deck = state.planar.decks.get(player_id) or []
    _require(bool(deck), "game.error.planar_deck_empty", name=state.names.get(player_id, player_id))
    state.planar.face_up, state.planar.owner = deck.pop(0), player_id


@handles("roll_planar")
def _roll_planar(state: GameState, d: ActionData) -> None:
    """PC: only the active player rolls, in a main phase; the n-th roll of a turn costs n−1 mana
    (not reset by planeswalking); chaos or planeswalk triggers one pending ability."""
    planar = state.planar
    _require(planar is not None, "game.error.not_planechase")
    player = _player(state, d.integer("player"))
    _require(player.id in state.turn.active, "game.error.planar_not_active", "PC")
    _require(state.turn.phase in ("main1", "main2"), "game.error.planar_timing", "PC")
    _require(not planar.pending or state.rules_edition < 3, "game.error.planar_pending", "PC",
             count=len(planar.pending))  # "à tout moment où vous pourriez lancer un rituel": an empty stack
    face = d.choice("face", set(PLANAR_FACES))
    cost = d.integer("cost")
    _require(cost == planar.rolls_this_turn, "game.error.planar_cost", "PC", cost=planar.rolls_this_turn)
    planar.rolls_this_turn += 1
    state.rolls.append(Roll("planar", (face,), player.id, planar.face_up, cost=cost))
    if face != "blank":
        planar.pending.append(PlanarTrigger(face, player.id, planar.face_up))


@handles("resolve_planar")
def _resolve_planar(state: GameState, d: ActionData) -> None:
    """PC: a chaos trigger resolves (the table reads the plane); a planeswalk trigger puts the plane
    on the bottom of its OWNER's deck and its controller turns the top of THEIR OWN deck face up."""
    planar = state.planar
    _require(planar is not None and bool(planar.pending), "game.error.no_pending")
    index = d.integer("index", default=0)
    _require(0 <= index < len(planar.pending), "game.error.no_pending_index", index=index)
    trigger = planar.pending.pop(index)
    if trigger.kind == "planeswalk" and planar.face_up is not None:
        planar.decks.setdefault(planar.owner, []).append(planar.face_up)
        _planeswalk_to_top(state, trigger.controller)


# -- Horde -----------------------------------------------------------------------------

def _next_wave(state: GameState) -> None:
    """HO 202.2–202.5: exile the current deck face down and start the next; none left → Horde defeated.
    The battlefield stays as it is (202.5a): a boss still in play stays a boss. HO 105.6 (only the City
    is defeated when both would be) holds by construction: the City falls as its life reaches 0, which
    ends the game before anything else can happen."""
    horde = state.horde
    if not horde.waves:
        horde.result = "horde_defeated"  # HO 202.4, 105.2
        return
    wave = horde.waves.pop(0)
    if horde.boss_on_battlefield and state.rules_edition >= 3:  # HO 202.5a: still on the battlefield
        horde.earlier_bosses.append(horde.boss)
    horde.wave += 1
    horde.wave_total = max(horde.wave_total, horde.wave + len(horde.waves))
    horde.level, horde.library, horde.boss = wave.level, list(wave.cards), wave.boss
    horde.boss_in_library, horde.boss_on_battlefield, horde.graveyard = True, False, []


def _horde(state: GameState) -> HordeState:
    _require(state.horde is not None, "game.error.not_horde")
    return state.horde


def _shuffle_graveyard_in(state: GameState, d: ActionData) -> None:
    """HO 202.1, 203: « La Horde mélange son cimetière dans son Deck »: the graveyard and the deck are
    shuffled together (the boss stays apart under the deck, HO 200.2a). Saves of edition 2 put the
    shuffled graveyard on top, as they were played."""
    horde = state.horde
    if state.rules_edition < 3:
        order = _permutation(d, "order", len(horde.graveyard))
        horde.library = [horde.graveyard[i] for i in order] + horde.library
    else:
        cards = horde.graveyard + horde.library
        horde.library = [cards[i] for i in _permutation(d, "order", len(cards))]
    horde.graveyard = []


def _boss_revealed(state: GameState, d: ActionData) -> None:
    """HO 202.1: exile the boss instead, end the turn, shuffle the graveyard into the deck, cast the
    boss for free, and take an extra turn if it was the Horde's turn."""
    horde = state.horde
    _shuffle_graveyard_in(state, d)
    horde.boss_in_library, horde.boss_on_battlefield = False, True
    horde.last_revealed.append(HordeCard(horde.boss, token=False, boss=True))
    if state.turn.horde:
        state.turn.extra_turns.insert(0, "horde")
    _end_turn(state, None, end_step=False)


def _cast(horde: HordeState, card: HordeCard) -> None:
    """A card the Horde casts for free (HO 201.2, 201.7): a permanent stays on the battlefield, any
    other spell ends in the graveyard; a card the table has not described waits in `casting`."""
    if card.permanent is None:
        horde.casting.append(card)
    elif card.permanent:
        horde.battlefield.append(replace(card, wave=horde.wave))
    else:
        horde.graveyard.append(card)


def _reveal_horde_cards(state: GameState, d: ActionData, count: int | None, mill: bool = False) -> None:
    """Reveal from the top: for count None, until a non-token (the draw step, HO 201.2); else `count`
    cards, milled to the graveyard (HO 301.3, 301.4) or drawn one by one (HO 201.7: a token enters,
    another card is cast). Tokens that enter are on the battlefield. Reaching the boss triggers
    HO 202.1; an empty deck, the next wave (202.3)."""
    horde = state.horde
    horde.last_revealed = []
    while count is None or len(horde.last_revealed) < count:
        if not horde.library:
            if horde.boss_in_library:
                _boss_revealed(state, d)
                return
            break
        card = horde.library.pop(0)
        horde.last_revealed.append(card)
        if mill:
            horde.graveyard.append(card)
        elif card.token:
            horde.battlefield.append(replace(card, wave=horde.wave))
        else:
            _cast(horde, card)
            if count is None:
                break
    if not horde.library and not horde.boss_in_library:
        _next_wave(state)


@handles("horde_draw")
def _horde_draw(state: GameState, d: ActionData) -> None:
    """HO 201.2: in its draw step the Horde exiles from the top until a non-token; tokens enter the
    battlefield, the non-token is cast without paying its mana cost. Also in an attack phase that
    a prevented attack turned into a draw phase (HO 201.3a)."""
    _horde(state)
    turn = state.turn
    _require(turn.horde and (turn.phase == "draw" or (turn.phase == "combat" and turn.draw_instead_of_attack)),
             "game.error.horde_draw_timing", "HO 201.2")
    _reveal_horde_cards(state, d, None)


@handles("horde_draws")
def _horde_draws(state: GameState, d: ActionData) -> None:
    """HO 201.7: whenever the Horde should draw (an effect, outside its draw step), it exiles its top
    card instead: a token enters the battlefield, any other card is cast for free."""
    _horde(state)
    _reveal_horde_cards(state, d, d.integer("count", minimum=1, maximum=1000, default=1))


@handles("damage_horde")
def _damage_horde(state: GameState, d: ActionData) -> None:
    """HO 301.3: damage or life loss to the Horde mills (revealed) that many cards; it gains no life (201.6)."""
    _horde(state)
    _reveal_horde_cards(state, d, d.integer("amount", minimum=1, maximum=10**6), mill=True)


@handles("horde_cast_resolves")
def _horde_cast_resolves(state: GameState, d: ActionData) -> None:
    """The table says where a card the Horde cast went: a permanent stays on the battlefield, any
    other spell goes to the graveyard (HO 201.2, so a reshuffle never puts permanents back)."""
    horde = _horde(state)
    index = d.integer("index", default=0)
    _require(0 <= index < len(horde.casting), "game.error.no_horde_card", index=index)
    card = replace(horde.casting.pop(index), permanent=d.flag("permanent"))
    _cast(horde, card)


@handles("horde_leaves_battlefield")
def _horde_leaves_battlefield(state: GameState, d: ActionData) -> None:
    """One of the Horde's permanents (a token, a cast permanent) leaves the battlefield: to the
    graveyard, or exiled face down if its deck is not the current one (HO 202.5b)."""
    horde = _horde(state)
    index = d.integer("index")
    _require(0 <= index < len(horde.battlefield), "game.error.no_horde_card", index=index)
    card = horde.battlefield.pop(index)
    if card.wave == horde.wave:
        horde.graveyard.append(replace(card, wave=None))


BOSSES = ("wave", "secret", "earlier")


def bosses_out(horde: HordeState) -> list[str]:
    """Which bosses are on the battlefield: the wave's, the secret boss, bosses of earlier waves."""
    return [which for which, there in zip(BOSSES, (horde.boss_on_battlefield, horde.secret_boss_on_battlefield,
                                                   bool(horde.earlier_bosses))) if there]


@handles("horde_boss_leaves")
def _horde_boss_leaves(state: GameState, d: ActionData) -> None:
    """HO 202.2: the wave changes when no boss is on the battlefield — not the wave's boss, nor the
    secret boss, nor the boss of an earlier wave still there (HO 202.5a; leaving, it is exiled face down,
    202.5b). `which` says which one left ("wave", "secret", "earlier" with its `index` in
    `earlier_bosses`; any of them when only one is out). Reading: "no boss on the battlefield" counts
    once the wave's boss has come out."""
    horde = _horde(state)
    out = bosses_out(horde)
    _require(bool(out), "game.error.no_boss")
    alone = len(out) == 1 and (out != ["earlier"] or len(horde.earlier_bosses) == 1)
    which = d.choice("which", BOSSES, default=out[0]) if alone or "which" in d.data else None
    _require(which is not None, "game.error.which_boss", "HO 202.2")
    _require(which in out, "game.error.boss_not_out", "HO 202.2", which_key=f"game.boss.{which}")
    if which == "wave":
        horde.boss_on_battlefield = False
    elif which == "secret":
        horde.secret_boss_on_battlefield = False
    else:
        index = d.integer("index", default=0)
        _require(0 <= index < len(horde.earlier_bosses), "game.error.no_horde_card", index=index)
        del horde.earlier_bosses[index]
    if not bosses_out(horde) and not horde.boss_in_library:
        _next_wave(state)


@handles("horde_secret_boss")
def _horde_secret_boss(state: GameState, d: ActionData) -> None:
    """HO 203: a win/lose-the-game effect or a shown infinite loop brings out the secret boss instead:
    shuffle the graveyard into the deck, cast the secret boss, end the turn (extra turn if the Horde's)."""
    horde = _horde(state)
    _require(not horde.secret_boss_on_battlefield, "game.error.secret_boss_out", "HO 203")
    d.text("reason", default="", limit=500)
    _shuffle_graveyard_in(state, d)
    horde.secret_boss_on_battlefield = True
    if state.turn.horde:
        state.turn.extra_turns.insert(0, "horde")
    _end_turn(state, None, end_step=False)


@handles("horde_attack_prevented")
def _horde_attack_prevented(state: GameState, d: ActionData) -> None:
    """HO 201.3a: an effect kept a Horde creature from attacking: its source is exiled (by the table)
    and the Horde's next attack phase is replaced by a draw phase."""
    _horde(state).attacks_replaced += 1
    d.text("source", default="", limit=200)


@handles("city_defeated")
def _city_defeated(state: GameState, d: ActionData) -> None:
    """HO 105.4–105.5: an effect says a player loses, or that an opponent wins."""
    _horde(state).result = "city_defeated"
    d.text("reason", default="", limit=500)


@handles("horde_choice")
def _horde_choice(state: GameState, d: ActionData) -> None:
    """HO 201.5: the Horde chooses at random; the choice is logged."""
    _horde(state)
    options = d.sequence("options", limit=1000)
    chosen = d.data.get("chosen")
    _require(bool(options) and chosen in options, "game.error.horde_choice")
    state.rolls.append(Roll("choice", (chosen,), "horde", d.text("question", default="", limit=200)))


@handles("set_square")
def _set_square(state: GameState, d: ActionData) -> None:
    """The table settles what a square really is (MT 2.02.e: a doubtful colour is confirmed by a
    person); the board of the game changes, so bonuses and moves follow it. Flying and distortion
    may stand on an obstacle (MT 6.03, 6.10); nobody else (MT 2.03.b)."""
    at = _on_board(state, d.square("at"))
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
        _require(standing is None, "game.error.obstacle_holds", "MT 2.03.b", square=square_label(at),
                 name=standing and piece_label(standing))


@handles("note")
def _note(state: GameState, d: ActionData) -> None:
    """A free text line in the history (no effect on the state)."""
    d.text("text", limit=5000)
