"""Moving on the grid in the movement phase (MT 3.01–3.09) and the colour bonus chosen at upkeep (MT 2.02.c)."""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from boards import XY, square_label
from companion.game.actions.common import (SOURCES, check_free, find_piece, handles, on_board, piece_label, piece_name,
                                           player_name, require, said, square_text, words)
from companion.game.data import ActionData
from companion.game.state import STEP_OF_KIND, GameState, Movement
from companion.rules import MoveVerdict, Piece, Token, counted_colours, judge_move, move_to_target_squares
from companion.rules.wording import Message


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
    piece = find_piece(state, token)
    at = on_board(state, d.optional_square("at"))
    by_card = d.flag("by_card", default=False)
    d.choice("source", SOURCES, default="hand")
    if at is None:
        state.pieces[token] = piece.moved(None)
        state.movement.pop(token, None)
        return
    if state.rules_edition >= 2 and at != piece.at:
        _walk(state, piece, at, by_card)
    check_free(state, at, token)  # MT 3.06.a, even when a card allows the move
    state.pieces[token] = piece.moved(at)


def _walk(state: GameState, piece: Piece, at: XY, by_card: bool) -> None:
    """Check and spend one move of a piece already on the grid (see _move_piece)."""
    name = piece_label(piece)
    if piece.at is None:
        require(by_card, "game.error.enter_first", name=name)
        return
    turn = state.turn
    if turn.phase != "movement" or piece.controller not in state.acting:
        require(by_card, "game.error.move_timing", "MT 3.01.a" if turn.phase != "movement" else "MT 3.01.b",
                name=name)
        return
    step = STEP_OF_KIND[piece.kind]
    require(by_card or step == turn.step, "game.error.move_step", "MT 3.01.c", name=name, step_key=f"game.step.{step}",
            current_key=f"game.step.{turn.step}")
    left = state.movement_left(piece.token)
    require(by_card or left is not None, "game.error.not_rolled", "MT 3.04.a", name=name)
    verdict = judge(state, piece.token, at)
    require(by_card or verdict.legal, "game.error.move_refused", verdict.rule, name=name, reason_key=verdict.key,
            **verdict.fields)
    moved = state.movement.get(piece.token) or Movement(piece.at)
    # a legal move spends its steps; one a card allowed spends all that was left
    spent = (verdict.steps or 0) if verdict.legal else (left or 0)
    state.movement[piece.token] = replace(moved, spent=moved.spent + spent)


@handles("move_to_target")
def _move_to_target(state: GameState, d: ActionData) -> None:
    """"Move to target square in its action zone": a defender's {T} ability (MT 3.08.b, it taps)
    or a planeswalker's loyalty ability (MT 3.09, its loyalty changes by planeswalker_move_loyalty,
    +0 by default; a planeswalker whose loyalty is tracked cannot pay more than it has)."""
    piece = find_piece(state, d.token())
    at = on_board(state, d.square("at"))
    rule = "MT 3.09" if piece.kind == "planeswalker" else "MT 3.08.b"
    occupied = frozenset(p.at for p in state.pieces.values() if p.at is not None and p.token != piece.token)
    targets = move_to_target_squares(state.board, piece, occupied=occupied, uncertain=state.uncertain,
                                     chosen_bonus=state.bonus_choices.get(piece.token), house=state.house)
    require(bool(targets), "game.error.no_jump", rule, name=piece_label(piece))
    require(at in targets, "game.error.jump_outside", rule, name=piece_label(piece), square=square_label(at))
    if piece.kind == "planeswalker":
        cost = state.house.planeswalker_move_loyalty
        if piece.loyalty is not None:
            require(piece.loyalty + cost >= 0, "game.error.loyalty", "MT 3.09", name=piece_label(piece),
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
    piece = find_piece(state, d.token())
    chooser = bonus_chooser(state, piece)
    require(state.turn.phase == "upkeep" and chooser in state.acting, "game.error.bonus_timing", "MT 2.02.c",
            chooser_key=f"game.chooser.{'owner' if chooser == piece.owner else 'controller'}")
    colour = d.text("colour", limit=8)
    require(colour in bonus_options(state, piece.token), "game.error.bonus_colour", "MT 2.02.c",
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


def _token_of(data: dict[str, Any]) -> Token:
    return data["token"][0], data["token"][1]


@words("move_piece")
def _moved_said(before: GameState, after: GameState, data: dict[str, Any]) -> Message:
    token, piece = _token_of(data), piece_name(before, after, data)
    old, new = before.pieces[token], after.pieces[token]
    if new.at is None:
        return said("leaves_grid", piece=piece)
    if data.get("by_card"):
        return said("move_by_card", piece=piece, frm=square_text(old.at) or "–", to=square_text(new.at))
    moved, was = after.movement.get(token), before.movement.get(token)
    if moved is not None:  # a walk of the movement phase (MT 3.04): its steps were spent
        return said("move", piece=piece, frm=square_text(old.at), to=square_text(new.at),
                    steps=moved.spent - (was.spent if was else 0))
    return said("placed", piece=piece, to=square_text(new.at))


@words("move_to_target")
def _jumped_said(before: GameState, after: GameState, data: dict[str, Any]) -> Message:
    to = after.pieces[_token_of(data)].at
    return said("move_to_target", piece=piece_name(before, after, data), to=square_text(to))


@words("choose_bonus")
def _bonus_said(before: GameState, after: GameState, data: dict[str, Any]) -> Message:
    chooser = player_name(after, after.pieces[_token_of(data)].controller)
    return said("choose_bonus", player=chooser, piece=piece_name(before, after, data),
                colour_key=f"game.colour.{data['colour']}")
