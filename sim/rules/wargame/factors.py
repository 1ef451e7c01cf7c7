"""War Game environmental factors: cover, distractions, hazards, fire, breaking free.

Follows seed ``002_5306f142c0f73876.txt`` (RULES.md 1.10 environmental factors; 1.4 burning).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.dice import Dist
from sim.errors import SimError
from sim.rules.common import Status
from sim.rules.wargame.base import HAZARD_HD, SURVIVE_COST
from sim.rules.wargame.combatant import Combatant
from sim.rules.wargame.contests import (
    Contest,
    _contest_setup,
    contest_dist,
    contested_maneuver,
    contested_maneuver_dist,
    roll_contest,
)
from sim.rules.wargame.maneuvers import Maneuver, pay_maneuver, spend
from sim.rules.wargame.options import DEFAULT_OPTIONS, Options
from sim.rules.wargame.rounds import can_survive
from sim.rules.wargame.tables import Factor, factor
from sim.rules.wargame.wounds import HdLoss, lose_hd


def cover_protects(
    cover: str | Factor, options: Options = DEFAULT_OPTIONS, *, loud: bool = False
) -> bool:
    """Whether ``cover`` stops standard ranged attacks on a creature [S, I].

    As the d8 table says (fog, bushes and pits give "no real protection"); with
    ``weak_cover="protects"`` every cover does. A ``loud`` creature (one in loud armor,
    :func:`~sim.rules.wargame.combatant.is_loud`) gets nothing from cover that hides
    (:func:`heard_in_cover`).
    """
    f = factor("cover", cover)
    shelters = f.protects or options.weak_cover == "protects"
    return shelters and not heard_in_cover(f, loud, options)


def heard_in_cover(cover: str | Factor, loud: bool, options: Options = DEFAULT_OPTIONS) -> bool:
    """Whether a creature's loud armor gives it away in ``cover`` [I] (``loud_armor``).

    Chain, scale and plate are "loud as hell" [S]; cover that shelters by hiding (fog,
    bushes "hide your location", trees whose animals "flee the canopy when noise is made
    close by": the data's ``hides``) does not hide a ``loud`` creature under
    ``loud_armor="heard"``. Physical cover (walls, ruins, furniture, creatures) still does.
    """
    return loud and options.loud_armor == "heard" and factor("cover", cover).hides


def put_out_fire(c: Combatant, options: Options = DEFAULT_OPTIONS) -> tuple[Combatant, Maneuver]:
    """Put out a fire on ``c``: a maneuver [H] (``extinguish="one_hd"``: 1 HD)."""
    if not c.burning:
        raise SimError("the creature is not burning")
    if options.extinguish == "maneuver":
        c, paid = pay_maneuver(c, "extinguish", options)
    else:
        c, paid = spend(c, 1, "extinguish"), Maneuver("extinguish", 1, False)
    return c.evolve(burning=False), paid


def break_free(c: Combatant) -> Combatant:
    """``c`` out of a hazard, grapple or subdual; a hazard's slowing ends with it [I]."""
    return c.evolve(
        subdued=False, grappled=False, held_by=None, stuck_in=None, movement_penalty_ft=0
    )


def is_held(c: Combatant) -> bool:
    """True while ``c`` is stuck in a hazard, grappled or subdued."""
    return c.stuck_in is not None or c.grappled or c.subdued


def try_break_free(
    c: Combatant,
    rng: np.random.Generator,
    options: Options = DEFAULT_OPTIONS,
    *,
    hold_strength: int = 0,
) -> tuple[Combatant, Contest]:
    """A held creature's contested maneuver to break free (RULES.md 1.10 [I]).

    It rolls a d8 and adds its Strength or Athletics; the hold (hazard, grapple or subdual)
    rolls a d8 with nothing added [H], a grappler's adds its Strength (``hold_strength``) [H].
    Ties go as ``contest_ties`` says (default: the hold). The caller pays the maneuver. On a
    win the creature is free (:func:`break_free`).
    """
    result = roll_contest(c.strength, hold_strength, rng, options=options)
    return (break_free(c) if result.winner == "attacker" else c), result


def break_free_dist(
    c: Combatant, options: Options = DEFAULT_OPTIONS, *, hold_strength: int = 0
) -> Dist:
    """Exact chance of :func:`try_break_free` (``True``: the creature is free)."""
    return contest_dist(c.strength, hold_strength, options=options).map(lambda w: w == "attacker")


@dataclass(frozen=True, slots=True)
class FactorUse:
    """An environmental factor invoked on a target and what it did."""

    factor: str
    kind: str
    applied: bool
    contest: Contest | None
    loss: HdLoss | None
    effects: tuple[str, ...]

    def describe(self) -> str:
        """A log line."""
        parts = [f"{self.kind} {self.factor}"]
        if self.contest is not None:
            parts.append(self.contest.describe())
        if not self.applied:
            parts.append("no effect")
        if self.loss is not None:
            parts.append(self.loss.describe())
        parts.extend(self.effects)
        return "; ".join(parts)


def can_distract(
    c: Combatant, distraction: str | Factor, options: Options = DEFAULT_OPTIONS
) -> bool:
    """True if this distraction may still be used on ``c`` (once per target)."""
    name = factor("distraction", distraction).name
    if options.distraction_limit == "per_target":
        return not c.distracted_by
    return name not in c.distracted_by


def distract(
    c: Combatant, distraction: str | Factor, options: Options = DEFAULT_OPTIONS
) -> tuple[Combatant, FactorUse]:
    """Invoke a distraction on ``c``: it cannot spend HD until the end of the round."""
    f = factor("distraction", distraction)
    if not can_distract(c, f, options):
        raise SimError(f"distraction {f.name!r} was already used on this target")
    c2 = c.evolve(distracted=True, distracted_by=c.distracted_by + (f.name,))
    return c2, FactorUse(f.name, "distraction", True, None, None, ("cannot spend HD this round",))


def hazard_hd(hazard: str | Factor) -> int:
    """HD a hazard takes: 1, and the storm's 1 more."""
    h = factor("hazard", hazard)
    return HAZARD_HD + (h.amount if h.effect == "extra_hd_loss" else 0)


def apply_hazard(
    target: Combatant,
    hazard: str | Factor,
    *,
    finish: str | None = None,
    options: Options = DEFAULT_OPTIONS,
    survive: bool = False,
) -> tuple[Combatant, FactorUse]:
    """A creature caught by a hazard: armor 0 for the round, 1 HD lost, the hazard's effect.

    Effects: subdued, burning, limb unusable, death by falling, 1 HD more, -10 ft, 5 slots.
    The lost HD's wound takes the type the hazard names (fire: burning; spiked pit: broken
    bones), whatever ``wound_types`` says. ``survive``: a creature that wants to, and may
    (:func:`~sim.rules.wargame.rounds.can_survive`: its armor is 0 here), spends 1 HD to
    survive the wound: no HD is lost and the wound (the spiked pit's ruined limb) is not
    taken, but the hazard's own effect (held, on fire, falling, sinking, acid) still is.
    """
    h = factor("hazard", hazard)
    effects: list[str] = []
    c = target.evolve(exposed=True)
    lost: HdLoss | None = None
    if survive and can_survive(c, options):
        c = spend(c, SURVIVE_COST, "survive")
        effects.append("1 HD spent to survive the wound")
    else:
        c, lost = lose_hd(
            c,
            hazard_hd(h),
            source=f"hazard:{h.name}",
            wound_type=h.wound_type or None,
            finish=finish,
            options=options,
        )
    effects.append("armor 0 this round")
    if h.effect == "subdued":
        c = c.evolve(subdued=True, stuck_in=h.name)
        effects.append("subdued")
    elif h.effect == "burning":
        if lost is None:
            c = c.evolve(burning=True, armor_pool=0)
        effects.append("on fire until put out")
    elif h.effect == "limb_unusable":
        effects.append("a limb is unusable" if lost is not None else "the limb is spared")
    elif h.effect == "death_by_falling":
        if c.falling_kills:
            c = c.evolve(status=Status.DEAD)
            effects.append("falls to its death")
        else:
            effects.append("falls, but falling cannot kill it")
    elif h.effect in ("slowed", "inventory_loss"):
        c, more = _stuck_effect(c.evolve(stuck_in=h.name), h)
        effects.append(more)
    return c, FactorUse(h.name, "hazard", True, None, lost, tuple(effects))


def _stuck_effect(c: Combatant, h: Factor) -> tuple[Combatant, str]:
    if h.effect == "slowed":
        return c.evolve(movement_penalty_ft=c.movement_penalty_ft + h.amount), (
            f"movement -{h.amount} ft"
        )
    if h.effect == "inventory_loss":
        return c.evolve(inventory_lost=c.inventory_lost + h.amount), (
            f"{h.amount} inventory slots destroyed"
        )
    return c, ""


def hazard_round(c: Combatant) -> tuple[Combatant, str]:
    """A further round stuck in a hazard: quicksand -10 ft more, acid 5 slots more."""
    if c.stuck_in is None:
        return c, ""
    return _stuck_effect(c, factor("hazard", c.stuck_in))


def _push_core(
    target_after_spend: Combatant,
    winner: str,
    hazard: Factor,
    finish: str | None,
    options: Options,
    survive: bool,
) -> tuple[Combatant, bool, HdLoss | None, tuple[str, ...]]:
    if winner != "attacker":
        return target_after_spend, False, None, ()
    c, use = apply_hazard(
        target_after_spend, hazard, finish=finish, options=options, survive=survive
    )
    return c, True, use.loss, use.effects


def push_into_hazard(
    attacker: Combatant,
    target: Combatant,
    hazard: str | Factor,
    rng: np.random.Generator,
    *,
    attacker_dice: int = 1,
    finish: str | None = None,
    options: Options = DEFAULT_OPTIONS,
    survive: bool = False,
) -> tuple[Combatant, FactorUse]:
    """Invoke a hazard on ``target`` through a contested maneuver [I]; on a win it applies.

    ``survive``: the target spends 1 HD to survive the wound if it still can
    (:func:`apply_hazard`).
    """
    h = factor("hazard", hazard)
    contest: Contest | None = None
    if options.hazard_contest:
        t2, contest = contested_maneuver(
            attacker, target, rng, attacker_dice=attacker_dice, options=options
        )
        winner = contest.winner
    else:
        t2, winner = target, "attacker"
    c, applied, loss, effects = _push_core(t2, winner, h, finish, options, survive)
    return c, FactorUse(h.name, "hazard", applied, contest, loss, effects)


def push_into_hazard_dist(
    attacker: Combatant,
    target: Combatant,
    hazard: str | Factor,
    *,
    attacker_dice: int = 1,
    finish: str | None = None,
    options: Options = DEFAULT_OPTIONS,
    survive: bool = False,
) -> Dist:
    """Exact distribution of the target (a :class:`Combatant`) after :func:`push_into_hazard`."""
    h = factor("hazard", hazard)
    if options.hazard_contest:
        t2, *_ = _contest_setup(attacker, target, attacker_dice, options)
        winners = contested_maneuver_dist(
            attacker, target, attacker_dice=attacker_dice, options=options
        )
    else:
        t2, winners = target, Dist.constant("attacker")
    return winners.map(lambda w: _push_core(t2, w, h, finish, options, survive)[0])
