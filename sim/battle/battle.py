"""Battle: a Mesa model that fights one scenario under the War Game frame (RULES.md 1).

The frame gives every system its rounds and turn order (1.6), morale (1.8), goals (1.11)
and scale switching (1.12); the scenario's rule system resolves the blows
(:mod:`sim.systems`). One ``numpy.random.Generator`` (Mesa's ``Model.rng``) makes every draw.

Python API::

    battle = Battle(scenario, seed=7)          # rng=7 is the same; or rng=a Generator
    battle = Battle.from_yaml("scenarios/skirmish.yaml", ["sides.bandits.tactic=defensive"], seed=7)
    outcome = battle.run()                    # an Outcome; outcome.to_dict() is the JSON
    battle.rounds_frame(); battle.fighters_frame(); battle.events_frame()   # pandas
    battle = Battle(scenario=BattleScenario(rng=7, spec="scenarios/skirmish.yaml"))  # Mesa 3.5

Mesa's way works too: ``battle.datacollector`` (per side active, fleeing and HD; per
fighter status, HD and wounds; :mod:`sim.battle.collect`), ``mesa.batch_run(Battle, {"scenario":
path, "rng": range(100)})`` (on any Mesa; docs/versions.md), and ``battle.grid`` on a map.

A scenario with a ``map`` gives the battle a :class:`sim.frame.field.Battlefield`
(``battle.field``): the fighters stand on its Mesa grid and space enters every system's
turn (:mod:`sim.systems`). Without one ``battle.field`` is None and the battle is abstract.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import mesa
import numpy as np

from sim import systems
from sim.battle import scenarios
from sim.battle.scenarios import MESA_SCENARIO, is_mesa_scenario, read_mesa_scenario
from sim.dice import generator
from sim.errors import SimError, unknown
from sim.frame import pools
from sim.frame.agents import Fighter
from sim.frame.core import END_REASONS, STATUSES, FighterState, Outcome
from sim.frame.field import Battlefield
from sim.frame.sides import FighterHeap, SideState
from sim.frame.turns import TurnFrame
from sim.options import BattleOptions
from sim.rules import wargame
from sim.scenario import FactorSpec, FighterSpec, Scenario, Side, load_scenario
from sim.scenario.checks.rules import pools_refused

__all__ = [
    "END_REASONS",
    "STATUSES",
    "Battle",
    "BattleOptions",
    "FighterHeap",
    "Outcome",
    "SideState",
    "run_battle",
]


def _battle_options(scenario: Scenario, system: systems.RuleSystem) -> BattleOptions:
    """The scenario's battle options; faction pools refused under a system without them."""
    opts = scenario.battle_options
    if opts.large_scale == "pools" and not system.rules.FACTION_POOLS:
        raise SimError(f"battle.large_scale: {pools_refused(system.name)}")
    return opts


