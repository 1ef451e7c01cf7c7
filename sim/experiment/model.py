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
    #         the point shown in every table; a PATH a point leaves out keeps the base
    #         scenario's value)
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
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pyarrow as pa

from sim.dataset.records import fingerprint
from sim.errors import SimError

SEEDS = ("independent", "shared")
SEARCHES = ("balance", "optimize", "calibrate", "worth")
"""Designs of the searches (:mod:`sim.search`), whose files this package does not read."""
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
        values = self.points[point]  # a list design's point may leave a parameter out
        sets = (f"{p}={json.dumps(values[p])}" for p in self.parameters if p in values)
        return [*self.overrides, *sets]

    def param_values(self, point: int, fields: Sequence[pa.Field] | None = None) -> dict[str, Any]:
        """The typed parameter columns of a point's runs.

        ``fields`` is :meth:`param_fields`, passed in when calling for many points.
        """
        types = {f.name: f.type for f in (fields or self.param_fields())}
        pt = self.points[point]
        values = {
            p: column_value(pt[p], types[p]) if p in pt else None  # left at the base's value
            for p in self.parameters
        }
        if LABEL in types:
            return {LABEL: self.point_labels[point], **values}
        return values

    def param_fields(self) -> list[pa.Field]:
        """Arrow fields of the parameter columns, typed from every point's values.

        A ``list`` design with ``label:`` points has a ``label`` column first (a string;
        null for a point with none).
        """
        fields = [
            pa.field(p, arrow_type([pt[p] for pt in self.points if p in pt]))
            for p in self.parameters
        ]
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
