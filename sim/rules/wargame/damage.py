"""War Game damage: the damage roll and the armor pool absorbing it.

Follows seed ``002_5306f142c0f73876.txt`` (RULES.md 1.2 attacks and damage, 1.5 the pool
absorbs, overflow wounds).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache

import numpy as np

from sim.dice import Dist, die, die_faces, outcome
from sim.errors import SimError
from sim.rules.wargame.base import (
    HD_SIDES,
    MAX_DICE,
    _check_choice,
    _check_dice,
    _check_pool,
)


@dataclass(frozen=True, slots=True)
class DamageRoll:
    """A damage roll: ``total``, each die's face, and whether it is max damage."""

    total: int
    faces: tuple[int, ...]
    is_max: bool

    def describe(self) -> str:
        """E.g. ``2d8 [8, 3] = 11``."""
        shown = f" {list(self.faces)}" if self.faces else ""
        return f"{len(self.faces)}d8{shown} = {self.total}" + (" (max)" if self.is_max else "")


def _damage_dice(dice: int, mode: str) -> int:
    _check_dice(dice)
    _check_choice("damage mode", mode, ("hd_sum", "weapon_d8"))
    return dice if mode == "hd_sum" else 1


def roll_damage(
    dice: int, rng: np.random.Generator, mode: str = "hd_sum", *, max_damage: str = "all_eight"
) -> DamageRoll:
    """Roll the damage of an attack on which ``dice`` HD were spent.

    ``mode="hd_sum"`` totals the spent dice as d8s; ``"weapon_d8"`` rolls one d8 whatever
    was spent. Max damage: every die shows 8 (``max_damage="any_eight"``: one does).
    """
    if max_damage != "all_eight" and max_damage != "any_eight":
        _check_choice("max_damage", max_damage, ("all_eight", "any_eight"))
    if mode == "hd_sum" and type(dice) is int and 1 <= dice <= MAX_DICE:
        n = dice  # what _damage_dice gives, without its checks' calls
    else:
        n = _damage_dice(dice, mode)
    all_eight = max_damage == "all_eight"
    if type(rng) is not np.random.Generator:  # an enumerating die: one branch per key
        # Only the total and whether it is max damage matter (the faces are only shown).
        return outcome(rng, _roll, n, all_eight, key=_total_and_max)  # type: ignore[no-any-return]
    # _roll's lines, inline: the calls cost 0.25% of a skirmish5 run's instructions.
    faces = tuple([die(rng, HD_SIDES) for _ in range(n)])  # die_faces(rng, HD_SIDES, n)
    eights = faces.count(HD_SIDES)
    return DamageRoll(sum(faces), faces, eights == n if all_eight else eights > 0)


def _roll(rng: np.random.Generator, n: int, all_eight: bool) -> DamageRoll:
    # One d8 at a time: the same draws as one call with size=n (numpy's bounded integers
    # come off one stream of 32-bit words either way), and faster for the few dice spent.
    faces = die_faces(rng, HD_SIDES, n)  # order does not matter: a total and its eights
    eights = faces.count(HD_SIDES)
    return DamageRoll(sum(faces), faces, eights == n if all_eight else eights > 0)


def _total_and_max(roll: DamageRoll) -> tuple[int, bool]:
    return roll.total, roll.is_max


def damage_dist(dice: int, mode: str = "hd_sum") -> Dist:
    """Exact distribution of the damage total (``weapon_d8``: one d8 whatever ``dice``)."""
    return _sum_dist(_damage_dice(dice, mode))


@cache
def _sum_dist(n: int) -> Dist:
    return Dist.die(HD_SIDES).repeat(n)


def damage_roll_dist(dice: int, mode: str = "hd_sum", max_damage: str = "all_eight") -> Dist:
    """Exact distribution of :func:`roll_damage` as ``(total, is_max)`` tuples."""
    _check_choice("max_damage", max_damage, ("all_eight", "any_eight"))
    n = _damage_dice(dice, mode)
    totals = damage_dist(dice, mode)
    if max_damage == "all_eight":
        return totals.map(lambda t: (t, t == HD_SIDES * n))
    # P(total = t, no 8) = (7/8)^n * P(sum of n faces 1..7 = t)
    no_eight = Dist.die(HD_SIDES - 1).repeat(n)
    scale = Fraction(HD_SIDES - 1, HD_SIDES) ** n
    probs: dict[tuple[int, bool], Fraction] = {}
    for t, p in totals.items():
        q = no_eight[t] * scale
        probs[(t, True)] = p - q
        probs[(t, False)] = q
    return Dist(probs)


@dataclass(frozen=True, slots=True)
class Absorb:
    """Armor against damage: the pool after, whether a wound got through, whether it emptied."""

    armor_pool: int
    wound: bool
    emptied: bool


def absorb(damage: int, armor_pool: int) -> Absorb:
    """Let the armor pool absorb ``damage``.

    The pool drops by the damage; damage above the pool empties it and wounds; with no armor
    (pool 0) any damage above 0 wounds. ``emptied`` means a pool above 0 reached 0.
    """
    if type(armor_pool) is int and type(damage) is int:  # frozen records, shared
        done = _ABSORBED.get((damage, armor_pool))
        if done is not None:
            return done
    _check_pool(armor_pool)
    if damage < 0:
        raise SimError(f"damage must be 0 or more, got {damage}")
    if armor_pool == 0:
        done = Absorb(0, damage > 0, False)
    elif damage > armor_pool:
        done = Absorb(0, True, True)
    else:
        done = Absorb(armor_pool - damage, False, damage == armor_pool)
    if type(armor_pool) is int and type(damage) is int and len(_ABSORBED) < 65536:
        _ABSORBED[damage, armor_pool] = done
    return done


_ABSORBED: dict[tuple[int, int], Absorb] = {}


def absorb_dist(dice: int, armor_pool: int, mode: str = "hd_sum") -> Dist:
    """Exact distribution of ``(armor_pool_after, wound)`` tuples for an attack of ``dice``."""
    _check_pool(armor_pool)
    return damage_dist(dice, mode).map(
        lambda d: (absorb(d, armor_pool).armor_pool, absorb(d, armor_pool).wound)
    )


def wound_chance(dice: int, armor_pool: int, mode: str = "hd_sum") -> Fraction:
    """Exact chance that an attack of ``dice`` wounds through ``armor_pool`` (0: always)."""
    _check_pool(armor_pool)
    return damage_dist(dice, mode).prob(lambda d: absorb(d, armor_pool).wound)
