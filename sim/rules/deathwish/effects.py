"""Deathwish wound effects at once: incapacitation, instant death, cheating death.

Follows seed ``001_e5fc2d51799d4e98.txt`` (RULES.md 3 incapacitation and death, all house rules
[H]).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from sim.dice import Dist, roll_faces
from sim.rules.deathwish.options import DEFAULT_OPTIONS, DIE, Options, _prob
from sim.rules.deathwish.wounds import Thresholds, WoundLevel, wound_level

EFFECTS: tuple[str, ...] = ("unhurt", "wounded", "incapacitated", "dead")
"""Immediate outcomes of a hit (:func:`effect_dist`, :attr:`WoundEffect.effect`)."""


def incapacitation_chance(level: WoundLevel | str, options: Options = DEFAULT_OPTIONS) -> Fraction:
    """Chance a new wound of ``level`` incapacitates at once [H]."""
    p: float = getattr(options, f"incapacitate_{WoundLevel(level).value}")
    return _prob(p)


def incapacitation_dist(level: WoundLevel | str, options: Options = DEFAULT_OPTIONS) -> Dist:
    """Exact distribution of the incapacitation check: True (incapacitated) or False."""
    p = incapacitation_chance(level, options)
    return Dist({True: p, False: 1 - p})


def roll_incapacitated(
    level: WoundLevel | str, rng: np.random.Generator, options: Options = DEFAULT_OPTIONS
) -> bool:
    """Roll whether a new wound of ``level`` incapacitates (always draws one number)."""
    return bool(rng.random() < float(incapacitation_chance(level, options)))


def rounds_to_death(level: WoundLevel | str, options: Options = DEFAULT_OPTIONS) -> int | None:
    """Rounds after which an untreated wound of ``level`` kills; None if it never does [H]."""
    lv = WoundLevel(level)
    if lv is WoundLevel.SERIOUS:
        return options.untreated_serious_rounds
    if lv is WoundLevel.CRITICAL:
        return options.untreated_critical_rounds
    return None


def instant_death(damage: int, thr: Thresholds, options: Options = DEFAULT_OPTIONS) -> bool:
    """Whether ``damage`` is an extreme Critical wound that kills unless death is cheated [H]."""
    return (
        wound_level(damage, thr, options) is WoundLevel.CRITICAL
        and damage >= options.instant_death_multiple * thr.critical
    )


def cheat_death_chance(options: Options = DEFAULT_OPTIONS) -> Fraction:
    """Chance the cheat-death roll succeeds: any of ``cheat_death_dice`` d10 <= ``cheat_death``."""
    target = max(0, min(DIE, options.cheat_death))
    return 1 - Fraction(DIE - target, DIE) ** options.cheat_death_dice


def cheat_death_dist(options: Options = DEFAULT_OPTIONS) -> Dist:
    """Exact distribution of the cheat-death roll: True (survives) or False."""
    p = cheat_death_chance(options)
    return Dist({True: p, False: 1 - p})


def roll_cheat_death(rng: np.random.Generator, options: Options = DEFAULT_OPTIONS) -> bool:
    """Roll the cheat-death dice; True if any shows ``cheat_death`` or less."""
    faces = roll_faces(rng, DIE, options.cheat_death_dice)
    return bool((faces <= options.cheat_death).any())


@dataclass(frozen=True, slots=True)
class WoundEffect:
    """What one hit does at once: the wound (None if none) and whether it fells or kills."""

    damage: int
    level: WoundLevel | None
    incapacitated: bool
    dead: bool

    @property
    def effect(self) -> str:
        """One of :data:`EFFECTS`: unhurt, wounded (still active), incapacitated, dead."""
        if self.dead:
            return "dead"
        if self.incapacitated:
            return "incapacitated"
        return "unhurt" if self.level is None else "wounded"


def roll_effect(
    damage: int, thr: Thresholds, rng: np.random.Generator, options: Options = DEFAULT_OPTIONS
) -> WoundEffect:
    """Resolve a hit's ``damage``: wound level, instant death (cheat-death roll), incapacitation.

    Draws: nothing if no wound; the cheat-death dice if the wound is an instant kill
    (a failed roll is death, no further draw); else one incapacitation draw.
    """
    level = wound_level(damage, thr, options)
    if level is None:
        return WoundEffect(damage, None, False, False)
    if instant_death(damage, thr, options) and not roll_cheat_death(rng, options):
        return WoundEffect(damage, level, False, True)
    return WoundEffect(damage, level, roll_incapacitated(level, rng, options), False)


def effect_dist(damage: Dist, thr: Thresholds, options: Options = DEFAULT_OPTIONS) -> Dist:
    """Exact distribution of :attr:`WoundEffect.effect` for damage drawn from ``damage``."""
    survive = cheat_death_chance(options)

    def effect(d: int) -> Dist:
        level = wound_level(d, thr, options)
        if level is None:
            return Dist.constant("unhurt")
        p_dead = 1 - survive if instant_death(d, thr, options) else Fraction(0)
        p_inc = (1 - p_dead) * incapacitation_chance(level, options)
        return Dist({"dead": p_dead, "incapacitated": p_inc, "wounded": 1 - p_dead - p_inc})

    return damage.bind(effect)
