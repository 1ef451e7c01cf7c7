"""Deathwish armor by location: a fighter's Armor points on each part of the body.

Follows seed ``001_e5fc2d51799d4e98.txt`` (RULES.md 3: armor counts only on the struck
location).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from sim.errors import SimError, unknown
from sim.rules.deathwish.tables import ARMOR_COVERS, ARMOR_TABLE, ARMORS, LOCATION_TABLE, LOCATIONS

ARMOR_PARTS: tuple[str, ...] = ("head", "torso", "vitals", "limbs")
"""Where a fighter wears armor, as a scenario names it (``limbs``: the ``limb`` hit location)."""

_PART_STRUCK: Mapping[str, str] = MappingProxyType(
    {"torso": "torso", "limb": "limbs", "head": "head", "vitals": "vitals"}
)
"""The armor part that covers each hit location of :data:`LOCATIONS`."""
if set(_PART_STRUCK) != set(LOCATIONS):  # pragma: no cover
    raise RuntimeError("deathwish_locations.csv must list torso, limb, head, vitals")
_COVERED = {part for parts in ARMOR_COVERS.values() for part in parts}
if not _COVERED <= set(ARMOR_PARTS):  # pragma: no cover
    raise RuntimeError(f"deathwish_armors.csv: covers must name parts of {ARMOR_PARTS}")


@dataclass(frozen=True, slots=True)
class WornArmor:
    """A fighter's Armor points on each part of the body; a hit meets only the struck part's.

    The seed: "Lose 1 die for each point of Armor ... the character has on the struck
    location" [S]. ``limbs`` covers the ``limb`` hit location. All parts default to 0.

    Raises:
        SimError: a part's points are not a whole number 0 or more.
    """

    head: int = 0
    torso: int = 0
    vitals: int = 0
    limbs: int = 0

    def __post_init__(self) -> None:
        """Check every part's points."""
        for part in ARMOR_PARTS:
            value = getattr(self, part)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise SimError(
                    f"armor on the {part} must be a whole number 0 or more, got {value!r}"
                )


def body_armor(points: int) -> WornArmor:
    """Body armor of ``points`` (a vest or plates): torso and vitals, not head or limbs [H]."""
    return WornArmor(torso=points, vitals=points)


def armor_by_location(parts: Mapping[str, int]) -> WornArmor:
    """Armor from points per part (keys of :data:`ARMOR_PARTS`, each optional, default 0).

    ``torso`` covers the vitals too unless ``vitals`` is given (a vest or plates over both).

    Raises:
        SimError: an unknown part (with a suggestion) or points that are not 0 or more.
    """
    for part in parts:
        if part not in ARMOR_PARTS:
            raise unknown("armor location", str(part), ARMOR_PARTS)
    points = dict(parts)
    if "torso" in points and "vitals" not in points:
        points["vitals"] = points["torso"]
    return WornArmor(**points)


def worn_armor(armor: WornArmor | int | str) -> WornArmor:
    """One armor value as worn: points or a name from the armor table.

    Points are body armor (:func:`body_armor`); a name puts its points on the parts it
    covers (:data:`ARMOR_COVERS`: a vest or plates torso and vitals, a helmet the head). A
    :class:`WornArmor` is returned as it is.

    Raises:
        SimError: an unknown armor name (with a suggestion) or points below 0.
    """
    if isinstance(armor, WornArmor):
        return armor
    if isinstance(armor, str):
        name = ARMOR_TABLE.find(armor)["name"]
        return armor_by_location(dict.fromkeys(ARMOR_COVERS[name], ARMORS[name]))
    return body_armor(armor)


def armor_on(armor: WornArmor, location: str) -> int:
    """The Armor points ``armor`` has on the struck hit ``location`` (a :data:`LOCATIONS` name) [S].

    Raises:
        SimError: an unknown hit location (with a suggestion).
    """
    part = _PART_STRUCK[LOCATION_TABLE.find(location)["location"]]
    points: int = getattr(armor, part)
    return points
