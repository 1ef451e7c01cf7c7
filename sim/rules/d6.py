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
- ``body_average`` = "pips_down" [I]: average of Strength and Dexterity codes in pips.
- ``scale_basis`` = "target" [I]: the target's size value as written ("relative": target
  value minus attacker value).
- ``modifier_overlap_16`` = "decisive" [I]: which row of the modifiers table 16 pips is.
- ``stun_penalty`` = "per_stun" [H]: each stun in effect is -1D (``once``: -1D in all).
- ``wound_penalty`` = "per_wound" [H]: Wounded twice is -2D (``once``: -1D).
- ``infection_max`` = 4 [I]: a time-healing Strength total (plus bonus) at most this infects.
- ``first_aid_heal_dice`` = "2D" [H]: the heal dice of first aid.
- ``heal_wounded_twice`` = "one_wound" [H]: a heal treats one of two wounds (``both``: each).
- ``heal_stunned`` = "stunned" [I]: a heal landing in the Stunned band leaves the patient
  Stunned ("healed": counts as healed).
- ``wando_pea_halves`` = "penalties" [I]: Wando Pea halves the penalties (or the duration).

Aftermath (:class:`AftermathOptions`, a group apart from the battle's): ``wake`` = "all" [I]
(every Incapacitated patient wakes as Wounded twice on the battle's day; "stabilized": only
those lifted from Mortally wounded), ``untreated_mortal`` = "dies" [H] (a Mortally wounded
patient first aid does not stabilize dies), ``bonus_lasts`` = "next_roll" [I] (a first-aid
bonus counts on the next time-healing roll). Functions: :func:`time_heal_due`,
:func:`rest_day` / :func:`rest_day_dist`, :func:`rest_days_dist`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, fields
from enum import StrEnum
from fractions import Fraction
from functools import cache, lru_cache

import numpy as np

from sim.dice import D6Code, DiceError, Dist, parse_code
from sim.errors import SimError, unknown
from sim.rules.common import Status, load_csv, option

NAME = "d6"
SEED = "003_fd1c4a13f28810ec.txt"

__all__ = [
    "NAME",
    "TIME_HEAL_DAYS",
    "AftermathOptions",
    "DEFAULT_AFTERMATH_OPTIONS",
    "rest_day",
    "rest_day_dist",
    "rest_days_dist",
    "time_heal_due",
    "SEED",
    "AttackModifiers",
    "AttackResult",
    "Condition",
    "DamageResult",
    "DamageTier",
    "FirstAidResult",
    "HitResult",
    "Options",
    "ReactionUse",
    "ResurrectionEffects",
    "DEFAULT_OPTIONS",
    "MISS",
    "NO_DICE",
    "NO_MODIFIERS",
    "REACTIONS",
    "UNHURT",
    "advantage_degree",
    "advantage_dice",
    "advantage_pips",
    "apply_penalty",
    "attack_dist",
    "attack_modifiers",
    "body_code",
    "can_act",
    "can_resurrect",
    "death_round_dist",
    "difficulty_dist",
    "difficulty_number",
    "extra_actions",
    "first_aid",
    "first_aid_difficulty",
    "first_aid_dist",
    "half_code",
    "half_total",
    "heal",
    "heal_dist",
    "hit_dist",
    "is_sprint",
    "knockout_minutes_dist",
    "mortal_check_dist",
    "opposed",
    "penalty_dice",
    "reaction_against",
    "reaction_code",
    "resurrection_effects",
    "roll_attack",
    "roll_damage_vs_body",
    "roll_death_round",
    "roll_difficulty",
    "roll_first_aid",
    "roll_heal",
    "roll_hit",
    "roll_knockout_minutes",
    "roll_mortal_check",
    "roll_time_heal",
    "size_value",
    "stacked",
    "status_for",
    "stuns_in_effect",
    "tier_dist",
    "tier_floor",
    "tier_for",
    "time_heal",
    "time_heal_dist",
    "unarmed_damage",
    "unknown_damage",
    "wake",
]

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
    heal_stunned: str = option(
        "stunned",
        "A heal whose difference lands in the Stunned band leaves the patient Stunned, the "
        "tier of the difference as the seed says ('stunned'), or counts as healed ('healed').",
        tag="I",
        choices=("stunned", "healed"),
    )
    heal_wounded_twice: str = option(
        "one_wound",
        "A heal on a Wounded-twice patient treats one wound ('one_wound') or applies its "
        "total to each of the two wounds ('both').",
        tag="H",
        choices=("one_wound", "both"),
    )
    wando_pea_halves: str = option(
        "penalties",
        "Wando Pea flowers halve the resurrection penalties ('penalties') or their duration "
        "('duration').",
        tag="I",
        choices=("penalties", "duration"),
    )

    def __post_init__(self) -> None:
        for name in ("called_shot_difficulty", "called_shot_damage", "first_aid_heal_dice"):
            _code(getattr(self, name), f"options.{name}")
        for f in fields(self):
            choices = f.metadata.get("choices")
            if choices is not None and getattr(self, f.name) not in choices:
                allowed = ", ".join(repr(c) for c in choices)
                raise SimError(
                    f"options.{f.name}: {getattr(self, f.name)!r} is not one of {allowed}"
                )


DEFAULT_OPTIONS = Options()


# ---------------------------------------------------------------------------------------
# Tiers and the damage table
# ---------------------------------------------------------------------------------------
class DamageTier(StrEnum):
    """Rows of the damage table, in order of severity; the value is the tier's name."""

    NONE = "none"
    STUNNED = "stunned"
    WOUNDED = "wounded"
    INCAPACITATED = "incapacitated"
    MORTALLY_WOUNDED = "mortally_wounded"
    DEAD = "dead"

    @property
    def rank(self) -> int:
        """Severity, 0 (none) to 5 (dead). Compare tiers by rank, not by ``<`` on names."""
        return _TIER_ORDER.index(self)


_TIER_ORDER: tuple[DamageTier, ...] = tuple(DamageTier)


@cache
def _damage_rows() -> tuple[tuple[int, int | None, DamageTier], ...]:
    rows = []
    for r in load_csv("d6_damage_table.csv"):
        high = int(r["max_difference"]) if r["max_difference"] else None
        rows.append((int(r["min_difference"]), high, DamageTier(r["tier"])))
    return tuple(rows)


def tier_for(difference: int) -> DamageTier:
    """The damage-table tier of ``difference`` = damage roll - body roll (<= 0 is none)."""
    for low, high, tier in _damage_rows():
        if difference >= low and (high is None or difference <= high):
            return tier
    return DamageTier.NONE


def tier_floor(tier: DamageTier | str) -> int:
    """The lowest difference that gives ``tier`` (stunned 1, wounded 4, ... dead 16)."""
    t = _tier(tier)
    for low, _high, row_tier in _damage_rows():
        if row_tier is t:
            return low
    raise SimError(f"tier {t.value!r} has no row in the damage table")


def unknown_damage(tier: DamageTier | str) -> int:
    """Damage to heal from when the real figure is unknown: the tier's lowest value + 1 [S]."""
    return tier_floor(tier) + 1


def _tier(tier: DamageTier | str) -> DamageTier:
    try:
        return DamageTier(tier)
    except ValueError:
        raise unknown("damage tier", str(tier), [t.value for t in DamageTier]) from None


@lru_cache(maxsize=512)
def _code_dist(code: D6Code) -> Dist:
    return code.dist()


@dataclass(frozen=True, slots=True)
class DamageResult:
    """A damage roll against a body roll and the tier of the difference."""

    damage: int
    body: int
    difference: int
    tier: DamageTier


def roll_damage_vs_body(damage: D6Code, body: D6Code, rng: np.random.Generator) -> DamageResult:
    """Roll damage, then body; the damage must beat the body roll (a tie is no damage) [S]."""
    d = damage.roll(rng)
    b = body.roll(rng)
    return DamageResult(d, b, d - b, tier_for(d - b))


def tier_dist(damage: D6Code, body: D6Code) -> Dist:
    """Exact distribution of the tier name (``"none"``, ``"stunned"``, ...) of damage vs body."""
    return _code_dist(damage).combine(_code_dist(body), lambda d, b: tier_for(d - b).value)


def unarmed_damage(strength: D6Code) -> D6Code:
    """Unarmed damage code: Strength - 2 pips [S] (never below 0D)."""
    return strength.plus_pips(UNARMED_PIPS)


def body_code(
    strength: D6Code,
    dexterity: D6Code,
    armor: D6Code = NO_DICE,
    options: Options = DEFAULT_OPTIONS,
) -> D6Code:
    """Body = average of Strength and Dexterity [I: in pips, rounded down] + armor/shield dice."""
    total = strength.total_pips + dexterity.total_pips
    avg = total // 2 if options.body_average == "pips_down" else (total + 1) // 2
    return D6Code.from_pips(avg) + armor


# ---------------------------------------------------------------------------------------
# Conditions: stacking, effects, status
# ---------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Condition:
    """A character's injury: its worst tier, and for Wounded how many wounds (1 or 2).

    ``STUNNED`` means stunned and nothing worse; the -1D of a stun is timed (this round and
    the next) and is counted by :func:`stuns_in_effect`, not by the condition.
    """

    tier: DamageTier = DamageTier.NONE
    wounds: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "tier", _tier(self.tier))
        if self.tier is DamageTier.WOUNDED:
            if self.wounds not in (1, 2):
                raise SimError(f"a wounded condition has 1 or 2 wounds, got {self.wounds}")
        elif self.wounds:
            raise SimError(f"only wounded carries wounds, got {self.wounds} with {self.tier}")

    @staticmethod
    def of(tier: DamageTier | str, wounds: int | None = None) -> Condition:
        """The condition of ``tier`` (Wounded gets 1 wound unless ``wounds`` says 2)."""
        t = _tier(tier)
        if t is DamageTier.WOUNDED:
            return Condition(t, 1 if wounds is None else wounds)
        return Condition(t, wounds or 0)

    @staticmethod
    def from_label(label: str) -> Condition:
        """The condition named ``label`` ("wounded_twice" included)."""
        if label == "wounded_twice":
            return Condition(DamageTier.WOUNDED, 2)
        return Condition.of(label)

    @staticmethod
    def from_rank(rank: int) -> Condition:
        """The condition at ``rank`` on the ladder (see :attr:`rank`), clamped to 0..6."""
        return _LADDER[min(max(rank, 0), len(_LADDER) - 1)]

    @property
    def rank(self) -> int:
        """Spot on the ladder ("wounded has two spots").

        none 0, stunned 1, wounded 2, wounded twice 3, incapacitated 4, mortally wounded 5,
        dead 6.
        """
        if self.tier is DamageTier.WOUNDED:
            return 1 + self.wounds
        r = self.tier.rank
        return r if r <= 1 else r + 1

    @property
    def label(self) -> str:
        """Name of the ladder spot, e.g. ``"wounded_twice"``."""
        return "wounded_twice" if self.wounds == 2 else self.tier.value

    def __str__(self) -> str:
        return self.label


