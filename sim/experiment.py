"""Experiments: a base scenario, parameters to vary, a design, replicates and a master seed.

An experiment file expands into a fixed, ordered list of runs. Run ``i`` is point
``i // replicates`` of the design, replicate ``i % replicates``, and its seed comes from
``numpy.random.SeedSequence(master, spawn_key=(i,))`` (the ``i``-th child of
``SeedSequence(master).spawn``), so a run's seed never depends on worker count, completion
order or resume. Parameters are ``--set`` style dotted paths into the scenario document
(``sides.red.tactic``, ``rules.options.pool``, ``rules.system``).

Format::

    name: armor                      # default: the file's name without extension
    description: ...
    scenario: ../scenarios/skirmish.yaml   # the base scenario, relative to this file
    set: [max_rounds=30]             # fixed overrides applied to every run
    design: grid                     # grid (default) | random | lhs | list
    parameters:                      # grid: PATH -> list of values (full factorial)
      sides.guards.tactic: [balanced, defensive]
      rules.system: [wargame, d6]
    # random: PATH -> {low: A, high: B} (whole numbers if both are) or {choices: [...]};
    #         samples: N draws
    # lhs:    PATH -> {low: A, high: B}; samples: N (a Latin hypercube)
    # list:   points: [{PATH: VALUE, ...}, ...]
    replicates: 100                  # runs per point
    seed: 2026                       # the master seed
    tables: [runs, fighters]         # runs always; rounds, fighters, events, aftermath,
                                     # campaign on request
    chunk: 200                       # runs per Parquet part (default: chosen from the size)
"""

from __future__ import annotations

import itertools
import json
import math
import os
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from sim.errors import SimError, did_you_mean
from sim.records import TABLES, fingerprint
from sim.scenario import Issue, ScenarioError, read_yaml
from sim.scenario.reader import read_text_file

DESIGNS = ("grid", "random", "lhs", "list")
KEYS = (
    "name",
    "description",
    "scenario",
    "set",
    "design",
    "parameters",
    "samples",
    "points",
    "replicates",
    "seed",
    "tables",
    "chunk",
)
MAX_RUNS = 100_000_000
MAX_FILE = 1024 * 1024


@dataclass(frozen=True, slots=True)
class Experiment:
    """A checked experiment: where it came from, its points and how to run them."""

    name: str
    path: str
    text: str
    scenario_path: str
    scenario_text: str
    overrides: tuple[str, ...]
    parameters: tuple[str, ...]
    points: tuple[Mapping[str, Any], ...]
    replicates: int
    seed: int
    tables: tuple[str, ...]
    chunk: int

    @property
    def planned_runs(self) -> int:
        """Runs in the whole experiment: points times replicates."""
        return len(self.points) * self.replicates

    def run_seed(self, run_id: int) -> int:
        """The seed of run ``run_id``: its SeedSequence child, as one 64-bit integer."""
        child = np.random.SeedSequence(self.seed, spawn_key=(run_id,))
        return int(child.generate_state(1, dtype=np.uint64)[0])

    def point_of(self, run_id: int) -> int:
        """The design point run ``run_id`` belongs to."""
        return run_id // self.replicates

    def point_overrides(self, point: int) -> list[str]:
        """The ``--set`` overrides that build the scenario of design point ``point``."""
        values = self.points[point]
        return [*self.overrides, *(f"{p}={json.dumps(values[p])}" for p in self.parameters)]

    def param_values(self, point: int, fields: Sequence[pa.Field] | None = None) -> dict[str, Any]:
        """The typed parameter columns of a point's runs.

        ``fields`` is :meth:`param_fields`, passed in when calling for many points.
        """
        types = {f.name: f.type for f in (fields or self.param_fields())}
        return {p: _column_value(self.points[point][p], types[p]) for p in self.parameters}

    def param_fields(self) -> list[pa.Field]:
        """Arrow fields of the parameter columns, typed from every point's values."""
        return [pa.field(p, _arrow_type([pt[p] for pt in self.points])) for p in self.parameters]

    def fingerprint(self) -> str:
        """What identifies the experiment: its text, its scenario's text and overrides."""
        return fingerprint(self.text, self.scenario_text, "\n".join(self.overrides))

    def chunks(self, limit: int | None = None) -> Iterator[tuple[int, range]]:
        """(chunk id, run ids) in order; ``limit`` keeps only the first ``limit`` runs."""
        total = self.planned_runs if limit is None else min(limit, self.planned_runs)
        for cid, start in enumerate(range(0, total, self.chunk)):
            yield cid, range(start, min(start + self.chunk, total))


