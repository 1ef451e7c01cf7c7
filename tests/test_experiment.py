"""Experiment files: designs, run seeds, validation and parameter column types (issue 5)."""

import itertools
import json
import math
import re
import textwrap
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest

from sim.errors import SimError
from sim.experiment import load_experiment
from sim.scenario import ScenarioError, parse_scenario

ROOT = Path(__file__).resolve().parents[1]
SKIRMISH = ROOT / "scenarios" / "skirmish.yaml"


def write(tmp_path, body, name="exp.yaml", scenario=SKIRMISH):
    """An experiment file in ``tmp_path`` on the skirmish (``body`` after the scenario line)."""
    head = f"scenario: {scenario}\n" if scenario is not None else ""
    path = tmp_path / name
    path.write_text(head + textwrap.dedent(body), encoding="utf-8")
    return path


def load(tmp_path, body, check=False, **kw):
    """The experiment (design points not checked against the scenario unless ``check``)."""
    return load_experiment(write(tmp_path, body, **kw), check_points=check)


def issues_of(err):
    return [str(i) for i in err.value.issues]


# --------------------------------------------------------------------------- designs


def test_grid_is_the_full_factorial_in_a_fixed_order(tmp_path):
    exp = load(
        tmp_path,
        """
        design: grid
        parameters:
          sides.guards.tactic: [balanced, aggressive, defensive]
          max_rounds: [10, 20]
          sides.bandits.tactic: [balanced, focus_leader]
        replicates: 4
        """,
    )
    assert exp.parameters == ("sides.guards.tactic", "max_rounds", "sides.bandits.tactic")
    expected = [
        dict(zip(exp.parameters, combo, strict=True))
        for combo in itertools.product(
            ["balanced", "aggressive", "defensive"], [10, 20], ["balanced", "focus_leader"]
        )
    ]
    assert [dict(p) for p in exp.points] == expected
    assert exp.planned_runs == 12 * 4
    # run i is point i // replicates
    assert [exp.point_of(i) for i in range(9)] == [0, 0, 0, 0, 1, 1, 1, 1, 2]
    # the same file gives the same order every time
    again = load(tmp_path, exp.text.split("\n", 1)[1], name="again.yaml")
    assert again.points == exp.points


def test_grid_is_the_default_design(tmp_path):
    exp = load(tmp_path, "parameters:\n  max_rounds: [5, 6, 7]\n")
    assert [p["max_rounds"] for p in exp.points] == [5, 6, 7]
    assert exp.replicates == 1 and exp.planned_runs == 3
    assert exp.name == "exp"  # the file's name without extension


def test_list_design_uses_the_given_points_in_order(tmp_path):
    exp = load(
        tmp_path,
        """
        design: list
        points:
          - {max_rounds: 30, sides.bandits.tactic: defensive}
          - {max_rounds: 5, sides.bandits.tactic: aggressive}
          - {max_rounds: 30, sides.bandits.tactic: balanced}
        replicates: 7
        """,
    )
    assert set(exp.parameters) == {"max_rounds", "sides.bandits.tactic"}
    assert [dict(p) for p in exp.points] == [
        {"max_rounds": 30, "sides.bandits.tactic": "defensive"},
        {"max_rounds": 5, "sides.bandits.tactic": "aggressive"},
        {"max_rounds": 30, "sides.bandits.tactic": "balanced"},
    ]
    assert exp.planned_runs == 21
    assert exp.point_overrides(1)[-2:] == [
        f"{p}={json.dumps(exp.points[1][p])}" for p in exp.parameters
    ]


RANDOM = """
design: random
samples: 300
parameters:
  max_rounds: {low: 3, high: 9}
  battle.x: {low: -1.5, high: 2.5}
  sides.guards.tactic: {choices: [balanced, aggressive, defensive]}
replicates: 2
seed: %d
"""


