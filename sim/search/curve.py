"""A balance curve as every search draws it: for each value along one axis, the balance.

A balance search with a second parameter (:mod:`sim.search.balance`) measures the curve
point by point, each by its own battles; a worth search (:mod:`sim.search.worth`) reads
its exchange curve off the fitted points table. Both draw it here, the same way: at each
position along the axis the balanced value with its 95% interval (a dot and bar), the
measured whole numbers either side of it where there are such (a shaded bar), or a cross at
the nearest value fought where no value balances.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sim.charts import COLORS


@dataclass(frozen=True, slots=True)
class Balanced:
    """One position along the curve: where the balanced value gives the target there.

    ``x`` and ``lo``..``hi``: the balanced value and its 95% interval (None: none found);
    ``bracket``: the two whole numbers either side (measured); ``nearest``: where no value
    balances, the nearest value fought.
    """

    at: float
    x: float | None = None
    lo: float | None = None
    hi: float | None = None
    bracket: tuple[float, float] | None = None
    nearest: float | None = None


def draw(ax: Any, points: Sequence[Balanced]) -> None:
    """Draw the curve's points on ``ax`` (labels and ticks are the caller's)."""
    for p in points:
        if p.bracket is not None:
            a, b = p.bracket
            ax.plot([p.at, p.at], [a, b], color=COLORS[1], lw=6, alpha=0.4, solid_capstyle="butt")
        if p.x is not None and p.lo is not None and p.hi is not None:
            ax.errorbar(
                [p.at],
                [p.x],
                yerr=[[p.x - p.lo], [p.hi - p.x]],
                fmt="o",
                color=COLORS[0],
                capsize=4,
            )
        elif p.nearest is not None:
            ax.scatter([p.at], [p.nearest], marker="x", color=COLORS[3], zorder=3)
