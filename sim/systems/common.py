"""What every rule system's turn shares: targets, cover, objects, flight, moving on a map.

Helpers of the frame, asked by the systems (:mod:`sim.systems`); they read and book on the
battle but decide nothing a tactic or a system does not say.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from sim.frame.agents import is_active, is_in_fight
from sim.rules import wargame
from sim.scenario.tactics import weakness

if TYPE_CHECKING:
    from sim.frame.agents import Fighter
    from sim.frame.sides import FighterHeap
    from sim.frame.turns import TurnFrame

# Range bands on a map [H] (sim.frame.field): Deathwish to-hit skill lost, D6 difficulty added.
BAND_SKILL = {"short": 0, "medium": 1, "long": 2}
BAND_DIFFICULTY = {"short": 0, "medium": 5, "long": 10}


def targets(b: TurnFrame, f: Fighter) -> list[Fighter]:
    """Enemies worth attacking: active ones first, fleeing ones if nobody else is left."""
    enemies = b.enemies_of(f)
    active = [e for e in enemies if e.active]
    return active or enemies


def only_fleeing(b: TurnFrame, f: Fighter) -> bool:
    """True when ``f`` has enemies in the fight and every one of them is fleeing."""
    side = f.side
    for s in b.sides.values():  # (a loop, not any() of a generator: every maneuver asks)
        if s.name != side and s.active:
            return False
    return b.has_enemies(f)


def choose_target(b: TurnFrame, f: Fighter) -> Fighter | None:
    """The enemy ``f``'s tactic chooses among :func:`targets`.

    A ``weakest`` or ``leader`` tactic reads the enemy sides' indexes (their first leader;
    their weakest fighter, among the active ones or, with none active, those fleeing)
    instead of listing every enemy: the same choice, without a scan per turn. At large scale
    the attacking faction picks from the enemy's rank and file: the leader is reached only
    by leader killing while any other member stands (RULES.md 1.12 [S]; off with
    ``battle.rank_and_file: false``).
    """
    t = b.tactic_of(f)
    if t.target not in ("weakest", "leader"):
        return t.choose_target(rank_and_file(b, targets(b, f)), b.rng)
    ranks = b.large and b.opts.rank_and_file
    others = [s for s in b.sides.values() if s.name != f.side]
    active = False
    for s in others:  # (a loop, not any() of a generator: every attack asks)
        if s.active:
            active = True
            break
    if t.target == "leader" and not ranks:
        eligible = is_active if active else is_in_fight
        lead = next((x for s in others for x in s.leaders if eligible(x)), None)
        if lead is not None:
            return lead
    if ranks:
        member = _weakest([s.ranks_active if active else s.ranks_standing for s in others])
        if member is not None:
            return member
    return _weakest([s.weakest_active if active else s.weakest_standing for s in others])


def _weakest(heaps: list[FighterHeap]) -> Fighter | None:
    """The weakest of the heaps' tops (one enemy side: its top)."""
    if len(heaps) == 1:
        return heaps[0].top()
    return min((x for h in heaps if (x := h.top()) is not None), key=weakness, default=None)


def rank_and_file(b: TurnFrame, enemies: list[Fighter]) -> list[Fighter]:
    """At large scale, the enemies other than leaders (all of them if only leaders are left).

    With ``battle.rank_and_file: false``, at any scale, all of them.
    """
    if not b.large or not b.opts.rank_and_file:
        return enemies
    return [e for e in enemies if not e.leader] or enemies


def take_cover(b: TurnFrame, f: Fighter) -> wargame.Factor | None:
    """The protecting cover in play, if the tactic wants cover from a ranged enemy now.

    Cover that hides does not hide a fighter in loud armor (``wargame.loud_armor``): with
    only such cover in play it stays in the open, and the event ``cannot hide`` says so.
    """
    if not b.factors or not b.tactic_of(f).cover or b.in_cover(f):
        return None
    covers = [c for c in b.factors_of("cover") if wargame.cover_protects(c, b.frame)]
    if not covers or not any(b.system.is_ranged(e) for e in b.enemies_of(f) if e.active):
        return None
    loud = wargame.is_loud(f.wg)
    cover = next((c for c in covers if wargame.cover_protects(c, b.frame, loud=loud)), None)
    if cover is None and b.heard_round.get(f.unique_id) != b.round:
        # only cover that hides, and its armor gives it away (loud_armor): said once a round
        b.heard_round[f.unique_id] = b.round
        b.note(f.name, "cannot hide", result=f"loud armor heard in the {covers[0].name}")
    return cover


