"""Scripted "versus" tests of the War Game frame (RULES.md 1), with forced dice."""

import re
from dataclasses import replace

import pytest

from sim.battle.battle import END_REASONS, Battle, run_battle
from sim.errors import SimError
from sim.rules.common import Status
from sim.scenario import (
    Event,
    FactorSpec,
    FighterSpec,
    Goal,
    Scenario,
    Side,
    TacticSpec,
)
from sim.systems import common
from sim.systems import twowp as twowp_sys
from sim.systems import wargame as wgsys
from tests.conftest import ScriptedRng


def fighters(prefix, n, **kw):
    return tuple(FighterSpec(f"{prefix}{i}", **kw) for i in range(n))


def duel(attacker, target, *, tactic_a="balanced", params_a=None, params_b=None, **kw):
    return Scenario(
        sides=(
            Side("red", (attacker,), tactic=TacticSpec(tactic_a, params_a or {})),
            Side("blue", (target,), tactic=TacticSpec("balanced", params_b or {})),
        ),
        **kw,
    )


def by_name(b, name):
    return next(f for f in b.all_fighters() if f.name == name)


def test_mighty_attack_takes_one_hd_through_full_armor():
    sc = duel(
        FighterSpec("A", hit_dice=4),
        FighterSpec("B", hit_dice=4, armor=("plate",)),
        params_a={"mighty": "always"},
        params_b={"dodge": "never"},
    )
    b = Battle(sc, seed=1, events=True)
    a, t = by_name(b, "A"), by_name(b, "B")
    assert t.wg.armor_pool == 8
    b.rng = ScriptedRng([1, 1])  # 2d8 = 2 damage
    wgsys.attack(b, a, t)
    assert t.wg.armor_pool == 6  # the pool absorbed the 2
    assert t.wg.hit_dice == 3  # and the mighty attack took 1 HD anyway
    assert a.wg.mighty_attack_pending  # no dodging until its next turn


def test_cover_stops_standard_ranged_damage():
    sc = duel(
        FighterSpec("A", weapon="warbow"),
        FighterSpec("B"),
        params_a={"mighty": "never"},
        params_b={"dodge": "never"},
        factors=(FactorSpec("cover", "building wall"),),
    )
    b = Battle(sc, seed=1, events=True)
    a, t = by_name(b, "A"), by_name(b, "B")
    b.cover_until[t.unique_id] = b.round + 1
    b.rng = ScriptedRng([8, 8])
    wgsys.attack(b, a, t)
    assert t.wg.hit_dice == 4 and t.wounds_taken == 0
    # without cover the same warbow wounds directly
    b.cover_until.clear()
    b.rng = ScriptedRng([8, 8])
    wgsys.attack(b, a, t)
    assert t.wg.hit_dice == 3


def test_fog_gives_no_real_protection():
    sc = duel(
        FighterSpec("A", weapon="warbow"),
        FighterSpec("B"),
        params_a={"mighty": "never"},
        params_b={"dodge": "never"},
        factors=(FactorSpec("cover", "fog"),),
    )
    b = Battle(sc, seed=1)
    a, t = by_name(b, "A"), by_name(b, "B")
    b.cover_until[t.unique_id] = b.round + 1
    wgsys.attack(b, a, t)
    assert t.wg.hit_dice == 3


def test_weak_cover_protects_makes_fog_stop_arrows():
    sc = duel(
        FighterSpec("A", weapon="warbow"),
        FighterSpec("B"),
        params_a={"mighty": "never"},
        params_b={"dodge": "never"},
        factors=(FactorSpec("cover", "fog"),),
        options={"weak_cover": "protects"},
    )
    b = Battle(sc, seed=1, events=True)
    a, t = by_name(b, "A"), by_name(b, "B")
    b.cover_until[t.unique_id] = b.round + 1
    wgsys.attack(b, a, t)
    assert t.wg.hit_dice == 4 and t.wounds_taken == 0
    assert b.log[-1]["result"].endswith("cover: no damage")


@pytest.mark.parametrize(("weak_cover", "taken"), [("table", None), ("protects", "fog")])
def test_fighters_take_cover_in_fog_only_where_it_protects(weak_cover, taken):
    sc = duel(
        FighterSpec("A", weapon="warbow"),
        FighterSpec("B"),
        factors=(FactorSpec("cover", "fog"),),
        options={"weak_cover": weak_cover},
    )
    b = Battle(sc, seed=1)
    cover = common.take_cover(b, by_name(b, "B"))
    assert (cover.name if cover else None) == taken


def test_dodge_avoids_the_attack_for_one_hd():
    sc = duel(FighterSpec("A"), FighterSpec("B"), params_a={"mighty": "never"})
    b = Battle(sc, seed=1)
    a, t = by_name(b, "A"), by_name(b, "B")
    b.rng = ScriptedRng([8, 8])
    wgsys.attack(b, a, t)
    assert t.wg.hit_dice == 4 and t.wg.spendable == 3  # dodged, 1 HD spent


def test_wound_on_one_hd_takes_the_target_out():
    sc = duel(
        FighterSpec("A"),
        FighterSpec("B", hit_dice=1),
        params_a={"mighty": "never"},
        params_b={"dodge": "never"},
    )
    b = Battle(sc, seed=1)
    a, t = by_name(b, "A"), by_name(b, "B")
    b.rng = ScriptedRng([3, 4])
    wgsys.attack(b, a, t)
    assert t.status == Status.INCAPACITATED and t.wg.hit_dice == 0
    b.check_end()
    assert b.ended and b.winner == "red" and b.end_reason == "defeat"


def test_half_a_side_down_triggers_a_morale_check():
    sc = Scenario(sides=(Side("red", fighters("r", 2)), Side("blue", fighters("b", 2))))
    b = Battle(sc, seed=1, events=True)
    b.rng = ScriptedRng([8])  # morale d8 = 8: every fighter with 8 HD or fewer flees
    b.set_status(by_name(b, "r0"), Status.INCAPACITATED)  # the check comes at once
    assert by_name(b, "r1").status == Status.FLEEING
    morale = [e for e in b.log if e["action"] == "morale"]
    assert morale and morale[0]["actor"] == "red" and "half_out" in morale[0]["result"]
    # each trigger fires once per side
    b.check_triggers()
    assert len([e for e in b.log if e["action"] == "morale"]) == 1


def test_morale_roll_below_hd_holds():
    sc = Scenario(sides=(Side("red", fighters("r", 2, hit_dice=5)), Side("blue", fighters("b", 2))))
    b = Battle(sc, seed=1)
    b.rng = ScriptedRng([4])  # 4 < 5 HD: holds
    b.set_status(by_name(b, "r0"), Status.INCAPACITATED)
    assert by_name(b, "r1").status == Status.ACTIVE


def test_fixed_morale_uses_resolve():
    red = (FighterSpec("r0"), FighterSpec("r1", resolve=7), FighterSpec("r2", resolve=2))
    sc = Scenario(
        sides=(Side("red", red), Side("blue", fighters("b", 2))),
        options={"morale_compare": "fixed"},
    )
    b = Battle(sc, seed=1)
    b.rng = ScriptedRng([5])
    b.morale_check(b.sides["red"], "test")
    assert [f.status for f in b.sides["red"].fighters] == [
        Status.FLEEING,
        Status.ACTIVE,
        Status.FLEEING,
    ]  # resolve 4, 7, 2 against a 5


