"""Reading a search's experiment file (:mod:`sim.search.spec` says what it holds).

:func:`load_search` reads a file whose ``design`` is a search's (:func:`is_search`), checks
the keys every experiment has and its design's own (:data:`sim.search.designs.KINDS`), then
the scenario at every value of every parameter: every problem at once, located.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path

from sim.errors import SimError, did_you_mean
from sim.experiment import load
from sim.experiment.model import MAX_FILE, MAX_RUNS
from sim.scenario import Issue, ScenarioError, read_yaml
from sim.scenario.reader import read_text_file
from sim.search.core import Kind
from sim.search.designs import KINDS
from sim.search.spec import COMMON_KEYS, Search, check_values


def is_search(path: str | os.PathLike[str]) -> bool:
    """Whether an experiment file's ``design`` names a search (one of ``KINDS``)."""
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
    doc, locate = read_yaml(text, source)
    issues: list[Issue] = []

    def bad(where: str, message: str) -> None:
        issues.append(Issue(source, locate(where), where, message))

    if not isinstance(doc, dict):
        raise ScenarioError([Issue(source, 1, "", "an experiment is a mapping of keys")])
    kind = KINDS[str(doc.get("design"))]
    _check_keys(doc, kind, bad)
    name = load.read_name(doc.get("name"), Path(source).name, bad)
    scenario_path, scenario_text = load.read_scenario_key(doc, source, bad)
    sets = load.read_sets(doc.get("set") or [], bad)
    seed = load.whole(doc.get("seed", 0), "seed", 0, 2**63 - 1, bad) or 0
    given = load.whole(doc.get("budget", kind.budget), "budget", 1, MAX_RUNS, bad)
    budget = given or kind.budget
    tables = load.read_tables(doc.get("tables", ["runs"]), bad)
    chunk = None if doc.get("chunk") is None else load.whole(doc["chunk"], "chunk", 1, 100_000, bad)
    sides = _sides(scenario_text, scenario_path, sets)

    # a budget already refused: the design checks the rest against its default, not again
    # the budget itself (no second message about a budget nobody wrote)
    def design_bad(where: str, message: str) -> None:
        if given or where != "budget":
            bad(where, message)

    extra = (source,) if kind.source else ()
    params, settings = kind.read(doc, sides, budget, design_bad, *extra)
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


def _check_keys(doc: dict, kind: Kind, bad: Callable[[str, str], None]) -> None:
    """Say of every key the design does not know what it may have meant."""
    known = (*COMMON_KEYS, *kind.keys)
    for key in doc:
        if key not in known:
            hint = did_you_mean(str(key), known) or f"; a {kind.name} search knows " + ", ".join(
                known
            )
            bad(str(key), f"unknown key {key!r}{hint}")


def _sides(text: str, path: str, sets: Sequence[str]) -> tuple[str, ...]:
    """The base scenario's sides (none if it does not load: its checks say why)."""
    from sim.scenario import parse_scenario

    if not text:
        return ()
    try:
        return tuple(s.name for s in parse_scenario(text, path, list(sets)).sides)
    except (SimError, ValueError):
        return ()
