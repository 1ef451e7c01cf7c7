"""A search's experiment file is checked before the first battle, every problem located."""

import pytest
from hypothesis import given

from sim.cli import main
from sim.scenario import ScenarioError
from sim.search import is_search, load_search
from tests.search.helpers import DUEL, MIRROR, write
from tests.test_fuzz_cli import FUZZ, assert_clean, mutated, run

BALANCE = """\
name: b
scenario: mirror.yaml
design: balance
parameters:
  sides.b.fighters[0].count: {low: 1, high: 6}
target: {side: a, wins: 50%, of: decisive}
budget: 3000
seed: 1
"""

OPTIMIZE = """\
name: o
scenario: duel.yaml
design: optimize
parameters:
  sides.shooter.fighters[0].deathwish.weapon: {choices: [Glock 20, AKM]}
  rules.options.incapacitate_serious: {low: 0.0, high: 1.0}
  gear:
    choices:
      none: {}
      vest:
        sides.target.fighters[0].deathwish.armor: light vest
objective: {side: shooter, wins: max}
budget: 2000
replicates: 20
confirm: {top: 2, replicates: 100}
"""


@pytest.fixture
def folder(tmp_path):
    write(tmp_path, "mirror.yaml", MIRROR)
    write(tmp_path, "duel.yaml", DUEL)
    return tmp_path


def problems(folder, text):
    path = write(folder, "exp.yaml", text)
    with pytest.raises(ScenarioError) as err:
        load_search(path)
    return [(i.line, i.path, i.message) for i in err.value.issues]


def test_good_files_load(folder):
    b = load_search(write(folder, "b.yaml", BALANCE))
    assert b.design == "balance" and b.parameters == ("sides.b.fighters[0].count",)
    assert b.params[0].kind == "whole" and b.settings.of == "decisive"
    o = load_search(write(folder, "o.yaml", OPTIMIZE))
    assert [p.kind for p in o.params] == ["choices", "real", "bundle"]
    assert o.settings.trials == (2000 - 2 * 100 - 2 * 100) // 20  # confirmation and final
    assert is_search(folder / "b.yaml") and not is_search(folder / "mirror.yaml")


def test_sim_validate_says_what_the_search_is(folder, capsys):
    path = write(folder, "b.yaml", BALANCE)
    assert main(["validate", str(path)]) == 0
    out = capsys.readouterr().out
    assert "ok (balance search b over sides.b.fighters[0].count, at most 3,000 battles" in out


@pytest.mark.parametrize(
    ("change", "line", "where", "words"),
    [
        (("of: decisive", "of: fair"), 6, "target.of", "expected decisive"),
        (("side: a,", "side: aa,"), 6, "target.side", "did you mean 'a'"),
        (("wins: 50%", "wins: 50"), 6, "target.wins", "write 50%"),
        (("high: 6", "high: 0"), 5, "parameters.sides.b.fighters[0].count", "must be above"),
        (("budget: 3000", "budget: 100"), 7, "budget", "coarse start"),
        (("seed: 1", "seed: 1\ntolerence: 2%"), 9, "tolerence", "did you mean 'tolerance'"),
        (("high: 6", "high: 200000"), 5, "parameters.sides.b.fighters[0].count", "at sides.b"),
        # before: OverflowError (int too large to convert to float), a traceback
        (("high: 6", "high: " + "9" * 500), 5, "parameters.sides.b.fighters[0].count", "at most"),
    ],
)
def test_a_balance_files_mistakes_are_located(folder, change, line, where, words):
    found = problems(folder, BALANCE.replace(*change))
    assert any(n == line and p == where and words in m for n, p, m in found), found


def test_a_named_choices_bad_path_is_located_at_its_own_line(folder):
    text = OPTIMIZE.replace("deathwish.armor: light vest", "deathwish.armour: light vest")
    found = problems(folder, text)
    assert found[0][0] == 11, found
    assert found[0][1] == "parameters.gear.choices.vest.sides.target.fighters[0].deathwish.armour"
    assert "(at gear = vest)" in found[0][2]


