"""What the Board screen shows, from the game: the overlays of the selected token, the side panel's
text for a token or a square; and what it may do to the game. Pure (no kivy): tests read it without a window.
"""
from __future__ import annotations

import weakref
from dataclasses import dataclass

from boards import XY, square_label
from boards.model import Square
from companion.app.words import colour_words, token_text
from companion.game import Entry, Game, GameState
from companion.game.state import PREGAME
from companion.i18n import translate
from companion.rules import PieceOverlay, Token, movement_blocker, overlay

# What the Board screen may do to the game, through `app.play` (which says a refusal): `Game`
# methods, so a checker and an editor follow every call.
next_phase = Game.next_phase
end_turn = Game.end_turn
roll_movement = Game.roll_movement
choose_bonus = Game.choose_bonus      # MT 2.02.c, in its controller's upkeep
move_piece = Game.move_piece          # a token on the grid to one of its drawn moves
place_pawn = Game.place_pawn          # a pawn the table places (no start square was left for it)
place_piece = Game.place_piece        # a new token enters as a creature spell (MT 4.09.c)


@dataclass(frozen=True)
class Overlay:
    """What the board view draws for one token: filled layers and ringed squares, plus the rules' answer."""

    rules: PieceOverlay | None
    layers: dict[str, frozenset[XY]]
    rings: dict[str, frozenset[XY]]


NO_OVERLAY = Overlay(None, {}, {})
_cache: tuple[weakref.ref, dict[Token, Overlay]] | None = None  # overlays of the state drawn last


def piece_overlay(state: GameState, token: Token | None) -> Overlay:
    """Everything drawn for one token, from `companion.rules.overlay`, computed once per game state."""
    global _cache
    if token is None or tuple(token) not in state.pieces:
        return NO_OVERLAY
    if _cache is None or _cache[0]() is not state:
        _cache = (weakref.ref(state), {})
    found = _cache[1].get(tuple(token))
    if found is None:
        found = _cache[1][tuple(token)] = _compute_overlay(state, state.pieces[tuple(token)])
    return found


def _compute_overlay(state: GameState, piece) -> Overlay:
    roll = state.movement_rolls.get(piece.roll_key)
    rules = overlay(state.board, piece, state.pieces.values(), left=state.movement_left(piece.token) or 0,
                    start=state.movement_start(piece.token), bonus_choice=state.bonus_choices.get(piece.token),
                    sides=state.sides, uncertain=state.uncertain, house=state.house)
    if rules is None:  # off the grid: nothing to draw
        return NO_OVERLAY
    moves = rules.moves | rules.jump_targets if roll or rules.jump_targets else frozenset()
    return Overlay(rules, layers={"zone": rules.zone, "moves": moves, "attack": rules.attack_squares},
                   rings={"blockers": frozenset(b.at for b in rules.blockers), "selected": frozenset({piece.at})})


def entry_overlay(game: Game, token: Token | None) -> Overlay:
    """While a token off the grid is being placed: where it may enter, drawn as the "entry" layer — a
    pawn's free start squares (MT 2.04.a; anywhere free once none is left), a creature's or a
    planeswalker's legal squares as a spell cast (MT 4.09.c, 4.10.b: `Game.entry_squares`)."""
    state = game.state
    piece = state.pieces.get(tuple(token)) if token is not None else None
    if piece is None or piece.at is not None:
        return NO_OVERLAY
    if piece.kind == "player":  # where `place_pawn` accepts it
        squares = game.pawn_squares(piece.player)
    else:
        squares = game.entry_squares(piece, Entry("cast")).squares
    return Overlay(None, layers={"entry": frozenset(squares)}, rings={})


def movement_line(game: Game, token: Token | None, lang: str) -> str:
    """The movement left this turn for the selected piece, in big on the side panel (MT 3.04.a):
    "Reste 5 cases sur 8 (jet 3 + 5)" — what the engine says is left (`Game.movement_left`) of what
    the roll allows this turn (`Game.movement_allowance`: dice, horsemanship, landwalk), and the dice."""
    state = game.state
    piece = state.pieces.get(tuple(token)) if token is not None else None
    if piece is None or piece.at is None:
        return ""
    left = game.movement_left(piece.token)
    if left is None:
        return translate(lang, "board.not_rolled")
    roll = game.movement_roll(piece.token)
    total = game.movement_allowance(piece.token)
    one = left <= 1 if lang == "fr" else left == 1  # French says "0 case", English "0 squares"
    return translate(lang, "board.left_one" if one else "board.left", left=left, total=total,
                     dice=" + ".join(str(r) for r in roll.results))


def pawn_anywhere_reason(game: Game, token: Token | None, lang: str) -> list[str]:
    """Why a pawn off the grid may go on any free square, when it may (issue #27: the whole board lit
    as "may enter" with no word of why): before the first turn, no start square is left free for it
    (MT 2.04.a); later, it goes back where it truly stands (MT 2.03.b, 3.06.a). [] when it goes on a
    start square, or is no pawn off the grid."""
    piece = game.state.pieces.get(tuple(token)) if token is not None else None
    if piece is None or piece.kind != "player" or piece.at is not None:
        return []
    squares = game.pawn_squares(piece.player)
    if not squares or squares <= set(game.state.board.starts):
        return []
    key = "board.no_start_left" if game.state.turn.phase == PREGAME else "board.pawn_back"
    return [translate(lang, key)]


