"""D6 tiers (seed 003, RULES.md 4): seed numbers exactly, Monte Carlo vs exact, properties."""

from dataclasses import fields
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.dice import D6Code, Dist, parse_code
from sim.errors import SimError
from sim.rules import d6
from sim.rules.common import Status, build_options, describe_options, load_csv
from sim.rules.d6 import (
    DEFAULT_OPTIONS,
    AttackModifiers,
    Condition,
    DamageTier,
    FirstAidResult,
    Options,
    ReactionUse,
    ResurrectionEffects,
)
from tests.conftest import assert_matches

C = parse_code
NONE = Condition()
STUNNED = Condition.of("stunned")
W1 = Condition.of("wounded")
W2 = Condition.from_label("wounded_twice")
INC = Condition.of("incapacitated")
MORT = Condition.of("mortally_wounded")
DEAD = Condition.of("dead")
LADDER = [NONE, STUNNED, W1, W2, INC, MORT, DEAD]

codes = st.builds(D6Code.from_pips, st.integers(0, 18))


# --- module shape --------------------------------------------------------------------------
def test_module_constants_and_registry():
    from sim.rules import get_system

    assert d6.NAME == "d6"
    assert d6.SEED == "003_fd1c4a13f28810ec.txt"
    assert get_system("d6") is d6
    assert d6.SEED in d6.__doc__ and "RULES.md section 4" in d6.__doc__


def test_every_option_is_documented_and_tagged():
    described = describe_options(Options)
    assert {o["name"] for o in described} == {f.name for f in fields(Options)}
    for o in described:
        assert o["tag"] in ("I", "H") and o["doc"]
        assert o["name"] in d6.__doc__  # the module docstring lists every option


def test_option_defaults():
    o = DEFAULT_OPTIONS
    assert (o.map_dice_per_action, o.map_applies_to_body, o.halve_round) == (1, True, "down")
    assert o.two_handed_parry_penalty == 2
    assert (o.called_shot_difficulty, o.called_shot_damage) == ("1D", "1D")
    assert (o.body_average, o.scale_basis, o.modifier_overlap_16) == (
        "pips_down",
        "target",
        "decisive",
    )
    assert (o.stun_penalty, o.wound_penalty, o.infection_max) == ("per_stun", "per_wound", 4)
    assert (o.first_aid_heal_dice, o.heal_wounded_twice) == ("2D", "one_wound")


def test_bad_options_are_clear_errors():
    with pytest.raises(SimError, match="did you mean 'halve_round'"):
        build_options(Options, {"halve_rond": "up"})
    with pytest.raises(SimError, match="options.scale_basis"):
        build_options(Options, {"scale_basis": "absolute"})
    with pytest.raises(SimError, match="options.called_shot_damage.*bad dice code"):
        Options(called_shot_damage="lots")
    assert build_options(Options, {"halve_round": "up"}).halve_round == "up"


# --- damage table (seed numbers) -----------------------------------------------------------
@pytest.mark.parametrize(
    ("difference", "tier"),
    [
        (-7, "none"),
        (0, "none"),  # a tie is no damage: defender's advantage
        (1, "stunned"),
        (3, "stunned"),
        (4, "wounded"),
        (8, "wounded"),
        (9, "incapacitated"),
        (12, "incapacitated"),
        (13, "mortally_wounded"),
        (15, "mortally_wounded"),
        (16, "dead"),
        (40, "dead"),
    ],
)
def test_damage_table_boundaries(difference, tier):
    assert d6.tier_for(difference) == DamageTier(tier)
    assert d6.tier_for(difference).value == tier


def test_damage_table_data_file():
    rows = [
        (r["min_difference"], r["max_difference"], r["tier"])
        for r in load_csv("d6_damage_table.csv")
    ]
    assert rows == [
        ("1", "3", "stunned"),
        ("4", "8", "wounded"),
        ("9", "12", "incapacitated"),
        ("13", "15", "mortally_wounded"),
        ("16", "", "dead"),
    ]
    assert [d6.tier_floor(t) for t in list(DamageTier)[1:]] == [1, 4, 9, 13, 16]
    # "use the lowest number in each tier +1 (ie. 5 for wounded, 10 for incapacitated)"
    assert d6.unknown_damage("wounded") == 5
    assert d6.unknown_damage(DamageTier.INCAPACITATED) == 10
    assert [t.rank for t in DamageTier] == [0, 1, 2, 3, 4, 5]
    with pytest.raises(SimError, match="did you mean 'wounded'"):
        d6.tier_floor("wonded")