_LADDER: tuple[Condition, ...] = (
    Condition(DamageTier.NONE),
    Condition(DamageTier.STUNNED),
    Condition(DamageTier.WOUNDED, 1),
    Condition(DamageTier.WOUNDED, 2),
    Condition(DamageTier.INCAPACITATED),
    Condition(DamageTier.MORTALLY_WOUNDED),
    Condition(DamageTier.DEAD),
)
UNHURT = _LADDER[0]
"""The condition of a character without injury."""
_RANK_OF_TIER = {c.tier: c.rank for c in _LADDER if c.wounds < 2}


def stacked(current: Condition, new: DamageTier | str) -> Condition:
    """The condition after a new damage result ``new`` lands on ``current`` [S].

    Stunned any number of times (a stun never worsens a worse condition); Wounded twice;
    after that any result of 4+ (wounded or worse) moves the character one spot worse. In
    general a result of Wounded or worse gives the worse of its own spot and one spot past
    the current one: wounded + wounded = wounded twice, wounded twice + wounded =
    incapacitated, incapacitated + wounded = mortally wounded, mortally wounded + wounded =
    dead; wounded + incapacitated = incapacitated.
    """
    t = _tier(new)
    if current.tier is DamageTier.DEAD or t is DamageTier.NONE:
        return current
    if t is DamageTier.STUNNED:
        return current if current.rank >= 1 else _LADDER[1]
    return Condition.from_rank(max(_RANK_OF_TIER[t], current.rank + 1))


