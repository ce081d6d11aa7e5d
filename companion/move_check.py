"""Is a move the camera saw legal? The answer and the reason, in French and English.

The app shows the verdict next to the move; it never blocks play (players may have a card in
hand that allows it). Legality comes from the rules engine (`companion.rules.reachable`); the
reason and the "N squares" figure come from a breadth-first search of the shortest orthogonal
path, so a player reads "7 squares but rolled 5" rather than just "illegal".
"""
from __future__ import annotations

from collections import deque
from collections.abc import Collection
from dataclasses import dataclass, field

from boards import Board, square_label
from companion.rules import Piece, crosses_obstacles, reachable, why_cannot_move

Pos = tuple[int, int]

_REASONS = {
    "off_grid": ("{to} is not on the board", "{to} n'est pas sur le plateau", "MT 2.01"),
    "not_on_grid": ("the piece is not on the grid (MT 5.01.b)", "la pièce n'est pas sur la grille (MT 5.01.b)",
                    "MT 5.01.b"),
    "tapped": ("tapped creatures do not move (MT 3.02)", "une créature engagée ne se déplace pas (MT 3.02)",
               "MT 3.02"),
    "sick": ("summoning-sick creatures do not move (MT 3.02)",
             "une créature avec le mal d'invocation ne se déplace pas (MT 3.02)", "MT 3.02"),
    "defender": ("a defender moves only with its {{T}} ability (MT 3.08)",
                 "un défenseur ne se déplace qu'avec sa capacité {{T}} (MT 3.08)", "MT 3.08"),
    "obstacle": ("ends on an obstacle (MT 2.03.b)", "finit sur un obstacle (MT 2.03.b)", "MT 2.03.b"),
    "occupied": ("ends on an occupied square (MT 3.06)", "finit sur une case occupée (MT 3.06)", "MT 3.06"),
    "walled": ("no orthogonal path around the obstacles (MT 2.03.b, 3.07)",
               "aucun chemin orthogonal autour des obstacles (MT 2.03.b, 3.07)", "MT 3.07"),
    "too_far": ("{steps} squares but rolled {allowance} (MT 3.04.b)",
                "{steps} cases mais le jet est de {allowance} (MT 3.04.b)", "MT 3.04.b"),
    "too_far_diagonal": ("{steps} squares (orthogonal steps only, MT 3.07) but rolled {allowance}",
                         "{steps} cases (pas orthogonaux seulement, MT 3.07) mais le jet est de {allowance}",
                         "MT 3.07"),
    "engine": ("not a square the rules allow", "case non permise par les règles", "MT 3.04"),
}
_LEGAL = ("{steps} squares, rolled {allowance}: legal", "{steps} cases, jet de {allowance} : permis")
_STILL = ("did not move", "n'a pas bougé")


@dataclass(frozen=True)
class MoveCheck:
    """Verdict on one detected move. `steps` is the shortest orthogonal path (None if there is none)."""

    legal: bool
    frm: Pos | None
    to: Pos
    allowance: int
    steps: int | None
    reason: str | None = None              # key of the reason when illegal
    rule: str | None = None                # rule number the reason cites
    details: dict = field(default_factory=dict)

    def text(self, lang: str = "en") -> str:
        """The verdict as people read it, French ('fr') or English ('en')."""
        index = 1 if lang == "fr" else 0
        values = {"steps": self.steps, "allowance": self.allowance, "to": square_label(self.to)
                  if self.to[0] >= 0 and self.to[1] >= 0 else str(self.to)}
        if self.legal:
            return (_STILL if self.steps == 0 else _LEGAL)[index].format(**values)
        return _REASONS[self.reason][index].format(**values)


def shortest_path_length(board: Board, start: Pos, goal: Pos, *, flying: bool = False) -> int | None:
    """Fewest orthogonal steps from start to goal (MT 3.07), through occupied squares (MT 3.06.b)
    but not through obstacles unless flying (MT 2.03.b, 6.03); None if no path. The goal itself
    may be an obstacle: whether one may END there is a separate question."""
    if start == goal:
        return 0
    seen = {start}
    queue = deque([(start, 0)])
    while queue:
        (x, y), dist = queue.popleft()
        for nxt in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if nxt in seen or not board.in_bounds(nxt):
                continue
            if nxt == goal:
                return dist + 1
            if flying or board.walkable(nxt):
                seen.add(nxt)
                queue.append((nxt, dist + 1))
    return None


def _cannot_move_reason(board: Board, piece: Piece) -> str | None:
    """Reason key when the piece may not move at all, from the rules engine's verdict (MT 3.02, 3.08)."""
    if why_cannot_move(board, piece) is None:
        return None
    if piece.at is None:
        return "not_on_grid"
    if piece.tapped:
        return "tapped"
    if "defender" in piece.keywords:
        return "defender"
    return "sick"


def check_move(board: Board, piece: Piece, to: Pos, allowance: int, *,
               occupied: Collection[Pos] = frozenset()) -> MoveCheck:
    """Whether `piece` (at piece.at) may end its movement-phase move on `to` with `allowance` squares
    from the last roll, and why not (MT 3.02, 3.04.b, 3.06, 3.07, 2.03.b, 6.03).

    `occupied`: squares of the other pieces (the moving piece's own square is ignored).
    Staying put is always legal (MT 3.04.b).
    """
    frm = piece.at
    if frm is None:
        return MoveCheck(False, None, to, allowance, None, "not_on_grid", "MT 5.01.b")
    if frm == to:
        return MoveCheck(True, frm, to, allowance, 0)
    if not board.in_bounds(to):
        return MoveCheck(False, frm, to, allowance, None, "off_grid", _REASONS["off_grid"][2])
    flying = crosses_obstacles(piece)
    steps = shortest_path_length(board, frm, to, flying=flying)

    def illegal(reason: str) -> MoveCheck:
        return MoveCheck(False, frm, to, allowance, steps, reason, _REASONS[reason][2])

    blocked = _cannot_move_reason(board, piece)
    if blocked:
        return illegal(blocked)
    others = frozenset(occupied) - {frm}
    if not flying and not board.walkable(to):
        return illegal("obstacle")
    if to in others:
        return illegal("occupied")
    if steps is None:
        return illegal("walled")
    if steps > allowance:
        diagonal = abs(to[0] - frm[0]) > 0 and abs(to[1] - frm[1]) > 0 and max(
            abs(to[0] - frm[0]), abs(to[1] - frm[1])) <= allowance
        return illegal("too_far_diagonal" if diagonal else "too_far")
    if to not in reachable(board, frm, allowance, occupied=others, flying=flying):
        return illegal("engine")
    return MoveCheck(True, frm, to, allowance, steps)