def test_tier_dist_by_hand():
    # 1D vs 1D: the difference is d - b; ties and losses (21 of 36) are no damage.
    dist = d6.tier_dist(C("1D"), C("1D"))
    assert dist == Dist(
        {"none": Fraction(21, 36), "stunned": Fraction(12, 36), "wounded": Fraction(3, 36)}
    )
    # 0D+2 damage vs 0D+2 body: a tie, so no damage.
    assert d6.tier_dist(C("0D+2"), C("0D+2")) == Dist.constant("none")
    # 6D vs 0D: 16+ dead needs 16..36 on 6D.
    assert d6.tier_dist(C("6D"), C("0D"))["dead"] == C("6D").dist().prob(lambda v: v >= 16)


def test_damage_result_is_frozen_and_consistent(rng):
    r = d6.roll_damage_vs_body(C("3D"), C("2D"), rng)
    assert r.difference == r.damage - r.body and r.tier == d6.tier_for(r.difference)
    with pytest.raises(AttributeError):
        r.tier = DamageTier.DEAD  # type: ignore[misc]


# --- unarmed, body, called shot ------------------------------------------------------------
def test_unarmed_damage_is_strength_minus_two_pips():
    assert d6.unarmed_damage(C("3D")) == C("2D+1")
    assert d6.unarmed_damage(C("2D+2")) == C("2D")
    assert d6.unarmed_damage(C("1D+1")) == C("0D+2")
    assert d6.unarmed_damage(C("0D+1")) == C("0D")  # never below 0D


def test_body_code_average_in_pips():
    assert d6.body_code(C("3D+1"), C("2D+2")) == C("3D")  # (10 + 8) / 2 = 9 pips
    assert d6.body_code(C("3D"), C("2D")) == C("2D+1")  # 15 / 2 = 7 pips, rounded down
    up = Options(body_average="pips_up")
    assert d6.body_code(C("3D"), C("2D"), options=up) == C("2D+2")
    assert d6.body_code(C("3D"), C("3D"), C("2D")) == C("5D")  # plus armor/shield dice


def test_called_shot_defaults():
    assert d6.attack_modifiers(called_shot=True) == AttackModifiers(
        difficulty_dice=C("1D"), damage_dice=C("1D")
    )
    gm = Options(called_shot_difficulty="2D", called_shot_damage="1D+1")
    assert d6.attack_modifiers(called_shot=True, options=gm) == AttackModifiers(
        difficulty_dice=C("2D"), damage_dice=C("1D+1")
    )
    assert d6.attack_modifiers() == d6.NO_MODIFIERS == AttackModifiers()


def test_cover_is_one_to_four_dice_on_the_difficulty():
    assert d6.attack_modifiers(cover=4).difficulty_dice == C("4D")
    assert d6.attack_modifiers(cover=2, called_shot=True).difficulty_dice == C("3D")
    for bad in (-1, 5):
        with pytest.raises(SimError, match="cover"):
            d6.attack_modifiers(cover=bad)


# --- scale ---------------------------------------------------------------------------------
SIZES = {
    "Large fortress": 24,
    "War galley": 21,
    "Four-story building": 20,
    "Pillarworm": 16,
    "Two-story building": 14,
    "Longship": 12,
    "Dragon": 12,
    "One-story building": 10,
    "Small hut": 8,
    "Large Carraige": 6,
    "Ferokai": 5,
    "Sern": 5,
    "Besith": 5,
    "Lamdril": 3,
    "Tua": 3,
    "Kol Crane": 2,
    "Beloa'a": 2,
    "Ralitan": 2,
    "Average Mortal": 0,
    "Doka": -1,
    "Polu Heron": -1,
    "Humu": -2,
    "Homonculi": -3,
    "Child": -3,
    "Rockhoppers": -4,
    "Simiae": -4,
    "Pegiya": -6,
    "Spathae": -6,
    "Go'o": -6,
    "Drikhi": -9,
    "Phosaerons": -9,
    "Tomb ant": -9,
    "Sprite": -12,
    "Drobit": -12,
    "Weta": -12,
    "Coin": -15,
    "Piki": -21,
}


def test_size_table_values():
    rows = load_csv("d6_sizes.csv")
    assert [r["participant"] for r in rows] == list(SIZES)
    for name, value in SIZES.items():
        assert d6.size_value(name) == value
        assert int(next(r for r in rows if r["participant"] == name)["size_value"]) == abs(value)
    assert d6.size_value("large FORTRESS") == 24 and d6.size_value("tomb_ant") == -9
    assert d6.size_value(7) == 7
    with pytest.raises(SimError, match="did you mean 'Large Carraige'"):
        d6.size_value("Large Carriage!")


def test_scale_larger_target_eases_difficulty_and_adds_body():
    m = d6.attack_modifiers(target_size="Dragon")  # vs an Average Mortal attacker
    assert m == AttackModifiers(easing_dice=C("12D"), body_dice=C("12D"))


def test_scale_smaller_target_adds_difficulty_and_damage():
    m = d6.attack_modifiers(target_size="Humu")
    assert m == AttackModifiers(difficulty_dice=C("2D"), damage_dice=C("2D"))


