"""``method: match``: history matching in waves, for calibrations with many unknowns.

A grid grows as the product of the unknowns' levels; with five or six unknowns it cannot
be fought. History matching fights a few design points instead and emulates the rest
(:mod:`sim.search.calibrate.emulate`):

1. Wave 1 fights ``wave`` design points, a Latin hypercube of the numeric unknowns (each
   choice of the unknowns' choices in turn), ``start`` battles at each point and row.
2. After each wave the emulators are fitted to every battle so far; of
   :data:`CANDIDATES` settings drawn uniformly from the region still in play, those whose
   implausibility is above the cut-off are ruled out, and the region shrinks to the box
   around the rest. The next wave's points are spread over the survivors (maximin).
3. The waves stop at ``waves``, when the budget cannot pay for another, or when a wave
   rules out less than a fifth of what was left (the emulators have said what the battles
   can tell). The answer (:mod:`sim.search.calibrate.match_answer`) weighs the settings not
   ruled out by the table's likelihood under the emulators, their uncertainty included.

Each wave is planned from the battles read back and the region its predecessor recorded
in the journal, with a seed of its own: a resumed search takes the same path.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pyarrow as pa

from sim.search.calibrate import emulate
from sim.search.calibrate import posterior as post
from sim.search.calibrate.read import ROW, Settings
from sim.search.core import BadNote, History, Planned
from sim.search.space import Param
from sim.search.spec import Search

MATCH_KEY = 0x4D415443
"""The first word of each wave's seed key (``SeedSequence(master, (KEY, wave))``)."""
CANDIDATES = 20_000
"""Settings drawn from the region in play to judge it, each wave."""
SHRINK = 0.8
"""A wave that leaves more than this share of the region's volume ends the waves."""
NUMERIC = ("whole", "real")


