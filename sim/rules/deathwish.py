"""Deathwish: damage by Penetration and Lethality, Trauma Tolerance, wound thresholds.

Follows seed ``001_e5fc2d51799d4e98.txt`` and implements RULES.md section 3 (with the
half-up rounding of section 0). Pure functions of numbers and a passed-in
``numpy.random.Generator``; every roll has an exact ``*_dist`` counterpart.

Data files (``sim/rules/data``): ``deathwish_weapons.csv``, ``deathwish_armors.csv``,
``deathwish_wound_levels.csv``, ``deathwish_locations.csv``, ``deathwish_ammo.csv``.

Options (fields of :class:`Options`; [I] interpretation, [H] house rule):

- ``threshold_compare`` = ``"meets"`` [I]: damage must meet (or ``"exceeds"``: exceed) a
  threshold to reach its wound level.
- ``limb_lethality`` = -2 [H]: Lethality modifier of limb hits.
- ``hollow_point_penetration`` = -1, ``hollow_point_lethality`` = +1 [H].
- ``armor_piercing_penetration`` = +1, ``armor_piercing_lethality`` = -1 [H].
- ``incapacitate_slight`` = 0, ``incapacitate_moderate`` = 0.25,
  ``incapacitate_serious`` = 0.75, ``incapacitate_critical`` = 1 [H]: chance a new wound
  of that level incapacitates at once.
- ``untreated_serious_rounds`` = 30, ``untreated_critical_rounds`` = 5 [H]: rounds an
  untreated Serious / Critical wound takes to kill.
- ``instant_death_multiple`` = 2 [H]: a Critical wound whose damage is at least this many
  times the Critical threshold kills at once, unless the cheat-death roll succeeds.
- ``cheat_death_dice`` = 3, ``cheat_death`` = 1 [H]: the cheat-death roll throws
  ``cheat_death_dice`` d10 and succeeds if any shows ``cheat_death`` or less (the seed's
  "chuck a few dice"; 0 dice = no chance).
- ``cover_difficulty_per_point`` = 1 [H]: to-hit difficulty per point of the target's cover.

Armor by location (RULES.md 3: armor counts only on the struck location [S]):
:class:`WornArmor` holds a fighter's Armor points on each part (``head``, ``torso``,
``vitals``, ``limbs``); :func:`armor_on` gives the points on a struck hit location;
:func:`body_armor` is a vest or plates (torso and vitals [H]); :func:`armor_by_location`
builds one from points per part (``torso`` covers the vitals too unless ``vitals`` is given);
:func:`worn_armor` reads one value (points: body armor; a name: the parts its table row
covers, :data:`ARMOR_COVERS`; the ``helmet`` row, Armor 2 on the head, is a house rule [H]).

Aftermath (:class:`AftermathOptions`, a group apart from the battle's; all [H]):
``serious_minutes`` = 180 and ``critical_minutes`` = 10 (treatment must start by then),
``reach_minutes`` = 0, ``critical_later_death`` = 0, ``incapacitated_from`` = ``serious``.
Functions: :func:`untreated_deadline`, :func:`wounds_to_treat`, :func:`dies_untreated`,
:func:`stays_incapacitated`, :func:`later_death_chance` / :func:`later_death_dist` /
:func:`roll_later_death`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from functools import cache
from types import MappingProxyType

import numpy as np

from sim.dice import Dist, roll_faces
from sim.errors import SimError, unknown
from sim.rules.common import build_options, describe_options, load_csv, option, round_half_up

NAME = "deathwish"
SEED = "001_e5fc2d51799d4e98.txt"

__all__ = [
    "ARMORS",
    "ARMOR_COVERS",
    "ARMOR_PARTS",
    "WornArmor",
    "armor_by_location",
    "armor_on",
    "body_armor",
    "worn_armor",
    "AftermathOptions",
    "DEFAULT_AFTERMATH_OPTIONS",
    "dies_untreated",
    "later_death_chance",
    "later_death_dist",
    "roll_later_death",
    "stays_incapacitated",
    "untreated_deadline",
    "wounds_to_treat",
    "DEFAULT_OPTIONS",
    "DEFAULT_SKILL",
    "EFFECTS",
    "LETHALITY_MAX",
    "LETHALITY_MIN",
    "LOCATIONS",
    "AMMUNITION",
    "NAME",
    "SEED",
    "WEAPONS",
    "Options",
    "Thresholds",
    "Weapon",
    "WoundEffect",
    "WoundLevel",
    "ammo_modifiers",
    "attack_values",
    "cheat_death_chance",
    "cheat_death_dist",
    "clamp_lethality",
    "cover_difficulty",
    "damage_dist",
    "effect_dist",
    "find_armor",
    "find_weapon",
    "hit_chance",
    "hit_dist",
    "incapacitation_chance",
    "incapacitation_dist",
    "instant_death",
    "location_modifier",
    "make_options",
    "option_docs",
    "roll_cheat_death",
    "roll_damage",
    "roll_damage_many",
    "roll_effect",
    "roll_incapacitated",
    "roll_to_hit",
    "rounds_to_death",
    "thresholds",
    "to_hit_target",
    "trauma_tolerance",
    "wound_difficulty",
    "wound_dist",
    "wound_level",
]

DIE = 10
DEFAULT_SKILL = 5  # "attacker's skill (default 5)" [H]: a fighter whose stat block names none
"""Deathwish rolls d10s."""
LETHALITY_MIN = 2
"""Lethality can't be lowered below 2 ... for any reason [S]."""
LETHALITY_MAX = 8
"""... or raised above 8 [S]."""


