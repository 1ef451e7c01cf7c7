"""Two-sided zero-sum games from simulated win rates: solved, with their sampling error.

A game here is a payoff table ``A`` (rows: one side's alternatives, columns: the other's),
each cell a side's win share measured in battles; the row side wants it high, the column
side low (a win/lose game is zero-sum: what one side's share gains, the other's loses).

- :func:`solve`: each side's equilibrium mix and the game's value, by linear programming
  (scipy's HiGHS): the row mix ``x`` maximises ``v`` subject to ``x @ A >= v`` in every
  column; the column mix is the program's dual. :func:`solve_many` solves thousands of
  tables at once (each verified; a table that fails the check goes to the program).
- :class:`Cells` and :meth:`Cells.draws`: the cells' joint posterior, a Bayesian bootstrap
  over the battles' seeds with a Jeffreys prior per cell. Battles that met the same dice
  (common random numbers) form one cluster and keep their correlation; each cell's own
  posterior is exactly ``Beta(k + 1/2, n - k + 1/2)`` (``k`` wins of ``n`` counted).
- :func:`analyse`: the whole answer: the value and mixes with 95% intervals (every draw
  solved again), the exploitability of the mixes found (95% upper bound), each
  alternative's regret against the other side's mix, the best reply to each pure choice,
  and dominated alternatives (:func:`dominance`), each verdict from its own interval.

Why on the ground floor: the game design (:mod:`sim.search.game`) plans and answers with
it, and ``sim analyze --game`` (:mod:`sim.analysis`) reads a finished grid as a game with
it; the analysis reads a search's answer as a file and imports nothing of ``sim.search``,
so the solving sits below both, beside :mod:`sim.intervals`. numpy and scipy only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

Array = np.ndarray[Any, Any]
TOL = 1e-9
"""A mix's weights below this are zero; a verified solution holds to it."""
DRAWS = 2000
"""Posterior draws of an answer."""


@dataclass(frozen=True, slots=True)
class Equilibrium:
    """Each side's equilibrium mix and the game's value (the row side's payoff)."""

    row: Array
    col: Array
    value: float


def solve(table: Array) -> Equilibrium:
    """The zero-sum equilibrium of ``table`` (rows maximise), by linear programming."""
    from scipy.optimize import linprog

    a = np.asarray(table, dtype=float)
    m, n = a.shape
    c = np.zeros(m + 1)
    c[-1] = -1.0  # maximise v
    a_ub = np.hstack([-a.T, np.ones((n, 1))])  # v - x @ A[:, j] <= 0
    a_eq = np.hstack([np.ones((1, m)), np.zeros((1, 1))])
    bounds = [(0.0, None)] * m + [(None, None)]
    res = linprog(c, A_ub=a_ub, b_ub=np.zeros(n), A_eq=a_eq, b_eq=[1.0], bounds=bounds)
    if res.status != 0:  # pragma: no cover - a bounded feasible program always solves
        raise ValueError(f"the game's linear program failed: {res.message}")
    x = _mix(res.x[:m])
    y = _mix(-np.asarray(res.ineqlin.marginals))
    return Equilibrium(x, y, float(res.x[-1]))


def _mix(w: Array) -> Array:
    w = np.where(w > TOL, w, 0.0)
    return np.asarray(w / w.sum())


def solve_many(tables: Array, hint: Equilibrium | None = None) -> tuple[Array, Array, Array]:
    """Values ``(S,)``, row mixes ``(S, m)`` and column mixes ``(S, n)`` of ``tables``.

    Each table is solved on square supports, all tables at once: ``hint``'s first, then
    (for games of at most :data:`SUPPORTS` support pairs) every pair of equal size; a
    solution is kept where it checks out (both mixes non-negative, no alternative doing
    better against the other's mix), so it is an exact equilibrium. A table no square
    support solves (a degenerate one) goes through :func:`solve`.
    """
    t = np.asarray(tables, dtype=float)
    s, m, n = t.shape
    values, rows, cols = np.empty(s), np.zeros((s, m)), np.zeros((s, n))
    done = np.zeros(s, dtype=bool)
    for i, j in _supports(m, n, hint):
        if done.all():
            break
        todo = np.flatnonzero(~done)
        v, x, y, ok = _on_support(t[todo], i, j)
        got = todo[ok]
        values[got], rows[np.ix_(got, i)], cols[np.ix_(got, j)] = v[ok], x[ok], y[ok]
        done[got] = True
    for k in np.flatnonzero(~done):
        e = solve(t[k])
        values[k], rows[k], cols[k] = e.value, e.row, e.col
    return values, rows, cols


