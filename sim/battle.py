"""Battle: a Mesa model that fights one scenario under the War Game frame (RULES.md 1).

The frame gives every system its rounds and turn order (1.6), morale (1.8), goals (1.11)
and scale switching (1.12); the scenario's rule system resolves the blows
(:mod:`sim.systems`). One ``numpy.random.Generator`` (Mesa's ``Model.rng``) makes every draw.

Python API::

    battle = Battle(scenario, seed=7)          # or rng=np.random.default_rng(...)
    outcome = battle.run()                    # an Outcome; outcome.to_dict() is the JSON
    battle.rounds_frame(); battle.fighters_frame(); battle.events_frame()   # pandas

A scenario with a ``map`` gives the battle a :class:`sim.field.Battlefield` (``battle.field``):
the fighters stand on its Mesa grid and space enters every system's turn (:mod:`sim.systems`).
Without one ``battle.field`` is None and the battle is abstract.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import mesa
import numpy as np
import pandas as pd

from sim import pools, systems
from sim.agents import Fighter, is_active, is_in_fight
from sim.errors import SimError, unknown
from sim.field import Battlefield
from sim.options import BattleOptions
from sim.rules import wargame
from sim.rules.common import OUT_OF_FIGHT, Status
from sim.scenario import FactorSpec, FighterSpec, Goal, Scenario
from sim.tactics import Tactic, harmlessness, readiness, weakness

END_REASONS = (
    "defeat",
    "goal_achieved",
    "goal_failed",
    "mutual_defeat",
    "mutual_rout",
    "max_rounds",
)
STATUSES = tuple(s.value for s in Status)


class FighterHeap:
    """Fighters by ``key``, smallest first: a turn's picks in O(log N), not a scan of all.

    :meth:`top` gives the ``member`` with the smallest key now. An entry goes stale when its
    fighter stops being a member or its key changes; a stale entry is dropped, or filed again
    under the current key, when it reaches the top. So a key may grow unannounced, but when
    one shrinks the fighter must be pushed again: the battle does that in
    :meth:`Battle.harmed`, where every lost HD and every wound is booked.
    """

    __slots__ = ("key", "member", "items", "order")

    def __init__(
        self,
        key: Callable[[Fighter], tuple[int, ...]],
        member: Callable[[Fighter], bool],
        fighters: Iterable[Fighter] = (),
    ) -> None:
        self.key = key
        self.member = member
        self.order = itertools.count()  # ties between entries of one fighter: filing order
        self.items = [(key(f), next(self.order), f) for f in fighters if member(f)]
        heapq.heapify(self.items)

    def push(self, f: Fighter) -> None:
        """File ``f`` under its current key (if it is a member)."""
        if self.member(f):
            heapq.heappush(self.items, (self.key(f), next(self.order), f))

    def top(self) -> Fighter | None:
        """The member with the smallest key, or None."""
        items = self.items
        while items:
            filed, _, f = items[0]
            if not self.member(f):
                heapq.heappop(items)
                continue
            now = self.key(f)
            if filed == now:
                return f
            heapq.heapreplace(items, (now, next(self.order), f))
        return None


def _is_waiting(f: Fighter) -> bool:
    return f.in_fight and not f.acted


def _rank_active(f: Fighter) -> bool:
    return f.active and not f.leader


def _rank_standing(f: Fighter) -> bool:
    return f.in_fight and not f.leader


@dataclass
class SideState:
    """A side during the battle: its fighters, tactic, goals and morale bookkeeping.

    Counts and indexes kept up to date as fighters join and change status, so that a turn
    never scans every fighter: ``standing`` (in the fight), ``active``, ``leaders`` (in
    creation order), ``by_name``, and the members weakest first (:func:`sim.tactics.weakness`)
    among the active ones (``weakest_active``) and among those in the fight
    (``weakest_standing``), and the same without the leader (``ranks_active``,
    ``ranks_standing``: at large scale the enemy picks from the rank and file).
    """

    name: str
    tactic: Tactic
    goals: tuple[Goal, ...]
    leader: str | None
    fighters: list[Fighter] = field(default_factory=list)
    triggers_fired: set[str] = field(default_factory=set)
    goals_failed: set[int] = field(default_factory=set)
    goals_achieved: set[int] = field(default_factory=set)
    held_rounds: dict[int, int] = field(default_factory=dict)
    toughness: dict[int, int] = field(default_factory=dict)
    defeated: bool = False
    pool: wargame.Combatant | None = None  # faction pool at large scale
    wounds_dealt: int = 0
    hd_lost: int = 0
    round_dealt: int = 0
    round_taken: int = 0
    standing: int = 0
    active: int = 0
    waiting: int = 0  # active fighters yet to act this round
    leaders: list[Fighter] = field(default_factory=list)
    by_name: dict[str, Fighter] = field(default_factory=dict)
    weakest_active: FighterHeap = field(default_factory=lambda: FighterHeap(weakness, is_active))
    weakest_standing: FighterHeap = field(
        default_factory=lambda: FighterHeap(weakness, is_in_fight)
    )
    ranks_active: FighterHeap = field(default_factory=lambda: FighterHeap(weakness, _rank_active))
    ranks_standing: FighterHeap = field(
        default_factory=lambda: FighterHeap(weakness, _rank_standing)
    )

    def in_fight(self) -> list[Fighter]:
        """Fighters still active or fleeing."""
        return [f for f in self.fighters if f.in_fight]

    def leader_fighter(self) -> Fighter | None:
        """The designated leader, if the side has one."""
        return self.leaders[0] if self.leaders else None

    def join(self, f: Fighter) -> None:
        """Add a fighter to the side and its counts and indexes."""
        self.fighters.append(f)
        self.standing += f.in_fight
        self.active += f.active
        if f.leader:
            self.leaders.append(f)
        self.by_name.setdefault(f.name, f)
        self.refile(f)

    def refile(self, f: Fighter) -> None:
        """File member ``f`` again in the weakest-first indexes (it is weaker now)."""
        self.weakest_active.push(f)
        self.weakest_standing.push(f)
        self.ranks_active.push(f)
        self.ranks_standing.push(f)

    def recount(self, before: Status, after: Status) -> None:
        """Move one member's status from ``before`` to ``after`` in the counts."""
        self.standing += (after not in OUT_OF_FIGHT) - (before not in OUT_OF_FIGHT)
        self.active += (after == Status.ACTIVE) - (before == Status.ACTIVE)


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a battle ended: winner (None for a draw), reason, length, and per-side counts."""

    winner: str | None
    end_reason: str
    rounds: int
    scale_switches: int
    sides: Mapping[str, Mapping[str, Any]]

    def to_dict(self) -> dict[str, Any]:
        """The outcome as plain JSON-ready data."""
        return {
            "winner": self.winner,
            "end_reason": self.end_reason,
            "rounds": self.rounds,
            "scale_switches": self.scale_switches,
            "sides": {k: dict(v) for k, v in self.sides.items()},
        }


class Battle(mesa.Model):
    """One battle of a :class:`~sim.scenario.Scenario`, seeded by ``seed`` or ``rng``.

    ``events=True`` keeps a log of every roll and decision (off by default for speed).
    ``options``, ``frame`` and ``battle`` override the scenario's rule options, War Game
    frame options and battle house rules for this run.
    """

    def __init__(
        self,
        scenario: Scenario,
        *,
        seed: int | None = None,
        rng: np.random.Generator | None = None,
        events: bool = False,
        options: Mapping[str, Any] | None = None,
        frame: Mapping[str, Any] | None = None,
        battle: Mapping[str, Any] | None = None,
    ) -> None:
        if options or frame or battle:
            from dataclasses import replace

            scenario = replace(
                scenario,
                options={**scenario.options, **(options or {})},
                frame={**scenario.frame, **(frame or {})},
                battle={**scenario.battle, **(battle or {})},
            )
        if rng is None:
            if seed is None:
                seed = scenario.seed
            if seed is None:
                raise SimError("a battle needs a seed (or an rng)")
            rng = np.random.default_rng(seed)
        super().__init__(rng=rng)
        self.scenario = scenario
        self.system = systems.get(scenario.rules)
        self.rules = self.system.name
        # built once per scenario, by its system (a replace makes a new scenario: rebuilt)
        self.options = scenario.rule_options(self.system)
        self.frame: wargame.Options = scenario.frame_options(self.system)
        self.opts: BattleOptions = scenario.battle_options
        self.max_rounds = scenario.max_rounds
        self.round = 0
        self.large = False
        self.scale_switches = 0
        self.quiet_rounds = 0
        self.ended = False
        self.winner: str | None = None
        self.end_reason: str | None = None
        self.factors: list[wargame.Factor] = [self._factor(f) for f in scenario.factors]
        self.log: list[dict[str, Any]] | None = [] if events else None
        self.round_rows: list[dict[str, Any]] = []
        self.cover_until: dict[int, int] = {}
        self.next_first: Fighter | None = None
        self.side_order: list[str] | None = None  # large scale: rolled once, then alternate
        self.next_side = 0  # large scale with turns: whose turn comes next in side_order
        self.small_until: int | None = None  # see switch_scale(hold=True)
        self.queue: dict[str, tuple[FighterHeap, FighterHeap]] | None = None  # see _turns
        self.deferred = 0  # > 0 inside together(): triggers and the end wait
        self.sides: dict[str, SideState] = {}
        self.field: Battlefield | None = None
        if scenario.map is not None:
            self.field = Battlefield(self, scenario.map)
        for s in scenario.sides:
            tactic = scenario.side_tactic(s.name)
            state = SideState(s.name, tactic, s.goals, s.leader)
            self.sides[s.name] = state
            names = {f.name for f in s.fighters}
            if s.leader is not None and s.leader not in names:
                raise unknown(f"leader of side {s.name!r}:", s.leader, sorted(names))
            for g_index, goal in enumerate(s.goals):
                if goal.kind == "destroy":
                    state.toughness[g_index] = goal.toughness
            for spec in s.fighters:
                self._add_fighter(spec, state)
        self.system.check_sides(len(self.sides))
        self.large = self._should_be_large()
        if self.field is not None:
            self.field.snapshot()

    # ---------------------------------------------------------------------- building
    def _add_fighter(self, spec: FighterSpec, side: SideState) -> Fighter:
        f = Fighter(self, spec, side.name, leader=spec.name == side.leader)
        f.arrived_round = self.round
        side.join(f)
        if self.field is not None and f.in_fight:
            self.field.deploy(f)
        return f

    def _factor(self, spec: FactorSpec) -> wargame.Factor:
        """The factor a spec names, or one rolled on its d8 table."""
        if spec.name is None:
            return wargame.roll_factor(spec.kind, self.rng)
        return wargame.factor(spec.kind, spec.name)

    # ---------------------------------------------------------------------- queries
    def all_fighters(self) -> list[Fighter]:
        """Every fighter of every side, in creation order."""
        return [f for s in self.sides.values() for f in s.fighters]

    def enemies_of(self, f: Fighter) -> list[Fighter]:
        """Enemies still in the fight (active or fleeing)."""
        return [
            e for s in self.sides.values() if s.name != f.side for e in s.fighters if e.in_fight
        ]

    def tactic_of(self, f: Fighter) -> Tactic:
        """The tactic of ``f``'s side."""
        return self.sides[f.side].tactic

    def in_cover(self, f: Fighter) -> bool:
        """True while ``f`` is in cover."""
        return self.cover_until.get(f.unique_id, -1) >= self.round

    def factors_of(self, kind: str) -> list[wargame.Factor]:
        """Factors of ``kind`` in play."""
        return [x for x in self.factors if x.kind == kind]

    def standing(self) -> int:
        """Individuals still in the fight, all sides together."""
        return sum(s.standing for s in self.sides.values())

    def enemy_waiting(self, f: Fighter) -> bool:
        """True while an active enemy of ``f`` has yet to act this round.

        Such an enemy may attack ``f`` before the HD it spends now come back.
        """
        return any(s.waiting for s in self.sides.values() if s.name != f.side)

    def mark_acted(self, f: Fighter) -> None:
        """``f`` has taken its turn this round."""
        if not f.acted:
            f.acted = True
            self.sides[f.side].waiting -= f.active

    def has_enemies(self, f: Fighter) -> bool:
        """True while an enemy of ``f`` is in the fight."""
        return any(s.standing for s in self.sides.values() if s.name != f.side)

    def morale_hd(self, f: Fighter) -> int:
        """A fighter's current HD as morale sees it (RULES.md 1.8, BattleOptions.morale_hd)."""
        return self.system.morale_hd(self, f)

    @property
    def large_mode(self) -> str:
        """How large scale is fought: ``turns`` (the default) or ``pools``."""
        return self.opts.large_scale

    # ---------------------------------------------------------------------- events
    def note(
        self, actor: str, action: str, target: str = "", dice: str = "", result: str = ""
    ) -> None:
        """Add one line to the event log (if it is on)."""
        if self.log is not None:
            self.log.append(
                {
                    "round": self.round,
                    "actor": actor,
                    "action": action,
                    "target": target,
                    "dice": dice,
                    "result": result,
                }
            )

    # ---------------------------------------------------------------------- harm and status
    def set_status(self, f: Fighter, status: Status) -> None:
        """Change ``f``'s status (keeping its War Game record in step).

        A fighter going out of the fight checks the morale triggers at once (RULES.md 1.8,
        :meth:`check_triggers`); a fighter starting to flee checks whether the battle ended
        (a rout).
        """
        if f.status == status:
            return
        before = f.status
        side = self.sides[f.side]
        side.recount(before, status)
        if not f.acted:
            side.waiting += (status == Status.ACTIVE) - (before == Status.ACTIVE)
        f.status = status
        if status == Status.ACTIVE:
            self.sides[f.side].refile(f)
        f.wg = f.wg.evolve(status=status)
        self.note(f.name, "status", result=status.value)
        if self.field is not None:
            self.field.fallen(f)
        if f.leader and status in (Status.INCAPACITATED, Status.DEAD) and self.large:
            self._leader_down(side)
        if status in OUT_OF_FIGHT and before not in OUT_OF_FIGHT:
            self.check_triggers()
        elif not self.deferred:
            self.check_end()

    def _leader_down(self, side: SideState) -> None:
        """A faction whose leader falls at large scale loses all but 1 HD [S].

        With turns this is read as its members' HD to spend this round: each keeps at most
        1 [I]. (With pools it is the pool's HD: :mod:`sim.pools`.)
        """
        if self.large_mode != "turns":
            return
        for m in side.fighters:
            if m.in_fight and m.wg.spendable > 1:
                m.wg = m.wg.evolve(spendable=1)
        self.note(side.name, "leader down", result="every member keeps at most 1 HD this round")

    def harmed(self, attacker: Fighter | None, target: Fighter, wounds: int, hd_lost: int) -> None:
        """Book damage or wounds that ``attacker`` did to ``target``."""
        if wounds <= 0 and hd_lost <= 0:
            return
        target.wounds_taken += wounds
        side_t = self.sides[target.side]
        side_t.round_taken += wounds
        side_t.hd_lost += hd_lost
        if attacker is not None:
            attacker.wounds_dealt += wounds
            self.sides[attacker.side].wounds_dealt += wounds
            self.sides[attacker.side].round_dealt += max(wounds, 1)
        else:
            side_t.round_dealt += 0
        self.harm_this_round = True
        if target.status == Status.FLEEING:
            target.wg = target.wg.evolve(damaged_while_fleeing=True)
        # its HD or wounds changed: file it again where it is now weaker
        side_t.refile(target)
        if self.queue is not None:
            self.queue[target.side][1].push(target)

    def damaged(self) -> None:
        """Book damage that wounded nobody (it still breaks a quiet spell)."""
        self.harm_this_round = True

    # ---------------------------------------------------------------------- the round
    def step(self) -> None:
        """Fight one round."""
        if self.ended:
            return
        self.round += 1
        self.harm_this_round = False
        for s in self.sides.values():
            s.round_dealt = s.round_taken = 0
        self._start_round()
        if not self.ended:
            self.system.fight_round(self)
        if not self.ended:
            self._end_round()
        self._record_round()
        if not self.ended and self.round >= self.max_rounds:
            self._finish(None, "max_rounds")

    def run(self) -> Outcome:
        """Fight until one side is left, a goal decides, or ``max_rounds`` passes."""
        while not self.ended:
            self.step()
        return self.outcome()

    def _start_round(self) -> None:
        for ev in self.scenario.events:
            if ev.round != self.round:
                continue
            if ev.kind == "reinforce":
                side = self.sides.get(ev.side)
                if side is None:
                    raise unknown("side in event", ev.side, list(self.sides))
                for spec in ev.fighters:
                    f = self._add_fighter(spec, side)
                    self.note(f.name, "arrives", result=f"reinforces {side.name}")
                    if self.large and self.large_mode == "pools":
                        side.pool = None  # rebuilt from its members below
            elif ev.kind == "add_factor" and ev.factor is not None:
                added = self._factor(ev.factor)
                self.factors.append(added)
                self.note("scenario", "factor added", result=f"{added.kind} {added.name}")
            elif ev.kind == "remove_factor" and ev.factor is not None and ev.factor.name:
                gone = wargame.factor(ev.factor.kind, ev.factor.name)
                self.factors = [x for x in self.factors if x != gone]
                self.note("scenario", "factor removed", result=f"{ev.factor.kind} {ev.factor.name}")
        self._check_scale()
        for s in self.sides.values():
            s.waiting = s.active
        for f in self.all_fighters():
            f.acted = False
            f.d6_reaction = None
            if f.in_fight:
                before = f.wg.hit_dice
                f.wg, start = wargame.start_round(f.wg, options=self.frame)
                if start.burning is not None:
                    self.note(f.name, "burning", result=start.burning.describe())
                    self.harmed(None, f, start.burning.lost, before - f.wg.hit_dice)
                    if f.wg.status != f.status:
                        self.set_status(f, f.wg.status)
                if f.wg.stuck_in is not None and f.in_fight:  # "for every round stuck"
                    f.wg, stuck = wargame.hazard_round(f.wg)
                    if stuck:
                        self.note(f.name, f"stuck in {f.wg.stuck_in}", result=stuck)
        if self.large and self.large_mode == "pools":
            for s in self.sides.values():
                if s.pool is None and s.in_fight():
                    s.pool = wargame.faction_pool([f.wg for f in s.in_fight()], self.frame)
                    self.note(s.name, "faction pool", result=_pool_text(s.pool))
                elif s.pool is not None:
                    s.pool, _ = wargame.start_round(s.pool, options=self.frame)
        self.check_end()

    def _should_be_large(self) -> bool:
        standing = self.standing()
        if self.small_until is not None and standing <= self.small_until:
            return False  # scattered into a small-scale War Game: only newcomers lift it
        return wargame.is_large_scale(standing, self.frame)

    def _check_scale(self) -> None:
        large = self._should_be_large()
        if large == self.large:
            return
        self.switch_scale(large)

    def switch_scale(self, large: bool, *, hold: bool = False) -> None:
        """Change scale (RULES.md 1.12); individuals keep their own state.

        ``hold``: a scattered faction's members fight on as individuals, so the battle stays
        small scale until reinforcements lift the count above today's.
        """
        self.small_until = self.standing() if hold else None
        self.large = large
        self.scale_switches += 1
        self.side_order = None
        self.next_side = 0
        for s in self.sides.values():
            s.pool = None
        word = "large" if large else "small"
        self.note("battle", "scale", result=f"{word} scale ({self.standing()} standing)")

    def take_turn(self, f: Fighter) -> None:
        """``f``'s turn under the battle's rule system, then whether the battle ended."""
        if not f.in_fight or self.ended:
            return
        self.system.take_turn(self, f)
        self.check_end()

    def take_turns(self) -> None:
        """A round of turns: popcorn initiative at small scale (RULES.md 1.6).

        At large scale the factions take turns one member at a time
        (:meth:`_faction_turns`), or fight as the seed's pools (:mod:`sim.pools`).
        """
        if self.large and self.large_mode == "pools":
            pools.pools_round(self)
            return
        fighters = [f for f in self.all_fighters() if f.in_fight]
        if not fighters:
            return
        if self.large:
            self._faction_turns()
            return
        first = self.next_first
        if first is None or not first.in_fight:
            side = self._side_order(leaders_only=False)[0]
            allies = [f for f in self.sides[side].fighters if f.in_fight]
            first = self.sides[side].tactic.name_next_actor(allies, [])
        actor: Fighter | None = first
        last: Fighter | None = None
        self.queue = self._waiting(fighters)
        while actor is not None and not self.ended:
            self._jump_in(actor)
            if self.ended:
                break
            if actor.in_fight:
                self.take_turn(actor)
            self.mark_acted(actor)
            last = actor
            actor = self._name_next(actor)
        self.queue = None
        if last is not None and not self.ended:
            self._name_first(last)

    def _faction_turns(self) -> None:
        """Large scale, ``turns``: the factions alternate, one member's turn at a time.

        The order is the one the leaders rolled (:meth:`large_order`); on its turn a faction
        sends one member (the leader confirming the maneuver [S]): as the small-scale naming
        would, its most harmless one first (tactic ``name_next: enemy_first``, keeping its
        strongest for the end of the round) or its most ready one (``ally_first``). A faction
        whose members have all acted passes, so a bigger faction's last members act at the
        end of the round, and the alternation carries on into the next round (RULES.md 1.12
        [I]: the small-scale War Game's interleaved turns, with the sides taking turns).
        """
        order = self.large_order()
        queues = {
            n: FighterHeap(
                harmlessness if self.sides[n].tactic.name_next == "enemy_first" else readiness,
                _is_waiting,
                self.sides[n].fighters,
            )
            for n in order
        }
        at, idle, last = self.next_side, 0, None
        while not self.ended and idle < len(order):
            name = order[at % len(order)]
            at += 1
            f = queues[name].top()
            if f is None:
                idle += 1
                continue
            idle = 0
            self.take_turn(f)
            self.mark_acted(f)
            self.next_side, last = at % len(order), f
        if last is not None and not self.ended:
            self._name_first(last)

    def _name_first(self, last: Fighter) -> None:
        """The last to act in a round names the first of the next (RULES.md 1.6 [S]).

        At large scale the factions' alternation decides instead; the name is kept for the
        round after a switch to small scale, so that the switch changes no turn order.
        """
        tactic = self.tactic_of(last)
        allies = [f for f in self.sides[last.side].fighters if f.in_fight]
        self.next_first = tactic.name_next_actor(allies, self.enemies_of(last))

    def _jump_in(self, named: Fighter) -> None:
        """War Game 1.6: an enemy of the named actor may spend 1 HD to act first.

        Used only when the frame option ``act_out_of_turn`` is on, by a fighter with at
        least 3 HD to spend (1 to jump in, 2 for a maneuver) [H].
        """
        if not self.frame.act_out_of_turn or not self.system.jumps_in:
            return
        for f in self.all_fighters():
            if (
                f.active
                and not f.acted
                and f.side != named.side
                and f.wg.spendable >= 3
                and wargame.can_act_out_of_turn(f.wg, self.frame)
            ):
                f.wg = wargame.act_out_of_turn(f.wg, self.frame)
                self.note(f.name, "acts out of turn", result="1 HD spent")
                self.take_turn(f)
                self.mark_acted(f)
                return

    def _waiting(
        self, fighters: list[Fighter]
    ) -> dict[str, tuple[FighterHeap, FighterHeap]] | None:
        """Per side, those yet to act this round: by readiness and by harmlessness.

        None when someone goes last this round: then :meth:`_name_next` scans everyone.
        """
        if any(f.wg.goes_last for f in fighters):
            return None
        return {
            name: (
                FighterHeap(readiness, _is_waiting, s.fighters),
                FighterHeap(harmlessness, _is_waiting, s.fighters),
            )
            for name, s in self.sides.items()
        }

    def _name_next(self, actor: Fighter) -> Fighter | None:
        """Popcorn: whom ``actor``'s tactic names among those yet to act (RULES.md 1.6)."""
        if self.queue is not None:  # nobody goes last: the best ally and the most harmless enemy
            ally = self.queue[actor.side][0].top()
            foes = [h.top() for side, (_, h) in self.queue.items() if side != actor.side]
            foe = min((x for x in foes if x is not None), key=harmlessness, default=None)
            return self.tactic_of(actor).name_next_actor(
                [ally] if ally is not None else [], [foe] if foe is not None else []
            )
        waiting = [f for f in self.all_fighters() if f.in_fight and not f.acted]
        ready = [f for f in waiting if not f.wg.goes_last] or waiting
        if not ready:
            return None
        allies = [f for f in ready if f.side == actor.side]
        enemies = [f for f in ready if f.side != actor.side]
        return self.tactic_of(actor).name_next_actor(allies, enemies)

    def large_order(self) -> list[str]:
        """Large scale: the order in which the sides take their turns, every round.

        The leaders roll 1 HD once, when the large-scale War Game begins; the highest side
        goes first and the sides then alternate, round after round (RULES.md 1.6). A new roll
        comes only when the scale changes again.
        """
        if self.side_order is None:
            self.side_order = self._side_order(leaders_only=True)
        late = [n for n, s in self.sides.items() if n not in self.side_order and s.in_fight()]
        return self.side_order + late

    def _side_order(self, *, leaders_only: bool) -> list[str]:
        """Initiative: everyone (or each leader) rolls 1 HD; the highest side goes first.

        With ``battle.initiative: sides`` one die per side is rolled, whatever its head count.
        """
        names = [s.name for s in self.sides.values() if s.in_fight()]
        if len(names) < 2:
            return names
        per_side = leaders_only or self.opts.initiative == "sides"
        counts = [1 if per_side else len(self.sides[n].in_fight()) for n in names]
        ini = wargame.roll_initiative(counts, self.rng, self.frame)
        if self.log is not None:
            self.note(
                "battle",
                "initiative",
                dice=str([list(r) for r in ini.rolls]),
                result=f"{names[ini.first]} first",
            )
        first = names[ini.first]
        return [first] + [n for n in names if n != first]

    def _end_round(self) -> None:
        for f in self.all_fighters():
            f.wg = wargame.end_round(f.wg)
        self.system.end_of_round(self)
        if self.harm_this_round:
            self.quiet_rounds = 0
        else:
            self.quiet_rounds += 1
            if self.quiet_rounds >= wargame.QUIET_ROUNDS:
                self.quiet_rounds = 0
                with self.together():  # every side rolls before a rout is judged
                    for s in self.sides.values():
                        self.morale_check(s, "quiet_rounds", once=False)
        self._update_goals()
        self.check_end()

    # ---------------------------------------------------------------------- morale
    def check_triggers(self) -> None:
        """Check every side's immediate morale triggers (RULES.md 1.8: half out, leader down).

        :meth:`set_status` calls this the moment a fighter goes out of the fight, so the roll
        comes before the acting creature's next maneuver or roll; inside :meth:`together` the
        check waits until everything that happens at once has been booked.
        """
        if self.deferred:
            return
        for s in self.sides.values():
            if s.defeated:
                continue
            total = len(s.fighters)
            out = total - s.standing
            if total and 2 * out >= total:
                self.morale_check(s, "half_out")
            lead = s.leader_fighter()
            if lead is not None and lead.status in (Status.INCAPACITATED, Status.DEAD):
                self.morale_check(s, "leader_out")
        self.check_end()

    @contextmanager
    def together(self) -> Iterator[None]:
        """Book changes that happen at once (a 2W2P front's hits, a faction's casualties).

        Morale triggers and the end of the battle are checked once, when all are booked.
        """
        self.deferred += 1
        try:
            yield
        finally:
            self.deferred -= 1
        if not self.deferred:
            self.check_triggers()

    def morale_check(self, s: SideState, trigger: str, *, once: bool = True) -> None:
        """Roll 1 HD for side ``s``: every active fighter at or below the roll flees.

        The caller checks the end of the battle afterwards (:meth:`check_end`), once every
        side that checks at this moment has rolled.
        """
        if self.opts.morale not in ("all", trigger):
            return
        if once and self.frame.morale_triggers_once:
            if trigger in s.triggers_fired:
                return
            s.triggers_fired.add(trigger)
        members = [f for f in s.fighters if f.active]
        if not members:
            return
        if self.frame.morale_compare == "fixed":
            values = [f.spec.resolve for f in members]
        else:
            values = [self.morale_hd(f) for f in members]
        morale = wargame.roll_morale(values, self.rng)
        fleeing = [members[i] for i in morale.fleeing]
        self.note(
            s.name,
            "morale",
            dice=f"d8={morale.roll}",
            result=f"{trigger}: "
            + (", ".join(f.name for f in fleeing) + " flee" if fleeing else "all hold"),
        )
        for f in fleeing:
            f.wg = wargame.start_fleeing(f.wg)
            self.set_status(f, Status.FLEEING)

    # ---------------------------------------------------------------------- goals
    def _update_goals(self) -> None:
        sides = list(self.sides.values())
        for s in sides:
            if s.defeated:
                continue
            for i, goal in enumerate(s.goals):
                if i in s.goals_failed or i in s.goals_achieved:
                    continue
                if goal.kind == "hold" and self.round >= goal.rounds and s.in_fight():
                    self.goal_achieved(s, i)
                elif goal.kind == "take_and_hold":
                    mine = sum(1 for f in s.fighters if f.active)
                    theirs = sum(1 for o in sides if o is not s for f in o.fighters if f.active)
                    s.held_rounds[i] = s.held_rounds.get(i, 0) + 1 if mine > theirs else 0
                    if s.held_rounds[i] >= goal.rounds:
                        self.goal_achieved(s, i)
        self.check_goals()

    def check_goals(self) -> None:
        """Fail goals that became impossible (a protected fighter down)."""
        for s in self.sides.values():
            for i, goal in enumerate(s.goals):
                if i in s.goals_failed or i in s.goals_achieved or goal.kind != "protect":
                    continue
                ward = s.by_name.get(goal.target)
                if ward is not None and ward.status in (Status.INCAPACITATED, Status.DEAD):
                    self.goal_failed(s, i)

    def goal_achieved(self, s: SideState, index: int) -> None:
        """Side ``s`` achieved goal ``index``; a winning goal ends the battle."""
        s.goals_achieved.add(index)
        goal = s.goals[index]
        self.note(s.name, "goal achieved", result=goal.kind)
        if goal.wins and not self.ended:
            for o in self.sides.values():
                if o is not s:
                    o.defeated = True
            self._finish(s.name, "goal_achieved")

    def goal_failed(self, s: SideState, index: int) -> None:
        """Side ``s``'s goal ``index`` became impossible: a morale trigger, and it loses."""
        s.goals_failed.add(index)
        self.note(s.name, "goal failed", result=s.goals[index].kind)
        with self.together():
            self.morale_check(s, "goal_failed")
        s.defeated = True
        self.check_end(reason="goal_failed")

    # ---------------------------------------------------------------------- the end
    def check_end(self, reason: str = "defeat") -> None:
        """End the battle when at most one side is left, or when every side left is routed.

        A side with nobody in the fight is defeated. A rout on every side left (nobody who is
        not fleeing) is a draw at once; with ``battle.rout: field`` a routed side is defeated
        at once, so the side still holding the field wins (RULES.md 1.8). Who acts first in
        the next round never decides it.
        """
        if self.ended or self.deferred:
            return
        self.check_goals()
        if self.ended:
            return
        routs_lose = self.opts.rout == "field"
        for s in self.sides.values():
            if not s.defeated and (not s.standing or (routs_lose and not s.active)):
                s.defeated = True
        standing = [s for s in self.sides.values() if not s.defeated]
        if len(standing) == 1:
            self._finish(standing[0].name, reason)
        elif not standing:
            emptied = not any(s.standing for s in self.sides.values())
            self._finish(None, "mutual_defeat" if emptied else "mutual_rout")
        elif not any(s.active for s in standing):
            self._finish(None, "mutual_rout")

    def _finish(self, winner: str | None, reason: str) -> None:
        self.ended = True
        self.running = False
        self.winner = winner
        self.end_reason = reason
        self.note("battle", "end", result=f"{reason}; winner {winner}")

    # ---------------------------------------------------------------------- records
    def _record_round(self) -> None:
        if self.field is not None:
            self.field.snapshot()
        for s in self.sides.values():
            counts = {st: 0 for st in STATUSES}
            for f in s.fighters:
                counts[f.status.value] += 1
            self.round_rows.append(
                {
                    "round": self.round,
                    "side": s.name,
                    "scale": "large" if self.large else "small",
                    **counts,
                    "hd": sum(f.wg.hit_dice for f in s.fighters if f.in_fight),
                    "armor": sum(f.wg.armor_pool for f in s.fighters if f.in_fight),
                    "pool_hd": s.pool.hit_dice if s.pool is not None else None,
                    "wounds_dealt": s.round_dealt,
                    "wounds_taken": s.round_taken,
                }
            )

    def outcome(self) -> Outcome:
        """The battle's outcome (call after :meth:`run`)."""
        sides: dict[str, dict[str, Any]] = {}
        for s in self.sides.values():
            counts = {st: 0 for st in STATUSES}
            for f in s.fighters:
                counts[f.status.value] += 1
            lead = s.leader_fighter()
            sides[s.name] = {
                **counts,
                "fighters": len(s.fighters),
                "leader_status": lead.status.value if lead is not None else None,
                "wounds_dealt": s.wounds_dealt,
                "hd_lost": s.hd_lost,
            }
        return Outcome(
            self.winner, self.end_reason or "running", self.round, self.scale_switches, sides
        )

    def fighter_rows(self) -> list[dict[str, Any]]:
        """One row per fighter: its final state."""
        from sim.rules import twowp

        rows = []
        for f in self.all_fighters():
            survived = f.status != Status.DEAD
            after = twowp.fights_after_battle(f.fights, f.fought, survived)
            rows.append(
                {
                    "name": f.name,
                    "side": f.side,
                    "role": f.role,
                    "leader": f.leader,
                    "status": f.status.value,
                    "arrived_round": f.arrived_round,
                    "hd_start": f.hd_start,
                    "hd_end": f.wg.hit_dice,
                    "armor_end": f.wg.armor_pool,
                    "wounds_taken": f.wounds_taken,
                    "wounds_dealt": f.wounds_dealt,
                    "fights_before": f.fights,
                    "fights_after": after,
                    "tier_before": twowp.tier_from_fights(f.fights).name.lower(),
                    "tier_after": twowp.tier_from_fights(after).name.lower(),
                }
            )
        return rows

    def rounds_frame(self) -> pd.DataFrame:
        """The per-round summary per side as a DataFrame."""
        return pd.DataFrame(self.round_rows)

    def fighters_frame(self) -> pd.DataFrame:
        """The per-fighter final state as a DataFrame."""
        return pd.DataFrame(self.fighter_rows())

    def events_frame(self) -> pd.DataFrame:
        """The event log as a DataFrame (empty unless the battle ran with ``events=True``)."""
        cols = ["round", "actor", "action", "target", "dice", "result"]
        return pd.DataFrame(self.log or [], columns=cols)

    def narrative(self) -> Iterable[str]:
        """The event log as readable lines: ``round 3: Bran (veteran) attack Osk: ...``."""
        tiers = {f.name: f.tier.name.lower() for f in self.all_fighters()}
        for e in self.log or []:
            actor = e["actor"] + (f" ({tiers[e['actor']]})" if e["actor"] in tiers else "")
            target = f" {e['target']}" if e["target"] else ""
            dice = f" [{e['dice']}]" if e["dice"] and e["dice"] not in e["result"] else ""
            sep = ": " if e["result"] else ""
            yield f"round {e['round']}: {actor} {e['action']}{target}{dice}{sep}{e['result']}"


def _pool_text(p: wargame.Combatant) -> str:
    return f"{p.hit_dice} HD, armor {p.armor_pool}"


def run_battle(scenario: Scenario, seed: int, *, events: bool = False, **overrides: Any) -> Battle:
    """Build and fight one battle; return it (``.outcome()``, frames, ``.narrative()``).

    ``overrides`` are passed to :class:`Battle` (``options``, ``frame``, ``battle``).
    """
    battle = Battle(scenario, seed=seed, events=events, **overrides)
    battle.run()
    return battle
