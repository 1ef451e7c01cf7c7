"""An optimize search's charts: its history, the confirmed ranking, the Pareto front."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from sim.charts import COLORS, literal
from sim.search.core import History
from sim.search.optimize.plan import Optimize, scores
from sim.search.optimize.plan import front as pareto


def _scale(design: Optimize, i: int) -> float:
    return 100.0 if design.s.objectives[i].share else 1.0


@literal
def history(design: Optimize, hist: History) -> Figure:
    """Each trial's mean (first objective) in the order asked, and the best so far."""
    o = design.s.objectives[0]
    runs = hist.runs[hist.runs["trial"].notna()]
    frame = scores(design, runs).assign(trial=runs["trial"].astype(int).to_numpy())
    means = frame.groupby("trial")["o0"].mean().dropna()
    fig = Figure(figsize=(9, 5), layout="constrained")
    ax = fig.add_subplot()
    u = _scale(design, 0)
    ax.scatter(
        means.index, u * means.to_numpy(), s=14, color=COLORS[0], label="trial (its battles' mean)"
    )
    ax.step(
        means.index,
        u * _best_so_far(frame, o.direction),
        where="post",
        color=COLORS[1],
        label="best point so far (mean of all its battles)",
    )
    ax.set_xlabel("trial")
    ax.set_ylabel(o.name + (" (%)" if o.share else ""))
    ax.set_title(f"Search history: {o.name}, {o.direction}d")
    ax.legend(loc="best", fontsize="small")
    return fig


def _best_so_far(frame: pd.DataFrame, direction: str) -> np.ndarray[Any, Any]:
    """After each trial, the best mean of a point over every battle fought at it so far.

    Not the best single trial: the best of many noisy trials is a lucky one.
    """
    sums: dict[int, list[float]] = {}
    out = []
    for _, group in frame.dropna(subset=["o0"]).groupby("trial", sort=True):
        point = int(group["point"].iloc[0])
        total = sums.setdefault(point, [0.0, 0.0])
        total[0] += float(group["o0"].sum())
        total[1] += len(group)
        means = [s / n for s, n in sums.values() if n]
        out.append(max(means) if direction == "maximize" else min(means))
    return np.array(out)


Interval = tuple[float, float, float, int]
"""A candidate's mean, 95% interval and battles (:func:`sim.search.optimize.answer.interval`)."""


@literal
def ranking(design: Optimize, names: list[str], rows: list[Interval]) -> Figure:
    """The confirmed candidates, best (the first) at the top, with their 95% intervals."""
    o = design.s.objectives[0]
    u = _scale(design, 0)
    fig = Figure(figsize=(9, 1.2 + 0.55 * len(rows)), layout="constrained")
    ax = fig.add_subplot()
    y = np.arange(len(rows))[::-1]
    means = np.array([r[0] for r in rows]) * u
    err = np.array([[r[0] - r[1], r[2] - r[0]] for r in rows]).T * u
    ax.barh(y, means, color=[COLORS[1]] + [COLORS[0]] * (len(rows) - 1), alpha=0.7)
    ax.errorbar(means, y, xerr=err, fmt="none", ecolor="#333333", capsize=3)
    ax.set_yticks(y, names, fontsize="small")
    ax.set_xlabel(o.name + (" (%)" if o.share else "") + ", confirmed with shared seeds")
    ax.set_title(f"Confirmed ranking: {o.name}")
    return fig


@literal
def front(design: Optimize, table: pd.DataFrame, boxes: list[list[Interval]]) -> Figure:
    """Every searched point's two objectives, the front, and the confirmed candidates.

    ``boxes`` holds each confirmed candidate's interval of each objective.
    """
    o0, o1 = design.s.objectives
    u0, u1 = _scale(design, 0), _scale(design, 1)
    fig = Figure(figsize=(8, 6), layout="constrained")
    ax = fig.add_subplot()
    ax.scatter(u0 * table["o0"], u1 * table["o1"], s=12, color="#999999", label="searched point")
    edge = table.loc[pareto(design, table)].sort_values("o0")
    ax.plot(u0 * edge["o0"], u1 * edge["o1"], "-o", color=COLORS[0], ms=4, label="search's front")
    for (m0, lo0, hi0, _), (m1, lo1, hi1, _) in boxes:
        ax.errorbar(
            [u0 * m0],
            [u1 * m1],
            xerr=[[u0 * (m0 - lo0)], [u0 * (hi0 - m0)]],
            yerr=[[u1 * (m1 - lo1)], [u1 * (hi1 - m1)]],
            fmt="s",
            color=COLORS[1],
            capsize=3,
        )
    ax.plot([], [], "s", color=COLORS[1], label="confirmed (95% intervals)")
    ax.set_xlabel(f"{o0.name} ({o0.direction})" + (" %" if o0.share else ""))
    ax.set_ylabel(f"{o1.name} ({o1.direction})" + (" %" if o1.share else ""))
    ax.set_title("Pareto front")
    ax.legend(loc="best", fontsize="small")
    return fig
