"""War Game rules (seed 002, RULES.md section 1): seed numbers exactly, dice against exact."""

from dataclasses import replace
from fractions import Fraction
from itertools import product

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.dice import Dist
from sim.errors import SimError
from sim.rules import get_system
from sim.rules import wargame as wg
from sim.rules.common import Status
from tests.conftest import ScriptedRng, assert_matches

N = 10_000  # Monte Carlo samples for the fast checks of cheap rolls
NA = 3_000  # for the fast checks of whole attacks and contests (slower per sample)
NS = 200_000  # for the slow ones


def hit(total, *faces, is_max=None):
    """A DamageRoll with the given faces (total checked)."""
    faces = faces or (total,)
    assert sum(faces) == total
    return wg.DamageRoll(total, faces, all(f == 8 for f in faces) if is_max is None else is_max)


def bare(hd=3, **kw):
    return replace(wg.combatant(hd), **kw)


# --------------------------------------------------------------------------- module shape
def test_registered_with_name_and_seed():
    assert get_system("wargame") is wg
    assert wg.NAME == "wargame"
    assert wg.SEED == "002_5306f142c0f73876.txt"
    assert wg.SEED in wg.__doc__


def test_option_defaults_match_rules_md():
    o = wg.DEFAULT_OPTIONS
    assert o.damage == "hd_sum"
    assert o.finish == "incapacitate"
    assert o.inventory_block is False
    assert o.morale_compare == "hd"
    assert o.large_scale_above == 10
    assert o.pool == "members"
    assert o.contest_ties == "defender"
    assert o.act_out_of_turn is False
    assert o.initiative_ties == "reroll"
    assert o.faction_rounding == "half_up"
    assert o.skewer == "incapacitate"
    assert o.wound_types == "named"
    assert o.broken_bones == "all_hd_on_8"
    assert o.max_damage == "all_eight"
    assert o.hazard_contest is True
    assert o.survive == "any_source"
    assert o.torch_ignites == "ignitable"
    help_rows = wg.options_help()
    assert {r["name"] for r in help_rows} == set(wg.Options.__dataclass_fields__)
    assert all(r["tag"] in ("I", "H") and r["doc"] for r in help_rows)
    for row in help_rows:  # every option is listed in the module docstring
        assert f"``{row['name']}``" in wg.__doc__


def test_make_options_checks_names_and_values():
    assert wg.make_options({"damage": "weapon_d8"}).damage == "weapon_d8"
    with pytest.raises(SimError, match="did you mean 'damage'"):
        wg.make_options({"damag": "hd_sum"})
    with pytest.raises(SimError, match="not one of"):
        wg.make_options({"finish": "maim"})
    with pytest.raises(SimError):
        wg.make_options({"large_scale_above": 0})


# --------------------------------------------------------------------------- HD and maneuvers
def test_maneuver_costs_two_or_one_if_one_left():
    assert wg.maneuver_cost(5) == 2
    assert wg.maneuver_cost(2) == 2
    assert wg.maneuver_cost(1) == 1
    with pytest.raises(SimError):
        wg.maneuver_cost(0)
    c = wg.combatant(3)
    c, m = wg.pay_maneuver(c)
    assert (m.cost, c.spendable) == (2, 1)
    c, m = wg.pay_maneuver(c)
    assert (m.cost, c.spendable) == (1, 0)
    assert not wg.can_maneuver(c)
    with pytest.raises(SimError):
        wg.pay_maneuver(c)


def test_spent_hd_come_back_next_round():
    c = wg.spend(wg.combatant(4), 3)
    c, start = wg.start_round(c)
    assert c.spendable == 4 and start.spendable == 4 and start.burning is None


def test_act_out_of_turn_is_off_by_default_and_costs_one_hd():
    c = wg.combatant(3)
    assert not wg.can_act_out_of_turn(c)
    on = wg.make_options({"act_out_of_turn": True})
    assert wg.act_out_of_turn(c, on).spendable == 2


def test_back_into_the_fight_goes_last_two_rounds():
    c = wg.back_into_fight(replace(wg.combatant(3), status=Status.INCAPACITATED), 1)
    on = wg.make_options({"act_out_of_turn": True})
    assert c.status == Status.ACTIVE and c.goes_last
    lasts = []
    for _ in range(3):
        c, start = wg.start_round(c)
        lasts.append(start.goes_last)
        if start.goes_last:
            assert not wg.can_act_out_of_turn(c, on)
        c = wg.end_round(c)
    assert lasts == [True, True, False]
    assert wg.can_act_out_of_turn(c, on)


def test_healing_tools_give_one_hd_and_bring_the_incapacitated_back():
    c = wg.combatant(4, healing_tools=2)
    assert wg.use_healing_tool(c).healing_tools == 1 and wg.HEAL_HD == 1
    with pytest.raises(SimError, match="no healing tools left"):
        wg.use_healing_tool(wg.combatant(4))
    hurt = c.evolve(hit_dice=2, spendable=2)
    assert wg.heal(hurt, 4).hit_dice == 3 and wg.heal(hurt, 4).spendable == 2
    assert not wg.can_heal(c, 4)  # nothing lost
    with pytest.raises(SimError, match="nothing to heal: 4 of 4 HD"):
        wg.heal(c, 4)
    out = c.evolve(hit_dice=0, spendable=0, status=Status.INCAPACITATED)
    back = wg.heal(out, 4)
    assert (back.status, back.hit_dice, back.spendable, back.goes_last) == (
        Status.ACTIVE,
        1,
        0,
        True,
    )
    assert back.late_rounds == wg.BACK_IN_ROUNDS == 2
    assert not wg.can_heal(out.evolve(status=Status.DEAD), 4)  # the dead stay dead


# --------------------------------------------------------------------------- damage
def test_damage_is_the_spent_hd_totalled():
    assert wg.damage_dist(1) == Dist.die(8)
    assert wg.damage_dist(2).mean() == 9
    assert wg.damage_dist(2)[16] == Fraction(1, 64)
    assert wg.damage_dist(3, "weapon_d8") == Dist.die(8)  # one d8 whatever was spent
    with pytest.raises(SimError):
        wg.damage_dist(0)
    with pytest.raises(SimError):
        wg.damage_dist(2, "weapon_d6")


def test_max_damage_means_every_die_shows_eight():
    d = wg.damage_roll_dist(2)
    assert d.prob(lambda o: o[1]) == Fraction(1, 64)
    assert d[(16, True)] == Fraction(1, 64)
    assert wg.damage_roll_dist(1).prob(lambda o: o[1]) == Fraction(1, 8)
    assert wg.damage_roll_dist(3, "weapon_d8").prob(lambda o: o[1]) == Fraction(1, 8)
    anyd = wg.damage_roll_dist(2, max_damage="any_eight")
    assert anyd.prob(lambda o: o[1]) == Fraction(15, 64)
    assert anyd.map(lambda o: o[0]) == wg.damage_dist(2)


@pytest.mark.parametrize(
    ("dice", "mode", "max_damage"),
    [
        (1, "hd_sum", "all_eight"),
        (2, "hd_sum", "all_eight"),
        (3, "weapon_d8", "all_eight"),
        (2, "hd_sum", "any_eight"),
    ],
)
def test_roll_damage_matches_exact(rng, dice, mode, max_damage):
    samples = []
    for _ in range(N):
        r = wg.roll_damage(dice, rng, mode, max_damage=max_damage)
        assert sum(r.faces) == r.total
        samples.append((r.total, r.is_max))
    assert_matches(samples, wg.damage_roll_dist(dice, mode, max_damage))


# --------------------------------------------------------------------------- armor pool
def test_absorb_pool_drops_and_overflow_wounds():
    assert wg.absorb(5, 8) == wg.Absorb(3, False, False)
    assert wg.absorb(8, 8) == wg.Absorb(0, False, True)  # reduced to 0, no wound
    assert wg.absorb(9, 8) == wg.Absorb(0, True, True)  # damage > pool: 0 and a wound
    assert wg.absorb(1, 0) == wg.Absorb(0, True, False)  # no armor: any damage wounds
    assert wg.absorb(0, 0) == wg.Absorb(0, False, False)
    with pytest.raises(SimError):
        wg.absorb(3, -1)


