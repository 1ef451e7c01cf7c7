"""An exact battle explored on several processes: each round's new states shared out.

A round's states met for the first time are dealt out among worker processes. Each worker
keeps an explorer of its own (:class:`sim.odds.battle._Explorer`, its turn starts merged
among its own fights, round after round) and sends back each state's moves and the states
they reach, pickled as the battle's own process pickles them: the workers' codecs are built
from the same scenario and share the battle's token (:class:`sim.odds.states.Codec`), so a
state pickled by one is read by any. The answer is the one a single process gives (every
chance is exact, and a state's moves are its own); only the work differs, by the turn
starts two workers both meet. The limit bounds the fights of every worker together: each
counts its fights into one shared count, and stops past the limit.

The workers come from :func:`sim.workers.context`, as a sweep's do, ignore Ctrl-C and end
with the battle's process (:func:`sim.workers.init`).
"""

from __future__ import annotations

import concurrent.futures as cf
import itertools
import os
import sys
from collections.abc import Sequence
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from sim import workers as sweep_workers
from sim.errors import SimError
from sim.odds.states import Codec, maneuvers_merged, start
from sim.scenario import Scenario

__all__ = ["LEAST", "Pool"]

#: The fewest new states a round deals out to the workers; fewer are explored here.
LEAST = 32
#: The fewest fights a round must look like (its new states times the fights a state has
#: taken so far) to be dealt out: about 2 s here, as starting the workers takes about 1 s.
AFTER = 5_000
#: Each worker's share of a round, in parts: a worker done with one takes another.
CHUNKS = 2


class Pool:
    """Worker processes for one exact battle, started when a round first has enough to share.

    ``scenario`` and the codec's ``token``, ``ahead`` and ``last`` build each worker's own
    explorer. Use it in a ``with`` block: the workers end with it (at once, on an error).
    """

    def __init__(
        self, explorer: type, scenario: Scenario, codec: Codec, ahead: int | None, workers: int
    ) -> None:
        args = (explorer, scenario, codec.token, ahead, codec.last, os.getpid())
        self.args: tuple[Any, ...] = args
        self.fights: Any = None  # every worker's fights together, which the limit bounds
        self.workers = workers
        self.least, self.after = LEAST, AFTER
        self._pool: cf.ProcessPoolExecutor | None = None

    def __enter__(self) -> Pool:
        return self

    def __exit__(self, kind: object, *exc: object) -> None:
        pool, self._pool = self._pool, None
        if pool is None:
            return
        if kind is not None:  # an error, a limit passed or Ctrl-C: no worker goes on
            for proc in list(getattr(pool, "_processes", {}).values()):
                proc.terminate()
        pool.shutdown(wait=True, cancel_futures=True)

    def explore(self, x: Any, keys: Sequence[bytes]) -> None:
        """What :meth:`_Explorer.explore` does with ``keys``, by the workers, into ``x``."""
        if self._pool is None:
            sweep_workers.start()
            ctx = sweep_workers.context()
            self.fights = ctx.Value("q", 0)  # each worker counts its fights into it
            self._pool = cf.ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=ctx,
                initializer=_start,
                initargs=(*self.args, self.fights, x.limit),
            )
        self.fights.value = x.spent
        n = CHUNKS * self.workers
        cuts = [len(keys) * i // n for i in range(n + 1)]  # in the order met: kin together
        jobs = [[(k, x.blobs[k]) for k in keys[cuts[i] : cuts[i + 1]]] for i in range(n)]
        try:
            for done in cf.as_completed([self._pool.submit(_explore, job) for job in jobs]):
                moves, made, spent = done.result()
                x.spent += spent
                x.moves.update(moves)
                for k, blob in made.items():
                    x.blobs.setdefault(k, blob)
                x.bounded()  # the states kept so far, as each part comes in
        except BrokenProcessPool:
            raise SimError("a worker of the exact battle died (killed?); no odds") from None


_HERE: dict[str, Any] = {}


def _start(
    explorer: type,
    scenario: Scenario,
    token: int,
    ahead: int | None,
    last: int,
    sweep: int,
    fights: Any,
    limit: int,
) -> None:
    """A worker: its ``explorer`` of the battle, the War Game's maneuvers merged for its life.

    ``explorer`` is :class:`sim.odds.battle._Explorer`, given (by reference) rather than
    imported: that module imports this one.
    """
    sweep_workers.init(sweep)
    b = start(scenario)
    b.max_rounds = sys.maxsize
    codec = Codec(b, last=last, token=token)
    b.rng = None
    _HERE["x"] = x = explorer(codec, limit, ahead)
    x.shared = fights
    _HERE["merged"] = merged = maneuvers_merged()
    merged.__enter__()


def _explore(
    roots: list[tuple[bytes, bytes]],
) -> tuple[dict[bytes, Any], dict[bytes, bytes], int]:
    """A worker's round from each state of ``roots`` (key, pickle), within the battle's limit.

    Returns each state's moves, the states they reach (pickled) and the fights it took. The
    worker keeps its turn starts (their moves, for a fight that meets one again), not the
    states: the battle's process keeps those.
    """
    x = _HERE["x"]
    spent = x.spent
    x.blobs = dict(roots)
    x.explore([k for k, _ in roots])
    made = dict(itertools.islice(x.blobs.items(), len(roots), None))
    x.blobs = {}
    return {k: x.moves.pop(k) for k, _ in roots}, made, x.spent - spent
