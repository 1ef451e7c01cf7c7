"""Deathwish aftermath (seed 001 wound levels; RULES.md 3 "Incapacitation and death" [H])."""

from dataclasses import fields
from fractions import Fraction

import numpy as np
import pytest

from sim.dice import Dist
from sim.errors import SimError
from sim.rules import deathwish as dw
from sim.rules.common import build_options, describe_options
from sim.rules.deathwish import AftermathOptions
from tests.conftest import assert_matches

F = Fraction


def test_deadlines():
    # Serious: within hours (180 min), Critical: within minutes (10 min) [H]; Slight and
    # Moderate never kill.
    assert dw.untreated_deadline(["slight", "moderate"]) is None
    assert dw.untreated_deadline(["moderate", "serious"]) == 180
    assert dw.untreated_deadline(["serious", "critical"]) == 10
    assert dw.wounds_to_treat(["slight", "serious", "critical", "critical"]) == 3


def test_who_dies_untreated():
    assert dw.dies_untreated(["critical"], None)
    assert not dw.dies_untreated(["critical"], 10)  # treatment starts at the deadline: saved
    assert dw.dies_untreated(["critical"], 11)
    assert not dw.dies_untreated(["serious"], 180)
    assert dw.dies_untreated(["serious"], Fraction(361, 2))
    assert not dw.dies_untreated(["moderate", "slight"], None)
    slow = AftermathOptions(critical_minutes=30)
    assert not dw.dies_untreated(["critical"], 30, slow)


def test_who_stays_incapacitated():
    assert dw.stays_incapacitated(["slight", "serious"], False)
    assert not dw.stays_incapacitated(["moderate"], True)
    crit = AftermathOptions(incapacitated_from="critical")
    assert not dw.stays_incapacitated(["serious"], True, crit)
    assert dw.stays_incapacitated(["critical"], False, crit)
    battle = AftermathOptions(incapacitated_from="as_battle")
    assert dw.stays_incapacitated(["slight"], True, battle)
    assert not dw.stays_incapacitated(["critical"], False, battle)


def test_later_death_by_hand(rng):
    assert dw.later_death_chance(["critical"]) == 0  # off by default
    half = AftermathOptions(critical_later_death=0.5)
    # two Critical wounds, each kills with 1/2: survives both with 1/4
    assert dw.later_death_dist(["critical", "critical", "serious"], half) == Dist(
        {True: F(3, 4), False: F(1, 4)}
    )
    samples = [dw.roll_later_death(["critical", "critical"], rng, half) for _ in range(3000)]
    assert_matches(samples, dw.later_death_dist(["critical", "critical"], half))
    gen = np.random.default_rng(3)
    before = gen.bit_generator.state
    assert not dw.roll_later_death(["serious"], gen, half)
    assert gen.bit_generator.state == before


def test_options_documented_and_checked():
    described = describe_options(AftermathOptions)
    assert {o["name"] for o in described} == {f.name for f in fields(AftermathOptions)}
    for o in described:
        assert o["tag"] in ("I", "H") and o["doc"] and f"``{o['name']}``" in dw.__doc__
    with pytest.raises(SimError, match="not one of"):
        build_options(AftermathOptions, {"incapacitated_from": "moderate"})