# --------------------------------------------------------------------------- options
@dataclass(frozen=True, slots=True)
class Options:
    """Deathwish interpretations [I] and house rules [H] (RULES.md 3)."""

    threshold_compare: str = option(
        "meets",
        "wound level = highest threshold the damage meets (or exceeds); the seed says "
        "'exceeds' but its TT 5 example (1-2 points Slight) needs 'meets'",
        tag="I",
        choices=("meets", "exceeds"),
    )
    limb_lethality: int = option(-2, "Lethality modifier of limb hits", low=-6, high=6)
    hollow_point_penetration: int = option(
        -1, "Penetration modifier of hollow-point ammunition", low=-10, high=10
    )
    hollow_point_lethality: int = option(
        1, "Lethality modifier of hollow-point ammunition", low=-6, high=6
    )
    armor_piercing_penetration: int = option(
        1, "Penetration modifier of armor-piercing ammunition", low=-10, high=10
    )
    armor_piercing_lethality: int = option(
        -1, "Lethality modifier of armor-piercing ammunition", low=-6, high=6
    )
    incapacitate_slight: float = option(
        0.0, "chance a new Slight wound incapacitates at once", low=0, high=1
    )
    incapacitate_moderate: float = option(
        0.25, "chance a new Moderate wound incapacitates at once", low=0, high=1
    )
    incapacitate_serious: float = option(
        0.75, "chance a new Serious wound incapacitates at once", low=0, high=1
    )
    incapacitate_critical: float = option(
        1.0, "chance a new Critical wound incapacitates at once", low=0, high=1
    )
    untreated_serious_rounds: int = option(
        30, "rounds after which an untreated Serious wound kills", low=1
    )
    untreated_critical_rounds: int = option(
        5, "rounds after which an untreated Critical wound kills", low=1
    )
    instant_death_multiple: int = option(
        2,
        "a Critical wound with damage >= this many times the Critical threshold kills at "
        "once unless the cheat-death roll succeeds",
        low=1,
    )
    cheat_death_dice: int = option(
        3, "d10s thrown for the cheat-death roll (0: no chance)", low=0, high=100
    )
    cheat_death: int = option(
        1, "cheat-death target: succeeds if any cheat-death die shows this or less", low=0, high=10
    )
    cover_difficulty_per_point: int = option(
        1, "to-hit difficulty per point of the target's cover", low=0, high=10
    )


