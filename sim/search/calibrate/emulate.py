"""Emulators of a calibration's statistics, and how implausible a setting is.

History matching (:mod:`sim.search.calibrate.match`) fights battles at a few design points
and emulates each observed statistic at every other setting: for each choice of the
unknowns' choices, each observed row and each statistic, a Gaussian process over the
numeric unknowns (scaled to 0..1) fitted to the points' simulated values, each with its
own sampling noise (a share's ``p q / n``, a mean's ``s**2 / n``, a median's ``pi/2 s**2 /
n``). scikit-learn's ``GaussianProcessRegressor`` does the fitting: a well-kept, exact GP
whose kernel hyper-parameters it fits by maximum likelihood; an anisotropic RBF kernel
(each unknown its own length scale) and a white-noise term for what the noise model misses.

A setting's **implausibility** for one statistic is the distance of the observation from
the emulator's mean in units of every uncertainty there is: the emulator's own, the
observation's sampling error, and the rows' dispersion. A setting whose second-largest
implausibility (its largest, with fewer than three statistics) is above :data:`CUTOFF` is
ruled out (Pukelsheim's three-sigma rule; the second-largest so one unlucky statistic does
not rule the truth out).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from sim.search.calibrate import posterior as post
from sim.search.calibrate.observed import Observed, Row, Stat

CUTOFF = 3.0
"""The implausibility above which a setting is ruled out."""


@dataclass(frozen=True, slots=True)
class Target:
    """One observed statistic in one row: what the emulators must reproduce."""

    r: int
    row: Row
    stat: Stat
    observed: float

    @property
    def n(self) -> int:
        """The observation's sample size: its own, the row's decisive battles, or battles."""
        own = self.row.n(self.stat.name)
        return own or (self.row.decisive if self.stat.decisive else None) or self.row.battles


def targets(table: Observed) -> list[Target]:
    """Every observed statistic of every row."""
    out = []
    for r, row in enumerate(table.rows):
        for s in table.stats:
            v = row.value(s.name)
            if v is not None:
                out.append(Target(r, row, s, v))
    return out


def point_values(sims: post.Sims, t: Target) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """Each design point's simulated value of ``t`` and the variance of that value."""
    name, r = t.stat.name, t.r
    n = sims.n[name][:, r]
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = sims.sum[name][:, r] / n
    if t.stat.kind == "share":
        p = (sims.sum[name][:, r] + 0.5) / (n + 1.0)
        return mean, p * (1 - p) / np.maximum(n, 1)
    var = post.spread(sims, name, r)
    if t.stat.kind == "median":
        cells, v = sims.values(name, r)
        med = np.full(len(n), np.nan)
        for c in np.unique(cells):
            med[c] = float(np.median(v[cells == c]))
        return med, math.pi / 2 * var / np.maximum(n, 1)
    return mean, var / np.maximum(n, 1)


def row_spread(sims: post.Sims, t: Target) -> float:
    """The variance of one battle's value of ``t`` over every battle of its row."""
    n = sims.n[t.stat.name][:, t.r].sum()
    s1 = sims.sum[t.stat.name][:, t.r].sum()
    s2 = sims.ss[t.stat.name][:, t.r].sum()
    return float(max((s2 - s1 * s1 / n) / (n - 1), post.FLOOR)) if n > 1 else 0.25


class Emulator:
    """A Gaussian process of one statistic over the numeric unknowns (0..1 each)."""

    def __init__(
        self, x: np.ndarray[Any, Any], y: np.ndarray[Any, Any], noise: np.ndarray[Any, Any]
    ) -> None:
        keep = ~np.isnan(y)
        x, y, noise = x[keep], y[keep], noise[keep]
        self.mean = float(np.mean(y)) if len(y) else 0.0
        self.scale = float(np.std(y)) if len(y) > 1 and np.std(y) > 1e-9 else 1.0
        self.gp: Any = None
        self.flat = float(np.mean(noise)) if len(noise) else 1.0
        if len(y) >= 3 and x.shape[1] > 0:
            self.gp = _fit(x, (y - self.mean) / self.scale, noise / self.scale**2)

    def predict(self, x: np.ndarray[Any, Any]) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
        """The emulated value at each setting ``x`` and its variance."""
        if self.gp is None:  # too few points (or no numeric unknown): their mean
            return np.full(len(x), self.mean), np.full(len(x), self.scale**2 + self.flat)
        mu, sd = self.gp.predict(x, return_std=True)
        return mu * self.scale + self.mean, (sd * self.scale) ** 2


def _fit(x: np.ndarray[Any, Any], y: np.ndarray[Any, Any], noise: np.ndarray[Any, Any]) -> Any:
    from sklearn.gaussian_process import GaussianProcessRegressor
    from sklearn.gaussian_process.kernels import RBF, ConstantKernel, WhiteKernel

    d = x.shape[1]
    kernel = ConstantKernel(1.0, (1e-2, 1e2)) * RBF([0.3] * d, (0.03, 30.0)) + WhiteKernel(
        1e-3, (1e-6, 0.5)
    )
    gp = GaussianProcessRegressor(
        kernel, alpha=np.maximum(noise, 1e-8), n_restarts_optimizer=0, random_state=0
    )
    import warnings

    with warnings.catch_warnings():  # a length scale at its bound is an answer, not a fault
        warnings.simplefilter("ignore")
        gp.fit(x, y)
    return gp


def observed_var(t: Target, mu: np.ndarray[Any, Any], spread: float, rho: float) -> Any:
    """The observation's variance about the model's value: sampling error and dispersion."""
    n = t.n
    if t.stat.kind == "share":
        edge = 0.5 / (n + 1)
        q = np.clip(mu, edge, 1 - edge)
        return q * (1 - q) * (1 / n + rho)
    se = t.row.se(t.stat.name)
    sd = t.row.sd(t.stat.name)
    per = sd * sd if sd is not None else spread
    sampling = se * se if se is not None else per / n
    if t.stat.kind == "median":
        sampling = math.pi / 2 * sampling
    return np.full(len(mu), sampling + rho * per)


def implausibility(
    means: Sequence[np.ndarray[Any, Any]],
    variances: Sequence[np.ndarray[Any, Any]],
    ts: Sequence[Target],
) -> np.ndarray[Any, Any]:
    """Each setting's implausibility: the second-largest over statistics.

    The largest if there are fewer than three; ``variances`` are the emulators' plus the
    observations'.
    """
    z = np.stack(
        [np.abs(t.observed - m) / np.sqrt(v) for t, m, v in zip(ts, means, variances, strict=True)]
    )
    if len(ts) < 3:
        return np.asarray(z.max(axis=0))
    return np.asarray(np.sort(z, axis=0)[-2])


def loglik(
    means: Sequence[np.ndarray[Any, Any]],
    variances: Sequence[np.ndarray[Any, Any]],
    ts: Sequence[Target],
    weights: dict[str, float],
) -> np.ndarray[Any, Any]:
    """Each setting's log-likelihood of the table under the emulators (normal terms)."""
    total = np.zeros(len(means[0]))
    for t, m, v in zip(ts, means, variances, strict=True):
        w = weights.get(t.stat.name, 1.0)
        total += w * (-0.5 * (t.observed - m) ** 2 / v - 0.5 * np.log(2 * np.pi * v))
    return total
