"""One contract every search design passes, as every rule system passes one (tests/systems).

A design is one package under ``sim/search/`` and one entry in the registry
(:data:`sim.search.designs.KINDS`). Each entry here is held to the same promises the driver,
the dataset, resume and ``sim analyze`` rely on: its keys are its own, a file of it is read
and checked, its planner plans from the battles alone (the same history gives the same
batch), it answers in the shape ``search/answer.json`` promises, and a resumed search that
had ended gives the same answer without fighting. A new design adds its small example to
:data:`EXAMPLES`; a design without one fails :func:`test_every_design_has_an_example`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sim.search import designs, load_search, run_search
from sim.search.spec import COMMON_KEYS
from tests.search.helpers import DUEL, write

EXAMPLES: dict[str, str] = {
    "balance": """\
name: contract_balance
scenario: duel.yaml
design: balance
parameters:
  rules.options.incapacitate_serious: {low: 0.0, high: 1.0}
target: {side: shooter, wins: 50%, of: all}
tolerance: 10%
start: 20
budget: 400
seed: 2
""",
    "optimize": """\
name: contract_optimize
scenario: duel.yaml
design: optimize
parameters:
  rules.options.incapacitate_serious: {choices: [0.25, 0.75]}
objective: {side: shooter, wins: max}
budget: 200
replicates: 10
parallel: 4
confirm: {top: 2, replicates: 40}
seed: 2
""",
    "calibrate": """\
name: contract_calibrate
scenario: duel.yaml
design: calibrate
parameters:
  rules.options.incapacitate_serious: {choices: [0.25, 0.75]}
observed:
  - {max_rounds: 4, battles: 40, draws: 45%}
  - {max_rounds: 6, battles: 40, draws: 30%}
start: 10
ratio: 1
budget: 400
seed: 2
""",
    "game": """\
name: contract_game
scenario: duel.yaml
design: game
parameters:
  sides.shooter.fighters[0].deathwish.weapon: [Glock 20, S&W 500]
  sides.target.fighters[0].deathwish.armor: [none, light vest]
payoff: {side: shooter, of: all}
tolerance: 10%
start: 10
budget: 400
seed: 2
""",
    "worth": """\
name: contract_worth
scenario: duel.yaml
design: worth
parameters:
  sides.target.fighters[0].count: {low: 1, high: 3}
  sides.shooter.fighters[0].count: {low: 1, high: 2}
of: all
scale: {target: 10}
tolerance: 40%
start: 10
replicates: 10
budget: 400
seed: 2
labels:
  sides.target.fighters[0].count: target
""",
}
"""A small search of each design, on the Deathwish duel of :mod:`tests.search.helpers`."""

DESIGNS = sorted(designs.KINDS)


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("contract")
    write(root, "duel.yaml", DUEL)
    for name, text in EXAMPLES.items():
        write(root, f"{name}.yaml", text)
    return root


@pytest.fixture(scope="module")
def ran(folder: Path) -> dict[str, Any]:
    """Each example searched once, serially."""
    return {
        name: run_search(
            load_search(folder / f"{name}.yaml"), folder / f"out-{name}", progress=False
        )
        for name in DESIGNS
        if name in EXAMPLES
    }


def test_every_design_has_an_example() -> None:
    assert set(EXAMPLES) == set(designs.KINDS)


@pytest.mark.parametrize("name", DESIGNS)
def test_the_registry_entry_is_the_designs_own(name: str) -> None:
    kind = designs.KINDS[name]
    assert kind.name == name
    assert not set(kind.keys) & set(COMMON_KEYS), "a design's keys must not shadow the common ones"
    assert kind.budget > 0
    assert kind.make.__module__.startswith(f"sim.search.{name}."), "make lives in its package"
    assert kind.read.__module__.startswith(f"sim.search.{name}.")


@pytest.mark.parametrize("name", DESIGNS)
def test_an_unknown_key_is_located(folder: Path, name: str) -> None:
    from sim.scenario import ScenarioError

    bad = write(folder, f"bad-{name}.yaml", EXAMPLES[name] + "tolerence: 3%\n")
    with pytest.raises(ScenarioError) as err:
        load_search(bad)
    assert f"bad-{name}.yaml:" in str(err.value) and "tolerence" in str(err.value)


@pytest.mark.parametrize("name", DESIGNS)
def test_the_same_seed_takes_the_same_path_to_the_same_answer(
    folder: Path, ran: dict[str, Any], name: str
) -> None:
    """A planner plans from the battles alone: a second search fights the same rows."""
    import pyarrow.dataset as ds

    again = run_search(
        load_search(folder / f"{name}.yaml"), folder / f"again-{name}", progress=False
    )
    assert again.answer == ran[name].answer and again.spent == ran[name].spent

    def rows(out: str) -> Any:
        table = ds.dataset(folder / out / "runs", format="parquet").to_table()
        return table.sort_by("run_id")

    assert rows(f"again-{name}").equals(rows(f"out-{name}"))


@pytest.mark.parametrize("name", DESIGNS)
def test_the_answer_has_the_promised_shape(folder: Path, ran: dict[str, Any], name: str) -> None:
    result = ran[name]
    root = folder / f"out-{name}"
    kept = json.loads((root / "search" / "answer.json").read_text(encoding="utf-8"))
    assert kept == result.answer
    assert kept["design"] == name
    assert isinstance(kept["status"], str) and kept["exit"] in (0, 1)
    assert kept["lines"] and all(isinstance(line, str) for line in kept["lines"])
    for table in kept["tables"]:
        assert set(table) >= {"title", "headers", "rows"}
        assert all(len(row) == len(table["headers"]) for row in table["rows"])
    for chart in kept["charts"]:
        path = (root / chart["file"]).resolve()
        assert path.is_relative_to((root / "search").resolve()) and path.is_file()
        assert isinstance(chart["title"], str)
    assert isinstance(kept["data"], dict)
    assert 0 < result.spent <= load_search(folder / f"{name}.yaml").budget


@pytest.mark.parametrize("name", DESIGNS)
def test_every_battle_is_a_row(folder: Path, ran: dict[str, Any], name: str) -> None:
    import pyarrow.dataset as ds

    runs = ds.dataset(folder / f"out-{name}" / "runs", format="parquet").to_table()
    assert runs.num_rows == ran[name].spent
    assert len(set(runs.column("run_id").to_pylist())) == runs.num_rows


@pytest.mark.parametrize("name", DESIGNS)
def test_a_resumed_search_that_ended_answers_again_without_fighting(
    folder: Path, ran: dict[str, Any], name: str
) -> None:
    again = run_search(
        load_search(folder / f"{name}.yaml"), folder / f"out-{name}", resume=True, progress=False
    )
    assert again.fought == 0 and again.answer == ran[name].answer