SUPPORTS = 300
"""The most pairs of equal-sized supports :func:`solve_many` tries on every table."""


def _supports(m: int, n: int, hint: Equilibrium | None) -> list[tuple[Array, Array]]:
    from itertools import combinations
    from math import comb

    out: list[tuple[Array, Array]] = []
    if hint is not None:
        hi, hj = np.flatnonzero(hint.row > TOL), np.flatnonzero(hint.col > TOL)
        if len(hi) == len(hj):
            out.append((hi, hj))
    if sum(comb(m, k) * comb(n, k) for k in range(1, min(m, n) + 1)) <= SUPPORTS:
        for k in range(1, min(m, n) + 1):
            for i in combinations(range(m), k):
                for j in combinations(range(n), k):
                    out.append((np.array(i), np.array(j)))
    return out


def _on_support(t: Array, i: Array, j: Array) -> tuple[Array, Array, Array, Array]:
    """Each table's equilibrium on rows ``i`` and columns ``j``, and where it holds."""
    s, k = len(t), len(i)
    sub = t[:, i][:, :, j]
    # y: sub @ y = v, sum y = 1; x: x @ sub = v, sum x = 1 (unknowns: weights, then -v)
    m_y = np.zeros((s, k + 1, k + 1))
    m_y[:, :k, :k], m_y[:, :k, k], m_y[:, k, :k] = sub, -1.0, 1.0
    m_x = np.zeros((s, k + 1, k + 1))
    m_x[:, :k, :k], m_x[:, :k, k], m_x[:, k, :k] = np.swapaxes(sub, 1, 2), -1.0, 1.0
    rhs = np.zeros((s, k + 1, 1))
    rhs[:, k, 0] = 1.0
    with np.errstate(all="ignore"):
        fine = np.abs(np.linalg.det(m_y)) > 1e-12
        safe = np.where(fine[:, None, None], m_y, np.eye(k + 1))
        sy = np.linalg.solve(safe, rhs)[:, :, 0]
        safe = np.where(fine[:, None, None], m_x, np.eye(k + 1))
        sx = np.linalg.solve(safe, rhs)[:, :, 0]
    y, x, v = sy[:, :k], sx[:, :k], sy[:, k]
    full_y = np.zeros((s, t.shape[2]))
    full_y[:, j] = y
    full_x = np.zeros((s, t.shape[1]))
    full_x[:, i] = x
    rows_do = np.einsum("smn,sn->sm", t, full_y).max(axis=1)
    cols_do = np.einsum("sm,smn->sn", full_x, t).min(axis=1)
    ok = (
        fine
        & (x >= -TOL).all(axis=1)
        & (y >= -TOL).all(axis=1)
        & (rows_do <= v + 1e-9)
        & (cols_do >= v - 1e-9)
    )
    return v, np.clip(x, 0, None), np.clip(y, 0, None), ok


