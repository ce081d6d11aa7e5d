"""Combat geometry: where to attack from, who may block, trample and provoke (MT 5.03–5.05, 6.06–6.09)."""
from __future__ import annotations

from typing import Collection, Iterable, Mapping, Sequence

import numpy as np

from boards.model import XY, Board
from companion.rules.bonuses import NO_UNCERTAINTY, ColourBonus, Uncertain, colour_bonus, landwalks_in_force
from companion.rules.geometry import action_radius, adjacent, distance, radius_of_action
from companion.rules.house import DEFAULT_HOUSE_RULES, HouseRules
from companion.rules.moves import free_squares, zone_of
from companion.rules.pieces import Piece, square_of
from companion.rules.wording import Message


def attack_squares(board: Board, target_at: XY, *, occupied: Collection[XY] = frozenset(),
                   flying: bool = False) -> frozenset[XY]:
    """Squares from which a creature may attack the player or planeswalker at `target_at`:
    the 8 touching squares, diagonals included (MT 5.03.a), that the attacker could stand on
    (free; obstacles only for flyers, MT 2.03.b, 6.10). Leave the attacker's own square out of
    `occupied` so that it counts when already adjacent."""
    return free_squares(board, adjacent(board, target_at), occupied, flying=flying)


Sides = Mapping[int, int]  # controller → side: teammates share a side (Two-Headed Giant, the Horde's players)


def side_of(controller: int, sides: Sides | None) -> int:
    """The side a controller plays on: its own unless `sides` says (every controller, when given)."""
    return sides.get(controller, controller) if sides else controller


def opponents(a: Piece, b: Piece, sides: Sides | None = None) -> bool:
    """Whether the controllers of two pieces are opponents: not the same player, nor teammates
    (Two-Headed Giant: a teammate is not an opponent; Horde: the players play as one team, HO 102.1)."""
    return side_of(a.controller, sides) != side_of(b.controller, sides)


def may_attack(attacker: Piece, target: Piece, sides: Sides | None = None) -> bool:
    """A creature attacks an opposing player or planeswalker only from a touching square (MT 5.03.a–b).
    Geometry only: whether it may attack at all this turn is `attack_blocker`."""
    return (attacker.kind == "creature" and target.kind in ("player", "planeswalker")
            and opponents(attacker, target, sides) and attacker.at is not None and target.at is not None
            and distance(attacker.at, target.at, "chebyshev") == 1)


def attack_blocker(board: Board, piece: Piece, *, chosen_bonus: str | None = None, uncertain: Uncertain = NO_UNCERTAINTY,
                   house: HouseRules = DEFAULT_HOUSE_RULES, bonus: ColourBonus | None = None) -> Message | None:
    """Why a creature may not attack this turn (key and rule), or None if it may. BR: « Une créature ne peut
    pas attaquer au premier tour », « Célérité : une créature avec la célérité peut attaquer au premier tour »
    — summoning sickness (CR 302.6): a sick creature attacks only with haste, from the card or from its red
    square (MT 2.02.b.04; `bonus`, when the caller has it). A tapped creature is not declared an attacker
    (BR: attacking taps it; CR 508.1a)."""
    if piece.kind != "creature" or piece.at is None:
        return Message("game.attack.not_a_creature", rule="MT 5.03.b")
    if piece.tapped:
        return Message("game.attack.tapped", rule="BR")
    if piece.summoning_sick and "haste" not in piece.keywords:
        if bonus is None:
            bonus = colour_bonus(board, piece, chosen=chosen_bonus, uncertain=uncertain, house=house)
        if "haste" not in bonus.active:
            return Message("game.attack.sick", rule="BR")
    return None


class BlockerFacts:
    """What the block test needs of one potential blocker, computed once per blocker."""

    __slots__ = ("piece", "x", "y", "radius", "flying_or_reach", "horsemanship", "keywords")

    def __init__(self, piece: Piece, house: HouseRules):
        self.piece = piece
        self.x, self.y = square_of(piece)
        self.radius = action_radius(piece.mana_value, reach="reach" in piece.keywords,
                                    reach_zero_as_one=house.reach_zero_as_one)
        self.flying_or_reach = bool(piece.keywords & {"flying", "reach"})
        self.horsemanship = "horsemanship" in piece.keywords
        self.keywords = piece.keywords


class AttackerFacts:
    """What the block test needs of the attacker: its square and its evasion in force."""

    __slots__ = ("x", "y", "unblockable", "flying", "horsemanship", "landwalks", "side")

    def __init__(self, board: Board, piece: Piece, chosen_bonus: str | None, uncertain: Uncertain, house: HouseRules,
                 bonus: ColourBonus | None = None, sides: Sides | None = None):
        """`bonus`: the piece's colour bonus when the caller already has it (same chosen_bonus and uncertain)."""
        self.x, self.y = square_of(piece)
        self.side = side_of(piece.controller, sides)
        if bonus is None:
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