def test_wound_chance_exact():
    assert wg.wound_chance(1, 0) == 1
    assert wg.wound_chance(1, 8) == 0
    assert wg.wound_chance(1, 5) == Fraction(3, 8)
    assert wg.wound_chance(2, 9) == Fraction(7, 16)  # P(2d8 >= 10) = 28/64
    assert wg.wound_chance(2, 16) == 0
    assert wg.wound_chance(3, 4, "weapon_d8") == Fraction(1, 2)
    d = wg.absorb_dist(2, 9)
    assert d.prob(lambda o: o[1]) == Fraction(7, 16)
    assert d[(0, False)] == Fraction(8, 64)  # exactly 9 empties the pool without a wound
    assert d[(7, False)] == Fraction(1, 64)


def test_armor_table_values():
    assert [a.name for a in wg.armors()] == [
        "doublet",
        "chain",
        "gambeson",
        "lamellar",
        "piecemeal",
        "plate",
    ]
    assert wg.armor_piece("doublet").value == 2
    assert wg.armor_piece("aketon").kind == "doublet"
    assert wg.armor_piece("chain").value == 6
    assert wg.armor_piece("scale").kind == "chain"
    assert wg.armor_piece("gambeson").value == 4
    assert wg.armor_piece("lamellar").value == 4
    assert [wg.armor_piece("piecemeal", n).value for n in (1, 2, 3, 4)] == [2, 4, 6, 8]
    assert wg.armor_piece("plate").value == 8
    assert wg.armor_spec("plate").prevents_dismemberment
    assert wg.armor_spec("chain").wear_on_empty == 1
    assert wg.armor_spec("lamellar").limbs_unprotected
    assert wg.armor_spec("gambeson").ignitable and wg.armor_spec("gambeson").dex_penalty == 1
    assert {a.name for a in wg.armors() if a.metal} == {"chain", "lamellar", "plate"}
    with pytest.raises(SimError):
        wg.armor_piece("piecemeal", 5)
    with pytest.raises(SimError):
        wg.armor_piece("plate", 2)
    with pytest.raises(SimError, match="did you mean 'plate'"):
        wg.armor_piece("plait")


def test_pool_maximum():
    assert wg.pool_maximum(["plate"]) == 8
    assert wg.pool_maximum(["plate"], dex_modifier=2) == 10
    assert wg.pool_maximum(["doublet"]) == 2
    assert wg.pool_maximum(["doublet", "plate"]) == 2 + 8 + 1  # +1 per other piece
    assert wg.pool_maximum(["doublet", ("piecemeal", 3)]) == 2 + 6 + 3
    assert wg.pool_maximum(["gambeson"], dex_modifier=2) == 4 + 2 - 1
    assert wg.pool_maximum(["chain"], shield="small") == 8
    assert wg.pool_maximum([], shield="medium") == 3
    assert wg.pool_maximum([], shield="large") == 4
    assert wg.pool_maximum([], shield="buckler") == 2
    assert wg.pool_maximum([], dex_modifier=-3) == 0
    assert wg.pool_maximum(["chain"], dex_modifier=wg.savvy_modifier(47)) == 13
    assert wg.savvy_modifier(47) == 7
    with pytest.raises(SimError):
        wg.savvy_modifier(7)
    with pytest.raises(SimError):
        wg.shield_value(5)
    with pytest.raises(SimError, match="did you mean 'small'"):
        wg.shield_value("smal")
    c = wg.combatant(3, armor=["chain"], dex_modifier=1, shield="large")
    assert (c.armor_pool, c.armor_max, c.shield) == (11, 11, 4)


def test_armor_recovery_spends_one_hd_and_caps(rng):
    c = replace(wg.combatant(3, armor=["plate"]), armor_pool=5)
    c2, rec = wg.recover_armor(c, rng)
    assert c2.spendable == 2
    assert rec.after == min(8, 5 + rec.roll) == c2.armor_pool
    assert wg.recover_armor_dist(5, 8) == Dist(
        {6: Fraction(1, 8), 7: Fraction(1, 8), 8: Fraction(6, 8)}
    )
    assert not wg.can_recover_armor(wg.combatant(3, armor=["plate"]))  # already full
    with pytest.raises(SimError):
        wg.recover_armor(wg.combatant(3, armor=["plate"]), rng)


def test_recover_armor_matches_exact(rng):
    c = replace(wg.combatant(3, armor=["plate"]), armor_pool=2)
    samples = [wg.recover_armor(c, rng)[0].armor_pool for _ in range(N)]
    assert_matches(samples, wg.recover_armor_dist(2, 8))


# --------------------------------------------------------------------------- defence
def test_dodge_spends_one_hd_and_avoids_everything():
    c = wg.combatant(3, armor=["plate"])
    c2, h = wg.resolve_attack(c, hit(16, 8, 8), "axe", defence="dodge", mighty=True)
    assert h.dodged and c2.spendable == 2
    assert (c2.hit_dice, c2.armor_pool) == (3, 8)


def test_dodge_not_after_own_mighty_attack_until_next_turn():
    a = wg.declare_mighty(wg.combatant(3))
    assert not wg.can_dodge(a)
    with pytest.raises(SimError):
        wg.resolve_attack(a, hit(3), defence="dodge")
    a, _ = wg.start_round(a)
    assert not wg.can_dodge(a)  # not until its own turn
    assert wg.can_dodge(wg.start_turn(a))


def test_dodge_not_while_distracted_or_fleeing_unless_damaged():
    c, use = wg.distract(wg.combatant(3), "sand")
    assert not wg.can_dodge(c) and not wg.can_spend(c)
    assert wg.can_dodge(wg.end_round(c))
    f = wg.start_fleeing(wg.combatant(4))
    assert not wg.can_dodge(f)
    assert wg.can_spend(f, 1, "run")
    f2, _ = wg.resolve_attack(f, hit(2))  # no armor: a wound, and damaged while fleeing
    assert f2.damaged_while_fleeing and wg.can_dodge(f2)


def test_inventory_block_is_an_option():
    c = wg.combatant(3, inventory_slots=2)
    with pytest.raises(SimError, match="inventory_block"):
        wg.resolve_attack(c, hit(5), defence="block")
    on = wg.make_options({"inventory_block": True})
    c2, h = wg.resolve_attack(c, hit(5), defence="block", options=on)
    assert h.blocked and c2.inventory_lost == 1 and c2.hit_dice == 3
    assert c2.spendable == 3 and wg.inventory_left(c2) == 1  # a block spends no HD
    assert h.describe() == "plain: blocked with an inventory slot (item lost)"


def test_a_block_needs_an_item_left_and_works_when_no_hd_can_be_spent():
    on = wg.make_options({"inventory_block": True})
    assert not wg.can_block(wg.combatant(3, inventory_slots=2))  # the option is off
    assert not wg.can_block(wg.combatant(3), on)  # nothing carried
    c = wg.combatant(3, inventory_slots=1)
    distracted, _ = wg.distract(c, "sand")
    assert not wg.can_dodge(distracted) and wg.can_block(distracted, on)
    spent = wg.spend(c, 3)
    assert not wg.can_dodge(spent) and wg.can_block(spent, on)
    c2, h = wg.resolve_attack(spent, hit(16, 8, 8), "axe", defence="block", options=on)
    assert h.blocked and c2.hit_dice == 3 and not wg.can_block(c2, on)
    with pytest.raises(SimError, match="no item left"):
        wg.resolve_attack(c2, hit(5), defence="block", options=on)
    acid, _ = wg.apply_hazard(wg.combatant(4, inventory_slots=3), "acid")
    assert wg.inventory_left(acid) == 0 and not wg.can_block(acid, on)  # 5 slots destroyed
    assert not wg.can_block(wg.start_fleeing(c), on)
    assert wg.attack_dist(c, 2, defence="block", options=on) == Dist.constant(
        replace(c, inventory_lost=1)
    )


# --------------------------------------------------------------------------- wounds
def test_armor_absorbs_then_overflow_is_one_wound():
    c = wg.combatant(3, armor=["gambeson"])  # pool 4 - 1 (Dex) = 3
    assert c.armor_pool == 3
    c1, h1 = wg.resolve_attack(c, hit(2))
    assert (c1.armor_pool, c1.hit_dice, h1.wounds) == (1, 3, ())
    c2, h2 = wg.resolve_attack(c1, hit(5, 4, 1))
    assert (c2.armor_pool, c2.hit_dice, len(h2.wounds)) == (0, 2, 1)
    assert h2.describe() == "plain: 2d8 [4, 1] = 5; armor 1 -> 0; wound, 2 HD left"


def test_no_armor_any_damage_wounds():
    c2, h = wg.resolve_attack(wg.combatant(3), hit(1))
    assert c2.hit_dice == 2 and len(h.wounds) == 1