def test_leader_down_triggers_morale():
    sc = Scenario(
        sides=(Side("red", fighters("r", 4), leader="r0"), Side("blue", fighters("b", 2)))
    )
    b = Battle(sc, seed=1, events=True)
    b.rng = ScriptedRng([1])
    b.set_status(by_name(b, "r0"), Status.INCAPACITATED)
    assert any("leader_out" in e["result"] for e in b.log if e["action"] == "morale")


def test_two_quiet_rounds_trigger_morale_for_every_side():
    sc = Scenario(sides=(Side("red", fighters("r", 2)), Side("blue", fighters("b", 2))))
    b = Battle(sc, seed=1, events=True)
    for _ in range(2):
        b.harm_this_round = False
        b._end_round()
    quiet = [e for e in b.log if e["action"] == "morale" and "quiet_rounds" in e["result"]]
    assert {e["actor"] for e in quiet} == {"red", "blue"}


def test_fleeing_fighter_leaves_the_field_after_its_turn():
    sc = Scenario(sides=(Side("red", fighters("r", 2)), Side("blue", fighters("b", 2))))
    b = Battle(sc, seed=1)
    f = by_name(b, "r0")
    from sim.rules import wargame

    f.wg = wargame.start_fleeing(f.wg)
    b.set_status(f, Status.FLEEING)
    b.take_turn(f)
    assert f.status == Status.FLED


def test_leader_killing_leaves_the_faction_with_one_hd():
    red = fighters("r", 6, hit_dice=4)
    blue = fighters("b", 6, hit_dice=4)
    sc = Scenario(
        sides=(
            Side("red", red, leader="r0", tactic=TacticSpec("focus_leader")),
            Side("blue", blue, leader="b0"),
        ),
        battle={"large_scale": "pools"},
        options={"pool": "literal"},  # the seed read literally
    )
    b = Battle(sc, seed=1, events=True)
    assert b.large  # 12 > 10: large scale
    # initiative: red's leader 8, blue's 1; leader killing d8 = 7
    b.rng = ScriptedRng([8, 1, 7])
    b.step()
    assert by_name(b, "b0").status == Status.INCAPACITATED
    blue_row = [r for r in b.round_rows if r["side"] == "blue"][-1]
    assert blue_row["pool_hd"] == 1
    assert sum(1 for f in b.sides["blue"].fighters if f.status == Status.INCAPACITATED) == 4


def test_failed_leader_killing_costs_the_attackers_hd():
    sc = Scenario(
        sides=(
            Side(
                "red", fighters("r", 6, hit_dice=8), leader="r0", tactic=TacticSpec("focus_leader")
            ),
            Side("blue", fighters("b", 6), leader="b0"),
        ),
        battle={"large_scale": "pools"},
        options={"pool": "literal"},  # the seed read literally
    )
    b = Battle(sc, seed=1, events=True)
    b.rng = ScriptedRng([8, 1, 4])  # red first; leader killing d8 = 4: 3 short of 7
    b.step()
    red_row = [r for r in b.round_rows if r["side"] == "red"][-1]
    assert red_row["pool_hd"] == 8 - 3
    assert sum(1 for f in b.sides["red"].fighters if f.status == Status.INCAPACITATED) == 3
    assert by_name(b, "b0").status == Status.ACTIVE


def test_reinforcements_lift_to_large_scale_and_losses_drop_it_back():
    red = fighters("r", 6, hit_dice=8, armor=("plate",))
    blue = fighters("b", 4, hit_dice=8, armor=("plate",))
    extra = fighters("x", 1, hit_dice=8, armor=("plate",))
    careful = TacticSpec(
        "balanced", {"reserve": 6, "all_in_last": False, "mighty": "never", "dodge": "never"}
    )
    sc = Scenario(
        sides=(
            Side("red", red, leader="r0", tactic=careful),
            Side("blue", blue, leader="b0", tactic=careful),
        ),
        events=(Event(2, "reinforce", side="red", fighters=extra),),
    )
    b = Battle(sc, seed=3, events=True)
    assert not b.large  # 10 is small scale
    b.step()
    assert b.standing() == 10  # one attack each against 8 HD and plate: nobody is out
    b.step()
    assert b.round_rows[-1]["scale"] == "large"  # 11 > 10
    b.run()
    scales = [r["scale"] for r in b.round_rows if r["side"] == "red"]
    assert scales[0] == "small" and scales[1] == "large" and "small" in scales[2:]
    assert b.scale_switches >= 2
    assert len(b.fighters_frame()) == 11


def test_faction_pool_averages_hd_and_armor():
    red = (
        FighterSpec("r0", hit_dice=3),
        *fighters("r", 5, hit_dice=6)[1:],
        FighterSpec("r9", hit_dice=4),
    )
    sc = Scenario(
        sides=(Side("red", red), Side("blue", fighters("b", 6))),
        battle={"large_scale": "pools"},
        options={"pool": "literal"},
    )
    b = Battle(sc, seed=1)
    b._start_round()
    # HD 3, 6, 6, 6, 6, 4: average 31/6 = 5.17 -> 5
    assert b.sides["red"].pool.hit_dice == 5
    headcount = replace(sc, options={"pool": "headcount"})
    b2 = Battle(headcount, seed=1)
    b2._start_round()
    assert b2.sides["red"].pool.hit_dice == 6


def test_protect_goal_fails_when_the_ward_falls():
    red = (FighterSpec("king", hit_dice=1), FighterSpec("guard"))
    sc = Scenario(
        sides=(
            Side("red", red, goals=(Goal("protect", target="king"),)),
            Side("blue", fighters("b", 3)),
        )
    )
    b = Battle(sc, seed=1)
    b.set_status(by_name(b, "king"), Status.INCAPACITATED)
    b.check_end()
    assert b.ended and b.winner == "blue" and b.end_reason == "goal_failed"


def test_hold_goal_wins_after_n_rounds():
    sc = Scenario(
        sides=(
            Side("red", fighters("r", 2), goals=(Goal("hold", rounds=3),)),
            Side("blue", fighters("b", 2)),
        )
    )
    b = Battle(sc, seed=2)
    for r in (1, 2):
        b.round = r
        b._update_goals()
        assert not b.ended
    b.round = 3
    b._update_goals()
    assert b.ended and b.winner == "red" and b.end_reason == "goal_achieved"


def test_destroy_goal_wears_down_toughness():
    sc = Scenario(
        sides=(
            Side(
                "red",
                fighters("r", 2, hit_dice=6),
                goals=(Goal("destroy", toughness=10),),
                tactic=TacticSpec("balanced", {"objective_share": 1.0}),
            ),
            Side("blue", fighters("b", 2, hit_dice=8, armor=("plate",))),
        )
    )
    b = Battle(sc, seed=4, events=True)
    out = b.run()
    hits = [e for e in b.log if e["action"] == "attacks the object"]
    assert hits and out.winner == "red" and out.end_reason == "goal_achieved"


