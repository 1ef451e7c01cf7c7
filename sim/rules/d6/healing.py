"""D6 tiers healing: time, heal dice (potions, spells), first aid, waking.

Follows seed ``003_fd1c4a13f28810ec.txt`` ("Healing and First Aid"; RULES.md 4 healing;
``d6_first_aid.csv``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from sim.dice import D6Code, Dist
from sim.errors import SimError
from sim.rules.common import Table
from sim.rules.d6.conditions import _LADDER, Condition
from sim.rules.d6.difficulty import difficulty_number
from sim.rules.d6.options import DEFAULT_OPTIONS, Options, _code
from sim.rules.d6.tiers import DamageTier, _code_dist, tier_for, unknown_damage


def time_heal(
    condition: Condition, strength_total: int, bonus: int = 0, options: Options = DEFAULT_OPTIONS
) -> Condition:
    """Condition after three days of rest given the Strength roll's total [S].

    Stunned heals outright; mortally wounded and dead do not change. Otherwise a total
    (plus first-aid ``bonus``) of at most ``infection_max`` infects: one spot worse (wounded
    twice -> incapacitated, incapacitated -> mortally wounded); more heals one spot
    (wounded -> healed, since stunned counts as healed; wounded twice -> wounded;
    incapacitated -> wounded twice).
    """
    if condition.tier in (DamageTier.NONE, DamageTier.STUNNED):
        return _LADDER[0]
    if condition.tier in (DamageTier.MORTALLY_WOUNDED, DamageTier.DEAD):
        return condition
    if strength_total + bonus <= options.infection_max:
        return Condition.from_rank(condition.rank + 1)
    better = Condition.from_rank(condition.rank - 1)
    return _LADDER[0] if better.tier is DamageTier.STUNNED else better


def roll_time_heal(
    condition: Condition,
    strength: D6Code,
    rng: np.random.Generator,
    bonus: int = 0,
    options: Options = DEFAULT_OPTIONS,
) -> Condition:
    """Roll Strength for time healing (only when the condition calls for a roll)."""
    if condition.tier in (DamageTier.WOUNDED, DamageTier.INCAPACITATED):
        return time_heal(condition, strength.roll(rng), bonus, options)
    return time_heal(condition, 0, bonus, options)


def time_heal_dist(
    condition: Condition, strength: D6Code, bonus: int = 0, options: Options = DEFAULT_OPTIONS
) -> Dist:
    """Exact distribution of :func:`roll_time_heal`."""
    if condition.tier in (DamageTier.WOUNDED, DamageTier.INCAPACITATED):
        return _code_dist(strength).map(lambda s: time_heal(condition, s, bonus, options))
    return Dist.constant(time_heal(condition, 0, bonus, options))


def heal(
    condition: Condition,
    heal_total: int,
    damage: int | None = None,
    options: Options = DEFAULT_OPTIONS,
) -> Condition:
    """Condition after a heal of ``heal_total`` points (potion, spell, first aid) [S].

    The heal is subtracted from the damage taken (``damage``; unknown: the tier's lowest
    value + 1) and the new tier is that of the difference, Stunned included [S]; a heal
    never makes things worse.
    Wounded twice (``heal_wounded_twice``): 'one_wound' heals one wound at a time,
    'both' applies the total to each wound. Dead stays dead (see resurrection).
    """
    if condition.tier is DamageTier.DEAD or condition.tier is DamageTier.NONE:
        return condition
    points = unknown_damage(condition.tier) if damage is None else damage
    new = Condition.of(tier_for(points - heal_total))
    if condition.label == "wounded_twice":
        if new.rank >= condition.rank - 1:
            return condition
        return _LADDER[2] if options.heal_wounded_twice == "one_wound" else new
    return new if new.rank < condition.rank else condition


def roll_heal(
    condition: Condition,
    heal_dice: D6Code,
    rng: np.random.Generator,
    damage: int | None = None,
    options: Options = DEFAULT_OPTIONS,
) -> Condition:
    """Roll ``heal_dice`` (a potion's, a spell's) and apply :func:`heal`."""
    return heal(condition, heal_dice.roll(rng), damage, options)


def heal_dist(
    condition: Condition,
    heal_dice: D6Code,
    damage: int | None = None,
    options: Options = DEFAULT_OPTIONS,
) -> Dist:
    """Exact distribution of :func:`roll_heal`."""
    return _code_dist(heal_dice).map(lambda h: heal(condition, h, damage, options))


@cache
def _first_aid_table() -> Table[str]:
    return Table.from_csv(
        "d6_first_aid.csv", "condition", lambda r: r["difficulty"], name="condition"
    )


def first_aid_difficulty(condition: Condition) -> int:
    """Difficulty of the first-aid stabilize roll for ``condition`` [H, data file]."""
    difficulty = _first_aid_table().get(condition.label)
    if difficulty is None:
        raise SimError(f"first aid cannot treat a {condition.label} character")
    return difficulty_number(difficulty)


@dataclass(frozen=True, slots=True)
class FirstAidResult:
    """A first-aid attempt: the stabilize roll's success, its margin of 10+, the new condition."""

    success: bool
    by_ten: bool
    condition: Condition

    @property
    def time_heal_bonus(self) -> int:
        """Bonus to the next time-healing roll: +1, +2 on a success by 10+ [S]."""
        return 0 if not self.success else 2 if self.by_ten else 1

    @property
    def resist_dice(self) -> int:
        """Dice added to Resist Disease or Poison: 1D, 2D on a success by 10+ [S]."""
        return self.time_heal_bonus


def first_aid(
    condition: Condition,
    skill_total: int,
    heal_total: int,
    damage: int | None = None,
    options: Options = DEFAULT_OPTIONS,
) -> FirstAidResult:
    """First aid given the stabilize roll's total and the heal dice's total [S].

    The First Aid roll must meet the difficulty for the condition. On a success a mortally
    wounded patient becomes incapacitated (no better); others are healed by ``heal_total``.
    On a failure nothing changes.
    """
    difficulty = first_aid_difficulty(condition)
    success = skill_total >= difficulty
    by_ten = success and skill_total - difficulty >= 10
    if not success:
        return FirstAidResult(False, False, condition)
    if condition.tier is DamageTier.MORTALLY_WOUNDED:
        return FirstAidResult(True, by_ten, Condition(DamageTier.INCAPACITATED))
    return FirstAidResult(True, by_ten, heal(condition, heal_total, damage, options))


def roll_first_aid(
    condition: Condition,
    skill: D6Code,
    rng: np.random.Generator,
    damage: int | None = None,
    options: Options = DEFAULT_OPTIONS,
) -> FirstAidResult:
    """Roll First Aid (the stabilize round), then the heal dice (``first_aid_heal_dice``)."""
    skill_total = skill.roll(rng)
    heal_total = _code(options.first_aid_heal_dice, "options.first_aid_heal_dice").roll(rng)
    return first_aid(condition, skill_total, heal_total, damage, options)


def first_aid_dist(
    condition: Condition,
    skill: D6Code,
    damage: int | None = None,
    options: Options = DEFAULT_OPTIONS,
) -> Dist:
    """Exact distribution of :func:`roll_first_aid`."""
    heal_code = _code(options.first_aid_heal_dice, "options.first_aid_heal_dice")
    return _code_dist(skill).combine(
        _code_dist(heal_code), lambda s, h: first_aid(condition, s, h, damage, options)
    )


def wake(condition: Condition) -> Condition:
    """An incapacitated character who wakes counts as wounded twice until healed [S]."""
    return _LADDER[3] if condition.tier is DamageTier.INCAPACITATED else condition
