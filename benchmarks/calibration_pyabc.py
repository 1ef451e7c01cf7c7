"""What pyabc's ABC-SMC would spend on a calibration like the documented one (not a test).

pyabc is not a dependency of sim: this script is the measurement behind the choice of
``design: calibrate``'s method (docs/calibration.md), kept so it can be repeated with
``pip install pyabc`` in a scratch environment.

The stand-in: two unknowns (a two-way choice and a whole number 2..5), five observed
settings, each a binomial share over 100 battles and a mean; a model evaluation simulates
the whole observed table at the observed sample sizes, so it costs 5 x 100 battles. The
model is a cheap formula, so only pyabc's own time is spent; the figure is the count of
model evaluations ABC-SMC needs to reach a tolerance (a chi-square distance of about 10,
the number of statistics) and the battles they would be. Measured on 3 December 2026
(pyabc 0.13.0): population 100, 5 generations, 2,993 evaluations (1,496,500 battles);
population 200, 6 generations, 8,036 evaluations (4,018,000 battles); against 1,600-1,700
battles for the documented calibration (``python -m benchmarks.calibration``).

pyabc draws its proposals from numpy's global random state, which is seeded here once.

Run: python -m benchmarks.calibration_pyabc
"""

from __future__ import annotations

import os
import tempfile
import time
from typing import Any

import numpy as np

COUNTS = np.array([2, 3, 4, 5, 6])
N = 100


def table(theta: dict[str, Any], rng: np.random.Generator) -> dict[str, Any]:
    """The stand-in's observed table at ``theta``."""
    m, hd = theta["morale"], theta["hd"]
    p = 1 / (1 + np.exp(-(0.9 * (hd + 1.5 - COUNTS) + (0.6 if m > 0.5 else 0.0))))
    w = rng.binomial(N, p) / N
    mean_out = 0.5 + (0.3 if m > 0.5 else 0.0) - 0.05 * (hd - 3)
    return {"w": w, "o": rng.normal(mean_out, 0.3 / np.sqrt(N), size=5)}


def distance(x: dict[str, Any], y: dict[str, Any]) -> float:
    """Each statistic weighed by its sampling variance (a chi-square)."""
    return float(np.sum((x["w"] - y["w"]) ** 2 / 0.0025) + np.sum((x["o"] - y["o"]) ** 2 / 0.0009))


def main() -> None:
    """Run ABC-SMC with populations of 100 and 200; print what each spent."""
    try:
        import pyabc
        from pyabc.transition import DiscreteJumpTransition
    except ImportError:
        print("pyabc is not installed: pip install pyabc (in a scratch environment)")
        return
    np.random.seed(1)  # noqa: NPY002  (pyabc draws from the global state)
    rng = np.random.default_rng(2)
    observed = table({"morale": 1, "hd": 3}, np.random.default_rng(1))

    def model(par: dict[str, Any]) -> dict[str, Any]:
        return table({"morale": round(par["morale"]), "hd": round(par["hd"])}, rng)

    prior = pyabc.Distribution(morale=pyabc.RV("randint", 0, 2), hd=pyabc.RV("randint", 2, 6))
    for population in (100, 200):
        moves = pyabc.AggregatedTransition(
            mapping={
                "morale": DiscreteJumpTransition(domain=np.arange(2)),
                "hd": DiscreteJumpTransition(domain=np.arange(2, 6)),
            }
        )
        abc = pyabc.ABCSMC(
            model,
            prior,
            distance,
            population_size=population,
            transitions=moves,
            sampler=pyabc.sampler.SingleCoreSampler(),
        )
        abc.new("sqlite:///" + os.path.join(tempfile.mkdtemp(), "abc.db"), observed)
        start = time.perf_counter()
        history = abc.run(minimum_epsilon=12, max_nr_populations=8)
        pops = history.get_all_populations()
        evals = int(pops["samples"].sum())
        print(
            f"population {population}: {history.max_t + 1} generations, {evals:,} model "
            f"evaluations = {evals * 5 * N:,} battles; {time.perf_counter() - start:.0f} s "
            "of pyabc's own time"
        )


if __name__ == "__main__":
    main()
