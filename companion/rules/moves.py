"""Movement of pieces: who may move, how many dice, how far, and where to (MT 3.02–3.09, 6.03–6.10)."""
from __future__ import annotations

from typing import Callable, Collection, Iterable

from boards.model import XY, Board
from companion.rules.bonuses import NO_UNCERTAINTY, Uncertain, colour_bonus, counted_colours, landwalks_in_force
from companion.rules.geometry import (check_on_board, radius_of_action, spell_radius, whole_grid, zone_around,
                                      zone_mask)
from companion.rules.house import DEFAULT_HOUSE_RULES, HouseRules
from companion.rules.movement import board_masks, reachable
from companion.rules.pieces import LANDWALKS, Piece
from companion.rules.wording import Message


def crosses_obstacles(piece: Piece) -> bool:
    """Flying and distortion let a piece cross and stop on obstacles (MT 6.03, 6.10)."""
    return not piece.keywords.isdisjoint(("flying", "distortion"))


def zone_of(board: Board, piece: Piece, house: HouseRules = DEFAULT_HOUSE_RULES) -> frozenset[XY]:
    """A piece's action zone under the house rules (MT 4.03, 4.04, 6.07).

    A player has no zone of its own (MT 4.08.a): asking for one is an error.
    """
    if piece.kind == "player":
        raise ValueError("a player has no action zone of their own (MT 4.08.a); use spell_zone")
    if piece.at is None:
        return whole_grid(board.width, board.height)
    return zone_around(board, piece.at, _radius_of(piece, house), house.metric)


def _radius_of(piece: Piece, house: HouseRules) -> int:
    return radius_of_action(piece.mana_value, "reach" in piece.keywords, house.reach_zero_as_one)


def spell_zone_of(board: Board, caster_at: XY, mana_value: int,
                  house: HouseRules = DEFAULT_HOUSE_RULES) -> frozenset[XY]:
    """A spell's zone under the house rules: 3 × MV around the caster (MT 4.09.a), the whole
    grid while the caster stands on a Temple du Deus (4.09.d)."""
    if board.square(*caster_at).temple:
        return whole_grid(board.width, board.height)
    return zone_around(board, caster_at, spell_radius(mana_value, zero_as_one=house.spell_zero_as_one),
                       house.metric)


def movement_blocker(board: Board, piece: Piece, *, chosen_bonus: str | None = None,
                     uncertain: Uncertain = NO_UNCERTAINTY,
                     house: HouseRules = DEFAULT_HOUSE_RULES) -> Message | None:
    """Why the piece may not move in the movement phase (key and rule), or None if it may
    (MT 3.02, 3.08.a, 5.05, 5.01.b).

    Haste (keyword or red square, MT 2.02.b.04, the chosen bonus on a multicoloured square
    included, 2.02.c) lets a summoning-sick creature move unless the house option
    haste_moves_when_sick is off.
    """
    if piece.at is None:
        return Message("game.move.not_on_grid", rule="MT 5.01.b")
    if piece.kind == "player":
        return None
    if piece.tapped:
        return Message("game.move.tapped", rule="MT 3.02")
    if piece.kind == "creature" and "defender" in piece.keywords:
        return Message("game.move.defender", rule="MT 3.08.a")
    if piece.kind == "creature" and piece.summoning_sick:
        if not (house.haste_moves_when_sick and has_haste(board, piece, chosen_bonus, uncertain, house)):
            return Message("game.move.sick", rule="MT 3.02")
    return None


def why_cannot_move(board: Board, piece: Piece, *, chosen_bonus: str | None = None,
                    uncertain: Uncertain = NO_UNCERTAINTY, house: HouseRules = DEFAULT_HOUSE_RULES) -> str | None:
    """`movement_blocker` in English words (for logs and the command line), or None."""
    blocker = movement_blocker(board, piece, chosen_bonus=chosen_bonus, uncertain=uncertain, house=house)
    return blocker.text("en") if blocker else None


def has_haste(board: Board, piece: Piece, chosen_bonus: str | None = None, uncertain: Uncertain = NO_UNCERTAINTY,
              house: HouseRules = DEFAULT_HOUSE_RULES) -> bool:
    """Haste from the card or from a red square (MT 2.02.b.04)."""
    return "haste" in piece.keywords or "haste" in colour_bonus(
        board, piece, chosen=chosen_bonus, uncertain=uncertain, house=house).active


def movement_dice(piece: Piece, house: HouseRules = DEFAULT_HOUSE_RULES) -> int:
    """How many movement dice the piece's object rolls: one (MT 3.04.a), plus one for a creature
    whose power AND toughness are both below the threshold, 3 by default (MT 3.04.d)."""
    small = (piece.kind == "creature" and piece.power is not None and piece.toughness is not None
             and piece.power < house.extra_die_threshold and piece.toughness < house.extra_die_threshold)
    return 2 if small else 1


def roll_movement(pieces: Iterable[Piece], roll_die: Callable[[int], int],
                  house: HouseRules = DEFAULT_HOUSE_RULES) -> dict[str, tuple[int, ...]]:
    """One roll per distinct object; copies share it (MT 3.03, 3.04.a).

    `roll_die(sides)` returns one die (e.g. `lambda n: rng.randint(1, n)`); the result maps
    each `Piece.roll_key` to its dice. Pieces off the grid do not roll.
    """
    rolls: dict[str, tuple[int, ...]] = {}
    for piece in pieces:
        if piece.at is not None and piece.roll_key not in rolls:
            rolls[piece.roll_key] = tuple(roll_die(house.die_sides) for _ in range(movement_dice(piece, house)))
    return rolls


