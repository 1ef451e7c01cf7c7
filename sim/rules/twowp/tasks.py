"""2W2P goals and risks: resolving a task's dice, the greedy assignment, exact odds.

Follows seed ``000_7f98fe11b25af74f.txt`` (RULES.md 2.3 goals and risks, the resolution of every
task).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from functools import cache
from math import comb

import numpy as np

from sim.dice import Dist
from sim.errors import SimError, unknown
from sim.rules.twowp.options import (
    ADVANCES_TO_ACHIEVE,
    DEFAULT_OPTIONS,
    MAX_DELAYS,
    Options,
    _check_count,
)


class StakeKind(StrEnum):
    """What is at stake on a task; the greedy tactic serves them in this order."""

    DEATH = "death"
    INFECTION = "infection"
    RISK = "risk"
    GOAL = "goal"


_PRIORITY = {kind: i for i, kind in enumerate(StakeKind)}


class Outcome(StrEnum):
    """What became of a goal or risk after a roll."""

    ACHIEVED = "achieved"  # goal: a 5-6, or its last needed advance
    ADVANCED = "advanced"  # goal: a 3-4 short of the last advance
    OPEN = "open"  # goal: no die, but the chance is kept (recovery, later step)
    LOST = "lost"  # goal: no 3+ die; the opportunity is lost (a failed roll)
    REMOVED = "removed"  # risk: a 5-6
    DELAYED = "delayed"  # risk: a 3-4 while it may still be delayed (avoided for now)
    HAPPENS = "happens"  # risk: no die that stops it


@dataclass(frozen=True, slots=True)
class Stake:
    """A goal or a risk of a task, with what earlier rolls did to it.

    Attributes:
        kind: death, infection or other risk, or goal.
        delays: risks: times delayed by earlier rolls.
        advances: goals: times advanced by earlier rolls.
        keep_open: goals: not lost when no die at all is left for it (recovery goals:
            "fewer dice than goals keeps the leftover chances open").
        after: goals split into steps: index of the previous step in the same stake list;
            a step with no 3+ die stays open while that step is being advanced.
        max_delays: risks: how often it may be delayed ("unless the GM says otherwise").
        advances_needed: goals: advances that achieve it.
        label: free text for logs.
    """

    kind: StakeKind
    delays: int = 0
    advances: int = 0
    keep_open: bool = False
    after: int | None = None
    max_delays: int = MAX_DELAYS
    advances_needed: int = ADVANCES_TO_ACHIEVE
    label: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.kind, StakeKind):
            try:
                object.__setattr__(self, "kind", StakeKind(self.kind))
            except ValueError:
                raise unknown("stake kind", str(self.kind), [k.value for k in StakeKind]) from None
        for name in ("delays", "advances", "max_delays"):
            _check_count(getattr(self, name), name)
        if self.advances_needed < 1:
            raise SimError(f"advances_needed must be 1 or more, got {self.advances_needed}")

    @property
    def is_risk(self) -> bool:
        """True for death, infection and other risks."""
        return self.kind is not StakeKind.GOAL


@dataclass(frozen=True, slots=True)
class StakeResult:
    """The outcome of one stake after a roll, the dice put on it and its updated counts."""

    outcome: Outcome
    dice: tuple[int, ...]
    delays: int
    advances: int


Assignment = tuple[tuple[int, ...], ...]
"""For each stake, the indices (into the dice) of the dice assigned to it."""

Assigner = Callable[[tuple[int, ...], Sequence[Stake]], tuple[StakeResult, ...]]
"""A dice-assignment tactic: sorted dice (highest first) and the stakes in, outcomes out."""


def suffices(face: int, stake: Stake) -> bool:
    """Whether a die of ``face`` keeps ``stake`` from its no-die fate.

    For a risk: a 5-6 (removes it), or a 3-4 while the risk has been delayed fewer than
    ``max_delays`` times (delays it). For a goal: any 3+ (a 5-6 achieves, a 3-4 advances).
    """
    if face >= 5:
        return True
    if face >= 3:
        return not stake.is_risk or stake.delays < stake.max_delays
    return False


def _check_face(face: int) -> None:
    if not 1 <= face <= 6:
        raise SimError(f"a die face must be 1..6, got {face}")


def resolve(
    dice: Sequence[int], stakes: Sequence[Stake], chosen: Sequence[Sequence[int]]
) -> tuple[StakeResult, ...]:
    """Outcome of every stake when ``chosen[i]`` are the indices of the dice put on stake i.

    Rules (RULES.md 2.3) [S]: a 5-6 achieves a goal or removes a risk; a 3-4 advances a goal
    (the ``advances_needed``-th advance achieves it) or delays a risk (while it may still be
    delayed); a risk with no such die happens; a goal with no 3+ die is lost, except that it
    stays open if it got no die at all and is ``keep_open``, or if it is a later step whose
    previous step is still being advanced (advanced or open). Several dice on one stake add
    their advances; a risk is delayed at most once per roll.
    """
    if len(chosen) != len(stakes):
        raise SimError(f"an assignment needs one entry per stake: {len(chosen)} != {len(stakes)}")
    for face in dice:
        _check_face(face)
    used: set[int] = set()
    for idxs in chosen:
        for j in idxs:
            if not 0 <= j < len(dice) or j in used:
                raise SimError(f"die index {j} is out of range or assigned twice")
            used.add(j)
    results: list[StakeResult] = []
    for i, (stake, idxs) in enumerate(zip(stakes, chosen, strict=True)):
        faces = tuple(dice[j] for j in idxs)
        high = sum(1 for f in faces if f >= 5)
        mid = sum(1 for f in faces if 3 <= f <= 4)
        if stake.is_risk:
            if high:
                outcome, delays = Outcome.REMOVED, stake.delays
            elif mid and stake.delays < stake.max_delays:
                outcome, delays = Outcome.DELAYED, stake.delays + 1
            else:
                outcome, delays = Outcome.HAPPENS, stake.delays
            results.append(StakeResult(outcome, faces, delays, stake.advances))
            continue
        advances = stake.advances + mid
        if high or advances >= stake.advances_needed:
            outcome = Outcome.ACHIEVED
        elif mid:
            outcome = Outcome.ADVANCED
        elif stake.keep_open and not faces:
            outcome = Outcome.OPEN
        elif stake.after is not None:
            if not 0 <= stake.after < i or stakes[stake.after].is_risk:
                raise SimError(f"stake {i}: 'after' must name an earlier goal, got {stake.after}")
            prev = results[stake.after].outcome
            outcome = Outcome.OPEN if prev in (Outcome.ADVANCED, Outcome.OPEN) else Outcome.LOST
        else:
            outcome = Outcome.LOST
        results.append(StakeResult(outcome, faces, stake.delays, advances))
    return tuple(results)


def greedy_assignment(
    dice: Sequence[int], stakes: Sequence[Stake], options: Options = DEFAULT_OPTIONS
) -> Assignment:
    """The default dice-assignment tactic [H]; returns the dice indices put on each stake.

    1. Stakes are served in the order death risks, infection risks, other risks, goals (list
       order within a kind). Each takes the highest die still free if that die *suffices*
       (:func:`suffices`: it stops the risk or advances/achieves the goal); since dice are
       taken highest first, when the highest free die does not suffice no lower one does and
       the stake gets nothing in this pass.
    2. With ``stack_advances``, free 3+ dice then go round the goals not yet achieved, in the
       same order, one die each per round, highest first.
    3. Every die must be assigned: the remaining dice (highest first) go one each to stakes
       that have none, in the same order but ``keep_open`` goals last; dice left over after
       every stake has one are unused. So a recovery goal stays open only when the dice ran
       out before it.
    """
    for face in dice:
        _check_face(face)
    order = sorted(range(len(stakes)), key=lambda i: (_PRIORITY[stakes[i].kind], i))
    free = sorted(range(len(dice)), key=lambda j: (-dice[j], j))
    chosen: list[list[int]] = [[] for _ in stakes]
    for i in order:
        if free and suffices(dice[free[0]], stakes[i]):
            chosen[i].append(free.pop(0))
    if options.stack_advances:
        goals = [i for i in order if not stakes[i].is_risk]
        progress = True
        while progress and free and dice[free[0]] >= 3:
            progress = False
            for i in goals:
                faces = [dice[j] for j in chosen[i]]
                done = (
                    any(f >= 5 for f in faces)
                    or stakes[i].advances + sum(1 for f in faces if f >= 3)
                    >= stakes[i].advances_needed
                )
                if not done and free and dice[free[0]] >= 3:
                    chosen[i].append(free.pop(0))
                    progress = True
    empty = [i for i in order if not chosen[i]]
    empty.sort(key=lambda i: stakes[i].keep_open and not stakes[i].is_risk)  # stable
    for i in empty:
        if not free:
            break
        chosen[i].append(free.pop(0))
    return tuple(tuple(c) for c in chosen)


def assign_greedy(
    dice: Sequence[int], stakes: Sequence[Stake], options: Options = DEFAULT_OPTIONS
) -> tuple[StakeResult, ...]:
    """Outcome of each stake under the default greedy assignment (an :data:`Assigner`)."""
    return resolve(dice, stakes, greedy_assignment(dice, stakes, options))


@dataclass(frozen=True, slots=True)
class TaskRoll:
    """A task's dice, highest first, and the outcome of each of its stakes."""

    dice: tuple[int, ...]
    results: tuple[StakeResult, ...]

    @property
    def outcomes(self) -> tuple[Outcome, ...]:
        """The outcomes alone, in stake order (the outcomes of :func:`task_dist`)."""
        return tuple(r.outcome for r in self.results)


