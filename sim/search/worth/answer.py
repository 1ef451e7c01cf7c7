"""A worth search's answer: the points table, exchange rates, additivity, the curve.

The words say what the battles show and no more: every cost with its 95% interval on the
designer's scale, the handicap an even fight must make up, and, where additive costs fail,
that they do, with the evidence (the lack-of-fit tests, the composition furthest from the
fit, the interactions clear of the noise). No cost is given when the reference item's
worth is not clearly different from zero (then no scale exists), and no answer when the
model cannot be fitted (the battles are separated: some item decides every fight). The
findings are computed once (:mod:`sim.search.worth.report`), then written as words here,
as tables and data (:mod:`sim.search.worth.tables`) and as charts
(:mod:`sim.search.worth.charts`).
"""

from __future__ import annotations

import math

import numpy as np

from sim.search.core import Answer, History
from sim.search.spec import Search
from sim.search.worth import charts
from sim.search.worth import costs as cs
from sim.search.worth.plan import Worth
from sim.search.worth.report import Report, report, status_of
from sim.search.worth.tables import data, tables
from sim.search.worth.text import composition_text, num, p_text, points_text, possessive, size

EXIT = {"answered": 0, "budget": 0, "unscaled": 1, "unfit": 1}


def _of(design: Worth) -> str:
    return "decisive battles" if design.s.of == "decisive" else "all battles (a draw half a win)"


def estimate(design: Worth, history: History) -> str:
    """One line for the progress display: the costs so far and how precise they are."""
    f = design.fitted(design.tally(history))
    if f is None:
        return f"no fit yet ({len(history.runs):,} battles)"
    sp, sc = design.space, design.s.scale
    costs = cs.costs(f, sp, sc)
    shown = ", ".join(
        f"{it.name} {points_text(c).removesuffix(' points')}"
        for i, (it, c) in enumerate(zip(sp.items, costs, strict=True))
        if i != sc.item
    )
    widest = cs.widest(f, sp, sc)
    goal = f"goal +-{100 * design.s.tolerance:.0f}%"
    wide = f"widest +-{100 * widest:.0f}%" if math.isfinite(widest) else "an interval still open"
    unit = f"{sp.items[sc.item].name} = {sc.points:g}"
    return f"{unit}: {shown}; handicap {num(cs.handicap(f, sp, sc).est)}; {wide} ({goal})"


def answer(design: Worth, history: History) -> Answer:
    """The whole answer (see the module's docstring)."""
    r = report(design, history)
    status = status_of(design, r)
    sp, sc, s = design.space, design.s.scale, design.s
    ref = sp.items[sc.item].name
    lines = [
        f"worth: points of {len(sp.items)} items, {ref} = {sc.points:g}, from "
        f"{possessive(s.first)} wins of {_of(design)}; {history.spent:,} battles over "
        f"{len(r.tally.comps)} compositions"
    ]
    chart_list = []
    if r.fit is None:
        lines.append(
            "the battles cannot be fitted: some item or mix of items decides every battle "
            "fought (the counts are separated), or the compositions do not tell the items "
            "apart; widen the ranges or raise the budget."
        )
    elif status == "unscaled":
        w = r.fit.wald(1 + sc.item)
        lines.append(
            f"no points table: the worth of {ref}, the scale's unit, is not clear of zero "
            f"({num(w[0])} log-odds [{num(w[1])} to {num(w[2])}]); choose another item for "
            "the scale, or raise the budget."
        )
    else:
        lines += _cost_words(design, r) + _additivity_words(design, r)
        if status == "budget":
            lines.append(
                f"the budget of {design.search.budget:,} battles was spent before every cost "
                f"was known to +-{100 * s.tolerance:.0f}% (widest +-{100 * r.widest:.0f}%): the "
                "intervals above are wider than asked."
            )
        chart_list = [("costs.png", charts.costs(design, r))]
        if r.curve:
            chart_list.append(("curve.png", charts.curve(design, r)))
        chart_list.append(("fit.png", charts.fit(design, r)))
    fitted = r.fit is not None and status != "unscaled"
    return Answer(
        status=status,
        exit=EXIT[status],
        lines=lines,
        tables=tables(design, r) if fitted else [],
        charts=chart_list,
        data=data(design, history, r, status),
    )


def _cost_words(design: Worth, r: Report) -> list[str]:
    sp, sc, s = design.space, design.s.scale, design.s
    parts = [
        f"{it.name} {points_text(c)}"
        for i, (it, c) in enumerate(zip(sp.items, r.costs, strict=True))
        if i != sc.item
    ]
    assert r.handicap is not None
    h = r.handicap
    ahead, behind = (s.first, s.other) if h.est >= 0 else (s.other, s.first)
    return [
        f"costs (95% intervals; {sp.items[sc.item].name} {sc.points:g} points by the scale): "
        + "; ".join(parts)
        + ".",
        f"at the base ({composition_text(design, [0] * len(design.params))}) "
        f"{possessive(ahead)} side leads by {points_text(size(h))}: a fight is even when "
        f"{behind} field {num(abs(h.est))} points more than {ahead}, each side's items "
        "counted above the base.",
    ]


def _additivity_words(design: Worth, r: Report) -> list[str]:
    lack = r.lack
    assert lack is not None
    clear = [i for i in r.interactions if i.clear]
    tried = len(r.interactions)
    if lack.df <= 0:
        fit_words = "the lack of fit cannot be tested (no more compositions than coefficients)"
    else:
        fit_words = (
            f"deviance {lack.deviance:.1f} on {lack.df} df ({p_text(lack.p_deviance)}), "
            f"Pearson {lack.pearson:.1f} ({p_text(lack.p_pearson)})"
        )
    if not lack.fails and not clear:
        return [
            f"additive costs fit the battles: {fit_words}; no interaction is clear of the noise "
            f"({tried} tried, Holm-adjusted 5%)."
        ]
    if lack.fails:
        lines = [
            f"additive costs do not fit every composition: {fit_words}; furthest from the fit: "
            f"{_worst(design, r)} (the costs are averages over the compositions fought)."
        ]
    else:
        lines = [f"the additive model's lack of fit is not clear ({fit_words}), but:"]
    lines += [
        f"not additive: {i.words} (likelihood ratio {i.statistic:.1f}, {p_text(i.adjusted)} "
        f"Holm-adjusted over {tried} terms)."
        for i in clear
    ]
    return lines


def _worst(design: Worth, r: Report) -> str:
    """The composition furthest from the fit, in words."""
    keep = r.tally.counted()
    comps, k, n = r.tally.comps[keep], r.tally.k[keep], r.tally.n[keep]
    assert r.fit is not None
    i = int(np.argmax(np.abs(r.residuals)))
    return (
        f"{composition_text(design, comps[i])}, {design.s.first} won {100 * k[i] / n[i]:.1f}% "
        f"of {int(n[i])}, fitted {100 * r.fit.fitted[i]:.1f}% (residual {r.residuals[i]:+.1f})"
    )


class WorthDesign(Worth):
    """The worth design the driver runs (:class:`sim.search.core.Design`)."""

    def progress(self, history: History) -> str:
        """The costs so far."""
        return estimate(self, history)

    def answer(self, history: History) -> Answer:
        """The answer (:func:`answer`)."""
        return answer(self, history)


def make(search: Search) -> WorthDesign:
    """The worth design of ``search``."""
    return WorthDesign(search)
