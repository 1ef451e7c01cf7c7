"""Searches: ask the question directly, and the battles go where they answer it.

A sweep (:mod:`sim.experiment`) fights a fixed design; a search decides as it goes. The
designs, named by an experiment file's ``design:``:

- ``balance`` (:mod:`sim.search.balance`): the value of one parameter at which a side wins
  a target share (a fair fight), with its 95% interval; optionally along a second
  parameter, the balance curve;
- ``optimize`` (:mod:`sim.search.optimize`): the values of several parameters that are
  best for a side (Optuna), the best checked again against the runner-up with shared
  seeds; with two objectives, the Pareto front;
- ``calibrate`` (:mod:`sim.search.calibrate`): the scenario's unknowns fitted to a table
  of observed outcomes, each with its 95% interval, and the predictive check;
- ``worth`` (:mod:`sim.search.worth`): point costs of an army's items fitted from the
  battles of near-even compositions, exchange rates, the exchange curve, and where additive
  costs fail.

All run through the same frame: :mod:`~sim.search.load` reads and checks the file
(:mod:`~sim.search.spec`), :mod:`~sim.search.driver` runs the batches a design plans
(:mod:`~sim.search.core`) through the experiment runner's pool into a dataset,
:mod:`~sim.search.journal` keeps the journal a resume follows and writes the answer
(``search/answer.json`` and its charts), which ``sim analyze`` and the HTML report read
from the folder without importing this package; :mod:`~sim.search.curve` draws a balance
curve as every design that has one does. A new design plugs in through
:mod:`~sim.search.designs`.

May import: ``sim.experiment``, ``sim.run``, ``sim.dataset``, ``sim.scenario`` and
everything below them (the ground floor's ``sim.intervals`` and ``sim.charts`` too);
nothing of the analysis above it, which reads its answer as a file.
"""

from __future__ import annotations

from typing import Any

__all__ = ["Search", "SearchResult", "is_search", "load_search", "parse_search", "run_search"]


def __getattr__(name: str) -> Any:
    """The package's names, imported when first asked for (PEP 562).

    A pool worker that unpickles a batch (:mod:`sim.search.batch`) imports the package; it
    needs none of the driver, the designs or their charts (a second of imports).
    """
    if name == "Search":
        from sim.search.spec import Search

        return Search
    if name in ("SearchResult", "run_search"):
        from sim.search import driver

        return getattr(driver, name)
    if name in ("is_search", "load_search", "parse_search"):
        from sim.search import load

        return getattr(load, name)
    raise AttributeError(f"module 'sim.search' has no attribute {name!r}")
