"""War Game called shots and lingering conditions in a fighter's attack (issue 19).

The two steps of :func:`sim.systems.wargame.attack` that RULES.md 1.3-1.5 add: whether to
call a shot, and at which limb (:func:`call_shot`, the tactic's ``called_shot``), and paying
for the attack with what a lingering condition does to it (:func:`pay_attack`). The rules
are :mod:`sim.rules.wargame.called` and :mod:`sim.rules.wargame.conditions`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sim.rules import wargame

if TYPE_CHECKING:
    from sim.frame.agents import Fighter
    from sim.frame.turns import TurnFrame


def pay_attack(
    b: TurnFrame, f: Fighter, target: Fighter, called: str | None, mighty: bool
) -> tuple[int | None, str]:
    """``f`` pays its attack (a called shot too): the dice it rolls and the event's action.

    The dice are one fewer with a lost arm; None if broken bones or blindness (a lingering
    condition) make the attack fail.
    """
    word = ("mighty " if mighty else "") + (
        "attack" if called is None else f"called shot ({called})"
    )
    if called is None:
        paid = wargame.pay_maneuver_in_place(f.wg, "attack", b.frame)
    else:
        f.wg, paid = wargame.pay_called_shot(f.wg, b.frame)
    if paid.needs_eight and not wargame.roll_broken_bones(b.rng):
        b.note(f.name, word, target.name, result="broken bones: the attack fails")
        return None, word
    if not f.wg.conditions:
        return paid.cost, word
    if wargame.has_condition(f.wg, wargame.BLINDED) and not wargame.roll_blind_attack(b.rng):
        b.note(f.name, word, target.name, result="blinded: the attack misses (needs a d8 of 5+)")
        return None, word
    return wargame.attack_dice(f.wg, paid.cost), word


def call_shot(
    b: TurnFrame, f: Fighter, target: Fighter, avoids: bool, w: wargame.Weapon
) -> str | None:
    """The limb ``f`` aims at, or None: a plain attack.

    The limb is :meth:`~sim.scenario.tactics.Tactic.called_limb`'s: none (a plain attack)
    once the target has lost an arm and a leg, never a limb it has lost.
    Tactic ``called_shot``, if ``f`` can pay: ``always``; ``odds`` when the target cannot
    avoid the blow (``avoids``: dodge or block) and the called shot's exact chance to wound,
    per HD it costs, beats the plain blow's (lamellar cannot protect its limbs [S]).
    """
    t = b.tactic_of(f)
    odds = t.called_shot == "odds"  # behind armor that covers limbs it never pays: skip it
    if t.called_shot == "never" or (odds and (avoids or not wargame.limbs_unprotected(target.wg))):
        return None
    if not wargame.can_call_shot(f.wg, b.frame):
        return None
    limb = t.called_limb(
        wargame.has_condition(target.wg, wargame.LOST_LEG),
        wargame.has_condition(target.wg, wargame.LOST_ARM),
    )
    if limb is None or not odds:
        return limb
    price = wargame.maneuver_price(f.wg, "attack", b.frame)
    dice = wargame.attack_dice(f.wg, price)
    plain = wargame.shot_wound_chance(target.wg, dice, w, options=b.frame) / price
    aimed = wargame.shot_wound_chance(target.wg, dice, w, called=True, options=b.frame)
    aimed /= price + wargame.called_shot_extra(b.frame)
    return limb if t.wants_called_shot((plain,), (aimed,)) else None