def test_take_and_hold_needs_the_majority_for_n_rounds():
    sc = Scenario(
        sides=(
            Side("red", fighters("r", 3), goals=(Goal("take_and_hold", rounds=2),)),
            Side("blue", fighters("b", 3)),
        )
    )
    b = Battle(sc, seed=5)
    b.round = 1
    b._update_goals()  # 3 against 3: not held
    b.set_status(by_name(b, "b0"), Status.FLED)
    for r in (2, 3):
        b.round = r
        b._update_goals()
        assert b.ended == (r == 3)
    assert b.winner == "red" and b.end_reason == "goal_achieved"


def test_max_rounds_is_a_draw():
    sc = Scenario(
        sides=(
            Side("red", fighters("r", 2, hit_dice=8, armor=("plate",))),
            Side("blue", fighters("b", 2, hit_dice=8, armor=("plate",))),
        ),
        max_rounds=1,
    )
    out = Battle(sc, seed=1).run()
    assert out.winner is None and out.end_reason == "max_rounds" and out.rounds == 1


def test_popcorn_everyone_in_the_fight_acts_once_a_round():
    sc = Scenario(
        sides=(
            Side("red", fighters("r", 3, hit_dice=6, armor=("plate",))),
            Side("blue", fighters("b", 3, hit_dice=6, armor=("plate",))),
        )
    )
    b = Battle(sc, seed=8, events=True)
    b.step()
    assert all(f.acted for f in b.all_fighters() if f.in_fight)
    actors = [e["actor"] for e in b.log if e["action"] in ("attack", "mighty attack")]
    assert len(set(actors)) >= 4  # a fighter that spent its HD dodging has none left to attack


def test_the_last_actor_names_the_first_of_the_next_round():
    sc = Scenario(
        sides=(
            Side("red", fighters("r", 2, hit_dice=6, armor=("plate",))),
            Side("blue", fighters("b", 2, hit_dice=6, armor=("plate",))),
        )
    )
    b = Battle(sc, seed=8)
    b.step()
    assert b.next_first is not None and b.next_first.in_fight


@pytest.mark.parametrize("rules", ["wargame", "2w2p", "deathwish", "d6"])
def test_every_system_fights_to_an_end(rules):
    kw = {"deathwish": combat_stats()} if rules == "deathwish" else {}
    sc = Scenario(
        sides=(
            Side("red", fighters("r", 3, fights=3, **kw), leader="r0"),
            Side("blue", fighters("b", 3, fights=3, **kw), leader="b0"),
        ),
        rules=rules,
    )
    b = run_battle(sc, seed=11, events=True)
    out = b.outcome()
    assert out.end_reason in END_REASONS
    assert list(b.narrative())
    data = out.to_dict()
    assert set(data) >= {"winner", "end_reason", "rounds", "scale_switches", "sides"}
    for side in data["sides"].values():
        assert {"active", "dead", "incapacitated", "leader_status"} <= set(side)


def combat_stats():
    from sim.scenario import DeathwishStats

    return DeathwishStats(weapon="M1911")


def test_2w2p_fight_counts_grow_for_survivors():
    sc = Scenario(
        sides=(Side("red", fighters("r", 3, fights=2)), Side("blue", fighters("b", 3, fights=2))),
        rules="2w2p",
    )
    b = run_battle(sc, seed=5)
    frame = b.fighters_frame()
    alive = frame[frame.status != "dead"]
    assert (alive.fights_after == 3).all()
    assert (alive.tier_after == "tested").all()  # Fresh after 2 fights, Tested after the 3rd


def test_2w2p_fronts_roll_at_once():
    sc = Scenario(
        sides=(Side("red", fighters("r", 1, fights=10)), Side("blue", fighters("b", 1, fights=10))),
        rules="2w2p",
    )
    b = Battle(sc, seed=1, events=True)
    # Veteran: 3 dice each. red rolls 6,6,6 (3 felling); blue rolls 5,1,1 (1 felling)
    b.rng = ScriptedRng([6, 6, 6, 5, 1, 1])
    b.step()
    assert by_name(b, "r0").status == Status.INCAPACITATED
    assert by_name(b, "b0").status == Status.INCAPACITATED
    assert b.ended and b.winner is None and b.end_reason == "mutual_defeat"


def test_deathwish_attack_uses_to_hit_then_damage_then_wound_level():
    from sim.scenario import DeathwishStats

    sc = duel(
        FighterSpec("A", deathwish=DeathwishStats(weapon="Glock 20")),
        FighterSpec("B"),
        rules="deathwish",
        params_a={"cover": False},
    )
    b = Battle(sc, seed=1, events=True)
    a, t = by_name(b, "A"), by_name(b, "B")
    # to-hit d10 = 3 (<= skill 5); damage 2d10 = 6 and 4 (both <= lethality 6): 10 = critical
    b.rng = ScriptedRng([3, 6, 4])
    b.take_turn(a)
    assert t.state.wounds == ["critical"]
    assert t.status in (Status.INCAPACITATED, Status.DEAD)


def test_deathwish_miss_does_nothing():
    from sim.scenario import DeathwishStats

    sc = duel(
        FighterSpec("A", deathwish=DeathwishStats(weapon="M2HB")),
        FighterSpec("B"),
        rules="deathwish",
        params_a={"cover": False},
    )
    b = Battle(sc, seed=1)
    a, t = by_name(b, "A"), by_name(b, "B")
    b.rng = ScriptedRng([6])  # 6 > skill 5: a miss
    b.take_turn(a)
    assert t.state.wounds == [] and t.status == Status.ACTIVE


def _shot_at_random_location(target_armor, script):
    from sim.scenario import DeathwishStats

    sc = duel(
        FighterSpec("A", deathwish=DeathwishStats(weapon="Glock 20")),
        FighterSpec("B", deathwish=DeathwishStats(armor=target_armor)),
        rules="deathwish",
        battle={"deathwish_location": "random"},
        params_a={"cover": False},
    )
    b = Battle(sc, seed=1, events=True)
    b.rng = ScriptedRng(script)
    b.take_turn(by_name(b, "A"))
    (shot,) = [e for e in b.log if e["action"] == "shoots"]
    return shot


@pytest.mark.parametrize(
    ("location", "want"),
    [
        # Glock 20: Penetration 2, Lethality 6; damage dice 6 and 4; B has TT 5 (1/3/5/10).
        (0, "head, damage 10: critical wound"),  # no vest on the head: 2 dice <= 8
        (1, "vitals, damage 6: serious wound"),  # the vest takes a die: 1 die, 6 <= 8
        (2, "limb, damage 4: moderate wound"),  # no vest on a limb: 2 dice <= 4, only the 4
        (6, "torso, damage 6: serious wound"),  # the vest takes a die: 1 die, 6 <= 6
    ],
)
def test_deathwish_vest_counts_only_on_torso_and_vitals(location, want):
    # to-hit d10 = 3 (<= skill 5); hit location d10 index; then the damage dice 6 and 4
    shot = _shot_at_random_location("light vest", [3, location, 6, 4])
    assert shot["result"].startswith(want)


def test_deathwish_head_hit_on_a_vest_loses_no_die_but_a_helmet_takes_them():
    from sim.rules.deathwish import WornArmor

    vest = _shot_at_random_location(WornArmor(torso=1, vitals=1), [3, 0, 6, 4])
    assert (vest["dice"], vest["result"]) == (
        "2d10 <= 8",
        "head, damage 10: critical wound, incapacitated",
    )
    helmet = _shot_at_random_location(WornArmor(head=2, torso=1, vitals=1), [3, 0, 6, 4])
    assert (helmet["dice"], helmet["result"]) == ("2d10 <= 8", "head, damage 0: no wound")


