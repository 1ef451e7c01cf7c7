"""The calibration's arithmetic: the grid, the likelihood, intervals, the predictive check."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats as st

from sim.search.calibrate import medians as med
from sim.search.calibrate import posterior as post
from sim.search.calibrate.observed import Observed, Row, statistics
from sim.search.space import Param

SIDES = ("a", "b")
STATS = statistics(SIDES)


def test_the_grid_has_every_choice_every_small_whole_and_levels_of_a_real() -> None:
    assert post.grid_values(Param("m", "choices", choices=("all", "none")), 9) == ("all", "none")
    assert post.grid_values(Param("h", "whole", 3, 9), 5) == (3, 4, 5, 6, 7, 8, 9)
    assert post.grid_values(Param("r", "whole", 0, 100), 5) == (0, 25, 50, 75, 100)
    assert post.grid_values(Param("x", "real", 0.0, 1.0), 3) == (0.0, 0.5, 1.0)
    grid = post.Grid(
        (Param("h", "whole", 1, 2), Param("x", "real", 0.0, 1.0)), ((1, 2), (0.0, 1.0))
    )
    assert grid.size == 4 and grid.cell(1) == {"h": 1, "x": 1.0} == grid.cells()[1]


def runs(
    cells: list[int], rows: list[str], winner: list[str | None], rounds: list[int]
) -> pd.DataFrame:
    """Battles as a search reads them back (every fighter of the loser down)."""
    n = len(cells)
    frame = pd.DataFrame(
        {"cell": cells, "observed": rows, "failed": [False] * n, "winner": winner, "rounds": rounds}
    )
    for s in SIDES:
        frame[f"fighters.{s}"] = 4
        frame[f"down.{s}"] = [4 if w is not None and w != s else 0 for w in winner]
    return frame


def table(
    value: float, battles: int, stat: str = "wins.a", decisive: int | None = None
) -> Observed:
    """One observed row of one statistic."""
    row = Row("1", 2, (("max_rounds", 5),), ((stat, value),), battles, decisive)
    return Observed("t.csv", (row,), (STATS[stat],), ("max_rounds",), False)


def test_a_share_is_weighed_by_the_beta_binomial_of_both_samples() -> None:
    # cell 0: a wins 8 of 10; cell 1: 2 of 10
    frame = runs(
        [0] * 10 + [1] * 10, ["1"] * 20, ["a"] * 8 + ["b"] * 2 + ["a"] * 2 + ["b"] * 8, [1] * 20
    )
    sims = post.simulated(frame, 2, ["1"], [STATS["wins.a"]], SIDES)
    assert sims.n["wins.a"][:, 0].tolist() == [10, 10]
    obs = table(0.75, 20, decisive=20)
    ll = post.loglik(sims, obs)
    assert ll[0] == pytest.approx(st.betabinom.logpmf(15, 20, 8.5, 2.5))
    assert ll[1] == pytest.approx(st.betabinom.logpmf(15, 20, 2.5, 8.5))
    weights = post.posterior(ll)
    assert weights[0] > 0.95 and weights.sum() == pytest.approx(1.0)


def test_the_loser_out_and_draws_count_over_their_own_battles() -> None:
    frame = runs([0, 0, 0, 0], ["1"] * 4, ["a", "b", None, None], [1, 2, 3, 3])
    frame.loc[1, "down.a"] = 2  # a lost with 2 of 4 down
    values = post.battle_values(frame, [STATS["loser_out"], STATS["draws"], STATS["rounds"]], SIDES)
    assert values["loser_out"].tolist()[:2] == [1.0, 0.5] and values["loser_out"].isna().sum() == 2
    assert values["draws"].tolist() == [0.0, 0.0, 1.0, 1.0]
    assert values["rounds"].mean() == 2.25


def test_a_mean_far_from_a_cells_battles_is_unlikely_there() -> None:
    frame = runs([0] * 20 + [1] * 20, ["1"] * 40, ["a"] * 40, [1, 2] * 10 + [3, 4] * 10)
    sims = post.simulated(frame, 2, ["1"], [STATS["rounds"]], SIDES)
    ll = post.loglik(sims, table(1.5, 30, "rounds"))
    assert ll[0] - ll[1] > 10


def test_intervals_of_each_kind() -> None:
    m = post.interval(
        Param("m", "choices", choices=("x", "y", "z")), ("x", "y", "z"), np.array([0.2, 0.78, 0.02])
    )
    assert (m.fitted, m.chosen, m.spans) == ("y", ("y", "x"), False)
    h = post.interval(
        Param("h", "whole", 1, 5), (1, 2, 3, 4, 5), np.array([0.0, 0.1, 0.8, 0.1, 0.0])
    )
    assert (h.lo, h.fitted, h.hi, h.spans) == (2, 3, 4, False)
    flat = post.interval(Param("h", "whole", 1, 5), (1, 2, 3, 4, 5), np.full(5, 0.2))
    assert (flat.lo, flat.hi, flat.spans) == (1, 5, True)
    x = post.interval(Param("x", "real", 0.0, 1.0), (0.0, 0.5, 1.0), np.array([0.0, 1.0, 0.0]))
    assert (x.lo, x.fitted, x.hi) == pytest.approx((0.2625, 0.5, 0.7375))
    edge = post.interval(Param("x", "real", 0.0, 1.0), (0.0, 0.5, 1.0), np.array([1.0, 0.0, 0.0]))
    assert edge.low_end and not edge.spans


def test_the_plausible_cells_hold_all_but_what_is_left_out() -> None:
    assert post.plausible(np.array([0.001, 0.6, 0.399]), 0.999) == [1, 2]
    assert post.plausible(np.array([0.0005, 0.9995]), 0.999) == [1]


def test_the_predictive_check_names_what_the_model_cannot_give() -> None:
    frame = runs([0] * 40, ["1"] * 40, ["a"] * 20 + ["b"] * 20, [1] * 40)
    sims = post.simulated(frame, 1, ["1"], [STATS["wins.a"]], SIDES)
    weights = np.array([1.0])
    fine = post.predictive(sims, table(0.5, 40, decisive=40), weights, np.random.default_rng(1))
    far = post.predictive(sims, table(0.95, 40, decisive=40), weights, np.random.default_rng(1))
    assert not fine[0].fails and fine[0].lo < 0.5 < fine[0].hi
    assert far[0].fails and far[0].p < 0.01


def test_a_predictive_interval_of_a_share_stays_in_0_to_1() -> None:
    """Before: ``1.00 [0.97-1.03]``, a mean of shares past 100%."""
    frame = runs([0] * 40, ["1"] * 40, ["a"] * 40, [1] * 40)
    frame.loc[:3, "down.b"] = 2  # four battles of 40 won with half the loser down
    sims = post.simulated(frame, 1, ["1"], [STATS["loser_out"]], SIDES)
    check = post.predictive(
        sims, table(1.0, 5, "loser_out", decisive=5), np.array([1.0]), np.random.default_rng(1)
    )[0]
    assert 0.7 < check.lo < check.hi == 1.0 and not check.fails


def test_the_simulators_own_table() -> None:
    frame = runs([0] * 4, ["1"] * 4, ["a", "a", "b", None], [1, 2, 3, 4]).assign(
        max_rounds=[5, 5, 6, 6]
    )
    rows = post.table_rows(frame, ["max_rounds"], [STATS["wins.a"], STATS["rounds"]], SIDES)
    assert rows == [
        {"max_rounds": 5, "battles": 2, "decisive": 2, "wins.a": 1.0, "rounds": 1.5},
        {"max_rounds": 6, "battles": 2, "decisive": 1, "wins.a": 0.0, "rounds": 3.5},
    ]


def test_roles_and_definitions_of_out() -> None:
    """The larger side's wins, the loser's share lost (fled and surrendered too), by battle."""
    frame = runs([0] * 4, ["1"] * 4, ["a", "b", "a", None], [1] * 4)
    frame["fighters.a"] = [6, 6, 4, 4]  # a is larger in the first two, equal in the last two
    frame["down.b"] = [1, 0, 2, 0]
    frame["down.a"] = [0, 1, 0, 0]
    for s in SIDES:  # not active at the end: down, fled or surrendered
        frame[f"lost.{s}"] = frame[f"down.{s}"] + [2, 2, 1, 0]
        frame[f"surrendered.{s}"] = [1, 0, 0, 0]
    names = ["wins.larger", "wins.smaller", "loser.down", "loser.gone", "loser.lost", "a.lost"]
    names.append("loser.casualties")
    values = post.battle_values(frame, [STATS[n] for n in names], SIDES)
    assert values["wins.larger"].tolist()[:2] == [1.0, 0.0]  # a won the first, b the second
    assert values["wins.larger"].isna().tolist() == [False, False, True, True]  # equal sides
    assert values["wins.smaller"].tolist()[:2] == [0.0, 1.0]
    assert values["loser.down"].tolist()[:3] == [0.25, 1 / 6, 0.5]
    assert values["loser.lost"].tolist()[:3] == [0.75, 0.5, 0.75]
    assert values["loser.gone"].tolist()[:3] == [0.5, 0.5, 0.75]  # the surrendered are not gone
    assert values["loser.casualties"].tolist()[:3] == [0.5, 1 / 6, 0.5]  # the fled got away
    assert np.isnan(values["loser.down"][3])  # a draw has no loser
    assert values["a.lost"].tolist() == [2 / 6, 3 / 6, 1 / 4, 0.0]  # a side's, in every battle


def test_the_attacker_is_the_rows_and_the_defender_the_other_side() -> None:
    frame = runs([0, 0, 0], ["1", "2", "2"], ["a", "a", "b"], [1] * 3)
    stats = [STATS["wins.attacker"], STATS["defender.down"]]
    values = post.battle_values(frame, stats, SIDES, ["a", "b", "b"])
    assert values["wins.attacker"].tolist() == [1.0, 0.0, 1.0]
    assert values["defender.down"].tolist() == [1.0, 0.0, 1.0]  # b won its own attack
    sims = post.simulated(frame, 1, ["1", "2"], stats, SIDES, ["a", "b"])
    assert sims.sum["wins.attacker"].tolist() == [[1.0, 1.0]]


def test_a_median_is_weighed_by_the_battles_below_it() -> None:
    """The observed median says half the observed battles fell below it (a sign test)."""
    frame = runs([0] * 10 + [1] * 10, ["1"] * 20, ["a"] * 20, list(range(1, 11)) * 2)
    frame.loc[10:, "rounds"] += 4  # cell 1's battles are 4 rounds longer
    sims = post.simulated(frame, 2, ["1"], [STATS["rounds.median"]], SIDES)
    ll = post.loglik(sims, table(5.0, 30, "rounds.median"))
    # cell 0: 4 battles below 5 and one at it (half): 4.5 of 10; cell 1: 0.5 of 10
    assert ll[0] == pytest.approx(_betabinom(15, 30, 5.0, 6.0))
    assert ll[1] == pytest.approx(_betabinom(15, 30, 1.0, 10.0))
    assert ll[0] - ll[1] > 3
    # an integral count agrees with scipy's beta-binomial
    assert med.betabinom(15, 30, 5.0, 6.0) == pytest.approx(st.betabinom.logpmf(15, 30, 5, 6))


def _betabinom(k: float, n: int, a: float, b: float) -> float:
    from scipy.special import betaln, comb

    return float(np.log(comb(n, k)) + betaln(k + a, n - k + b) - betaln(a, b))


def test_the_predictive_check_of_a_median() -> None:
    frame = runs([0] * 200, ["1"] * 200, ["a"] * 200, list(range(1, 11)) * 20)
    sims = post.simulated(frame, 1, ["1"], [STATS["rounds.median"]], SIDES)
    fine, far = (
        post.predictive(
            sims, table(v, 41, "rounds.median"), np.array([1.0]), np.random.default_rng(3)
        )[0]
        for v in (5.5, 8.0)
    )
    assert fine.lo < 5.5 < fine.hi and not fine.fails and 4 <= fine.lo and fine.hi <= 7
    assert far.fails and far.p < 0.05


def test_a_statistics_own_size_and_interval_weigh_it() -> None:
    frame = runs([0] * 20, ["1"] * 20, ["a"] * 12 + ["b"] * 8, [1, 3] * 10)
    sims = post.simulated(frame, 1, ["1"], [STATS["wins.a"], STATS["rounds"]], SIDES)
    row = Row(
        "1",
        2,
        (("max_rounds", 5),),
        (("wins.a", 0.5), ("rounds", 2.5)),
        20,
        20,
        ns=(("wins.a", 200),),
        ses=(("rounds", 0.05),),
    )
    own = Observed("t.csv", (row,), (STATS["wins.a"], STATS["rounds"]), ("max_rounds",), False)
    assert post.observed_n(sims, STATS["wins.a"], row, 0).tolist() == [200]
    share = post._term(sims, STATS["wins.a"], row, 0, 0.5)
    assert share[0] == pytest.approx(st.betabinom.logpmf(100, 200, 12.5, 8.5))
    mean = post._term(sims, STATS["rounds"], row, 0, 2.5)
    var = post.spread(sims, "rounds", 0)[0]
    scale = np.sqrt(0.05**2 + var / 20)
    assert mean[0] == pytest.approx(st.t.logpdf(2.5, post.df(sims, "rounds", 0)[0], 2.0, scale))
    assert post.loglik(sims, own)[0] == pytest.approx(share[0] + mean[0])


def test_a_published_median_rounded_counts_the_battles_it_stands_for() -> None:
    """0.1667 is 2 of 12: battles at 2/12 tie with it, and the check holds it reproduced."""
    frame = runs([0] * 40, ["1"] * 40, ["a"] * 40, [1] * 40)
    frame["fighters.b"] = 12
    frame["down.b"] = 2
    sims = post.simulated(frame, 1, ["1"], [STATS["loser.down.median"]], SIDES)
    assert med.below(*sims.values("loser.down.median", 0), 1, 0.1667).tolist() == [20.0]
    check = post.predictive(
        sims, table(0.1667, 30, "loser.down.median"), np.array([1.0]), np.random.default_rng(1)
    )[0]
    assert check.lo == check.hi == pytest.approx(2 / 12) and not check.fails
