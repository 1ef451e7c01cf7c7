"""The seed's faction pools at large scale: each faction fights as one pool (RULES.md 1.12).

With ``battle.large_scale: pools`` a faction's pool spends its members' average HD and has
their average armor; its HD are its head count (``rules.options.pool: members``, the
default, and ``headcount``) or the average HD (``literal``); the sides take turns in the
order their leaders rolled once, a turn for each active member (``members``) or one a round;
each turn is one maneuver (an attack, leader killing or a factor); each HD a faction loses
is one member taken out, chosen by the other side; a faction at 0 HD is scattered. The
default large scale (factions taking turns one member at a time) is the frame's own
(:meth:`sim.frame.turns.TurnFrame.take_turns`); the battle runs a round of pools instead
(:meth:`sim.battle.Battle.take_turns`).
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from sim.frame.morale import flee
from sim.rules import wargame
from sim.rules.common import Status

if TYPE_CHECKING:
    from sim.frame.sides import SideState
    from sim.frame.turns import TurnFrame


def pools_round(b: TurnFrame) -> None:
    """Large-scale War Game: the sides take turns in the order rolled once (RULES.md 1.6).

    ``wargame.pool: literal`` (or ``headcount``): each faction takes one turn a round.
    ``members``: as many turns as it has active members, the sides alternating one turn at
    a time and a faction whose turns are spent passing (the alternation carries on into the
    next round, as with factions taking turns). A faction with no active member takes no
    action; its fleeing members run as its first turn of the round comes.
    """
    if b.frame.pool != "members":
        for name in b.large_order():
            s = b.sides[name]
            if b.ended or not b.large:
                return
            if s.defeated:
                continue
            enemy = _enemy_pool(b, s)
            if s.pool is not None and s.active and enemy is not None:
                faction_turn(b, s, enemy)
            _run(b, s)
        return
    order = b.large_order()
    turns = dict.fromkeys(order, 0)
    ran: set[str] = set()
    at, idle = b.next_side, 0
    while not b.ended and b.large and idle < len(order):
        name = order[at % len(order)]
        at += 1
        s = b.sides[name]
        if name not in ran:
            ran.add(name)
            _run(b, s)
            if b.ended or not b.large:
                return
        enemy = _enemy_pool(b, s)
        if s.defeated or s.pool is None or turns[name] >= s.active or enemy is None:
            idle += 1
            continue
        idle = 0
        turns[name] += 1
        faction_turn(b, s, enemy)
        b.next_side = at % len(order)
        b.check_end()


def _enemy_pool(b: TurnFrame, s: SideState) -> SideState | None:
    """The enemy faction ``s`` attacks: the pool with the most HD."""
    enemies = [o for o in b.sides.values() if o is not s and o.pool is not None and not o.defeated]
    return max(enemies, key=lambda o: o.pool.hit_dice if o.pool else 0, default=None)


def _run(b: TurnFrame, s: SideState) -> None:
    """The fleeing members of faction ``s`` run (once a round)."""
    for f in s.fighters:
        if f.status == Status.FLEEING:
            flee(b, f)
    b.check_end()


def _can_act(b: TurnFrame, pool: wargame.Combatant) -> bool:
    """Whether a faction can make a maneuver now: it can pay for one.

    With ``wargame.pool: members`` its member pays, so it always can: a distraction, which
    keeps the faction from spending its pool's HD this round [S], takes its dodges only.
    """
    return b.frame.pool == "members" or wargame.can_maneuver(pool, "attack", b.frame)


def _pay(b: TurnFrame, s: SideState, kind: str) -> int:
    """Dice of faction ``s``'s maneuver of ``kind`` now, paid; 0 if it cannot make one.

    The cost is a creature's: 2 HD, or 1 when the pool has a single HD [S]. With
    ``wargame.pool: literal`` or ``headcount`` the pool pays it out of its HD to spend; with
    ``members`` the member whose turn it is pays, and the pool's dice are left for dodging.
    """
    assert s.pool is not None
    if b.frame.pool == "members":
        return min(wargame.MANEUVER_COST, s.pool.hit_dice)
    price = wargame.price_now(s.pool, kind, b.frame)
    if price:
        s.pool, _ = wargame.pay_maneuver(s.pool, kind, b.frame)
    return price


def faction_weapon(s: SideState) -> str:
    """The weapon most of a faction's standing members carry (roles matter [S])."""
    counts = Counter(f.spec.weapon for f in s.fighters if f.active)
    return counts.most_common(1)[0][0] if counts else "plain"


