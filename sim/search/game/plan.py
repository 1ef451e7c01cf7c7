"""Where a game search fights next, and when it stops.

Every cell (a pair of alternatives) gets ``start`` battles first. After each batch the cells'
posterior (:meth:`sim.games.Cells.draws`, 2,000 tables) measures the exploitability of the
mixes found on the measured table (:func:`sim.games.exploitability`) and the value's 95%
interval (:func:`sim.games.bracket`): the search stops once the exploitability's 95% upper
bound is within ``tolerance`` and the value's interval within +-``tolerance``, or when the
budget is spent.

Otherwise the next batch (about half the battles still needed, if the wider of the two
shrinks as one over the square root of the battles; at least two per cell, at most half as
many as fought so far) goes where the answer is decided (``mode: adaptive``). The exploitability
is ``max_i (A y)_i - min_j (x A)_j``: the row side's best reply to the column mix ``y``
against the column side's best reply to the row mix ``x``. A row ``i`` matters as often as
it is the best reply in the posterior draws (``P_i``; near-best replies count this way), a
column as often as it is (``Q_j``); cell ``(i, j)`` enters with weight ``w = P_i y_j +
Q_j x_i + x_i y_j``, plus the mean of ``x_i y_j`` over the equilibria of 300 posterior
draws (the cells of the mixes' supports and their near-best replies, the cells the value
moves with most, and those of the supports the equilibrium may yet turn out to have; a cell
that no plausible mix plays and no best reply meets weighs nothing). The battles are split
as Neyman allocation splits a sample to measure a weighted sum: each cell's total in proportion to
``w * sd / sqrt(f)`` (``sd`` its share's spread, ``f`` the share of its battles that count),
the batch filling the cells furthest below their totals. ``mode: uniform`` gives every cell
the same battles instead. Every batch is fought on shared seeds: replicate ``r`` meets the
same dice in every cell, so the differences between alternatives are paired; the posterior
keeps the correlation (battles of one seed are one cluster).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyarrow as pa

from sim import games
from sim.search.core import History, Planned
from sim.search.game.read import Settings
from sim.search.space import Param
from sim.search.spec import Search

PLAUSIBLE = 300
"""Posterior draws whose own equilibria weigh the cells they play (:func:`allocate`)."""
GAME_KEY = 0x47414D45
"""The first word of the posterior's seed key (``SeedSequence(master, (KEY, batches))``)."""


@dataclass(frozen=True)
class State:
    """Where a game search stands: its cells, the mixes found, the exploitability bound."""

    cells: games.Cells
    eq: games.Equilibrium
    draws: np.ndarray[Any, Any]
    exploit95: float
    runs: np.ndarray[Any, Any]
    """Battles fought in each cell (failed ones too: they cost the budget)."""
    value_ci: tuple[float, float]

    def met(self, tolerance: float) -> bool:
        """Whether the answer is good enough: exploitability and the value's half-width."""
        return self.exploit95 <= tolerance and self.half <= tolerance

    @property
    def half(self) -> float:
        """The value's interval's half-width."""
        return (self.value_ci[1] - self.value_ci[0]) / 2


def rng_for(master: int, batches: int) -> np.random.Generator:
    """The posterior's generator after ``batches`` batches (the same history, the same draws)."""
    return np.random.default_rng(np.random.SeedSequence(master, spawn_key=(GAME_KEY, batches)))


def state(cells: games.Cells, runs: np.ndarray[Any, Any], rng: np.random.Generator) -> State:
    """The mixes of the measured table and the posterior's exploitability bound of them."""
    eq = games.solve(cells.table)
    draws = cells.draws(games.DRAWS, rng)
    e95 = float(np.quantile(games.exploitability(draws, eq), 0.95))
    row_do = np.einsum("smn,n->sm", draws, eq.col)
    col_do = np.einsum("m,smn->sn", eq.row, draws)
    lo, hi = games.hull(games.bracket(row_do, col_do), eq.value)
    return State(cells, eq, draws, e95, runs, (float(lo), float(hi)))


