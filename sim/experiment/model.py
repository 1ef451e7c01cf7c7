"""Experiments: a base scenario, parameters to vary, a design, replicates and a master seed.

An experiment file expands into a fixed, ordered list of runs. Run ``i`` is point
``i // replicates`` of the design, replicate ``i % replicates``. Its seed comes from
``numpy.random.SeedSequence(master, spawn_key=(i,))`` (the ``i``-th child of
``SeedSequence(master).spawn``), so a run's seed never depends on worker count, completion
order or resume; with ``seeds: shared`` (common random numbers) it is the child of the
replicate number instead, so replicate ``r`` has the same seed at every point and
differences between points are paired. Parameters are ``--set`` style dotted paths into
the scenario document (``sides.red.tactic``, ``rules.options.pool``, ``rules.system``).

Every design point is checked before the first run (:mod:`sim.experiment.checks`): a point whose
scenario would not load refuses the whole experiment, each problem located in the
experiment file. The design's size is counted before it is expanded (:mod:`sim.experiment.designs`).

Format::

    name: armor                      # default: the file's name without extension
    description: ...
    scenario: ../scenarios/skirmish.yaml   # the base scenario, relative to this file
    set: [max_rounds=30]             # fixed overrides applied to every run
    design: grid                     # grid (default) | random | lhs | list | sobol | morris
                                     # | fast
    parameters:                      # grid: PATH -> list of values (full factorial)
      sides.guards.tactic: [balanced, defensive]
      rules.system: [wargame, d6]
    # random: PATH -> {low: A, high: B} (whole numbers if both are) or {choices: [...]};
    #         samples: N draws
    # lhs:    PATH -> {low: A, high: B}; samples: N (a Latin hypercube)
    # list:   points: [{PATH: VALUE, ..., label: TEXT}, ...] (label: optional, a name for
    #         the point shown in every table)
    # sobol:  PATH -> {low: A, high: B}; samples: N, a power of 2 (N*(D+2) points);
    #         second_order: true for N*(2D+2) points and the second-order indices
    # morris: PATH -> {low: A, high: B}; samples: R trajectories (R*(D+1) points);
    #         levels: 4
    # fast:   PATH -> {low: A, high: B}; samples: N per parameter, over 64 (N*D points)
    replicates: 100                  # runs per point
    seed: 2026                       # the master seed
    seeds: independent               # independent (default) | shared (common random numbers)
    tables: [runs, fighters]         # runs always; rounds, fighters, events, aftermath,
                                     # campaign on request
    chunk: 200                       # runs per Parquet part (default: chosen from the size)
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from sim.dataset.records import TABLES, fingerprint
from sim.errors import SimError, did_you_mean
from sim.experiment import designs
from sim.experiment.designs import DESIGNS, MAX_POINTS
from sim.scenario import Issue, ScenarioError, read_yaml
from sim.scenario.reader import bad_text, read_text_file, show

SEEDS = ("independent", "shared")
SEARCHES = ("balance", "optimize")
"""Designs of the searches (:mod:`sim.search`), whose files this module does not read."""
LABEL = "label"
"""The runs table's column of a ``list`` design's point labels (when it has any)."""
KEYS = (
    "name",
    "description",
    "scenario",
    "set",
    "design",
    "parameters",
    "samples",
    "second_order",
    "levels",
    "points",
    "replicates",
    "seed",
    "seeds",
    "tables",
    "chunk",
    "labels",
)
MAX_RUNS = 100_000_000
MAX_FILE = 1024 * 1024


@dataclass(frozen=True, slots=True)
class Experiment:
    """A checked experiment: where it came from, its points and how to run them.

    ``point_labels`` holds each point's ``label`` (a ``list`` design's; None where there is
    none), ``shared_seeds`` whether
    replicate ``r`` has the same seed at every point, and ``full_replicates`` the
    replicates of the whole experiment when this is a preview of fewer
    (:meth:`preview`).
    """

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
    design: str = "grid"
    point_labels: tuple[str | None, ...] = ()
    shared_seeds: bool = False
    full_replicates: int | None = None

    @property
    def planned_runs(self) -> int:
        """Runs in the whole experiment: points times replicates."""
        return len(self.points) * self.replicates

    def run_seed(self, run_id: int) -> int:
        """The seed of run ``run_id``: its SeedSequence child, as one 64-bit integer.

        The child of the run's number in the full experiment (a preview's runs keep
        theirs), or with shared seeds of its replicate number.
        """
        point, rep = divmod(run_id, self.replicates)
        index = (
            rep if self.shared_seeds else point * (self.full_replicates or self.replicates) + rep
        )
        child = np.random.SeedSequence(self.seed, spawn_key=(index,))
        return int(child.generate_state(1, dtype=np.uint64)[0])

    def point_of(self, run_id: int) -> int:
        """The design point run ``run_id`` belongs to."""
        return run_id // self.replicates

    def preview(self, replicates: int) -> Experiment:
        """The experiment with only the first ``replicates`` runs of every point.

        Each run keeps the seed it has in the full experiment, so a preview's runs are the
        full sweep's first replicates.
        """
        if replicates < 1:
            raise SimError(f"--replicates must be 1 or more, got {replicates}")
        if replicates >= self.replicates:
            return self
        return replace(
            self,
            replicates=replicates,
            full_replicates=self.replicates,
            chunk=max(1, min(self.chunk, math.ceil(len(self.points) * replicates / 64))),
        )

    def point_overrides(self, point: int) -> list[str]:
        """The ``--set`` overrides that build the scenario of design point ``point``."""
        values = self.points[point]
        return [*self.overrides, *(f"{p}={json.dumps(values[p])}" for p in self.parameters)]

    def param_values(self, point: int, fields: Sequence[pa.Field] | None = None) -> dict[str, Any]:
        """The typed parameter columns of a point's runs.

        ``fields`` is :meth:`param_fields`, passed in when calling for many points.
        """
        types = {f.name: f.type for f in (fields or self.param_fields())}
        values = {p: column_value(self.points[point][p], types[p]) for p in self.parameters}
        if LABEL in types:
            return {LABEL: self.point_labels[point], **values}
        return values

    def param_fields(self) -> list[pa.Field]:
        """Arrow fields of the parameter columns, typed from every point's values.

        A ``list`` design with ``label:`` points has a ``label`` column first (a string;
        null for a point with none).
        """
        fields = [pa.field(p, arrow_type([pt[p] for pt in self.points])) for p in self.parameters]
        if any(x is not None for x in self.point_labels):
            fields.insert(0, pa.field(LABEL, pa.string()))
        return fields

    def fingerprint(self) -> str:
        """What identifies the experiment: its text, its scenario's text and overrides.

        A preview is another experiment (its replicates are part of it).
        """
        sets = "\n".join(self.overrides)
        if self.full_replicates is not None:
            sets += f"\npreview: {self.replicates} replicates"
        return fingerprint(self.text, self.scenario_text, sets)

    def chunks(self, limit: int | None = None) -> Iterator[tuple[int, range]]:
        """(chunk id, run ids) in order; ``limit`` keeps only the first ``limit`` runs."""
        total = self.planned_runs if limit is None else min(limit, self.planned_runs)
        for cid, start in enumerate(range(0, total, self.chunk)):
            yield cid, range(start, min(start + self.chunk, total))


def column_value(v: Any, kind: pa.DataType) -> Any:
    """A parameter value as its column stores it.

    Text columns hold strings as written and anything else (numbers, lists, null) as JSON.
    """
    if pa.types.is_string(kind):
        return v if isinstance(v, str) else json.dumps(v, sort_keys=True)
    if pa.types.is_floating(kind):
        return float(v)
    return v


def arrow_type(values: Sequence[Any]) -> pa.DataType:
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


def load_experiment(path: str | os.PathLike[str], check_points: bool = True) -> Experiment:
    """Read and check an experiment file; every problem at once as ``file:line: path: ...``.

    ``check_points`` as in :func:`parse_experiment`.
    """
    p = Path(path)
    if p.is_file() and p.stat().st_size > MAX_FILE:
        raise SimError(f"{p}: file is {p.stat().st_size / 2**20:.1f} MB; the limit is 1 MB")
    return parse_experiment(read_text_file(p), str(p), check_points)


def is_experiment(path: str | os.PathLike[str]) -> bool:
    """Whether a YAML file looks like an experiment (it names a base ``scenario``)."""
    try:
        text = read_text_file(path)  # a regular file only: a FIFO would block forever
        doc, _ = read_yaml(text, str(path))
    except (OSError, UnicodeDecodeError, SimError):
        return False
    return isinstance(doc, dict) and "scenario" in doc and "sides" not in doc


def wrong_kind(path: str | os.PathLike[str], want: str) -> str | None:
    """Why ``path`` is the other kind of file than ``want`` ("scenario" or "experiment").

    ``sim run`` of an experiment and ``sim sweep`` of a scenario would otherwise be told of
    every key the other kind does not have; this says which command the file is for, or
    returns None when the file is not plainly the other kind.
    """
    try:
        doc, _ = read_yaml(read_text_file(path), str(path))
    except (OSError, UnicodeDecodeError, SimError):
        return None
    if not isinstance(doc, dict):
        return None
    if want == "scenario" and is_experiment(path):
        base = doc["scenario"]
        where = ""
        if isinstance(base, str):
            where = f" such as {os.path.normpath(os.path.join(os.path.dirname(path), base))}"
        return (
            f"{path}: an experiment file (it names a base scenario:); sim sweep {path} "
            f"runs it, sim run takes a scenario{where}"
        )
    if want == "experiment" and "sides" in doc and "scenario" not in doc:
        return (
            f"{path}: a scenario file (it has sides:); sim run {path} fights it once, "
            "sim sweep takes an experiment that names it as scenario:"
        )
    return None


def parse_experiment(text: str, source: str, check_points: bool = True) -> Experiment:
    """Check an experiment document and expand its design into points.

    With ``check_points`` (the default) every design point's scenario is checked too
    (:func:`sim.experiment.checks.check_design`). Every problem is raised at once, as a
    :class:`~sim.scenario.ScenarioError` of ``file:line: path: message`` lines.
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
    name = read_name(doc.get("name"), Path(source).name, bad)
    scenario_path, scenario_text = read_scenario_key(doc, source, bad)
    sets = read_sets(doc.get("set") or [], bad)
    replicates = whole(doc.get("replicates", 1), "replicates", 1, MAX_RUNS, bad) or 1
    seed = whole(doc.get("seed", 0), "seed", 0, 2**63 - 1, bad) or 0
    seeds = doc.get("seeds", "independent")
    if seeds not in SEEDS:
        bad("seeds", f"expected independent or shared, got {seeds!r}")
    design, points, params, point_labels = _design(doc, seed, replicates, bad)
    tables = read_tables(doc.get("tables", ["runs"]), bad)
    check_labels(doc.get("labels", {}), params, bad)
    chunk = _chunk(doc.get("chunk"), len(points) * replicates, bad)
    overrides = base_overrides(sets, params, scenario_path, scenario_text)
    if issues:
        raise ScenarioError(issues)
    exp = Experiment(
        name=name,
        path=source,
        text=text,
        scenario_path=scenario_path,
        scenario_text=scenario_text,
        overrides=tuple(overrides),
        parameters=tuple(params),
        points=tuple(points),
        replicates=replicates,
        seed=seed,
        tables=tuple(tables),
        chunk=chunk,
        design=design,
        point_labels=tuple(point_labels),
        shared_seeds=seeds == "shared",
    )
    if check_points:
        from sim.experiment.checks import check_design

        found = check_design(exp, locate, len(overrides) - len(sets))
        if found:
            raise ScenarioError(found)
    return exp


