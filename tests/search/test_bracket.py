"""Where a balance search fights and when it stops (sim.search.balance.bracket), on known curves.

Each curve's battles are drawn from its exact win rate, so these check the search's logic
alone: the real battles are in test_balance.py.
"""

import math

import numpy as np
import pytest

from sim.search.balance.bracket import Point, Rule, coarse, next_step, state


def search(rule, rate, seed=0, budget=30_000, data=None):
    """Run the search with battles drawn from ``rate(x)``: its last step and battles.

    ``data`` (if given) is filled with each value's wins, counted, battles and looks.
    """
    rng = np.random.default_rng(seed)
    data, spent = {} if data is None else data, 0
    while True:
        step = next_step(rule, [Point(x, *v) for x, v in data.items()])
        if step.status != "search" or spent >= budget:
            return step, spent
        for x, n in step.runs:
            n = min(n, budget - spent)
            k = int(rng.binomial(n, rate(x)))
            kk, nn, rr, looks = data.get(x, (0, 0, 0, 0))
            data[x] = (kk + k, nn + n, rr + n, looks + 1)
            spent += n


def test_the_coarse_start_spreads_over_the_range_ends_included():
    assert coarse(Rule(1, 12, True, 0.5, 0.02)) == [1, 4, 6, 9, 12]
    assert coarse(Rule(2, 4, True, 0.5, 0.02)) == [2, 3, 4]
    assert coarse(Rule(0.0, 1.0, False, 0.5, 0.02)) == [0.0, 0.25, 0.5, 0.75, 1.0]


@pytest.mark.parametrize("seed", range(5))
def test_a_whole_crossing_at_a_value_is_that_value(seed):
    rate = lambda k: 1 / (1 + math.exp(1.3 * (k - 3)))  # noqa: E731
    rule = Rule(1, 8, True, 0.5, 0.02)
    step, _ = search(rule, rate, seed)
    assert step.status == "answered"
    assert step.nearest.x == 3
    assert 3 in [p.x for p in step.bracket]
    lo, hi = step.nearest.wilson(rule.z)
    assert 0.48 <= lo and hi <= 0.52  # fair: its interval inside the band


RULE = Rule(2, 4, True, 0.5, 0.03)
"""Two bandits, three or four; a side's win rate to 50% +-3 points (the band 47-53%)."""


def test_a_rate_outside_the_band_whose_interval_reaches_into_it_is_fought_on():
    """The issue's mirror: 54.4% [51.4-57.3] at three is not "no value is fair"."""
    pts = [Point(2, 950, 1000, 1000, 3), Point(3, 582, 1070, 1070, 4), Point(4, 100, 1000, 1000, 3)]
    step = next_step(RULE, pts)
    assert state(RULE, pts[1]) == "open"
    assert step.status == "search" and [x for x, _ in step.runs] == [3]


def test_a_rate_inside_the_band_whose_interval_reaches_out_of_it_is_not_yet_fair():
    pts = [Point(2, 950, 1000, 1000, 3), Point(3, 578, 1100, 1100, 4), Point(4, 100, 1000, 1000, 3)]
    assert abs(pts[1].rate - 0.5) < 0.03  # 52.5%: the point estimate alone would say fair
    step = next_step(RULE, pts)
    assert step.status == "search" and [x for x, _ in step.runs] == [3]


def test_fair_when_the_interval_lies_inside_the_band_not_fair_when_both_are_clear():
    fair = [
        Point(2, 950, 1000, 1000, 3),
        Point(3, 2520, 5000, 5000, 5),
        Point(4, 100, 1000, 1000, 3),
    ]
    assert next_step(RULE, fair).status == "answered"
    off = [
        Point(2, 950, 1000, 1000, 3),
        Point(3, 2900, 5000, 5000, 5),
        Point(4, 100, 1000, 1000, 3),
    ]
    step = next_step(RULE, off)
    assert step.status == "unreached" and step.nearest.x == 3


def test_a_value_whose_looks_are_spent_and_still_open_is_undecided():
    pts = [
        Point(2, 950, 1000, 1000, 3),
        Point(3, 582, 1070, 1070, RULE.looks),
        Point(4, 100, 1000, 1000, 3),
    ]
    assert next_step(RULE, pts).status == "undecided"


def test_each_look_spends_its_share_of_the_five_percent():
    from statistics import NormalDist

    for budget in (400, 20_000, 1_000_000):
        rule = Rule(2, 4, True, 0.5, 0.03, budget=budget)
        each = 2 * (1 - NormalDist().cdf(rule.z))
        assert each * rule.looks == pytest.approx(0.05)
        assert rule.start * 3 ** (rule.looks - 2) >= budget  # the budget is reached in time


def test_a_jump_across_the_target_is_no_answer():
    rates = {1: 0.99, 2: 0.95, 3: 0.8, 4: 0.584, 5: 0.014, 6: 0.002, 7: 0.0, 8: 0.0}
    step, spent = search(Rule(1, 8, True, 0.5, 0.02), lambda k: rates[int(k)])
    assert step.status == "unreached"
    assert [p.x for p in step.bracket] == [4, 5] and step.nearest.x == 4
    assert spent < 5_000