def _column_value(v: Any, kind: pa.DataType) -> Any:
    """A parameter value as its column stores it.

    Text columns hold strings as written and anything else (numbers, lists, null) as JSON.
    """
    if pa.types.is_string(kind):
        return v if isinstance(v, str) else json.dumps(v, sort_keys=True)
    if pa.types.is_floating(kind):
        return float(v)
    return v


def _arrow_type(values: Sequence[Any]) -> pa.DataType:
    """The column type of a parameter: bool, int64, float64, or JSON text for the rest.

    Whole numbers beyond 64 bits (or too large for a float) are kept as text, as written.
    """
    if all(isinstance(v, bool) for v in values):
        return pa.bool_()
    ints = [v for v in values if isinstance(v, int) and not isinstance(v, bool)]
    if any(not -(2**63) <= v < 2**63 for v in ints):
        return pa.string()
    if len(ints) == len(values):
        return pa.int64()
    if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
        return pa.float64()
    return pa.string()


def load_experiment(path: str | os.PathLike[str]) -> Experiment:
    """Read and check an experiment file; every problem at once as ``file:line: path: ...``."""
    p = Path(path)
    if p.is_file() and p.stat().st_size > MAX_FILE:
        raise SimError(f"{p}: file is {p.stat().st_size / 2**20:.1f} MB; the limit is 1 MB")
    return parse_experiment(read_text_file(p), str(p))


def parse_experiment(text: str, source: str) -> Experiment:
    """Check an experiment document and expand its design into points.

    Long on purpose: a parser, one key after another, reads clearer whole.
    """
    doc, locate = read_yaml(text, source)
    issues: list[Issue] = []

    def bad(path: str, message: str) -> None:
        issues.append(Issue(source, locate(path), path, message))

    if not isinstance(doc, dict):
        raise ScenarioError([Issue(source, 1, "", "an experiment is a mapping of keys")])
    for key in doc:
        if key not in KEYS:
            hint = did_you_mean(str(key), KEYS) or "; known: " + ", ".join(KEYS)
            bad(str(key), f"unknown key {key!r}{hint}")
    name = _name(doc.get("name"), Path(source).name, bad)
    scen = doc.get("scenario")
    scenario_path, scenario_text = "", ""
    if not isinstance(scen, str) or not scen:
        bad("scenario", "the base scenario's path is required")
    else:
        sp = (Path(source).parent / scen) if not Path(scen).is_absolute() else Path(scen)
        if not sp.is_file():
            bad("scenario", f"scenario file not found: {sp}")
        else:
            try:
                scenario_path, scenario_text = str(sp), read_text_file(sp)
            except ScenarioError as err:
                bad("scenario", f"cannot read the scenario: {err}")
    sets = doc.get("set") or []
    if not isinstance(sets, list) or not all(isinstance(s, str) for s in sets):
        bad("set", "expected a list of PATH=VALUE overrides")
        sets = []
    design = doc.get("design", "grid")
    if design not in DESIGNS:
        bad("design", f"unknown design {design!r}; one of {', '.join(DESIGNS)}")
    replicates = _whole(doc.get("replicates", 1), "replicates", 1, MAX_RUNS, bad)
    seed = _whole(doc.get("seed", 0), "seed", 0, 2**63 - 1, bad)
    tables = doc.get("tables", ["runs"])
    if not isinstance(tables, list) or any(t not in TABLES for t in tables):
        bad("tables", f"expected a list of tables from {', '.join(TABLES)}")
        tables = ["runs"]
    tables = ["runs", *[t for t in TABLES[1:] if t in tables]]
    points: list[dict[str, Any]] = []
    params: list[str] = []
    if design in DESIGNS:
        points, params = _expand(doc, design, seed or 0, bad)
    runs = len(points) * (replicates or 1)
    if runs > MAX_RUNS:
        bad("replicates", f"{runs} runs planned; the limit is {MAX_RUNS}")
    chunk = doc.get("chunk")
    if chunk is None:
        chunk = max(1, min(500, math.ceil(runs / 64))) if runs else 1
    else:
        chunk = _whole(chunk, "chunk", 1, 1_000_000, bad) or 1
    overrides = list(sets)
    if scenario_text and any(p == "rules.system" or p.startswith("rules.") for p in params):
        base, _ = read_yaml(scenario_text, scenario_path)
        if isinstance(base, dict) and isinstance(base.get("rules"), str):
            overrides.insert(0, f"rules={{system: {base['rules']}}}")
    if issues:
        raise ScenarioError(issues)
    return Experiment(
        name=str(name),
        path=source,
        text=text,
        scenario_path=scenario_path,
        scenario_text=scenario_text,
        overrides=tuple(overrides),
        parameters=tuple(params),
        points=tuple(points),
        replicates=int(replicates or 1),
        seed=int(seed or 0),
        tables=tuple(tables),
        chunk=int(chunk),
    )