def test_deathwish_untreated_critical_kills_after_five_rounds():
    sc = duel(FighterSpec("A"), FighterSpec("B"), rules="deathwish")
    b = Battle(sc, seed=1)
    t = by_name(b, "B")
    t.state.bleeding_out = 5
    t.status = Status.INCAPACITATED
    for _ in range(4):
        b.system.end_of_round(b)
    assert t.status == Status.INCAPACITATED
    b.system.end_of_round(b)
    assert t.status == Status.DEAD


def test_d6_tie_goes_to_the_defender():
    from sim.scenario import D6Stats

    sc = duel(
        FighterSpec("A", d6=D6Stats(attack="1D")),
        FighterSpec("B", d6=D6Stats(dodge="1D")),
        rules="d6",
        params_a={"cover": False, "called_shot": "never"},  # no difficulty die
        battle={"d6_difficulty": 0},
    )
    b = Battle(sc, seed=1)
    a, t = by_name(b, "A"), by_name(b, "B")
    b.rng = ScriptedRng([4, 4])  # B's dodge 4, A's attack 4: a tie misses
    b.take_turn(a)
    assert t.state.condition.tier.value == "none" and t.wounds_taken == 0


def test_d6_hit_rolls_damage_against_body():
    from sim.scenario import D6Stats

    sc = duel(
        FighterSpec("A", d6=D6Stats(attack="1D", damage="2D")),
        FighterSpec("B", d6=D6Stats(dodge="1D", strength="1D", dexterity="1D")),
        rules="d6",
        params_a={"cover": False},
        battle={"d6_difficulty": 0},
    )
    b = Battle(sc, seed=1)
    a, t = by_name(b, "A"), by_name(b, "B")
    # dodge 1, attack 6 (hit); damage 6+6 = 12 against body 1D = 1: difference 11, incapacitated
    b.rng = ScriptedRng([1, 6, 6, 6, 1])
    b.take_turn(a)
    assert t.state.condition.tier.value == "incapacitated"
    assert t.status == Status.INCAPACITATED


def test_leader_must_be_a_fighter_of_the_side():
    sc = Scenario(
        sides=(Side("red", fighters("r", 2), leader="bob"), Side("blue", fighters("b", 2)))
    )
    with pytest.raises(SimError, match="leader"):
        Battle(sc, seed=1)


def test_unknown_tactic_suggests_a_name():
    sc = Scenario(
        sides=(
            Side("red", fighters("r", 2), tactic=TacticSpec("agressive")),
            Side("blue", fighters("b", 2)),
        )
    )
    with pytest.raises(SimError, match="did you mean 'aggressive'"):
        Battle(sc, seed=1)


def test_a_battle_needs_a_seed():
    sc = Scenario(sides=(Side("red", fighters("r", 1)), Side("blue", fighters("b", 1))))
    with pytest.raises(SimError, match="seed"):
        Battle(sc)


def test_frames_for_notebooks():
    sc = Scenario(sides=(Side("red", fighters("r", 2)), Side("blue", fighters("b", 2))))
    b = run_battle(sc, seed=3, events=True)
    assert {"round", "side", "scale", "active", "hd"} <= set(b.rounds_frame().columns)
    assert len(b.fighters_frame()) == 4
    assert list(b.events_frame().columns) == [
        "round",
        "actor",
        "action",
        "target",
        "dice",
        "result",
    ]
    assert Battle(sc, seed=3).run().to_dict() == b.outcome().to_dict()


def test_options_override_the_scenario_for_one_run():
    sc = Scenario(sides=(Side("red", fighters("r", 6)), Side("blue", fighters("b", 6))))
    b = Battle(sc, seed=1, options={"pool": "headcount"})
    assert b.options.pool == "headcount" and sc.options == {}
    with pytest.raises(SimError, match="rules.options.pool"):
        Battle(sc, seed=1, options={"pool": "everyone"})
    assert Battle(sc, seed=1, battle={"d6_difficulty": 15}).opts.d6_difficulty == 15


def test_acting_out_of_turn_costs_one_hd_and_goes_first():
    sc = Scenario(
        sides=(
            Side("red", fighters("r", 2, hit_dice=6, armor=("plate",))),
            Side("blue", fighters("b", 2, hit_dice=6, armor=("plate",))),
        ),
        options={"act_out_of_turn": True},
    )
    b = Battle(sc, seed=8, events=True)
    b.step()
    jumps = [e for e in b.log if e["action"] == "acts out of turn"]
    assert jumps
    off = Battle(replace(sc, options={}), seed=8, events=True)
    off.step()
    assert not [e for e in off.log if e["action"] == "acts out of turn"]


def test_savvy_second_digit_replaces_the_dex_modifier():
    sc = Scenario(
        sides=(
            Side("red", (FighterSpec("r", armor=("doublet",), savvy=47),)),
            Side("blue", fighters("b", 1)),
        )
    )
    b = Battle(sc, seed=1)
    assert by_name(b, "r").wg.armor_max == 2 + 7


def test_a_rolled_factor_comes_from_its_d8_table_with_the_battle_seed():
    sc = Scenario(
        sides=(Side("red", fighters("r", 1)), Side("blue", fighters("b", 1))),
        factors=(FactorSpec("cover"),),
    )
    names = {Battle(sc, seed=s).factors[0].name for s in range(40)}
    assert len(names) > 3 and all(isinstance(n, str) for n in names)
    assert Battle(sc, seed=5).factors == Battle(sc, seed=5).factors


def test_distraction_stops_the_target_spending_hd_this_round():
    sc = duel(
        FighterSpec("A", hit_dice=6),
        FighterSpec("B", inventory_slots=0),  # nothing to block with
        params_a={"distract": True, "hazard": False, "mighty": "never"},
        factors=(FactorSpec("distraction", "sand"),),
    )
    b = Battle(sc, seed=1, events=True)
    a, t = by_name(b, "A"), by_name(b, "B")
    assert wgsys.invoke_factor(b, a, t)
    assert t.wg.distracted and a.wg.spendable == 4  # a maneuver: 2 HD
    b.rng = ScriptedRng([8, 8])
    wgsys.attack(b, a, t)  # B would dodge 16 damage, but cannot spend HD
    assert t.wg.hit_dice == 3
    assert not wgsys.invoke_factor(b, a, t)  # once per target
    b._end_round()
    assert not t.wg.distracted


def test_hazard_push_is_a_contest_and_costs_one_hd_and_the_armor():
    sc = duel(
        FighterSpec("A", hit_dice=6, strength=5),
        FighterSpec("B", armor=("chain",)),
        params_b={"dodge": "never"},  # B does not spend 1 HD to survive the hazard's wound
        factors=(FactorSpec("hazard", "tangle"),),
    )
    b = Battle(sc, seed=1, events=True)
    a, t = by_name(b, "A"), by_name(b, "B")
    b.rng = ScriptedRng([8, 1])  # attacker d8 8 + 5 against defender d8 1 + 5
    assert wgsys.invoke_factor(b, a, t)
    assert t.wg.hit_dice == 3 and t.wg.spendable == 3  # 1 HD resisting, 1 HD lost
    assert t.wg.exposed and t.wg.subdued  # armor 0 this round; tangle subdues
    b.rng = ScriptedRng([1, 8])  # a tie or loss goes to the defender: no effect
    t.wg = replace(t.wg, stuck_in=None)
    wgsys.invoke_factor(b, a, t)
    assert t.wg.hit_dice == 3


