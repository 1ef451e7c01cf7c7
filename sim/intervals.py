"""Intervals every stage reports: Wilson score intervals of shares, Student's t quantiles.

A ground-floor module (numpy only): the summaries (:mod:`sim.analysis`) and the searches'
answers (:mod:`sim.search`) give the same intervals.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

Z95 = 1.959963984540054  # the standard normal's 97.5% quantile

# Student's t 97.5% quantiles for 1..10 degrees of freedom (beyond 10 the series below)
_T975 = (
    12.706204736174698,
    4.302652729749464,
    3.182446305284263,
    2.7764451051977934,
    2.570581835636314,
    2.4469118511449692,
    2.3646242515927844,
    2.3060041352041662,
    2.2621571627982053,
    2.2281388519862735,
)


def wilson(
    k: Any, n: Any, z: float = Z95
) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """The share ``k / n`` and its Wilson score interval (95% by default), elementwise.

    NaN where ``n`` is 0.
    """
    k = np.asarray(k, dtype=float)
    n = np.asarray(n, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = k / n
        z2n = z * z / n
        centre = (p + z2n / 2) / (1 + z2n)
        half = z * np.sqrt(p * (1 - p) / n + z2n / (4 * n)) / (1 + z2n)
        lo = np.where(k == 0, 0.0, np.clip(centre - half, 0.0, 1.0))
        hi = np.where(k == n, 1.0, np.clip(centre + half, 0.0, 1.0))
    empty = n == 0
    return np.where(empty, np.nan, p), np.where(empty, np.nan, lo), np.where(empty, np.nan, hi)


def t975(df: int) -> float:
    """Student's t 97.5% quantile with ``df`` degrees of freedom (NaN below 1).

    Exact table values up to 10; beyond, the Cornish-Fisher series of Abramowitz and
    Stegun 26.7.5, within 1e-5 of the true value.
    """
    if df < 1:
        return math.nan
    if df <= len(_T975):
        return _T975[df - 1]
    z = Z95
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
    g4 = (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160
    return z + g1 / df + g2 / df**2 + g3 / df**3 + g4 / df**4
