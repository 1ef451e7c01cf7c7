"""D6 tiers rules of issue 19: cover on the body, the modifiers table as outnumbering, the
Multiple Action Penalty of a round, area attacks, the odds a tactic weighs, the turn cycle.

Seed numbers exactly, by hand; every roll against its exact ``*_dist`` twin.
"""

from fractions import Fraction

import pytest

from sim.dice import Dist, parse_code
from sim.errors import SimError
from sim.rules import d6
from sim.rules.d6 import DEFAULT_OPTIONS, AreaTarget, AttackModifiers, Condition, Options
from tests.conftest import assert_matches

C = parse_code
NONE = Condition()
W1 = Condition.of("wounded")
W2 = Condition.from_label("wounded_twice")
N = 6_000


def test_new_option_defaults():
    o = DEFAULT_OPTIONS
    assert (o.cover_on, o.area_dodge_map, o.outnumber_pips, o.turn_order) == (
        "difficulty",
        "each",
        0,
        "popcorn",
    )


# --- cover: on the difficulty, the body, or both -------------------------------------------
def test_cover_dice_go_where_cover_on_says():
    assert d6.attack_modifiers(cover=2) == AttackModifiers(difficulty_dice=C("2D"))
    body = Options(cover_on="body")
    assert d6.attack_modifiers(cover=2, options=body) == AttackModifiers(body_dice=C("2D"))
    both = Options(cover_on="both")
    assert d6.attack_modifiers(cover=3, options=both) == AttackModifiers(
        difficulty_dice=C("3D"), body_dice=C("3D")
    )
    # with scale: a larger target's own body dice and the cover's add up
    assert d6.attack_modifiers(cover=1, target_size=2, options=body) == AttackModifiers(
        easing_dice=C("2D"), body_dice=C("3D")
    )
    # a called shot's difficulty stays on the difficulty wherever cover goes
    assert d6.attack_modifiers(cover=1, called_shot=True, options=body) == AttackModifiers(
        difficulty_dice=C("1D"), damage_dice=C("1D"), body_dice=C("1D")
    )


# --- modifiers table: an advantage in pips becomes dice -------------------------------------
@pytest.mark.parametrize(
    ("pips", "dice"),
    [(0, 0), (-3, 0), (1, 1), (5, 1), (6, 2), (10, 2), (11, 3), (13, 3), (14, 4), (16, 4), (17, 5)],
)
def test_advantage_from_pips_by_the_modifiers_table(pips, dice):
    assert d6.advantage_from_pips(pips) == C(f"{dice}D")


def test_sixteen_pips_is_decisive_or_overwhelming():
    assert d6.advantage_from_pips(16) == C("4D")
    assert d6.advantage_from_pips(16, Options(modifier_overlap_16="overwhelming")) == C("5D")
    assert d6.advantage_from_pips(15, Options(modifier_overlap_16="overwhelming")) == C("4D")


def test_outnumbering_is_pips_per_ally():
    assert d6.outnumber_dice(3) == C("0D")  # off by default
    three = Options(outnumber_pips=3)
    assert [d6.outnumber_dice(n, three) for n in range(7)] == [
        C(x) for x in ("0D", "1D", "2D", "2D", "3D", "4D", "5D")
    ]  # 0, 3, 6, 9, 12, 15, 18 pips
    four = Options(outnumber_pips=4)
    assert d6.outnumber_dice(4, four) == C("4D")  # 16 pips: decisive
    assert d6.outnumber_dice(4, Options(outnumber_pips=4, modifier_overlap_16="overwhelming")) == (
        C("5D")
    )
    with pytest.raises(SimError, match="allies"):
        d6.outnumber_dice(-1, three)


# --- the Multiple Action Penalty of a round -------------------------------------------------
def test_map_actions_counts_extra_attacks_and_area_dodges():
    assert d6.map_actions() == 0
    assert d6.map_actions(extra_attacks=1) == 1
    assert d6.map_actions(extra_attacks=2) == 2
    assert d6.map_actions(area_dodges=2) == 2  # each area attack dodged is an action
    once = Options(area_dodge_map="once")
    assert d6.map_actions(area_dodges=2, options=once) == 1
    assert d6.map_actions(extra_attacks=1, area_dodges=3, options=once) == 2
    assert d6.map_actions(area_dodges=0, options=once) == 0
    # -1D per action on every roll, Body too by default
    extra = d6.map_actions(extra_attacks=1, area_dodges=1)
    assert d6.penalty_dice(W1, extra=extra) == 3
    assert d6.penalty_dice(W1, extra=extra, body=True) == 2
    with pytest.raises(SimError, match="0 or more"):
        d6.map_actions(extra_attacks=-1)


