"""A worth search's answer: the points table, exchange rates, additivity, the curve.

The words say what the battles show and no more: every cost with its 95% interval on the
designer's scale, the handicap an even fight must make up, and, where additive costs fail,
that they do, with the evidence (the lack-of-fit tests, the compositions furthest from the
fit, the interactions clear of the noise). No cost is given when the reference item's
worth is not clearly different from zero (then no scale exists), and no answer when the
model cannot be fitted (the battles are separated: some item decides every fight).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from sim.intervals import wilson
from sim.search.core import Answer, History
from sim.search.spec import Search
from sim.search.worth import charts
from sim.search.worth import costs as cs
from sim.search.worth.fit import (
    Fit,
    LackOfFit,
    Ratio,
    holm,
    lack_of_fit,
    residuals,
    term_test,
    unit,
)
from sim.search.worth.plan import Tally, Worth

EXIT = {"answered": 0, "budget": 0, "unscaled": 1, "unfit": 1}
SHOWN = 10
"""Compositions the answer's table shows (those furthest from the fit); data has them all."""


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
class Report:
    """Everything the answer says, computed once from the battles."""

    tally: Tally
    fit: Fit | None
    costs: list[Ratio]
    handicap: Ratio | None
    widest: float
    lack: LackOfFit | None
    interactions: list[Interaction]
    residuals: np.ndarray[Any, Any]


def report(design: Worth, history: History) -> Report:
    """The fit and every figure read off it."""
    t = design.tally(history)
    f = design.fitted(t)
    if f is None:
        return Report(t, None, [], None, math.inf, None, [], np.zeros(0))
    sp, sc = design.space, design.s.scale
    keep = t.counted()
    return Report(
        t,
        f,
        cs.costs(f, sp, sc),
        cs.handicap(f, sp, sc),
        cs.widest(f, sp, sc),
        lack_of_fit(f),
        interactions(design, t, f),
        residuals(f, t.k[keep], t.n[keep]),
    )


def interactions(design: Worth, t: Tally, f: Fit) -> list[Interaction]:
    """Each pair of items' product, and each count's square, tested against the fit."""
    sp, sc = design.space, design.s.scale
    keep = t.counted()
    comps = t.comps[keep]
    rows, k, n = sp.rows(comps), t.k[keep], t.n[keep]
    x = sp.counts(comps)
    found: list[tuple[str, int, int, Any]] = []
    for i, j in sp.pairs():
        found.append(
            (f"{sp.items[i].name} x {sp.items[j].name}", i, j, sp.items[i].sign * x[:, i] * x[:, j])
        )
    for i, it in enumerate(sp.items):
        if it.counted and len(np.unique(x[:, i])) >= 3:
            found.append((f"{it.name} x {it.name}", i, i, it.sign * x[:, i] ** 2))
    tested = []
    for name, i, j, col in found:
        if np.ptp(col) == 0:
            continue
        term = term_test(rows, k, n, col, f)
        if term is None:
            continue
        size = term.fit.coef.shape[0]
        times = (2.0 if i == j else 1.0) * sc.points
        pts = term.fit.ratio(unit(size, size - 1), unit(size, 1 + sc.item)).times(times)
        tested.append(
            (
                name,
                _term_words(sp.items[i].name, sp.items[j].name, i == j, pts),
                pts,
                term.statistic,
                term.p,
            )
        )
    adjusted = holm([p for *_, p in tested])
    out = [
        Interaction(name, words, pts, stat, p, adj)
        for (name, words, pts, stat, p), adj in zip(tested, adjusted, strict=True)
    ]
    return out


def _term_words(a: str, b: str, square: bool, pts: Ratio) -> str:
    """What an interaction term says, in words."""
    if not square:
        return f"the worth of {a} changes by {_points(pts)} for each {b} more"
    more = "more" if pts.est >= 0 else "less"
    return f"each {a} is worth {_points(cs_abs(pts))} {more} than the one before"


