"""A search's experiment file: the keys every experiment has, and its design's own.

A search is an experiment file whose ``design`` is one of :data:`sim.search.designs.KINDS`
(``balance``, ``optimize``, ``calibrate``). It shares ``name``, ``description``,
``scenario``, ``set``, ``seed``, ``tables``, ``chunk`` and ``labels`` with every experiment
(:mod:`sim.experiment.load`), and adds ``budget`` (the most battles it may fight) and its
design's keys. Everything is checked before the first battle, each problem located in the
file (``file:line: path: message``, exit code 2): the design's keys, the parameters, the
sides named, and the scenario at every value of every parameter (its ends, or every
choice), through the same point checks as any experiment (:mod:`sim.experiment.checks`).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sim.errors import SimError, did_you_mean
from sim.experiment import load
from sim.experiment.checks import check_design
from sim.experiment.model import MAX_FILE, MAX_RUNS, Experiment
from sim.scenario import Issue, ScenarioError, read_yaml
from sim.scenario.reader import read_text_file
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


def is_search(path: str | os.PathLike[str]) -> bool:
    """Whether an experiment file's ``design`` is a search's (``balance``, ``optimize``)."""
    from sim.search.designs import KINDS

    try:
        doc, _ = read_yaml(read_text_file(path), str(path))
    except (OSError, UnicodeDecodeError, SimError):
        return False
    design = doc.get("design") if isinstance(doc, dict) else None
    return isinstance(design, str) and design in KINDS


def load_search(path: str | os.PathLike[str]) -> Search:
    """Read and check a search's experiment file; every problem at once, located."""
    p = Path(path)
    if p.is_file() and p.stat().st_size > MAX_FILE:
        raise SimError(f"{p}: file is {p.stat().st_size / 2**20:.1f} MB; the limit is 1 MB")
    return parse_search(read_text_file(p), str(p))


def parse_search(text: str, source: str) -> Search:
    """Check a search document; raise a :class:`ScenarioError` of every problem found."""
    from sim.search.designs import KINDS

    doc, locate = read_yaml(text, source)
    issues: list[Issue] = []

    def bad(where: str, message: str) -> None:
        issues.append(Issue(source, locate(where), where, message))

    if not isinstance(doc, dict):
        raise ScenarioError([Issue(source, 1, "", "an experiment is a mapping of keys")])
    kind = KINDS[str(doc.get("design"))]
    known = (*COMMON_KEYS, *kind.keys)
    for key in doc:
        if key not in known:
            hint = did_you_mean(str(key), known) or f"; a {kind.name} search knows " + ", ".join(
                known
            )
            bad(str(key), f"unknown key {key!r}{hint}")
    name = load.read_name(doc.get("name"), Path(source).name, bad)
    scenario_path, scenario_text = load.read_scenario_key(doc, source, bad)
    sets = load.read_sets(doc.get("set") or [], bad)
    seed = load.whole(doc.get("seed", 0), "seed", 0, 2**63 - 1, bad) or 0
    budget = load.whole(doc.get("budget", kind.budget), "budget", 1, MAX_RUNS, bad) or 1
    tables = load.read_tables(doc.get("tables", ["runs"]), bad)
    chunk = None if doc.get("chunk") is None else load.whole(doc["chunk"], "chunk", 1, 100_000, bad)
    sides = _sides(scenario_text, scenario_path, sets)
    params, settings = kind.read(doc, sides, budget, bad, *((source,) if kind.source else ()))
    load.check_labels(doc.get("labels", {}), [p.name for p in params], bad)
    paths = sorted({path for p in params for v in p.checked() for path in p.paths(v)})
    overrides = load.base_overrides(sets, paths, scenario_path, scenario_text)
    if not params or not scenario_text:
        raise ScenarioError(issues)
    search = Search(
        name=name,
        path=source,
        text=text,
        design=kind.name,
        scenario_path=scenario_path,
        scenario_text=scenario_text,
        overrides=tuple(overrides),
        params=tuple(params),
        sides=sides,
        budget=budget,
        seed=seed,
        tables=tuple(tables),
        chunk=chunk,
        settings=settings,
        labels=tuple((str(k), str(v)) for k, v in (doc.get("labels") or {}).items()),
    )
    # all problems at once: the design's own (calibrate's observed table, in its own file),
    # or else the scenario's at the parameters' values
    found = kind.check(search) if kind.check is not None else []
    issues += found or check_values(search, locate, len(overrides) - len(sets))
    if issues:
        raise ScenarioError(sorted(issues, key=lambda i: (i.source != source, i.line or 0)))
    return search


def _sides(text: str, path: str, sets: Sequence[str]) -> tuple[str, ...]:
    """The base scenario's sides (none if it does not load: its checks say why)."""
    from sim.scenario import parse_scenario

    if not text:
        return ()
    try:
        return tuple(s.name for s in parse_scenario(text, path, list(sets)).sides)
    except (SimError, ValueError):
        return ()


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
