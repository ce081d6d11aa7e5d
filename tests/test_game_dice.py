"""Dice: fairness of every die (chi-square at p = 1e-6), injectable and seedable randomness (MT 1.04, PC)."""
import math
import random
from collections import Counter

import pytest

from companion.game import PLANAR_FACES, Dice

ROLLS_PER_FACE = 800
P_VALUE = 1e-6


def chi_square_survival(x: float, df: int) -> float:
    """P(X ≥ x) for a chi-square with df degrees of freedom (regularised gamma series, independent of the code)."""
    a, half = df / 2, x / 2
    term = total = 1 / a
    n = 0
    while term > 1e-15 * total:
        n += 1
        term *= half / (a + n)
        total += term
    lower = math.exp(a * math.log(half) - half - math.lgamma(a)) * total
    return 1 - lower


def critical_value(df: int, p: float = P_VALUE) -> float:
    lo, hi = 0.0, 1000.0
    for _ in range(100):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if chi_square_survival(mid, df) > p else (lo, mid)
    return hi


def chi_square(counts: Counter, faces: list) -> float:
    n = sum(counts.values())
    expected = {f: n * faces.count(f) / len(faces) for f in set(faces)}
    return sum((counts[f] - e) ** 2 / e for f, e in expected.items())


def test_critical_value_matches_published_tables():
    """The helper itself: the 5 % critical value for 11 degrees of freedom is 19.675 (standard table)."""
    assert critical_value(11, 0.05) == pytest.approx(19.675, abs=0.01)
    assert critical_value(1, 0.05) == pytest.approx(3.841, abs=0.01)


class BiasedRng(random.Random):
    """A broken die: 6 % of the rolls come up 0 (the lowest face)."""

    def randrange(self, n):
        return 0 if self.random() < 0.06 else super().randrange(n)


@pytest.mark.parametrize("die", ["D6", "D10", "D12"])
def test_movement_and_d6_dice_are_uniform_MT_1_04(die):
    """MT 1.04: D10/D12 movement dice (and the D6) are fair: chi-square below the p = 1e-6 critical value."""
    sides = int(die[1:])
    counts = Counter(Dice.system().roll(die, sides * ROLLS_PER_FACE))
    assert set(counts) == set(range(1, sides + 1))
    assert chi_square(counts, list(range(1, sides + 1))) < critical_value(sides - 1)


@pytest.mark.parametrize("die", ["D6", "D10", "D12"])
def test_a_biased_die_fails_the_same_uniformity_check(die):
    """The check above can fail: a die biased by 6 % towards one face is rejected."""
    sides = int(die[1:])
    counts = Counter(Dice(BiasedRng(7)).roll(die, sides * ROLLS_PER_FACE))
    assert chi_square(counts, list(range(1, sides + 1))) > critical_value(sides - 1)


def test_planar_die_has_one_planeswalk_one_chaos_four_blank_faces_PC():
    """PC: the planar die is 1 planeswalk, 1 chaos, 4 blank, each face equally likely."""
    assert sorted(PLANAR_FACES) == sorted(["planeswalk", "chaos"] + ["blank"] * 4)
    counts = Counter(Dice.system().planar() for _ in range(6 * ROLLS_PER_FACE))
    assert chi_square(counts, list(PLANAR_FACES)) < critical_value(2)
    biased = Counter(Dice(BiasedRng(3)).planar() for _ in range(6 * ROLLS_PER_FACE))
    assert chi_square(biased, list(PLANAR_FACES)) > critical_value(2)


def test_play_uses_os_entropy_and_tests_can_seed():
    """Play draws from random.SystemRandom; a seeded Dice repeats exactly (replays, tests)."""
    assert isinstance(Dice.system().rng, random.SystemRandom)
    assert Dice.seeded(42).roll("D12", 20) == Dice.seeded(42).roll("D12", 20)
    assert Dice.seeded(42).roll("D12", 20) != Dice.seeded(43).roll("D12", 20)


def test_bad_die_names_are_refused_clearly():
    with pytest.raises(ValueError, match="not a die"):
        Dice.seeded(1).roll("X7")
