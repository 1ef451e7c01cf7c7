"""A calibration's charts: the unknowns' posterior in pairs, and the predictive check.

Drawn without pyplot (headless), in the analysis charts' colours.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from matplotlib.figure import Figure

from sim.charts import COLORS, literal
from sim.search.calibrate import posterior as post
from sim.search.calibrate.plan import Calibrate


def _ticks(p: Any, values: tuple[Any, ...]) -> list[str]:
    if p.kind == "real":
        return [f"{v:.3g}" for v in values]
    return [str(p.shown(v)) for v in values]


@literal
def pairs(design: Calibrate, weights: np.ndarray[Any, Any], ivs: list[post.Interval]) -> Figure:
    """A pairwise plot: each unknown's marginal on the diagonal, each pair's joint below it.

    The marginal's bars in the 95% interval (or set) are dark; the joint is a heat map of
    the posterior mass of each pair of values.
    """
    grid = design.grid
    k = len(grid.params)
    fig = Figure(figsize=(3.6 * k + 1, 3.2 * k + 0.6), layout="constrained")
    axes = fig.subplots(k, k, squeeze=False)
    for i in range(k):
        for j in range(k):
            ax = axes[i][j]
            if j > i:
                ax.set_axis_off()
            elif j == i:
                _marginal(ax, design, weights, i, ivs[i])
            else:
                _joint(ax, design, weights, j, i)
    axes[0][0].set_title("Posterior of the unknowns (95% interval dark)", loc="left")
    return fig


def _marginal(ax: Any, design: Calibrate, weights: Any, i: int, iv: post.Interval) -> None:
    p = design.grid.params[i]
    values = design.grid.values[i]
    mass = post.marginal(design.grid, weights, i)
    x = np.arange(len(values))
    inside = [_inside(p, v, iv) for v in values]
    colors = [COLORS[0] if a else "#b8cde0" for a in inside]
    ax.bar(x, mass, color=colors)
    ax.set_xticks(x, _ticks(p, values), rotation=45 if len(values) > 10 else 0, fontsize="small")
    ax.set_xlabel(design.search.label(p.name))
    ax.set_ylabel("posterior")


def _inside(p: Any, v: Any, iv: post.Interval) -> bool:
    if p.kind in ("choices", "bundle"):
        return v in iv.chosen
    return bool(iv.lo <= v <= iv.hi)


def _joint(ax: Any, design: Calibrate, weights: Any, i: int, j: int) -> None:
    """Unknown ``i`` across, ``j`` up."""
    grid = design.grid
    joint = post.pair(grid, weights, i, j)
    pi, pj = grid.params[i], grid.params[j]
    ax.imshow(joint.T, origin="lower", aspect="auto", cmap="Blues")
    ax.set_xticks(np.arange(len(grid.values[i])), _ticks(pi, grid.values[i]), fontsize="small")
    ax.set_yticks(np.arange(len(grid.values[j])), _ticks(pj, grid.values[j]), fontsize="small")
    ax.set_xlabel(design.search.label(pi.name))
    ax.set_ylabel(design.search.label(pj.name))


@literal
def predictive(design: Calibrate, checks: list[post.Check]) -> Figure:
    """Each observed statistic (a dot) beside the fitted model's 95% predictive interval."""
    stats = list(dict.fromkeys(c.stat.name for c in checks))
    fig = Figure(figsize=(9, 2.2 + 2.4 * len(stats)), layout="constrained")
    axes = fig.subplots(len(stats), 1, squeeze=False)
    for ax, name in zip(axes[:, 0], stats, strict=True):
        mine = [c for c in checks if c.stat.name == name]
        share = mine[0].stat.kind == "share"
        u = 100.0 if share else 1.0
        x = np.arange(len(mine))
        lo = np.array([c.lo for c in mine]) * u
        hi = np.array([c.hi for c in mine]) * u
        ax.bar(x, hi - lo, bottom=lo, width=0.5, color="#c6dbef", label="model: 95% predictive")
        ax.scatter(
            x, [c.mean * u for c in mine], marker="_", s=300, color=COLORS[0], label="model mean"
        )
        colors = [COLORS[1] if c.fails else "#222222" for c in mine]
        ax.scatter(x, [c.observed * u for c in mine], color=colors, zorder=3, label="observed")
        ax.set_xticks(x, [design.labels[c.row] for c in mine])
        ax.set_ylabel(mine[0].stat.shown + (" (%)" if share else ""))
        ax.set_xlabel("observed row")
        ax.legend(loc="best", fontsize="small")
    axes[0][0].set_title(
        "Predictive check: observed (red: not reproduced) and the fitted model", loc="left"
    )
    return fig