class Battle(TurnFrame):
    """One battle of a :class:`~sim.scenario.Scenario`, seeded by ``seed`` or ``rng``.

    ``rng`` is a ``numpy.random.Generator`` used as it is, or a seed: ``rng=42`` fights the
    same battle as ``seed=42`` and ``sim run --seed 42`` (:func:`sim.dice.generator`).

    ``scenario`` may be a scenario file's path (:meth:`from_yaml` takes ``--set`` overrides
    too), or on Mesa 3.5 a Mesa ``Scenario`` whose ``rng`` and parameters make the battle
    (:class:`~sim.battle.scenarios.BattleScenario`). The battle keeps sim's own scenario as
    ``battle.spec``; ``battle.scenario`` is Mesa 3.5's (:mod:`mesa.experimental.scenarios`).
    ``events=True`` keeps a log of every roll and decision (off by default for speed).
    ``options``, ``frame`` and ``battle`` override the scenario's rule options, War Game
    frame options and battle house rules for this run.
    """

    def __init__(
        self,
        scenario: Scenario | str | Path,
        *,
        seed: int | None = None,
        rng: np.random.Generator | int | None = None,
        events: bool = False,
        options: Mapping[str, Any] | None = None,
        frame: Mapping[str, Any] | None = None,
        battle: Mapping[str, Any] | None = None,
    ) -> None:
        given = (scenario, seed, rng, events, options, frame, battle)
        scenario, rng, events, mesa_scenario = _resolved(*given)
        super().__init__(rng=generator(rng))  # rng=42 is seed=42, as sim run --seed 42
        self.spec = scenario
        if MESA_SCENARIO is not None:  # Mesa 3.5: the Mesa scenario this battle is
            self._own_scenario(mesa_scenario, rng, events)
        self.system = systems.get(scenario.rules)
        self.rules = self.system.name
        # built once per scenario, by its system (a replace makes a new scenario: rebuilt)
        self.options = scenario.rule_options(self.system)
        self.frame: wargame.Options = scenario.frame_options(self.system)
        self.opts: BattleOptions = _battle_options(scenario, self.system)
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
        # loud armor heard in hiding cover: the round it was last noted, per fighter id
        self.heard_round: dict[int, int] = {}
        self._start_turn_order()
        self.sides: dict[str, SideState] = {}
        self.roster: list[Fighter] = []  # every fighter in the order it joined
        self.rolled_gear: dict[str, dict[str, str]] = {}  # name -> rolled_weapon/_armor
        self.states: list[list[FighterState]] = []  # per round (0: deployment), see record
        self._own_collector: Any = None  # see datacollector
        self.field: Battlefield | None = None
        if scenario.map is not None:
            self.field = Battlefield(self, scenario.map, partial(self.system.range_ft, self))
        for s in scenario.sides:
            self._add_side(s)
        self.system.check_sides(len(self.sides))
        self.large = self._should_be_large()
        if self.large:
            self._name_leaders()
        if self.field is not None:
            self.field.snapshot()
        self._record_states()

    def _start_turn_order(self) -> None:
        """Who acts when, before round 1: nobody named, no side order rolled, no queues."""
        self.next_first = None
        self.side_order = None  # large scale: rolled once, then alternate
        self.next_side = 0  # large scale with turns: whose turn comes next in side_order
        self.last_side = None  # large scale with turns: whose turn was the last
        self.small_until = None  # see switch_scale(hold=True)
        self.queue = None  # see _turns
        self.faction_queue = None  # see _faction_turns
        self.deferred = 0  # > 0 inside together(): triggers and the end wait

    # Mesa before 3.5 (hidden from mypy, which would see a read-only scenario on Mesa 3.5 too)
    if not TYPE_CHECKING and not isinstance(getattr(mesa.Model, "scenario", None), property):

        @property
        def scenario(self) -> Scenario:
            """Deprecated name of :attr:`spec`, kept where Mesa's ``Model`` has no ``scenario``."""
            warnings.warn(
                "Battle.scenario is now Battle.spec (Mesa 3.5's Model has its own scenario)",
                DeprecationWarning,
                stacklevel=2,
            )
            return self.spec

    def _own_scenario(self, given: Any, rng: np.random.Generator | int, events: bool) -> None:
        """Set Mesa 3.5's ``scenario``: the one the battle was made from, or one of its own.

        A given one without an ``rng`` records the seed the battle took; a battle made from
        sim's scenario gets a :class:`~sim.battle.scenarios.BattleScenario` of the same
        battle (its ``rng`` and ``spec``), as a Mesa 3.5 model gets one of its parameters.
        """
        if given is None:
            given = scenarios.BattleScenario(rng=rng, spec=self.spec, events=events)
        elif given.rng is None:
            given.rng = rng
        self.scenario = given

    @classmethod
    def from_yaml(
        cls,
        path: str | Path,
        overrides: Sequence[str] = (),
        *,
        seed: int | None = None,
        rng: np.random.Generator | int | None = None,
        events: bool = False,
    ) -> Battle:
        """The battle of the scenario file ``path`` with ``--set`` style ``overrides``.

        ``Battle.from_yaml("scenarios/skirmish.yaml", ["sides.bandits.tactic=defensive"],
        seed=3)`` is the battle of ``sim run scenarios/skirmish.yaml --set
        sides.bandits.tactic=defensive --seed 3``; without ``seed`` (or ``rng``), the file's.
        """
        return cls(load_scenario(path, list(overrides)), seed=seed, rng=rng, events=events)

    # ---------------------------------------------------------------------- Mesa
    @property
    def datacollector(self) -> Any:
        """The battle's Mesa ``DataCollector`` (:class:`sim.battle.collect.BattleCollector`).

        Made on first use from the battle's own records and brought up to the current
        round on every use, so ``mesa.batch_run(Battle, ...)`` works as it is. Assign one
        of your own to replace it.
        """
        if self._own_collector is None:
            from sim.battle.collect import BattleCollector

            self._own_collector = BattleCollector(self)
        if getattr(self._own_collector, "battle", None) is self:
            self._own_collector.collect(self)
        return self._own_collector

    @datacollector.setter
    def datacollector(self, collector: Any) -> None:
        self._own_collector = collector

    @property
    def grid(self) -> Any:
        """The Mesa grid the fighters stand on (``OrthogonalMooreGrid``); None without a map."""
        return self.field.grid if self.field is not None else None

    # ---------------------------------------------------------------------- building
    def _add_side(self, s: Side) -> None:
        """A side of the scenario: its tactic, goals and fighters."""
        state = SideState(s.name, self.spec.side_tactic(s.name), s.goals, s.leader)
        self.sides[s.name] = state
        names = {f.name for f in s.fighters}
        if s.leader is not None and s.leader not in names:
            raise unknown(f"leader of side {s.name!r}:", s.leader, sorted(names))
        for g_index, goal in enumerate(s.goals):
            if goal.kind == "destroy":
                state.toughness[g_index] = goal.toughness
        for spec in s.fighters:
            self._add_fighter(spec, state)

    def _add_fighter(self, spec: FighterSpec, side: SideState) -> Fighter:
        spec = self._roll_gear(spec) if spec.rolled else spec
        f = Fighter(self, spec, side.name, leader=spec.name == side.leader)
        f.arrived_round = self.round
        side.join(f)
        self.roster.append(f)
        if self.field is not None and f.in_fight:
            self.field.deploy(f)
        return f

    def _roll_gear(self, spec: FighterSpec) -> FighterSpec:
        """``spec`` with its ``rolled`` gear rolled on the War Game tables [S], once.

        The d12 weapons then the d6 armors (a rolled piecemeal is one piece [I]), from the
        battle's generator as the fighter joins; kept for its row and noted (``rolls gear``).
        """
        got: dict[str, Any] = {"rolled": ()}
        row: dict[str, str] = {}
        dice, said = [], []
        if "weapon" in spec.rolled:
            weapon = wargame.roll_weapon(self.rng)
            got["weapon"] = row["rolled_weapon"] = weapon.name
            dice.append(f"d12={weapon.roll}")
            said.append(f"weapon {weapon.name}")
        if "armor" in spec.rolled:
            armor = wargame.roll_armor(self.rng)
            got["armor"], row["rolled_armor"] = (armor.name,), armor.name
            dice.append(f"d6={armor.roll}")
            said.append(f"armor {armor.name}")
        self.rolled_gear[spec.name] = row
        self.note(spec.name, "rolls gear", dice=", ".join(dice), result=", ".join(said))
        return replace(spec, **got)

    def _factor(self, spec: FactorSpec) -> wargame.Factor:
        """The factor a spec names, or one rolled on its d8 table."""
        if spec.name is None:
            return wargame.roll_factor(spec.kind, self.rng)
        return wargame.factor(spec.kind, spec.name)

    # ---------------------------------------------------------------------- the round
    def step(self) -> None:
        """Fight one round.

        After the last round (``ended``) a step does nothing but turn Mesa's ``running``
        off: a Mesa loop (``while battle.running: battle.step()``) makes one call more than
        the battle has rounds, so that Mesa 3.3's ``batch_run``, which reports the data of
        step ``steps - 1`` (Mesa issue 2514), reports the last round.
        """
        if self.ended:
            self.running = False
            return
        self.begin_round()
        if not self.ended:
            self.system.fight_round(self)
        if not self.ended:
            self._end_round()
        self._record_round()
        if not self.ended and self.round >= self.max_rounds:
            self._finish(None, "max_rounds")

    def begin_round(self) -> None:
        """The next round up to its first turn: its number, events and every start of a round.

        The sides' and fighters' start of a round: HD pools, armor, burning, the system's own
        resets (a D6 reaction no longer stands).
        """
        self.round += 1
        self.harm_this_round = False
        for s in self.sides.values():
            s.round_dealt = s.round_taken = 0
        self._start_round()

    def take_turns(self) -> None:
        """A round of turns (:meth:`TurnFrame.take_turns`), or a round of faction pools.

        At large scale under ``battle.large_scale: pools`` the factions fight as the seed's
        pools (:func:`sim.frame.pools.pools_round`).
        """
        if self.large and self.large_mode == "pools":
            pools.pools_round(self)
        else:
            super().take_turns()

    def run(self) -> Outcome:
        """Fight until one side is left, a goal decides, or ``max_rounds`` passes."""
        while not self.ended:
            self.step()
        return self.outcome()

    def _start_round(self) -> None:
        for ev in self.spec.events:
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
        self.system.start_round(self)
        for f in self.all_fighters():
            f.acted = False
            if f.in_fight:
                before = f.wg.hit_dice
                survive = f.wg.burning and self.tactic_of(f).wants_dodge(True, before <= 1)
                start = wargame.start_round_in_place(f.wg, options=self.frame, survive=survive)
                if start.survived:
                    self.note(f.name, "burning", result="1 HD spent to survive the burn")
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

    def _end_round(self) -> None:
        for f in self.all_fighters():
            f.wg = wargame.end_round(f.wg)
        for s in self.sides.values():  # a faction pool ends its round as a fighter does
            if s.pool is not None:
                s.pool = wargame.end_round(s.pool)
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


