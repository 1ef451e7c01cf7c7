"""A small calibration end to end: its answer, its rows, the same answer again, resume.

The truth: the guards' leader at 6 HD; the bandits' ``resolve`` at 50, which the War Game's
default morale (``morale_compare: hd``) never reads, so no statistic depends on it and its
interval must stay the prior.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest

from sim.analysis import load, report, summarize
from sim.cli import main
from sim.search import load_search, run_search
from sim.search.calibrate.answer import verdict
from sim.search.calibrate.plan import Calibrate
from sim.search.calibrate.posterior import Interval
from sim.search.space import Param
from tests.search.calib_helpers import BANDITS, HILD_HD, experiment, observe

RESOLVE = "sides.bandits.fighters[0].resolve"
PARAMS = f"  {HILD_HD}: {{low: 5, high: 7}}\n  {RESOLVE}: {{low: 0, high: 100}}\n"
EXTRA = "levels: 3\nstart: 5\nratio: 1\n"


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The observed table (20 battles at each of two counts of bandits) and the experiment."""
    root = tmp_path_factory.mktemp("calibrate")
    table = observe(root, {HILD_HD: 6, RESOLVE: 50}, {BANDITS: [3, 4]}, 20, seed=5)
    experiment(root, table, PARAMS, budget=2000, seed=3, extra=EXTRA)
    return root


def calibrate(folder: Path, out: str, **kw: Any) -> Any:
    """Run the folder's calibration into ``folder/out``."""
    return run_search(load_search(folder / "calibrate-3.yaml"), folder / out, progress=False, **kw)


@pytest.fixture(scope="module")
def done(folder: Path) -> Any:
    """The calibration, run once."""
    return calibrate(folder, "out")


def test_the_answer_holds_the_truth_and_says_what_the_data_cannot_pin_down(done: Any) -> None:
    answer = done.answer
    assert answer["status"] == "answered" and answer["exit"] == 0
    hd, resolve = answer["data"]["parameters"]
    assert hd["lo"] <= 6 <= hd["hi"]
    assert resolve["values"] == [0, 50, 100]
    assert (resolve["lo"], resolve["hi"]) == (0, 100) and resolve["spans_prior"]
    assert any(
        line.startswith(f"{RESOLVE}: ") and "not pinned down" in line for line in answer["lines"]
    )
    checks = answer["data"]["predictive"]
    assert len(checks) == 2 * 3  # two rows, three statistics
    assert {c["statistic"] for c in checks} == {"wins.guards", "rounds", "loser_out"}
    assert all(c["lo"] <= c["mean"] <= c["hi"] for c in checks)


def test_the_answer_is_kept_with_its_charts(done: Any) -> None:
    kept = json.loads((done.out / "search" / "answer.json").read_text())
    assert kept["design"] == "calibrate" and kept["lines"] == done.answer["lines"]
    assert [c["file"] for c in kept["charts"]] == ["search/posterior.png", "search/predictive.png"]
    for c in kept["charts"]:
        assert (done.out / c["file"]).read_bytes().startswith(b"\x89PNG")


def test_every_battle_is_a_row_with_its_cell_and_row(done: Any) -> None:
    runs = pq.read_table(done.out / "runs").to_pandas()
    assert len(runs) == done.spent == done.answer["data"]["battles"]
    assert set(runs["observed"]) == {"1", "2"}
    assert runs["cell"].between(0, 8).all()
    first = runs[runs["batch"] == 0]
    assert len(first) == 9 * 2 * 5  # every cell at every row, start battles each
    assert runs["run_id"].is_unique


