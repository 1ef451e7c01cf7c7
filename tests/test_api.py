"""sim.sweep and sim.load: an experiment into a dataset, and its tables as DataFrames."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

import sim
from sim import analysis
from sim.errors import SimError
from sim.experiment import load_experiment, parse_experiment

ROOT = Path(__file__).resolve().parents[1]
TEXT = """\
name: tiny
scenario: {scenario}
parameters:
  sides.guards.tactic: [balanced, defensive]
replicates: 3
seed: 5
tables: [runs, fighters]
"""


def tiny(tmp_path: Path) -> Path:
    path = tmp_path / "tiny.yaml"
    path.write_text(TEXT.format(scenario=ROOT / "scenarios/skirmish.yaml"))
    return path


def test_sweep_returns_the_dataset_path_and_load_gives_dataframes(tmp_path):
    out = tmp_path / "ds"
    path = sim.sweep(tiny(tmp_path), out=out)
    assert path == out and (out / "manifest.json").is_file()
    runs = sim.load(path)
    assert isinstance(runs, pd.DataFrame) and len(runs) == 6
    assert runs["sides.guards.tactic"].tolist() == ["balanced"] * 3 + ["defensive"] * 3
    exp = load_experiment(tiny(tmp_path))
    assert runs["seed"].tolist() == [exp.run_seed(i) for i in range(6)]
    fighters = sim.load(path, "fighters")
    assert {"run_id", "seed", "sides.guards.tactic", "wounds_taken"} <= set(fighters.columns)
    assert len(sim.load(path, "sides")) == 12
    pd.testing.assert_frame_equal(runs, analysis.load(out).runs)
    with pytest.raises(SimError, match="unknown table 'fighter'"):
        sim.load(path, "fighter")


def test_a_loaded_experiment_the_default_out_and_a_second_call(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    exp = parse_experiment(TEXT.format(scenario=ROOT / "scenarios/skirmish.yaml"), "x.yaml")
    path = sim.sweep(exp)
    assert path == Path("results/tiny") and len(sim.load(path)) == 6
    before = (path / "runs").stat().st_mtime_ns
    assert sim.sweep(exp) == path  # finished: nothing runs again
    assert (path / "runs").stat().st_mtime_ns == before


@pytest.mark.slow  # two worker processes: about 15 s
def test_workers_give_the_same_dataset(tmp_path):
    serial = sim.load(sim.sweep(tiny(tmp_path), out=tmp_path / "a"))
    parallel = sim.load(sim.sweep(tiny(tmp_path), out=tmp_path / "b", workers=2))
    pd.testing.assert_frame_equal(serial, parallel)


def test_the_short_names_at_the_top_are_the_stages_own():
    from sim.battle import Battle
    from sim.experiment import load_experiment as load_exp
    from sim.run import fight
    from sim.scenario import load_scenario

    assert (sim.Battle, sim.fight, sim.load_scenario, sim.load_experiment) == (
        Battle,
        fight,
        load_scenario,
        load_exp,
    )
    with pytest.raises(AttributeError, match="no attribute 'Battel'"):
        _ = sim.Battel


def test_the_packages_that_replaced_modules_still_give_their_names():
    """sim.battle, sim.run, sim.experiment, sim.space and sim.odds were modules (issue 29)."""
    from sim.battle import Battle, Fighter, Outcome, run_battle  # noqa: F401
    from sim.experiment import Experiment, is_experiment, wrong_kind  # noqa: F401
    from sim.odds import deathwish_odds, dice_odds, wargame_odds  # noqa: F401
    from sim.run import Fought, draw_seed, fight, run_rows, write_dataset  # noqa: F401
    from sim.space import MapSpec, from_picture, fronts  # noqa: F401


def test_import_sim_stays_light():
    import subprocess
    import sys

    code = "import sys, sim; print(sorted({'mesa', 'pandas', 'matplotlib'} & set(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
