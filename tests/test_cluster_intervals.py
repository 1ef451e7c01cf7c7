"""Honest intervals for per-fighter shares: a cluster bootstrap by run, not fighters as draws."""

from __future__ import annotations

import numpy as np
import pytest

from sim import analysis
from sim.cli.text import analyze_text
from sim.dataset import records
from tests.test_analysis import after_row, camp_row, make_dataset, run, side


def width(lo, hi):
    return float(hi) - float(lo)


def test_clustered_runs_give_a_wider_interval_than_wilson():
    # 40 runs of 10 wounded each: in half of them every wounded fighter dies, in the other
    # half none does. 400 fighters, but only 40 independent outcomes.
    k = np.array([10, 0] * 20)
    n = np.full(40, 10)
    p, lo, hi = analysis.cluster_bootstrap(k, n, np.zeros(40, dtype=int), 1)
    _, wlo, whi = analysis.wilson(200, 400)
    assert p[0] == 0.5
    assert width(lo[0], hi[0]) > 2.5 * width(wlo, whi)
    # the bootstrap's own spread: about the binomial of 40 runs, +-0.155
    assert lo[0] == pytest.approx(0.5 - 1.96 * 0.5 / np.sqrt(40), abs=0.03)


def test_independent_fighters_give_about_the_wilson_interval():
    rng = np.random.default_rng(3)
    n = np.full(200, 5)
    k = rng.binomial(5, 0.3, size=200)
    p, lo, hi = analysis.cluster_bootstrap(k, n, np.zeros(200, dtype=int), 1)
    _, wlo, whi = analysis.wilson(k.sum(), n.sum())
    assert 1.0 <= width(lo[0], hi[0]) / width(wlo, whi) < 1.15


def test_the_bootstrap_is_deterministic_and_per_row():
    k, n = np.array([3, 0, 2, 5, 1, 0]), np.array([4, 2, 2, 5, 3, 1])
    row = np.array([0, 0, 0, 1, 1, 1])
    one = analysis.cluster_bootstrap(k, n, row, 3)
    two = analysis.cluster_bootstrap(k, n, row, 3)
    assert all(np.array_equal(a, b, equal_nan=True) for a, b in zip(one, two, strict=True))
    assert one[0][0] == 5 / 8 and one[0][1] == 6 / 9 and np.isnan(one[0][2])  # row 2: none
    assert one[1][0] <= one[0][0] <= one[2][0]


def clustered_dataset(tmp_path):
    """40 runs of one group; in each, 5 wounded who all die (even runs) or all recover."""
    rows = [run(i, "a", "red", 3, [side("red"), side("blue")]) for i in range(40)]
    ds = make_dataset(tmp_path / "d", rows)
    after, camp = [], []
    for i in range(40):
        dies = i % 2 == 0
        for f in range(5):
            after.append(after_row(i, f"f{f}", 0, "dead" if dies else "active", True, not dies))
            tier = "veteran" if dies else "tested"
            camp.append(camp_row(i, 1, f"f{f}", "active", tier))
    records.write_part(ds.root, "aftermath", after, "000000")
    records.write_part(ds.root, "campaign", camp, "000000")
    return ds


def test_aftermath_and_campaign_shares_use_the_cluster_interval(tmp_path):
    ds = clustered_dataset(tmp_path)
    a = analysis.aftermath_summary(ds).iloc[0]
    _, wlo, whi = analysis.wilson(100, 200)
    assert a["died_share"] == 0.5
    assert width(a["died_share.lo"], a["died_share.hi"]) > 2 * width(wlo, whi)
    c = analysis.campaign_summary(ds).iloc[0]
    assert c["veteran_share"] == 0.5
    assert width(c["veteran_share.lo"], c["veteran_share.hi"]) > 2 * width(wlo, whi)
    again = analysis.aftermath_summary(analysis.load(ds.root)).iloc[0]
    assert (again["died_share.lo"], again["died_share.hi"]) == (
        a["died_share.lo"],
        a["died_share.hi"],
    )


def test_the_output_says_which_interval(tmp_path):
    ds = clustered_dataset(tmp_path)
    text = analyze_text(ds.root)
    assert text.count("95% intervals by a cluster bootstrap of runs (2,000 resamples") == 2
    assert "Outcomes: win and draw rates of all battles; of decisive: " in text
    assert "; 95% Wilson intervals; rounds: mean with a 95% interval" in text
