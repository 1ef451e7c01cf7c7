"""Shared test helpers: seeded generators and Monte Carlo checks against exact distributions."""

from __future__ import annotations

import math
import os
from collections import Counter
from collections.abc import Iterable
from typing import Any

import numpy as np
import pytest
from threadpoolctl import threadpool_limits

from sim.dice import Dist

# One BLAS thread in each test process: xdist already runs a test on each core, and OpenBLAS's
# second thread only spun beside it (the six-unknown calibration: 91 CPU seconds with two
# threads, 59 with one, in the same 57 s). The variable holds for the libraries loaded from
# now on (SciPy's own OpenBLAS) and for the tests' subprocesses; threadpoolctl (it comes with
# scikit-learn) limits the ones loaded already (numpy's).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
threadpool_limits(limits=1)

# Monte Carlo tolerance, stated once: every outcome's observed frequency must lie within
# Z standard errors of its exact probability (plus one count of slack for tiny p). With
# Z = 5 a correct sampler fails a single outcome check about once in 1.7 million.
Z = 5.0


def assert_matches(samples: Iterable[Any], exact: Dist, z: float = Z) -> None:
    """Fail unless the samples' frequencies agree with ``exact`` outcome by outcome.

    Also fails if a sample shows an outcome the exact distribution gives probability 0.
    """
    counts = Counter(samples)
    n = sum(counts.values())
    assert n > 0, "no samples"
    impossible = set(counts) - set(exact.outcomes())
    assert not impossible, f"outcomes outside the exact support: {sorted(impossible)[:5]}"
    for outcome, p in exact.items():
        pf = float(p)
        freq = counts.get(outcome, 0) / n
        tol = z * math.sqrt(pf * (1 - pf) / n) + 1 / n
        assert abs(freq - pf) <= tol, (
            f"outcome {outcome!r}: observed {freq:.5f}, exact {pf:.5f}, tolerance {tol:.5f}"
        )


@pytest.fixture
def rng() -> np.random.Generator:
    """A fixed-seed generator, fresh for each test."""
    return np.random.default_rng(20261129)


class ScriptedRng:
    """A Generator stand-in that returns forced dice first, then falls back to a real one.

    ``integers`` pops one forced value per die asked for (so ``integers(1, 9, size=2)``
    takes two); when the script runs out, draws come from ``fallback``. Used for the
    "versus" tests that force a particular roll.
    """

    def __init__(self, forced, fallback_seed: int = 0) -> None:
        self.forced = list(forced)
        self.fallback = np.random.default_rng(fallback_seed)

    def integers(self, low, high=None, size=None, dtype=np.int64):
        if size is None:
            if self.forced:
                return dtype(self.forced.pop(0))
            return self.fallback.integers(low, high, dtype=dtype)
        n = int(np.prod(size))
        take = [self.forced.pop(0) for _ in range(min(n, len(self.forced)))]
        rest = self.fallback.integers(low, high, size=n - len(take), dtype=dtype)
        return np.concatenate([np.asarray(take, dtype=dtype), rest]).reshape(size)

    def random(self, size=None):
        return self.fallback.random(size)
