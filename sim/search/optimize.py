"""``design: optimize``: the values of several parameters that are best for a side.

::

    design: optimize
    parameters:
      sides.guards.tactic: {choices: [balanced, aggressive, defensive]}
      sides.guards.fighters[0].hit_dice: {low: 3, high: 7}
      upgrade:                       # named alternatives, each setting paths together
        choices:
          nothing: {}
          plate on Hild: {sides.guards.fighters[0].armor: [plate]}
    objective: {side: guards, wins: max}     # wins | losses (of a side) | rounds; max | min
    second: {side: guards, losses: min}      # optional: a second objective, the Pareto front
    budget: 6000         # battles at most, search and confirmation
    replicates: 40       # battles per trial (default 40)
    parallel: 4          # trials asked together, one batch (default 4)
    confirm: {top: 5, replicates: 400}   # default: the top 5, 30% of the budget

The search (Optuna: TPE for one objective, NSGA-II for two; :mod:`sim.search.study`) spends
the budget less the confirmation's on trials of ``replicates`` battles each, its objective a
trial's mean. A trial's mean is noisy and the best of many noisy means is lucky, so the
top candidates (distinct points, by the mean of every battle fought at each) are fought
again, ``confirm.replicates`` battles each with shared seeds (replicate ``r`` meets the same
dice at every candidate): the answer is the best by those battles alone, its 95% interval,
and its paired difference from the runner-up with its 95% interval
(:mod:`sim.search.optimize_answer`). With two objectives the candidates are the Pareto
front of the search's points, and the answer is the front, confirmed.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa

from sim.errors import did_you_mean
from sim.search import study
from sim.search.core import History, Planned
from sim.search.space import Param, read_param
from sim.search.spec import Bad, Search

KEYS = ("objective", "second", "replicates", "parallel", "confirm")
BUDGET = 6_000
"""The default budget of battles."""
WHATS = ("wins", "losses", "rounds")
DB_EVERY = 10.0
"""Seconds between writes of the SQLite study during the search."""
DIRECTIONS = {"max": "maximize", "maximize": "maximize", "min": "minimize", "minimize": "minimize"}


@dataclass(frozen=True, slots=True)
class Objective:
    """What a trial's battles are scored by: a side's wins or losses, or the battle's length."""

    what: str
    side: str | None
    direction: str

    @property
    def name(self) -> str:
        """How the answer names it."""
        if self.what == "wins":
            return f"{self.side} win rate"
        if self.what == "losses":
            return f"{self.side} losses"
        return "rounds"

    @property
    def share(self) -> bool:
        """Whether it is a share (a win rate), shown in percent."""
        return self.what == "wins"

    def values(self, runs: pd.DataFrame) -> np.ndarray[Any, Any]:
        """Each battle's score (NaN for a battle that failed)."""
        if self.what == "wins":
            v = (runs["winner"] == self.side).to_numpy(dtype=float)
        elif self.what == "losses":
            v = runs[f"lost.{self.side}"].to_numpy(dtype=float)
        else:
            v = runs["rounds"].to_numpy(dtype=float)
        return np.where(runs["failed"].to_numpy(dtype=bool), np.nan, v)

    def better(self, a: float, b: float) -> bool:
        """Whether ``a`` beats ``b``."""
        return a > b if self.direction == "maximize" else a < b


@dataclass(frozen=True, slots=True)
class Settings:
    """An optimize search's own keys, checked."""

    objectives: tuple[Objective, ...]
    replicates: int
    parallel: int
    top: int
    confirm: int
    trials: int


