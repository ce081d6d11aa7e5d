"""Setting a game up: where the players' pawns start, and what the table should know before playing.

Pure functions of the board and the seats, used by the reducer's `start` action and by the
new-game screen (which shows the warnings before the game is created).
"""
from __future__ import annotations

import math

from boards import XY, Board
from boards.fairness import MIN_HEIGHT, MIN_WIDTH
from companion.rules.wording import Message


def seat_starts(board: Board, players: int) -> list[XY | None]:
    """The start square of each seat, in turn order (MT 2.04.a); None for seats the board has no
    start square for (the table places those pawns).

    Seats go round the table in turn order (PC: the next turn is the player on your left), so the
    start squares are taken round the board in the same direction, clockwise seen from above,
    beginning at the left: two players get two start squares facing each other, four players the
    four in order round the board. With more start squares than players they are taken evenly
    round the circle (2 of 4: opposite ones).
    """
    starts = board.starts
    if not starts or players <= 0:
        return [None] * max(players, 0)
    cx, cy = (board.width - 1) / 2, (board.height - 1) / 2

    def round_the_board(at: XY) -> tuple[float, float]:
        # atan2 with rows growing downwards: increasing angle = clockwise on the printed board,
        # from −π (the left edge) round by the top, the right and the bottom
        angle = math.atan2(at[1] - cy, at[0] - cx)
        if angle >= math.pi - 1e-9:  # the left edge counts as the beginning, not the end
            angle -= 2 * math.pi
        return angle, math.hypot(at[0] - cx, at[1] - cy)

    ordered = sorted(starts, key=round_the_board)
    if len(ordered) >= players:
        return [ordered[(seat * len(ordered)) // players] for seat in range(players)]
    return [*ordered, *([None] * (players - len(ordered)))]


def board_warnings(board: Board, names: list[str]) -> list[Message]:
    """What the table should know about this board for these players (accepted, not refused):
    a grid smaller than 20×12 (MT 2.01), fewer start squares than players (MT 2.04.a)."""
    warnings = []
    if board.width < MIN_WIDTH or board.height < MIN_HEIGHT:
        warnings.append(Message("game.warning.small_board", {"width": board.width, "height": board.height,
                                                              "min_width": MIN_WIDTH, "min_height": MIN_HEIGHT},
                                "MT 2.01"))
    seats = seat_starts(board, len(names))
    unplaced = [name for name, at in zip(names, seats) if at is None]
    if unplaced:
        warnings.append(Message("game.warning.few_starts", {"starts": len(board.starts), "players": len(names),
                                                             "names": unplaced}, "MT 2.04.a"))
    return warnings