@dataclass(frozen=True)
class Cells:
    """What the battles of a game measured, cell by cell, and how they cluster by seed.

    ``wins`` and ``counted`` are ``(m, n)``: the row side's wins and the battles that count
    (all, or the decisive ones) in each cell. ``patterns`` (``(P, 2 m n)``: each cell's wins
    then its counted battles) are the distinct clusters of battles that met the same dice,
    ``times`` how many clusters have each pattern (see :meth:`draws`).
    """

    wins: Array
    counted: Array
    patterns: Array = field(repr=False)
    times: Array = field(repr=False)

    @property
    def shape(self) -> tuple[int, int]:
        """(rows, columns)."""
        m, n = self.wins.shape
        return int(m), int(n)

    @property
    def table(self) -> Array:
        """Each cell's measured share (1/2 where no battle counts)."""
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(self.counted > 0, self.wins / self.counted, 0.5)

    def draws(self, size: int, rng: np.random.Generator) -> Array:
        """``size`` tables from the cells' joint posterior, ``(size, m, n)``.

        A Bayesian bootstrap over the clusters (each cluster's weight Gamma(1), so a
        pattern met ``t`` times weighs Gamma(t)) with, per cell, a pseudo-win and a
        pseudo-loss of weight Gamma(1/2) each: a cell's share is then exactly
        ``Beta(k + 1/2, n - k + 1/2)``, and cells whose battles shared seeds move together
        as their battles did.
        """
        m, n = self.shape
        c = m * n
        g = rng.standard_gamma(self.times[None, :], size=(size, len(self.times)))
        got = g @ self.patterns if len(self.times) else np.zeros((size, 2 * c))
        a = rng.standard_gamma(0.5, size=(size, c))
        b = rng.standard_gamma(0.5, size=(size, c))
        share = (got[:, :c] + a) / (got[:, c:] + a + b)
        return share.reshape(size, m, n)


def cells_of(
    row: Any, col: Any, win: Any, counted: Any, cluster: Any, shape: tuple[int, int]
) -> Cells:
    """The :class:`Cells` of battles: each one's row and column, win, whether it counts, cluster.

    ``cluster`` is any label of the dice a battle met (its seed): battles with the same
    label are one cluster of the posterior.
    """
    m, n = shape
    c = m * n
    cell = np.asarray(row, dtype=np.int64) * n + np.asarray(col, dtype=np.int64)
    w = np.asarray(win, dtype=float) * np.asarray(counted, dtype=float)
    k = np.asarray(counted, dtype=float)
    wins = np.bincount(cell, weights=w, minlength=c).reshape(m, n)
    cnt = np.bincount(cell, weights=k, minlength=c).reshape(m, n)
    if not len(cell):
        return Cells(wins, cnt, np.zeros((0, 2 * c)), np.zeros(0))
    _, label = np.unique(np.asarray(cluster), return_inverse=True)
    grid = np.zeros((int(label.max()) + 1, 2 * c))
    np.add.at(grid, (label, cell), w)
    np.add.at(grid, (label, c + cell), k)
    grid = grid[grid[:, c:].sum(axis=1) > 0]  # clusters of draws or failures only: no weight
    patterns, times = np.unique(grid, axis=0, return_counts=True)
    return Cells(wins, cnt, patterns, times.astype(float))


@dataclass(frozen=True)
class Dominance:
    """One alternative dominated by another, and the differences that show it.

    ``side`` is ``"row"`` or ``"col"``; ``strict``: the other is better against every
    remaining alternative of the opponent (each difference's 95% interval above 0); weak:
    better against one, and nowhere worse by more than ``margin`` (each interval above
    ``-margin``). ``step`` numbers the iterated elimination (strict only; weak ones are
    found among the survivors and not removed). ``diffs``: per opponent alternative,
    ``(index, mean, lo, hi)`` of how much better the dominating one does.
    """

    side: str
    alternative: int
    by: int
    strict: bool
    step: int
    diffs: tuple[tuple[int, float, float, float], ...]


@dataclass(frozen=True)
class Result:
    """A game solved with its sampling error (:func:`analyse`); shares in 0..1.

    Intervals are 95%, from the posterior draws: ``value_ci`` (:func:`bracket`), ``row_ci``
    / ``col_ci`` (``(m, 2)``, ``(n, 2)``) of each weight; ``exploit95`` the exploitability's
    95% upper bound (what both sides together could gain against the mixes found); ``row_regret`` /
    ``col_regret`` ``(k, 3)``: mean, lo, hi of each pure choice's shortfall from the best
    reply to the other side's mix; ``replies`` per opponent choice ``(side, against,
    best, runner-up, mean, lo, hi)``: the best reply and how much better it is than the
    next.
    """

    cells: Cells
    table: Array
    eq: Equilibrium
    value_ci: tuple[float, float]
    row_ci: Array
    col_ci: Array
    exploit95: float
    row_regret: Array
    col_regret: Array
    replies: tuple[tuple[str, int, int, int, float, float, float], ...]
    dominated: tuple[Dominance, ...]
    draws: int


