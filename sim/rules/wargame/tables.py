"""War Game tables: d6 armors, shields, d12 weapons, d4 wound types, d8 factors.

Follows seed ``002_5306f142c0f73876.txt`` (RULES.md 1.4 wound types, 1.5 armor, 1.9 weapon
categories, 1.10 environmental factors). The rows ship as data in
``sim/rules/data/wargame_*.csv``; each table is a :class:`sim.rules.common.Table`: found by name
or alias, rolled on as a die.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from typing import Any

import numpy as np

from sim.dice import Dist
from sim.errors import SimError, unknown
from sim.rules.common import load_csv
from sim.rules.wargame.base import FACTOR_KINDS, _d


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
    effect: str
    amount: int
    wound_type: str
    text: str


def _index(rows: Sequence[Any], aliases: Sequence[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for row, alias_text in zip(rows, aliases, strict=True):
        out[_key(row.name)] = row
        for alias in alias_text.split(";"):
            if alias.strip():
                out.setdefault(_key(alias), row)
    return out


@cache
def _armors() -> tuple[tuple[ArmorSpec, ...], dict[str, ArmorSpec]]:
    rows = load_csv("wargame_armors.csv")
    specs = tuple(
        ArmorSpec(
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
        for r in rows
    )
    return specs, _index(specs, [r["aliases"] for r in rows])


@cache
def _shields() -> tuple[dict[str, int], dict[str, str]]:
    rows = load_csv("wargame_shields.csv")
    values = {r["size"]: int(r["armor"]) for r in rows}
    names: dict[str, str] = {}
    for r in rows:
        names[_key(r["size"])] = r["size"]
        for alias in r["aliases"].split(";"):
            if alias.strip():
                names[_key(alias)] = r["size"]
    return values, names


@cache
def _weapons() -> tuple[tuple[Weapon, ...], dict[str, Weapon]]:
    rows = load_csv("wargame_weapons.csv")
    weapons = tuple(
        Weapon(
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
        for r in rows
    )
    return weapons, _index(weapons, [r["aliases"] for r in rows])


@cache
def _wound_types() -> tuple[tuple[WoundType, ...], dict[str, WoundType]]:
    rows = load_csv("wargame_wound_types.csv")
    types = tuple(
        WoundType(
            roll=int(r["roll"]),
            name=r["name"],
            left_by=tuple(k for k in r["left_by"].split(";") if k),
            armor_max_loss=int(r["armor_max_loss"]),
            armor_max_floor=int(r["armor_max_floor"]),
            text=r["text"],
        )
        for r in rows
    )
    return types, {t.name: t for t in types}


@cache
def _factors(kind: str) -> tuple[tuple[Factor, ...], dict[str, Factor]]:
    rows = [r for r in load_csv("wargame_factors.csv") if r["kind"] == kind]
    factors = tuple(
        Factor(
            kind=kind,
            roll=int(r["roll"]),
            name=r["name"],
            protects=_yes(r["protects"]),
            effect=r["effect"],
            amount=int(r["amount"]),
            wound_type=r["wound_type"],
            text=r["text"],
        )
        for r in rows
    )
    return factors, _index(factors, [r["aliases"] for r in rows])


def armors() -> tuple[ArmorSpec, ...]:
    """The d6 Armors table, in roll order."""
    return _armors()[0]


def armor_spec(name: str) -> ArmorSpec:
    """The armor called ``name`` (aliases such as ``aketon`` or ``scale`` allowed)."""
    specs, index = _armors()
    try:
        return index[_key(name)]
    except KeyError:
        raise unknown("armor", name, [s.name for s in specs]) from None


def roll_armor(rng: np.random.Generator) -> ArmorSpec:
    """Roll the d6 Armors table."""
    return armors()[_d(rng, len(armors())) - 1]


def armor_roll_dist() -> Dist:
    """Exact distribution of :func:`roll_armor`'s armor name."""
    return Dist({s.name: Fraction(1, len(armors())) for s in armors()})


def shield_value(shield: str | int | None) -> int:
    """Armor a shield adds to the pool: by size name (small 2, medium 3, large 4) or 2..4."""
    if shield is None:
        return 0
    values, names = _shields()
    if isinstance(shield, int) and not isinstance(shield, bool):
        low, high = min(values.values()), max(values.values())
        if shield != 0 and not low <= shield <= high:
            raise SimError(f"shield armor must be {low}..{high} (or 0 for none), got {shield}")
        return shield
    try:
        return values[names[_key(str(shield))]]
    except KeyError:
        raise unknown("shield size", str(shield), list(values)) from None


def weapons() -> tuple[Weapon, ...]:
    """The d12 weapon categories in roll order, then ``plain``."""
    return _weapons()[0]


def weapon(name: str | Weapon) -> Weapon:
    """The weapon category called ``name`` (aliases such as ``bastard sword`` allowed)."""
    if isinstance(name, Weapon):
        return name
    all_weapons, index = _weapons()
    try:
        return index[_key(name)]
    except KeyError:
        raise unknown("weapon category", name, [w.name for w in all_weapons]) from None


def _rolled_weapons() -> tuple[Weapon, ...]:
    return tuple(w for w in weapons() if w.roll is not None)


def roll_weapon(rng: np.random.Generator) -> Weapon:
    """Roll the d12 weapon categories."""
    table = _rolled_weapons()
    return table[_d(rng, len(table)) - 1]


def weapon_roll_dist() -> Dist:
    """Exact distribution of :func:`roll_weapon`'s category name."""
    table = _rolled_weapons()
    return Dist({w.name: Fraction(1, len(table)) for w in table})


def wound_types() -> tuple[WoundType, ...]:
    """The d4 Wound Types table, in roll order."""
    return _wound_types()[0]


def wound_type(name: str) -> WoundType:
    """The wound type called ``name`` (bleeding, broken_bones, burning, lingering)."""
    types, index = _wound_types()
    try:
        return index[_key(name)]
    except KeyError:
        raise unknown("wound type", name, [t.name for t in types]) from None


def roll_wound_type(rng: np.random.Generator) -> WoundType:
    """Roll the d4 Wound Types table."""
    return wound_types()[_d(rng, len(wound_types())) - 1]


def wound_type_dist() -> Dist:
    """Exact distribution of :func:`roll_wound_type`'s name."""
    return Dist({t.name: Fraction(1, len(wound_types())) for t in wound_types()})


def _check_kind(kind: str) -> None:
    if kind not in FACTOR_KINDS:
        raise unknown("factor kind", kind, FACTOR_KINDS)


def factors(kind: str) -> tuple[Factor, ...]:
    """The d8 table of ``kind`` (``cover``, ``distraction`` or ``hazard``), in roll order."""
    _check_kind(kind)
    return _factors(kind)[0]


def factor(kind: str, name: str | Factor) -> Factor:
    """The factor of ``kind`` called ``name`` (e.g. ``factor("hazard", "cliff")``)."""
    if isinstance(name, Factor):
        if name.kind != kind:
            raise SimError(f"{name.name!r} is a {name.kind}, not a {kind}")
        return name
    _check_kind(kind)
    table, index = _factors(kind)
    try:
        return index[_key(name)]
    except KeyError:
        raise unknown(kind, name, [f.name for f in table]) from None


def roll_factor(kind: str, rng: np.random.Generator) -> Factor:
    """Roll the d8 table of ``kind``."""
    table = factors(kind)
    return table[_d(rng, len(table)) - 1]


def factor_dist(kind: str) -> Dist:
    """Exact distribution of :func:`roll_factor`'s factor name."""
    table = factors(kind)
    return Dist({f.name: Fraction(1, len(table)) for f in table})