# --------------------------------------------------------------------------- issue 14: the frame
def _flee(b, f):
    from sim.rules import wargame

    f.wg = wargame.start_fleeing(f.wg)
    b.set_status(f, Status.FLEEING)


def test_a_rout_on_both_sides_is_a_draw_at_once():
    sc = Scenario(sides=(Side("red", fighters("r", 2)), Side("blue", fighters("b", 1))))
    b = Battle(sc, seed=1)
    for f in b.sides["red"].fighters:
        _flee(b, f)
    assert not b.ended  # red is routed, but blue still holds the field
    _flee(b, by_name(b, "b0"))
    assert b.ended and b.winner is None and b.end_reason == "mutual_rout"
    assert all(f.status == Status.FLEEING for f in b.all_fighters())  # nobody had to act


def test_with_rout_field_the_side_left_holding_the_field_wins():
    sc = Scenario(
        sides=(Side("red", fighters("r", 2)), Side("blue", fighters("b", 1))),
        battle={"rout": "field"},
    )
    b = Battle(sc, seed=1)
    _flee(b, by_name(b, "r0"))
    assert not b.ended
    _flee(b, by_name(b, "r1"))
    assert b.ended and b.winner == "blue" and b.end_reason == "defeat"


def _withdraw_battle(roll, hds=(2, 2, 6, 6), **battle):
    """Red (HD ``hds``) against two blue fighters; red checks morale with the d8 ``roll``."""
    reds = tuple(FighterSpec(f"r{i}", hit_dice=hd) for i, hd in enumerate(hds))
    sc = Scenario(sides=(Side("red", reds), Side("blue", fighters("b", 2))), battle=battle)
    b = Battle(sc, seed=1)
    b.rng = ScriptedRng([roll], fallback_seed=2)
    b.morale_check(b.sides["red"], "half_out")
    return b, [f.status for f in b.sides["red"].fighters]


def test_a_broken_side_withdraws_in_order_with_the_house_rule():
    b, red = _withdraw_battle(8, withdraw="broken", pursuit=0)
    assert red == [Status.FLED] * 4  # every one leaves the field at once, nobody caught
    assert b.ended and b.winner == "blue" and b.end_reason == "defeat"
    b, red = _withdraw_battle(8, withdraw="broken", pursuit=1)
    assert red == [Status.SURRENDERED] * 4  # the pursuit catches every one
    assert b.winner == "blue"


def test_a_side_not_broken_or_without_the_rule_routs_as_the_seeds_say():
    b, red = _withdraw_battle(3, withdraw="broken", withdraw_share=0.75)  # 2 of 4 flee: not broken
    assert red == [Status.FLEEING, Status.FLEEING, Status.ACTIVE, Status.ACTIVE]
    assert not b.ended
    b, red = _withdraw_battle(3, withdraw="broken")  # 2 of 4 is half: broken at 0.5
    assert Status.ACTIVE not in red and not any(s == Status.FLEEING for s in red)
    b, red = _withdraw_battle(8)  # the default: everyone flees, fighter by fighter
    assert red == [Status.FLEEING] * 4 and not b.ended


def test_withdraw_options_are_checked_with_their_field():
    with pytest.raises(SimError, match=r"battle\.withdraw: 'retreat' is not one of"):
        _withdraw_battle(8, withdraw="retreat")
    with pytest.raises(SimError, match=r"battle\.pursuit: 2 is out of range 0\.\.1"):
        _withdraw_battle(8, withdraw="broken", pursuit=2)


def test_a_mutual_rout_is_not_decided_by_who_acts_first():
    """Both sides flee in the quiet-rounds check: the same draw whichever side rolled first."""
    for first in ("red", "blue"):
        names = [first, "blue" if first == "red" else "red"]
        sc = Scenario(sides=tuple(Side(n, fighters(n[0], 2)) for n in names))
        b = Battle(sc, seed=1, events=True)
        b.rng = ScriptedRng([8, 8])  # both sides' morale d8 = 8: everyone flees
        for _ in range(2):
            b.harm_this_round = False
            b._end_round()
        assert b.ended and b.winner is None and b.end_reason == "mutual_rout", first


def test_morale_is_rolled_the_moment_the_trigger_is_met():
    """Half of blue falls to the first of red's two attacks: blue's morale roll comes before
    red's second attack (RULES.md 1.8, "immediately")."""
    sc = duel(
        FighterSpec("A", hit_dice=4),
        FighterSpec("B", hit_dice=1),
        params_a={"reserve": 0, "mighty": "never"},
        params_b={"dodge": "never"},
    )
    sc = replace(sc, sides=(sc.sides[0], replace(sc.sides[1], fighters=fighters("B", 2))))
    sc = replace(
        sc,
        sides=(
            sc.sides[0],
            Side(
                "blue",
                (FighterSpec("B0", hit_dice=1), FighterSpec("B1", hit_dice=8)),
                tactic=TacticSpec("balanced", {"dodge": "never"}),
            ),
        ),
    )
    b = Battle(sc, seed=1, events=True)
    a = by_name(b, "A")
    b.rng = ScriptedRng([3, 3, 1, 2, 2])  # attack B0 (out), morale d8 = 1 (B1 holds), attack B1
    b.take_turn(a)
    kinds = [(e["action"], e["target"] or e["actor"]) for e in b.log]
    out = kinds.index(("status", "B0"))
    morale = kinds.index(("morale", "blue"))
    second = kinds.index(("attack", "B1"))
    assert out < morale < second


def test_large_scale_initiative_is_rolled_once_then_the_sides_alternate():
    careful = TacticSpec("balanced", {"dodge": "never", "mighty": "never"})
    sc = Scenario(
        sides=(
            Side("red", fighters("r", 20, hit_dice=8, armor=("plate",)), tactic=careful),
            Side("blue", fighters("b", 20, hit_dice=8, armor=("plate",)), tactic=careful),
        ),
        options={"pool": "headcount"},
        battle={"large_scale": "pools"},
    )
    b = Battle(sc, seed=4, events=True)
    assert b.large
    for _ in range(6):
        b.step()
    assert sum(e["action"] == "initiative" for e in b.log) == 1
    turns = [e["actor"] for e in b.log if e["action"] == "faction attack"]
    assert len(turns) >= 8
    assert all(x != y for x, y in zip(turns, turns[1:], strict=False))  # never twice in a row


def test_a_faction_with_nobody_left_to_act_takes_no_action():
    sc = Scenario(
        sides=(Side("red", fighters("r", 6)), Side("blue", fighters("b", 6))),
        battle={"rout": "draw"},
    )
    b = Battle(sc, seed=2, events=True)
    assert b.large
    for f in b.sides["red"].fighters[:5]:
        b.set_status(f, Status.FLED)
    _flee(b, b.sides["red"].fighters[5])
    b.step()
    assert not any(e["actor"] == "red" and e["action"] == "faction attack" for e in b.log)


