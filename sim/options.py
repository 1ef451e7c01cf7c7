"""Option groups of the frame and the machinery every option group is made with.

An option is a dataclass field whose metadata says what it means (:func:`option`): its doc,
its tag (``I`` our interpretation, ``H`` a house rule, as in RULES.md), its allowed values or
bounds. :func:`build_options` builds a group from a plain mapping, checking every name and
value; :func:`describe_options` lists a group for ``sim options``.

The rule systems' own groups live with their rules (``sim.rules.wargame.Options`` ...); the
groups here belong to the frame around them, one per scenario key:

- :class:`BattleOptions`: the battle's own house rules (``battle``), for every system.
- :class:`CampOptions`: how a side's camp works in the aftermath (``aftermath.camp``).
- :class:`CampaignOptions`: who of a campaign's company comes back (``campaign.options``).

The machinery is defined in :mod:`sim.rules.common`, so the pure rules reach it without
importing anything outside ``sim.rules``; this module is its home for the rest of the
package. It imports no Mesa, pandas, pyarrow or matplotlib: the scenario loader builds these
groups without loading a battle.
"""

from __future__ import annotations

from dataclasses import dataclass

from sim.dice import parse_code
from sim.errors import SimError
from sim.rules import wargame
from sim.rules.common import build_options, describe_options, option

__all__ = [
    "BattleOptions",
    "CampOptions",
    "CampaignOptions",
    "build_options",
    "describe_options",
    "option",
]


@dataclass(frozen=True, slots=True)
class BattleOptions:
    """The battle frame's own house rules [H], for every system (scenario key ``battle``)."""

    morale_hd: str = option(
        "wounds",
        "systems without War Game HD: a fighter's HD for morale is its hit_dice less its "
        "wounds ('full': its hit_dice)",
        choices=("wounds", "full"),
    )
    large_scale: str = option(
        "turns",
        "large scale: the factions alternate turns, each sending one member at a time, the "
        "enemy leader reached only by leader killing ('turns'); or each faction fights as one "
        "pool of HD and armor, read as rules.options.pool says ('pools', War Game only)",
        choices=("turns", "pools"),
    )
    # --- large scale: every rule that differs from small scale is a switch (RULES.md 1.12) ---
    large_turns: str = option(
        "alternate",
        "large scale with turns: the factions alternate, one member a turn, in the order their "
        "leaders rolled once [S: 'the highest decides which side goes first and so on']; "
        "'popcorn': the small-scale turn order (everyone rolls, the last to act names the "
        "next), for experiments",
        choices=("alternate", "popcorn"),
    )
    large_initiative: str = option(
        "leaders",
        "large scale: the factions' leaders roll 1 HD each, once, for the side that goes first "
        "[S: 'both sides leaders roll 1 HD']; 'everyone': every fighter rolls, as at small "
        "scale, for experiments",
        choices=("leaders", "everyone"),
    )
    rank_and_file: bool = option(
        True,
        "large scale: an attacking faction picks its victims from the enemy's rank and file, "
        "the leader reached only by leader killing [S: 'other than the leader']; false: "
        "targets as at small scale, for experiments",
    )
    leader_down: str = option(
        "one_hd",
        "large scale: a faction whose leader falls loses all but 1 HD [S], read with turns as "
        "each member keeping at most 1 HD to spend that round [I] and with pools as the "
        "pool's HD; 'none': nothing beyond the morale check, for experiments",
        choices=("one_hd", "none"),
        tag="I",
    )
    faction_leader: str = option(
        "most_hd",
        "large scale: a side whose scenario names no leader gets one when it first fights at "
        "large scale [S: 'name a leader for these factions']: its member in the fight with the "
        "most HD (less wounds without War Game HD), ties to the first listed, its leader "
        "from then on (an event says who; not under 2W2P, which has no factions); 'none': it "
        "fights without one, out of reach of leader killing",
        choices=("most_hd", "none"),
    )
    initiative: str = option(
        "everyone",
        "small-scale initiative: everyone rolls 1 HD and the side with the highest die goes "
        "first [S]; 'sides': one die per side, so head count does not buy the first move",
        choices=("everyone", "sides"),
    )
    morale: str = option(
        "all",
        "which morale triggers are checked (War Game 1.8, every system): all, none (morale "
        "off), or only one of half_out, leader_out, goal_failed, quiet_rounds",
        choices=("all", "none", *wargame.MORALE_TRIGGERS),
    )
    morale_at: float = option(
        0.5,
        "the share of a side's fighters out of the fight that calls its half-out morale "
        "check (War Game 1.8: half [S]); lower, a side checks sooner, with more of it standing",
        low=0.05,
        high=1,
    )
    rout: str = option(
        "draw",
        "a rout on both sides (no side has anyone in the fight who is not fleeing) ends the "
        "battle at once as a draw; 'field': a side left with only fleeing fighters loses at "
        "once, so the side still holding the field wins (a rout of both at once is a draw)",
        choices=("draw", "field"),
    )
    withdraw: str = option(
        "never",
        "a beaten side routs fighter by fighter, as the seeds have it ('never'); 'broken': a "
        "side whose morale check puts battle.withdraw_share or more of its active fighters "
        "(at least one) to flight withdraws in order instead: everyone of it still in the "
        "fight leaves the field (fled), each caught by the pursuit at the chance "
        "battle.pursuit (surrendered), and it is beaten",
        choices=("never", "broken"),
    )
    withdraw_share: float = option(
        0.5,
        "with battle.withdraw: broken, the share of a side's active fighters a morale check "
        "must put to flight to break it (0: any one)",
        low=0,
        high=1,
    )
    pursuit: float = option(
        0.1,
        "with battle.withdraw: broken, the chance that the pursuit catches each fighter of a "
        "withdrawing side (it surrenders)",
        low=0,
        high=1,
    )
    scattered: str = option(
        "surrendered",
        "a faction pool scattered at 0 HD while more than the large-scale threshold still "
        "stand (only the literal pools, wargame.pool: literal, scatter with members standing): "
        "its members surrender, flee, or fight on as individuals in a small-scale War Game "
        "('fight', whatever their number)",
        choices=("surrendered", "fled", "fight"),
    )
    cover_rounds: int = option(
        2, "rounds a fighter stays in cover after taking it (this one and the next)", low=1
    )
    deathwish_location: str = option(
        "torso",
        "Deathwish hit location: always torso, or rolled on a d10 (1 head, 2 vitals, "
        "3-6 limb, 7-10 torso); a hit meets only the armor on its location",
        choices=("torso", "random"),
    )
    deathwish_cover: int = option(1, "Deathwish cover points of a fighter in cover", low=0)
    d6_difficulty: int = option(10, "D6 difficulty number every attack must meet", low=0)
    d6_cover_dice: int = option(2, "D6 cover dice of a fighter in cover (+1D..+4D)", low=0)
    # --- battlefield space, used only by scenarios with a map (sim.frame.field) ----------------
    move_ft: int = option(
        30,
        "with a map: feet covered by a War Game move maneuver, by a Deathwish fighter's move "
        "before its attack, and by a 2W2P fighter each round (D6 moves one space [S])",
        low=0,
    )
    gun_range_yd: int = option(
        100,
        "with a map: range of a War Game gun in yards (the seed gives only the warbow's)",
        low=1,
    )
    firearm_range_yd: int = option(
        300, "with a map: range of every Deathwish firearm in yards", low=1
    )
    ranged_in_melee: str = option(
        "no",
        "with a map: whether a bow or gun may shoot an adjacent enemy ('no': its bearer "
        "disengages first)",
        choices=("no", "yes"),
    )
    range_bands: str = option(
        "on",
        "with a map: short / medium / long range (thirds of the range) cost Deathwish 0/1/2 "
        "skill to hit and add 0/5/10 to the D6 difficulty ('off': no bands); War Game has no "
        "to-hit roll, so only the range itself limits it",
        choices=("on", "off"),
    )