def can_act(condition: Condition) -> bool:
    """Whether the character may act: not incapacitated, mortally wounded or dead."""
    return condition.rank < _RANK_OF_TIER[DamageTier.INCAPACITATED]


def status_for(condition: Condition) -> Status:
    """Fighter status (RULES.md 0): incapacitated or mortally wounded -> incapacitated."""
    if condition.tier is DamageTier.DEAD:
        return Status.DEAD
    return Status.ACTIVE if can_act(condition) else Status.INCAPACITATED


def stuns_in_effect(stun_rounds: Iterable[int], current_round: int) -> int:
    """How many stuns weigh on ``current_round``: those taken this round or the last [S]."""
    return sum(1 for r in stun_rounds if 0 <= current_round - r <= 1)


def extra_actions(regular: int = 1, moves: int = 1, map_reactions: int = 0) -> int:
    """Actions beyond one regular and one move action (a sprint swaps the regular for a move).

    ``map_reactions`` counts reactions that add MAP (dodging an area attack). Free actions
    never count.
    """
    if min(regular, moves, map_reactions) < 0:
        raise SimError("action counts must be 0 or more")
    spare_moves = 2 if regular == 0 else 1
    return max(0, regular - 1) + max(0, moves - spare_moves) + map_reactions


def is_sprint(regular: int, moves: int) -> bool:
    """A sprint: the regular action forfeited for a second move [S]."""
    return regular == 0 and moves >= 2


def penalty_dice(
    condition: Condition = UNHURT,
    *,
    stuns: int = 0,
    extra: int = 0,
    body: bool = False,
    options: Options = DEFAULT_OPTIONS,
) -> int:
    """Dice taken off a roll this round: MAP, stuns in effect, wounds [S/H].

    Status penalties spare the Body roll [S]; the MAP spares it only if
    ``map_applies_to_body`` is off.
    """
    dice = 0
    if not body or options.map_applies_to_body:
        dice += extra * options.map_dice_per_action
    if not body:
        dice += stuns if options.stun_penalty == "per_stun" else min(stuns, 1)
        dice += (
            condition.wounds if options.wound_penalty == "per_wound" else min(condition.wounds, 1)
        )
    return dice


def apply_penalty(code: D6Code, dice: int) -> D6Code:
    """``code`` less ``dice`` whole dice, never below 0D."""
    return code.plus_dice(-dice)


# ---------------------------------------------------------------------------------------
# Halving, reactions and the opposed roll
# ---------------------------------------------------------------------------------------
def half_total(total: int, options: Options = DEFAULT_OPTIONS) -> int:
    """Half of a total, rounded as ``halve_round`` says."""
    return total // 2 if options.halve_round == "down" else (total + 1) // 2


def half_code(code: D6Code, options: Options = DEFAULT_OPTIONS) -> D6Code:
    """Half of a code, in pips [I]: 4D -> 2D, 3D+1 (10 pips) -> 1D+2, 3D -> 1D+1 (down)."""
    return D6Code.from_pips(half_total(code.total_pips, options))


