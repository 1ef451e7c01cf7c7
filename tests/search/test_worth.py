"""design: worth: the model fitted exactly where its answer is known, and a search's guarantees.

The fit's oracle is exact: fitted to the expected wins ``n * p`` of a game whose win
probability is logistic in the summed worths, the maximum likelihood is the game's own
worths (the score equations hold there), so the costs, the handicap and the exchange rates
are known ratios. Fieller's interval is checked against its definition by brute force.
"""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

from benchmarks.figures import ROOT
from sim.cli import main
from sim.scenario import ScenarioError
from sim.search import load_search, run_search
from sim.search.worth import choose
from sim.search.worth import costs as cs
from sim.search.worth.fit import fieller, fit, lack_of_fit, ridge
from sim.search.worth.model import Item, Space
from sim.search.worth.report import interactions
from tests.search.helpers import MIRROR, write
from tests.test_runner import finish, start, wait_for_parts

SPACE = Space(
    (7, 4, 2),
    (
        Item("bandit", 0, None, "bandits", -1),
        Item("guard", 1, None, "guards", 1),
        Item("plate", 2, 1, "guards", 1),
    ),
)
TRUE = np.array([1.0, 0.9, 1.6, 0.3])
"""The synthetic game: the guards' handicap, then a bandit's, a guard's and plate's worth."""

MIRRORED = f"""\
name: mirrored_worth
scenario: {ROOT / "scenarios" / "mirror.yaml"}
design: worth
parameters:
  sides.north.fighters[1].count: {{low: 1, high: 3}}
  sides.south.fighters[1].count: {{low: 1, high: 3}}
scale: {{Eno: 10}}
tolerance: 30%
start: 20
replicates: 20
budget: 700
seed: 3
labels:
  sides.north.fighters[1].count: Bel
  sides.south.fighters[1].count: Eno
"""
"""The shipped mirror (Ash, Bel and Cai against their twins), Bel's and Eno's numbers priced."""


def logistic(x: Any) -> Any:
    return 1 / (1 + np.exp(-x))


def test_the_fit_of_expected_wins_is_the_games_own_worths() -> None:
    grid = SPACE.grid()
    rows = SPACE.rows(grid)
    n = np.full(len(grid), 1000.0)
    f = fit(rows, n * logistic(rows @ TRUE), n)
    assert f is not None
    assert np.allclose(f.coef, TRUE, atol=1e-7)
    scale = cs.Scale(0, 10.0)
    assert cs.cost(f, SPACE, scale, 1).est == pytest.approx(10 * 1.6 / 0.9)
    assert cs.handicap(f, SPACE, scale).est == pytest.approx(10 * 1.0 / 0.9)
    assert cs.exchange(f, 1, 0).est == pytest.approx(1.6 / 0.9)
    # an even fight along the curve: bandits = (1.0 + 1.6 guards) / 0.9
    assert cs.even_count(f, SPACE, 0, 1, 2.0).est == pytest.approx((1.0 + 3.2) / 0.9)
    lack = lack_of_fit(f)
    assert lack.deviance == pytest.approx(0, abs=1e-8) and not lack.fails


def test_separated_counts_have_no_fit_and_the_planning_fit_stays_finite() -> None:
    rows = SPACE.rows([(0, 3, 0), (6, 0, 0), (3, 1, 1), (1, 2, 0)])
    k = np.array([50.0, 0.0, 0.0, 50.0])  # the guards win exactly where they lead
    n = np.full(4, 50.0)
    assert fit(rows, k, n) is None
    beta = ridge(rows, k, n)
    assert np.all(np.isfinite(beta))


def test_fiellers_interval_is_every_ratio_within_its_errors() -> None:
    a, b, vaa, vab, vbb = 3.0, 1.5, 0.04, 0.01, 0.09
    r = fieller(a, b, vaa, vab, vbb)
    z = 1.959963984540054
    grid = np.linspace(-5, 10, 300001)
    inside = (a - grid * b) ** 2 <= z * z * (vaa - 2 * grid * vab + grid**2 * vbb)
    assert r.est == 2.0 and r.bounded
    assert r.lo == pytest.approx(grid[inside].min(), abs=1e-4)
    assert r.hi == pytest.approx(grid[inside].max(), abs=1e-4)
    assert not fieller(3.0, 0.2, 0.04, 0.0, 0.04).bounded  # the denominator is not clear of 0


