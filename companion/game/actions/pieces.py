"""Pieces entering, changing, standing and leaving (MT 2.05, 3.02, 3.06.a, 4.09–4.11, 5.01–5.02, 6.02)."""
from __future__ import annotations

from dataclasses import fields, replace
from typing import Any

from boards import square_label
from companion.game.actions.common import (MAX_SEATS, MAX_TOKEN_NUMBER, SOURCES, check_free, controllers, find_piece,
                                           handles, nested, on_board, piece_label, piece_name, player_name, require,
                                           said, square_text, token_label, warns, words)
from companion.game.actions.movement import step_under_way
from companion.game.data import ActionData
from companion.game.errors import GameError
from companion.game.state import (ENTRIES_WITHOUT_SICKNESS, ENTRY_KINDS, ENTRY_RULES, PAWN_NUMBER, PREGAME, Entry,
                                  GameState)
from companion.rules import (KEYWORDS, KINDS, EntrySquares, Piece, Token, creature_spell_entry, crosses_obstacles,
                             return_entry, token_entry, whole_grid)
from companion.rules.moves import free_squares
from companion.rules.wording import Message


PIECE_FIELDS = {f.name for f in fields(Piece)}


def _piece_value(d: ActionData, name: str) -> Any:
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
    allowed = controllers(state)
    require(piece.player in allowed, "game.error.no_player", player=piece.player)
    require(piece.controller in allowed, "game.error.no_player", player=piece.controller)


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
    pawn = state.pawn(_zone_player(state, piece, entry))
    centre = pawn.at if pawn is not None else None  # a pawn: `_whole_grid_entry` said no
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
        find_piece(state, source)
    controller = d.optional_integer("source_controller", minimum=1, maximum=MAX_SEATS)
    if controller is not None:
        require(controller in controllers(state), "game.error.no_player", player=controller)
    return Entry(kind, source, d.optional_integer("source_mana_value", minimum=0, maximum=1000),
                 d.flag("source_spell", default=False), controller)