def possessive(name: str) -> str:
    """``guards'``, ``north's``."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def _num(x: float) -> str:
    """A figure with three significant digits, or ``-`` when it is not finite."""
    if not math.isfinite(x):
        return "-"
    return f"{x:.3g}" if abs(x) >= 0.01 else f"{x:.2g}"


def ratio_text(r: Ratio, under: str = "the scale item") -> str:
    """``17.6 [17.2 to 18.0]``, or why its interval does not close (``under``'s worth)."""
    if not math.isfinite(r.est):
        return "-"
    if not r.bounded:
        return f"{_num(r.est)} [no interval: the worth of {under} is not clear of zero]"
    return f"{_num(r.est)} [{_num(r.lo)} to {_num(r.hi)}]"


def _points(r: Ratio) -> str:
    if not r.bounded:
        return f"{_num(r.est)} points (its interval does not close)"
    return f"{_num(r.est)} points [{_num(r.lo)} to {_num(r.hi)}]"


def _p(p: float) -> str:
    if not math.isfinite(p):
        return "-"
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}"


def status_of(design: Worth, r: Report) -> str:
    """``answered``, ``budget`` (wider than asked), ``unscaled`` or ``unfit``."""
    if r.fit is None:
        return "unfit"
    if not all(c.bounded for c in r.costs) or r.handicap is None or not r.handicap.bounded:
        return "unscaled"
    return "answered" if r.widest <= design.s.tolerance else "budget"


def _of(design: Worth) -> str:
    return "decisive battles" if design.s.of == "decisive" else "all battles (a draw half a win)"


def estimate(design: Worth, history: History) -> str:
    """One line for the progress display: the costs so far and how precise they are."""
    r = report_costs(design, history)
    if r is None:
        return f"no fit yet ({len(history.runs):,} battles)"
    f, costs, hc, widest = r
    sp, sc = design.space, design.s.scale
    shown = ", ".join(
        f"{it.name} {ratio_text(c)}"
        for i, (it, c) in enumerate(zip(sp.items, costs, strict=True))
        if i != sc.item
    )
    goal = f"goal +-{100 * design.s.tolerance:.0f}%"
    wide = f"widest +-{100 * widest:.0f}%" if math.isfinite(widest) else "an interval still open"
    unit = f"{sp.items[sc.item].name} = {sc.points:g}"
    return f"{unit}: {shown}; handicap {ratio_text(hc)}; {wide} ({goal})"


def report_costs(design: Worth, history: History) -> tuple[Fit, list[Ratio], Ratio, float] | None:
    """The costs alone (for the progress line: no interaction is fitted)."""
    f = design.fitted(design.tally(history))
    if f is None:
        return None
    sp, sc = design.space, design.s.scale
    return f, cs.costs(f, sp, sc), cs.handicap(f, sp, sc), cs.widest(f, sp, sc)


def answer(design: Worth, history: History) -> Answer:
    """The whole answer (see the module's docstring)."""
    r = report(design, history)
    status = status_of(design, r)
    sp, sc, s = design.space, design.s.scale, design.s
    ref = sp.items[sc.item].name
    head = (
        f"worth: points of {len(sp.items)} items, {ref} = {sc.points:g}, from "
        f"{possessive(s.first)} wins of {_of(design)}; {history.spent:,} battles over "
        f"{len(r.tally.comps)} compositions"
    )
    lines = [head]
    tables: list[dict[str, Any]] = []
    chart_list = []
    if r.fit is None:
        lines.append(
            "the battles cannot be fitted: some item or mix of items decides every battle "
            "fought (the counts are separated), or the compositions do not tell the items apart; "
            "widen the ranges or raise the budget."
        )
    elif status == "unscaled":
        w = r.fit.wald(1 + sc.item)
        lines.append(
            f"no points table: the worth of {ref}, the scale's unit, is not clear of zero "
            f"({_num(w[0])} log-odds [{_num(w[1])} to {_num(w[2])}]); choose another item for "
            "scale, or raise the budget."
        )
    else:
        lines += _cost_words(design, r)
        lines += _additivity_words(design, r)
        if status == "budget":
            lines.append(
                f"the budget of {design.search.budget:,} battles was spent before every cost "
                f"was known to +-{100 * s.tolerance:.0f}% (widest +-{100 * r.widest:.0f}%): the "
                "intervals above are wider than asked."
            )
        tables += [_cost_table(design, r), _exchange_table(design, r), _additivity_table(r)]
        curve = _curve(design, r)
        if curve:
            tables.append(_curve_table(design, curve))
        tables.append(_composition_table(design, r))
        chart_list = [("costs.png", charts.costs(design, r))]
        if curve:
            chart_list.append(("curve.png", charts.curve(design, r, curve)))
        chart_list.append(("fit.png", charts.fit(design, r)))
    return Answer(
        status=status,
        exit=EXIT[status],
        lines=lines,
        tables=tables,
        charts=chart_list,
        data=_data(design, history, r, status),
    )


