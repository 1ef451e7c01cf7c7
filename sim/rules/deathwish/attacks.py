"""Deathwish attacks: Penetration and Lethality, the damage roll, the to-hit roll.

Follows seed ``001_e5fc2d51799d4e98.txt`` ("Attack Mechanics", "Doing Damage", "Modifying
Penetration and Lethality"; RULES.md 3 damage roll, hit location, ammunition, to-hit [H]).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from fractions import Fraction
from functools import cache
from typing import Any

import numpy as np

from sim.dice import Dist, die, die_faces, outcome, roll_faces
from sim.errors import SimError
from sim.rules.deathwish.options import (
    DEFAULT_OPTIONS,
    DEFAULT_SKILL,
    DIE,
    LETHALITY_MAX,
    LETHALITY_MIN,
    Options,
)
from sim.rules.deathwish.tables import AMMUNITION_TABLE, LOCATION_TABLE, Weapon


def clamp_lethality(lethality: int) -> int:
    """Lethality held within 2..8, "for any reason" [S]."""
    return max(LETHALITY_MIN, min(LETHALITY_MAX, lethality))


def location_modifier(location: str, options: Options = DEFAULT_OPTIONS) -> int:
    """Lethality modifier of a hit location (torso 0, limb option, head +2, vitals +2)."""
    row = LOCATION_TABLE.find(location)
    if row["option"]:
        value: int = getattr(options, row["option"])
        return value
    return int(row["lethality"])


def ammo_modifiers(ammo: str, options: Options = DEFAULT_OPTIONS) -> tuple[int, int]:
    """(Penetration, Lethality) modifiers of an ammunition type."""
    row = AMMUNITION_TABLE.find(ammo)
    pen = getattr(options, row["penetration_option"]) if row["penetration_option"] else None
    leth = getattr(options, row["lethality_option"]) if row["lethality_option"] else None
    return (
        int(row["penetration"]) if pen is None else int(pen),
        int(row["lethality"]) if leth is None else int(leth),
    )


def attack_values(
    weapon: Weapon,
    *,
    strength: int = 5,
    location: str = "torso",
    ammo: str = "standard",
    options: Options = DEFAULT_OPTIONS,
) -> tuple[int, int]:
    """(Penetration, Lethality) of an attack after location and ammunition, Lethality in 2..8.

    Penetration is never below 0. Unarmed attacks (Lethality None) use ``strength`` as
    Lethality and fire no ammunition: ``ammo`` is checked but ignored for them.

    Raises:
        SimError: unknown location or ammunition, or Strength below 1.
    """
    if strength < 1:
        raise SimError(f"Strength must be 1 or more, got {strength}")
    leth_mod = location_modifier(location, options)
    pen_mod, ammo_leth = ammo_modifiers(ammo, options)
    if weapon.lethality is None:
        pen_mod = ammo_leth = 0
    base = strength if weapon.lethality is None else weapon.lethality
    return max(0, weapon.penetration + pen_mod), clamp_lethality(base + leth_mod + ammo_leth)


def _check_damage_args(lethality: int, armor: int, cover: int) -> None:
    if not LETHALITY_MIN <= lethality <= LETHALITY_MAX:
        raise SimError(f"lethality {lethality} is out of range {LETHALITY_MIN}..{LETHALITY_MAX}")
    if armor < 0 or cover < 0:
        raise SimError(f"armor and cover must be 0 or more, got {armor} and {cover}")


def _dice(penetration: int, armor: int, cover: int) -> int:
    return max(0, penetration - armor - cover)


@cache
def _damage_die(lethality: int) -> Dist:
    """One damage die: its face if <= Lethality, else 0."""
    miss = Fraction(DIE - lethality, DIE)
    return Dist({0: miss, **{f: Fraction(1, DIE) for f in range(1, lethality + 1)}})


@cache
def _damage_dist(dice: int, lethality: int) -> Dist:
    return _damage_die(lethality).repeat(dice)


def damage_dist(penetration: int, lethality: int, armor: int = 0, cover: int = 0) -> Dist:
    """Exact damage: (Penetration - Armor - Cover) d10, faces <= Lethality summed [S].

    Raises:
        SimError: Lethality outside 2..8, or negative armor or cover.
    """
    _check_damage_args(lethality, armor, cover)
    return _damage_dist(_dice(penetration, armor, cover), lethality)


def roll_damage(
    penetration: int,
    lethality: int,
    armor: int,
    cover: int,
    rng: np.random.Generator,
    key: Callable[[int], Any] | None = None,
    same: Hashable = None,
) -> int:
    """Roll damage once (see :func:`damage_dist`).

    ``key`` and ``same``: as :func:`sim.dice.outcome`'s, for an enumerating die (what a
    damage does, not its value, when nothing else reads it).
    """
    _check_damage_args(lethality, armor, cover)
    n = _dice(penetration, armor, cover)
    if type(rng) is np.random.Generator:  # draw's dice die by die: the same draws, cheaper
        return sum([face for face in die_faces(rng, DIE, n) if face <= lethality])

    def draw(rng: np.random.Generator) -> int:
        faces = roll_faces(rng, DIE, n)
        return int(faces[faces <= lethality].sum())

    return int(outcome(rng, draw, key=key, same=same))


def roll_damage_many(
    penetration: int,
    lethality: int,
    armor: int,
    cover: int,
    rng: np.random.Generator,
    size: int,
) -> np.ndarray:
    """Roll damage ``size`` times at once; an int64 array (same rule as :func:`roll_damage`)."""
    _check_damage_args(lethality, armor, cover)
    faces = rng.integers(1, DIE + 1, size=(size, _dice(penetration, armor, cover)), dtype=np.int64)
    result: np.ndarray = np.where(faces <= lethality, faces, 0).sum(axis=1)
    return result


def cover_difficulty(cover: int, options: Options = DEFAULT_OPTIONS) -> int:
    """To-hit difficulty of a target behind ``cover`` points of cover [H]."""
    return max(0, cover) * options.cover_difficulty_per_point


def to_hit_target(
    skill: int = DEFAULT_SKILL, wound_difficulty: int = 0, cover_difficulty: int = 0
) -> int:
    """To-hit target number: the attacker's skill - wound and cover difficulty [H]."""
    return skill - wound_difficulty - cover_difficulty


def hit_chance(
    skill: int = DEFAULT_SKILL, wound_difficulty: int = 0, cover_difficulty: int = 0
) -> Fraction:
    """Chance a d10 is <= the to-hit target (targets below 1 never hit)."""
    target = to_hit_target(skill, wound_difficulty, cover_difficulty)
    return Fraction(max(0, min(DIE, target)), DIE)


def hit_dist(
    skill: int = DEFAULT_SKILL, wound_difficulty: int = 0, cover_difficulty: int = 0
) -> Dist:
    """Exact distribution of the to-hit roll: True (hit) or False."""
    p = hit_chance(skill, wound_difficulty, cover_difficulty)
    return Dist({True: p, False: 1 - p})


def roll_to_hit(
    rng: np.random.Generator,
    skill: int = DEFAULT_SKILL,
    wound_difficulty: int = 0,
    cover_difficulty: int = 0,
) -> bool:
    """Roll a d10 against the to-hit target; True on a hit."""
    target = to_hit_target(skill, wound_difficulty, cover_difficulty)
    if type(rng) is not np.random.Generator:  # an enumerating die: a hit or a miss
        return bool(outcome(rng, _hits, target))
    return die(rng, DIE) <= target  # _hits's draw, from the same 32-bit word


def _hits(rng: np.random.Generator, target: int) -> bool:
    return int(roll_faces(rng, DIE, 1)[0]) <= target
