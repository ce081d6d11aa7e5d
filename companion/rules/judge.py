"""Is one move legal? The one answer the engine, the camera and the app share (MT 3.02–3.07, 6.03–6.10).

`judge_move` takes everything that decides a movement-phase move — the house rules, the colour
bonus chosen at upkeep (MT 2.02.c), the squares the piece has left this turn — and returns a
`MoveVerdict`: legal or not, the length of the shortest orthogonal path, and the reason as an
i18n key with its fields and rule, so a player reads "7 squares, 5 left: too far (MT 3.04.a)"
rather than just "illegal". It agrees square by square with `legal_moves` (a test checks it).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Collection

from boards.model import XY, Board, square_label
from companion.rules.bonuses import NO_UNCERTAINTY, Uncertain, counted_colours
from companion.rules.house import HouseRules
from companion.rules.movement import check_allowance, path_length
from companion.rules.moves import crosses_obstacles, end_doubling_colours, movement_blocker
from companion.rules.pieces import Piece
from companion.rules.wording import Message


@dataclass(frozen=True)
class MoveVerdict:
    """The verdict on one move: `legal`; `steps`, the shortest orthogonal path (None when there is
    none); `key`, `fields` and `rule` of the reason (of the legal move's summary when legal)."""

    legal: bool
    frm: XY | None
    to: XY
    steps: int | None
    left: int
    key: str
    fields: dict[str, Any] = field(default_factory=dict)
    rule: str | None = None

    @property
    def message(self) -> Message:
        return Message(self.key, self.fields, self.rule)

    def text(self, lang: str = "en") -> str:
        """The verdict as people read it, in French ("fr") or English ("en")."""
        return self.message.text(lang)


def _label(at: XY) -> str:
    return square_label(at) if at[0] >= 0 and at[1] >= 0 else str(tuple(at))


def judge_move(board: Board, piece: Piece, to: XY, *, left: int, house: HouseRules, chosen_bonus: str | None = None,
               occupied: Collection[XY] = frozenset(), start: XY | None = None,
               uncertain: Uncertain = NO_UNCERTAINTY) -> MoveVerdict:
    """Whether `piece` (standing on `piece.at`) may end a movement-phase move on `to` with `left`
    squares left this turn, and why not.

    MT 3.02/3.08.a/5.05: tapped, summoning-sick (unless haste, from the card or from a red square,
    the bonus chosen on a multicoloured square included, and house.haste_moves_when_sick) and
    defender creatures do not move; `start`, where its movement began this turn (its square by
    default), is where that is judged. MT 2.03.b/6.03/6.10: never ends on an obstacle unless it flies
    or has distortion. MT 3.06: may pass occupied squares, never end on one (`occupied`: the other
    pieces' squares; its own is ignored). MT 3.07: orthogonal steps only. MT 3.04.a–b: at most `left`
    squares (MT 6.09 under landwalk_reading="start_or_end_square": twice that when it ends on its
    land's colour). Staying put is always legal.
    """
    check_allowance(left)
    frm = piece.at
    to = (to[0], to[1])  # a list [x, y] from a journal or a test is a square all the same

    def verdict(legal: bool, key: str, rule: str | None = None, steps: int | None = None,
                **fields: Any) -> MoveVerdict:
        return MoveVerdict(legal, frm, to, steps, left, key,
                           {"to": _label(to), "steps": steps, "left": left, **fields}, rule)

    if frm is None:
        return verdict(False, "game.move.not_on_grid", "MT 5.01.b")
    if to == frm:
        return verdict(True, "game.move.still", steps=0)
    if not board.in_bounds(to):
        return verdict(False, "game.move.off_board", "MT 2.01", width=board.width, height=board.height)
    flying = crosses_obstacles(piece)
    steps = path_length(board, frm, to, flying=flying)
    begun = piece if start is None else piece.moved(start)
    blocked = movement_blocker(board, begun, chosen_bonus=chosen_bonus, uncertain=uncertain, house=house)
    if blocked is not None:
        return verdict(False, blocked.key, blocked.rule, steps)
    if not flying and not board.walkable(to):
        return verdict(False, "game.move.obstacle", "MT 2.03.b", steps)
    if to in occupied:
        return verdict(False, "game.move.occupied", "MT 3.06.a", steps)
    if steps is None:
        return verdict(False, "game.move.walled", "MT 3.07")
    reach = left
    colours = end_doubling_colours(board, piece, start, uncertain=uncertain, house=house) if left else frozenset()
    if colours & counted_colours(board, to, uncertain, house):
        reach = 2 * left  # MT 6.09, house reading: ending on its land's colour doubles
    if steps > reach:
        dx, dy = abs(to[0] - frm[0]), abs(to[1] - frm[1])
        if dx and dy and max(dx, dy) <= reach:  # a king's move would do: say that diagonals do not count
            return verdict(False, "game.move.diagonal", "MT 3.07", steps)
        return verdict(False, "game.move.too_far", "MT 3.04.a", steps)
    return verdict(True, "game.move.legal", steps=steps)