def test_wound_on_one_hd_puts_out_as_finish_says():
    c = wg.combatant(1)
    c2, h = wg.resolve_attack(c, hit(3))
    assert (c2.hit_dice, c2.status, h.status) == (0, Status.INCAPACITATED, Status.INCAPACITATED)
    c3, _ = wg.resolve_attack(c, hit(3), finish="kill")
    assert c3.status == Status.DEAD
    kill = wg.make_options({"finish": "kill"})
    assert wg.resolve_attack(c, hit(3), options=kill)[0].status == Status.DEAD
    two = wg.combatant(2)
    assert wg.resolve_attack(two, hit(3))[0].status == Status.ACTIVE


def test_lost_hd_caps_spendable_or_comes_from_unspent():
    c = wg.spend(wg.combatant(4), 2)  # 2 of 4 left to spend
    capped, _ = wg.lose_hd(c, 1)
    assert (capped.hit_dice, capped.spendable) == (3, 2)
    unspent, _ = wg.lose_hd(c, 1, options=wg.make_options({"wound_spendable": "unspent"}))
    assert (unspent.hit_dice, unspent.spendable) == (3, 1)


def test_bleeding_lowers_armor_max_by_five_min_one():
    assert [wg.bleed_armor_max(m) for m in (13, 8, 6, 5, 2, 1, 0)] == [8, 3, 1, 1, 1, 1, 0]
    bleed = wg.wound_type("bleeding")
    assert (bleed.armor_max_loss, bleed.armor_max_floor) == (5, 1)
    c = wg.apply_wound_type(wg.combatant(3, armor=["plate"]), "bleeding")
    assert (c.armor_max, c.armor_pool) == (3, 3)


def test_wound_types_table_and_typing_options(rng):
    assert [t.name for t in wg.wound_types()] == [
        "bleeding",
        "broken_bones",
        "burning",
        "lingering",
    ]
    assert wg.wound_type("bleeding").left_by == ("bladed", "skewering")
    assert wg.wound_type("broken_bones").left_by == ("crushing", "piercing")
    # named (default): no d12 category names a type, so an axe wound is plain
    c, h = wg.resolve_attack(wg.combatant(3), hit(3), "axe")
    assert h.wounds == (wg.Wound(None, "wound"),)
    by_kind = wg.make_options({"wound_types": "by_kind"})
    c, h = wg.resolve_attack(
        wg.combatant(3, armor=["plate"]), hit(12, 6, 6), "axe", options=by_kind
    )
    assert h.wounds[0].type == "bleeding" and c.armor_max == 3
    c, h = wg.resolve_attack(wg.combatant(3), hit(3), "maul", options=by_kind)
    assert wg.has_broken_bones(c)
    c, h = wg.resolve_attack(wg.combatant(3), hit(3), "whip", options=by_kind)
    assert h.wounds[0].type is None  # whips name no kind
    # max damage lingers under by_kind, whatever the kind (the d4 names none for lingering)
    for weapon in ("axe", "maul", "whip", "plain"):
        c, h = wg.resolve_attack(wg.combatant(3), hit(8, 8), weapon, options=by_kind, rng=rng)
        assert h.wounds[0].type == "lingering" and len(c.conditions) == 1, weapon
    c, h = wg.resolve_attack(wg.combatant(3), hit(8, 8), "axe", rng=rng)  # named: no type
    assert h.wounds[0].type is None and c.conditions == ()


def test_by_kind_lingering_wounds_match_exact(rng):
    by_kind = wg.make_options({"wound_types": "by_kind"})
    exact = wg.attack_dist(wg.combatant(3), 2, "maul", options=by_kind)
    lingering = exact.prob(lambda c: bool(c.conditions))
    assert lingering > 0
    n = 4000
    got = 0
    for _ in range(n):
        roll = wg.roll_damage(2, rng)
        c, _ = wg.resolve_attack(wg.combatant(3), roll, "maul", options=by_kind, rng=rng)
        got += bool(c.conditions)
    assert abs(got / n - float(lingering)) < 4 * (float(lingering) / n) ** 0.5 + 0.01


def test_rolled_wound_types_match_exact(rng):
    rolled = wg.make_options({"wound_types": "rolled"})
    target = wg.combatant(3)
    exact = wg.attack_dist(target, 1, "plain", options=rolled)
    assert exact.prob(lambda c: any(w.type == "lingering" for w in c.wounds)) == Fraction(1, 4)
    samples = [
        wg.resolve_attack(target, wg.roll_damage(1, rng), rng=rng, options=rolled)[0]
        for _ in range(NA)
    ]
    assert_matches(samples, exact)


def test_broken_bones_cost_all_hd_and_need_an_eight():
    c = replace(wg.combatant(4), wounds=(wg.Wound("broken_bones", "maul"),))
    assert wg.maneuver_price(c, "attack") == 4
    assert wg.maneuver_price(c, "move") == 4
    assert wg.maneuver_price(c, "contest") == 2  # other maneuvers as usual
    c2, m = wg.pay_maneuver(c, "attack")
    assert c2.spendable == 0 and m.needs_eight and m.cost == 4
    assert wg.broken_bones_dist() == Dist({True: Fraction(1, 8), False: Fraction(7, 8)})
    forbid = wg.make_options({"broken_bones": "forbidden"})
    assert not wg.can_maneuver(c, "attack", forbid)
    assert wg.can_maneuver(c, "factor", forbid)


def test_roll_broken_bones_matches_exact(rng):
    assert_matches([wg.roll_broken_bones(rng) for _ in range(N)], wg.broken_bones_dist())


def test_burning_keeps_armor_zero_and_costs_one_hd_each_round():
    c = wg.apply_wound_type(wg.combatant(4, armor=["plate"]), "burning")
    assert c.burning and c.armor_pool == 0 and wg.effective_pool(c) == 0
    assert not wg.can_recover_armor(c)
    c, start = wg.start_round(c)
    assert c.hit_dice == 3 and start.burning is not None and start.burning.lost == 1
    c, start = wg.start_round(c)
    assert c.hit_dice == 2
    c, paid = wg.put_out_fire(c)  # a maneuver [H]
    assert not c.burning and paid.cost == 2 and c.spendable == 0
    c, start = wg.start_round(c)
    assert c.hit_dice == 2 and start.burning is None
    one = wg.make_options({"extinguish": "one_hd"})
    c = wg.apply_wound_type(wg.combatant(4), "burning")
    assert wg.put_out_fire(c, one)[0].spendable == 3


def test_a_burning_creature_may_spend_one_hd_to_survive_the_burn():
    c = wg.apply_wound_type(wg.combatant(4, armor=["plate"]), "burning")
    c2, start = wg.start_round(c, survive=True)
    assert (c2.hit_dice, c2.spendable, c2.burning, c2.armor_pool) == (4, 3, True, 0)
    assert start.survived and start.burning is None and start.spendable == 3
    assert start.describe() == "3 HD to spend; burning: 1 HD spent to survive it"
    assert wg.can_survive(c) and wg.SURVIVE_COST == 1
    attacks = wg.make_options({"survive": "attacks"})  # the other reading: only a dodge
    assert not wg.can_survive(c, attacks)
    c3, start3 = wg.start_round(c, survive=True, options=attacks)
    assert (c3.hit_dice, c3.spendable, start3.survived) == (3, 3, False)
    fleeing = c.evolve(status=Status.FLEEING)  # a fleeing creature spends HD only to run
    assert not wg.can_survive(fleeing)
    assert wg.start_round(fleeing, survive=True)[0].hit_dice == 3
    assert wg.can_survive(fleeing.evolve(damaged_while_fleeing=True))


