"""War Game rounds and turns: refreshing HD, burning, fleeing, armor recovery.

Follows seed ``002_5306f142c0f73876.txt`` (RULES.md 1.5 recovering armor, 1.6 turn order, 1.8
fleeing, and "Getting Back Into It").
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.dice import Dist, outcome
from sim.errors import SimError
from sim.rules.common import Status
from sim.rules.wargame.base import (
    BACK_IN_ROUNDS,
    BURNING_HD,
    HD_SIDES,
    HEAL_HD,
    RECOVER_COST,
    SURVIVE_COST,
    _check_pool,
    _d,
)
from sim.rules.wargame.combatant import Combatant, is_out
from sim.rules.wargame.maneuvers import can_spend, spend, spend_in_place
from sim.rules.wargame.options import DEFAULT_OPTIONS, Options
from sim.rules.wargame.wounds import HdLoss, lose_hd_in_place


@dataclass(frozen=True, slots=True)
class RoundStart:
    """What the start of a round did: spendable HD refreshed, burning's lost HD if any.

    ``survived``: the burning creature spent 1 HD to survive the burn (option ``survive``).
    """

    spendable: int
    burning: HdLoss | None
    goes_last: bool
    survived: bool = False

    def describe(self) -> str:
        """A log line."""
        burn = f"; {self.burning.describe()}" if self.burning else ""
        if self.survived:
            burn = "; burning: 1 HD spent to survive it"
        late = "; goes last" if self.goes_last else ""
        return f"{self.spendable} HD to spend{burn}{late}"


def can_survive(c: Combatant, options: Options = DEFAULT_OPTIONS) -> bool:
    """True if ``c`` may spend 1 HD to survive an HD loss that is not an attack's.

    [S: "when it takes damage from any source, it can expend 1 HD to survive whatever wound
    it's taking"], read as burning and hazards too (option ``survive="any_source"``); it
    must be able to spend (not distracted, not fleeing unless damaged while fleeing).
    """
    return options.survive == "any_source" and can_spend(c, SURVIVE_COST, "survive")


def start_round(
    c: Combatant,
    *,
    finish: str | None = None,
    options: Options = DEFAULT_OPTIONS,
    survive: bool = False,
) -> tuple[Combatant, RoundStart]:
    """Start a round: spendable HD refresh, burning bites, late-comers count down.

    Spendable HD refresh to the current HD (a headcount faction's to its maneuver dice);
    burning removes 1 HD and keeps armor at 0; a creature back in the fight goes last.
    ``survive``: a burning creature that wants to, and may (:func:`can_survive`), spends
    1 HD of its fresh ones to survive the burn instead.
    """
    c = c.copy()
    return c, start_round_in_place(c, finish=finish, options=options, survive=survive)


def start_round_in_place(
    c: Combatant,
    *,
    finish: str | None = None,
    options: Options = DEFAULT_OPTIONS,
    survive: bool = False,
) -> RoundStart:
    """:func:`start_round` on ``c`` itself."""
    burn: HdLoss | None = None
    survived = False
    burning = c.burning and not is_out(c)
    if burning and not (survive and can_survive(_refreshed(c), options)):
        before = c.hit_dice
        lose_hd_in_place(c, BURNING_HD, "burning", None, finish, options)
        burn = HdLoss("burning", before - c.hit_dice, before, c.hit_dice, None, c.status)
    _refresh_in_place(c)
    if burning and burn is None:
        spend_in_place(c, SURVIVE_COST, "survive")
        survived = True
    if burn is None and not survived:  # most rounds: a frozen record, one per pair, shared
        key = (c.spendable, c.goes_last)
        start = _PLAIN_STARTS.get(key)
        if start is None:
            start = _PLAIN_STARTS[key] = RoundStart(c.spendable, None, c.goes_last)
        return start
    return RoundStart(c.spendable, burn, c.goes_last, survived)


_PLAIN_STARTS: dict[tuple[int, bool], RoundStart] = {}


def _refreshed(c: Combatant) -> Combatant:
    """``c`` at the start of a round: spendable HD refreshed, a late-comer counting down."""
    c = c.copy()
    _refresh_in_place(c)
    return c


def _refresh_in_place(c: Combatant) -> None:
    """:func:`_refreshed` on ``c`` itself."""
    c.spendable = c.hit_dice if c.maneuver_dice is None else min(c.hit_dice, c.maneuver_dice)
    c.goes_last = c.late_rounds > 0
    c.late_rounds = max(0, c.late_rounds - 1)
    if c.burning:
        c.armor_pool = 0


def start_turn(c: Combatant) -> Combatant:
    """Start of the creature's own turn: it may dodge again after its mighty attack."""
    if not c.mighty_attack_pending:
        return c
    return c.evolve(mighty_attack_pending=False)


def end_turn(c: Combatant, options: Options = DEFAULT_OPTIONS) -> Combatant:
    """End of the creature's own turn: a fleeing one is ``fled`` after ``flee_turns`` [H]."""
    if c.status != Status.FLEEING:
        return c
    turns = c.fleeing_turns + 1
    status = Status.FLED if turns >= options.flee_turns else Status.FLEEING
    return c.evolve(fleeing_turns=turns, status=status)


def end_round(c: Combatant) -> Combatant:
    """End of a round: distraction and a hazard's armor 0 wear off."""
    if not (c.distracted or c.exposed):
        return c
    return c.evolve(distracted=False, exposed=False)


def back_into_fight(c: Combatant, hit_dice: int) -> Combatant:
    """A creature brought back into the fight with ``hit_dice`` HD.

    It goes last for the next 2 rounds and cannot spend HD to act sooner.
    """
    if hit_dice < 1:
        raise SimError(f"a creature comes back with 1 or more HD, got {hit_dice}")
    return c.evolve(
        status=Status.ACTIVE,
        hit_dice=hit_dice,
        spendable=0,
        late_rounds=BACK_IN_ROUNDS,
        goes_last=True,
        fleeing_turns=0,
        damaged_while_fleeing=False,
    )


def can_heal(patient: Combatant, top_hd: int) -> bool:
    """True if healing tools can help ``patient``: not dead, fewer HD than ``top_hd``."""
    return patient.status != Status.DEAD and patient.hit_dice < top_hd


def heal(patient: Combatant, top_hd: int) -> Combatant:
    """``patient`` after one use of healing tools: 1 HD back, never above ``top_hd`` [H].

    Lost HD come back by "healing tools" [S]; one use giving 1 HD, as 8 hours of rest do, is
    a house rule. An incapacitated creature healed is back in the fight
    (:func:`back_into_fight`: it goes last for 2 rounds). The healer's maneuver and its
    tool are the caller's (:func:`use_healing_tool`).
    """
    if not can_heal(patient, top_hd):
        raise SimError(f"nothing to heal: {patient.hit_dice} of {top_hd} HD, {patient.status}")
    hd = min(top_hd, patient.hit_dice + HEAL_HD)
    if is_out(patient):
        return back_into_fight(patient, hd)
    return patient.evolve(hit_dice=hd)


def use_healing_tool(healer: Combatant) -> Combatant:
    """``healer`` with one use of its healing tools gone."""
    if healer.healing_tools < 1:
        raise SimError("no healing tools left")
    return healer.evolve(healing_tools=healer.healing_tools - 1)


@dataclass(frozen=True, slots=True)
class ArmorRecovery:
    """One HD spent at the start of a turn to recover armor."""

    roll: int
    before: int
    after: int

    def describe(self) -> str:
        """E.g. ``recover armor: d8 = 5, armor 1 -> 6``."""
        return f"recover armor: d8 = {self.roll}, armor {self.before} -> {self.after}"


def can_recover_armor(c: Combatant) -> bool:
    """True if spending 1 HD on armor could help: below the maximum and not burning."""
    return not c.burning and c.armor_pool < c.armor_max and can_spend(c, RECOVER_COST, "recover")


def recover_armor(c: Combatant, rng: np.random.Generator) -> tuple[Combatant, ArmorRecovery]:
    """Spend 1 HD at the start of a turn: roll a d8 and add it to the pool, capped at the max."""
    if not can_recover_armor(c):
        raise SimError("cannot recover armor now (no HD to spend, burning, or pool full)")
    if type(rng) is not np.random.Generator:  # an enumerating die: a branch per pool after
        got: ArmorRecovery = outcome(rng, _recovery, c.armor_pool, c.armor_max, key=_after)
        return spend(c, RECOVER_COST, "recover").evolve(armor_pool=got.after), got
    roll = _d(rng, HD_SIDES)  # _recovery's lines, inline (a real die's path, as before)
    pool = min(c.armor_max, c.armor_pool + roll)
    c2 = spend(c, RECOVER_COST, "recover").evolve(armor_pool=pool)
    return c2, ArmorRecovery(roll, c.armor_pool, pool)


def _recovery(rng: np.random.Generator, pool: int, armor_max: int) -> ArmorRecovery:
    roll = _d(rng, HD_SIDES)
    return ArmorRecovery(roll, pool, min(armor_max, pool + roll))


def _after(r: ArmorRecovery) -> int:
    return r.after  # the roll itself is only shown in the log


def recover_armor_dist(armor_pool: int, armor_max: int) -> Dist:
    """Exact distribution of the pool after :func:`recover_armor`."""
    _check_pool(armor_pool)
    return Dist.die(HD_SIDES).map(lambda r: min(armor_max, armor_pool + r))