def _ci(v: Array, axis: int = 0) -> Array:
    return np.asarray(np.quantile(v, [0.025, 0.975], axis=axis))


def exploitability(draws: Array, eq: Equilibrium) -> Array:
    """Each drawn table's exploitability of ``eq``'s mixes: ``max_i (A y)_i - min_j (x A)_j``.

    What the row side gains by its best reply to the column mix, plus what the column
    side gains by its best reply to the row mix (0 at an exact equilibrium).
    """
    best_row = np.einsum("smn,n->sm", draws, eq.col).max(axis=1)
    best_col = np.einsum("m,smn->sn", eq.row, draws).min(axis=1)
    return np.asarray(best_row - best_col)


def analyse(
    cells: Cells, rng: np.random.Generator, size: int = DRAWS, margin: float = 0.02
) -> Result:
    """The game of ``cells`` solved (see :class:`Result`); ``margin`` for weak dominance."""
    table = cells.table
    eq = solve(table)
    draws = cells.draws(size, rng)
    _, rows, cols = solve_many(draws, eq)
    row_do = np.einsum("smn,n->sm", draws, eq.col)
    col_do = np.einsum("m,smn->sn", eq.row, draws)
    vlo, vhi = bracket(row_do, col_do)
    row_reg = row_do.max(axis=1, keepdims=True) - row_do
    col_reg = col_do - col_do.min(axis=1, keepdims=True)
    point_row = table @ eq.col
    point_col = eq.row @ table
    return Result(
        cells=cells,
        table=table,
        eq=eq,
        value_ci=tuple(float(v) for v in hull((vlo, vhi), eq.value)),  # type: ignore[arg-type]
        row_ci=hull(_ci(rows).T, eq.row),
        col_ci=hull(_ci(cols).T, eq.col),
        exploit95=float(np.quantile(exploitability(draws, eq), 0.95)),
        row_regret=_with_ci(point_row.max() - point_row, row_reg),
        col_regret=_with_ci(point_col - point_col.min(), col_reg),
        replies=_replies(table, draws),
        dominated=dominance(table, draws, margin),
        draws=size,
    )


def bracket(row_do: Array, col_do: Array) -> tuple[float, float]:
    """The value's 95% interval: what the row mix is sure to win, what the column mix allows.

    ``row_do`` (``(S, m)``) is each row's share against the column mix in each draw,
    ``col_do`` (``(S, n)``) each column's against the row mix. Whatever the true table,
    its value lies between ``min_j (x A)_j`` (the row mix against the column side's best
    reply) and ``max_i (A y)_i``; the lower end is the first's 2.5% quantile, the upper
    the second's 97.5%. Never narrower than the value's own spread, and wider by the
    mixes' exploitability: the interval the adaptive search narrows.
    """
    lo = float(np.quantile(col_do.min(axis=1), 0.025))
    hi = float(np.quantile(row_do.max(axis=1), 0.975))
    return lo, hi


def hull(bounds: tuple[float, float] | Array, point: Any) -> Any:
    """Bounds widened to hold the measured point.

    A cell won 40 times of 40 measures 100%, though Jeffreys' posterior puts its 97.5%
    quantile below 1.
    """
    b = np.asarray(bounds, dtype=float)
    p = np.asarray(point, dtype=float)
    return np.stack([np.minimum(b[..., 0], p), np.maximum(b[..., 1], p)], axis=-1)


def _with_ci(point: Array, draws: Array) -> Array:
    lo, hi = hull(_ci(draws).T, point).T
    return np.column_stack([point, lo, hi])