DEFAULT_OPTIONS = Options()


def make_options(values: dict[str, object] | None = None, where: str = "options") -> Options:
    """Build :class:`Options` from a plain dict, with clear errors for bad names or values."""
    result: Options = build_options(Options, dict(values or {}), where)
    return result


def option_docs() -> list[dict[str, object]]:
    """Name, default, tag, choices and meaning of every option."""
    return describe_options(Options)


def _prob(p: float | int | Fraction) -> Fraction:
    """A probability option as an exact Fraction (0.25 -> 1/4, 0.1 -> 1/10)."""
    return p if isinstance(p, Fraction) else Fraction(str(p))


# --------------------------------------------------------------------------- data
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


# --------------------------------------------------------------------------- armor by location
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
        name = _lookup("armor", armor, ARMORS)
        return armor_by_location(dict.fromkeys(ARMOR_COVERS[name], ARMORS[name]))
    return body_armor(armor)


def armor_on(armor: WornArmor, location: str) -> int:
    """The Armor points ``armor`` has on the struck hit ``location`` (a :data:`LOCATIONS` name) [S].

    Raises:
        SimError: an unknown hit location (with a suggestion).
    """
    part = _PART_STRUCK[_lookup("hit location", location, _PART_STRUCK)]
    points: int = getattr(armor, part)
    return points


# --------------------------------------------------------------------------- wounds
class WoundLevel(StrEnum):
    """The four wound levels, least to worst (seed: "Wound Thresholds")."""

    SLIGHT = "slight"
    MODERATE = "moderate"
    SERIOUS = "serious"
    CRITICAL = "critical"

    @property
    def difficulty(self) -> int:
        """Difficulty this wound adds to every task (Slight +1 ... Critical +4) [S]."""
        return _LEVEL_DIFFICULTY[self.value]


_LEVEL_ROWS = load_csv("deathwish_wound_levels.csv")
_LEVEL_DIFFICULTY: dict[str, int] = {r["level"]: int(r["difficulty"]) for r in _LEVEL_ROWS}
_LEVEL_MULTIPLE: dict[str, Fraction] = {r["level"]: Fraction(r["threshold"]) for r in _LEVEL_ROWS}
if [r["level"] for r in _LEVEL_ROWS] != [lv.value for lv in WoundLevel]:  # pragma: no cover
    raise RuntimeError("deathwish_wound_levels.csv must list slight, moderate, serious, critical")

EFFECTS: tuple[str, ...] = ("unhurt", "wounded", "incapacitated", "dead")
"""Immediate outcomes of a hit (:func:`effect_dist`, :attr:`WoundEffect.effect`)."""


def trauma_tolerance(body: int, strength: int, traits: int = 0) -> int:
    """Trauma Tolerance: round_half_up((Body + Strength) / 2) + trait modifiers [S].

    Raises:
        SimError: if Body or Strength is below 1 or the result is below 1.
    """
    if body < 1 or strength < 1:
        raise SimError(f"Body and Strength must be 1 or more, got {body} and {strength}")
    tt = round_half_up(Fraction(body + strength, 2)) + traits
    if tt < 1:
        raise SimError(f"trauma tolerance must be 1 or more, got {tt}")
    return tt


@dataclass(frozen=True, slots=True)
class Thresholds:
    """The four wound thresholds of one character."""

    slight: int
    moderate: int
    serious: int
    critical: int

    def of(self, level: WoundLevel | str) -> int:
        """The threshold of ``level``."""
        value: int = getattr(self, WoundLevel(level).value)
        return value