@dataclass(frozen=True, slots=True)
class CampOptions:
    """How a side's camp works in the aftermath: healers' hours, triage, supervision."""

    healer_hours: int = option(
        8,
        "hours a surgeon or physician works a day (the seed's capacities are per hour)",
        low=0,
        high=24,
    )
    triage: str = option(
        "felled_first",
        "order in which patients get healers: felled, bleeding out or mortally wounded "
        "first, then known infections, then most open wounds (felled_first), or list order "
        "(listed)",
        choices=("felled_first", "listed"),
    )
    supervised_unskilled: str = option(
        "competent",
        "an unskilled student under a supervisor works at a competent healer's capacity "
        "(competent; it still counts 0 in the head count) or not at all (none)",
        choices=("competent", "none"),
    )
    first_aid_competent: str = option("3D", "D6 tiers First Aid code of a competent healer")
    first_aid_experienced: str = option("4D", "D6 tiers First Aid code of an experienced healer")
    first_aid_specialized: str = option("5D", "D6 tiers First Aid code of a specialized healer")
    rest_hours_per_day: int = option(
        8, "War Game: hours of rest each aftermath day gives", low=0, high=24
    )
    wake_above_hd: int = option(
        1,
        "War Game: an incapacitated creature is up again once its HD exceed this (a wound "
        "on 1 or fewer HD incapacitates)",
        tag="I",
        low=0,
    )

    def __post_init__(self) -> None:
        for level in ("competent", "experienced", "specialized"):
            code = getattr(self, f"first_aid_{level}")
            try:
                parse_code(code)
            except ValueError as err:
                raise SimError(f"camp.first_aid_{level}: {err}") from None


@dataclass(frozen=True, slots=True)
class CampaignOptions:
    """Who of the company comes back for the next battle (scenario key ``campaign.options``)."""

    fled: str = option(
        "rejoin",
        "a company member who fled (or was still fleeing when the battle ended) rejoins the "
        "company for the next battle (rejoin) or is gone for good (leave)",
        choices=("rejoin", "leave"),
    )
    surrendered: str = option(
        "rejoin",
        "a company member who surrendered is back for the next battle (rejoin: ransomed or "
        "released) or is gone for good (leave)",
        choices=("rejoin", "leave"),
    )