def test_scale_is_relative_to_the_attacker():
    relative = Options(scale_basis="relative")
    # a Humu (2 smaller) attacking a Doka (1 smaller): the Doka is 1 larger than it
    m = d6.attack_modifiers(target_size="Doka", attacker_size="Humu", options=relative)
    assert m == AttackModifiers(easing_dice=C("1D"), body_dice=C("1D"))
    # a dragon attacking a mortal: the mortal is 12 smaller
    m = d6.attack_modifiers(target_size="Average Mortal", attacker_size="Dragon", options=relative)
    assert m == AttackModifiers(difficulty_dice=C("12D"), damage_dice=C("12D"))
    same = d6.attack_modifiers(target_size="Sern", attacker_size="Besith", options=relative)
    assert same == AttackModifiers()


def test_scale_by_default_is_the_target_size_value():
    # RULES.md 4: a smaller target adds its size value to the difficulty and the damage
    m = d6.attack_modifiers(target_size="Doka", attacker_size="Humu")
    assert m == AttackModifiers(difficulty_dice=C("1D"), damage_dice=C("1D"))
    # a larger target subtracts its value from the difficulty and adds it to its body
    m = d6.attack_modifiers(target_size="Sern", attacker_size="Dragon")
    assert m == AttackModifiers(easing_dice=C("5D"), body_dice=C("5D"))
    assert d6.attack_modifiers(target_size="Average Mortal", attacker_size="Dragon") == (
        AttackModifiers()
    )


# --- difficulty numbers and modifiers ------------------------------------------------------
def test_difficulty_numbers():
    expected = {
        "Very Easy": 5,
        "Easy": 10,
        "Moderate": 15,
        "Difficult": 20,
        "Very Difficult": 25,
        "Heroic": 30,
    }
    for name, number in expected.items():
        assert d6.difficulty_number(name) == number
    assert d6.difficulty_number("very_difficult") == 25
    with pytest.raises(SimError, match="did you mean 'Heroic'"):
        d6.difficulty_number("heroc")


def test_modifiers_table_data_and_dice():
    rows = [tuple(r.values()) for r in load_csv("d6_modifiers.csv")]
    assert rows == [
        ("slight", "1", "5", "1"),
        ("decent", "6", "10", "2"),
        ("solid", "11", "13", "3"),
        ("decisive", "14", "16", "4"),
        ("overwhelming", "16", "", "5"),
    ]
    dice = {"slight": 1, "decent": 2, "solid": 3, "decisive": 4, "overwhelming": 5}
    for degree, n in dice.items():
        assert d6.advantage_dice(degree) == D6Code(n)
    assert d6.advantage_dice("Solid Advantage") == C("3D")
    with pytest.raises(SimError):
        d6.advantage_dice("huge")


def test_modifiers_by_pips_and_the_overlap_at_16():
    expected = {1: "slight", 5: "slight", 6: "decent", 10: "decent", 11: "solid", 13: "solid"}
    expected |= {14: "decisive", 16: "decisive", 17: "overwhelming", 40: "overwhelming"}
    for pips, degree in expected.items():
        assert d6.advantage_degree(pips) == degree
    assert d6.advantage_pips("decisive") == (14, 16)
    assert d6.advantage_pips("overwhelming") == (17, None)
    other = Options(modifier_overlap_16="overwhelming")
    assert d6.advantage_degree(16, other) == "overwhelming"
    assert d6.advantage_degree(15, other) == "decisive"
    assert d6.advantage_pips("decisive", other) == (14, 15)
    assert d6.advantage_pips("overwhelming", other) == (16, None)
    with pytest.raises(SimError):
        d6.advantage_degree(0)


# --- actions, MAP, sprint, status penalties -------------------------------------------------
def test_actions_and_multiple_action_penalty():
    assert d6.extra_actions(1, 1) == 0  # one regular, one move
    assert d6.extra_actions(0, 2) == 0  # a sprint
    assert d6.extra_actions(0, 1) == 0
    assert d6.extra_actions(2, 1) == 1
    assert d6.extra_actions(3, 2) == 3
    assert d6.extra_actions(0, 3) == 1
    assert d6.extra_actions(1, 1, map_reactions=1) == 1  # dodging an area attack
    assert d6.is_sprint(0, 2) and not d6.is_sprint(1, 1)
    assert d6.penalty_dice(extra=2) == 2
    assert d6.penalty_dice(extra=2, body=True) == 2
    assert d6.penalty_dice(extra=2, body=True, options=Options(map_applies_to_body=False)) == 0
    assert d6.apply_penalty(C("4D+1"), 2) == C("2D+1")
    assert d6.apply_penalty(C("1D"), 3) == C("0D")
    with pytest.raises(SimError):
        d6.extra_actions(-1, 1)


