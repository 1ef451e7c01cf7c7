"""The ``--set PATH=VALUE`` language: one change to a scenario document before it is checked.

``PATH`` is dotted with ``[i]`` list indexes (``rules.options.pool``,
``sides.red.fighters[0].hit_dice``); ``VALUE`` is read as YAML (``10``, ``true``,
``[chain, plate]``, ``{reserve: 2}``; empty is null). Missing mapping keys on the way are
created. Errors in an override are reported against the source ``<--set>``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from sim.scenario.reader import Issue, ScenarioError, fail, join_path, read_yaml, show

__all__ = ["OVERRIDE_SOURCE", "apply_override", "parse_path", "path_text"]

OVERRIDE_SOURCE = "<--set>"
"""The source an override's issues name."""

_PART = re.compile(r"^([^.\[\]]+)((?:\[\d+\])*)$")


def parse_path(text: str) -> list[str | int] | None:
    """The steps of a dotted path with ``[i]`` indexes (keys and ints), or None if malformed."""
    steps: list[str | int] = []
    for part in text.split("."):
        m = _PART.match(part.strip())
        if not m:
            return None
        steps.append(m.group(1))
        steps += [int(i) for i in re.findall(r"\[(\d+)\]", m.group(2))]
    return steps


def path_text(steps: Sequence[str | int]) -> str:
    """A path's steps as messages show it: ``sides.red.fighters[0]``."""
    out = ""
    for step in steps:
        out = f"{out}[{step}]" if isinstance(step, int) else join_path(out, step)
    return out


def apply_override(doc: dict[str, Any], text: str) -> str:
    """Apply one ``PATH=VALUE`` override to ``doc`` in place; return the path it changed.

    The path returned is ``PATH``, or its outermost part that did not exist and was created
    (``x`` for ``x.y.z=1`` when there was no ``x``): everything under it comes from the
    override.

    ``PATH`` is dotted with ``[i]`` list indexes; missing mapping keys are created on the
    way. ``VALUE`` is read as YAML with :func:`~sim.scenario.reader.read_yaml` (``10``,
    ``true``, ``[a, b]``, ``{reserve: 1}``; empty means null).

    Raises:
        ScenarioError: one issue with source ``<--set>`` for a malformed override, a path
            that goes through something other than a mapping or list, or an index out of
            range.
    """
    raw_path, sep, raw_value = text.partition("=")
    raw_path = raw_path.strip()
    steps = parse_path(raw_path) if sep else None
    if not steps:
        raise fail(
            OVERRIDE_SOURCE,
            f"expected PATH=VALUE such as max_rounds=10 or sides.red.tactic=aggressive, "
            f"got {text!r}",
        )
    path = path_text(steps)
    try:
        value, _ = read_yaml(raw_value, OVERRIDE_SOURCE)
    except ScenarioError as err:
        raise ScenarioError(
            [Issue(OVERRIDE_SOURCE, None, path, i.message) for i in err.issues]
        ) from None
    return _set(doc, steps, value, path)


def _set(doc: dict[str, Any], steps: Sequence[str | int], value: Any, path: str) -> str:
    """Walk ``steps`` into ``doc`` (creating missing keys) and set the last one to ``value``."""
    target: Any = doc
    changed = len(steps)  # how many steps lead to the outermost thing set or created
    for i, step in enumerate(steps):
        last = i == len(steps) - 1
        here = path_text(steps[:i]) or "the document"
        if isinstance(step, int):
            if not isinstance(target, list):
                raise fail(OVERRIDE_SOURCE, f"{here} is {show(target)}, not a list", path=path)
            if step >= len(target):
                raise fail(
                    OVERRIDE_SOURCE,
                    f"index {step} is out of range: {here} has {len(target)} items",
                    path=path,
                )
        elif not isinstance(target, dict):
            raise fail(OVERRIDE_SOURCE, f"{here} is {show(target)}, not a mapping", path=path)
        if last:
            target[step] = value
        else:
            if i == 0 and step == "rules" and isinstance(target.get("rules"), str):
                target["rules"] = {"system": target["rules"]}  # `rules: wargame` short form
            if isinstance(step, str) and step not in target:
                if any(isinstance(s, int) for s in steps[i + 1 :]):
                    missing = path_text(steps[: i + 1])
                    raise fail(OVERRIDE_SOURCE, f"{missing} does not exist", path=path)
                target[step] = {}
                changed = min(changed, i + 1)
            target = target[step]
    return path_text(steps[:changed])
