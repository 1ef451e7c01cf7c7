"""Run in a sweep's worker by tests/test_workers.py; imports nothing but the standard library,
so that what a worker has imported is what its forkserver gave it."""

import os
import sys

LIBRARIES = ("numpy", "pandas", "pyarrow.parquet", "pyarrow.dataset", "yaml", "mesa", "scipy")


def probe():
    """What this worker has imported before its first task, and who its parent is."""
    return {
        "modules": [m for m in (*LIBRARIES, "sim.battle.battle") if m in sys.modules],
        "parent": os.getppid(),
        "blas": os.environ.get("OPENBLAS_NUM_THREADS"),
    }


def libraries_a_chunk_imports(experiment, out):
    """The libraries (not sim, not the standard library) that a chunk of runs imports."""
    before = set(sys.modules)
    from sim.experiment.load import load_experiment
    from sim.experiment.runner import run_chunk

    run_chunk(load_experiment(experiment), out, 0, 0, 3)
    new = {n.split(".")[0] for n in set(sys.modules) - before}
    return sorted(new - set(sys.stdlib_module_names) - {"sim"})
