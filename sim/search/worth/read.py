"""``design: worth``: what each item of an army is worth in points, fitted from battles.

::

    design: worth
    parameters:                                     # the items, each a change to one side
      sides.bandits.fighters[0].count: {low: 2, high: 9}   # a count: one item per step
      sides.guards.fighters[1].count: {low: 1, high: 4}
      Hild:                                         # alternatives: each but the first an item
        choices:
          as given: {}
          plate: {sides.guards.fighters[0].armor: [plate]}
    scale: {bandit: 10}        # the unit: a bandit costs 10 points (default: the first item)
    of: decisive               # or all: a draw counts half a win to each side
    tolerance: 10%             # stop when every cost is known to +-10% (of itself, or of
                               # the scale when it is smaller)
    start: 30                  # battles at each composition of the start
    replicates: 40             # battles at each composition of a later batch
    curve: [bandit, guard]     # the exchange curve: bandits for an even fight, by guards
    budget: 20000
    labels:
      sides.bandits.fighters[0].count: bandit
      sides.guards.fighters[1].count: guard

An item is a scenario change on one of the two sides, as any search's parameters are
(:mod:`sim.search.space`): a whole range (a fighter's ``count``: one more of a template; a
``hit_dice`` or ``fights`` step), each step above its low end one item; or choices (a
list of values, or named alternatives each setting paths together), the first the
baseline and each other one an item, present or not. Its name is its label (or path); an
alternative's is its name, a listed value's ``LABEL = VALUE``. Where the battles go:
:mod:`sim.search.worth.choose`; the model: :mod:`sim.search.worth.fit`.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

from sim.errors import did_you_mean
from sim.scenario.overrides import parse_path
from sim.search.space import Param, read_param
from sim.search.spec import Bad
from sim.search.worth.choose import Rule, per_batch, start_count
from sim.search.worth.costs import Scale
from sim.search.worth.model import Item, Space

KEYS = ("scale", "of", "tolerance", "start", "replicates", "curve")
OF = ("decisive", "all")
BUDGET = 20_000
"""The default budget of battles."""
MAX_ITEMS = 12
"""Items a search prices at most."""
MAX_STEPS = 40
"""Steps of a whole range at most (high - low)."""


@dataclass(frozen=True, slots=True)
class Settings:
    """A worth search's own keys, checked, and the items they give."""

    space: Space
    scale: Scale
    of: str
    tolerance: float
    rule: Rule
    curve: tuple[int, int] | None
    """The exchange curve's items: (the one balanced, the one along the axis)."""
    first: str
    """The side whose wins the model counts (the scenario's first)."""
    other: str


def read(
    doc: dict[str, Any], sides: tuple[str, ...], budget: int, bad: Bad
) -> tuple[list[Param], Settings]:
    """The parameters and settings of a worth search (problems to ``bad``)."""
    if sides and len(sides) != 2:
        bad(
            "scenario",
            f"a worth search prices the items of two sides; the scenario has {len(sides)}",
        )
    params = _params(doc.get("parameters"), bad)
    given = doc.get("labels")
    labels: dict[Any, Any] = given if isinstance(given, dict) else {}
    items = _items(params, labels, sides, bad)
    first = sides[0] if sides else ""
    other = sides[1] if len(sides) > 1 else ""
    levels = tuple(_levels(p) for p in params)
    space = Space(levels, tuple(items))
    names = [it.name for it in items]
    scale = _scale(doc.get("scale"), names, bad)
    of = str(doc.get("of", "decisive"))
    if of not in OF:
        bad(
            "of",
            f"expected decisive (battles with a winner) or all (a draw half a win), got {of!r}",
        )
    tol = _share(doc.get("tolerance", 0.10), "tolerance", bad)
    start = _whole(doc.get("start", 30), "start", 5, 10_000, bad)
    reps = _whole(doc.get("replicates", 40), "replicates", 5, 100_000, bad)
    rule = Rule(start=start, replicates=reps, per_batch=per_batch(space))
    curve = _curve(doc.get("curve"), items, bad)
    if items and budget < start_count(space) * start:
        bad(
            "budget",
            f"{budget} battles cannot pay for the start ({start_count(space)} compositions x "
            f"{start} battles); raise budget or lower start",
        )
    return params, Settings(space, scale, of, tol, rule, curve, first, other)


def _params(spec: Any, bad: Bad) -> list[Param]:
    if not isinstance(spec, dict) or not spec:
        bad(
            "parameters",
            "a worth search names the items to price: PATH: {low, high} (a count or a step), "
            "PATH: {choices: [...]} or NAME: {choices: {BASE: {}, ITEM: {PATH: VALUE}}}",
        )
        return []
    out = []
    for name, value in spec.items():
        p = read_param(str(name), value, bad, ("whole", "choices", "bundle"))
        if p is None:
            continue
        if p.kind == "whole" and p.high - p.low > MAX_STEPS:
            bad(p.where, f"at most {MAX_STEPS} steps (high - low), got {int(p.high - p.low)}")
            continue
        out.append(p)
    return out if len(out) == len(spec) else []


