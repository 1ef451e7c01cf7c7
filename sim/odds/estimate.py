"""A guess at an exact battle's work before it starts (:func:`estimate`)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from sim.battle import Battle
from sim.frame.turns import TurnFrame
from sim.odds.enumerate import Enumerator, _drawn, multiset_count
from sim.odds.states import Codec, rounds_free, scenario_of, start, turn_frames
from sim.scenario import Scenario

__all__ = ["estimate"]


def estimate(
    scenario: Scenario | str | Path, overrides: Sequence[str] = (), *, battles: int = 100
) -> dict[str, float]:
    """A guess at an exact battle's work, from ``battles`` fought with real dice.

    Each stretch of a battle (a round's start to a turn's, a turn's to the next) is counted
    with the outcomes its draws could have had (a multiset of dice counting once);
    ``executions`` is the distinct round and turn starts the sample met (keyed as the exact
    method keys them: a state met again a round later counts once) times their mean
    branching: at least the states the exact method meets, not the work it does for each.
    """
    s = scenario_of(scenario, overrides)
    b0 = start(s)
    codec = Codec(b0, dice=(Enumerator, _Counting))
    ahead = 1 if rounds_free(s) else None  # as the exact method keys its states
    seen: set[bytes] = set()
    branching: list[float] = []
    for seed in range(battles):
        b = Battle(s, seed=seed)
        counter = _Counting(b.rng)
        b.rng = counter

        def take_turn(f: Any, b: Battle = b, counter: _Counting = counter) -> None:
            branching.append(counter.flush())
            del b.take_turn
            frames = turn_frames(sys._getframe(1))
            if frames is not None:  # the codec leaves the counting die out
                seen.add(codec.key((b, f, frames), b, None if ahead is None else 0))
            b.take_turn = take_turn  # type: ignore[method-assign]
            TurnFrame.take_turn(b, f)

        b.take_turn = take_turn  # type: ignore[method-assign]
        while not b.ended:
            del b.take_turn
            rows, states = b.round_rows, b.states
            b.round_rows, b.states = [], []
            seen.add(codec.key(b, b, ahead))
            b.round_rows, b.states = rows, states
            b.take_turn = take_turn  # type: ignore[method-assign]
            b.step()
            branching.append(counter.flush())
    mean = float(np.mean(branching)) if branching else 1.0
    return {"starts": len(seen), "branching": mean, "executions": len(seen) * mean}


class _Counting:
    """A real die that counts how many outcomes its draws could have had since the last flush."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng
        self.ways = 1.0

    def flush(self) -> float:
        ways, self.ways = self.ways, 1.0
        return ways

    def integers(self, low: int, high: int | None = None, size: Any = None, **kw: Any) -> Any:
        lo, hi = (0, low) if high is None else (low, high)
        k = int(hi) - int(lo)
        n = 1 if size is None else int(np.prod(size))
        self.ways *= k if size is None else multiset_count(k, n)
        return self.rng.integers(low, high, size=size, **kw)

    def random(self, size: Any = None) -> Any:
        self.ways *= 2
        return self.rng.random(size)

    def die_faces(self, sides: int, count: int) -> tuple[int, ...]:
        self.ways *= multiset_count(sides, count)
        return tuple(int(x) for x in self.rng.integers(1, sides + 1, size=count))

    def outcome(self, draw: Callable[..., Any], args: tuple[Any, ...] = (), key: Any = None) -> Any:
        self.ways *= len(_drawn(draw, args, key))
        return draw(self.rng, *args)

    def until(self, draw: Callable[[Any], Any], accept: Callable[[Any], bool]) -> Any:
        while True:
            got = draw(self)
            if accept(got):
                return got
