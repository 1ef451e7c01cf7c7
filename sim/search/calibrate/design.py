"""The calibrate design the driver runs: the grid's, or history matching's (``method``)."""

from __future__ import annotations

from typing import Any

from sim.search.calibrate import answer, match_answer


def make(search: Any) -> Any:
    """The calibrate design of ``search``: the grid's, or history matching's."""
    if search.settings.method == "match":
        return match_answer.MatchDesign(search)
    return answer.make(search)
