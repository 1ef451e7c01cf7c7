"""A sweep's workers are forks of a single-threaded forkserver that imported their libraries.

That they die with their sweep is tested in tests/test_faults.py (the sweep killed alone);
that they give the same rows as a serial sweep in tests/test_runner.py.
"""

import multiprocessing as mp
import os
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from sim import workers
from tests.test_runner import SMALL, write
from tests.workers_probe import LIBRARIES, libraries_a_chunk_imports, probe

pytestmark = pytest.mark.skipif(
    "forkserver" not in mp.get_all_start_methods() or not Path("/proc/self/task").exists(),
    reason="a forkserver, and /proc to look at it",
)

ROOT = Path(__file__).resolve().parents[1]


def forkservers():
    out = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                stat = (d / "stat").read_text()
                cmd = (d / "cmdline").read_bytes()
            except OSError:
                continue
            parent = int(stat.rsplit(")", 1)[1].split()[1])
            if parent == os.getpid() and b"multiprocessing.forkserver" in cmd:
                out.append(int(d.name))
    return out


def test_a_worker_starts_with_the_libraries_its_forkserver_imported():
    workers.start()
    with ProcessPoolExecutor(1, mp_context=workers.context()) as pool:
        got = pool.submit(probe).result()
    assert got["modules"] == list(LIBRARIES)  # workers_probe imports none of them; nor sim
    assert forkservers() == [got["parent"]]
    assert got["blas"] == os.environ.get("OPENBLAS_NUM_THREADS", "1")


def test_a_chunk_imports_no_library_the_forkserver_has_not(tmp_path):
    workers.start()
    with ProcessPoolExecutor(1, mp_context=workers.context()) as pool:
        got = pool.submit(libraries_a_chunk_imports, str(write(tmp_path, SMALL)), str(tmp_path))
        assert got.result() == [], "add them to sim.workers.PRELOAD"


def test_the_forkserver_is_single_threaded():
    """Forking a process with threads can copy a lock another thread holds: it has none."""
    if os.environ.get("OPENBLAS_NUM_THREADS", "1") != "1":
        pytest.skip("OPENBLAS_NUM_THREADS is set: the forkserver keeps BLAS threads")
    workers.start()
    with ProcessPoolExecutor(1, mp_context=workers.context()) as pool:
        pool.submit(probe).result()  # the server has done its imports by now
        (server,) = forkservers()
        tasks = os.listdir(f"/proc/{server}/task")
    assert len(tasks) == 1, [Path(f"/proc/{server}/task/{t}/comm").read_text() for t in tasks]
    assert "OPENBLAS_NUM_THREADS" not in os.environ or os.environ["OPENBLAS_NUM_THREADS"] == "1"


SWEEP = """
import sys
from sim.experiment.load import load_experiment
from sim.experiment.runner import sweep
if __name__ == "__main__":
    r = sweep(load_experiment(sys.argv[1]), sys.argv[2], workers=2, executor="processes",
              progress=False)
    sys.exit(0 if r.done == r.selected and not r.failed else 1)
"""


def test_workers_run_the_sweeps_sim_not_one_in_its_folder(tmp_path):
    """A fresh interpreter in the folder would import the decoy ``sim`` there: nobody does."""
    decoy = tmp_path / "clone"
    (decoy / "sim").mkdir(parents=True)
    marker = tmp_path / "decoy-imported"
    (decoy / "sim" / "__init__.py").write_text(
        f"open({str(marker)!r}, 'w').close()\nraise ImportError('a decoy')\n"
    )
    driver = tmp_path / "bin" / "sweep.py"  # like the installed sim script: not in the folder
    driver.parent.mkdir()
    driver.write_text(SWEEP)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    exp = write(tmp_path, SMALL)
    done = subprocess.run(
        [sys.executable, str(driver), str(exp), str(tmp_path / "out")],
        cwd=decoy,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert not marker.exists(), "a sweep process imported the sim of its folder"


DROPPED = """
import signal, threading, weakref
from sim.cli.battles import _ctrl_c_noted
from sim.experiment.runner import interrupts

class Agent:
    pass

def callback(_):
    signal.raise_signal(signal.SIGINT)
    x = [1]
    x.append(2)  # Python runs the handler here, in the callback, and drops its Ctrl-C

if {sweep}:
    block = interrupts()
else:
    noted = threading.Event()
    block = _ctrl_c_noted(noted, [0.0])
with block:
    a = Agent()
    r = weakref.ref(a, callback)
    del a
print("went on")
"""


@pytest.mark.parametrize("sweep", [True, False], ids=["sim sweep", "sim run"])
def test_a_ctrl_c_python_drops_in_a_weak_reference_callback_prints_no_traceback(sweep):
    """Mesa's agents have weak reference callbacks: a Ctrl-C in one was "Exception ignored"."""
    run = subprocess.run(
        [sys.executable, "-c", DROPPED.format(sweep=sweep)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout == "went on\n"
    assert run.stderr == ""
