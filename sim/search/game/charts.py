"""A game search's chart: the payoff table as a heatmap (:func:`sim.gamereport.heatmap`)."""

from __future__ import annotations

from matplotlib.figure import Figure

from sim import gamereport
from sim.games import Result


def payoff(result: Result, names: gamereport.Names) -> Figure:
    """The payoff table, each cell's share and 95% interval, the mixes' weights on the axes."""
    return gamereport.heatmap(result, names)