def enter_cover(b: TurnFrame, f: Fighter, cover: wargame.Factor) -> None:
    """``f`` takes cover for ``battle.cover_rounds`` rounds."""
    b.cover_until[f.unique_id] = b.round + b.opts.cover_rounds - 1
    b.note(f.name, "takes cover", result=cover.name)


def objective(b: TurnFrame, f: Fighter) -> int | None:
    """Index of an open ``destroy`` goal ``f`` works on (the tactic's objective share)."""
    s = b.sides[f.side]
    if not s.goals:
        return None
    open_goals = [
        i
        for i, g in enumerate(s.goals)
        if g.kind == "destroy" and i not in s.goals_achieved and i not in s.goals_failed
    ]
    if not open_goals:
        return None
    workers = int(len(s.fighters) * s.tactic.objective_share)
    return open_goals[0] if s.fighters.index(f) < workers else None


def hit_object(b: TurnFrame, f: Fighter, goal: int, damage: int, dice: str) -> None:
    """``f``'s blow of ``damage`` on the object of its side's ``destroy`` goal ``goal``."""
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


def one_attack_target(b: TurnFrame, f: Fighter) -> Fighter | None:
    """Deathwish and D6 turns: take cover if wanted (free), then pick the target."""
    f.fought = True
    cover = take_cover(b, f)
    if cover is not None:
        enter_cover(b, f, cover)
    return choose_target(b, f)


def map_target(b: TurnFrame, f: Fighter) -> Fighter | None:
    """The enemy ``f``'s tactic picks among those in reach (active ones first).

    A War Game bow or gun passes over enemies whose cover would stop it [H]: with only
    those in reach it has no target (it moves instead, if its formation lets it).
    """
    assert b.field is not None
    reach = b.field.targets(f, b.enemies_of(f))
    active = [e for e in reach if e.active]
    pool = active or reach
    if b.system.shoots_past_cover(b, f):
        pool = [e for e in pool if not b.system.covered(b, f, e)]
    return b.tactic_of(f).choose_target(pool, b.rng)


def plan_move(
    b: TurnFrame, f: Fighter, feet: float, cells: int | None = None
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
        if b.system.shoots_past_cover(b, f):
            return any(field.in_reach(f, e) and not b.system.covered(b, f, e) for e in enemies)
        return field.any_in_reach(f, enemies)

    if field.range_ft(f) > 0 and b.opts.ranged_in_melee == "no" and field.engaged(f):
        if not field.can_step_away(f, enemies):
            return None
        return lambda: field.away(f, allowance, enemies, done=in_reach)
    goal = field.goal(f, enemies)
    if goal is None or in_reach() or field.step(f, goal) is None:
        return None
    return lambda: field.move(f, goal, allowance, done=in_reach)


def map_move_then_target(
    b: TurnFrame, f: Fighter, feet: float, cells: int | None = None
) -> Fighter | None:
    """Deathwish and D6 on a map: with no enemy in reach, move first; then the target."""
    f.fought = True
    target = map_target(b, f)
    if target is None:
        plan = plan_move(b, f, feet, cells)
        if plan is not None:
            plan()
            target = map_target(b, f)
    return target


def map_cover(b: TurnFrame, f: Fighter, target: Fighter, default: int) -> int:
    """Cover points (Deathwish) or dice (D6) of ``target``'s cell against ``f``."""
    assert b.field is not None
    terrain = b.field.cover(target, f)
    if terrain is None:
        return 0
    return default if terrain.value is None else terrain.value