def allocate(st: State, s: Settings, spent: int, left: int) -> np.ndarray[Any, Any] | None:
    """The next batch's battles per cell ``(m, n)``, or None when the search is done."""
    m, n = st.cells.shape
    if st.met(s.tolerance) or left < 1:
        return None
    need = spent * ((max(st.exploit95, st.half) / s.tolerance) ** 2 - 1)
    size = int(min(left, max(2 * m * n, min(spent // 2, math.ceil(need / 2)))))
    if s.mode == "uniform":
        each = size // (m * n)
        if each < 1:
            return None
        return np.full((m, n), each, dtype=np.int64)
    return _split(_targets(st, spent + size), st.runs, size)


def _targets(st: State, total: int) -> np.ndarray[Any, Any]:
    """Each cell's share of ``total`` battles (see the module's docstring)."""
    d = st.draws
    best_row = np.einsum("smn,n->sm", d, st.eq.col).argmax(axis=1)
    best_col = np.einsum("m,smn->sn", st.eq.row, d).argmin(axis=1)
    m, n = st.cells.shape
    p = np.bincount(best_row, minlength=m) / len(d)
    q = np.bincount(best_col, minlength=n) / len(d)
    w = np.outer(p, st.eq.col) + np.outer(st.eq.row, q) + np.outer(st.eq.row, st.eq.col)
    _, xs, ys = games.solve_many(d[:PLAUSIBLE], st.eq)  # the equilibria the draws have
    w += np.einsum("sm,sn->mn", xs, ys) / len(xs)
    share = (st.cells.wins + 0.5) / (st.cells.counted + 1.0)
    f = (st.cells.counted + 1.0) / (st.runs + 2.0)
    score = w * np.sqrt(share * (1 - share) / f)
    if score.sum() <= 0:
        score = np.ones((m, n))
    return np.asarray(total * score / score.sum())


def _split(target: np.ndarray[Any, Any], runs: np.ndarray[Any, Any], size: int) -> Any:
    """``size`` battles to the cells furthest below their targets (largest remainders)."""
    gap = np.clip(target - runs, 0, None)
    if gap.sum() <= 0:
        gap = target
    exact = size * gap / gap.sum()
    out = np.floor(exact).astype(np.int64)
    rest = size - int(out.sum())
    order = np.argsort(-(exact - out), axis=None, kind="stable")[:rest]
    out.flat[order] += 1
    return out


class Game:
    """A game search's planner: its cells from the battles, the state, the next batch.

    The design the driver runs is :class:`sim.search.game.answer.GameDesign`, which adds the
    progress line and the answer (:class:`sim.search.core.Design`).
    """

    def __init__(self, search: Search) -> None:
        self.search = search
        self.s: Settings = search.settings
        self.rows, self.cols = search.params
        self._cache: dict[int, State] = {}

    def columns(self) -> list[pa.Field]:
        """No columns of its own: each battle's cell is its parameters' columns."""
        return []

    def cell_of(self, p: Param, value: Any) -> int:
        """An alternative's index."""
        keys = [json.dumps(c, sort_keys=True) for c in p.choices]
        return keys.index(json.dumps(value, sort_keys=True))

    def measured(self, history: History) -> tuple[games.Cells, np.ndarray[Any, Any]]:
        """The cells of the battles so far, and the battles fought in each."""
        m, n = len(self.rows.choices), len(self.cols.choices)
        runs = history.runs
        if not len(runs):
            return games.cells_of([], [], [], [], [], (m, n)), np.zeros((m, n))
        where = [
            (
                self.cell_of(self.rows, pt[self.rows.name]),
                self.cell_of(self.cols, pt[self.cols.name]),
            )
            for pt in history.points
        ]
        point = runs["point"].astype(int).to_numpy()
        i = np.array([where[k][0] for k in point])
        j = np.array([where[k][1] for k in point])
        ok = ~runs["failed"].astype(bool).to_numpy()
        winner = runs["winner"]
        win = (winner == self.s.side).to_numpy()
        counted = ok & (winner.notna().to_numpy() if self.s.of == "decisive" else True)
        cells = games.cells_of(i[ok], j[ok], win[ok], counted[ok], clusters(history)[ok], (m, n))
        fought = np.zeros((m, n))
        np.add.at(fought, (i, j), 1)
        return cells, fought

    def state(self, history: History) -> State:
        """Where the search stands after its batches (kept per batch count)."""
        b = len(history.batches)
        if b not in self._cache:
            cells, fought = self.measured(history)
            self._cache = {b: state(cells, fought, rng_for(self.search.seed, b))}
        return self._cache[b]

    def plan(self, history: History, recorded: dict[str, Any] | None) -> Planned | None:
        """Every cell at the start; then where the bound is decided, until it is met."""
        m, n = len(self.rows.choices), len(self.cols.choices)
        alloc: np.ndarray[Any, Any] | None = np.full((m, n), self.s.start, dtype=np.int64)
        stage = "start"
        if history.batches:
            alloc = allocate(self.state(history), self.s, history.spent, history.left)
            stage = self.s.mode
        if alloc is None:
            return None
        cells = [(i, j) for i in range(m) for j in range(n) if alloc[i, j] > 0]
        points = tuple(
            {self.rows.name: self.rows.choices[i], self.cols.name: self.cols.choices[j]}
            for i, j in cells
        )
        reps = tuple(int(alloc[i, j]) for i, j in cells)
        return Planned(points, reps, stage=stage, shared=True)

    def finished_batch(self, history: History, root: Any) -> None:
        """Nothing to keep beyond the journal."""


def clusters(history: History) -> np.ndarray[Any, Any]:
    """Each run's cluster: battles that met the same dice share one (see :mod:`~sim.search.batch`).

    In a batch with shared seeds, replicate ``r`` of every point has one seed; otherwise
    every battle its own.
    """
    runs = history.runs
    run_id = runs["run_id"].astype(np.int64).to_numpy()
    out = run_id.copy()
    for entry in history.batches:
        if not entry.get("shared"):
            continue
        starts = int(entry["first"]) + np.cumsum([0, *entry["replicates"]])
        mine = (run_id >= starts[0]) & (run_id < starts[-1])
        seg = np.searchsorted(starts, run_id[mine], side="right") - 1
        out[mine] = (int(entry["batch"]) + 1) * 2**40 + (run_id[mine] - starts[seg])
    return out
