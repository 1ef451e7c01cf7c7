"""``design: calibrate``: the values of a scenario's unknowns that reproduce what was observed.

Its parts: :mod:`~sim.search.calibrate.read` (its keys and observed table, checked:
:mod:`~sim.search.calibrate.observed`), :mod:`~sim.search.calibrate.plan` (where it fights
next, from the posterior of :mod:`~sim.search.calibrate.posterior`),
:mod:`~sim.search.calibrate.answer` (the answer, and the design the driver runs) and
:mod:`~sim.search.calibrate.charts`; with ``method: match``, history matching's
:mod:`~sim.search.calibrate.match` (its waves, emulated by
:mod:`~sim.search.calibrate.emulate`) and :mod:`~sim.search.calibrate.match_answer`.
:data:`KIND` is its entry in the registry (:data:`sim.search.designs.KINDS`).

May import: the search frame (:mod:`sim.search.core`, ``spec``, ``space``, ``outcomes``)
and everything below ``sim.search``; no other design.
"""

from __future__ import annotations

from sim.search.calibrate import design, read
from sim.search.core import Kind

KIND = Kind(
    "calibrate",
    read.KEYS,
    read.BUDGET,
    read.read,
    design.make,
    source=True,
    check=read.check,
)
"""The design's entry in the registry."""
