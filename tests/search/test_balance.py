"""design: balance, end to end: right answers on known cases, and a sweep's guarantees."""

import json
import os
import signal

import pandas as pd
import pytest

from sim import analysis
from sim.cli import main
from sim.search import load_search, run_search
from tests.search.helpers import DUEL, MIRROR, duel_crossing, duel_win, write
from tests.test_runner import finish, start, wait_for_parts

MIRRORED = """\
name: mirrored
scenario: mirror.yaml
design: balance
parameters:
  sides.b.fighters[0].count: {low: 1, high: 6}
target: {side: a, wins: 50%, of: decisive}
tolerance: 5%
budget: 6000
seed: 5
"""

DUELLED = """\
name: duelled
scenario: duel.yaml
design: balance
parameters:
  rules.options.incapacitate_serious: {low: 0.0, high: 1.0}
target: {side: shooter, wins: 50%, of: all}
tolerance: 4%
budget: 8000
seed: 11
"""


QUICK = DUELLED.replace("tolerance: 4%", "tolerance: 8%")
"""A coarser search, for the checks that do not need a precise answer."""


@pytest.fixture
def folder(tmp_path):
    write(tmp_path, "mirror.yaml", MIRROR)
    write(tmp_path, "duel.yaml", DUEL)
    return tmp_path


def answer_of(out):
    return json.loads((out / "search" / "answer.json").read_text())


def runs_of(out):
    frame = pd.read_parquet(out / "runs").sort_values("run_id", ignore_index=True)
    return frame.drop(columns=["sides"])


def test_the_duels_exact_win_rate_is_what_its_battles_give(folder, capsys):
    """The known answers below rest on duel_win: 1,600 battles agree with it (4 sd)."""
    exp = write(
        folder,
        "grid.yaml",
        "scenario: duel.yaml\nparameters:\n"
        "  rules.options.incapacitate_serious: [0.25, 0.75]\nreplicates: 800\nseed: 3\n",
    )
    assert main(["sweep", str(exp), "--out", str(folder / "g"), "--workers", "1"]) == 0
    capsys.readouterr()
    runs = pd.read_parquet(folder / "g" / "runs")
    for x, group in runs.groupby("rules.options.incapacitate_serious"):
        p, lo, hi = analysis.wilson((group.winner == "shooter").sum(), len(group), z=4.0)
        assert lo <= float(duel_win(serious=x)) <= hi


def test_a_mirror_balances_at_the_other_sides_count(folder, capsys):
    exp = write(folder, "m.yaml", MIRRORED)
    out = folder / "m"
    assert main(["sweep", str(exp), "--out", str(out), "--workers", "1"]) == 0
    text = capsys.readouterr().out
    data = answer_of(out)["data"]["groups"][0]
    assert data["status"] == "answered"
    assert data["nearest"]["x"] == 3
    assert 3 in [p["x"] for p in data["bracket"]]
    assert "3 makes a win 50.0% of decisive battles (+-5.0 points: the band 45.0-55.0%)" in text
    assert "with 3 (inside the band)" in text and "is nearer 50.0%" in text


def test_a_real_parameters_crossing_holds_the_exact_one(folder, capsys):
    exp = write(folder, "d.yaml", DUELLED)
    out = folder / "d"
    assert main(["sweep", str(exp), "--out", str(out), "--workers", "1"]) == 0
    text = capsys.readouterr().out
    c = answer_of(out)["data"]["groups"][0]["crossing"]
    assert c["lo"] <= duel_crossing() <= c["hi"]
    assert c["points"] <= 0.04
    assert "rules.options.incapacitate_serious = 0.5" in text or "= 0.4" in text
    assert (out / "search" / "balance.png").stat().st_size > 10_000
    # every battle is a row, with its batch and point; the journal lists the batches
    runs = runs_of(out)
    journal = json.loads((out / "search" / "journal.json").read_text())
    assert len(runs) == journal["batches"][-1]["stop"] == answer_of(out)["data"]["battles"]
    assert runs.run_id.tolist() == list(range(len(runs)))
    assert sorted(runs.batch.unique()) == list(range(len(journal["batches"])))
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["kind"] == "search" and manifest["design"] == "balance"
    for _, r in runs.drop_duplicates("point").iterrows():
        assert manifest["points"][r.point] == {
            "rules.options.incapacitate_serious": r["rules.options.incapacitate_serious"]
        }


def test_sim_analyze_prints_the_answer_again_and_replay_fights_a_run_again(folder, capsys):
    exp = write(folder, "d.yaml", DUELLED)
    out = folder / "d"
    assert main(["sweep", str(exp), "--out", str(out), "--workers", "1"]) == 0
    swept = capsys.readouterr().out
    assert main(["analyze", str(out)]) == 0
    analyzed = capsys.readouterr().out
    said = swept.split("\n\n", 1)[1].rsplit("\n\n(sim analyze", 1)[0]
    assert analyzed.startswith(said)
    assert "Outcomes: win and draw rates" in analyzed
    report = folder / "report.html"
    assert main(["analyze", str(out), "--report", str(report)]) == 0
    capsys.readouterr()
    page = report.read_text()
    assert "<h2>Answer (balance search)</h2>" in page
    assert page.count("data:image/png") == 4  # the answer's chart, then win, length, losses
    last = len(runs_of(out)) - 1
    assert main(["replay", str(out), "--run", str(last)]) == 0
    assert f"run {last} replays exactly" in capsys.readouterr().out


