"""D6 tiers in battle: the seed's mechanics happen (issue 19), with forced dice where exact."""

from __future__ import annotations

from typing import Any

from sim.battle.battle import Battle
from sim.scenario import parse_scenario
from sim.systems.d6 import attack, body_of
from tests.conftest import ScriptedRng


def battle(text: str, seed: int = 1, **kw: Any) -> Battle:
    return Battle(parse_scenario(text, "<test>"), seed=seed, events=True, **kw)


def by_name(b: Battle, name: str):
    return next(f for f in b.all_fighters() if f.name == name)


def events(b: Battle, action: str) -> list[dict[str, Any]]:
    assert b.log is not None
    return [e for e in b.log if e["action"] == action]


CYCLE = """
rules: {system: d6, options: {turn_order: cycle}}
battle: {morale: none}
max_rounds: 3
sides:
  red:
    fighters:
      - {name: slow, d6: {dexterity: 2D, dodge: 5D, armor: 20D}}
      - {name: quick, d6: {dexterity: 4D, dodge: 5D, armor: 20D}}
  blue:
    fighters:
      - {name: mid, d6: {dexterity: 3D, dodge: 5D, armor: 20D}}
      - {name: twin, d6: {dexterity: 2D, dodge: 5D, armor: 20D}}
events:
  - {round: 2, reinforce: blue, fighters: [{name: late, d6: {dexterity: 6D, armor: 20D}}]}
"""


def test_the_turn_cycle_puts_the_quickest_first_and_returns_every_round():
    b = battle(CYCLE)
    b.run()
    actors = [e["actor"] for e in b.log if e["action"] == "attacks"]
    cycles = [e["result"] for e in events(b, "turn cycle")]
    # 4D, 3D, then the two 2D fighters, sides in turn from a side drawn at random
    assert cycles[0] in ("quick, mid, slow, twin", "quick, mid, twin, slow")
    assert cycles[1:] == ["late join"]  # a latecomer joins at the end, whatever its Dexterity
    first = cycles[0].split(", ")
    assert actors == [*first, *first, "late", *first, "late"]


def test_popcorn_is_the_default_and_has_no_cycle():
    b = battle(CYCLE.replace("options: {turn_order: cycle}", "options: {}"))
    b.run()
    assert events(b, "turn cycle") == []


FLURRY = """
rules: d6
battle: {morale: none, d6_difficulty: 0}
max_rounds: 1
sides:
  red:
    tactic: {name: balanced, params: {extra_attacks: 1, cover: false, called_shot: never}}
    fighters:
      - {name: A, d6: {strength: 2D, dexterity: 2D, attack: 3D, dodge: 2D, damage: 1D}}
  blue:
    fighters:
      - {name: B, d6: {strength: 2D, dexterity: 2D, attack: 2D, dodge: 1D, damage: 1D}}
    tactic: {name: balanced, params: {called_shot: never}}
"""


def test_an_extra_attack_takes_the_map_off_every_roll_of_the_round():
    b = battle(FLURRY)
    a, t = by_name(b, "A"), by_name(b, "B")
    b.round = 1
    b.system.start_round(b)
    # B dodges 1; A's two attacks at 3D - 1D = 2D: 6+6 hit, damage 1 vs body 2D 1+1: none;
    # 1+1 = 2 hits (2 > 1); damage 1 vs 1+1 again
    b.rng = ScriptedRng([1, 6, 6, 1, 1, 1, 1, 1, 1, 1, 1])
    b.take_turn(a)
    hits = [e for e in b.log if e["action"] == "attacks"]
    assert [e["dice"] for e in hits] == ["1D=1 vs body 2D=2", "1D=1 vs body 2D=2"]
    assert events(b, "extra actions")[0]["result"] == "1 more attack: MAP -1D this round"
    # A's own dodge this round is rolled at 2D - 1D, and its body at 2D - 1D [S, H]
    b.rng = ScriptedRng([3, 2, 6, 1, 1])
    b.take_turn(t)
    assert a.state.reactions == {"dodge": 3}
    assert b.log[-1]["dice"] == "1D=1 vs body 1D=1"


AREA = """
rules: d6
battle: {morale: none, d6_difficulty: 0}
max_rounds: 1
sides:
  red:
    tactic: {name: balanced, params: {cover: false}}
    fighters:
      - {name: A, d6: {attack: 4D, damage: 1D, area: 3, range: 60}}
  blue:
    fighters:
      - {name: b, count: 4, d6: {strength: 2D, dexterity: 2D, dodge: 2D, parry: 5D}}
"""