def test_status_penalties():
    assert d6.penalty_dice(W1) == 1
    assert d6.penalty_dice(W2) == 2
    assert d6.penalty_dice(W2, options=Options(wound_penalty="once")) == 1
    assert d6.penalty_dice(W1, body=True) == 0  # status penalties spare Body
    assert d6.penalty_dice(stuns=2) == 2
    assert d6.penalty_dice(stuns=2, options=Options(stun_penalty="once")) == 1
    assert d6.penalty_dice(W2, stuns=1, extra=1) == 4
    assert d6.penalty_dice(STUNNED) == 0  # the stun itself is counted through stuns=
    # a stun weighs on the round it is taken and the next
    assert d6.stuns_in_effect([3], 3) == 1
    assert d6.stuns_in_effect([3], 4) == 1
    assert d6.stuns_in_effect([3], 5) == 0
    assert d6.stuns_in_effect([3, 4, 1], 4) == 2


def test_halving():
    assert d6.half_code(C("4D")) == C("2D")
    assert d6.half_code(C("3D")) == C("1D+1")  # 9 pips -> 4
    assert d6.half_code(C("3D"), Options(halve_round="up")) == C("1D+2")
    assert d6.half_code(C("0D+1")) == C("0D")
    assert d6.half_total(9) == 4 and d6.half_total(9, Options(halve_round="up")) == 5


def test_reaction_codes():
    assert d6.reaction_code(C("4D"), "dodge", sprinting=True) == C("2D")  # sprinters roll half
    assert d6.reaction_code(C("4D"), "parry", sprinting=True) == C("4D")
    assert d6.reaction_code(C("4D"), "dodge", sprinting=True, penalty=1) == C("1D")
    assert d6.reaction_code(C("3D"), "ride", mounted=True) == C("3D")
    with pytest.raises(SimError, match="mounted"):
        d6.reaction_code(C("3D"), "ride")
    with pytest.raises(SimError, match="did you mean 'dodge'"):
        d6.reaction_code(C("3D"), "dodg")


def test_reactions_against_attacks():
    assert d6.reaction_against(13) == ReactionUse(13, False)  # dodge: no MAP
    assert d6.reaction_against(13, area=True) == ReactionUse(6, True)  # half, and MAP
    assert d6.reaction_against(13, area=True, options=Options(halve_round="up")) == (
        ReactionUse(7, True)
    )
    assert d6.reaction_against(12, "parry") == ReactionUse(12, False)
    assert d6.reaction_against(12, "parry", two_handed_attacked=True) == ReactionUse(10, False)
    assert d6.reaction_against(
        12, "parry", two_handed_attacked=True, attacker_unarmed=True
    ) == ReactionUse(12, False)
    assert d6.reaction_against(1, "parry", two_handed_attacked=True) == ReactionUse(0, False)
    harsh = Options(two_handed_parry_penalty=6)
    assert d6.reaction_against(12, "parry", two_handed_attacked=True, options=harsh) == (
        ReactionUse(6, False)
    )
    with pytest.raises(SimError, match="cannot be parried"):
        d6.reaction_against(12, "parry", ranged=True)
    assert d6.reaction_against(12, ranged=True) == ReactionUse(12, False)
    assert d6.reaction_against(12, "ride") == ReactionUse(12, False)
    assert d6.reaction_against(12, "ride", area=True) == ReactionUse(6, False)
    full = Options(ride_vs_area="full")
    assert d6.reaction_against(12, "ride", area=True, options=full) == ReactionUse(12, False)


# --- opposed rolls -------------------------------------------------------------------------
def test_opposed_ties_go_to_the_defender():
    assert d6.opposed(15, 14, 15)  # beats the reaction, meets the difficulty
    assert not d6.opposed(15, 15, 10)  # tie with the reaction: a miss
    assert not d6.opposed(14, 10, 15)  # short of the difficulty
    assert d6.opposed(3, 0, 0)  # unopposed: reaction 0


def test_hit_dist_by_hand():
    assert d6.hit_dist(C("1D"), C("1D"), 0) == Fraction(15, 36)
    assert d6.hit_dist(C("1D"), C("1D"), 4) == Fraction(3 + 4 + 5, 36)
    assert d6.hit_dist(C("1D"), C("0D"), 7) == 0
    assert d6.hit_dist(C("2D"), C("0D"), 0) == 1
    assert d6.hit_dist(C("2D"), C("0D"), 12) == Fraction(1, 36)


