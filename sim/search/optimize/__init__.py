"""``design: optimize``: the values of several parameters that are best for a side.

Its parts: :mod:`~sim.search.optimize.read` (its keys and objectives, checked),
:mod:`~sim.search.optimize.plan` (the trials Optuna asks for, kept in
:mod:`~sim.search.optimize.study`, then the confirmation), :mod:`~sim.search.optimize.answer`
(the answer, and the design the driver runs) and :mod:`~sim.search.optimize.charts`.
:data:`KIND` is its entry in the registry (:data:`sim.search.designs.KINDS`).

May import: the search frame (:mod:`sim.search.core`, ``spec``, ``space``, ``outcomes``)
and everything below ``sim.search``; no other design.
"""

from __future__ import annotations

from sim.search.core import Kind
from sim.search.optimize import answer, read

KIND = Kind("optimize", read.KEYS, read.BUDGET, read.read, answer.make)
"""The design's entry in the registry."""
