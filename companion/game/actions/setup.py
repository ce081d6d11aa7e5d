"""Setting up: the `start` action (the whole setup and its random draws, MT 1, 2.04, 7.02, PC, HO 103)
and placing the pawns before turn 1 (MT 2.04.a)."""
from __future__ import annotations

from collections import Counter
from typing import Any

from boards import XY, Board, square_label
from boards.io import BoardFileError
from companion.game.actions.common import (MAX_SEATS, check_free, find_player, handles, on_board, player_name, require,
                                           said, square_text, words)
from companion.game.actions.horde import start_horde
from companion.game.data import ActionData
from companion.game.errors import EventDeckError, GameError
from companion.game.events import RARITY_LIMITS, SUPERTYPES, EventCard, check_deck_size
from companion.game.setup import seat_starts
from companion.game.state import FORMATS, PAWN_NUMBER, PREGAME, EventState, GameState, PlanarState, Player
from companion.rules import (HouseRules, HouseRulesError, Piece)
from companion.rules.wording import Message


def _event_card(d: ActionData) -> EventCard:
    """One event card of the start action, every field checked (MT 7.02.b, 7.06.b, 7.06.d)."""
    name = d.text("name", limit=200)
    require(bool(name.strip()), "game.error.bad_field", action=d.action, field=f"{d.prefix}name",
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
        require(rarity_of.setdefault(key, card.rarity) == card.rarity, "game.error.event_two_rarities", "MT 7.02.b",
                name=card.name)
        limit = RARITY_LIMITS[card.rarity]
        require(copies[key] <= limit, "game.error.event_copies", "MT 7.02.c", name=card.name, copies=copies[key],
                rarity_key=f"game.rarity.{card.rarity}", limit=limit)


@handles("start")
def _start(state: GameState, d: ActionData) -> None:
    """Build the initial state from the setup recorded in the action (and its random draws)."""
    require(not state.players, "game.error.already_started")
    fmt = d.choice("format", FORMATS, default="free_for_all")
    raw_players = d.sequence("players", limit=64)
    seats = [d.sub(raw, f"players[{i}]") for i, raw in enumerate(raw_players, start=1)]
    ids = [s.integer("colour", minimum=1, maximum=MAX_SEATS) for s in seats]
    duplicate = next((c for c in ids if ids.count(c) > 1), None)
    require(duplicate is None, "game.error.same_colour", "MT 1.03.a", colour=duplicate)
    if fmt == "horde":
        require(1 <= len(ids) <= 4, "game.error.horde_players", "HO 100.2", count=len(ids))
    else:
        require(len(ids) >= 2, "game.error.too_few_players", "MT 1.01", count=len(ids))
    try:
        state.house_rules = HouseRules.from_mapping(d.mapping("house_rules", default={}))
    except HouseRulesError as exc:
        raise GameError("game.error.house_rules", "MT 8.04", option=exc.field or "", problem=exc.message) from None
    rows = d.texts("board_rows", limit=100_000)
    require(bool(rows), "game.error.no_board")
    state.board_name = d.text("board_name", default="", limit=200)
    try:
        Board.from_rows(rows, name=state.board_name)
    except (BoardFileError, ValueError) as exc:
        raise GameError("game.error.bad_board", problem=str(exc)[:300]) from None
    state.board_rows = list(rows)
    doubtful = d.sequence("doubtful_squares", default=[], limit=100_000)
    state.doubtful_squares = [on_board(state, d.pair(f"doubtful_squares[{i}]", at)) for i, at in
                              enumerate(doubtful, start=1) if at is not None]
    life = (d.integer("team_life", minimum=1, default=30) if fmt == "two_headed_giant"
            else d.integer("starting_life", minimum=1, default=20))
    state.format, state.planechase = fmt, d.flag("planechase", default=False)
    state.players = [Player(colour, s.text("name", default="", limit=100) or f"{colour}",
                            s.optional_integer("team"), life) for colour, s in zip(ids, seats)]
    if fmt == "two_headed_giant":
        teams = Counter(p.team for p in state.players)
        require(None not in teams and len(teams) >= 2 and all(n == 2 for n in teams.values()),
                "game.error.two_headed_teams")
    state.starting_player = d.integer("starting_player")
    require(state.starting_player in ids, "game.error.starting_player", player=state.starting_player)
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
            require(isinstance(raw, list) and len(raw) == 2, "game.error.bad_field", action="start",
                    field=f"planar_decks[{index}]", expected_key="game.expected.planar_deck", got=str(raw)[:60])
            owner = d.sub({"colour": raw[0], "planes": raw[1]}, f"planar_decks[{index}]")
            decks[owner.integer("colour")] = owner.texts("planes", limit=200)
        for player in state.players:
            require(len(decks.get(player.id, [])) >= 1, "game.error.planar_deck_missing", "PC", name=player.name)
        state.planar = PlanarState(decks={pid: decks[pid] for pid in ids})
    if fmt == "horde":
        start_horde(state, d, ids)
    if state.rules_edition >= 2:
        for player, at in zip(state.players, seat_starts(state.board, len(state.players))):
            state.pieces[(player.id, PAWN_NUMBER)] = Piece(player.id, PAWN_NUMBER, kind="player", name=player.name,
                                                           at=at)


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
    player = find_player(state, d.integer("player"))
    at = on_board(state, d.square("at"))
    pawn = state.pawn(player.id)
    if pawn is None:
        raise GameError("game.error.no_pawn", name=player.name)
    require(state.turn.phase == PREGAME or (pawn.at is None and state.rules_edition >= 3), "game.error.pawn_timing",
            "MT 2.04.a")
    check_free(state, at, pawn.token)
    board = state.board
    require(board.walkable(at), "game.error.obstacle_square", "MT 2.03.b", square=square_label(at))
    squares = pawn_squares(state, player.id)
    require(at in squares, "game.error.pawn_not_on_start", "MT 2.04.a", square=square_label(at),
            starts=[square_label(s) for s in sorted(squares, key=lambda q: (q[1], q[0]))])
    state.pieces[pawn.token] = pawn.moved(at)


@words("start")
def _started(before: GameState, after: GameState, data: dict[str, Any]) -> Message:
    return said("start", players=[p.name for p in after.players])


@words("place_pawn")
def _pawn_placed(before: GameState, after: GameState, data: dict[str, Any]) -> Message:
    return said("place_pawn", player=player_name(after, data.get("player")), square=square_text(data["at"]))