def test_difficulty_dist_and_attack_dist_by_hand():
    m = AttackModifiers(difficulty_dice=C("1D"), easing_dice=C("1D"))
    assert d6.difficulty_dist(10, m) == C("1D").dist().combine(
        C("1D").dist(), lambda a, b: 10 + a - b
    )
    dist = d6.attack_dist(C("1D"), C("0D"), 4, C("1D"), C("1D"))
    p = Fraction(1, 2)  # 1D meets 4 half the time
    assert dist["miss"] == 1 - p
    assert dist["stunned"] == p * Fraction(12, 36)
    assert dist["wounded"] == p * Fraction(3, 36)


# --- stacking ------------------------------------------------------------------------------
def test_ladder_ranks_and_labels():
    assert [c.rank for c in LADDER] == list(range(7))
    assert [c.label for c in LADDER] == [
        "none",
        "stunned",
        "wounded",
        "wounded_twice",
        "incapacitated",
        "mortally_wounded",
        "dead",
    ]
    assert all(Condition.from_label(c.label) == c for c in LADDER)
    with pytest.raises(SimError):
        Condition(DamageTier.WOUNDED, 3)
    with pytest.raises(SimError):
        Condition(DamageTier.DEAD, 1)


def run(start, results):
    c = start
    seen = []
    for r in results:
        c = d6.stacked(c, r)
        seen.append(c.label)
    return seen


def test_stacking_sequence_by_hand():
    # wounded twice, then every 4+ one tier worse; stuns never worsen anything
    assert run(
        NONE, ["wounded", "wounded", "stunned", "wounded", "stunned", "wounded", "wounded"]
    ) == [
        "wounded",
        "wounded_twice",
        "wounded_twice",
        "incapacitated",
        "incapacitated",
        "mortally_wounded",
        "dead",
    ]
    # stunned any number of times
    assert run(NONE, ["stunned"] * 5) == ["stunned"] * 5
    assert run(STUNNED, ["wounded"]) == ["wounded"]
    # incapacitated is not held twice: a second one is mortally wounded
    assert run(NONE, ["incapacitated", "stunned", "incapacitated"]) == [
        "incapacitated",
        "incapacitated",
        "mortally_wounded",
    ]
    assert run(INC, ["wounded"]) == ["mortally_wounded"]
    assert run(W1, ["incapacitated"]) == ["incapacitated"]
    assert run(W2, ["incapacitated"]) == ["incapacitated"]
    assert run(W1, ["mortally_wounded"]) == ["mortally_wounded"]
    assert run(MORT, ["stunned", "wounded"]) == ["mortally_wounded", "dead"]
    assert run(NONE, ["dead"]) == ["dead"]
    assert run(DEAD, ["none", "stunned", "wounded"]) == ["dead"] * 3
    assert run(W1, ["none"]) == ["wounded"]


def test_status_and_acting():
    assert [d6.can_act(c) for c in LADDER] == [True] * 4 + [False] * 3
    assert [d6.status_for(c) for c in LADDER] == [Status.ACTIVE] * 4 + [
        Status.INCAPACITATED,
        Status.INCAPACITATED,
        Status.DEAD,
    ]
    assert d6.wake(INC) == W2  # after waking from incapacitated: wounded twice
    assert d6.wake(W1) == W1


# --- incapacitated and mortally wounded ----------------------------------------------------
def test_mortally_wounded_checks():
    assert d6.mortal_check_dist(1) == Dist.constant(False)
    assert d6.mortal_check_dist(2) == Dist.constant(False)
    assert d6.mortal_check_dist(3)[True] == Fraction(1, 36)  # 2D < 3: only a 2
    assert d6.mortal_check_dist(8)[True] == Fraction(21, 36)
    assert d6.mortal_check_dist(13) == Dist.constant(True)
    rounds = d6.death_round_dist()
    assert min(rounds.outcomes()) == 3 and max(rounds.outcomes()) == 13
    assert rounds[3] == Fraction(1, 36)
    assert rounds[4] == Fraction(35, 36) * Fraction(3, 36)
    assert d6.knockout_minutes_dist() == C("10D").dist()
    assert min(d6.knockout_minutes_dist().outcomes()) == 10


# --- healing -------------------------------------------------------------------------------
def test_time_heal_by_hand():
    assert d6.HEAL_INTERVAL_DAYS == 3
    # 1-4 infected: one tier worse; 5+ one tier better
    assert [d6.time_heal(c, 4).label for c in (W1, W2, INC)] == [
        "wounded_twice",
        "incapacitated",
        "mortally_wounded",
    ]
    assert [d6.time_heal(c, 5).label for c in (W1, W2, INC)] == ["none", "wounded", "wounded_twice"]
    assert d6.time_heal(W1, 1) == W2
    assert d6.time_heal(W1, 4, bonus=1) == NONE  # first aid's +1
    assert d6.time_heal(W1, 5, options=Options(infection_max=5)) == W2
    assert d6.time_heal(STUNNED, 1) == NONE  # stunned is effectively healed
    assert d6.time_heal(MORT, 18) == MORT  # mortally wounded does not heal by time
    assert d6.time_heal(DEAD, 18) == DEAD
    assert d6.time_heal(NONE, 1) == NONE


