"""Experiments fail fast (issue 15): every design point checked before the first run, the
design's size counted before it is made, failed runs reported and exit 1, warnings."""

from __future__ import annotations

import textwrap
import time
from pathlib import Path

import pytest

from sim.cli import main
from sim.experiment import load_experiment

ROOT = Path(__file__).resolve().parents[1]
SKIRMISH = ROOT / "scenarios" / "skirmish.yaml"


def write(tmp_path, body, name="exp.yaml"):
    path = tmp_path / name
    body = textwrap.dedent(body).lstrip("\n")
    path.write_text(f"scenario: {SKIRMISH}\n" + body, encoding="utf-8")
    return path


def cli(capsys, *argv):
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def refused(tmp_path, capsys, body):
    """Sweep ``body``: it must be refused with exit 2 and no dataset; its stderr lines."""
    path = write(tmp_path, body)
    out = tmp_path / "out"
    code, stdout, err = cli(capsys, "sweep", path, "--out", out, "--executor", "serial")
    assert code == 2, (stdout, err)
    assert not out.exists()
    return [line.replace(f"{path}:", "exp.yaml:") for line in err.splitlines()]


# --------------------------------------------------------------------------- refused at once


def test_a_typo_in_a_path_is_refused_with_its_line_and_a_suggestion(tmp_path, capsys):
    err = refused(
        tmp_path,
        capsys,
        """
        parameters:
          sides.gaurds.tactic: [balanced, aggressive]
        replicates: 3
        """,
    )
    assert err == [
        "exp.yaml:3: parameters.sides.gaurds.tactic: sides.gaurds is not in the scenario; "
        "did you mean 'guards'? (every design point)"
    ]


def test_bad_values_are_refused_per_point(tmp_path, capsys):
    err = refused(
        tmp_path,
        capsys,
        """
        parameters:
          max_rounds: [0, 5, 20000]
          sides.guards.tactic: [balanced, agressive]
        """,
    )
    assert err == [
        "exp.yaml:3: parameters.max_rounds: must be 1..10000, got 0 (design points 0, 1)",
        "exp.yaml:4: parameters.sides.guards.tactic: unknown tactic 'agressive'; did you "
        "mean 'aggressive' or 'defensive'? (design points 1, 3, 5)",
        "exp.yaml:3: parameters.max_rounds: must be 1..10000, got 20000 (design points 4, 5)",
    ]


def test_a_bad_set_entry_is_located_in_the_experiment_file(tmp_path, capsys):
    err = refused(
        tmp_path,
        capsys,
        """
        set: [max_rounds=30, "sides.guards.fighters[0].hit_dice=abc"]
        parameters:
          sides.guards.tactic: [balanced]
        """,
    )
    assert err == [
        "exp.yaml:2: set[1]: sides.guards.fighters[0].hit_dice: expected a whole number, got 'abc'"
    ]


def test_a_list_design_point_is_located_on_its_own_line(tmp_path, capsys):
    err = refused(
        tmp_path,
        capsys,
        """
        design: list
        points:
          - sides.guards.fighters[0].weapon: axe
          - sides.guards.fighters[0].weapon: glok
        """,
    )
    assert len(err) == 1 and err[0].startswith(
        "exp.yaml:5: points[1].sides.guards.fighters[0].weapon: unknown weapon category 'glok'"
    )


@pytest.mark.parametrize("bound", [".nan", ".inf", "-.inf"])
def test_nan_and_infinite_bounds_are_refused(tmp_path, capsys, bound):
    err = refused(
        tmp_path,
        capsys,
        f"""
        design: lhs
        samples: 10
        parameters:
          sides.guards.tactic.params.recover_below: {{low: 0, high: {bound}}}
        """,
    )
    assert len(err) == 1
    assert err[0].startswith(
        "exp.yaml:5: parameters.sides.guards.tactic.params.recover_below: low and high must "
        "be finite numbers"
    )


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            "design: lhs\nsamples: 10000000\nparameters:\n  max_rounds: {low: 1, high: 9}\n",
            "exp.yaml:3: samples: the design has 10000000 points; the limit is 100000",
        ),
        (
            "parameters:\n"
            + "".join(f"  p{i}: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n" for i in range(9)),
            "exp.yaml:2: parameters: the design has 1000000000 points; the limit is 100000",
        ),
        (
            "design: sobol\nsamples: 65536\nparameters:\n  max_rounds: {low: 1, high: 9}\n",
            "exp.yaml:3: samples: the design has 196608 points; the limit is 100000",
        ),
    ],
)
def test_the_design_is_counted_before_it_is_made(tmp_path, capsys, body, message):
    start = time.monotonic()
    assert refused(tmp_path, capsys, body) == [message]
    assert time.monotonic() - start < 5  # nothing was expanded


# --------------------------------------------------------------------------- failed runs


def test_a_sweep_with_failed_runs_exits_1_and_groups_the_failures(tmp_path, capsys, monkeypatch):
    import sim.run.core

    real = sim.run.core.fight

    def flaky(scenario, seed, **kw):
        if scenario.max_rounds == 7:
            raise RuntimeError("the fight broke")
        return real(scenario, seed, **kw)

    monkeypatch.setattr(sim.run.core, "fight", flaky)
    path = write(tmp_path, "parameters:\n  max_rounds: [7, 8]\nreplicates: 3\nseed: 4\n")
    out = tmp_path / "out"
    code, stdout, err = cli(capsys, "sweep", path, "--out", out, "--executor", "serial")
    assert code == 1
    assert "6 runs" in stdout and "3 failed" in stdout  # the summary is still printed
    lines = [line for line in err.splitlines() if not line.startswith("progress")]
    assert lines[0] == "3 runs failed:"
    assert lines[1] == "  3 x RuntimeError: the fight broke"
    seed = load_experiment(path).run_seed(0)
    assert lines[2] == (
        f"      first: run 0; again alone: sim run {SKIRMISH} --seed {seed} --set max_rounds=7"
    )


