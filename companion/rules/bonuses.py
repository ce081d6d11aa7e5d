"""Colour bonuses of a creature on its square (MT 2.02.b–e, 2.03.c, 2.06).

The camera may be unsure of a colour: such colours do not count (MT 2.02.e). The
uncertainty is given either as a set of squares (everything on them is doubtful)
or as a mapping square → doubtful colours.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Collection, Mapping, Union

from boards.model import XY, Board
from companion.rules.house import DEFAULT_HOUSE_RULES, HouseRules
from companion.rules.pieces import LANDWALKS, Piece

# MT 2.02.b.01–05, in WUBRG order.
BONUS_OF_COLOUR = {"W": "vigilance", "U": "unblockable", "B": "wither", "R": "haste", "G": "trample"}
ALL_COLOURS = frozenset(BONUS_OF_COLOUR)

Uncertain = Union[Collection[XY], Mapping[XY, Collection[str]]]
NO_UNCERTAINTY: frozenset[XY] = frozenset()


def counted_colours(board: Board, at: XY, uncertain: Uncertain = NO_UNCERTAINTY,
                    house: HouseRules = DEFAULT_HOUSE_RULES) -> frozenset[str]:
    """Colours of a square that count for the rules (MT 2.02.d–e, 2.03.c).

    An obstacle keeps its colours (2.03.c). Doubtful colours never count; with the
    house option uncertain_colours="square" one doubtful colour voids the whole square.
    """
    colours = board.square(*at).colours
    if not uncertain:
        return colours
    if isinstance(uncertain, Mapping):
        doubtful = frozenset(uncertain.get(at, ()))
    else:
        doubtful = ALL_COLOURS if at in uncertain else frozenset()
    if not doubtful & colours:
        return colours
    return frozenset() if house.uncertain_colours == "square" else colours - doubtful


@dataclass(frozen=True)
class ColourBonus:
    """What the square gives a creature: the bonuses on offer, those in force, and whether
    the controller still has to choose one at upkeep (MT 2.02.c)."""

    available: frozenset[str] = frozenset()
    active: frozenset[str] = frozenset()
    needs_choice: bool = False


NO_BONUS = ColourBonus()
# No shared colour or exactly one: the bonus applies with no choice (MT 2.02.b); one shared object each,
# as colour_bonus is asked for every creature on every redraw.
_SINGLE_BONUS = {frozenset(): NO_BONUS, **{frozenset(c): ColourBonus(frozenset({b}), frozenset({b}), False)
                                          for c, b in BONUS_OF_COLOUR.items()}}


def colour_bonus(board: Board, piece: Piece, *, chosen: str | None = None, uncertain: Uncertain = NO_UNCERTAINTY,
                 house: HouseRules = DEFAULT_HOUSE_RULES) -> ColourBonus:
    """The colour bonus of a creature on its square (MT 2.02.b–c).

    Available = one bonus per colour shared by the creature and the square (W vigilance,
    U unblockable, B wither, R haste, G trample; 2.02.b). One shared colour → it applies.
    Several → the controller picks one at upkeep (2.02.c): `chosen` is that colour letter
    (or bonus name), which applies while the square still has it. Players and
    planeswalkers get nothing (2.02.b names creatures; 2.06).
    """
    if piece.kind != "creature" or piece.at is None:
        return NO_BONUS
    shared = piece.colours & counted_colours(board, piece.at, uncertain, house)
    if len(shared) <= 1:
        return _SINGLE_BONUS[shared]
    available = frozenset(BONUS_OF_COLOUR[c] for c in shared)
    if chosen is not None:
        colour = next((c for c, b in BONUS_OF_COLOUR.items() if chosen in (c, b)), None)
        if colour is None:
            raise ValueError(f"chosen bonus {chosen!r} is neither a colour W U B R G nor one of "
                             f"{', '.join(BONUS_OF_COLOUR.values())}")
        if colour in shared:
            return ColourBonus(available, frozenset({BONUS_OF_COLOUR[colour]}), False)
    return ColourBonus(available, frozenset(), True)


def landwalks_in_force(board: Board, piece: Piece, at: XY | None = None, uncertain: Uncertain = NO_UNCERTAINTY,
                       house: HouseRules = DEFAULT_HOUSE_RULES) -> frozenset[str]:
    """The creature's landwalk keywords whose colour is on the square `at` (its own by default)
    (MT 6.09: creatures only; square colours never affect players, 2.06)."""
    at = piece.at if at is None else at
    if at is None or piece.kind != "creature" or piece.keywords.isdisjoint(LANDWALKS):
        return frozenset()
    walks = piece.keywords & LANDWALKS.keys()
    colours = counted_colours(board, at, uncertain, house)
    return frozenset(w for w in walks if LANDWALKS[w] in colours)