def thresholds(tt: int) -> Thresholds:
    """Wound thresholds for Trauma Tolerance ``tt``: TT/4, TT/2, TT, 2·TT, half up [S].

    Raises:
        SimError: if ``tt`` is below 1.
    """
    if tt < 1:
        raise SimError(f"trauma tolerance must be 1 or more, got {tt}")
    v = {lv: round_half_up(tt * m) for lv, m in _LEVEL_MULTIPLE.items()}
    return Thresholds(v["slight"], v["moderate"], v["serious"], v["critical"])


def wound_level(
    damage: int, thr: Thresholds, options: Options = DEFAULT_OPTIONS
) -> WoundLevel | None:
    """The wound ``damage`` inflicts: the highest threshold met (or exceeded); None below Slight.

    Damage of 0 or less never wounds, whatever the thresholds.
    """
    if damage <= 0:
        return None
    exceeds = options.threshold_compare == "exceeds"
    for level in reversed(WoundLevel):
        t = thr.of(level)
        if damage > t or (not exceeds and damage == t):
            return level
    return None


def wound_dist(damage: Dist, thr: Thresholds, options: Options = DEFAULT_OPTIONS) -> Dist:
    """Exact distribution of the wound level ("none", "slight", ... "critical") from damage."""

    def level(d: int) -> str:
        lv = wound_level(d, thr, options)
        return "none" if lv is None else lv.value

    return damage.map(level)


def wound_difficulty(wounds: Iterable[WoundLevel | str]) -> int:
    """Total difficulty of a character's wounds: each adds its level (1..4) [S]."""
    return sum(WoundLevel(w).difficulty for w in wounds)


# --------------------------------------------------------------------------- attacks
def clamp_lethality(lethality: int) -> int:
    """Lethality held within 2..8, "for any reason" [S]."""
    return max(LETHALITY_MIN, min(LETHALITY_MAX, lethality))


def location_modifier(location: str, options: Options = DEFAULT_OPTIONS) -> int:
    """Lethality modifier of a hit location (torso 0, limb option, head +2, vitals +2)."""
    key = _lookup("hit location", location, dict.fromkeys(LOCATIONS))
    row = next(r for r in load_csv("deathwish_locations.csv") if r["location"] == key)
    if row["option"]:
        value: int = getattr(options, row["option"])
        return value
    return int(row["lethality"])


def ammo_modifiers(ammo: str, options: Options = DEFAULT_OPTIONS) -> tuple[int, int]:
    """(Penetration, Lethality) modifiers of an ammunition type."""
    key = _lookup("ammunition", ammo, dict.fromkeys(AMMUNITION))
    row = next(r for r in load_csv("deathwish_ammo.csv") if r["ammo"] == key)
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
    penetration: int, lethality: int, armor: int, cover: int, rng: np.random.Generator
) -> int:
    """Roll damage once (see :func:`damage_dist`)."""
    _check_damage_args(lethality, armor, cover)
    faces = roll_faces(rng, DIE, _dice(penetration, armor, cover))
    return int(faces[faces <= lethality].sum())


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


# --------------------------------------------------------------------------- to-hit
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
    return int(roll_faces(rng, DIE, 1)[0]) <= target


# --------------------------------------------------------------------------- incapacitation, death
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


# --------------------------------------------------------------------------- aftermath
@dataclass(frozen=True, slots=True)
class AftermathOptions:
    """Deathwish aftermath house rules [H] (RULES.md 3: who dies untreated, who stays down).

    A group of its own, apart from :class:`Options`, so the battle's options are unchanged.
    """

    serious_minutes: int = option(
        180,
        "an untreated Serious wound kills this many minutes after the battle unless a healer "
        "starts treating it by then (the seed: 'within a few hours')",
        low=0,
    )
    critical_minutes: int = option(
        10,
        "an untreated Critical wound kills this many minutes after the battle unless a healer "
        "starts treating it by then (the seed: 'in minutes')",
        low=0,
    )
    reach_minutes: int = option(
        0, "minutes after the battle before a healer can start on the first patient", low=0
    )
    critical_later_death: float = option(
        0.0,
        "chance that each treated Critical wound still kills on the day after the battle "
        "(the seed: 'they'll still probably die later', with no figure)",
        low=0,
        high=1,
    )
    incapacitated_from: str = option(
        "serious",
        "after the battle a survivor stays incapacitated while it carries a wound of this "
        "level or worse (serious, critical), or keeps its battle status (as_battle)",
        choices=("serious", "critical", "as_battle"),
    )