def test_a_sweep_with_no_failed_run_exits_0(tmp_path, capsys):
    path = write(tmp_path, "parameters:\n  max_rounds: [7]\nreplicates: 2\n")
    code, _, err = cli(capsys, "sweep", path, "--out", tmp_path / "o", "--executor", "serial")
    assert code == 0 and "failed:" not in err


# --------------------------------------------------------------------------- sim validate


def test_validate_checks_an_experiment_and_every_point(tmp_path, capsys):
    good = write(tmp_path, "parameters:\n  max_rounds: [5, 6]\nreplicates: 4\n", "good.yaml")
    code, out, err = cli(capsys, "validate", good)
    assert code == 0, err
    assert out.strip() == (
        f"{good}: ok (experiment good, grid design, 2 points x 4 replicates = 8 runs, "
        f"independent seeds; every point checked against {SKIRMISH})"
    )
    bad = write(tmp_path, "parameters:\n  max_rounds: [5, -1]\n", "bad.yaml")
    code, out, err = cli(capsys, "validate", bad)
    assert code == 2
    assert (
        err.strip() == f"{bad}:3: parameters.max_rounds: must be 1..10000, got -1 (design point 1)"
    )


# --------------------------------------------------------------------------- warnings


def test_fields_the_system_ignores_are_warned_about_once_per_field(tmp_path, capsys):
    code, _, err = cli(capsys, "run", SKIRMISH, "--seed", "1", "--set", "rules=2w2p")
    assert code == 0
    warnings = [line for line in err.splitlines() if line.startswith("warning:")]
    assert warnings == [
        f"warning: {SKIRMISH}:11: sides.guards.fighters[0].shield: ignored under 2w2p: a War "
        "Game shield",
        f"warning: {SKIRMISH}:11: sides.guards.fighters[0].weapon: ignored under 2w2p: a War "
        "Game weapon category (and 5 more)",
        f"warning: {SKIRMISH}:18: sides.bandits.fighters[0].two_handed: ignored under 2w2p: a "
        "War Game weapon effect",
    ]
    code, _, err = cli(capsys, "run", SKIRMISH, "--seed", "1")
    assert "warning" not in err  # the War Game reads them all


def test_an_alias_that_changes_meaning_is_warned_about(tmp_path, capsys):
    sets = ["--set", "sides.guards.fighters[0].weapon=sword"]
    sets += ["--set", "sides.guards.fighters[1].weapon=sword"]
    code, _, err = cli(capsys, "validate", SKIRMISH)
    assert code == 0 and "warning" not in err
    code, _, err = cli(capsys, "run", SKIRMISH, "--seed", "1", *sets)
    assert code == 0
    assert (
        "warning: <--set>: sides.guards.fighters[0].weapon: 'sword' is read as the War Game "
        "weapon 'plain', not as the category it resembles (and 1 more)"
    ) in err.splitlines()


def test_an_experiment_is_warned_about_its_set_entries_and_its_values(tmp_path, capsys):
    path = write(tmp_path, "set: [rules=2w2p]\nparameters:\n  max_rounds: [5, 6]\n")
    code, _, err = cli(capsys, "validate", path)
    assert code == 0
    assert [line for line in err.splitlines() if line.startswith("warning:")] == [
        f"warning: {SKIRMISH}:11: sides.guards.fighters[0].shield: ignored under 2w2p: a War "
        "Game shield",
        f"warning: {SKIRMISH}:11: sides.guards.fighters[0].weapon: ignored under 2w2p: a War "
        "Game weapon category (and 5 more)",
        f"warning: {SKIRMISH}:18: sides.bandits.fighters[0].two_handed: ignored under 2w2p: a "
        "War Game weapon effect",
    ]
    path = write(tmp_path, "parameters:\n  sides.guards.fighters[0].weapon: [sword, axe, sword]\n")
    code, _, err = cli(capsys, "validate", path)
    assert code == 0
    assert [line for line in err.splitlines() if line.startswith("warning:")] == [
        f"warning: {path}:3: parameters.sides.guards.fighters[0].weapon: 'sword' is read as the "
        "War Game weapon 'plain', not as the category it resembles (2 design points)"
    ]
    path = write(tmp_path, "parameters:\n  rules.system: [wargame, 2w2p]\n")
    code, _, err = cli(capsys, "validate", path)
    assert code == 0 and "warning" not in err  # a scenario swept over systems is meant for them


def test_wrong_types_and_nan_values_are_refused(tmp_path, capsys):
    err = refused(tmp_path, capsys, "parameters:\n  max_rounds: [abc, 5]\n")
    assert err == [
        "exp.yaml:3: parameters.max_rounds: expected a whole number, got 'abc' (design point 0)"
    ]
    err = refused(tmp_path, capsys, "parameters:\n  max_rounds: [5, .nan]\n")
    assert err == ["exp.yaml:3: parameters.max_rounds[1]: expected a finite number, got nan"]
