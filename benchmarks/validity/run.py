"""The whole run: every study under the systems asked for, each part timed.

:data:`FULL` and :data:`QUICK` are the battles per point of the report and of ``--quick``;
each study module says why it chose its counts (the interval it needs, within about 10
minutes on 2 cores for the full run).
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from benchmarks.validity.base import SYSTEMS
from benchmarks.validity.battles import Runner
from benchmarks.validity.studies import STUDIES
from benchmarks.validity.study import Replicates, Results, Study

FULL = Replicates.full(STUDIES)
QUICK = Replicates.quick(STUDIES)


def run_all(
    runner: Runner,
    reps: Replicates,
    systems: Sequence[str] = SYSTEMS,
    studies: Sequence[Study] = STUDIES,
) -> Results:
    """Every part of every study under ``systems``, timed, with ``reps`` battles per point."""
    res = Results(reps, tuple(systems), tuple(studies), workers=runner.workers)
    for part in (p for study in studies for p in study.parts):
        name = part.name
        start, before = time.perf_counter(), runner.battles
        runner.log(f"{name}: {reps[name]} battles a point ...")
        res.rows[name] = part.study(runner, reps[name], systems)
        res.seconds[name] = time.perf_counter() - start
        res.battles[name] = runner.battles - before
        runner.log(f"{name}: {res.battles[name]} battles in {res.seconds[name]:.1f} s")
    return res