def test_a_hazard_s_wound_may_be_survived_but_not_its_effect():
    c, use = wg.apply_hazard(wg.combatant(4), "spiked_pit", survive=True)
    assert (c.hit_dice, c.spendable, c.wounds, use.loss) == (4, 3, (), None)
    assert use.effects == (
        "1 HD spent to survive the wound",
        "armor 0 this round",
        "the limb is spared",
    )
    fire, _ = wg.apply_hazard(wg.combatant(4, armor=["plate"]), "fire", survive=True)
    assert (fire.hit_dice, fire.burning, fire.armor_pool) == (4, True, 0)
    storm, _ = wg.apply_hazard(wg.combatant(4), "storm", survive=True)
    assert (storm.hit_dice, storm.spendable) == (4, 3)  # both HD of the storm survived
    assert wg.hazard_hd("storm") == 2 and wg.hazard_hd("tangle") == 1
    held, _ = wg.apply_hazard(wg.combatant(4), "tangle", survive=True)
    assert held.subdued and held.hit_dice == 4
    cliff, _ = wg.apply_hazard(wg.combatant(4), "cliff", survive=True)
    assert cliff.status == Status.DEAD  # the fall still kills
    spent, _ = wg.apply_hazard(wg.combatant(4).evolve(spendable=0), "storm", survive=True)
    assert spent.hit_dice == 2  # nothing left to spend: the wound is taken
    attacks = wg.make_options({"survive": "attacks"})
    assert wg.apply_hazard(wg.combatant(4), "storm", survive=True, options=attacks)[0].hit_dice == 2
    a, t = wg.combatant(3), wg.combatant(4)
    exact = wg.push_into_hazard_dist(a, t, "storm", survive=True)
    # the target spends 1 HD to resist and, when pushed, 1 more to survive: HD are untouched
    assert exact.prob(lambda c: c.hit_dice == 4) == 1
    assert exact.prob(lambda c: c.spendable == 2) == wg.contest_dist(0, 0)["attacker"]


def test_lingering_is_recorded_only():
    c, loss = wg.lose_hd(wg.combatant(3, armor=["plate"]), 1, wound_type="lingering")
    assert c.wounds == (wg.Wound("lingering", "wound"),)
    assert (c.armor_max, c.burning, loss.lost) == (8, False, 1)


# --------------------------------------------------------------------------- mighty attack
def test_mighty_attack_removes_one_hd_whatever_armor_is_left():
    c = wg.combatant(3, armor=["plate"])
    c2, h = wg.resolve_attack(c, hit(3), mighty=True)
    assert (c2.armor_pool, c2.hit_dice) == (5, 2)
    assert "mighty attack removes 1 HD" in h.describe()
    # a wound and the mighty HD add up [I] ...
    assert wg.resolve_attack(c, hit(12, 6, 6), mighty=True)[0].hit_dice == 1
    # ... unless mighty_hd = at_least_one
    least = wg.make_options({"mighty_hd": "at_least_one"})
    assert wg.resolve_attack(c, hit(12, 6, 6), mighty=True, options=least)[0].hit_dice == 2
    assert wg.resolve_attack(c, hit(3), mighty=True, options=least)[0].hit_dice == 2


# --------------------------------------------------------------------------- weapons
def test_weapon_table():
    table = [w for w in wg.weapons() if w.roll is not None]
    assert [w.roll for w in table] == list(range(1, 13))
    assert [w.name for w in table] == [
        "axe",
        "bastard_sword",
        "dagger",
        "garrote",
        "gun",
        "lance",
        "maul",
        "shield",
        "spear",
        "torch",
        "warbow",
        "whip",
    ]
    assert wg.weapon("bastard sword").name == "bastard_sword"
    assert wg.weapon("warbow").range_yards == 400
    assert wg.weapon("gun").amount == "1d4"
    assert wg.weapon("maul").amount == "2"
    assert wg.weapon("spear").amount == "10"
    assert wg.weapon("bastard_sword").amount == "2"
    assert wg.weapon("shield").amount == "2-4"
    with pytest.raises(SimError, match="did you mean 'dagger'"):
        wg.weapon("dager")


def test_roll_tables_match_exact(rng):
    assert_matches([wg.roll_weapon(rng).name for _ in range(N)], wg.weapon_roll_dist())
    assert_matches([wg.roll_armor(rng).name for _ in range(N)], wg.armor_roll_dist())
    assert_matches([wg.roll_wound_type(rng).name for _ in range(N)], wg.wound_type_dist())
    assert wg.weapon_roll_dist()["axe"] == Fraction(1, 12)
    assert wg.armor_roll_dist()["plate"] == Fraction(1, 6)
    assert wg.wound_type_dist()["burning"] == Fraction(1, 4)


def test_axe_strips_one_hd_on_max_damage():
    c = wg.combatant(4, armor=["plate"], dex_modifier=8)  # pool 16
    c2, h = wg.resolve_attack(c, hit(16, 8, 8), "axe")
    assert (c2.armor_pool, c2.hit_dice) == (0, 3)
    c3, _ = wg.resolve_attack(c, hit(15, 8, 7), "axe")
    assert (c3.armor_pool, c3.hit_dice) == (1, 4)


def test_bastard_sword_doubles_two_handed():
    c = wg.combatant(3, armor=["plate"], dex_modifier=4)  # pool 12
    assert wg.resolve_attack(c, hit(5, 4, 1), "bastard_sword", two_handed=True)[0].armor_pool == 2
    assert wg.resolve_attack(c, hit(5, 4, 1), "bastard_sword")[0].armor_pool == 7


def test_dagger_removes_one_hd_from_subdued_grappled_incapacitated():
    c = wg.combatant(3, armor=["plate"])
    assert wg.resolve_attack(c, hit(2), "dagger")[0].hit_dice == 3
    for helpless in (replace(c, subdued=True), replace(c, grappled=True)):
        c2, _ = wg.resolve_attack(helpless, hit(2), "dagger")
        assert (c2.hit_dice, c2.armor_pool) == (2, 6)
    down = replace(c, hit_dice=0, spendable=0, status=Status.INCAPACITATED)
    assert wg.resolve_attack(down, hit(2), "dagger")[0].status == Status.INCAPACITATED
    assert wg.resolve_attack(down, hit(2), "dagger", finish="kill")[0].status == Status.DEAD
    assert wg.resolve_attack(down, hit(2), "axe", finish="kill")[0] == down


def test_garrote_ignores_armor_and_removes_one_hd():
    c = wg.combatant(3, armor=["plate"])
    c2, h = wg.resolve_attack(c, hit(16, 8, 8), "garrote")
    assert (c2.armor_pool, c2.hit_dice) == (8, 2)


def test_gun_ignores_armor_and_removes_1d4_hd():
    c = wg.combatant(6, armor=["plate"])
    exact = wg.attack_dist(c, 2, "gun")
    assert exact.map(lambda t: t.hit_dice) == Dist({n: Fraction(1, 4) for n in (2, 3, 4, 5)})
    assert exact.map(lambda t: t.armor_pool) == Dist.constant(8)
    with pytest.raises(SimError, match="rng"):
        wg.resolve_attack(c, hit(3), "gun")


def test_gun_matches_exact(rng):
    c = wg.combatant(3, armor=["chain"])
    exact = wg.attack_dist(c, 2, "gun")
    assert exact.prob(lambda t: t.status == Status.INCAPACITATED) == Fraction(1, 2)  # d4 >= 3
    samples = [wg.resolve_attack(c, wg.roll_damage(2, rng), "gun", rng=rng)[0] for _ in range(NA)]
    assert_matches(samples, exact)


def test_lance_skewers_on_max_damage_when_mounted():
    c = wg.combatant(5, armor=["plate"], dex_modifier=8)
    assert wg.resolve_attack(c, hit(16, 8, 8), "lance", mounted=True)[0].status == (
        Status.INCAPACITATED
    )
    assert wg.resolve_attack(c, hit(16, 8, 8), "lance")[0].status == Status.ACTIVE
    kill = wg.make_options({"skewer": "kill"})
    assert wg.resolve_attack(c, hit(8), "lance", mounted=True, options=kill)[0].status == (
        Status.DEAD
    )


def test_maul_lowers_armor_max_by_two_when_it_empties_the_pool():
    c = wg.combatant(3, armor=["gambeson"], dex_modifier=1)  # 4 + 1 - 1 = 4
    c2, h = wg.resolve_attack(c, hit(4), "maul")
    assert (c2.armor_pool, c2.armor_max, c2.hit_dice) == (0, 2, 3)
    assert "armor max 4 -> 2" in h.describe()
    c3, _ = wg.resolve_attack(c, hit(3), "maul")
    assert (c3.armor_pool, c3.armor_max) == (1, 4)
    c4, _ = wg.resolve_attack(c2, hit(3), "maul")  # pool already 0: not "reducing" it
    assert c4.armor_max == 2
    assert (
        wg.resolve_attack(replace(c, armor_max=1, armor_pool=1), hit(1), "maul")[0].armor_max == 0
    )