def test_a_fighter_may_start_wounded_in_every_system():
    from sim.rules import d6

    sides = (
        Side("red", (FighterSpec("r0", hit_dice=4, wounds=2),)),
        Side("blue", fighters("b", 1)),
    )

    def fighter(rules):
        b = Battle(Scenario(sides=sides, rules=rules), seed=1)
        f = by_name(b, "r0")
        assert f.status == Status.ACTIVE and f.wg.hit_dice == 2 and f.hd_start == 2, rules
        return f

    assert fighter("wargame").state is None  # the frame's HD are all a War Game fighter has
    w = fighter("2w2p").state.wounds
    assert w.wounding == 2 and not w.felled  # in its prime: the third wounding blow fells
    assert fighter("deathwish").state.wounds == ["slight", "slight"]
    assert fighter("d6").state.condition == d6.Condition(d6.DamageTier.WOUNDED, 2)
    # 2W2P counts the second wounding blow of a fighter past its prime as felling
    b = Battle(
        Scenario(
            sides=(Side("red", (FighterSpec("r0", wounds=1, prime=False),)), sides[1]), rules="2w2p"
        ),
        seed=1,
    )
    assert by_name(b, "r0").status == Status.ACTIVE


def test_wounds_that_take_a_fighter_out_start_it_out_and_so_does_status():
    red = (FighterSpec("r0", hit_dice=2, wounds=2), FighterSpec("r1", status="fled"))
    b = Battle(
        Scenario(sides=(Side("red", red + fighters("r", 1)), Side("blue", fighters("b", 1)))),
        seed=1,
    )
    assert by_name(b, "r0").status == Status.INCAPACITATED
    assert by_name(b, "r1").status == Status.FLED
    red_side = b.sides["red"]
    assert (red_side.standing, red_side.active) == (1, 1)
    b.run()
    row = b.outcome().sides["red"]
    assert row["fighters"] == 3 and row["fled"] >= 1 and row["incapacitated"] >= 1


def test_morale_can_be_switched_off_or_narrowed_to_one_trigger():
    sc = Scenario(sides=(Side("red", fighters("r", 2)), Side("blue", fighters("b", 2))))
    for morale, rolled in (("none", False), ("leader_out", False), ("half_out", True)):
        b = Battle(replace(sc, battle={"morale": morale}), seed=1, events=True)
        b.rng = ScriptedRng([8])
        b.set_status(by_name(b, "r0"), Status.INCAPACITATED)
        assert any(e["action"] == "morale" for e in b.log) is rolled, morale
        assert (by_name(b, "r1").status == Status.FLEEING) is rolled, morale


def test_initiative_by_sides_rolls_one_die_a_side():
    sc = Scenario(
        sides=(Side("red", fighters("r", 5)), Side("blue", fighters("b", 1))),
        battle={"initiative": "sides"},
    )
    b = Battle(sc, seed=1, events=True)
    b.step()
    ini = next(e for e in b.log if e["action"] == "initiative")
    assert re.fullmatch(r"red \d; blue \d( \(after \d+ tied rolls?\))?", ini["dice"])
    firsts = []
    for seed in range(400):
        b = Battle(sc, seed=seed, events=True)
        b.step()
        firsts.append(next(e for e in b.log if e["action"] == "initiative")["result"])
    assert 0.42 < firsts.count("red first") / 400 < 0.58  # everyone rolling: red 5 dice, ~89%


def test_a_2w2p_side_keeps_hits_off_its_leader():
    """The side that takes the hits decides who takes them: a sensible one shields its
    leader (tactic protect_leader); the leader is listed first, where 'spread' puts a
    fresh front's felling hit."""
    for protect, leader_felled in ((True, False), (False, True)):
        tactic = TacticSpec("balanced", {"protect_leader": protect})
        sc = Scenario(
            sides=(
                Side("red", fighters("r", 3, fights=3), leader="r0", tactic=tactic),
                Side("blue", fighters("b", 3, fights=3)),
            ),
            rules="2w2p",
        )
        b = Battle(sc, seed=1)
        b.rng = ScriptedRng([1] * 5 + [6] + [1] * 5)  # red rolls nothing; blue one felling hit
        twowp_sys.fight_round(b)
        assert by_name(b, "r0").state.wounds.felled is leader_felled, protect
        assert sum(f.state.wounds.felled for f in b.sides["red"].fighters) == 1


def test_a_fighter_stuck_in_quicksand_sinks_every_round_until_it_breaks_free():
    from sim.rules import wargame

    for breaks in (False, True):
        sc = duel(
            FighterSpec("A", hit_dice=6, armor=("plate",)),
            FighterSpec("B", hit_dice=6, armor=("plate",)),
            params_a={"break_free": breaks, "mighty": "never"},
            params_b={"mighty": "never", "dodge": "never"},
        )
        b = Battle(sc, seed=3, events=True)
        a = by_name(b, "A")
        a.wg, _ = wargame.apply_hazard(a.wg, "quicksand")
        for _ in range(3):
            b.step()
        log = [e["action"] for e in b.log if e["actor"] == "A"]
        if not breaks:
            assert a.wg.stuck_in == "quicksand" and a.wg.movement_penalty_ft == 40
            assert log.count("stuck in quicksand") == 3
        else:
            tries = [e for e in b.log if e["action"] in ("breaks free", "fails to break free")]
            assert tries and tries[-1]["action"] == "breaks free"
            assert a.wg.stuck_in is None and a.wg.movement_penalty_ft == 0


# --------------------------------------------------------------------------- large scale, turns
def _large(red_tactic="balanced", **kw):
    return Scenario(
        sides=(
            Side("red", fighters("r", 6, **kw), leader="r0", tactic=TacticSpec(red_tactic)),
            Side("blue", fighters("b", 6, **kw), leader="b0"),
        )
    )


def test_at_large_scale_the_factions_take_turns_one_member_at_a_time():
    b = Battle(_large(hit_dice=8, armor=("plate",)), seed=2, events=True)
    assert b.large and b.large_mode == "turns"
    b.step()
    b.step()
    assert sum(e["action"] == "initiative" for e in b.log) == 1
    turns = []  # the actor of each turn, in order (a turn's attacks come one after another)
    for e in b.log:
        if e["action"] in ("attack", "mighty attack") and (not turns or turns[-1] != e["actor"]):
            turns.append(e["actor"])
    assert len(turns) >= 12
    assert all(x[0] != y[0] for x, y in zip(turns, turns[1:], strict=False)), turns


def test_at_large_scale_the_enemy_leader_is_reached_only_by_leader_killing():
    b = Battle(_large(), seed=3, events=True)
    b.step()
    hit = {e["target"] for e in b.log if e["action"] in ("attack", "mighty attack")}
    assert hit and not hit & {"r0", "b0"}
    # at small scale the leader is a target like any other (weakest first, ties by order)
    small = Battle(replace(_large(), options={"large_scale_above": 100}), seed=3, events=True)
    small.step()
    assert {e["target"] for e in small.log if e["action"] in ("attack", "mighty attack")} & {
        "b0",
        "r0",
    }