def _cost_words(design: Worth, r: Report) -> list[str]:
    sp, sc, s = design.space, design.s.scale, design.s
    ref = sp.items[sc.item].name
    parts = [
        f"{it.name} {_points(c)}"
        for i, (it, c) in enumerate(zip(sp.items, r.costs, strict=True))
        if i != sc.item
    ]
    assert r.handicap is not None
    h = r.handicap
    ahead, behind = (s.first, s.other) if h.est >= 0 else (s.other, s.first)
    return [
        f"costs (95% intervals; {ref} {sc.points:g} points by the scale): "
        + "; ".join(parts)
        + ".",
        f"with every item at its base, {possessive(ahead)} side leads by {_points(cs_abs(h))}: "
        f"an even fight gives {behind} {_num(abs(h.est))} points more than {ahead}.",
    ]


def cs_abs(r: Ratio) -> Ratio:
    """A ratio's size: itself, or its negative (interval flipped) when below zero."""
    return r if r.est >= 0 else Ratio(-r.est, -r.hi, -r.lo)


def _additivity_words(design: Worth, r: Report) -> list[str]:
    lack = r.lack
    assert lack is not None
    clear = [i for i in r.interactions if i.clear]
    tried = len(r.interactions)
    if lack.df <= 0:
        fit_words = "the lack of fit cannot be tested (no more compositions than coefficients)"
    else:
        fit_words = (
            f"deviance {lack.deviance:.1f} on {lack.df} df ({_p(lack.p_deviance)}), Pearson "
            f"{lack.pearson:.1f} ({_p(lack.p_pearson)})"
        )
    if not lack.fails and not clear:
        return [
            f"additive costs fit the battles: {fit_words}; no interaction is clear of the noise "
            f"({tried} tried, Holm-adjusted 5%)."
        ]
    lines = []
    if lack.fails:
        worst = _worst(design, r, 1)
        lines.append(
            f"additive costs do not fit every composition: {fit_words}; furthest from the fit: "
            + "; ".join(worst)
            + " (the costs are averages over the compositions fought)."
        )
    else:
        lines.append(f"the additive model's lack of fit is not clear ({fit_words}), but:")
    for i in clear:
        lines.append(
            f"not additive: {i.words} (likelihood ratio {i.statistic:.1f}, {_p(i.adjusted)} "
            f"Holm-adjusted over {tried} terms)."
        )
    return lines


def _worst(design: Worth, r: Report, count: int) -> list[str]:
    keep = r.tally.counted()
    comps = r.tally.comps[keep]
    k, n = r.tally.k[keep], r.tally.n[keep]
    assert r.fit is not None
    order = np.argsort(-np.abs(r.residuals), kind="stable")[:count]
    return [
        f"{composition_text(design, comps[i])}, {design.s.first} won {100 * k[i] / n[i]:.1f}% "
        f"of {int(n[i])}, fitted {100 * r.fit.fitted[i]:.1f}% (residual {r.residuals[i]:+.1f})"
        for i in order
    ]


def composition_text(design: Worth, comp: Any) -> str:
    """A composition in words: each parameter's label and value."""
    vals = design.values_of(tuple(int(v) for v in comp))
    return ", ".join(f"{design.label(p)} {p.shown(vals[p.name])}" for p in design.params)


def _cost_table(design: Worth, r: Report) -> dict[str, Any]:
    sp, sc, s = design.space, design.s.scale, design.s
    rows = []
    assert r.fit is not None
    for i, (it, c) in enumerate(zip(sp.items, r.costs, strict=True)):
        w = r.fit.wald(1 + i)
        shown = f"{_num(c.est)} (the scale)" if i == sc.item else ratio_text(c)
        rows.append([it.name, it.side, shown, f"{_num(w[0])} [{_num(w[1])} to {_num(w[2])}]"])
    assert r.handicap is not None
    w = r.fit.wald(0)
    rows.append(
        [
            f"handicap ({s.first})",
            s.first,
            ratio_text(r.handicap),
            f"{_num(w[0])} [{_num(w[1])} to {_num(w[2])}]",
        ]
    )
    ref = sp.items[sc.item].name
    return {
        "title": f"Costs ({ref} = {sc.points:g} points)",
        "headers": ["item", "side", "points [95% CI]", "worth, log-odds [95% CI]"],
        "rows": rows,
    }


