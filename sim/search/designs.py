"""The registry: the search designs a file may name, by the name ``design:`` gives.

Each design is a package of its own beside the frame (:mod:`sim.search.balance`,
:mod:`sim.search.optimize`, :mod:`sim.search.calibrate`): its reader (``read``: its keys,
checked), its planner (``plan``: where it fights next), its answer (``answer``: the answer in
words, tables and figures, and the design the driver runs) and its charts (``charts``), and
its registry entry, a :class:`~sim.search.core.Kind` named ``KIND`` in the package. A new
design is one package and one line here; the driver, the dataset, the journal, resume,
progress and ``sim analyze`` need nothing more, and ``tests/search/test_contract.py`` holds
every design to the same contract.
"""

from __future__ import annotations

from sim.search import balance, calibrate, game, optimize, worth
from sim.search.core import Kind

KINDS: dict[str, Kind] = {
    k.name: k for k in (balance.KIND, optimize.KIND, calibrate.KIND, game.KIND, worth.KIND)
}
"""Every search design by the name an experiment file's ``design:`` gives."""
