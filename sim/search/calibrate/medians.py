"""A calibration's medians: the chance of an observed median, and medians a model gives.

A median of ``n`` observed battles says half of them fell below it. At a cell whose
battles put ``b`` of ``n'`` below it (one within :data:`TIE` of it counting half), the
chance of that is the beta-binomial chance of ``n/2`` of ``n`` (:func:`betabinom`, whose
count may be fractional), as for a share. The predictive check draws medians of ``n``
battles from each drawn cell's battles (:func:`medians`, a Bayesian bootstrap).
"""

from __future__ import annotations

from typing import Any

import numpy as np

TIE = 5e-4
"""Values this close to an observed median count as equal to it: a published median is
rounded (a share of 2 in 12 is written 0.1667), and shares and lengths differ by more."""


def below(
    cells: np.ndarray[Any, Any], v: np.ndarray[Any, Any], count: int, median: float
) -> np.ndarray[Any, Any]:
    """Each of ``count`` cells' battles below ``median``, a tie counting half (mid-rank).

    ``cells`` and ``v``: each battle's cell and value (the row's battles that count).
    """
    weight = np.where(v < median - TIE, 1.0, np.where(v <= median + TIE, 0.5, 0.0))
    return np.bincount(cells, weights=weight, minlength=count)


def betabinom(k: Any, n: Any, a: Any, b: Any) -> np.ndarray[Any, Any]:
    """The beta-binomial log chance of ``k`` of ``n``, for a ``k`` that may be fractional."""
    from scipy.special import betaln, gammaln

    return np.asarray(
        gammaln(n + 1)
        - gammaln(k + 1)
        - gammaln(n - k + 1)
        + betaln(k + a, n - k + b)
        - betaln(a, b),
        dtype=float,
    )


def medians(
    cells: np.ndarray[Any, Any],
    v: np.ndarray[Any, Any],
    picks: np.ndarray[Any, Any],
    n_obs: np.ndarray[Any, Any],
    rng: np.random.Generator,
) -> np.ndarray[Any, Any]:
    """The median of ``n_obs`` battles at each drawn cell (NaN where the cell has none).

    A Bayesian bootstrap: the cell's battles weighed by a flat Dirichlet draw (what its
    distribution may be, given them), then ``n_obs`` battles drawn from it. ``cells`` and
    ``v``: each battle's cell and value.
    """
    out = np.full(len(picks), np.nan)
    for c in np.unique(picks):
        at = np.flatnonzero(picks == c)
        x = np.sort(v[cells == c])
        size = int(n_obs[at[0]])
        if not len(x) or size < 1:
            continue
        weights = rng.dirichlet(np.ones(len(x)), size=len(at))
        counts = rng.multinomial(size, weights)
        upto = np.cumsum(counts, axis=1)
        lo = np.argmax(upto > (size - 1) // 2, axis=1)
        hi = np.argmax(upto > size // 2, axis=1)
        out[at] = (x[lo] + x[hi]) / 2
    return out