def test_chain_wears_one_point_each_time_the_pool_hits_zero():
    c = wg.combatant(3, armor=["chain"])
    c, _ = wg.resolve_attack(c, hit(6))
    assert (c.armor_pool, c.armor_max, c.armor[0].value) == (0, 5, 5)
    c = replace(c, armor_pool=5)
    c, _ = wg.resolve_attack(c, hit(7))
    assert (c.armor_max, c.armor[0].value, c.hit_dice) == (4, 4, 2)
    mauled, _ = wg.resolve_attack(replace(c, armor_pool=4), hit(4), "maul")
    assert mauled.armor_max == 4 - 1 - 2
    assert wg.resolve_attack(wg.combatant(3, armor=["plate"]), hit(8))[0].armor_max == 8


def test_spear_shoves_ten_feet():
    c = wg.combatant(3, armor=["plate"])
    _, h = wg.resolve_attack(c, hit(2), "spear")
    assert h.shoved_ft == 10
    _, h = wg.resolve_attack(c, hit(2), "spear", defence="dodge")
    assert h.shoved_ft == 0


def test_torch_ignites_on_max_damage_what_can_be_ignited():
    c = wg.combatant(3, armor=["gambeson", "plate"], dex_modifier=8)
    c2, _ = wg.resolve_attack(c, hit(16, 8, 8), "torch")
    assert c2.burning and c2.armor_pool == 0
    assert not wg.resolve_attack(c, hit(15, 8, 7), "torch")[0].burning
    plate = wg.combatant(3, armor=["plate"], dex_modifier=8)  # "gambeson ... can be ignited"
    p2, h = wg.resolve_attack(plate, hit(16, 8, 8), "torch")
    assert not p2.burning and "nothing on the target can be ignited" in h.describe()
    assert not wg.resolve_attack(wg.combatant(3), hit(16, 8, 8), "torch")[0].burning
    anyone = wg.make_options({"torch_ignites": "anyone"})
    assert wg.resolve_attack(plate, hit(16, 8, 8), "torch", options=anyone)[0].burning


def test_warbow_damages_hd_directly_unless_shield_or_metal_armor():
    for armor, shield, blocked in [
        (["gambeson"], None, False),
        (["doublet", ("piecemeal", 4)], None, False),
        ([], None, False),
        (["gambeson"], "small", True),
        (["chain"], None, True),
        (["scale"], None, True),
        (["lamellar"], None, True),
        (["plate"], None, True),
    ]:
        c = wg.combatant(3, armor=armor, shield=shield, dex_modifier=6)
        assert wg.warbow_blocked(c) is blocked
        c2, _ = wg.resolve_attack(c, hit(2), "warbow")
        if blocked:
            assert (c2.hit_dice, c2.armor_pool) == (3, c.armor_pool - 2)
        else:
            assert (c2.hit_dice, c2.armor_pool) == (2, c.armor_pool)
    dmg = wg.make_options({"warbow_direct": "damage"})
    assert wg.resolve_attack(wg.combatant(5), hit(3), "warbow", options=dmg)[0].hit_dice == 2


def test_whip_subdues_on_max_damage():
    c = wg.combatant(3, armor=["plate"], dex_modifier=8)
    c2, h = wg.resolve_attack(c, hit(16, 8, 8), "whip")
    assert c2.subdued and "subdued" in h.describe()
    assert not wg.resolve_attack(c, hit(9, 8, 1), "whip")[0].subdued


@pytest.mark.parametrize("name", ["axe", "maul", "torch", "whip", "lance", "plain"])
def test_attack_matches_exact(rng, name):
    c = replace(wg.combatant(3, armor=["chain"]), armor_pool=4)
    exact = wg.attack_dist(c, 1, name, mounted=True)
    samples = [
        wg.resolve_attack(c, wg.roll_damage(1, rng), name, mounted=True, rng=rng)[0]
        for _ in range(NA)
    ]
    assert_matches(samples, exact)


@pytest.mark.slow
@pytest.mark.parametrize("name", [w.name for w in wg.weapons()])
def test_every_weapon_matches_exact_slow(name):
    rng = np.random.default_rng(7)
    c = replace(wg.combatant(4, armor=["chain"], dex_modifier=3), armor_pool=7, subdued=True)
    opts = wg.make_options({"wound_types": "rolled"})
    exact = wg.attack_dist(c, 2, name, mighty=True, mounted=True, two_handed=True, options=opts)
    samples = [
        wg.resolve_attack(
            c,
            wg.roll_damage(2, rng),
            name,
            mighty=True,
            mounted=True,
            two_handed=True,
            rng=rng,
            options=opts,
        )[0]
        for _ in range(12_000)
    ]
    assert_matches(samples, exact)


# --------------------------------------------------------------------------- environment
def test_factor_tables():
    for kind in wg.FACTOR_KINDS:
        table = wg.factors(kind)
        assert [f.roll for f in table] == list(range(1, 9))
        assert wg.factor_dist(kind) == Dist({f.name: Fraction(1, 8) for f in table})
    assert wg.factor("hazard", "Cliff").name == "cliff"
    assert wg.factor("hazard", "quicksand").amount == 10
    assert wg.factor("hazard", "acid").amount == 5
    assert wg.factor("hazard", "lava").name == "acid"
    assert wg.factor("cover", "wall").name == "building_wall"
    assert {f.name for f in wg.factors("cover") if not f.protects} == {"fog", "bushes", "pit"}
    with pytest.raises(SimError, match="did you mean 'cliff'"):
        wg.factor("hazard", "clif")
    with pytest.raises(SimError, match="did you mean 'hazard'"):
        wg.factor("hazrd", "cliff")


@pytest.mark.parametrize("kind", wg.FACTOR_KINDS)
def test_roll_factor_matches_exact(rng, kind):
    assert_matches([wg.roll_factor(kind, rng).name for _ in range(N)], wg.factor_dist(kind))


def test_cover_stops_standard_ranged_attacks():
    c = wg.combatant(3)
    c2, h = wg.resolve_attack(c, hit(5), "warbow", cover="building_wall")
    assert c2 == c and h.damage == 0
    assert wg.resolve_attack(c, hit(5), "gun", cover="trees", rng=np.random.default_rng(1))[0] == c
    assert wg.resolve_attack(c, hit(5), "warbow", cover="fog")[0].hit_dice == 2  # no protection
    assert wg.resolve_attack(c, hit(5), "axe", cover="building_wall")[0].hit_dice == 2  # melee
    assert wg.resolve_attack(c, hit(5), "plain", cover="trees", ranged=True)[0] == c  # thrown


COVERS = ("ruin_wall", "trees", "fog", "furniture", "building_wall", "creatures", "bushes", "pit")


@pytest.mark.parametrize(
    ("options", "loud", "protecting"),
    [
        ({}, False, {"ruin_wall", "trees", "furniture", "building_wall", "creatures"}),
        ({}, True, {"ruin_wall", "furniture", "building_wall", "creatures"}),
        ({"weak_cover": "protects"}, False, set(COVERS)),
        (
            {"weak_cover": "protects"},
            True,
            {"ruin_wall", "furniture", "building_wall", "creatures", "pit"},
        ),
        (
            {"loud_armor": "silent"},
            True,
            {"ruin_wall", "trees", "furniture", "building_wall", "creatures"},
        ),
    ],
)
def test_loud_armor_is_heard_in_cover_that_hides(options, loud, protecting):
    opts = wg.make_options(options)
    assert {c for c in COVERS if wg.cover_protects(c, opts, loud=loud)} == protecting
    heard = {c for c in COVERS if wg.heard_in_cover(c, loud, opts)}
    expected = {"trees", "fog", "bushes"} if loud and opts.loud_armor == "heard" else set()
    assert heard == expected
    assert {f.name for f in wg.factors("cover") if f.hides} == {"trees", "fog", "bushes"}


def test_chain_and_plate_are_loud_gambeson_and_doublet_are_not():
    assert wg.is_loud(wg.combatant(3, armor=["chain"]))
    assert wg.is_loud(wg.combatant(3, armor=["plate"]))
    assert wg.is_loud(wg.combatant(3, armor=["doublet", "chain"]))
    assert not wg.is_loud(wg.combatant(3, armor=["gambeson"]))
    assert not wg.is_loud(wg.combatant(3, armor=["doublet", "lamellar"]))


