"""War Game (seed 002, RULES.md 1): a creature's turn of maneuvers paid in HD.

Attack, cover, hazards, distractions, breaking free, armor recovery, putting out a fire;
on a map moves and pushes into hazard cells; at large scale leader killing. The defender's
dodge-or-armor choice is made after seeing the damage [H]. The frame's own War Game rules
(morale, turn order, scale) live in :mod:`sim.battle.battle`; the seed's literal faction pools in
:mod:`sim.frame.pools`.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from sim.aftermath import Aftermath
from sim.aftermath.wargame import WarGameAftermath
from sim.errors import SimError
from sim.frame.morale import flee
from sim.rules import wargame
from sim.rules.common import Status
from sim.systems.base import System
from sim.systems.blows import How, land, roll_blow
from sim.systems.called import call_shot, pay_attack
from sim.systems.common import (
    choose_target,
    enter_cover,
    hit_object,
    map_target,
    objective,
    only_fleeing,
    plan_move,
    rank_and_file,
    take_cover,
)

if TYPE_CHECKING:
    from sim.frame.agents import Fighter
    from sim.frame.turns import TurnFrame
    from sim.options import BattleOptions

YARD = 3.0  # feet


class WarGame(System):
    """The War Game: every fighter's turn is a string of maneuvers paid in HD."""

    name: ClassVar[str] = wargame.NAME
    rules: ClassVar[ModuleType] = wargame
    aftermath: ClassVar[type[Aftermath]] = WarGameAftermath
    jumps_in: ClassVar[bool] = True

    def frame(self, options: Any, values: Mapping[str, Any]) -> wargame.Options:
        """The War Game's own options are the frame's."""
        if values:
            raise SimError("frame: War Game frame options go in rules.options under wargame")
        result: wargame.Options = options
        return result

    def start_status(self, f: Fighter) -> Status:
        """Out of the fight at 0 HD."""
        return Status.INCAPACITATED if f.wg.hit_dice == 0 else Status.ACTIVE

    def morale_hd(self, f: Fighter, opts: BattleOptions) -> int:
        """The creature's current HD (2 fewer if shaken, a lingering condition)."""
        return wargame.morale_hd(f.wg)

    def carry_in(self, f: Fighter, carried: Mapping[str, Any]) -> None:
        """Its hit dice after rest, if fewer than its full HD, and its lingering conditions."""
        hd = carried.get("hd")
        if hd is not None and hd < f.wg.hit_dice:
            f.wg = f.wg.evolve(hit_dice=hd, spendable=min(f.wg.spendable, hd))
        for condition in carried.get("wg_conditions", ()):
            f.wg = wargame.add_condition(f.wg, condition)

    def carry_out(
        self, f: Fighter | None, survivor: Mapping[str, Any], carried: Mapping[str, Any]
    ) -> dict[str, Any]:
        """Its hit dice at the end of the aftermath, and its conditions (they last [H])."""
        kept = tuple(f.wg.conditions) if f is not None else carried.get("wg_conditions", ())
        return {"hd": survivor["hd"], "wg_conditions": kept} if kept else {"hd": survivor["hd"]}

    def take_turn(self, b: TurnFrame, f: Fighter) -> None:
        """``f``'s maneuvers (:func:`turn`)."""
        turn(b, f)

    def is_ranged(self, f: Fighter) -> bool:
        """A bow or a gun (not while disarmed)."""
        return arms(f).ranged

    def range_ft(self, b: TurnFrame, f: Fighter) -> float:
        """The warbow's 400 yards [S]; a gun's ``gun_range_yd`` [H]; melee 0."""
        w = arms(f)
        if not w.ranged:
            return 0.0
        return (w.range_yards or b.opts.gun_range_yd) * YARD

    def shoots_past_cover(self, b: TurnFrame, f: Fighter) -> bool:
        """War Game bows and guns do not waste shots on enemies behind protecting cover [H]."""
        return b.field is not None and b.field.range_ft(f) > 0

    def covered(self, b: TurnFrame, f: Fighter, e: Fighter) -> bool:
        """Whether ``e``'s cell gives cover that stops ``f``'s standard ranged attack."""
        assert b.field is not None
        terrain = b.field.cover(e, f)
        if terrain is None:
            return False
        cover = wargame.factor("cover", terrain.name)
        return wargame.cover_protects(cover, b.frame, loud=wargame.is_loud(e.wg))


