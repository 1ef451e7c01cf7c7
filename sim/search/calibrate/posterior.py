"""A calibration's arithmetic: the prior's grid, each cell's likelihood, the posterior.

The unknowns' prior is uniform on a grid (:class:`Grid`): every choice, every whole number
of a range (or ``levels`` of them, evenly spaced, if there are more than :data:`MAX_WHOLE`),
``levels`` evenly spaced values of a real range. A **cell** is one value of each unknown.

The battles fought at a cell and an observed row give, for each statistic, a simulated
count (a share: ``k`` of ``n`` battles) or a mean and spread. The distance between a
cell and the observed table is minus twice the log of the chance of the observed table,
given what the cell's battles showed (a synthetic likelihood): each statistic is weighed by
its uncertainty, the observed table's sampling error and the simulation's added together:

- a share observed as ``k_obs`` of ``n_obs``: beta-binomial, ``k_obs ~ BetaBinomial(n_obs,
  k + 1/2, n - k + 1/2)``: the binomial chance of ``k_obs`` averaged over what the cell's
  share may be after ``k`` of ``n`` simulated (Jeffreys);
- a mean: Student's t, ``obs ~ mean + t(n - 1) * sqrt(s**2 / n_obs + s**2 / n)``, with
  ``s`` the spread of one battle's value (the row's ``STAT.sd`` if given, for the observed
  part; else the simulated spread, shrunk a little to the row's, :data:`POOL`): the
  predictive of a mean of ``n_obs`` battles from a sample of ``n`` whose spread is itself
  estimated.

Statistics and rows count as independent. The posterior of the cells is the likelihood
times the uniform prior, normalised; each unknown's marginal, its 95% interval, and the
predictive check follow (:func:`marginal`, :func:`interval`, :func:`predictive`).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from sim.search.calibrate import medians as med
from sim.search.calibrate.observed import Observed, Row, Stat
from sim.search.space import Param

MAX_WHOLE = 41
"""A whole-number range of at most this many values is gridded at every value."""
MAX_CELLS = 4000
"""The most cells a grid may have."""
POOL = 4.0
"""Pseudo-battles of the row's spread added to a cell's own (a small shrinkage)."""
FLOOR = 1e-4
"""The smallest variance of a mean (a cell whose battles all gave the same value)."""


@dataclass(frozen=True, slots=True)
class Grid:
    """The unknowns' values on the prior's grid, and the cells they make."""

    params: tuple[Param, ...]
    values: tuple[tuple[Any, ...], ...]

    @property
    def shape(self) -> tuple[int, ...]:
        """Values per unknown."""
        return tuple(len(v) for v in self.values)

    @property
    def size(self) -> int:
        """Cells."""
        return math.prod(self.shape)

    def cell(self, index: int) -> dict[str, Any]:
        """Cell ``index``'s value of each unknown."""
        where = np.unravel_index(index, self.shape)
        return {p.name: v[int(i)] for p, v, i in zip(self.params, self.values, where, strict=True)}

    def cells(self) -> list[dict[str, Any]]:
        """Every cell, in index order."""
        return [
            {p.name: v for p, v in zip(self.params, combo, strict=True)}
            for combo in itertools.product(*self.values)
        ]


def grid_values(p: Param, levels: int) -> tuple[Any, ...]:
    """An unknown's values on the grid (see the module's docstring)."""
    if p.kind in ("choices", "bundle"):
        return tuple(p.choices)
    if p.kind == "whole":
        low, high = int(p.low), int(p.high)
        if high - low + 1 <= MAX_WHOLE:
            return tuple(range(low, high + 1))
        return tuple(sorted({int(round(x)) for x in np.linspace(low, high, levels)}))
    return tuple(float(x) for x in np.linspace(p.low, p.high, levels))


