"""Datasets of every schema version read as today's; only today's are added to (issue 31).

``tests/data/schema1/`` holds two small datasets written by a schema-1 sim (before ``runs``
had ``outcome`` and ``decisive``, before ``fighters`` had ``conditions`` and the rolled gear,
with the ``campaign`` table's ``label`` not yet ``battle_label``).
"""

from __future__ import annotations

import contextlib
import io
import json
import shutil
from pathlib import Path

import pyarrow.parquet as pq
import pytest

import sim
from sim import analysis
from sim.cli import main
from sim.dataset import records
from sim.errors import SimError
from sim.run import fight, run_rows
from sim.run.replay import differences, stored_run
from sim.scenario import load_scenario, parse_scenario

DATA = Path(__file__).resolve().parent / "data" / "schema1"
ROOT = Path(__file__).resolve().parents[1]


def test_the_stored_datasets_are_of_schema_1():
    for name in ("list", "campaign"):
        assert records.read_manifest(DATA / name)["schema_version"] == 1
    stored = pq.read_schema(DATA / "list" / "runs" / "part-000000.parquet").names
    assert "outcome" not in stored and "decisive" not in stored
    assert "conditions" not in pq.read_schema(DATA / "list" / "fighters" / "part-000000.parquet")
    camp = pq.read_schema(DATA / "campaign" / "campaign" / "part-000000.parquet").names
    assert "label" in camp and "battle_label" not in camp


def test_today_writes_schema_2_with_an_outcome_for_every_run():
    assert records.SCHEMA_VERSION == 2
    names = records.schema("runs").names
    assert names[names.index("winner") + 1 : names.index("winner") + 3] == ["outcome", "decisive"]
    assert {"battle_label", "conditions"} <= set(records.schema("campaign").names)


def test_a_schema_1_runs_table_gains_its_outcome():
    runs = sim.load(DATA / "list")
    assert list(runs.columns) == [
        "run_id",
        "seed",
        "label",
        "sides.bandits.tactic",
        "sides.guards.tactic",
        *records.schema("runs").names[2:],
    ]
    draws = runs.winner.isna() & runs.error.isna()
    assert draws.sum() == 4
    assert (runs.outcome == runs.winner.fillna("draw")).all()
    assert (runs.decisive == runs.winner.notna()).all()
    assert runs.decisive.dtype == bool


def test_the_summary_of_a_schema_1_dataset_counts_its_draws():
    ds = analysis.load(DATA / "list")
    s = analysis.summarize(ds)
    runs = ds.runs
    for _, r in s.frame.iterrows():
        mine = runs[runs.label == r["label"]]
        assert r["draw"] == pytest.approx((mine.outcome == "draw").mean())
        assert r["win.guards"] == pytest.approx((mine.outcome == "guards").mean())
    assert s.frame["draw"].max() > 0, "the stored dataset has draws to count"


def test_columns_a_schema_1_table_lacks_are_null_and_renamed_ones_are_renamed():
    fighters = sim.load(DATA / "list", "fighters")
    for col in ("conditions", "rolled_weapon", "rolled_armor"):
        assert fighters[col].isna().all()
    assert set(records.schema("fighters").names) <= set(fighters.columns)
    camp = sim.load(DATA / "campaign", "campaign")
    assert "label" not in camp.columns and camp.battle_label.str.len().min() > 0
    assert camp.conditions.isna().all(), "not recorded by schema 1"
    ds = analysis.load(DATA / "campaign")
    some = ds.arrow("runs", ["run_id", "outcome", "decisive"])
    assert some.column_names == ["run_id", "outcome", "decisive"]
    assert ds.arrow("campaign", ["battle_label"]).num_rows == len(camp)


def test_sim_analyze_and_export_read_a_schema_1_dataset(tmp_path):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["analyze", str(DATA / "campaign")]) == 0
        assert main(["analyze", str(DATA / "list"), "--format", "json"]) == 0
        assert main(["export", str(DATA / "list"), "--out", str(tmp_path / "runs.csv")]) == 0
    assert "Campaign" in out.getvalue()
    header = (tmp_path / "runs.csv").read_text().splitlines()[0].split(",")
    assert {"outcome", "decisive", "winner"} <= set(header)


@pytest.mark.parametrize("name", ["list", "campaign"])
def test_a_schema_1_run_replays_with_no_difference_in_the_new_columns(name):
    stored = stored_run(DATA / name, 3)
    assert stored.row["outcome"] == (stored.row["winner"] or "draw")
    lines = differences(stored, fight(stored.scenario, stored.seed, events=True))
    assert not [ln for ln in lines if any(c in ln for c in ("outcome", "decisive", "battle_label"))]


def test_a_dataset_of_another_version_is_refused_when_read(tmp_path):
    for version in (0, 3, None):
        shutil.copytree(DATA / "list", tmp_path / str(version))
        path = tmp_path / str(version) / "manifest.json"
        m = json.loads(path.read_text())
        m["schema_version"] = version
        path.write_text(json.dumps(m))
        with pytest.raises(SimError, match="schema version .*reads versions 1, 2"):
            analysis.load(tmp_path / str(version))


def test_an_older_dataset_is_never_added_to(tmp_path):
    exp = ROOT / "experiments" / "quickstart.yaml"
    out = tmp_path / "q"
    with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
        assert main(["sweep", str(exp), "--out", str(out), "--limit", "3"]) == 0
    path = out / "manifest.json"
    m = json.loads(path.read_text())
    path.write_text(json.dumps({**m, "schema_version": 1}))
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        assert main(["sweep", str(exp), "--out", str(out), "--resume", "--force"]) == 2
    assert "schema version 1 (an older sim); this sim writes version 2" in err.getvalue()
    assert json.loads(path.read_text())["schema_version"] == 1, "left as it was"


def test_new_runs_say_their_outcome_and_failed_runs_have_none(tmp_path):
    # cut short at 2 rounds, so that some are draws (a skirmish fought out ends with a winner)
    sets = ["sides.bandits.tactic=aggressive", "max_rounds=2"]
    sc = load_scenario(ROOT / "scenarios" / "skirmish.yaml", sets)
    rows = [run_rows(fight(sc, seed), seed, seed)["runs"][0] for seed in range(60)]
    assert {r["outcome"] for r in rows} == {"guards", "bandits", "draw"}
    for r in rows:
        assert r["outcome"] == (r["winner"] or "draw")
        assert r["decisive"] is (r["winner"] is not None)
    failed = records.error_row(7, 7, {}, "boom")
    assert failed["outcome"] is None and failed["decisive"] is False


def test_no_side_may_be_called_draw():
    text = (ROOT / "scenarios" / "skirmish.yaml").read_text().replace("bandits", "draw")
    with pytest.raises(SimError, match="'draw' is not a side's name"):
        parse_scenario(text, "draw.yaml")
