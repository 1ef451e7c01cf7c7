"""sim run, sim validate and sim replay (the scenarios issue)."""

import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from sim.cli import main
from sim.scenario import load_scenario
from tests.datasets import relist

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = sorted((ROOT / "scenarios").glob("*.yaml"))


def run(capsys, *argv):
    try:
        code = main([str(a) for a in argv])
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def test_the_examples_cover_every_system():
    assert {load_scenario(p).rules for p in SCENARIOS} == {"wargame", "2w2p", "deathwish", "d6"}


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_every_example_scenario_runs_with_a_fixed_seed(capsys, path):
    code, out, err = run(capsys, "run", path, "--seed", "7", "--events")
    assert code == 0, err
    assert "round 1:" in out and (" won after " in out or "a draw after " in out)


def test_json_output_is_the_same_bytes_every_time():
    cmd = [
        sys.executable,
        "-m",
        "sim",
        "run",
        str(ROOT / "scenarios/ford.yaml"),
        "--seed",
        "7",
        "--format",
        "json",
    ]
    first = subprocess.run(cmd, capture_output=True, check=True).stdout
    second = subprocess.run(cmd, capture_output=True, check=True).stdout
    assert first == second
    data = json.loads(first)
    assert {"winner", "end_reason", "rounds", "scale_switches", "sides", "seed"} <= set(data)
    for side in data["sides"].values():
        assert "leader_status" in side


def test_without_a_seed_one_is_drawn_printed_and_replayable(capsys, tmp_path):
    text = (ROOT / "scenarios/skirmish.yaml").read_text().replace("seed: 1\n", "")
    path = tmp_path / "noseed.yaml"
    path.write_text(text)
    code, out, err = run(capsys, "run", path, "--format", "json")
    assert code == 0
    seed = json.loads(out)["seed"]
    assert f"seed {seed}" in err
    code, again, _ = run(capsys, "run", path, "--seed", seed, "--format", "json")
    assert again == out


def test_set_overrides_a_field(capsys):
    path = ROOT / "scenarios/pass.yaml"
    code, out, _ = run(capsys, "run", path, "--format", "json", "--set", "max_rounds=1")
    assert code == 0 and json.loads(out)["rounds"] == 1
    code, _, err = run(capsys, "run", path, "--set", "rules.options.pool=everyone")
    assert code == 2 and "rules.options.pool" in err and "Traceback" not in err


def test_bad_set_path_is_reported_against_set(capsys):
    code, _, err = run(capsys, "run", ROOT / "scenarios/pass.yaml", "--set", "max_rond=3")
    assert code == 2 and err.startswith("<--set>") and "did you mean 'max_rounds'" in err


def test_validate_reports_every_error_with_file_and_line(capsys, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "name: x\n"
        "sides:\n"
        "  red:\n"
        "    tactic: agressive\n"
        "    fighters:\n"
        "      - {name: a, weapon: axe}\n"
        "      - {name: a, hit_dice: -2}\n"
        "  blue:\n"
        "    fighters:\n"
        "      - {name: b, deathwish: {weapon: glok 18}}\n"
        "max_round: 3\n"
    )
    code, out, err = run(capsys, "validate", ROOT / "scenarios/ford.yaml", bad)
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert all(line.startswith(f"{bad}:") for line in lines), lines
    text = "\n".join(lines)
    assert f"{bad}:4: sides.red.tactic" in text and "did you mean 'aggressive'" in text
    assert f"{bad}:7: sides.red.fighters[1].hit_dice" in text
    assert "did you mean 'Glock 18'" in text
    assert f"{bad}:11: max_round: unknown key 'max_round'; did you mean 'max_rounds'?" in text
    assert len(lines) >= 4


def test_validate_good_files(capsys):
    code, out, _ = run(capsys, "validate", *SCENARIOS)
    assert code == 0 and out.count(": ok") == len(SCENARIOS)


def test_missing_file_is_one_line(capsys):
    code, _, err = run(capsys, "run", "no/such.yaml")
    assert code == 2 and len(err.strip().splitlines()) == 1 and "not found" in err