def test_an_area_attack_rolls_once_against_every_target_it_catches():
    b = battle(AREA)
    a = by_name(b, "A")
    b.round = 1
    b.system.start_round(b)
    # three dodges at 2D - 1D (each dodge of an area attack is an action of the MAP), no
    # parry against it: 4, 5, 6 count 2, 2, 3; one hit roll 4 beats them all; damage 1D = 6
    # against body 2D - 1D (the MAP again) = 1: Wounded, three times
    b.rng = ScriptedRng([4, 5, 6, 1, 1, 1, 1, 6, 1, 6, 1, 6, 1])
    b.take_turn(a)
    (area,) = events(b, "area attack")
    assert (area["target"], area["dice"]) == ("b 1, b 2, b 3", "4D=4")
    hits = [e for e in b.log if e["action"] == "attacks"]
    assert [(e["target"], e["dice"], e["result"]) for e in hits] == [
        (f"b {i}", "1D=6 vs body 1D=1", "wounded; now wounded") for i in (1, 2, 3)
    ]
    assert [f.state.area_dodges for f in b.all_fighters()] == [0, 1, 1, 1, 0]
    assert [f.state.reactions for f in b.all_fighters()][1:] == [
        {"dodge": 4},
        {"dodge": 5},
        {"dodge": 6},
        {},
    ]


def test_a_second_area_attack_dodged_adds_map_unless_once_a_round():
    for how, code in (("each", "0D"), ("once", "1D")):
        rules = f"rules: {{system: d6, options: {{area_dodge_map: {how}}}}}"
        b = battle(AREA.replace("rules: d6", rules))
        a, t = by_name(b, "A"), by_name(b, "b 1")
        b.round = 1
        b.system.start_round(b)
        b.rng = ScriptedRng([1] * 40)
        b.take_turn(a)
        b.take_turn(a)
        assert t.state.area_dodges == 2
        assert str(body_of(b, t)) == code


SHOT = """
rules: d6
battle: {morale: none, d6_difficulty: 0}
max_rounds: 1
sides:
  red:
    tactic: {name: balanced, params: {called_shot: always, cover: false}}
    fighters:
      - {name: A, d6: {attack: 4D, damage: 2D}}
  blue:
    fighters:
      - {name: B, d6: {strength: 1D, dexterity: 1D, dodge: 1D}}
"""


def test_a_called_shot_adds_a_die_to_the_difficulty_and_to_the_damage():
    b = battle(SHOT)
    a = by_name(b, "A")
    b.round = 1
    b.system.start_round(b)
    # B dodges 1; the difficulty is 0 + 1D = 5; A's 4D = 4 beats 1 but misses 5
    b.rng = ScriptedRng([1, 5, 1, 1, 1, 1])
    b.take_turn(a)
    assert [(e["action"], e["result"]) for e in b.log] == [
        ("calls a shot at", "+1D difficulty, +1D damage"),
        ("attacks", "misses (dodge 1, difficulty 5)"),
    ]
    # next round: difficulty 1D = 4, the hit 4D = 4 meets it; damage 3D = 3 vs body 1D = 1
    b.round = 2
    b.system.start_round(b)
    b.rng = ScriptedRng([1, 4, 1, 1, 1, 1, 1, 1, 1, 1])
    b.take_turn(a)
    assert b.log[-1]["dice"] == "3D=3 vs body 1D=1"


def shots(text: str, seeds: range) -> int:
    count = 0
    for seed in seeds:
        b = battle(text, seed=seed)
        b.run()
        count += sum(e["actor"] == "A" for e in events(b, "calls a shot at"))
    return count


def test_the_default_tactic_calls_a_shot_when_the_odds_favour_it():
    # a sure hit on a tough body: the extra damage die is worth the extra difficulty die
    sure = SHOT.replace("called_shot: always", "called_shot: odds").replace(
        "{strength: 1D, dexterity: 1D, dodge: 1D}", "{strength: 4D, dexterity: 4D, dodge: 1D}"
    )
    sure = sure.replace("attack: 4D, damage: 2D", "attack: 8D, damage: 4D")
    assert shots(sure, range(5)) == 5
    # a blow that takes the target out whenever it lands gains nothing from the damage die
    # and loses hits to the difficulty die
    overkill = SHOT.replace("called_shot: always", "called_shot: odds").replace(
        "damage: 2D", "damage: 12D"
    )
    assert shots(overkill, range(5)) == 0
    assert shots(sure.replace("called_shot: odds", "called_shot: never"), range(5)) == 0