def movement_allowance(board: Board, piece: Piece, dice: Collection[int], *, chosen_bonus: str | None = None,
                       uncertain: Uncertain = NO_UNCERTAINTY, house: HouseRules = DEFAULT_HOUSE_RULES) -> int:
    """Maximum squares this turn: the dice summed (MT 3.04.a, 3.04.d), doubled by horsemanship
    (MT 6.04) and doubled again by a landwalk whose colour is on the square the move starts
    from (MT 6.09, landwalk_reading="start_square"). A piece that cannot move gets 0.
    Give the piece as it stood when its movement began (its first move of the turn)."""
    if movement_blocker(board, piece, chosen_bonus=chosen_bonus, uncertain=uncertain, house=house):
        return 0
    total = sum(dice)
    if "horsemanship" in piece.keywords:
        total *= 2
    if landwalks_in_force(board, piece, uncertain=uncertain, house=house):
        total *= 2
    return total


def end_doubling_colours(board: Board, piece: Piece, start: XY | None = None, *, uncertain: Uncertain = NO_UNCERTAINTY,
                         house: HouseRules = DEFAULT_HOUSE_RULES) -> frozenset[str]:
    """Colours on which a move ending there goes twice as far (MT 6.09 under the house reading
    landwalk_reading="start_or_end_square"): the colours of the landwalks of a creature whose
    movement did not start on one of them (at `start`, its square by default). Empty otherwise."""
    if (house.landwalk_reading != "start_or_end_square" or piece.kind != "creature"
            or piece.keywords.isdisjoint(LANDWALKS)):
        return frozenset()
    if landwalks_in_force(board, piece, start, uncertain=uncertain, house=house):
        return frozenset()
    return frozenset(LANDWALKS[w] for w in piece.keywords & LANDWALKS.keys())


def legal_moves(board: Board, piece: Piece, dice: Collection[int] = (), *, left: int | None = None,
                start: XY | None = None, occupied: Collection[XY] = frozenset(), chosen_bonus: str | None = None,
                uncertain: Uncertain = NO_UNCERTAINTY, house: HouseRules = DEFAULT_HOUSE_RULES) -> frozenset[XY]:
    """Squares where the piece may end its next movement-phase move, its own square included
    (MT 3.04–3.07, 6.03, 6.04, 6.09, 6.10).

    The squares it may still go: `left` of them when the game counts what it already moved this
    turn (MT 3.04.a–c; `start` = where its movement began), else the whole allowance of `dice`.
    With landwalk_reading="start_or_end_square" a landwalker not starting on its land's colour
    may also go twice as far when it ends on that colour (MT 6.09). `judge_move` agrees with
    this set square by square.
    """
    if piece.at is None:
        return frozenset()
    begun = piece if start is None else piece.moved(start)
    if movement_blocker(board, begun, chosen_bonus=chosen_bonus, uncertain=uncertain, house=house):
        left = 0
    elif left is None:
        left = movement_allowance(board, begun, dice, chosen_bonus=chosen_bonus, uncertain=uncertain, house=house)
    flying = crosses_obstacles(piece)
    moves = reachable(board, piece.at, left, occupied=occupied, flying=flying)
    colours = end_doubling_colours(board, piece, start, uncertain=uncertain, house=house) if left else frozenset()
    if colours:
        farther = reachable(board, piece.at, 2 * left, occupied=occupied, flying=flying)
        moves |= {q for q in farther if colours & counted_colours(board, q, uncertain, house)}
    return moves


def free_squares(board: Board, squares: Iterable[XY], occupied: Collection[XY], *, flying: bool = False) -> frozenset[XY]:
    """Squares a piece may stand on: not occupied (MT 3.06.a), not an obstacle unless it flies
    (MT 2.03.b, 6.03, 6.10)."""
    return frozenset(q for q in squares if q not in occupied and (flying or board.walkable(q)))


def move_to_target_squares(board: Board, piece: Piece, *, occupied: Collection[XY] = frozenset(),
                           chosen_bonus: str | None = None, uncertain: Uncertain = NO_UNCERTAINTY,
                           house: HouseRules = DEFAULT_HOUSE_RULES) -> frozenset[XY]:
    """Targets of "move to target square in its action zone": the defender's {T} ability
    (MT 3.08.b) and the planeswalker's loyalty ability (MT 3.09, cost = planeswalker_move_loyalty).

    A jump, not a walk: any free square of the zone, obstacles only for flyers. Empty when the
    piece has no such ability or is tapped; a summoning-sick defender cannot pay {T} unless it
    has haste (card or red square). Once-per-turn and timing limits are left to the players.
    """
    if piece.at is None or piece.tapped or piece.kind == "player":
        return frozenset()
    if piece.kind == "creature" and ("defender" not in piece.keywords or (
            piece.summoning_sick and not has_haste(board, piece, chosen_bonus, uncertain, house))):
        return frozenset()
    # free_squares(zone_of(...)) as masks: the zone's squares are never hashed one by one
    check_on_board(board, piece.at, "centre")
    masks = board_masks(board)
    grid = masks.grid
    zone = zone_mask(grid.width, grid.height, piece.at, _radius_of(piece, house), house.metric)
    standable = grid.full if crosses_obstacles(piece) else masks.walkable
    return grid.squares(zone & standable & ~grid.mask_of(occupied))
