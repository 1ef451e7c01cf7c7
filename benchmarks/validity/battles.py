"""Fighting the studies' battles: a point (a battle and its seeds), its samples, the runner.

A point's ``key`` names it and gives its seeds (:func:`point_seeds`): run ``i`` of a point
always gets the same seed whatever the replicate count, worker count or order, so the quick
run's battles are the first of the full run's and every figure is reproducible.
"""

from __future__ import annotations

import concurrent.futures as cf
import functools
import math
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from benchmarks.validity.base import MASTER_SEED
from sim import workers


@dataclass(frozen=True)
class Point:
    """A battle fought ``runs`` times; its ``key`` names it and gives its seeds.

    ``overrides`` are ``--set`` style changes to ``text``; ``mirrored`` lists side B first.
    Two points with one ``seed_key`` fight with the same seeds (common random numbers).
    """

    key: str
    text: str
    runs: int
    overrides: tuple[str, ...] = ()
    mirrored: bool = False
    source: str = "<validity>"
    seed_key: str = ""  # points with the same seed_key share seeds (default: the key)

    @property
    def seeds_from(self) -> str:
        return self.seed_key or self.key


def point_seeds(key: str, stop: int, start: int = 0) -> np.ndarray:
    """Seeds of runs ``start..stop-1`` of the point ``key`` (prefix-stable in ``stop``)."""
    seq = np.random.SeedSequence(MASTER_SEED, spawn_key=(zlib.crc32(key.encode()),))
    return seq.generate_state(stop, np.uint64)[start:]


@functools.lru_cache(maxsize=32)
def _scenario(text: str, source: str, overrides: tuple[str, ...], mirrored: bool) -> Any:
    from sim.scenario import parse_scenario

    sc = parse_scenario(text, source, overrides)
    names = (sc.sides[0].name, sc.sides[1].name)
    return (sc.mirrored() if mirrored else sc), names


def fight(point: Point, start: int, stop: int) -> np.ndarray:
    """Fight runs ``start..stop-1`` of ``point``: one row each.

    Columns: winner (1 the side listed first in the text, 2 the other, 0 a draw), rounds,
    and each side's fighters still standing (active or fleeing) at the end.
    """
    from sim.battle.battle import Battle

    sc, (a, b) = _scenario(point.text, point.source, point.overrides, point.mirrored)
    seeds = point_seeds(point.seeds_from, stop, start)
    out = np.zeros((len(seeds), 4), dtype=np.int64)
    for i, seed in enumerate(seeds):
        o = Battle(sc, seed=int(seed)).run()
        code = 1 if o.winner == a else 2 if o.winner == b else 0
        stand_a = o.sides[a]["active"] + o.sides[a]["fleeing"]
        stand_b = o.sides[b]["active"] + o.sides[b]["fleeing"]
        out[i] = (code, o.rounds, stand_a, stand_b)
    return out


@dataclass(frozen=True)
class Sample:
    """The outcomes of a point's runs (rows of :func:`fight`)."""

    key: str
    rows: np.ndarray

    @property
    def runs(self) -> int:
        return len(self.rows)

    @property
    def a_wins(self) -> int:
        return int((self.rows[:, 0] == 1).sum())

    @property
    def b_wins(self) -> int:
        return int((self.rows[:, 0] == 2).sum())

    @property
    def draws(self) -> int:
        return int((self.rows[:, 0] == 0).sum())

    @property
    def decisive(self) -> int:
        return self.runs - self.draws

    @property
    def mean_rounds(self) -> float:
        return float(self.rows[:, 1].mean())

    @property
    def a_survivors(self) -> np.ndarray:
        """Side A's fighters standing at the end of each run (0 when it lost)."""
        return np.where(self.rows[:, 0] == 1, self.rows[:, 2], 0)

    def winner_survivors(self) -> float:
        """Mean fighters the winner still has standing, over the decisive runs."""
        won = self.rows[:, 0]
        left = np.where(won == 1, self.rows[:, 2], self.rows[:, 3])[won != 0]
        return float(left.mean()) if len(left) else math.nan


class Runner:
    """Fights points on ``workers`` processes (1: in this process); results do not depend on it.

    Use as a context manager so the worker pool is shut down.
    """

    def __init__(self, workers: int = 2, log: Callable[[str], None] | None = None) -> None:
        self.workers = max(1, workers)
        self.log = log or (lambda text: None)
        self.pool: cf.ProcessPoolExecutor | None = None
        self.battles = 0

    def __enter__(self) -> Runner:
        if self.workers > 1:  # forked from the sweeps' preloaded forkserver, not spawned:
            # Mesa 3.3 makes spawn the default (mesa.batchrunner), and a spawned worker
            # imports everything again (as much CPU as a test's battles)
            workers.start()
            self.pool = cf.ProcessPoolExecutor(
                max_workers=self.workers, mp_context=workers.context()
            )
        return self

    def __exit__(self, *exc: object) -> None:
        if self.pool is not None:
            self.pool.shutdown(cancel_futures=True)
            self.pool = None

    def run(self, points: Sequence[Point]) -> dict[str, Sample]:
        """Fight every point; the samples by key."""
        keys = [p.key for p in points]
        if len(set(keys)) != len(keys):
            raise ValueError("point keys must differ (a sample is filed under its key)")
        tasks = []
        for p in points:
            step = max(5, min(100, math.ceil(p.runs / 8)))
            tasks += [(p, s, min(s + step, p.runs)) for s in range(0, p.runs, step)]
        parts: dict[tuple[str, int], np.ndarray] = {}
        if self.pool is None:
            for p, s, e in tasks:
                parts[p.key, s] = fight(p, s, e)
        else:
            futures = {self.pool.submit(fight, p, s, e): (p.key, s) for p, s, e in tasks}
            for fut in cf.as_completed(futures):
                parts[futures[fut]] = fut.result()
        self.battles += sum(p.runs for p in points)
        return {
            p.key: Sample(
                p.key,
                np.concatenate([parts[p.key, s] for s in sorted(s for k, s in parts if k == p.key)])
                if p.runs
                else np.zeros((0, 4), dtype=np.int64),
            )
            for p in points
        }