def faction_turn(b: TurnFrame, s: SideState, e: SideState) -> None:
    """One maneuver of faction ``s`` against faction ``e``.

    Leader killing, an environmental factor (:func:`faction_factor`) or an attack.
    """
    assert s.pool is not None and e.pool is not None
    s.pool = wargame.start_turn(s.pool)
    if not _can_act(b, s.pool):
        return
    t = s.tactic
    lead = e.leader_fighter()
    if t.leader_killing == "always" and lead is not None and lead.in_fight:
        _pay(b, s, "leader_killing")
        lk = wargame.roll_leader_killing(b.rng)
        b.note(s.name, "leader killing", lead.name, dice=f"d8={lk.roll}", result=lk.describe())
        if lk.success:
            out = Status.DEAD if b.frame.finish == "kill" else Status.INCAPACITATED
            b.set_status(lead, out)
            b.harmed(None, lead, 1, 0)
            if b.opts.leader_down == "one_hd":
                before = e.pool.hit_dice
                e.pool, loss = wargame.leader_down(e.pool, options=b.frame)
                b.note(e.name, "leader down", result=loss.describe())
                casualties(b, e, before - e.pool.hit_dice, chooser=s)
        else:
            before = s.pool.hit_dice
            s.pool, loss = wargame.lose_hd(
                s.pool, lk.attacker_hd_lost, source="leader_killing", options=b.frame
            )
            casualties(b, s, before - s.pool.hit_dice, chooser=s)
        check_scattered(b, s)
        check_scattered(b, e)
        return
    if faction_factor(b, s, e):
        return
    mighty = t.wants_mighty(wargame.effective_pool(e.pool), wargame.can_dodge(e.pool))
    if mighty:
        s.pool = wargame.declare_mighty(s.pool)
    dice = _pay(b, s, "attack")
    roll = wargame.roll_damage(dice, b.rng, b.frame.damage, max_damage=b.frame.max_damage)
    weapon = wargame.weapon(faction_weapon(s))
    would_wound = mighty or weapon.ignores_armor or roll.total > wargame.effective_pool(e.pool)
    defence = "armor"
    if wargame.can_dodge(e.pool) and e.tactic.wants_dodge(would_wound, e.pool.hit_dice <= 1):
        defence = "dodge"
    before = e.pool.hit_dice
    e.pool, hit = wargame.resolve_attack(
        e.pool, roll, weapon, defence=defence, mighty=mighty, rng=b.rng, options=b.frame
    )
    if b.log is not None:
        b.note(s.name, "faction attack", e.name, dice=roll.describe(), result=hit.describe())
    if hit.damage > 0 and not hit.dodged:
        b.damaged()
    casualties(b, e, before - e.pool.hit_dice, chooser=s)
    check_scattered(b, e)


def faction_factor(b: TurnFrame, s: SideState, e: SideState) -> bool:
    """Faction ``s`` invokes a factor on faction ``e`` if its tactic wants; True if done.

    "Environmental factors can be used by factions" [S]. A hazard (tactic ``hazard``) is
    pushed on an enemy faction whose armor pool is not empty, since a hazard takes 1 HD
    whatever the armor [H]: a contested maneuver between the two pools, and each HD lost a
    casualty. A distraction (tactic ``distract``) keeps the enemy faction from spending HD
    for the rest of the round, once per distraction.
    """
    assert s.pool is not None and e.pool is not None
    t = s.tactic
    hazard = next(iter(b.factors_of("hazard")), None)
    if t.hazard and hazard is not None and wargame.effective_pool(e.pool) > 0:
        dice = _pay(b, s, "contest")
        if not dice:
            return False
        before = e.pool.hit_dice
        survive = e.tactic.wants_dodge(True, before <= wargame.hazard_hd(hazard))
        e.pool, use = wargame.push_into_hazard(
            s.pool,
            e.pool,
            hazard,
            b.rng,
            attacker_dice=dice,
            options=b.frame,
            survive=survive,
        )
        b.note(s.name, "faction hazard", e.name, result=use.describe())
        if use.applied:
            b.damaged()
        casualties(b, e, before - e.pool.hit_dice, chooser=s)
        check_scattered(b, e)
        return True
    distraction = next(
        (d for d in b.factors_of("distraction") if wargame.can_distract(e.pool, d, b.frame)),
        None,
    )
    if t.distract and distraction is not None and _pay(b, s, "factor"):
        e.pool, use = wargame.distract(e.pool, distraction, b.frame)
        b.note(s.name, "faction distraction", e.name, result=use.describe())
        return True
    return False


def casualties(b: TurnFrame, s: SideState, n: int, chooser: SideState) -> None:
    """``n`` HD a faction lost: one member each taken out, chosen by ``chooser`` [S]."""
    out = Status.DEAD if b.frame.finish == "kill" else Status.INCAPACITATED
    with b.together():  # the casualties of one blow fall together; morale looks after
        for _ in range(n):
            members = [f for f in s.fighters if f.in_fight and not f.leader]
            victim = chooser.tactic.choose_target(members, b.rng)
            if victim is None:
                return
            attacker = None if chooser is s else next(iter(chooser.in_fight()), None)
            b.harmed(attacker, victim, 1, 1)
            victim.wg = victim.wg.evolve(status=out)
            b.set_status(victim, out)


def check_scattered(b: TurnFrame, s: SideState) -> None:
    """A faction at 0 HD: its leader is out, the rest scattered (RULES.md 1.12)."""
    if s.pool is None or not wargame.is_scattered(s.pool) or b.ended:
        return
    lead = s.leader_fighter()
    if lead is not None and lead.in_fight:
        b.set_status(lead, Status.INCAPACITATED)
    b.note(s.name, "scattered", result="the faction is out of HD")
    s.pool = None
    if b.opts.scattered == "fight" or not wargame.is_large_scale(b.standing(), b.frame):
        b.switch_scale(False, hold=b.opts.scattered == "fight")
        return
    scattered = Status.SURRENDERED if b.opts.scattered == "surrendered" else Status.FLED
    for f in s.fighters:
        if f.in_fight:
            b.set_status(f, scattered)
    b.check_end()
