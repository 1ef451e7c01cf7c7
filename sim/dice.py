"""Dice: notation, rolls through a passed-in Generator, and exact distributions.

Notation (RULES.md 0) is parsed with a regular expression, never evaluated:

- ``NdX``, ``NdX+M``, ``NdX-M``, ``dX``: N dice of X sides plus a modifier (War Game, 2W2P,
  Deathwish). ``N`` defaults to 1.
- ``ND``, ``ND+P``, ``ND-P``: a D6-tiers dice code, N six-sided dice plus P pips. Three pips
  make one die, so codes are kept normalised (``2D+3`` is ``3D``; ``3D-1`` is ``2D+2``).

Every roll takes a ``numpy.random.Generator``; nothing here owns randomness.
:func:`generator` is the one rule that makes a run's Generator from its seed.

Exact distributions are :class:`Dist` objects: immutable maps from an outcome (an ``int`` or
a tuple of ints) to its probability as an exact :class:`fractions.Fraction`. Fractions keep
the seeds' figures exact (``0.4096`` is ``Fraction(256, 625)``, not a float near it); the
outcome spaces in these systems are small enough that this costs little.
"""

from __future__ import annotations

import ctypes
import re
from collections.abc import Callable, Hashable, Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from typing import Any

import numpy as np

__all__ = [
    "die",
    "die_faces",
    "generator",
    "outcome",
    "until",
    "D6Code",
    "Dice",
    "DiceError",
    "Dist",
    "parse",
    "parse_code",
    "parse_dice",
    "roll_faces",
]

MAX_DICE = 10_000
MAX_SIDES = 1_000


def generator(seed: int | np.random.Generator) -> np.random.Generator:
    """The Generator of a run with ``seed`` (numpy's ``default_rng``: PCG64 of the seed).

    A Generator passes through as it is.
    """
    if isinstance(seed, np.random.Generator):
        return seed
    return np.random.default_rng(seed)


_U32 = 0xFFFFFFFF


def die(rng: np.random.Generator, sides: int) -> int:
    """One die of ``sides`` faces: exactly ``int(rng.integers(1, sides + 1))``, five times faster.

    numpy draws an integer from a range below 2**32 off the bit generator's next 32-bit word
    by Lemire's method (with rejection; none for a power of 2). This is that method on that
    same word, fetched through the bit generator's C interface, so the draws, and everything
    drawn after them from the Generator, stay the same; it spares the Generator call, which
    costs more than the rest of a War Game blow. Like any use of one Generator it is not for
    two threads at once. Anything but a ``numpy.random.Generator`` (a test's scripted dice)
    is asked ``integers`` as it is.
    """
    if type(rng) is not np.random.Generator or type(sides) is not int or not 1 < sides <= _U32:
        return 1 if sides == 1 else int(rng.integers(1, sides + 1))  # (1: numpy draws nothing)
    global _LAST
    last = _LAST
    if last[0] is rng:  # the same Generator as the last die (a battle rolls many)
        next_uint32, state = last[1], last[2]
    else:
        next_uint32, state = _next_uint32(rng)
        _LAST = (rng, next_uint32, state)  # one tuple: a reader sees all three or none
    m = next_uint32(state) * sides
    low = m & _U32
    if low < sides:
        threshold = (_U32 - sides + 1) % sides
        while low < threshold:
            m = next_uint32(state) * sides
            low = m & _U32
    return 1 + (m >> 32)


def die_faces(rng: np.random.Generator, sides: int, count: int) -> tuple[int, ...]:
    """``count`` dice of ``sides`` faces, die by die: the draws of ``count`` calls of :func:`die`.

    For a roll whose order does not matter (a total, the highest, how many show 8). An
    enumerating die (:class:`sim.odds.enumerate.Enumerator`, which has ``die_faces``) is asked
    for all of them at once, and answers with each multiset of faces once, in sorted order.
    """
    if type(rng) is not np.random.Generator and hasattr(rng, "die_faces"):
        return rng.die_faces(sides, count)
    return tuple([die(rng, sides) for _ in range(count)])


