"""A worth search's findings, computed once from its battles: the fit and what it says.

:func:`report` fits the model to every composition fought (:mod:`sim.search.worth.fit`)
and reads off it the costs, the handicap, how precise they are, the lack of fit, each
composition's residual, the exchange curve and every interaction term's test (a product
of two items, or a count's square, added to the additive model, forward as Holm's
procedure steps down: :func:`interactions`). The answer's words, tables, data and charts
are all made from one :class:`Report`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from sim.search.core import History
from sim.search.space import Param
from sim.search.worth import costs as cs
from sim.search.worth.fit import (
    Fit,
    LackOfFit,
    Ratio,
    lack_of_fit,
    residuals,
    term_test,
    unit,
)
from sim.search.worth.model import Space
from sim.search.worth.plan import Tally, Worth
from sim.search.worth.text import points_text, size


@dataclass(frozen=True, slots=True)
class Interaction:
    """A term added to the additive model: what it means, its size in points, its test."""

    name: str
    words: str
    points: Ratio
    statistic: float
    p: float
    adjusted: float

    @property
    def clear(self) -> bool:
        """Whether it is clear of the noise (Holm-adjusted p below 5%)."""
        return self.adjusted < 0.05


@dataclass(frozen=True, slots=True)
class CurvePoint:
    """One count of the curve's second item and the first's count for an even fight."""

    along: int
    value: Ratio


@dataclass(frozen=True, slots=True)
class Report:
    """Everything the answer says, computed once from the battles.

    ``residuals`` are the counted compositions' (``tally.counted()``), in their order.
    """

    tally: Tally
    fit: Fit | None
    costs: list[Ratio] = field(default_factory=list)
    handicap: Ratio | None = None
    widest: float = math.inf
    lack: LackOfFit | None = None
    interactions: list[Interaction] = field(default_factory=list)
    residuals: np.ndarray[Any, Any] = field(default_factory=lambda: np.zeros(0))
    curve: list[CurvePoint] = field(default_factory=list)


def report(design: Worth, history: History) -> Report:
    """The fit and every figure read off it."""
    t = design.tally(history)
    f = design.fitted(t)
    if f is None:
        return Report(t, None)
    sp, sc = design.space, design.s.scale
    keep = t.counted()
    return Report(
        t,
        f,
        cs.costs(f, sp, sc),
        cs.handicap(f, sp, sc),
        cs.widest(f, sp, sc),
        lack_of_fit(f),
        interactions(sp, sc, t.comps[keep], t.k[keep], t.n[keep], f),
        residuals(f, t.k[keep], t.n[keep]),
        curve(design, f),
    )


def status_of(design: Worth, r: Report) -> str:
    """``answered``, ``budget`` (wider than asked), ``unscaled`` or ``unfit``."""
    if r.fit is None:
        return "unfit"
    if not all(c.bounded for c in r.costs) or r.handicap is None or not r.handicap.bounded:
        return "unscaled"
    return "answered" if r.widest <= design.s.tolerance else "budget"


def interactions(
    sp: Space, sc: cs.Scale, comps: np.ndarray[Any, Any], k: Any, n: Any, f: Fit
) -> list[Interaction]:
    """Each pair of items' product, and each count's square, tested against the fit ``f``.

    ``comps`` are the compositions fitted (every one counted), ``k`` and ``n`` their counts.
    A pair's term is ``s_a x_a x_b`` (its coefficient: the change in ``a``'s worth for each
    ``b`` more); a count's is ``s_a x_a^2`` (twice its coefficient: how much more each one
    is worth than the one before). Terms that never vary, or that the compositions cannot
    tell from the others, are not tried.

    Forward, as Holm's procedure steps down: every term left is tested against the model
    with the terms found so far, and the clearest is found when its p-value times the
    number of terms left is below 5% (its adjusted p, never below an earlier one's); then
    the others are tested again with it in the model, so that one real interaction is not
    reported again through the terms correlated with it. The terms not found keep their
    last test.
    """
    x = sp.counts(comps)
    terms: list[tuple[int, int, Any]] = [
        (i, j, sp.items[i].sign * x[:, i] * x[:, j]) for i, j in sp.pairs()
    ]
    terms += [
        (i, i, it.sign * x[:, i] ** 2)
        for i, it in enumerate(sp.items)
        if it.counted and len(np.unique(x[:, i])) >= 3
    ]
    left = [t for t in terms if np.ptp(t[2]) > 0]
    rows, base = sp.rows(comps), f
    out: list[Interaction] = []
    floor = 0.0
    while left:
        tests = [(t, term_test(rows, k, n, t[2], base)) for t in left]
        tried = [(t, term) for t, term in tests if term is not None]
        if not tried:
            break
        found = [_interaction(sp, sc, t, term, len(tried), floor) for t, term in tried]
        best = int(np.argmin([term.p for _, term in tried]))
        if not found[best].clear:
            out += found
            break
        out.append(found[best])
        floor = found[best].adjusted
        rows = np.column_stack([rows, tried[best][0][2]])
        base = tried[best][1].fit
        left = [t for t, _ in tried if t is not tried[best][0]]
    return out


def _interaction(
    sp: Space, sc: cs.Scale, t: tuple[int, int, Any], term: Any, left: int, floor: float
) -> Interaction:
    i, j, _ = t
    width = term.fit.coef.shape[0]
    times = (2.0 if i == j else 1.0) * sc.points
    pts = term.fit.ratio(unit(width, width - 1), unit(width, 1 + sc.item)).times(times)
    a, b = sp.items[i].name, sp.items[j].name
    adjusted = max(floor, min(1.0, term.p * left))
    return Interaction(
        f"{a} x {b}", _words(a, b, i == j, pts), pts, term.statistic, term.p, adjusted
    )


def _words(a: str, b: str, square: bool, pts: Ratio) -> str:
    """What an interaction term says, in words."""
    if not square:
        return f"the worth of {a} changes by {points_text(pts)} for each {b} more"
    more = "more" if pts.est >= 0 else "less"
    return f"each {a} is worth {points_text(size(pts))} {more} than the one before"


def curve(design: Worth, f: Fit) -> list[CurvePoint]:
    """The exchange curve at every count of its second item (none if not asked)."""
    if design.s.curve is None:
        return []
    y, x = design.s.curve
    levels = design.space.levels[design.space.items[x].param]
    return [CurvePoint(c, cs.even_count(f, design.space, y, x, c)) for c in range(levels)]


def curve_params(design: Worth) -> tuple[Param, Param]:
    """The curve's two parameters: the one balanced, the one along the axis."""
    assert design.s.curve is not None
    y, x = design.s.curve
    return design.params[design.space.items[y].param], design.params[design.space.items[x].param]


def shifted(r: Ratio, by: float) -> Ratio:
    """A count as its parameter's value (``by``: the range's low end)."""
    return Ratio(r.est + by, r.lo + by, r.hi + by)