@pytest.mark.parametrize("whole", [True, False])
def test_a_curve_that_never_gets_there_is_no_answer(whole):
    low, high = (1, 8) if whole else (0.0, 1.0)
    rate = lambda x: 0.1 + 0.25 * (x - low) / (high - low)  # noqa: E731
    step, _ = search(Rule(low, high, whole, 0.5, 0.02), rate)
    assert step.status == "unreached"
    assert step.nearest.x == high


def test_a_step_in_a_real_response_is_a_jump_not_a_crossing():
    step, spent = search(Rule(0.0, 1.0, False, 0.5, 0.02), lambda x: 0.8 if x < 0.3712 else 0.2)
    assert step.status == "jump"
    a, b = step.bracket
    assert a.x < 0.3712 <= b.x and b.x - a.x <= 1e-4
    assert spent < 5_000


def test_a_real_crossing_seen_clearly_is_bisected_not_fought_at_the_ends():
    """Two neighbours clearly either side: the range's ends have nothing more to say."""
    data = {}
    step, spent = search(
        Rule(0.0, 1.0, False, 0.5, 0.02), lambda x: 0.3 if x < 0.5 else 0.7, data=data
    )
    assert step.status == "jump"
    ends = data[0.0][2] + data[1.0][2]
    assert ends <= 0.2 * spent, (ends, spent)


def test_a_parameter_that_does_not_matter_is_flat():
    step, _ = search(Rule(0.0, 1.0, False, 0.5, 0.03), lambda x: 0.5, seed=3)
    assert step.status == "flat"


def test_a_real_crossing_stops_when_the_interval_is_within_the_tolerance():
    rate = lambda x: 1 / (1 + math.exp(-4 * (x - 6.3)))  # noqa: E731
    step, _ = search(Rule(0, 10, False, 0.5, 0.02), rate, seed=1)
    assert step.status == "answered"
    c = step.crossing
    assert c.points <= 0.02 and c.lo < 6.3 < c.hi


def test_a_tolerance_in_the_parameters_units_stops_there():
    rate = lambda x: 1 / (1 + math.exp(-4 * (x - 6.3)))  # noqa: E731
    step, _ = search(Rule(0, 10, False, 0.5, 0.02, tolerance_value=0.05), rate, seed=2)
    assert step.status == "answered" and step.crossing.half <= 0.05


@pytest.mark.slow
def test_the_interval_holds_the_truth_about_95_times_in_100():
    """The duel's exact response (tests/search/helpers.py), its battles drawn: 200 searches."""
    truth = 0.514268
    rate = lambda x: 1 - (1 - (0.05625 + 0.2 * x)) ** 4  # noqa: E731  (the duel's, exact: q is linear in x)
    held = 0
    for seed in range(200):
        step, _ = search(Rule(0.0, 1.0, False, 0.5, 0.05), rate, seed)
        c = step.crossing
        held += c.bounded and c.lo <= truth <= c.hi
    assert held >= 182  # 91%; 95% would give 190 on average (seeds 0-199 give 191)


def verdicts(rule, rates, searches=1000):
    """The ends of ``searches`` searches of ``rates`` (exact win rates): status and value."""
    from collections import Counter

    found = Counter()
    for seed in range(searches):
        step, _ = search(rule, lambda x: rates[int(x)], seed, rule.budget)
        found[step.status, step.nearest.x if step.nearest else None] += 1
    return found


@pytest.mark.slow
@pytest.mark.parametrize(
    "rates, wrong",
    [
        ({2: 0.9, 3: 0.5, 4: 0.1}, "unreached"),  # a mirror at three: fair
        ({2: 0.9, 3: 0.529, 4: 0.1}, "unreached"),  # just inside the band's edge: fair
        ({2: 0.9, 3: 0.531, 4: 0.1}, "answered"),  # just outside it: not fair
        ({2: 0.9, 3: 0.531, 4: 0.469}, "answered"),  # both just outside: no value is fair
        ({2: 0.9, 3: 0.7, 4: 0.529}, "unreached"),  # the range's end just inside: it reaches
        ({2: 0.9, 3: 0.7, 4: 0.531}, "edge"),  # the range's end just outside: it does not
    ],
)
def test_a_verdict_is_wrong_in_at_most_5_percent_of_searches(rates, wrong):
    """1,000 searches of each case to 50% +-3 points, battles drawn from the exact rates.

    A verdict (fair, or not) is read from intervals that hold the truth at every look at
    once (Bonferroni over the looks): wrong at most 2.5% of the time. Undecided (the budget
    spent with an interval across the band's edge) is not wrong, and is what a rate this
    near the edge mostly gets.
    """
    found = verdicts(RULE, rates)
    bad = sum(n for (status, _), n in found.items() if status == wrong)
    if wrong == "unreached" and rates[3] == 0.5:  # the mirror: fair at three and only there
        bad = sum(n for (status, x), n in found.items() if (status, x) != ("answered", 3))
    assert bad <= 50, found
