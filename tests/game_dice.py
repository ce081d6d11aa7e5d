"""Dice and clocks for game tests: the results a test lists, shuffles that keep the order it wrote, and
the same times in every run."""
import random
from datetime import datetime, timedelta, timezone


class ScriptedDice(random.Random):
    """Die rolls come from `rolls` in order (then 1s); shuffles keep the order, so decks stay as written."""

    def __init__(self, rolls=()):
        super().__init__(0)
        self.rolls = list(rolls)

    def randrange(self, n):
        return self.rolls.pop(0) - 1 if self.rolls else 0

    def shuffle(self, items):
        pass


def with_corner_starts(rows: list[str]) -> list[str]:
    """Board rows with the four corner squares made start squares (MT 2.04.a: every player starts on one)."""
    rows = [row.split() for row in rows]
    for y, x in ((0, 0), (0, -1), (-1, 0), (-1, -1)):
        if "@" not in rows[y][x]:
            rows[y][x] += "@"
    return [" ".join(row) for row in rows]


class SteadyClock:
    """A game's clock that ticks `step_s` seconds per reading from `start`: two runs of one scenario (a
    reference and a faulted one) write the same entries, and histories read the same every run."""

    def __init__(self, start: datetime = datetime(2026, 5, 1, 20, 0, tzinfo=timezone.utc), step_s: float = 7):
        self.now, self.step = start, timedelta(seconds=step_s)

    def __call__(self) -> datetime:
        self.now += self.step
        return self.now
