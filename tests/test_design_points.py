"""Design points (issue 15): ``label:`` in a list design, common random numbers
(``seeds: shared``) with paired differences, and ``sim sweep --replicates`` previews."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sim.cli import main
from sim.experiment import load_experiment

ROOT = Path(__file__).resolve().parents[1]
SKIRMISH = ROOT / "scenarios" / "skirmish.yaml"


def write(tmp_path, body, name="exp.yaml"):
    path = tmp_path / name
    path.write_text(
        f"scenario: {SKIRMISH}\n" + textwrap.dedent(body).lstrip("\n"), encoding="utf-8"
    )
    return path


def cli(capsys, *argv):
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


LABELLED = """
design: list
points:
  - {max_rounds: 5, label: short fight}
  - {max_rounds: 30, label: long fight}
replicates: 3
seed: 3
"""


def test_list_design_labels_are_a_column_and_shown_in_every_table(tmp_path, capsys):
    path = write(tmp_path, LABELLED)
    exp = load_experiment(path)
    assert exp.parameters == ("max_rounds",)
    assert exp.point_labels == ("short fight", "long fight")
    out = tmp_path / "out"
    code, stdout, err = cli(capsys, "sweep", path, "--out", out, "--executor", "serial")
    assert code == 0, err
    runs = pd.read_parquet(out / "runs")
    assert runs.sort_values("run_id")["label"].tolist() == ["short fight"] * 3 + ["long fight"] * 3
    code, text, _ = cli(capsys, "analyze", out)
    assert "2 groups by label, max_rounds" in text
    tables = [t for t in text.split("\n\n") if "-----" in t]
    assert len(tables) >= 2
    for table in tables:
        assert table.splitlines()[0].startswith("label")
        assert "short fight" in table and "long fight" in table
    code, js, _ = cli(capsys, "analyze", out, "--format", "json")
    assert '"label": "long fight"' in js


LEFT_OUT = """
design: list
points:
  - {label: as written}
  - {label: aggressive bandits, sides.bandits.tactic: aggressive}
  - {label: short and aggressive, sides.bandits.tactic: aggressive, max_rounds: 2}
replicates: 4
seed: 3
"""


def test_a_list_point_may_leave_a_parameter_at_the_base_scenarios_value(tmp_path, capsys):
    from sim.run import fight
    from sim.run.replay import replay, stored_run
    from sim.scenario import load_scenario

    path = write(tmp_path, LEFT_OUT)
    exp = load_experiment(path)
    assert exp.parameters == ("sides.bandits.tactic", "max_rounds")
    assert exp.point_overrides(0) == [] and exp.point_overrides(2) == [
        'sides.bandits.tactic="aggressive"',
        "max_rounds=2",
    ]
    out = tmp_path / "out"
    code, _, err = cli(capsys, "sweep", path, "--out", out, "--executor", "serial")
    assert code == 0, err
    runs = pd.read_parquet(out / "runs").sort_values("run_id")
    assert runs["sides.bandits.tactic"].isna().tolist() == [True] * 4 + [False] * 8
    assert runs["max_rounds"].isna().tolist() == [True] * 8 + [False] * 4
    base = load_scenario(SKIRMISH)
    for run_id in (0, 3):  # fought as the base scenario is, with its own seed
        row = runs.iloc[run_id]
        alone = fight(base, int(row["seed"])).battle.outcome()
        assert (alone.winner, alone.rounds) == (row["winner"], row["rounds"])
    assert replay(stored_run(out, 5)) is not None  # the replay sets only what the point set
    code, text, _ = cli(capsys, "analyze", out)
    rows = [ln.split("  ")[0] for ln in text.splitlines() if ln.startswith(("as", "agg", "sho"))]
    assert rows[:3] == ["as written", "aggressive bandits", "short and aggressive"]
    first = next(ln for ln in text.splitlines() if ln.startswith("as written"))
    assert first.split()[2:4] == ["-", "-"], "a parameter left out shows as -"


def test_a_list_point_left_out_of_a_bad_value_is_still_checked(tmp_path):
    from sim.scenario import ScenarioError

    path = write(
        tmp_path,
        "design: list\npoints:\n  - {label: a}\n  - {label: b, max_rounds: 0}\n",
    )
    with pytest.raises(ScenarioError, match=r"points\[1\]\.max_rounds"):
        load_experiment(path)


def test_a_label_must_be_text_and_unique(tmp_path):
    from sim.scenario import ScenarioError

    path = write(
        tmp_path,
        "design: list\npoints:\n  - {max_rounds: 5, label: a}\n  - {max_rounds: 6, label: a}\n",
    )
    with pytest.raises(ScenarioError) as err:
        load_experiment(path)
    assert str(err.value).splitlines() == [
        f"{path}:4: points[0].label: label 'a' names more than one point"
    ]


# --------------------------------------------------------------------------- common random numbers

CRN = """
parameters:
  sides.guards.tactic: [balanced, aggressive, defensive]