def test_time_heal_dist_by_hand():
    dist = d6.time_heal_dist(W1, C("1D"))
    assert dist == Dist({W2: Fraction(4, 6), NONE: Fraction(2, 6)})
    assert d6.time_heal_dist(W1, C("1D"), bonus=2)[NONE] == Fraction(4, 6)
    assert d6.time_heal_dist(MORT, C("3D")) == Dist.constant(MORT)


def test_heal_subtracts_from_the_damage():
    assert d6.heal(W1, 2, damage=8) == W1  # 6 is still wounded
    assert d6.heal(W1, 5, damage=8) == STUNNED  # 3: the tier of the difference
    assert d6.heal(W1, 4) == STUNNED  # unknown damage: 5 - 4 = 1
    assert d6.heal(W1, 5) == NONE  # 5 - 5 = 0
    assert d6.heal(INC, 2) == W1  # 10 - 2 = 8: wounded
    assert d6.heal(INC, 1) == INC
    assert d6.heal(MORT, 3) == INC  # 14 - 3 = 11
    assert d6.heal(MORT, 14) == NONE  # potions and spells may lift all the way
    assert d6.heal(DEAD, 50) == DEAD
    assert d6.heal(INC, 0, damage=20) == INC  # never worse
    # wounded twice: one wound at a time, or the total applied to each
    assert d6.heal(W2, 2) == W1
    assert d6.heal(W2, 1) == W2
    assert d6.heal(W2, 2, options=Options(heal_wounded_twice="both")) == STUNNED  # 5 - 2 = 3
    # unknown damage 5: a heal of 1 leaves 4 (wounded), 2-4 leave 3-1 (stunned), 5-6 heal
    expected = {W1: Fraction(1, 6), STUNNED: Fraction(3, 6), NONE: Fraction(2, 6)}
    assert d6.heal_dist(W1, C("1D")) == Dist(expected)


def test_first_aid_by_tier():
    difficulties = {r["condition"]: r["difficulty"] for r in load_csv("d6_first_aid.csv")}
    assert difficulties == {
        "stunned": "Very Easy",
        "wounded": "Easy",
        "wounded_twice": "Easy",
        "incapacitated": "Moderate",
        "mortally_wounded": "Difficult",
    }
    assert [d6.first_aid_difficulty(c) for c in LADDER[1:6]] == [5, 10, 10, 15, 20]
    for c in (NONE, DEAD):
        with pytest.raises(SimError, match="first aid cannot treat"):
            d6.first_aid_difficulty(c)


def test_first_aid_results():
    fail = d6.first_aid(W1, 9, 6)
    assert fail == FirstAidResult(False, False, W1)
    assert (fail.time_heal_bonus, fail.resist_dice) == (0, 0)
    ok = d6.first_aid(W1, 10, 4)  # meets Easy; 5 - 4 = 1: stunned
    assert ok == FirstAidResult(True, False, STUNNED)
    assert (ok.time_heal_bonus, ok.resist_dice) == (1, 1)
    big = d6.first_aid(W1, 20, 0)  # success by 10: doubled
    assert big == FirstAidResult(True, True, W1)
    assert (big.time_heal_bonus, big.resist_dice) == (2, 2)
    assert not d6.first_aid(W1, 19, 0).by_ten
    # mortally wounded: only stabilized and lessened to incapacitated
    assert d6.first_aid(MORT, 20, 14).condition == INC
    assert d6.first_aid(MORT, 19, 14).condition == MORT
    assert d6.first_aid(INC, 15, 2).condition == W1


def test_first_aid_dist_by_hand():
    # 3D against Very Easy 5 (stunned): fails on 3 or 4 (4 of 216), by 10+ on 15-18 (20 of
    # 216); the 2D heal always clears the stun's 2 points
    assert d6.first_aid_dist(STUNNED, C("3D")) == Dist(
        {
            FirstAidResult(False, False, STUNNED): Fraction(4, 216),
            FirstAidResult(True, False, NONE): Fraction(192, 216),
            FirstAidResult(True, True, NONE): Fraction(20, 216),
        }
    )
    dist = d6.first_aid_dist(W1, C("1D+2"), options=Options(first_aid_heal_dice="1D"))
    # 1D+2 meets Easy 10 not at all
    assert dist == Dist.constant(FirstAidResult(False, False, W1))
    dist = d6.first_aid_dist(W1, C("2D"), options=Options(first_aid_heal_dice="0D+1"))
    p = C("2D").dist().prob(lambda v: v >= 10)
    assert dist[FirstAidResult(True, False, W1)] == p  # 5 - 1 = 4: still wounded


