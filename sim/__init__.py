"""Agent-based battle simulator for four tabletop combat systems.

See README.md for the tour, docs/rules.md for the rules as the program follows them (and
where each one is in the code), and docs/python-api.md for using it from Python.

Two calls cover a study from Python: :func:`sweep` runs an experiment into a dataset and
returns its path; :func:`load` reads one table of a dataset as a pandas DataFrame. Both
import their machinery only when called, so ``import sim`` stays light; so do the short
names of the most used pieces: ``sim.Battle`` (:class:`sim.battle.Battle`), ``sim.fight``
(:func:`sim.run.fight`), ``sim.load_scenario`` and ``sim.load_experiment``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd

    from sim.experiment.model import Experiment

from sim.version import __version__

__all__ = [
    "Battle",
    "__version__",
    "fight",
    "load",
    "load_experiment",
    "load_scenario",
    "sweep",
]


def __getattr__(name: str) -> Any:
    """The short names, imported when first asked for (PEP 562)."""
    if name == "Battle":
        from sim.battle import Battle

        return Battle
    if name == "fight":
        from sim.run import fight

        return fight
    if name == "load_scenario":
        from sim.scenario import load_scenario

        return load_scenario
    if name == "load_experiment":
        from sim.experiment import load_experiment

        return load_experiment
    raise AttributeError(f"module 'sim' has no attribute {name!r}")


def sweep(
    experiment: Experiment | str | os.PathLike[str],
    out: str | os.PathLike[str] | None = None,
    *,
    workers: int = 1,
    executor: str | None = None,
    resume: bool = False,
    limit: int | None = None,
    progress: bool = False,
) -> Path:
    """Run an experiment's battles into a Parquet dataset; the dataset's path.

    ``experiment`` is an experiment file's path or a loaded
    :class:`sim.experiment.model.Experiment`. ``out`` defaults to ``results/<experiment name>``
    (as ``sim sweep``). ``workers`` processes run the battles (``executor``: ``serial``,
    ``processes`` or ``dask``; default serial for one worker, processes for more); the
    dataset is the same whatever the workers. A finished dataset of the same experiment at
    ``out`` is kept as it is (nothing runs again); an unfinished one needs ``resume=True``.
    ``limit`` runs only the first runs; ``progress`` shows a progress bar on stderr.

    Raises:
        sim.errors.SimError: a bad experiment file, or ``out`` holding something else.
    """
    from sim.experiment.load import load_experiment
    from sim.experiment.model import Experiment as _Experiment
    from sim.experiment.runner import sweep as run_sweep

    exp = experiment if isinstance(experiment, _Experiment) else load_experiment(experiment)
    root = Path(out) if out is not None else Path("results") / exp.name
    how = executor or ("processes" if workers > 1 else "serial")
    run_sweep(
        exp,
        root,
        workers=1 if how == "serial" else workers,
        executor=how,
        resume=resume,
        limit=limit,
        progress=progress,
    )
    return root


def load(dataset: str | os.PathLike[str], table: str = "runs") -> pd.DataFrame:
    """One table of a dataset (from :func:`sweep`, ``sim sweep`` or ``sim run --out``).

    ``table``: ``runs`` (one row per battle, the swept parameters as columns), ``sides``
    (one row per battle and side), or ``rounds``, ``fighters``, ``events``, ``aftermath``,
    ``campaign`` (each row with its run's ``run_id``, ``seed`` and parameters joined). For
    summaries and intervals see :mod:`sim.analysis` (``sim.analysis.load(dataset)`` is the
    whole :class:`sim.analysis.Dataset`).

    Raises:
        sim.errors.SimError: not a dataset, or an unknown table (with the known ones).
    """
    from sim import analysis

    ds = analysis.load(Path(dataset))
    return ds.sides if table == "sides" else ds.table(table)
