"""D6 tiers options: the seed's figures and the interpretations [I] and house rules [H].

Follows seed ``003_fd1c4a13f28810ec.txt`` (RULES.md 4); every field of :class:`Options` is
listed, with its default, in the docstring of :mod:`sim.rules.d6`.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from fractions import Fraction

from sim.dice import D6Code, DiceError, parse_code
from sim.errors import SimError, did_you_mean
from sim.rules.common import option

UNARMED_PIPS = -2
"""Unarmed damage is Strength minus 2 pips ("2 dots, not 2D") [S]."""
HEAL_INTERVAL_DAYS = 3
"""Days of rest between time-healing rolls [S]."""
KNOCKOUT_DICE = D6Code(10)
"""An incapacitated character takes no actions for 10D minutes [S]."""
MORTAL_CHECK_DICE = D6Code(2)
"""A mortally wounded character rolls 2D each round [S]."""
RESURRECTION_RELIGION = D6Code(4)
"""Religion skill needed to perform the resurrection ritual [S]."""
RESURRECTION_TIME_HOURS = 1
"""A resurrection spell or ritual takes roughly an hour [S]."""
RESURRECTION_BODY_PIPS = 2
"""A resurrected character has -2 to body rolls [S] (read as pips, i.e. -2 on the total)."""
RESURRECTION_OTHER_DICE = 1
"""... and -1D to all other rolls [S] ..."""
RESURRECTION_HOURS = Fraction(12)
"""... for roughly half a day [S]."""
NO_DICE = D6Code(0)
"""0D: no dice."""
COVER_DICE_MAX = 4
"""Cover adds +1D to +4D to the difficulty [S]."""
REACTIONS = ("dodge", "parry", "ride")
"""Reaction skills [S]: dodge, parry (with a weapon), ride (only when mounted)."""


def _code(text: str, where: str) -> D6Code:
    try:
        return parse_code(text)
    except DiceError as err:
        raise SimError(f"{where}: {err}") from None


@dataclass(frozen=True, slots=True)
class Options:
    """The D6 tiers interpretations [I] and house rules [H] (RULES.md 4)."""

    map_dice_per_action: int = option(
        1, "Multiple Action Penalty: dice off every roll per extra action.", tag="H", low=0
    )
    map_applies_to_body: bool = option(
        True,
        "The MAP applies to every roll that round, the Body roll included (the rules say "
        "'every roll'); false exempts Body as the status penalties do.",
        tag="H",
    )
    halve_round: str = option(
        "down",
        "Rounding when something counts half: a sprinter's dodge code (halved in pips) and a "
        "dodge total against an area attack.",
        tag="I",
        choices=("down", "up"),
    )
    two_handed_parry_penalty: int = option(
        2,
        "Penalty in pips (so points off the parry total) for parrying with a two-handed "
        "weapon used to attack this round; not against unarmed attacks.",
        tag="I",
        low=0,
    )
    ride_vs_area: str = option(
        "half",
        "A Ride reaction against an area attack: 'half' counts half like dodge, 'full' counts "
        "whole. Ride never adds MAP [S].",
        tag="H",
        choices=("half", "full"),
    )
    called_shot_difficulty: str = option(
        "1D", "Dice a called shot adds to the difficulty (seed default +1D).", tag="H"
    )
    called_shot_damage: str = option(
        "1D", "Dice a called shot adds to the damage (seed default +1D).", tag="H"
    )
    cover_on: str = option(
        "difficulty",
        "Where a covered target's cover dice go: rolled onto the difficulty to hit "
        "('difficulty': 'Cover and cover spells ... are rolled and added to the difficulty'), "
        "onto its body roll ('body': protection 'of any significant physical sort ... added to "
        "the sum of the body roll'), or onto both ('both').",
        tag="I",
        choices=("difficulty", "body", "both"),
    )
    area_dodge_map: str = option(
        "each",
        "Dodging an area attack is an action of the Multiple Action Penalty: each area attack "
        "dodged is one action ('each'), or dodging area attacks counts once a round ('once': "
        "the dodge roll stands for the round).",
        tag="I",
        choices=("each", "once"),
    )
    outnumber_pips: int = option(
        0,
        "Modifiers table in battle: pips of advantage an attacker gains for each ally who "
        "attacked the same target earlier this round; the pips are turned into dice by the "
        "modifiers table (1-5 pips: +1D ... 16+: +5D) and added to the hit rating (0: off).",
        tag="H",
        low=0,
        high=16,
    )
    turn_order: str = option(
        "popcorn",
        "Turn order: the battle frame's War Game initiative and popcorn naming ('popcorn'), or "
        "the seed's fixed cycle ('cycle': the GM orders everyone once, the highest Dexterity "
        "first, ties taken by the sides in turn from a side drawn at random; every round "
        "returns to the first; latecomers join the end). Default 'popcorn': every rule "
        "system shares the frame's turns, so one scenario fought under each system differs in "
        "its rules alone.",
        tag="I",
        choices=("popcorn", "cycle"),
    )
    body_average: str = option(
        "pips_down",
        "Body = average of the Strength and Dexterity codes in pips, rounded down "
        "('pips_down') or up ('pips_up') to whole pips.",
        tag="I",
        choices=("pips_down", "pips_up"),
    )
    scale_basis: str = option(
        "target",
        "Scale uses the target's size value alone, as the seed's scale rule reads ('target'), "
        "or the target's value minus the attacker's ('relative').",
        tag="I",
        choices=("relative", "target"),
    )
    modifier_overlap_16: str = option(
        "decisive",
        "The seed's modifiers table has decisive 14-16 and overwhelming 16+; 16 pips is "
        "'decisive' (overwhelming from 17) or 'overwhelming' (decisive 14-15).",
        tag="I",
        choices=("decisive", "overwhelming"),
    )
    stun_penalty: str = option(
        "per_stun",
        "Stuns in effect at once: -1D each ('per_stun') or -1D in all ('once').",
        tag="H",
        choices=("per_stun", "once"),
    )
    wound_penalty: str = option(
        "per_wound",
        "Wounded twice: -1D per wound, so -2D ('per_wound'), or -1D in all ('once').",
        tag="H",
        choices=("per_wound", "once"),
    )
    infection_max: int = option(
        4,
        "Time healing: a Strength roll total (plus first-aid bonus) from 1 up to this "
        "infects (one tier worse); above it heals one tier.",
        tag="I",
    )
    first_aid_heal_dice: str = option(
        "2D", "Heal dice of first aid (the seed gives first aid 'a set amount of dice').", tag="H"
    )
    heal_wounded_twice: str = option(
        "one_wound",
        "A heal on a Wounded-twice patient treats one wound ('one_wound') or applies its "
        "total to each of the two wounds ('both').",
        tag="H",
        choices=("one_wound", "both"),
    )
    poison_from: str = option(
        "wounded",
        "A poisoned weapon (a fighter's d6 poison code) poisons the target of a blow that "
        "leaves it Wounded or worse ('wounded'), or of any blow that does damage ('stunned').",
        tag="I",
        choices=("wounded", "stunned"),
    )

    def __post_init__(self) -> None:
        for name in ("called_shot_difficulty", "called_shot_damage", "first_aid_heal_dice"):
            _code(getattr(self, name), f"options.{name}")
        for f in fields(self):
            choices = f.metadata.get("choices")
            value = getattr(self, f.name)
            if choices is not None and value not in choices:
                allowed = ", ".join(repr(c) for c in choices)
                hint = did_you_mean(value, map(str, choices), 0.6) if isinstance(value, str) else ""
                raise SimError(f"options.{f.name}: {value!r} is not one of {allowed}{hint}")


DEFAULT_OPTIONS = Options()
