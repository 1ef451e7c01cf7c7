"""A search's experiment file: the keys every experiment has, its design's own, the checks.

A search is an experiment file whose ``design`` is one of :data:`sim.search.designs.KINDS`
(``balance``, ``optimize``, ``calibrate``). It shares ``name``, ``description``,
``scenario``, ``set``, ``seed``, ``tables``, ``chunk`` and ``labels`` with every experiment
(:mod:`sim.experiment.load`), and adds ``budget`` (the most battles it may fight) and its
design's keys. Everything is checked before the first battle, each problem located in the
file (``file:line: path: message``, exit code 2): the design's keys, the parameters, the
sides named, and the scenario at every value of every parameter (its ends, or every
choice), through the same point checks as any experiment (:mod:`sim.experiment.checks`).
:mod:`sim.search.load` reads a file into a :class:`Search`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sim.experiment.checks import check_design
from sim.experiment.model import Experiment
from sim.scenario import Issue
from sim.search.space import Param

COMMON_KEYS = (
    "name",
    "description",
    "scenario",
    "set",
    "design",
    "parameters",
    "budget",
    "seed",
    "tables",
    "chunk",
    "labels",
)
"""Keys every search has (its design adds its own)."""

Bad = Callable[[str, str], None]


@dataclass(frozen=True, slots=True)
class Search:
    """A checked search: where it came from, what it varies and its design's settings."""

    name: str
    path: str
    text: str
    design: str
    scenario_path: str
    scenario_text: str
    overrides: tuple[str, ...]
    params: tuple[Param, ...]
    sides: tuple[str, ...]
    budget: int
    seed: int
    tables: tuple[str, ...]
    chunk: int | None
    settings: Any
    """The design's own settings (what its ``read`` returned)."""
    labels: tuple[tuple[str, str], ...] = ()
    """The file's ``labels:``: names for parameters in the answer, tables and charts."""

    def label(self, name: str) -> str:
        """A parameter's name as the answer shows it: its label, or its path."""
        return dict(self.labels).get(name, name)

    @property
    def parameters(self) -> tuple[str, ...]:
        """The parameters' names (their ``runs`` columns)."""
        return tuple(p.name for p in self.params)

    def fingerprint(self) -> str:
        """What identifies the search: its text, its scenario's text and overrides."""
        from sim.dataset.records import fingerprint

        return fingerprint(self.text, self.scenario_text, "\n".join(self.overrides))

    def overrides_of(self, values: dict[str, Any]) -> list[str]:
        """The ``--set`` overrides of a point: the file's ``set:``, then each parameter's."""
        out = list(self.overrides)
        for p in self.params:
            out += p.overrides(values[p.name])
        return out


def check_points(search: Search) -> list[tuple[dict[str, Any], dict[str, str], str]]:
    """The scenarios checked before the first battle: (paths and values, where, what).

    Each value of each parameter (a range's ends, every choice), the others at their first
    checked value. ``where`` locates each path in the file: a parameter's own line, or a
    named choice's path.
    """
    first = {p.name: p.checked()[0] for p in search.params}
    out = []
    for p in search.params:
        for v in p.checked():
            values = {**first, p.name: v}
            paths: dict[str, Any] = {}
            where: dict[str, str] = {}
            for q in search.params:
                for path, value in q.paths(values[q.name]).items():
                    paths[path] = value
                    at = f"{q.where}.choices.{values[q.name]}.{path}"
                    where[path] = at if q.kind == "bundle" else q.where
            out.append((paths, where, f" (at {p.name} = {p.shown(v)})"))
    return out


def check_values(search: Search, locate: Callable[[str], int | None], offset: int) -> list[Issue]:
    """Every problem of the scenario under the file's ``set:`` and each checked value."""
    found: dict[tuple[str, str], Issue] = {}
    for paths, where, what in check_points(search):
        exp = _experiment(search, paths)

        def place(path: str, where: dict[str, str] = where) -> str:
            inner = path.removeprefix("parameters.")
            return where.get(inner, path) if inner != path else path

        def at(path: str, place: Callable[[str], str] = place) -> int | None:
            return locate(place(path))

        def name(ks: Sequence[int], what: str = what) -> str:
            return what

        for issue in check_design(exp, at, offset, name):
            issue = Issue(issue.source, issue.line, place(issue.path), issue.message)
            found.setdefault((issue.path, issue.message), issue)
        if any(not i.path.startswith("parameters") for i in found.values()):
            break  # the set: entries or the scenario itself: once is enough
    return list(found.values())


def check_experiment(search: Search) -> Experiment:
    """An experiment of the search's checked scenarios (for the warnings of a scenario)."""
    points = [paths for paths, _, _ in check_points(search)]
    names = sorted({k for pt in points for k in pt})
    first = points[0] if points else {}
    full = tuple({n: pt.get(n, first.get(n)) for n in names} for pt in points)
    return _experiment(search, {n: first.get(n) for n in names}, full)


def _experiment(
    search: Search, paths: dict[str, Any], points: tuple[dict[str, Any], ...] | None = None
) -> Experiment:
    return Experiment(
        name=search.name,
        path=search.path,
        text=search.text,
        scenario_path=search.scenario_path,
        scenario_text=search.scenario_text,
        overrides=search.overrides,
        parameters=tuple(paths),
        points=points if points is not None else (paths,),
        replicates=1,
        seed=search.seed,
        tables=search.tables,
        chunk=1,
    )


def shown(value: Any) -> str:
    """A value as a message shows it."""
    return value if isinstance(value, str) else json.dumps(value)
