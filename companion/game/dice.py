"""Dice of the table: movement D10/D12 (MT 1.04), the D6, the planar die (PC).

Play uses the operating system's entropy (`random.SystemRandom`); tests and
replays inject a seeded `random.Random`. A roll's result is recorded in the
action that uses it, so replaying a game never rolls again.
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

Item = TypeVar("Item")

MOVEMENT_DICE = ("D10", "D12")  # MT 1.04
PLANAR_FACES = ("planeswalk", "chaos", "blank", "blank", "blank", "blank")  # PC: 1 + 1 + 4 blank


def die_sides(die: str) -> int:
    """'D12' -> 12; raise ValueError for anything that is not a die name."""
    if not (isinstance(die, str) and die[:1] in "Dd" and die[1:].isdigit() and int(die[1:]) >= 2):
        raise ValueError(f"{die!r} is not a die: expected D6, D10, D12 ...")
    return int(die[1:])


@dataclass
class Dice:
    """A source of die rolls; `rng` is any object with `randrange` (SystemRandom in play)."""

    rng: random.Random | random.SystemRandom

    @classmethod
    def system(cls) -> "Dice":
        return cls(random.SystemRandom())

    @classmethod
    def seeded(cls, seed: int) -> "Dice":
        """Reproducible dice for tests and demos only."""
        return cls(random.Random(seed))

    def roll(self, die: str, count: int = 1) -> list[int]:
        """`count` rolls of `die`, each in 1..sides."""
        sides = die_sides(die)
        return [self.rng.randrange(sides) + 1 for _ in range(count)]

    def planar(self) -> str:
        """One planar die roll (PC): 'planeswalk' 1/6, 'chaos' 1/6, 'blank' 4/6."""
        return PLANAR_FACES[self.rng.randrange(len(PLANAR_FACES))]

    def shuffled(self, items: Sequence[Item]) -> list[Item]:
        """A new list with `items` in uniformly random order."""
        order = list(items)
        self.rng.shuffle(order)
        return order

    def choice(self, options: Sequence[Item]) -> Item:
        """One option picked uniformly (the Horde's random choices, HO 201.5)."""
        if not options:
            raise ValueError("nothing to choose from")
        return options[self.rng.randrange(len(options))]