def test_leader_killing_at_large_scale_and_a_faction_whose_leader_falls():
    b = Battle(_large("focus_leader"), seed=1, events=True)
    b.rng = ScriptedRng([8, 1, 7])  # red's leader rolls 8, blue's 1; leader killing d8 = 7
    b.step()
    assert by_name(b, "b0").status == Status.INCAPACITATED
    down = [e for e in b.log if e["action"] == "leader down"]
    assert down and down[0]["actor"] == "blue"
    assert all(f.wg.spendable <= 1 for f in b.sides["blue"].fighters if f.in_fight)


def test_failed_leader_killing_wounds_the_attacking_faction():
    b = Battle(_large("focus_leader"), seed=1, events=True)
    b.rng = ScriptedRng([8, 1, 4])  # leader killing d8 = 4: 3 short of 7
    b.step()
    lk = next(e for e in b.log if e["action"] == "leader killing")
    assert "fails, attackers lose 3 HD" in lk["result"]
    red_wounds = sum(f.wounds_taken for f in b.sides["red"].fighters)
    assert red_wounds >= 3
    after = b.log[b.log.index(lk) + 1 :]  # the leader is still in the fight: it attacks next
    assert next(e for e in after if "b0" in (e["actor"], e["target"]))["action"] == "attack"


def test_a_fleeing_fighters_blow_that_ends_the_battle_leaves_it_on_the_field():
    """Blue3 flees, strikes back and takes red's last fighter out: the battle is over.

    Found by tests/test_battle_properties.py: it used to run off after the end, so the
    winner had nobody left in the fight.
    """
    spec = {"red": (2, 2, 2, 4), "blue": (1, 1, 1, 4)}
    sc = Scenario(
        sides=tuple(
            Side(
                name,
                tuple(FighterSpec(f"{name}{i}", hit_dice=hd) for i, hd in enumerate(hds)),
                tactic=TacticSpec("aggressive", {"pursue": True}),  # red strikes blue3
            )
            for name, hds in spec.items()
        ),
        max_rounds=50,
    )
    b = run_battle(sc, seed=2, events=True)
    assert (b.winner, b.end_reason) == ("blue", "defeat")
    blue3 = by_name(b, "blue3")
    assert blue3.status == Status.FLEEING  # it struck the last blow while fleeing
    assert b.log is not None and b.log[-1]["action"] == "end"


def _log(scenario, seed):
    from sim.run.core import fight

    return fight(scenario, seed, events=True).battle.log


def test_a_fighter_healed_back_mid_round_takes_its_turn_last_that_round(monkeypatch):
    """Popcorn's heaps (nobody going last at the round's start) name as the plain scan does.

    In the brawl with seed 65, Sister Ana brings watchman 1 back in round 4. Back in the
    fight it goes last (RULES.md 1.6 "getting back into it"): with no HD to spend its turn
    only frees it from the grapple of a holder now out. The heaps built at the round's start
    never filed it, so it lost that turn until the round switched to the scan.
    """
    from sim.frame import turns
    from sim.scenario import load_scenario

    brawl = load_scenario("scenarios/brawl.yaml")
    heaps = {seed: _log(brawl, seed) for seed in (65, 245)}
    turns_of = [(e["round"], e["actor"], e["action"]) for e in heaps[65]]
    assert turns_of.count((4, "watchman 1", "released")) == 1
    monkeypatch.setattr(turns.TurnFrame, "_waiting", lambda self, fighters: None)  # scan only
    assert {seed: _log(brawl, seed) for seed in (65, 245)} == heaps


@pytest.mark.parametrize(
    ("path", "seeds"),
    [("scenarios/skirmish5.yaml", (22, 72, 92)), ("scenarios/brawl.yaml", (0, 4, 5))],
)
def test_large_scale_factions_send_members_as_a_scan_would(monkeypatch, path, seeds):
    """A faction sends its most harmless (or most ready) member now, the ones back last.

    At large scale with turns the factions' queues are built at the round's start. A member
    harmed since (skirmish5) must be filed again under its new key, and one brought back
    into the fight (the brawl's healer) filed at all, behind the rest while it goes last
    (RULES.md 1.6). These seeds picked otherwise than the scan before both were.
    """
    from sim.frame import turns
    from sim.scenario import load_scenario

    large = load_scenario(path, ["rules.options.large_scale_above=2"])
    heaps = {seed: _log(large, seed) for seed in seeds}
    monkeypatch.setattr(turns, "FactionQueue", _ScanQueue)
    assert {seed: _log(large, seed) for seed in seeds} == heaps


class _ScanQueue:
    """The faction queue's reference: the member it would send now, by a plain scan."""

    def __init__(self, tactic, fighters):
        from sim.frame.sides import _back_ones_last
        from sim.scenario.tactics import harmlessness, readiness

        self.fighters = fighters
        self.ready = _back_ones_last(readiness)
        harmless = _back_ones_last(harmlessness)
        self.first = harmless if tactic.name_next == "enemy_first" else self.ready

    def push(self, f):
        pass

    def top(self, after_enemy):
        waiting = [f for f in self.fighters if f.in_fight and not f.acted]
        return min(waiting, key=self.first if after_enemy else self.ready, default=None)


@pytest.mark.parametrize(
    ("path", "small"),
    [
        ("scenarios/pass.yaml", "rules.options.large_scale_above=100000"),
        ("scenarios/bridge.yaml", "rules.options.large_scale_above=100000"),
        ("scenarios/ford.yaml", "rules.options.large_scale_above=100000"),
        ("scenarios/adders.yaml", "frame.large_scale_above=100000"),
    ],
)
def test_with_the_seed_rules_off_large_scale_fights_as_small_scale(path, small):
    """Large scale with turns differs from small scale only by named rules (rules.md 1.7).

    With the leaders' roll, the rank and file and the fallen leader's 1 HD switched off, a
    large-scale battle is fought event for event as the same battle at small scale: the
    factions' alternation sends the members popcorn would name, the first one included.
    """
    from sim.scenario import load_scenario

    off = [
        "battle.large_initiative=everyone",
        "battle.rank_and_file=false",
        "battle.leader_down=none",
    ]
    large, forced = load_scenario(path, off), load_scenario(path, [small])
    for seed in range(12):
        moves = [[e for e in _log(sc, seed) if e["action"] != "scale"] for sc in (large, forced)]
        assert moves[0] == moves[1], seed


def test_a_faction_opens_the_large_scale_war_game_with_its_readiest_member():
    """The first turn after the leaders' roll is the readiest member's, as at small scale."""
    from sim.scenario import load_scenario

    for seed in range(5):
        b = Battle(load_scenario("scenarios/pass.yaml"), seed=seed, events=True)
        b.step()
        first = b.log[0]["result"].removesuffix(" first")
        opener = next(e for e in b.log if e["action"] in ("attack", "mighty attack"))
        side = b.sides[first]
        assert opener["actor"] == max(side.fighters, key=lambda f: f.spec.hit_dice).name


