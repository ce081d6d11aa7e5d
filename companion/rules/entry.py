"""Where creatures and tokens enter or come back on the grid (MT 4.09.c, 4.10, 5.02.a, 5.02.h, 6.02)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Collection

from boards.model import XY, Board
from companion.rules.geometry import action_radius, nearest, whole_grid, zone_around
from companion.rules.house import DEFAULT_HOUSE_RULES, HouseRules
from companion.rules.moves import free_squares, spell_zone_of


@dataclass(frozen=True)
class EntrySquares:
    """Squares the controller may choose from; `zone_full` says they are the nearest free
    squares to the zone's centre because the zone itself is full (MT 4.10.b)."""

    squares: frozenset[XY]
    zone_full: bool = False


def entry_squares(board: Board, centre: XY, zone: Collection[XY], *, occupied: Collection[XY] = frozenset(),
                  flying: bool = False, house: HouseRules = DEFAULT_HOUSE_RULES) -> EntrySquares:
    """Free squares of `zone`; if none is free, the free squares of the grid nearest to the
    zone's `centre`, all ties listed for the controller to pick (MT 4.10.a–b). The centre is
    where the source or its controller stands, so the fallback never offers it (MT 4.03.b)."""
    free = free_squares(board, zone, occupied, flying=flying)
    if free:
        return EntrySquares(free)
    anywhere = free_squares(board, whole_grid(board.width, board.height) - {centre}, occupied, flying=flying)
    return EntrySquares(nearest(centre, anywhere, house.metric), zone_full=True)


def creature_spell_entry(board: Board, caster_at: XY, mana_value: int, *, occupied: Collection[XY] = frozenset(),
                         flying: bool = False, house: HouseRules = DEFAULT_HOUSE_RULES) -> EntrySquares:
    """Where a creature cast by the player at `caster_at` enters: any free square of the spell
    zone (MT 4.09.a, 4.09.c), the whole grid from a Temple du Deus (4.09.d); a full zone falls
    back on the nearest free squares like tokens (4.10.b, by analogy)."""
    return entry_squares(board, caster_at, spell_zone_of(board, caster_at, mana_value, house),
                         occupied=occupied, flying=flying, house=house)


def token_entry(board: Board, source_at: XY | None, source_mana_value: int, controller_at: XY, *,
                source_reach: bool = False, occupied: Collection[XY] = frozenset(), flying: bool = False,
                house: HouseRules = DEFAULT_HOUSE_RULES) -> EntrySquares:
    """Where an effect puts a creature or token: any free square of the source's action zone
    (MT 4.10.a), the nearest free squares to its centre when it is full (4.10.b).

    A source on the grid: its zone around it (its mana value, reach included, MT 4.03, 6.07).
    A source off the grid: "cette zone d'action est centrée sur le joueur" — a zone of the
    source's own size (its mana value, MT 4.03) centred on its controller, the reading MT 5.02.a
    and 4.08.b give for the same words (MT 4.04's whole grid could not be centred on anyone).
    For a spell as source, use creature_spell_entry's spell zone instead (4.09.a)."""
    centre = controller_at if source_at is None else source_at
    radius = action_radius(source_mana_value, reach=source_reach and source_at is not None,
                           reach_zero_as_one=house.reach_zero_as_one)
    return entry_squares(board, centre, zone_around(board, centre, radius, house.metric),
                         occupied=occupied, flying=flying, house=house)


def return_entry(board: Board, controller_at: XY, mana_value: int, *, occupied: Collection[XY] = frozenset(),
                 flying: bool = False, house: HouseRules = DEFAULT_HOUSE_RULES) -> EntrySquares:
    """Where a permanent comes (back) onto the grid: within its own zone size, centred on its
    controller (MT 5.02.a, 5.02.h; phasing in, 6.02). MV 0 still gives radius 1 (4.03.c);
    a full zone falls back on the nearest free squares like tokens (4.10.b, by analogy)."""
    zone = zone_around(board, controller_at, action_radius(mana_value), house.metric)
    return entry_squares(board, controller_at, zone, occupied=occupied, flying=flying, house=house)
