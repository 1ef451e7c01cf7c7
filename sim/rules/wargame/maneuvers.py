"""War Game maneuvers: spending HD, maneuver costs, dodging, acting out of turn.

Follows seed ``002_5306f142c0f73876.txt`` (RULES.md 1.1 HD and maneuvers, 1.3 defence: the
dodge, 1.4 broken bones, 1.6 spending 1 HD to act at once).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.dice import Dist
from sim.errors import SimError
from sim.rules.common import Status
from sim.rules.wargame.base import (
    ACT_NOW_COST,
    BROKEN_BONES_NEEDS,
    DODGE_COST,
    HD_SIDES,
    MANEUVER_COST,
    MANEUVERS,
    _check_choice,
    _d,
)
from sim.rules.wargame.combatant import Combatant, has_broken_bones, inventory_left
from sim.rules.wargame.conditions import LOST_LEG, has_condition
from sim.rules.wargame.options import DEFAULT_OPTIONS, Options


def can_spend(c: Combatant, n: int = 1, purpose: str = "other") -> bool:
    """True if ``c`` may spend ``n`` HD now.

    Only active creatures spend; a fleeing one only to run (``purpose="run"``) unless it was
    damaged while fleeing; a distracted one not at all until the end of the round.
    """
    if n < 1 or c.spendable < n or c.distracted:
        return False
    if c.status == Status.ACTIVE:
        return True
    return c.status == Status.FLEEING and (purpose == "run" or c.damaged_while_fleeing)


def spend(c: Combatant, n: int, purpose: str = "other") -> Combatant:
    """``c`` with ``n`` HD spent; :class:`SimError` if it may not spend them."""
    c = c.copy()
    spend_in_place(c, n, purpose)
    return c


def spend_in_place(c: Combatant, n: int, purpose: str = "other") -> None:
    """:func:`spend` on ``c`` itself."""
    if not can_spend(c, n, purpose):
        raise SimError(
            f"cannot spend {n} HD for {purpose}: {c.spendable} left, status {c.status}"
            + (", distracted" if c.distracted else "")
        )
    c.spendable -= n


def maneuver_cost(hd: int) -> int:
    """HD a maneuver costs with ``hd`` left to spend: 2, or 1 if only 1 is left."""
    if isinstance(hd, bool) or not isinstance(hd, int) or hd < 1:
        raise SimError(f"a maneuver needs 1 or more HD left to spend, got {hd!r}")
    return min(MANEUVER_COST, hd)


def price_now(c: Combatant, kind: str = "attack", options: Options = DEFAULT_OPTIONS) -> int:
    """HD a maneuver of ``kind`` (:data:`MANEUVERS`) costs ``c`` now; 0 if it cannot do one.

    All remaining HD with broken bones, else 2 or 1: :func:`can_maneuver` and
    :func:`maneuver_price` in one look (every turn asks both).
    """
    if kind not in MANEUVERS:
        _check_choice("maneuver", kind, MANEUVERS)
    if kind == "move" and c.grappled:
        return 0  # held: it cannot move until it breaks free [H]
    broken = (kind == "attack" or kind == "move") and has_broken_bones(c)
    if broken and options.broken_bones == "forbidden":
        return 0
    if not can_spend(c, 1, "run" if kind == "move" else kind):
        return 0
    return c.spendable if broken else min(MANEUVER_COST, c.spendable)


def can_maneuver(c: Combatant, kind: str = "attack", options: Options = DEFAULT_OPTIONS) -> bool:
    """True if ``c`` can pay for a maneuver of ``kind`` now (see :data:`MANEUVERS`)."""
    return price_now(c, kind, options) > 0


def maneuver_price(c: Combatant, kind: str = "attack", options: Options = DEFAULT_OPTIONS) -> int:
    """HD a maneuver of ``kind`` costs ``c``: all remaining HD with broken bones, else 2 or 1."""
    price = price_now(c, kind, options)
    if not price:
        raise SimError(f"cannot perform a {kind} maneuver now")
    return price  # maneuver_cost: spendable is 1 or more here


@dataclass(frozen=True, slots=True)
class Maneuver:
    """A paid maneuver: ``cost`` HD spent, the dice an attack rolls.

    ``needs_eight``: broken bones make it succeed only on a d8 of 8.
    """

    kind: str
    cost: int
    needs_eight: bool

    def describe(self) -> str:
        """A log line."""
        extra = " (broken bones: needs a d8 of 8)" if self.needs_eight else ""
        return f"{self.kind}: {self.cost} HD spent{extra}"


def pay_maneuver(
    c: Combatant, kind: str = "attack", options: Options = DEFAULT_OPTIONS
) -> tuple[Combatant, Maneuver]:
    """Spend the HD for a maneuver of ``kind``: the creature after, and what it paid."""
    c = c.copy()
    return c, pay_maneuver_in_place(c, kind, options)


def pay_maneuver_in_place(
    c: Combatant, kind: str = "attack", options: Options = DEFAULT_OPTIONS
) -> Maneuver:
    """:func:`pay_maneuver` on ``c`` itself; what it paid.

    What :func:`maneuver_price` and :func:`spend` check, checked once (every attack pays).
    """
    if kind not in MANEUVERS:
        _check_choice("maneuver", kind, MANEUVERS)
    broken = kind in ("attack", "move") and has_broken_bones(c)
    purpose = "run" if kind == "move" else kind
    if (broken and options.broken_bones == "forbidden") or not can_spend(c, 1, purpose):
        raise SimError(f"cannot perform a {kind} maneuver now")
    cost = c.spendable if broken else min(MANEUVER_COST, c.spendable)
    paid = _PAID.get((kind, cost, broken))
    if paid is None:  # a frozen record: one per kind, cost and broken bones, shared
        paid = _PAID[kind, cost, broken] = Maneuver(kind, cost, broken)
    c.spendable -= cost
    return paid


_PAID: dict[tuple[str, int, bool], Maneuver] = {}


def roll_broken_bones(rng: np.random.Generator) -> bool:
    """The d8 a broken-bones attack or move needs: True (it succeeds) only on an 8."""
    return _d(rng, HD_SIDES) >= BROKEN_BONES_NEEDS


def broken_bones_dist() -> Dist:
    """Exact distribution of :func:`roll_broken_bones` (True with probability 1/8)."""
    return Dist.die(HD_SIDES).map(lambda f: f >= BROKEN_BONES_NEEDS)


def declare_mighty(attacker: Combatant) -> Combatant:
    """The attacker after declaring a mighty attack: no dodging until its next turn."""
    return attacker.evolve(mighty_attack_pending=True)


def declare_mighty_in_place(attacker: Combatant) -> None:
    """:func:`declare_mighty` on ``attacker`` itself."""
    attacker.mighty_attack_pending = True


def can_dodge(c: Combatant) -> bool:
    """True if ``c`` may spend 1 HD to dodge.

    Not after its own mighty attack (until its next turn), not while distracted, not on the
    ground (shoved, until it stands up [H]), not with a lost leg (the seed's dodge is "dodge
    away" [H]), not while fleeing unless damaged while fleeing.
    """
    return (
        not c.mighty_attack_pending
        and not c.prone
        and can_spend(c, DODGE_COST, "dodge")
        and not has_condition(c, LOST_LEG)
    )


def can_block(c: Combatant, options: Options = DEFAULT_OPTIONS) -> bool:
    """True if ``c`` may block an attack with an inventory slot (RULES.md 1.3 [I]).

    Only with the option ``inventory_block``, and only while it still carries an item. A block
    spends no HD, so a distracted creature, or one that has spent its HD, may still block;
    an out or fleeing one may not (unless damaged while fleeing).
    """
    if not options.inventory_block or inventory_left(c) < 1:
        return False
    return c.status == Status.ACTIVE or (c.status == Status.FLEEING and c.damaged_while_fleeing)


def can_act_out_of_turn(c: Combatant, options: Options = DEFAULT_OPTIONS) -> bool:
    """True if the option is on and ``c`` may spend 1 HD to act now (not while going last)."""
    return options.act_out_of_turn and not c.goes_last and can_spend(c, ACT_NOW_COST, "act")


def act_out_of_turn(c: Combatant, options: Options = DEFAULT_OPTIONS) -> Combatant:
    """``c`` after spending 1 HD to act immediately, out of order."""
    if not can_act_out_of_turn(c, options):
        raise SimError("cannot spend 1 HD to act out of turn now")
    return spend(c, ACT_NOW_COST, "act")
