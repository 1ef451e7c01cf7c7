"""The War Game records made on the fast path are the records their classes make."""

from dataclasses import fields

import numpy as np

from sim.rules import wargame
from sim.rules.wargame.attacks import Hit
from sim.rules.wargame.damage import DamageRoll


def test_an_attack_in_place_is_the_attack_on_a_copy():
    """``resolve_attack_in_place`` changes the record as ``resolve_attack`` makes its copy."""
    target = wargame.combatant(3, armor=["chain"])
    for defence, total in (("armor", 9), ("dodge", 9), ("armor", 2), ("armor", 16)):
        roll = DamageRoll(total, (total,), total == 16)
        after, hit = wargame.resolve_attack(
            target, roll, "axe", defence=defence, mighty=True, rng=np.random.default_rng(1)
        )
        mine = target.copy()
        blow = wargame.resolve_attack_in_place(
            mine, roll, "axe", defence=defence, mighty=True, rng=np.random.default_rng(1)
        )
        assert (
            mine == after and mine is not after and target == wargame.combatant(3, armor=["chain"])
        )
        assert blow.hit() == hit
        assert (blow.damage, blow.dodged, blow.wounds) == (hit.damage, hit.dodged, hit.wounds)
        assert hash(hit) == hash(Hit(**{f.name: getattr(hit, f.name) for f in fields(Hit)}))


def test_wound_records_are_shared_but_equal_to_new_ones():
    c = wargame.combatant(4)
    a, _ = wargame.lose_hd(c, 2, source="wound", wound_type="bleeding")
    b, _ = wargame.lose_hd(c, 2, source="wound", wound_type="bleeding")
    assert (
        a.wounds == b.wounds == (wargame.Wound("bleeding", "wound"), wargame.Wound(None, "wound"))
    )


def test_a_round_start_in_place_is_the_round_start_on_a_copy():
    """``start_round_in_place`` changes the record as ``start_round`` makes its copy."""
    fresh = wargame.combatant(3, armor=["chain"])
    records = [
        fresh,
        fresh.evolve(spendable=1, late_rounds=2),
        fresh.evolve(burning=True),
        fresh.evolve(burning=True, hit_dice=1, spendable=1),
        fresh.evolve(maneuver_dice=2, late_rounds=1),
    ]
    for c in records:
        for survive in (False, True):
            before = c.copy()
            after, start = wargame.start_round(c, survive=survive)
            mine = c.copy()
            assert wargame.start_round_in_place(mine, survive=survive) == start
            assert mine == after and c == before
