"""Dice for game tests: the results a test lists, and shuffles that keep the order it wrote."""
import random


class ScriptedDice(random.Random):
    """Die rolls come from `rolls` in order (then 1s); shuffles keep the order, so decks stay as written."""

    def __init__(self, rolls=()):
        super().__init__(0)
        self.rolls = list(rolls)

    def randrange(self, n):
        return self.rolls.pop(0) - 1 if self.rolls else 0

    def shuffle(self, items):
        pass