def cover_of(b: TurnFrame, f: Fighter, target: Fighter) -> wargame.Factor | None:
    """The cover ``target`` is in against ``f``'s attack, if any.

    Off a map: the first cover in play that shelters the target (loud armor is heard in
    cover that hides, ``wargame.loud_armor``), while it is in cover; on a map its cell's.
    """
    if b.field is None:
        if not b.in_cover(target):
            return None
        loud = wargame.is_loud(target.wg)
        return next(
            (c for c in b.factors_of("cover") if wargame.cover_protects(c, b.frame, loud=loud)),
            None,
        )
    terrain = b.field.cover(target, f)
    return None if terrain is None else wargame.factor("cover", terrain.name)


def arms(f: Fighter) -> wargame.Weapon:
    """The weapon ``f`` fights with: its own, or ``plain`` while disarmed."""
    return wargame.weapon(wargame.wielded(f.wg, f.spec.weapon))


def armed(f: Fighter) -> bool:
    """Whether ``f`` holds a weapon with a property (one worth taking from it)."""
    return arms(f).effect != "none"


def turn(b: TurnFrame, f: Fighter) -> None:
    """``f``'s War Game turn: its maneuvers, paid in HD, until it keeps its reserve.

    A fleeing creature only runs (it may strike back if damaged while fleeing; a blow that
    ends the battle leaves it on the field). Otherwise:
    put out a fire, try to break free, recover armor (:func:`start_of_turn`), then maneuver:
    on a map (:func:`map_maneuver`), else :func:`maneuver`.
    """
    f.wg = wargame.start_turn(f.wg)
    if f.status == Status.FLEEING:
        if f.wg.damaged_while_fleeing and wargame.can_maneuver(f.wg, "attack", b.frame):
            target = choose_target(b, f)
            if target is not None:
                attack(b, f, target)
        if not b.ended:  # its blow may have ended the battle: then it is still there
            flee(b, f)
        return
    f.fought = True
    start_of_turn(b, f)
    acted = False
    used_factor = False
    while f.active and not b.ended:
        cost = wargame.price_now(f.wg, "attack", b.frame)
        if not cost:
            break
        if acted and f.wg.spendable - cost < reserve(b, f):
            break
        if not b.has_enemies(f):
            break
        done = (
            map_maneuver(b, f, used_factor) if b.field is not None else maneuver(b, f, used_factor)
        )
        if done is None:
            break
        acted = True
        used_factor = used_factor or done in ("factor", "contest")


def start_of_turn(b: TurnFrame, f: Fighter) -> None:
    """What comes before the maneuvers.

    Put out a fire, try to break free (a grapple ends by itself when the holder is out),
    stand up, pick up a lost weapon, recover armor.
    """
    t = b.tactic_of(f)
    if f.wg.burning and wargame.can_maneuver(f.wg, "extinguish", b.frame):
        f.wg, paid = wargame.put_out_fire(f.wg, b.frame)
        b.note(f.name, "puts out the fire", result=paid.describe())
    holder = holder_of(b, f)
    if f.wg.grappled and (holder is None or not holder.active):
        f.wg = f.wg.evolve(grappled=False, held_by=None)
        b.note(f.name, "released", result="its holder is no longer fighting")
    if wargame.is_held(f.wg) and t.break_free and wargame.can_maneuver(f.wg, "contest", b.frame):
        f.wg, paid = wargame.pay_maneuver(f.wg, "contest", b.frame)
        grip = holder.wg.strength if holder is not None and f.wg.grappled else 0
        f.wg, contest = wargame.try_break_free(f.wg, b.rng, b.frame, hold_strength=grip)
        free = not wargame.is_held(f.wg)
        b.note(f.name, "breaks free" if free else "fails to break free", result=contest.describe())
    get_up(b, f)
    if (
        t.wants_recover(f.wg.armor_pool, f.wg.armor_max)
        and wargame.can_recover_armor(f.wg)
        and f.wg.spendable > 1
    ):
        f.wg, rec = wargame.recover_armor(f.wg, b.rng)
        b.note(f.name, "recovers armor", result=rec.describe())


