"""How each rule system resolves blows inside the War Game frame.

The frame (:mod:`sim.battle`) decides who acts when; these functions carry out one fighter's
turn, one 2W2P round of fronts, or one large-scale round of faction pools, calling the pure
rules of :mod:`sim.rules` and booking the results on the battle.

- War Game (RULES.md 1): maneuvers paid in HD (attack, cover, hazard, distraction), the
  defender's dodge-or-armor choice made after seeing the damage [H].
- 2W2P (2.4): every front at once, both sides rolling together.
- Deathwish (3): to-hit, the damage roll, the wound level and its effects. Taking cover is
  free for Deathwish and D6 fighters (a move action, not the attack) [H].
- D6 tiers (4): the hit rating against the reaction rolled once per round and the
  difficulty, then damage against the body roll and the damage table's stacking.

On a map (``b.field``, :mod:`sim.field`) a fighter attacks only what it can reach; with
nothing in reach it moves (a War Game move maneuver, a Deathwish move, D6's one space and
sprint), spears shove, hazards are cells one is pushed into, cover comes from the target's
cell, and 2W2P fronts form from fighters next to enemies. Without a map none of this runs.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from sim.agents import is_active, is_in_fight
from sim.dice import D6Code, parse_code
from sim.rules import d6, deathwish, twowp, wargame
from sim.rules.common import Status
from sim.tactics import weakness

if TYPE_CHECKING:
    from sim.agents import Fighter
    from sim.battle import Battle, SideState

# Range bands on a map [H] (sim.field): Deathwish to-hit skill lost, D6 difficulty added.
BAND_SKILL = {"short": 0, "medium": 1, "long": 2}
BAND_DIFFICULTY = {"short": 0, "medium": 5, "long": 10}

# Deathwish hit location by d10 when BattleOptions.deathwish_location == "random" [H].
_LOCATION_D10 = (
    "head",
    "vitals",
    "limb",
    "limb",
    "limb",
    "limb",
    "torso",
    "torso",
    "torso",
    "torso",
)


# ------------------------------------------------------------------------------- turns
def take_turn(b: Battle, f: Fighter) -> None:
    """``f``'s turn under the battle's rule system (small scale, or large with turns)."""
    if not f.in_fight or b.ended:
        return
    if b.rules == "wargame":
        _wargame_turn(b, f)
    elif b.rules == "deathwish":
        _deathwish_turn(b, f)
    elif b.rules == "d6":
        _d6_turn(b, f)
    b.check_end()


def _flee(b: Battle, f: Fighter) -> None:
    """A fleeing fighter's turn: it runs, and is gone after ``flee_turns`` turns [H].

    On a map it runs its move away from the enemy first.
    """
    if b.field is not None and b.field.on_grid(f):
        b.field.away(f, b.field.allowance(f, b.opts.move_ft), b.enemies_of(f))
    f.wg = wargame.end_turn(f.wg, b.frame)
    if f.wg.status == Status.FLED:
        b.set_status(f, Status.FLED)


def _targets(b: Battle, f: Fighter) -> list[Fighter]:
    """Enemies worth attacking: active ones first, fleeing ones if nobody else is left."""
    enemies = b.enemies_of(f)
    active = [e for e in enemies if e.active]
    return active or enemies


def _choose_target(b: Battle, f: Fighter) -> Fighter | None:
    """The enemy ``f``'s tactic chooses among :func:`_targets`.

    A ``weakest`` or ``leader`` tactic reads the enemy sides' indexes (their first leader;
    their weakest fighter, among the active ones or, with none active, those fleeing)
    instead of listing every enemy: the same choice, without a scan per turn. At large scale
    the attacking faction picks from the enemy's rank and file: the leader is reached only
    by leader killing while any other member stands (RULES.md 1.12 [S]).
    """
    t = b.tactic_of(f)
    if t.target not in ("weakest", "leader"):
        return t.choose_target(_rank_and_file(b, _targets(b, f)), b.rng)
    others = [s for s in b.sides.values() if s.name != f.side]
    if any(s.active for s in others):
        eligible, heaps = is_active, [s.weakest_active for s in others]
        ranks = [s.ranks_active for s in others]
    else:
        eligible, heaps = is_in_fight, [s.weakest_standing for s in others]
        ranks = [s.ranks_standing for s in others]
    if t.target == "leader" and not b.large:
        lead = next((x for s in others for x in s.leaders if eligible(x)), None)
        if lead is not None:
            return lead
    if b.large:
        member = min((x for h in ranks if (x := h.top()) is not None), key=weakness, default=None)
        if member is not None:
            return member
    return min((x for h in heaps if (x := h.top()) is not None), key=weakness, default=None)


def _rank_and_file(b: Battle, enemies: list[Fighter]) -> list[Fighter]:
    """At large scale, the enemies other than leaders (all of them if only leaders are left)."""
    if not b.large:
        return enemies
    return [e for e in enemies if not e.leader] or enemies


def _enemy_leader(b: Battle, f: Fighter) -> Fighter | None:
    """The first enemy leader still in the fight (leader killing's target)."""
    return next(
        (x for s in b.sides.values() if s.name != f.side for x in s.leaders if x.in_fight),
        None,
    )


def _leader_killing(b: Battle, f: Fighter, lead: Fighter) -> None:
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
            victim = enemy.tactic.choose_target(_rank_and_file(b, members), b.rng)
            if victim is None:
                break
            before = victim.wg.hit_dice
            victim.wg, _ = wargame.lose_hd(victim.wg, 1, source="leader_killing", options=b.frame)
            _after_wargame_harm(b, None, victim, 1, before - victim.wg.hit_dice)


def _take_cover(b: Battle, f: Fighter) -> wargame.Factor | None:
    """The protecting cover in play, if the tactic wants cover from a ranged enemy now."""
    if not b.tactic_of(f).cover or b.in_cover(f):
        return None
    cover = next((c for c in b.factors_of("cover") if wargame.cover_protects(c, b.frame)), None)
    if cover is None or not any(_is_ranged(b, e) for e in b.enemies_of(f) if e.active):
        return None
    return cover


def _is_ranged(b: Battle, f: Fighter) -> bool:
    if b.rules == "wargame":
        return wargame.weapon(f.spec.weapon).ranged
    if b.rules == "deathwish":
        return f.dw_weapon.lethality is not None  # every firearm; not Unarmed
    return False


def _enter_cover(b: Battle, f: Fighter, cover: wargame.Factor) -> None:
    b.cover_until[f.unique_id] = b.round + b.opts.cover_rounds - 1
    b.note(f.name, "takes cover", result=cover.name)


def _objective(b: Battle, f: Fighter) -> int | None:
    """Index of an open ``destroy`` goal ``f`` works on (the tactic's objective share)."""
    s = b.sides[f.side]
    open_goals = [
        i
        for i, g in enumerate(s.goals)
        if g.kind == "destroy" and i not in s.goals_achieved and i not in s.goals_failed
    ]
    if not open_goals:
        return None
    workers = int(len(s.fighters) * s.tactic.objective_share)
    return open_goals[0] if s.fighters.index(f) < workers else None


def _hit_object(b: Battle, f: Fighter, goal: int, damage: int, dice: str) -> None:
    s = b.sides[f.side]
    before = s.toughness[goal]
    s.toughness[goal] = max(0, before - damage)
    b.note(
        f.name, "attacks the object", dice=dice, result=f"toughness {before} -> {s.toughness[goal]}"
    )
    if damage > 0:
        b.damaged()
    if s.toughness[goal] == 0:
        b.goal_achieved(s, goal)


# ------------------------------------------------------------------------------- War Game
def _wargame_turn(b: Battle, f: Fighter) -> None:
    t = b.tactic_of(f)
    f.wg = wargame.start_turn(f.wg)
    if f.status == Status.FLEEING:
        if f.wg.damaged_while_fleeing and wargame.can_maneuver(f.wg, "attack", b.frame):
            target = _choose_target(b, f)
            if target is not None:
                _wargame_attack(b, f, target)
        _flee(b, f)
        return
    f.fought = True
    if f.wg.burning and wargame.can_maneuver(f.wg, "extinguish", b.frame):
        f.wg, paid = wargame.put_out_fire(f.wg, b.frame)
        b.note(f.name, "puts out the fire", result=paid.describe())
    if wargame.is_held(f.wg) and t.break_free and wargame.can_maneuver(f.wg, "contest", b.frame):
        f.wg, paid = wargame.pay_maneuver(f.wg, "contest", b.frame)
        f.wg, contest = wargame.try_break_free(f.wg, b.rng, b.frame)
        free = not wargame.is_held(f.wg)
        b.note(f.name, "breaks free" if free else "fails to break free", result=contest.describe())
    if (
        t.wants_recover(f.wg.armor_pool, f.wg.armor_max)
        and wargame.can_recover_armor(f.wg)
        and f.wg.spendable > 1
    ):
        f.wg, rec = wargame.recover_armor(f.wg, b.rng)
        b.note(f.name, "recovers armor", result=rec.describe())
    acted = False
    used_factor = False
    while f.active and not b.ended and wargame.can_maneuver(f.wg, "attack", b.frame):
        cost = wargame.maneuver_price(f.wg, "attack", b.frame)
        if acted and f.wg.spendable - cost < _reserve(b, f):
            break
        if not b.has_enemies(f):
            break
        if b.field is not None:
            done = _wargame_map_maneuver(b, f, used_factor)
            if done is None:
                break
            acted = True
            used_factor = used_factor or done == "factor"
            continue
        acted = True
        cover = _take_cover(b, f)
        if cover is not None and wargame.can_maneuver(f.wg, "factor", b.frame):
            f.wg, _ = wargame.pay_maneuver(f.wg, "factor", b.frame)
            _enter_cover(b, f, cover)
            continue
        goal = _objective(b, f)
        if goal is not None:
            f.wg, paid = wargame.pay_maneuver(f.wg, "attack", b.frame)
            roll = wargame.roll_damage(
                paid.cost, b.rng, b.frame.damage, max_damage=b.frame.max_damage
            )
            _hit_object(b, f, goal, roll.total, roll.describe())
            continue
        lead = _enemy_leader(b, f) if b.large and t.leader_killing == "always" else None
        if lead is not None and wargame.can_maneuver(f.wg, "leader_killing", b.frame):
            _leader_killing(b, f, lead)
            continue
        target = _choose_target(b, f)
        assert target is not None
        if not used_factor and _wargame_factor(b, f, target):
            used_factor = True
            continue
        _wargame_attack(b, f, target)


def _reserve(b: Battle, f: Fighter) -> int:
    """HD ``f`` keeps unspent for dodging on its turn.

    Its tactic's reserve while an enemy may still attack it this round; with ``all_in_last``
    none once every enemy has acted (spent HD come back when the next round starts).
    """
    t = b.tactic_of(f)
    if t.all_in_last and not b.enemy_waiting(f):
        return 0
    return t.reserve


def _wargame_factor(b: Battle, f: Fighter, target: Fighter, *, hazards: bool = True) -> bool:
    """Invoke a hazard or distraction on ``target`` if the tactic wants to; True if done.

    On a map hazards are cells (:func:`_wargame_map_maneuver`), so ``hazards`` is False.
    """
    t = b.tactic_of(f)
    hazard = next(iter(b.factors_of("hazard")), None)
    if hazards and t.hazard and hazard is not None and target.active and target.wg.stuck_in is None:
        f.wg, paid = wargame.pay_maneuver(f.wg, "contest", b.frame)
        before = target.wg.hit_dice
        target.wg, use = wargame.push_into_hazard(
            f.wg, target.wg, hazard, b.rng, attacker_dice=paid.cost, options=b.frame
        )
        lost = before - target.wg.hit_dice
        b.note(f.name, "hazard", target.name, result=use.describe())
        _after_wargame_harm(b, f, target, lost, lost)
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


def _wargame_attack(b: Battle, f: Fighter, target: Fighter) -> None:
    t = b.tactic_of(f)
    weapon = wargame.weapon(f.spec.weapon)
    mighty = t.wants_mighty(wargame.effective_pool(target.wg), wargame.can_dodge(target.wg))
    if mighty:
        f.wg = wargame.declare_mighty(f.wg)
    f.wg, paid = wargame.pay_maneuver(f.wg, "attack", b.frame)
    if paid.needs_eight and not wargame.roll_broken_bones(b.rng):
        b.note(f.name, "attack", target.name, result="broken bones: the attack fails")
        return
    roll = wargame.roll_damage(paid.cost, b.rng, b.frame.damage, max_damage=b.frame.max_damage)
    if b.field is None:
        cover = next((c for c in b.factors_of("cover") if wargame.cover_protects(c, b.frame)), None)
        in_cover = cover if b.in_cover(target) else None
    else:
        terrain = b.field.cover(target, f)
        in_cover = None if terrain is None else wargame.factor("cover", terrain.name)
    pool = wargame.effective_pool(target.wg)
    would_wound = mighty or weapon.ignores_armor or roll.total > pool
    would_out = would_wound and target.wg.hit_dice <= (2 if mighty else 1)
    defence = "armor"
    if wargame.can_dodge(target.wg) and b.tactic_of(target).wants_dodge(would_wound, would_out):
        defence = "dodge"
    before = target.wg.hit_dice
    target.wg, hit = wargame.resolve_attack(
        target.wg,
        roll,
        weapon,
        defence=defence,
        mighty=mighty,
        two_handed=f.spec.two_handed,
        mounted=f.spec.mounted,
        cover=in_cover,
        rng=b.rng,
        options=b.frame,
    )
    word = "mighty attack" if mighty else "attack"
    if b.log is not None:  # describing the blow costs more than the blow; only when logged
        b.note(f.name, word, target.name, dice=roll.describe(), result=hit.describe())
    if hit.damage > 0 and not hit.dodged:
        b.damaged()
    _after_wargame_harm(b, f, target, len(hit.wounds), before - target.wg.hit_dice)
    if b.field is not None and hit.shoved_ft and target.in_fight:
        hazard = b.field.shove(f, target, hit.shoved_ft)
        if hazard:
            _into_hazard(b, f, target, hazard)


# ------------------------------------------------------------------------------- War Game on a map
def _wargame_map_maneuver(b: Battle, f: Fighter, used_factor: bool) -> str | None:
    """One maneuver of ``f``'s turn on a map; what it did, or None if it does nothing.

    A ``destroy`` goal stays abstract. With an enemy in reach: push it into a hazard beside
    it (a contested maneuver, once a turn, if the tactic wants), a distraction in play, or an
    attack. With none: a move maneuver (close in or disengage), unless the formation holds.
    """
    assert b.field is not None
    goal = _objective(b, f)
    if goal is not None:
        f.wg, paid = wargame.pay_maneuver(f.wg, "attack", b.frame)
        roll = wargame.roll_damage(paid.cost, b.rng, b.frame.damage, max_damage=b.frame.max_damage)
        _hit_object(b, f, goal, roll.total, roll.describe())
        return "attack"
    target = _map_target(b, f)
    if target is None:
        if not wargame.can_maneuver(f.wg, "move", b.frame):
            return None
        plan = _plan_move(b, f, b.opts.move_ft)
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
        name = b.field.spec.hazard(beside)
        f.wg, paid = wargame.pay_maneuver(f.wg, "contest", b.frame)
        before = target.wg.hit_dice
        target.wg, use = wargame.push_into_hazard(
            f.wg, target.wg, name, b.rng, attacker_dice=paid.cost, options=b.frame
        )
        if use.applied:
            b.field.put(target, beside)
        lost = before - target.wg.hit_dice
        b.note(f.name, "hazard", target.name, result=use.describe())
        _after_wargame_harm(b, f, target, lost, lost)
        return "factor"
    if _wargame_factor(b, f, target, hazards=False):
        return "factor"
    _wargame_attack(b, f, target)
    return "attack"


def _into_hazard(b: Battle, f: Fighter, target: Fighter, hazard: str) -> None:
    """``target`` lands in a hazard on the map: its effects apply (RULES.md 1.10)."""
    before = target.wg.hit_dice
    target.wg, use = wargame.apply_hazard(target.wg, hazard, options=b.frame)
    lost = before - target.wg.hit_dice
    b.note(f.name, "hazard", target.name, result=use.describe())
    _after_wargame_harm(b, f, target, lost, lost)


def _map_target(b: Battle, f: Fighter) -> Fighter | None:
    """The enemy ``f``'s tactic picks among those in reach (active ones first).

    A War Game bow or gun passes over enemies whose cover would stop it [H]: with only
    those in reach it has no target (it moves instead, if its formation lets it).
    """
    assert b.field is not None
    reach = b.field.targets(f, b.enemies_of(f))
    active = [e for e in reach if e.active]
    pool = active or reach
    if _shoots_past_cover(b, f):
        pool = [e for e in pool if not _covered(b, f, e)]
    return b.tactic_of(f).choose_target(pool, b.rng)


def _shoots_past_cover(b: Battle, f: Fighter) -> bool:
    """War Game bows and guns do not waste shots on enemies behind protecting cover [H]."""
    return b.rules == "wargame" and b.field is not None and b.field.range_ft(f) > 0


def _covered(b: Battle, f: Fighter, e: Fighter) -> bool:
    """Whether ``e``'s cell gives War Game cover that stops ``f``'s standard ranged attack."""
    assert b.field is not None
    terrain = b.field.cover(e, f)
    if terrain is None:
        return False
    return wargame.cover_protects(terrain.name, b.frame)


def _plan_move(
    b: Battle, f: Fighter, feet: float, cells: int | None = None
) -> Callable[[], object] | None:
    """How ``f`` would move now (a callable doing it), or None if it would not move.

    A bow or gun next to an enemy disengages; anyone else closes in as its formation says,
    stopping once an enemy is in reach. ``cells`` overrides the allowance (D6's one space).
    """
    field = b.field
    assert field is not None
    enemies = b.enemies_of(f)
    allowance = field.allowance(f, feet) if cells is None else cells
    if allowance <= 0:
        return None

    def in_reach() -> bool:
        if _shoots_past_cover(b, f):
            return any(field.in_reach(f, e) and not _covered(b, f, e) for e in enemies)
        return field.any_in_reach(f, enemies)

    if field.range_ft(f) > 0 and b.opts.ranged_in_melee == "no" and field.engaged(f):
        if not field.can_step_away(f, enemies):
            return None
        return lambda: field.away(f, allowance, enemies, done=in_reach)
    goal = field.goal(f, enemies)
    if goal is None or in_reach() or field.step(f, goal) is None:
        return None
    return lambda: field.move(f, goal, allowance, done=in_reach)


def _after_wargame_harm(
    b: Battle, f: Fighter | None, target: Fighter, wounds: int, lost: int
) -> None:
    b.harmed(f, target, wounds, lost)
    if target.wg.status != target.status:
        b.set_status(target, target.wg.status)


# ------------------------------------------------------------------------------- Deathwish
def _one_attack_target(b: Battle, f: Fighter) -> Fighter | None:
    """Deathwish and D6 turns: take cover if wanted (free), then pick the target."""
    f.fought = True
    cover = _take_cover(b, f)
    if cover is not None:
        _enter_cover(b, f, cover)
    return _choose_target(b, f)


def _deathwish_turn(b: Battle, f: Fighter) -> None:
    if f.status == Status.FLEEING:
        _flee(b, f)
        return
    if b.field is None:
        target = _one_attack_target(b, f)
        cover_pts = b.opts.deathwish_cover if target is not None and b.in_cover(target) else 0
        skill = f.spec.deathwish.skill
    else:
        target = _map_move_then_target(b, f, b.opts.move_ft)
        if target is not None:
            cover_pts = _map_cover(b, f, target, b.opts.deathwish_cover)
            skill = f.spec.deathwish.skill - BAND_SKILL[b.field.band_of(f, target)]
    if target is None:
        return
    hit = deathwish.roll_to_hit(
        b.rng,
        skill,
        deathwish.wound_difficulty(f.dw_wounds),
        deathwish.cover_difficulty(cover_pts, b.options),
    )
    if not hit:
        b.note(f.name, "shoots", target.name, result="misses")
        return
    location = "torso"
    if b.opts.deathwish_location == "random":
        location = _LOCATION_D10[int(b.rng.integers(10))]
    pen, leth = deathwish.attack_values(
        f.dw_weapon,
        strength=f.spec.strength,
        location=location,
        ammo=f.spec.deathwish.ammo,
        options=b.options,
    )
    armor = deathwish.armor_on(target.spec.deathwish.armor, location)
    damage = deathwish.roll_damage(pen, leth, armor, cover_pts, b.rng)
    effect = deathwish.roll_effect(damage, target.dw_thresholds, b.rng, b.options)
    if b.log is not None:
        result = f"{location}, damage {damage}: " + (
            "no wound" if effect.level is None else f"{effect.level.value} wound, {effect.effect}"
        )
        b.note(f.name, "shoots", target.name, dice=f"{pen}d10 <= {leth}", result=result)
    if damage > 0:
        b.damaged()
    if effect.level is None:
        return
    target.dw_wounds.append(effect.level)
    b.harmed(f, target, 1, 1)
    death_in = deathwish.rounds_to_death(effect.level, b.options)
    if death_in is not None:
        ticking = target.dw_bleeding_out
        target.dw_bleeding_out = death_in if ticking is None else min(ticking, death_in)
    if effect.dead:
        b.set_status(target, Status.DEAD)
    elif effect.incapacitated and target.status != Status.DEAD:
        b.set_status(target, Status.INCAPACITATED)


def _map_move_then_target(
    b: Battle, f: Fighter, feet: float, cells: int | None = None
) -> Fighter | None:
    """Deathwish and D6 on a map: with no enemy in reach, move first; then the target."""
    f.fought = True
    target = _map_target(b, f)
    if target is None:
        plan = _plan_move(b, f, feet, cells)
        if plan is not None:
            plan()
            target = _map_target(b, f)
    return target


def _map_cover(b: Battle, f: Fighter, target: Fighter, default: int) -> int:
    """Cover points (Deathwish) or dice (D6) of ``target``'s cell against ``f``."""
    assert b.field is not None
    terrain = b.field.cover(target, f)
    if terrain is None:
        return 0
    return default if terrain.value is None else terrain.value


# ------------------------------------------------------------------------------- D6 tiers
def _d6_map_move(b: Battle, f: Fighter) -> Fighter | None:
    """A D6 turn on a map: a move of one space [S], then the attack.

    If that brings no enemy in reach and the tactic sprints, a second space instead of the
    attack (half dodge this round) [S].
    """
    target = _map_move_then_target(b, f, 0, cells=1)
    if target is None and b.tactic_of(f).sprint:
        plan = _plan_move(b, f, 0, cells=1)
        if plan is not None:
            plan()
            f.d6_sprinted = b.round
            b.note(f.name, "sprints", result="half dodge this round")
    return target


def _code(text: str, fallback: D6Code) -> D6Code:
    return parse_code(text) if text else fallback


def _d6_penalty(b: Battle, f: Fighter) -> int:
    return d6.penalty_dice(
        f.d6_condition, stuns=d6.stuns_in_effect(f.d6_stuns, b.round), options=b.options
    )


def _d6_reaction(b: Battle, f: Fighter) -> tuple[str, int]:
    """The reaction ``f`` rolled this round (rolled on the first attack it faces)."""
    if f.d6_reaction is None:
        dodge = parse_code(f.spec.d6.dodge)
        parry = _code(f.spec.d6.parry, D6Code(0))
        use_parry = b.tactic_of(f).parry and parry.total_pips > dodge.total_pips
        kind, skill = ("parry", parry) if use_parry else ("dodge", dodge)
        if not f.active or not d6.can_act(f.d6_condition):
            total = 0
        else:
            code = d6.reaction_code(
                skill,
                kind,
                sprinting=f.d6_sprinted == b.round,
                penalty=_d6_penalty(b, f),
                options=b.options,
            )
            total = code.roll(b.rng)
        f.d6_reaction = total
        f.d6_reaction_kind = kind
    return f.d6_reaction_kind, f.d6_reaction


def _d6_turn(b: Battle, f: Fighter) -> None:
    if f.status == Status.FLEEING:
        _flee(b, f)
        return
    if not d6.can_act(f.d6_condition):
        return
    if b.field is None:
        target = _one_attack_target(b, f)
        cover = b.opts.d6_cover_dice if target is not None and b.in_cover(target) else 0
        base = b.opts.d6_difficulty
    else:
        target = _d6_map_move(b, f)
        if target is not None:
            cover = _map_cover(b, f, target, b.opts.d6_cover_dice)
            base = b.opts.d6_difficulty + BAND_DIFFICULTY[b.field.band_of(f, target)]
    if target is None:
        return
    hit_code = d6.apply_penalty(parse_code(f.spec.d6.attack), _d6_penalty(b, f))
    kind, reaction = _d6_reaction(b, f=target)
    use = d6.reaction_against(reaction, kind, options=b.options)
    mods = d6.attack_modifiers(
        cover=cover,
        target_size=target.spec.d6.size,
        attacker_size=f.spec.d6.size,
        options=b.options,
    )
    difficulty = d6.roll_difficulty(base, mods, b.rng)
    hit = d6.roll_hit(hit_code, use.total, difficulty, b.rng)
    if not hit.hit:
        b.note(
            f.name,
            "attacks",
            target.name,
            dice=f"{hit_code}={hit.total}",
            result=f"misses ({kind} {use.total}, difficulty {difficulty})",
        )
        return
    strength = parse_code(target.spec.d6.strength)
    damage = _code(f.spec.d6.damage, d6.unarmed_damage(parse_code(f.spec.d6.strength)))
    damage = damage.plus_dice(mods.damage_dice.dice)
    body = d6.body_code(
        strength, parse_code(target.spec.d6.dexterity), parse_code(target.spec.d6.armor), b.options
    ).plus_dice(mods.body_dice.dice)
    res = d6.roll_damage_vs_body(damage, body, b.rng)
    before = target.d6_condition
    target.d6_condition = d6.stacked(before, res.tier)
    if b.log is not None:
        b.note(
            f.name,
            "attacks",
            target.name,
            dice=f"{damage}={res.damage} vs body {body}={res.body}",
            result=f"{res.tier.value}; now {target.d6_condition.label}",
        )
    if res.tier is d6.DamageTier.NONE:
        return
    b.damaged()
    if res.tier is d6.DamageTier.STUNNED:
        target.d6_stuns.append(b.round)
    else:
        b.harmed(f, target, 1, 1)
    status = d6.status_for(target.d6_condition)
    if status != Status.ACTIVE and target.status != status:
        b.set_status(target, status)


# ------------------------------------------------------------------------------- end of round
def end_of_round(b: Battle) -> None:
    """Deaths that come with time: untreated Deathwish wounds, D6 mortal wounds; 2W2P flight."""
    for f in b.all_fighters():
        if f.status == Status.DEAD:
            continue
        if b.rules == "deathwish" and f.dw_bleeding_out is not None:
            f.dw_bleeding_out -= 1
            if f.dw_bleeding_out <= 0:
                b.note(f.name, "dies of untreated wounds")
                b.set_status(f, Status.DEAD)
        elif b.rules == "d6" and f.d6_condition.tier is d6.DamageTier.MORTALLY_WOUNDED:
            f.d6_mortal_rounds += 1
            if d6.roll_mortal_check(f.d6_mortal_rounds, b.rng):
                b.note(f.name, "dies of a mortal wound", result=f"round {f.d6_mortal_rounds}")
                f.d6_condition = d6.Condition(d6.DamageTier.DEAD)
                b.set_status(f, Status.DEAD)
        elif b.rules == "2w2p" and f.status == Status.FLEEING:
            _flee(b, f)


# ------------------------------------------------------------------------------- 2W2P
def twowp_round(b: Battle) -> None:
    """Every front at once: each side rolls its dice, results apply together (RULES.md 2.4)."""
    first, second = b.sides.values()
    fronts = _fronts(first, second) if b.field is None else _map_fronts(b, first, second)
    results: list[tuple[list[Fighter], twowp.Hits]] = []
    for name, (mine, theirs) in fronts.items():
        pool_a = _front_pool(b, first, mine)
        pool_b = _front_pool(b, second, theirs)
        on_a, on_b = twowp.roll_front(pool_a, pool_b, b.rng, b.options)
        b.note(
            first.name,
            "front",
            name,
            dice=f"{pool_a.attack}+{pool_a.defence}d vs {pool_b.attack}+{pool_b.defence}d",
            result=f"{first.name} takes {on_a.felling}F {on_a.wounding}W; "
            f"{second.name} takes {on_b.felling}F {on_b.wounding}W",
        )
        results += [(mine, on_a), (theirs, on_b)]
        for f in mine + theirs:
            f.fought = True
    attackers = {id(mine): theirs for mine, theirs in fronts.values()}
    attackers.update({id(theirs): mine for mine, theirs in fronts.values()})
    with b.together():  # both sides' results apply together; morale looks at them after
        for fighters, hits in results:
            if hits.felling == 0 and hits.wounding == 0:
                continue
            b.damaged()
            side = b.sides[fighters[0].side]
            shielded = frozenset(
                i for i, f in enumerate(fighters) if f.leader and side.tactic.protect_leader
            )
            new = twowp.take_hits(
                hits.felling,
                hits.wounding,
                [f.wounds_2w2p for f in fighters],
                b.rng,
                b.options,
                shielded,
            )
            foes = attackers[id(fighters)]
            for i, (f, w) in enumerate(zip(fighters, new, strict=True)):
                blows = (w.wounding - f.wounds_2w2p.wounding) + (w.felling - f.wounds_2w2p.felling)
                f.wounds_2w2p = w
                if blows:
                    b.harmed(foes[i % len(foes)] if foes else None, f, blows, blows)
                if w.felled and f.status == Status.ACTIVE:
                    b.set_status(f, Status.INCAPACITATED)
    b.check_end()


def _fronts(a: SideState, c: SideState) -> dict[str, tuple[list[Fighter], list[Fighter]]]:
    """Fronts where both sides have active fighters; one-sided fronts join the first [H]."""
    names = sorted({f.spec.front for f in a.fighters + c.fighters if f.active})
    fronts = {
        n: (
            [f for f in a.fighters if f.active and f.spec.front == n],
            [f for f in c.fighters if f.active and f.spec.front == n],
        )
        for n in names
    }
    contested = [n for n, (x, y) in fronts.items() if x and y]
    if not contested:
        mine = [f for f in a.fighters if f.active]
        theirs = [f for f in c.fighters if f.active]
        return {"main": (mine, theirs)} if mine and theirs else {}
    out = {n: (list(fronts[n][0]), list(fronts[n][1])) for n in contested}
    for n, (x, y) in fronts.items():
        if n not in out:
            out[contested[0]][0].extend(x)
            out[contested[0]][1].extend(y)
    return out


def _map_fronts(
    b: Battle, a: SideState, c: SideState
) -> dict[str, tuple[list[Fighter], list[Fighter]]]:
    """Fronts on a map: fighters close in, then fighters next to enemies form the fronts.

    First every active fighter with no enemy beside it moves up to ``move_ft`` as its
    formation says (sides in order, fighters in order); then fronts are the groups linked
    by enemies standing next to each other (RULES.md 2.4 [I], :func:`sim.space.fronts`),
    named after their first fighter. Fighters in no front (no enemy beside them, even with
    an engaged ally beside them) do not roll this round and cannot be hit: a column in a
    one-cell corridor fights one pair at a time, its rear stepping up as the front falls.
    """
    field = b.field
    assert field is not None
    for f in a.fighters + c.fighters:
        if f.active and field.on_grid(f) and not field.engaged(f):
            goal = field.goal(f, b.enemies_of(f))
            if goal is not None:
                field.move(f, goal, field.allowance(f, b.opts.move_ft), partial(field.engaged, f))
    active = [f for f in a.fighters + c.fighters if f.active]
    out: dict[str, tuple[list[Fighter], list[Fighter]]] = {}
    for group in field.fronts(active):
        out[group[0].name] = (
            [f for f in group if f.side == a.name],
            [f for f in group if f.side == c.name],
        )
    return out


def _front_pool(b: Battle, s: SideState, fighters: list[Fighter]) -> twowp.SidePool:
    dice = twowp.side_dice([(f.tier, f.wounds_2w2p.wounding) for f in fighters], b.options)
    share = s.tactic.defence_share or b.options.defence_share
    attack, defence = twowp.split_dice(dice, share)
    protection = twowp.protection_dice(
        [(bool(f.spec.armor), f.spec.head_protection) for f in fighters], b.options
    )
    return twowp.SidePool(attack, defence + protection)


# ------------------------------------------------------------------------------- large scale
def large_round(b: Battle) -> None:
    """Large-scale War Game: the sides take turns in the order rolled once (RULES.md 1.6).

    A faction with no active member takes no action (its fleeing members still run).
    """
    for name in b.large_order():
        s = b.sides[name]
        if b.ended or not b.large:
            return
        if s.defeated:
            continue
        if s.pool is not None and s.active:
            enemies = [
                o for o in b.sides.values() if o is not s and o.pool is not None and not o.defeated
            ]
            if enemies:
                enemy = max(enemies, key=lambda o: o.pool.hit_dice if o.pool else 0)
                _faction_turn(b, s, enemy)
        for f in s.fighters:
            if f.status == Status.FLEEING:
                _flee(b, f)
        b.check_end()


def _faction_weapon(s: SideState) -> str:
    """The weapon most of a faction's standing members carry (roles matter [S])."""
    counts = Counter(f.spec.weapon for f in s.fighters if f.active)
    return counts.most_common(1)[0][0] if counts else "plain"


def _faction_turn(b: Battle, s: SideState, e: SideState) -> None:
    assert s.pool is not None and e.pool is not None
    s.pool = wargame.start_turn(s.pool)
    if not wargame.can_maneuver(s.pool, "attack", b.frame):
        return
    t = s.tactic
    lead = e.leader_fighter()
    if t.leader_killing == "always" and lead is not None and lead.in_fight:
        s.pool, _ = wargame.pay_maneuver(s.pool, "leader_killing", b.frame)
        lk = wargame.roll_leader_killing(b.rng)
        b.note(s.name, "leader killing", lead.name, dice=f"d8={lk.roll}", result=lk.describe())
        if lk.success:
            out = Status.DEAD if b.frame.finish == "kill" else Status.INCAPACITATED
            b.set_status(lead, out)
            b.harmed(None, lead, 1, 0)
            before = e.pool.hit_dice
            e.pool, loss = wargame.leader_down(e.pool, options=b.frame)
            b.note(e.name, "leader down", result=loss.describe())
            _casualties(b, e, before - e.pool.hit_dice, chooser=s)
        else:
            before = s.pool.hit_dice
            s.pool, loss = wargame.lose_hd(
                s.pool, lk.attacker_hd_lost, source="leader_killing", options=b.frame
            )
            _casualties(b, s, before - s.pool.hit_dice, chooser=s)
        _check_scattered(b, s)
        _check_scattered(b, e)
        return
    mighty = t.wants_mighty(wargame.effective_pool(e.pool), wargame.can_dodge(e.pool))
    if mighty:
        s.pool = wargame.declare_mighty(s.pool)
    s.pool, paid = wargame.pay_maneuver(s.pool, "attack", b.frame)
    roll = wargame.roll_damage(paid.cost, b.rng, b.frame.damage, max_damage=b.frame.max_damage)
    weapon = wargame.weapon(_faction_weapon(s))
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
    _casualties(b, e, before - e.pool.hit_dice, chooser=s)
    _check_scattered(b, e)


def _casualties(b: Battle, s: SideState, n: int, chooser: SideState) -> None:
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


def _check_scattered(b: Battle, s: SideState) -> None:
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
