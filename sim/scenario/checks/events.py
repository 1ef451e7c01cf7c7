"""Checks of the ``factors`` and ``events`` keys: factors in play, scripted events."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sim.errors import unknown
from sim.rules import wargame
from sim.scenario.checks.base import BAD, unknown_key
from sim.scenario.checks.fighters import FighterChecks
from sim.scenario.model import Event, FactorSpec, FighterSpec
from sim.scenario.reader import join_path, show

_EVENT_ACTIONS = ("reinforce", "add_factor", "remove_factor")


class EventChecks(FighterChecks):
    """Factors and events (a reinforce event's fighters are checked as a side's are)."""

    def factors(self, value: Any) -> list[FactorSpec]:
        """The ``factors`` key: the factors in play from the start."""
        factors: list[FactorSpec] = []
        if value is not None:
            for i, item in enumerate(self.a_list(value, "factors", "factors") or []):
                spec = self.factor(item, f"factors[{i}]", allow_roll=True)
                if spec is not None:
                    factors.append(spec)
        return factors

    def factor(self, value: Any, path: str, allow_roll: bool) -> FactorSpec | None:
        """A one-key factor mapping: ``{cover: trees}``, or ``{roll: KIND}`` if allowed."""
        kinds = (*wargame.FACTOR_KINDS, "roll") if allow_roll else wargame.FACTOR_KINDS
        example = "{cover: trees}" + (" or {roll: hazard}" if allow_roll else "")
        if not isinstance(value, dict) or len(value) != 1:
            got = f"{len(value)} keys" if isinstance(value, dict) else show(value)
            self.error(path, f"expected a one-key mapping such as {example}, got {got}")
            return None
        ((kind, name),) = value.items()
        key_path = join_path(path, kind)
        if kind not in kinds:
            self.error(key_path, unknown_key(kind, kinds))
            return None
        if self.text(name, key_path) is BAD:
            return None
        if kind == "roll":
            if name not in wargame.FACTOR_KINDS:
                self.error(key_path, str(unknown("factor kind", name, wargame.FACTOR_KINDS)))
                return None
            return FactorSpec(name, None)
        found = self.attempt(key_path, wargame.factor, kind, name)
        return None if found is BAD else FactorSpec(kind, found.name)

    def events(self, value: Any, sides: Sequence[str]) -> list[Event]:
        """The ``events`` key: scripted events of the battle."""
        events: list[Event] = []
        if value is not None:
            for i, item in enumerate(self.a_list(value, "events", "events") or []):
                event = self.event(item, f"events[{i}]", sides)
                if event is not None:
                    events.append(event)
        return events

    def event(self, item: Any, path: str, sides: Sequence[str]) -> Event | None:
        """One event: its round and its one action (reinforce, add or remove a factor)."""
        m = self.mapping(
            item, path, "an event such as {round: 3, reinforce: SIDE, fighters: [...]}"
        )
        if m is None:
            return None
        self.keys(m, path, ("round", *_EVENT_ACTIONS, "fighters"))
        rnd: Any = BAD
        if "round" not in m:
            self.error(join_path(path, "round"), "required: the round the event happens in")
        else:
            rnd = self.whole(m["round"], join_path(path, "round"), 1, self.max_rounds)
        actions = [a for a in _EVENT_ACTIONS if a in m]
        if len(actions) != 1:
            got = "none" if not actions else " and ".join(actions)
            self.error(
                path, f"an event takes exactly one of {', '.join(_EVENT_ACTIONS)}, got {got}"
            )
            return None
        kind = actions[0]
        kind_path = join_path(path, kind)
        if kind != "reinforce" and "fighters" in m:
            self.error(join_path(path, "fighters"), "only a reinforce event has fighters")
        if kind == "reinforce":
            side = m[kind]
            ok = self.text(side, kind_path) is not BAD
            if ok and side not in sides:
                self.error(kind_path, str(unknown("side", side, sides)))
                ok = False
            fighters: list[FighterSpec] | None = None
            if "fighters" not in m:
                self.error(
                    join_path(path, "fighters"), "required: a reinforce event needs fighters"
                )
            else:
                fighters = self.entries(
                    m["fighters"], join_path(path, "fighters"), side if ok else ""
                )
            if not ok or fighters is None or rnd is BAD:
                if ok:
                    self.unsure.add(side)
                return None
            return Event(rnd, kind, side=side, fighters=tuple(fighters))
        factor = self.factor(m[kind], kind_path, allow_roll=kind == "add_factor")
        if factor is None or rnd is BAD:
            return None
        return Event(rnd, kind, factor=factor)