def test_resurrection():
    assert d6.can_resurrect(C("4D")) and not d6.can_resurrect(C("3D+2"))
    assert d6.can_resurrect(C("1D"), priest_spell=True)
    assert d6.RESURRECTION_TIME_HOURS == 1
    assert d6.resurrection_effects() == ResurrectionEffects(2, 3, Fraction(12))


# --- Monte Carlo against exact -------------------------------------------------------------
N_FAST = 6_000
N_SLOW = 60_000


def tiers_sample(rng, damage, body, n):
    return [d6.roll_damage_vs_body(damage, body, rng).tier.value for _ in range(n)]


def test_damage_vs_body_matches_exact(rng):
    assert_matches(tiers_sample(rng, C("5D"), C("3D"), N_FAST), d6.tier_dist(C("5D"), C("3D")))


def attacks_sample(rng, hit, reaction, difficulty, damage, body, mods, n):
    out = []
    for _ in range(n):
        r = reaction.roll(rng)
        out.append(d6.roll_attack(hit, r, difficulty, damage, body, rng, mods).outcome)
    return out


def test_attack_matches_exact(rng):
    mods = d6.attack_modifiers(cover=1, called_shot=True)
    args = (C("5D"), C("3D+1"), 10, C("4D"), C("3D"), mods)
    assert_matches(attacks_sample(rng, *args, N_FAST), d6.attack_dist(*args))


def test_hit_and_difficulty_match_exact(rng):
    hits = []
    for _ in range(N_FAST):
        hits.append(int(d6.roll_hit(C("4D"), C("3D").roll(rng), 12, rng).hit))
    assert_matches(hits, Dist.bernoulli(d6.hit_dist(C("4D"), C("3D"), 12)))
    m = AttackModifiers(difficulty_dice=C("2D"), easing_dice=C("1D"))
    assert_matches(
        [d6.roll_difficulty(15, m, rng) for _ in range(N_FAST)], d6.difficulty_dist(15, m)
    )


def test_healing_rolls_match_exact(rng):
    assert_matches(
        [d6.roll_time_heal(W2, C("1D+1"), rng) for _ in range(N_FAST)],
        d6.time_heal_dist(W2, C("1D+1")),
    )
    assert_matches(
        [d6.roll_heal(INC, C("2D"), rng) for _ in range(N_FAST)], d6.heal_dist(INC, C("2D"))
    )
    assert_matches(
        [d6.roll_first_aid(W2, C("3D"), rng) for _ in range(N_FAST)],
        d6.first_aid_dist(W2, C("3D")),
    )


def test_mortal_rolls_match_exact(rng):
    assert_matches([d6.roll_mortal_check(7, rng) for _ in range(N_FAST)], d6.mortal_check_dist(7))
    assert_matches([d6.roll_death_round(rng) for _ in range(N_FAST)], d6.death_round_dist())
    assert_matches(
        [d6.roll_knockout_minutes(rng) for _ in range(N_FAST)], d6.knockout_minutes_dist()
    )


@pytest.mark.slow
@pytest.mark.parametrize(("damage", "body"), [("4D+2", "3D+1"), ("2D", "4D"), ("8D", "2D")])
def test_damage_vs_body_matches_exact_slow(rng, damage, body):
    assert_matches(tiers_sample(rng, C(damage), C(body), N_SLOW), d6.tier_dist(C(damage), C(body)))


@pytest.mark.slow
def test_attack_matches_exact_slow(rng):
    mods = d6.attack_modifiers(cover=2, target_size="Humu")
    args = (C("6D+1"), C("4D"), 15, C("3D"), C("2D+2"), mods)
    assert_matches(attacks_sample(rng, *args, N_SLOW), d6.attack_dist(*args))
    mods = d6.attack_modifiers(target_size="Kol Crane")
    args = (C("3D"), C("2D"), 10, C("5D"), C("2D"), mods)
    assert_matches(attacks_sample(rng, *args, N_SLOW), d6.attack_dist(*args))


@pytest.mark.slow
def test_rolls_match_exact_slow(rng):
    assert_matches(
        [d6.roll_first_aid(MORT, C("5D"), rng) for _ in range(N_SLOW)],
        d6.first_aid_dist(MORT, C("5D")),
    )
    assert_matches(
        [d6.roll_time_heal(INC, C("1D"), rng, bonus=1) for _ in range(N_SLOW)],
        d6.time_heal_dist(INC, C("1D"), bonus=1),
    )
    assert_matches([d6.roll_death_round(rng) for _ in range(N_SLOW)], d6.death_round_dist())


# --- properties ----------------------------------------------------------------------------
def test_a_pip_into_a_die_is_not_dominant():
    # 2D+2 damage (4..14) always beats 0D body; 3D (3..18) can roll 3: stunned, not wounded
    assert d6.tier_dist(C("2D+2"), C("0D")).prob(lambda t: t == "stunned") == 0
    assert d6.tier_dist(C("3D"), C("0D"))["stunned"] == Fraction(1, 216)