def _chunk(value: Any, runs: int, bad: Any) -> int:
    """Runs per Parquet part: as given, or chosen from the size (about 64 parts)."""
    if value is None:
        return max(1, min(500, math.ceil(runs / 64))) if runs else 1
    return whole(value, "chunk", 1, 1_000_000, bad) or 1


def base_overrides(
    sets: Sequence[str], params: Sequence[str], scenario_path: str, scenario_text: str
) -> list[str]:
    """The ``set:`` entries, after ``rules={system: ...}`` when a ``rules.*`` path varies.

    Only when the scenario names its system alone (``rules: wargame``).
    """
    overrides = list(sets)
    if scenario_text and any(p == "rules.system" or p.startswith("rules.") for p in params):
        base, _ = read_yaml(scenario_text, scenario_path)
        if isinstance(base, dict) and isinstance(base.get("rules"), str):
            overrides.insert(0, f"rules={{system: {base['rules']}}}")
    return overrides


def read_sets(sets: Any, bad: Any) -> list[str]:
    """``set:``: the fixed ``PATH=VALUE`` overrides of every run."""
    if not isinstance(sets, list) or not all(isinstance(s, str) for s in sets):
        bad("set", "expected a list of PATH=VALUE overrides")
        return []
    return sets


def read_scenario_key(doc: Mapping[str, Any], source: str, bad: Any) -> tuple[str, str]:
    """The base scenario's path and text (empty if it is missing)."""
    scen = doc.get("scenario")
    if not isinstance(scen, str) or not scen:
        bad("scenario", "the base scenario's path is required")
        return "", ""
    if problem := bad_text(scen, allow_breaks=False):  # a path is one line, as its message
        bad("scenario", f"the path {show(scen)} {problem}")
        return "", ""
    sp = (Path(source).parent / scen) if not Path(scen).is_absolute() else Path(scen)
    if not sp.is_file():
        bad("scenario", f"scenario file not found: {sp}")
        return "", ""
    try:
        return str(sp), read_text_file(sp)
    except ScenarioError as err:
        bad("scenario", f"cannot read the scenario: {err}")
        return "", ""


