"""A real Dask cluster on this machine: ``dask scheduler`` and ``dask worker`` processes.

Started with the ``dask`` command line, exactly as on a cluster's nodes, not as an
in-process ``LocalCluster``; used by the cluster test (``tests/test_dask_cluster.py``) and by
figure 8 of the benchmarks (throughput per worker).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def dask_command() -> str | None:
    """The path of the ``dask`` command, or None where it is not installed."""
    return shutil.which("dask")


@dataclass
class Cluster:
    """A running scheduler and its workers (``procs[0]`` is the scheduler)."""

    address: str
    logs: Path
    procs: list[subprocess.Popen[bytes]] = field(default_factory=list)

    def start(self, *args: str, log: str) -> subprocess.Popen[bytes]:
        """Start ``dask ARGS`` in the background, its output in ``logs/log``."""
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        with (self.logs / log).open("w") as out:  # the child keeps its own copy of the handle
            proc = subprocess.Popen(
                [str(dask_command()), *args], stdout=out, stderr=subprocess.STDOUT, env=env
            )
        self.procs.append(proc)
        return proc

    @property
    def workers(self) -> list[subprocess.Popen[bytes]]:
        """The worker processes, in the order they were started."""
        return self.procs[1:]

    def wait_for(self, workers: int, timeout: float = 60.0) -> None:
        """Block until ``workers`` workers have joined the scheduler."""
        from distributed import Client

        deadline = time.monotonic() + timeout
        with Client(self.address, timeout=timeout) as client:
            while len(client.scheduler_info()["workers"]) < workers:
                if time.monotonic() > deadline:
                    got = len(client.scheduler_info()["workers"])
                    raise TimeoutError(f"only {got} of {workers} workers joined")
                time.sleep(0.2)

    def stop(self) -> None:
        """Terminate every process (kill what does not stop within 10 s)."""
        for p in self.procs:
            if p.poll() is None:
                p.terminate()
        for p in self.procs:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()


@contextmanager
def local_cluster(workers: int, logs: Path) -> Iterator[Cluster]:
    """A scheduler and ``workers`` one-thread workers on localhost, stopped on exit."""
    port = free_port()
    cluster = Cluster(f"tcp://127.0.0.1:{port}", logs)
    try:
        cluster.start(
            "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard",
            log="scheduler.log",
        )  # fmt: skip
        time.sleep(1.0)
        for i in range(workers):
            cluster.start(
                "worker", cluster.address, "--nthreads", "1", "--no-dashboard", "--name", f"w{i}",
                log=f"worker{i}.log",
            )  # fmt: skip
        cluster.wait_for(workers)
        yield cluster
    finally:
        cluster.stop()