def test_random_design_draws_within_ranges_and_keeps_types(tmp_path):
    exp = load(tmp_path, RANDOM % 77)
    assert len(exp.points) == 300 and exp.planned_runs == 600
    ints = [p["max_rounds"] for p in exp.points]
    floats = [p["battle.x"] for p in exp.points]
    choices = [p["sides.guards.tactic"] for p in exp.points]
    assert all(type(v) is int for v in ints)
    assert all(3 <= v <= 9 for v in ints)
    assert set(ints) == set(range(3, 10))  # both ends reachable in 300 draws
    assert all(type(v) is float for v in floats)
    assert all(-1.5 <= v <= 2.5 for v in floats)
    assert len(set(floats)) == 300
    assert set(choices) == {"balanced", "aggressive", "defensive"}


def test_random_design_is_reproducible_from_the_master_seed(tmp_path):
    a = load(tmp_path, RANDOM % 77, name="a.yaml")
    b = load(tmp_path, RANDOM % 77, name="b.yaml")
    c = load(tmp_path, RANDOM % 78, name="c.yaml")
    assert a.points == b.points
    assert a.points != c.points


@pytest.mark.parametrize("n", [1, 7, 50])
def test_lhs_puts_one_sample_in_each_stratum_of_every_parameter(tmp_path, n):
    exp = load(
        tmp_path,
        f"""
        design: lhs
        samples: {n}
        parameters:
          battle.a: {{low: -2.5, high: 7.5}}
          battle.b: {{low: 0.0, high: 1.0}}
          battle.c: {{low: 100, high: 100.001}}
        seed: 3
        """,
    )
    assert len(exp.points) == n
    for name, (low, high) in {
        "battle.a": (-2.5, 7.5),
        "battle.b": (0.0, 1.0),
        "battle.c": (100, 100.001),
    }.items():
        values = [p[name] for p in exp.points]
        assert all(low <= v <= high for v in values), name
        strata = sorted(min(n - 1, math.floor((v - low) / (high - low) * n)) for v in values)
        assert strata == list(range(n)), f"{name}: strata {strata}"
    # the columns are not all in the same stratum order (they are permuted independently)
    if n == 50:
        order = [np.argsort([p[name] for p in exp.points]).tolist() for name in exp.parameters]
        assert order[0] != order[1] != order[2]


