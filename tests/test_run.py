"""sim.run.core: the one entry of every run, its seed rule and its rows."""

from pathlib import Path

import numpy as np
import pytest

from sim.battle.battle import Battle
from sim.dataset import records
from sim.errors import SimError
from sim.run.core import Fought, draw_seed, fight, generator, run_rows
from sim.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[1]
SKIRMISH = ROOT / "scenarios" / "skirmish.yaml"
CAMPAIGN = ROOT / "scenarios" / "campaign.yaml"


def test_a_seed_builds_the_generator_one_way():
    a, b = generator(7), np.random.default_rng(7)
    assert a.integers(0, 2**32, 8).tolist() == b.integers(0, 2**32, 8).tolist()


@pytest.mark.parametrize("path", [SKIRMISH, CAMPAIGN], ids=["battle", "campaign"])
def test_a_seed_and_its_generator_fight_the_same_run(path):
    sc = load_scenario(path)
    by_seed = run_rows(fight(sc, 5, events=True), 0, 5, events=True)
    by_rng = run_rows(fight(sc, rng=generator(5), events=True), 0, 5, events=True)
    assert by_seed == by_rng
    assert by_seed != run_rows(fight(sc, 6, events=True), 0, 5, events=True)


def test_without_a_seed_the_scenario_seed_is_used():
    sc = load_scenario(SKIRMISH)
    assert sc.seed is not None
    assert run_rows(fight(sc), 0, 0) == run_rows(fight(sc, sc.seed), 0, 0)


@pytest.mark.parametrize(("path", "what"), [(SKIRMISH, "battle"), (CAMPAIGN, "campaign")])
def test_no_seed_at_all_is_a_clear_error(path, what):
    from dataclasses import replace

    sc = replace(load_scenario(path), seed=None)
    with pytest.raises(SimError, match=f"^a {what} needs a seed \\(or an rng\\)$"):
        fight(sc)


def test_a_plain_run_is_its_battle():
    sc = load_scenario(SKIRMISH)
    plain = Battle(sc, seed=3)
    plain.run()
    got = fight(sc, 3)
    assert got.battles == [got.battle] and got.days == 0
    assert Fought(plain).battles == [plain]
    assert run_rows(Fought(plain), 4, 3) == run_rows(got, 4, 3)


def test_rows_fill_every_table_with_the_run_id():
    got = fight(load_scenario(CAMPAIGN), 2, events=True)
    rows = run_rows(got, 9, 2, events=True)
    assert set(rows) == set(records.TABLES)
    assert all(r["run_id"] == 9 for table in rows.values() for r in table)
    assert len(got.battles) == len({r["battle"] for r in rows["campaign"]}) > 1
    assert rows["runs"][0]["rounds"] == got.battle.outcome().rounds  # the last battle's
    assert rows["events"] and not run_rows(got, 9, 2)["events"]


def test_drawn_seeds_are_fresh_whole_numbers():
    seeds = {draw_seed() for _ in range(5)}
    assert len(seeds) > 1 and all(0 <= s < 2**32 for s in seeds)


def test_a_battle_seeded_by_rng_or_seed_is_the_same_battle():
    from sim.battle.battle import Battle
    from sim.scenario import load_scenario

    sc = load_scenario(Path(__file__).resolve().parents[1] / "scenarios" / "skirmish.yaml")
    for seed in range(40):
        logs = []
        for kw in ({"seed": seed}, {"rng": seed}, {"rng": generator(seed)}):
            b = Battle(sc, events=True, **kw)
            b.run()
            logs.append(b.log)
        assert logs[0] == logs[1] == logs[2], seed