def _resolved(
    scenario: Any,
    seed: int | None,
    rng: np.random.Generator | int | None,
    events: bool,
    options: Mapping[str, Any] | None,
    frame: Mapping[str, Any] | None,
    battle: Mapping[str, Any] | None,
) -> tuple[Scenario, np.random.Generator | int, bool, Any]:
    """Sim's scenario of a battle, its seed (or Generator), ``events``, and its Mesa scenario.

    The Mesa scenario is the one given (Mesa 3.5's ``Battle(scenario=BattleScenario(...))``,
    whose parameters are then the battle's), or None.
    """
    mesa_scenario = None
    if is_mesa_scenario(scenario):
        given = {"events": events, "options": options, "frame": frame, "battle": battle}
        mesa_scenario = scenario
        beside = rng if rng is not None else seed  # batch_run gives seed=None beside it
        scenario, rng, kw = read_mesa_scenario(scenario, beside, given)
        events, options, frame, battle = kw["events"], kw["options"], kw["frame"], kw["battle"]
    scenario = _overridden(scenario, options, frame, battle)
    if rng is None:
        rng = seed if seed is not None else scenario.seed
        if rng is None:
            raise SimError("a battle needs a seed (or an rng)")
    return scenario, rng, events, mesa_scenario


def _overridden(
    scenario: Scenario | str | Path,
    options: Mapping[str, Any] | None,
    frame: Mapping[str, Any] | None,
    battle: Mapping[str, Any] | None,
) -> Scenario:
    """The scenario (or the file's) with a run's own rule options, frame options, house rules."""
    if not isinstance(scenario, Scenario):
        scenario = load_scenario(scenario)
    if options or frame or battle:
        from dataclasses import replace

        scenario = replace(
            scenario,
            options={**scenario.options, **(options or {})},
            frame={**scenario.frame, **(frame or {})},
            battle={**scenario.battle, **(battle or {})},
        )
    return scenario


