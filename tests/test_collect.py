"""The battle's Mesa DataCollector, batch_run on Battle, from_yaml, the grid, draw_space."""

import warnings

import mesa
import pandas as pd
import pytest

from sim.battle.battle import Battle
from sim.battle.collect import BattleCollector, draw_space
from sim.scenario import load_scenario

SKIRMISH = "scenarios/skirmish.yaml"


def test_from_yaml_is_the_battle_of_sim_run_with_set_and_seed():
    sets = ["sides.bandits.tactic=defensive"]
    a = Battle.from_yaml(SKIRMISH, sets, seed=3).run()
    b = Battle(load_scenario(SKIRMISH, sets), seed=3).run()
    assert a == b
    assert Battle.from_yaml(SKIRMISH, seed=3).run() != a  # the override matters
    assert Battle.from_yaml(SKIRMISH).run() == Battle(load_scenario(SKIRMISH)).run()  # file's seed


def test_a_path_is_a_scenario():
    assert Battle(SKIRMISH, seed=5).run() == Battle(load_scenario(SKIRMISH), seed=5).run()


def test_sims_own_scenario_is_battle_spec():
    sc = load_scenario(SKIRMISH)
    b = Battle(sc, seed=5)
    assert b.spec is sc
    if isinstance(getattr(mesa.Model, "scenario", None), property):
        return  # Mesa 3.5: battle.scenario is Mesa's own
    with pytest.warns(DeprecationWarning, match="Battle.spec"):
        assert b.scenario is sc  # the old name, where Mesa's Model has none


def test_datacollector_gives_each_round_per_side_and_per_fighter():
    b = Battle(SKIRMISH, seed=3)
    b.run()
    dc = b.datacollector
    assert isinstance(dc, BattleCollector)
    model = dc.get_model_vars_dataframe()
    assert model["round"].tolist() == list(range(b.round + 1))  # 0: the deployment
    rounds = b.rounds_frame()
    for side in b.sides:
        mine = rounds[rounds.side == side]
        assert model[f"{side} active"].tolist()[1:] == mine.active.tolist()
        assert model[f"{side} fleeing"].tolist()[1:] == mine.fleeing.tolist()
        assert model[f"{side} hd"].tolist()[1:] == mine.hd.tolist()
        assert model[f"{side} active"][0] == len(b.sides[side].fighters)
    agents = dc.get_agent_vars_dataframe()
    last = agents.xs(b.round, level="Step").set_index("name")
    fighters = b.fighters_frame().set_index("name")
    assert last.status.to_dict() == fighters.status.to_dict()
    assert last.hd.to_dict() == fighters.hd_end.to_dict()
    assert last.wounds.to_dict() == fighters.wounds_taken.to_dict()
    first = agents.xs(0, level="Step").set_index("name")
    assert set(first.status) == {"active"}
    assert first.hd.to_dict() == fighters.hd_start.to_dict()


def test_collecting_again_or_midway_never_doubles_a_row():
    b = Battle(SKIRMISH, seed=3)
    b.step()
    assert b.datacollector.get_model_vars_dataframe()["round"].tolist() == [0, 1]
    b.run()
    b.datacollector.collect(b)
    b.datacollector.collect(b)
    assert b.datacollector.get_model_vars_dataframe()["round"].tolist() == list(range(b.round + 1))
    # the same as a battle asked only at the end
    c = Battle(SKIRMISH, seed=3)
    c.run()
    pd.testing.assert_frame_equal(
        b.datacollector.get_agent_vars_dataframe(), c.datacollector.get_agent_vars_dataframe()
    )


def test_a_reinforcement_joins_the_agent_rows_from_its_round():
    for seed in range(40):  # the first ford battle that lasts until the riders come
        b = Battle("scenarios/ford.yaml", seed=seed)
        b.run()
        late = [f for f in b.roster if f.arrived_round > 0]
        if late:
            break
    assert late, "no ford battle of 40 lasted until its reinforcements"
    agents = b.datacollector.get_agent_vars_dataframe().reset_index()
    f = late[0]
    steps = agents[agents.AgentID == f.unique_id].Step
    assert steps.min() == f.arrived_round


def test_mesa_loop_and_batch_run_report_the_last_round():
    b = Battle(SKIRMISH, seed=3)
    calls = 0
    while b.running:
        b.step()
        calls += 1
    assert b.ended and calls == b.round + 1  # the last call only turns running off
    rows = mesa.batch_run(Battle, {"scenario": SKIRMISH, "seed": range(3)}, display_progress=False)
    got = pd.DataFrame(rows)
    for seed in range(3):
        battle = Battle(SKIRMISH, seed=seed)
        out = battle.run()
        mine = got[got.seed == seed]
        assert set(mine.Step) == {out.rounds}
        for side, counts in out.sides.items():
            assert set(mine[f"{side} active"]) == {counts["active"]}
        final = mine.set_index("name").status.to_dict()
        assert final == battle.fighters_frame().set_index("name").status.to_dict()


def test_a_collector_of_ones_own_replaces_it():
    b = Battle(SKIRMISH, seed=3)
    own = mesa.DataCollector(model_reporters={"round": "round"})
    b.datacollector = own
    assert b.datacollector is own


def test_grid_only_with_a_map():
    assert Battle(SKIRMISH, seed=1).grid is None
    b = Battle("scenarios/bridge.yaml")
    assert b.grid is b.field.grid
    assert (b.grid.width, b.grid.height) == (b.field.spec.width, b.field.spec.height)


@pytest.mark.slow  # importing mesa.visualization (solara) takes seconds
def test_draw_space_shows_the_map_the_same_way_up_as_the_frames():
    pytest.importorskip("solara", reason="Mesa's viz extra (solara) is not installed")
    import matplotlib

    matplotlib.use("Agg")
    b = Battle("scenarios/bridge.yaml")
    b.run()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        ax = draw_space(b)
    bottom, top = ax.get_ylim()
    assert top < bottom  # row 0 at the top, as sim.page.frames draws it
    offsets = [tuple(p) for c in ax.collections for p in c.get_offsets()]
    standing = {b.field.cell(f) for f in b.roster if f.cell is not None}
    assert {(int(x), int(y)) for x, y in offsets} == standing
    with pytest.raises(ValueError, match="no map"):
        draw_space(Battle(SKIRMISH, seed=1))
