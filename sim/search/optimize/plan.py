"""Where an optimize search fights next: its planner of trials and of the confirmation.

:class:`Optimize` asks Optuna (:mod:`sim.search.optimize.study`) for each batch's
trials, scores the battles fought at them, and, once the trials are spent, plans the
confirmation: the top candidates fought again on shared seeds; then the final comparison,
the two the confirmation ranks first fought again on fresh shared seeds (the batch's own:
:mod:`sim.search.batch`), so that the battles that measure their gap did not pick them.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa

from sim.search.core import History, Planned
from sim.search.optimize import study
from sim.search.optimize.read import Settings
from sim.search.spec import Search

DB_EVERY = 10.0
"""Seconds between writes of the SQLite study during the search."""


class Optimize:
    """An optimize search's planner: the trials asked, their scores, the next batch.

    The design the driver runs is :class:`sim.search.optimize.answer.OptimizeDesign`, which
    adds the progress line and the answer (:class:`sim.search.core.Design`).
    """

    def __init__(self, search: Search) -> None:
        self.search = search
        self.s: Settings = search.settings
        self.params = search.params
        self.db: study.StudyDB | None = None

    @property
    def directions(self) -> list[str]:
        """Optuna's direction of each objective."""
        return [o.direction for o in self.s.objectives]

    def columns(self) -> list[pa.Field]:
        """The Optuna trial each battle belongs to (null for the confirmation's)."""
        return [pa.field("trial", pa.int64())]

    def trials(self, history: History) -> list[dict[str, Any]]:
        """Every trial the search has asked for (the journal's notes), in order."""
        return [
            t for b in history.batches if b.get("stage") == "search" for t in b["note"]["trials"]
        ]

    def values(self, history: History) -> dict[int, list[float] | None]:
        """Each trial's objectives: the mean of its battles (None if every one failed)."""
        runs = history.runs[history.runs["trial"].notna()]
        out: dict[int, list[float] | None] = {}
        if not len(runs):
            return out
        scores = np.column_stack([o.values(runs) for o in self.s.objectives])
        frame = pd.DataFrame(scores).assign(trial=runs["trial"].astype(int).to_numpy())
        for trial, group in frame.groupby("trial"):
            means = group.drop(columns="trial").mean(skipna=True).to_list()
            out[int(trial)] = None if any(math.isnan(m) for m in means) else means
        return out

    def plan(self, history: History, recorded: dict[str, Any] | None) -> Planned | None:
        """The next batch of trials; then the confirmation; then the final two; then nothing."""
        asked = self.trials(history)
        count = min(self.s.parallel, self.s.trials - len(asked), history.left // self.s.replicates)
        stages = {b.get("stage") for b in history.batches}
        if count > 0 and "confirm" not in stages:
            return self._search_batch(history, recorded, asked, count)
        if "final" in stages:
            return None
        if "confirm" in stages:
            return self._final(history)
        chosen = candidates(self, history)
        if not chosen:
            return None
        each = min(self.s.confirm, history.left // len(chosen))
        if each < 2:
            return None
        points = tuple(dict(history.points[i]) for i in chosen)
        none: tuple[Any, ...] = (None,) * len(chosen)
        return Planned(
            points, (each,) * len(chosen), "confirm", shared=True, columns={"trial": none}
        )

    def _final(self, history: History) -> Planned | None:
        """The best and the runner-up by the confirmation, on fresh shared seeds (or None)."""
        order, _ = confirmed(self, history)
        each = min(self.s.final, history.left // 2)
        if not self.s.final or len(order) < 2 or each < 2:
            return None
        points = tuple(dict(history.points[i]) for i in order[:2])
        return Planned(points, (each, each), "final", shared=True, columns={"trial": (None, None)})

    def _search_batch(
        self,
        history: History,
        recorded: dict[str, Any] | None,
        asked: list[dict[str, Any]],
        count: int,
    ) -> Planned:
        if recorded is not None:
            notes, attrs = study.check_note(self.params, recorded, len(asked), count)
        else:
            searches = [b for b in history.batches if b.get("stage") == "search"]
            before = searches[-1]["note"]["study_attrs"] if searches else {}
            population = min(50, max(8, self.s.trials // 5))
            sampler = study.sampler(
                len(self.directions), self.search.seed, len(history.batches), population
            )
            try:
                opt, store = study.rebuild(
                    self.params,
                    self.directions,
                    asked,
                    self.values(history),
                    before,
                    sampler_=sampler,
                )
                notes, attrs = study.ask(opt, store, self.params, count)
            except (KeyError, TypeError, ValueError, AttributeError) as err:
                raise study.rebuild_error(err) from None
        points = tuple(
            {p.name: study.unlabel(p, n["params"][p.name]) for p in self.params} for n in notes
        )
        numbers = tuple(int(n["number"]) for n in notes)
        return Planned(
            points,
            (self.s.replicates,) * len(points),
            "search",
            columns={"trial": numbers},
            note={"trials": notes, "study_attrs": attrs},
        )

    def finished_batch(self, history: History, root: Any) -> None:
        """Keep the finished trials in the SQLite study of the dataset folder.

        At most every :data:`DB_EVERY` seconds, and after the search's last trials (a
        SQLite commit per trial is slow; the journal holds every trial meanwhile).
        """
        if not history.batches or history.batches[-1].get("stage") != "search":
            return
        trials = self.trials(history)
        if self.db is None:
            self.db = study.StudyDB(root, self.params, self.directions)
        elif len(trials) < self.s.trials and time.monotonic() - self.db.written < DB_EVERY:
            return
        self.db.write(trials, self.values(history))


def scores(design: Optimize, runs: pd.DataFrame) -> pd.DataFrame:
    """Each battle's objectives (``o0``, ``o1``), its point and its replicate at the point.

    ``failed`` marks a battle that failed (its objectives NaN; a draw's win rate of
    decisive battles is NaN too, but the battle counts, as a draw).
    """
    frame = pd.DataFrame({f"o{i}": o.values(runs) for i, o in enumerate(design.s.objectives)})
    frame["failed"] = runs["failed"].to_numpy(dtype=bool)
    frame["point"] = runs["point"].astype(int).to_numpy()
    frame["replicate"] = frame.groupby("point").cumcount()
    return frame


@dataclass(frozen=True)
class Scored:
    """A candidate's battles of one stage, replicate by replicate (shared seeds: in step).

    ``values`` has a column per objective (NaN for a failed battle, and for a draw when a
    win rate counts decisive battles); ``failed`` marks the failed battles.
    """

    values: np.ndarray[Any, Any]
    failed: np.ndarray[Any, Any]

    def __len__(self) -> int:
        return len(self.failed)


def confirmed(
    design: Optimize, history: History, stage: str = "confirm"
) -> tuple[list[int], dict[int, Scored]]:
    """The points of ``stage``'s batches, best first by them, and each one's battles.

    The confirmation ranks its candidates; the final comparison (``final``) measures the
    two it ranked first on battles that did not rank them.
    """
    frame = scores(design, stage_runs(history, stage))
    cols = [f"o{i}" for i in range(len(design.s.objectives))]
    by_point: dict[int, Scored] = {}
    for point, group in frame.groupby("point", sort=False):
        group = group.sort_values("replicate")
        by_point[int(point)] = Scored(group[cols].to_numpy(), group["failed"].to_numpy())
    means = pd.DataFrame(
        {
            "o0": {p: _mean(v.values[:, 0]) for p, v in by_point.items()},
            "battles": {p: len(v) for p, v in by_point.items()},
        }
    )
    order = [int(i) for i in best_first(design, means).index] if len(means) else []
    return order, by_point


def _mean(values: np.ndarray[Any, Any]) -> float:
    """The mean of the counted values (NaN if none counts)."""
    kept = values[~np.isnan(values)]
    return float(kept.mean()) if len(kept) else math.nan


def stage_runs(history: History, stage: str) -> pd.DataFrame:
    """The battles of the batches of ``stage`` (``search``, ``confirm``, ``final``), in order."""
    batches = [int(b["batch"]) for b in history.batches if b.get("stage") == stage]
    runs = history.runs
    return runs[runs["batch"].isin(batches)].sort_values("run_id")


def searched(design: Optimize, history: History) -> pd.DataFrame:
    """The search's points: battles and the mean of each objective over every battle."""
    runs = history.runs[history.runs["trial"].notna()].sort_values("run_id")
    frame = scores(design, runs)
    cols = [f"o{i}" for i in range(len(design.s.objectives))]
    out = frame.groupby("point")[cols].mean()
    out["battles"] = frame.groupby("point").size()
    out["trials"] = runs.groupby(runs["point"].astype(int))["trial"].nunique()
    return out.dropna(subset=cols)


def best_first(design: Optimize, table: pd.DataFrame, col: str = "o0") -> pd.DataFrame:
    """Best first by ``col`` (then more battles, then the earlier point)."""
    sign = -1.0 if design.s.objectives[0].direction == "maximize" else 1.0
    keyed = table.assign(_key=sign * table[col], _b=-table["battles"], _p=table.index)
    return keyed.sort_values(["_key", "_b", "_p"]).drop(columns=["_key", "_b", "_p"])


def front(design: Optimize, table: pd.DataFrame) -> list[int]:
    """The points no other point beats on both objectives (two objectives)."""
    signs = [1.0 if o.direction == "maximize" else -1.0 for o in design.s.objectives]
    vals = table[["o0", "o1"]].to_numpy() * np.array(signs)
    keep = []
    for i, v in enumerate(vals):
        beaten = np.any(np.all(vals >= v, axis=1) & np.any(vals > v, axis=1))
        if not beaten:
            keep.append(int(table.index[i]))
    return keep


def candidates(design: Optimize, history: History) -> list[int]:
    """The points the confirmation fights again.

    Distinct points ranked by every battle the search fought at each: with one objective
    the top ``confirm.top``; with two, the Pareto front, thinned to ``confirm.top`` along
    the first objective (or filled up with the best of the rest).
    """
    table = searched(design, history)
    if not len(table):
        return []
    top = design.s.top
    if len(design.s.objectives) == 1:
        return [int(i) for i in best_first(design, table).index[:top]]
    best = front(design, table)
    ordered = [int(i) for i in best_first(design, table.loc[best]).index]
    if len(ordered) > top:
        picks = np.unique(np.round(np.linspace(0, len(ordered) - 1, top)).astype(int))
        return [ordered[i] for i in picks]
    rest = [int(i) for i in best_first(design, table.drop(index=best)).index]
    return ordered + rest[: top - len(ordered)]
