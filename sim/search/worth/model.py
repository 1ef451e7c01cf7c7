"""The items a worth search prices, and the compositions they make: pure, numbers only.

A composition gives each parameter one of its levels (a whole range's values from its low
end up, or a choice's alternatives in order, the first the baseline). Each level index is
what the fit sees: a range is one item whose count is its level index (a bandit more for
each step above the low end), and each alternative of a choice but the first is an item
present (1) or not (0). An item belongs to one of the two sides; its column in the model is
its count, signed: ``+`` for the first side, ``-`` for the other, so that its coefficient
is its worth to its own side, on the log-odds scale of the first side's winning
(:mod:`sim.search.worth.fit`). Column 0 is the constant: the first side's handicap with
every item at its base.

Nothing here knows of scenarios or battles: the synthetic game of the tests is a
:class:`Space` and a payoff function.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

Composition = tuple[int, ...]
"""One level index per parameter."""


@dataclass(frozen=True, slots=True)
class Item:
    """One thing priced: a parameter's steps (``level`` None) or one of its alternatives.

    ``sign`` is +1 for an item of the first side, -1 for one of the other.
    """

    name: str
    param: int
    level: int | None
    side: str
    sign: int

    @property
    def counted(self) -> bool:
        """Whether it is a count (a range's steps), not an alternative present or not."""
        return self.level is None


@dataclass(frozen=True, slots=True)
class Space:
    """Every composition of the parameters' levels, and the items they hold."""

    levels: tuple[int, ...]
    items: tuple[Item, ...]

    @property
    def size(self) -> int:
        """How many compositions there are (the full grid)."""
        return math.prod(self.levels)

    @property
    def columns(self) -> int:
        """The model's columns: the constant and one per item."""
        return 1 + len(self.items)

    def counts(self, comps: Any) -> np.ndarray[Any, Any]:
        """Each composition's items, unsigned (rows: compositions; columns: items)."""
        c = np.atleast_2d(np.asarray(comps, dtype=np.int64))
        out = np.zeros((len(c), len(self.items)))
        for j, it in enumerate(self.items):
            lv = c[:, it.param]
            out[:, j] = lv if it.level is None else (lv == it.level)
        return out

    def rows(self, comps: Any) -> np.ndarray[Any, Any]:
        """The model's rows of compositions: the constant, then each item's signed count."""
        x = self.counts(comps) * np.array([it.sign for it in self.items], dtype=float)
        return np.column_stack([np.ones(len(x)), x])

    def grid(self) -> np.ndarray[Any, Any]:
        """Every composition (rows), in order: the first parameter slowest."""
        axes = [np.arange(n) for n in self.levels]
        mesh = np.meshgrid(*axes, indexing="ij")
        return np.column_stack([m.ravel() for m in mesh]).astype(np.int64)

    def candidates(self, cap: int, rng: np.random.Generator) -> np.ndarray[Any, Any]:
        """Every composition, or ``cap`` of them drawn without repeats when there are more."""
        if self.size <= cap:
            return self.grid()
        picks = rng.choice(self.size, size=cap, replace=False)
        return np.column_stack(np.unravel_index(np.sort(picks), self.levels)).astype(np.int64)

    def pairs(self) -> list[tuple[int, int]]:
        """Pairs of items that can be in one composition (not two alternatives of one choice)."""
        n = len(self.items)
        return [
            (i, j)
            for i in range(n)
            for j in range(i + 1, n)
            if self.items[i].param != self.items[j].param
        ]

    def index(self, name: str) -> int:
        """The item named ``name`` (its index in ``items``)."""
        return [it.name for it in self.items].index(name)
