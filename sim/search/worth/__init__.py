"""``design: worth``: point costs and exchange rates of an army's items, fitted from battles.

Its parts: :mod:`~sim.search.worth.read` (its keys and items, checked),
:mod:`~sim.search.worth.model` (the items and compositions, as numbers),
:mod:`~sim.search.worth.fit` (the logistic model of summed worths, its tests; pure),
:mod:`~sim.search.worth.costs` (points, the handicap, exchange rates and the exchange curve
read off a fit), :mod:`~sim.search.worth.choose` (which compositions to fight; pure),
:mod:`~sim.search.worth.plan` (the planner over the battles fought),
:mod:`~sim.search.worth.answer` (the answer, and the design the driver runs) and
:mod:`~sim.search.worth.charts`. :data:`KIND` is its entry in the registry
(:data:`sim.search.designs.KINDS`).

May import: the search frame (:mod:`sim.search.core`, ``spec``, ``space``, ``curve``) and
everything below ``sim.search``; no other design.
"""

from __future__ import annotations

from sim.search.core import Kind
from sim.search.worth import answer, read

KIND = Kind("worth", read.KEYS, read.BUDGET, read.read, answer.make)
"""The design's entry in the registry."""