def test_an_arrow_finds_a_loud_wearer_in_the_trees():
    quiet = wg.combatant(3, armor=["gambeson"])
    loud = wg.combatant(3, armor=["plate"])
    c, h = wg.resolve_attack(quiet, hit(5), "warbow", cover="trees")
    assert c == quiet and h.damage == 0 and "cover: no damage" in h.effects
    # plate is metal: the warbow does not wound directly, the pool of 8 takes the 5
    c, h = wg.resolve_attack(loud, hit(5), "warbow", cover="trees")
    assert c.armor_pool == 3 and c.hit_dice == 3 and h.damage == 5
    assert "loud armor heard in the trees: no cover" in h.effects
    # behind a wall it is sheltered like anyone
    assert wg.resolve_attack(loud, hit(5), "warbow", cover="building_wall")[0] == loud
    # fog shelters nobody by the table, so there is nothing for the armor to give away
    _, h = wg.resolve_attack(loud, hit(5), "warbow", cover="fog")
    assert not any("heard" in e for e in h.effects)
    weak = wg.make_options({"weak_cover": "protects"})
    _, h = wg.resolve_attack(loud, hit(5), "warbow", cover="fog", options=weak)
    assert "loud armor heard in the fog: no cover" in h.effects
    assert wg.resolve_attack(quiet, hit(5), "warbow", cover="fog", options=weak)[0] == quiet
    silent = wg.make_options({"loud_armor": "silent"})
    assert wg.resolve_attack(loud, hit(5), "warbow", cover="trees", options=silent)[0] == loud


def test_attack_dist_on_a_loud_wearer_in_the_trees_is_the_open_one():
    loud = wg.combatant(3, armor=["chain"])
    open_field = wg.attack_dist(loud, 2, "warbow")
    assert wg.attack_dist(loud, 2, "warbow", cover="trees") == open_field
    assert open_field != Dist.constant(loud)
    silent = wg.make_options({"loud_armor": "silent"})
    assert wg.attack_dist(loud, 2, "warbow", cover="trees", options=silent) == Dist.constant(loud)


def test_distraction_once_per_target_and_no_hd_until_round_end():
    c, use = wg.distract(wg.combatant(3), "sand")
    assert c.distracted and not wg.can_spend(c) and not wg.can_maneuver(c)
    with pytest.raises(SimError, match="already used"):
        wg.distract(c, "dust")  # alias of the same factor
    c = wg.end_round(c)
    assert wg.can_spend(c) and not wg.can_distract(c, "sand")
    assert wg.can_distract(c, "mirrors")
    per_target = wg.make_options({"distraction_limit": "per_target"})
    assert not wg.can_distract(c, "mirrors", per_target)


def test_hazard_armor_zero_for_the_round_and_one_hd():
    c = wg.combatant(4, armor=["plate"])
    c2, use = wg.apply_hazard(c, "falling_objects")
    assert (c2.hit_dice, c2.exposed, c2.subdued, c2.armor_pool) == (3, True, True, 8)
    assert wg.effective_pool(c2) == 0
    c3, _ = wg.resolve_attack(c2, hit(1))
    assert c3.hit_dice == 2  # armor counts 0 this round
    c4 = wg.end_round(c2)
    assert wg.effective_pool(c4) == 8


@pytest.mark.parametrize(
    ("hazard", "hd", "check"),
    [
        ("falling_objects", 3, lambda c: c.subdued and c.stuck_in == "falling_objects"),
        ("fire", 3, lambda c: c.burning and c.wounds[0].type == "burning"),
        ("spiked_pit", 3, lambda c: wg.has_broken_bones(c)),
        ("cliff", 3, lambda c: c.status == Status.DEAD),
        ("storm", 2, lambda c: c.status == Status.ACTIVE),
        ("tangle", 3, lambda c: c.subdued),
        ("quicksand", 3, lambda c: c.movement_penalty_ft == 10),
        ("acid", 3, lambda c: c.inventory_lost == 5),
    ],
)
def test_each_hazard_effect(hazard, hd, check):
    c, use = wg.apply_hazard(wg.combatant(4), hazard)
    assert c.hit_dice == hd and check(c), use.describe()


def test_stuck_rounds_repeat_and_falls_only_kill_what_falling_can():
    c, _ = wg.apply_hazard(wg.combatant(4), "quicksand")
    c, _ = wg.hazard_round(c)
    assert c.movement_penalty_ft == 20
    c, _ = wg.apply_hazard(wg.combatant(4), "acid")
    c, _ = wg.hazard_round(c)
    assert c.inventory_lost == 10
    assert wg.break_free(c).stuck_in is None
    flyer = wg.combatant(4, falling_kills=False)
    assert wg.apply_hazard(flyer, "cliff")[0].status == Status.ACTIVE


def test_push_into_hazard_is_contested(rng):
    a, t = replace(wg.combatant(3), strength=2), wg.combatant(4)
    exact = wg.push_into_hazard_dist(a, t, "storm")
    assert exact.prob(lambda c: c.hit_dice == 2) == wg.contest_dist(2, 0)["attacker"]
    assert (
        exact.prob(lambda c: c.spendable == 3 and c.hit_dice == 4)
        == wg.contest_dist(2, 0)["defender"]
    )
    samples = [wg.push_into_hazard(a, t, "storm", rng)[0] for _ in range(NA)]
    assert_matches(samples, exact)
    auto = wg.make_options({"hazard_contest": False})
    assert wg.push_into_hazard_dist(a, t, "storm", options=auto) == Dist.constant(
        wg.apply_hazard(t, "storm")[0]
    )


def test_grapple_shove_and_disarm_and_their_effects():
    t = wg.combatant(4, strength=1)
    held, what = wg.win_contest(t, "grapple", "A")
    assert (held.grappled, held.held_by, what) == (True, "A", "grappled")
    assert wg.is_held(held) and not wg.can_maneuver(held, "move")  # held: no moving [H]
    assert wg.can_maneuver(held, "attack")
    stabbed, _ = wg.resolve_attack(held.evolve(armor_pool=8, armor_max=8), hit(1), "dagger")
    assert stabbed.hit_dice == 3  # armor took the blow; a dagger strips 1 HD from the held [S]
    free = wg.break_free(held)
    assert (free.grappled, free.held_by) == (False, None)
    assert wg.break_free_dist(held, hold_strength=3) == wg.contest_dist(1, 3).map(
        lambda w: w == "attacker"
    )
    down, what = wg.win_contest(t, "shove")
    assert down.prone and what == "shoved to the ground" and not wg.can_dodge(down)
    assert wg.can_dodge(wg.stand_up(down))
    bare, what = wg.win_contest(t, "disarm")
    assert bare.disarmed and what == "disarmed"
    assert wg.wielded(bare, "axe") == "plain" and wg.wielded(t, "axe") == "axe"
    assert wg.wielded(wg.pick_up_weapon(bare), "axe") == "axe"
    with pytest.raises(SimError, match="unknown contested maneuver 'trip'"):
        wg.win_contest(t, "trip")
    assert wg.CONTEST_KINDS == ("grapple", "shove", "disarm")


def test_contest_maneuver_is_contested_and_matches_exact(rng):
    a, t = wg.combatant(3, strength=2), wg.combatant(4, strength=1)
    exact = wg.contest_maneuver_dist("shove", a, t)
    win = wg.contest_dist(2, 1)["attacker"]
    assert exact.prob(lambda c: c.prone and c.spendable == 3) == win  # it spent 1 HD resisting
    assert exact.prob(lambda c: not c.prone and c.spendable == 3) == 1 - win
    samples = [wg.contest_maneuver("shove", a, t, rng)[0] for _ in range(NA)]
    assert_matches(samples, exact)
    c, use = wg.contest_maneuver("grapple", a, t, ScriptedRng([8, 1]), by="A")
    assert c.held_by == "A" and use.applied
    assert use.describe() == "grapple: contest 10 (8) vs 2 (1): attacker wins; grappled"
    c, use = wg.contest_maneuver("disarm", a, t, ScriptedRng([1, 8]))
    assert not c.disarmed and use.describe().endswith("defender wins; no effect")


# --------------------------------------------------------------------------- contests
def test_contest_exact_and_ties():
    assert wg.contest_dist(0, 0)["attacker"] == Fraction(28, 64)
    assert wg.contest_dist(0, 0)["defender"] == Fraction(36, 64)  # ties to the defender
    att = wg.make_options({"contest_ties": "attacker"})
    assert wg.contest_dist(0, 0, options=att)["attacker"] == Fraction(36, 64)
    rer = wg.make_options({"contest_ties": "reroll"})
    assert wg.contest_dist(0, 0, options=rer)["attacker"] == Fraction(1, 2)
    assert wg.contest_dist(7, 0)["attacker"] == Fraction(63, 64)
    assert wg.contest_dist(0, 0, defender_dice=0)["attacker"] == 1


