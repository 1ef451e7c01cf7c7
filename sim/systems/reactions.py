"""A D6 fighter's reaction to one attack: the plan of it, and the roll that stands [S].

The reaction rolled once in a round stands for every attack on the fighter that round
(RULES.md 4); :mod:`sim.systems.d6` plans which (:func:`sim.systems.d6.plan_reaction`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from sim.dice import D6Code
from sim.rules import d6

if TYPE_CHECKING:
    from sim.frame.agents import Fighter
    from sim.frame.turns import TurnFrame

__all__ = ["ALL_REACTIONS", "NO_PARRY", "Plan", "react", "two_handed_penalty"]


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
    use = d6.reaction_against(
        total,
        plan.kind,
        area=area,
        two_handed_attacked=two,
        attacker_unarmed=bare,
        options=b.options,
    )
    if two:
        why = (
            f" -{two_handed_penalty(b, t)} = {use.total}: its two-handed weapon attacked this round"
        )
        why = ", no penalty against an unarmed attacker" if bare else why
        b.note(t.name, "two-handed parry", attacker.name, result=f"parry {total}{why}")
    return plan.kind, use.total