def _pool_text(p: wargame.Combatant) -> str:
    return f"{p.hit_dice} HD, armor {p.armor_pool}"


def run_battle(scenario: Scenario, seed: int, *, events: bool = False, **overrides: Any) -> Battle:
    """Build and fight one battle; return it (``.outcome()``, frames, ``.narrative()``).

    ``overrides`` are passed to :class:`Battle` (``options``, ``frame``, ``battle``).
    """
    battle = Battle(scenario, seed=seed, events=events, **overrides)
    battle.run()
    return battle


def headline(battle: Battle, seed: int) -> str:
    """One line: the scenario and its rules, the seed, who won and why, how long it took."""
    out = battle.outcome()
    won = f"{out.winner} won" if out.winner else "a draw"
    rounds = f"{out.rounds} round{'s' if out.rounds != 1 else ''}"
    switches = f"{out.scale_switches} scale switch{'es' if out.scale_switches != 1 else ''}"
    return (
        f"{battle.spec.name} ({battle.rules}), seed {seed}: "
        f"{won} after {rounds} "
        f"({_why(out.winner, out.end_reason, list(out.sides))}), {switches}"
    )


def _why(winner: str | None, reason: str, sides: list[str]) -> str:
    """How the battle ended, in words: ``bandits defeated``, ``goal achieved`` ..."""
    others = ", ".join(s for s in sides if s != winner)
    return {
        "defeat": f"{others} defeated",
        "goal_achieved": "goal achieved",
        "goal_failed": f"{others}: goal failed",
        "mutual_defeat": "both sides defeated" if len(sides) == 2 else "every side defeated",
        "mutual_rout": "both sides routed" if len(sides) == 2 else "every side routed",
        "max_rounds": "max_rounds reached",
    }.get(reason, reason)
