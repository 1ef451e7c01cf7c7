"""The search designs a file may name, and what each brings: its keys, reader and planner.

A design is a :class:`Kind`: the keys it adds to an experiment file, its default budget, a
``read`` that checks its keys and parameters (every problem to ``bad``, located) and
returns its parameters and settings, and a ``make`` that gives the planner
(:class:`sim.search.core.Design`) of a checked :class:`~sim.search.spec.Search`. A new
design is those two functions and one entry in :data:`KINDS`; the driver, the dataset, the
journal, resume, progress and ``sim analyze`` need nothing more. Each of the three reads
its file in its module (:mod:`~sim.search.balance`) and is made whole in its answer's
(:mod:`~sim.search.balance_answer`: the planner with its progress line and answer), so
that the answer and its charts import the planner and never the other way round.

A design that reads files beside the experiment (calibrate's observed table) sets
``source``: its ``read`` then also gets the experiment file's path. ``check``, if set, gives
the design's own problems of a checked search, each located in whatever file it is in; they
are reported before the scenario is checked at the parameters' values.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sim.search import (
    balance,
    balance_answer,
    calibrate,
    calibrate_answer,
    optimize,
    optimize_answer,
)


@dataclass(frozen=True, slots=True)
class Kind:
    """A search design: its name, its own keys, its default budget, its reader and planner."""

    name: str
    keys: tuple[str, ...]
    budget: int
    read: Callable[..., tuple[list[Any], Any]]
    make: Callable[[Any], Any]
    source: bool = False
    check: Callable[[Any], list[Any]] | None = None


KINDS: dict[str, Kind] = {
    "balance": Kind("balance", balance.KEYS, balance.BUDGET, balance.read, balance_answer.make),
    "optimize": Kind(
        "optimize", optimize.KEYS, optimize.BUDGET, optimize.read, optimize_answer.make
    ),
    "calibrate": Kind(
        "calibrate",
        calibrate.KEYS,
        calibrate.BUDGET,
        calibrate.read,
        calibrate_answer.make,
        source=True,
        check=calibrate.check,
    ),
}
"""Every search design by the name an experiment file's ``design:`` gives."""