def _enter(state: GameState, piece: Piece, entry: Entry, by_card: bool) -> None:
    """`piece` (with its square) comes onto the grid by `entry`; refused outside the legal squares
    unless a card allows it (then recorded as such)."""
    if piece.at is None:
        return
    on_board(state, piece.at)
    check_free(state, piece.at, piece.token)
    if entry.kind == "setup":
        require(state.turn.phase == PREGAME, "game.error.setup_timing")
    if by_card:
        return
    at = piece.at
    if _whole_grid_entry(state, piece, entry):  # any square it may stand on
        require(crosses_obstacles(piece) or state.board.walkable(at), "game.error.obstacle_square",
                "MT 2.03.b", square=square_label(at))
        return
    options = entry_squares(state, piece, entry)
    centre = state.pawn(_zone_player(state, piece, entry))  # a pawn: `_whole_grid_entry` said no
    if not options.squares and centre is not None and centre.at is None:
        raise GameError("game.error.pawn_off_grid", ENTRY_RULES[entry.kind], name=piece_label(piece),
                        player=state.names.get(centre.player, centre.player))
    require(at in options.squares, "game.error.entry_outside", ENTRY_RULES[entry.kind],
            name=piece_label(piece), square=square_label(at), how_key=f"game.entry.{entry.kind}",
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
    require(piece.token not in state.pieces, "game.error.token_in_play", "MT 1.03.b", token=token_label(piece.token))
    by_card = d.flag("by_card", default=False)
    if state.rules_edition >= 2:
        require(piece.kind != "player", "game.error.one_pawn", "MT 2.05")
        require(piece.number != PAWN_NUMBER or piece.player == (state.horde.colour if state.horde else None),
                "game.error.pawn_number", "MT 2.05", number=PAWN_NUMBER)
        entry = d.data.get("entry")
        entry = _read_entry(state, d.sub(entry if entry is not None else {}, "entry"))
        _enter(state, piece, entry, by_card)
        piece = _entered(state, piece, entry)
    piece = _horde_piece(state, piece)
    state.last_known.pop(piece.token, None)  # the token number is used again (MT 5.02.f)
    state.pieces[piece.token] = piece.moved(on_board(state, piece.at))


@handles("place_piece")
def _place_piece(state: GameState, d: ActionData) -> None:
    """A token in play but off the grid comes onto it by an entry rule (MT 5.02.a, 5.02.h, 6.02, 4.10.a)."""
    piece = find_piece(state, d.token())
    require(piece.at is None, "game.error.already_on_grid", name=piece_label(piece))
    at = on_board(state, d.square("at"))
    entering = piece.moved(at)
    entry = _read_entry(state, d.sub(d.mapping("entry", default={}), "entry"))
    _enter(state, entering, entry, d.flag("by_card", default=False))
    state.pieces[piece.token] = _entered(state, entering, entry)


_CHANGEABLE = PIECE_FIELDS - {"player", "number", "at"}


@handles("update_piece")
def _update_piece(state: GameState, d: ActionData) -> None:
    """What a token stands for changes (tapped, power, keywords, its controller …)."""
    token = d.token()
    piece = find_piece(state, token)
    c = d.sub(d.mapping("changes", default={}), "changes")
    require(not {"player", "number"} & set(c.data), "game.error.token_identity")
    changes: dict[str, Any] = {}
    if "at" in c.data:  # saves from before checked moves; now a move is move_piece or set_positions
        require(state.rules_edition < 2, "game.error.at_is_a_move")
        changes["at"] = on_board(state, c.optional_square("at"))
    unknown = sorted(set(c.data) - _CHANGEABLE - {"at"})
    if unknown:
        raise c.error(str(unknown[0])[:40], "piece_field", c.data.get(unknown[0]), fields=", ".join(sorted(_CHANGEABLE)))
    changes.update({name: _piece_value(c, name) for name in c.data if name != "at"})
    if "kind" in changes:
        require((changes["kind"] == "player") == (piece.kind == "player"), "game.error.pawn_kind", "MT 2.05")
    updated = replace(piece, **changes)
    if (state.rules_edition >= 3 and updated.controller != piece.controller and updated.kind == "creature"
            and "summoning_sick" not in changes):
        updated = replace(updated, summoning_sick=True)  # a new controller: sick until their next turn (CR 302.6)
    _check_owner_and_controller(state, updated)
    state.pieces[token] = updated


@handles("set_positions")
def _set_positions(state: GameState, d: ActionData) -> None:
    """Where several tokens truly stand (one camera reading, or the table correcting the record: one
    undo step). A correction, not a move: no movement is spent. MT 3.06.a still holds."""
    moves = d.sequence("positions", limit=1000)
    d.choice("source", SOURCES, default="camera")
    for index, raw in enumerate(moves, start=1):
        move = d.sub(raw, f"positions[{index}]")
        token = move.token()
        require(token in state.pieces, "game.error.no_token", token=token_label(token))
        state.pieces[token] = state.pieces[token].moved(on_board(state, move.optional_square("at")))
    squares = [p.at for p in state.pieces.values() if p.at is not None]
    doubled = sorted({at for at in squares if squares.count(at) > 1})
    require(not doubled, "game.error.two_on_a_square", "MT 3.06.a", squares=[square_label(at) for at in doubled])


@handles("remove_piece")
def _remove_piece(state: GameState, d: ActionData) -> None:
    """The permanent left the battlefield: its token number is free again (MT 5.02.d, 5.02.f)."""
    piece = find_piece(state, d.token())
    require(piece.kind != "player" or state.rules_edition < 2, "game.error.pawn_stays", "MT 2.05")
    del state.pieces[piece.token]
    state.bonus_choices.pop(piece.token, None)
    state.movement.pop(piece.token, None)
    state.entered_under.pop(piece.token, None)
    state.last_known[piece.token] = piece  # its dies triggers use its zone before its death (MT 4.11.b)

CHANGE_ORDER = ("name", "kind", "mana_value", "power", "toughness", "colours", "keywords", "tapped",
                "summoning_sick", "controller", "loyalty", "object_key")


def _changes(old: Piece, new: Piece, names: dict[int, str]) -> list[dict[str, Any]]:
    """The changes of a piece, each worded: "tapped", "4/4", "MV 5", "flying, reach" …"""
    changes = []
    for name in CHANGE_ORDER:
        after = getattr(new, name)
        if getattr(old, name) == after or name in ("power", "toughness"):
            continue
        if name in ("tapped", "summoning_sick"):
            changes.append(nested(f"game.change.{name}_{'on' if after else 'off'}"))
        elif name == "colours":
            keys = [f"game.colour.{c}" for c in "WUBRG" if c in after]
            changes.append(nested("game.change.colours" if keys else "game.change.no_colours", colours_keys=keys))
        elif name == "keywords":
            keys = [f"game.keyword.{k}" for k in sorted(after)]
            changes.append(nested("game.change.keywords" if keys else "game.change.no_keywords", keywords_keys=keys))
        elif name == "kind":
            changes.append(nested("game.change.kind", kind_key=f"game.kind.{after}"))
        elif name == "controller":
            changes.append(nested("game.change.controller", player=names.get(after, after)))
        else:
            changes.append(nested(f"game.change.{name}", value=after))
    if (old.power, old.toughness) != (new.power, new.toughness):
        changes.append(nested("game.change.power", power="–" if new.power is None else new.power,
                              toughness="–" if new.toughness is None else new.toughness))
    return changes


def _token_of(data: dict[str, Any]) -> Token:
    raw = data.get("token") or [data["piece"].get("player"), data["piece"].get("number")]
    return raw[0], raw[1]


@words("add_piece", "place_piece")
def _entered_said(before: GameState, after: GameState, data: dict[str, Any]) -> Message:
    new = after.pieces[_token_of(data)]
    owner, piece = player_name(after, new.player), piece_name(before, after, data)
    if new.at is None:
        return said("add_piece_off", player=owner, piece=piece)
    how = (data.get("entry") or {}).get("kind") or ("setup" if before.turn.phase == PREGAME else "cast")
    return said("enters", player=owner, piece=piece, square=square_text(new.at), how_key=f"game.entry.{how}",
                card_key="game.history.by_card" if data.get("by_card") else "game.history.nothing")


@warns("add_piece", "place_piece")
def _cast_mid_step(before: GameState, after: GameState, data: dict[str, Any]) -> list[Message]:
    """MT 3.01.d: spells are cast « qu'entre les étapes » of the movement phase. A creature cast while a step is
    under way applies all the same (the table may have its reasons: a flash creature played too early, a
    correction entered late), and the game says it."""
    entry = data.get("entry") or {}
    if entry.get("kind", "cast") != "cast" or not step_under_way(before):
        return []
    return [Message("game.warning.cast_mid_step", {"name": piece_name(before, after, data),
                                                   "step_key": f"game.step.{before.turn.step}"}, "MT 3.01.d")]


@words("update_piece")
def _updated_said(before: GameState, after: GameState, data: dict[str, Any]) -> Message:
    token = _token_of(data)
    changes = _changes(before.pieces[token], after.pieces[token], after.names)
    return said("update_piece", piece=piece_name(before, after, data),
                changes_words=changes or [nested("game.change.none")])


@words("set_positions")
def _positions_said(before: GameState, after: GameState, data: dict[str, Any]) -> Message:
    return said("set_positions", count=len(data["positions"]), source_key=f"game.source.{data.get('source', 'camera')}")


@words("remove_piece")
def _removed_said(before: GameState, after: GameState, data: dict[str, Any]) -> Message:
    return said("remove_piece", piece=piece_name(before, after, data))
