"""Lanchester's laws, exactly: Brown's stochastic square and linear laws of attrition.

The Lanchester study (:mod:`benchmarks.validity.studies.lanchester`) sets its battles
against them.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any


@dataclass(frozen=True)
class Law:
    """Brown's stochastic attrition from ``a`` v ``b``: A's win chance and mean survivors.

    ``mean_a`` is A's expected survivors (0 when it loses), ``mean_b`` B's; as one side is
    always wiped out, ``mean_a + mean_b`` is the winner's expected survivors.
    """

    a: int
    b: int
    law: str
    p_a: Any
    mean_a: Any
    mean_b: Any

    @property
    def mean_winner(self) -> Any:
        return self.mean_a + self.mean_b


def lanchester(a: int, b: int, law: str = "square", exact: bool = False) -> Law:
    """Exact stochastic Lanchester attrition by dynamic programming over the states (i, j).

    From (i, j) the next casualty falls on B with probability i / (i + j) under the
    ``square`` law (every fighter fires at the same rate: aimed fire), with probability 1/2
    under the ``linear`` law (casualties come from pairwise encounters); the battle ends
    when a side has nobody left. ``exact=True`` computes in fractions.
    """
    if law not in ("square", "linear"):
        raise ValueError(f"law must be 'square' or 'linear', got {law!r}")
    if a < 0 or b < 0 or a + b == 0:
        raise ValueError("the sides need 0 or more fighters, and somebody must fight")
    one: Any = Fraction(1) if exact else 1.0
    half: Any = Fraction(1, 2) if exact else 0.5
    mass: dict[tuple[int, int], Any] = {(a, b): one}
    p_a: Any = 0 * one
    mean_a: Any = 0 * one
    mean_b: Any = 0 * one
    for total in range(a + b, 0, -1):  # every move lowers i + j by one
        for i in range(max(0, total - b), min(a, total) + 1):
            j = total - i
            m = mass.pop((i, j), None)
            if m is None:
                continue
            if j == 0:
                p_a += m
                mean_a += i * m
                continue
            if i == 0:
                mean_b += j * m
                continue
            if law == "square":
                on_b = Fraction(i, i + j) if exact else i / (i + j)
            else:
                on_b = half
            mass[i, j - 1] = mass.get((i, j - 1), 0 * one) + m * on_b
            mass[i - 1, j] = mass.get((i - 1, j), 0 * one) + m * (1 - on_b)
    return Law(a, b, law, p_a, mean_a, mean_b)