def _reaction_kind(kind: str) -> str:
    if kind not in REACTIONS:
        raise unknown("reaction", kind, REACTIONS)
    return kind


def reaction_code(
    skill: D6Code,
    kind: str = "dodge",
    *,
    sprinting: bool = False,
    mounted: bool = False,
    penalty: int = 0,
    options: Options = DEFAULT_OPTIONS,
) -> D6Code:
    """The code a character rolls for its reaction this round.

    A sprinter rolls half its dodge [S]; the half is taken before the ``penalty`` dice
    (MAP, stuns, wounds) come off [I]. Ride needs a mount [S].
    """
    kind = _reaction_kind(kind)
    if kind == "ride" and not mounted:
        raise SimError("only a mounted character can react with ride")
    code = half_code(skill, options) if (kind == "dodge" and sprinting) else skill
    return apply_penalty(code, penalty)


@dataclass(frozen=True, slots=True)
class ReactionUse:
    """A round's reaction total as it counts against one attack, and whether it adds MAP."""

    total: int
    adds_map: bool


def reaction_against(
    total: int,
    kind: str = "dodge",
    *,
    area: bool = False,
    ranged: bool = False,
    two_handed_attacked: bool = False,
    attacker_unarmed: bool = False,
    options: Options = DEFAULT_OPTIONS,
) -> ReactionUse:
    """How the reaction ``total`` rolled this round counts against one attack [S].

    The roll stands for the whole round; this adjusts it per attack. Dodge adds no MAP
    except against an area attack, where it counts half and adds MAP. Parry adds no MAP,
    is impossible against ranged attacks, and takes ``two_handed_parry_penalty`` when the
    two-handed weapon attacked this round, unless the attacker is unarmed. Ride never adds
    MAP and (``ride_vs_area``) counts half against area attacks.
    """
    kind = _reaction_kind(kind)
    if kind == "parry":
        if ranged:
            raise SimError("a ranged attack cannot be parried, only dodged")
        if two_handed_attacked and not attacker_unarmed:
            total -= options.two_handed_parry_penalty
        return ReactionUse(max(total, 0), False)
    if area and (kind == "dodge" or options.ride_vs_area == "half"):
        return ReactionUse(half_total(total, options), kind == "dodge")
    return ReactionUse(total, False)


def opposed(attack_total: int, reaction_total: int, difficulty: int) -> bool:
    """A hit: the attack beats the reaction roll and meets the difficulty; ties miss [S].

    An unopposed roll passes ``reaction_total`` = 0. A spell uses the same test with the
    spell's difficulty number [S].
    """
    return attack_total > reaction_total and attack_total >= difficulty


class _Below:
    """``P(X < v)`` of an int distribution, for any v."""

    def __init__(self, dist: Dist) -> None:
        self.lo, self.hi = min(dist.outcomes()), max(dist.outcomes())
        self.cdf: list[Fraction] = []
        acc = Fraction(0)
        for v in range(self.lo, self.hi + 1):
            self.cdf.append(acc)
            acc += dist[v]

    def __call__(self, v: int) -> Fraction:
        if v <= self.lo:
            return Fraction(0)
        return Fraction(1) if v > self.hi else self.cdf[v - self.lo]


def _hit_chance(hit_rating: D6Code, reaction: Dist, difficulty: Dist) -> Fraction:
    """P(H > R and H >= D) for independent H, R, D."""
    below_r, below_d = _Below(reaction), _Below(difficulty)
    return sum(
        (p * below_r(h) * below_d(h + 1) for h, p in _code_dist(hit_rating).items()),
        Fraction(0),
    )


def hit_dist(hit_rating: D6Code, reaction: D6Code, difficulty: int) -> Fraction:
    """Exact chance that ``hit_rating`` beats a ``reaction`` roll and meets ``difficulty``."""
    return _hit_chance(hit_rating, _code_dist(reaction), Dist.constant(difficulty))


@dataclass(frozen=True, slots=True)
class HitResult:
    """An attack roll and whether it hit."""

    total: int
    hit: bool


def roll_hit(
    hit_rating: D6Code, reaction_total: int, difficulty: int, rng: np.random.Generator
) -> HitResult:
    """Roll the hit rating against a reaction total already rolled this round [S]."""
    total = hit_rating.roll(rng)
    return HitResult(total, opposed(total, reaction_total, difficulty))


# ---------------------------------------------------------------------------------------
# Difficulty: numbers, cover, called shots, scale, modifiers
# ---------------------------------------------------------------------------------------
def _norm(word: str) -> str:
    return " ".join(word.replace("_", " ").lower().split())


@cache
def _difficulties() -> dict[str, int]:
    return {r["name"]: int(r["number"]) for r in load_csv("d6_difficulties.csv")}


def difficulty_number(name: str) -> int:
    """The difficulty number named ``name`` (Very Easy 5 ... Heroic 30) [H]."""
    table = _difficulties()
    for key, value in table.items():
        if _norm(key) == _norm(name):
            return value
    raise unknown("difficulty", name, table)