def get_up(b: TurnFrame, f: Fighter) -> None:
    """A fighter on the ground stands up, a disarmed one picks up its weapon: maneuvers [H]."""
    if f.wg.prone and wargame.can_maneuver(f.wg, "move", b.frame):
        f.wg, paid = wargame.pay_maneuver(f.wg, "move", b.frame)
        if not paid.needs_eight or wargame.roll_broken_bones(b.rng):
            f.wg = wargame.stand_up(f.wg)
            b.note(f.name, "stands up", result=paid.describe())
    if f.wg.disarmed and wargame.can_maneuver(f.wg, "other", b.frame):
        f.wg, paid = wargame.pay_maneuver(f.wg, "other", b.frame)
        f.wg = wargame.pick_up_weapon(f.wg)
        b.note(f.name, "picks up its weapon", result=paid.describe())


def maneuver(b: TurnFrame, f: Fighter, used_factor: bool) -> str | None:
    """One maneuver of ``f``'s turn without a map; what it was, or None if it does nothing.

    Heal an ally with healing tools, take cover from a ranged enemy, work on a ``destroy``
    goal; once every enemy left is fleeing, nothing more unless the tactic pursues; try
    leader killing (large scale), once a turn a contested maneuver or a factor on the
    target, or attack it.
    """
    t = b.tactic_of(f)
    if tend(b, f):
        return "heal"
    cover = take_cover(b, f)
    if cover is not None and wargame.can_maneuver(f.wg, "factor", b.frame):
        f.wg, _ = wargame.pay_maneuver(f.wg, "factor", b.frame)
        enter_cover(b, f, cover)
        return "cover"
    goal = objective(b, f)
    if goal is not None:
        f.wg, paid = wargame.pay_maneuver(f.wg, "attack", b.frame)
        dice = wargame.attack_dice(f.wg, paid.cost)
        roll = wargame.roll_damage(dice, b.rng, b.frame.damage, max_damage=b.frame.max_damage)
        hit_object(b, f, goal, roll.total, roll.describe())
        return "attack"
    if not t.pursue and only_fleeing(b, f):
        return None
    lead = enemy_leader(b, f) if b.large and t.leader_killing == "always" else None
    if lead is not None and wargame.can_maneuver(f.wg, "leader_killing", b.frame):
        leader_killing(b, f, lead)
        return "leader_killing"
    target = choose_target(b, f)
    assert target is not None
    if not used_factor and contest(b, f, target):
        return "contest"
    if not used_factor and invoke_factor(b, f, target):
        return "factor"
    attack(b, f, target)
    return "attack"


def patient_for(b: TurnFrame, f: Fighter) -> Fighter | None:
    """The ally ``f``'s tactic would heal now (``heal``), or None.

    ``fallen``: an incapacitated ally (the first in the side's order); ``wounded``: that, else
    the ally in the fight (``f`` included) missing the most HD, 2 or more.
    """
    mode = b.tactic_of(f).heal
    if mode == "never" or f.wg.healing_tools < 1:
        return None
    allies = b.sides[f.side].fighters
    fallen = [
        x for x in allies if x.status == Status.INCAPACITATED and wargame.can_heal(x.wg, top(x))
    ]
    if fallen or mode == "fallen":
        return fallen[0] if fallen else None
    hurt = [x for x in allies if x.in_fight and top(x) - x.wg.hit_dice >= 2]
    return max(hurt, key=lambda x: top(x) - x.wg.hit_dice, default=None)


def top(f: Fighter) -> int:
    """The HD ``f`` had when the battle began: healing never goes above them."""
    return f.spec.hit_dice


def tend(b: TurnFrame, f: Fighter) -> bool:
    """``f`` uses its healing tools on an ally (a maneuver, one use: 1 HD) if its tactic wants.

    An incapacitated ally healed is back in the fight: it goes last for 2 rounds (RULES.md
    1.6 "getting back into it").
    """
    patient = patient_for(b, f)
    if patient is None or not wargame.can_maneuver(f.wg, "other", b.frame):
        return False
    f.wg, paid = wargame.pay_maneuver(f.wg, "other", b.frame)
    f.wg = wargame.use_healing_tool(f.wg)
    back = patient.status == Status.INCAPACITATED
    patient.wg = wargame.heal(patient.wg, top(patient))
    what = f"1 HD back, {patient.wg.hit_dice} HD"
    if back:
        what += "; back in the fight, goes last for 2 rounds"
        b.set_status(patient, Status.ACTIVE)
    b.note(f.name, "heals", patient.name, result=f"{what} ({paid.describe()})")
    return True


