"""The enumerating die: an rng that answers a draw with every outcome it could have had.

:class:`Enumerator` stands where a battle's ``numpy.random.Generator`` stands. It replays a
*script* (the outcomes chosen so far, one per draw) and, at the first draw past the script,
raises :class:`Branch` with every outcome of that draw and its exact chance. The exact
battle (:mod:`sim.odds.battle`) fights the same rule code again with each outcome appended.

What it answers, as the battle's rule code asks:

- ``integers(low, high)``: each value, 1 in ``high - low``;
- ``integers(low, high, size=n)``: each *multiset* of n faces once, sorted, at its
  multinomial chance (every consumer of such a roll in the battle code totals, counts or
  sorts the faces: tests/odds/test_enumerate.py fights one battle of each system both ways);
- :func:`sim.dice.die_faces` (``die_faces``): the same, for dice rolled die by die;
- :func:`sim.dice.outcome` (``outcome``): each value of a roll once, at its chance;
- :func:`sim.dice.until` (``until``): each accepted draw at its chance given acceptance;
- ``random()``: a :class:`Uniform`, compared once with a chance ``p`` (``u < p``): True at
  the chance the rules give (the fraction nearest the float, as the rule wrote it).

Anything else (another ``Generator`` method, a uniform compared twice or used as a number)
raises :class:`Unsupported`: the exact method refuses what it cannot follow.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Callable, Hashable
from fractions import Fraction
from functools import cache
from typing import Any

import numpy as np
from gmpy2 import mpq

from sim.errors import SimError

__all__ = ["Branch", "Enumerator", "Uniform", "Unsupported", "enumerate_draw"]

#: An exact chance: gmpy2's rational (GMP's, in C), equal to the Fraction it is and hashed
#: alike; the exact battle multiplies and adds millions of them (sim.odds.battle).
Chance = Any
Options = tuple[tuple[Any, Chance], ...]


_ZERO = mpq(0)
_MPQ = type(_ZERO)


class Branch(Exception):  # noqa: N818 (a signal, not an error)
    """A draw past the script: its ``options``, each outcome with its exact chance."""

    def __init__(self, options: Options) -> None:
        super().__init__(len(options))
        self.options = options


class Unsupported(SimError):
    """A draw the enumerating die cannot answer with all its outcomes."""


class Enumerator:
    """A die that replays ``script`` and then branches (see the module's docstring).

    With ``fork``, a draw past the script does not raise: ``fork(options)`` is told its
    outcomes (to fight the others later) and names the one this fight goes on with.
    """

    def __init__(
        self, script: tuple[Any, ...] = (), fork: Callable[[Options], Any] | None = None
    ) -> None:
        self.script = script
        self.pos = 0
        self.fork = fork

    def _next(self, options: Callable[[], Options]) -> Any:
        pos = self.pos
        if pos < len(self.script):
            self.pos = pos + 1
            return self.script[pos]
        got = options()
        if len(got) == 1:  # a sure thing: no branch, but it takes its place in the script
            v = got[0][0]
        elif self.fork is None:
            raise Branch(got)
        else:
            v = self.fork(got)
        self.script += (v,)
        self.pos = pos + 1
        return v

    # ------------------------------------------------------------ numpy's Generator
    def integers(
        self,
        low: int,
        high: int | None = None,
        size: int | tuple[int, ...] | None = None,
        dtype: Any = np.int64,
        endpoint: bool = False,
    ) -> Any:
        """Every value of ``[low, high)``; with ``size``, every multiset of ``size`` values."""
        if high is None:
            low, high = 0, low
        low, high = int(low), int(high) + bool(endpoint)
        if high <= low:
            raise Unsupported(f"integers({low}, {high}): an empty range")
        if size is None:
            return self._next(lambda: _uniform(low, high))
        n = size if isinstance(size, int) else size[0] if len(size) == 1 else -1
        if n < 0:
            raise Unsupported(f"integers(size={size}): only a row of dice")
        faces = self._next(lambda: _multisets(low, high, n)) if n else ()
        return np.array(faces, dtype=dtype)

    def random(self, size: Any = None) -> Uniform:
        """A uniform draw in [0, 1), to be compared once with a chance."""
        if size is not None:
            raise Unsupported("random(size=...): only one uniform draw at a time")
        return Uniform(self)

    def __getattr__(self, name: str) -> Any:
        raise Unsupported(f"the exact method cannot follow the die's {name!r}")

    # ------------------------------------------------------------ sim.dice's helpers
    def die_faces(self, sides: int, count: int) -> tuple[int, ...]:
        """``count`` dice of ``sides``: each multiset once, sorted (:func:`sim.dice.die_faces`)."""
        if count <= 0:
            return ()
        return self._next(lambda: _multisets(1, sides + 1, count))

    def outcome(
        self,
        draw: Callable[..., Any],
        args: tuple[Any, ...] = (),
        key: Callable[[Any], Any] | None = None,
        same: Hashable = None,
    ) -> Any:
        """Each value of ``draw(rng, *args)`` (of ``key`` of it) once, at its exact chance.

        See :func:`sim.dice.outcome`; with ``same``, the answer is kept by it.
        """
        if same is None:
            return self._next(lambda: _drawn(draw, args, key))
        return self._next(lambda: _kept(draw, args, key, same))

    def until(
        self,
        draw: Callable[[Any], Any],
        accept: Callable[[Any], bool],
        key: Callable[[Any], Any] | None = None,
    ) -> Any:
        """Each accepted draw (of ``key`` of it) at its chance given acceptance.

        See :func:`sim.dice.until`.
        """

        def options() -> Options:
            kept: dict[Any, tuple[Any, Chance]] = {}
            for v, p in _drawn(draw):
                if accept(v):
                    _add(kept, v if key is None else key(v), v, p)
            total = sum((p for _, p in kept.values()), _ZERO)
            if not total:
                raise Unsupported("a re-roll that never settles")
            return tuple((v, p / total) for v, p in kept.values())

        return self._next(options)


class Uniform:
    """``random()``'s draw: compared once with a chance, it is True at that chance."""

    __slots__ = ("_die", "_used")

    def __init__(self, rng: Enumerator) -> None:
        self._die = rng
        self._used = False

    def _below(self, p: Any) -> bool:
        if self._used:
            raise Unsupported("a uniform draw compared twice")
        self._used = True
        q = mpq(chance(p))
        return bool(self._die._next(lambda: ((True, q), (False, 1 - q))))

    def __lt__(self, p: Any) -> bool:
        return self._below(p)

    def __le__(self, p: Any) -> bool:
        return self._below(p)

    def __gt__(self, p: Any) -> bool:
        return not self._below(p)

    def __ge__(self, p: Any) -> bool:
        return not self._below(p)

    def __float__(self) -> float:
        raise Unsupported("a uniform draw used as a number")


def chance(p: Any) -> Fraction:
    """The chance ``u < p`` for a uniform ``u``: ``p`` clipped to [0, 1], as the rule meant it.

    A float is read as the simplest fraction it stands for (``float(Fraction(1, 3))`` is
    1/3, not its 53-bit neighbour): the rules give their chances as fractions.
    """
    if isinstance(p, Fraction | int | _MPQ):
        q = Fraction(p)
    else:
        x = float(p)
        if not math.isfinite(x):
            raise Unsupported(f"a chance of {x}")
        q = Fraction(x)
        near = q.limit_denominator(10**9)
        if float(near) == x:
            q = near
    return min(max(q, Fraction(0)), Fraction(1))


def enumerate_draw(
    draw: Callable[..., Any], args: tuple[Any, ...] = (), key: Callable[[Any], Any] | None = None
) -> Options:
    """Every value of ``draw(rng, *args)`` with its exact chance: fought with every script.

    With ``key``, the values of equal ``key(value)`` are one (the first stands for them all).
    """
    out: dict[Any, tuple[Any, Chance]] = {}
    stack: list[tuple[tuple[Any, ...], Chance]] = [((), mpq(1))]
    while stack:
        script, p = stack.pop()
        rng = Enumerator(script)
        try:
            value = draw(rng, *args)
        except Branch as b:
            stack.extend((rng.script + (v,), p * q) for v, q in b.options)
            continue
        _add(out, value if key is None else key(value), value, p)
    return tuple(out.values())


def _add(out: dict[Any, tuple[Any, Chance]], k: Any, value: Any, p: Chance) -> None:
    """``p`` more for key ``k``, whose first value stands for all of its values."""
    first, q = out.get(k, (value, _ZERO))
    out[k] = (first, q + p)


_DRAWN: dict[Any, Options] = {}


def _drawn(
    draw: Callable[..., Any], args: tuple[Any, ...] = (), key: Callable[[Any], Any] | None = None
) -> Options:
    """:func:`enumerate_draw`, kept for a draw of the same code, arguments and closures.

    Only when every argument and every value it closes over is a plain number, string or
    tuple of them: a roll of the same dice. A ``key`` that closes over values groups the
    roll's values kept (the first of each key stands for them all, as it would in
    :func:`enumerate_draw`). Any other draw is enumerated each time.
    """
    try:
        cells = tuple(c.cell_contents for c in draw.__closure__ or ())
    except (ValueError, AttributeError):
        return enumerate_draw(draw, args, key)
    if key is not None and not hasattr(key, "__code__"):  # not a function: no code to keep by
        return enumerate_draw(draw, args, key)
    if not all(_plain(c) for c in (*cells, *args)):
        return enumerate_draw(draw, args, key)
    later = key if getattr(key, "__closure__", None) else None
    if later is not None:
        key = None
    cache_key = (draw.__code__, cells, args, getattr(key, "__code__", None))
    got = _DRAWN.get(cache_key)
    if got is None:
        got = _DRAWN[cache_key] = enumerate_draw(draw, args, key)
    if later is None:
        return got
    out: dict[Any, tuple[Any, Chance]] = {}
    for v, p in got:
        _add(out, later(v), v, p)
    return tuple(out.values())


_KEPT: dict[Any, Options] = {}
#: The most answers :func:`_kept` keeps (then it starts again): a few MB.
KEPT_MOST = 50_000


def _kept(draw: Callable[..., Any], args: tuple[Any, ...], key: Any, same: Hashable) -> Options:
    """:func:`_drawn` kept by ``same``, which stands for what ``key`` closes over.

    Only for a draw whose arguments and closures are plain (:func:`_drawn` keeps its values).
    """
    cells = tuple(c.cell_contents for c in draw.__closure__ or ())
    if not hasattr(key, "__code__"):  # not a function: no code to keep by
        return _drawn(draw, args, key)
    cache_key = (draw.__code__, cells, args, key.__code__, same)
    got = _KEPT.get(cache_key)
    if got is None:
        if len(_KEPT) >= KEPT_MOST:
            _KEPT.clear()
        got = _KEPT[cache_key] = _drawn(draw, args, key)
    return got


def _plain(x: Any) -> bool:
    """A value that stands for itself: a number, a string, a tuple or frozen dataclass of them."""
    if isinstance(x, tuple):
        return all(_plain(y) for y in x)
    params = getattr(type(x), "__dataclass_params__", None)
    if params is not None and params.frozen:
        return all(_plain(getattr(x, f.name)) for f in dataclasses.fields(x))
    return x is None or type(x) in (int, float, str, bool, Fraction, _MPQ)


@cache
def _uniform(low: int, high: int) -> Options:
    p = mpq(1, high - low)
    return tuple((v, p) for v in range(low, high))


@cache
def _multisets(low: int, high: int, n: int) -> Options:
    """Each sorted n-tuple of faces in [low, high) with its multinomial chance."""
    k = high - low
    total = k**n
    fact = math.factorial(n)
    out = []
    for combo in itertools.combinations_with_replacement(range(low, high), n):
        ways = fact
        for _, run in itertools.groupby(combo):
            ways //= math.factorial(sum(1 for _ in run))
        out.append((combo, mpq(ways, total)))
    return tuple(out)


def multiset_count(sides: int, n: int) -> int:
    """How many multisets ``n`` dice of ``sides`` faces have: one branch each."""
    return math.comb(sides + n - 1, n)