def test_run_of_an_experiment_says_to_sweep_it(capsys):
    exp = ROOT / "experiments" / "quickstart.yaml"
    code, out, err = run(capsys, "run", exp)
    assert code == 2 and out == ""
    assert err == (
        f"sim run: error: {exp}: an experiment file (it names a base scenario:); "
        f"sim sweep {exp} runs it, sim run takes a scenario such as "
        f"{ROOT / 'scenarios' / 'skirmish.yaml'}\n"
    )


def test_sweep_of_a_scenario_says_to_run_it(capsys, tmp_path):
    path = ROOT / "scenarios" / "skirmish.yaml"
    code, out, err = run(capsys, "sweep", path, "--out", tmp_path / "ds")
    assert code == 2 and out == ""
    assert err == (
        f"sim sweep: error: {path}: a scenario file (it has sides:); sim run {path} "
        "fights it once, sim sweep takes an experiment that names it as scenario:\n"
    )
    assert not (tmp_path / "ds").exists()


def test_out_writes_the_tables_and_replay_reproduces_the_run(capsys, tmp_path):
    out_dir = tmp_path / "ds"
    code, _, err = run(
        capsys,
        "run",
        ROOT / "scenarios/pass.yaml",
        "--seed",
        "4",
        "--set",
        "max_rounds=20",
        "--events",
        "--out",
        out_dir,
    )
    assert code == 0, err
    runs = pd.read_parquet(out_dir / "runs")
    assert len(runs) == 1 and runs.seed[0] == 4
    assert len(pd.read_parquet(out_dir / "fighters")) == 15
    assert len(pd.read_parquet(out_dir / "events")) > 0
    assert len(pd.read_parquet(out_dir / "rounds")) == 2 * runs.rounds[0]
    code, out, err = run(capsys, "replay", out_dir, "--run", "0", "--events")
    assert code == 0, err
    assert "replays exactly" in out and "round 1:" in out
    # refuse to overwrite a dataset
    code, _, err = run(capsys, "run", ROOT / "scenarios/pass.yaml", "--out", out_dir)
    assert code == 2 and "already holds a dataset" in err


def test_a_run_dataset_is_a_one_point_sweep(capsys, tmp_path):
    """`sim run --out` writes the manifest every dataset has: one point, one replicate."""
    import json

    from sim.dataset import records

    out_dir = tmp_path / "ds"
    path = ROOT / "scenarios/campaign.yaml"
    code, _, err = run(
        capsys, "run", path, "--seed", "12", "--set", "max_rounds=8", "--out", out_dir
    )
    assert code == 0, err
    m = json.loads((out_dir / "manifest.json").read_text())
    assert set(m) == {*records.MANIFEST_KEYS, "schema_version", "sim_version"}
    assert m["kind"] == "run" and m["experiment_name"] is None
    assert (m["points"], m["parameters"], m["replicates"], m["planned_runs"]) == ([{}], [], 1, 1)
    assert m["master_seed"] == 12 and m["overrides"] == ["max_rounds=8"]
    assert m["scenario_texts"] == {"campaign": path.read_text()}
    assert m["tables"] == ["runs", "rounds", "fighters", "aftermath", "campaign"]
    assert sorted(m["tables"]) == sorted(p.name for p in out_dir.iterdir() if p.is_dir())
    code, out, err = run(capsys, "replay", out_dir, "--run", "0")
    assert code == 0 and out.startswith("run 0 replays exactly.\ncampaign (2w2p), seed 12:")


def test_a_run_dataset_of_the_first_manifest_shape_still_replays(capsys, tmp_path):
    """Before the one manifest shape, `sim run --out` kept `scenario_text` and no `points`."""
    import json

    out_dir = tmp_path / "ds"
    path = ROOT / "scenarios/skirmish.yaml"
    assert (
        run(capsys, "run", path, "--seed", "3", "--set", "max_rounds=6", "--out", out_dir)[0] == 0
    )
    first = {
        "kind": "run",
        "scenario_file": str(path),
        "scenario_text": path.read_text(),
        "overrides": ["max_rounds=6"],
        "parameters": [],
        "master_seed": 3,
        "planned_runs": 1,
        "schema_version": 1,
        "sim_version": "0.1.0",
    }
    (out_dir / "manifest.json").write_text(json.dumps(first))
    code, out, err = run(capsys, "replay", out_dir, "--run", "0")
    assert code == 0, err
    assert out.startswith("run 0 replays exactly.\nskirmish (wargame), seed 3:")


