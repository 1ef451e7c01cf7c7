"""A D6 fighter's reaction to one attack: the plan of it, and the roll that stands [S].

The reaction rolled once in a round stands for every attack on the fighter that round
(RULES.md 4); :mod:`sim.systems.d6` plans which (:func:`sim.systems.d6.plan_reaction`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from sim.dice import D6Code, outcome
from sim.rules import d6

if TYPE_CHECKING:
    from sim.frame.agents import Fighter
    from sim.frame.turns import TurnFrame

__all__ = ["ALL_REACTIONS", "NO_PARRY", "Plan", "meet", "react", "two_handed_penalty"]


@dataclass(frozen=True, slots=True)
class Plan:
    """How a fighter meets one attack: its reaction, and the total standing or the code to roll.

    ``standing`` is the total rolled earlier this round, which stands [S]; otherwise it rolls
    ``code`` (``None``: it cannot react, and counts 0).
    """

    kind: str
    standing: int | None
    code: D6Code | None


ALL_REACTIONS = ("dodge", "parry", "ride")
"""What meets a blow hand to hand."""
NO_PARRY = ("dodge", "ride")
"""What meets a ranged or an area attack: no parry [S, I]."""


def two_handed_penalty(b: TurnFrame, t: Fighter) -> int:
    """Points off ``t``'s parry now: its ``two_handed`` weapon attacked this round [S]."""
    return b.options.two_handed_parry_penalty if t.spec.two_handed and t.state.attacked else 0


def react(
    b: TurnFrame, t: Fighter, plan: Plan, attacker: Fighter, *, area: bool = False
) -> tuple[str, int]:
    """``t``'s reaction to one attack as ``plan`` says: rolled now unless one stands [S].

    Against an ``area`` attack it counts half (:func:`sim.systems.d6.area_plan`). A parry
    after a blow of its two-handed weapon counts less, not against an unarmed ``attacker``
    [S].
    """
    total = plan.standing
    if total is None:
        total = plan.code.roll(b.rng) if plan.code is not None else 0
        t.state.reactions[plan.kind] = total
    two, bare = plan.kind == "parry" and two_handed_penalty(b, t) > 0, not attacker.spec.d6.damage
    use = _use(b, t, plan, attacker, total, area)
    if two:
        why = (
            f" -{two_handed_penalty(b, t)} = {use.total}: its two-handed weapon attacked this round"
        )
        why = ", no penalty against an unarmed attacker" if bare else why
        b.note(t.name, "two-handed parry", attacker.name, result=f"parry {total}{why}")
    return plan.kind, use.total


def _use(
    b: TurnFrame, t: Fighter, plan: Plan, attacker: Fighter, total: int, area: bool = False
) -> d6.ReactionUse:
    """How ``t``'s reaction ``total`` counts against ``attacker``'s attack [S]."""
    return d6.reaction_against(
        total,
        plan.kind,
        area=area,
        two_handed_attacked=plan.kind == "parry" and two_handed_penalty(b, t) > 0,
        attacker_unarmed=not attacker.spec.d6.damage,
        options=b.options,
    )


def meet(
    b: TurnFrame,
    t: Fighter,
    plan: Plan,
    attacker: Fighter,
    hit_code: D6Code,
    base: int,
    mods: d6.AttackModifiers,
) -> tuple[str, int, int, d6.HitResult]:
    """``t``'s reaction to ``attacker``'s attack, then its difficulty and hit roll [S].

    From an enumerating die (:mod:`sim.odds.enumerate`), a reaction rolled now that no other
    attack this round can meet (no fighter but these two is still to act, and ``attacker``
    attacks once) is rolled with the hit as one draw, one branch per hit or miss: its total
    and the difficulty are only shown after. From a real Generator, the same draws in turn.
    """
    if (
        plan.standing is None
        and plan.code is not None
        and type(b.rng) is not np.random.Generator
        and attacker.state.extra_attacks == 0
        and not any(g not in (t, attacker) and g.in_fight and not g.acted for g in b.roster)
    ):
        code = plan.code

        def draw(r: np.random.Generator) -> tuple[int, int, d6.HitResult]:
            total = code.roll(r)
            difficulty = d6.roll_difficulty(base, mods, r)
            reaction = _use(b, t, plan, attacker, total).total
            return total, difficulty, d6.roll_hit(hit_code, reaction, difficulty, r)

        total, difficulty, hit = outcome(b.rng, draw, key=lambda x: x[2].hit)
        kind, reaction = react(b, t, Plan(plan.kind, total, None), attacker)
        t.state.reactions[kind] = total
        return kind, reaction, difficulty, hit
    kind, reaction = react(b, t, plan, attacker)
    difficulty = d6.roll_difficulty(base, mods, b.rng)
    return kind, reaction, difficulty, d6.roll_hit(hit_code, reaction, difficulty, b.rng)
