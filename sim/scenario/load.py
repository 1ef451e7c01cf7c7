"""Scenario files in, a checked :class:`~sim.scenario.model.Scenario` out, every error at once.

``load_scenario(path, overrides)`` reads a file; ``parse_scenario(text, source, overrides)``
reads a string. Both check the whole document and raise
:class:`~sim.scenario.reader.ScenarioError` listing every problem, one line each, as
``file:line: field.path: message``::

    ford.yaml:12: max_rounds: expected a whole number, got 'three'
    ford.yaml:40: sides.red.fighters[0].weapon: unknown weapon category 'ax'; did you mean 'axe'?

The format is described in docs/scenario-format.md.
"""

from __future__ import annotations

import copy
import os
from collections.abc import Iterable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from sim.scenario.checks import Checker
from sim.scenario.model import Scenario
from sim.scenario.overrides import apply_override
from sim.scenario.reader import Issue, ScenarioError, fail, read_text_file, read_yaml, show

__all__ = ["load_scenario", "parse_scenario"]


def _sorted(issues: Iterable[Issue]) -> list[Issue]:
    """Issues by line, those without a line first (a stable sort: same line, same order)."""
    return sorted(issues, key=lambda i: (i.line is not None, i.line or 0))


def parse_scenario(text: str, source: str = "<string>", overrides: Sequence[str] = ()) -> Scenario:
    """The :class:`Scenario` a YAML text describes, after ``--set`` overrides.

    Raises:
        ScenarioError: every problem found, one :class:`Issue` each.
    """
    doc, locate = _read(text, source)
    doc = copy.deepcopy(doc)  # the overrides below change it; the kept one stays as read
    if doc is None:
        raise fail(source, "the file is empty; expected a mapping with at least sides")
    if not isinstance(doc, dict):
        raise fail(
            source,
            f"expected a mapping of keys (name, rules, sides, ...) at the top level, "
            f"got {show(doc)}",
            locate(""),
        )
    issues: list[Issue] = []
    overridden: list[str] = []
    for override in overrides:
        try:
            overridden.append(apply_override(doc, override))
        except ScenarioError as err:
            issues += err.issues
    default_name = "battle" if source.startswith("<") else (Path(source).stem or "battle")
    checker = Checker(source, locate, overridden, default_name)
    scenario = checker.scenario(doc)
    issues += checker.issues
    if issues or scenario is None:
        raise ScenarioError(_sorted(issues) or [Issue(source, None, "", "not a valid scenario")])
    return scenario


@lru_cache(maxsize=4)
def _read(text: str, source: str) -> tuple[Any, Any]:
    """:func:`read_yaml` of a scenario, kept: a sweep parses one text for each of its points."""
    return read_yaml(text, source)


def load_scenario(path: str | os.PathLike[str], overrides: Sequence[str] = ()) -> Scenario:
    """Read and check the scenario file at ``path`` (the format: docs/scenario-format.md).

    Raises:
        ScenarioError: a missing or unreadable file, one that is not a regular file (a
            FIFO), a file over 5 MB (checked before it is read), text that is not UTF-8, or
            every problem in its contents.
    """
    source = os.fspath(path)
    return parse_scenario(read_text_file(source), source, overrides)
