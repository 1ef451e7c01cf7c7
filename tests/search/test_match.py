"""History matching (``method: match``): its space, emulators, implausibility and answers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

from sim.search import load_search, run_search
from sim.search.calibrate import emulate
from sim.search.calibrate.match import Space, _maximin
from sim.search.calibrate.observed import Row
from sim.search.calibrate.statistics import statistics
from sim.search.space import Param
from tests.search.calib_helpers import HILD_HD, SIX, recover_six
from tests.search.test_calibrate_spec import issues, write

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "experiments" / "ambush_match.yaml"
GRID = ROOT / "experiments" / "ambush_calibration.yaml"


def test_the_space_scales_snaps_and_reads_back_settings() -> None:
    space = Space(
        (
            Param("h", "whole", 3, 9),
            Param("x", "real", 0.0, 2.0),
            Param("m", "choices", choices=("all", "none")),
        )
    )
    assert space.d == 2 and space.combos == [("all",), ("none",)]
    x = space.snap(np.array([[0.26, 0.3]]))
    assert x[0, 0] == pytest.approx(2 / 6)  # 3 + 0.26 * 6 = 4.56 -> 5
    assert space.values(x[0], 1) == {"h": 5, "x": pytest.approx(0.6), "m": "none"}
    runs = pd.DataFrame({"h": [5], "x": [0.6], "m": ["none"]})
    back, combo = space.scaled(runs)
    assert back == pytest.approx(x) and combo.tolist() == [1]
    box = np.array([[0.5, 1.0], [0.0, 0.1]])
    sample, combos = space.sample(np.random.default_rng(1), 500, box)
    assert sample[:, 0].min() >= 0.5 and sample[:, 1].max() <= 0.1 and set(combos) == {0, 1}


def test_maximin_spreads_the_points_it_picks() -> None:
    x = np.random.default_rng(2).random((2000, 2))
    chosen, _ = _maximin(x, np.zeros(2000, dtype=int), 9, np.random.default_rng(3))
    gaps = np.sqrt(((chosen[:, None] - chosen[None]) ** 2).sum(-1)) + np.eye(9)
    random9 = x[:9]
    plain = np.sqrt(((random9[:, None] - random9[None]) ** 2).sum(-1)) + np.eye(9)
    assert gaps.min() > 2 * plain.min() and gaps.min() > 0.2


def test_an_emulator_follows_a_smooth_statistic_within_its_own_uncertainty() -> None:
    rng = np.random.default_rng(4)
    x = rng.random((40, 2))
    truth = lambda z: 0.2 + 0.6 * z[:, 0] ** 2  # noqa: E731
    y = truth(x) + rng.normal(0, 0.02, 40)
    model = emulate.Emulator(x, y, np.full(40, 0.02**2))
    test = rng.random((200, 2))
    mu, var = model.predict(test)
    z = (mu - truth(test)) / np.sqrt(var)
    assert np.mean(np.abs(z) < 3) > 0.95 and np.abs(mu - truth(test)).max() < 0.1


def test_implausibility_is_the_second_largest_so_one_unlucky_statistic_does_not_rule_out() -> None:
    stat = statistics(("a", "b"))["wins.a"]
    row = Row("1", None, (), (("wins.a", 0.5),), 100)
    ts = [emulate.Target(0, row, stat, 0.5)] * 3
    means = [np.array([0.5, 0.5]), np.array([0.9, 0.9]), np.array([0.5, 0.9])]
    variances = [np.full(2, 0.01)] * 3
    out = emulate.implausibility(means, variances, ts)
    assert out.tolist() == pytest.approx([0.0, 4.0])  # one far: kept; two far: ruled out
    assert emulate.implausibility(means[:2], variances[:2], ts[:2]).tolist() == pytest.approx(
        [4.0, 4.0]
    )


@pytest.mark.parametrize(
    ("params", "extra", "message"),
    [
        ("  battle.morale: {choices: [all, none]}\n", "method: match\n", "only choices use"),
        (f"  {HILD_HD}: {{low: 3, high: 9}}\n", "method: match\ndispersion: fit\n", "not fit"),
        (f"  {HILD_HD}: {{low: 3, high: 9}}\n", "method: match\nwave: 1\n", "wave: expected"),
    ],
)
def test_a_bad_match_is_located(tmp_path: Path, params: str, extra: str, message: str) -> None:
    found = issues(write(tmp_path, params=params, extra=extra))
    assert len(found) == 1 and message in found[0], found


def shipped(tmp_path: Path, experiment: Path, workers: int = 1, name: str = "out") -> Any:
    search = load_search(experiment)
    executor = "processes" if workers > 1 else "serial"
    return run_search(search, tmp_path / name, workers=workers, executor=executor, progress=False)


def test_the_shipped_match_gives_the_grids_answer_at_half_its_battles(tmp_path: Path) -> None:
    match = shipped(tmp_path, SHIPPED).answer
    morale, hd = match["data"]["parameters"]
    assert match["data"]["battles"] <= 900  # the grid's calibration fights 1,800
    assert morale["set"] == ["all"] and (hd["lo"], hd["fitted"], hd["hi"]) == (6, 6, 6)
    assert any(line.startswith("history matching: ") for line in match["lines"])
    waves = match["tables"][1]
    assert waves["headers"][0] == "wave" and len(waves["rows"]) == len(match["data"]["waves"])


@pytest.mark.slow
def test_the_grid_and_the_match_agree_within_a_grid_step(tmp_path: Path) -> None:
    grid = shipped(tmp_path, GRID, name="grid").answer
    match = shipped(tmp_path, SHIPPED, name="match").answer
    assert match["data"]["battles"] * 2 <= grid["data"]["battles"]
    for g, m in zip(grid["data"]["parameters"], match["data"]["parameters"], strict=True):
        if g["kind"] == "whole":
            assert abs(g["lo"] - m["lo"]) <= 1 and abs(g["hi"] - m["hi"]) <= 1
        else:
            assert g["set"] == m["set"]


@pytest.mark.slow
def test_the_same_answer_serially_on_two_processes_and_on_dask(tmp_path: Path) -> None:
    one = shipped(tmp_path, SHIPPED, name="one").answer
    two = shipped(tmp_path, SHIPPED, workers=2, name="two").answer
    assert one["lines"] == two["lines"] and one["data"] == two["data"]
    search = load_search(SHIPPED)
    dask = run_search(search, tmp_path / "dask", workers=2, executor="dask", progress=False)
    assert dask.answer["lines"] == one["lines"] and dask.answer["data"] == one["data"]


@pytest.mark.slow
def test_a_killed_match_resumes_to_the_same_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sim.search.calibrate.match import Match

    done = shipped(tmp_path, SHIPPED, name="clean").answer
    calls: list[int] = []

    def killed(self: Match, history: Any, root: Any) -> None:
        calls.append(1)
        if len(calls) == 2:  # after the second wave
            raise KeyboardInterrupt

    with monkeypatch.context() as m:
        m.setattr(Match, "finished_batch", killed)
        first = run_search(load_search(SHIPPED), tmp_path / "killed", progress=False)
    assert first.interrupted and first.answer is None
    resumed = run_search(load_search(SHIPPED), tmp_path / "killed", resume=True, progress=False)
    assert resumed.answer["lines"] == done["lines"] and resumed.answer["data"] == done["data"]


@pytest.mark.slow
def test_six_unknowns_are_recovered_within_the_budget(tmp_path: Path) -> None:
    """One of the benchmark's 30 (benchmarks/calibration_match.py: the coverage of all 30)."""
    answer, held = recover_six(tmp_path, 1)
    assert held, answer["lines"]
    assert answer["data"]["battles"] <= 30_000
    assert [p["name"] for p in answer["data"]["parameters"]] == list(SIX)