def _assigner(assign: Assigner | None, options: Options) -> Assigner:
    if assign is not None:
        return assign
    return lambda dice, stakes: assign_greedy(dice, stakes, options)


def roll_task(
    dice: int,
    stakes: Sequence[Stake],
    rng: np.random.Generator,
    options: Options = DEFAULT_OPTIONS,
    assign: Assigner | None = None,
) -> TaskRoll:
    """Roll ``dice`` d6 for a task and assign them to its stakes (default: greedy)."""
    _check_count(dice, "task dice")
    faces = tuple(sorted((int(f) for f in rng.integers(1, 7, size=dice)), reverse=True))
    return TaskRoll(faces, _assigner(assign, options)(faces, stakes))


@cache
def _trinomial(n: int) -> tuple[tuple[int, int, int], ...]:
    """(high, mid, ways) for n d6: ``high`` 5-6s, ``mid`` 3-4s; probability ways / 3**n."""
    return tuple(
        (a, b, comb(n, a) * comb(n - a, b)) for a in range(n + 1) for b in range(n - a + 1)
    )


def task_dist(
    dice: int,
    stakes: Sequence[Stake],
    options: Options = DEFAULT_OPTIONS,
    assign: Assigner | None = None,
) -> Dist:
    """Exact distribution of the tuple of outcomes (stake order) of :func:`roll_task`.

    Only whether a die is 1-2, 3-4 or 5-6 matters to the rules, so this enumerates those
    counts; it is exact for any ``assign`` that looks at no more than that.
    """
    _check_count(dice, "task dice")
    fn = _assigner(assign, options)
    acc: dict[tuple[Outcome, ...], int] = {}
    for high, mid, ways in _trinomial(dice):
        faces = (6,) * high + (4,) * mid + (2,) * (dice - high - mid)
        key = tuple(r.outcome for r in fn(faces, stakes))
        acc[key] = acc.get(key, 0) + ways
    return Dist({k: Fraction(v, 3**dice) for k, v in acc.items()})