def test_an_interaction_in_the_game_is_found_and_none_where_there_is_none() -> None:
    grid = SPACE.grid()
    x = SPACE.counts(grid)
    rows = SPACE.rows(grid)
    n = np.full(len(grid), 400.0)
    rng = np.random.default_rng(4)
    scale = cs.Scale(0, 10.0)

    def found(eta: Any) -> dict[str, bool]:
        k = rng.binomial(400, logistic(eta)).astype(float)
        f = fit(rows, k, n)
        assert f is not None
        return {t.name: t.clear for t in interactions(SPACE, scale, grid, k, n, f)}

    plain = found(rows @ TRUE)
    assert not any(plain.values())
    bent = found(rows @ TRUE + 0.4 * x[:, 1] * x[:, 2])  # plate is worth more with guards
    assert bent["guard x plate"] and sum(bent.values()) == 1


def test_the_plan_is_the_same_for_the_same_counts_and_starts_spread() -> None:
    rule = choose.Rule(start=30, replicates=40, per_batch=8)
    scale = cs.Scale(0, 10.0)
    none = np.zeros((0, 3), dtype=np.int64)
    first = choose.step(SPACE, rule, scale, 0.1, 7, 0, none, np.zeros(0), np.zeros(0), 10_000)
    assert first is not None and first.stage == "start"
    assert len(set(first.comps)) == len(first.comps) == choose.start_count(SPACE)
    levels = np.array(first.comps)
    assert all(len(set(levels[:, p])) >= min(3, SPACE.levels[p]) for p in range(3))
    fought = levels
    n = np.full(len(fought), 30.0)
    k = np.round(n * logistic(SPACE.rows(fought) @ TRUE))
    again = [choose.step(SPACE, rule, scale, 0.1, 7, 1, fought, k, n, 10_000) for _ in range(2)]
    assert again[0] == again[1] and again[0] is not None
    eta = SPACE.rows(list(again[0].comps)) @ TRUE
    assert np.mean(np.abs(eta) <= 1.5) >= 0.75  # near-even, by the truth too
    cut = choose.step(SPACE, rule, scale, 0.1, 7, 1, fought, k, n, 47)
    assert cut is not None and sum(cut.replicates) <= 47


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ("scale: {Eno: 10}", None),
        ("scale: {Enno: 10}", "scale.Enno: no item 'Enno'; did you mean 'Eno'?"),
        ("scale: {Eno: 0}", "scale.Eno: expected a positive number of points"),
        # before: OverflowError (int too large to convert to float), a traceback
        ("scale: {Eno: " + "9" * 500 + "}", "scale.Eno: expected a positive number of points"),
        ("tolerance: 125%", "tolerance: expected a share such as 10% or 0.1"),
        ("start: 2", "start: expected a whole number 5..10000, got 2"),
        ("curve: [Bel, Bel]", "curve: expected two counted items"),
        ("budget: 50", "budget: 50 battles cannot pay for the start"),
    ],
)
def test_its_keys_are_checked_and_located(tmp_path: Path, change: str, message: str | None) -> None:
    key = change.split(":")[0]
    lines = [line for line in MIRRORED.splitlines() if not line.startswith(key)]
    lines.insert(3, change)
    path = write(tmp_path, "w.yaml", "\n".join(lines) + "\n")
    if message is None:
        load_search(path)
        return
    with pytest.raises(ScenarioError) as err:
        load_search(path)
    assert f"w.yaml:4: {message}" in str(err.value)


@pytest.mark.parametrize(
    ("parameter", "message"),
    [
        ("rules.options.pool: {choices: [a, b]}", "an item changes one side's army"),
        ("sides.west.fighters[0].count: {low: 1, high: 3}", "no side 'west' in the scenario"),
        (
            "both:\n    choices:\n      none: {}\n      one:\n"
            "        sides.north.fighters[2].hit_dice: 5\n"
            "        sides.south.fighters[2].hit_dice: 5",
            "an item belongs to one side; this changes north and south",
        ),
        ("sides.north.fighters[2].hit_dice: {low: 1, high: 60}", "at most 40 steps"),
    ],
)
def test_an_item_is_a_change_to_one_side(tmp_path: Path, parameter: str, message: str) -> None:
    text = MIRRORED.replace("parameters:\n", f"parameters:\n  {parameter}\n")
    with pytest.raises(ScenarioError) as err:
        load_search(write(tmp_path, "w.yaml", text))
    assert message in str(err.value) and "w.yaml:" in str(err.value)