def holder_of(b: TurnFrame, f: Fighter) -> Fighter | None:
    """The fighter grappling ``f``, if any."""
    if f.wg.held_by is None:
        return None
    return next((x for x in b.all_fighters() if x.name == f.wg.held_by), None)


def contest(b: TurnFrame, f: Fighter, target: Fighter) -> bool:
    """A grapple, shove or disarm on ``target`` if the tactic wants one (RULES.md 1.7).

    Its tactic's :meth:`~sim.scenario.tactics.Tactic.contest_kind` names it; nothing is tried on a
    target already grappled, on the ground or disarmed as that maneuver would leave it.
    """
    t = b.tactic_of(f)
    if t.contest == "never":  # contest_kind's None, without working out its arguments
        return False
    kind = t.contest_kind(
        arms(f).trigger == "helpless_target", armed(target), wargame.can_dodge(target.wg)
    )
    done = {"grapple": target.wg.grappled, "shove": target.wg.prone, "disarm": target.wg.disarmed}
    if kind is None or done[kind] or not target.active:
        return False
    if not wargame.can_maneuver(f.wg, "contest", b.frame):
        return False
    f.wg, paid = wargame.pay_maneuver(f.wg, "contest", b.frame)
    target.wg, use = wargame.contest_maneuver(
        kind, f.wg, target.wg, b.rng, attacker_dice=paid.cost, by=f.name, options=b.frame
    )
    b.note(f.name, kind, target.name, result=use.describe())
    return True


def reserve(b: TurnFrame, f: Fighter) -> int:
    """HD ``f`` keeps unspent for dodging on its turn.

    Its tactic's reserve while an enemy may still attack it this round; with ``all_in_last``
    none once every enemy has acted (spent HD come back when the next round starts).
    """
    t = b.tactic_of(f)
    if t.all_in_last and not b.enemy_waiting(f):
        return 0
    return t.reserve


def enemy_leader(b: TurnFrame, f: Fighter) -> Fighter | None:
    """The first enemy leader still in the fight (leader killing's target)."""
    return next(
        (x for s in b.sides.values() if s.name != f.side for x in s.leaders if x.in_fight),
        None,
    )


def leader_killing(b: TurnFrame, f: Fighter, lead: Fighter) -> None:
    """A large-scale leader-killing maneuver by ``f`` (RULES.md 1.12 [S]).

    1 HD rolled: 7 or more, the enemy leader is incapacitated (or killed, as ``finish``
    says); less, ``f``'s faction loses 1 HD for every point short: as many wounds on its
    members, the enemy choosing which (its weakest first, the leader last) [I].
    """
    f.wg, _ = wargame.pay_maneuver(f.wg, "leader_killing", b.frame)
    lk = wargame.roll_leader_killing(b.rng)
    b.note(f.name, "leader killing", lead.name, dice=f"d8={lk.roll}", result=lk.describe())
    if lk.success:
        out = Status.DEAD if b.frame.finish == "kill" else Status.INCAPACITATED
        lead.wg = lead.wg.evolve(status=out)
        b.harmed(f, lead, 1, 0)
        b.set_status(lead, out)
        return
    own = b.sides[f.side]
    enemy = b.sides[lead.side]
    with b.together():
        for _ in range(lk.attacker_hd_lost):
            members = [m for m in own.fighters if m.in_fight]
            victim = enemy.tactic.choose_target(rank_and_file(b, members), b.rng)
            if victim is None:
                break
            before = victim.wg.hit_dice
            victim.wg, _ = wargame.lose_hd(victim.wg, 1, source="leader_killing", options=b.frame)
            after_harm(b, None, victim, 1, before - victim.wg.hit_dice)


