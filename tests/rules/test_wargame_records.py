"""The War Game records made on the fast path are the records their classes make."""

from dataclasses import fields

import numpy as np

from sim.rules import wargame
from sim.rules.wargame.attacks import Hit
from sim.rules.wargame.damage import DamageRoll


def test_an_attacks_hit_has_every_field_and_equals_the_one_its_class_makes():
    target = wargame.combatant(3, armor=["chain"])
    for defence, total in (("armor", 9), ("dodge", 9), ("armor", 2)):
        _, hit = wargame.resolve_attack(
            target,
            DamageRoll(total, (total,), False),
            "axe",
            defence=defence,
            rng=np.random.default_rng(1),
        )
        assert set(vars(hit)) == {f.name for f in fields(Hit)}
        assert hit == Hit(**vars(hit))
        assert hash(hit) == hash(Hit(**vars(hit)))


def test_wound_records_are_shared_but_equal_to_new_ones():
    c = wargame.combatant(4)
    a, _ = wargame.lose_hd(c, 2, source="wound", wound_type="bleeding")
    b, _ = wargame.lose_hd(c, 2, source="wound", wound_type="bleeding")
    assert (
        a.wounds == b.wounds == (wargame.Wound("bleeding", "wound"), wargame.Wound(None, "wound"))
    )