def test_a_scenario_of_three_sides_is_refused(tmp_path: Path) -> None:
    three = MIRROR + "  c:\n    fighters:\n      - {name: c, hit_dice: 4}\n"
    write(tmp_path, "three.yaml", three)
    text = MIRRORED.replace(
        f"scenario: {ROOT / 'scenarios' / 'mirror.yaml'}", "scenario: three.yaml"
    )
    with pytest.raises(ScenarioError, match="prices the items of two sides; the scenario has 3"):
        load_search(write(tmp_path, "w.yaml", text))


@pytest.fixture(scope="module")
def mirrored(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Any]:
    folder = tmp_path_factory.mktemp("worth")
    exp = write(folder, "w.yaml", MIRRORED)
    return folder, run_search(load_search(exp), folder / "serial", progress=False)


def test_a_mirror_prices_the_twin_at_the_others_cost(mirrored: tuple[Path, Any]) -> None:
    folder, result = mirrored
    d = result.answer["data"]
    bel, handicap = d["costs"][0], d["handicap"]
    assert bel["lo"] <= 10 <= bel["hi"] and handicap["lo"] <= 0 <= handicap["hi"]
    assert result.answer["lines"][0].startswith("worth: points of 2 items, Eno = 10")
    kept = json.loads((folder / "serial" / "search" / "answer.json").read_text())
    assert kept == result.answer
    assert [c["file"] for c in kept["charts"]] == [
        "search/costs.png",
        "search/curve.png",
        "search/fit.png",
    ]
    titles = [t["title"] for t in kept["tables"]]
    assert titles[0] == "Costs (Eno = 10 points)" and "Exchange rates" in titles
    runs = pd.read_parquet(folder / "serial" / "runs")
    assert len(runs) == result.spent == d["battles"] and runs["run_id"].is_unique
    assert sum(c["battles"] for c in d["compositions"]) == result.spent
    journal = json.loads((folder / "serial" / "search" / "journal.json").read_text())
    assert all("Eno = 10: Bel " in b["estimate"] for b in journal["batches"][1:])


def test_processes_give_the_rows_and_answer_serial_gives(mirrored: tuple[Path, Any]) -> None:
    folder, result = mirrored
    exp = load_search(folder / "w.yaml")
    two = run_search(exp, folder / "processes", workers=2, executor="processes", progress=False)
    assert two.answer == result.answer
    assert _rows(folder / "processes").equals(_rows(folder / "serial"))


def _rows(out: Path) -> pd.DataFrame:
    frame = pd.read_parquet(out / "runs").sort_values("run_id", ignore_index=True)
    return frame.drop(columns=["sides"])


def test_a_killed_search_resumes_to_the_same_answer(
    mirrored: tuple[Path, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    folder, result = mirrored
    out = folder / "killed"
    proc = start("sweep", folder / "w.yaml", "--out", out, "--workers", "1")
    assert wait_for_parts(proc, out, 10, timeout=300), "the search ended before it was killed"
    os.killpg(proc.pid, signal.SIGKILL)
    finish(proc)
    assert not (out / "search" / "answer.json").exists()
    code = main(["sweep", str(folder / "w.yaml"), "--out", str(out), "--resume", "--workers", "1"])
    printed = capsys.readouterr()
    assert code == 0 and "Costs (Eno = 10 points):" in printed.out
    assert "battles: Eno = 10: Bel " in printed.err  # the progress line, with the costs
    assert json.loads((out / "search" / "answer.json").read_text()) == result.answer
    assert _rows(out).equals(_rows(folder / "serial"))


def test_analyze_and_the_report_show_the_answer(
    mirrored: tuple[Path, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    folder, result = mirrored
    assert main(["analyze", str(folder / "serial")]) == 0
    out = capsys.readouterr().out
    assert result.answer["lines"][1] in out and "Exchange rates:" in out
    page = folder / "report.html"
    assert main(["analyze", str(folder / "serial"), "--report", str(page)]) == 0
    html = page.read_text(encoding="utf-8")
    assert "Answer (worth search)" in html and "Costs (Eno = 10 points)" in html


def test_separated_battles_are_no_answer_and_exit_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Identical twins, one more of them deciding every battle: no finite worth fits."""
    write(tmp_path, "twins.yaml", MIRROR)
    text = """\
name: twins
scenario: twins.yaml
design: worth
parameters:
  sides.a.fighters[0].count: {low: 2, high: 3}
  sides.b.fighters[0].count: {low: 2, high: 3}
start: 20
budget: 200
seed: 1
"""
    path = write(tmp_path, "w.yaml", text)
    code = main(["sweep", str(path), "--out", str(tmp_path / "o"), "--workers", "1"])
    out = capsys.readouterr().out
    assert code == 1 and "the battles cannot be fitted" in out