def outcome(
    rng: np.random.Generator,
    draw: Callable[..., Any],
    *args: Any,
    key: Callable[[Any], Any] | None = None,
    same: Hashable = None,
) -> Any:
    """``draw(rng, *args)``: a roll whose value alone matters (a total, a count), not its faces.

    ``draw`` must only roll. An enumerating die (:class:`sim.odds.enumerate.Enumerator`,
    which has ``outcome``) answers with each value once, at its exact chance; with ``key``,
    each value of ``key(value)`` once (with one of its values): the caller's promise that
    nothing but ``key(value)`` changes what happens next (the faces of a total are only
    shown in the log). ``same``: the caller's promise that ``key`` depends on nothing but
    the value and ``same`` (plain, hashable values), so that the die may keep its answer.
    """
    if type(rng) is not np.random.Generator and hasattr(rng, "outcome"):
        return rng.outcome(draw, args, key, same)
    return draw(rng, *args)


def until(
    rng: np.random.Generator,
    draw: Callable[[np.random.Generator], Any],
    accept: Callable[[Any], bool],
    key: Callable[[Any], Any] | None = None,
) -> tuple[Any, int | None]:
    """``draw(rng)`` again and again until ``accept`` takes it: (the draw, how many were refused).

    A rule that re-rolls ties. ``draw`` must only roll (no state changed). An enumerating die
    (:class:`sim.odds.enumerate.Enumerator`, which has ``until``) answers with each accepted
    draw at its chance given acceptance, exactly, and None for the count it does not follow;
    with ``key``, each value of ``key(draw)`` once, as :func:`outcome`.
    """
    if type(rng) is not np.random.Generator and hasattr(rng, "until"):
        return rng.until(draw, accept, key), None
    refused = 0
    while True:
        got = draw(rng)
        if accept(got):
            return got, refused
        refused += 1


_LAST: tuple[Any, Any, Any] = (None, None, None)  # the Generator die drew from last, its calls


class _Bitgen(ctypes.Structure):
    """numpy's ``bitgen_t`` (numpy/random/bitgen.h): a bit generator's state and functions."""

    _fields_ = [
        (name, ctypes.c_void_p)
        for name in ("state", "next_uint64", "next_uint32", "next_double", "next_raw")
    ]


_NEXT_UINT32 = ctypes.CFUNCTYPE(ctypes.c_uint32, ctypes.c_void_p)
_CALLS: dict[int, Any] = {}  # a next_uint32's address: its ctypes function (one per kind)


def _next_uint32(rng: np.random.Generator) -> tuple[Any, int]:
    """The bit generator's ``next_uint32`` and its state's address: what ``.ctypes`` gives.

    Read from the documented ``bitgen_t`` behind the bit generator's ``capsule``, with the
    function's ctypes wrapper made once per kind of bit generator: ``.ctypes`` builds three
    ctypes function types each time, which cost a run about 10 us (0.6% of its work).
    """
    try:
        pointer = _capsule_pointer(rng.bit_generator.capsule, b"BitGenerator")
    except (AttributeError, ValueError, ctypes.ArgumentError):  # not CPython's capsule
        bits = rng.bit_generator.ctypes
        return bits.next_uint32, bits.state_address
    bitgen = _Bitgen.from_address(pointer)
    address = bitgen.next_uint32
    call = _CALLS.get(address)
    if call is None:
        call = _CALLS[address] = _NEXT_UINT32(address)
    return call, bitgen.state


_capsule_pointer = ctypes.PYFUNCTYPE(ctypes.c_void_p, ctypes.py_object, ctypes.c_char_p)(
    ("PyCapsule_GetPointer", ctypes.pythonapi)
)  # its own function object: ctypes.pythonapi's, shared with other code, is left as it is


class DiceError(ValueError):
    """A dice expression that cannot be parsed, or a value out of range."""


_NDX = re.compile(r"^\s*(\d*)\s*[dD]\s*(\d+)\s*(?:([+-])\s*(\d+))?\s*$")
_CODE = re.compile(r"^\s*(\d+)\s*[dD]\s*(?:([+-])\s*(\d+))?\s*$")


