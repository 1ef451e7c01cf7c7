"""Intervals: Wilson score intervals of shares, Student's t quantiles, the cluster bootstrap.

The first two are :mod:`sim.intervals`' (shared with the searches' answers), given here too.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from sim.intervals import Z95, t975, wilson

__all__ = ["CLUSTER_INTERVAL", "Z95", "cluster_bootstrap", "t975", "wilson"]

BOOTSTRAP_RESAMPLES = 2000  # resamples of the runs per interval
BOOTSTRAP_SEED = 15  # the bootstrap's own seed: the same dataset gives the same intervals
CLUSTER_INTERVAL = (
    "95% intervals by a cluster bootstrap of runs (2,000 resamples of whole runs, "
    "stretched by Student's t for few runs; never narrower than Wilson)"
)
"""What the per-fighter shares' intervals are, as the tables and JSON say it."""


def cluster_bootstrap(
    k: Any,
    n: Any,
    row: Any,
    rows: int,
    resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = BOOTSTRAP_SEED,
) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """Pooled shares of fighters and 95% intervals that respect their runs.

    Fighters of one run are not independent draws (they fought the same battle, were
    tended by the same healer), so a share pooled over fighters, ``sum k / sum n``, varies
    between sweeps more than a binomial count says. Each cluster (a run) ``i`` has ``k[i]``
    of its ``n[i]`` fighters counted and belongs to output row ``row[i]`` (of ``rows``).
    Per row the runs are resampled with replacement ``resamples`` times (a cluster, or
    "block", bootstrap) and the 2.5% and 97.5% quantiles of the resampled shares taken.
    A bootstrap of ``m`` runs sees their spread as a plug-in (divided by ``m``, not
    ``m - 1``) and with the normal's tails, so it is too narrow with few runs: the interval
    is stretched about the share by ``t975(m - 1) / z975 * sqrt(m / (m - 1))`` (coverage by
    simulation, ``tests/test_interval_coverage.py``: 90% of nominal 95% with 10 runs and 93%
    with 20 before, about 95% from 10 runs on after). It is then widened to contain the
    Wilson interval of the pooled counts, which a bootstrap of few runs, or of runs that
    all agree, cannot see beyond. Row ``r`` draws from ``numpy.random.default_rng([seed,
    r])``: the same data, the same interval.

    Returns the share, low and high end per row (NaN where a row has no fighters).
    """
    k = np.asarray(k, dtype=float)
    n = np.asarray(n, dtype=float)
    row = np.asarray(row, dtype=np.int64)
    kk = np.bincount(row, weights=k, minlength=rows)
    nn = np.bincount(row, weights=n, minlength=rows)
    p, lo, hi = wilson(kk, nn)
    order = np.argsort(row, kind="stable")
    starts = np.searchsorted(row[order], np.arange(rows + 1))
    for r in range(rows):
        mine = order[starts[r] : starts[r + 1]]
        if not len(mine) or nn[r] == 0:
            continue
        shares = _resampled_shares(k[mine], n[mine], resamples, np.random.default_rng([seed, r]))
        q_lo, q_hi = np.nanquantile(shares, [0.025, 0.975])
        m = int(np.count_nonzero(n[mine]))  # the runs that count fighters
        if m > 1:
            stretch = t975(m - 1) / Z95 * math.sqrt(m / (m - 1))
            q_lo = max(0.0, p[r] - stretch * (p[r] - q_lo))
            q_hi = min(1.0, p[r] + stretch * (q_hi - p[r]))
        lo[r], hi[r] = min(lo[r], q_lo), max(hi[r], q_hi)
    return p, lo, hi


def _resampled_shares(
    k: np.ndarray[Any, Any], n: np.ndarray[Any, Any], resamples: int, rng: np.random.Generator
) -> np.ndarray[Any, Any]:
    """``sum k / sum n`` over ``resamples`` resamples of the clusters (NaN if none counted)."""
    m = len(k)
    step = max(1, 2_000_000 // m)  # resamples per batch: a bounded index matrix
    out = np.empty(resamples)
    for start in range(0, resamples, step):
        idx = rng.integers(0, m, size=(min(step, resamples - start), m))
        with np.errstate(invalid="ignore", divide="ignore"):
            out[start : start + len(idx)] = k[idx].sum(axis=1) / n[idx].sum(axis=1)
    return out
