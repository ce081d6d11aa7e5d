"""Combat geometry: where to attack from, who may block, trample and provoke (MT 5.03–5.05, 6.06–6.09)."""
from __future__ import annotations

from typing import Collection, Iterable

import numpy as np

from companion.rules.bonuses import NO_UNCERTAINTY, Uncertain, colour_bonus, landwalks_in_force
from companion.rules.geometry import Pos, action_radius, adjacent, distance
from companion.rules.house import DEFAULT_HOUSE_RULES, HouseRules
from companion.rules.moves import free_squares, zone_of
from companion.rules.pieces import Piece


def attack_squares(board, target_at: Pos, *, occupied: Collection[Pos] = frozenset(),
                   flying: bool = False) -> frozenset[Pos]:
    """Squares from which a creature may attack the player or planeswalker at `target_at`:
    the 8 touching squares, diagonals included (MT 5.03.a), that the attacker could stand on
    (free; obstacles only for flyers, MT 2.03.b, 6.10). Leave the attacker's own square out of
    `occupied` so that it counts when already adjacent."""
    return free_squares(board, adjacent(board, target_at), occupied, flying=flying)


def may_attack(attacker: Piece, target: Piece) -> bool:
    """A creature attacks a player or planeswalker only from a touching square (MT 5.03.a–b)."""
    return (attacker.kind == "creature" and target.kind in ("player", "planeswalker")
            and attacker.player != target.player and attacker.at is not None and target.at is not None
            and distance(attacker.at, target.at, "chebyshev") == 1)


class BlockerFacts:
    """What the block test needs of one potential blocker, computed once per blocker."""

    __slots__ = ("piece", "x", "y", "radius", "flying_or_reach", "horsemanship", "keywords")

    def __init__(self, piece: Piece, house: HouseRules):
        self.piece = piece
        self.x, self.y = piece.at
        self.radius = action_radius(piece.mana_value, reach="reach" in piece.keywords,
                                    reach_zero_as_one=house.reach_zero_as_one)
        self.flying_or_reach = bool(piece.keywords & {"flying", "reach"})
        self.horsemanship = "horsemanship" in piece.keywords
        self.keywords = piece.keywords


class AttackerFacts:
    """What the block test needs of the attacker: its square and its evasion in force."""

    __slots__ = ("x", "y", "unblockable", "flying", "horsemanship", "landwalks", "player")

    def __init__(self, board, piece: Piece, chosen_bonus: str | None, uncertain: Uncertain, house: HouseRules):
        self.x, self.y = piece.at
        self.player = piece.player
        bonus = colour_bonus(board, piece, chosen=chosen_bonus, uncertain=uncertain, house=house)
        self.unblockable = "unblockable" in piece.keywords or "unblockable" in bonus.active
        self.flying = "flying" in piece.keywords
        self.horsemanship = "horsemanship" in piece.keywords
        self.landwalks = landwalks_in_force(board, piece, uncertain=uncertain, house=house)


def _block_refusal(blocker: BlockerFacts, attacker: AttackerFacts, metric: str) -> str | None:
    piece = blocker.piece
    if piece.tapped:
        return "tapped (MT 5.05)"
    if attacker.unblockable:
        return "unblockable (keyword or blue square, MT 2.02.b.02)"
    dx, dy = abs(blocker.x - attacker.x), abs(blocker.y - attacker.y)
    if (dx + dy if metric == "manhattan" else max(dx, dy)) > blocker.radius:
        return "attacker outside its action zone (MT 5.04.a)"
    if attacker.flying and not blocker.flying_or_reach:
        return "attacker flies: needs flying or reach (CR 702.9)"
    if attacker.horsemanship and not blocker.horsemanship:
        return "attacker has horsemanship (CR 702.31)"
    if not attacker.landwalks <= blocker.keywords:
        return "attacker's landwalk is in force: needs the same landwalk (MT 6.09)"
    return None


def _can_be_blocker(piece: Piece, attacker_player: int) -> bool:
    return piece.kind in ("creature", "planeswalker") and piece.at is not None and piece.player != attacker_player