def why_cannot_block(board: Board, blocker: Piece, attacker: Piece, *, attacker_bonus: str | None = None,
                     defenders: Collection[int] | None = None, sides: Sides | None = None,
                     uncertain: Uncertain = NO_UNCERTAINTY, house: HouseRules = DEFAULT_HOUSE_RULES) -> str | None:
    """Why `blocker` may not block `attacker`, or None if it may (MT 5.04.a, 5.05, 6.09, 2.02.b.02).

    A creature or planeswalker blocks a creature standing in its action zone (reach widens it,
    MT 6.07), if untapped (5.05); a flyer needs flying or reach; a blue-square or unblockable
    attacker cannot be blocked; a landwalk in force only by the same landwalk (6.09). Only an
    opponent's pieces block (`sides`: teammates are not opponents), and once the attack is declared
    only those of the attacked player or team (`defenders`; PC: "Les créatures d'un joueur peuvent
    uniquement bloquer les créatures qui l'attaquent").
    """
    if attacker.at is None or attacker.kind != "creature":
        return "only creatures on the grid attack (MT 5.01.a, 5.03.b)"
    if blocker.kind not in ("creature", "planeswalker") or blocker.at is None or not opponents(blocker, attacker, sides):
        return "not an opposing creature or planeswalker on the grid (MT 5.04.a)"
    if defenders is not None and blocker.controller not in defenders:
        return "its controller is not the one attacked: only the attacked player's pieces block (PC)"
    return _block_refusal(BlockerFacts(blocker, house),
                          AttackerFacts(board, attacker, attacker_bonus, uncertain, house, sides=sides), house.metric)


_ROWS_KEPT = 4096  # remembered blocker rows (a few hundred bytes each); all forgotten at once when full
BlockerRow = tuple[int, int, int, int, bool, bool]
_rows: dict[int, tuple[Piece, bool, BlockerRow]] = {}


def _blocker_row(piece: Piece, reach_zero_as_one: bool) -> BlockerRow:
    """(x, y, radius, controller, flying or reach, horsemanship) of one potential blocker.

    Remembered by object identity (the entry holds the piece, so its id stays its own): a game
    state keeps the same immutable Piece objects from one state to the next, only moved or
    changed pieces are new, so a new scene's blocker table mostly reuses rows.
    """
    entry = _rows.get(id(piece))
    if entry is not None and entry[0] is piece and entry[1] == reach_zero_as_one:
        return entry[2]
    keywords = piece.keywords
    x, y = square_of(piece)
    row = (x, y, radius_of_action(piece.mana_value, "reach" in keywords, reach_zero_as_one), piece.controller,
           not keywords.isdisjoint(("flying", "reach")), "horsemanship" in keywords)
    if len(_rows) >= _ROWS_KEPT:
        _rows.clear()
    _rows[id(piece)] = (piece, reach_zero_as_one, row)
    return row


def clear_caches() -> None:
    """Forget the remembered blocker rows (benchmarks measure cold queries with it)."""
    _rows.clear()