def _exchange_table(design: Worth, r: Report) -> dict[str, Any]:
    """Each pair once, priced in the item whose worth is the clearer of zero."""
    sp = design.space
    assert r.fit is not None
    t = np.abs(r.fit.coef[1:]) / np.maximum(r.fit.se()[1:], 1e-300)
    rows = []
    for i, j in _pairs(len(sp.items), t):
        e = cs.exchange(r.fit, i, j)
        rows.append([f"1 {sp.items[i].name}", ratio_text(e, sp.items[j].name), sp.items[j].name])
    return {"title": "Exchange rates", "headers": ["one", "equals [95% CI]", "of"], "rows": rows}


def _pairs(count: int, t: np.ndarray[Any, Any]) -> list[tuple[int, int]]:
    """Every pair of items, the one with the clearer worth (larger |z|) second."""
    out = []
    for i in range(count):
        for j in range(i + 1, count):
            out.append((i, j) if t[j] >= t[i] else (j, i))
    return out


def _additivity_table(r: Report) -> dict[str, Any]:
    lack = r.lack
    assert lack is not None
    rows = [
        [
            "deviance (lack of fit)",
            f"{lack.deviance:.1f} on {lack.df} df",
            _p(lack.p_deviance),
            "-",
            _verdict(lack.p_deviance),
        ],
        [
            "Pearson chi-square",
            f"{lack.pearson:.1f} on {lack.df} df",
            _p(lack.p_pearson),
            "-",
            _verdict(lack.p_pearson),
        ],
    ]
    for i in r.interactions:
        rows.append(
            [
                i.name,
                f"LR {i.statistic:.1f}",
                _p(i.adjusted),
                ratio_text(i.points),
                "not additive" if i.clear else "within the noise",
            ]
        )
    return {
        "title": "Additivity (interactions: Holm-adjusted p, size in points per unit of the other)",
        "headers": ["test", "statistic", "p", "size, points [95% CI]", "verdict"],
        "rows": rows,
    }


def _verdict(p: float) -> str:
    if not math.isfinite(p):
        return "untested"
    return "lack of fit" if p < 0.05 else "fits"


def _composition_table(design: Worth, r: Report) -> dict[str, Any]:
    keep = r.tally.counted()
    comps = r.tally.comps[keep]
    k, n, battles = r.tally.k[keep], r.tally.n[keep], r.tally.battles[keep]
    assert r.fit is not None
    order = np.argsort(-np.abs(r.residuals), kind="stable")[:SHOWN]
    rows = []
    for i in order:
        vals = design.values_of(tuple(int(v) for v in comps[i]))
        _, lo, hi = wilson(k[i], n[i])
        rows.append(
            [p.shown(vals[p.name]) for p in design.params]
            + [
                str(int(battles[i])),
                f"{100 * k[i] / n[i]:.1f}% [{100 * lo:.1f}-{100 * hi:.1f}]",
                f"{100 * r.fit.fitted[i]:.1f}%",
                f"{r.residuals[i]:+.1f}",
            ]
        )
    shown = min(SHOWN, len(order))
    return {
        "title": f"Compositions furthest from the fit ({shown} of {len(comps)}; Pearson residuals)",
        "headers": [design.label(p) for p in design.params]
        + ["battles", f"{design.s.first} win [95% CI]", "fitted", "residual"],
        "rows": rows,
    }


@dataclass(frozen=True, slots=True)
class CurvePoint:
    """One count of the curve's second item and the first's count for an even fight."""

    along: int
    value: Ratio


def _curve(design: Worth, r: Report) -> list[CurvePoint]:
    if design.s.curve is None or r.fit is None:
        return []
    y, x = design.s.curve
    levels = design.space.levels[design.space.items[x].param]
    return [CurvePoint(c, cs.even_count(r.fit, design.space, y, x, c)) for c in range(levels)]


