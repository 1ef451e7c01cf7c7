"""The chart of a sensitivity analysis (matplotlib, headless, as :mod:`sim.analysis.plots`).

One panel per outcome; in each, a pair of horizontal bars per parameter: S1 and ST with
their 95% intervals (Sobol, FAST), or mu* with its interval and sigma (Morris).
"""

from __future__ import annotations

import math

import numpy as np
from matplotlib.figure import Figure

from sim.analysis.plots import literal
from sim.analysis.sensitivity import Sensitivity, outcome_name

BARS = {
    "sobol": (("S1", "first order S1"), ("ST", "total ST")),
    "fast": (("S1", "first order S1"), ("ST", "total ST")),
    "morris": (("mu_star", "mu*"), ("sigma", "sigma")),
}
COLORS = ("#1f77b4", "#ff7f0e")


@literal
def figure(s: Sensitivity, title: str) -> Figure:
    """The chart of ``s``, titled ``title``."""
    n = len(s.outcomes)
    cols = min(3, n)
    rows = math.ceil(n / cols)
    height = 0.45 * len(s.parameters) + 1.6
    fig = Figure(figsize=(2.6 + 3.2 * cols, height * rows), layout="constrained")
    axes = fig.subplots(rows, cols, squeeze=False, sharey=True).ravel()
    y = np.arange(len(s.parameters))
    for ax, outcome in zip(axes, s.outcomes, strict=False):
        for k, (key, label) in enumerate(BARS[s.method]):
            values = [s.indices[outcome][p][key] for p in s.parameters]
            conf = [s.indices[outcome][p].get(f"{key}_conf", math.nan) for p in s.parameters]
            err = None if all(math.isnan(c) for c in conf) else np.nan_to_num(conf)
            ax.barh(
                y + (k - 0.5) * 0.38,
                values,
                height=0.38,
                xerr=err,
                color=COLORS[k],
                label=label,
                capsize=2,
            )
        ax.axvline(0, color="black", lw=0.6)
        ax.set_title(outcome_name(outcome), fontsize="medium")
        ax.grid(axis="x", alpha=0.3)
        if s.method != "morris":
            ax.set_xlim(min(-0.05, ax.get_xlim()[0]), max(1.0, ax.get_xlim()[1]))
    axes[0].set_yticks(y, list(s.parameters), fontsize="small")
    axes[0].invert_yaxis()  # shared: the first parameter on top in every panel
    for ax in axes[::cols]:
        ax.tick_params(axis="y", labelsize="small")
    for ax in axes[n:]:
        ax.set_visible(False)
    axes[0].legend(loc="lower right", fontsize="small")
    what = "95% bootstrap intervals" if s.method != "fast" else "95% bootstrap (indicative)"
    fig.suptitle(
        f"{title}: {s.method} sensitivity, {s.points} points x {s.replicates} replicates ({what})"
    )
    return fig
