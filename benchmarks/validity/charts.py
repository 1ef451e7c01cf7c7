"""The report's charts: each study draws its own (``Study.chart``); this saves them as PNGs.

Also the pieces the studies' charts share: :func:`pyplot` (matplotlib without a display) and
:func:`errorbar` (win rates with their intervals).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.validity.stats import Share
from benchmarks.validity.study import Results


def pyplot() -> Any:
    """``matplotlib.pyplot`` on the Agg backend, which needs no display."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def errorbar(ax: Any, x: Any, shares: Sequence[Share], **kw: Any) -> None:
    """Plot ``shares`` as percentages at ``x``, with their intervals as error bars."""
    p = np.array([s.p for s in shares])
    lo = np.array([s.lo for s in shares])
    hi = np.array([s.hi for s in shares])
    ax.errorbar(x, 100 * p, yerr=[100 * (p - lo), 100 * (hi - p)], capsize=3, **kw)


def draw_charts(res: Results, folder: Path) -> dict[str, Path]:
    """The PNG charts of every study that ran, in ``folder``, by the study's name."""
    plt = pyplot()
    folder.mkdir(parents=True, exist_ok=True)
    made: dict[str, Path] = {}
    meta = {"Software": None}  # no version stamp: the same figures give the same files
    for study in res.studies:
        fig = study.chart(res) if study.chart else None
        if fig is None:
            continue
        path = folder / f"{study.name}.png"
        fig.savefig(path, dpi=90, bbox_inches="tight", metadata=meta)
        plt.close(fig)
        made[study.name] = path
    return made
