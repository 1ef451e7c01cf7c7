"""Where a worth search fights next: its planner, over the compositions fought so far.

:class:`Worth` reads each composition's battles back from the history (a point of the
search is a composition: one value of every parameter), counts the first side's wins, and
asks :func:`sim.search.worth.choose.step` for the next batch.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyarrow as pa

from sim.search.core import History, Planned
from sim.search.space import Param
from sim.search.spec import Search
from sim.search.worth import choose
from sim.search.worth.fit import Fit, fit
from sim.search.worth.model import Composition
from sim.search.worth.read import Settings


@dataclass(frozen=True, slots=True)
class Tally:
    """Every composition fought: its levels, the first side's wins ``k`` of ``n`` counted.

    ``battles`` are its battles that did not fail, ``draws`` those without a winner. With
    ``of: all`` a draw counts half a win to each side and every battle is counted.
    """

    comps: np.ndarray[Any, Any]
    k: np.ndarray[Any, Any]
    n: np.ndarray[Any, Any]
    battles: np.ndarray[Any, Any]
    draws: np.ndarray[Any, Any]

    def counted(self) -> np.ndarray[Any, Any]:
        """Which compositions have a counted battle (the fit's rows)."""
        return np.asarray(self.n > 0)


class Worth:
    """A worth search's planner: the compositions fought, their counts, the next batch.

    The design the driver runs is :class:`sim.search.worth.answer.WorthDesign`, which adds
    the progress line and the answer (:class:`sim.search.core.Design`).
    """

    def __init__(self, search: Search) -> None:
        self.search = search
        self.s: Settings = search.settings
        self.space = self.s.space
        self.params = search.params

    def label(self, p: Param) -> str:
        """A parameter's name in the answer."""
        return self.search.label(p.name)

    def columns(self) -> list[pa.Field]:
        """No columns of its own: each battle's composition is its parameters' columns."""
        return []

    def values_of(self, comp: Composition) -> dict[str, Any]:
        """The parameters' values of a composition."""
        out: dict[str, Any] = {}
        for p, level in zip(self.params, comp, strict=True):
            out[p.name] = int(p.low) + level if p.kind == "whole" else p.choices[level]
        return out

    def comp_of(self, point: dict[str, Any]) -> Composition:
        """The composition of a point's parameter values (as the manifest keeps them)."""
        out = []
        for p in self.params:
            v = point[p.name]
            if p.kind == "whole":
                out.append(int(v) - int(p.low))
            else:
                keys = [_key(c) for c in p.choices]
                out.append(keys.index(_key(v)))
        return tuple(out)

    def tally(self, history: History) -> Tally:
        """Every composition's counts, in the order first fought."""
        runs = history.runs
        width = len(self.params)
        if not len(runs):
            empty = np.zeros(0)
            return Tally(np.zeros((0, width), dtype=np.int64), empty, empty, empty, empty)
        ok = ~runs["failed"].astype(bool).to_numpy()
        winner = runs["winner"].to_numpy(dtype=object)
        won = np.array([w == self.s.first for w in winner]) & ok
        drawn = np.array([w is None or w != w for w in winner]) & ok  # None or NaN: a draw
        point = runs["point"].to_numpy(dtype=np.int64)
        order = list(dict.fromkeys(int(p) for p in point))
        index = {p: i for i, p in enumerate(order)}
        at = np.array([index[int(p)] for p in point], dtype=np.int64)
        m = len(order)
        wins = np.bincount(at, weights=won, minlength=m)
        draws = np.bincount(at, weights=drawn, minlength=m)
        battles = np.bincount(at, weights=ok, minlength=m)
        if self.s.of == "decisive":
            k, n = wins, battles - draws
        else:
            k, n = wins + 0.5 * draws, battles
        comps = np.array([self.comp_of(history.points[p]) for p in order], dtype=np.int64)
        return Tally(comps.reshape(m, width), k, n, battles, draws)

    def fitted(self, tally: Tally) -> Fit | None:
        """The model fitted to every counted composition (None if it cannot be)."""
        keep = tally.counted()
        if not keep.any():
            return None
        return fit(self.space.rows(tally.comps[keep]), tally.k[keep], tally.n[keep])

    def plan(self, history: History, recorded: dict[str, Any] | None) -> Planned | None:
        """The next batch (:func:`sim.search.worth.choose.step`), or None when done."""
        t = self.tally(history)
        b = choose.step(
            self.space,
            self.s.rule,
            self.s.scale,
            self.s.tolerance,
            self.search.seed,
            len(history.batches),
            t.comps,
            t.k,
            t.n,
            history.left,
        )
        if b is None:
            return None
        points = tuple(self.values_of(c) for c in b.comps)
        return Planned(points, b.replicates, stage=b.stage)

    def finished_batch(self, history: History, root: Any) -> None:
        """Nothing to keep beyond the journal."""


def _key(value: Any) -> str:
    """A parameter value as one text, whatever form it was read back in (lists, arrays)."""
    if hasattr(value, "tolist"):
        value = value.tolist()
    return json.dumps(value, sort_keys=True)