class Space:
    """The unknowns: the numeric ones scaled to 0..1, the choices as combinations."""

    def __init__(self, params: tuple[Param, ...]) -> None:
        self.params = params
        self.numeric = [p for p in params if p.kind in NUMERIC]
        self.choices = [p for p in params if p.kind not in NUMERIC]
        self.combos = list(itertools.product(*(p.choices for p in self.choices))) or [()]

    @property
    def d(self) -> int:
        """Numeric unknowns."""
        return len(self.numeric)

    def snap(self, x: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        """Whole-number unknowns at whole values (still scaled)."""
        x = np.array(x, dtype=float, copy=True)
        for j, p in enumerate(self.numeric):
            if p.kind == "whole":
                low, high = float(p.low), float(p.high)
                x[:, j] = (np.round(low + x[:, j] * (high - low)) - low) / (high - low)
        return x

    def values(self, x: np.ndarray[Any, Any], combo: int) -> dict[str, Any]:
        """One setting's value of each unknown."""
        out: dict[str, Any] = {}
        for j, p in enumerate(self.numeric):
            v = float(p.low) + float(x[j]) * (float(p.high) - float(p.low))
            out[p.name] = int(round(v)) if p.kind == "whole" else v
        for p, v in zip(self.choices, self.combos[combo], strict=True):
            out[p.name] = v
        return out

    def scaled(self, runs: Any) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
        """Scaled values and combination of the settings of ``runs`` rows."""
        x = (
            np.column_stack(
                [
                    (runs[p.name].to_numpy(dtype=float) - float(p.low))
                    / (float(p.high) - float(p.low))
                    for p in self.numeric
                ]
            )
            if self.numeric
            else np.zeros((len(runs), 0))
        )
        place = {c: i for i, c in enumerate(self.combos)}
        keys = zip(*(runs[p.name].tolist() for p in self.choices), strict=True)
        combo = np.array([place[tuple(k)] for k in keys] if self.choices else [0] * len(runs))
        return x, combo

    def sample(
        self, rng: np.random.Generator, n: int, box: np.ndarray[Any, Any]
    ) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
        """``n`` settings drawn uniformly from ``box`` (``[d, 2]``), each combination alike."""
        u = rng.random((n, self.d))
        x = self.snap(box[:, 0] + u * (box[:, 1] - box[:, 0]))
        return x, rng.integers(0, len(self.combos), size=n)


class Match:
    """History matching's planner: the waves of design points, and their emulators."""

    def __init__(self, search: Search) -> None:
        self.search = search
        self.s: Settings = search.settings
        self.table = self.s.table
        self.grid = self.s.grid
        self.labels = tuple(r.label for r in self.table.rows)
        self.space = Space(self.grid.params)
        self.targets = emulate.targets(self.table)
        self.per_wave = self.s.wave or min(200, 10 * (self.space.d + 1) * len(self.space.combos))
        self._emulators: tuple[Any, list[Any]] | None = None

    def columns(self) -> list[pa.Field]:
        """Each battle's design point, and its wave."""
        return [pa.field("cell", pa.int64()), pa.field("wave", pa.int64())]

    def rng(self, wave: int) -> np.random.Generator:
        """The wave's own generator."""
        seed = np.random.SeedSequence(self.search.seed, spawn_key=(MATCH_KEY, wave))
        return np.random.default_rng(seed)

    def points(self, history: History) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
        """Every design point so far (by its ``cell``): scaled values, combination."""
        runs = history.runs.drop_duplicates("cell").sort_values("cell")
        return self.space.scaled(runs)

    def sims(self, history: History) -> post.Sims:
        """Every battle so far, summed by design point and row."""
        cells = int(history.runs["cell"].max()) + 1 if len(history.runs) else 0
        return post.simulated(
            history.runs,
            cells,
            self.labels,
            self.table.stats,
            self.search.sides,
            [r.attacker for r in self.table.rows],
        )

    def emulators(self, history: History, box: np.ndarray[Any, Any]) -> list[Any]:
        """Per target: its spread, and an emulator per combination of choices.

        Fitted to the design points in ``box`` (widened by a quarter of its width each way);
        kept while the battles and the box are the same.
        """
        key = (history.spent, box.tobytes())
        if self._emulators is not None and self._emulators[0] == key:
            return self._emulators[1]
        sims = self.sims(history)
        px, pc = self.points(history)
        pad = 0.25 * (box[:, 1] - box[:, 0])
        near = np.all((px >= box[:, 0] - pad) & (px <= box[:, 1] + pad), axis=1)
        out = []
        for t in self.targets:
            y, noise = emulate.point_values(sims, t)
            models = []
            for c in range(len(self.space.combos)):
                mine = (pc == c) & near
                models.append(emulate.Emulator(px[mine], y[mine], noise[mine]))
            out.append((emulate.row_spread(sims, t), models))
        self._emulators = (key, out)
        return out

    def assess(
        self,
        history: History,
        x: np.ndarray[Any, Any],
        combo: np.ndarray[Any, Any],
        box: np.ndarray[Any, Any],
    ) -> tuple[list[np.ndarray[Any, Any]], list[np.ndarray[Any, Any]], list[np.ndarray[Any, Any]]]:
        """At settings ``x``, per target: the emulated value, its variance, the total variance.

        The total is about the observation: the emulator's, the sampling error's and the
        dispersion's.
        """
        rho = self.s.dispersion.values[0]
        means, evars, totals = [], [], []
        for t, (spread, models) in zip(self.targets, self.emulators(history, box), strict=True):
            mu, var = np.zeros(len(x)), np.zeros(len(x))
            for c, model in enumerate(models):
                at = combo == c
                if at.any():
                    mu[at], var[at] = model.predict(x[at])
            means.append(mu)
            evars.append(var)
            totals.append(var + emulate.observed_var(t, mu, spread, rho))
        return means, evars, totals

    def survivors(
        self, history: History, box: np.ndarray[Any, Any], wave: int
    ) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any]]:
        """Candidates drawn from ``box``, and which of them are not ruled out."""
        x, combo = self.space.sample(self.rng(wave), CANDIDATES, box)
        means, _, totals = self.assess(history, x, combo, box)
        keep = emulate.implausibility(means, totals, self.targets) <= emulate.CUTOFF
        return x, combo, keep

    def plan(self, history: History, recorded: dict[str, Any] | None) -> Planned | None:
        """Wave 1 over the prior; each next wave over what the last one left in play."""
        wave = len(history.batches)
        if wave >= self.s.waves:
            return None
        full = np.array([[0.0, 1.0]] * self.space.d).reshape(self.space.d, 2)
        if wave == 0:
            x, combo = self.first_wave(self.rng(0))
            note = {"box": full.tolist(), "volume": 1.0, "kept": 1.0}
        else:
            last = history.batches[-1].get("note", {})
            box = _box(last, self.space.d)
            cx, cc, keep = self.survivors(history, box, wave)
            volume = float(last.get("volume", 1.0)) * float(keep.mean())
            if not keep.any() or volume > SHRINK * float(last.get("volume", 1.0)):
                return None
            new = _around(cx[keep], box)
            x, combo = _maximin(cx[keep], cc[keep], self.per_wave, self.rng(wave))
            note = {"box": new.tolist(), "volume": volume, "kept": float(keep.mean())}
        if recorded is not None and recorded.get("box") != note["box"]:
            raise BadNote(("box",), "not the region this wave was planned over")
        return self._batch(history, x, combo, wave, note)

    def first_wave(
        self, rng: np.random.Generator
    ) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
        """Wave 1: a Latin hypercube of the numeric unknowns, each combination in turn."""
        from scipy.stats import qmc

        n = self.per_wave
        if self.space.d:
            x = self.space.snap(qmc.LatinHypercube(d=self.space.d, seed=rng).random(n))
        else:
            x = np.zeros((n, 0))
        return x, np.arange(n) % len(self.space.combos)

    def _batch(
        self,
        history: History,
        x: np.ndarray[Any, Any],
        combo: np.ndarray[Any, Any],
        wave: int,
        note: dict[str, Any],
    ) -> Planned | None:
        rows = len(self.labels)
        fit = min(len(x), history.left // (rows * self.s.start))
        if fit < 2:
            return None
        first = int(history.runs["cell"].max()) + 1 if len(history.runs) else 0
        points, cells = [], []
        for i in range(fit):
            values = self.space.values(x[i], int(combo[i]))
            for label in self.labels:
                points.append({**values, ROW: label})
                cells.append(first + i)
        return Planned(
            tuple(points),
            tuple([self.s.start] * len(points)),
            f"wave {wave + 1}",
            columns={"cell": tuple(cells), "wave": tuple([wave] * len(points))},
            note={**note, "points": fit},
        )

    def progress(self, history: History) -> str:
        """The share of the prior still in play."""
        last = history.batches[-1].get("note", {}) if history.batches else {}
        return (
            f"wave {len(history.batches)}: {float(last.get('volume', 1.0)):.2%} of the prior "
            f"in play, {int(last.get('points', 0))} design points"
        )

    def finished_batch(self, history: History, root: Any) -> None:
        """Nothing to keep beyond the journal."""


def _box(note: dict[str, Any], d: int) -> np.ndarray[Any, Any]:
    box = note.get("box")
    if not isinstance(box, list) or len(box) != d:
        raise BadNote(("box",), f"expected the region as {d} [low, high] pairs")
    return np.array(box, dtype=float).reshape(d, 2)


def _around(x: np.ndarray[Any, Any], box: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """The box around the settings ``x``, widened by a tenth of its width each way."""
    if not x.shape[1]:
        return box
    lo, hi = x.min(axis=0), x.max(axis=0)
    pad = 0.1 * (box[:, 1] - box[:, 0])
    return np.column_stack([np.maximum(lo - pad, 0.0), np.minimum(hi + pad, 1.0)])


def _maximin(
    x: np.ndarray[Any, Any], combo: np.ndarray[Any, Any], n: int, rng: np.random.Generator
) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """``n`` of the settings spread out: each next the farthest from those chosen."""
    pool = rng.permutation(len(x))[:4000]
    x, combo = x[pool], combo[pool]
    far = np.full(len(x), np.inf)
    chosen = [0]
    for _ in range(min(n, len(x)) - 1):
        last = chosen[-1]
        gap = np.sqrt(((x - x[last]) ** 2).sum(axis=1) + (combo != combo[last]))
        far = np.minimum(far, gap)
        far[chosen] = -1.0
        chosen.append(int(np.argmax(far)))
    return x[chosen], combo[chosen]


def volume_text(v: float) -> str:
    """A share of the prior, e.g. ``0.031%``."""
    return f"{v:.2%}" if v >= 1e-4 else f"{v:.1e}"
