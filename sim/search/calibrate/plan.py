"""Where a calibration fights next: its planner over the prior's grid of cells.

:class:`Calibrate` fights every cell at every observed row first, then doubles the
battles of the plausible cells (all but :data:`LEFT_OUT` of the posterior) up to
``ratio`` times each row's observed battles, within the budget.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pyarrow as pa

from sim.search.calibrate import dispersion
from sim.search.calibrate import posterior as post
from sim.search.calibrate.read import ROW, Settings
from sim.search.core import History, Planned
from sim.search.spec import Search

LEFT_OUT = 1e-3
"""The posterior mass the cells left out of the next batch may hold together."""


class Calibrate:
    """A calibration's planner: the posterior so far, the cells still plausible, the next batch.

    The design the driver runs is :class:`sim.search.calibrate.answer.CalibrateDesign`,
    which adds the answer (:class:`sim.search.core.Design`).
    """

    def __init__(self, search: Search) -> None:
        self.search = search
        self.s: Settings = search.settings
        self.grid = self.s.grid
        self.table = self.s.table
        self.labels = tuple(r.label for r in self.table.rows)

    def columns(self) -> list[pa.Field]:
        """The grid cell each battle was fought at."""
        return [pa.field("cell", pa.int64())]

    def sims(self, history: History) -> post.Sims:
        """Every battle so far, summed by cell and row."""
        return post.simulated(
            history.runs,
            self.grid.size,
            self.labels,
            self.table.stats,
            self.search.sides,
            [r.attacker for r in self.table.rows],
        )

    def fit(self, history: History) -> tuple[post.Sims, np.ndarray[Any, Any]]:
        """The battles so far and the cells' posterior."""
        sims, cells, _ = self.fit_joint(history)
        return sims, cells

    def fit_joint(
        self, history: History
    ) -> tuple[post.Sims, np.ndarray[Any, Any], np.ndarray[Any, Any] | None]:
        """The battles so far, the cells' posterior, and with a dispersion the joint one.

        The joint posterior is ``[cell, dispersion value]`` (None: the rows differ by
        chance alone, and the cells' is the plain one).
        """
        sims = self.sims(history)
        if self.s.dispersion.none:
            return sims, post.posterior(post.loglik(sims, self.table, 0.0, self.s.weights)), None
        cells, joint = dispersion.fit(sims, self.table, self.s.dispersion, self.s.weights)
        return sims, cells, joint

    def targets(self) -> list[int]:
        """The battles a plausible cell ends with at each row."""
        return [max(self.s.start, math.ceil(self.s.ratio * r.battles)) for r in self.table.rows]

    def wanted(self, history: History) -> list[tuple[int, int, int]]:
        """(cell, row, battles) the plausible cells still want, most probable cell first."""
        sims, weights = self.fit(history)
        out = []
        for c in post.plausible(weights, 1 - LEFT_OUT):
            for r, target in enumerate(self.targets()):
                have = int(sims.runs[c, r])
                if have < target:
                    out.append((c, r, min(target, max(2 * have, have + self.s.start)) - have))
        return out

    def plan(self, history: History, recorded: dict[str, Any] | None) -> Planned | None:
        """Every cell at every row first; then the plausible cells' next battles."""
        if not history.batches:
            todo = [
                (c, r, self.s.start) for c in range(self.grid.size) for r in range(len(self.labels))
            ]
            stage = "start"
        else:
            todo = _within(self.wanted(history), history.left)
            stage = "refine"
        if not todo:
            return None
        points = tuple({**self.grid.cell(c), ROW: self.labels[r]} for c, r, _ in todo)
        return Planned(
            points,
            tuple(n for _, _, n in todo),
            stage,
            columns={"cell": tuple(c for c, _, _ in todo)},
            note={"cells": len({c for c, _, _ in todo})},
        )

    def progress(self, history: History) -> str:
        """The plausible cells and the most probable one so far."""
        _, weights = self.fit(history)
        keep = post.plausible(weights, 1 - LEFT_OUT)
        best = self.grid.cell(keep[0])
        shown = ", ".join(
            f"{self.search.label(p.name)} = {p.shown(best[p.name])}" for p in self.grid.params
        )
        return (
            f"{len(keep)} of {self.grid.size} cells plausible; most probable {shown} "
            f"(posterior {weights[keep[0]]:.2f})"
        )

    def finished_batch(self, history: History, root: Any) -> None:
        """Nothing to keep beyond the journal."""


def _within(todo: list[tuple[int, int, int]], left: int) -> list[tuple[int, int, int]]:
    """The wanted battles cut down to ``left`` in all: the most probable cells first."""
    out, spent = [], 0
    for c, r, n in todo:
        n = min(n, left - spent)
        if n < 1:
            break
        out.append((c, r, n))
        spent += n
    return out
