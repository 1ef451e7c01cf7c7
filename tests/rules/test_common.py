from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from sim.dice import Dist
from sim.errors import SimError
from sim.rules import SYSTEMS, get_system
from sim.rules.common import (
    Table,
    aliases_of,
    build_options,
    describe_options,
    option,
    round_half_up,
)
from tests.conftest import assert_matches


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


# --------------------------------------------------------------------------- Table
def _key(name):
    return name.strip().lower().replace(" ", "_")


def _fruit():
    return Table(
        "fruit",
        [10, 20, 30, 40],
        ["apple", "Blood orange", "cherry", "date"],
        aliases=[("pomme",), ("orange", "cherry"), (), ("apple",)],
        key=_key,
        die=lambda row: row < 40,
    )


def test_table_finds_rows_by_name_alias_and_key():
    t = _fruit()
    assert len(t) == 4 and list(t) == [10, 20, 30, 40] and t.names[1] == "Blood orange"
    assert t.find("apple") == 10
    assert t.find("  BLOOD ORANGE ") == 20  # by its key
    assert t.find("pomme") == 10 and t.find("Orange") == 20
    assert t.find("cherry") == 30  # a row's name beats another row's alias
    assert t.get("fig") is None


def test_table_miss_names_the_table_and_the_closest_rows():
    with pytest.raises(SimError) as err:
        _fruit().find("chery")
    assert str(err.value) == "unknown fruit 'chery'; did you mean 'cherry'?"
    with pytest.raises(SimError) as err:
        _fruit().find("kiwi")
    assert str(err.value) == (
        "unknown fruit 'kiwi'; known: 'apple', 'Blood orange', 'cherry', 'date'"
    )


def test_table_rolls_only_its_die_rows_and_matches_the_exact_dist(rng):
    t = _fruit()
    assert t.sides == 3 and [t.face(f) for f in (1, 2, 3)] == [10, 20, 30]
    third = Fraction(1, 3)
    assert t.roll_dist() == Dist({"apple": third, "Blood orange": third, "cherry": third})
    names = dict(zip(t.rows, t.names, strict=True))
    assert_matches((names[t.roll(rng)] for _ in range(3000)), t.roll_dist())


def test_table_roll_draws_one_die_as_the_rules_do():
    a, b = np.random.default_rng(7), np.random.default_rng(7)
    faces = [int(b.integers(1, 4)) for _ in range(50)]
    assert [_fruit().roll(a) for _ in range(50)] == [[10, 20, 30][f - 1] for f in faces]


def test_table_refuses_two_rows_of_one_name():
    with pytest.raises(ValueError, match="two rows are called 'Apple'"):
        Table("fruit", [1, 2], ["apple", "Apple"], key=str.lower)
    with pytest.raises(ValueError, match="2 rows but 1 names"):
        Table("fruit", [1, 2], ["apple"])


def test_table_from_csv_reads_names_aliases_and_filters():
    t = Table.from_csv(
        "wargame_factors.csv",
        "hazard",
        lambda r: r["name"],
        key=_key,
        aliases="aliases",
        keep=lambda r: r["kind"] == "hazard",
    )
    assert len(t) == t.sides == 8
    assert t.find("cliff") == "cliff" and t.names == t.rows


def test_aliases_of_splits_on_semicolons_and_drops_blanks():
    assert aliases_of("round;heater; ;") == ("round", "heater")
    assert aliases_of("") == ()
