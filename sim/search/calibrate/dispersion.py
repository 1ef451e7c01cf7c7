"""How far an observed table's rows may differ beyond chance: the dispersion ``rho``.

A table pooled from many sources (four centuries of battles, play tests of several
groups) is not a set of interchangeable battles: each row's true share or mean strays from
what any one setting gives. ``dispersion:`` says how far:

    dispersion: 0        # the rows differ by chance alone (the default)
    dispersion: 0.05     # stated: rho
    dispersion: fit      # estimated: rho on a grid, its prior uniform, integrated out

``rho`` is the share of one battle's variance that lies between rows: a row's true share
strays from the cell's by a variance of ``rho * p * (1 - p)`` (a share's beta-binomial
widens to that; a median's share below it likewise), a row's true mean by ``rho * s**2``.
However many battles a row observed, it then weighs as about ``1 / rho`` battles at most,
so a table whose rows disagree beyond what chance allows pins nothing down at a spurious
compromise: the rho that explains the disagreement comes out large, and the intervals wide.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from sim.search.calibrate import posterior as post
from sim.search.calibrate.observed import Observed

GRID = (0.0, 0.001, 0.003, 0.01, 0.03, 0.1, 0.3, 0.5)
"""The values of a fitted dispersion (its prior uniform over them)."""
MAX = 0.5
Bad = Callable[[str, str], None]


@dataclass(frozen=True, slots=True)
class Dispersion:
    """The dispersion's values (one if stated) and whether it is fitted."""

    values: tuple[float, ...] = (0.0,)
    fitted: bool = False

    @property
    def none(self) -> bool:
        """Whether the rows differ by chance alone."""
        return self.values == (0.0,)


def read(spec: Any, bad: Bad) -> Dispersion:
    """The ``dispersion:`` key: 0 (the default), a number, or ``fit``."""
    if spec is None:
        return Dispersion()
    if spec == "fit":
        return Dispersion(GRID, True)
    if isinstance(spec, bool) or not isinstance(spec, (int, float)) or not 0 <= spec <= MAX:
        bad("dispersion", f"expected fit or a number 0..{MAX} (rho), got {spec!r}")
        return Dispersion()
    return Dispersion((float(spec),))


def read_weights(spec: Any, table: Observed, bad: Bad) -> dict[str, float]:
    """The ``weights:`` key: a statistic of the table to its weight (above 0; default 1)."""
    if spec is None:
        return {}
    if not isinstance(spec, dict) or not spec:
        bad("weights", "expected a mapping of the table's statistics to their weights")
        return {}
    names = [s.name for s in table.stats]
    out = {}
    for name, w in spec.items():
        where = f"weights.{name}"
        if table.rows and name not in names:
            bad(where, f"the observed table gives no {name!r}; it gives {', '.join(names)}")
        elif isinstance(w, bool) or not isinstance(w, (int, float)) or not 0 < w <= 100:
            bad(where, f"expected a weight above 0 (at most 100), got {w!r}")
        else:
            out[str(name)] = float(w)
    return out


def fit(
    sims: post.Sims, table: Observed, disp: Dispersion, weights: dict[str, float]
) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """The cells' posterior, and the joint posterior ``[cell, dispersion value]``."""
    ll = np.stack([post.loglik(sims, table, rho, weights) for rho in disp.values], axis=1)
    joint = np.exp(ll - np.max(ll))
    joint /= joint.sum()
    return joint.sum(axis=1), joint


def words(disp: Dispersion, joint: np.ndarray[Any, Any]) -> str | None:
    """The fitted dispersion in words (None unless it is fitted)."""
    if not disp.fitted:
        return None
    mass = joint.sum(axis=0)
    cdf = np.cumsum(mass)
    lo, mid, hi = (disp.values[int(np.searchsorted(cdf, q - 1e-12))] for q in (0.025, 0.5, 0.975))
    if lo == 0:
        said = f"the rows may differ by chance alone (rho up to {hi:g})"
    else:
        said = (
            "the rows differ beyond chance: each weighs as at most about "
            f"{1 / mid:,.0f} battles, whatever it observed"
        )
    return f"dispersion (rho): {mid:g} [95%: {lo:g} to {hi:g}]; {said}."


def marginal(joint: np.ndarray[Any, Any]) -> list[float]:
    """The dispersion's posterior at each of its values."""
    return [float(m) for m in joint.sum(axis=0)]
