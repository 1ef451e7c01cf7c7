"""War Game morale: the triggers, the d8 check, fleeing.

Follows seed ``002_5306f142c0f73876.txt`` (RULES.md 1.8 morale).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from sim.dice import Dist, outcome
from sim.rules.common import Status
from sim.rules.wargame.base import HD_SIDES, QUIET_ROUNDS, _d
from sim.rules.wargame.combatant import Combatant
from sim.rules.wargame.options import DEFAULT_OPTIONS, Options


@dataclass(frozen=True, slots=True)
class Morale:
    """A morale check: the d8 rolled and the indices of the creatures that start to flee."""

    roll: int
    fleeing: tuple[int, ...]

    def describe(self) -> str:
        """A log line."""
        return f"morale d8 = {self.roll}: {len(self.fleeing)} flee"


MORALE_TRIGGERS = ("half_out", "goal_failed", "leader_out", "quiet_rounds")


def morale_triggers(
    *,
    fighters: int,
    out: int,
    goal_failed: bool = False,
    leader_out: bool = False,
    quiet_rounds: int = 0,
    fired: frozenset[str] = frozenset(),
    options: Options = DEFAULT_OPTIONS,
) -> tuple[str, ...]:
    """The morale triggers a side meets now (names from :data:`MORALE_TRIGGERS`).

    Half its ``fighters`` ``out`` (at least half [I]), a failed goal, its leader out, or every
    second consecutive quiet round. With ``morale_triggers_once``, triggers in ``fired`` do not
    fire again (quiet rounds excepted).
    """
    met = {
        "half_out": fighters > 0 and 2 * out >= fighters,
        "goal_failed": goal_failed,
        "leader_out": leader_out,
        "quiet_rounds": quiet_rounds > 0 and quiet_rounds % QUIET_ROUNDS == 0,
    }
    return tuple(
        name
        for name in MORALE_TRIGGERS
        if met[name]
        and (name == "quiet_rounds" or not options.morale_triggers_once or name not in fired)
    )


def morale_value(c: Combatant, options: Options = DEFAULT_OPTIONS) -> int:
    """What a morale roll is compared to: current HD, or ``resolve`` if ``morale_compare=fixed``."""
    return c.hit_dice if options.morale_compare == "hd" else c.resolve


def flee_chance(value: int) -> Fraction:
    """Exact chance one morale d8 is at least ``value`` (the creature flees)."""
    return Fraction(min(HD_SIDES, max(0, HD_SIDES + 1 - value)), HD_SIDES)


def roll_morale(values: Sequence[int], rng: np.random.Generator) -> Morale:
    """Roll 1 HD (d8): every creature whose value is the roll or less starts to flee."""
    if type(rng) is not np.random.Generator:  # an enumerating die: a branch per who flees
        return outcome(rng, _morale, tuple(values), key=_fleeing)  # type: ignore[no-any-return]
    roll = _d(rng, HD_SIDES)  # _morale's lines, inline (a real die's path, as before)
    return Morale(roll, tuple(i for i, v in enumerate(values) if v <= roll))


def _morale(rng: np.random.Generator, values: Sequence[int]) -> Morale:
    roll = _d(rng, HD_SIDES)
    return Morale(roll, tuple(i for i, v in enumerate(values) if v <= roll))


def _fleeing(m: Morale) -> tuple[int, ...]:
    return m.fleeing  # the roll itself is only shown in the log


def morale_dist(values: Sequence[int]) -> Dist:
    """Exact distribution of :func:`roll_morale`'s tuple of fleeing indices."""
    vals = tuple(values)
    return Dist.die(HD_SIDES).map(lambda r: tuple(i for i, v in enumerate(vals) if v <= r))


def morale_check(
    side: Sequence[Combatant], rng: np.random.Generator, options: Options = DEFAULT_OPTIONS
) -> tuple[tuple[Combatant, ...], Morale]:
    """Check a side's morale: its active creatures at or below the roll start to flee."""
    morale = roll_morale([morale_value(c, options) for c in side], rng)
    fleeing = tuple(i for i in morale.fleeing if side[i].status == Status.ACTIVE)
    new = tuple(start_fleeing(c) if i in fleeing else c for i, c in enumerate(side))
    return new, Morale(morale.roll, fleeing)


def start_fleeing(c: Combatant) -> Combatant:
    """``c`` fleeing: it spends HD only to run, unless damaged while fleeing."""
    return c.evolve(status=Status.FLEEING, fleeing_turns=0, damaged_while_fleeing=False)