def test_the_same_seed_gives_the_same_answer_and_a_progress_display(
    folder: Path, done: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    again = run_search(load_search(folder / "calibrate-3.yaml"), folder / "again", progress=True)
    assert again.answer["data"] == done.answer["data"]
    assert again.answer["lines"] == done.answer["lines"]
    err = capsys.readouterr().err
    assert "search: batch 0, 90 of at most 2,000 battles: " in err
    assert "cells plausible; most probable" in err


def test_a_killed_calibration_resumes_to_the_same_answer(
    folder: Path, done: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    def killed(self: Calibrate, history: Any, root: Any) -> None:
        raise KeyboardInterrupt

    with monkeypatch.context() as m:
        m.setattr(Calibrate, "finished_batch", killed)
        first = calibrate(folder, "killed")
    assert first.interrupted and first.answer is None
    assert 0 < first.fought < done.spent
    resumed = calibrate(folder, "killed", resume=True)
    assert resumed.answer["data"] == done.answer["data"]


def test_analyze_and_the_report_give_the_answer(
    done: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["analyze", str(done.out)]) == 0
    out = capsys.readouterr().out
    assert "Unknowns: fitted value and 95% interval" in out
    assert "Predictive check" in out
    ds = load(done.out)
    page = report.render(ds, summarize(ds))
    assert "<h2>Answer (calibrate search)</h2>" in page and page.count("data:image/png") >= 2


@pytest.mark.slow
def test_two_workers_give_the_answer_one_gives(folder: Path, done: Any) -> None:
    both = calibrate(folder, "processes", workers=2, executor="processes")
    assert both.answer["data"] == done.answer["data"]


def test_a_real_unknown_gets_an_interval_inside_its_range(tmp_path: Path) -> None:
    firefight = Path(__file__).resolve().parents[2] / "scenarios" / "firefight.yaml"
    path = tmp_path / "real.yaml"
    path.write_text(
        f"name: real\nscenario: {firefight}\ndesign: calibrate\nparameters:\n"
        "  rules.options.incapacitate_serious: {low: 0.25, high: 1.0}\n"
        "levels: 3\nstart: 3\nratio: 0.25\nbudget: 400\nseed: 4\nobserved:\n"
        "  - {max_rounds: 4, battles: 16, wins.security: 50%, rounds: 3}\n",
        encoding="utf-8",
    )
    result = run_search(load_search(path), tmp_path / "out", progress=False)
    (unknown,) = result.answer["data"]["parameters"]
    assert unknown["kind"] == "real" and unknown["values"] == [0.25, 0.625, 1.0]
    assert 0.25 <= unknown["lo"] <= unknown["fitted"] <= unknown["hi"] <= 1.0
    assert sum(unknown["posterior"]) == pytest.approx(1.0)


def test_a_budget_spent_before_the_plausible_cells_are_fought_says_so(folder: Path) -> None:
    text = (folder / "calibrate-3.yaml").read_text().replace("budget: 2000", "budget: 90")
    (folder / "short.yaml").write_text(text)
    short = run_search(load_search(folder / "short.yaml"), folder / "short", progress=False)
    assert short.spent == 90 and short.answer["status"] == "answered"
    assert any("the budget ran out before" in line for line in short.answer["lines"])


@pytest.mark.parametrize(
    ("param", "values", "iv", "said"),
    [
        (
            Param("h", "whole", 1, 10),
            tuple(range(1, 11)),
            (5, 3, 9, ()),
            "narrowed to 3 to 9 of 1 to 10",
        ),
        (
            Param("h", "whole", 3, 9),
            tuple(range(3, 10)),
            (6, 4, 8, ()),
            "narrowed to 4 to 8 of 3 to 9",
        ),
        (Param("h", "whole", 1, 10), tuple(range(1, 11)), (5, 4, 6, ()), "pinned down"),
        (Param("x", "real", 0.0, 1.0), (0.0, 0.5, 1.0), (0.5, 0.4, 0.6, ()), "pinned down"),
        (
            Param("m", "choices", choices=("x", "y", "z")),
            ("x", "y", "z"),
            ("y", None, None, ("y", "x")),
            "narrowed to y, x of x, y, z",
        ),
        (
            Param("m", "choices", choices=("x", "y")),
            ("x", "y"),
            ("y", None, None, ("y",)),
            "pinned down",
        ),
    ],
)
def test_pinned_down_follows_the_intervals_width_against_the_priors(
    param: Param, values: tuple[Any, ...], iv: tuple[Any, ...], said: str
) -> None:
    """Before: ``5 [95%: 3 to 9]`` of a prior of 1 to 10 was 'pinned down'."""
    fitted, lo, hi, chosen = iv
    interval = Interval(fitted, lo, hi, chosen, False, False, False)
    assert verdict(param, interval, values) == said
