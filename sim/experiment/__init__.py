"""Experiments: a base scenario, parameters to vary, a design; and the sweep that runs them.

:mod:`~sim.experiment.model` is an experiment (and its file's format),
:mod:`~sim.experiment.load` reads and checks a file, :mod:`~sim.experiment.designs` expands
its parameters into points, :mod:`~sim.experiment.checks` checks every point before the
first battle, :mod:`~sim.experiment.runner` runs the battles on an executor (serial,
processes, Dask) and streams them into a dataset, :mod:`~sim.experiment.resume` prepares a
dataset to run into or resume.

May import: ``sim.run``, ``sim.dataset`` and everything below them; nothing above.
"""

from sim.experiment.load import is_experiment, load_experiment, parse_experiment, wrong_kind
from sim.experiment.model import KEYS, Experiment

__all__ = [
    "KEYS",
    "Experiment",
    "is_experiment",
    "load_experiment",
    "parse_experiment",
    "wrong_kind",
]
