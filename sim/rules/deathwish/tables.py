"""Deathwish tables: weapons, armors, hit locations and ammunition, found by name.

Follows seed ``001_e5fc2d51799d4e98.txt`` ("Weapons Table"; RULES.md 3 weapons table and armor;
``deathwish_weapons.csv``, ``deathwish_armors.csv``, ``deathwish_locations.csv``,
``deathwish_ammo.csv``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from sim.rules.common import Table


def _norm(name: str) -> str:
    """Key for forgiving name lookups: case, spaces, hyphens and underscores ignored."""
    return "".join(ch for ch in str(name).lower() if ch not in " -_")


@dataclass(frozen=True, slots=True)
class Weapon:
    """A weapon from the seed's table; ``lethality`` None means the attacker's Strength."""

    name: str
    penetration: int
    lethality: int | None
    caliber: str = ""
    category: str = ""


def _weapon(row: dict[str, str]) -> Weapon:
    leth = row["lethality"].strip()
    return Weapon(
        name=row["name"],
        penetration=int(row["penetration"]),
        lethality=None if leth.lower() == "strength" else int(leth),
        caliber=row["caliber"],
        category=row["category"],
    )


WEAPON_TABLE: Table[Weapon] = Table.from_csv("deathwish_weapons.csv", "weapon", _weapon, key=_norm)
"""The seed's weapons (``deathwish_weapons.csv``), found by name as :func:`find_weapon` does."""

ARMOR_TABLE: Table[dict[str, str]] = Table.from_csv(
    "deathwish_armors.csv", "armor", dict, key=_norm
)
"""The armor rows (``deathwish_armors.csv``): ``name``, ``armor`` points, ``covers``."""

LOCATION_TABLE: Table[dict[str, str]] = Table.from_csv(
    "deathwish_locations.csv", "hit location", dict, key=_norm, name="location"
)
"""Hit locations and their Lethality modifiers (``deathwish_locations.csv``)."""

AMMUNITION_TABLE: Table[dict[str, str]] = Table.from_csv(
    "deathwish_ammo.csv", "ammunition", dict, key=_norm, name="ammo"
)
"""Ammunition types and their modifiers (``deathwish_ammo.csv``)."""

WEAPONS: Mapping[str, Weapon] = MappingProxyType(
    dict(zip(WEAPON_TABLE.names, WEAPON_TABLE.rows, strict=True))
)
"""The seed's weapons by name (``deathwish_weapons.csv``)."""

ARMORS: Mapping[str, int] = MappingProxyType({r["name"]: int(r["armor"]) for r in ARMOR_TABLE})
"""Armor values by name (``deathwish_armors.csv``; ``helmet`` is a house rule [H])."""

ARMOR_COVERS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {r["name"]: tuple(r["covers"].split()) for r in ARMOR_TABLE}
)
"""The parts each named armor covers when worn alone (vests and plates: torso and vitals;
the helmet: the head) [H] (``deathwish_armors.csv``)."""

LOCATIONS: tuple[str, ...] = LOCATION_TABLE.names
"""Hit locations (``deathwish_locations.csv``)."""

AMMUNITION: tuple[str, ...] = AMMUNITION_TABLE.names
"""Ammunition types (``deathwish_ammo.csv``)."""


def find_weapon(name: str) -> Weapon:
    """The weapon called ``name`` (case, spaces and hyphens ignored); SimError otherwise."""
    return WEAPON_TABLE.find(name)


def find_armor(name: str) -> int:
    """The Armor value of the armor called ``name``; SimError with a suggestion otherwise."""
    return ARMORS[ARMOR_TABLE.find(name)["name"]]
