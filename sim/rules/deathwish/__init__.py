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

The package follows the seed's sections, one module each; this ``__init__`` re-exports the
public API, so ``from sim.rules import deathwish`` then ``deathwish.<name>`` reaches
everything: :mod:`~sim.rules.deathwish.options` (the seed's figures, :class:`Options`),
:mod:`~sim.rules.deathwish.tables` (weapons, armors, hit locations, ammunition),
:mod:`~sim.rules.deathwish.armor` (armor by location), :mod:`~sim.rules.deathwish.wounds`
(Trauma Tolerance, wound thresholds and levels), :mod:`~sim.rules.deathwish.attacks`
(Penetration and Lethality, the damage roll, the to-hit roll),
:mod:`~sim.rules.deathwish.effects` (incapacitation, instant death, cheating death) and
:mod:`~sim.rules.deathwish.aftermath` (who dies untreated, who stays down).
"""

from __future__ import annotations

from sim.rules.deathwish.aftermath import (
    DEFAULT_AFTERMATH_OPTIONS,
    AftermathOptions,
    dies_untreated,
    later_death_chance,
    later_death_dist,
    roll_later_death,
    stays_incapacitated,
    untreated_deadline,
    wounds_to_treat,
)
from sim.rules.deathwish.armor import (
    ARMOR_PARTS,
    WornArmor,
    armor_by_location,
    armor_on,
    body_armor,
    worn_armor,
)
from sim.rules.deathwish.attacks import (
    ammo_modifiers,
    attack_values,
    clamp_lethality,
    cover_difficulty,
    damage_dist,
    hit_chance,
    hit_dist,
    location_modifier,
    roll_damage,
    roll_damage_many,
    roll_to_hit,
    to_hit_target,
)
from sim.rules.deathwish.effects import (
    EFFECTS,
    WoundEffect,
    cheat_death_chance,
    cheat_death_dist,
    effect_dist,
    incapacitation_chance,
    incapacitation_dist,
    instant_death,
    roll_cheat_death,
    roll_effect,
    roll_incapacitated,
    rounds_to_death,
)
from sim.rules.deathwish.options import (
    DEFAULT_OPTIONS,
    DEFAULT_SKILL,
    DIE,
    LETHALITY_MAX,
    LETHALITY_MIN,
    Options,
    make_options,
    option_docs,
)
from sim.rules.deathwish.tables import (
    AMMUNITION,
    ARMOR_COVERS,
    ARMORS,
    LOCATIONS,
    WEAPONS,
    Weapon,
    find_armor,
    find_weapon,
)
from sim.rules.deathwish.wounds import (
    Thresholds,
    WoundLevel,
    thresholds,
    trauma_tolerance,
    wound_difficulty,
    wound_dist,
    wound_level,
)

NAME = "deathwish"
SEED = "001_e5fc2d51799d4e98.txt"
MAX_SIDES: int | None = None
"""Most sides a battle under these rules can have (None: any number of sides)."""
FACTION_POOLS = False
"""Whether a large-scale battle may be fought as faction pools (``battle.large_scale: pools``):
no HD or armor pools of its own to pool."""
FIGHTER_FIELDS: tuple[str, ...] = ("deathwish",)
"""The scenario fighter fields these rules read (others' fields are warned about)."""
POOL_FIELDS: tuple[str, ...] = ("weapon", "shield", "mounted", "two_handed")
"""Fighter fields read only when ``battle.large_scale: pools`` (War Game pools)."""

__all__ = [
    "DEFAULT_OPTIONS",
    "DEFAULT_SKILL",
    "DIE",
    "LETHALITY_MAX",
    "LETHALITY_MIN",
    "Options",
    "make_options",
    "option_docs",
    "AMMUNITION",
    "ARMORS",
    "ARMOR_COVERS",
    "LOCATIONS",
    "WEAPONS",
    "Weapon",
    "find_armor",
    "find_weapon",
    "ARMOR_PARTS",
    "WornArmor",
    "armor_by_location",
    "armor_on",
    "body_armor",
    "worn_armor",
    "Thresholds",
    "WoundLevel",
    "thresholds",
    "trauma_tolerance",
    "wound_difficulty",
    "wound_dist",
    "wound_level",
    "ammo_modifiers",
    "attack_values",
    "clamp_lethality",
    "cover_difficulty",
    "damage_dist",
    "hit_chance",
    "hit_dist",
    "location_modifier",
    "roll_damage",
    "roll_damage_many",
    "roll_to_hit",
    "to_hit_target",
    "EFFECTS",
    "WoundEffect",
    "cheat_death_chance",
    "cheat_death_dist",
    "effect_dist",
    "incapacitation_chance",
    "incapacitation_dist",
    "instant_death",
    "roll_cheat_death",
    "roll_effect",
    "roll_incapacitated",
    "rounds_to_death",
    "AftermathOptions",
    "DEFAULT_AFTERMATH_OPTIONS",
    "dies_untreated",
    "later_death_chance",
    "later_death_dist",
    "roll_later_death",
    "stays_incapacitated",
    "untreated_deadline",
    "wounds_to_treat",
    "FIGHTER_FIELDS",
    "FACTION_POOLS",
    "MAX_SIDES",
    "POOL_FIELDS",
    "NAME",
    "SEED",
]