def test_a_member_brought_back_at_large_scale_is_sent_after_the_others():
    """Its faction's key puts those who go last (RULES.md 1.6) behind every other member."""
    from sim.frame.sides import _back_ones_last
    from sim.scenario import load_scenario
    from sim.scenario.tactics import harmlessness

    battle = Battle(load_scenario("scenarios/brawl.yaml"), seed=1)
    weak, strong = sorted(battle.sides["watch"].fighters, key=harmlessness)[:2]
    key = _back_ones_last(harmlessness)
    assert key(weak) < key(strong)  # the most harmless first ...
    weak.wg.goes_last = True
    assert key(strong) < key(weak)  # ... unless it was brought back


def test_war_game_fighters_let_the_fleeing_go_unless_their_tactic_pursues():
    """Once every enemy left is fleeing, nobody strikes at them (``tactic.pursue: false``).

    A creature damaged while fleeing may spend its HD again (RULES.md 1.8), so the pursuers'
    blows bought blows back, often on the winners' leader, whose fall routed them too:
    four against four in gambeson ended in mutual routs that pursuing alone produced.
    """
    from sim.scenario import load_scenario

    def fought(pursue):
        sides = ("men-at-arms", "raiders")
        sets = [f"sides.{s}.tactic.params.pursue={str(pursue).lower()}" for s in sides]
        scenario = load_scenario("scenarios/armor_trial.yaml", sets)
        return [Battle(scenario, seed=seed, events=True) for seed in range(40)]

    let_go = fought(False)
    for b in let_go:
        b.run()
        fleeing: set[str] = set()
        for e in b.log:
            if e["action"] == "status":
                (fleeing.add if e["result"] == "fleeing" else fleeing.discard)(e["actor"])
            elif "attack" in e["action"] and e["actor"] not in fleeing:
                assert e["target"] not in fleeing, (b.log.index(e), e)
    pursued = fought(True)
    for b in pursued:
        b.run()
    routs = [sum(b.end_reason == "mutual_rout" for b in runs) for runs in (let_go, pursued)]
    assert routs[0] == 0 < routs[1], routs


# --------------------------------------------------------------------------- leaders named
def _leaderless(n=6, battle=None, rules="wargame", **kw):
    red = (*fighters("r", n - 2, hit_dice=4), FighterSpec("rk", hit_dice=6), *fighters("rx", 1))
    return Scenario(
        sides=(Side("red", red), Side("blue", fighters("b", n, hit_dice=4, **kw))),
        rules=rules,
        battle=battle or {},
    )


def test_at_large_scale_a_side_without_a_leader_gets_its_member_with_the_most_hd():
    """RULES.md 1.12 [S]: "name a leader for these factions"; ties go to the first listed."""
    b = Battle(_leaderless(), seed=1, events=True)
    assert b.large
    named = [(e["actor"], e["target"]) for e in b.log if e["action"] == "names a leader"]
    assert named == [("red", "rk"), ("blue", "b0")]
    assert b.sides["red"].leader_fighter() is by_name(b, "rk") and by_name(b, "rk").leader
    b.run()
    rows = {r["name"]: r for r in b.fighters_frame().to_dict("records")}
    assert rows["rk"]["leader"] and rows["b0"]["leader"] and not rows["b1"]["leader"]
    assert b.outcome().sides["red"]["leader_status"] == by_name(b, "rk").status.value


def test_no_leader_is_named_at_small_scale_nor_with_the_option_off_nor_under_2w2p():
    small = Battle(_leaderless(n=5), seed=1)
    assert not small.large and not small.sides["red"].leaders
    off = Battle(_leaderless(battle={"faction_leader": "none"}), seed=1)
    assert off.large and not off.sides["red"].leaders and not off.sides["blue"].leaders
    fronts = Battle(_leaderless(rules="2w2p"), seed=1)
    assert fronts.large and not fronts.sides["red"].leaders


def test_a_leader_is_named_when_reinforcements_lift_the_battle_to_large_scale():
    from sim.scenario import Event

    sc = replace(
        _leaderless(n=5),
        events=(Event(1, "reinforce", "blue", fighters("late", 2, hit_dice=7)),),
    )
    b = Battle(sc, seed=3, events=True)
    assert not b.large and not b.sides["blue"].leaders  # 10 at the start: small scale
    b.step()  # round 1 starts with the reinforcements: 12, large scale
    assert b.sides["blue"].leader_fighter().name == "late0"  # 7 HD, the first listed
    assert b.sides["red"].leader_fighter().name == "rk"
    assert [e["round"] for e in b.log if e["action"] == "names a leader"] == [1, 1]


# --------------------------------------------------------------------------- pools, members
def _pools(reading, n=8, m=6, **battle):
    return Scenario(
        sides=(
            Side("red", fighters("r", n, hit_dice=4, armor=("gambeson",)), leader="r0"),
            Side("blue", fighters("b", m, hit_dice=4, armor=("gambeson",)), leader="b0"),
        ),
        options={"pool": reading},
        battle={"large_scale": "pools", **battle},
    )


def test_with_members_a_faction_takes_a_turn_for_each_active_member():
    """``wargame.pool: members``: the factions alternate, a turn for each active member, the
    bigger one finishing the round alone; the pool's HD are its head count, its dice (for
    dodging) the average HD, and every maneuver costs the pool nothing."""
    b = Battle(_pools("members", morale="none"), seed=4, events=True)
    b.step()
    pools = [e["result"] for e in b.log if e["action"] == "faction pool"]
    assert pools == ["8 HD, armor 3", "6 HD, armor 3"]
    turns = [e["actor"] for e in b.log if e["action"] in ("faction attack", "faction hazard")]
    first, other = turns[0], "red" if turns[0] == "blue" else "blue"
    assert turns[:10] == [first, other] * 5
    for side in ("red", "blue"):  # no more turns than members, no fewer than still active
        assert b.sides[side].active <= turns.count(side) <= len(b.sides[side].fighters)
    dodges = [e for e in b.log if "dodged" in e["result"]]
    assert len(dodges) == 8  # each pool's 4 dice, all spent on dodges


def test_pools_never_stall_for_want_of_harm_with_members():
    """The literal pools dodge each other's one attack a round: with morale off every battle
    is a draw at max_rounds. With a turn a member, numbers and blows decide."""
    literal = [Battle(_pools("literal", morale="none"), seed=s).run() for s in range(20)]
    assert {o.end_reason for o in literal} == {"max_rounds"}
    members = [Battle(_pools("members", morale="none"), seed=s).run() for s in range(20)]
    assert all(o.end_reason == "defeat" and o.rounds < 10 for o in members)
    assert sum(o.winner == "red" for o in members) > 15  # eight against six


def test_with_members_a_distracted_faction_fights_on_but_cannot_dodge():
    """The distraction keeps the faction from spending its pool's HD (its dodges) for the
    round [S]; its members pay for their own turns, so they still take them."""
    from sim.scenario import load_scenario

    seen = 0
    for seed in range(10):
        b = Battle(load_scenario("scenarios/siege.yaml"), seed=seed, events=True)
        b.step()
        at = next((i for i, e in enumerate(b.log) if e["action"] == "faction distraction"), None)
        if at is None:
            continue
        seen += 1
        after = b.log[at + 1 :]
        assert any(e["actor"] == "defenders" and e["action"].startswith("faction ") for e in after)
        hits = [e for e in after if e["actor"] == "attackers" and e["action"] == "faction attack"]
        assert hits and not any("dodged" in e["result"] for e in hits)
    assert seen >= 3
