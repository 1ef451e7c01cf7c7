"""War Game called shots: aiming at an arm or a leg, lamellar's bare limbs, dismemberment.

Follows seed ``002_5306f142c0f73876.txt`` (RULES.md 1.5, d6 Armors). The seed names called
shots only through two armors: lamellar "you can't spend AC to protect your arms or legs
from called shots" and plate "prevents dismemberment" [S]. Everything else is a house rule
[H], each an option of :class:`~sim.rules.wargame.options.Options`:

- A called shot is an attack aimed at an arm or a leg (the attacker's tactic decides when,
  and which). Against a wearer of lamellar the armor pool cannot absorb it: the damage meets
  no armor and any damage wounds [S]; a dodge, or a block with an inventory slot, still
  avoids it.
- Its price (``called_shot_cost``): ``hd`` (default) 1 HD more than the maneuver, paid with
  it and not rolled for damage: every other special use of the War Game (a dodge, acting at
  once, recovering armor, resisting a contest) costs 1 HD, and the HD is what the attacker
  trades against its own dodges. ``half``: no extra HD, the damage is halved (rounded down),
  a smaller target being harder to hit hard.
- Dismemberment (``dismember``): a called shot that wounds takes the limb off when it rolls
  max damage (``max_damage``, the default: the trigger of every other weapon effect of the
  d12 table), whenever it wounds (``wound``), or never; the target keeps the limb if it wears
  plate [S], and the wound is then a plain one. A limb taken off makes the wound a lingering
  one whose condition is the lost limb (:mod:`sim.rules.wargame.conditions`).

The blow itself is :func:`sim.rules.wargame.attacks.resolve_attack` with ``called="arm"`` or
``"leg"``.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

from sim.errors import SimError
from sim.rules.wargame.base import _check_choice
from sim.rules.wargame.combatant import (
    Combatant,
    effective_pool,
    limbs_unprotected,
    warbow_blocked,
)
from sim.rules.wargame.conditions import LOST_ARM, LOST_LEG
from sim.rules.wargame.damage import absorb, damage_dist
from sim.rules.wargame.maneuvers import Maneuver, can_maneuver, maneuver_price, pay_maneuver, spend
from sim.rules.wargame.options import DEFAULT_OPTIONS, Options
from sim.rules.wargame.tables import Weapon, weapon

LIMBS: tuple[str, ...] = ("arm", "leg")
"""What a called shot aims at."""
CALLED_SHOT_HD = 1  # the extra HD of a called shot (option called_shot_cost="hd") [H]


def called_shot_extra(options: Options = DEFAULT_OPTIONS) -> int:
    """HD a called shot costs on top of its maneuver: 1 (``hd``), or 0 (``half``)."""
    return CALLED_SHOT_HD if options.called_shot_cost == "hd" else 0


def can_call_shot(c: Combatant, options: Options = DEFAULT_OPTIONS) -> bool:
    """True if ``c`` can pay for an attack maneuver and a called shot's extra HD now."""
    if not can_maneuver(c, "attack", options):
        return False
    return c.spendable >= maneuver_price(c, "attack", options) + called_shot_extra(options)


def pay_called_shot(c: Combatant, options: Options = DEFAULT_OPTIONS) -> tuple[Combatant, Maneuver]:
    """Pay an attack maneuver and the called shot's extra HD; the :class:`Maneuver` is the attack.

    Its ``cost`` is the HD paid for the maneuver, the dice the attack rolls (the extra HD is
    not rolled).
    """
    if not can_call_shot(c, options):
        raise SimError("cannot pay for a called shot now")
    c, paid = pay_maneuver(c, "attack", options)
    extra = called_shot_extra(options)
    return (spend(c, extra, "attack") if extra else c), paid


def called_damage(damage: int, options: Options = DEFAULT_OPTIONS) -> int:
    """A called shot's damage: halved, rounded down, under ``called_shot_cost="half"``."""
    return damage // 2 if options.called_shot_cost == "half" else damage


def dismembers(is_max: bool, options: Options = DEFAULT_OPTIONS) -> bool:
    """Whether a called shot that wounds takes the limb off (option ``dismember``)."""
    if options.dismember == "wound":
        return True
    return options.dismember == "max_damage" and is_max


def gets_through(
    target: Combatant, damage: int, called: str | None = None, options: Options = DEFAULT_OPTIONS
) -> bool:
    """Whether ``damage`` rolled at ``target`` would get past its armor and wound.

    A plain blow meets the pool that counts now; a ``called`` shot (an arm or a leg) meets
    none on a wearer of lamellar, and does half the damage under ``called_shot_cost="half"``.
    """
    if called is None:
        return damage > effective_pool(target)  # absorb(damage, pool).wound, faster
    pool = 0 if limbs_unprotected(target) else effective_pool(target)
    return absorb(called_damage(damage, options), pool).wound


def lost_limb(limb: str) -> str:
    """The condition a limb taken off leaves: ``lost_arm`` or ``lost_leg``."""
    _check_choice("called shot", limb, LIMBS)
    return LOST_ARM if limb == "arm" else LOST_LEG


def shot_wound_chance(
    target: Combatant,
    dice: int,
    weapon_name: str | Weapon = "plain",
    *,
    called: bool = False,
    options: Options = DEFAULT_OPTIONS,
) -> Fraction:
    """Exact chance that a blow of ``dice`` HD wounds ``target`` if it is not avoided.

    A called shot meets no armor on a wearer of lamellar and, under ``called_shot_cost="half"``,
    does half the damage. A weapon that ignores armor, or an unblocked warbow, always wounds.
    Two-handed grips, mighty attacks and cover are left out: they change both blows alike.
    """
    w = weapon(weapon_name)
    if w.ignores_armor or (w.effect == "direct" and not warbow_blocked(target)):
        return Fraction(1)
    pool = 0 if called and limbs_unprotected(target) else effective_pool(target)
    halve = called and options.called_shot_cost == "half"
    return _wound_chance(dice, pool, options.damage, halve)


@cache
def _wound_chance(dice: int, pool: int, mode: str, halve: bool) -> Fraction:
    """Exact chance that ``dice`` HD of damage (halved if ``halve``) wound through ``pool``."""
    return damage_dist(dice, mode).prob(lambda d: absorb(d // 2 if halve else d, pool).wound)
