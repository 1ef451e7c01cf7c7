"""Deathwish tables: weapons, armors, hit locations and ammunition, found by name.

Follows seed ``001_e5fc2d51799d4e98.txt`` ("Weapons Table"; RULES.md 3 weapons table and armor;
``deathwish_weapons.csv``, ``deathwish_armors.csv``, ``deathwish_locations.csv``,
``deathwish_ammo.csv``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from sim.errors import unknown
from sim.rules.common import load_csv


def _norm(name: str) -> str:
    """Key for forgiving name lookups: case, spaces, hyphens and underscores ignored."""
    return "".join(ch for ch in str(name).lower() if ch not in " -_")


def _lookup(kind: str, name: str, table: Mapping[str, object]) -> str:
    """The key of ``table`` that ``name`` means; SimError with a suggestion otherwise."""
    if name in table:
        return name
    keys = {_norm(k): k for k in table}
    try:
        return keys[_norm(name)]
    except KeyError:
        raise unknown(kind, str(name), table) from None


@dataclass(frozen=True, slots=True)
class Weapon:
    """A weapon from the seed's table; ``lethality`` None means the attacker's Strength."""

    name: str
    penetration: int
    lethality: int | None
    caliber: str = ""
    category: str = ""


def _load_weapons() -> dict[str, Weapon]:
    out: dict[str, Weapon] = {}
    for row in load_csv("deathwish_weapons.csv"):
        leth = row["lethality"].strip()
        out[row["name"]] = Weapon(
            name=row["name"],
            penetration=int(row["penetration"]),
            lethality=None if leth.lower() == "strength" else int(leth),
            caliber=row["caliber"],
            category=row["category"],
        )
    return out


WEAPONS: Mapping[str, Weapon] = MappingProxyType(_load_weapons())
"""The seed's weapons by name (``deathwish_weapons.csv``)."""

ARMORS: Mapping[str, int] = MappingProxyType(
    {r["name"]: int(r["armor"]) for r in load_csv("deathwish_armors.csv")}
)
"""Armor values by name (``deathwish_armors.csv``; ``helmet`` is a house rule [H])."""

ARMOR_COVERS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {r["name"]: tuple(r["covers"].split()) for r in load_csv("deathwish_armors.csv")}
)
"""The parts each named armor covers when worn alone (vests and plates: torso and vitals;
the helmet: the head) [H] (``deathwish_armors.csv``)."""

LOCATIONS: tuple[str, ...] = tuple(r["location"] for r in load_csv("deathwish_locations.csv"))
"""Hit locations (``deathwish_locations.csv``)."""

AMMUNITION: tuple[str, ...] = tuple(r["ammo"] for r in load_csv("deathwish_ammo.csv"))
"""Ammunition types (``deathwish_ammo.csv``)."""


def find_weapon(name: str) -> Weapon:
    """The weapon called ``name`` (case, spaces and hyphens ignored); SimError otherwise."""
    return WEAPONS[_lookup("weapon", name, WEAPONS)]


def find_armor(name: str) -> int:
    """The Armor value of the armor called ``name``; SimError with a suggestion otherwise."""
    return ARMORS[_lookup("armor", name, ARMORS)]
