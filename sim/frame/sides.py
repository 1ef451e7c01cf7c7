"""A side during a battle: its fighters, tactic, goals, counts and weakest-first indexes.

Kept up to date as fighters join and change status, so that a turn never scans every
fighter (:class:`FighterHeap`, :class:`SideState`).
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from sim.frame.agents import Fighter, is_active, is_in_fight
from sim.rules import wargame
from sim.rules.common import OUT_OF_FIGHT, Status
from sim.scenario import Goal
from sim.scenario.tactics import Tactic, harmlessness, readiness, weakness


class FighterHeap:
    """Fighters by ``key``, smallest first: a turn's picks in O(log N), not a scan of all.

    :meth:`top` gives the ``member`` with the smallest key now. An entry goes stale when its
    fighter stops being a member or its key changes; a stale entry is dropped, or filed again
    under the current key, when it reaches the top. So a key may grow unannounced, but when
    one shrinks the fighter must be pushed again: the battle does that in
    :meth:`Battle.harmed`, where every lost HD and every wound is booked.

    A heap made with ``lazy`` (a side's list of fighters, which grows as fighters join) files
    nothing until its first :meth:`top`: then it files that list's members under their keys
    of that moment, and pushes before it are not needed. A battle reads only some of a side's
    indexes (the rank and file only at large scale), so the others cost nothing. The picks
    are the same: the key of a fighter is unique (it ends with the fighter's id), so the top
    is the member with the smallest key now, whenever its entries were filed.
    """

    __slots__ = ("key", "member", "items", "order", "lazy")

    def __init__(
        self,
        key: Callable[[Fighter], tuple[int, ...]],
        member: Callable[[Fighter], bool],
        fighters: Iterable[Fighter] = (),
        *,
        lazy: list[Fighter] | None = None,
    ) -> None:
        self.key = key
        self.member = member
        self.order = itertools.count()  # ties between entries of one fighter: filing order
        self.lazy = lazy
        self.items = [(key(f), next(self.order), f) for f in fighters if member(f)]
        if len(self.items) > 1:
            heapq.heapify(self.items)

    def push(self, f: Fighter) -> None:
        """File ``f`` under its current key (if it is a member)."""
        if self.lazy is None and self.member(f):
            heapq.heappush(self.items, (self.key(f), next(self.order), f))

    def top(self) -> Fighter | None:
        """The member with the smallest key, or None."""
        if self.lazy is not None:
            fighters, self.lazy = self.lazy, None
            for f in fighters:
                self.push(f)
        items = self.items
        while items:
            filed, _, f = items[0]
            if not self.member(f):
                heapq.heappop(items)
                continue
            now = self.key(f)
            if filed == now:
                return f
            heapq.heapreplace(items, (now, next(self.order), f))
        return None


def _is_waiting(f: Fighter) -> bool:
    return f.in_fight and not f.acted


def _back_ones_last(
    key: Callable[[Fighter], tuple[int, ...]],
) -> Callable[[Fighter], tuple[int, ...]]:
    """``key`` with the members who go last (brought back into the fight) after the rest."""
    return lambda f: (f.wg.goes_last, *key(f))


class FactionQueue:
    """A faction's members yet to act this round, in the order it sends them (large scale).

    As the small scale's popcorn would name them (RULES.md 1.6): after an enemy's turn, in
    the order of the side's tactic (``name_next``: ``enemy_first``, its most harmless, as the
    enemy naming it would; ``ally_first``, its readiest); after a turn of its own (the enemy
    having passed), its readiest, as its own last actor would name them. Members who go last
    (brought back into the fight) come after the rest. A member harmed or brought back is
    filed again (:meth:`push`), so that the pick is always the member's place now.
    """

    __slots__ = ("first", "then")

    def __init__(self, tactic: Tactic, fighters: Iterable[Fighter]) -> None:
        members = list(fighters)
        self.then = FighterHeap(_back_ones_last(readiness), _is_waiting, members)
        self.first = (
            FighterHeap(_back_ones_last(harmlessness), _is_waiting, members)
            if tactic.name_next == "enemy_first"
            else self.then
        )

    def push(self, f: Fighter) -> None:
        """File ``f`` again under its key now."""
        self.then.push(f)
        if self.first is not self.then:
            self.first.push(f)

    def top(self, after_enemy: bool) -> Fighter | None:
        """The member the faction sends now (``after_enemy``: the last turn was an enemy's)."""
        return (self.first if after_enemy else self.then).top()


def _rank_active(f: Fighter) -> bool:
    return f.active and not f.leader


def _rank_standing(f: Fighter) -> bool:
    return f.in_fight and not f.leader


@dataclass
class SideState:
    """A side during the battle: its fighters, tactic, goals and morale bookkeeping.

    Counts and indexes kept up to date as fighters join and change status, so that a turn
    never scans every fighter: ``standing`` (in the fight), ``active``, ``leaders`` (in
    creation order), ``by_name``, and the members weakest first
    (:func:`sim.scenario.tactics.weakness`)
    among the active ones (``weakest_active``) and among those in the fight
    (``weakest_standing``), and the same without the leader (``ranks_active``,
    ``ranks_standing``: at large scale the enemy picks from the rank and file).
    """

    name: str
    tactic: Tactic
    goals: tuple[Goal, ...]
    leader: str | None
    fighters: list[Fighter] = field(default_factory=list)
    triggers_fired: set[str] = field(default_factory=set)
    goals_failed: set[int] = field(default_factory=set)
    goals_achieved: set[int] = field(default_factory=set)
    held_rounds: dict[int, int] = field(default_factory=dict)
    toughness: dict[int, int] = field(default_factory=dict)
    defeated: bool = False
    pool: wargame.Combatant | None = None  # faction pool at large scale
    wounds_dealt: int = 0
    hd_lost: int = 0
    round_dealt: int = 0
    round_taken: int = 0
    standing: int = 0
    active: int = 0
    waiting: int = 0  # active fighters yet to act this round
    leaders: list[Fighter] = field(default_factory=list)
    by_name: dict[str, Fighter] = field(default_factory=dict)
    weakest_active: FighterHeap = field(init=False)
    weakest_standing: FighterHeap = field(init=False)
    ranks_active: FighterHeap = field(init=False)
    ranks_standing: FighterHeap = field(init=False)
    _indexes: tuple[FighterHeap, ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        # filed at their first use, from the fighters then (FighterHeap's ``lazy``)
        self.weakest_active = FighterHeap(weakness, is_active, lazy=self.fighters)
        self.weakest_standing = FighterHeap(weakness, is_in_fight, lazy=self.fighters)
        self.ranks_active = FighterHeap(weakness, _rank_active, lazy=self.fighters)
        self.ranks_standing = FighterHeap(weakness, _rank_standing, lazy=self.fighters)
        self._indexes = (
            self.weakest_active,
            self.weakest_standing,
            self.ranks_active,
            self.ranks_standing,
        )

    def in_fight(self) -> list[Fighter]:
        """Fighters still active or fleeing."""
        return [f for f in self.fighters if f.in_fight]

    def leader_fighter(self) -> Fighter | None:
        """The designated leader, if the side has one."""
        return self.leaders[0] if self.leaders else None

    def join(self, f: Fighter) -> None:
        """Add a fighter to the side and its counts and indexes."""
        self.fighters.append(f)
        self.standing += f.in_fight
        self.active += f.active
        if f.leader:
            self.leaders.append(f)
        self.by_name.setdefault(f.name, f)
        self.refile(f)

    def refile(self, f: Fighter) -> None:
        """File member ``f`` again in the weakest-first indexes (it is weaker now)."""
        for heap in self._indexes:
            if heap.lazy is None:  # (one still lazy files f when it is first read)
                heap.push(f)

    def recount(self, before: Status, after: Status) -> None:
        """Move one member's status from ``before`` to ``after`` in the counts."""
        self.standing += (after not in OUT_OF_FIGHT) - (before not in OUT_OF_FIGHT)
        self.active += (after == Status.ACTIVE) - (before == Status.ACTIVE)
