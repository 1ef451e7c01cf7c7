"""War Game tables: d6 armors, shields, d12 weapons, d4 wound types, d8 factors.

Follows seed ``002_5306f142c0f73876.txt`` (RULES.md 1.4 wound types, 1.5 armor, 1.9 weapon
categories, 1.10 environmental factors). The rows ship as data in
``sim/rules/data/wargame_*.csv``; each table is a :class:`sim.rules.common.Table`: found by name
or alias, rolled on as a die.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

import numpy as np

from sim.dice import Dist
from sim.errors import SimError, unknown
from sim.rules.common import Table
from sim.rules.wargame.base import FACTOR_KINDS


def _key(name: str) -> str:
    """A table name or alias as the indexes store it."""
    return _key_text(str(name))


@lru_cache(maxsize=1024)
def _key_text(name: str) -> str:  # cached: weapons are looked up on every attack
    return re.sub(r"[\s\-_/]+", "_", name.strip().lower())


def _yes(text: str) -> bool:
    return text.strip().lower() in ("yes", "true", "1")


@dataclass(frozen=True, slots=True)
class ArmorSpec:
    """One row of the d6 Armors table."""

    roll: int
    name: str
    value: int
    max_pieces: int
    per_other_piece: int
    wear_on_empty: int
    dex_penalty: int
    metal: bool
    loud: bool
    ignitable: bool
    prevents_dismemberment: bool
    limbs_unprotected: bool
    text: str


@dataclass(frozen=True, slots=True)
class Weapon:
    """One weapon category of the d12 table (or ``plain``), effect numbers from the data."""

    name: str
    roll: int | None
    ranged: bool
    range_yards: int
    ignores_armor: bool
    trigger: str
    effect: str
    amount: str
    damage_kind: str
    wound_type: str
    text: str


@dataclass(frozen=True, slots=True)
class WoundType:
    """One row of the d4 Wound Types table."""

    roll: int
    name: str
    left_by: tuple[str, ...]
    armor_max_loss: int
    armor_max_floor: int
    text: str


@dataclass(frozen=True, slots=True)
class Factor:
    """An environmental factor (d8 cover, distraction or hazard table)."""

    kind: str
    roll: int
    name: str
    protects: bool
    hides: bool
    effect: str
    amount: int
    wound_type: str
    text: str


def _armor_spec(r: dict[str, str]) -> ArmorSpec:
    return ArmorSpec(
        roll=int(r["roll"]),
        name=r["name"],
        value=int(r["value"]),
        max_pieces=int(r["max_pieces"]),
        per_other_piece=int(r["per_other_piece"]),
        wear_on_empty=int(r["wear_on_empty"]),
        dex_penalty=int(r["dex_penalty"]),
        metal=_yes(r["metal"]),
        loud=_yes(r["loud"]),
        ignitable=_yes(r["ignitable"]),
        prevents_dismemberment=_yes(r["prevents_dismemberment"]),
        limbs_unprotected=_yes(r["limbs_unprotected"]),
        text=r["text"],
    )


def _weapon(r: dict[str, str]) -> Weapon:
    return Weapon(
        name=r["name"],
        roll=int(r["roll"]) if r["roll"].strip() else None,
        ranged=_yes(r["ranged"]),
        range_yards=int(r["range_yards"]),
        ignores_armor=_yes(r["ignores_armor"]),
        trigger=r["trigger"],
        effect=r["effect"],
        amount=r["amount"],
        damage_kind=r["damage_kind"],
        wound_type=r["wound_type"],
        text=r["text"],
    )


def _wound_type(r: dict[str, str]) -> WoundType:
    return WoundType(
        roll=int(r["roll"]),
        name=r["name"],
        left_by=tuple(k for k in r["left_by"].split(";") if k),
        armor_max_loss=int(r["armor_max_loss"]),
        armor_max_floor=int(r["armor_max_floor"]),
        text=r["text"],
    )


def _factor(r: dict[str, str]) -> Factor:
    return Factor(
        kind=r["kind"],
        roll=int(r["roll"]),
        name=r["name"],
        protects=_yes(r["protects"]),
        hides=_yes(r["hides"]),
        effect=r["effect"],
        amount=int(r["amount"]),
        wound_type=r["wound_type"],
        text=r["text"],
    )


@cache
def _armors() -> Table[ArmorSpec]:
    return Table.from_csv("wargame_armors.csv", "armor", _armor_spec, key=_key, aliases="aliases")


@cache
def _shields() -> Table[int]:
    return Table.from_csv(
        "wargame_shields.csv",
        "shield size",
        lambda r: int(r["armor"]),
        key=_key,
        name="size",
        aliases="aliases",
    )


@cache
def _weapons() -> Table[Weapon]:
    return Table.from_csv(
        "wargame_weapons.csv",
        "weapon category",
        _weapon,
        key=_key,
        aliases="aliases",
        die=lambda w: w.roll is not None,
    )


@cache
def _wound_types() -> Table[WoundType]:
    return Table.from_csv("wargame_wound_types.csv", "wound type", _wound_type, key=_key)


@cache
def _factors(kind: str) -> Table[Factor]:
    return Table.from_csv(
        "wargame_factors.csv",
        kind,
        _factor,
        key=_key,
        aliases="aliases",
        keep=lambda r: r["kind"] == kind,
    )


def named_tables() -> dict[str, Table[Any]]:
    """The tables a scenario names things from (``sim tables``), by what they list."""
    return {
        "weapons": _weapons(),
        "armor": _armors(),
        "shields": _shields(),
        **{kind: _factors(kind) for kind in FACTOR_KINDS},
    }


def armors() -> tuple[ArmorSpec, ...]:
    """The d6 Armors table, in roll order."""
    return _armors().rows


def armor_spec(name: str) -> ArmorSpec:
    """The armor called ``name`` (aliases such as ``aketon`` or ``scale`` allowed)."""
    return _armors().find(name)


def roll_armor(rng: np.random.Generator) -> ArmorSpec:
    """Roll the d6 Armors table."""
    return _armors().roll(rng)


def armor_roll_dist() -> Dist:
    """Exact distribution of :func:`roll_armor`'s armor name."""
    return _armors().roll_dist()