@pytest.mark.parametrize("ties", ["defender", "attacker", "reroll"])
def test_roll_contest_matches_exact(rng, ties):
    o = wg.make_options({"contest_ties": ties})
    samples = [wg.roll_contest(1, 2, rng, options=o).winner for _ in range(N)]
    assert_matches(samples, wg.contest_dist(1, 2, options=o))


def test_contested_maneuver_target_spends_one_hd(rng):
    a, t = replace(wg.combatant(3), strength=3), replace(wg.combatant(3), strength=1)
    t2, res = wg.contested_maneuver(a, t, rng)
    assert t2.spendable == 2
    assert (
        res.attacker_total == res.attacker_roll + 3 and res.defender_total == res.defender_roll + 1
    )
    spent = wg.make_options({"contest_roll": "spent"})
    d = wg.contested_maneuver_dist(a, t, attacker_dice=2, options=spent)
    assert d == wg.contest_dist(3, 1, attacker_dice=2)
    samples = [
        wg.contested_maneuver(a, t, rng, attacker_dice=2, options=spent)[1].winner
        for _ in range(NA)
    ]
    assert_matches(samples, d)
    # a defender who cannot spend adds no die, or loses outright
    tired = wg.spend(t, 3)
    assert wg.contested_maneuver_dist(a, tired) == wg.contest_dist(3, 1, defender_dice=0)
    lose = wg.make_options({"contest_unable": "auto_lose"})
    assert wg.contested_maneuver_dist(a, tired, options=lose) == Dist.constant("attacker")
    assert wg.contested_maneuver(a, tired, rng, options=lose)[1].winner == "attacker"


# --------------------------------------------------------------------------- morale
def test_morale_flee_if_hd_at_or_below_the_roll():
    assert [wg.flee_chance(v) for v in (0, 1, 2, 8, 9)] == [1, 1, Fraction(7, 8), Fraction(1, 8), 0]
    d = wg.morale_dist([1, 3, 8, 9])
    assert d[(0,)] == Fraction(2, 8)  # rolls 1, 2
    assert d[(0, 1)] == Fraction(5, 8)  # rolls 3..7
    assert d[(0, 1, 2)] == Fraction(1, 8)  # roll 8; HD 9 never flees


def test_morale_check_sets_fleeing_and_fixed_uses_resolve(rng):
    side = (wg.combatant(1), wg.combatant(9), replace(wg.combatant(1), status=Status.DEAD))
    new, m = wg.morale_check(side, rng)
    assert new[0].status == Status.FLEEING and new[1].status == Status.ACTIVE
    assert new[2].status == Status.DEAD and m.fleeing == (0,)
    fixed = wg.make_options({"morale_compare": "fixed"})
    brave = replace(wg.combatant(1), resolve=9)
    assert wg.morale_value(brave) == 1 and wg.morale_value(brave, fixed) == 9


def test_roll_morale_matches_exact(rng):
    values = [1, 3, 5, 8, 9]
    assert_matches([wg.roll_morale(values, rng).fleeing for _ in range(N)], wg.morale_dist(values))


def test_fleeing_creature_leaves_after_its_next_turn():
    f = wg.start_fleeing(wg.combatant(3))
    assert wg.end_turn(f).status == Status.FLED
    two = wg.make_options({"flee_turns": 2})
    assert wg.end_turn(f, two).status == Status.FLEEING
    assert wg.end_turn(wg.end_turn(f, two), two).status == Status.FLED


def test_morale_triggers():
    assert wg.morale_triggers(fighters=4, out=2) == ("half_out",)
    assert wg.morale_triggers(fighters=5, out=2) == ()
    assert wg.morale_triggers(fighters=4, out=2, fired=frozenset({"half_out"})) == ()
    assert wg.morale_triggers(fighters=4, out=0, goal_failed=True, leader_out=True) == (
        "goal_failed",
        "leader_out",
    )
    assert [wg.morale_triggers(fighters=4, out=0, quiet_rounds=q) for q in (1, 2, 3, 4)] == [
        (),
        ("quiet_rounds",),
        (),
        ("quiet_rounds",),
    ]
    again = wg.make_options({"morale_triggers_once": False})
    assert wg.morale_triggers(fighters=2, out=1, fired=frozenset({"half_out"}), options=again) == (
        "half_out",
    )


# --------------------------------------------------------------------------- initiative
def brute_initiative(counts, ties):
    wins = dict.fromkeys(range(len(counts)), Fraction(0))
    total = Fraction(0)
    n = sum(counts)
    for faces in product(range(1, 9), repeat=n):
        tops, k = [], 0
        for m in counts:
            tops.append(max(faces[k : k + m], default=0))
            k += m
        best = max(tops)
        leaders = [i for i, t in enumerate(tops) if t == best]
        if len(leaders) == 1 or ties == "first_listed":
            wins[leaders[0]] += Fraction(1, 8**n)
            total += Fraction(1, 8**n)
    return Dist({i: p / total for i, p in wins.items()})


@pytest.mark.parametrize("counts", [(1, 1), (2, 1), (3, 2), (1, 0, 2), (2, 2, 1)])
@pytest.mark.parametrize("ties", ["reroll", "first_listed"])
def test_initiative_exact_against_brute_force(counts, ties):
    o = wg.make_options({"initiative_ties": ties})
    assert wg.initiative_dist(counts, o) == brute_initiative(counts, ties)


def test_initiative_values():
    assert wg.initiative_dist([1, 1]) == Dist({0: Fraction(1, 2), 1: Fraction(1, 2)})
    with pytest.raises(SimError):
        wg.initiative_dist([3])


def test_roll_initiative_matches_exact(rng):
    counts = (3, 1, 2)
    samples = [wg.roll_initiative(counts, rng).first for _ in range(NA)]
    assert_matches(samples, wg.initiative_dist(counts))
    o = wg.make_options({"initiative_ties": "first_listed"})
    samples = [wg.roll_initiative(counts, rng, o).first for _ in range(NA)]
    assert_matches(samples, wg.initiative_dist(counts, o))


# --------------------------------------------------------------------------- large scale
def test_large_scale_threshold():
    assert not wg.is_large_scale(10)
    assert wg.is_large_scale(11)
    assert wg.is_large_scale(6, wg.make_options({"large_scale_above": 5}))


def test_faction_pool_averages_rounded_half_up():
    members = [
        wg.combatant(2),
        wg.combatant(3, armor=["plate"]),
        wg.combatant(3, armor=["chain"]),
        wg.combatant(2),
    ]
    literal = wg.make_options({"pool": "literal"})
    f = wg.faction_pool(members, literal)
    assert (f.hit_dice, f.spendable) == (3, 3)  # 10/4 = 2.5 -> 3
    assert (f.armor_pool, f.armor_max) == (4, 4)  # 14/4 = 3.5 -> 4
    assert f.faction and f.arrow_proof  # half wear metal
    down = wg.make_options({"pool": "literal", "faction_rounding": "down"})
    assert wg.faction_pool(members, down).hit_dice == 2
    for reading in ("headcount", "members"):  # the head count, spending the average
        h = wg.faction_pool(members * 3, wg.make_options({"pool": reading}))
        assert (h.hit_dice, h.maneuver_dice, h.spendable) == (12, 3, 3)
    assert wg.faction_pool(members * 3).hit_dice == 12  # members, the default
    h2, _ = wg.start_round(wg.spend(h, 3), options=wg.make_options({"pool": "members"}))
    assert h2.spendable == 3
    with pytest.raises(SimError):
        wg.faction_pool([])


def test_each_faction_hd_lost_is_one_casualty_and_zero_scatters():
    f = wg.faction_pool([wg.combatant(3)] * 12, wg.make_options({"pool": "headcount"}))
    f2, _ = wg.resolve_attack(f, hit(4))
    assert wg.casualties(f, f2) == 1
    f3, _ = wg.lose_hd(f2, 11, finish="kill")
    assert wg.is_scattered(f3) and f3.status == Status.INCAPACITATED  # leader incapacitated
    assert not wg.is_scattered(f2)


def test_leader_killing_seven_or_more_else_one_hd_per_point_below():
    d = wg.leader_killing_dist()
    assert d == Dist({0: Fraction(2, 8), **{k: Fraction(1, 8) for k in range(1, 7)}})
    assert wg.LEADER_KILLING_TARGET == 7
    outcomes = {r: wg.leader_killing_result(r) for r in range(1, 9)}
    assert [outcomes[r].attacker_hd_lost for r in range(1, 9)] == [6, 5, 4, 3, 2, 1, 0, 0]
    assert [outcomes[r].success for r in range(1, 9)] == [False] * 6 + [True] * 2


