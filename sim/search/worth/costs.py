"""A fitted worth model read as a designer reads it: points, exchange rates, even fights.

Every figure is a ratio of the model's coefficients (:mod:`sim.search.worth.fit`), with
Fieller's 95% interval:

- an item's **cost**: ``scale * w_i / w_ref`` points, the reference item costing ``scale``
  (exactly: it sets the unit, so it has no interval of its own);
- the **handicap**: ``scale * b0 / w_ref``, the points the first side is ahead with every
  item at its base (an even fight: the first side's points plus the handicap equal the
  other side's);
- an **exchange rate**: ``w_i / w_j``, how many of item ``j`` equal one of item ``i``;
- the **exchange curve** of two counted items: for each count of one, the count of the
  other that gives an even fight, every other item at its base.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from sim.search.worth.fit import Fit, Ratio, unit
from sim.search.worth.model import Space


@dataclass(frozen=True, slots=True)
class Scale:
    """The designer's unit: item ``item`` costs ``points``."""

    item: int
    points: float


def cost(f: Fit, space: Space, scale: Scale, i: int) -> Ratio:
    """Item ``i``'s cost in points (the reference item's: exact)."""
    if i == scale.item:
        return Ratio(scale.points, scale.points, scale.points)
    size = space.columns
    return f.ratio(unit(size, 1 + i), unit(size, 1 + scale.item)).times(scale.points)


def costs(f: Fit, space: Space, scale: Scale) -> list[Ratio]:
    """Every item's cost, in the order of ``space.items``."""
    return [cost(f, space, scale, i) for i in range(len(space.items))]


def handicap(f: Fit, space: Space, scale: Scale) -> Ratio:
    """The first side's handicap in points, every item at its base."""
    size = space.columns
    return f.ratio(unit(size, 0), unit(size, 1 + scale.item)).times(scale.points)


def exchange(f: Fit, i: int, j: int) -> Ratio:
    """How many of item ``j`` equal one of item ``i`` (``w_i / w_j``)."""
    size = len(f.coef)
    return f.ratio(unit(size, 1 + i), unit(size, 1 + j))


def even_count(f: Fit, space: Space, y: int, x: int, at: float) -> Ratio:
    """Item ``y``'s count that makes an even fight with ``at`` of item ``x``, others at base.

    The first side's log-odds ``b0 + s_y w_y n_y + s_x w_x at`` is zero at
    ``n_y = -(b0 + s_x w_x at) / (s_y w_y)``.
    """
    size = space.columns
    num = -(unit(size, 0) + space.items[x].sign * at * unit(size, 1 + x))
    den = space.items[y].sign * unit(size, 1 + y)
    return f.ratio(num, den)


def widest(f: Fit, space: Space, scale: Scale) -> float:
    """The widest cost or handicap interval, as a share of the larger of it and the scale.

    A cost of 40 known to +-4 is 10%; a cost of 1 known to +-1 on a scale of 10 is 10%
    too (a small cost is known well enough when it is known to a tenth of the unit). The
    reference item's own cost is exact. Inf when an interval does not close.
    """
    figures = [c for i, c in enumerate(costs(f, space, scale)) if i != scale.item]
    figures.append(handicap(f, space, scale))
    out = 0.0
    for r in figures:
        if not r.bounded or not math.isfinite(r.est):
            return math.inf
        out = max(out, r.half() / max(abs(r.est), scale.points))
    return out


def predicted(f: Fit, space: Space, comps: Any) -> np.ndarray[Any, Any]:
    """The fitted share of the first side's wins at compositions (rows of level indices)."""
    return np.asarray(1 / (1 + np.exp(-f.eta(space.rows(comps)))))


def points_of(space: Space, values: list[float], comp: tuple[int, ...]) -> tuple[float, float]:
    """The two sides' points of a composition, by item costs ``values`` (the handicap aside)."""
    counts = space.counts([comp])[0]
    first = sum(v * c for v, c, it in zip(values, counts, space.items, strict=True) if it.sign > 0)
    other = sum(v * c for v, c, it in zip(values, counts, space.items, strict=True) if it.sign < 0)
    return float(first), float(other)