# --- area attacks: one hit roll against every target ----------------------------------------
def test_area_attack_dist_by_hand():
    # 1D to hit; target a: dodge total 2 (already halved), difficulty 0; target b: no
    # reaction, difficulty 4. Damage 1D against body 1D for both.
    a = AreaTarget(2, 0, C("1D"), C("1D"))
    b = AreaTarget(0, 4, C("1D"), C("1D"))
    dist = d6.area_attack_dist(C("1D"), [a, b])
    tiers = d6.tier_dist(C("1D"), C("1D"))
    # a is hit on 3..6, b on 4..6: a roll of 3 hits a alone, 1 or 2 hits neither
    assert dist[("miss", "miss")] == Fraction(2, 6)
    assert dist[("none", "miss")] == Fraction(1, 6) * tiers["none"]
    assert dist[("stunned", "stunned")] == Fraction(3, 6) * tiers["stunned"] ** 2
    assert dist[("miss", "stunned")] == 0  # whatever hits b hits a
    # the shared roll ties the targets together: not the product of the marginals
    pa = dist.prob(lambda o: o[0] != "miss")
    pb = dist.prob(lambda o: o[1] != "miss")
    assert (pa, pb) == (Fraction(4, 6), Fraction(3, 6))
    assert dist.prob(lambda o: "miss" not in o) == Fraction(3, 6) != pa * pb


def test_area_attack_of_one_target_is_an_attack():
    t = AreaTarget(0, 10, C("4D"), C("3D"), d6.attack_modifiers(cover=1))
    one = d6.area_attack_dist(C("4D"), [t]).map(lambda o: o[0])
    assert one == d6.attack_dist(C("4D"), C("0D"), 10, C("4D"), C("3D"), t.modifiers)


def test_area_attack_matches_exact(rng):
    targets = [
        AreaTarget(6, 10, C("3D"), C("3D")),
        AreaTarget(3, 10, C("3D"), C("2D"), d6.attack_modifiers(cover=1)),
        AreaTarget(0, 12, C("3D"), C("4D")),
    ]
    samples = [
        tuple(r.outcome for r in d6.roll_area_attack(C("4D"), targets, rng)) for _ in range(N)
    ]
    assert_matches(samples, d6.area_attack_dist(C("4D"), targets))


def test_area_attack_rolls_the_hit_once():
    from tests.conftest import ScriptedRng

    # hit 5; a: difficulty 4, hit, damage 6 vs body 1: wounded (5); b: difficulty 4, reaction
    # 5 ties: a miss
    rng = ScriptedRng([5, 6, 1])
    got = d6.roll_area_attack(
        C("1D"),
        [AreaTarget(0, 4, C("1D"), C("1D")), AreaTarget(5, 4, C("1D"), C("1D"))],
        rng,
    )
    assert [(r.hit_total, r.hit, r.outcome) for r in got] == [
        (5, True, "wounded"),
        (5, False, "miss"),
    ]


# --- the odds of a blow ---------------------------------------------------------------------
def test_reaction_use_dist():
    assert d6.reaction_use_dist(7) == Dist.constant(7)
    assert d6.reaction_use_dist(7, halve=True) == Dist.constant(3)
    assert d6.reaction_use_dist(7, halve=True, options=Options(halve_round="up")) == (
        Dist.constant(4)
    )
    assert d6.reaction_use_dist(C("1D"), halve=True) == Dist(
        {0: Fraction(1, 6), 1: Fraction(2, 6), 2: Fraction(2, 6), 3: Fraction(1, 6)}
    )
    sixth = Fraction(1, 6)
    assert d6.reaction_use_dist(C("1D"), minus=2) == Dist(
        {0: 2 * sixth, 1: sixth, 2: sixth, 3: sixth, 4: sixth}
    )