def test_roll_leader_killing_matches_exact(rng):
    samples = [wg.roll_leader_killing(rng).attacker_hd_lost for _ in range(N)]
    assert_matches(samples, wg.leader_killing_dist())


def test_leader_out_leaves_one_hd_and_failure_costs_the_attackers():
    head = wg.make_options({"pool": "headcount"})
    a = wg.faction_pool([wg.combatant(3)] * 12, head)
    t = wg.faction_pool([wg.combatant(3)] * 15, head)
    a2, t2, loss = wg.resolve_leader_killing(a, t, wg.LeaderKilling(7, True, 0), options=head)
    assert a2 == a and (t2.hit_dice, t2.leader_out) == (1, True) and loss.lost == 14
    assert wg.casualties(t, t2) == 14
    a3, t3, loss = wg.resolve_leader_killing(a, t, wg.LeaderKilling(4, False, 3), options=head)
    assert t3 == t and a3.hit_dice == 9 and wg.casualties(a, a3) == 3
    tiny = replace(a, hit_dice=2, spendable=2)
    a4, _, _ = wg.resolve_leader_killing(tiny, t, wg.LeaderKilling(1, False, 6))
    assert wg.is_scattered(a4)


# --------------------------------------------------------------------------- properties
combatants = st.builds(
    lambda hd, spent, armor, dex, shield, pool_frac, subdued, burning: replace(
        (c := wg.combatant(hd, armor=armor, dex_modifier=dex, shield=shield)),
        spendable=hd - min(spent, hd),
        armor_pool=c.armor_max * pool_frac // 4,
        subdued=subdued,
        burning=burning,
    ),
    st.integers(1, 6),
    st.integers(0, 6),
    st.sampled_from([[], ["plate"], ["chain"], ["doublet", "gambeson"], [("piecemeal", 2)]]),
    st.integers(-2, 4),
    st.sampled_from([None, "small", "large"]),
    st.integers(0, 4),
    st.booleans(),
    st.booleans(),
)
weapon_names = st.sampled_from([w.name for w in wg.weapons()])
option_sets = st.builds(
    lambda wt, mh, ws, wd: wg.make_options(
        {"wound_types": wt, "mighty_hd": mh, "wound_spendable": ws, "warbow_direct": wd}
    ),
    st.sampled_from(["named", "by_kind", "rolled"]),
    st.sampled_from(["extra", "at_least_one"]),
    st.sampled_from(["cap", "unspent"]),
    st.sampled_from(["wound", "damage"]),
)


@settings(max_examples=150, deadline=None)
@given(
    combatants,
    weapon_names,
    st.lists(st.integers(1, 8), min_size=1, max_size=4),
    st.booleans(),
    st.booleans(),
    option_sets,
    st.integers(0, 2**32 - 1),
)
def test_attack_never_makes_pool_or_hd_negative(target, name, faces, mighty, two, opts, seed):
    roll = wg.DamageRoll(sum(faces), tuple(faces), all(f == 8 for f in faces))
    c, h = wg.resolve_attack(
        target,
        roll,
        name,
        mighty=mighty,
        two_handed=two,
        mounted=True,
        rng=np.random.default_rng(seed),
        options=opts,
    )
    assert 0 <= c.armor_pool <= c.armor_max <= target.armor_max
    assert 0 <= c.spendable <= c.hit_dice <= target.hit_dice
    assert h.hd_before - h.hd_after == len(h.wounds) == len(c.wounds) - len(target.wounds)
    assert (c.hit_dice == 0) <= (c.status in (Status.INCAPACITATED, Status.DEAD))


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 6), st.integers(0, 50), st.sampled_from(["hd_sum", "weapon_d8"]))
def test_more_armor_never_raises_wound_chance(dice, pool, mode):
    assert wg.wound_chance(dice, pool + 1, mode) <= wg.wound_chance(dice, pool, mode)
    assert wg.absorb_dist(dice, pool, mode).prob(lambda o: o[0] >= 0) == 1


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 60), st.integers(0, 60))
def test_absorb_invariants(damage, pool):
    a = wg.absorb(damage, pool)
    assert 0 <= a.armor_pool <= pool
    assert a.wound == (damage > pool)
    assert a.armor_pool == max(0, pool - damage)
    if pool > 0:
        assert wg.absorb(damage, pool + 1).armor_pool >= a.armor_pool


@settings(max_examples=100, deadline=None)
@given(combatants, st.integers(0, 30), st.integers(0, 8))
def test_more_armor_never_costs_more_hd(target, damage, extra):
    faces = (damage,) if damage else (0,)
    roll = wg.DamageRoll(damage, faces, False)
    more = replace(target, armor_max=target.armor_max + extra, armor_pool=target.armor_pool + extra)
    assert wg.resolve_attack(more, roll)[0].hit_dice >= wg.resolve_attack(target, roll)[0].hit_dice


@settings(max_examples=100, deadline=None)
@given(combatants, st.integers(0, 10), st.sampled_from(["cap", "unspent"]))
def test_lose_hd_never_below_zero(target, n, spendable_rule):
    o = wg.make_options({"wound_spendable": spendable_rule})
    c, loss = wg.lose_hd(target, n, options=o)
    assert c.hit_dice == max(0, target.hit_dice - n) and 0 <= c.spendable <= c.hit_dice
    assert loss.lost == target.hit_dice - c.hit_dice


@settings(max_examples=50, deadline=None)
@given(combatants, st.sampled_from([f.name for f in wg.factors("hazard")]))
def test_hazards_never_make_hd_negative(target, hazard):
    c, use = wg.apply_hazard(target, hazard)
    assert 0 <= c.hit_dice < target.hit_dice or target.hit_dice == 0
    assert c.exposed and wg.effective_pool(c) == 0


# --------------------------------------------------------------------------- slow
@pytest.mark.slow
@pytest.mark.parametrize("dice", [1, 2, 3, 4])
def test_roll_damage_many_slow(dice):
    rng = np.random.default_rng(dice)
    samples = [(r.total, r.is_max) for r in (wg.roll_damage(dice, rng) for _ in range(NS // 2))]
    assert_matches(samples, wg.damage_roll_dist(dice))


@pytest.mark.slow
def test_initiative_and_morale_many_slow():
    rng = np.random.default_rng(11)
    counts = (5, 4)
    assert_matches(
        [wg.roll_initiative(counts, rng).first for _ in range(NS // 2)], wg.initiative_dist(counts)
    )
    values = [2, 4, 6]
    assert_matches([wg.roll_morale(values, rng).fleeing for _ in range(NS)], wg.morale_dist(values))


@pytest.mark.slow
def test_contests_many_slow():
    rng = np.random.default_rng(12)
    o = wg.make_options({"contest_ties": "reroll"})
    samples = [
        wg.roll_contest(0, 1, rng, attacker_dice=2, options=o).winner for _ in range(NS // 4)
    ]
    assert_matches(samples, wg.contest_dist(0, 1, attacker_dice=2, options=o))


# --------------------------------------------------------------------------- stuck, and free
def test_breaking_free_is_a_contest_against_a_bare_d8(rng):
    held, _ = wg.apply_hazard(wg.combatant(6, strength=0), "quicksand")
    assert wg.is_held(held) and held.movement_penalty_ft == 10
    assert wg.break_free_dist(held) == Dist({True: Fraction(28, 64), False: Fraction(36, 64)})
    strong = held.evolve(strength=3)
    assert wg.break_free_dist(strong)[True] == Fraction(28 + 8 + 7 + 6, 64)  # d8+3 > d8
    samples = []
    for _ in range(4000):
        after, contest = wg.try_break_free(held, rng)
        free = not wg.is_held(after)
        assert free == (contest.winner == "attacker")
        assert after.movement_penalty_ft == (0 if free else 10)
        samples.append(free)
    assert_matches(samples, wg.break_free_dist(held))


def test_a_hazard_bites_again_every_round_stuck():
    c, _ = wg.apply_hazard(wg.combatant(6), "acid")
    assert c.inventory_lost == 5
    c, text = wg.hazard_round(c)
    assert c.inventory_lost == 10 and text == "5 inventory slots destroyed"
    q, _ = wg.apply_hazard(wg.combatant(6), "quicksand")
    q, _ = wg.hazard_round(q)
    assert q.movement_penalty_ft == 20
