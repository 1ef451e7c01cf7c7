"""War Game called shots, dismemberment and lingering conditions (RULES.md 1.3-1.5)."""

from dataclasses import replace
from fractions import Fraction

import pytest

from sim.dice import Dist
from sim.errors import SimError
from sim.rules import wargame as wg
from tests.conftest import ScriptedRng, assert_matches
from tests.rules.test_wargame import NA, hit

HALF = wg.make_options({"called_shot_cost": "half"})
ON_WOUND = wg.make_options({"dismember": "wound"})
NEVER = wg.make_options({"dismember": "never"})
RECORD = wg.make_options({"lingering": "record"})
ROLLED = wg.make_options({"wound_types": "rolled"})


def test_option_defaults():
    o = wg.DEFAULT_OPTIONS
    assert (o.called_shot_cost, o.dismember, o.lingering) == ("hd", "max_damage", "conditions")
    with pytest.raises(SimError, match="not one of"):
        wg.make_options({"dismember": "always"})


# --------------------------------------------------------------------------- paying
def test_a_called_shot_costs_one_hd_more_not_rolled():
    c = wg.combatant(4)
    assert wg.called_shot_extra() == 1 and wg.called_shot_extra(HALF) == 0
    after, paid = wg.pay_called_shot(c)
    assert (after.spendable, paid.cost) == (1, 2)  # 2 HD rolled, 1 more spent on the aim
    assert wg.can_call_shot(wg.spend(c, 1))  # 3 left: 2 + 1
    assert not wg.can_call_shot(wg.spend(c, 2))  # 2 left: the maneuver takes both
    assert not wg.can_call_shot(wg.spend(c, 3))  # 1 left: a 1 HD maneuver + 1 is 2
    assert wg.can_call_shot(wg.spend(c, 3), HALF)  # half: no extra HD
    assert wg.pay_called_shot(wg.spend(c, 3), HALF)[0].spendable == 0
    with pytest.raises(SimError, match="called shot"):
        wg.pay_called_shot(wg.spend(c, 2))


def test_half_cost_halves_the_damage_rounded_down():
    c = wg.combatant(3, armor=["chain"])  # pool 6
    after, h = wg.resolve_attack(c, hit(13, 6, 7), called="arm", options=HALF)
    assert (h.rolled, h.damage, after.armor_pool, after.hit_dice) == (13, 6, 0, 3)
    assert "called shot: damage halved" in h.effects
    assert [wg.called_damage(d, HALF) for d in (1, 2, 7)] == [0, 1, 3]
    assert wg.called_damage(7) == 7


def test_called_shot_names_an_arm_or_a_leg():
    with pytest.raises(SimError, match="did you mean 'leg'"):
        wg.resolve_attack(wg.combatant(3), hit(3), called="legs")
    with pytest.raises(SimError, match="unknown called shot 'head'"):
        wg.attack_dist(wg.combatant(3), 2, called="head")


# --------------------------------------------------------------------------- lamellar
def test_lamellar_cannot_spend_armor_on_a_called_shot_at_a_limb():
    c = wg.combatant(3, armor=["lamellar"])  # pool 4
    plain, ph = wg.resolve_attack(c, hit(3, 1, 2))
    assert (plain.armor_pool, plain.hit_dice) == (1, 3)  # the pool absorbs a plain blow
    called, ch = wg.resolve_attack(c, hit(3, 1, 2), called="leg")
    assert (called.armor_pool, called.hit_dice, len(ch.wounds)) == (4, 2, 1)  # pool untouched
    assert ch.describe() == (
        "plain: 2d8 [1, 2] = 3; wound, 2 HD left; called shot at the leg; "
        "lamellar leaves the leg bare"
    )
    # other armor protects limbs as it protects the rest
    chain = wg.combatant(3, armor=["chain"])
    assert wg.resolve_attack(chain, hit(3, 1, 2), called="arm")[0].armor_pool == 3


def test_a_dodge_or_a_block_still_avoids_a_called_shot():
    c = wg.combatant(3, armor=["lamellar"], inventory_slots=1)
    dodged, h = wg.resolve_attack(c, hit(16, 8, 8), defence="dodge", called="leg")
    assert h.dodged and (dodged.hit_dice, dodged.conditions) == (3, ())
    on = wg.make_options({"inventory_block": True})
    blocked, h = wg.resolve_attack(c, hit(16, 8, 8), defence="block", called="leg", options=on)
    assert h.blocked and (blocked.hit_dice, blocked.conditions) == (3, ())