def why_cannot_block(board, blocker: Piece, attacker: Piece, *, attacker_bonus: str | None = None,
                     uncertain: Uncertain = NO_UNCERTAINTY, house: HouseRules = DEFAULT_HOUSE_RULES) -> str | None:
    """Why `blocker` may not block `attacker`, or None if it may (MT 5.04.a, 5.05, 6.09, 2.02.b.02).

    A creature or planeswalker blocks a creature standing in its action zone (reach widens it,
    MT 6.07), if untapped (5.05); a flyer needs flying or reach; a blue-square or unblockable
    attacker cannot be blocked; a landwalk in force only by the same landwalk (6.09).
    """
    if attacker.at is None or attacker.kind != "creature":
        return "only creatures on the grid attack (MT 5.01.a, 5.03.b)"
    if not _can_be_blocker(blocker, attacker.player):
        return "not an opposing creature or planeswalker on the grid (MT 5.04.a)"
    return _block_refusal(BlockerFacts(blocker, house), AttackerFacts(board, attacker, attacker_bonus, uncertain, house),
                          house.metric)


class BlockerTable:
    """Every potential blocker of a scene as numpy columns, so that finding the blockers of one
    attacker is a handful of array operations instead of a loop over all pairs (MT 5.04.a, 5.05)."""

    def __init__(self, pieces: Iterable[Piece], house: HouseRules = DEFAULT_HOUSE_RULES):
        facts = [BlockerFacts(p, house) for p in pieces
                 if p.kind in ("creature", "planeswalker") and p.at is not None and not p.tapped]
        self.house = house
        self.facts = facts
        self.x = np.array([f.x for f in facts], dtype=np.int64)
        self.y = np.array([f.y for f in facts], dtype=np.int64)
        self.radius = np.array([f.radius for f in facts], dtype=np.int64)
        self.player = np.array([f.piece.player for f in facts], dtype=np.int64)
        self.flying_or_reach = np.array([f.flying_or_reach for f in facts], dtype=bool)
        self.horsemanship = np.array([f.horsemanship for f in facts], dtype=bool)

    def blockers_of(self, attacker: AttackerFacts) -> tuple[Piece, ...]:
        """The untapped opposing pieces that may block this attacker where it stands."""
        if attacker.unblockable or not self.facts:
            return ()
        dx, dy = np.abs(self.x - attacker.x), np.abs(self.y - attacker.y)
        dist = dx + dy if self.house.metric == "manhattan" else np.maximum(dx, dy)
        able = (dist <= self.radius) & (self.player != attacker.player)
        if attacker.flying:
            able &= self.flying_or_reach
        if attacker.horsemanship:
            able &= self.horsemanship
        found = (self.facts[i] for i in np.flatnonzero(able).tolist())
        return tuple(f.piece for f in found if attacker.landwalks <= f.keywords)


def blockers(board, attacker: Piece, pieces: Iterable[Piece], *, attacker_bonus: str | None = None,
             uncertain: Uncertain = NO_UNCERTAINTY, house: HouseRules = DEFAULT_HOUSE_RULES) -> tuple[Piece, ...]:
    """The pieces that may block `attacker` where it stands (MT 5.04.a, 5.05, 6.09); see why_cannot_block."""
    if attacker.at is None or attacker.kind != "creature":
        return ()
    facts = AttackerFacts(board, attacker, attacker_bonus, uncertain, house)
    return BlockerTable(pieces, house).blockers_of(facts)


def trample_targets(board, attacker: Piece, players: Iterable[Piece], *,
                    house: HouseRules = DEFAULT_HOUSE_RULES) -> tuple[Piece, ...]:
    """Players who may receive trample's excess damage: opposing players standing in the
    attacker's action zone (MT 6.06)."""
    if attacker.at is None:
        return ()
    zone = zone_of(board, attacker, house)
    return tuple(p for p in players if p.kind == "player" and p.player != attacker.player and p.at in zone)


def provoke_squares(board, attacker_at: Pos, *, occupied: Collection[Pos] = frozenset(),
                    flying: bool = False) -> frozenset[Pos]:
    """Where a provoked creature may go: a free square touching the attacker (MT 6.08;
    "attenante" read as in 5.03.a, diagonals included). Leave the provoked creature's own
    square out of `occupied`: if it already touches the attacker it may stay."""
    return free_squares(board, adjacent(board, attacker_at), occupied, flying=flying)