MOB = """
rules: {system: d6, options: {outnumber_pips: 3, turn_order: cycle}}
battle: {morale: none}
max_rounds: 2
sides:
  red:
    tactic: {name: balanced, params: {called_shot: never}}
    fighters:
      - {name: r, count: 3, d6: {dexterity: 4D, attack: 1D}}
  blue:
    fighters:
      - {name: B, d6: {dexterity: 1D, attack: 0D, dodge: 30D}}
"""


def test_allies_who_attacked_the_target_before_give_the_modifiers_table_dice():
    b = battle(MOB)
    b.run()
    assert [(e["round"], e["actor"], e["result"]) for e in events(b, "outnumbers")] == [
        (1, "r 2", "+1D: 1 ally before it, slight advantage (3 pips)"),
        (1, "r 3", "+2D: 2 allies before it, decent advantage (6 pips)"),
        (2, "r 2", "+1D: 1 ally before it, slight advantage (3 pips)"),
        (2, "r 3", "+2D: 2 allies before it, decent advantage (6 pips)"),
    ]
    codes = [e["dice"].split("=")[0] for e in events(b, "attacks") if e["actor"] != "B"]
    assert codes == ["1D", "2D", "3D"] * 2
    # 8 pips each: the third attacker's 16 pips are decisive (+4D) or overwhelming (+5D)
    for reading, code in (("decisive", "5D"), ("overwhelming", "6D")):
        opts = f"{{outnumber_pips: 8, turn_order: cycle, modifier_overlap_16: {reading}}}"
        b = battle(MOB.replace("{outnumber_pips: 3, turn_order: cycle}", opts))
        b.run()
        codes = [e["dice"].split("=")[0] for e in events(b, "attacks") if e["actor"] != "B"]
        assert codes[:3] == ["1D", "3D", code]


def test_no_advantage_by_default():
    b = battle(MOB.replace("outnumber_pips: 3, ", ""))
    b.run()
    assert events(b, "outnumbers") == []


COVER = """
rules: {system: d6, options: {cover_on: difficulty}}
battle: {morale: none, d6_difficulty: 0}
max_rounds: 1
factors: [{cover: building_wall}]
sides:
  red:
    tactic: {name: balanced, params: {called_shot: never}}
    fighters:
      - {name: A, d6: {attack: 2D, damage: 2D, range: 300}}
  blue:
    fighters:
      - {name: B, d6: {strength: 1D, dexterity: 1D, attack: 0D, dodge: 1D, parry: 6D}}
"""


def test_a_fighter_takes_cover_from_a_ranged_d6_attacker_and_its_dice_go_where_cover_on_says():
    for reading, forced, dice, result in (
        # dodge 1 (no parry against a ranged attack); difficulty 2D = 12; the hit 2D = 6 misses
        (
            "difficulty",
            [1, 6, 6, 3, 3],
            "2D=6",
            "misses (dodge 1, difficulty 12, cover 2D on the difficulty)",
        ),
        # dodge 1; no difficulty dice; the hit 6 lands; damage 2D = 12 vs body 1D + 2D = 3
        (
            "body",
            [1, 3, 3, 6, 6, 1, 1, 1],
            "2D=12 vs body 3D=3",
            "incapacitated; now incapacitated",
        ),
    ):
        b = battle(COVER.replace("cover_on: difficulty", f"cover_on: {reading}"))
        a, t = by_name(b, "A"), by_name(b, "B")
        b.round = 1
        b.system.start_round(b)
        b.take_turn(t)  # B has nobody to hit: it takes cover from the ranged attacker
        assert events(b, "takes cover")[0]["actor"] == "B" and b.in_cover(t)
        b.rng = ScriptedRng(forced)
        b.take_turn(a)
        last = events(b, "attacks")[-1]
        assert (last["dice"], last["result"]) == (dice, result), reading


RIDERS = """
rules: {system: d6, options: {ride_vs_area: half}}
battle: {morale: none, d6_difficulty: 0}
max_rounds: 1
sides:
  red:
    fighters:
      - {name: A, d6: {attack: 1D, damage: 1D, area: 3, range: 60}}
      - {name: S, d6: {attack: 1D, damage: 1D}}
  blue:
    fighters:
      - {name: rider, mounted: true, d6: {dodge: 2D, parry: 3D, ride: 4D, armor: 9D}}
      - {name: walker, d6: {dodge: 2D, parry: 3D, ride: 4D, armor: 9D}}
"""