# --------------------------------------------------------------------------- dismemberment
def test_max_damage_on_a_called_shot_that_wounds_takes_the_limb_off():
    c = wg.combatant(3, armor=["lamellar"])
    after, h = wg.resolve_attack(c, hit(16, 8, 8), called="leg")
    assert after.conditions == ("lost_leg",)
    assert [w.type for w in h.wounds] == ["lingering"]
    assert "leg taken off (lost_leg)" in h.effects
    assert not wg.can_dodge(after)
    # not max damage: a plain wound
    after, h = wg.resolve_attack(c, hit(15, 7, 8), called="leg")
    assert (after.conditions, h.wounds[0].type) == ((), None)
    # max damage that does not wound takes nothing off (chain and doublet absorb 9)
    chain = wg.combatant(3, armor=["chain", "doublet"])
    after, h = wg.resolve_attack(wg.spend(chain, 2), hit(8, 8), called="arm")
    assert (after.hit_dice, after.conditions) == (3, ())


def test_plate_prevents_dismemberment():
    c = wg.combatant(3, armor=["plate"], dex_modifier=-8)  # pool 0: every blow wounds
    after, h = wg.resolve_attack(c, hit(16, 8, 8), called="arm")
    assert (after.hit_dice, after.conditions, h.wounds[0].type) == (2, (), None)
    assert "plate: the arm stays on" in h.effects


def test_dismember_option():
    c = wg.combatant(3)
    assert wg.resolve_attack(c, hit(3, 1, 2), called="arm", options=ON_WOUND)[0].conditions == (
        "lost_arm",
    )
    assert wg.resolve_attack(c, hit(16, 8, 8), called="arm", options=NEVER)[0].conditions == ()
    assert [wg.dismembers(m, o) for o in (wg.DEFAULT_OPTIONS, ON_WOUND, NEVER) for m in (0, 1)] == [
        False,
        True,
        True,
        True,
        False,
        False,
    ]
    # a limb taken off leaves its condition whether lingering wounds roll conditions or not
    after, _ = wg.resolve_attack(c, hit(16, 8, 8), called="arm", options=RECORD)
    assert after.conditions == ("lost_arm",)


def test_called_shot_exact_distribution():
    c = wg.combatant(3, armor=["lamellar"])
    exact = wg.attack_dist(c, 2, called="leg")
    got = exact.map(lambda x: (x.hit_dice, x.armor_pool, x.conditions))
    assert got == Dist({(2, 4, ()): Fraction(63, 64), (2, 4, ("lost_leg",)): Fraction(1, 64)})
    plate = wg.combatant(1, armor=["plate"])
    assert wg.attack_dist(plate, 1, called="arm", options=ON_WOUND).prob(
        lambda x: x.conditions != ()
    ) == Fraction(0)


def test_called_shot_matches_exact(rng):
    opts = wg.make_options({"wound_types": "rolled", "max_damage": "any_eight"})
    target = wg.combatant(3, armor=["lamellar"])
    exact = wg.attack_dist(target, 2, "axe", called="arm", options=opts)
    samples = [
        wg.resolve_attack(
            target,
            wg.roll_damage(2, rng, max_damage="any_eight"),
            "axe",
            called="arm",
            rng=rng,
            options=opts,
        )[0]
        for _ in range(NA)
    ]
    assert_matches(samples, exact)


def test_gets_through():
    lam = wg.combatant(3, armor=["lamellar"])  # pool 4
    assert [wg.gets_through(lam, d) for d in (4, 5)] == [False, True]
    assert wg.gets_through(lam, 1, "leg") and not wg.gets_through(lam, 1, "leg", HALF)
    chain = wg.combatant(3, armor=["chain"])  # pool 6
    assert not wg.gets_through(chain, 6, "arm") and wg.gets_through(chain, 7, "arm")
    assert not wg.gets_through(chain, 13, "arm", HALF) and wg.gets_through(chain, 14, "arm", HALF)


