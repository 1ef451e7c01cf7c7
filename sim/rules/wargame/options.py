"""War Game options: the interpretations [I] and house rules [H] of RULES.md 1.

Follows seed ``002_5306f142c0f73876.txt``; every field of :class:`Options` is listed, with its
default, in the docstring of :mod:`sim.rules.wargame`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sim.rules.common import build_options, describe_options, option


@dataclass(frozen=True, slots=True)
class Options:
    """The War Game's interpretations [I] and house rules [H] (RULES.md section 1)."""

    damage: str = option(
        "hd_sum",
        "damage = total of the spent HD rolled as d8s; weapon_d8 rolls one d8",
        tag="I",
        choices=("hd_sum", "weapon_d8"),
    )
    max_damage: str = option(
        "all_eight",
        "max damage = every spent die shows 8; any_eight = at least one does",
        tag="I",
        choices=("all_eight", "any_eight"),
    )
    finish: str = option(
        "incapacitate",
        "what a creature brought to 0 HD becomes (the attacker's decision)",
        tag="H",
        choices=("incapacitate", "kill"),
    )
    inventory_block: bool = option(
        False, "a defender may block an attack with an inventory slot (the item is lost)", tag="I"
    )
    broken_bones: str = option(
        "all_hd_on_8",
        "broken bones: attacking/moving costs all remaining HD and needs a d8 of 8; "
        "forbidden = impossible",
        tag="I",
        choices=("all_hd_on_8", "forbidden"),
    )
    torch_ignites: str = option(
        "ignitable",
        "a torch's max damage sets on fire only a target wearing armor that can be ignited "
        "(a gambeson); anyone = every target",
        tag="I",
        choices=("ignitable", "anyone"),
    )
    survive: str = option(
        "any_source",
        "a creature with no armor protecting it may spend 1 HD to survive an HD loss from any "
        "source: burning and hazards too; attacks = only an attack (a dodge)",
        tag="I",
        choices=("any_source", "attacks"),
    )
    wound_types: str = option(
        "named",
        "a wound gets a type only where the weapon or hazard names one; by_kind also by the "
        "weapon's damage kind (d4 table), and a wound dealt with max damage lingers; rolled "
        "rolls the d4 for every weapon wound",
        tag="H",
        choices=("named", "by_kind", "rolled"),
    )
    called_shot_cost: str = option(
        "hd",
        "a called shot at an arm or a leg costs 1 HD more than its maneuver, not rolled for "
        "damage; half = no extra HD, the damage is halved (rounded down)",
        tag="H",
        choices=("hd", "half"),
    )
    dismember: str = option(
        "max_damage",
        "a called shot that wounds takes the limb off when it rolls max damage (plate prevents "
        "it); wound = whenever it wounds; never",
        tag="H",
        choices=("max_damage", "wound", "never"),
    )
    lingering: str = option(
        "conditions",
        "a lingering wound rolls a d4 condition with a battle effect (blinded, lost arm, lost "
        "leg, shaken); record = the wound is only recorded",
        tag="H",
        choices=("conditions", "record"),
    )
    extinguish: str = option(
        "maneuver",
        "putting out a fire is a maneuver; one_hd costs 1 HD",
        tag="H",
        choices=("maneuver", "one_hd"),
    )
    mighty_hd: str = option(
        "extra",
        "a mighty attack's lost HD comes on top of any wound; at_least_one = 1 HD in all",
        tag="I",
        choices=("extra", "at_least_one"),
    )
    wound_spendable: str = option(
        "cap",
        "after a lost HD the dice left this round are capped at the new HD; unspent = the "
        "lost die comes out of the unspent ones",
        tag="I",
        choices=("cap", "unspent"),
    )
    warbow_direct: str = option(
        "wound",
        "an unblocked warbow hit is one wound whatever the armor; damage = it removes as many "
        "HD as the damage",
        tag="I",
        choices=("wound", "damage"),
    )
    skewer: str = option(
        "incapacitate",
        "a skewered target is incapacitated (or killed)",
        tag="H",
        choices=("incapacitate", "kill"),
    )
    hazard_contest: bool = option(
        True, "pushing a creature into a hazard is a contested maneuver", tag="I"
    )
    contest_ties: str = option(
        "defender",
        "who wins a tied contested maneuver",
        tag="H",
        choices=("defender", "attacker", "reroll"),
    )
    contest_roll: str = option(
        "d8",
        "the contest attacker rolls one d8; spent = the HD spent on the maneuver, totalled",
        tag="I",
        choices=("d8", "spent"),
    )
    contest_unable: str = option(
        "attribute_only",
        "a contest defender that cannot spend HD adds no die; auto_lose = it loses",
        tag="I",
        choices=("attribute_only", "auto_lose"),
    )
    distraction_limit: str = option(
        "per_factor",
        "each distraction works once on a given target; per_target = once in all",
        tag="I",
        choices=("per_factor", "per_target"),
    )
    morale_compare: str = option(
        "hd",
        "morale: creatures whose current HD (fixed: resolve) is <= the roll flee",
        tag="I",
        choices=("hd", "fixed"),
    )
    morale_triggers_once: bool = option(
        True,
        "each morale trigger fires once per side (two quiet rounds again after two more)",
        tag="H",
    )
    flee_turns: int = option(
        1, "own turns a fleeing creature takes to leave the field", tag="H", low=1, high=20
    )
    initiative_ties: str = option(
        "reroll",
        "tied initiative re-rolls; first_listed = the first side listed wins",
        tag="H",
        choices=("reroll", "first_listed"),
    )
    act_out_of_turn: bool = option(
        False, "the tactic of spending 1 HD to act at once, out of order, is used", tag="H"
    )
    weak_cover: str = option(
        "table",
        "cover the seed's table calls 'no real protection' (fog, bushes, pits) does not stop "
        "ranged attacks ('table'); 'protects' = all cover stops them",
        tag="I",
        choices=("table", "protects"),
    )
    loud_armor: str = option(
        "heard",
        "a wearer of loud armor (chain, scale, plate: 'loud as hell') is heard in cover that "
        "shelters by hiding (fog, bushes, trees): that cover does not stop ranged attacks on "
        "it; 'silent' = loud armor does nothing",
        tag="I",
        choices=("heard", "silent"),
    )
    large_scale_above: int = option(
        10, "more individuals than this is a large-scale War Game", tag="H", low=1, high=100_000
    )
    pool: str = option(
        "members",
        "faction pools: HD = the head count, spending the average member HD a round, on "
        "dodges, and a turn a round for each active member, the sides alternating, each "
        "maneuver at the pool's price paid by its member (members); headcount = the same with "
        "one turn a round paid from the pool; literal = HD the average member HD, one turn a "
        "round (the seed read literally: two pools that dodge each other's one attack never "
        "hurt each other)",
        tag="I",
        choices=("literal", "headcount", "members"),
    )
    faction_rounding: str = option(
        "half_up",
        "rounding of faction averages",
        tag="H",
        choices=("half_up", "down"),
    )


DEFAULT_OPTIONS = Options()


def make_options(values: Mapping[str, Any] | None = None, where: str = "options") -> Options:
    """Build :class:`Options` from a plain mapping, with clear errors for bad names/values."""
    result: Options = build_options(Options, dict(values or {}), where)
    return result


def options_help() -> list[dict[str, Any]]:
    """Name, default, tag, choices and meaning of every option."""
    return describe_options(Options)
