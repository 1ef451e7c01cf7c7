"""The enumerating die (sim.odds.enumerate): every outcome of a draw at its exact chance."""

import dataclasses
import math
from fractions import Fraction

import icepool
import pytest

from sim.dice import D6Code
from sim.odds.enumerate import Enumerator, Unsupported, chance, enumerate_draw, multiset_count
from sim.rules import d6, deathwish, twowp, wargame
from sim.rules.wargame import contests
from sim.rules.wargame.options import DEFAULT_OPTIONS


def dist(options):
    return {v: p for v, p in options}


def test_a_scalar_draw_gives_each_value_once():
    got = dist(enumerate_draw(lambda rng: int(rng.integers(1, 7))))
    assert got == {v: Fraction(1, 6) for v in range(1, 7)}


def test_a_row_of_dice_gives_each_multiset_at_its_multinomial_chance():
    got = dist(enumerate_draw(lambda rng: tuple(int(x) for x in rng.integers(1, 7, size=3))))
    assert len(got) == multiset_count(6, 3) == math.comb(8, 3)
    assert sum(got.values()) == 1
    assert got[(1, 1, 1)] == Fraction(1, 216) and got[(1, 2, 3)] == Fraction(6, 216)


def test_multisets_give_the_same_totals_as_every_sequence():
    """Sorting a roll loses nothing a total needs: 3d6 as multisets is icepool's 3d6."""
    got = dist(enumerate_draw(lambda rng: int(rng.integers(1, 7, size=3).sum())))
    want = icepool.d6.pool(3).sum()  # icepool's exact 3d6
    assert got == {v: Fraction(want.quantity(v), want.denominator()) for v in want}


def test_a_uniform_compared_with_a_chance_is_true_at_that_chance():
    got = dist(enumerate_draw(lambda rng: rng.random() < 1 / 3))
    assert got == {True: Fraction(1, 3), False: Fraction(2, 3)}
    assert chance(0.1) == Fraction(1, 10) and chance(1.5) == 1 and chance(-1) == 0


def test_what_it_cannot_follow_is_refused():
    with pytest.raises(Unsupported, match="normal"):
        Enumerator().normal()
    with pytest.raises(Unsupported, match="twice"):
        enumerate_draw(lambda rng: (lambda u: (u < 0.5, u < 0.2))(rng.random()))
    with pytest.raises(Unsupported, match="number"):
        enumerate_draw(lambda rng: float(rng.random()))


def test_deathwish_damage_enumerated_is_the_rules_exact_distribution():
    """The rule's own roll, fought with the enumerating die, is sim odds's damage table."""
    got = dist(enumerate_draw(lambda rng: deathwish.roll_damage(4, 5, 1, 0, rng)))
    want = dict(deathwish.damage_dist(4, 5, armor=1, cover=0).items())
    assert got == want


@pytest.mark.parametrize("ties", ["reroll", "defender"])
def test_a_wargame_contest_with_its_re_rolls_is_the_rules_exact_distribution(ties):
    opts = dataclasses.replace(DEFAULT_OPTIONS, contest_ties=ties)

    def draw(rng):
        return contests.roll_contest(
            1, 2, rng, attacker_dice=2, defender_dice=1, options=opts
        ).winner

    got = dist(enumerate_draw(draw))
    want = dict(contests.contest_dist(1, 2, attacker_dice=2, defender_dice=1, options=opts).items())
    assert got == want


def test_a_keyed_roll_branches_once_per_key_with_the_summed_chance():
    """``sim.dice.outcome(..., key=)``: one option per key, its chance the sum of its values'."""

    def faces(rng):
        return tuple(int(x) for x in rng.integers(1, 7, size=2))

    got = enumerate_draw(faces, key=sum)
    totals = icepool.d6.pool(2).sum()
    want = {t: Fraction(n, totals.denominator()) for t, n in totals.items()}
    assert len(got) == 11
    assert {sum(v): p for v, p in got} == want


def test_wargame_damage_enumerated_is_the_rules_exact_distribution():
    """Branching per (total, max damage), the roll is the rules' own damage_roll_dist."""
    for mode in ("all_eight", "any_eight"):
        got = enumerate_draw(lambda rng, m=mode: wargame.roll_damage(3, rng, max_damage=m))
        assert {(r.total, r.is_max): p for r, p in got} == dict(
            wargame.damage_roll_dist(3, max_damage=mode).items()
        )


def test_d6_damage_and_hit_enumerated_are_the_rules_exact_distributions():
    damage, body = D6Code(3, 1), D6Code(2, 2)
    got = enumerate_draw(lambda rng: d6.roll_damage_vs_body(damage, body, rng))
    assert len(got) == len({r.tier for r, _ in got})  # one branch per tier
    assert {r.tier.value: p for r, p in got} == dict(d6.tier_dist(damage, body).items())
    hit = dict((r.hit, p) for r, p in enumerate_draw(lambda rng: d6.roll_hit(D6Code(3), 9, 2, rng)))
    assert len(hit) == 2  # one branch each for a hit and a miss
    assert hit[True] == D6Code(3).dist().prob(lambda t: d6.opposed(t, 9, 2))


def test_a_2w2p_exchange_enumerated_is_the_rules_exact_distribution():
    got = enumerate_draw(lambda rng: twowp.roll_exchange(4, 3, rng))
    assert {(h.felling, h.wounding): p for h, p in got} == dict(twowp.exchange_dist(4, 3).items())


def test_morale_armor_recovery_and_a_deathwish_shot_branch_per_what_they_change():
    """A morale roll per who flees, a recovery per pool, a shot per hit or miss: the rules'."""
    values = (2, 5, 5, 9)
    got = enumerate_draw(lambda rng: wargame.roll_morale(values, rng))
    assert len(got) == len({m.fleeing for m, _ in got}) == 3  # none; the 2; the 2 and both 5s
    assert {m.fleeing: p for m, p in got} == dict(wargame.morale_dist(values).items())
    c = wargame.Combatant(hit_dice=4, spendable=4, armor_pool=1, armor_max=4)
    got = enumerate_draw(lambda rng: wargame.recover_armor(c, rng)[0].armor_pool)
    assert dist(got) == dict(wargame.recover_armor_dist(1, 4).items())
    assert len(got) == 3  # a pool of 2, 3 or 4
    got = enumerate_draw(lambda rng: deathwish.roll_to_hit(rng, 5, 2, 0))
    assert dist(got) == dict(deathwish.hit_dist(5, 2, 0).items())
    assert len(got) == 2


def test_initiative_branches_once_per_side_that_goes_first():
    for ties in ("reroll", "first_listed"):
        options = dataclasses.replace(DEFAULT_OPTIONS, initiative_ties=ties)
        got = enumerate_draw(lambda rng, o=options: wargame.roll_initiative([2, 1, 3], rng, o))
        assert len(got) == 3
        assert {i.first: p for i, p in got} == dict(
            wargame.initiative_dist([2, 1, 3], options).items()
        )