def _check_count(count: int, text: str) -> None:
    if count > MAX_DICE:
        raise DiceError(f"bad dice expression {text!r}: at most {MAX_DICE} dice")


@dataclass(frozen=True, slots=True)
class Dice:
    """``count`` dice of ``sides`` sides, totalled, plus ``modifier``."""

    count: int
    sides: int
    modifier: int = 0

    def __post_init__(self) -> None:
        if self.count < 0:
            raise DiceError(f"dice count must be 0 or more, got {self.count}")
        if not 1 <= self.sides <= MAX_SIDES:
            raise DiceError(f"dice sides must be 1..{MAX_SIDES}, got {self.sides}")
        _check_count(self.count, str(self))

    def __str__(self) -> str:
        mod = f"{self.modifier:+d}" if self.modifier else ""
        return f"{self.count}d{self.sides}{mod}"

    def roll(self, rng: np.random.Generator) -> int:
        """Roll once and return the total."""
        return int(outcome(rng, _total, self.sides, self.count)) + self.modifier

    def roll_many(self, rng: np.random.Generator, size: int) -> np.ndarray:
        """Roll ``size`` times at once; return an int64 array of totals."""
        faces = rng.integers(1, self.sides + 1, size=(size, self.count), dtype=np.int64)
        return faces.sum(axis=1) + self.modifier

    def dist(self) -> Dist:
        """Exact distribution of the total."""
        return Dist.die(self.sides).repeat(self.count).shift(self.modifier)


