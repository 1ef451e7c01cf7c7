"""The game design's intervals hold the truth as often as they say (slow).

The duel game of :mod:`tests.search.helpers` has an exact payoff table (each cell's win
rate from the rules' distributions, checked against 10,000 real battles of a cell), so its
value and the exploitability of any mix are exact. Fifty adaptive searches, each planned
by the design's own planner (:func:`sim.search.game.plan.state` and
:func:`~sim.search.game.plan.allocate`) and answered by :func:`sim.games.analyse`, draw
their battles from the exact cell probabilities: once with the dice shared as the search
shares its seeds (replicate ``r`` of a batch meets one uniform number in every cell, the
strongest correlation shared seeds can give), once independent. The value's 95% interval
must hold the exact value in at least 45 of 50, and the mixes found must be within the
tolerance of exploitability in at least 45 of 50.
"""

from __future__ import annotations

import numpy as np
import pytest

from sim import games
from sim.search.game import plan
from sim.search.game.read import Settings
from tests.search.helpers import COVERS, GUNS, duel_game_win

TOLERANCE = 0.02


def drawn_search(p: np.ndarray, seed: int, shared: bool) -> tuple[plan.State, int]:
    """One adaptive search whose battles are drawn from the cells' exact probabilities."""
    m, n = p.shape
    rng = np.random.default_rng(seed)
    s = Settings("shooter", "target", "all", TOLERANCE, 20, "adaptive")
    parts: list[tuple[np.ndarray, ...]] = []
    runs = np.zeros((m, n))
    alloc = np.full((m, n), s.start)
    batch = 0
    while True:
        u = rng.random(int(alloc.max()))
        for (i, j), k in np.ndenumerate(alloc):
            if k:
                dice = u[:k] if shared else rng.random(k)
                cluster = (batch + 1) * 2**40 + np.arange(k)
                parts.append((np.full(k, i), np.full(k, j), dice < p[i, j], cluster))
        runs += alloc
        batch += 1
        i, j, won, cluster = (np.concatenate(c) for c in zip(*parts, strict=True))
        cells = games.cells_of(i, j, won, np.ones(len(i), bool), cluster, (m, n))
        st = plan.state(cells, runs, plan.rng_for(seed, batch))
        alloc = plan.allocate(st, s, int(runs.sum()), 40_000 - int(runs.sum()))
        if alloc is None:
            return st, batch


@pytest.mark.slow
@pytest.mark.parametrize("shared", [True, False])
def test_the_value_and_the_mixes_hold_the_exact_duel_game(shared: bool) -> None:
    p = np.array([[float(duel_game_win(g, c)) for c in COVERS] for g in GUNS])
    truth = games.solve(p)
    assert 0.05 < truth.row.min() and 0.05 < truth.col.min()  # a mixed equilibrium
    held = exploitable = 0
    for seed in range(50):
        st, batch = drawn_search(p, seed, shared)
        lo, hi = st.value_ci
        held += lo <= truth.value <= hi
        exploitable += (p @ st.eq.col).max() - (st.eq.row @ p).min() > TOLERANCE
    assert held >= 45, f"the value's interval held the exact value in {held} of 50"
    assert exploitable <= 5, f"{exploitable} of 50 answers' mixes were exploitable by more"
