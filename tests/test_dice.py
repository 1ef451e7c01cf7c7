from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from sim.dice import D6Code, Dice, DiceError, Dist, parse, parse_code, parse_dice
from tests.conftest import assert_matches


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2d8", Dice(2, 8)),
        ("1d4", Dice(1, 4)),
        ("d8", Dice(1, 8)),
        ("2D8", Dice(2, 8)),
        ("3d6+2", Dice(3, 6, 2)),
        ("1d10 - 1", Dice(1, 10, -1)),
        (" 7d10 ", Dice(7, 10)),
    ],
)
def test_parse_ndx(text, expected):
    assert parse_dice(text) == expected
    assert parse(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("3D", D6Code(3, 0)),
        ("3D+2", D6Code(3, 2)),
        ("2D+3", D6Code(3, 0)),  # three pips make one die
        ("3D-1", D6Code(2, 2)),
        ("0D+2", D6Code(0, 2)),
        ("4d", D6Code(4, 0)),
    ],
)
def test_parse_code(text, expected):
    assert parse_code(text) == expected
    assert parse(text) == expected


@pytest.mark.parametrize(
    "text", ["", "2x8", "d", "__import__('os')", "2d8*3", "1d0", "-1d6", "3D+", "0D-1"]
)
def test_bad_expressions_name_themselves(text):
    with pytest.raises(DiceError) as err:
        parse(text)
    assert repr(text) in str(err.value) or "sides" in str(err.value)


def test_too_many_dice_is_an_error():
    with pytest.raises(DiceError):
        parse("100000d6")


def test_pips_arithmetic():
    assert D6Code.from_pips(11) == D6Code(3, 2)
    assert D6Code(3, 2).total_pips == 11
    assert D6Code(3, 2) + D6Code(1, 1) == D6Code(5, 0)
    assert D6Code(2, 0).plus_pips(-2) == D6Code(1, 1)  # unarmed: Strength - 2 pips
    assert D6Code(1, 0).plus_dice(-2) == D6Code(0, 0)  # floored at 0D
    assert str(D6Code(3, 2)) == "3D+2" and str(D6Code(3, 0)) == "3D"


def test_exact_sums():
    d = Dice(2, 6).dist()
    assert d[7] == Fraction(1, 6)
    assert d[2] == Fraction(1, 36)
    assert d.mean() == 7
    assert D6Code(3, 2).dist().mean() == Fraction(25, 2)
    assert Dice(0, 8).dist() == Dist.constant(0)


def test_dist_is_immutable_and_normalised():
    d = Dist.die(4)
    with pytest.raises(AttributeError):
        d.foo = 1  # type: ignore[attr-defined]
    with pytest.raises(ValueError):
        Dist({1: Fraction(1, 2)})


def test_tuple_outcomes_add_elementwise():
    coin = Dist({(1, 0): Fraction(1, 2), (0, 1): Fraction(1, 2)})
    two = coin.repeat(2)
    assert two[(1, 1)] == Fraction(1, 2)
    assert two[(2, 0)] == Fraction(1, 4)
    assert coin.repeat(0) == Dist.constant((0, 0))


def test_roll_uses_the_generator_only():
    a = [Dice(3, 8).roll(np.random.default_rng(5)) for _ in range(3)]
    assert len(set(a)) == 1  # same seed, same roll


@pytest.mark.slow
@pytest.mark.parametrize("expr", ["2d8", "1d4+1", "3D+2", "1d12"])
def test_monte_carlo_matches_exact(expr, rng):
    dice = parse(expr)
    samples = dice.roll_many(rng, 200_000)
    assert_matches(samples.tolist(), dice.dist())


def test_single_rolls_match_exact(rng):
    dice = parse("2d6")
    assert_matches([dice.roll(rng) for _ in range(20_000)], dice.dist())


@given(st.integers(0, 6), st.integers(1, 12), st.integers(-5, 5))
def test_dist_bounds_and_mean(count, sides, mod):
    d = Dice(count, sides, mod).dist()
    assert min(d.outcomes()) == count + mod
    assert max(d.outcomes()) == count * sides + mod
    assert d.mean() == Fraction(count * (sides + 1), 2) + mod


def test_unorderable_outcomes_keep_first_seen_order():
    d = Dist({(1, "a"): Fraction(1, 2), (1, 2): Fraction(1, 2)})
    assert d.outcomes() == [(1, "a"), (1, 2)]


def test_die_draws_exactly_what_generator_integers_draws():
    """``die`` is ``int(rng.integers(1, sides + 1))``: same faces, same Generator state after.

    Die sizes with and without Lemire rejection (powers of 2 never reject; 3 * 2**30 often
    does), the one-face die (numpy draws nothing) and the largest sizes, interleaved with
    other draws from the same Generator, which must see the same stream afterwards.
    """
    from sim.dice import die

    ours, numpys = np.random.default_rng(7), np.random.default_rng(7)
    picks = np.random.default_rng(1)
    sizes = [1, 2, 3, 6, 7, 8, 10, 12, 20, 100, 3 * 2**30, 2**32 - 1, 2**32, 2**40]
    for _ in range(20_000):
        sides = sizes[int(picks.integers(len(sizes)))]
        got, want = die(ours, sides), int(numpys.integers(1, sides + 1))
        assert (got, type(got)) == (want, int)
        if picks.random() < 0.1:  # a different kind of draw in between
            assert ours.random() == numpys.random()
    assert ours.bit_generator.state == numpys.bit_generator.state


@pytest.mark.parametrize("kind", [np.random.PCG64, np.random.Philox, np.random.MT19937])
def test_die_reads_the_bit_generator_as_its_ctypes_interface_does(kind):
    """The function and state read from ``bitgen_t`` are those ``.ctypes`` gives, per kind."""
    from sim import dice

    for seed in range(3):  # each a fresh Generator: a fresh read
        ours, theirs = np.random.Generator(kind(seed)), np.random.Generator(kind(seed))
        call, state = dice._next_uint32(ours)
        bits = theirs.bit_generator.ctypes
        assert state == ours.bit_generator.ctypes.state_address
        got = [call(state) for _ in range(7)]
        assert got == [bits.next_uint32(bits.state_address) for _ in range(7)]
        assert ours.random() == theirs.random()  # both streams where the other left it


def test_die_asks_anything_else_for_integers():
    """A stand-in for a Generator (the tests' scripted dice) is asked as before."""
    from sim.dice import die
    from tests.conftest import ScriptedRng

    assert [die(ScriptedRng([5, 2]), 8), die(ScriptedRng([3]), 6)] == [5, 3]
