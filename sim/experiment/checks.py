"""Every design point of an experiment checked before the first run.

The base scenario is read once; then the experiment's ``set:`` entries are applied and
checked, and then every design point's values, each point's scenario checked as
``sim run`` would check it. A problem is reported in the experiment file, at the ``set:``
entry or the parameter (a ``list`` design: the point's own line) that caused it::

    exp.yaml:5: parameters.sides.gaurds.tactic: sides.gaurds is not in the scenario; did you
        mean 'guards'?
    exp.yaml:3: set[0]: max_rounds: expected a whole number, got 'abc'
    exp.yaml:5: parameters.max_rounds: max_rounds=0: must be 1..10000, got 0 (points 0, 4)

A path segment that names nothing in the scenario is reported, with the closest name, when
the point's scenario fails below the mapping it made (a misspelt side makes a new, empty
side); a new key that makes a good scenario (``battle.large_scale`` in a file with no
``battle``) is fine. The same
message from many points is reported once, with the points it concerns; at most
:data:`MAX_SHOWN` messages are listed.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sim.errors import did_you_mean
from sim.scenario import Issue, ScenarioError, apply_override, read_yaml
from sim.scenario.checks import Checker
from sim.scenario.overrides import OVERRIDE_SOURCE, parse_path, path_text
from sim.scenario.reader import show

if TYPE_CHECKING:
    from sim.experiment.model import Experiment

MAX_SHOWN = 12
"""Most distinct messages listed for the design points (the rest are counted)."""

Locate = Callable[[str], "int | None"]


def check_design(exp: Experiment, locate: Locate, set_offset: int) -> list[Issue]:
    """Every problem of the experiment's ``set:`` entries and design points (none: all good).

    ``locate`` gives lines of the experiment file; ``set_offset`` is the number of
    overrides before the file's ``set:`` entries in ``exp.overrides``.
    """
    try:
        base, base_locate = read_yaml(exp.scenario_text, exp.scenario_path)
    except ScenarioError as err:
        return list(err.issues)
    if not isinstance(base, dict):
        return [Issue(exp.scenario_path, 1, "", "a scenario is a mapping of keys")]
    name = Path(exp.scenario_path).stem or "battle"
    doc, issues = _with_sets(exp, base, base_locate, locate, set_offset, name)
    if issues:
        return issues
    found: dict[tuple[str, str], list[int]] = {}
    missing = {p: _missing_step(doc, p) for p in exp.parameters}
    good: set[str] = set()  # points already found good (a design may repeat a point)
    for k in range(len(exp.points)):
        key = json.dumps(exp.points[k], sort_keys=True, default=str)
        if key in good:
            continue
        problems = _point_problems(exp, k, doc, base_locate, name, missing)
        if not problems:
            good.add(key)
        for where, message in problems:
            found.setdefault((where, message), []).append(k)
    return _report(exp, found, locate)


def _with_sets(
    exp: Experiment,
    base: dict[str, Any],
    base_locate: Locate,
    locate: Locate,
    offset: int,
    name: str,
) -> tuple[dict[str, Any], list[Issue]]:
    """The base document with the ``set:`` entries applied, and their problems."""
    doc = copy.deepcopy(base)
    issues: list[Issue] = []
    changed: list[tuple[int, str]] = []
    for i, text in enumerate(exp.overrides):
        where = f"set[{i - offset}]"
        try:
            changed.append((i - offset, apply_override(doc, text)))
        except ScenarioError as err:
            issues += [_at(exp.path, locate, where, _plain(e)) for e in err.issues]
    if issues:
        return doc, issues
    checker = Checker(exp.scenario_path, base_locate, [c for _, c in changed], name)
    checker.scenario(copy.deepcopy(doc))
    for e in checker.issues:
        entry = next((i for i, c in changed if _under(e.path, c)), None)
        if e.source == OVERRIDE_SOURCE and entry is not None and entry >= 0:
            issues.append(_at(exp.path, locate, f"set[{entry}]", _plain(e)))
        else:
            issues.append(e)  # the scenario's own problem
    return doc, issues


def _point_problems(
    exp: Experiment,
    k: int,
    doc: dict[str, Any],
    base_locate: Locate,
    name: str,
    missing: Mapping[str, str | None],
) -> list[tuple[str, str]]:
    """(where in the experiment, message) of each problem of design point ``k``."""
    point = exp.points[k]
    d = copy.deepcopy(doc)
    changed: dict[str, str] = {}
    out: list[tuple[str, str]] = []
    for p in (q for q in exp.parameters if q in point):  # one left out: the base's value
        try:
            changed[p] = apply_override(d, f"{p}={json.dumps(point[p])}")
        except ScenarioError as err:
            out += [(_where(exp, k, p), _value_message(p, point[p], e)) for e in err.issues]
    if out:
        return out
    checker = Checker(exp.scenario_path, base_locate, list(changed.values()), name)
    checker.scenario(d)
    for e in checker.issues:
        owner = next((q for q, c in changed.items() if _under(e.path, c)), None)
        if owner is None:
            values = ", ".join(f"{q}={show(point[q])}" for q in exp.parameters if q in point)
            out.append((_where(exp, k, None), f"design point {k} ({values}): {e}"))
        elif missing[owner] is not None and not _under(e.path, owner):
            out.append((_where(exp, k, owner), str(missing[owner])))
        else:
            out.append((_where(exp, k, owner), _value_message(owner, point[owner], e)))
    return out


def _missing_step(doc: Mapping[str, Any], param: str) -> str | None:
    """The message for the first step of ``param`` that names nothing in ``doc``, or None."""
    steps = parse_path(param) or []
    target: Any = doc
    for i, step in enumerate(steps):
        if isinstance(step, int):
            if not isinstance(target, list) or step >= len(target):
                return None
        elif not isinstance(target, dict):
            return None
        elif step not in target:
            if i == len(steps) - 1 and not target:
                return None
            keys = [str(k) for k in target]
            hint = did_you_mean(step, keys) or (
                f" (it has {', '.join(keys)})" if 0 < len(keys) <= 10 else ""
            )
            return f"{path_text(steps[: i + 1])} is not in the scenario{hint}"
        if i == 0 and step == "rules" and isinstance(target.get("rules"), str):
            target = {"system": target["rules"]}
            continue
        target = target[step]
    return None


def _value_message(param: str, value: Any, e: Issue) -> str:
    """A problem of a parameter's value: the message (after its own path if deeper)."""
    if e.path in ("", param):
        return e.message
    return f"{e.path}: {e.message}"