def _levels(p: Param) -> int:
    return int(p.high - p.low) + 1 if p.kind == "whole" else len(p.choices)


def _items(
    params: list[Param], labels: dict[Any, Any], sides: tuple[str, ...], bad: Bad
) -> list[Item]:
    """Every item of the parameters, with its side; problems located at the parameter."""
    items: list[Item] = []
    for i, p in enumerate(params):
        label = str(labels.get(p.name, p.name))
        if p.kind == "whole":
            side = _side(p, [p.name], sides, bad, p.where)
            if side is not None:
                items.append(Item(label, i, None, side, _sign(side, sides)))
            continue
        for level in range(1, len(p.choices)):
            if p.kind == "bundle":
                name = str(p.choices[level])
                paths = [path for path, _ in p.sets[level]]
                where = f"{p.where}.choices.{name}"
                if not paths:
                    bad(where, "an item changes something: this alternative sets no path")
                    continue
            else:
                name = f"{label} = {_shown(p.choices[level])}"
                paths, where = [p.name], p.where
            side = _side(p, paths, sides, bad, where)
            if side is not None:
                items.append(Item(name, i, level, side, _sign(side, sides)))
    seen: set[str] = set()
    for it in items:
        if it.name in seen:
            bad(params[it.param].where, f"two items are named {it.name!r}; label them apart")
        seen.add(it.name)
    if len(items) > MAX_ITEMS:
        bad("parameters", f"at most {MAX_ITEMS} items, got {len(items)}")
    return items


def _side(p: Param, paths: list[str], sides: tuple[str, ...], bad: Bad, where: str) -> str | None:
    """The one side every path changes (``sides.SIDE....``), or None (said to ``bad``)."""
    found = set()
    for path in paths:
        steps = parse_path(path) or []
        if len(steps) < 3 or steps[0] != "sides" or not isinstance(steps[1], str):
            bad(where, f"an item changes one side's army (sides.SIDE...); {path} does not")
            return None
        if sides and steps[1] not in sides:
            hint = did_you_mean(steps[1], sides) or "; it has " + ", ".join(sides)
            bad(where, f"no side {steps[1]!r} in the scenario{hint}")
            return None
        found.add(steps[1])
    if len(found) > 1:
        bad(where, f"an item belongs to one side; this changes {' and '.join(sorted(found))}")
        return None
    return found.pop() if found else None


def _sign(side: str, sides: tuple[str, ...]) -> int:
    return 1 if not sides or side == sides[0] else -1


MOST_POINTS = 1e9
"""The largest number of points a scale may give its item."""


def _scale(spec: Any, names: list[str], bad: Bad) -> Scale:
    if spec is None:
        return Scale(0, 10.0)
    if not isinstance(spec, dict) or len(spec) != 1:
        bad("scale", "expected one item and its points, e.g. {bandit: 10}")
        return Scale(0, 10.0)
    ((name, points),) = spec.items()
    if names and str(name) not in names:
        hint = did_you_mean(str(name), names) or "; the items: " + ", ".join(names)
        bad(f"scale.{name}", f"no item {name!r}{hint}")
        return Scale(0, 10.0)
    if (
        isinstance(points, bool)
        or not isinstance(points, (int, float))
        or not 0 < points <= MOST_POINTS  # also false for nan, inf and a 500-digit number
    ):
        got = repr(points) if len(repr(points)) <= 40 else repr(points)[:37] + "..."
        bad(
            f"scale.{name}",
            f"expected a positive number of points up to {MOST_POINTS:,.0f}, got {got}",
        )
        return Scale(0, 10.0)
    return Scale(names.index(str(name)) if names else 0, float(points))


def _curve(spec: Any, items: list[Item], bad: Bad) -> tuple[int, int] | None:
    counted = [i for i, it in enumerate(items) if it.counted]
    names = [it.name for it in items]
    if spec is None:
        return (counted[0], counted[1]) if len(counted) >= 2 else None
    if not isinstance(spec, list) or len(spec) != 2 or spec[0] == spec[1]:
        bad("curve", "expected two counted items, [BALANCED, ALONG], e.g. [bandit, guard]")
        return None
    out = []
    for j, name in enumerate(spec):
        if str(name) not in names:
            hint = did_you_mean(str(name), names) or "; the items: " + ", ".join(names)
            bad(f"curve[{j}]", f"no item {name!r}{hint}")
            return None
        i = names.index(str(name))
        if not items[i].counted:
            bad(f"curve[{j}]", f"{name!r} is present or not; the curve is of counts (ranges)")
            return None
        out.append(i)
    return out[0], out[1]


def _share(value: Any, where: str, bad: Bad) -> float:
    given = value
    if isinstance(value, str) and value.strip().endswith("%"):
        try:
            value = float(value.strip()[:-1]) / 100
        except ValueError:
            value = None
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or not math.isfinite(value)
        or not 0 < value < 1
    ):
        bad(where, f"expected a share such as 10% or 0.1, got {given!r}")
        return 0.10
    return float(value)


def _whole(value: Any, where: str, low: int, high: int, bad: Bad) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        bad(where, f"expected a whole number {low}..{high}, got {value!r}")
        return low
    return value


def _shown(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)