@cache
def _sizes() -> dict[str, int]:
    sign = {"larger": 1, "average": 0, "smaller": -1}
    return {
        r["participant"]: sign[r["side"]] * int(r["size_value"]) for r in load_csv("d6_sizes.csv")
    }


def size_value(participant: str | int) -> int:
    """Signed size value of a participant from the scale table: + larger, - smaller [S].

    An int is taken as a signed size value already.
    """
    if isinstance(participant, int):
        return participant
    table = _sizes()
    for key, value in table.items():
        if _norm(key) == _norm(participant):
            return value
    raise unknown("size", participant, table)


@dataclass(frozen=True, slots=True)
class AttackModifiers:
    """Dice an attack's circumstances add: rolled onto (or off) the difficulty, onto codes."""

    difficulty_dice: D6Code = NO_DICE
    """Rolled and added to the difficulty: cover, called shot, a smaller target."""
    easing_dice: D6Code = NO_DICE
    """Rolled and subtracted from the difficulty: a larger target."""
    damage_dice: D6Code = NO_DICE
    """Added to the damage code: called shot, a smaller target."""
    body_dice: D6Code = NO_DICE
    """Added to the target's body code: a larger target."""


NO_MODIFIERS = AttackModifiers()
"""An attack without cover, called shot or scale."""


def attack_modifiers(
    *,
    cover: int = 0,
    called_shot: bool = False,
    target_size: str | int = 0,
    attacker_size: str | int = 0,
    options: Options = DEFAULT_OPTIONS,
) -> AttackModifiers:
    """Collect cover (0 or 1..4 D), a called shot and scale into :class:`AttackModifiers`.

    Scale [S, I]: relative = target size - attacker size (``scale_basis``). A larger target
    (relative > 0) eases the difficulty by that many D and adds them to its body; a smaller
    one (relative < 0) adds them to the difficulty and to the damage it takes.
    """
    if not 0 <= cover <= COVER_DICE_MAX:
        raise SimError(f"cover must be 0 or 1..{COVER_DICE_MAX} dice, got {cover}")
    relative = size_value(target_size)
    if options.scale_basis == "relative":
        relative -= size_value(attacker_size)
    difficulty = D6Code(cover)
    damage = NO_DICE
    if called_shot:
        difficulty += _code(options.called_shot_difficulty, "options.called_shot_difficulty")
        damage += _code(options.called_shot_damage, "options.called_shot_damage")
    larger = D6Code(max(relative, 0))
    smaller = D6Code(max(-relative, 0))
    return AttackModifiers(difficulty + smaller, larger, damage + smaller, larger)


def roll_difficulty(difficulty: int, modifiers: AttackModifiers, rng: np.random.Generator) -> int:
    """The difficulty of one attack: base + rolled difficulty dice - rolled easing dice."""
    return difficulty + modifiers.difficulty_dice.roll(rng) - modifiers.easing_dice.roll(rng)


def difficulty_dist(difficulty: int, modifiers: AttackModifiers = NO_MODIFIERS) -> Dist:
    """Exact distribution of :func:`roll_difficulty`."""
    up = _code_dist(modifiers.difficulty_dice)
    down = _code_dist(modifiers.easing_dice)
    return up.combine(down, lambda a, b: difficulty + a - b)


@cache
def _modifier_rows() -> tuple[tuple[str, int, int | None, int], ...]:
    return tuple(
        (
            r["degree"],
            int(r["min_pips"]),
            int(r["max_pips"]) if r["max_pips"] else None,
            int(r["dice"]),
        )
        for r in load_csv("d6_modifiers.csv")
    )


def advantage_pips(degree: str, options: Options = DEFAULT_OPTIONS) -> tuple[int, int | None]:
    """Pip range of a degree of advantage, the overlap at 16 resolved (None: no upper bound)."""
    rows = {name: (low, high) for name, low, high, _dice in _modifier_rows()}
    key = _norm(degree).removesuffix(" advantage")
    if key not in rows:
        raise unknown("degree of advantage", degree, rows)
    low, high = rows[key]
    decisive_high = rows["decisive"][1]
    overwhelming_low = rows["overwhelming"][0]
    if decisive_high is not None and decisive_high >= overwhelming_low:  # the overlap at 16
        if options.modifier_overlap_16 == "decisive" and key == "overwhelming":
            low = decisive_high + 1
        if options.modifier_overlap_16 == "overwhelming" and key == "decisive":
            high = overwhelming_low - 1
    return low, high


def advantage_dice(degree: str) -> D6Code:
    """Dice of a degree of advantage: slight 1D ... overwhelming 5D [S]."""
    for name, _low, _high, dice in _modifier_rows():
        if name == _norm(degree).removesuffix(" advantage"):
            return D6Code(dice)
    raise unknown("degree of advantage", degree, [r[0] for r in _modifier_rows()])


def advantage_degree(pips: int, options: Options = DEFAULT_OPTIONS) -> str:
    """The degree of advantage of a modifier of ``pips`` dots (1 or more)."""
    for name, *_rest in _modifier_rows():
        low, high = advantage_pips(name, options)
        if pips >= low and (high is None or pips <= high):
            return name
    raise SimError(f"an advantage is 1 or more pips, got {pips}")