def shield_value(shield: str | int | None) -> int:
    """Armor a shield adds to the pool: by size name (small 2, medium 3, large 4) or 2..4."""
    if shield is None:
        return 0
    table = _shields()
    if isinstance(shield, int) and not isinstance(shield, bool):
        low, high = min(table), max(table)
        if shield != 0 and not low <= shield <= high:
            raise SimError(f"shield armor must be {low}..{high} (or 0 for none), got {shield}")
        return shield
    return table.find(str(shield))


def weapons() -> tuple[Weapon, ...]:
    """The d12 weapon categories in roll order, then ``plain``."""
    return _weapons().rows


def weapon(name: str | Weapon) -> Weapon:
    """The weapon category called ``name`` (aliases such as ``bastard sword`` allowed)."""
    if isinstance(name, Weapon):
        return name
    return _weapon_named(name)


@lru_cache(maxsize=256)
def _weapon_named(name: str) -> Weapon:
    """:func:`weapon` of a name, looked up once (every attack asks for its weapon)."""
    return _weapons().find(name)


def roll_weapon(rng: np.random.Generator) -> Weapon:
    """Roll the d12 weapon categories (``plain`` is no face of the die)."""
    return _weapons().roll(rng)


def weapon_roll_dist() -> Dist:
    """Exact distribution of :func:`roll_weapon`'s category name."""
    return _weapons().roll_dist()


def wound_types() -> tuple[WoundType, ...]:
    """The d4 Wound Types table, in roll order."""
    return _wound_types().rows


def wound_type(name: str) -> WoundType:
    """The wound type called ``name`` (bleeding, broken_bones, burning, lingering)."""
    return _wound_types().find(name)


def roll_wound_type(rng: np.random.Generator) -> WoundType:
    """Roll the d4 Wound Types table."""
    return _wound_types().roll(rng)


def wound_type_dist() -> Dist:
    """Exact distribution of :func:`roll_wound_type`'s name."""
    return _wound_types().roll_dist()


def _check_kind(kind: str) -> None:
    if kind not in FACTOR_KINDS:
        raise unknown("factor kind", kind, FACTOR_KINDS)


def factors(kind: str) -> tuple[Factor, ...]:
    """The d8 table of ``kind`` (``cover``, ``distraction`` or ``hazard``), in roll order."""
    _check_kind(kind)
    return _factors(kind).rows


def factor(kind: str, name: str | Factor) -> Factor:
    """The factor of ``kind`` called ``name`` (e.g. ``factor("hazard", "cliff")``)."""
    if isinstance(name, Factor):
        if name.kind != kind:
            raise SimError(f"{name.name!r} is a {name.kind}, not a {kind}")
        return name
    _check_kind(kind)
    return _factors(kind).find(name)


def roll_factor(kind: str, rng: np.random.Generator) -> Factor:
    """Roll the d8 table of ``kind``."""
    _check_kind(kind)
    return _factors(kind).roll(rng)


def factor_dist(kind: str) -> Dist:
    """Exact distribution of :func:`roll_factor`'s factor name."""
    _check_kind(kind)
    return _factors(kind).roll_dist()
