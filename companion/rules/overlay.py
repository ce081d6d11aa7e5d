"""Everything the app draws for a piece, computed in one call per piece (or for all pieces at once).

Costs are shared across pieces by a scene: the occupied squares, the blocker table and the
attack targets are built once per call of `overlays`, and once per game state for `overlay`,
which the app calls for one piece after another of the same unchanged state.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import reduce
from itertools import repeat
from operator import attrgetter, is_, or_
from typing import Collection, Iterable, Mapping

from boards.model import XY, Board, Token
from companion.rules.bonuses import NO_UNCERTAINTY, ColourBonus, Uncertain, colour_bonus
from companion.rules.combat import AttackerFacts, BlockerTable, Sides, attack_blocker, side_of
from companion.rules.geometry import zone_mask
from companion.rules.house import DEFAULT_HOUSE_RULES, HouseRules
from companion.rules.movement import board_masks
from companion.rules.moves import crosses_obstacles, legal_moves, move_to_target_squares, zone_of
from companion.rules.pieces import Piece, square_of


@dataclass(frozen=True)
class PieceOverlay:
    """What the app shows for one piece on the grid.

    zone: its action zone (MT 4.03, 6.07); moves: where it may end its move with the given dice,
    its square included (MT 3.04–3.07); jump_targets: its "move to target square" targets
    (MT 3.08.b, 3.09); bonus: its colour bonus (MT 2.02); blockers: opposing pieces that may block
    it where it stands (MT 5.04); attack_squares: free squares touching an opposing player or
    planeswalker, from which it may attack (MT 5.03.a) — none while it may not attack this turn
    (summoning sick without haste, tapped: `attack_blocker`).
    """

    piece: Piece
    zone: frozenset[XY]
    moves: frozenset[XY]
    jump_targets: frozenset[XY]
    bonus: ColourBonus
    blockers: tuple[Piece, ...]
    attack_squares: frozenset[XY]


class _Scene:
    """What every piece's overlay shares: occupied squares, the blocker table, and the squares
    touching each player's opponents (players and planeswalkers, MT 5.03.a).

    The blocker table and the attack squares are built on first use: a scene asked only for a
    player's pawn or a planeswalker never needs them.
    """

    def __init__(self, board: Board, pieces: tuple[Piece, ...], house: HouseRules, sides: Sides | None = None):
        self.board, self.pieces, self.house, self.sides = board, pieces, house, sides
        self.on_grid = [p for p in pieces if p.at is not None]
        self.occupied = frozenset(square_of(p) for p in self.on_grid)
        self._blockers: BlockerTable | None = None
        self._touching: list[tuple[int, int]] | None = None
        self._attack: dict[tuple[int, bool], tuple[int, frozenset[XY]]] = {}  # touching mask, free squares
        self._members: frozenset[int] | None = None

    def is_for(self, board: Board, pieces: tuple[Piece, ...], house: HouseRules, sides: Sides | None) -> bool:
        """Whether this scene was built from these exact objects (pieces are immutable)."""
        return (self.board is board and len(self.pieces) == len(pieces) and all(map(is_, self.pieces, pieces))
                and (self.house is house or self.house == house) and (self.sides is sides or self.sides == sides))

    def holds(self, piece: Piece) -> bool:
        """Whether `piece` itself is among the scene's pieces, and alone with its token: then its
        overlay's scene is this one, with no entry to replace."""
        if self._members is None:
            tokens = set(map(attrgetter("player", "number"), self.pieces))
            self._members = frozenset(map(id, self.pieces)) if len(tokens) == len(self.pieces) else frozenset()
        return id(piece) in self._members

    @property
    def blockers(self) -> BlockerTable:
        if self._blockers is None:
            self._blockers = BlockerTable(self.on_grid, self.house, sides=self.sides)
        return self._blockers

    def attack_squares(self, board: Board, piece: Piece, flying: bool) -> frozenset[XY]:
        """Squares touching an opposing player or planeswalker where this creature could stand:
        free ones, plus its own square when it already touches a target. Built as masks once per
        (side, flying): the union of combat.attack_squares over the opposing targets."""
        side = side_of(piece.controller, self.sides)
        key = (side, flying)
        if key not in self._attack:
            masks = board_masks(board)
            grid = masks.grid
            if self._touching is None:  # squares touching each target (MT 5.03.a), by the target's side
                self._touching = [(side_of(t.controller, self.sides), zone_mask(grid.width, grid.height,
                                                                                square_of(t), 1, "chebyshev"))
                                  for t in self.on_grid if t.kind in ("player", "planeswalker")]
            touching = reduce(or_, (mask for owner, mask in self._touching if owner != side), 0)
            touching &= grid.full if flying else masks.walkable
            self._attack[key] = (touching, grid.squares(touching & ~grid.mask_of(self.occupied)))
        touching, free = self._attack[key]
        x, y = at = square_of(piece)
        return free | {at} if touching >> (y * board.width + x) & 1 else free


