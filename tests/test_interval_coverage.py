"""The intervals a researcher leans on cover the truth about as often as they say (issue 30).

Each check repeats a measurement many times where the true value is known and counts how
often the 95% interval holds it; the count must be consistent with 95% (95% inside the
99.9% Wilson interval of the count, so a sound interval fails one run in a thousand):

- the paired differences of a ``seeds: shared`` sweep (:mod:`sim.analysis.paired`: a 95%
  Student-t interval over the pairs), for a parameter that changes nothing but the dice
  (one initiative die per side instead of one per fighter, between two sides of three: the
  first side is a fair coin either way) and for one whose effect a large independent run
  measures (one more guard in the skirmish, the case a new user met: shared seeds said
  +3.8 points [0.9 to 6.6] where independent seeds said +0.1). Every design point of a
  sweep is fought here with the seeds the sweep gives it (:meth:`Experiment.run_seed`),
  and the interval is the analysis's own (:func:`sim.analysis.paired._t_intervals`);
- the Wilson score interval of a win rate (:func:`sim.analysis.wilson`) over a grid of
  replicate counts and rates;
- the cluster bootstrap of per-fighter shares (:func:`sim.analysis.cluster_bootstrap`) on
  runs whose fighters share their fate (a share drawn per run from a Beta).

The one-more-guard case is not a bias of pairing: the reference point of a sweep has the
same seeds with shared and independent seeds, so the two reports differ only in the other
point's runs, two independent samples of the same battle; with 95% coverage here, a gap of
3.7 points between them is well within what chance gives for a few hundred replicates.
"""

from __future__ import annotations

import concurrent.futures as cf
from pathlib import Path

import numpy as np
import pytest

from sim.analysis import cluster_bootstrap, wilson
from sim.analysis.paired import _t_intervals
from sim.battle.battle import Battle
from sim.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[1]
Z999 = 3.2905267314918945  # two-sided 99.9%


def consistent_with_95(hits: int, trials: int) -> bool:
    """Whether ``hits`` of ``trials`` is consistent with a coverage of 95% (99.9% Wilson)."""
    _, lo, hi = wilson(hits, trials, Z999)
    return bool(lo <= 0.95 <= hi)


def test_the_consistency_check_can_fail():
    assert consistent_with_95(190, 200) and consistent_with_95(182, 200)
    assert not consistent_with_95(170, 200)  # 85%: an interval too narrow
    assert not consistent_with_95(985, 1000) and consistent_with_95(960, 1000)
    # (a hundred-odd trials cannot tell 100% from 95%: the paired checks also hold the
    # intervals' half-width to the spread of the estimates they bound, width_ratio)


