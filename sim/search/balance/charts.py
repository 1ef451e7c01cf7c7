"""A balance search's charts: the measured win rates, the fitted response and the crossing.

Drawn without pyplot (headless), in the analysis charts' colours.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from matplotlib.figure import Figure

from sim.charts import COLORS, literal
from sim.search.balance.bracket import Step
from sim.search.balance.plan import Balance
from sim.search.curve import Balanced, draw


@literal
def response(design: Balance, steps: list[tuple[Any, Step, int]]) -> Figure:
    """Each search's measured points (their intervals, 95% over its looks), fit and crossing."""
    fig = Figure(figsize=(9, 5.5), layout="constrained")
    ax = fig.add_subplot()
    s = design.s
    lo, hi = design.first.low, design.first.high
    ax.axhspan(s.share - s.tolerance, s.share + s.tolerance, color="#dddddd", zorder=0)
    ax.axhline(s.share, color="#555555", lw=1, ls="--", label=f"target {100 * s.share:.0f}%")
    for i, (g, step, _) in enumerate(steps):
        color = COLORS[i % len(COLORS)]
        name = f"{design.second_label} = {design.second.shown(g)}" if design.second else "measured"
        _points(ax, step, color, name, design.rule.z)
        _fit(ax, step, color, lo, hi, design.first.kind == "whole")
    of = "decisive battles" if s.of == "decisive" else "all battles"
    ax.set_title(f"{s.side} win rate ({of}) against {design.first_label}")
    ax.set_xlabel(design.first_label)
    ax.set_ylabel(f"{s.side} win rate")
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlim(lo - 0.03 * (hi - lo), hi + 0.03 * (hi - lo))
    ax.yaxis.set_major_formatter(lambda v, _: f"{100 * v:.0f}%")
    ax.legend(loc="best", fontsize="small")
    return fig


def _points(ax: Any, step: Step, color: str, name: str, z: float) -> None:
    """The measured values, dots sized by battles, with their intervals (quantile ``z``)."""
    pts = [p for p in step.points if p.n]
    if not pts:
        return
    x = np.array([p.x for p in pts])
    r = np.array([p.rate for p in pts])
    ci = np.array([p.wilson(z) for p in pts])
    size = np.array([p.runs for p in pts], dtype=float)
    ax.errorbar(x, r, yerr=[r - ci[:, 0], ci[:, 1] - r], fmt="none", ecolor=color, alpha=0.6, lw=1)
    ax.scatter(
        x,
        r,
        s=12 + 60 * np.sqrt(size / size.max()),
        color=color,
        zorder=3,
        label=f"{name} (size: battles)",
    )


def _fit(ax: Any, step: Step, color: str, lo: float, hi: float, whole: bool) -> None:
    fit, c = step.fit, step.crossing
    if fit is None:
        return
    xs = np.linspace(lo, hi, 300)
    if whole:  # the answer is the measured numbers either side; the curve only guided them
        ax.plot(xs, fit.share(xs), color=color, lw=1, ls="--", label="fitted response (a guide)")
    else:
        band = fit.band(xs)
        ax.fill_between(xs, band[0], band[1], color=color, alpha=0.15, lw=0)
        ax.plot(xs, fit.share(xs), color=color, lw=1.5, label="fitted response, 95% band")
    if c is None or not c.bounded or step.status not in ("answered", "search"):
        return
    ax.axvspan(c.lo, c.hi, color=color, alpha=0.12, lw=0)
    ax.axvline(c.x, color=color, lw=1, ls=":")
    ax.annotate(
        f"{c.x:.3g} [{c.lo:.3g}-{c.hi:.3g}]",
        (c.x, 0.02),
        xytext=(4, 0),
        textcoords="offset points",
        color=color,
        fontsize="small",
    )


@literal
def curve(design: Balance, steps: list[tuple[Any, Step, int]]) -> Figure:
    """The balance curve: for each value of the second parameter, the first's balance."""
    assert design.second is not None
    fig = Figure(figsize=(8, 5), layout="constrained")
    ax = fig.add_subplot()
    points = []
    for i, (_, step, _) in enumerate(steps):
        c = step.crossing
        bracket = None
        if design.first.kind == "whole" and step.bracket is not None:
            a, b = step.bracket
            bracket = (a.x, b.x)
        found = c is not None and c.bounded and step.status in ("answered", "search")
        near = step.nearest.x if step.nearest is not None else None
        points.append(
            Balanced(
                i,
                c.x if found and c is not None else None,
                c.lo if found and c is not None else None,
                c.hi if found and c is not None else None,
                bracket,
                None if found else near,
            )
        )
    draw(ax, points)
    ax.set_xticks(list(range(len(steps))), [design.second.shown(g) for g, _, _ in steps])
    ax.set_xlabel(design.second_label)
    ax.set_ylabel(f"{design.first_label} for {100 * design.s.share:.0f}%")
    ax.set_title(f"Balance curve: {design.s.side} win {100 * design.s.share:.0f}%")
    return fig
