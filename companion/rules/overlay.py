"""Everything the app draws for a piece, computed in one call per piece (or for all pieces at once).

Costs are shared across pieces: the occupied set, the attack targets and each
potential blocker's facts are built once per call of `overlays`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Collection, Iterable, Mapping

from companion.rules.bonuses import NO_UNCERTAINTY, ColourBonus, Uncertain, colour_bonus
from companion.rules.combat import AttackerFacts, BlockerTable, attack_squares
from companion.rules.geometry import Pos
from companion.rules.house import DEFAULT_HOUSE_RULES, HouseRules
from companion.rules.moves import crosses_obstacles, legal_moves, move_to_target_squares, zone_of
from companion.rules.pieces import Piece


@dataclass(frozen=True)
class PieceOverlay:
    """What the app shows for one piece on the grid.

    zone: its action zone (MT 4.03, 6.07); moves: where it may end its move with the given dice,
    its square included (MT 3.04–3.07); jump_targets: its "move to target square" targets
    (MT 3.08.b, 3.09); bonus: its colour bonus (MT 2.02); blockers: opposing pieces that may block
    it where it stands (MT 5.04); attack_squares: free squares touching an opposing player or
    planeswalker, from which it may attack (MT 5.03.a).
    """

    piece: Piece
    zone: frozenset[Pos]
    moves: frozenset[Pos]
    jump_targets: frozenset[Pos]
    bonus: ColourBonus
    blockers: tuple[Piece, ...]
    attack_squares: frozenset[Pos]


class _Scene:
    """What every piece's overlay shares: occupied squares, the blocker table, and the squares
    touching each player's opponents (players and planeswalkers, MT 5.03.a)."""

    def __init__(self, board, on_grid: list[Piece], house: HouseRules):
        self.occupied = frozenset(p.at for p in on_grid)
        self.blockers = BlockerTable(on_grid, house)
        self._targets = [p for p in on_grid if p.kind in ("player", "planeswalker")]
        self._attack: dict[tuple[int, bool], tuple[frozenset[Pos], frozenset[Pos]]] = {}

    def attack_squares(self, board, piece: Piece, flying: bool) -> frozenset[Pos]:
        """Squares touching an opposing player or planeswalker where this creature could stand:
        free ones, plus its own square when it already touches a target."""
        key = (piece.player, flying)
        if key not in self._attack:
            touching = frozenset().union(*(attack_squares(board, t.at, flying=flying)
                                           for t in self._targets if t.player != piece.player))
            self._attack[key] = (touching, touching - self.occupied)
        touching, free = self._attack[key]
        return free | {piece.at} if piece.at in touching else free


def _overlay_of(board, piece: Piece, scene: _Scene, dice: Collection[int], choice: str | None,
                uncertain: Uncertain, house: HouseRules) -> PieceOverlay:
    bonus = colour_bonus(board, piece, chosen=choice, uncertain=uncertain, house=house)
    moves = legal_moves(board, piece, dice, occupied=scene.occupied, uncertain=uncertain, house=house)
    if piece.kind == "player":
        return PieceOverlay(piece, frozenset(), moves, frozenset(), bonus, (), frozenset())
    zone = zone_of(board, piece, house)
    jumps = move_to_target_squares(board, piece, occupied=scene.occupied, chosen_bonus=choice,
                                   uncertain=uncertain, house=house)
    if piece.kind != "creature":
        return PieceOverlay(piece, zone, moves, jumps, bonus, (), frozenset())
    stoppers = scene.blockers.blockers_of(AttackerFacts(board, piece, choice, uncertain, house))
    attack = scene.attack_squares(board, piece, crosses_obstacles(piece))
    return PieceOverlay(piece, zone, moves, jumps, bonus, stoppers, attack)


def overlays(board, pieces: Iterable[Piece], *, dice: Mapping[str, Collection[int]] | None = None,
             bonus_choices: Mapping[tuple[int, int], str] | None = None, uncertain: Uncertain = NO_UNCERTAINTY,
             house: HouseRules = DEFAULT_HOUSE_RULES) -> dict[tuple[int, int], PieceOverlay]:
    """Overlays of every piece on the grid, by token (player, number).

    `dice` maps a Piece.roll_key to its movement dice this turn (missing → no move);
    `bonus_choices` maps a token to the colour chosen at upkeep (MT 2.02.c).
    Players' pawns get moves and no zone (MT 4.08.a); pieces off the grid are skipped.
    """
    dice = dice or {}
    bonus_choices = bonus_choices or {}
    on_grid = [p for p in pieces if p.at is not None]
    scene = _Scene(board, on_grid, house)
    return {p.token: _overlay_of(board, p, scene, dice.get(p.roll_key, ()), bonus_choices.get(p.token),
                                 uncertain, house) for p in on_grid}


_last_scene: tuple[object, HouseRules, tuple[Piece, ...], _Scene] | None = None


def _scene_for(board, pieces: tuple[Piece, ...], house: HouseRules) -> _Scene:
    """The scene of these exact piece objects; the last one is reused, since the app asks the
    overlays of many pieces of one unchanged game state in a row (pieces are immutable)."""
    global _last_scene
    last = _last_scene
    if (last is not None and last[0] is board and last[1] == house and len(last[2]) == len(pieces)
            and all(a is b for a, b in zip(last[2], pieces))):
        return last[3]
    scene = _Scene(board, [p for p in pieces if p.at is not None], house)
    _last_scene = (board, house, pieces, scene)
    return scene


def overlay(board, piece: Piece, pieces: Iterable[Piece], *, dice: Collection[int] = (),
            bonus_choice: str | None = None, uncertain: Uncertain = NO_UNCERTAINTY,
            house: HouseRules = DEFAULT_HOUSE_RULES) -> PieceOverlay | None:
    """The overlay of one piece among `pieces` (its own entry, if any, is replaced by `piece`);
    None when it is off the grid."""
    if piece.at is None:
        return None
    everyone = tuple(piece if p.token == piece.token else p for p in pieces)
    if not any(p is piece for p in everyone):
        everyone += (piece,)
    return _overlay_of(board, piece, _scene_for(board, everyone, house), dice, bonus_choice, uncertain, house)
