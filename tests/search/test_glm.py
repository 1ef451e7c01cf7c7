"""The fitted response and its crossing (sim.search.balance.glm)."""

import math

import numpy as np
import pytest

from sim.search.balance.glm import fit_response


def test_a_logistic_response_gives_its_crossing_back():
    x = np.linspace(0, 10, 11)
    n = np.full(11, 100_000)
    truth = 1 / (1 + np.exp(-(x - 6.3) * 0.8))
    k = np.round(n * truth)
    fit = fit_response(x, k, n, "logit", 0, 10)
    c = fit.crossing(0.5, 0, 10)
    assert c.x == pytest.approx(6.3, abs=0.01)
    assert c.lo < 6.3 < c.hi and c.half < 0.05
    assert c.slope == pytest.approx(0.8 * 0.25, rel=0.05)


def test_the_interval_is_fiellers_for_a_straight_line():
    x, n = np.array([0.0, 1.0]), np.array([400, 400])
    k = np.array([120, 280])
    fit = fit_response(x, k, n, "logit")
    assert len(fit.coef) == 2
    c = fit.crossing(0.5, 0.0, 1.0)
    # on the fit's own scale z = (x - centre) / span: b0 + b1 z = 0 at the crossing, and
    # Fieller's ends solve (b0 + b1 z)^2 = 1.96^2 var(b0 + b1 z)
    (b0, b1), cov = fit.coef, np.array(fit.cov)
    z2 = 1.959963984540054**2
    a, b, cc = b1 * b1 - z2 * cov[1, 1], 2 * (b0 * b1 - z2 * cov[0, 1]), b0 * b0 - z2 * cov[0, 0]
    ends = sorted(fit.centre + fit.span * r for r in np.roots([a, b, cc]).real)
    assert c.x == pytest.approx(fit.centre - fit.span * b0 / b1)
    assert c.x == pytest.approx(0.5, abs=1e-9)  # 30% and 70%: symmetric
    assert c.lo == pytest.approx(ends[0], abs=2e-3) and c.hi == pytest.approx(ends[1], abs=2e-3)


def test_a_flat_response_has_no_closed_interval():
    x = np.array([0.0, 0.5, 1.0])
    fit = fit_response(x, [49, 51, 50], [100, 100, 100], "logit")
    c = fit.crossing(0.5, 0.0, 1.0)
    assert c is None or not c.bounded


def test_separated_counts_cannot_be_fitted():
    assert fit_response([0, 1, 2, 3], [50, 50, 0, 0], [50, 50, 50, 50]) is None
    assert fit_response([1, 1], [3, 4], [10, 10]) is None  # one value


def test_a_bent_response_gets_the_curvature_term_when_it_stays_monotone():
    x = np.linspace(0, 1, 6)
    truth = 1 - (1 - (0.0563 + 0.2 * x)) ** 4
    n = np.full(6, 200_000)
    fit = fit_response(x, np.round(n * truth), n, "logit", 0, 1)
    assert len(fit.coef) == 3
    c = fit.crossing(0.5, 0, 1)
    truth = 0.514018  # where this curve is 50%
    straight = fit_response(x, np.round(n * truth_at(x)), n, "logit", 0, 1, curved=False)
    assert abs(c.x - truth) < 0.005  # the straight line's is 0.043 off
    assert abs(straight.crossing(0.5, 0, 1).x - truth) > 0.04


def truth_at(x):
    return 1 - (1 - (0.0563 + 0.2 * x)) ** 4


@pytest.mark.parametrize("link", ["logit", "probit"])
def test_the_dispersion_widens_a_curve_that_does_not_fit(link):
    x = np.array([0.0, 1, 2, 3, 4, 5])
    n = np.full(6, 1000)
    k = np.array([900, 400, 600, 300, 500, 100])  # zig-zag: far more scatter than binomial
    fit = fit_response(x, k, n, link)
    assert fit.dispersion > 5
    assert math.isfinite(fit.coef[0])
