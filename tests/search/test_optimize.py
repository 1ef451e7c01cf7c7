"""design: optimize, end to end: the known best of a small space, and a sweep's guarantees."""

import json
import os
import signal

import pandas as pd
import pytest

from sim.cli import main
from sim.search import load_search, run_search
from sim.search.optimize.study import closing
from tests.search.helpers import DUEL, duel_win, write
from tests.test_runner import finish, start, wait_for_parts

WEAPONS = ["Glock 20", "AKM", "M16", "S&W 500"]
SERIOUS = [0.25, 0.75]

OPTIMIZED = f"""\
name: optimized
scenario: duel.yaml
design: optimize
parameters:
  sides.shooter.fighters[0].deathwish.weapon: {{choices: [{", ".join(WEAPONS)}]}}
  rules.options.incapacitate_serious: {{choices: [0.25, 0.75]}}
objective: {{side: shooter, wins: max}}
budget: 3200
replicates: 20
parallel: 8
confirm: {{top: 3, replicates: 400, final: 400}}
seed: 1
"""

SMALL = (
    OPTIMIZED.replace("budget: 3200", "budget: 500")
    .replace("replicates: 20", "replicates: 10")
    .replace("{top: 3, replicates: 400, final: 400}", "{top: 2, replicates: 50}")
)


@pytest.fixture
def folder(tmp_path):
    write(tmp_path, "duel.yaml", DUEL)
    return tmp_path


def answer_of(out):
    return json.loads((out / "search" / "answer.json").read_text())


def runs_of(out):
    frame = pd.read_parquet(out / "runs").sort_values("run_id", ignore_index=True)
    return frame.drop(columns=["sides"])


def exact(values):
    return float(
        duel_win(
            values["sides.shooter.fighters[0].deathwish.weapon"],
            values["rules.options.incapacitate_serious"],
        )
    )


def test_optimize_finds_the_brute_force_best_and_the_runner_up_gap(folder, capsys):
    """One search (seed 1); how often such an interval holds the truth: test_coverage.py."""
    brute = {(w, s): float(duel_win(w, s)) for w in WEAPONS for s in SERIOUS}
    best = max(brute, key=brute.get)
    assert best == ("S&W 500", 0.75)
    exp = write(folder, "o.yaml", OPTIMIZED)
    out = folder / "o"
    assert main(["sweep", str(exp), "--out", str(out), "--workers", "1"]) == 0
    text = capsys.readouterr().out
    data = answer_of(out)["data"]
    first, second = data["candidates"][:2]
    found = tuple(
        first["values"][k]
        for k in (
            "sides.shooter.fighters[0].deathwish.weapon",
            "rules.options.incapacitate_serious",
        )
    )
    assert found == best
    o = first["objective1"]
    assert o["lo"] <= brute[best] <= o["hi"]
    gap = data["best_minus_runner_up"]
    truth = exact(first["values"]) - exact(second["values"])
    assert gap["lo"] <= truth <= gap["hi"]
    assert gap["pairs"] == 400 and gap["fresh"]
    assert "best minus runner-up:" in text and "Ranking, confirmed with shared seeds:" in text
    # the confirmation's battles share their seeds, replicate by replicate; the final
    # comparison's two share theirs, and none is the confirmation's: they did not pick them
    journal = json.loads((out / "search" / "journal.json").read_text())
    stage = {b["batch"]: b["stage"] for b in journal["batches"]}
    runs = runs_of(out).assign(stage=lambda r: r.batch.map(stage))
    seeds = runs[runs.stage == "confirm"].groupby("point").seed.apply(list)
    assert len(seeds) == 3 and all(s == seeds.iloc[0] for s in seeds)
    fresh = runs[runs.stage == "final"].groupby("point").seed.apply(list)
    assert set(fresh.index) == {first["point"], second["point"]}
    assert fresh.iloc[0] == fresh.iloc[1] and not set(fresh.iloc[0]) & set(seeds.iloc[0])


def test_the_study_is_kept_in_sqlite_in_the_dataset(folder):
    import optuna

    out = folder / "o"
    search = load_search(write(folder, "o.yaml", SMALL))
    run_search(search, out, progress=False)
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    trials = runs_of(out).trial.dropna().nunique()
    with closing(f"sqlite:///{out}/search/study.db") as storage:  # Python 3.13 warns if left
        study = optuna.load_study(study_name="search", storage=storage)
        assert len(study.trials) == trials == search.settings.trials
        best = study.best_trial.params["sides.shooter.fighters[0].deathwish.weapon"]
    assert best in WEAPONS