def test_a_rider_reacts_with_ride_which_adds_no_map_and_counts_half_against_an_area_attack():
    for reading, counted in (("half", 2), ("full", 5)):
        b = battle(RIDERS.replace("ride_vs_area: half", f"ride_vs_area: {reading}"))
        a, rider, walker = by_name(b, "A"), by_name(b, "rider"), by_name(b, "walker")
        b.round = 1
        b.system.start_round(b)
        # the rider rides 4D = 5 (no MAP); the walker dodges at 2D - 1D = 6, counting 3
        b.rng = ScriptedRng([1, 1, 1, 2, 6, 1] + [1] * 40)
        b.take_turn(a)
        assert rider.state.reactions == {"ride": 5} and rider.state.area_dodges == 0
        assert walker.state.reactions == {"dodge": 6} and walker.state.area_dodges == 1
        misses = [e["result"] for e in events(b, "attacks")]
        assert misses[0] == f"misses (ride {counted} against an area attack, difficulty 0)"
    # hand to hand its Ride (4D) beats its parry (3D); on foot the same fighter parries
    b = battle(RIDERS)
    b.round = 1
    b.system.start_round(b)
    for name in ("rider", "walker"):
        b.rng = ScriptedRng([1] * 20)
        attack(b, by_name(b, "S"), by_name(b, name), 0, 0)
    assert [f.state.reactions for f in b.all_fighters()][2:] == [{"ride": 4}, {"parry": 3}]


TWO_HANDER = """
rules: d6
battle: {morale: none, d6_difficulty: 0}
max_rounds: 1
sides:
  red:
    tactic: {name: balanced, params: {cover: false, called_shot: never}}
    fighters:
      - {name: G, two_handed: true, d6: {attack: 1D, dodge: 1D, parry: 4D, damage: 1D}}
      - {name: O, d6: {attack: 1D, dodge: 1D, parry: 4D, damage: 1D}}
  blue:
    tactic: {name: balanced, params: {called_shot: never}}
    fighters:
      - {name: S, d6: {attack: 2D, dodge: 1D, damage: 1D, armor: 9D}}
      - {name: U, d6: {attack: 2D, dodge: 1D, damage: '', armor: 9D}}
"""


def _started(text: str = TWO_HANDER) -> Battle:
    b = battle(text)
    b.round = 1
    b.system.start_round(b)
    return b


def test_a_two_handed_weapon_that_attacked_parries_at_minus_two_but_not_against_unarmed():
    b = _started()
    g, s, u = by_name(b, "G"), by_name(b, "S"), by_name(b, "U")
    b.rng = ScriptedRng([1] + [1] * 20)  # G's blow misses S (1 against S's dodge 1)
    attack(b, g, s, 0, 0)
    # S strikes: G parries 4D = 12, less 2 for its two-handed weapon that attacked: 10;
    # S's 2D = 6+5 = 11 beats 10 (it would not beat 12)
    b.rng = ScriptedRng([3, 3, 3, 3, 6, 5] + [1] * 20)
    attack(b, s, g, 0, 0)
    assert g.state.reactions == {"parry": 12}
    assert events(b, "two-handed parry")[0] == {
        "round": 1,
        "actor": "G",
        "action": "two-handed parry",
        "target": "S",
        "dice": "",
        "result": "parry 12 -2 = 10: its two-handed weapon attacked this round",
    }
    assert events(b, "attacks")[-1]["dice"].startswith("1D=")  # a hit: S's damage roll
    # the unarmed U meets the whole 12, which stands for the round: 6+5 = 11 misses
    b.rng = ScriptedRng([6, 5] + [1] * 20)
    attack(b, u, g, 0, 0)
    assert events(b, "two-handed parry")[1]["result"] == (
        "parry 12, no penalty against an unarmed attacker"
    )
    assert events(b, "attacks")[-1]["result"] == "misses (parry 12, difficulty 0)"
    # no parry adds to the Multiple Action Penalty [S]
    assert g.state.extra_attacks == g.state.area_dodges == 0


