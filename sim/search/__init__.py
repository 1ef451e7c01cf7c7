"""Searches: ask the question directly, and the battles go where they answer it.

A sweep (:mod:`sim.experiment`) fights a fixed design; a search decides as it goes. Two
designs, named by an experiment file's ``design:``:

- ``balance`` (:mod:`sim.search.balance`): the value of one parameter at which a side wins
  a target share (a fair fight), with its 95% interval; optionally along a second
  parameter, the balance curve;
- ``optimize`` (:mod:`sim.search.optimize`): the values of several parameters that are
  best for a side (Optuna), the best checked again against the runner-up with shared
  seeds; with two objectives, the Pareto front.

Both run through the same frame: :mod:`~sim.search.spec` reads and checks the file,
:mod:`~sim.search.driver` runs the batches a design plans (:mod:`~sim.search.core`)
through the experiment runner's pool into a dataset, :mod:`~sim.search.journal` keeps the
journal a resume follows and the answer ``sim analyze`` prints again. A new design plugs in
through :mod:`~sim.search.designs`.

May import: ``sim.experiment``, ``sim.analysis`` and everything below them; nothing
below imports it (only the command line, above it).
"""

from sim.search.driver import SearchResult, run_search
from sim.search.spec import Search, is_search, load_search, parse_search

__all__ = ["Search", "SearchResult", "is_search", "load_search", "parse_search", "run_search"]