# ---------------------------------------------------------------------------------------
# A whole attack
# ---------------------------------------------------------------------------------------
MISS = "miss"
"""Outcome of :func:`attack_dist` when the attack does not hit."""


@dataclass(frozen=True, slots=True)
class AttackResult:
    """One attack: the hit roll, the difficulty it met or not, and the damage if it hit."""

    hit_total: int
    difficulty: int
    hit: bool
    damage: DamageResult | None

    @property
    def outcome(self) -> str:
        """``"miss"`` or the tier name of the damage."""
        return self.damage.tier.value if self.damage is not None else MISS


def roll_attack(
    hit_rating: D6Code,
    reaction_total: int,
    difficulty: int,
    damage: D6Code,
    body: D6Code,
    rng: np.random.Generator,
    modifiers: AttackModifiers = NO_MODIFIERS,
) -> AttackResult:
    """Roll an attack against a reaction total rolled earlier this round, then its damage.

    Rolls, in order: the hit rating, the difficulty dice, the easing dice, and on a hit the
    damage (+ damage dice) against the body (+ body dice).
    """
    total = hit_rating.roll(rng)
    diff = roll_difficulty(difficulty, modifiers, rng)
    if not opposed(total, reaction_total, diff):
        return AttackResult(total, diff, False, None)
    result = roll_damage_vs_body(damage + modifiers.damage_dice, body + modifiers.body_dice, rng)
    return AttackResult(total, diff, True, result)


def attack_dist(
    hit_rating: D6Code,
    reaction: D6Code,
    difficulty: int,
    damage: D6Code,
    body: D6Code,
    modifiers: AttackModifiers = NO_MODIFIERS,
) -> Dist:
    """Exact distribution of :attr:`AttackResult.outcome` when the reaction is ``reaction``."""
    p_hit = _hit_chance(hit_rating, _code_dist(reaction), difficulty_dist(difficulty, modifiers))
    tiers = tier_dist(damage + modifiers.damage_dice, body + modifiers.body_dice)
    return Dist({MISS: 1 - p_hit, **{t: p_hit * p for t, p in tiers.items()}})


# ---------------------------------------------------------------------------------------
# Incapacitated and mortally wounded
# ---------------------------------------------------------------------------------------
def roll_knockout_minutes(rng: np.random.Generator) -> int:
    """Minutes an incapacitated character takes no actions: 10D [S]."""
    return KNOCKOUT_DICE.roll(rng)


def knockout_minutes_dist() -> Dist:
    """Exact distribution of :func:`roll_knockout_minutes`."""
    return _code_dist(KNOCKOUT_DICE)


def roll_mortal_check(rounds_affected: int, rng: np.random.Generator) -> bool:
    """A mortally wounded character's roll in its ``rounds_affected``-th round (1 = first).

    Roll 2D; dead (True) when the roll is less than the rounds so far [S].
    """
    return MORTAL_CHECK_DICE.roll(rng) < rounds_affected


def mortal_check_dist(rounds_affected: int) -> Dist:
    """Exact distribution of :func:`roll_mortal_check` (True = dead)."""
    return _code_dist(MORTAL_CHECK_DICE).map(lambda r: r < rounds_affected)


def roll_death_round(rng: np.random.Generator) -> int:
    """Round (1 = first after the wound) in which an untreated mortally wounded dies."""
    rounds = 1
    while not roll_mortal_check(rounds, rng):
        rounds += 1
    return rounds


def death_round_dist() -> Dist:
    """Exact distribution of :func:`roll_death_round`; certain death by round 13."""
    out: dict[int, Fraction] = {}
    alive = Fraction(1)
    rounds = 1
    while alive:
        p = mortal_check_dist(rounds)[True]
        out[rounds] = alive * p
        alive *= 1 - p
        rounds += 1
    return Dist(out)


# ---------------------------------------------------------------------------------------
# Healing: time, heal dice, first aid, resurrection
# ---------------------------------------------------------------------------------------
def time_heal(
    condition: Condition, strength_total: int, bonus: int = 0, options: Options = DEFAULT_OPTIONS
) -> Condition:
    """Condition after three days of rest given the Strength roll's total [S].

    Stunned heals outright; mortally wounded and dead do not change. Otherwise a total
    (plus first-aid ``bonus``) of at most ``infection_max`` infects: one spot worse (wounded
    twice -> incapacitated, incapacitated -> mortally wounded); more heals one spot
    (wounded -> healed, since stunned counts as healed; wounded twice -> wounded;
    incapacitated -> wounded twice).
    """
    if condition.tier in (DamageTier.NONE, DamageTier.STUNNED):
        return _LADDER[0]
    if condition.tier in (DamageTier.MORTALLY_WOUNDED, DamageTier.DEAD):
        return condition
    if strength_total + bonus <= options.infection_max:
        return Condition.from_rank(condition.rank + 1)
    better = Condition.from_rank(condition.rank - 1)
    return _LADDER[0] if better.tier is DamageTier.STUNNED else better


def roll_time_heal(
    condition: Condition,
    strength: D6Code,
    rng: np.random.Generator,
    bonus: int = 0,
    options: Options = DEFAULT_OPTIONS,
) -> Condition:
    """Roll Strength for time healing (only when the condition calls for a roll)."""
    if condition.tier in (DamageTier.WOUNDED, DamageTier.INCAPACITATED):
        return time_heal(condition, strength.roll(rng), bonus, options)
    return time_heal(condition, 0, bonus, options)


