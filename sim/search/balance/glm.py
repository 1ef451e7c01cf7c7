"""A monotone response of a share against one parameter, and where it crosses a target.

The share (a side's win rate) is fitted as a binomial GLM with a logit or probit link by
maximum likelihood over every point's counts (statsmodels): ``link(p) = b0 + b1 x``, and,
once there are four values or more, a curvature term ``b2 x^2`` as well, kept only when the
fitted curve is monotone over the whole range (else the straight one is used). A straight
logit is the textbook model, but a real response is seldom exactly logistic: fitted to
points spread over the range, a straight logit's crossing is pulled by the curve's bend (on
the Deathwish duel of the tests, by 0.018 of a range of 1 for a standard error of 0.020, so
its 95% intervals held the truth 91% of the time); with the curvature term the bias is gone
and they hold it 96% of the time, for a standard error about 5% larger.

The covariance is scaled by the Pearson dispersion when the points scatter more than the
binomial says (``max(1, chi2 / df)``, quasi-binomial), so a curve that fits badly widens
the interval instead of making it wrongly narrow.

The crossing ``x*`` is where the fitted ``link(p)`` meets ``link(target)``; its 95%
interval is every ``x`` near it whose fitted ``link(p)`` is within 1.96 standard errors of
``link(target)`` (Fieller's interval, for the straight line). When the slope is not clearly
different from zero that set does not close within the range: the interval is unbounded
(:attr:`Crossing.bounded` is False).
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np

Z95 = 1.959963984540054
LINKS = ("logit", "probit")
SEPARATED = 25.0
"""A slope steeper than this over the fitted points' half-range (in link units) means the
counts are separated (all successes on one side, all failures on the other): no finite
maximum likelihood, and no fit. A real response from 0.1% to 99.9% over the range is 7."""
CURVED_FROM = 4
"""Distinct values from which the curvature term is fitted."""
SCAN = 4000
"""Steps over the range (and half a range beyond each end) to find the crossing and its ends."""


@dataclass(frozen=True, slots=True)
class Crossing:
    """Where the fitted share meets the target: ``x`` and its 95% interval ``lo..hi``.

    ``points`` is the interval's half-width on the share's scale at the crossing (the
    fitted share's 95% interval there, as a share: 0.02 is two points); ``slope`` the
    fitted share's change per unit of ``x`` there. ``lo`` or ``hi`` is NaN on a side where
    the interval does not close (then ``bounded`` is False).
    """

    x: float
    lo: float
    hi: float
    points: float
    slope: float

    @property
    def bounded(self) -> bool:
        """Whether the interval closes on both sides."""
        return math.isfinite(self.lo) and math.isfinite(self.hi)

    @property
    def half(self) -> float:
        """The interval's half-width in the parameter's units (inf when unbounded)."""
        return (self.hi - self.lo) / 2 if self.bounded else math.inf


@dataclass(frozen=True, slots=True)
class Fit:
    """A fitted response: ``link(p)`` a polynomial in ``z = (x - centre) / span``.

    ``coef`` are its coefficients from the constant up, ``cov`` their covariance (scaled
    by ``dispersion``); ``deviance`` and ``df`` its residual deviance and degrees of freedom.
    """

    coef: tuple[float, ...]
    cov: tuple[tuple[float, ...], ...]
    centre: float
    span: float
    link: str
    dispersion: float
    deviance: float
    df: int

    def _basis(self, x: Any) -> np.ndarray[Any, Any]:
        z = (np.asarray(x, dtype=float) - self.centre) / self.span
        return np.stack([z**d for d in range(len(self.coef))], axis=-1)

    def eta(self, x: Any) -> np.ndarray[Any, Any]:
        """The linear predictor at ``x``."""
        return np.asarray(self._basis(x) @ np.asarray(self.coef))

    def se(self, x: Any) -> np.ndarray[Any, Any]:
        """The standard error of the linear predictor at ``x``."""
        b = self._basis(x)
        v = np.einsum("...i,ij,...j->...", b, np.asarray(self.cov), b)
        return np.sqrt(np.maximum(v, 0.0))

    def share(self, x: Any) -> np.ndarray[Any, Any]:
        """The fitted share at ``x``."""
        return inverse(self.link, self.eta(x))

    def band(self, x: Any) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
        """The fitted share's pointwise 95% interval at ``x``."""
        e, s = self.eta(x), self.se(x)
        return inverse(self.link, e - Z95 * s), inverse(self.link, e + Z95 * s)

    def slope_at(self, x: float) -> float:
        """The slope of ``link(p)`` in ``x`` at ``x``."""
        z = (x - self.centre) / self.span
        return sum(d * c * z ** (d - 1) for d, c in enumerate(self.coef) if d) / self.span

    def crossing(self, target: float, low: float, high: float) -> Crossing | None:
        """Where the fitted share meets ``target`` in ``low..high``; None if nowhere.

        Of several meetings (a curve that turns), the one nearest the middle of the range.
        """
        g = float(link_of(self.link, target))
        span = high - low
        grid = np.linspace(low - span / 2, high + span / 2, 2 * SCAN + 1)
        gap = self.eta(grid) - g
        roots = [
            _root(lambda x: float(self.eta(x)) - g, grid[i], grid[i + 1])
            for i in np.flatnonzero(gap[:-1] * gap[1:] <= 0)
        ]
        roots = [r for r in roots if low - 1e-12 <= r <= high + 1e-12]
        if not roots:
            return None
        x = min(roots, key=lambda r: abs(r - (low + high) / 2))
        outside = (gap**2 - (Z95 * self.se(grid)) ** 2) > 0
        lo, hi = _edge(grid, outside, x, -1), _edge(grid, outside, x, 1)
        deriv = float(inverse_deriv(self.link, g))
        return Crossing(x, lo, hi, Z95 * float(self.se(x)) * deriv, deriv * self.slope_at(x))


def _root(f: Any, a: float, b: float) -> float:
    """A root of ``f`` in ``a..b`` (``f(a)`` and ``f(b)`` of opposite signs), by bisection."""
    fa = f(a)
    if fa == 0:
        return float(a)
    for _ in range(80):
        m = (a + b) / 2
        fm = f(m)
        if fm == 0 or b - a < 1e-13:
            return float(m)
        if (fm < 0) == (fa < 0):
            a, fa = m, fm
        else:
            b = m
    return float((a + b) / 2)


def _edge(grid: np.ndarray[Any, Any], outside: np.ndarray[Any, Any], x: float, way: int) -> float:
    """The first grid point beyond ``x`` (going ``way``) outside the interval; NaN if none."""
    i = int(np.searchsorted(grid, x))
    idx = np.arange(i, len(grid)) if way > 0 else np.arange(i - 1, -1, -1)
    hit = idx[outside[idx]]
    if not len(hit):
        return math.nan
    j = int(hit[0])
    k = j - way  # the last grid point inside
    if not 0 <= k < len(grid):
        return float(grid[j])
    return float((grid[j] + grid[k]) / 2)


def _family(link: str) -> Any:
    import statsmodels.api as sm

    links = sm.families.links
    return sm.families.Binomial(link=links.Logit() if link == "logit" else links.Probit())


def link_of(link: str, p: Any) -> Any:
    """``link(p)``: the logit or probit of a share."""
    return _family(link).link(np.clip(np.asarray(p, dtype=float), 1e-12, 1 - 1e-12))


def inverse(link: str, eta: Any) -> np.ndarray[Any, Any]:
    """The share whose link is ``eta``."""
    return np.asarray(_family(link).link.inverse(np.asarray(eta, dtype=float)))


def inverse_deriv(link: str, eta: Any) -> Any:
    """The derivative of the share by ``eta``, at ``eta``."""
    return _family(link).link.inverse_deriv(np.asarray(eta, dtype=float))


def fit_response(
    x: Any,
    k: Any,
    n: Any,
    link: str = "logit",
    low: float | None = None,
    high: float | None = None,
    curved: bool = True,
) -> Fit | None:
    """The GLM of ``k`` successes in ``n`` trials at each ``x``; None when it cannot be fitted.

    With :data:`CURVED_FROM` distinct values or more (and ``curved``), the curved fit when
    it is monotone over ``low..high`` (default: the values' own range). It cannot be fitted
    with fewer than two distinct ``x`` with trials, when the counts are separated (all
    successes on one side of some ``x``, all failures on the other) or when it does not
    converge.
    """
    x, k, n = (np.asarray(v, dtype=float) for v in (x, k, n))
    keep = n > 0
    x, k, n = x[keep], k[keep], n[keep]
    if len(np.unique(x)) < 2:
        return None
    low = float(np.min(x)) if low is None else low
    high = float(np.max(x)) if high is None else high
    if curved and len(np.unique(x)) >= CURVED_FROM:
        bent = _fit(x, k, n, link, 2)
        if bent is not None and _monotone(bent, low, high):
            return bent
    return _fit(x, k, n, link, 1)


def _monotone(fit: Fit, low: float, high: float) -> bool:
    """Whether the fitted curve neither turns nor flattens within ``low..high``."""
    slopes = [fit.slope_at(v) for v in (low, high)]
    return slopes[0] * slopes[1] > 0


def _fit(
    x: np.ndarray[Any, Any],
    k: np.ndarray[Any, Any],
    n: np.ndarray[Any, Any],
    link: str,
    degree: int,
) -> Fit | None:
    import statsmodels.api as sm
    from statsmodels.tools import sm_exceptions

    centre, span = float(np.mean(x)), float(np.ptp(x)) / 2 or 1.0
    z = (x - centre) / span  # fitted on a standard scale, reported on x's own
    design = np.column_stack([z**d for d in range(degree + 1)])
    with warnings.catch_warnings():
        # statsmodels' separation warning also fires on an exact fit through two points, and
        # its scale divides by zero residual degrees of freedom: separation is judged below
        warnings.simplefilter("ignore", sm_exceptions.PerfectSeparationWarning)
        warnings.simplefilter("ignore", RuntimeWarning)
        warnings.simplefilter("error", sm_exceptions.ConvergenceWarning)
        try:
            model = sm.GLM(np.column_stack([k, n - k]), design, family=_family(link))
            res = model.fit()
        except (
            sm_exceptions.PerfectSeparationError,
            sm_exceptions.ConvergenceWarning,
            np.linalg.LinAlgError,
            ValueError,
        ):
            return None
    params = np.asarray(res.params)
    if not res.converged or not np.all(np.isfinite(params)) or abs(params[1]) > SEPARATED:
        return None
    df = int(res.df_resid)
    dispersion = max(1.0, float(res.pearson_chi2) / df) if df > 0 else 1.0
    cov = np.asarray(res.cov_params()) * dispersion
    return Fit(
        coef=tuple(float(c) for c in params),
        cov=tuple(tuple(float(v) for v in row) for row in cov),
        centre=centre,
        span=span,
        link=link,
        dispersion=dispersion,
        deviance=float(res.deviance),
        df=df,
    )
