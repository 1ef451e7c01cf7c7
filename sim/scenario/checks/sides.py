"""Checks of the ``sides`` key: each side's fighters, leader, tactic and goals."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sim.errors import did_you_mean, unknown
from sim.rules import SYSTEMS
from sim.scenario.checks.base import BAD, get_or, listing, unknown_key
from sim.scenario.checks.fighters import FighterChecks
from sim.scenario.model import DRAW, Event, FighterSpec, Goal, Side, TacticSpec
from sim.scenario.reader import join_path, quote_name
from sim.scenario.tactics import TACTICS, Tactic, make_tactic

_SIDE_KEYS = ("leader", "tactic", "goals", "fighters")
_GOAL_KEYS = ("kind", "target", "toughness", "rounds", "wins")
_GOAL_FIELD = {"protect": "target", "destroy": "toughness", "hold": "rounds"}


SUMMARY_ENDS = (".lo", ".hi")
"""The endings of a side's interval columns in ``sim analyze``'s summary (``win.SIDE.lo``)."""


class SideChecks(FighterChecks):
    """Sides: their fighters (as entries), leaders, tactics and goals."""

    def rosters(
        self, doc: Mapping[str, Any], system: str
    ) -> tuple[list[str], dict[str, dict[str, Any]], dict[str, list[FighterSpec]]]:
        """The ``sides`` key: side names, each good side's mapping and its starting fighters."""
        sides_doc = self.mapping(doc.get("sides", {}), "sides", "a mapping of side name to side")
        side_names = list(sides_doc or {})
        starting: dict[str, list[FighterSpec]] = {}
        side_maps: dict[str, dict[str, Any]] = {}
        for side, body in (sides_doc or {}).items():
            path = join_path("sides", side)
            if side == DRAW:
                self.error(
                    path,
                    f"{DRAW!r} is not a side's name: a battle nobody won has "
                    f"the outcome {DRAW!r}; name the side otherwise",
                )
            sm = self.mapping(body, path, "a side (a mapping with fighters)")
            if sm is None:
                continue
            side_maps[side] = sm
            self.keys(sm, path, _SIDE_KEYS)
            if "fighters" not in sm:
                self.error(
                    join_path(path, "fighters"), "required: a side needs at least one fighter"
                )
                continue
            found = self.entries(sm["fighters"], join_path(path, "fighters"), side)
            if found is not None:
                starting[side] = found
        self.column_twins(side_names)
        if sides_doc is not None and "sides" in doc and len(side_names) < 2:
            self.error("sides", f"a battle needs at least two sides, got {len(side_names)}")
        rules = SYSTEMS.get(system)
        most = rules.MAX_SIDES if rules is not None else None
        if most is not None and len(side_names) > most:
            sides = "exactly two" if most == 2 else f"at most {most}"  # a battle has two or more
            self.error("sides", f"{system} battles have {sides} sides, got {len(side_names)}")
        return side_names, side_maps, starting

    def column_twins(self, side_names: Sequence[str]) -> None:
        """Refuse a side named as another side's column in a summary (``guards.lo``).

        ``sim analyze`` gives each side the columns ``win.SIDE``, ``win.SIDE.lo`` and
        ``win.SIDE.hi`` (:mod:`sim.analysis.summary`): sides ``guards`` and ``guards.lo``
        would share ``win.guards.lo``, and one's rate would be printed as the other's bound.
        """
        for name in side_names:
            for end in SUMMARY_ENDS:
                other = name[: -len(end)]
                if name.endswith(end) and other in side_names:
                    self.error(
                        join_path("sides", name),
                        f"a side named {name!r} would share the summary's column win.{name} "
                        f"with side {other!r} (its interval); rename one of them",
                    )

    def sides(
        self,
        side_maps: Mapping[str, Mapping[str, Any]],
        starting: Mapping[str, Sequence[FighterSpec]],
        events: Sequence[Event],
    ) -> list[Side]:
        """Every side with fighters: its leader, tactic and goals checked."""
        sides: list[Side] = []
        for side, sm in side_maps.items():
            made = self.side(side, sm, starting, events)
            if made is not None:
                sides.append(made)
        return sides

    def side(
        self,
        side: str,
        sm: Mapping[str, Any],
        starting: Mapping[str, Sequence[FighterSpec]],
        events: Sequence[Event],
    ) -> Side | None:
        """One side's leader, tactic and goals; the side if it has starting fighters."""
        path = join_path("sides", side)
        names = [f.name for f in starting.get(side, [])]
        leader = sm.get("leader")
        if leader is not None:
            if self.text(leader, join_path(path, "leader")) is BAD:
                leader = None
            elif leader not in names and side in starting and side not in self.unsure:
                hint = did_you_mean(leader, names) or f"; its fighters: {listing(names)}"
                self.error(
                    join_path(path, "leader"),
                    f"{leader!r} is not a starting fighter of side {quote_name(side)}{hint}",
                )
                leader = None
        tactic = self.tactic(get_or(sm, "tactic", "balanced"), join_path(path, "tactic"))
        arrivals = [
            f.name for e in events if e.kind == "reinforce" and e.side == side for f in e.fighters
        ]
        goals: list[Goal] = []
        if sm.get("goals") is not None:
            goals = self.goals(sm["goals"], join_path(path, "goals"), side, names + arrivals)
        if side not in starting:
            return None
        return Side(side, tuple(starting[side]), leader, tactic, tuple(goals))

    def tactic(self, value: Any, path: str) -> TacticSpec:
        """A side's ``tactic``: a name, or ``{name: NAME, params: {...}}``."""
        name: Any = "balanced"
        params: dict[str, Any] = {}
        if isinstance(value, dict):
            self.keys(value, path, ("name", "params"))
            name = get_or(value, "name", "balanced")
            params = self.options(
                Tactic, value.get("params"), join_path(path, "params"), "tactic parameter"
            )
            name_path = join_path(path, "name")
        else:
            name_path = path
            name = value
        if self.text(name, name_path) is BAD:
            return TacticSpec(params=params)
        if name not in TACTICS:
            self.error(name_path, str(unknown("tactic", name, TACTICS)))
            return TacticSpec(params=params)
        self.attempt(path, make_tactic, name, params, path, strip=(f"{path}.",))
        return TacticSpec(name, params)

    def goals(self, value: Any, path: str, side: str, fighters: Sequence[str]) -> list[Goal]:
        """A side's ``goals``; ``fighters`` are the names a protect goal may name."""
        items = self.a_list(value, path, "goals")
        out: list[Goal] = []
        for i, item in enumerate(items or []):
            goal = self.goal(item, f"{path}[{i}]", side, fighters)
            if goal is not None:
                out.append(goal)
        return out

    def goal(self, item: Any, path: str, side: str, fighters: Sequence[str]) -> Goal | None:
        """One goal, one-key (``{hold: 5}``) or long (``{kind: hold, rounds: 5}``)."""
        example = "a goal such as {hold: 5} or {protect: NAME}"
        m = self.mapping(item, path, example)
        if m is None:
            return None
        kinds = ("protect", "destroy", "hold", "take_and_hold")
        wins = True
        if "wins" in m:
            checked = self.flag(m["wins"], join_path(path, "wins"))
            wins = True if checked is BAD else checked
        if "kind" in m:  # long form
            self.keys(m, path, _GOAL_KEYS)
            kind_path = join_path(path, "kind")
            kind = m["kind"]
            if self.text(kind, kind_path) is BAD:
                return None
            if kind not in kinds:
                self.error(kind_path, str(unknown("goal kind", kind, kinds)))
                return None
            field = _GOAL_FIELD.get(kind, "rounds")
            for other in ("target", "toughness", "rounds"):
                if other in m and other != field:
                    self.error(
                        join_path(path, other), f"not used by a {kind} goal (it takes {field})"
                    )
            if field not in m:
                self.error(join_path(path, field), f"required: a {kind} goal needs {field}")
                return None
            arg, arg_path = m[field], join_path(path, field)
        else:
            given = [k for k in m if k in kinds]
            strays = [k for k in m if k not in kinds and k != "wins"]
            for key in strays:
                self.error(join_path(path, key), unknown_key(key, [*kinds, "wins", "kind"]))
            if strays and not given:
                return None
            if len(given) != 1:
                got = "none" if not given else " and ".join(given)
                self.error(path, f"expected one of {', '.join(kinds)}, got {got}")
                return None
            kind = given[0]
            arg, arg_path = m[kind], join_path(path, kind)
        if kind == "protect":
            if self.text(arg, arg_path) is BAD:
                return None
            if arg not in fighters and side not in self.unsure:
                hint = did_you_mean(arg, fighters) or f"; its fighters: {listing(fighters)}"
                self.error(arg_path, f"{arg!r} is not a fighter of side {quote_name(side)}{hint}")
                return None
            return Goal(kind, target=arg, wins=wins)
        if kind == "destroy":
            n = self.whole(arg, arg_path, 1, 1_000_000)
            return None if n is BAD else Goal(kind, toughness=n, wins=wins)
        n = self.whole(arg, arg_path, 1, self.max_rounds)
        return None if n is BAD else Goal(kind, rounds=n, wins=wins)