def battle_values(
    runs: pd.DataFrame,
    stats: Sequence[Stat],
    sides: Sequence[str],
    attacker: Sequence[str | None] | None = None,
) -> pd.DataFrame:
    """Each battle's value of each statistic (NaN where it does not count), and its kind.

    ``attacker``: each battle's attacking side (None: not said). Columns: each statistic's
    name; ``ok`` (finished), ``decisive`` (finished with a winner).
    """
    ok = ~runs["failed"].astype(bool).to_numpy()
    winner = runs["winner"]
    decisive = ok & winner.notna().to_numpy()
    out = pd.DataFrame({"ok": ok, "decisive": decisive}, index=runs.index)
    roles = _Roles(runs, sides, decisive, attacker)
    for s in stats:
        counts = decisive if s.decisive else ok
        if s.what == "wins":
            member, has = roles.of(str(s.side))
            won = np.zeros(len(runs), dtype=bool)
            for i, side in enumerate(sides):
                won |= member[i] & (winner == side).to_numpy()
            v, counts = won.astype(float), counts & has
        elif s.what == "draws":
            v = winner.isna().to_numpy(dtype=float)
        elif s.what == "rounds":
            v = runs["rounds"].to_numpy(dtype=float)
        else:
            member, has = roles.of(str(s.side))
            v, counts = roles.out(member, s.what), counts & has
        out[s.name] = np.where(counts, v, np.nan)
    return out


class _Roles:
    """Which sides are the winner, the larger, the attacker ... of each battle."""

    def __init__(
        self,
        runs: pd.DataFrame,
        sides: Sequence[str],
        decisive: np.ndarray[Any, Any],
        attacker: Sequence[str | None] | None,
    ) -> None:
        self.runs, self.sides, self.decisive = runs, sides, decisive
        self.attacker = attacker
        self.fighters = np.array([runs[f"fighters.{s}"].to_numpy(dtype=float) for s in sides])

    def of(self, who: str) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
        """``[side, battle]``: the sides that are ``who``; and the battles that have one."""
        n = len(self.runs)
        names = np.array(self.sides, dtype=object)[:, None]
        if who in self.sides:
            return np.broadcast_to(names == who, (len(self.sides), n)), np.ones(n, dtype=bool)
        winner = self.runs["winner"].to_numpy(dtype=object)[None, :]
        if who in ("winner", "loser"):
            member = (names == winner) if who == "winner" else (names != winner)
            return member & self.decisive[None, :], self.decisive
        if who in ("larger", "smaller"):
            f = self.fighters
            pick = f.max(axis=0) if who == "larger" else f.min(axis=0)
            member = f == pick[None, :]
            return member, member.sum(axis=0) == 1
        given = np.array(
            [None] * n if self.attacker is None else list(self.attacker), dtype=object
        )[None, :]
        has = given[0] != None  # noqa: E711 (an object array's comparison)
        member = (names == given) if who == "attacker" else (names != given)
        return member & has[None, :], has

    def out(self, member: np.ndarray[Any, Any], what: str) -> np.ndarray[Any, Any]:
        """The share of the ``member`` sides' fighters out, by the definition ``what``."""
        gone = {
            "down": ("down",),
            "gone": ("lost", "-surrendered"),
            "lost": ("lost",),
            "casualties": ("down", "surrendered"),
        }[what]
        count = np.zeros(member.shape)
        for i, side in enumerate(self.sides):
            for c in gone:
                sign, column = (-1.0, c[1:]) if c.startswith("-") else (1.0, c)
                count[i] += sign * self.runs[f"{column}.{side}"].to_numpy(dtype=float)
        down = (count * member).sum(axis=0)
        total = (self.fighters * member).sum(axis=0)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(total > 0, down / total, np.nan)


@dataclass(frozen=True, slots=True)
class Sims:
    """What the battles of every (cell, row) showed: counts, sums and sums of squares.

    Arrays are ``[cell, row]``; per statistic ``n`` (battles it counts), ``sum``, ``ss``.
    For a median, each battle's value too (``raw``, with its ``cell * rows + row`` in
    ``where``).
    """

    runs: np.ndarray[Any, Any]
    ok: np.ndarray[Any, Any]
    decisive: np.ndarray[Any, Any]
    n: dict[str, np.ndarray[Any, Any]]
    sum: dict[str, np.ndarray[Any, Any]]
    ss: dict[str, np.ndarray[Any, Any]]
    where: np.ndarray[Any, Any] | None = None
    raw: dict[str, np.ndarray[Any, Any]] | None = None

    def values(self, stat: str, row: int) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
        """The battles of ``row`` that count for the median ``stat``: cells and values."""
        assert self.where is not None and self.raw is not None
        rows = self.runs.shape[1]
        v = self.raw[stat]
        mine = (self.where % rows == row) & ~np.isnan(v)
        return self.where[mine] // rows, v[mine]


