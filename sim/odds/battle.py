"""Exact odds of a whole small battle, from the rule code the simulator fights with.

The battle is fought by :class:`sim.battle.Battle` itself, with the enumerating die of
:mod:`sim.odds.enumerate` in place of its Generator. A round is explored from each state the
battle can be in at its start: a fight of the round goes on with each draw's first outcome
and leaves each other outcome to a fight of its own (which replays the draws before it),
until every sequence of outcomes is covered. Equal states are merged:
at the start of every turn and War Game maneuver (every fighter, side and the frame, with
the turn loop's own variables) and at the end of every round (keyed as the next round
begins). A turn start reached again is not fought again: its chance is added to the first
arrival's, whose continuations stand for both. A round's moves from a state (the chance of
each end and each next state) are kept, and a state met again in a later round, equal but
for the round number (:func:`sim.odds.states.relative`), is not explored again. Chances are
exact fractions.

Python API::

    odds = battle_odds("scenarios/exact/duel_wargame.yaml")  # a BattleOdds
    odds.win("red"), odds.draw("max_rounds"), odds.rounds(), odds.statuses("red")
    odds.to_dict()                                          # plain data (what --format json prints)

Bounded (docs/odds.md): :func:`estimate` samples battles to guess the work before it starts;
:func:`battle_odds` refuses a battle whose estimate or whose work passes ``limit``
executions (:class:`TooLarge`), and a battle it cannot follow (:class:`NotExact`).
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from gmpy2 import mpq

from sim.battle import Battle
from sim.errors import SimError
from sim.frame.core import STATUSES
from sim.frame.turns import TurnFrame
from sim.odds.enumerate import Chance, Enumerator, Options, Unsupported
from sim.odds.estimate import estimate
from sim.odds.parallel import Pool
from sim.odds.states import (
    HOOKS,
    MERGE,
    Codec,
    NotExact,
    TooLarge,
    maneuvers_merged,
    round_key,
    rounds_free,
    scenario_of,
    start,
    state_of,
    too_many_fights,
    turn_frames,
)
from sim.scenario import Scenario

__all__ = [
    "DEFAULT_LIMIT",
    "BattleOdds",
    "NotExact",
    "TooLarge",
    "battle_odds",
    "estimate",
]

#: The most fights of a round (executions) an exact battle may take: 4 to 10 minutes here
#: (a fight takes 0.25 ms in a War Game duel, 0.35 ms in a 2W2P 1 v 3, 0.6 ms in a D6 duel).
DEFAULT_LIMIT = 1_000_000
#: The most states a battle may pass through (each kept pickled in memory, about 4.5 kB in
#: the alley: 450 MB; no battle the method answers passes 23,000).
MAX_STATES = 100_000
#: The most turn starts an explorer keeps with their moves (about 1 kB each): past it, it
#: forgets them between two groups of states (a fight that would meet one fights on).
MAX_TURNS = 200_000
#: How many states an explorer explores together (their turn starts kept until the group
#: is explored, whatever :data:`MAX_TURNS` says).
GROUP = 16


Outcome = tuple[str | None, str, int, tuple[tuple[int, ...], ...]]


@dataclass(frozen=True)
class BattleOdds:
    """The exact distribution of a battle's outcomes.

    ``outcomes`` maps (winner, end reason, rounds, each side's count per status in
    :data:`~sim.frame.core.STATUSES` order) to its exact chance; the chances sum to 1.
    """

    scenario: str
    rules: str
    sides: tuple[str, ...]
    fighters: Mapping[str, int]
    outcomes: Mapping[Outcome, Fraction]
    executions: int = 0
    states: int = 0
    most_states: int = 0
    seconds: float = 0.0

    def _sum(self, keep: Callable[[Outcome], bool]) -> Fraction:
        return sum((p for o, p in self.outcomes.items() if keep(o)), Fraction(0))

    def win(self, side: str) -> Fraction:
        """The chance ``side`` wins."""
        return self._sum(lambda o: o[0] == side)

    def draw(self, reason: str | None = None) -> Fraction:
        """The chance of a draw (by ``reason``: ``max_rounds``, ``mutual_rout`` ...)."""
        return self._sum(lambda o: o[0] is None and (reason is None or o[1] == reason))

    def reasons(self) -> dict[tuple[str | None, str], Fraction]:
        """The chance of each (winner, end reason)."""
        out: dict[tuple[str | None, str], Fraction] = {}
        for (w, r, _, _), p in self.outcomes.items():
            out[(w, r)] = out.get((w, r), Fraction(0)) + p
        return dict(sorted(out.items(), key=lambda kv: (kv[0][0] is None, str(kv[0]))))

    def rounds(self) -> dict[int, Fraction]:
        """The chance the battle lasts each number of rounds."""
        out: dict[int, Fraction] = {}
        for (_, _, n, _), p in self.outcomes.items():
            out[n] = out.get(n, Fraction(0)) + p
        return dict(sorted(out.items()))

    def statuses(self, side: str) -> dict[str, dict[int, Fraction]]:
        """Per status, the chance of each count of ``side``'s fighters in it at the end."""
        i = self.sides.index(side)
        out: dict[str, dict[int, Fraction]] = {s: {} for s in STATUSES}
        for (_, _, _, counts), p in self.outcomes.items():
            for status, n in zip(STATUSES, counts[i], strict=True):
                out[status][n] = out[status].get(n, Fraction(0)) + p
        return {s: dict(sorted(d.items())) for s, d in out.items()}

    def mean_rounds(self) -> Fraction:
        """The expected number of rounds."""
        return sum((n * p for n, p in self.rounds().items()), Fraction(0))

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data: each chance as ``"n/d"`` and as a float."""

        def both(p: Fraction) -> dict[str, Any]:
            return {"exact": f"{p.numerator}/{p.denominator}", "p": float(p)}

        return {
            "scenario": self.scenario,
            "rules": self.rules,
            "method": "exact",
            "sides": {
                s: {
                    "fighters": self.fighters[s],
                    "win": both(self.win(s)),
                    "statuses": {
                        st: {str(n): both(p) for n, p in d.items()}
                        for st, d in self.statuses(s).items()
                    },
                }
                for s in self.sides
            },
            "draw": both(self.draw()),
            "ends": [
                {"winner": w, "end_reason": r, **both(p)} for (w, r), p in self.reasons().items()
            ],
            "rounds": {str(n): both(p) for n, p in self.rounds().items()},
            "mean_rounds": float(self.mean_rounds()),
            "work": {
                "executions": self.executions,
                "states": self.states,
                "most_states": self.most_states,
                "seconds": round(self.seconds, 3),
            },
        }


class _Merged(Exception):  # noqa: N818 (a signal)
    """A turn start reached before: this fight stops here."""


def _outcome(b: Battle) -> Outcome:
    out = b.outcome()
    counts = tuple(tuple(int(out.sides[s][st]) for st in STATUSES) for s in out.sides)
    return (out.winner, out.end_reason, out.rounds, counts)


# ------------------------------------------------------------------------- exploring
_ZERO, _ONE = mpq(0), mpq(1)  # chances are gmpy2's rationals until the answer (Chance)
End = tuple[str | None, str, tuple[tuple[int, ...], ...]]  # an outcome but for its round
Move = tuple[int, Any]  # (1, an End) or (2, the key of the state at the round's end)


class _Explorer:
    """The rounds explored from every state (see the module's docstring).

    A round's *moves* from a state (the chance of each end and of each state at the round's
    end) are explored once per state key and kept: a state met again in a later round
    (equal but for the round number, :func:`sim.odds.states.relative`) moves the same.
    """

    def __init__(self, codec: Codec, limit: int, ahead: int | None) -> None:
        self.codec = codec
        self.limit = limit
        self.ahead = ahead  # 1: keys count rounds from the next; None: they keep the round
        self.spent = 0  # fights of a round so far
        self.shared: Any = None  # a worker's: the fights of every worker (sim.odds.parallel)
        self.nodes: dict[bytes, int] = {}  # a turn start's key -> its node
        self.edges: list[list[tuple[int, Any, Chance]]] = []  # per node: (kind, target, p)
        self.dists: dict[int, dict[Move, Chance]] = {}  # per node: its moves, once known
        self.moves: dict[bytes, dict[Move, Chance]] = {}  # per state key
        self.blobs: dict[bytes, bytes] = {}  # per state key: a battle in that state
        self.canon: dict[Move, Move] = {}  # each move once, for every turn start's moves

    def node(self) -> int:
        self.edges.append([])
        return len(self.edges) - 1

    def state(self, b: Battle) -> bytes:
        """The key of ``b`` at a round's end (its pickle kept, if the key is new).

        ``b`` is spent: the key is of it begun (:func:`sim.odds.states.round_key`).
        """
        blob = state_of(self.codec, b)
        k = round_key(self.codec, blob, self.ahead, done=b)
        self.blobs.setdefault(k, blob)
        return k

    def round(
        self, frontier: Mapping[bytes, Chance], pool: Pool | None = None
    ) -> tuple[dict[bytes, Chance], dict[End, Chance]]:
        """One round from each state of ``frontier`` (key -> chance): the states and ends.

        The states met for the first time are explored here, or by ``pool``'s workers if
        they are many and look like more than a few seconds' work
        (:data:`sim.odds.parallel.AFTER`).
        """
        new = [k for k in frontier if k not in self.moves]
        per_state = self.spent / max(1, len(self.moves))  # fights a state took, so far
        if pool is not None and len(new) >= pool.least and len(new) * per_state >= pool.after:
            pool.explore(self, new)
        else:
            self.explore(new)
        self.bounded()
        states: dict[bytes, Chance] = {}
        ends: dict[End, Chance] = {}
        for k, m in frontier.items():
            for (kind, t), q in self.moves[k].items():
                into: dict[Any, Chance] = states if kind == 2 else ends
                into[t] = into.get(t, _ZERO) + m * q
        return states, ends

    def bounded(self) -> None:
        """Refused (:class:`TooLarge`) past :data:`MAX_STATES` states."""
        if len(self.blobs) > MAX_STATES:
            raise TooLarge(
                f"more than {MAX_STATES:,} states: too large for the exact method (docs/odds.md)"
            )

    def count(self) -> None:
        """One more fight, refused once ``limit`` are fought (a worker's: by every worker)."""
        if self.shared is None:
            total = self.spent
        else:
            with self.shared.get_lock():
                total = self.shared.value
                self.shared.value = min(total + 1, self.limit)
        if total >= self.limit:
            raise too_many_fights(self.limit)
        self.spent += 1

    def explore(self, keys: Sequence[bytes]) -> None:
        """The moves of a round from each state of ``keys`` (kept in :attr:`blobs`).

        By groups of :data:`GROUP` states; past :data:`MAX_TURNS` turn starts kept, they
        are forgotten before the next group (the same moves, with more fights).
        """
        for i in range(0, len(keys), GROUP):
            if len(self.nodes) > MAX_TURNS:
                self.forget()
            self._explore(keys[i : i + GROUP])

    def forget(self) -> None:
        """Every turn start kept (each group's are collapsed into its states' moves)."""
        self.nodes, self.edges, self.dists, self.canon = {}, [], {}, {}

    def _explore(self, keys: Sequence[bytes]) -> None:
        roots = {}
        work: list[tuple[bytes, tuple[Any, ...], int, Chance]] = []
        for k in keys:
            n = roots[k] = self.node()
            work.append((self.blobs[k], (), n, mpq(1)))
        while work:
            self.count()
            self._fight(*work.pop(), work)
        for k, n in roots.items():
            self.moves[k] = self._collapse(n)

    def _fight(
        self,
        blob: bytes,
        script: tuple[Any, ...],
        at: int,
        p: Chance,
        work: list[tuple[bytes, tuple[Any, ...], int, Chance]],
    ) -> None:
        b: Battle = self.codec.loads(blob)
        here: list[Any] = [at, p]

        def fork(options: Options) -> Any:  # the first outcome fought now, the others later
            at, p = here
            for v, q in options[1:]:
                work.append((blob, rng.script + (v,), at, p * q))
            here[1] = p * options[0][1]
            return options[0][0]

        rng = Enumerator(script, fork)
        b.rng = rng

        def merge(f: Any = None) -> None:
            if rng.pos != len(rng.script):  # a point this fight has passed on its path
                return
            frames = turn_frames(sys._getframe(2))
            if frames is None:
                return
            del b.take_turn
            key = self.codec.key((b, f, frames), b, None if self.ahead is None else 0)
            b.take_turn = take_turn  # type: ignore[method-assign]
            seen = self.nodes.get(key)
            if seen is not None:
                self.edges[here[0]].append((0, seen, here[1]))
                raise _Merged
            n = self.nodes[key] = self.node()
            self.edges[here[0]].append((0, n, here[1]))
            here[0], here[1] = n, mpq(1)

        def take_turn(f: Any) -> None:
            merge(f)
            TurnFrame.take_turn(b, f)

        b.take_turn = take_turn  # type: ignore[method-assign]
        MERGE.append(merge)
        try:
            b.step()
        except _Merged:
            return
        except Unsupported as e:
            raise NotExact(f"{e}: beyond the exact method (docs/odds.md)") from None
        finally:
            MERGE.pop()
        del b.take_turn
        if b.ended:
            winner, reason, _, counts = _outcome(b)
            self.edges[here[0]].append((1, (winner, reason, counts), here[1]))
        else:
            self.edges[here[0]].append((2, self.state(b), here[1]))

    def _collapse(self, root: int) -> dict[Move, Chance]:
        """The moves from ``root``: its chance of each end and state, through every turn."""
        dists = self.dists
        entered: set[int] = set()
        stack = [(root, False)]
        while stack:
            n, leaving = stack.pop()
            if n in dists:
                continue
            if not leaving:
                entered.add(n)
                stack.append((n, True))
                for kind, t, _ in self.edges[n]:
                    if kind == 0 and t not in dists:
                        if t in entered:
                            raise NotExact("a turn comes back to itself: beyond the exact method")
                        stack.append((t, False))
                continue
            entered.discard(n)
            d: dict[Move, Chance] = {}
            canon = self.canon
            for kind, t, q in self.edges[n]:
                if kind == 0:
                    for move, p in dists[t].items():
                        d[move] = d.get(move, _ZERO) + q * p
                else:
                    move = canon.setdefault((kind, t), (kind, t))  # one of each, shared
                    d[move] = d.get(move, _ZERO) + q
            dists[n] = d
            self.edges[n] = []  # its moves say all a fight that meets it again needs
        return dists.pop(root)


HOOKS.update(
    c for c in _Explorer._fight.__code__.co_consts if getattr(c, "co_name", "") == "take_turn"
)


# ------------------------------------------------------------------------- the API
def battle_odds(
    scenario: Scenario | str | Path,
    overrides: Sequence[str] = (),
    *,
    limit: int = DEFAULT_LIMIT,
    progress: Callable[[int, int, Fraction], None] | None = None,
    guess: Mapping[str, float] | None = None,
    workers: int = 1,
) -> BattleOdds:
    """The exact odds of ``scenario`` (a path with ``--set`` style ``overrides``, or one built).

    Raises :class:`TooLarge` when the :func:`estimate` (``guess``, made here if not given)
    or the work passes ``limit`` fights of a round, :class:`NotExact` for a battle it cannot
    follow. ``progress(outcomes, states, chance still fighting)`` after each round. With
    ``workers`` above 1, a round's new states are explored on as many processes
    (:mod:`sim.odds.parallel`): the same answer.
    """
    s = scenario_of(scenario, overrides)
    t0 = time.perf_counter()
    guess = estimate(s) if guess is None else guess
    if guess["executions"] > limit:
        raise TooLarge(
            f"{s.name}: about {guess['executions']:,.0f} fights of a round (estimated), more "
            f"than the limit of {limit:,}: too large for the exact method (docs/odds.md)"
        )
    b = start(s)
    last, b.max_rounds = b.max_rounds, sys.maxsize  # the last round's end is ended below
    codec = Codec(b, last=last)
    b.rng = None
    explorer = _Explorer(codec, limit, 1 if rounds_free(s) else None)
    frontier = {explorer.state(codec.loads(state_of(codec, b))): mpq(1)}
    outcomes: dict[Outcome, Chance] = {}
    most = 0
    pool = Pool(_Explorer, s, codec, explorer.ahead, workers) if workers > 1 else None
    with maneuvers_merged(), pool or contextlib.nullcontext():
        for r in range(1, last + 1):
            if not frontier:
                break
            most = max(most, len(frontier))
            frontier, ends = explorer.round(frontier, pool)
            for (winner, reason, counts), p in ends.items():
                _add(outcomes, (winner, reason, r, counts), p)
            if progress is not None:
                progress(len(outcomes), len(frontier), _fraction(sum(frontier.values(), _ZERO)))
    for k, p in frontier.items():  # still fighting after the last round: a draw
        _add(outcomes, (None, "max_rounds", last, _outcome(codec.loads(explorer.blobs[k]))[3]), p)
    total = sum(outcomes.values(), _ZERO)
    if total != 1:
        raise SimError(f"exact odds of {s.name} sum to {total}, not 1: a bug")
    return BattleOdds(
        scenario=s.name,
        rules=b.rules,
        sides=tuple(b.sides),
        fighters={n: len(side.fighters) for n, side in b.sides.items()},
        outcomes={o: _fraction(p) for o, p in sorted(outcomes.items(), key=lambda kv: str(kv[0]))},
        executions=explorer.spent,
        states=len(explorer.blobs),
        most_states=most,
        seconds=time.perf_counter() - t0,
    )


def _add(outcomes: dict[Outcome, Chance], o: Outcome, p: Chance) -> None:
    outcomes[o] = outcomes.get(o, _ZERO) + p


def _fraction(p: Chance) -> Fraction:
    """The exact chance ``p`` as the standard library's Fraction (the answer's type)."""
    return Fraction(int(p.numerator), int(p.denominator))