class BlockerTable:
    """Every potential blocker of a scene as numpy columns, so that finding the blockers of one
    attacker is a handful of array operations instead of a loop over all pairs (MT 5.04.a, 5.05).

    Which blockers an attacker's side, flying and horsemanship allow does not depend on where
    it stands: that column is built once per (side, flying, horsemanship) and kept. `sides` maps
    controllers to their side (teammates do not block each other); `defenders`, once an attack is
    declared, the controllers whose pieces may block it (PC: the attacked player's only).
    """

    def __init__(self, pieces: Iterable[Piece], house: HouseRules = DEFAULT_HOUSE_RULES, *,
                 sides: Sides | None = None, defenders: Collection[int] | None = None):
        able = [p for p in pieces if p.kind in ("creature", "planeswalker") and p.at is not None and not p.tapped
                and (defenders is None or p.controller in defenders)]
        self.metric = house.metric
        self.pieces = able
        self.keywords = [p.keywords for p in able]
        zero_as_one = house.reach_zero_as_one
        columns = list(zip(*(_blocker_row(p, zero_as_one) for p in able))) or [()] * 6
        self.x, self.y, self.radius = (np.array(c, dtype=np.int64) for c in columns[:3])
        self.side = np.array([side_of(c, sides) for c in columns[3]], dtype=np.int64)
        self.flying_or_reach, self.horsemanship = (np.array(c, dtype=bool) for c in columns[4:])
        self._allowed: dict[tuple[int, bool, bool], np.ndarray] = {}

    def _allowed_against(self, attacker: AttackerFacts) -> np.ndarray:
        """Opposing blockers whose keywords let them block this attacker, wherever it stands."""
        key = (attacker.side, attacker.flying, attacker.horsemanship)
        allowed = self._allowed.get(key)
        if allowed is None:
            allowed = self.side != attacker.side
            if attacker.flying:
                allowed &= self.flying_or_reach
            if attacker.horsemanship:
                allowed &= self.horsemanship
            self._allowed[key] = allowed
        return allowed

    def _chosen(self, attacker: AttackerFacts, in_reach: Iterable[int]) -> tuple[Piece, ...]:
        """The blockers among those in reach (by index) that the attacker's evasion leaves."""
        if attacker.unblockable:
            return ()
        walks, keywords = attacker.landwalks, self.keywords
        return tuple(self.pieces[i] for i in in_reach if walks <= keywords[i])

    def blockers_of(self, attacker: AttackerFacts) -> tuple[Piece, ...]:
        """The untapped opposing pieces that may block this attacker where it stands."""
        if attacker.unblockable or not self.pieces:
            return ()
        dx, dy = np.abs(self.x - attacker.x), np.abs(self.y - attacker.y)
        dist = dx + dy if self.metric == "manhattan" else np.maximum(dx, dy)
        return self._chosen(attacker, np.flatnonzero((dist <= self.radius) & self._allowed_against(attacker)).tolist())

    def blockers_of_each(self, attackers: Sequence[AttackerFacts]) -> list[tuple[Piece, ...]]:
        """`blockers_of` of many attackers at once: one attacker × blocker distance matrix takes
        about as many array operations as one attacker does."""
        if not self.pieces or not attackers:
            return [() for _ in attackers]
        dx = np.abs(np.array([a.x for a in attackers], dtype=np.int64)[:, None] - self.x)
        dy = np.abs(np.array([a.y for a in attackers], dtype=np.int64)[:, None] - self.y)
        dist = dx + dy if self.metric == "manhattan" else np.maximum(dx, dy)
        able = (dist <= self.radius) & np.array([self._allowed_against(a) for a in attackers])
        in_reach: list[list[int]] = [[] for _ in attackers]
        for row, column in zip(*(index.tolist() for index in np.nonzero(able))):
            in_reach[row].append(column)
        return [self._chosen(a, columns) for a, columns in zip(attackers, in_reach)]


def blockers(board: Board, attacker: Piece, pieces: Iterable[Piece], *, attacker_bonus: str | None = None,
             attacked: int | None = None, sides: Sides | None = None, uncertain: Uncertain = NO_UNCERTAINTY,
             house: HouseRules = DEFAULT_HOUSE_RULES) -> tuple[Piece, ...]:
    """The pieces that may block `attacker` where it stands (MT 5.04.a, 5.05, 6.09); see why_cannot_block.

    `attacked`: the player it attacks, once declared (PC multiplayer: only that player's creatures
    and planeswalkers block it; their teammates too when `sides` puts them on one side, as the
    defending team of Two-Headed Giant blocks together). None: every opponent's pieces, as before
    the attack is declared."""
    if attacker.at is None or attacker.kind != "creature":
        return ()
    facts = AttackerFacts(board, attacker, attacker_bonus, uncertain, house, sides=sides)
    defenders = None if attacked is None else defending_controllers(attacked, sides)
    return BlockerTable(pieces, house, sides=sides, defenders=defenders).blockers_of(facts)


def defending_controllers(attacked: int, sides: Sides | None) -> frozenset[int]:
    """The controllers whose pieces defend when `attacked` is attacked: that player and their teammates."""
    if not sides:
        return frozenset({attacked})
    side = side_of(attacked, sides)
    return frozenset({attacked} | {c for c, s in sides.items() if s == side})


def trample_targets(board: Board, attacker: Piece, players: Iterable[Piece], *, sides: Sides | None = None,
                    house: HouseRules = DEFAULT_HOUSE_RULES) -> tuple[Piece, ...]:
    """Players who may receive trample's excess damage: opposing players standing in the
    attacker's action zone (MT 6.06)."""
    if attacker.at is None:
        return ()
    zone = zone_of(board, attacker, house)
    return tuple(p for p in players if p.kind == "player" and opponents(p, attacker, sides) and p.at in zone)


def provoke_squares(board: Board, attacker_at: XY, *, occupied: Collection[XY] = frozenset(),
                    flying: bool = False) -> frozenset[XY]:
    """Where a provoked creature may go: a free square touching the attacker (MT 6.08;
    "attenante" read as in 5.03.a, diagonals included). Leave the provoked creature's own
    square out of `occupied`: if it already touches the attacker it may stay."""
    return free_squares(board, adjacent(board, attacker_at), occupied, flying=flying)
