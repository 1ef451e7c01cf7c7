"""War Game at large scale: faction pools, casualties, leader killing.

Follows seed ``002_5306f142c0f73876.txt`` (RULES.md 1.12 scale: small and large War Game).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from sim.dice import Dist
from sim.errors import SimError
from sim.rules.common import round_half_up
from sim.rules.wargame.base import HD_SIDES, LEADER_KILLING_TARGET, LEADER_OUT_KEEPS, _d
from sim.rules.wargame.combatant import Combatant, warbow_blocked
from sim.rules.wargame.options import DEFAULT_OPTIONS, Options
from sim.rules.wargame.wounds import HdLoss, lose_hd


def is_large_scale(individuals: int, options: Options = DEFAULT_OPTIONS) -> bool:
    """True if a War Game of this many individuals is large scale (more than 10)."""
    return individuals > options.large_scale_above


def _average(values: Sequence[int], options: Options) -> int:
    mean = Fraction(sum(values), len(values))
    return round_half_up(mean) if options.faction_rounding == "half_up" else int(mean)


def faction_pool(members: Sequence[Combatant], options: Options = DEFAULT_OPTIONS) -> Combatant:
    """A faction's pool: HD = average member HD, armor = average pool and maximum (halves up).

    ``pool="headcount"`` (and ``"members"``): HD = head count, spending the average HD per
    round. Strength and resolve are averaged too; shields and metal armor block warbows if
    at least half the members have them [H].
    """
    if not members:
        raise SimError("a faction needs at least one member")
    avg_hd = _average([m.hit_dice for m in members], options)
    heads = options.pool != "literal"
    hd = len(members) if heads else avg_hd
    dice = avg_hd if heads else None
    top = _average([m.armor_max for m in members], options)
    pool = min(top, _average([m.armor_pool for m in members], options))
    blocked = 2 * sum(warbow_blocked(m) for m in members) >= len(members)
    return Combatant(
        hit_dice=hd,
        spendable=hd if dice is None else min(hd, dice),
        armor_pool=pool,
        armor_max=top,
        strength=_average([m.strength for m in members], options),
        resolve=_average([m.resolve for m in members], options),
        arrow_proof=blocked,
        maneuver_dice=dice,
        faction=True,
    )


def casualties(before: Combatant, after: Combatant) -> int:
    """Wounded members a faction lost between two states: one per HD lost."""
    return max(0, before.hit_dice - after.hit_dice)


def is_scattered(f: Combatant) -> bool:
    """True if a faction lost all its HD: leader incapacitated, the rest scattered."""
    return f.faction and f.hit_dice == 0


@dataclass(frozen=True, slots=True)
class LeaderKilling:
    """A leader-killing roll: the d8, success on 7+, else HD the attackers lose."""

    roll: int
    success: bool
    attacker_hd_lost: int

    def describe(self) -> str:
        """A log line."""
        if self.success:
            return f"leader killing d8 = {self.roll}: the enemy leader is out"
        return f"leader killing d8 = {self.roll}: fails, attackers lose {self.attacker_hd_lost} HD"


def leader_killing_result(roll: int) -> LeaderKilling:
    """The leader-killing outcome of a d8 ``roll``: 7+ succeeds, else 1 HD lost per point short."""
    lost = max(0, LEADER_KILLING_TARGET - roll)
    return LeaderKilling(roll, lost == 0, lost)


def roll_leader_killing(rng: np.random.Generator) -> LeaderKilling:
    """Roll 1 HD: 7 or more, the enemy leader is out; below 7, 1 HD lost per point short."""
    return leader_killing_result(_d(rng, HD_SIDES))


def leader_killing_dist() -> Dist:
    """Exact distribution of the HD the attacking faction loses (0 = the leader is out)."""
    return Dist.die(HD_SIDES).map(lambda r: leader_killing_result(r).attacker_hd_lost)


def leader_down(
    f: Combatant, *, finish: str | None = None, options: Options = DEFAULT_OPTIONS
) -> tuple[Combatant, HdLoss]:
    """A faction whose leader is incapacitated or killed: it loses all but 1 HD."""
    keep = min(f.hit_dice, LEADER_OUT_KEEPS)
    f2, loss = lose_hd(f, f.hit_dice - keep, source="leader_out", finish=finish, options=options)
    return f2.evolve(leader_out=True), loss


def resolve_leader_killing(
    attacker: Combatant,
    target: Combatant,
    result: LeaderKilling,
    *,
    finish: str | None = None,
    options: Options = DEFAULT_OPTIONS,
) -> tuple[Combatant, Combatant, HdLoss]:
    """Apply a leader-killing roll: the enemy leader goes down, or the attackers lose HD.

    Returns (attacker, target, the loss that happened).
    """
    if result.success:
        target, loss = leader_down(target, finish=finish, options=options)
        return attacker, target, loss
    attacker, loss = lose_hd(
        attacker, result.attacker_hd_lost, source="leader_killing", finish=finish, options=options
    )
    return attacker, target, loss
