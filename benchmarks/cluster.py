"""Figure 8: sweep throughput on a real Dask cluster (scheduler and workers as processes).

What a user who moves to a cluster can expect per worker: the quick-start sweep through
``--executor dask --scheduler tcp://...`` with 1 and with 2 one-thread workers on this
machine, each started with the ``dask`` command as on a cluster's nodes.
"""

from __future__ import annotations

import time

from benchmarks.base import Config, Figure, quickstart_file
from benchmarks.dask_local import dask_command, local_cluster


def _dask_sweep(cfg: Config, workers: int, runs: int, name: str) -> float:
    """Seconds for the first ``runs`` quick-start runs on a fresh ``workers``-worker cluster."""
    from sim.experiment import load_experiment
    from sim.experiment.runner import sweep

    exp = load_experiment(quickstart_file(cfg.work, runs, name))
    logs = cfg.work / f"{name}_logs"
    logs.mkdir()
    with local_cluster(workers, logs) as cluster:
        start = time.perf_counter()
        result = sweep(
            exp,
            cfg.work / name,
            executor="dask",
            scheduler=cluster.address,
            limit=runs,
            progress=False,
        )
        seconds = time.perf_counter() - start
    if result.done != runs or result.failed:
        raise RuntimeError(f"{name}: {result.done} runs done, {result.failed} failed")
    return seconds


def dask_cluster(cfg: Config) -> Figure:
    """Figure 8: runs per second per worker on a local Dask cluster of 1 and of 2 workers."""
    if dask_command() is None:
        raise RuntimeError('figure 8 needs the `dask` command: pip install -e ".[dask]"')
    runs = cfg.size(2_000, 20_000)
    rates: dict[int, float] = {}
    for workers in (1, 2):
        best = min(
            _dask_sweep(cfg, workers, runs, f"dask_{workers}_{i}") for i in range(cfg.repeats)
        )
        rates[workers] = runs / best
        cfg.log(f"  figure 8: {workers} dask worker(s) {rates[workers]:8.0f} runs/s")
    per_worker = rates[2] / 2
    return Figure(
        "dask_cluster",
        "sweep on a local Dask cluster (dask scheduler + dask worker processes)",
        round(per_worker, 1),
        "runs/s per worker (2 workers)",
        "reported for cluster planning (no goal)",
        None,
        {
            "runs": runs,
            "runs_per_s_1_worker": round(rates[1], 1),
            "runs_per_s_2_workers": round(rates[2], 1),
            "scaling_2_over_1": round(rates[2] / rates[1], 2),
            "best_of": cfg.repeats,
            "experiment": "the quick-start sweep (skirmish5), runs/rounds/fighters to Parquet",
        },
    )
