import pickle

import pytest

from sim import systems
from sim.errors import SimError
from sim.scenario import FighterSpec, FrozenDict, Goal, Scenario, Side


def two_sides(**kw):
    return Scenario(
        sides=(Side("red", (FighterSpec("a"),)), Side("blue", (FighterSpec("b"),))), **kw
    )


def test_scenarios_are_frozen_hashable_and_picklable():
    sc = two_sides(options={"damage": "weapon_d8"})
    with pytest.raises(AttributeError):
        sc.max_rounds = 3  # type: ignore[misc]
    with pytest.raises(TypeError):
        sc.options["damage"] = "hd_sum"  # type: ignore[index]
    assert isinstance(sc.options, FrozenDict)
    assert pickle.loads(pickle.dumps(sc)) == sc
    assert hash(sc) == hash(pickle.loads(pickle.dumps(sc)))


def test_mirrored_swaps_the_sides():
    sc = two_sides()
    assert [s.name for s in sc.mirrored().sides] == ["blue", "red"]
    assert sc.mirrored().mirrored() == sc


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: Scenario(sides=(Side("red", (FighterSpec("a"),)),)), "two sides"),
        (lambda: two_sides(max_rounds=0), "max_rounds"),
        (lambda: FighterSpec("x", hit_dice=0), "hit_dice"),
        (lambda: FighterSpec(""), "name"),
        (lambda: Goal("defend"), "goal kind"),
        (
            lambda: Scenario(
                sides=(Side("red", (FighterSpec("a"),)), Side("red", (FighterSpec("b"),)))
            ),
            "differ",
        ),
    ],
)
def test_bad_specs_are_clear_errors(build, message):
    with pytest.raises(SimError, match=message):
        build()


def test_renamed_keeps_the_stat_block():
    f = FighterSpec("levy", hit_dice=3, armor=("gambeson",))
    g = f.renamed("levy 2")
    assert g.name == "levy 2" and g.hit_dice == 3 and g.armor == ("gambeson",)


# --------------------------------------------------------------------------- built once
def test_option_groups_and_tactics_are_built_once_and_shared_by_battles():
    from sim.battle.battle import Battle

    sc = two_sides(options={"pool": "headcount"}, battle={"d6_difficulty": 12})
    first, second = Battle(sc, seed=1), Battle(sc, seed=2)
    wargame = systems.get("wargame")
    assert first.options is second.options is sc.rule_options(wargame)
    assert sc.rule_options(wargame).pool == "headcount"
    assert first.frame is sc.frame_options(wargame) is first.options  # War Game: its own
    assert first.opts is second.opts is sc.battle_options
    assert sc.battle_options.d6_difficulty == 12
    assert first.sides["red"].tactic is second.sides["red"].tactic is sc.side_tactic("red")


def test_battle_overrides_rebuild_and_leave_the_scenario_alone():
    from sim.battle.battle import Battle

    sc = two_sides(rules="d6", frame={"morale_compare": "fixed"})
    b = Battle(sc, seed=1, options={"halve_round": "up"}, battle={"d6_difficulty": 15})
    d6 = systems.get("d6")
    assert b.options.halve_round == "up" and sc.rule_options(d6).halve_round != "up"
    assert b.opts.d6_difficulty == 15 and sc.battle_options.d6_difficulty == 10
    assert b.frame == sc.frame_options(d6) and b.frame.morale_compare == "fixed"


def test_built_groups_do_not_change_equality_hash_or_pickling():
    sc = two_sides(options={"damage": "weapon_d8"})
    before = hash(sc)
    wargame = systems.get("wargame")
    assert sc.rule_options(wargame).damage == "weapon_d8"
    assert sc.side_tactic("blue").name == "balanced"
    assert hash(sc) == before and sc == two_sides(options={"damage": "weapon_d8"})
    copy = pickle.loads(pickle.dumps(sc))
    assert copy == sc and copy.rule_options(wargame) == sc.rule_options(wargame)
    assert "built" not in repr(sc)


@pytest.mark.parametrize(
    ("kw", "message"),
    [
        ({"options": {"pool": "everyone"}}, "rules.options.pool: 'everyone' is not one of"),
        ({"frame": {"morale_compare": "fixed"}}, "frame: War Game frame options go in"),
        ({"battle": {"morale": "some"}}, "battle.morale: 'some' is not one of"),
    ],
)
def test_bad_groups_raise_when_first_asked_for_each_time(kw, message):
    from sim.battle.battle import Battle

    sc = two_sides(**kw)  # a hand-made scenario is checked when its groups are built
    for _ in range(2):
        with pytest.raises(SimError, match=message):
            Battle(sc, seed=1)
