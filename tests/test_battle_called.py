"""War Game called shots, dismemberment and lingering conditions in battle (issue 19)."""

from pathlib import Path

from sim.battle.battle import Battle
from sim.rules import wargame
from sim.run.core import fight
from sim.scenario import FighterSpec, load_scenario
from sim.systems import wargame as wgsys
from tests.conftest import ScriptedRng
from tests.test_battle_mechanics import by_name, duel, fought
from tests.test_field import duel as map_duel
from tests.test_field import turn, who

TOURNEY = Path(__file__).resolve().parents[1] / "scenarios" / "tourney.yaml"


def _duel(target_armor, called="always", shield=None, **a):
    sc = duel(
        FighterSpec("A", hit_dice=6, weapon="plain", **a),
        FighterSpec("B", hit_dice=6, armor=target_armor, shield=shield),
        params_a={"called_shot": called},
        params_b={"dodge": "never"},
    )
    b = Battle(sc, seed=1, events=True)
    return b, by_name(b, "A"), by_name(b, "B")


def test_a_called_shot_costs_one_hd_more_and_lamellar_cannot_absorb_it():
    b, a, t = _duel(("lamellar",))
    b.rng = ScriptedRng([1, 2])  # 2d8 = 3: lamellar's pool of 4 would take it all
    wgsys.attack(b, a, t)
    assert a.wg.spendable == 3  # 2 HD for the attack, 1 for the aim
    assert (t.wg.hit_dice, t.wg.armor_pool) == (5, 4)
    e = b.log[-1]
    assert e["action"] == "called shot (leg)"
    assert "lamellar leaves the leg bare" in e["result"]


def test_max_damage_takes_the_leg_off_but_not_through_plate():
    b, a, t = _duel(("lamellar",))
    b.rng = ScriptedRng([8, 8])
    wgsys.attack(b, a, t)
    assert t.wg.conditions == ("lost_leg",) and not wargame.can_dodge(t.wg)
    assert "leg taken off (lost_leg)" in b.log[-1]["result"]
    # the next called shot goes for an arm
    b.rng = ScriptedRng([1, 1])
    wgsys.attack(b, a, t)
    assert b.log[-1]["action"] == "mighty called shot (arm)"  # it can no longer dodge
    b, a, t = _duel(("plate",))
    b.rng = ScriptedRng([8, 8])  # 16 against plate's 8: a wound, the leg stays on
    wgsys.attack(b, a, t)
    assert (t.wg.hit_dice, t.wg.conditions) == (5, ())
    assert "plate: the leg stays on" in b.log[-1]["result"]


def test_odds_calls_a_shot_only_where_it_wounds_more_often():
    # per HD spent: a plain 2 HD blow wounds through a pool of 4 with chance 58/64 (0.45 a
    # HD), through 8 with 36/64 (0.28); a called shot at lamellar always, for 3 HD (0.33)
    cases = (
        (("lamellar",), "large", True),  # pool 8
        (("lamellar",), None, False),  # pool 4
        (("chain",), "small", False),  # no bare limbs
        ((), None, False),
    )
    for armor, shield, calls in cases:
        b, a, t = _duel(armor, called="odds", shield=shield)
        t.wg = t.wg.evolve(spendable=0)  # it cannot dodge
        b.rng = ScriptedRng([1, 1])
        wgsys.attack(b, a, t)
        assert ("called shot" in b.log[-1]["action"]) is calls, armor
    b, a, t = _duel(("lamellar",), called="odds", shield="large")  # it can dodge: no shot
    b.rng = ScriptedRng([1, 1])
    wgsys.attack(b, a, t)
    assert b.log[-1]["action"] == "attack"


def test_conditions_change_how_a_fighter_fights():
    b, a, t = _duel((), called="never")
    a.wg = wargame.add_condition(a.wg, "blinded")
    b.rng = ScriptedRng([4])  # the blind swing needs a d8 of 5+
    wgsys.attack(b, a, t)
    assert b.log[-1]["result"] == "blinded: the attack misses (needs a d8 of 5+)"
    assert t.wg.hit_dice == 6 and a.wg.spendable == 4
    b, a, t = _duel((), called="never", two_handed=True, shield="large")
    a.wg = wargame.add_condition(a.wg, "lost_arm")
    assert a.wg.armor_max == 0  # the shield is gone
    b.rng = ScriptedRng([3])
    wgsys.attack(b, a, t)
    assert "1d8 [3] = 3" in b.log[-1]["result"]  # 2 HD paid, one die fewer
    a.wg = wargame.add_condition(a.wg, "shaken")
    assert b.system.morale_hd(a, b.opts) == a.wg.hit_dice - 2


def _tourney(seed, *sets):
    return fought(load_scenario(TOURNEY, sets), seed)