def read(
    doc: dict[str, Any], sides: tuple[str, ...], budget: int, bad: Bad
) -> tuple[list[Param], Settings]:
    """The parameters and settings of an optimize search (problems to ``bad``)."""
    params = _params(doc.get("parameters"), bad)
    objectives = [_objective(doc.get("objective"), "objective", sides, bad)]
    if doc.get("second") is not None:
        objectives.append(_objective(doc["second"], "second", sides, bad))
    replicates = _count(doc.get("replicates", 40), "replicates", 1, 100_000, bad)
    parallel = _count(doc.get("parallel", 4), "parallel", 1, 64, bad)
    confirm = doc.get("confirm") or {}
    if not isinstance(confirm, dict) or set(confirm) - {"top", "replicates"}:
        bad("confirm", "expected {top: N, replicates: N}")
        confirm = {}
    top = _count(confirm.get("top", 5), "confirm.top", 1, 100, bad)
    each = confirm.get("replicates", max(20, int(0.3 * budget) // max(top, 1)))
    again = _count(each, "confirm.replicates", 2, 1_000_000, bad)
    trials = (budget - top * again) // max(replicates, 1)
    if trials < parallel:
        bad(
            "budget",
            f"{budget} battles leave {budget - top * again} after the confirmation "
            f"({top} x {again}): fewer than one batch of {parallel} trials x {replicates} "
            "battles; raise budget, or lower replicates or confirm",
        )
    settings = Settings(tuple(o for o in objectives if o), replicates, parallel, top, again, trials)
    return params, settings


def _params(spec: Any, bad: Bad) -> list[Param]:
    if not isinstance(spec, dict) or not spec:
        bad("parameters", "an optimize search varies one parameter or more")
        return []
    out = []
    for name, value in spec.items():
        p = read_param(str(name), value, bad, ("whole", "real", "choices", "bundle"))
        if p is not None:
            shown = [p.shown(c) for c in p.choices]
            if len(set(shown)) < len(shown):
                bad(p.where, "two choices read the same; give them names (choices: {NAME: ...})")
            out.append(p)
    reserved = {"batch", "point", "trial", "run_id", "seed", "label"}
    for p in out:
        if p.name in reserved:
            bad(p.where, f"{p.name!r} names a column of the runs table; choose another name")
    return out


def _count(value: Any, where: str, low: int, high: int, bad: Bad) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        bad(where, f"expected a whole number {low}..{high}, got {value!r}")
        return low
    return value


def _objective(spec: Any, where: str, sides: tuple[str, ...], bad: Bad) -> Objective:
    """``{side: S, wins: max}``, ``{side: S, losses: min}`` or ``{rounds: min}``."""
    usage = (
        "expected {side: SIDE, wins: max|min}, {side: SIDE, losses: max|min} or {rounds: max|min}"
    )
    whats = [w for w in WHATS if isinstance(spec, dict) and w in spec]
    if not isinstance(spec, dict) or len(whats) != 1 or set(spec) - {"side", *WHATS}:
        bad(where, usage)
        return Objective("wins", "", "maximize")
    what = whats[0]
    direction = DIRECTIONS.get(str(spec[what]))
    if direction is None:
        bad(f"{where}.{what}", f"expected max or min, got {spec[what]!r}")
        direction = "maximize"
    side = spec.get("side")
    if what == "rounds":
        if side is not None:
            bad(f"{where}.side", "rounds are the battle's, not a side's: leave side out")
        return Objective(what, None, direction)
    if side is None:
        bad(where, f"{what} are a side's: add side: SIDE")
    elif sides and str(side) not in sides:
        hint = did_you_mean(str(side), sides) or "; it has " + ", ".join(sides)
        bad(f"{where}.side", f"no side {side!r} in the scenario{hint}")
    return Objective(what, None if side is None else str(side), direction)


class Optimize:
    """An optimize search's planner: the trials asked, their scores, the next batch.

    The design the driver runs is :class:`sim.search.optimize_answer.OptimizeDesign`, which
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
        """The next batch of trials; then the confirmation; then nothing."""
        asked = self.trials(history)
        count = min(self.s.parallel, self.s.trials - len(asked), history.left // self.s.replicates)
        stages = {b.get("stage") for b in history.batches}
        if count > 0 and "confirm" not in stages:
            return self._search_batch(history, recorded, asked, count)
        if "confirm" in stages:
            return None
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

    def _search_batch(
        self,
        history: History,
        recorded: dict[str, Any] | None,
        asked: list[dict[str, Any]],
        count: int,
    ) -> Planned:
        if recorded is not None:
            notes, attrs = recorded["trials"], recorded["study_attrs"]
        else:
            searches = [b for b in history.batches if b.get("stage") == "search"]
            before = searches[-1]["note"]["study_attrs"] if searches else {}
            population = min(50, max(8, self.s.trials // 5))
            sampler = study.sampler(
                len(self.directions), self.search.seed, len(history.batches), population
            )
            opt, store = study.rebuild(
                self.params, self.directions, asked, self.values(history), before, sampler_=sampler
            )
            notes, attrs = study.ask(opt, store, self.params, count)
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
    """Each battle's objectives (``o0``, ``o1``), its point and its replicate at the point."""
    frame = pd.DataFrame({f"o{i}": o.values(runs) for i, o in enumerate(design.s.objectives)})
    frame["point"] = runs["point"].astype(int).to_numpy()
    frame["replicate"] = frame.groupby("point").cumcount()
    return frame


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
