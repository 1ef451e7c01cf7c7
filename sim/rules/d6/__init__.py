"""D6 tiers: opposed D6 rolls, the body roll, damage table tiers, scale and healing.

Follows seed ``003_fd1c4a13f28810ec.txt`` ("Combat and Injuries") as specified in
RULES.md section 4 (with the common ground of section 0). Dice codes are
:class:`sim.dice.D6Code` (``ND+P``, three pips make one die).

Data files (``sim/rules/data``): ``d6_damage_table.csv`` (difference -> tier),
``d6_sizes.csv`` (scale), ``d6_difficulties.csv`` (difficulty numbers [H]),
``d6_modifiers.csv`` (degrees of advantage), ``d6_first_aid.csv`` (stabilize difficulty by
condition [H]).

Options (fields of :class:`Options`; [I] interpretation, [H] house rule):

- ``map_dice_per_action`` = 1 [H]: dice of Multiple Action Penalty per extra action.
- ``map_applies_to_body`` = True [H]: the MAP hits every roll of the round, Body included.
- ``halve_round`` = "down" [I]: rounding when a code (pips) or a total is halved.
- ``two_handed_parry_penalty`` = 2 [I]: the "-2" of a two-handed parry, in pips (off the total).
- ``ride_vs_area`` = "half" [H]: a Ride reaction against an area attack counts half, like dodge.
- ``called_shot_difficulty`` = "1D", ``called_shot_damage`` = "1D" [H]: the seed's defaults
  for the GM's call.
- ``cover_on`` = "difficulty" [I]: a covered target's cover dice go onto the difficulty to hit
  ("body": onto its body roll; "both").
- ``area_dodge_map`` = "each" [I]: each area attack dodged is one action of the Multiple
  Action Penalty ("once": once a round).
- ``outnumber_pips`` = 0 [H]: pips of advantage per ally who attacked the same target earlier
  this round, turned into dice by the modifiers table (0: off).
- ``turn_order`` = "popcorn" [I]: the frame's initiative and popcorn naming, or the seed's
  fixed "cycle" (highest Dexterity first).
- ``body_average`` = "pips_down" [I]: average of Strength and Dexterity codes in pips.
- ``scale_basis`` = "target" [I]: the target's size value as written ("relative": target
  value minus attacker value).
- ``modifier_overlap_16`` = "decisive" [I]: which row of the modifiers table 16 pips is.
- ``stun_penalty`` = "per_stun" [H]: each stun in effect is -1D (``once``: -1D in all).
- ``wound_penalty`` = "per_wound" [H]: Wounded twice is -2D (``once``: -1D).
- ``infection_max`` = 4 [I]: a time-healing Strength total (plus bonus) at most this infects.
- ``first_aid_heal_dice`` = "2D" [H]: the heal dice of first aid.
- ``heal_wounded_twice`` = "one_wound" [H]: a heal treats one of two wounds (``both``: each).
- ``poison_from`` = "wounded" [I]: a poisoned weapon poisons the target of a blow that leaves
  it Wounded or worse ("stunned": any blow that does damage).

Aftermath (:class:`AftermathOptions`, a group apart from the battle's): ``wake`` = "all" [I]
(every Incapacitated patient wakes as Wounded twice on the battle's day; "stabilized": only
those lifted from Mortally wounded), ``untreated_mortal`` = "dies" [H] (a Mortally wounded
patient first aid does not stabilize dies), ``bonus_lasts`` = "next_roll" [I] (a first-aid
bonus counts on the next time-healing roll), ``poison_fails`` = "worsen" [H] (a failed Resist
roll is one spot worse; "by_margin": the margin as a blow), ``first_aid_bonus`` = "both" [I]
(first aid's bonus goes to the time-healing roll and to Resist; "either": only to Resist of
the poisoned), ``raised_as`` = "unhurt" [I] (the resurrected come back unhurt;
"wounded_twice"). Functions: :func:`time_heal_due`,
:func:`rest_day` / :func:`rest_day_dist`, :func:`rest_days_dist`.

The package follows the seed's sections, one module each; this ``__init__`` re-exports the
public API, so ``from sim.rules import d6`` then ``d6.<name>`` reaches everything:
:mod:`~sim.rules.d6.options` (the seed's figures, :class:`Options`),
:mod:`~sim.rules.d6.tiers` (the damage table, damage against body),
:mod:`~sim.rules.d6.conditions` (stacking, penalties, status),
:mod:`~sim.rules.d6.reactions` (halving, reactions, the opposed roll),
:mod:`~sim.rules.d6.difficulty` (difficulty numbers, cover, called shots, scale, modifiers),
:mod:`~sim.rules.d6.attacks` (a whole attack, an area attack), :mod:`~sim.rules.d6.odds` (the
exact odds of a blow, for tactics), :mod:`~sim.rules.d6.rounds` (the seed's turn cycle),
:mod:`~sim.rules.d6.mortal`
(incapacitated and mortally wounded), and the aftermath: :mod:`~sim.rules.d6.healing` (time,
heal dice, first aid), :mod:`~sim.rules.d6.resist` (poison, Resist Disease or Poison),
:mod:`~sim.rules.d6.resurrection` and :mod:`~sim.rules.d6.aftermath`
(days of rest).
"""

