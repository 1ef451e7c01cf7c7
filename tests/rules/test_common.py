from dataclasses import dataclass
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sim.errors import SimError
from sim.rules import SYSTEMS, get_system
from sim.rules.common import build_options, describe_options, option, round_half_up


@pytest.mark.parametrize(
    ("x", "expected"),
    [
        (2.5, 3),
        (Fraction(5, 2), 3),
        (3.5, 4),
        (Fraction(11, 2), 6),
        (2.4, 2),
        (0.5, 1),
        (7, 7),
        (Fraction(-1, 2), 0),
        (Fraction(5, 4), 1),
        (Fraction(3, 2), 2),
    ],
)
def test_round_half_up(x, expected):
    assert round_half_up(x) == expected


def test_python_round_would_be_wrong():
    assert round(2.5) == 2 and round_half_up(2.5) == 3


@given(st.integers(-1000, 1000), st.integers(1, 50))
def test_round_half_up_is_within_a_half(n, d):
    r = round_half_up(Fraction(n, d))
    assert Fraction(n, d) - Fraction(1, 2) < r <= Fraction(n, d) + Fraction(1, 2)


def test_registry_holds_all_four_systems():
    assert set(SYSTEMS) == {"wargame", "2w2p", "deathwish", "d6"}
    for name, module in SYSTEMS.items():
        assert module.NAME == name
        assert module.SEED.endswith(".txt")
        assert describe_options(module.Options), f"{name} has no options"
        module.Options()  # defaults construct


def test_unknown_system_suggests():
    with pytest.raises(SimError, match="did you mean 'deathwish'"):
        get_system("deathwsh")


@dataclass(frozen=True, slots=True)
class _Opts:
    mode: str = option("a", "the mode", choices=("a", "b"))
    flag: bool = option(False, "a flag")
    count: int = option(3, "a count", low=0, high=10)
    share: float = option(0.0, "a share", low=0.0, high=1.0)


def test_build_options_checks_names_and_values():
    assert build_options(_Opts, {"mode": "b", "count": 4, "share": 0.5}) == _Opts(
        "b", False, 4, 0.5
    )
    cases = [
        ({"mood": "a"}, "rules.options.mood: unknown option; did you mean 'mode'?"),
        ({"mode": "c"}, "not one of 'a', 'b'"),
        ({"flag": "yes"}, "expected true or false"),
        ({"count": 2.5}, "expected a whole number"),
        ({"count": 11}, "out of range"),
        ({"share": "x"}, "expected a number"),
    ]
    for values, message in cases:
        with pytest.raises(SimError) as err:
            build_options(_Opts, values, where="rules.options")
        assert message in str(err.value)


def test_every_option_is_documented_and_tagged():
    for module in SYSTEMS.values():
        for o in describe_options(module.Options):
            assert o["doc"], o["name"]
            assert o["tag"] in {"I", "H"}, o["name"]
            if o["choices"]:
                assert o["default"] in o["choices"], o["name"]
