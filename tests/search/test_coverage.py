"""The searches' 95% intervals hold the truth about 95 times in 100 (slow: real battles).

The truth is exact (tests/search/helpers.py): the Deathwish duel's win rate at any
``incapacitate_serious``, from the rules' own distributions.
"""

import concurrent.futures as cf
import json
import multiprocessing as mp
import tempfile
from pathlib import Path

import pytest

from sim.search import load_search, run_search
from tests.search.helpers import DUEL, duel_crossing, duel_win, write
from tests.search.test_optimize import OPTIMIZED, exact

BALANCED = """\
name: balanced
scenario: duel.yaml
design: balance
parameters:
  rules.options.incapacitate_serious: {low: 0.0, high: 1.0}
target: {side: shooter, wins: 50%, of: all}
tolerance: 5%
budget: 6000
seed: SEED
"""


def balance_interval(seed: int) -> tuple[float, float, int]:
    """One balance search of the duel: its crossing's interval and battles."""
    folder = Path(tempfile.mkdtemp())
    write(folder, "duel.yaml", DUEL)
    search = load_search(write(folder, "b.yaml", BALANCED.replace("SEED", str(seed))))
    run_search(search, folder / "b", progress=False)
    data = json.loads((folder / "b" / "search" / "answer.json").read_text())["data"]
    c = data["groups"][0]["crossing"]
    return c["lo"], c["hi"], data["battles"]


def optimize_gap(seed: int) -> tuple[float, float, float]:
    """One optimize search of the duel: best minus runner-up's interval, and the truth."""
    folder = Path(tempfile.mkdtemp())
    write(folder, "duel.yaml", DUEL)
    text = OPTIMIZED.replace("seed: 1\n", f"seed: {seed}\n")
    run_search(load_search(write(folder, "o.yaml", text)), folder / "o", progress=False)
    data = json.loads((folder / "o" / "search" / "answer.json").read_text())["data"]
    first, second = data["candidates"][:2]
    gap = data["best_minus_runner_up"]
    return gap["lo"], gap["hi"], exact(first["values"]) - exact(second["values"])


def in_parallel(fn, seeds):
    with cf.ProcessPoolExecutor(2, mp_context=mp.get_context("spawn")) as pool:
        return list(pool.map(fn, seeds))


@pytest.mark.slow
def test_balance_intervals_hold_the_exact_crossing_45_times_in_50():
    truth = duel_crossing()
    assert float(duel_win(serious=truth)) == pytest.approx(0.5, abs=1e-9)
    found = in_parallel(balance_interval, range(1000, 1050))
    held = sum(lo <= truth <= hi for lo, hi, _ in found)
    assert held >= 45, (held, found)


@pytest.mark.slow
def test_optimize_runner_up_gaps_hold_the_brute_force_one_17_times_in_20():
    found = in_parallel(optimize_gap, range(100, 120))
    held = sum(lo <= truth <= hi for lo, hi, truth in found)
    assert held >= 17, (held, found)
