"""``design: game``: which choices dominate, and which mix of them no one can exploit.

Its parts: :mod:`~sim.search.game.read` (its keys, checked), :mod:`~sim.search.game.plan`
(where it fights next: every cell at the start, then where the answer is decided),
:mod:`~sim.search.game.answer` (the answer, and the design the driver runs) and
:mod:`~sim.search.game.charts`. The game itself is solved by the ground floor's
:mod:`sim.games` and said by :mod:`sim.gamereport`, which ``sim analyze --game`` shares.
:data:`KIND` is its entry in the registry (:data:`sim.search.designs.KINDS`).

May import: the search frame (:mod:`sim.search.core`, ``spec``, ``space``, ``outcomes``)
and everything below ``sim.search``; no other design.
"""

from __future__ import annotations

from sim.search.core import Kind
from sim.search.game import answer, read

KIND = Kind("game", read.KEYS, read.BUDGET, read.read, answer.make)
"""The design's entry in the registry."""
