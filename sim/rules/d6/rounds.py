"""D6 tiers rounds: the seed's turn order, a fixed cycle the GM chooses.

Follows seed ``003_fd1c4a13f28810ec.txt`` ("The game master decides who will go first ...
Play proceeds from player to player until everyone, including npcs, have gone. It then
returns to the first character to act"; RULES.md 4). The GM's choice is read as the
quickest first [I] (``turn_order: cycle``): the highest Dexterity goes first, and fighters
of equal Dexterity are taken by the sides in turn, starting with a side drawn at random.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import numpy as np

from sim.dice import Dist
from sim.errors import SimError


def cycle_order(dexterity_pips: Sequence[int], sides: Sequence[int], first_side: int) -> list[int]:
    """The turn cycle: indices of the fighters in the order they act, every round [S, I].

    ``dexterity_pips[i]`` and ``sides[i]`` (0 .. number of sides - 1) describe fighter ``i``
    (in the scenario's order). The highest Dexterity first; among equals, the sides in turn
    from ``first_side`` (each side's fighters in the scenario's order).
    """
    if len(dexterity_pips) != len(sides):
        raise SimError("one Dexterity and one side per fighter")
    count = max(sides, default=-1) + 1
    if sides and not 0 <= first_side < count:
        raise SimError(f"first side must be 0..{count - 1}, got {first_side}")
    seen: dict[tuple[int, int], int] = {}
    keys = []
    for i, (dex, side) in enumerate(zip(dexterity_pips, sides, strict=True)):
        nth = seen.get((dex, side), 0)  # its place among its side's equals
        seen[(dex, side)] = nth + 1
        keys.append((-dex, nth, (side - first_side) % count, i))
    return [k[-1] for k in sorted(keys)]


def roll_cycle_order(
    dexterity_pips: Sequence[int], sides: Sequence[int], rng: np.random.Generator
) -> list[int]:
    """:func:`cycle_order` with the first side of a tie drawn at random (one draw)."""
    count = max(sides, default=-1) + 1
    first = int(rng.integers(count)) if count > 1 else 0
    return cycle_order(dexterity_pips, sides, first)


def cycle_order_dist(dexterity_pips: Sequence[int], sides: Sequence[int]) -> Dist:
    """Exact distribution of :func:`roll_cycle_order`, as tuples of indices."""
    count = max(sides, default=-1) + 1
    firsts = range(count) if count > 1 else range(1)
    share = Fraction(1, len(firsts))
    out: dict[tuple[int, ...], Fraction] = {}
    for first in firsts:
        order = tuple(cycle_order(dexterity_pips, sides, first))
        out[order] = out.get(order, Fraction(0)) + share
    return Dist(out)