def width_ratio(means: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> float:
    """Mean half-width of the intervals over 1.96 times the spread of their estimates.

    About 1 for intervals as wide as they should be; well above, too wide (their coverage
    near 100%); below, too narrow.
    """
    return float(np.mean(hi - lo) / 2 / (1.959964 * np.std(means, ddof=1)))


# ------------------------------------------------------------------------ paired differences
def _shared_seeds(master: int, replicates: int) -> list[int]:
    """A ``seeds: shared`` sweep's seeds: replicate r's at every design point."""
    out = []
    for r in range(replicates):
        child = np.random.SeedSequence(master, spawn_key=(r,))
        out.append(int(child.generate_state(1, dtype=np.uint64)[0]))
    return out


def _wins(path: str, sets: tuple[str, ...], side: str, seeds: list[int]) -> np.ndarray:
    scenario = load_scenario(path, list(sets))
    return np.array([Battle(scenario, seed=s).run().winner == side for s in seeds], float)


class InProcess(cf.Executor):
    """Runs each call at once, in this process: in the suite both cores already run tests,
    and a pool's workers would import everything again (Mesa 3.3 makes spawn the default)."""

    def submit(self, fn, /, *args, **kwargs):
        done = cf.Future()
        done.set_result(fn(*args, **kwargs))
        return done


def _coverage(path, side, a, b, truth, sweeps, replicates, pool):
    """How many of ``sweeps`` shared-seed sweeps' paired 95% intervals hold ``truth``."""
    jobs = [
        (pool.submit(_wins, path, a, side, seeds), pool.submit(_wins, path, b, side, seeds))
        for seeds in (_shared_seeds(1000 + k, replicates) for k in range(sweeps))
    ]
    diffs = np.array([y.result() - x.result() for x, y in jobs])
    means, lo, hi = _t_intervals(diffs, np.full(sweeps, replicates))
    return int(((lo <= truth) & (truth <= hi)).sum()), diffs, width_ratio(means, lo, hi)


@pytest.mark.slow
def test_paired_intervals_cover_a_difference_of_zero():
    """Between two sides of three, one initiative die per side or one per fighter changes
    only the dice: either way the first side is a fair coin, and nothing else reads them."""
    path = str(ROOT / "scenarios" / "mirror.yaml")
    a, b = ("battle.initiative=everyone",), ("battle.initiative=sides",)
    with InProcess() as pool:
        hits, diffs, ratio = _coverage(path, "north", a, b, 0.0, 120, 60, pool)
    assert (diffs != 0).any(axis=1).mean() > 0.9  # the pairs do differ
    assert consistent_with_95(hits, 120), hits
    assert 0.8 < ratio < 1.25, ratio


@pytest.mark.slow
def test_paired_intervals_cover_the_effect_of_one_more_guard():
    """The truth from 12,000 independent battles; 120 sweeps of 60 shared-seed pairs."""
    path = str(ROOT / "scenarios" / "skirmish.yaml")
    a, b = (), ("sides.guards.fighters[1].count=2",)
    seeds = [
        int(np.random.SeedSequence(7, spawn_key=(i,)).generate_state(1)[0]) for i in range(12000)
    ]
    with InProcess() as pool:
        chunks = [
            (x, seeds[i : i + 2000])
            for x, start in ((a, 0), (b, 6000))
            for i in range(start, start + 6000, 2000)
        ]
        parts = [pool.submit(_wins, path, x, "guards", chunk) for x, chunk in chunks]
        won = [f.result() for f in parts]
        truth = np.concatenate(won[3:]).mean() - np.concatenate(won[:3]).mean()
        hits, diffs, ratio = _coverage(path, "guards", a, b, truth, 120, 60, pool)
    assert 0.08 < truth < 0.18  # one more guard: about 13 points
    assert consistent_with_95(hits, 120), (hits, truth)
    assert 0.8 < ratio < 1.25, ratio


# ------------------------------------------------------------------------ Wilson
@pytest.mark.slow
def test_wilson_intervals_cover_a_win_rate():
    rng = np.random.default_rng(30)
    cells = []
    for n in (30, 150, 600):
        for p in (0.05, 0.2, 0.5, 0.8):
            k = rng.binomial(n, p, size=4000)
            _, lo, hi = wilson(k, np.full(4000, n))
            cells.append(float(((lo <= p) & (p <= hi)).mean()))
    assert min(cells) > 0.92, cells  # exact: 0.939 at 30 battles and 5%
    assert 0.945 < float(np.mean(cells)) < 0.962, cells  # exact: 0.953


# ------------------------------------------------------------------------ cluster bootstrap
@pytest.mark.slow
@pytest.mark.parametrize("runs", [10, 20, 50])
def test_cluster_intervals_cover_a_share_of_fighters_whose_runs_differ(runs):
    """Runs of 1 + Poisson(4) fighters, each run's share drawn from a Beta of mean 0.3 (an
    intra-run correlation of 0.25): the pooled share is 0.3; 1,000 groups of ``runs``."""
    rng = np.random.default_rng(runs)
    groups = 1000
    n = 1 + rng.poisson(4, size=(groups, runs))
    k = rng.binomial(n, rng.beta(0.9, 2.1, size=(groups, runs)))
    row = np.repeat(np.arange(groups), runs)
    _, lo, hi = cluster_bootstrap(k.ravel(), n.ravel(), row, groups, resamples=1000)
    hits = int(((lo <= 0.3) & (0.3 <= hi)).sum())
    assert consistent_with_95(hits, groups), hits
