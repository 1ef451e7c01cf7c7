"""A sweep's workers are forks of a single-threaded forkserver that imported what they need.

That they die with their sweep is tested in tests/test_faults.py (the sweep killed alone);
that they give the same rows as a serial sweep in tests/test_runner.py.
"""

import multiprocessing as mp
import os
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from sim import workers

pytestmark = pytest.mark.skipif(
    "forkserver" not in mp.get_all_start_methods() or not Path("/proc/self/task").exists(),
    reason="a forkserver, and /proc to look at it",
)

HEAVY = ("mesa", "pandas", "pyarrow", "scipy", "numpy")


def probe():
    """In a worker: what it has imported before its first task, and who its parent is."""
    return {
        "modules": [m for m in (*workers.PRELOAD, *HEAVY) if m in sys.modules],
        "parent": os.getppid(),
        "blas": os.environ.get("OPENBLAS_NUM_THREADS"),
    }


def children(pid):
    out = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                stat = (d / "stat").read_text()
                cmd = (d / "cmdline").read_bytes()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.append((int(d.name), cmd))
    return out


def test_a_worker_starts_with_what_it_needs_imported_by_its_forkserver():
    with ProcessPoolExecutor(1, mp_context=workers.context()) as pool:
        got = pool.submit(probe).result()
        servers = [p for p, cmd in children(os.getpid()) if b"multiprocessing.forkserver" in cmd]
    assert got["modules"] == [*workers.PRELOAD, *HEAVY]  # this test module imports none of them
    assert servers == [got["parent"]]
    assert got["blas"] == os.environ.get("OPENBLAS_NUM_THREADS", "1")


def test_the_forkserver_is_single_threaded():
    """Forking a process with threads can copy a lock another thread holds: it has none."""
    workers.start()
    with ProcessPoolExecutor(1, mp_context=workers.context()) as pool:
        pool.submit(probe).result()  # the server has done its imports by now
        (server,) = [p for p, cmd in children(os.getpid()) if b"multiprocessing.forkserver" in cmd]
        threads = [
            (Path(f"/proc/{server}/task") / t / "comm").read_text().strip()
            for t in os.listdir(f"/proc/{server}/task")
        ]
    if "OPENBLAS_NUM_THREADS" in os.environ and os.environ["OPENBLAS_NUM_THREADS"] != "1":
        pytest.skip("OPENBLAS_NUM_THREADS is set: the forkserver keeps BLAS threads")
    assert len(threads) == 1, threads


def test_a_worker_refuses_code_other_than_its_sweeps():
    with pytest.raises(RuntimeError, match="imports sim from .* the sweep from /elsewhere"):
        workers.check_same_code("/elsewhere")
    workers.check_same_code(str(Path(workers.__file__).resolve().parents[1]))