def simulated(
    runs: pd.DataFrame,
    cells: int,
    rows: Sequence[str],
    stats: Sequence[Stat],
    sides: Sequence[str],
    attackers: Sequence[str | None] | None = None,
) -> Sims:
    """Sum the battles of ``runs`` (columns ``cell`` and ``observed``) by cell and row.

    ``attackers``: each row's attacking side (None: not said).
    """
    shape = (cells, len(rows))
    place = {label: i for i, label in enumerate(rows)}
    if len(runs):
        c = runs["cell"].astype(int).to_numpy()
        r = runs["observed"].map(place).astype(int).to_numpy()
        flat = c * len(rows) + r
    else:
        r = flat = np.zeros(0, dtype=int)
    attacker = None if attackers is None else [attackers[i] for i in r]
    values = battle_values(runs, stats, sides, attacker) if len(runs) else None

    def total(x: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        return np.bincount(flat, weights=x, minlength=cells * len(rows)).reshape(shape)

    ones = np.ones(len(flat))
    n, s1, s2, raw = {}, {}, {}, {}
    for s in stats:
        v = values[s.name].to_numpy() if values is not None else np.zeros(0)
        has = ~np.isnan(v)
        n[s.name] = total(has.astype(float))
        s1[s.name] = total(np.where(has, v, 0.0))
        s2[s.name] = total(np.where(has, v * v, 0.0))
        if s.kind == "median":
            raw[s.name] = v
    ok = total(values["ok"].to_numpy(dtype=float)) if values is not None else total(ones)
    dec = total(values["decisive"].to_numpy(dtype=float)) if values is not None else total(ones)
    return Sims(total(ones), ok, dec, n, s1, s2, flat, raw)


def spread(sims: Sims, stat: str, row: int) -> np.ndarray[Any, Any]:
    """Each cell's variance of one battle's ``stat`` in ``row``, shrunk a little to the row's.

    The row's is the variance of every battle fought at it, whatever the cell; it counts as
    :data:`POOL` battles more, so a cell whose few battles all gave one value (a rare
    outcome not yet seen) is not taken for one that never varies.
    """
    n, s1, s2 = sims.n[stat][:, row], sims.sum[stat][:, row], sims.ss[stat][:, row]
    with np.errstate(invalid="ignore", divide="ignore"):
        own = np.where(n > 0, s2 - s1 * s1 / np.maximum(n, 1), 0.0)
        total = n.sum()
        whole = (s2.sum() - s1.sum() ** 2 / total) / (total - 1) if total > 1 else 0.0
        var = (own + POOL * whole) / (np.maximum(n - 1, 0) + POOL)
    return np.maximum(np.nan_to_num(var, nan=whole), FLOOR)


def df(sims: Sims, stat: str, row: int) -> np.ndarray[Any, Any]:
    """The degrees of freedom of each cell's spread (its battles less one, and POOL)."""
    return np.asarray(np.maximum(sims.n[stat][:, row] - 1, 0) + POOL, dtype=float)


def observed_n(sims: Sims, stat: Stat, row: Row, r: int) -> np.ndarray[Any, Any]:
    """Each cell's sample size of ``stat`` in the observed ``row``.

    The statistic's own (``STAT.n``); else ``battles`` for a statistic of every battle; for
    one of decisive battles the row's ``decisive``, else its battles less its observed
    draws, else its battles times the cell's simulated share of decisive battles.
    """
    cells = sims.runs.shape[0]
    own = row.n(stat.name)
    if own is not None:
        return np.full(cells, own)
    if not stat.decisive:
        return np.full(cells, row.battles)
    if row.decisive is not None:
        return np.full(cells, row.decisive)
    draws = row.value("draws")
    if draws is not None:
        return np.full(cells, int(round(row.battles * (1 - draws))))
    share = (sims.decisive[:, r] + 0.5) / (sims.ok[:, r] + 1.0)
    return np.round(row.battles * share).astype(int)


def loglik(
    sims: Sims, table: Observed, rho: float = 0.0, weights: dict[str, float] | None = None
) -> np.ndarray[Any, Any]:
    """Each cell's log-likelihood of the observed table (see the module's docstring).

    ``rho``: the rows' dispersion beyond chance (:mod:`sim.search.calibrate.dispersion`);
    ``weights``: a statistic's log-likelihood is multiplied by its weight (default 1).
    """
    total = np.zeros(sims.runs.shape[0])
    for r, row in enumerate(table.rows):
        for s in table.stats:
            obs = row.value(s.name)
            if obs is None:
                continue
            term = _term(sims, s, row, r, obs, rho)
            w = (weights or {}).get(s.name, 1.0)
            total += term if w == 1.0 else w * term
    return total


def beta_of(k: Any, n: Any, rho: Any = 0.0) -> tuple[Any, Any]:
    """The Beta of a cell's share after ``k`` of ``n`` (Jeffreys), widened by ``rho``.

    ``rho`` (0: none) adds ``rho * p * (1 - p)`` to its variance: how far a row's true
    share may stray from the cell's beyond chance.
    """
    a, b = k + 0.5, n - k + 0.5
    if np.isscalar(rho) and rho == 0:
        return a, b
    c = a + b
    concentration = 1.0 / (1.0 / (c + 1.0) + rho) - 1.0
    return a / c * concentration, b / c * concentration


def _term(
    sims: Sims, s: Stat, row: Row, r: int, obs: float, rho: float = 0.0
) -> np.ndarray[Any, Any]:
    """One statistic's log-likelihood in one row, per cell."""
    from scipy import stats as st  # here: a search's file is read without it

    n_obs = observed_n(sims, s, row, r)
    n = sims.n[s.name][:, r]
    if s.kind == "share":
        k = sims.sum[s.name][:, r]
        k_obs = np.round(obs * n_obs)
        a, b = beta_of(k, n, rho)
        return np.asarray(st.betabinom.logpmf(k_obs, n_obs, a, b), dtype=float)
    if s.kind == "median":
        b_cells = med.below(*sims.values(s.name, r), sims.runs.shape[0], obs)
        a, b = beta_of(b_cells, n, rho)
        return med.betabinom(n_obs / 2, n_obs, a, b)
    var = spread(sims, s.name, r)
    var_obs = _observed_var(row, s, var, n_obs)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = sims.sum[s.name][:, r] / n
        between = rho * var if rho else 0.0
        scale = np.sqrt(var_obs + var / np.maximum(n, 1) + between)
        out = st.t.logpdf(obs, df(sims, s.name, r), mean, scale)
    missing = n == 0
    if missing.any():  # no battle of the cell counts: as badly as the worst cell that has one
        worst = np.min(out[~missing]) if (~missing).any() else 0.0
        out = np.where(missing, worst, out)
    return np.asarray(out, dtype=float)


def _observed_var(row: Row, s: Stat, var: Any, n_obs: Any) -> Any:
    """The variance of the observed mean: its own standard error's, or spread over size."""
    se = row.se(s.name)
    if se is not None:
        return np.full_like(np.asarray(var, dtype=float), se * se)
    given = row.sd(s.name)
    return (given * given if given is not None else var) / np.maximum(n_obs, 1)


def posterior(ll: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """The cells' posterior under the uniform prior."""
    w = np.exp(ll - np.max(ll))
    return np.asarray(w / w.sum())


def plausible(post: np.ndarray[Any, Any], mass: float) -> list[int]:
    """The fewest cells holding ``mass`` of the posterior, most probable first."""
    order = np.argsort(-post, kind="stable")
    upto = int(np.searchsorted(np.cumsum(post[order]), mass)) + 1
    return [int(i) for i in order[: min(upto, len(order))]]


def marginal(grid: Grid, post: np.ndarray[Any, Any], i: int) -> np.ndarray[Any, Any]:
    """Unknown ``i``'s posterior mass at each of its grid values."""
    other = tuple(j for j in range(len(grid.shape)) if j != i)
    return np.asarray(post.reshape(grid.shape).sum(axis=other))


def pair(grid: Grid, post: np.ndarray[Any, Any], i: int, j: int) -> np.ndarray[Any, Any]:
    """Unknowns ``i`` and ``j``'s joint posterior, ``[value of i, value of j]``."""
    other = tuple(k for k in range(len(grid.shape)) if k not in (i, j))
    return np.asarray(post.reshape(grid.shape).sum(axis=other))


@dataclass(frozen=True, slots=True)
class Interval:
    """An unknown's fitted value and 95% interval (a set of choices for a choice)."""

    fitted: Any
    lo: Any
    hi: Any
    chosen: tuple[Any, ...]
    """For a choice: the 95% credible set, most probable first."""
    spans: bool
    """Whether the interval spans the whole prior (the data do not pin it down)."""
    low_end: bool
    high_end: bool


def interval(p: Param, values: Sequence[Any], mass: np.ndarray[Any, Any]) -> Interval:
    """The 95% interval of an unknown from its marginal on the grid.

    A choice: the most probable one, and the fewest holding 95%. A whole number: the
    median and the 2.5% and 97.5% quantiles of the grid values. A real: the same of the
    density that spreads each value's mass evenly over its share of the range.
    """
    if p.kind in ("choices", "bundle"):
        order = np.argsort(-mass, kind="stable")
        upto = int(np.searchsorted(np.cumsum(mass[order]), 0.95 - 1e-12)) + 1
        chosen = tuple(values[int(i)] for i in order[:upto])
        best = values[int(order[0])]
        return Interval(best, None, None, chosen, len(chosen) == len(values), False, False)
    if p.kind == "whole":
        cdf = np.cumsum(mass)
        q = [values[int(np.searchsorted(cdf, x - 1e-12))] for x in (0.025, 0.5, 0.975)]
    else:
        q = _real_quantiles(np.asarray(values, dtype=float), mass, (0.025, 0.5, 0.975))
    step = (values[1] - values[0]) if len(values) > 1 else 0
    low_end = q[0] <= values[0] + (step / 2 if p.kind == "real" else 0)
    high_end = q[2] >= values[-1] - (step / 2 if p.kind == "real" else 0)
    return Interval(q[1], q[0], q[2], (), low_end and high_end, low_end, high_end)


def _real_quantiles(
    x: np.ndarray[Any, Any], mass: np.ndarray[Any, Any], qs: Sequence[float]
) -> list[float]:
    """Quantiles of the histogram whose bins are centred on ``x`` (ends at the range's)."""
    if len(x) == 1:
        return [float(x[0])] * len(qs)
    edges = np.concatenate([[x[0]], (x[1:] + x[:-1]) / 2, [x[-1]]])
    cdf = np.concatenate([[0.0], np.cumsum(mass)])
    return [float(np.interp(q, cdf, edges)) for q in qs]


@dataclass(frozen=True, slots=True)
class Check:
    """One observed statistic beside what the fitted model gives at its sample size."""

    row: int
    stat: Stat
    observed: float
    n: float
    mean: float
    lo: float
    hi: float
    p: float
    """Two-sided posterior predictive p-value."""

    tol: float = 0.0
    """How near a value counts as the same (a median's :data:`TIE`)."""

    @property
    def fails(self) -> bool:
        """Whether the observation is outside the model's 95% predictive interval."""
        return not self.lo - self.tol <= self.observed <= self.hi + self.tol


def predictive(
    sims: Sims,
    table: Observed,
    post: np.ndarray[Any, Any],
    rng: np.random.Generator,
    draws: int = 4000,
    rhos: tuple[Sequence[float], np.ndarray[Any, Any]] | None = None,
) -> list[Check]:
    """The posterior predictive check of every observed statistic.

    For each draw: a cell from the posterior, the statistic's true value at it from what
    its battles showed, and the observation's sampling error at the observed sample size;
    a draw past the statistic's own bounds (a share's 0..1) is held at the bound. With
    ``rhos`` (the dispersion's values and the joint posterior ``[cell, value]``) each draw
    takes a cell and a dispersion together, and a share or a mean strays by it too (a
    median's draw does not).
    """
    if rhos is None:
        picks, rho = rng.choice(len(post), size=draws, p=post), np.zeros(draws)
    else:
        joint = rhos[1].ravel()
        flat = rng.choice(len(joint), size=draws, p=joint / joint.sum())
        picks, at = np.divmod(flat, rhos[1].shape[1])
        rho = np.asarray(rhos[0], dtype=float)[at]
    out = []
    for r, row in enumerate(table.rows):
        for s in table.stats:
            obs = row.value(s.name)
            if obs is None:
                continue
            n_obs = observed_n(sims, s, row, r)[picks]
            n = sims.n[s.name][picks, r]
            total = sims.sum[s.name][picks, r]
            if s.kind == "share":
                p = rng.beta(*beta_of(total, n, rho if rhos is not None else 0.0))
                k = rng.binomial(np.maximum(n_obs, 0), p)
                rep = np.where(n_obs > 0, k / np.maximum(n_obs, 1), np.nan)
            elif s.kind == "median":
                rep = med.medians(*sims.values(s.name, r), picks, n_obs, rng)
            else:
                var = spread(sims, s.name, r)[picks]
                var_obs = _observed_var(row, s, var, n_obs)
                with np.errstate(invalid="ignore", divide="ignore"):
                    mean = np.where(n > 0, total / np.maximum(n, 1), np.nan)
                scale = np.sqrt(var_obs + var / np.maximum(n, 1) + rho * var)
                rep = mean + scale * rng.standard_t(df(sims, s.name, r)[picks])
                # a mean of shares stays a share, a mean length stays >= 0
                rep = np.clip(rep, 0.0, 1.0 if s.fraction else np.inf)
            rep = rep[~np.isnan(rep)]
            if not len(rep):
                continue
            lo, hi = (float(v) for v in np.quantile(rep, [0.025, 0.975]))
            tol = med.TIE if s.kind == "median" else 0.0
            tail = min(float(np.mean(rep <= obs + tol)), float(np.mean(rep >= obs - tol)))
            n_mean, p = float(np.mean(n_obs)), min(1.0, 2 * tail)
            out.append(Check(r, s, obs, n_mean, float(rep.mean()), lo, hi, p, tol))
    return out


def table_rows(
    runs: pd.DataFrame, paths: Sequence[str], stats: Sequence[Stat], sides: Sequence[str]
) -> list[dict[str, Any]]:
    """An observed table of battles: per setting of ``paths``, ``battles``, ``decisive``, stats.

    ``runs`` has the ``paths`` columns, ``failed``, ``winner``, ``rounds`` and per side
    ``down.SIDE`` and ``fighters.SIDE`` (as :func:`sim.search.outcomes.read` gives them).
    The simulator's own table: what a calibration of its settings should recover.
    """
    values = battle_values(runs, stats, sides)
    out = []
    for key, group in values.groupby([runs[p] for p in paths], sort=True):
        key = key if isinstance(key, tuple) else (key,)
        row: dict[str, Any] = {p: _plain(k) for p, k in zip(paths, key, strict=True)}
        row["battles"] = int(group["ok"].sum())
        row["decisive"] = int(group["decisive"].sum())
        for s in stats:
            v = group[s.name].dropna()
            if len(v):
                row[s.name] = round(float(v.median() if s.kind == "median" else v.mean()), 4)
        out.append(row)
    return out


def _plain(v: Any) -> Any:
    return v.item() if hasattr(v, "item") else v