MAX_NAME = 100
"""Longest experiment name (it names the default output folder, results/<name>/)."""


def _name(value: Any, file: str, bad: Any) -> str:
    """The experiment's name: ``name:``, or the file's name without its extension.

    A name is a name, not a path: it names the default output folder ``results/<name>/``,
    so a separator, ``.``/``..``, a control character or a name over :data:`MAX_NAME`
    characters is refused (a name from the file's name too: then ``name:`` is needed).
    """
    given = value is not None and value != ""
    if isinstance(value, bool) or (given and not isinstance(value, (str, int))):
        bad("name", f"expected a name (text), got {_shown(value)}")
        return "experiment"
    name = str(value) if given else (Path(file).stem or file)
    problem = None
    if "/" in name or "\\" in name:
        problem = "holds a path separator; a name is not a path"
    elif name in (".", ".."):
        problem = "is not a name"
    elif len(name) > MAX_NAME:
        problem = f"is {len(name)} characters long; the limit is {MAX_NAME}"
    elif not name.isprintable():
        problem = "holds characters that are not printable"
    if problem:
        if given:
            bad("name", f"{_shown(name)} {problem} (it names the folder results/<name>/)")
        else:
            bad("", f"the file's name {_shown(name)} {problem}; give the experiment a name")
        return "experiment"
    return name


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 43 else text[:40] + "..."


def _whole(value: Any, path: str, low: int, high: int, bad: Any) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int):
        bad(path, f"expected a whole number, got {value!r}")
        return None
    if not low <= value <= high:
        bad(path, f"{value} is out of range {low}..{high}")
        return None
    return value


def _expand(
    doc: dict[str, Any], design: str, seed: int, bad: Any
) -> tuple[list[dict[str, Any]], list[str]]:
    """The design's points (ordered) and the parameter names.

    Long on purpose: one branch per design, each a short parser of its own keys.
    """
    params = doc.get("parameters") or {}
    if design == "list":
        pts = doc.get("points")
        if not isinstance(pts, list) or not pts or not all(isinstance(p, dict) for p in pts):
            bad("points", "a list design needs points: a non-empty list of mappings")
            return [], []
        names = sorted({k for p in pts for k in p})
        for i, p in enumerate(pts):
            missing = [n for n in names if n not in p]
            if missing:
                bad(f"points[{i}]", f"missing {', '.join(missing)} (every point sets the same)")
        return [dict(p) for p in pts], names
    if not isinstance(params, dict) or not params:
        bad("parameters", "expected a mapping of PATH to values")
        return [], []
    names = list(params)
    if design == "grid":
        lists = []
        for n in names:
            vals = params[n]
            if not isinstance(vals, list) or not vals:
                bad(f"parameters.{n}", "a grid parameter is a non-empty list of values")
                return [], []
            lists.append(vals)
        return [dict(zip(names, combo, strict=True)) for combo in itertools.product(*lists)], names
    samples = doc.get("samples")
    if isinstance(samples, bool) or not isinstance(samples, int) or not 1 <= samples <= 10**7:
        bad("samples", f"a {design} design needs samples: a whole number 1..10000000")
        return [], []
    rng = np.random.default_rng(np.random.SeedSequence(seed))
    columns: dict[str, list[Any]] = {}
    for n in names:
        spec = params[n]
        where = f"parameters.{n}"
        if isinstance(spec, dict) and "choices" in spec and design == "random":
            choices = spec["choices"]
            if not isinstance(choices, list) or not choices:
                bad(where, "choices must be a non-empty list")
                return [], []
            columns[n] = [choices[int(i)] for i in rng.integers(len(choices), size=samples)]
            continue
        if not (isinstance(spec, dict) and {"low", "high"} <= set(spec)):
            kind = "{low, high} or {choices: [...]}" if design == "random" else "{low, high}"
            bad(where, f"a {design} parameter is {kind}")
            return [], []
        low, high = spec["low"], spec["high"]
        if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (low, high)):
            bad(where, "low and high must be numbers")
            return [], []
        if high < low:
            bad(where, f"high ({high}) is below low ({low})")
            return [], []
        ints = isinstance(low, int) and isinstance(high, int)
        if design == "lhs":
            u = (rng.permutation(samples) + rng.random(samples)) / samples
        else:
            u = rng.random(samples)
        if ints:
            vals = [min(high, low + int(x * (high - low + 1))) for x in u]
        else:
            vals = [float(low + x * (high - low)) for x in u]
        columns[n] = vals
    return [{n: columns[n][i] for n in names} for i in range(samples)], names