def test_no_penalty_before_the_two_handed_weapon_attacks_nor_for_a_one_handed_one():
    b = _started()
    g, o, s = by_name(b, "G"), by_name(b, "O"), by_name(b, "S")
    # G and O parry 12 before G attacks; S's 11 misses both
    for t in (g, o):
        b.rng = ScriptedRng([3, 3, 3, 3, 6, 5] + [1] * 20)
        attack(b, s, t, 0, 0)
    assert [e["result"] for e in events(b, "attacks")] == ["misses (parry 12, difficulty 0)"] * 2
    # O (one-handed) attacks: its parry is still 12; G attacks: now its parry counts 10
    for f in (o, g):
        b.rng = ScriptedRng([1] * 20)
        attack(b, f, s, 0, 0)
    for t, counted in ((o, "misses (parry 12, difficulty 0)"), (g, None)):
        b.rng = ScriptedRng([6, 5] + [1] * 20)
        attack(b, s, t, 0, 0)
        if counted:
            assert events(b, "attacks")[-1]["result"] == counted
    assert [e["actor"] for e in events(b, "two-handed parry")] == ["G"]
    # parries never count against the MAP: G's and O's rolls are whole
    assert [d6_extra(b, f) for f in (g, o)] == [0, 0]


def test_the_penalty_option_sets_the_points_and_the_tactic_weighs_them():
    # G's parry 4D (12 pips) against its dodge 3D (9): after attacking, 12 - 2 = 10 still
    # beats 9 and it parries; 12 - 4 = 8 does not, and it dodges
    for penalty, kind in ((2, "parry"), (4, "dodge")):
        text = TWO_HANDER.replace(
            "rules: d6", f"rules: {{system: d6, options: {{two_handed_parry_penalty: {penalty}}}}}"
        )
        b = _started(text.replace("dodge: 1D, parry: 4D", "dodge: 3D, parry: 4D"))
        g, s = by_name(b, "G"), by_name(b, "S")
        b.rng = ScriptedRng([1] * 20)
        attack(b, g, s, 0, 0)
        b.rng = ScriptedRng([3, 3, 3, 3, 6, 5] + [1] * 20)
        attack(b, s, g, 0, 0)
        assert list(g.state.reactions) == [kind]
    # a parry rolled before: the option's points come off it
    b = _started(
        TWO_HANDER.replace(
            "rules: d6", "rules: {system: d6, options: {two_handed_parry_penalty: 6}}"
        )
    )
    g, s = by_name(b, "G"), by_name(b, "S")
    b.rng = ScriptedRng([3, 3, 3, 3, 1, 1] + [1] * 20)
    attack(b, s, g, 0, 0)
    b.rng = ScriptedRng([1] * 20)
    attack(b, g, s, 0, 0)
    b.rng = ScriptedRng([4, 3] + [1] * 20)
    attack(b, s, g, 0, 0)
    assert events(b, "two-handed parry")[0]["result"] == (
        "parry 12 -6 = 6: its two-handed weapon attacked this round"
    )
    assert events(b, "attacks")[-1]["dice"].startswith("1D=")  # 4+3 = 7 beats 6: a hit


def d6_extra(b: Battle, f) -> int:
    from sim.systems.d6 import extra

    return extra(b, f)


def test_the_greatsword_example_parries_two_worse_after_its_blow_in_battle():
    """Fails if the two-handed parry penalty never applies in a battle."""
    from pathlib import Path

    from sim.scenario import load_scenario

    sc = load_scenario(Path(__file__).resolve().parents[2] / "scenarios" / "greatsword.yaml")
    lines: list[dict[str, Any]] = []
    for seed in range(6):
        b = Battle(sc, seed=seed, events=True)
        b.run()
        lines += events(b, "two-handed parry")
    penalised = [e["result"].split(":")[0].split() for e in lines if "-2 =" in e["result"]]
    assert len(penalised) >= 5
    assert all(int(w[4]) == max(int(w[1]) - 2, 0) for w in penalised)  # parry X -2 = Y
    assert all(e["actor"] == "Hald" for e in lines)
    assert any(e["target"] == "Brak" and "unarmed" in e["result"] for e in lines)


def test_the_narrative_says_a_blow_that_does_nothing_and_a_condition_in_words():
    from sim.systems.d6 import said

    assert said("none", "no damage") == "no damage"  # not "none; now none"
    assert said("none") == "unhurt"
    assert said("wounded_twice") == "wounded twice"
    assert said("mortally_wounded") == "mortally wounded"
    assert said("stunned") == "stunned"
