"""War Game ground: the seed's numbers, argument checks, draws and the exact oracle.

Follows seed ``002_5306f142c0f73876.txt`` (RULES.md 1.1-1.12: the figures the rules name once,
such as a d8 per HD, 2 HD a maneuver, 7+ to kill a leader). :func:`_exact` enumerates every
sequence of faces a rule asks for; it is what the ``*_dist`` functions of attacks use.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from sim.dice import Dist, die, parse_dice
from sim.errors import SimError, unknown

# The seed's own numbers (RULES.md 1.1-1.12), named once.
HD_SIDES = 8  # "When an HD must be rolled, it is rolled with a d8."
MANEUVER_COST = 2  # "Performing any maneuver costs 2 HD, or 1 if only a single HD is left."
DODGE_COST = 1  # spend 1 HD to dodge
HEAL_HD = 1  # one use of healing tools: 1 HD back [H]
SURVIVE_COST = 1  # "it can expend 1 HD to survive whatever wound it's taking"
RECOVER_COST = 1  # spend 1 HD at the start of a turn to recover armor
RESIST_COST = 1  # a contested target must spend 1 HD
ACT_NOW_COST = 1  # spend 1 HD to act out of turn
WOUND_HD = 1  # a wound costs 1 HD
MIGHTY_HD = 1  # a mighty attack removes 1 HD
HAZARD_HD = 1  # a hazard removes 1 HD
BURNING_HD = 1  # burning removes 1 HD at the start of every round
BROKEN_BONES_NEEDS = 8  # broken bones: the maneuver succeeds only on a d8 of 8
LEADER_KILLING_TARGET = 7  # leader killing succeeds on 7 or more
LEADER_OUT_KEEPS = 1  # a faction whose leader is out loses all but 1 HD
BACK_IN_ROUNDS = 2  # "go last for the next 2 rounds"
QUIET_ROUNDS = 2  # two rounds without damage is a morale trigger
MAX_DICE = 100  # most damage dice the exact functions accept

FACTOR_KINDS = ("cover", "distraction", "hazard")
DEFENCES = ("armor", "dodge", "block")
MANEUVERS = ("attack", "move", "contest", "factor", "leader_killing", "extinguish", "other")


def _d(rng: np.random.Generator, sides: int) -> int:
    return die(rng, sides)  # int(rng.integers(1, sides + 1)), faster


Draw = Callable[[int], int]


class _Branch(Exception):
    def __init__(self, sides: int) -> None:
        self.sides = sides


class _Script:
    """A draw that replays fixed faces, then asks for a branch on the next die."""

    def __init__(self, prefix: tuple[int, ...]) -> None:
        self.prefix = prefix
        self.asked: list[int] = []

    def __call__(self, sides: int) -> int:
        i = len(self.asked)
        self.asked.append(sides)
        if i < len(self.prefix):
            return self.prefix[i]
        raise _Branch(sides)


def _exact(fn: Callable[[Draw], Any]) -> Dist:
    """Exact distribution of ``fn(draw)`` by enumerating every sequence of faces it asks for.

    A private generic oracle (it could live in ``sim.dice``): ``fn`` must ask a finite,
    small number of dice.
    """
    out: dict[Any, Fraction] = {}
    pending: list[tuple[int, ...]] = [()]
    while pending:
        prefix = pending.pop()
        script = _Script(prefix)
        try:
            value = fn(script)
        except _Branch as branch:
            pending.extend(prefix + (f,) for f in range(1, branch.sides + 1))
            continue
        p = Fraction(1)
        for sides in script.asked:
            p /= sides
        out[value] = out.get(value, Fraction(0)) + p
    return Dist(out)


def _roll_amount(amount: str, draw: Draw) -> int:
    text = amount.strip()
    if text.isdigit():
        return int(text)
    dice = parse_dice(text)
    return sum(draw(dice.sides) for _ in range(dice.count)) + dice.modifier


def _check_dice(dice: int) -> None:
    if isinstance(dice, bool) or not isinstance(dice, int) or not 1 <= dice <= MAX_DICE:
        raise SimError(f"damage dice must be a whole number 1..{MAX_DICE}, got {dice!r}")


def _check_pool(armor_pool: int) -> None:
    if isinstance(armor_pool, bool) or not isinstance(armor_pool, int) or armor_pool < 0:
        raise SimError(f"armor pool must be a whole number 0 or more, got {armor_pool!r}")


def _check_choice(what: str, value: str, choices: Sequence[str]) -> None:
    if value not in choices:
        raise unknown(what, str(value), choices)