from __future__ import annotations

from sim.rules.d6.aftermath import (
    DEFAULT_AFTERMATH_OPTIONS,
    TIME_HEAL_DAYS,
    AftermathOptions,
    rest_day,
    rest_day_dist,
    rest_days_dist,
    time_heal_due,
)
from sim.rules.d6.attacks import (
    MISS,
    AreaTarget,
    AttackResult,
    area_attack_dist,
    attack_dist,
    roll_area_attack,
    roll_attack,
)
from sim.rules.d6.conditions import (
    UNHURT,
    Condition,
    apply_penalty,
    can_act,
    extra_actions,
    is_sprint,
    map_actions,
    penalty_dice,
    stacked,
    status_for,
    stuns_in_effect,
)
from sim.rules.d6.difficulty import (
    NO_MODIFIERS,
    AttackModifiers,
    advantage_degree,
    advantage_dice,
    advantage_from_pips,
    advantage_pips,
    attack_modifiers,
    difficulty_dist,
    difficulty_number,
    outnumber_dice,
    roll_difficulty,
    size_value,
)
from sim.rules.d6.healing import (
    FirstAidResult,
    first_aid,
    first_aid_difficulty,
    first_aid_dist,
    heal,
    heal_dist,
    roll_first_aid,
    roll_heal,
    roll_time_heal,
    time_heal,
    time_heal_dist,
    wake,
)
from sim.rules.d6.mortal import (
    death_round_dist,
    knockout_minutes_dist,
    mortal_check_dist,
    roll_death_round,
    roll_knockout_minutes,
    roll_mortal_check,
)
from sim.rules.d6.odds import blow_dist, blow_harm, harm, reaction_use_dist
from sim.rules.d6.options import (
    COVER_DICE_MAX,
    DEFAULT_OPTIONS,
    HEAL_INTERVAL_DAYS,
    KNOCKOUT_DICE,
    MORTAL_CHECK_DICE,
    NO_DICE,
    REACTIONS,
    RESURRECTION_BODY_PIPS,
    RESURRECTION_HOURS,
    RESURRECTION_OTHER_DICE,
    RESURRECTION_RELIGION,
    RESURRECTION_TIME_HOURS,
    UNARMED_PIPS,
    Options,
)
from sim.rules.d6.reactions import (
    HitResult,
    ReactionUse,
    half_code,
    half_total,
    hit_dist,
    opposed,
    reaction_against,
    reaction_code,
    roll_hit,
)
from sim.rules.d6.resist import (
    POISON_FAILS,
    ResistResult,
    poisons,
    resist_code,
    resist_poison,
    resist_poison_dist,
    roll_resist_poison,
    stronger_poison,
)
from sim.rules.d6.resurrection import (
    RAISED_AS,
    ResurrectionEffects,
    can_resurrect,
    raised_condition,
    resurrection_effects,
    resurrections_per_day,
)
from sim.rules.d6.rounds import cycle_order, cycle_order_dist, roll_cycle_order
from sim.rules.d6.tiers import (
    DamageResult,
    DamageTier,
    body_code,
    roll_damage_vs_body,
    tier_dist,
    tier_floor,
    tier_for,
    unarmed_damage,
    unknown_damage,
)

