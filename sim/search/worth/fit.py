"""The worth model, fitted: a logistic regression of a side's win share on summed worths.

Each composition's battles give the first side's wins ``k`` of ``n`` counted battles. The
model is Bradley-Terry's with the armies' strengths summed from their items::

    logit P(first side wins) = b0 + sum_i w_i * s_i * x_i

``x_i`` an item's count, ``s_i`` its side's sign (+1 first side, -1 other), ``w_i`` its
worth to its own side in log-odds, ``b0`` the first side's handicap with every item at its
base (what no item prices: the rest of the armies, the field, who strikes first). It is
fitted by maximum likelihood as a binomial GLM (statsmodels), every composition's counts
together; the covariance is scaled by the Pearson dispersion when the compositions scatter
more than a binomial allows (``max(1, chi2 / df)``, quasi-binomial), so a model that fits
badly widens its intervals instead of making them wrongly narrow.

Worths are identified on the log-odds scale (the link fixes the unit); points are a ratio,
``scale * w_i / w_ref`` for the item the designer prices (``a bandit costs 10``), and every
ratio's 95% interval is Fieller's (:func:`fieller`), which is honest when the denominator
is uncertain: it widens, or does not close, where a delta-method interval would stay short.

Additivity is checked two ways: the lack of fit of the whole model (:func:`lack_of_fit`,
the residual deviance and Pearson's chi-square against their degrees of freedom) and each
interaction (:func:`term_test`: a product of two items, or an item's square, added to the
model, by a likelihood-ratio test).

Pure: arrays in, numbers out; no scenario, no battle.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np

from sim.intervals import Z95

Array = np.ndarray[Any, Any]
SEPARATED = 30.0
"""A fitted linear predictor beyond this (in log-odds) at a composition fought means the
counts are separated (some direction of the items decides every battle): no finite maximum
likelihood, and no fit."""
UNBOUNDED = 50.0
"""A coefficient's standard error above this (log-odds) means the same: the likelihood is
flat towards infinity along some direction (a real worth is a few log-odds, its error less)."""


@dataclass(frozen=True, slots=True)
class Ratio:
    """A ratio of two fitted quantities and its 95% interval (Fieller's).

    ``lo`` and ``hi`` are NaN when the interval does not close (the denominator is not
    clearly different from zero).
    """

    est: float
    lo: float
    hi: float

    @property
    def bounded(self) -> bool:
        """Whether the interval closes on both sides."""
        return math.isfinite(self.lo) and math.isfinite(self.hi)

    def times(self, s: float) -> Ratio:
        """The ratio and its interval multiplied by ``s`` (``s`` > 0)."""
        return Ratio(self.est * s, self.lo * s, self.hi * s)

    def holds(self, value: float) -> bool:
        """Whether the interval holds ``value`` (an unbounded one holds everything)."""
        return not self.bounded or self.lo <= value <= self.hi

    def half(self) -> float:
        """The interval's half-width (inf when it does not close)."""
        return (self.hi - self.lo) / 2 if self.bounded else math.inf


def fieller(a: float, b: float, vaa: float, vab: float, vbb: float, z: float = Z95) -> Ratio:
    """``a / b`` with Fieller's interval: every ``r`` with ``|a - r b|`` within ``z`` errors.

    ``vaa``, ``vab``, ``vbb`` are the estimates' variances and covariance. The set is an
    interval when ``b`` is clearly non-zero (``b^2 > z^2 vbb``); otherwise it does not close.
    """
    est = a / b if b != 0 else math.nan
    qa = b * b - z * z * vbb
    qb = a * b - z * z * vab
    qc = a * a - z * z * vaa
    if qa <= 0:
        return Ratio(est, math.nan, math.nan)
    root = math.sqrt(max(qb * qb - qa * qc, 0.0))
    return Ratio(est, (qb - root) / qa, (qb + root) / qa)


@dataclass(frozen=True, slots=True)
class Fit:
    """A fitted worth model: coefficients (the handicap, then each item's worth) and more.

    ``cov`` is scaled by ``dispersion``; ``fitted`` is each composition's fitted share,
    ``deviance`` and ``pearson`` the residual deviance and Pearson chi-square on ``df``
    degrees of freedom (compositions less coefficients).
    """

    coef: Array
    cov: Array
    dispersion: float
    deviance: float
    pearson: float
    df: int
    fitted: Array

    def se(self) -> Array:
        """Each coefficient's standard error."""
        return np.sqrt(np.maximum(np.diag(self.cov), 0.0))

    def eta(self, rows: Array) -> Array:
        """The linear predictor (log-odds) at model rows."""
        return np.asarray(np.atleast_2d(rows) @ self.coef)

    def ratio(self, num: Array, den: Array) -> Ratio:
        """``num . coef / den . coef`` (two linear combinations) with Fieller's interval."""
        num, den = np.asarray(num, dtype=float), np.asarray(den, dtype=float)
        v = self.cov
        return fieller(
            float(num @ self.coef),
            float(den @ self.coef),
            float(num @ v @ num),
            float(num @ v @ den),
            float(den @ v @ den),
        )

    def wald(self, j: int) -> tuple[float, float, float]:
        """Coefficient ``j`` and its 95% Wald interval."""
        c, s = float(self.coef[j]), float(self.se()[j])
        return c, c - Z95 * s, c + Z95 * s


def unit(size: int, j: int) -> Array:
    """The vector picking coefficient ``j`` of ``size``."""
    e = np.zeros(size)
    e[j] = 1.0
    return e


def fit(rows: Array, k: Array, n: Array) -> Fit | None:
    """The maximum-likelihood fit of ``k`` wins of ``n`` (every ``n`` > 0) at each model row.

    None when the counts are separated, the fit does not converge, or the rows do not
    identify every coefficient (fewer distinct compositions than coefficients, or an item
    that never varies).
    """
    import statsmodels.api as sm
    from statsmodels.tools import sm_exceptions

    rows = np.atleast_2d(np.asarray(rows, dtype=float))
    k, n = np.asarray(k, dtype=float), np.asarray(n, dtype=float)
    if len(rows) < rows.shape[1] or np.linalg.matrix_rank(rows) < rows.shape[1]:
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", sm_exceptions.PerfectSeparationWarning)
        warnings.simplefilter("ignore", RuntimeWarning)
        warnings.simplefilter("error", sm_exceptions.ConvergenceWarning)
        try:
            model = sm.GLM(np.column_stack([k, n - k]), rows, family=sm.families.Binomial())
            res = model.fit()
        except (
            sm_exceptions.PerfectSeparationError,
            sm_exceptions.ConvergenceWarning,
            np.linalg.LinAlgError,
            ValueError,
        ):
            return None
    coef = np.asarray(res.params, dtype=float)
    if not res.converged or not np.all(np.isfinite(coef)):
        return None
    if np.max(np.abs(rows @ coef)) > SEPARATED:
        return None
    df = int(res.df_resid)
    pearson = float(res.pearson_chi2)
    dispersion = max(1.0, pearson / df) if df > 0 else 1.0
    cov = np.asarray(res.cov_params(), dtype=float) * dispersion
    if not np.all(np.isfinite(cov)) or np.max(np.sqrt(np.abs(np.diag(cov)))) > UNBOUNDED:
        return None
    return Fit(
        coef=coef,
        cov=cov,
        dispersion=dispersion,
        deviance=float(res.deviance),
        pearson=pearson,
        df=df,
        fitted=np.asarray(res.fittedvalues, dtype=float),
    )


def ridge(rows: Array, k: Array, n: Array, penalty: float = 0.5) -> Array:
    """A penalized fit for planning: the log-likelihood less ``penalty / 2`` x each worth^2.

    Always finite (a few lopsided compositions separate the counts long before the maximum
    likelihood exists); the constant is not penalized. Newton's method, a fixed number of
    steps at most, so the same counts give the same coefficients.
    """
    rows = np.atleast_2d(np.asarray(rows, dtype=float))
    k, n = np.asarray(k, dtype=float), np.asarray(n, dtype=float)
    pen = np.full(rows.shape[1], penalty)
    pen[0] = 1e-6
    beta = np.zeros(rows.shape[1])
    for _ in range(100):
        eta = np.clip(rows @ beta, -40, 40)
        p = 1 / (1 + np.exp(-eta))
        grad = rows.T @ (k - n * p) - pen * beta
        hess = rows.T @ (rows * (n * p * (1 - p))[:, None]) + np.diag(pen)
        step = np.linalg.solve(hess, grad)
        beta = beta + step
        if np.max(np.abs(step)) < 1e-9:
            break
    return beta


def information(rows: Array, n: Array, beta: Array) -> Array:
    """The Fisher information of the model at ``beta`` from ``n`` battles at each row."""
    rows = np.atleast_2d(np.asarray(rows, dtype=float))
    p = 1 / (1 + np.exp(-np.clip(rows @ beta, -40, 40)))
    return np.asarray(rows.T @ (rows * (np.asarray(n) * p * (1 - p))[:, None]))


@dataclass(frozen=True, slots=True)
class LackOfFit:
    """The additive model against a saturated one: deviance and Pearson, their p-values."""

    deviance: float
    pearson: float
    df: int
    p_deviance: float
    p_pearson: float

    @property
    def fails(self) -> bool:
        """Whether either statistic rejects the model at 5%."""
        return self.df > 0 and min(self.p_deviance, self.p_pearson) < 0.05


def lack_of_fit(f: Fit) -> LackOfFit:
    """The fit's goodness-of-fit tests (no test with no residual degrees of freedom)."""
    from scipy import stats

    if f.df <= 0:
        return LackOfFit(f.deviance, f.pearson, f.df, math.nan, math.nan)
    return LackOfFit(
        f.deviance,
        f.pearson,
        f.df,
        float(stats.chi2.sf(f.deviance, f.df)),
        float(stats.chi2.sf(f.pearson, f.df)),
    )


def residuals(f: Fit, k: Array, n: Array) -> Array:
    """Each composition's Pearson residual: observed less fitted wins over their spread."""
    k, n = np.asarray(k, dtype=float), np.asarray(n, dtype=float)
    p = np.clip(f.fitted, 1e-12, 1 - 1e-12)
    keep = n > 0
    out = np.full(len(n), math.nan)
    out[keep] = (k[keep] - n[keep] * p) / np.sqrt(n[keep] * p * (1 - p))
    return out


@dataclass(frozen=True, slots=True)
class Term:
    """An interaction added to the additive model: its coefficient, test and wider fit."""

    coef: float
    se: float
    statistic: float
    p: float
    fit: Fit


def term_test(rows: Array, k: Array, n: Array, extra: Array, base: Fit) -> Term | None:
    """The model with column ``extra`` added, tested against ``base`` (likelihood ratio).

    The statistic is the fall in deviance over the wider model's dispersion (at least 1),
    referred to chi-square with one degree of freedom. None when the wider model cannot be
    fitted.
    """
    from scipy import stats

    n = np.asarray(n, dtype=float)
    wide = fit(np.column_stack([rows, extra]), k, n)
    if wide is None:
        return None
    stat = max(0.0, base.deviance - wide.deviance) / wide.dispersion
    return Term(
        float(wide.coef[-1]),
        float(wide.se()[-1]),
        stat,
        float(stats.chi2.sf(stat, 1)),
        wide,
    )
