"""D6 tiers aftermath (seed 003 "Healing and First Aid"; RULES.md 4 "Healing"), by hand."""

from dataclasses import fields
from fractions import Fraction

import numpy as np

from sim.dice import Dist
from sim.rules import d6
from sim.rules.common import describe_options
from sim.rules.d6 import AftermathOptions
from tests.conftest import assert_matches
from tests.rules.test_d6 import INC, MORT, NONE, STUNNED, W1, W2, C

F = Fraction


def test_time_heals_every_third_day():
    assert [d6.time_heal_due(d) for d in range(8)] == [
        False, False, False, True, False, False, True, False,
    ]  # fmt: skip
    rng = np.random.default_rng(0)
    before = rng.bit_generator.state
    assert d6.rest_day(W1, 2, C("1D"), rng) == W1  # no roll before the third day
    assert rng.bit_generator.state == before


def test_one_roll_by_hand():
    # Strength 1D on day 3: 1-4 infects (Wounded -> Wounded twice), 5-6 heals one spot
    # (Wounded -> healed): 2/3 and 1/3.
    assert d6.rest_day_dist(W1, 3, C("1D")) == Dist({W2: F(2, 3), NONE: F(1, 3)})
    # Stunned heals whatever the roll; Mortally wounded does not heal by time.
    assert d6.rest_day_dist(STUNNED, 3, C("1D")) == Dist.constant(NONE)
    assert d6.rest_days_dist(MORT, 30, C("5D")) == Dist.constant(MORT)


def test_two_rolls_by_hand():
    # Six days from Wounded with 1D: roll 1 -> W2 (2/3) or healed (1/3); roll 2 from W2 ->
    # Incapacitated (2/3) or W1 (1/3). So healed 1/3, Incapacitated 4/9, Wounded 2/9.
    assert d6.rest_days_dist(W1, 6, C("1D")) == Dist({NONE: F(1, 3), INC: F(4, 9), W1: F(2, 9)})
    assert d6.rest_days_dist(W1, 5, C("1D")) == d6.rest_day_dist(W1, 3, C("1D"))


def test_first_aid_bonus_by_hand():
    # A successful first aid gives +1 to the next time-healing roll: 1D + 1 <= 4 needs a face
    # of 1-3: infected 1/2, healed 1/2. Roll 2 has no bonus: from W2, Incapacitated 2/3.
    # Six days: healed 1/2, Incapacitated 1/3, Wounded 1/6.
    assert d6.rest_days_dist(W1, 6, C("1D"), bonus=1) == Dist(
        {NONE: F(1, 2), INC: F(1, 3), W1: F(1, 6)}
    )
    # Success by 10+ doubles it: +2, infected only on 1-2: 1/3.
    assert d6.rest_day_dist(W1, 3, C("1D"), bonus=2) == Dist({W2: F(1, 3), NONE: F(2, 3)})
    # until_healed: the +1 counts on both rolls: healed 1/2; W2 1/2 then Inc 1/2, W1 1/2.
    every = AftermathOptions(bonus_lasts="until_healed")
    assert d6.rest_days_dist(W1, 6, C("1D"), bonus=1, aftermath=every) == Dist(
        {NONE: F(1, 2), INC: F(1, 4), W1: F(1, 4)}
    )


def test_first_aid_lifts_mortal_only_to_incapacitated():
    # difficulty for Mortally wounded is 20 (d6_first_aid.csv); a success with any heal
    # total leaves Incapacitated, never better.
    assert d6.first_aid(MORT, 30, 18).condition == INC
    assert d6.wake(INC) == W2  # waking: Wounded twice until healed


def test_potion_subtracts_from_the_damage():
    # Unknown damage: the tier's lowest value + 1 (Incapacitated 9 -> 10). A potion of 6:
    # 10 - 6 = 4 -> Wounded.
    assert d6.heal(INC, 6) == W1
    # Known damage 12 (Incapacitated): 12 - 2 = 10, still Incapacitated; 12 - 4 = 8, Wounded.
    assert d6.heal(INC, 2, damage=12) == INC
    assert d6.heal(INC, 4, damage=12) == W1


def test_rest_day_matches_dist(rng):
    samples = [d6.rest_day(W2, 3, C("2D"), rng) for _ in range(3000)]
    assert_matches(samples, d6.rest_day_dist(W2, 3, C("2D")))


def test_options_documented():
    described = describe_options(AftermathOptions)
    assert {o["name"] for o in described} == {f.name for f in fields(AftermathOptions)}
    for o in described:
        assert o["tag"] in ("I", "H") and o["doc"] and f"``{o['name']}``" in d6.__doc__
