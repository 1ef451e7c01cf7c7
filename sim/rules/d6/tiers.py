"""D6 tiers damage table: the tier of damage against body, and the body code.

Follows seed ``003_fd1c4a13f28810ec.txt`` ("Damage Table"; RULES.md 4 damage and the damage
table, ``d6_damage_table.csv``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import cache, lru_cache

import numpy as np

from sim.dice import D6Code, Dist, outcome
from sim.errors import SimError, unknown
from sim.rules.common import load_csv
from sim.rules.d6.options import DEFAULT_OPTIONS, NO_DICE, UNARMED_PIPS, Options


class DamageTier(StrEnum):
    """Rows of the damage table, in order of severity; the value is the tier's name."""

    NONE = "none"
    STUNNED = "stunned"
    WOUNDED = "wounded"
    INCAPACITATED = "incapacitated"
    MORTALLY_WOUNDED = "mortally_wounded"
    DEAD = "dead"

    @property
    def rank(self) -> int:
        """Severity, 0 (none) to 5 (dead). Compare tiers by rank, not by ``<`` on names."""
        return _TIER_ORDER.index(self)


_TIER_ORDER: tuple[DamageTier, ...] = tuple(DamageTier)


@cache
def _damage_rows() -> tuple[tuple[int, int | None, DamageTier], ...]:
    rows = []
    for r in load_csv("d6_damage_table.csv"):
        high = int(r["max_difference"]) if r["max_difference"] else None
        rows.append((int(r["min_difference"]), high, DamageTier(r["tier"])))
    return tuple(rows)


def tier_for(difference: int) -> DamageTier:
    """The damage-table tier of ``difference`` = damage roll - body roll (<= 0 is none)."""
    for low, high, tier in _damage_rows():
        if difference >= low and (high is None or difference <= high):
            return tier
    return DamageTier.NONE


def tier_floor(tier: DamageTier | str) -> int:
    """The lowest difference that gives ``tier`` (stunned 1, wounded 4, ... dead 16)."""
    t = _tier(tier)
    for low, _high, row_tier in _damage_rows():
        if row_tier is t:
            return low
    raise SimError(f"tier {t.value!r} has no row in the damage table")


def unknown_damage(tier: DamageTier | str) -> int:
    """Damage to heal from when the real figure is unknown: the tier's lowest value + 1 [S]."""
    return tier_floor(tier) + 1


def _tier(tier: DamageTier | str) -> DamageTier:
    try:
        return DamageTier(tier)
    except ValueError:
        raise unknown("damage tier", str(tier), [t.value for t in DamageTier]) from None


@lru_cache(maxsize=512)
def _code_dist(code: D6Code) -> Dist:
    return code.dist()


@dataclass(frozen=True, slots=True)
class DamageResult:
    """A damage roll against a body roll and the tier of the difference."""

    damage: int
    body: int
    difference: int
    tier: DamageTier


def roll_damage_vs_body(damage: D6Code, body: D6Code, rng: np.random.Generator) -> DamageResult:
    """Roll damage, then body; the damage must beat the body roll (a tie is no damage) [S]."""
    return outcome(rng, _damage_vs_body, damage, body, key=_tier_of)  # type: ignore[no-any-return]


def _damage_vs_body(rng: np.random.Generator, damage: D6Code, body: D6Code) -> DamageResult:
    d = damage.roll(rng)
    b = body.roll(rng)
    return DamageResult(d, b, d - b, tier_for(d - b))


def _tier_of(res: DamageResult) -> DamageTier:
    return res.tier  # only the tier matters after the roll (the totals are only shown)


def tier_dist(damage: D6Code, body: D6Code) -> Dist:
    """Exact distribution of the tier name (``"none"``, ``"stunned"``, ...) of damage vs body."""
    return _code_dist(damage).combine(_code_dist(body), lambda d, b: tier_for(d - b).value)


def unarmed_damage(strength: D6Code) -> D6Code:
    """Unarmed damage code: Strength - 2 pips [S] (never below 0D)."""
    return strength.plus_pips(UNARMED_PIPS)


def body_code(
    strength: D6Code,
    dexterity: D6Code,
    armor: D6Code = NO_DICE,
    options: Options = DEFAULT_OPTIONS,
) -> D6Code:
    """Body = average of Strength and Dexterity [I: in pips, rounded down] + armor/shield dice."""
    total = strength.total_pips + dexterity.total_pips
    avg = total // 2 if options.body_average == "pips_down" else (total + 1) // 2
    return D6Code.from_pips(avg) + armor
