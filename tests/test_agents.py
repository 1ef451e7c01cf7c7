import gc
import weakref

from sim.battle.battle import Battle
from sim.frame.agents import Fighter
from sim.rules.common import Status
from sim.scenario import DeathwishStats, FighterSpec, Scenario, Side


def test_a_fighter_holds_state_for_every_system():
    spec = FighterSpec(
        "Bran",
        hit_dice=5,
        armor=("chain", "piecemeal:2"),
        fights=12,
        body=6,
        strength=6,
        deathwish=DeathwishStats(weapon="AKM"),
    )
    sc = Scenario(
        sides=(Side("red", (spec,), leader="Bran"), Side("blue", (FighterSpec("Osk"),))),
        rules="deathwish",
    )
    b = Battle(sc, seed=1)
    f = b.sides["red"].fighters[0]
    assert isinstance(f, Fighter) and f.leader and f.status == Status.ACTIVE
    assert f.wg.hit_dice == 5 and f.wg.armor_max == 6 + 4
    assert f.tier.name == "VETERAN"
    assert f.state.weapon.name == "AKM" and f.state.thresholds.serious == 6


def test_finished_battles_are_not_kept_alive_by_agent_ids():
    sc = Scenario(sides=(Side("red", (FighterSpec("a"),)), Side("blue", (FighterSpec("b"),))))
    refs = []
    for seed in range(20):
        b = Battle(sc, seed=seed)
        b.run()
        refs.append(weakref.ref(b))
        del b
    gc.collect()
    assert sum(r() is not None for r in refs) == 0
