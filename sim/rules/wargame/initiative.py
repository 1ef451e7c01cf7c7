"""War Game initiative: every side rolls, the highest die goes first.

Follows seed ``002_5306f142c0f73876.txt`` (RULES.md 1.6 turn order).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from sim.dice import Dist, die_faces, until
from sim.errors import SimError
from sim.rules.wargame.base import HD_SIDES
from sim.rules.wargame.options import DEFAULT_OPTIONS, Options


@dataclass(frozen=True, slots=True)
class Initiative:
    """Initiative: each side's d8s (last throw), the side that goes first, re-rolls."""

    rolls: tuple[tuple[int, ...], ...]
    first: int
    rerolls: int | None  # None: not followed (the exact method, sim.dice.until)

    def describe(self) -> str:
        """A log line."""
        again = f" after {self.rerolls} re-roll(s)" if self.rerolls else ""
        return f"initiative {[list(r) for r in self.rolls]}: side {self.first} first{again}"


def _check_counts(counts: Sequence[int]) -> None:
    if len(counts) < 2 or any(n < 0 for n in counts) or not any(counts):
        raise SimError("initiative needs 2 or more sides and someone to roll")


def roll_initiative(
    counts: Sequence[int], rng: np.random.Generator, options: Options = DEFAULT_OPTIONS
) -> Initiative:
    """Everyone rolls 1 HD; the side with the highest die goes first (ties re-roll [H]).

    ``counts`` is the number of creatures rolling per side (at large scale: 1 leader each);
    as a tuple, the exact method keeps the roll's outcomes for the next roll of the same.
    """
    _check_counts(counts)
    ties = options.initiative_ties == "first_listed"

    def draw(rng: np.random.Generator) -> tuple[tuple[int, ...], ...]:
        # die by die: the draws of rng.integers(1, HD_SIDES + 1, size=n), without its array
        return tuple(die_faces(rng, HD_SIDES, n) for n in counts)

    rolls, rerolls = until(rng, draw, lambda rolls: ties or len(_leaders(rolls)) == 1, key=_first)
    return Initiative(rolls, _leaders(rolls)[0], rerolls)


def _first(rolls: tuple[tuple[int, ...], ...]) -> int:
    """The side that goes first: no more of the roll is read (its faces are only shown)."""
    return _leaders(rolls)[0]


def _leaders(rolls: tuple[tuple[int, ...], ...]) -> list[int]:
    """The sides whose highest die is the highest of all."""
    tops = [max(r) if r else 0 for r in rolls]
    best = max(tops)
    return [i for i, t in enumerate(tops) if t == best]


def initiative_dist(counts: Sequence[int], options: Options = DEFAULT_OPTIONS) -> Dist:
    """Exact distribution of the side index :func:`roll_initiative` puts first."""
    _check_counts(counts)

    def below(n: int, v: int) -> Fraction:  # P(max of n d8 < v), 1 if nobody rolls
        return Fraction(v - 1, HD_SIDES) ** n

    def at(n: int, v: int) -> Fraction:  # P(max of n d8 == v)
        return Fraction(v, HD_SIDES) ** n - below(n, v) if n else Fraction(0)

    wins: dict[int, Fraction] = {}
    for i, n in enumerate(counts):
        p = Fraction(0)
        for v in range(1, HD_SIDES + 1):
            others = Fraction(1)
            for j, m in enumerate(counts):
                if j == i:
                    continue
                ok_equal = options.initiative_ties == "first_listed" and j > i
                others *= Fraction(v, HD_SIDES) ** m if ok_equal else below(m, v)
            p += at(n, v) * others
        wins[i] = p
    total = sum(wins.values())
    return Dist({i: p / total for i, p in wins.items()})
