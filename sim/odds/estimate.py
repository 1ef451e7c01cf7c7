"""A guess at an exact battle's work before it starts (:func:`estimate`)."""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from sim.battle import Battle
from sim.frame.turns import TurnFrame
from sim.odds.enumerate import Enumerator, Options, _drawn, _kept, _multisets, _uniform
from sim.odds.states import (
    HOOKS,
    MERGE,
    Codec,
    maneuvers_merged,
    round_key,
    rounds_free,
    scenario_of,
    start,
    state_of,
    turn_frames,
)
from sim.scenario import Scenario

__all__ = ["estimate"]


def estimate(
    scenario: Scenario | str | Path, overrides: Sequence[str] = (), *, battles: int = 100
) -> dict[str, float]:
    """A guess at an exact battle's work, from ``battles`` fought with a counting die.

    The die picks each draw's outcome evenly among those the exact method fights (a multiset
    of dice, a keyed roll's key, counting once) and counts the fights each stretch of a
    battle (a round's start to a turn's, a turn's or a War Game maneuver's to the next) makes
    (Knuth's estimate of a tree's size): ``branching`` is their mean. ``seen`` is the
    distinct round and turn starts the sample met, keyed as the exact method keys them (a
    state met again a round later counts once); ``starts`` adds those it missed (Chao1, from
    the starts met once and twice). ``executions``, starts times branching, is a floor: on
    the shipped battles the exact method answers, the work was 1.2 to 3 times it, and 31
    times it for the skirmish, whose turn starts 100 battles mostly miss.
    """
    s = scenario_of(scenario, overrides)
    b0 = start(s)
    codec = Codec(b0, dice=(Enumerator, _Counting))
    ahead = 1 if rounds_free(s) else None  # as the exact method keys its states
    seen: Counter[bytes] = Counter()
    branching: list[float] = []
    with maneuvers_merged():
        for seed in range(battles):
            _sample(Battle(s, seed=seed), codec, ahead, seen, branching)
    mean = float(np.mean(branching)) if branching else 1.0
    once = sum(1 for n in seen.values() if n == 1)
    twice = sum(1 for n in seen.values() if n == 2)
    starts = len(seen) + once * (once - 1) / (2 * (twice + 1))  # Chao1, bias-corrected
    return {"seen": len(seen), "starts": starts, "branching": mean, "executions": starts * mean}


def _sample(
    b: Battle, codec: Codec, ahead: int | None, seen: Counter[bytes], branching: list[float]
) -> None:
    """One battle fought with the counting die: its stretches' fights, its starts' keys."""
    counter = _Counting(b.rng)
    b.rng = counter

    def at(f: Any = None) -> None:  # a turn's start, or a maneuver's (MERGE)
        branching.append(counter.flush())
        del b.take_turn
        frames = turn_frames(sys._getframe(2))
        if frames is not None:  # the codec leaves the counting die out
            seen[codec.key((b, f, frames), b, None if ahead is None else 0)] += 1
        b.take_turn = take_turn  # type: ignore[method-assign]

    def take_turn(f: Any) -> None:
        at(f)
        TurnFrame.take_turn(b, f)

    MERGE.append(at)
    try:
        while not b.ended:
            rows, states = b.round_rows, b.states
            seen[round_key(codec, state_of(codec, b), ahead)] += 1
            b.round_rows, b.states = rows, states
            b.take_turn = take_turn  # type: ignore[method-assign]
            b.step()
            del b.take_turn
            branching.append(counter.flush())
    finally:
        MERGE.pop()


_EITHER: Options = ((0.0, Fraction(1, 2)), (1 - 2**-53, Fraction(1, 2)))  # u < p, or not


class _Counting:
    """A die that picks at random among the outcomes the exact method would fight, and counts.

    Each outcome of a draw is as likely as any other; ``flush`` gives the fights a stretch's
    draws made since the last flush.

    Knuth's estimate of a tree's size: along a path chosen so, the product of the outcomes
    of the draws is, on average, the number of the tree's leaves: the fights of a stretch
    (each fight goes on with a draw's first outcome and leaves the others to fights of their
    own, :class:`sim.odds.enumerate.Enumerator`'s ``fork``).
    """

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng
        self.ways = 1.0

    def flush(self) -> float:
        fights, self.ways = self.ways, 1.0
        return fights

    def _pick(self, options: Options) -> Any:
        self.ways *= len(options)
        return options[int(self.rng.integers(len(options)))][0]

    def integers(self, low: int, high: int | None = None, size: Any = None, **kw: Any) -> Any:
        lo, hi = (0, low) if high is None else (low, high)
        if size is None:
            return self._pick(_uniform(int(lo), int(hi)))
        return np.array(self._pick(_multisets(int(lo), int(hi), int(np.prod(size)))))

    def random(self, size: Any = None) -> Any:
        return self._pick(_EITHER)

    def die_faces(self, sides: int, count: int) -> tuple[int, ...]:
        return self._pick(_multisets(1, sides + 1, count)) if count > 0 else ()

    def outcome(
        self,
        draw: Callable[..., Any],
        args: tuple[Any, ...] = (),
        key: Any = None,
        same: Any = None,
    ) -> Any:
        return self._pick(_drawn(draw, args, key) if same is None else _kept(draw, args, key, same))

    def until(self, draw: Callable[[Any], Any], accept: Callable[[Any], bool], key: Any) -> Any:
        kept = {(v if key is None else key(v)): (v, p) for v, p in _drawn(draw) if accept(v)}
        return self._pick(tuple(kept.values()))


HOOKS.update(c for c in _sample.__code__.co_consts if getattr(c, "co_name", "") == "take_turn")
