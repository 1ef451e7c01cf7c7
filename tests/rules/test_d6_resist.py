"""D6 tiers poison, Resist Disease or Poison and resurrection (seed 003, RULES.md 4 healing)."""

from fractions import Fraction

import pytest

from sim.dice import D6Code, Dist
from sim.errors import SimError
from sim.rules import d6
from tests.conftest import assert_matches

T = d6.DamageTier
C = d6.Condition.from_label
N = 10_000


@pytest.mark.parametrize(
    ("poison_from", "poisoning"),
    [
        ("wounded", {T.WOUNDED, T.INCAPACITATED, T.MORTALLY_WOUNDED}),
        ("stunned", {T.STUNNED, T.WOUNDED, T.INCAPACITATED, T.MORTALLY_WOUNDED}),
    ],
)
def test_a_poisoned_blade_poisons_a_wounding_blow_and_never_the_dead(poison_from, poisoning):
    opts = d6.Options(poison_from=poison_from)
    assert {t for t in T if d6.poisons(t, opts)} == poisoning


def test_the_more_potent_poison_stays():
    assert d6.stronger_poison("", "3D") == "3D"
    assert d6.stronger_poison("3D", "") == "3D"
    assert d6.stronger_poison("3D", "3D+1") == "3D+1"
    assert d6.stronger_poison("4D", "3D+2") == "4D"
    assert d6.stronger_poison("3D+1", "3D+1") == "3D+1"


def test_resist_ties_go_to_the_patient_and_a_failure_is_one_spot_worse():
    r = d6.resist_poison(C("wounded"), 10, 10)
    assert r == d6.ResistResult(True, 0, C("wounded"))
    r = d6.resist_poison(C("wounded"), 9, 10)
    assert r == d6.ResistResult(False, -1, C("wounded_twice"))
    ladder = ["wounded", "wounded_twice", "incapacitated", "mortally_wounded", "dead"]
    for before, after in zip(ladder, ladder[1:], strict=False):
        assert d6.resist_poison(C(before), 1, 20).condition == C(after)
    assert d6.resist_poison(C("dead"), 1, 20).condition == C("dead")
    # at least Wounded: the unhurt and the stunned are Wounded
    assert d6.resist_poison(C("none"), 1, 20).condition == C("wounded")
    assert d6.resist_poison(C("stunned"), 1, 20).condition == C("wounded")


@pytest.mark.parametrize(
    ("margin", "after"),
    [
        (2, "wounded"),
        (4, "wounded_twice"),
        (10, "incapacitated"),
        (14, "mortally_wounded"),
        (16, "dead"),
    ],
)
def test_by_margin_the_poison_strikes_like_a_blow(margin, after):
    r = d6.resist_poison(C("wounded"), 10, 10 + margin, "by_margin")
    assert not r.resisted and r.margin == -margin and r.condition == C(after)
    # a stun on a wounded patient changes nothing
    assert d6.resist_poison(C("wounded"), 10, 11, "by_margin").condition == C("wounded")
    with pytest.raises(SimError, match="poison_fails"):
        d6.resist_poison(C("wounded"), 1, 2, "both")


def test_first_aid_adds_its_dice_to_resist():
    assert d6.resist_code(D6Code(3), 0) == D6Code(3)
    assert d6.resist_code(D6Code(3, 1), 2) == D6Code(5, 1)
    assert d6.FirstAidResult(True, False, C("wounded")).resist_dice == 1
    assert d6.FirstAidResult(True, True, C("wounded")).resist_dice == 2
    assert d6.FirstAidResult(False, False, C("wounded")).resist_dice == 0
    with pytest.raises(SimError):
        d6.resist_code(D6Code(3), -1)


def test_resist_dist_exact_one_die_against_one_die():
    dist = d6.resist_poison_dist(C("wounded"), D6Code(1), D6Code(1))
    resisted = dist.map(lambda r: r.resisted)
    assert resisted == Dist({True: Fraction(21, 36), False: Fraction(15, 36)})
    worse = dist.map(lambda r: r.condition.label)
    assert worse == Dist({"wounded": Fraction(21, 36), "wounded_twice": Fraction(15, 36)})
    # +1D of first aid: 2D against 1D fails only when 2D < 1D
    helped = d6.resist_poison_dist(C("wounded"), D6Code(1), D6Code(1), bonus_dice=1)
    assert helped.map(lambda r: r.resisted)[False] == Fraction(20, 216)


@pytest.mark.parametrize("fails", d6.POISON_FAILS)
def test_roll_resist_matches_exact(rng, fails):
    samples = [
        d6.roll_resist_poison(C("wounded"), D6Code(2), D6Code(3), rng, 1, fails).condition.label
        for _ in range(N)
    ]
    exact = d6.resist_poison_dist(C("wounded"), D6Code(2), D6Code(3), 1, fails)
    assert_matches(samples, exact.map(lambda r: r.condition.label))


def test_resurrection_who_how_many_and_as_what():
    assert d6.can_resurrect(D6Code(4)) and not d6.can_resurrect(D6Code(3, 2))
    assert d6.can_resurrect(D6Code(0), priest_spell=True)
    assert d6.resurrections_per_day(8) == 8 and d6.resurrections_per_day(0) == 0
    assert d6.raised_condition() == d6.UNHURT
    assert d6.raised_condition("wounded_twice") == C("wounded_twice")
    with pytest.raises(SimError, match="raised_as"):
        d6.raised_condition("healed")
    effects = d6.resurrection_effects()
    assert (effects.body_penalty_pips, effects.other_penalty_pips, effects.hours) == (2, 3, 12)
