"""The statistics of the verdicts: shares with Wilson intervals, z-tests, and a check's verdict.

Every win rate is a :class:`Share` with its 99% Wilson interval; a drop between two rates is
judged by :func:`drop_z`; a test of several checks widens its quantile by :func:`family_z`.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

from benchmarks.validity.base import Z99
from benchmarks.validity.battles import Sample


@dataclass(frozen=True)
class Share:
    """``k`` of ``n`` with its Wilson score interval (:func:`sim.analysis.wilson`), 99% by default.

    ``z`` is the normal quantile of the interval (Z99 for 99%).
    """

    k: int
    n: int
    z: float = Z99

    @functools.cached_property
    def _pli(self) -> tuple[float, float, float]:
        from sim.analysis import wilson

        p, lo, hi = wilson(self.k, self.n, self.z)
        return float(p), float(lo), float(hi)

    @property
    def p(self) -> float:
        return self._pli[0]

    @property
    def lo(self) -> float:
        return self._pli[1]

    @property
    def hi(self) -> float:
        return self._pli[2]

    def text(self) -> str:
        """``48.2% [44.9-51.6]``; ``-`` when ``n`` is 0."""
        if not self.n:
            return "-"
        return f"{100 * self.p:.1f}% [{100 * self.lo:.1f}-{100 * self.hi:.1f}]"


def family_z(checks: int, level: float = 0.99, sides: int = 2) -> float:
    """The normal quantile that keeps ``checks`` tests together at ``level`` (Bonferroni).

    ``family_z(1)`` is Z99; the tests use it so that a test of several checks on few battles
    fails by chance at most 1% of the time, as one check of the report does.
    """
    from statistics import NormalDist

    return NormalDist().inv_cdf(1 - (1 - level) / (sides * checks))


def drop_z(before: Share, after: Share) -> float:
    """z of the drop ``before.p - after.p`` (two independent proportions, pooled error)."""
    n1, n2 = before.n, after.n
    pooled = (before.k + after.k) / (n1 + n2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    diff = before.k / n1 - after.k / n2
    if se == 0:
        return 0.0 if diff == 0 else math.copysign(math.inf, diff)
    return diff / se


def pct(x: float, digits: int = 1) -> str:
    return "-" if math.isnan(x) else f"{100 * x:.{digits}f}%"


def paired_difference(a: Sample, b: Sample) -> tuple[float, float, float]:
    """A's win rate in ``a`` less in ``b`` over paired battles (same seeds), with its 99% CI."""
    d = (a.rows[:, 0] == 1).astype(float) - (b.rows[:, 0] == 1)
    mean = float(d.mean())
    se = float(d.std(ddof=1)) / math.sqrt(len(d)) if len(d) > 1 else math.nan
    return mean, mean - Z99 * se, mean + Z99 * se


@dataclass(frozen=True)
class Check:
    """One invariant's verdict: which study, system and check, PASS or FAIL, and the figures."""

    study: str
    system: str
    name: str
    passed: bool
    figures: str

    @property
    def verdict(self) -> str:
        return "PASS" if self.passed else "FAIL"