def _overlay_of(board: Board, piece: Piece, scene: _Scene, dice: Collection[int], choice: str | None,
                uncertain: Uncertain, house: HouseRules, bonus: ColourBonus | None = None,
                stoppers: tuple[Piece, ...] | None = None, left: int | None = None,
                start: XY | None = None) -> PieceOverlay:
    """`bonus` and `stoppers` (its blockers), when given, were computed for many pieces at once."""
    if bonus is None:
        bonus = colour_bonus(board, piece, chosen=choice, uncertain=uncertain, house=house)
    moves = legal_moves(board, piece, dice, left=left, start=start, occupied=scene.occupied, chosen_bonus=choice,
                        uncertain=uncertain, house=house)
    if piece.kind == "player":
        return PieceOverlay(piece, frozenset(), moves, frozenset(), bonus, (), frozenset())
    zone = zone_of(board, piece, house)
    jumps = move_to_target_squares(board, piece, occupied=scene.occupied, chosen_bonus=choice,
                                   uncertain=uncertain, house=house)
    if piece.kind != "creature":
        return PieceOverlay(piece, zone, moves, jumps, bonus, (), frozenset())
    if stoppers is None:
        stoppers = scene.blockers.blockers_of(AttackerFacts(board, piece, choice, uncertain, house, bonus,
                                                            sides=scene.sides))
    attack = (frozenset() if attack_blocker(board, piece, house=house, bonus=bonus)
              else scene.attack_squares(board, piece, crosses_obstacles(piece)))
    return PieceOverlay(piece, zone, moves, jumps, bonus, stoppers, attack)


def overlays(board: Board, pieces: Iterable[Piece], *, dice: Mapping[str, Collection[int]] | None = None,
             left: Mapping[Token, int] | None = None, starts: Mapping[Token, XY] | None = None,
             bonus_choices: Mapping[Token, str] | None = None, sides: Sides | None = None,
             uncertain: Uncertain = NO_UNCERTAINTY, house: HouseRules = DEFAULT_HOUSE_RULES) -> dict[Token, PieceOverlay]:
    """Overlays of every piece on the grid, by token (player, number).

    `dice` maps a Piece.roll_key to its movement dice this turn (missing → no move), or `left` maps a
    token to the squares it has left this turn (what `companion.game.Game.movement_left` says; a token
    missing there has no move) and `starts` to where its movement began; `bonus_choices` maps a token
    to the colour chosen at upkeep (MT 2.02.c); `sides` maps controllers to teams.
    Players' pawns get moves and no zone (MT 4.08.a); pieces off the grid are skipped.
    """
    dice = dice or {}
    bonus_choices, starts = bonus_choices or {}, starts or {}
    scene = _Scene(board, tuple(pieces), house, sides)
    choices = [bonus_choices.get(p.token) for p in scene.on_grid]
    bonuses = [colour_bonus(board, p, chosen=c, uncertain=uncertain, house=house)
               for p, c in zip(scene.on_grid, choices)]
    attackers = {i: AttackerFacts(board, p, choices[i], uncertain, house, bonuses[i], sides=sides)
                 for i, p in enumerate(scene.on_grid) if p.kind == "creature"}
    stoppers = dict(zip(attackers, scene.blockers.blockers_of_each(list(attackers.values())))) if attackers else {}
    return {p.token: _overlay_of(board, p, scene, dice.get(p.roll_key, ()), choices[i], uncertain, house,
                                 bonuses[i], stoppers.get(i), None if left is None else left.get(p.token, 0),
                                 starts.get(p.token)) for i, p in enumerate(scene.on_grid)}


_last_scene: _Scene | None = None


def _scene_for(board: Board, pieces: tuple[Piece, ...], house: HouseRules, sides: Sides | None) -> _Scene:
    """The scene of these exact piece objects; the last one is reused, since the app asks the
    overlays of many pieces of one unchanged game state in a row."""
    global _last_scene
    last = _last_scene
    if last is not None and last.is_for(board, pieces, house, sides):
        return last
    _last_scene = scene = _Scene(board, pieces, house, sides)
    return scene


def overlay(board: Board, piece: Piece, pieces: Iterable[Piece], *, dice: Collection[int] = (), left: int | None = None,
            start: XY | None = None, bonus_choice: str | None = None, sides: Sides | None = None,
            uncertain: Uncertain = NO_UNCERTAINTY, house: HouseRules = DEFAULT_HOUSE_RULES) -> PieceOverlay | None:
    """The overlay of one piece among `pieces` (its own entry, if any, is replaced by `piece`);
    None when it is off the grid. Its moves: with `left`, the squares it has left this turn from
    where it stands (`start`: where its movement began), else the allowance of `dice`."""
    if piece.at is None:
        return None
    given = tuple(pieces)
    scene = _scene_for(board, given, house, sides)
    if not scene.holds(piece):   # an edited piece: the scene of the pieces with it in its token's place
        everyone = tuple(piece if p.token == piece.token else p for p in given)
        if not any(map(is_, everyone, repeat(piece))):
            everyone += (piece,)
        scene = _scene_for(board, everyone, house, sides)
    return _overlay_of(board, piece, scene, dice, bonus_choice, uncertain, house, left=left, start=start)