def test_battles_of_the_tourney_call_shots_take_limbs_and_leave_conditions():
    logs = [_tourney(s).log for s in range(40)]
    text = [e["action"] + ": " + e["result"] for log in logs for e in log]
    assert any(t.startswith("mighty called shot") or t.startswith("called shot") for t in text)
    assert sum("lamellar leaves the" in t for t in text) > 20
    assert any("lingering wound: " in t for t in text)
    assert any("blinded: the attack misses" in t for t in text)
    # dismemberment: on max damage (rare), in every battle's called shots when any wound does
    wound = ["rules.options.dismember=wound"]
    cut = [e["result"] for s in range(10) for e in _tourney(s, *wound).log]
    assert any("taken off" in r for r in cut)
    never = ["sides.mercenaries.tactic.params.called_shot=never"]
    assert not any("called shot" in e["action"] for s in range(10) for e in _tourney(s, *never).log)


def test_plate_keeps_every_limb_on_in_battle():
    wound = ["rules.options.dismember=wound"]
    on_aldo = [
        e["result"] for s in range(40) for e in _tourney(s, *wound).log if e["target"] == "Ser Aldo"
    ]
    assert any("plate: the" in r and "stays on" in r for r in on_aldo)
    assert not any("taken off" in r for r in on_aldo)


def test_a_lost_leg_halves_a_move_on_a_map():
    b = map_duel(["." * 12], {"A": (0, 0), "B": (11, 0)})
    a = who(b, "A")
    a.wg = wargame.add_condition(a.wg, "lost_leg")
    events = turn(b, "A")
    assert events[0]["action"] == "moves"
    assert events[0]["result"] == "(1,0) -> (2,0) -> (3,0)"  # 15 ft, half of 30


def test_conditions_carry_into_a_campaign_s_next_battle():
    system = wgsys.WarGame()
    _, _, t = _duel(("lamellar",))
    assert system.carry_out(t, {"hd": 4}, {}) == {"hd": 4}
    t.wg = wargame.add_condition(t.wg, "lost_leg")
    out = system.carry_out(t, {"hd": 4}, {})
    assert out == {"hd": 4, "wg_conditions": ("lost_leg",)}
    assert system.carry_out(None, {"hd": 5}, out) == {"hd": 5, "wg_conditions": ("lost_leg",)}
    _, _, fresh = _duel(())
    system.carry_in(fresh, out)
    assert (fresh.wg.hit_dice, fresh.wg.conditions) == (4, ("lost_leg",))
    # a whole campaign: limbs lost in one battle are still gone in the next
    sets = [
        "rules.options.dismember=wound",
        "campaign={side: house, days_between: 3, battles: [{}, {}, {}]}",
    ]
    carried = 0
    for seed in range(8):
        battles = fight(load_scenario(TOURNEY, sets), seed).battles
        for before, after in zip(battles, battles[1:], strict=False):
            rows = before.fighter_rows()
            lost = {
                r["name"] for r in rows if r["side"] == "house" and "lost_leg" in r["conditions"]
            }
            for f in after.sides["house"].fighters:  # those who fight again: the leg is gone
                if f.name in lost:
                    assert "lost_leg" in f.wg.conditions and not wargame.can_dodge(f.wg)
                    carried += 1
    assert carried > 0


def test_the_campaign_table_shows_the_conditions_each_member_carries():
    sets = [
        "rules.options.dismember=wound",
        "campaign={side: house, days_between: 3, battles: [{}, {}, {}]}",
    ]
    shown = 0
    for seed in range(8):
        run = fight(load_scenario(TOURNEY, sets), seed)
        for n, battle in enumerate(run.battles, start=1):
            kept = {
                r["name"]: r["conditions"] for r in battle.fighter_rows() if r["side"] == "house"
            }
            for row in (r for r in run.campaign if r["battle"] == n and r["status"] != "dead"):
                if row["fought"]:  # what it ended the battle with, it carries on
                    assert row["conditions"] == kept[row["name"]]
                    shown += bool(row["conditions"])
    assert shown > 0


def test_a_called_shot_never_aims_at_a_limb_already_lost():
    from sim.scenario.tactics import make_tactic

    t = make_tactic("balanced", {"called_shot": "always"})
    assert t.called_limb(False) == "leg"
    assert t.called_limb(True) == "arm"
    assert t.called_limb(False, True) == "leg"
    assert t.called_limb(True, True) is None
    # in battle: a target with an arm and a leg off takes only plain attacks, even from
    # attackers who always call their shots
    b, a, target = _duel(("lamellar",))
    wgsys.attack(b, a, target)
    assert b.log[-1]["action"] == "called shot (leg)"
    b, a, target = _duel(("lamellar",))
    target.wg = wargame.add_condition(wargame.add_condition(target.wg, "lost_leg"), "lost_arm")
    wgsys.attack(b, a, target)
    assert "called shot" not in b.log[-1]["action"], "both taken: a plain attack"
