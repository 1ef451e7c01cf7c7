"""D6 tiers incapacitated and mortally wounded: knockout minutes, the 2D death check.

Follows seed ``003_fd1c4a13f28810ec.txt`` (the damage table's Incapacitated and Mortally Wounded
rows; RULES.md 4).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from sim.dice import Dist
from sim.rules.d6.options import KNOCKOUT_DICE, MORTAL_CHECK_DICE
from sim.rules.d6.tiers import _code_dist


def roll_knockout_minutes(rng: np.random.Generator) -> int:
    """Minutes an incapacitated character takes no actions: 10D [S]."""
    return KNOCKOUT_DICE.roll(rng)


def knockout_minutes_dist() -> Dist:
    """Exact distribution of :func:`roll_knockout_minutes`."""
    return _code_dist(KNOCKOUT_DICE)


def roll_mortal_check(rounds_affected: int, rng: np.random.Generator) -> bool:
    """A mortally wounded character's roll in its ``rounds_affected``-th round (1 = first).

    Roll 2D; dead (True) when the roll is less than the rounds so far [S].
    """
    return MORTAL_CHECK_DICE.roll(rng) < rounds_affected


def mortal_check_dist(rounds_affected: int) -> Dist:
    """Exact distribution of :func:`roll_mortal_check` (True = dead)."""
    return _code_dist(MORTAL_CHECK_DICE).map(lambda r: r < rounds_affected)


def roll_death_round(rng: np.random.Generator) -> int:
    """Round (1 = first after the wound) in which an untreated mortally wounded dies."""
    rounds = 1
    while not roll_mortal_check(rounds, rng):
        rounds += 1
    return rounds


def death_round_dist() -> Dist:
    """Exact distribution of :func:`roll_death_round`; certain death by round 13."""
    out: dict[int, Fraction] = {}
    alive = Fraction(1)
    rounds = 1
    while alive:
        p = mortal_check_dist(rounds)[True]
        out[rounds] = alive * p
        alive *= 1 - p
        rounds += 1
    return Dist(out)