def test_blow_dist_by_hand():
    # 1D meets difficulty 4 half the time (no reaction); 1D damage against 1D body: stunned
    # 12/36, wounded 3/36. On a Wounded target a stun changes nothing, a wound makes it
    # Wounded twice.
    dist = d6.blow_dist(W1, C("1D"), 0, 4, C("1D"), C("1D"))
    half = Fraction(1, 2)
    assert dist == Dist(
        {"wounded": half + half * Fraction(33, 36), "wounded_twice": half * Fraction(3, 36)}
    )
    assert d6.harm(dist) == (0, 2 * Fraction(69, 72) + 3 * Fraction(3, 72))
    # Wounded twice: a wound puts it out (incapacitated)
    out = d6.blow_dist(W2, C("1D"), 0, 4, C("1D"), C("1D"))
    assert d6.harm(out)[0] == Fraction(3, 72)


def test_blow_dist_is_the_attack_dist_stacked():
    mods = d6.attack_modifiers(cover=1, called_shot=True)
    args = (C("5D"), C("3D+1"), 10, C("4D"), C("3D"), mods)
    attack = d6.attack_dist(*args)
    blow = d6.blow_dist(NONE, *args)
    assert blow["none"] == attack["miss"] + attack["none"]
    for tier in ("stunned", "wounded", "incapacitated", "mortally_wounded", "dead"):
        assert blow[tier] == attack[tier]


def test_blow_dist_matches_a_rolled_blow(rng):
    hit, reaction, damage, body = C("4D"), C("3D"), C("4D"), C("3D")
    mods = d6.attack_modifiers(called_shot=True)
    samples = []
    for _ in range(N):
        use = d6.half_total(reaction.roll(rng))
        got = d6.roll_attack(hit, use, 10, damage, body, rng, mods)
        tier = got.damage.tier if got.damage is not None else "none"
        samples.append(d6.stacked(W1, tier).label)
    assert_matches(samples, d6.blow_dist(W1, hit, reaction, 10, damage, body, mods, halve=True))


def test_a_called_shot_raises_the_chance_to_take_out_when_the_hit_is_easy():
    plain = d6.harm(d6.blow_dist(NONE, C("4D"), 7, 10, C("4D"), C("3D")))
    called = d6.harm(
        d6.blow_dist(NONE, C("4D"), 7, 10, C("4D"), C("3D"), d6.attack_modifiers(called_shot=True))
    )
    assert called[0] > plain[0]
    # against a dodge it can hardly beat, the extra die of difficulty costs more than it gives
    plain = d6.harm(d6.blow_dist(NONE, C("3D"), 12, 10, C("5D"), C("2D")))
    called = d6.harm(
        d6.blow_dist(NONE, C("3D"), 12, 10, C("5D"), C("2D"), d6.attack_modifiers(called_shot=True))
    )
    assert called[0] < plain[0]


# --- the turn cycle -------------------------------------------------------------------------
def test_cycle_order_by_hand():
    # Dexterity in pips: a 9, b 9, c 12, d 9; sides a 0, b 1, c 1, d 0
    assert d6.cycle_order([9, 9, 12, 9], [0, 1, 1, 0], first_side=0) == [2, 0, 1, 3]
    assert d6.cycle_order([9, 9, 12, 9], [0, 1, 1, 0], first_side=1) == [2, 1, 0, 3]
    # three sides, all equal: the sides in turn from the first, each in the scenario's order
    assert d6.cycle_order([9] * 5, [0, 0, 1, 2, 2], first_side=2) == [3, 0, 2, 4, 1]
    assert d6.cycle_order([], [], first_side=0) == []
    with pytest.raises(SimError, match="first side"):
        d6.cycle_order([9, 9], [0, 1], first_side=2)
    with pytest.raises(SimError, match="one Dexterity"):
        d6.cycle_order([9], [0, 1], first_side=0)


def test_cycle_order_dist_by_hand():
    assert d6.cycle_order_dist([9, 9, 12], [0, 1, 1]) == Dist(
        {(2, 0, 1): Fraction(1, 2), (2, 1, 0): Fraction(1, 2)}
    )
    assert d6.cycle_order_dist([9, 12], [0, 0]) == Dist.constant((1, 0))


def test_roll_cycle_order_matches_exact(rng):
    dex, sides = [9, 9, 9, 10], [0, 1, 2, 0]
    samples = [tuple(d6.roll_cycle_order(dex, sides, rng)) for _ in range(N)]
    assert_matches(samples, d6.cycle_order_dist(dex, sides))
