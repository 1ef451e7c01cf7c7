"""``design: balance``: the value of a parameter at which a side wins a target share.

Its parts: :mod:`~sim.search.balance.read` (its keys, checked),
:mod:`~sim.search.balance.plan` (where it fights next: :mod:`~sim.search.balance.bracket`,
with the fitted response of :mod:`~sim.search.balance.glm`),
:mod:`~sim.search.balance.answer` (the answer, and the design the driver runs) and
:mod:`~sim.search.balance.charts`; with ``method: exact``, :mod:`~sim.search.balance.exact`
(the crossing from the exact odds, no battle fought).
:data:`KIND` is its entry in the registry (:data:`sim.search.designs.KINDS`).

May import: the search frame (:mod:`sim.search.core`, ``spec``, ``space``, ``outcomes``)
and everything below ``sim.search``; no other design.
"""

from __future__ import annotations

from sim.search.balance import design, read
from sim.search.core import Kind

KIND = Kind("balance", read.KEYS, read.BUDGET, read.read, design.make)
"""The design's entry in the registry."""