def test_lhs_whole_number_ranges_stay_whole_and_stratified(tmp_path):
    exp = load(
        tmp_path,
        """
        design: lhs
        samples: 10
        parameters:
          max_rounds: {low: 1, high: 100}
          battle.k: {low: 0, high: 9}
        seed: 12
        """,
    )
    rounds = [p["max_rounds"] for p in exp.points]
    ks = [p["battle.k"] for p in exp.points]
    assert all(type(v) is int for v in rounds + ks)
    # 100 whole numbers in 10 strata of 10: one sample in each
    assert sorted((v - 1) // 10 for v in rounds) == list(range(10))
    # 10 whole numbers in 10 strata: every value exactly once
    assert sorted(ks) == list(range(10))


def test_lhs_is_reproducible_from_the_master_seed(tmp_path):
    body = "design: lhs\nsamples: 20\nparameters:\n  battle.a: {low: 0, high: 1.0}\nseed: %d\n"
    assert load(tmp_path, body % 5, name="a.yaml").points == (
        load(tmp_path, body % 5, name="b.yaml").points
    )
    assert load(tmp_path, body % 5, name="a.yaml").points != (
        load(tmp_path, body % 6, name="c.yaml").points
    )


@pytest.mark.parametrize(
    "design, points, replicates",
    [("grid", 6, 3), ("list", 2, 5), ("random", 4, 2), ("lhs", 9, 1)],
)
def test_planned_runs_are_points_times_replicates(tmp_path, design, points, replicates):
    params = {
        "grid": "parameters:\n  max_rounds: [1, 2, 3]\n  battle.x: [a, b]\n",
        "list": "points:\n  - {max_rounds: 1}\n  - {max_rounds: 2}\n",
        "random": "samples: 4\nparameters:\n  max_rounds: {low: 1, high: 5}\n",
        "lhs": "samples: 9\nparameters:\n  max_rounds: {low: 1, high: 50}\n",
    }[design]
    exp = load(tmp_path, f"design: {design}\nreplicates: {replicates}\n{params}")
    assert len(exp.points) == points
    assert exp.planned_runs == points * replicates
    assert [exp.point_of(i) for i in range(exp.planned_runs)] == [
        i // replicates for i in range(exp.planned_runs)
    ]


# --------------------------------------------------------------------------- run seeds


@pytest.mark.parametrize("master", [0, 2026, 2**63 - 1])
def test_run_seeds_are_the_seed_sequence_children(tmp_path, master):
    exp = load(
        tmp_path,
        f"parameters:\n  max_rounds: [5, 6, 7]\nreplicates: 100\nseed: {master}\n",
    )
    n = exp.planned_runs
    assert n == 300
    children = np.random.SeedSequence(master).spawn(n)
    expected = [int(c.generate_state(1, np.uint64)[0]) for c in children]
    got = [exp.run_seed(i) for i in range(n)]
    assert got == expected
    assert len(set(got)) == n
    assert all(0 <= s < 2**64 for s in got)


def test_run_seeds_do_not_depend_on_chunk_size(tmp_path):
    body = "parameters:\n  max_rounds: [5, 6]\nreplicates: 50\nseed: 9\nchunk: %d\n"
    exps = [load(tmp_path, body % c, name=f"c{c}.yaml") for c in (1, 7, 100)]
    seeds = [[e.run_seed(i) for i in range(e.planned_runs)] for e in exps]
    assert seeds[0] == seeds[1] == seeds[2]
    for e in exps:
        ids = [i for _, r in e.chunks() for i in r]
        assert ids == list(range(e.planned_runs))  # every run once, in order
    assert [len(r) for _, r in exps[1].chunks()] == [7] * 14 + [2]
    assert [list(r) for _, r in exps[1].chunks(limit=10)] == [list(range(7)), [7, 8, 9]]


def test_a_different_master_seed_gives_different_run_seeds(tmp_path):
    body = "parameters:\n  max_rounds: [5]\nreplicates: 20\nseed: %d\n"
    a, b = (load(tmp_path, body % s, name=f"s{s}.yaml") for s in (1, 2))
    assert not {a.run_seed(i) for i in range(20)} & {b.run_seed(i) for i in range(20)}


# --------------------------------------------------------------------------- rules.system


def test_rules_system_parameter_on_a_plain_string_rules_scenario(tmp_path):
    assert parse_scenario(SKIRMISH.read_text(), str(SKIRMISH)).rules == "wargame"
    assert "\nrules: wargame\n" in SKIRMISH.read_text()  # a plain string in the file
    exp = load(tmp_path, "parameters:\n  rules.system: [wargame, 2w2p, deathwish, d6]\n")
    assert exp.overrides[0] == "rules={system: wargame}"
    systems = []
    for point in range(len(exp.points)):
        sc = parse_scenario(exp.scenario_text, exp.scenario_path, exp.point_overrides(point))
        systems.append(sc.rules)
    assert systems == ["wargame", "2w2p", "deathwish", "d6"]


def test_rules_options_parameter_on_a_plain_string_rules_scenario(tmp_path):
    exp = load(tmp_path, "parameters:\n  rules.options.damage: [hd_sum, weapon_d8]\n")
    got = [
        parse_scenario(exp.scenario_text, exp.scenario_path, exp.point_overrides(p)).options[
            "damage"
        ]
        for p in range(2)
    ]
    assert got == ["hd_sum", "weapon_d8"]


def test_no_normalising_override_without_a_rules_parameter(tmp_path):
    exp = load(tmp_path, "set: [max_rounds=30]\nparameters:\n  max_rounds: [5]\n")
    assert exp.overrides == ("max_rounds=30",)


# --------------------------------------------------------------------------- validation

LINE = re.compile(r"^(?P<file>.+?)(?::(?P<line>\d+))?: (?P<path>[^:]+): (?P<message>.+)$")


def parse_issue(text):
    m = LINE.match(text)
    assert m, f"not file:line: path: message: {text!r}"
    return m["file"], int(m["line"]) if m["line"] else None, m["path"], m["message"]


def check(tmp_path, body, scenario=SKIRMISH):
    """Every issue of a bad experiment as {path: message}, checking each line's form.

    An issue about a key that is in the file names its line (``file:line: path: message``);
    one about a top-level key left out has no line to name (``file: path: message``), as in
    the scenario loader.
    """
    path = write(tmp_path, body, scenario=scenario)
    with pytest.raises(ScenarioError) as err:
        load_experiment(path)
    lines = str(err.value).splitlines()
    assert lines == issues_of(err)
    text = path.read_text().splitlines()
    found = {}
    for issue in lines:
        file, line, where, message = parse_issue(issue)
        assert file == str(path)
        top = where.split(".")[0].split("[")[0]
        if any(t.startswith(f"{top}:") for t in text):
            assert line is not None, issue
        else:
            assert line is None, issue
        if line is not None and "[" not in where:
            key = where.removeprefix("parameters.")
            assert text[line - 1].lstrip().startswith(key), issue
        found[where] = message
    return found


def test_unknown_key_suggests_the_closest(tmp_path):
    found = check(tmp_path, "replicate: 3\nparameters:\n  max_rounds: [5]\n")
    assert found == {"replicate": "unknown key 'replicate'; did you mean 'replicates'?"}


def test_unknown_key_with_nothing_close_lists_the_known_keys(tmp_path):
    found = check(tmp_path, "zzzzzz: 3\nparameters:\n  max_rounds: [5]\n")
    assert "unknown key 'zzzzzz'" in found["zzzzzz"]
    assert "replicates" in found["zzzzzz"] and "design" in found["zzzzzz"]


def test_missing_scenario_file(tmp_path):
    found = check(tmp_path, "parameters:\n  max_rounds: [5]\n", scenario="no/such.yaml")
    assert "scenario file not found" in found["scenario"]
    assert str(tmp_path / "no" / "such.yaml") in found["scenario"]  # relative to the file


def test_a_scenario_path_with_a_line_break_is_refused_on_one_line(tmp_path):
    found = check(tmp_path, "parameters:\n  max_rounds: [5]\n", scenario='"\\r0"')
    assert found["scenario"].startswith("the path '\\r0' holds the control character U+000D")


def test_scenario_key_left_out(tmp_path):
    path = write(tmp_path, "parameters:\n  max_rounds: [5]\n", scenario=None)
    with pytest.raises(ScenarioError) as err:
        load_experiment(path)
    assert any(
        t.startswith(f"{path}") and "scenario: the base scenario's path is required" in t
        for t in issues_of(err)
    )


@pytest.mark.parametrize(
    "body, path, needle",
    [
        ("design: grd\nparameters:\n  max_rounds: [5]\n", "design", "unknown design 'grd'"),
        ("design: random\nparameters:\n  max_rounds: {low: 1, high: 2}\n", "samples", "samples"),
        ("parameters:\n  max_rounds: []\n", "parameters.max_rounds", "non-empty list"),
        ("parameters: [max_rounds]\n", "parameters", "mapping"),
        ("design: list\npoints: []\n", "points", "non-empty list"),
        ("replicates: 0\nparameters:\n  max_rounds: [5]\n", "replicates", "out of range"),
        ("replicates: -3\nparameters:\n  max_rounds: [5]\n", "replicates", "out of range"),
        ("replicates: 2.5\nparameters:\n  max_rounds: [5]\n", "replicates", "whole number"),
        ("replicates: many\nparameters:\n  max_rounds: [5]\n", "replicates", "whole number"),
        ("replicates: true\nparameters:\n  max_rounds: [5]\n", "replicates", "whole number"),
        ("seed: -1\nparameters:\n  max_rounds: [5]\n", "seed", "out of range"),
        ("chunk: 0\nparameters:\n  max_rounds: [5]\n", "chunk", "out of range"),
        ("tables: [runs, bogus]\nparameters:\n  max_rounds: [5]\n", "tables", "tables"),
        (
            "design: random\nsamples: 3\nparameters:\n  max_rounds: {low: 9, high: 2}\n",
            "parameters.max_rounds",
            "high (2) is below low (9)",
        ),
        (
            "design: lhs\nsamples: 3\nparameters:\n  max_rounds: {low: a, high: 2}\n",
            "parameters.max_rounds",
            "must be numbers",
        ),
        (
            "design: lhs\nsamples: 3\nparameters:\n  max_rounds: {low: 1}\n",
            "parameters.max_rounds",
            "{low, high}",
        ),
        (
            "design: lhs\nsamples: 3\nparameters:\n  max_rounds: {choices: [1, 2]}\n",
            "parameters.max_rounds",
            "{low, high}",
        ),
        (
            "design: random\nsamples: 3\nparameters:\n  max_rounds: {choices: []}\n",
            "parameters.max_rounds",
            "non-empty",
        ),
        (
            "design: lhs\nsamples: 0\nparameters:\n  x: {low: 0, high: 1}\n",
            "samples",
            "a whole number 1 or more",
        ),
        (
            "design: list\npoints:\n  - {max_rounds: 1}\n  - {battle.x: 2}\n",
            "points[1].battle.x",  # point 0 leaves battle.x out: not a problem
            "unknown option 'x'",
        ),
    ],
)
def test_each_problem_is_reported_with_file_line_and_path(tmp_path, body, path, needle):
    found = check(tmp_path, body)
    assert path in found, found
    assert needle in found[path]


def test_every_problem_is_reported_at_once(tmp_path):
    found = check(
        tmp_path,
        """
        name: bad
        design: grd
        replicate: 3
        replicates: 0
        seed: -1
        tables: [runs, bogus]
        chunk: 0
        """,
        scenario="missing.yaml",
    )
    assert set(found) == {
        "scenario",
        "design",
        "replicate",
        "replicates",
        "seed",
        "tables",
        "chunk",
    }
    assert "did you mean 'replicates'" in found["replicate"]


def test_several_design_problems_at_once(tmp_path):
    found = check(
        tmp_path,
        """
        design: random
        samples: 4
        replicates: many
        seeed: 3
        parameters:
          max_rounds: {low: 10, high: 5}
        """,
    )
    assert set(found) == {"replicates", "seeed", "parameters.max_rounds"}
    assert "did you mean 'seed'" in found["seeed"]


def test_the_cli_prints_the_issues_and_exits_2(tmp_path, capsys):
    from sim.cli import main

    path = write(tmp_path, "design: grd\nreplicate: 2\n")
    assert main(["sweep", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 2
    for line in lines:
        assert parse_issue(line)[0] == str(path)
    assert "Traceback" not in err


def test_a_missing_experiment_file_is_a_clear_error(tmp_path):
    with pytest.raises(SimError, match="file not found"):
        load_experiment(tmp_path / "nope.yaml")


def test_an_experiment_that_is_not_a_mapping(tmp_path):
    p = tmp_path / "list.yaml"
    p.write_text("- 1\n- 2\n")
    with pytest.raises(ScenarioError, match="mapping"):
        load_experiment(p)


# --------------------------------------------------------------------------- columns


def test_parameter_columns_are_typed(tmp_path):
    exp = load(
        tmp_path,
        """
        design: list
        points:
          - {i: 1, f: 0.5, g: 2, s: balanced, l: [chain, plate], d: {reserve: 2}, b: true}
          - {i: 3, f: 1.5, g: 2.5, s: defensive, l: [gambeson], d: {reserve: 1}, b: false}
        """,
    )
    fields = {f.name: f.type for f in exp.param_fields()}
    assert fields == {
        "b": pa.bool_(),
        "d": pa.string(),
        "f": pa.float64(),
        "g": pa.float64(),  # ints and floats together: float64
        "i": pa.int64(),
        "l": pa.string(),
        "s": pa.string(),
    }
    values = exp.param_values(1)
    assert values["i"] == 3 and type(values["i"]) is int
    assert values["f"] == 1.5
    assert values["s"] == "defensive"
    assert values["l"] == json.dumps(["gambeson"]) and json.loads(values["l"]) == ["gambeson"]
    assert json.loads(exp.param_values(0)["d"]) == {"reserve": 2}
    # the values fit their fields
    table = pa.Table.from_pylist(
        [exp.param_values(p) for p in range(2)], schema=pa.schema(exp.param_fields())
    )
    assert table.column("l").to_pylist() == ['["chain", "plate"]', '["gambeson"]']


def test_random_and_lhs_columns_are_typed(tmp_path):
    exp = load(
        tmp_path,
        """
        design: random
        samples: 5
        parameters:
          max_rounds: {low: 1, high: 9}
          battle.x: {low: 0.0, high: 1}
          sides.guards.tactic: {choices: [balanced, defensive]}
        """,
    )
    fields = {f.name: f.type for f in exp.param_fields()}
    assert fields == {
        "max_rounds": pa.int64(),
        "battle.x": pa.float64(),
        "sides.guards.tactic": pa.string(),
    }


def test_fingerprint_follows_the_text_and_the_scenario(tmp_path):
    body = "parameters:\n  max_rounds: [5, 6]\nseed: 1\n"
    a = load(tmp_path, body, name="a.yaml")
    assert load(tmp_path, body, name="b.yaml").fingerprint() == a.fingerprint()
    assert load(tmp_path, body + "replicates: 2\n", name="c.yaml").fingerprint() != (
        a.fingerprint()
    )
    other = tmp_path / "other.yaml"
    other.write_text(SKIRMISH.read_text().replace("seed: 1", "seed: 2"))
    assert load(tmp_path, body, name="d.yaml", scenario=other).fingerprint() != a.fingerprint()


def test_mixed_type_values_fit_their_column(tmp_path):
    exp = load(
        tmp_path,
        """
        design: list
        points:
          - {s: medium}
          - {s: 3}
          - {s: null}
        """,
    )
    assert [f.type for f in exp.param_fields()] == [pa.string()]
    rows = [exp.param_values(p) for p in range(3)]
    table = pa.Table.from_pylist(rows, schema=pa.schema(exp.param_fields()))
    assert table.num_rows == 3


# --------------------------------------------------------------------------- labels


def test_labels_name_swept_parameters_and_a_stranger_is_refused_where_it_stands(tmp_path):
    body = """\
    parameters:
      sides.guards.tactic: [balanced, aggressive]
    labels:
      sides.guards.tactic: guard tactic
    """
    assert load(tmp_path, body).parameters == ("sides.guards.tactic",)
    with pytest.raises(ScenarioError) as err:
        load(tmp_path, body.replace("tactic: guard", "tactik: guard"))
    assert issues_of(err) == [
        f"{tmp_path / 'exp.yaml'}:5: labels.sides.guards.tactik: 'sides.guards.tactik' is not a"
        " swept parameter; did you mean 'sides.guards.tactic'?"
    ]
    with pytest.raises(ScenarioError) as err:
        load(tmp_path, body.replace("guard tactic", "''"))
    assert issues_of(err)[0].endswith("labels.sides.guards.tactic: expected a name as text, got ''")


def test_a_swept_rules_is_the_runs_own_rules_column(tmp_path):
    """Before: ``rules: [wargame, d6]`` wrote a second ``rules`` column, and no dataset read."""
    import pyarrow.parquet as pq

    from sim.analysis import load as load_dataset
    from sim.experiment.runner import sweep

    exp = load(tmp_path, "parameters:\n  rules: [wargame, d6]\nreplicates: 2\nseed: 3\n")
    sweep(exp, tmp_path / "out", workers=1, executor="serial", progress=False)
    parts = sorted((tmp_path / "out" / "runs").glob("*.parquet"))
    runs = pa.concat_tables([pq.read_table(f) for f in parts]).sort_by("run_id")
    assert runs.column_names.count("rules") == 1
    assert runs.column("rules").to_pylist() == ["wargame", "wargame", "d6", "d6"]
    read = load_dataset(tmp_path / "out").runs.sort_values("run_id")
    assert read["rules"].tolist() == runs.column("rules").to_pylist()
