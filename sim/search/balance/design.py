"""The balance design the driver runs: from battles, or from the exact odds (``method``)."""

from __future__ import annotations

from typing import Any

from sim.search.balance import answer, exact


def make(search: Any) -> Any:
    """The balance design of ``search``: from battles, or from the exact odds."""
    if search.settings.method == "exact":
        return exact.make(search)
    return answer.make(search)
