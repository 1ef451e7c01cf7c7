"""A worth search's charts: the costs, the exchange curve, and the fit against the battles.

Drawn without pyplot (headless), in the analysis charts' colours; the exchange curve is
drawn as every balance curve is (:mod:`sim.search.curve`), with the fitted band between.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from matplotlib.figure import Figure

from sim.charts import COLORS, literal
from sim.intervals import wilson
from sim.search.curve import Balanced, draw
from sim.search.worth import costs as cs

if TYPE_CHECKING:
    from sim.search.worth.plan import Worth
    from sim.search.worth.report import Report


@literal
def costs(design: Worth, r: Report) -> Figure:
    """Every item's cost with its 95% interval, and the handicap."""
    sp, sc = design.space, design.s.scale
    names = [it.name for it in sp.items] + [f"handicap ({design.s.first})"]
    figures = [*r.costs, r.handicap]
    fig = Figure(figsize=(8, 1.2 + 0.45 * len(names)), layout="constrained")
    ax = fig.add_subplot()
    for row, c in enumerate(figures):
        if c is None:
            continue
        color = COLORS[1] if row == len(names) - 1 else COLORS[0]
        if row == sc.item:
            ax.scatter([c.est], [row], marker="D", color=COLORS[2], zorder=3, label="the scale")
        elif c.bounded:
            ax.errorbar(
                [c.est],
                [row],
                xerr=[[c.est - c.lo], [c.hi - c.est]],
                fmt="o",
                color=color,
                capsize=4,
            )
        else:
            ax.scatter([c.est], [row], marker="x", color=color, zorder=3)
    ax.axvline(0, color="#888888", lw=1)
    ax.set_yticks(list(range(len(names))), names)
    ax.invert_yaxis()
    ax.set_xlabel("points")
    ax.set_title(f"Costs ({sp.items[sc.item].name} = {sc.points:g} points), 95% intervals")
    return fig


@literal
def curve(design: Worth, r: Report) -> Figure:
    """The exchange curve: the balanced item's count for an even fight, by the other's."""
    from sim.search.worth.report import curve_params

    assert design.s.curve is not None and r.fit is not None
    y, x = design.s.curve
    py, px = curve_params(design)
    fig = Figure(figsize=(8, 5), layout="constrained")
    ax = fig.add_subplot()
    fine = np.linspace(0, px.high - px.low, 200)
    band = [cs.even_count(r.fit, design.space, y, x, float(c)) for c in fine]
    mid = np.array([b.est for b in band]) + py.low
    lo = np.array([b.lo for b in band]) + py.low
    hi = np.array([b.hi for b in band]) + py.low
    ax.fill_between(fine + px.low, lo, hi, color=COLORS[0], alpha=0.15, lw=0, label="95% band")
    ax.plot(fine + px.low, mid, color=COLORS[0], lw=1.5, label="fitted: an even fight")
    draw(
        ax,
        [
            Balanced(
                px.low + c.along, c.value.est + py.low, c.value.lo + py.low, c.value.hi + py.low
            )
            if c.value.bounded
            else Balanced(px.low + c.along)
            for c in r.curve
        ],
    )
    _measured(ax, design, r, y, x)
    ax.set_ylim(py.low - 0.5, py.high + 0.5)
    ax.set_xticks(list(range(int(px.low), int(px.high) + 1)))
    ax.set_xlabel(design.label(px))
    ax.set_ylabel(f"{design.label(py)} for an even fight")
    ax.set_title(
        f"Exchange curve: {design.label(py)} against {design.label(px)}, other items at base"
    )
    ax.legend(loc="best", fontsize="small")
    return fig


def _measured(ax: Any, design: Worth, r: Report, y: int, x: int) -> None:
    """The compositions fought with every other parameter at its base, by their win share."""
    sp = design.space
    params = {sp.items[y].param, sp.items[x].param}
    keep = r.tally.counted()
    comps, k, n = r.tally.comps[keep], r.tally.k[keep], r.tally.n[keep]
    others = [i for i in range(len(sp.levels)) if i not in params]
    mine = np.all(comps[:, others] == 0, axis=1) if others else np.ones(len(comps), dtype=bool)
    if not mine.any():
        return
    py, px = design.params[sp.items[y].param], design.params[sp.items[x].param]
    share = k[mine] / n[mine]
    size = n[mine] / n[mine].max()
    dots = ax.scatter(
        comps[mine, sp.items[x].param] + px.low,
        comps[mine, sp.items[y].param] + py.low,
        c=share,
        cmap="PuOr",
        vmin=0,
        vmax=1,
        s=15 + 80 * np.sqrt(size),
        edgecolors="#333333",
        linewidths=0.5,
        zorder=4,
        label=f"fought ({design.s.first} win share)",
    )
    ax.figure.colorbar(dots, ax=ax, label=f"{design.s.first} win share, fought")


@literal
def fit(design: Worth, r: Report) -> Figure:
    """Each composition's win share, fought against fitted: additive costs fit on the line."""
    keep = r.tally.counted()
    k, n = r.tally.k[keep], r.tally.n[keep]
    assert r.fit is not None
    fig = Figure(figsize=(6.5, 6), layout="constrained")
    ax = fig.add_subplot()
    ax.plot([0, 1], [0, 1], color="#555555", lw=1, ls="--", label="fitted = fought")
    share, lo, hi = wilson(k, n)
    ax.errorbar(
        r.fit.fitted,
        share,
        yerr=[share - lo, hi - share],
        fmt="none",
        ecolor=COLORS[0],
        alpha=0.5,
        lw=1,
    )
    ax.scatter(
        r.fit.fitted, share, s=10 + 50 * np.sqrt(n / n.max()), color=COLORS[0], zorder=3,
        label="a composition (size: battles; 95% Wilson)",
    )  # fmt: skip
    ax.set_xlim(-0.02, 1.02)
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel(f"{design.s.first} win share, fitted (additive costs)")
    ax.set_ylabel(f"{design.s.first} win share, fought")
    ax.set_title("Fitted against fought, by composition")
    ax.legend(loc="upper left", fontsize="small")
    return fig