def test_shot_wound_chance_exact():
    lam = wg.combatant(3, armor=["lamellar"])  # pool 4
    assert wg.shot_wound_chance(lam, 2) == Fraction(58, 64)  # 2d8 > 4
    assert wg.shot_wound_chance(lam, 2, called=True) == 1
    assert wg.shot_wound_chance(lam, 1, called=True, options=HALF) == Fraction(7, 8)  # d8 // 2 > 0
    chain = wg.combatant(3, armor=["chain"])  # pool 6
    assert wg.shot_wound_chance(chain, 2) == wg.shot_wound_chance(chain, 2, called=True)
    assert wg.shot_wound_chance(chain, 2) == Fraction(49, 64)
    assert wg.shot_wound_chance(chain, 2, called=True, options=HALF) == Fraction(6, 64)  # 14+
    assert wg.shot_wound_chance(chain, 2, "gun") == 1
    assert wg.shot_wound_chance(wg.combatant(3), 2, "warbow") == 1  # unblocked
    assert wg.shot_wound_chance(chain, 2, "warbow") == Fraction(49, 64)  # metal blocks it


# --------------------------------------------------------------------------- conditions
def test_lingering_wounds_roll_a_condition_or_are_recorded():
    c = wg.combatant(3)
    # wound_types rolled: the d4 type (4: lingering), then the d4 condition (3: lost leg)
    after, h = wg.resolve_attack(c, hit(3), rng=ScriptedRng([4, 3]), options=ROLLED)
    assert (h.wounds[0].type, after.conditions) == ("lingering", ("lost_leg",))
    assert "lingering wound: lost_leg" in h.effects
    rec = wg.make_options({"wound_types": "rolled", "lingering": "record"})
    after, h = wg.resolve_attack(c, hit(3), rng=ScriptedRng([4, 3]), options=rec)
    assert (h.wounds[0].type, after.conditions) == ("lingering", ())
    exact = wg.attack_dist(c, 1, options=ROLLED)
    assert exact.prob(lambda x: x.conditions == ("blinded",)) == Fraction(1, 16)


def test_condition_table_and_rolls(rng):
    assert wg.CONDITIONS == ("blinded", "lost_arm", "lost_leg", "shaken")
    assert wg.condition_dist() == Dist({k: Fraction(1, 4) for k in wg.CONDITIONS})
    assert_matches([wg.roll_condition(rng) for _ in range(NA)], wg.condition_dist())
    assert wg.blind_attack_dist() == Dist({False: Fraction(1, 2), True: Fraction(1, 2)})
    assert_matches([wg.roll_blind_attack(rng) for _ in range(NA)], wg.blind_attack_dist())
    assert [wg.roll_blind_attack(ScriptedRng([f])) for f in (4, 5)] == [False, True]
    with pytest.raises(SimError, match="unknown condition"):
        wg.add_condition(wg.combatant(3), "cursed")


def test_condition_effects():
    c = wg.combatant(4, armor=["doublet"], shield="large")  # pool 2 + 4
    assert (c.armor_max, c.shield) == (6, 4)
    arm = wg.add_condition(c, "lost_arm")
    assert (arm.armor_max, arm.armor_pool, arm.shield) == (2, 2, 0)  # the shield goes
    assert wg.add_condition(arm, "lost_arm") == arm  # nothing more the second time
    assert [wg.attack_dice(arm, n) for n in (1, 2, 4)] == [1, 1, 3]
    assert [wg.attack_dice(c, n) for n in (1, 2)] == [1, 2]
    assert not wg.can_two_hand(arm) and wg.can_two_hand(c)
    leg = wg.add_condition(c, "lost_leg")
    assert wg.can_dodge(c) and not wg.can_dodge(leg)
    assert (wg.move_share(c), wg.move_share(leg)) == (1.0, 0.5)
    shaken = wg.add_condition(c, "shaken")
    assert (wg.morale_hd(c), wg.morale_hd(shaken)) == (4, 2)
    assert wg.morale_hd(replace(shaken, hit_dice=1, spendable=1)) == 0
    blind = wg.add_condition(c, "blinded")
    assert wg.has_condition(blind, "blinded") and not wg.has_condition(c, "blinded")