def may_move_to(state: GameState, token: Token, at: XY) -> bool:
    """A tap on `at` moves the selected token there: a token not yet on the grid is placed where
    tapped, one on the grid goes only to a drawn move (MT 3.04.b)."""
    piece = state.pieces.get(tuple(token))
    if piece is None or any(p.at == tuple(at) for p in state.pieces.values()):
        return False
    return piece.at is None or tuple(at) in piece_overlay(state, token).layers.get("moves", ())


def describe_piece(game: Game, token: Token, lang: str) -> str:
    """The side panel for a tapped token: stats, zone, moves, bonus, blockers, attack squares."""
    state = game.state
    piece = state.pieces[tuple(token)]
    t = lambda key, **kw: translate(lang, key, **kw)  # noqa: E731
    lines = [t("piece.header", token=token_text(state, token, lang), name=f"({t('kinds.' + piece.kind)})")]
    if piece.kind != "player":
        pt = f"{piece.power}/{piece.toughness}" if piece.power is not None else "–"
        lines.append(t("piece.stats", mv=piece.mana_value, pt=pt) + "  " + colour_words(piece.colours, lang))
    if piece.at is None:
        return "\n".join(lines + [t("piece.off_grid") + " " + t("pieces.place_hint"), *pawn_anywhere_reason(game, token, lang)])
    lines.append(t("piece.at", label=square_label(piece.at)))
    rules = piece_overlay(state, token).rules
    if piece.kind != "player":
        lines.append(t("piece.zone", count=len(rules.zone)))
    roll = game.movement_roll(token)
    if roll is None:
        lines.append(t("piece.no_roll"))
    elif game.movement_left(token) == 0:  # nothing left this turn (MT 3.04.a)
        blocker = movement_blocker(state.board, piece, chosen_bonus=state.bonus_choices.get(piece.token),
                                   uncertain=state.uncertain, house=state.house)
        lines.append(t("piece.cannot_move", reason=blocker.text(lang) if blocker else "0"))
    else:  # how much is left is the big line above (movement_line)
        lines.append(t("piece.moves", count=len(rules.moves)))
    if rules.jump_targets:
        lines.append(t("piece.jumps", count=len(rules.jump_targets)))
    bonus_words = lambda names: ", ".join(t(f"bonuses.{b}") for b in sorted(names))  # noqa: E731
    if rules.bonus.active:
        lines.append(t("piece.bonus", bonus=bonus_words(rules.bonus.active)))
    elif rules.bonus.needs_choice:
        lines.append(t("piece.bonus_choice", bonus=bonus_words(rules.bonus.available)))
    elif piece.kind == "creature":
        lines.append(t("piece.no_bonus"))
    if piece.kind == "creature":
        names = ", ".join(token_text(state, b.token, lang) for b in rules.blockers)
        lines.append(t("piece.blockers", names=names) if names else t("piece.no_blockers"))
        lines.append(t("piece.attack", count=len(rules.attack_squares)))
    return "\n".join(lines)


def describe_square(state: GameState, at: XY, lang: str) -> str:
    """The side panel for a tapped square: its colours, marks and what stands there."""
    square = state.board.square(*at)
    t = lambda key, **kw: translate(lang, key, **kw)  # noqa: E731
    colours = colour_words(square.colours, lang) or t("square.colourless")
    lines = [t("square.header", label=square_label(at)), t("square.colours", colours=colours)]
    if square.obstacle:
        lines.append(t("square.obstacle"))
    if square.start:
        lines.append(t("square.start"))
    if square.temple:
        lines.append(t("square.temple"))
    piece = next((p for p in state.pieces.values() if p.at == tuple(at)), None)
    lines.append(t("square.occupant", token=token_text(state, piece.token, lang)) if piece else t("square.empty"))
    return "\n".join(lines)


def confirmed_code(board, at: XY, colours: str, obstacle: bool) -> str:
    """The board-file code of a square as the table confirms it (MT 2.02.e): its colours, obstacle or
    not; its start and Temple marks are kept (a colourless square is an obstacle, MT 2.03.a)."""
    current = board.square(*at)
    obstacle = obstacle or not colours
    return Square(frozenset(colours), obstacle=obstacle, start=current.start and not obstacle,
                  temple=current.temple and not obstacle).code


def bonus_choices_open(game: Game, token: Token | None) -> list[str]:
    """Colours the token's controller may pick now as its bonus (MT 2.02.c: in their upkeep)."""
    state = game.state
    piece = state.pieces.get(tuple(token)) if token else None
    if piece is None or state.turn.phase != "upkeep" or piece.player not in state.turn.active:
        return []
    return game.bonus_options(tuple(token))
