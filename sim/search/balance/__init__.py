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

from typing import Any

from sim.search.balance import answer, exact, read
from sim.search.core import Kind


def make(search: Any) -> Any:
    """The balance design of ``search``: from battles, or from the exact odds."""
    if search.settings.method == "exact":
        return exact.make(search)
    return answer.make(search)


KIND = Kind("balance", read.KEYS, read.BUDGET, read.read, make)
"""The design's entry in the registry."""