def _replies(
    table: Array, draws: Array
) -> tuple[tuple[str, int, int, int, float, float, float], ...]:
    """The best reply to each pure choice of the other side, and its lead over the next."""
    out = []
    m, n = table.shape
    for j in range(n):  # the row side's best reply to column j: the highest share
        order = np.argsort(-table[:, j], kind="stable")
        out.append(_reply("row", j, order, table[:, j], draws[:, :, j], m))
    for i in range(m):  # the column side's best reply to row i: the lowest share
        order = np.argsort(table[i, :], kind="stable")
        out.append(_reply("col", i, order, -table[i, :], -draws[:, i, :], n))
    return tuple(out)


def _reply(
    side: str, against: int, order: Array, point: Array, draws: Array, k: int
) -> tuple[str, int, int, int, float, float, float]:
    best = int(order[0])
    if k < 2:
        return (side, against, best, -1, np.nan, np.nan, np.nan)
    second = int(order[1])
    lo, hi = _ci(draws[:, best] - draws[:, second])
    return (side, against, best, second, float(point[best] - point[second]), float(lo), float(hi))


def dominance(table: Array, draws: Array, margin: float) -> tuple[Dominance, ...]:
    """Dominated alternatives of both sides, strict ones removed step by step.

    Row ``a`` dominates row ``b`` where ``A[a, j] - A[b, j]`` (a column ``a`` dominates
    column ``b`` where ``A[i, b] - A[i, a]``) is above 0 against every remaining
    alternative of the opponent, each by its 95% interval (an intersection-union test:
    the claim holds at 95% when every part of it does). Iterated: a removed alternative
    no longer counts as an opponent's. Then the weakly dominated among the survivors.
    """
    m, n = table.shape
    rows, cols = list(range(m)), list(range(n))
    found: list[Dominance] = []
    step = 0
    while True:
        step += 1
        hit = _first(table, draws, rows, cols, "row", True, margin, step) or _first(
            table, draws, rows, cols, "col", True, margin, step
        )
        if hit is None:
            break
        found.append(hit)
        (rows if hit.side == "row" else cols).remove(hit.alternative)
    for side in ("row", "col"):
        alts = rows if side == "row" else cols
        for b in list(alts):
            weak = _dominator(table, draws, rows, cols, side, b, False, margin, 0)
            if weak is not None:
                found.append(weak)
    return tuple(found)


def _first(
    table: Array,
    draws: Array,
    rows: list[int],
    cols: list[int],
    side: str,
    strict: bool,
    margin: float,
    step: int,
) -> Dominance | None:
    for b in rows if side == "row" else cols:
        hit = _dominator(table, draws, rows, cols, side, b, strict, margin, step)
        if hit is not None:
            return hit
    return None


def _dominator(
    table: Array,
    draws: Array,
    rows: list[int],
    cols: list[int],
    side: str,
    b: int,
    strict: bool,
    margin: float,
    step: int,
) -> Dominance | None:
    """The alternative that dominates ``b`` (the most clearly), if one does."""
    mine, theirs = (rows, cols) if side == "row" else (cols, rows)
    if len(mine) < 2:
        return None
    best: Dominance | None = None
    for a in mine:
        if a == b:
            continue
        if side == "row":
            d, p = (
                draws[:, a, :][:, theirs] - draws[:, b, :][:, theirs],
                table[a, theirs] - table[b, theirs],
            )
        else:
            d, p = (
                draws[:, :, b][:, theirs] - draws[:, :, a][:, theirs],
                table[theirs, b] - table[theirs, a],
            )
        lo, hi = _ci(d)
        above = lo > 0
        holds = (
            above.all() if strict else (above.any() and (lo > -margin).all() and not above.all())
        )
        if not holds:
            continue
        diffs = tuple(
            (int(t), float(pp), float(ll), float(hh))
            for t, pp, ll, hh in zip(theirs, p, lo, hi, strict=True)
        )
        cand = Dominance(side, b, a, strict, step, diffs)
        if best is None or min(x[2] for x in diffs) > min(x[2] for x in best.diffs):
            best = cand
    return best