def time_heal_dist(
    condition: Condition, strength: D6Code, bonus: int = 0, options: Options = DEFAULT_OPTIONS
) -> Dist:
    """Exact distribution of :func:`roll_time_heal`."""
    if condition.tier in (DamageTier.WOUNDED, DamageTier.INCAPACITATED):
        return _code_dist(strength).map(lambda s: time_heal(condition, s, bonus, options))
    return Dist.constant(time_heal(condition, 0, bonus, options))


def heal(
    condition: Condition,
    heal_total: int,
    damage: int | None = None,
    options: Options = DEFAULT_OPTIONS,
) -> Condition:
    """Condition after a heal of ``heal_total`` points (potion, spell, first aid) [S].

    The heal is subtracted from the damage taken (``damage``; unknown: the tier's lowest
    value + 1) and the new tier is that of the difference; a heal never makes things worse,
    and a difference in the Stunned band counts as healed (as in time healing).
    Wounded twice (``heal_wounded_twice``): 'one_wound' heals one wound at a time,
    'both' applies the total to each wound. Dead stays dead (see resurrection).
    """
    if condition.tier is DamageTier.DEAD or condition.tier is DamageTier.NONE:
        return condition
    points = unknown_damage(condition.tier) if damage is None else damage
    new = Condition.of(tier_for(points - heal_total))
    if new.tier is DamageTier.STUNNED and options.heal_stunned == "healed":
        new = UNHURT
    if condition.label == "wounded_twice":
        if new.rank >= condition.rank - 1:
            return condition
        return _LADDER[2] if options.heal_wounded_twice == "one_wound" else new
    return new if new.rank < condition.rank else condition


def roll_heal(
    condition: Condition,
    heal_dice: D6Code,
    rng: np.random.Generator,
    damage: int | None = None,
    options: Options = DEFAULT_OPTIONS,
) -> Condition:
    """Roll ``heal_dice`` (a potion's, a spell's) and apply :func:`heal`."""
    return heal(condition, heal_dice.roll(rng), damage, options)


def heal_dist(
    condition: Condition,
    heal_dice: D6Code,
    damage: int | None = None,
    options: Options = DEFAULT_OPTIONS,
) -> Dist:
    """Exact distribution of :func:`roll_heal`."""
    return _code_dist(heal_dice).map(lambda h: heal(condition, h, damage, options))


@cache
def _first_aid_table() -> dict[str, str]:
    return {r["condition"]: r["difficulty"] for r in load_csv("d6_first_aid.csv")}


def first_aid_difficulty(condition: Condition) -> int:
    """Difficulty of the first-aid stabilize roll for ``condition`` [H, data file]."""
    table = _first_aid_table()
    if condition.label not in table:
        raise SimError(f"first aid cannot treat a {condition.label} character")
    return difficulty_number(table[condition.label])


@dataclass(frozen=True, slots=True)
class FirstAidResult:
    """A first-aid attempt: the stabilize roll's success, its margin of 10+, the new condition."""

    success: bool
    by_ten: bool
    condition: Condition

    @property
    def time_heal_bonus(self) -> int:
        """Bonus to the next time-healing roll: +1, +2 on a success by 10+ [S]."""
        return 0 if not self.success else 2 if self.by_ten else 1

    @property
    def resist_dice(self) -> int:
        """Dice added to Resist Disease or Poison: 1D, 2D on a success by 10+ [S]."""
        return self.time_heal_bonus


def first_aid(
    condition: Condition,
    skill_total: int,
    heal_total: int,
    damage: int | None = None,
    options: Options = DEFAULT_OPTIONS,
) -> FirstAidResult:
    """First aid given the stabilize roll's total and the heal dice's total [S].

    The First Aid roll must meet the difficulty for the condition. On a success a mortally
    wounded patient becomes incapacitated (no better); others are healed by ``heal_total``.
    On a failure nothing changes.
    """
    difficulty = first_aid_difficulty(condition)
    success = skill_total >= difficulty
    by_ten = success and skill_total - difficulty >= 10
    if not success:
        return FirstAidResult(False, False, condition)
    if condition.tier is DamageTier.MORTALLY_WOUNDED:
        return FirstAidResult(True, by_ten, Condition(DamageTier.INCAPACITATED))
    return FirstAidResult(True, by_ten, heal(condition, heal_total, damage, options))


def roll_first_aid(
    condition: Condition,
    skill: D6Code,
    rng: np.random.Generator,
    damage: int | None = None,
    options: Options = DEFAULT_OPTIONS,
) -> FirstAidResult:
    """Roll First Aid (the stabilize round), then the heal dice (``first_aid_heal_dice``)."""
    skill_total = skill.roll(rng)
    heal_total = _code(options.first_aid_heal_dice, "options.first_aid_heal_dice").roll(rng)
    return first_aid(condition, skill_total, heal_total, damage, options)