@given(st.integers(-30, 40), st.integers(-30, 40))
def test_tier_is_monotone_in_the_difference(a, b):
    lo, hi = sorted((a, b))
    assert d6.tier_for(lo).rank <= d6.tier_for(hi).rank


def at_least(dist: Dist, rank: int) -> Fraction:
    return dist.prob(lambda name: DamageTier(name).rank >= rank)


@settings(max_examples=40, deadline=None)
@given(codes, codes, st.integers(1, 3))
def test_more_body_never_raises_p_dead(damage, body, extra):
    # whole dice: a pip that rolls over into a die (2D+2 -> 3D) lowers the minimum, so it
    # is not stochastically larger (see test_a_pip_into_a_die_is_not_dominant)
    before = d6.tier_dist(damage, body)
    after = d6.tier_dist(damage, body.plus_dice(extra))
    assert after["dead"] <= before["dead"]
    for rank in range(1, 6):  # nor any tier or worse
        assert at_least(after, rank) <= at_least(before, rank)


@settings(max_examples=40, deadline=None)
@given(codes, codes, st.integers(1, 3))
def test_more_damage_never_lowers_harm(damage, body, extra):
    before = d6.tier_dist(damage, body)
    after = d6.tier_dist(damage.plus_dice(extra), body)
    for rank in range(1, 6):
        assert at_least(after, rank) >= at_least(before, rank)


@given(st.integers(0, 40), st.integers(0, 40))
def test_ties_always_favour_the_defender(total, difficulty):
    assert not d6.opposed(total, total, difficulty)
    assert d6.tier_for(total - total) is DamageTier.NONE
    assert d6.opposed(total, total - 1, total)  # meeting the difficulty is enough


@settings(max_examples=40, deadline=None)
@given(codes, st.integers(0, 20))
def test_equal_codes_hit_less_than_half_the_time(code, difficulty):
    assert d6.hit_dist(code, code, difficulty) < Fraction(1, 2)
    assert d6.tier_dist(code, code)["none"] > Fraction(1, 2)


@settings(max_examples=40, deadline=None)
@given(codes, codes, st.integers(0, 25), st.integers(1, 3))
def test_hit_chance_monotone(hit, reaction, difficulty, more):
    p = d6.hit_dist(hit, reaction, difficulty)
    assert d6.hit_dist(hit.plus_dice(more), reaction, difficulty) >= p
    assert d6.hit_dist(hit, reaction.plus_dice(more), difficulty) <= p
    assert d6.hit_dist(hit, reaction, difficulty + more) <= p


@given(st.sampled_from(LADDER), st.sampled_from(list(DamageTier)))
def test_stacking_never_improves_and_is_at_least_the_result(current, result):
    new = d6.stacked(current, result)
    assert new.rank >= current.rank
    assert (
        new.tier.rank >= min(result.rank, DamageTier.DEAD.rank) or current.tier is DamageTier.DEAD
    )


@given(st.sampled_from(LADDER), st.integers(0, 40), st.integers(1, 20))
def test_heal_never_worsens(condition, heal_total, damage):
    assert d6.heal(condition, heal_total).rank <= condition.rank
    assert d6.heal(condition, heal_total, damage).rank <= condition.rank
    assert d6.heal(condition, heal_total + 5).rank <= d6.heal(condition, heal_total).rank


@given(st.sampled_from(LADDER), st.integers(0, 30), st.integers(0, 2))
def test_time_heal_moves_at_most_one_spot(condition, total, bonus):
    new = d6.time_heal(condition, total, bonus)
    assert abs(new.rank - condition.rank) <= 1 or condition == STUNNED or new == NONE
    assert d6.time_heal(condition, total + 1, bonus).rank <= new.rank


@given(codes, codes, codes)
def test_body_code_bounds(strength, dexterity, armor):
    body = d6.body_code(strength, dexterity, armor)
    lo, hi = sorted((strength.total_pips, dexterity.total_pips))
    assert lo + armor.total_pips <= body.total_pips <= hi + armor.total_pips


@given(codes)
def test_halving_a_code(code):
    half = d6.half_code(code)
    assert 2 * half.total_pips in (code.total_pips, code.total_pips - 1)
    assert d6.reaction_code(code, "dodge", sprinting=True) == half


@settings(max_examples=25, deadline=None)
@given(codes, st.integers(1, 4))
def test_more_armor_never_raises_attack_harm(body, armor):
    base = d6.attack_dist(C("4D"), C("2D"), 10, C("4D"), body)
    armored = d6.attack_dist(C("4D"), C("2D"), 10, C("4D"), body + D6Code(armor))
    assert armored["dead"] <= base["dead"]
    assert armored["miss"] == base["miss"]
