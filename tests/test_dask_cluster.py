"""A sweep on a real Dask cluster: a scheduler and two workers started with the `dask`
command line, one worker killed in the middle; the dataset must equal the serial one row for
row (issue 18: scale out on an existing engine)."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import threading
import time
from pathlib import Path

import pytest

from sim.experiment import load_experiment
from sim.runner import sweep
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


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _dask(*args: str, log: Path) -> subprocess.Popen:
    """A `dask` command running in the background, its output in ``log``."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with log.open("w") as out:  # the child keeps its own copy of the handle
        return subprocess.Popen(
            [str(shutil.which("dask")), *args], stdout=out, stderr=subprocess.STDOUT, env=env
        )


def _wait_for(address: str, workers: int, timeout: float = 60.0) -> None:
    from distributed import Client

    deadline = time.monotonic() + timeout
    with Client(address, timeout=timeout) as client:
        while len(client.scheduler_info()["workers"]) < workers:
            if time.monotonic() > deadline:
                raise TimeoutError(f"only {len(client.scheduler_info()['workers'])} workers")
            time.sleep(0.2)


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("dask") is None, reason="the `dask` command is not installed")
def test_a_sweep_on_a_cluster_survives_a_lost_worker(tmp_path):
    exp_file = write(tmp_path, EXPERIMENT.format(root=ROOT))
    serial = sweep(load_experiment(exp_file), tmp_path / "serial", progress=False)
    assert serial.done == 120 and serial.failed == 0

    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    procs = [
        _dask(
            "scheduler",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--no-dashboard",
            log=tmp_path / "scheduler.log",
        )  # fmt: skip
    ]
    try:
        time.sleep(1.0)
        for i in range(2):
            procs.append(
                _dask(
                    "worker",
                    address,
                    "--nthreads",
                    "1",
                    "--no-dashboard",
                    "--name",
                    f"w{i}",
                    log=tmp_path / f"worker{i}.log",
                )  # fmt: skip
            )
        _wait_for(address, 2)
        out = tmp_path / "cluster"
        killed: list[int] = []

        def kill_one_worker_once_the_first_chunk_lands() -> None:
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline:
                if any((out / "runs").glob("part-*.parquet")):
                    procs[1].send_signal(signal.SIGKILL)
                    killed.append(procs[1].pid)
                    return
                time.sleep(0.01)

        killer = threading.Thread(target=kill_one_worker_once_the_first_chunk_lands)
        killer.start()
        result = sweep(
            load_experiment(exp_file), out, executor="dask", scheduler=address, progress=False
        )
        killer.join()
        assert killed, "the sweep ended before a worker could be killed"
        assert procs[1].wait(timeout=10) == -signal.SIGKILL
        assert result.done == 120 and result.failed == 0
        assert_same_data(out, tmp_path / "serial", ("runs", "rounds", "fighters"))
    finally:
        for p in procs:
            if p.poll() is None:
                p.terminate()
        for p in procs:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