def test_replay_shows_the_difference_and_fails(capsys, tmp_path):
    out_dir = tmp_path / "ds"
    run(capsys, "run", ROOT / "scenarios/skirmish.yaml", "--out", out_dir)
    part = next((out_dir / "runs").glob("*.parquet"))
    table = pq.read_table(part)
    rounds = table.column("rounds").to_pylist()
    table = table.set_column(
        table.schema.get_field_index("rounds"),
        "rounds",
        pa.array([r + 1 for r in rounds], pa.int32()),
    )
    pq.write_table(table, part)
    relist(out_dir, part)  # as if other code had written and listed it
    code, _, err = run(capsys, "replay", out_dir, "--run", "0")
    assert code == 1
    assert "does not replay" in err and "rounds: stored" in err


def test_replay_of_an_unknown_run_or_dataset(capsys, tmp_path):
    code, _, err = run(capsys, "replay", tmp_path, "--run", "0")
    assert code == 2 and "not a dataset" in err


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("sides: [a, b\n", "bad.yaml:2"),  # malformed YAML: the line YAML reports
        (
            "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
            + "".join(
                f"{c}: &{c} [{', '.join(['*' + p] * 10)}]\n"
                for p, c in zip("abcdefgh", "bcdefghi", strict=True)
            ),
            "bad.yaml",
        ),
    ],
    ids=["malformed", "alias-bomb"],
)
def test_bad_files_are_exit_2_without_traceback(capsys, tmp_path, text, needle):
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    code, _, err = run(capsys, "run", path)
    assert code == 2 and needle in err and "Traceback" not in err


def test_a_50_mb_file_is_refused_with_its_limit(capsys, tmp_path):
    path = tmp_path / "huge.yaml"
    with path.open("wb") as fh:
        fh.truncate(50 * 1024 * 1024)
    code, _, err = run(capsys, "validate", path)
    assert code == 2 and "the limit is 5 MB" in err and len(err.strip().splitlines()) == 1


def test_replay_of_a_sweep_style_dataset(capsys, tmp_path):
    """A dataset with swept parameters and several runs (the layout sim sweep writes)."""
    from sim.dataset import records
    from sim.run.core import fight, run_rows
    from sim.scenario import parse_scenario

    text = (ROOT / "scenarios/skirmish.yaml").read_text()
    params = ["max_rounds", "sides.guards.tactic"]
    fields = [pa.field("max_rounds", pa.int64()), pa.field("sides.guards.tactic", pa.string())]
    rows = []
    for run_id, (rounds, tactic) in enumerate(
        [(3, "balanced"), (20, "defensive"), (20, "aggressive")]
    ):
        sets = [f"max_rounds={rounds}", f"sides.guards.tactic={tactic}"]
        fought = fight(parse_scenario(text, "skirmish.yaml", sets), 100 + run_id)
        rows.append(
            run_rows(
                fought, run_id, 100 + run_id, {"max_rounds": rounds, "sides.guards.tactic": tactic}
            )
        )
    records.write_part(tmp_path, "runs", [r["runs"][0] for r in rows], "0", fields)
    records.write_manifest(
        tmp_path,
        {
            "kind": "sweep",
            "scenario_texts": {"skirmish": text},
            "overrides": [],
            "parameters": params,
        },
    )
    for run_id in range(3):
        code, out, err = run(capsys, "replay", tmp_path, "--run", run_id)
        assert code == 0, err
        assert "replays exactly" in out


def test_the_outcome_line_says_who_won_and_how_in_words():
    from sim.battle.battle import END_REASONS, _why

    words = {
        r: _why("red" if "mutual" not in r and r != "max_rounds" else None, r, ["red", "blue"])
        for r in END_REASONS
    }
    assert words == {
        "defeat": "blue defeated",
        "goal_achieved": "goal achieved",
        "goal_failed": "blue: goal failed",
        "mutual_defeat": "both sides defeated",
        "mutual_rout": "both sides routed",
        "max_rounds": "max_rounds reached",
    }
    assert _why(None, "mutual_rout", ["a", "b", "c"]) == "every side routed"
    assert _why("a", "defeat", ["a", "b", "c"]) == "b, c defeated"