def test_serial_and_processes_give_the_same_search_and_one_pool_serves_it(folder, monkeypatch):
    from sim.search import driver

    opened = []
    real = driver.open_pool
    monkeypatch.setattr(driver, "open_pool", lambda *a: opened.append(a) or real(*a))
    search = load_search(write(folder, "d.yaml", QUICK))
    run_search(search, folder / "s", progress=False)
    run_search(search, folder / "p", workers=2, executor="processes", progress=False)
    assert runs_of(folder / "s").equals(runs_of(folder / "p"))
    assert answer_of(folder / "s") == answer_of(folder / "p")
    batches = json.loads((folder / "p" / "search" / "journal.json").read_text())["batches"]
    assert len(batches) >= 2 and len(opened) == 2  # one pool per search, not per batch


@pytest.mark.slow
def test_dask_gives_the_same_search(folder):
    search = load_search(write(folder, "d.yaml", DUELLED))
    run_search(search, folder / "s", progress=False)
    run_search(search, folder / "k", workers=2, executor="dask", progress=False)
    assert runs_of(folder / "s").equals(runs_of(folder / "k"))
    assert answer_of(folder / "s") == answer_of(folder / "k")


def test_a_killed_search_resumes_to_the_same_answer(folder, capsys):
    exp = write(folder, "d.yaml", DUELLED)
    clean = folder / "clean"
    run_search(load_search(exp), clean, progress=False)
    out = folder / "killed"
    proc = start("sweep", exp, "--out", out, "--workers", "1")
    assert wait_for_parts(proc, out, 12), "the search ended before it could be killed"
    os.killpg(proc.pid, signal.SIGKILL)
    finish(proc)
    assert not (out / "search" / "answer.json").exists()
    assert main(["sweep", str(exp), "--out", str(out)]) == 2  # unfinished: --resume
    assert "use --resume" in capsys.readouterr().err
    assert main(["sweep", str(exp), "--out", str(out), "--resume", "--workers", "1"]) == 0
    capsys.readouterr()
    assert runs_of(out).equals(runs_of(clean))
    assert answer_of(out) == answer_of(clean)
    # a finished search run again prints its answer and fights nothing
    assert main(["sweep", str(exp), "--out", str(out)]) == 0
    assert "the search had ended" in capsys.readouterr().out


def test_a_resume_that_would_take_another_path_is_refused(folder, capsys):
    exp = write(folder, "d.yaml", QUICK)
    out = folder / "d"
    run_search(load_search(exp), out, progress=False)
    journal = json.loads((out / "search" / "journal.json").read_text())
    journal["batches"][1]["replicates"][0] += 1
    journal.pop("finished")
    (out / "search" / "journal.json").write_text(json.dumps(journal))
    (out / "search" / "answer.json").unlink()
    assert main(["sweep", str(exp), "--out", str(out), "--resume"]) == 2
    assert "plans batch 1 otherwise than its journal" in capsys.readouterr().err


def test_a_target_no_value_reaches_exits_1_and_says_so(folder, capsys):
    text = DUELLED.replace("wins: 50%", "wins: 90%").replace("budget: 8000", "budget: 1500")
    exp = write(folder, "d.yaml", text)
    assert main(["sweep", str(exp), "--out", str(folder / "d"), "--workers", "1"]) == 1
    out = capsys.readouterr().out
    assert (
        "no value of rules.options.incapacitate_serious from 0 to 1 makes shooter win 90.0%" in out
    )
    assert "the nearest is 1," in out
    assert answer_of(folder / "d")["status"] == "unreached"


def test_a_budget_spent_too_soon_says_the_interval_is_wider_than_asked(folder, capsys):
    text = DUELLED.replace("budget: 8000", "budget: 400").replace("tolerance: 4%", "tolerance: 1%")
    exp = write(folder, "d.yaml", text)
    main(["sweep", str(exp), "--out", str(folder / "d"), "--workers", "1"])
    out = capsys.readouterr().out
    assert "the budget of 400 battles was spent before the tolerance was reached" in out
    assert len(runs_of(folder / "d")) == 400


def test_a_second_parameter_traces_the_balance_curve(folder, capsys):
    text = DUELLED.replace(
        "{low: 0.0, high: 1.0}\n", "{low: 0.0, high: 1.0}\n  max_rounds: [3, 5]\n"
    ).replace("tolerance: 4%", "tolerance: 5%")
    exp = write(folder, "d.yaml", text)
    assert main(["sweep", str(exp), "--out", str(folder / "d"), "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert "Balance curve:" in out
    groups = answer_of(folder / "d")["data"]["groups"]
    assert [g["second"] for g in groups] == [3, 5]
    for g in groups:
        c = g["crossing"]
        assert c["lo"] <= duel_crossing(rounds=g["second"]) <= c["hi"]
    assert (folder / "d" / "search" / "curve.png").exists()


def test_the_progress_line_says_the_rates_have_crossed_when_they_have(folder):
    """Rates either side of the target, a crossing whose interval does not close yet."""
    from sim.search.balance.answer import estimate, make
    from sim.search.balance.bracket import Point, Step

    design = make(load_search(write(folder, "d.yaml", DUELLED)))
    pts = (Point(0.0, 20, 50, 50), Point(0.5, 24, 50, 50), Point(1.0, 27, 50, 50))
    step = Step("search", bracket=pts[:2], points=pts, response=lambda: (None, None))
    line = estimate(design, step)
    assert line.startswith("the rates cross 50.0% between 0 and 0.5;"), line
    assert "no crossing yet" not in line