DEFAULT_AFTERMATH_OPTIONS = AftermathOptions()


def untreated_deadline(
    wounds: Iterable[WoundLevel | str], aftermath: AftermathOptions = DEFAULT_AFTERMATH_OPTIONS
) -> int | None:
    """Minutes after the battle by which treatment must start, or None if nothing kills [H].

    The earliest over the wounds: Serious ``serious_minutes``, Critical ``critical_minutes``;
    Slight and Moderate wounds never kill.
    """
    limits = {
        WoundLevel.SERIOUS: aftermath.serious_minutes,
        WoundLevel.CRITICAL: aftermath.critical_minutes,
    }
    times = [limits[WoundLevel(w)] for w in wounds if WoundLevel(w) in limits]
    return min(times) if times else None


def wounds_to_treat(wounds: Iterable[WoundLevel | str]) -> int:
    """Wounds a healer must treat to save the patient: its Serious and Critical ones [H]."""
    return sum(1 for w in wounds if WoundLevel(w) in (WoundLevel.SERIOUS, WoundLevel.CRITICAL))


def dies_untreated(
    wounds: Iterable[WoundLevel | str],
    treated_at: Fraction | int | None,
    aftermath: AftermathOptions = DEFAULT_AFTERMATH_OPTIONS,
) -> bool:
    """Whether the patient dies before treatment starts ``treated_at`` minutes after the battle.

    None means no treatment at all. Treatment that starts exactly at the deadline saves [H].
    """
    deadline = untreated_deadline(wounds, aftermath)
    if deadline is None:
        return False
    return treated_at is None or treated_at > deadline


def stays_incapacitated(
    wounds: Iterable[WoundLevel | str],
    incapacitated_in_battle: bool,
    aftermath: AftermathOptions = DEFAULT_AFTERMATH_OPTIONS,
) -> bool:
    """Whether a survivor is incapacitated after the battle (``incapacitated_from``) [H]."""
    if aftermath.incapacitated_from == "as_battle":
        return incapacitated_in_battle
    order = list(WoundLevel)
    floor = order.index(WoundLevel(aftermath.incapacitated_from))
    return any(order.index(WoundLevel(w)) >= floor for w in wounds)


def later_death_chance(
    wounds: Iterable[WoundLevel | str], aftermath: AftermathOptions = DEFAULT_AFTERMATH_OPTIONS
) -> Fraction:
    """Chance a treated patient still dies later: any Critical wound kills with the option's p."""
    p = _prob(aftermath.critical_later_death)
    n = sum(1 for w in wounds if WoundLevel(w) is WoundLevel.CRITICAL)
    return 1 - (1 - p) ** n


def later_death_dist(
    wounds: Iterable[WoundLevel | str], aftermath: AftermathOptions = DEFAULT_AFTERMATH_OPTIONS
) -> Dist:
    """Exact distribution of :func:`roll_later_death`: True (dies) or False."""
    p = later_death_chance(wounds, aftermath)
    return Dist({True: p, False: 1 - p})


def roll_later_death(
    wounds: Iterable[WoundLevel | str],
    rng: np.random.Generator,
    aftermath: AftermathOptions = DEFAULT_AFTERMATH_OPTIONS,
) -> bool:
    """Roll whether a treated patient's Critical wounds still kill (one draw per Critical)."""
    p = float(_prob(aftermath.critical_later_death))
    crit = sum(1 for w in wounds if WoundLevel(w) is WoundLevel.CRITICAL)
    if p == 0 or crit == 0:
        return False
    return bool((rng.random(crit) < p).any())