NAME = "d6"
SEED = "003_fd1c4a13f28810ec.txt"
MAX_SIDES: int | None = None
"""Most sides a battle under these rules can have (None: any number of sides)."""
FACTION_POOLS = False
"""Whether a large-scale battle may be fought as faction pools (``battle.large_scale: pools``):
no HD or armor pools of its own to pool."""
FIGHTER_FIELDS: tuple[str, ...] = ("d6", "mounted", "two_handed")  # Ride; two-handed parry
"""The scenario fighter fields these rules read (others' fields are warned about)."""
POOL_FIELDS: tuple[str, ...] = ("weapon", "shield")
"""Fighter fields read only when ``battle.large_scale: pools`` (War Game pools)."""

__all__ = [
    "COVER_DICE_MAX",
    "DEFAULT_OPTIONS",
    "HEAL_INTERVAL_DAYS",
    "KNOCKOUT_DICE",
    "MORTAL_CHECK_DICE",
    "NO_DICE",
    "Options",
    "REACTIONS",
    "RESURRECTION_BODY_PIPS",
    "RESURRECTION_HOURS",
    "RESURRECTION_OTHER_DICE",
    "RESURRECTION_RELIGION",
    "RESURRECTION_TIME_HOURS",
    "UNARMED_PIPS",
    "DamageResult",
    "DamageTier",
    "body_code",
    "roll_damage_vs_body",
    "tier_dist",
    "tier_floor",
    "tier_for",
    "unarmed_damage",
    "unknown_damage",
    "Condition",
    "UNHURT",
    "apply_penalty",
    "can_act",
    "extra_actions",
    "is_sprint",
    "map_actions",
    "penalty_dice",
    "stacked",
    "status_for",
    "stuns_in_effect",
    "HitResult",
    "ReactionUse",
    "half_code",
    "half_total",
    "hit_dist",
    "opposed",
    "reaction_against",
    "reaction_code",
    "roll_hit",
    "AttackModifiers",
    "NO_MODIFIERS",
    "advantage_degree",
    "advantage_dice",
    "advantage_from_pips",
    "advantage_pips",
    "attack_modifiers",
    "difficulty_dist",
    "difficulty_number",
    "outnumber_dice",
    "roll_difficulty",
    "size_value",
    "AttackResult",
    "AreaTarget",
    "MISS",
    "area_attack_dist",
    "attack_dist",
    "roll_area_attack",
    "roll_attack",
    "blow_dist",
    "blow_harm",
    "harm",
    "reaction_use_dist",
    "cycle_order",
    "cycle_order_dist",
    "roll_cycle_order",
    "death_round_dist",
    "knockout_minutes_dist",
    "mortal_check_dist",
    "roll_death_round",
    "roll_knockout_minutes",
    "roll_mortal_check",
    "FirstAidResult",
    "first_aid",
    "first_aid_difficulty",
    "first_aid_dist",
    "heal",
    "heal_dist",
    "roll_first_aid",
    "roll_heal",
    "roll_time_heal",
    "time_heal",
    "time_heal_dist",
    "wake",
    "POISON_FAILS",
    "ResistResult",
    "poisons",
    "resist_code",
    "resist_poison",
    "resist_poison_dist",
    "roll_resist_poison",
    "stronger_poison",
    "RAISED_AS",
    "ResurrectionEffects",
    "can_resurrect",
    "raised_condition",
    "resurrection_effects",
    "resurrections_per_day",
    "AftermathOptions",
    "DEFAULT_AFTERMATH_OPTIONS",
    "TIME_HEAL_DAYS",
    "rest_day",
    "rest_day_dist",
    "rest_days_dist",
    "time_heal_due",
    "FIGHTER_FIELDS",
    "FACTION_POOLS",
    "MAX_SIDES",
    "POOL_FIELDS",
    "NAME",
    "SEED",
]
