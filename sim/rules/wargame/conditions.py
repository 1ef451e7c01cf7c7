"""War Game lingering conditions: what a lingering wound or a lost limb leaves on a creature.

Follows seed ``002_5306f142c0f73876.txt`` (RULES.md 1.4, d4 Wound Types: "Lingering wounds
leave a special condition on the player, as determined by the GM, such as being blinded,
missing an arm, etc."). The seed leaves the conditions to the GM; the table and every effect
here are house rules [H], used under the option ``lingering="conditions"`` (a lost limb from
a called shot, :mod:`sim.rules.wargame.called`, is one of them whatever that option says):

====  ============  ===========================================================================
d4    condition     effect in battle
====  ============  ===========================================================================
1     ``blinded``   its attack lands only on a d8 of 5 or more (it swings blind)
2     ``lost_arm``  it fights one-handed: its attack rolls one die fewer than the HD paid (at
                    least one), no two-handed grip, no shield (its value leaves the pool)
3     ``lost_leg``  it cannot dodge (the seed's dodge is "dodge away"); on a map it moves half
                    as far
4     ``shaken``    a morale check counts its HD as 2 fewer (not below 0)
====  ============  ===========================================================================

A condition it already has adds nothing more.
"""

from __future__ import annotations

import numpy as np

from sim.dice import Dist
from sim.errors import SimError, unknown
from sim.rules.wargame.base import HD_SIDES, Draw, _d
from sim.rules.wargame.combatant import Combatant

BLINDED = "blinded"
LOST_ARM = "lost_arm"
LOST_LEG = "lost_leg"
SHAKEN = "shaken"
CONDITIONS: tuple[str, ...] = (BLINDED, LOST_ARM, LOST_LEG, SHAKEN)
"""The d4 of lingering conditions [H], in the order of the die."""
BLIND_NEEDS = 5  # a blinded creature's attack lands on a d8 of 5 or more [H]
SHAKEN_MORALE = 2  # a shaken creature's HD count 2 fewer for morale [H]
LEG_MOVE_SHARE = 0.5  # a creature with a lost leg moves half as far on a map [H]


def has_condition(c: Combatant, name: str) -> bool:
    """True if ``c`` carries the condition ``name``."""
    return bool(c.conditions) and name in c.conditions


def add_condition(c: Combatant, name: str) -> Combatant:
    """``c`` with the condition ``name`` and its lasting effect (a lost arm drops the shield).

    A condition it has already adds nothing.
    """
    if has_condition(c, name) and name in CONDITIONS:
        return c
    c = c.copy()
    add_condition_in_place(c, name)
    return c


def add_condition_in_place(c: Combatant, name: str) -> None:
    """:func:`add_condition` on ``c`` itself."""
    if name not in CONDITIONS:
        raise unknown("condition", name, CONDITIONS)
    if has_condition(c, name):
        return
    c.conditions += (name,)
    if name == LOST_ARM and c.shield:
        c.armor_max = top = max(0, c.armor_max - c.shield)
        c.shield = 0
        c.armor_pool = min(c.armor_pool, top)


def condition_roll(draw: Draw) -> str:
    """The condition a d4 gives (the order of :data:`CONDITIONS`)."""
    return CONDITIONS[draw(len(CONDITIONS)) - 1]


def roll_condition(rng: np.random.Generator) -> str:
    """Roll the d4 of lingering conditions."""
    return condition_roll(lambda sides: _d(rng, sides))


def condition_dist() -> Dist:
    """Exact distribution of :func:`roll_condition`: each condition 1/4."""
    return Dist.die(len(CONDITIONS)).map(lambda f: CONDITIONS[f - 1])


def attack_dice(c: Combatant, paid: int) -> int:
    """Dice an attack rolls when ``paid`` HD went into it: one fewer with a lost arm, at least 1."""
    if paid < 1:
        raise SimError(f"an attack rolls 1 or more dice, got {paid}")
    return max(1, paid - 1) if has_condition(c, LOST_ARM) else paid


def can_two_hand(c: Combatant) -> bool:
    """True unless a lost arm keeps ``c`` from a two-handed grip."""
    return not has_condition(c, LOST_ARM)


def roll_blind_attack(rng: np.random.Generator) -> bool:
    """The d8 a blinded creature's attack needs: True (it lands) on 5 or more."""
    return _d(rng, HD_SIDES) >= BLIND_NEEDS


def blind_attack_dist() -> Dist:
    """Exact distribution of :func:`roll_blind_attack` (True with probability 1/2)."""
    return Dist.die(HD_SIDES).map(lambda f: f >= BLIND_NEEDS)


def morale_hd(c: Combatant) -> int:
    """The HD a morale check compares: the current HD, 2 fewer if shaken (not below 0)."""
    if has_condition(c, SHAKEN):
        return max(0, c.hit_dice - SHAKEN_MORALE)
    return c.hit_dice


def move_share(c: Combatant) -> float:
    """Share of a move a creature makes on a map: half with a lost leg, else all of it."""
    return LEG_MOVE_SHARE if has_condition(c, LOST_LEG) else 1.0