def test_two_objectives_give_the_pareto_front_by_nsga2(folder, capsys):
    text = SMALL.replace(
        "objective: {side: shooter, wins: max}",
        "objective: {side: shooter, wins: max}\nsecond: {rounds: min}",
    )
    exp = write(folder, "o.yaml", text)
    out = folder / "o"
    assert main(["sweep", str(exp), "--out", str(out), "--workers", "1"]) == 0
    printed = capsys.readouterr().out
    assert "Pareto front, confirmed with shared seeds:" in printed
    assert (out / "search" / "front.png").exists()
    journal = json.loads((out / "search" / "journal.json").read_text())
    attrs = journal["batches"][0]["note"]["trials"][0]["system_attrs"]
    assert "NSGAIISampler:generation" in attrs


@pytest.mark.slow
def test_serial_and_processes_give_the_same_search(folder):
    search = load_search(write(folder, "o.yaml", SMALL))
    run_search(search, folder / "s", progress=False)
    run_search(search, folder / "p", workers=2, executor="processes", progress=False)
    assert runs_of(folder / "s").equals(runs_of(folder / "p"))
    assert answer_of(folder / "s") == answer_of(folder / "p")


def test_a_killed_search_resumes_to_the_same_trials_and_answer(folder, capsys):
    exp = write(folder, "o.yaml", SMALL)
    clean = folder / "clean"
    run_search(load_search(exp), clean, progress=False)
    out = folder / "killed"
    proc = start("sweep", exp, "--out", out, "--workers", "1")
    assert wait_for_parts(proc, out, 24), "the search ended before it could be killed"
    os.killpg(proc.pid, signal.SIGKILL)
    finish(proc)
    assert main(["sweep", str(exp), "--out", str(out), "--resume", "--workers", "1"]) == 0
    capsys.readouterr()
    assert runs_of(out).equals(runs_of(clean))
    assert answer_of(out) == answer_of(clean)
    a = json.loads((out / "search" / "journal.json").read_text())
    b = json.loads((clean / "search" / "journal.json").read_text())
    assert a == b


def test_a_win_rate_says_what_it_counts_all_battles_by_default(folder, capsys):
    """The duel's shooter never loses: of all battles it wins duel_win, of decisive 100%."""
    exp = write(folder, "o.yaml", SMALL)
    assert main(["sweep", str(exp), "--out", str(folder / "all"), "--workers", "1"]) == 0
    text = capsys.readouterr().out
    assert "the win rate of shooter counts all battles, a draw being a battle not won" in text
    assert "shooter win rate (all battles)" in text
    decisive = SMALL.replace("wins: max}", "wins: max, of: decisive}")
    exp = write(folder, "d.yaml", decisive)
    assert main(["sweep", str(exp), "--out", str(folder / "dec"), "--workers", "1"]) == 0
    text = capsys.readouterr().out
    assert "the win rate of shooter counts decisive battles only, draws left out" in text
    data = answer_of(folder / "dec")["data"]
    assert data["objectives"][0]["of"] == "decisive"
    for c in data["candidates"]:
        assert c["objective1"]["mean"] == 1.0 and c["objective1"]["n"] < c["battles"]


def test_of_is_a_win_rates_and_all_or_decisive(folder):
    from sim.scenario import ScenarioError

    for objective, message in (
        ("{side: shooter, wins: max, of: some}", "objective.of: expected all"),
        ("{side: shooter, losses: min, of: all}", "objective.of: of: all | decisive says"),
    ):
        text = SMALL.replace("{side: shooter, wins: max}", objective)
        with pytest.raises(ScenarioError, match=message):
            load_search(write(folder, "bad.yaml", text))


def test_the_paired_difference_of_decisive_win_rates_holds_the_truth_95_times_in_100():
    """Shared seeds: a pair of battles meets the same dice. Draws on either side (35% and
    20%), wins among decisive ones 60% and 55%: the true difference of the two ratios is
    5 points; 2,000 simulated comparisons of 300 pairs each."""
    import numpy as np

    from sim.search.optimize.answer import paired
    from sim.search.optimize.plan import Scored
    from sim.search.optimize.read import Objective

    o = Objective("wins", "a", "maximize", "decisive")
    rng = np.random.default_rng(7)
    held = 0
    for _ in range(2000):
        u, v = rng.random(300), rng.random(300)  # the shared dice of each pair
        a = np.where(u < 0.35, np.nan, (v < 0.60).astype(float))
        b = np.where(u < 0.20, np.nan, (v < 0.55).astype(float))
        no = np.zeros(300, dtype=bool)
        _, lo, hi, _ = paired(o, Scored(a[:, None], no), Scored(b[:, None], no))
        held += lo <= 0.05 <= hi
    assert 1860 <= held <= 1940, held  # 95% +- 2 points (its own sd is 0.5 point)
    every = Objective("wins", "a", "maximize", "all")
    a, b = rng.integers(0, 2, (2, 200)).astype(float)
    no = np.zeros(200, dtype=bool)
    sa, sb = Scored(a[:, None], no), Scored(b[:, None], no)
    assert paired(o, sa, sb) == pytest.approx(paired(every, sa, sb))  # no draw: the same
