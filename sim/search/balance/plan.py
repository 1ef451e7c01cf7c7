"""Where a balance search fights next: its planner, over the points measured so far.

:class:`Balance` sees each group's measured values (a second parameter's value is a
group; without one there is a single group) and plans the next step of each
(:mod:`sim.search.balance.bracket`), within its share of the budget.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import pyarrow as pa

from sim.search.balance import bracket
from sim.search.balance.bracket import Point, Step
from sim.search.balance.read import Settings, rule
from sim.search.core import History, Planned
from sim.search.spec import Search


class Balance:
    """A balance search's planner: the values fought, each group's next step, the next batch.

    The design the driver runs is :class:`sim.search.balance.answer.BalanceDesign`, which
    adds the progress line and the answer (:class:`sim.search.core.Design`).
    """

    def __init__(self, search: Search) -> None:
        self.search = search
        self.s: Settings = search.settings
        self.first = search.params[0]
        self.second = search.params[1] if len(search.params) > 1 else None
        self.rule = rule(
            self.first,
            self.s.share,
            self.s.tolerance,
            self.s.tolerance_value,
            self.s.start,
            self.s.link,
            search.budget // len(self.groups),
        )

    @property
    def first_label(self) -> str:
        """The balanced parameter's name in the answer (its label, or its path)."""
        return self.search.label(self.first.name)

    @property
    def second_label(self) -> str:
        """The traced parameter's name in the answer."""
        return self.search.label(self.second.name) if self.second is not None else ""

    @property
    def groups(self) -> list[Any]:
        """The second parameter's values (one search each), or a single group."""
        return list(self.second.choices) if self.second is not None else [None]

    def columns(self) -> list[pa.Field]:
        """No columns of its own: each battle's value is its parameters' columns."""
        return []

    def measured(self, history: History, group: Any) -> list[Point]:
        """The values fought for ``group``: battles, counted battles, the side's wins, looks."""
        runs = history.runs
        if self.second is not None and len(runs):
            runs = runs[runs[self.second.name].map(lambda v: self.second.column(group) == v)]
        if not len(runs):
            return []
        ok = ~runs["failed"].astype(bool)
        counted = ok & (runs["winner"].notna() if self.s.of == "decisive" else True)
        frame = pd.DataFrame(
            {
                "x": runs[self.first.name].astype(float),
                "k": (counted & (runs["winner"] == self.s.side)).astype(int),
                "n": counted.astype(int),
                "runs": ok.astype(int),
            }
        )
        sums = frame.groupby("x", sort=True).sum()
        looks = runs.groupby(frame["x"], sort=True)["batch"].nunique()
        return [
            Point(float(x), int(r.k), int(r.n), int(r.runs), int(looks[x]))
            for x, r in sums.iterrows()
        ]

    def steps(self, history: History) -> list[tuple[Any, Step, int]]:
        """Each group's next step, and the battles it has spent."""
        out = []
        for g in self.groups:
            pts = self.measured(history, g)
            out.append((g, bracket.next_step(self.rule, pts), sum(p.runs for p in pts)))
        return out

    def plan(self, history: History, recorded: dict[str, Any] | None) -> Planned | None:
        """Every unfinished group's next battles, within its share of the budget."""
        share = self.search.budget // len(self.groups)
        points: list[dict[str, Any]] = []
        reps: list[int] = []
        for g, step, _ in self.steps(history):
            left = min(share - _spent_all(history, self, g), history.left - sum(reps))
            for x, n in _within(step.runs, left) if step.status == "search" else ():
                value = int(round(x)) if self.first.kind == "whole" else float(x)
                point = {self.first.name: value}
                if self.second is not None:
                    point[self.second.name] = g
                points.append(point)
                reps.append(n)
        if not points:
            return None
        stage = "coarse" if not history.batches else "refine"
        return Planned(tuple(points), tuple(reps), stage=stage)

    def finished_batch(self, history: History, root: Any) -> None:
        """Nothing to keep beyond the journal."""


def _spent_all(history: History, design: Balance, group: Any) -> int:
    """Battles spent on ``group``, failed ones too (they count against the budget)."""
    runs = history.runs
    if design.second is None or not len(runs):
        return len(runs)
    return int(runs[design.second.name].map(lambda v: design.second.column(group) == v).sum())


def _within(runs: tuple[tuple[float, int], ...], left: int) -> list[tuple[float, int]]:
    """The step's battles cut down to ``left`` in all (shares kept; none if too few)."""
    total = sum(n for _, n in runs)
    if left <= 0 or not runs:
        return []
    if total <= left:
        return list(runs)
    cut = [(x, int(n * left / total)) for x, n in runs]
    return [(x, n) for x, n in cut if n >= 1]
