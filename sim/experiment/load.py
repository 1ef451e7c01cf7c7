"""Reading an experiment file: its keys checked, its design expanded, every point checked.

:func:`load_experiment` and :func:`parse_experiment` give a checked
:class:`~sim.experiment.model.Experiment`, every problem at once as ``file:line: path:
message`` (the file's format is in :mod:`sim.experiment.model`); with ``check_points`` every
design point's scenario is checked before the first run (:mod:`sim.experiment.checks`).
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from sim.dataset.records import TABLES
from sim.errors import SimError, did_you_mean
from sim.experiment import designs
from sim.experiment.checks import check_design
from sim.experiment.designs import DESIGNS, MAX_POINTS
from sim.experiment.model import KEYS, MAX_FILE, MAX_RUNS, SEEDS, Experiment
from sim.scenario import Issue, ScenarioError, read_yaml
from sim.scenario.reader import bad_text, read_text_file, show


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
    name = _name(doc.get("name"), Path(source).name, bad)
    scenario_path, scenario_text = _scenario(doc, source, bad)
    sets = _sets(doc.get("set") or [], bad)
    replicates = _whole(doc.get("replicates", 1), "replicates", 1, MAX_RUNS, bad) or 1
    seed = _whole(doc.get("seed", 0), "seed", 0, 2**63 - 1, bad) or 0
    seeds = doc.get("seeds", "independent")
    if seeds not in SEEDS:
        bad("seeds", f"expected independent or shared, got {seeds!r}")
    design, points, params, point_labels = _design(doc, seed, replicates, bad)
    tables = _tables(doc.get("tables", ["runs"]), bad)
    _labels(doc.get("labels", {}), params, bad)
    chunk = _chunk(doc.get("chunk"), len(points) * replicates, bad)
    overrides = _overrides(sets, params, scenario_path, scenario_text)
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
        found = check_design(exp, locate, len(overrides) - len(sets))
        if found:
            raise ScenarioError(found)
    return exp


def _chunk(value: Any, runs: int, bad: Any) -> int:
    """Runs per Parquet part: as given, or chosen from the size (about 64 parts)."""
    if value is None:
        return max(1, min(500, math.ceil(runs / 64))) if runs else 1
    return _whole(value, "chunk", 1, 1_000_000, bad) or 1


def _overrides(
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


def _sets(sets: Any, bad: Any) -> list[str]:
    """``set:``: the fixed ``PATH=VALUE`` overrides of every run."""
    if not isinstance(sets, list) or not all(isinstance(s, str) for s in sets):
        bad("set", "expected a list of PATH=VALUE overrides")
        return []
    return sets


def _scenario(doc: Mapping[str, Any], source: str, bad: Any) -> tuple[str, str]:
    """The base scenario's path and text (empty if it is missing)."""
    scen = doc.get("scenario")
    if not isinstance(scen, str) or not scen:
        bad("scenario", "the base scenario's path is required")
        return "", ""
    sp = (Path(source).parent / scen) if not Path(scen).is_absolute() else Path(scen)
    if not sp.exists() and not sp.is_symlink():
        bad("scenario", f"scenario file not found: {sp}")
        return "", ""
    try:  # a folder, a FIFO, a loop of links: read_text_file says which
        return str(sp), read_text_file(sp)
    except ScenarioError as err:
        bad("scenario", f"cannot read the scenario: {err}")
        return "", ""


def _labels(labels: Any, params: list[str], bad: Any) -> None:
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
        elif (problem := bad_text(name, allow_breaks=False)) is not None:
            bad(f"labels.{path}", f"the text {show(name)} {problem}")


def _design(
    doc: Mapping[str, Any], seed: int, replicates: int, bad: Any
) -> tuple[str, list[dict[str, Any]], list[str], list[str | None]]:
    """The design's name, points, parameters and point labels; its size counted first."""
    design = doc.get("design", "grid")
    if design not in DESIGNS:
        bad("design", f"unknown design {design!r}; one of {', '.join(DESIGNS)}")
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


def _tables(value: Any, bad: Any) -> list[str]:
    """The tables to record: ``runs`` always, then the others asked for, in their order."""
    if not isinstance(value, list) or any(t not in TABLES for t in value):
        bad("tables", f"expected a list of tables from {', '.join(TABLES)}")
        value = ["runs"]
    return ["runs", *[t for t in TABLES[1:] if t in value]]


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