def first_aid_dist(
    condition: Condition,
    skill: D6Code,
    damage: int | None = None,
    options: Options = DEFAULT_OPTIONS,
) -> Dist:
    """Exact distribution of :func:`roll_first_aid`."""
    heal_code = _code(options.first_aid_heal_dice, "options.first_aid_heal_dice")
    return _code_dist(skill).combine(
        _code_dist(heal_code), lambda s, h: first_aid(condition, s, h, damage, options)
    )


def wake(condition: Condition) -> Condition:
    """An incapacitated character who wakes counts as wounded twice until healed [S]."""
    return _LADDER[3] if condition.tier is DamageTier.INCAPACITATED else condition


def can_resurrect(religion: D6Code, priest_spell: bool = False) -> bool:
    """A priest's resurrection spell, or a religion skill of 4D for the ritual [S]."""
    return priest_spell or religion.total_pips >= RESURRECTION_RELIGION.total_pips


@dataclass(frozen=True, slots=True)
class ResurrectionEffects:
    """After-effects of resurrection: pips off body rolls, pips off all else, for how long."""

    body_penalty_pips: int
    other_penalty_pips: int
    hours: Fraction


def resurrection_effects(
    wando_pea: bool = False, options: Options = DEFAULT_OPTIONS
) -> ResurrectionEffects:
    """-2 to body rolls and -1D to all other rolls for half a day; Wando Pea halves it [S]."""
    body, other, hours = RESURRECTION_BODY_PIPS, 3 * RESURRECTION_OTHER_DICE, RESURRECTION_HOURS
    if wando_pea and options.wando_pea_halves == "penalties":
        body, other = half_total(body, options), half_total(other, options)
    elif wando_pea:
        hours = hours / 2
    return ResurrectionEffects(body, other, hours)


# ---------------------------------------------------------------------------------------
# The aftermath: days of rest
# ---------------------------------------------------------------------------------------
TIME_HEAL_DAYS = 3
"""Time heals after every three days of rest [S]."""


@dataclass(frozen=True, slots=True)
class AftermathOptions:
    """D6 tiers aftermath interpretations [I] and house rules [H] (RULES.md 4 "Healing").

    A group of its own, apart from :class:`Options`, so the battle's options are unchanged.
    """

    wake: str = option(
        "all",
        "who wakes on the battle's day as Wounded twice: every Incapacitated patient (all: "
        "the 10D minutes pass) or only one lifted from Mortally wounded by first aid "
        "(stabilized; others stay Incapacitated until time heals them)",
        tag="I",
        choices=("all", "stabilized"),
    )
    untreated_mortal: str = option(
        "dies",
        "a Mortally wounded patient whom first aid does not stabilize on the battle's day "
        "dies (dies: the 2D check makes death certain by round 13) or lingers (lingers)",
        tag="H",
        choices=("dies", "lingers"),
    )
    bonus_lasts: str = option(
        "next_roll",
        "a first-aid bonus counts on the next time-healing roll only (next_roll) or on every "
        "one until the patient is healed (until_healed)",
        tag="I",
        choices=("next_roll", "until_healed"),
    )


DEFAULT_AFTERMATH_OPTIONS = AftermathOptions()


def time_heal_due(days_rested: int) -> bool:
    """Whether a time-healing roll falls due after ``days_rested`` days of rest (3, 6, ...) [S]."""
    if days_rested < 0:
        raise SimError(f"days of rest must be 0 or more, got {days_rested}")
    return days_rested > 0 and days_rested % TIME_HEAL_DAYS == 0


def rest_day(
    condition: Condition,
    days_rested: int,
    strength: D6Code,
    rng: np.random.Generator,
    bonus: int = 0,
    options: Options = DEFAULT_OPTIONS,
) -> Condition:
    """The condition after the ``days_rested``-th day of rest: a time-healing roll if due [S].

    Draws only when a roll is due and the condition calls for one (:func:`roll_time_heal`).
    """
    if not time_heal_due(days_rested):
        return condition
    return roll_time_heal(condition, strength, rng, bonus, options)


def rest_day_dist(
    condition: Condition,
    days_rested: int,
    strength: D6Code,
    bonus: int = 0,
    options: Options = DEFAULT_OPTIONS,
) -> Dist:
    """Exact distribution of :func:`rest_day`."""
    if not time_heal_due(days_rested):
        return Dist.constant(condition)
    return time_heal_dist(condition, strength, bonus, options)


def rest_days_dist(
    condition: Condition,
    days: int,
    strength: D6Code,
    bonus: int = 0,
    options: Options = DEFAULT_OPTIONS,
    aftermath: AftermathOptions = DEFAULT_AFTERMATH_OPTIONS,
) -> Dist:
    """Exact distribution of the condition after ``days`` days of rest (rolls on 3, 6, ...).

    ``bonus`` (a first-aid success) counts on the first roll, or on every roll with
    ``bonus_lasts`` ``until_healed``.
    """
    dist = Dist.constant(condition)
    rolls = 0
    for day in range(1, days + 1):
        if not time_heal_due(day):
            continue
        b = bonus if rolls == 0 or aftermath.bonus_lasts == "until_healed" else 0

        def roll(c: Condition, b: int = b) -> Dist:
            return time_heal_dist(c, strength, b, options)

        dist = dist.bind(roll)
        rolls += 1
    return dist