@dataclass(frozen=True, slots=True)
class D6Code:
    """A D6-tiers dice code ``ND+P``: ``dice`` six-sided dice plus ``pips`` (0, 1 or 2).

    Build one from a pip total with :meth:`from_pips`; three pips make one die.
    """

    dice: int
    pips: int = 0

    def __post_init__(self) -> None:
        if self.dice < 0 or not 0 <= self.pips <= 2:
            raise DiceError(
                f"dice code must have 0+ dice and 0..2 pips, got {self.dice}D+{self.pips}"
            )
        _check_count(self.dice, str(self))

    @classmethod
    def from_pips(cls, total_pips: int) -> D6Code:
        """The code worth ``total_pips`` pips (3 per die), never below 0D."""
        total = max(0, total_pips)
        return cls(total // 3, total % 3)

    @property
    def total_pips(self) -> int:
        """Worth of the code in pips: 3 per die plus the pips."""
        return 3 * self.dice + self.pips

    def __add__(self, other: D6Code) -> D6Code:
        return D6Code.from_pips(self.total_pips + other.total_pips)

    def plus_pips(self, pips: int) -> D6Code:
        """This code with ``pips`` pips added (negative to take away), floored at 0D."""
        return D6Code.from_pips(self.total_pips + pips)

    def plus_dice(self, dice: int) -> D6Code:
        """This code with ``dice`` whole dice added (negative to take away), floored at 0D."""
        return D6Code.from_pips(self.total_pips + 3 * dice)

    def __str__(self) -> str:
        return f"{self.dice}D+{self.pips}" if self.pips else f"{self.dice}D"

    def roll(self, rng: np.random.Generator) -> int:
        """Roll once and return the total."""
        return int(outcome(rng, _total, 6, self.dice)) + self.pips

    def roll_many(self, rng: np.random.Generator, size: int) -> np.ndarray:
        """Roll ``size`` times at once; return an int64 array of totals."""
        faces = rng.integers(1, 7, size=(size, self.dice), dtype=np.int64)
        return faces.sum(axis=1) + self.pips

    def dist(self) -> Dist:
        """Exact distribution of the total."""
        return Dist.die(6).repeat(self.dice).shift(self.pips)


def parse_dice(text: str) -> Dice:
    """Parse ``NdX[+M]`` notation; raise :class:`DiceError` naming the text if it is bad."""
    m = _NDX.match(text) if isinstance(text, str) else None
    if not m:
        raise DiceError(f"bad dice expression {text!r}: expected NdX or NdX+M, e.g. 2d8, d4, 1d6+1")
    count = int(m.group(1)) if m.group(1) else 1
    mod = int(m.group(4) or 0) * (-1 if m.group(3) == "-" else 1)
    _check_count(count, text)
    return Dice(count, int(m.group(2)), mod)


def parse_code(text: str) -> D6Code:
    """Parse a D6 dice code ``ND[+P]``; raise :class:`DiceError` naming the text if it is bad."""
    if isinstance(text, str):
        return _parse_code(text)
    raise DiceError(f"bad dice code {text!r}: expected ND or ND+P, e.g. 3D, 3D+2, 4D-1")


@lru_cache(maxsize=4096)
def _parse_code(text: str) -> D6Code:
    """:func:`parse_code` of a string, kept: a battle parses its fighters' codes every turn."""
    m = _CODE.match(text)
    if not m:
        raise DiceError(f"bad dice code {text!r}: expected ND or ND+P, e.g. 3D, 3D+2, 4D-1")
    dice = int(m.group(1))
    _check_count(dice, text)
    pips = int(m.group(3) or 0) * (-1 if m.group(2) == "-" else 1)
    if 3 * dice + pips < 0:
        raise DiceError(f"bad dice code {text!r}: worth less than 0D")
    return D6Code.from_pips(3 * dice + pips)


def parse(text: str) -> Dice | D6Code:
    """Parse either notation: ``2d8`` gives :class:`Dice`, ``3D+2`` gives :class:`D6Code`."""
    if isinstance(text, str) and _CODE.match(text):
        return parse_code(text)
    if isinstance(text, str) and _NDX.match(text):
        return parse_dice(text)
    raise DiceError(
        f"bad dice expression {text!r}: expected NdX (2d8, 1d4+1) or a dice code (3D, 3D+2)"
    )


def roll_faces(rng: np.random.Generator, sides: int, count: int) -> np.ndarray:
    """Roll ``count`` dice of ``sides`` sides; return each face as an int64 array."""
    return rng.integers(1, sides + 1, size=count, dtype=np.int64)


def _total(rng: np.random.Generator, sides: int, count: int) -> int:
    """The total of :func:`roll_faces`: only it matters, so the exact method branches per total.

    A few dice from a Generator are rolled die by die (:func:`die`): numpy fills an array of
    them off the same 32-bit words in turn, so the draws are the same, at a fraction of the
    cost of the array.
    """
    if type(rng) is np.random.Generator and count <= _FEW:
        return sum([die(rng, sides) for _ in range(count)])
    return int(roll_faces(rng, sides, count).sum())


_FEW = 32  # dice up to which a Python loop of die() beats numpy's array


Outcome = Hashable


class Dist:
    """An exact, immutable probability distribution over hashable outcomes.

    Probabilities are :class:`~fractions.Fraction` and always sum to exactly 1.
    Outcomes that are ints support :meth:`mean` and adding (:meth:`__add__` convolves).
    """

    __slots__ = ("_p",)
    _p: dict[Any, Fraction]

    def __init__(self, probs: Mapping[Any, Fraction | int]) -> None:
        p: dict[Any, Fraction] = {}
        for k, v in probs.items():
            fv = Fraction(v)
            if fv < 0:
                raise ValueError(f"negative probability for {k!r}")
            if fv:
                p[k] = p.get(k, Fraction(0)) + fv
        if sum(p.values()) != 1:
            raise ValueError("probabilities must sum to 1")
        try:
            p = dict(sorted(p.items(), key=_sort_key))
        except TypeError:  # outcomes that do not order keep their first-seen order
            pass
        object.__setattr__(self, "_p", p)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Dist is immutable")

    # construction ---------------------------------------------------------------
    @staticmethod
    def constant(value: Any) -> Dist:
        """The distribution that is always ``value``."""
        return Dist({value: 1})

    @staticmethod
    def die(sides: int) -> Dist:
        """One fair die numbered 1..sides."""
        return _die(sides)

    @staticmethod
    def bernoulli(p: Fraction) -> Dist:
        """1 with probability ``p``, else 0."""
        return Dist({1: p, 0: 1 - Fraction(p)})

    # queries --------------------------------------------------------------------
    def __getitem__(self, outcome: Any) -> Fraction:
        return self._p.get(outcome, Fraction(0))

    def __iter__(self) -> Iterator[Any]:
        return iter(self._p)

    def __len__(self) -> int:
        return len(self._p)

    def items(self) -> Iterator[tuple[Any, Fraction]]:
        """Pairs of (outcome, probability), outcomes in sorted order."""
        return iter(self._p.items())

    def outcomes(self) -> list[Any]:
        """The outcomes with nonzero probability, sorted."""
        return list(self._p)

    def prob(self, pred: Callable[[Any], bool]) -> Fraction:
        """Probability that ``pred(outcome)`` is true."""
        return sum((p for k, p in self._p.items() if pred(k)), Fraction(0))

    def mean(self) -> Fraction:
        """Expected value (numeric outcomes only)."""
        return sum((k * p for k, p in self._p.items()), Fraction(0))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Dist) and self._p == other._p

    def __hash__(self) -> int:
        return hash(tuple(self._p.items()))

    def __repr__(self) -> str:
        body = ", ".join(f"{k!r}: {v}" for k, v in self._p.items())
        return f"Dist({{{body}}})"

    # combination ----------------------------------------------------------------
    def map(self, f: Callable[[Any], Any]) -> Dist:
        """Distribution of ``f(outcome)``."""
        out: dict[Any, Fraction] = {}
        for k, p in self._p.items():
            v = f(k)
            out[v] = out.get(v, Fraction(0)) + p
        return Dist(out)

    def combine(self, other: Dist, f: Callable[[Any, Any], Any]) -> Dist:
        """Distribution of ``f(a, b)`` for independent ``a`` from self and ``b`` from other."""
        out: dict[Any, Fraction] = {}
        for a, pa in self._p.items():
            for b, pb in other._p.items():
                v = f(a, b)
                out[v] = out.get(v, Fraction(0)) + pa * pb
        return Dist(out)

    def bind(self, f: Callable[[Any], Dist]) -> Dist:
        """Mixture: draw ``a`` from self, then an outcome from ``f(a)``."""
        out: dict[Any, Fraction] = {}
        for a, pa in self._p.items():
            for v, pv in f(a)._p.items():
                out[v] = out.get(v, Fraction(0)) + pa * pv
        return Dist(out)

    def __add__(self, other: Dist) -> Dist:
        """Sum of independent draws (convolution); tuples add element-wise."""
        return self.combine(other, _add)

    def shift(self, k: int) -> Dist:
        """Add the constant ``k`` to every outcome."""
        return self if k == 0 else self.map(lambda v: v + k)

    def repeat(self, n: int) -> Dist:
        """Sum of ``n`` independent draws (``n`` = 0 gives the constant 0 of the right shape)."""
        if n < 0:
            raise ValueError("repeat count must be 0 or more")
        zero = _zero_like(next(iter(self._p)))
        result = Dist.constant(zero)
        base = self
        while n:  # exponentiation by squaring
            if n & 1:
                result = result + base
            n >>= 1
            if n:
                base = base + base
        return result


def _sort_key(item: tuple[Any, Fraction]) -> tuple[int, Any]:
    k = item[0]
    return (0, k) if isinstance(k, (int, tuple)) else (1, str(k))


def _add(a: Any, b: Any) -> Any:
    if isinstance(a, tuple):
        return tuple(x + y for x, y in zip(a, b, strict=True))
    return a + b


def _zero_like(v: Any) -> Any:
    return tuple(0 for _ in v) if isinstance(v, tuple) else 0


@cache
def _die(sides: int) -> Dist:
    if sides < 1:
        raise DiceError(f"a die needs 1 or more sides, got {sides}")
    return Dist({face: Fraction(1, sides) for face in range(1, sides + 1)})
