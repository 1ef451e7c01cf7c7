"""D6 tiers aftermath: its options and days of rest with time-healing rolls.

Follows seed ``003_fd1c4a13f28810ec.txt`` ("Healing and First Aid": every three days of rest;
RULES.md 4 healing).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.dice import D6Code, Dist
from sim.errors import SimError
from sim.rules.common import option
from sim.rules.d6.conditions import Condition
from sim.rules.d6.healing import roll_time_heal, time_heal_dist
from sim.rules.d6.options import DEFAULT_OPTIONS, Options

TIME_HEAL_DAYS = 3
"""Time heals after every three days of rest [S]."""


@dataclass(frozen=True, slots=True)
class AftermathOptions:
    """D6 tiers aftermath interpretations [I] and house rules [H] (RULES.md 4 "Healing").

    A group of its own, apart from :class:`Options`, so the battle's options are unchanged.
    """

    wake: str = option(
        "all",
        "who wakes on the battle's day as Wounded twice: every Incapacitated patient (all: "
        "the 10D minutes pass) or only one lifted from Mortally wounded by first aid "
        "(stabilized; others stay Incapacitated until time heals them)",
        tag="I",
        choices=("all", "stabilized"),
    )
    untreated_mortal: str = option(
        "dies",
        "a Mortally wounded patient whom first aid does not stabilize on the battle's day "
        "dies (dies: the 2D check makes death certain by round 13) or lingers (lingers)",
        tag="H",
        choices=("dies", "lingers"),
    )
    bonus_lasts: str = option(
        "next_roll",
        "a first-aid bonus counts on the next time-healing roll only (next_roll) or on every "
        "one until the patient is healed (until_healed)",
        tag="I",
        choices=("next_roll", "until_healed"),
    )
    poison_fails: str = option(
        "worsen",
        "a poisoned patient who fails its Resist Disease or Poison roll gets one spot worse on "
        "the damage table, like an infection (worsen), or takes the margin by which the poison "
        "won as a blow on the damage table (by_margin)",
        tag="H",
        choices=("worsen", "by_margin"),
    )
    first_aid_bonus: str = option(
        "both",
        "a successful first aid gives its bonus to the time-healing roll and +1D (2D) to a "
        "poisoned patient's Resist roll (both), or only to the Resist roll of a poisoned "
        "patient, the seed's 'or' (either)",
        tag="I",
        choices=("both", "either"),
    )
    raised_as: str = option(
        "unhurt",
        "a resurrected patient comes back unhurt, its only after-effect the half day of "
        "penalties (unhurt), or Wounded twice, as one who wakes from Incapacitated "
        "(wounded_twice)",
        tag="I",
        choices=("unhurt", "wounded_twice"),
    )


DEFAULT_AFTERMATH_OPTIONS = AftermathOptions()


def time_heal_due(days_rested: int) -> bool:
    """Whether a time-healing roll falls due after ``days_rested`` days of rest (3, 6, ...) [S]."""
    if days_rested < 0:
        raise SimError(f"days of rest must be 0 or more, got {days_rested}")
    return days_rested > 0 and days_rested % TIME_HEAL_DAYS == 0


def rest_day(
    condition: Condition,
    days_rested: int,
    strength: D6Code,
    rng: np.random.Generator,
    bonus: int = 0,
    options: Options = DEFAULT_OPTIONS,
) -> Condition:
    """The condition after the ``days_rested``-th day of rest: a time-healing roll if due [S].

    Draws only when a roll is due and the condition calls for one (:func:`roll_time_heal`).
    """
    if not time_heal_due(days_rested):
        return condition
    return roll_time_heal(condition, strength, rng, bonus, options)


def rest_day_dist(
    condition: Condition,
    days_rested: int,
    strength: D6Code,
    bonus: int = 0,
    options: Options = DEFAULT_OPTIONS,
) -> Dist:
    """Exact distribution of :func:`rest_day`."""
    if not time_heal_due(days_rested):
        return Dist.constant(condition)
    return time_heal_dist(condition, strength, bonus, options)


def rest_days_dist(
    condition: Condition,
    days: int,
    strength: D6Code,
    bonus: int = 0,
    options: Options = DEFAULT_OPTIONS,
    aftermath: AftermathOptions = DEFAULT_AFTERMATH_OPTIONS,
) -> Dist:
    """Exact distribution of the condition after ``days`` days of rest (rolls on 3, 6, ...).

    ``bonus`` (a first-aid success) counts on the first roll, or on every roll with
    ``bonus_lasts`` ``until_healed``.
    """
    dist = Dist.constant(condition)
    rolls = 0
    for day in range(1, days + 1):
        if not time_heal_due(day):
            continue
        b = bonus if rolls == 0 or aftermath.bonus_lasts == "until_healed" else 0

        def roll(c: Condition, b: int = b) -> Dist:
            return time_heal_dist(c, strength, b, options)

        dist = dist.bind(roll)
        rolls += 1
    return dist