def invoke_factor(b: TurnFrame, f: Fighter, target: Fighter, *, hazards: bool = True) -> bool:
    """Invoke a hazard or distraction on ``target`` if the tactic wants to; True if done.

    On a map hazards are cells (:func:`map_maneuver`), so ``hazards`` is False.
    """
    if not b.factors:  # no hazard, no distraction
        return False
    t = b.tactic_of(f)
    hazard = next(iter(b.factors_of("hazard")), None)
    if hazards and t.hazard and hazard is not None and target.active and target.wg.stuck_in is None:
        f.wg, paid = wargame.pay_maneuver(f.wg, "contest", b.frame)
        before = target.wg.hit_dice
        target.wg, use = wargame.push_into_hazard(
            f.wg,
            target.wg,
            hazard,
            b.rng,
            attacker_dice=paid.cost,
            options=b.frame,
            survive=survives(b, target, hazard),
        )
        lost = before - target.wg.hit_dice
        b.note(f.name, "hazard", target.name, result=use.describe())
        after_harm(b, f, target, lost, lost)
        return True
    distraction = next(
        (d for d in b.factors_of("distraction") if wargame.can_distract(target.wg, d, b.frame)),
        None,
    )
    if t.distract and distraction is not None and target.active:
        f.wg, _ = wargame.pay_maneuver(f.wg, "factor", b.frame)
        target.wg, use = wargame.distract(target.wg, distraction, b.frame)
        b.note(f.name, "distraction", target.name, result=use.describe())
        return True
    return False


def attack(b: TurnFrame, f: Fighter, target: Fighter) -> None:
    """``f`` attacks ``target``.

    Mighty if its tactic says so; the damage rolled; the defender dodging, blocking with an
    inventory slot or letting its armor absorb (its tactic's
    :meth:`~sim.scenario.tactics.Tactic.defence`);
    on a map a spear's hit shoves (the blow itself: :func:`land`).
    """
    sides = b.sides
    t = sides[f.side].tactic
    weapon = arms(f)
    guard = sides[target.side].tactic
    frame = b.frame
    tw = target.wg  # the target's record, which the blow changes in place
    can_block = wargame.can_block(tw, frame)
    can_dodge = wargame.can_dodge(tw)
    avoids = can_dodge or (can_block and guard.block != "never")
    pool = wargame.effective_pool(tw)
    mighty = t.wants_mighty(pool, avoids)
    if mighty:
        wargame.declare_mighty_in_place(f.wg)
    called = call_shot(b, f, target, avoids, weapon)
    dice, word = pay_attack(b, f, target, called, mighty)
    if dice is None:
        return
    in_cover = cover_of(b, f, target)
    rng = b.rng
    two_handed = f.spec.two_handed and wargame.can_two_hand(f.wg)
    how: How = (
        two_handed, f.spec.mounted, weapon, guard, called, mighty, can_dodge, can_block, in_cover,
        frame,
    )  # fmt: skip
    if type(rng) is np.random.Generator:  # the real die: roll_blow's first line, inline
        roll = wargame.roll_damage(dice, rng, frame.damage, max_damage=frame.max_damage)
    else:
        roll = roll_blow(rng, dice, frame, tw, how)
    before = tw.hit_dice
    subdued = tw.subdued
    blow = land(*how, roll, tw, rng)
    if b.log is not None:  # describing the blow costs more than the blow; only when logged
        b.note(f.name, word, target.name, dice=roll.describe(), result=blow.hit().describe())
    if blow.damage > 0 and not blow.dodged:
        b.damaged()
    after_harm(b, f, target, len(blow.wounds), before - target.wg.hit_dice)
    if weapon.effect == "subdue" and target.wg.subdued and not subdued and target.active:
        whip_follow(b, f, target)
    if b.field is not None and blow.shoved_ft and target.in_fight:
        hazard = b.field.shove(f, target, blow.shoved_ft)
        if hazard:
            into_hazard(b, f, target, hazard)


def push_beside(b: TurnFrame, f: Fighter, target: Fighter, beside: Any) -> None:
    """On a map, ``f`` pushes ``target`` into the hazard cell ``beside`` it (a contest)."""
    assert b.field is not None
    name = b.field.spec.hazard(beside)
    f.wg, paid = wargame.pay_maneuver(f.wg, "contest", b.frame)
    before = target.wg.hit_dice
    target.wg, use = wargame.push_into_hazard(
        f.wg,
        target.wg,
        name,
        b.rng,
        attacker_dice=paid.cost,
        options=b.frame,
        survive=survives(b, target, name),
    )
    if use.applied:
        b.field.put(target, beside)
    lost = before - target.wg.hit_dice
    b.note(f.name, "hazard", target.name, result=use.describe())
    after_harm(b, f, target, lost, lost)