def curve_values(design: Worth) -> tuple[Any, Any]:
    """The curve's two parameters (balanced, along)."""
    assert design.s.curve is not None
    y, x = design.s.curve
    return design.params[design.space.items[y].param], design.params[design.space.items[x].param]


def _curve_table(design: Worth, curve: list[CurvePoint]) -> dict[str, Any]:
    py, px = curve_values(design)
    rows = []
    for c in curve:
        v = c.value
        shift = py.low
        shown = Ratio(v.est + shift, v.lo + shift, v.hi + shift)
        outside = not (py.low <= shown.est <= py.high)
        rows.append(
            [
                str(int(px.low) + c.along),
                ratio_text(shown) + (" (beyond the range fought)" if outside else ""),
            ]
        )
    return {
        "title": f"Exchange curve: {design.label(py)} for an even fight, by {design.label(px)} "
        "(other items at their base)",
        "headers": [design.label(px), f"{design.label(py)} [95% CI]"],
        "rows": rows,
    }


def _ratio_data(r: Ratio | None) -> dict[str, float | None] | None:
    if r is None:
        return None

    def num(v: float) -> float | None:
        return v if math.isfinite(v) else None

    return {"est": num(r.est), "lo": num(r.lo), "hi": num(r.hi)}


def _data(design: Worth, history: History, r: Report, status: str) -> dict[str, Any]:
    sp, sc, s = design.space, design.s.scale, design.s
    out: dict[str, Any] = {
        "status": status,
        "first": s.first,
        "other": s.other,
        "of": s.of,
        "scale": {"item": sp.items[sc.item].name, "points": sc.points},
        "tolerance": s.tolerance,
        "battles": history.spent,
        "widest": r.widest if math.isfinite(r.widest) else None,
        "items": [
            {
                "name": it.name,
                "side": it.side,
                "parameter": design.params[it.param].name,
                "level": it.level,
                "counted": it.counted,
            }
            for it in sp.items
        ],
    }
    keep = r.tally.counted()
    comps = []
    for j, i in enumerate(np.flatnonzero(keep)):
        comps.append(
            {
                "values": design.values_of(tuple(int(v) for v in r.tally.comps[i])),
                "battles": int(r.tally.battles[i]),
                "wins": float(r.tally.k[i]),
                "counted": float(r.tally.n[i]),
                "fitted": float(r.fit.fitted[j]) if r.fit is not None else None,
                "residual": float(r.residuals[j]) if r.fit is not None else None,
            }
        )
    out["compositions"] = comps
    if r.fit is None:
        return out
    out["coef"] = [float(c) for c in r.fit.coef]
    out["cov"] = [[float(v) for v in row] for row in r.fit.cov]
    out["dispersion"] = r.fit.dispersion
    out["costs"] = [_ratio_data(c) for c in r.costs]
    out["handicap"] = _ratio_data(r.handicap)
    out["exchange"] = [
        {
            "one": sp.items[i].name,
            "of": sp.items[j].name,
            **(_ratio_data(cs.exchange(r.fit, i, j)) or {}),
        }
        for i in range(len(sp.items))
        for j in range(len(sp.items))
        if i != j
    ]
    lack = r.lack
    assert lack is not None
    out["lack_of_fit"] = {
        "deviance": lack.deviance,
        "pearson": lack.pearson,
        "df": lack.df,
        "p_deviance": lack.p_deviance if math.isfinite(lack.p_deviance) else None,
        "p_pearson": lack.p_pearson if math.isfinite(lack.p_pearson) else None,
    }
    out["interactions"] = [
        {
            "term": i.name,
            "words": i.words,
            "points": _ratio_data(i.points),
            "statistic": i.statistic,
            "p": i.p,
            "p_holm": i.adjusted,
            "clear": i.clear,
        }
        for i in r.interactions
    ]
    out["additive"] = not lack.fails and not any(i.clear for i in r.interactions)
    curve = _curve(design, r)
    if curve:
        py, px = curve_values(design)
        out["curve"] = {
            "balanced": design.label(py),
            "along": design.label(px),
            "points": [
                {
                    "along": int(px.low) + c.along,
                    **(
                        _ratio_data(
                            Ratio(c.value.est + py.low, c.value.lo + py.low, c.value.hi + py.low)
                        )
                        or {}
                    ),
                }
                for c in curve
            ],
        }
    return out


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
