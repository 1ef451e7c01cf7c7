"""sim.games: zero-sum games solved exactly, and the cells' posterior.

Exact where the truth is known: rock-paper-scissors (1/3 each, value 1/2), and 50 random
4x4 tables against an independent solver written here (support enumeration: every pair of
equal-sized supports, its indifference equations solved and checked), to 1e-6.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from sim import games

RPS = np.array([[0.5, 0.0, 1.0], [1.0, 0.5, 0.0], [0.0, 1.0, 0.5]])


def by_supports(a: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """A zero-sum equilibrium by support enumeration (rows maximise): no linear program."""
    m, n = a.shape
    for k in range(1, min(m, n) + 1):
        for rows in itertools.combinations(range(m), k):
            for cols in itertools.combinations(range(n), k):
                sub = a[np.ix_(rows, cols)]
                top = np.block([[sub, -np.ones((k, 1))], [np.ones((1, k)), np.zeros((1, 1))]])
                left = np.block([[sub.T, -np.ones((k, 1))], [np.ones((1, k)), np.zeros((1, 1))]])
                rhs = np.r_[np.zeros(k), 1.0]
                try:
                    sy, sx = np.linalg.solve(top, rhs), np.linalg.solve(left, rhs)
                except np.linalg.LinAlgError:
                    continue
                y, x = np.zeros(n), np.zeros(m)
                y[list(cols)], x[list(rows)] = sy[:k], sx[:k]
                v = sy[k]
                if (x < -1e-12).any() or (y < -1e-12).any():
                    continue
                if (a @ y).max() <= v + 1e-12 and (x @ a).min() >= v - 1e-12:
                    return x, y, float(v)
    raise AssertionError("no equilibrium found")


def test_rock_paper_scissors_is_a_third_each_worth_a_half() -> None:
    e = games.solve(RPS)
    assert e.value == pytest.approx(0.5, abs=1e-9)
    np.testing.assert_allclose(e.row, [1 / 3] * 3, atol=1e-9)
    np.testing.assert_allclose(e.col, [1 / 3] * 3, atol=1e-9)


def test_fifty_random_tables_agree_with_support_enumeration() -> None:
    rng = np.random.default_rng(38)
    for _ in range(50):
        a = rng.random((4, 4))
        e = games.solve(a)
        x, y, v = by_supports(a)
        assert e.value == pytest.approx(v, abs=1e-6)
        np.testing.assert_allclose(e.row, x, atol=1e-6)
        np.testing.assert_allclose(e.col, y, atol=1e-6)


def test_solving_many_at_once_is_solving_each() -> None:
    rng = np.random.default_rng(5)
    base = rng.random((3, 4))
    tables = np.clip(base + 0.05 * rng.standard_normal((200, 3, 4)), 0, 1)
    values, rows, cols = games.solve_many(tables, games.solve(base))
    for t, v, x, y in zip(tables, values, rows, cols, strict=True):
        e = games.solve(t)
        assert v == pytest.approx(e.value, abs=1e-9)
        # a verified solution is an equilibrium (the value is unique; the mixes may not be)
        assert (t @ y).max() <= e.value + 1e-9 and (x @ t).min() >= e.value - 1e-9


def test_a_dominated_choice_gets_no_weight_and_a_pure_saddle_is_found() -> None:
    a = np.array([[0.6, 0.7], [0.4, 0.5]])  # row 0 dominates; column 0 is better for columns
    e = games.solve(a)
    assert e.value == pytest.approx(0.6)
    np.testing.assert_allclose(e.row, [1, 0]) and np.testing.assert_allclose(e.col, [1, 0])


def _cells(p: np.ndarray, battles: int, rng: np.random.Generator, shared: bool) -> games.Cells:
    m, n = p.shape
    i, j = np.divmod(np.repeat(np.arange(m * n), battles), n)
    r = np.tile(np.arange(battles), m * n)
    u = rng.random(battles)[r] if shared else rng.random(len(r))  # shared: the same dice
    cluster = r if shared else np.arange(len(r))
    return games.cells_of(i, j, u < p[i, j], np.ones(len(r), bool), cluster, (m, n))


def test_each_cells_posterior_is_its_jeffreys_beta() -> None:
    cells = games.cells_of([0] * 10, [0] * 10, [1] * 7 + [0] * 3, [True] * 10, range(10), (1, 1))
    d = cells.draws(40_000, np.random.default_rng(1))[:, 0, 0]
    a, b = 7.5, 3.5
    assert d.mean() == pytest.approx(a / (a + b), abs=0.005)
    assert d.var() == pytest.approx(a * b / ((a + b) ** 2 * (a + b + 1)), rel=0.05)


def test_cells_that_met_the_same_dice_move_together() -> None:
    p = np.array([[0.5, 0.55]])
    rng = np.random.default_rng(2)
    shared = _cells(p, 400, rng, True).draws(4000, rng)
    apart = _cells(p, 400, rng, False).draws(4000, rng)
    corr = [np.corrcoef(d[:, 0, 0], d[:, 0, 1])[0, 1] for d in (shared, apart)]
    assert corr[0] > 0.8 and abs(corr[1]) < 0.1


def test_a_clearly_dominated_choice_is_found_step_by_step() -> None:
    # column 2 is worst for the column side; without it, row 1 is dominated by row 0
    p = np.array([[0.7, 0.3, 0.9], [0.6, 0.2, 0.95], [0.2, 0.8, 0.99]])
    rng = np.random.default_rng(3)
    r = games.analyse(_cells(p, 2000, rng, False), rng, size=1000)
    strict = [(d.side, d.alternative, d.by, d.step) for d in r.dominated if d.strict]
    assert ("col", 2, 1, 1) in strict or ("col", 2, 0, 1) in strict
    assert ("row", 1, 0, 2) in strict
    assert r.eq.row[1] == 0 and r.eq.col[2] == 0


def test_nothing_is_dominated_in_rock_paper_scissors() -> None:
    rng = np.random.default_rng(4)
    p = np.array([[0.5, 0.2, 0.8], [0.8, 0.5, 0.2], [0.2, 0.8, 0.5]])
    r = games.analyse(_cells(p, 500, rng, False), rng, size=500)
    assert r.dominated == ()
    assert r.value_ci[0] < 0.5 < r.value_ci[1]
    assert all(lo < 1 / 3 < hi for lo, hi in r.row_ci)
