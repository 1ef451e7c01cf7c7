"""A sweep on a real Dask cluster: a scheduler and two workers started with the `dask`
command line, one worker killed in the middle; the dataset must equal the serial one row for
row (issue 18: scale out on an existing engine)."""

from __future__ import annotations

import signal
import threading
import time
from pathlib import Path

import pytest

from benchmarks.dask_local import dask_command, local_cluster
from sim.experiment import load_experiment
from sim.experiment.runner import sweep
from tests.test_runner import assert_same_data, write

pytest.importorskip("distributed")

EXPERIMENT = """\
name: cluster
scenario: {root}/scenarios/skirmish5.yaml
design: grid
parameters:
  sides.guards.tactic: [balanced, aggressive]
replicates: 60
seed: 18
tables: [runs, rounds, fighters]
chunk: 6
"""

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
@pytest.mark.skipif(dask_command() is None, reason="the `dask` command is not installed")
def test_a_sweep_on_a_cluster_survives_a_lost_worker(tmp_path):
    exp_file = write(tmp_path, EXPERIMENT.format(root=ROOT))
    serial = sweep(load_experiment(exp_file), tmp_path / "serial", progress=False)
    assert serial.done == 120 and serial.failed == 0

    with local_cluster(2, tmp_path) as cluster:
        out = tmp_path / "cluster"
        killed: list[int] = []

        def kill_one_worker_once_the_first_chunk_lands() -> None:
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline:
                if any((out / "runs").glob("part-*.parquet")):
                    cluster.workers[0].send_signal(signal.SIGKILL)
                    killed.append(cluster.workers[0].pid)
                    return
                time.sleep(0.01)

        killer = threading.Thread(target=kill_one_worker_once_the_first_chunk_lands)
        killer.start()
        result = sweep(
            load_experiment(exp_file),
            out,
            executor="dask",
            scheduler=cluster.address,
            progress=False,
        )
        killer.join()
        assert killed, "the sweep ended before a worker could be killed"
        assert cluster.workers[0].wait(timeout=10) == -signal.SIGKILL
        assert result.done == 120 and result.failed == 0
        assert_same_data(out, tmp_path / "serial", ("runs", "rounds", "fighters"))