replicates: 12
seed: 3
"""


def test_shared_seeds_give_replicate_r_one_seed_at_every_point(tmp_path):
    shared = load_experiment(write(tmp_path, CRN + "seeds: shared\n", "shared.yaml"))
    alone = load_experiment(write(tmp_path, CRN, "alone.yaml"))
    assert shared.shared_seeds and not alone.shared_seeds
    reps = shared.replicates
    for r in range(reps):
        assert len({shared.run_seed(p * reps + r) for p in range(3)}) == 1
        assert len({alone.run_seed(p * reps + r) for p in range(3)}) == 3
    assert len({shared.run_seed(r) for r in range(reps)}) == reps  # replicates still differ
    assert [alone.run_seed(i) for i in range(36)] == [
        int(np.random.SeedSequence(3, spawn_key=(i,)).generate_state(1, np.uint64)[0])
        for i in range(36)
    ]  # the default is unchanged: run i's seed is the i-th child


def test_seeds_must_be_independent_or_shared(tmp_path):
    from sim.scenario import ScenarioError

    path = write(tmp_path, CRN + "seeds: common\n")
    with pytest.raises(ScenarioError) as err:
        load_experiment(path)
    assert str(err.value) == f"{path}:6: seeds: expected independent or shared, got 'common'"


def test_analyze_reports_paired_differences_with_shared_seeds(tmp_path, capsys):
    from sim.analysis.stats import t975

    out = tmp_path / "out"
    path = write(tmp_path, CRN + "seeds: shared\n")
    assert cli(capsys, "sweep", path, "--out", out, "--executor", "serial")[0] == 0
    runs = pd.read_parquet(out / "runs").sort_values("run_id")
    win = (runs["winner"] == "guards").to_numpy(float).reshape(3, 12)
    diff = win[1] - win[0]  # aggressive - balanced, replicate by replicate
    half = t975(11) * diff.std(ddof=1) / np.sqrt(12)
    code, js, _ = cli(capsys, "analyze", out, "--format", "json")
    groups = {g["sides.guards.tactic"]: g for g in json.loads(js)}
    assert groups["balanced"]["paired"] == "reference"  # the first design point
    got = groups["aggressive"]["paired"]
    assert got["vs"] == {"sides.guards.tactic": "balanced"} and got["pairs"] == 12
    assert got["win_rate"]["guards"]["diff"] == pytest.approx(diff.mean())
    assert got["win_rate"]["guards"]["lo"] == pytest.approx(diff.mean() - half)
    assert got["win_rate"]["guards"]["hi"] == pytest.approx(diff.mean() + half)
    code, text, _ = cli(capsys, "analyze", out)
    assert "Paired differences from the reference point" in text
    assert "guards win diff [95% CI]" in text
    page = tmp_path / "report.html"
    assert cli(capsys, "analyze", out, "--report", page)[0] == 0
    assert "<h2>Paired differences</h2>" in page.read_text()


def test_no_paired_differences_with_independent_seeds(tmp_path, capsys):
    out = tmp_path / "out"
    path = write(tmp_path, CRN)
    assert cli(capsys, "sweep", path, "--out", out, "--executor", "serial")[0] == 0
    _, text, _ = cli(capsys, "analyze", out)
    assert "Paired differences" not in text
    _, js, _ = cli(capsys, "analyze", out, "--format", "json")
    assert all("paired" not in g for g in json.loads(js))
    page = tmp_path / "report.html"
    assert cli(capsys, "analyze", out, "--report", page)[0] == 0
    html = page.read_text()
    assert "Paired differences" not in html and "Sensitivity" not in html


# --------------------------------------------------------------------------- previews


def test_a_preview_runs_every_point_with_the_full_sweeps_seeds(tmp_path, capsys):
    path = write(tmp_path, "parameters:\n  max_rounds: [5, 6, 7]\nreplicates: 5\nseed: 9\n")
    full = load_experiment(path)
    out = tmp_path / "out"
    code, stdout, err = cli(
        capsys, "sweep", path, "--out", out, "--executor", "serial", "--replicates", 2
    )
    assert code == 0, err
    runs = pd.read_parquet(out / "runs").sort_values("run_id")
    assert runs["max_rounds"].tolist() == [5, 5, 6, 6, 7, 7]
    want = [full.run_seed(p * 5 + r) for p in range(3) for r in range(2)]
    assert runs["seed"].tolist() == want
    assert "6 of 6 planned runs" in stdout
    code, _, err = cli(capsys, "replay", out, "--run", 5)
    assert code == 0, err  # a preview's run replays


def test_a_preview_of_shared_seeds_keeps_them_shared(tmp_path):
    exp = load_experiment(write(tmp_path, CRN + "seeds: shared\n")).preview(3)
    assert exp.planned_runs == 9
    assert [exp.run_seed(i) for i in range(9)] == [exp.run_seed(r) for r in range(3)] * 3


def test_preview_replicates_must_be_positive(tmp_path, capsys):
    path = write(tmp_path, "parameters:\n  max_rounds: [5]\nreplicates: 5\n")
    code, _, err = cli(capsys, "sweep", path, "--out", tmp_path / "o", "--replicates", 0)
    assert code == 2 and "--replicates must be 1 or more, got 0" in err