def _where(exp: Experiment, k: int, param: str | None) -> str:
    """Where a point's problem is reported: the parameter, or the list design's point."""
    if exp.design == "list":
        return f"points[{k}].{param}" if param is not None else f"points[{k}]"
    return f"parameters.{param}" if param is not None else "parameters"


def _report(
    exp: Experiment, found: Mapping[tuple[str, str], Sequence[int]], locate: Locate
) -> list[Issue]:
    """One issue per distinct (place, message), naming its points; at most MAX_SHOWN."""
    issues = []
    n = len(exp.points)
    for (where, message), ks in list(found.items())[:MAX_SHOWN]:
        if len(ks) == n and n > 1:
            message += " (every design point)"
        elif exp.design != "list" and "design point" not in message:
            shown = ", ".join(str(k) for k in ks[:5])
            more = f" and {len(ks) - 5} more" if len(ks) > 5 else ""
            message += f" (design point{'s' if len(ks) > 1 else ''} {shown}{more})"
        issues.append(Issue(exp.path, locate(where), where, message))
    if len(found) > MAX_SHOWN:
        rest = len(found) - MAX_SHOWN
        points = len({k for ks in list(found.values())[MAX_SHOWN:] for k in ks})
        issues.append(
            Issue(
                exp.path,
                locate("parameters"),
                "parameters",
                f"and {rest} more problems in {points} design points",
            )
        )
    return issues


def _under(path: str, changed: str) -> bool:
    return path == changed or path.startswith((changed + ".", changed + "["))


def _plain(e: Issue) -> str:
    """An override's issue as the experiment file reports it: ``path: message``."""
    return f"{e.path}: {e.message}" if e.path else e.message


def _at(source: str, locate: Locate, where: str, message: str) -> Issue:
    return Issue(source, locate(where), where, message)