@pytest.mark.parametrize(
    ("change", "where", "words"),
    [
        (("wins: max", "wins: most"), "objective.wins", "expected max or min"),
        (
            ("{side: shooter, wins: max}", "{rounds: min, side: shooter}"),
            "objective.side",
            "leave side out",
        ),
        (("replicates: 20", "replicates: 2000"), "budget", "fewer than one batch"),
        (
            ("[Glock 20, AKM]", "[Glock 20, Glock 20]"),
            "parameters.sides.shooter.fighters[0].deathwish.weapon",
            "given twice",
        ),
        (
            ("[Glock 20, AKM]", "[Glock 20, Glock 99]"),
            "parameters.sides.shooter.fighters[0].deathwish.weapon",
            "Glock 99",
        ),
    ],
)
def test_an_optimize_files_mistakes_are_located(folder, change, where, words):
    found = problems(folder, OPTIMIZE.replace(*change))
    assert any(p == where and words in m for _, p, m in found), found


def test_sweep_exits_2_on_a_bad_search_and_writes_nothing(folder, capsys):
    path = write(folder, "b.yaml", BALANCE.replace("side: a,", "side: aa,"))
    out = folder / "out"
    assert main(["sweep", str(path), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert f"{path}:6: target.side: no side 'aa'" in err
    assert not out.exists()


def test_the_experiment_reader_sends_a_search_to_sim_sweep(folder):
    from sim.experiment.load import load_experiment

    with pytest.raises(ScenarioError) as err:
        load_experiment(write(folder, "b.yaml", BALANCE))
    assert "design 'balance' is a search: sim sweep runs it" in str(err.value)


# ------------------------------------------------------------------ hostile search files


@FUZZ
@given(mutated(BALANCE))
def test_hostile_balance_files_end_in_a_located_error(tmp_path_factory, data):
    folder = tmp_path_factory.mktemp("fuzz")
    write(folder, "mirror.yaml", MIRROR)
    path = folder / "b.yaml"
    path.write_bytes(data)
    code, err = run("validate", path)
    assert_clean(code, err, path)


@FUZZ
@given(mutated(OPTIMIZE))
def test_hostile_optimize_files_end_in_a_located_error(tmp_path_factory, data):
    folder = tmp_path_factory.mktemp("fuzz")
    write(folder, "duel.yaml", DUEL)
    path = folder / "o.yaml"
    path.write_bytes(data)
    code, err = run("validate", path)
    assert_clean(code, err, path)


def test_sim_sweep_help_names_every_search_design(capsys):
    from sim.cli import main
    from sim.cli.sweeps import DESIGNS
    from sim.search.designs import KINDS

    assert sorted(DESIGNS.replace(" or ", ", ").split(", ")) == sorted(KINDS)
    with pytest.raises(SystemExit):
        main(["--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert f"design: {DESIGNS}, fights only where its answer is" in out


def test_a_flow_mapping_with_an_index_in_a_key_says_to_quote_it(tmp_path):
    from sim.scenario import ScenarioError

    text = "scenario: s.yaml\ndesign: balance\nparameters: {sides.a.fighters[0].count: {low: 1}}\n"
    path = tmp_path / "f.yaml"
    path.write_text(text)
    with pytest.raises(ScenarioError) as err:
        load_search(path)
    assert f"{path}:3: malformed YAML" in str(err.value)
    assert "quote a key holding [ ]: {'sides.red.fighters[0].count': 3}" in str(err.value)


def test_a_bad_budget_is_one_message_not_two(tmp_path):
    write(tmp_path, "duel.yaml", DUEL)
    text = (
        "scenario: duel.yaml\ndesign: optimize\nparameters:\n"
        "  max_rounds: {choices: [3, 5]}\nobjective: {side: shooter, wins: max}\nbudget: 0\n"
    )
    with pytest.raises(ScenarioError) as err:
        load_search(write(tmp_path, "o.yaml", text))
    issues = [i for i in err.value.issues if i.path == "budget"]
    assert [i.message for i in issues] == ["0 is out of range 1..100000000"], issues
