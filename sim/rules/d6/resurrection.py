"""D6 tiers resurrection: who can bring the dead back, and the after-effects.

Follows seed ``003_fd1c4a13f28810ec.txt`` ("Healing and First Aid"; RULES.md 4 resurrection).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from sim.dice import D6Code
from sim.errors import SimError
from sim.rules.d6.conditions import _LADDER, UNHURT, Condition
from sim.rules.d6.options import (
    RESURRECTION_BODY_PIPS,
    RESURRECTION_HOURS,
    RESURRECTION_OTHER_DICE,
    RESURRECTION_RELIGION,
    RESURRECTION_TIME_HOURS,
)


def can_resurrect(religion: D6Code, priest_spell: bool = False) -> bool:
    """A priest's resurrection spell, or a religion skill of 4D for the ritual [S]."""
    return priest_spell or religion.total_pips >= RESURRECTION_RELIGION.total_pips


@dataclass(frozen=True, slots=True)
class ResurrectionEffects:
    """After-effects of resurrection: pips off body rolls, pips off all else, for how long."""

    body_penalty_pips: int
    other_penalty_pips: int
    hours: Fraction


def resurrection_effects() -> ResurrectionEffects:
    """-2 to body rolls and -1D to all other rolls for half a day [S].

    The seed's Wando Pea flowers, which halve them, are not modelled: nothing rolls in that
    half day (docs/rules.md 8.2).
    """
    return ResurrectionEffects(
        RESURRECTION_BODY_PIPS, 3 * RESURRECTION_OTHER_DICE, RESURRECTION_HOURS
    )


RAISED_AS = ("unhurt", "wounded_twice")
"""How a resurrected character comes back (``raised_as``)."""


def raised_condition(raised_as: str = "unhurt") -> Condition:
    """The condition of a character brought back from the dead [I] (``raised_as``).

    The seed gives only the half day's penalties: ``unhurt`` reads them as the only
    after-effect; ``wounded_twice`` brings it back as one who wakes from Incapacitated.
    """
    if raised_as not in RAISED_AS:
        raise SimError(f"raised_as must be one of {', '.join(RAISED_AS)}, got {raised_as!r}")
    return UNHURT if raised_as == "unhurt" else _LADDER[3]


def resurrections_per_day(hours: int) -> int:
    """Resurrections one priest or ritualist performs in ``hours`` of work: one an hour [S]."""
    if hours < 0:
        raise SimError(f"hours must be 0 or more, got {hours}")
    return hours // RESURRECTION_TIME_HOURS
