"""A Battle made as Mesa 3.5 makes any model: from a Mesa ``Scenario`` (sim.battle.scenarios)."""

import mesa
import numpy as np
import pytest

import sim.battle
from sim.battle import Battle
from sim.battle.scenarios import MESA_SCENARIO
from sim.errors import SimError
from sim.run import run_rows
from sim.run.core import Fought
from sim.scenario import load_scenario

SKIRMISH = "scenarios/skirmish.yaml"
SETS = ["sides.bandits.tactic=defensive"]

needs_scenarios = pytest.mark.skipif(
    MESA_SCENARIO is None,
    reason=f"Mesa {mesa.__version__} has no scenarios (mesa.experimental.scenarios, Mesa 3.5)",
)


def rows(battle: Battle, seed: int) -> dict[str, list[dict]]:
    """Every table's rows of a battle fought to its end, events included."""
    battle.run()
    return run_rows(Fought(battle), 0, seed, events=True)


@needs_scenarios
@pytest.mark.parametrize(
    ("path", "sets"), [(SKIRMISH, SETS), ("scenarios/bridge.yaml", []), ("scenarios/ford.yaml", [])]
)
def test_a_battle_from_a_mesa_scenario_is_the_battle_of_its_file(path, sets):
    from mesa.experimental.scenarios import Scenario

    from sim.battle import BattleScenario

    for seed in range(3):
        want = rows(Battle(load_scenario(path, sets), seed=seed, events=True), seed)
        ours = BattleScenario(rng=seed, spec=path, overrides=sets, events=True)
        plain = Scenario(rng=seed, spec=path, overrides=sets, events=True)  # Mesa's own class
        for mesa_scenario in (ours, plain):
            battle = Battle(scenario=mesa_scenario)
            assert battle.scenario is mesa_scenario and mesa_scenario.model is battle
            assert rows(battle, seed) == want
    assert want["events"] and want["fighters"]  # rows to compare


@needs_scenarios
def test_its_rng_may_be_a_generator_or_left_to_the_files_seed():
    from sim.battle import BattleScenario

    by_generator = Battle(scenario=BattleScenario(rng=np.random.default_rng(4), spec=SKIRMISH))
    assert rows(by_generator, 4) == rows(Battle(SKIRMISH, seed=4), 4)
    unseeded = BattleScenario(spec=SKIRMISH)
    battle = Battle(scenario=unseeded)
    assert unseeded.rng == load_scenario(SKIRMISH).seed == 1  # the file's, recorded
    assert rows(battle, 1) == rows(Battle(SKIRMISH), 1)


@needs_scenarios
def test_mesa_batch_run_gives_its_seeds_beside_the_scenario():
    # Mesa 3.5's batch_run passes seed=None beside every scenario (Battle takes seed=)
    from sim.battle import BattleScenario

    scenarios = [BattleScenario(rng=s, spec=SKIRMISH) for s in range(3)]
    got = mesa.batch_run(Battle, {"scenario": scenarios}, display_progress=False)
    for s in range(3):
        b = Battle(SKIRMISH, seed=s)
        out = b.run()
        mine = [r for r in got if r["scenario"] is scenarios[s]]
        assert {r["Step"] for r in mine} == {out.rounds}
        assert {r["name"]: r["status"] for r in mine} == {f.name: f.status.value for f in b.roster}


@needs_scenarios
def test_a_battle_from_sims_scenario_has_a_mesa_scenario_of_itself():
    from sim.battle import BattleScenario

    battle = Battle(SKIRMISH, seed=7, options={"initiative_ties": "first_listed"})
    mesa_scenario = battle.scenario
    assert isinstance(mesa_scenario, BattleScenario) and mesa_scenario.model is battle
    assert mesa_scenario.rng == 7 and mesa_scenario.spec is battle.spec
    again = Battle(scenario=BattleScenario(rng=7, spec=battle.spec))
    assert rows(again, 7) == rows(battle, 7)


@needs_scenarios
@pytest.mark.parametrize(
    ("params", "beside", "message"),
    [
        ({}, {}, "needs spec"),
        ({"spec": SKIRMISH, "tactic": "defensive"}, {}, "unknown parameter .* 'tactic'"),
        ({"spec": SKIRMISH}, {"seed": 8}, "seed 8 and the Mesa scenario's rng 7 differ"),
        ({"spec": SKIRMISH, "events": True}, {"events": True}, "events: given in the Mesa"),
        ({"spec": load_scenario(SKIRMISH), "overrides": SETS}, {}, "apply to a scenario file"),
    ],
)
def test_a_mesa_scenario_that_names_no_battle_is_refused(params, beside, message):
    from sim.battle import BattleScenario

    with pytest.raises(SimError, match=message):
        Battle(scenario=BattleScenario(rng=7, **params), **beside)


@needs_scenarios
def test_a_seed_beside_it_may_repeat_its_rng():
    from sim.battle import BattleScenario

    battle = Battle(scenario=BattleScenario(rng=3, spec=SKIRMISH), seed=3)
    assert rows(battle, 3) == rows(Battle(SKIRMISH, seed=3), 3)


@pytest.mark.skipif(MESA_SCENARIO is not None, reason="this Mesa has scenarios")
def test_without_mesa_scenarios_there_is_no_battle_scenario_and_it_says_why():
    with pytest.raises(AttributeError, match="Mesa 3.5"):
        sim.battle.BattleScenario  # noqa: B018
    assert Battle(SKIRMISH, seed=2).run() == Battle(load_scenario(SKIRMISH), seed=2).run()