def check_labels(labels: Any, params: list[str], bad: Any) -> None:
    """``labels:``: a name for the charts and tables of each swept parameter it maps."""
    if not isinstance(labels, dict):
        bad(
            "labels", "expected a mapping of swept parameter -> name, e.g. sides.red.tactic: tactic"
        )
        return
    for path, name in labels.items():
        if path not in params:
            hint = did_you_mean(str(path), params) or "; swept: " + ", ".join(params)
            bad(f"labels.{path}", f"{path!r} is not a swept parameter{hint}")
        elif not isinstance(name, str) or not name.strip():
            bad(f"labels.{path}", f"expected a name as text, got {name!r}")


def _design(
    doc: Mapping[str, Any], seed: int, replicates: int, bad: Any
) -> tuple[str, list[dict[str, Any]], list[str], list[str | None]]:
    """The design's name, points, parameters and point labels; its size counted first."""
    design = doc.get("design", "grid")
    if design in SEARCHES:  # a search's file (sim.search, above): sim sweep runs it
        bad("design", f"design {design!r} is a search: sim sweep runs it (from Python: sim.search)")
        return "grid", [], [], []
    if design not in DESIGNS:
        bad("design", f"unknown design {design!r}; one of {', '.join((*DESIGNS, *SEARCHES))}")
        return "grid", [], [], []
    if design in designs.SAMPLED:
        samples = doc.get("samples")
        if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
            bad("samples", f"a {design} design needs samples: a whole number 1 or more")
            return design, [], [], []
    size = designs.count_points(doc, design)
    if size is not None and size > MAX_POINTS:
        where = "samples" if design in designs.SAMPLED else "parameters"
        bad(where, f"the design has {size} points; the limit is {MAX_POINTS}")
        return design, [], [], []
    if size is not None and size * replicates > MAX_RUNS:
        bad("replicates", f"{size * replicates} runs planned; the limit is {MAX_RUNS}")
        return design, [], [], []
    points, params, labels = designs.expand(doc, design, seed, bad)
    return design, points, params, labels


def read_tables(value: Any, bad: Any) -> list[str]:
    """The tables to record: ``runs`` always, then the others asked for, in their order."""
    if not isinstance(value, list) or any(t not in TABLES for t in value):
        bad("tables", f"expected a list of tables from {', '.join(TABLES)}")
        value = ["runs"]
    return ["runs", *[t for t in TABLES[1:] if t in value]]


MAX_NAME = 100
"""Longest experiment name (it names the default output folder, results/<name>/)."""


def read_name(value: Any, file: str, bad: Any) -> str:
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


def whole(value: Any, path: str, low: int, high: int, bad: Any) -> int | None:
    """``value`` if it is a whole number ``low..high``; else None, and ``bad`` says why."""
    if isinstance(value, bool) or not isinstance(value, int):
        bad(path, f"expected a whole number, got {value!r}")
        return None
    if not low <= value <= high:
        bad(path, f"{value} is out of range {low}..{high}")
        return None
    return value
