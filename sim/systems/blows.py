"""A War Game blow: how it lands (:func:`land`) and how its damage is rolled (:func:`roll_blow`).

:func:`roll_blow` is :func:`sim.rules.wargame.roll_damage` from a real Generator: the same
draws. An enumerating die (:mod:`sim.odds.enumerate`) is asked for each total that leaves
the target otherwise (the blow landed on a copy of its record): against a pool of 4, a 2d8
of 5 to 15 is one wound and an empty pool, one branch, not eleven. A blow whose landing
rolls more dice (a gun's d4, a rolled wound type) keeps a branch per total.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from sim.dice import outcome
from sim.errors import SimError
from sim.rules import wargame

if TYPE_CHECKING:
    from sim.scenario.tactics import Tactic

__all__ = ["How", "land", "roll_blow"]

#: A blow's plain values (:func:`land`'s arguments up to ``roll``).
How = tuple[
    bool, bool, wargame.Weapon, "Tactic", str | None, bool, bool, bool, wargame.Factor | None,
    wargame.Options,
]  # fmt: skip


def land(
    two_handed: bool,
    mounted: bool,
    weapon: wargame.Weapon,
    guard: Tactic,
    called: str | None,
    mighty: bool,
    can_dodge: bool,
    can_block: bool,
    in_cover: wargame.Factor | None,
    frame: wargame.Options,
    roll: wargame.DamageRoll,
    tw: wargame.Combatant,
    rng: Any,
) -> wargame.Blow:
    """A blow of ``roll`` on the target's record ``tw``, its defence chosen by ``guard``.

    ``two_handed``: the attacker wields its weapon in both hands; ``mounted``: it rides.
    :func:`sim.systems.wargame.attack` lands it on the target's record, :func:`roll_blow` on
    copies. Every argument but ``tw`` and ``rng`` is a plain value (:func:`roll_blow` keeps
    what a blow leaves by them).
    """
    through = wargame.gets_through(tw, roll.total, called, frame)
    would_wound = mighty or weapon.ignores_armor or through
    would_out = would_wound and tw.hit_dice <= (2 if mighty else 1)
    defence = guard.defence(guard.wants_dodge(would_wound, would_out), can_dodge, can_block)
    return wargame.resolve_attack_in_place(
        tw,
        roll,
        weapon,
        defence=defence,
        mighty=mighty,
        two_handed=two_handed,
        mounted=mounted,
        cover=in_cover,
        rng=rng,
        options=frame,
        called=called,
    )


class _Rolls(SimError):
    """A landing that rolls dice: its effect is not the roll's alone."""


class _NoDice:
    """The die a landing on a copy is given: any draw stops it."""

    def __getattr__(self, name: str) -> Any:
        raise _Rolls(name)


def roll_blow(
    rng: np.random.Generator,
    dice: int,
    frame: wargame.Options,
    target: wargame.Combatant,
    how: How,
) -> wargame.DamageRoll:
    """The damage of a blow on ``target``'s record; ``land(*how, roll, record, rng)`` lands it.

    From an enumerating die, one outcome per what the landing leaves: the target's record,
    and the blow's damage, dodge, wounds and shove (all the attack reads of it after). What
    a roll leaves depends on nothing but the record's values and ``how`` (plain values):
    the die keeps it by them (:func:`sim.dice.outcome`'s ``same``).
    """
    if type(rng) is np.random.Generator:
        return wargame.roll_damage(dice, rng, frame.damage, max_damage=frame.max_damage)

    mode, top = frame.damage, frame.max_damage  # (plain values: the roll's options are kept)

    def draw(r: Any) -> wargame.DamageRoll:
        return wargame.roll_damage(dice, r, mode, max_damage=top)

    def left(roll: wargame.DamageRoll) -> Any:
        record = target.copy()
        try:
            blow = land(*how, roll, record, _NoDice())
        except _Rolls:
            return "rolled", roll.total, roll.is_max
        left = tuple(vars(record).values())
        return "left", left, blow.damage > 0, blow.dodged, len(blow.wounds), blow.shoved_ft

    return outcome(rng, draw, key=left, same=(tuple(vars(target).values()), how))