def whip_follow(b: TurnFrame, f: Fighter, target: Fighter) -> None:
    """A whip's subduing blow also disarms or knocks down, as ``f``'s tactic says.

    "At the same time" [S]: no contest and no cost.
    """
    follow = b.tactic_of(f).whip_follow(armed(target))
    if follow is not None:
        target.wg, what = wargame.win_contest(target.wg, follow, f.name)
        b.note(f.name, f"whip: {follow}", target.name, result=what)


def map_maneuver(b: TurnFrame, f: Fighter, used_factor: bool) -> str | None:
    """One maneuver of ``f``'s turn on a map; what it did, or None if it does nothing.

    A ``destroy`` goal stays abstract. Once every enemy left is fleeing, nothing more unless
    the tactic pursues. With an enemy in reach: push it into a hazard beside it (a contested
    maneuver, once a turn, if the tactic wants), a distraction in play, or an attack. With
    none: a move maneuver (close in or disengage), unless the formation holds.
    """
    assert b.field is not None
    goal = objective(b, f)
    if goal is not None:
        f.wg, paid = wargame.pay_maneuver(f.wg, "attack", b.frame)
        dice = wargame.attack_dice(f.wg, paid.cost)
        roll = wargame.roll_damage(dice, b.rng, b.frame.damage, max_damage=b.frame.max_damage)
        hit_object(b, f, goal, roll.total, roll.describe())
        return "attack"
    if not b.tactic_of(f).pursue and only_fleeing(b, f):
        return None
    target = map_target(b, f)
    if target is None:
        if not wargame.can_maneuver(f.wg, "move", b.frame):
            return None
        plan = plan_move(b, f, b.opts.move_ft * wargame.move_share(f.wg))
        if plan is None:
            return None
        f.wg, paid = wargame.pay_maneuver(f.wg, "move", b.frame)
        if paid.needs_eight and not wargame.roll_broken_bones(b.rng):
            b.note(f.name, "move", result="broken bones: the move fails")
            return "move"
        plan()
        return "move"
    t = b.tactic_of(f)
    beside = b.field.hazard_beside(target)
    if (
        t.hazard
        and not used_factor
        and beside is not None
        and target.active
        and target.wg.stuck_in is None
        and b.field.engaged_with(f, target)
        and wargame.can_maneuver(f.wg, "contest", b.frame)
    ):
        push_beside(b, f, target, beside)
        return "factor"
    if not used_factor and b.field.engaged_with(f, target) and contest(b, f, target):
        return "contest"
    if invoke_factor(b, f, target, hazards=False):
        return "factor"
    attack(b, f, target)
    return "attack"


def into_hazard(b: TurnFrame, f: Fighter, target: Fighter, hazard: str) -> None:
    """``target`` lands in a hazard on the map: its effects apply (RULES.md 1.10)."""
    before = target.wg.hit_dice
    target.wg, use = wargame.apply_hazard(
        target.wg, hazard, options=b.frame, survive=survives(b, target, hazard)
    )
    lost = before - target.wg.hit_dice
    b.note(f.name, "hazard", target.name, result=use.describe())
    after_harm(b, f, target, lost, lost)


def survives(b: TurnFrame, target: Fighter, hazard: str | wargame.Factor) -> bool:
    """Whether ``target`` would spend 1 HD to survive a hazard's wound (option ``survive``).

    Its tactic decides as it decides a dodge (:meth:`~sim.scenario.tactics.Tactic.wants_dodge`): the
    hazard wounds, and takes it out if it has no more HD than the hazard takes.
    """
    return b.tactic_of(target).wants_dodge(True, target.wg.hit_dice <= wargame.hazard_hd(hazard))


def after_harm(b: TurnFrame, f: Fighter | None, target: Fighter, wounds: int, lost: int) -> None:
    """Book the wounds and lost HD ``f`` did to ``target``, and its new status."""
    b.harmed(f, target, wounds, lost)
    if target.wg.status != target.status:
        b.set_status(target, target.wg.status)
