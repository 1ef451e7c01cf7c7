"""A worth search's answer as tables and as figures for programs (``answer.json``'s data)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from sim.intervals import wilson
from sim.search.core import History
from sim.search.worth import costs as cs
from sim.search.worth.fit import Ratio
from sim.search.worth.plan import Worth
from sim.search.worth.report import Report, curve_params, shifted
from sim.search.worth.text import num, p_text, ratio_text

SHOWN = 10
"""Compositions the answer's table shows (those furthest from the fit); data has them all."""


def tables(design: Worth, r: Report) -> list[dict[str, Any]]:
    """Every table of a fitted answer, in the order printed."""
    out = [cost_table(design, r), exchange_table(design, r), additivity_table(r)]
    if r.curve:
        out.append(curve_table(design, r))
    out.append(composition_table(design, r))
    return out


def _wald(r: Report, j: int) -> str:
    assert r.fit is not None
    c, lo, hi = r.fit.wald(j)
    return f"{num(c)} [{num(lo)} to {num(hi)}]"


def cost_table(design: Worth, r: Report) -> dict[str, Any]:
    """Each item's cost and log-odds worth, and the handicap."""
    sp, sc, s = design.space, design.s.scale, design.s
    rows = []
    for i, (it, c) in enumerate(zip(sp.items, r.costs, strict=True)):
        shown = f"{num(c.est)} (the scale)" if i == sc.item else ratio_text(c)
        rows.append([it.name, it.side, shown, _wald(r, 1 + i)])
    assert r.handicap is not None
    rows.append([f"handicap ({s.first})", s.first, ratio_text(r.handicap), _wald(r, 0)])
    return {
        "title": f"Costs ({sp.items[sc.item].name} = {sc.points:g} points)",
        "headers": ["item", "side", "points [95% CI]", "worth, log-odds [95% CI]"],
        "rows": rows,
    }


def exchange_table(design: Worth, r: Report) -> dict[str, Any]:
    """Each pair once, priced in the item whose worth is the clearer of zero."""
    sp = design.space
    assert r.fit is not None
    z = np.abs(r.fit.coef[1:]) / np.maximum(r.fit.se()[1:], 1e-300)
    rows = []
    for i, j in pairs(len(sp.items), z):
        e = cs.exchange(r.fit, i, j)
        rows.append([f"1 {sp.items[i].name}", ratio_text(e, sp.items[j].name), sp.items[j].name])
    return {"title": "Exchange rates", "headers": ["one", "equals [95% CI]", "of"], "rows": rows}


def pairs(count: int, z: np.ndarray[Any, Any]) -> list[tuple[int, int]]:
    """Every pair of items, the one whose worth is clearer of zero (larger ``z``) second."""
    return [(i, j) if z[j] >= z[i] else (j, i) for i in range(count) for j in range(i + 1, count)]


def additivity_table(r: Report) -> dict[str, Any]:
    """The lack-of-fit tests and every interaction tried."""
    lack = r.lack
    assert lack is not None
    rows = [
        [
            name,
            f"{stat:.1f} on {lack.df} df",
            p_text(p),
            "-",
            "untested" if not math.isfinite(p) else ("lack of fit" if p < 0.05 else "fits"),
        ]
        for name, stat, p in (
            ("deviance (lack of fit)", lack.deviance, lack.p_deviance),
            ("Pearson chi-square", lack.pearson, lack.p_pearson),
        )
    ]
    rows += [
        [
            i.name,
            f"LR {i.statistic:.1f}",
            p_text(i.adjusted),
            ratio_text(i.points),
            "not additive" if i.clear else "within the noise",
        ]
        for i in r.interactions
    ]
    return {
        "title": "Additivity (interactions: Holm-adjusted p, size in points per unit of the other)",
        "headers": ["test", "statistic", "p", "size, points [95% CI]", "verdict"],
        "rows": rows,
    }


def composition_table(design: Worth, r: Report) -> dict[str, Any]:
    """The compositions furthest from the fit: fought, fitted, residual."""
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
    return {
        "title": f"Compositions furthest from the fit ({len(order)} of {len(comps)}; "
        "Pearson residuals)",
        "headers": [design.label(p) for p in design.params]
        + ["battles", f"{design.s.first} win [95% CI]", "fitted", "residual"],
        "rows": rows,
    }


def curve_table(design: Worth, r: Report) -> dict[str, Any]:
    """The exchange curve: each count of one item, the other's for an even fight."""
    py, px = curve_params(design)
    rows = []
    for c in r.curve:
        shown = shifted(c.value, py.low)
        outside = not py.low <= shown.est <= py.high
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


def ratio_data(r: Ratio | None) -> dict[str, float | None] | None:
    """A ratio for ``answer.json`` (an interval that does not close: nulls)."""
    if r is None:
        return None
    return {
        k: (v if math.isfinite(v) else None)
        for k, v in (("est", r.est), ("lo", r.lo), ("hi", r.hi))
    }


def data(design: Worth, history: History, r: Report, status: str) -> dict[str, Any]:
    """The answer's figures for programs."""
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
    keep = np.flatnonzero(r.tally.counted())
    out["compositions"] = [
        {
            "values": design.values_of(tuple(int(v) for v in r.tally.comps[i])),
            "battles": int(r.tally.battles[i]),
            "wins": float(r.tally.k[i]),
            "counted": float(r.tally.n[i]),
            "fitted": float(r.fit.fitted[j]) if r.fit is not None else None,
            "residual": float(r.residuals[j]) if r.fit is not None else None,
        }
        for j, i in enumerate(keep)
    ]
    if r.fit is None or r.lack is None:
        return out
    out.update(_fitted(design, r))
    if r.curve:
        py, px = curve_params(design)
        out["curve"] = {
            "balanced": design.label(py),
            "along": design.label(px),
            "points": [
                {"along": int(px.low) + c.along, **(ratio_data(shifted(c.value, py.low)) or {})}
                for c in r.curve
            ],
        }
    return out


def _fitted(design: Worth, r: Report) -> dict[str, Any]:
    """The fit's figures for programs: coefficients, costs, exchange rates, the tests."""
    sp = design.space
    assert r.fit is not None and r.lack is not None
    f, lack = r.fit, r.lack
    return dict(
        coef=[float(c) for c in f.coef],
        cov=[[float(v) for v in row] for row in f.cov],
        dispersion=f.dispersion,
        costs=[ratio_data(c) for c in r.costs],
        handicap=ratio_data(r.handicap),
        exchange=[
            {
                "one": sp.items[i].name,
                "of": sp.items[j].name,
                **(ratio_data(cs.exchange(f, i, j)) or {}),
            }
            for i in range(len(sp.items))
            for j in range(len(sp.items))
            if i != j
        ],
        lack_of_fit={
            "deviance": lack.deviance,
            "pearson": lack.pearson,
            "df": lack.df,
            "p_deviance": lack.p_deviance if math.isfinite(lack.p_deviance) else None,
            "p_pearson": lack.p_pearson if math.isfinite(lack.p_pearson) else None,
        },
        interactions=[
            {
                "term": i.name,
                "words": i.words,
                "points": ratio_data(i.points),
                "statistic": i.statistic,
                "p": i.p,
                "p_holm": i.adjusted,
                "clear": i.clear,
            }
            for i in r.interactions
        ],
        additive=not lack.fails and not any(i.clear for i in r.interactions),
    )
