"""Rows that differ beyond chance: the dispersion rho, stated or fitted, and weights."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pytest
from scipy import stats as st

from sim.search import load_search, run_search
from sim.search.calibrate import dispersion
from sim.search.calibrate import posterior as post
from tests.search.calib_helpers import BANDITS, HILD_HD, experiment, observe
from tests.search.test_calibrate_spec import issues, write
from tests.search.test_posterior import STATS, runs, table


def test_no_dispersion_is_the_plain_beta_and_rho_widens_it_by_rho_p_q() -> None:
    assert post.beta_of(8, 10) == (8.5, 2.5)
    a, b = post.beta_of(8.0, 10.0, 0.05)
    p = 8.5 / 11
    var = a * b / ((a + b) ** 2 * (a + b + 1))
    assert a / (a + b) == pytest.approx(p)
    assert var == pytest.approx(p * (1 - p) / 12 + 0.05 * p * (1 - p))


def test_a_dispersed_row_weighs_less_however_many_battles_it_saw() -> None:
    winners = ["a"] * 300 + ["b"] * 100 + ["a"] * 200 + ["b"] * 200  # 75% and 50%
    frame = runs([0] * 400 + [1] * 400, ["1"] * 800, winners, [1] * 800)
    sims = post.simulated(frame, 2, ["1"], [STATS["wins.a"]], ["a", "b"])
    obs = table(0.75, 1000, decisive=1000)
    plain = post.loglik(sims, obs)
    wide = post.loglik(sims, obs, rho=0.1)
    assert plain[0] - plain[1] > 30  # a thousand battles: cell 0 (75%) over cell 1 (50%)
    assert 0 < wide[0] - wide[1] < 5  # at rho 0.1 they weigh as about ten
    a, b = post.beta_of(300.0, 400.0, 0.1)
    assert wide[0] == pytest.approx(st.betabinom.logpmf(750, 1000, a, b))
    assert post.loglik(sims, obs, weights={"wins.a": 0.5}) == pytest.approx(plain / 2)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ("dispersion: 2\n", "dispersion: expected fit or a number 0..0.5 (rho), got 2"),
        ("dispersion: some\n", "expected fit or a number"),
        ("weights: {wins.bandits: 1}\n", "weights.wins.bandits: the observed table gives no"),
        ("weights: {rounds: 0}\n", "weights.rounds: expected a weight above 0"),
    ],
)
def test_a_bad_dispersion_or_weight_is_located(tmp_path: Path, extra: str, message: str) -> None:
    found = issues(write(tmp_path, extra=extra))
    assert len(found) == 1 and message in found[0], found


def test_the_keys_are_read(tmp_path: Path) -> None:
    s = load_search(write(tmp_path, extra="dispersion: fit\nweights: {rounds: 0.5}\n")).settings
    assert s.dispersion.fitted and s.dispersion.values == dispersion.GRID
    assert s.weights == {"rounds": 0.5}
    assert load_search(write(tmp_path, extra="dispersion: 0.02\n")).settings.dispersion.values == (
        0.02,
    )


@pytest.mark.slow
def test_a_table_from_two_true_settings_is_not_pinned_down_at_either(tmp_path: Path) -> None:
    """Rows from Hild at 4 HD and at 8 HD, 100 battles each: the plain fit pins a
    compromise down; with the dispersion fitted, nothing is pinned down and rho is large."""
    rows = []
    for hd, seed in ((4, 11), (8, 12)):
        made = observe(
            tmp_path,
            {HILD_HD: hd},
            {BANDITS: [2, 3, 4]},
            100,
            seed,
            ("wins.guards", "rounds"),
            name=f"hd{hd}.csv",
        )
        with made.open(encoding="utf-8") as f:
            rows += [{**r, "label": f"hd{hd}-{r[BANDITS]}"} for r in csv.DictReader(f)]
    mixed = tmp_path / "mixed.csv"
    with mixed.open("w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)

    def fit(extra: str, name: str) -> dict:
        exp = experiment(tmp_path, mixed, f"  {HILD_HD}: {{low: 2, high: 10}}\n", 20000, 3, extra)
        answer = run_search(load_search(exp), tmp_path / name, progress=False).answer
        assert answer is not None
        return answer

    plain = fit("", "plain")
    (hd,) = plain["data"]["parameters"]
    assert hd["hi"] - hd["lo"] <= 1 and not hd["lo"] <= 4 and not 8 <= hd["hi"]  # overclaims
    dispersed = fit("dispersion: fit\n", "dispersed")
    (hd,) = dispersed["data"]["parameters"]
    assert hd["hi"] - hd["lo"] >= 3  # not pinned down at either
    assert not any("pinned down." in line for line in dispersed["lines"])
    rho = dispersed["data"]["dispersion"]
    mass = np.array(rho["posterior"])
    assert mass[np.array(rho["values"]) >= 0.03].sum() > 0.95
    assert any(line.startswith("dispersion (rho): ") for line in dispersed["lines"])
