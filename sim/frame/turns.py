"""Turn order: popcorn initiative at small scale, factions taking turns at large scale.

RULES.md 1.6: everyone rolls 1 HD and the highest side goes first, then whoever has acted
names the next; at large scale the leaders roll once and the factions alternate. A fighter
may spend 1 HD to act out of turn. :class:`TurnFrame` runs a round of turns; the battle's
rule system takes each turn (:mod:`sim.systems`). :class:`RuleSystem` is what the frame asks
of a rule system.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import ModuleType
from typing import Any, Protocol, runtime_checkable

from sim.aftermath import Aftermath
from sim.frame.agents import Fighter
from sim.frame.morale import MoraleFrame
from sim.frame.sides import FactionQueue, FighterHeap, _is_waiting
from sim.options import BattleOptions
from sim.rules import wargame
from sim.rules.common import Status
from sim.scenario import FighterSpec
from sim.scenario.tactics import harmlessness, readiness


@runtime_checkable
class RuleSystem(Protocol):
    """What the battle frame asks a rule system.

    The frame defines it and every system in :mod:`sim.systems` is one: the frame asks, the
    system acts on the frame it is handed (a :class:`TurnFrame`), and neither imports the
    other's module for it.
    """

    @property
    def name(self) -> str:
        """The scenario's ``rules:`` name."""

    @property
    def rules(self) -> ModuleType:
        """Its pure rules (:mod:`sim.rules`)."""

    def build_options(self, values: Mapping[str, Any], where: str) -> Any:
        """The system's options (its ``Options`` record) from a scenario's values."""

    def frame(self, options: Any, values: Mapping[str, Any]) -> wargame.Options:
        """The War Game frame options of a battle under this system."""

    def check_sides(self, count: int) -> None:
        """Refuse a battle of ``count`` sides the system cannot fight."""

    def new_state(self, spec: FighterSpec) -> Any:
        """A fighter's own state under the system, with ``spec.wounds`` taken before."""

    def start_round(self, b: TurnFrame) -> None:
        """What the system resets at the start of every round."""

    def state_key(self, f: Fighter, left: int | None) -> Any:
        """What the rules read of ``f``'s own state (:meth:`new_state`), or None: all of it.

        ``left``: the rounds the battle has left, counting the one that plays next (None: no
        last round). Two fighters equal but for states of equal keys fight the same to the
        battle's end: the exact method (:mod:`sim.odds`) merges them.
        """

    def carried(self, f: Fighter) -> dict[str, Any]:
        """What ``f`` carries out of the battle into its aftermath, as Patient fields."""

    @property
    def aftermath(self) -> type[Aftermath]:
        """The days after its battles (:mod:`sim.aftermath`): its ``Aftermath`` subclass."""

    def carry_in(self, f: Fighter, carried: Mapping[str, Any]) -> None:
        """Give campaign member ``f`` what it ``carried`` from its last aftermath (before round 1).

        ``carried`` holds Patient fields (``twowp_state``, ``dw_wounds``, ``d6_condition`` or
        ``hd``), as :meth:`carry_out` made them; empty before the member's first battle.
        """

    def carry_out(
        self, f: Fighter | None, survivor: Mapping[str, Any], carried: Mapping[str, Any]
    ) -> dict[str, Any]:
        """What a campaign member carries into its next battle, as Patient fields.

        ``survivor`` is its aftermath's :meth:`~sim.aftermath.Aftermath.survivor`, ``f`` its
        fighter in the battle just fought (None if it sat it out), ``carried`` what it
        carried before.
        """

    def start_status(self, f: Fighter) -> Status:
        """What ``f``'s wounds before the battle leave it (active, or out of the fight)."""

    def morale_hd(self, f: Fighter, opts: BattleOptions) -> int:
        """``f``'s current HD as a morale roll sees it (War Game 1.8), under ``opts``."""

    def fight_round(self, b: TurnFrame) -> None:
        """Fight one round's blows (after the frame started the round)."""

    def take_turn(self, b: TurnFrame, f: Fighter) -> None:
        """``f``'s turn (the frame checks it is in the fight and the battle goes on)."""

    def end_of_round(self, b: TurnFrame) -> None:
        """What comes with time at the end of a round (deaths of untreated wounds, flight)."""

    def is_ranged(self, f: Fighter) -> bool:
        """Whether ``f`` fights at range (the cover tactic looks at its enemies)."""

    def range_ft(self, b: TurnFrame, f: Fighter) -> float:
        """How far ``f``'s weapon reaches on a map, in feet (0: melee)."""

    def shoots_past_cover(self, b: TurnFrame, f: Fighter) -> bool:
        """Whether ``f`` holds its fire at enemies whose cover would stop it (on a map)."""

    def covered(self, b: TurnFrame, f: Fighter, e: Fighter) -> bool:
        """Whether ``e``'s cover would stop ``f``'s attack."""

    @property
    def jumps_in(self) -> bool:
        """Whether a fighter may spend HD to act out of turn (War Game 1.6)."""

    @property
    def factions(self) -> bool:
        """Whether its battles fight as factions at large scale (War Game 1.12).

        A system that fights every scale alike (2W2P's fronts) has no factions: the frame
        names them no leaders.
        """


class TurnFrame(MoraleFrame):
    """Who acts when; the frame every rule system acts on."""

    system: RuleSystem

    def take_turn(self, f: Fighter) -> None:
        """``f``'s turn under the battle's rule system.

        Whether the battle ended is not asked again after it: within a turn the end depends
        only on the fighters' statuses, and every change of status checks it once booked
        (:meth:`set_status`, or the end of :meth:`together`).
        """
        if not f.in_fight or self.ended:
            return
        self.system.take_turn(self, f)

    def take_turns(self) -> None:
        """A round of turns: popcorn initiative at small scale (RULES.md 1.6).

        At large scale the factions take turns one member at a time
        (:meth:`_faction_turns`; with ``battle.large_turns: popcorn`` the small scale's
        popcorn instead); the battle fights the seed's pools instead
        (:meth:`sim.battle.Battle.take_turns`, :mod:`sim.frame.pools`).
        """
        fighters = [f for f in self.all_fighters() if f.in_fight]
        if not fighters:
            return
        if self.large and self.opts.large_turns == "alternate":
            self._faction_turns()
            return
        first = self.next_first
        if first is None or not first.in_fight:
            first = self._opener(self._side_order(leaders_only=False)[0])
        actor: Fighter | None = first
        last: Fighter | None = None
        self.queue = self._waiting(fighters)
        while actor is not None and not self.ended:
            self._jump_in(actor)
            if self.ended:
                break
            if actor.in_fight:
                self.take_turn(actor)
            self.mark_acted(actor)
            last = actor
            actor = self._name_next(actor)
        self.queue = None
        if last is not None and not self.ended:
            self._name_first(last)

    def _faction_turns(self) -> None:
        """Large scale, ``turns``: the factions alternate, one member's turn at a time.

        The order is the one the leaders rolled (:meth:`large_order`); on its turn a faction
        sends one member (the leader confirming the maneuver [S]), as the small-scale naming
        would name it (:class:`~sim.frame.sides.FactionQueue`): with ``name_next:
        enemy_first`` its most harmless while an enemy faction still has members to send
        (keeping its strongest for the end of the round), then its readiest. A faction whose
        members have all acted passes, so a bigger faction's last members act at the end of
        the round, and the alternation carries on into the next round (RULES.md 1.12 [I]:
        the small-scale War Game's interleaved turns, with the sides taking turns). The
        queues are the battle's ``faction_queue`` for the round, so that a member harmed
        (:meth:`harmed`) or brought back (:meth:`set_status`) is filed again. The first turn
        after the leaders' roll is the first faction's readiest member's, as the small
        scale's first turn is the first side's (:meth:`_opener`).
        """
        fresh = self.side_order is None
        order = self.large_order()
        queues = {n: FactionQueue(self.sides[n].tactic, self.sides[n].fighters) for n in order}
        at, idle, last = self.next_side, 0, None
        opener = self._opener(order[at % len(order)]) if fresh else None
        self.faction_queue = queues
        while not self.ended and idle < len(order):
            name = order[at % len(order)]
            at += 1
            f, opener = opener or queues[name].top(self.last_side != name), None
            if f is None:
                idle += 1
                continue
            idle = 0
            self.take_turn(f)
            self.mark_acted(f)
            self.next_side, last, self.last_side = at % len(order), f, name
        self.faction_queue = None
        if last is not None and not self.ended:
            self._name_first(last)

    def _opener(self, side: str) -> Fighter | None:
        """The first to act of side ``side`` when it has won the initiative.

        Its tactic names it with no enemy to name: its readiest member (most HD to spend),
        at either scale [H], so that a faction opens a large-scale War Game with the member a
        side opens a small-scale one with.
        """
        allies = [f for f in self.sides[side].fighters if f.in_fight]
        return self.sides[side].tactic.name_next_actor(allies, [])

    def _name_first(self, last: Fighter) -> None:
        """The last to act in a round names the first of the next (RULES.md 1.6 [S]).

        At large scale the factions' alternation decides instead; the name is kept for the
        round after a switch to small scale, so that the switch changes no turn order.
        """
        tactic = self.tactic_of(last)
        allies = [f for f in self.sides[last.side].fighters if f.in_fight]
        self.next_first = tactic.name_next_actor(allies, self.enemies_of(last))

    def _jump_in(self, named: Fighter) -> None:
        """War Game 1.6: an enemy of the named actor may spend 1 HD to act first.

        Used only when the frame option ``act_out_of_turn`` is on, by a fighter with at
        least 3 HD to spend (1 to jump in, 2 for a maneuver) [H].
        """
        if not self.frame.act_out_of_turn or not self.system.jumps_in:
            return
        for f in self.all_fighters():
            if (
                f.active
                and not f.acted
                and f.side != named.side
                and f.wg.spendable >= 3
                and wargame.can_act_out_of_turn(f.wg, self.frame)
            ):
                f.wg = wargame.act_out_of_turn(f.wg, self.frame)
                self.note(f.name, "acts out of turn", result="1 HD spent")
                self.take_turn(f)
                self.mark_acted(f)
                return

    def _waiting(
        self, fighters: list[Fighter]
    ) -> dict[str, tuple[FighterHeap, FighterHeap]] | None:
        """Per side, those yet to act this round: by readiness and by harmlessness.

        None when someone goes last this round: then :meth:`_name_next` scans everyone.
        """
        if any(f.wg.goes_last for f in fighters):
            return None
        return {
            name: (
                FighterHeap(readiness, _is_waiting, s.fighters),
                FighterHeap(harmlessness, _is_waiting, s.fighters),
            )
            for name, s in self.sides.items()
        }

    def _name_next(self, actor: Fighter) -> Fighter | None:
        """Popcorn: whom ``actor``'s tactic names among those yet to act (RULES.md 1.6)."""
        if self.queue is not None:  # nobody goes last: the best ally and the most harmless enemy
            ally = self.queue[actor.side][0].top()
            foes = [h.top() for side, (_, h) in self.queue.items() if side != actor.side]
            if len(foes) == 1:  # one enemy side: its most harmless
                foe = foes[0]
            else:
                foe = min((x for x in foes if x is not None), key=harmlessness, default=None)
            return self.tactic_of(actor).name_of(ally, foe)
        waiting = [f for f in self.all_fighters() if f.in_fight and not f.acted]
        ready = [f for f in waiting if not f.wg.goes_last] or waiting
        if not ready:
            return None
        allies = [f for f in ready if f.side == actor.side]
        enemies = [f for f in ready if f.side != actor.side]
        return self.tactic_of(actor).name_next_actor(allies, enemies)

    def large_order(self) -> list[str]:
        """Large scale: the order in which the sides take their turns, every round.

        The leaders roll 1 HD once, when the large-scale War Game begins; the highest side
        goes first and the sides then alternate, round after round (RULES.md 1.6). A new roll
        comes only when the scale changes again.
        """
        if self.side_order is None:
            leaders = self.opts.large_initiative == "leaders"
            self.side_order = self._side_order(leaders_only=leaders)
        late = [n for n, s in self.sides.items() if n not in self.side_order and s.in_fight()]
        return self.side_order + late

    def _side_order(self, *, leaders_only: bool) -> list[str]:
        """Initiative: everyone (or each leader) rolls 1 HD; the highest side goes first.

        With ``battle.initiative: sides`` one die per side is rolled, whatever its head count.
        """
        names = [s.name for s in self.sides.values() if s.in_fight()]
        if len(names) < 2:
            return names
        per_side = leaders_only or self.opts.initiative == "sides"
        counts = tuple([1 if per_side else len(self.sides[n].in_fight()) for n in names])
        ini = wargame.roll_initiative(counts, self.rng, self.frame)
        if self.log is not None:
            self.note(
                "battle",
                "initiative",
                dice="; ".join(
                    f"{n} {', '.join(map(str, r))}" for n, r in zip(names, ini.rolls, strict=True)
                )
                + (
                    f" (after {ini.rerolls} tied roll{'s' * (ini.rerolls > 1)})"
                    if ini.rerolls
                    else ""
                ),
                result=f"{names[ini.first]} first",
            )
        first = names[ini.first]
        return [first] + [n for n in names if n != first]

    def enemy_waiting(self, f: Fighter) -> bool:
        """True while an active enemy of ``f`` has yet to act this round.

        Such an enemy may attack ``f`` before the HD it spends now come back.
        """
        side = f.side
        for s in self.sides.values():
            if s.waiting and s.name != side:
                return True
        return False

    def mark_acted(self, f: Fighter) -> None:
        """``f`` has taken its turn this round."""
        if not f.acted:
            f.acted = True
            self.sides[f.side].waiting -= f.active

    # ---------------------------------------------------------------------- scale
    def _should_be_large(self) -> bool:
        standing = self.standing()
        if self.small_until is not None and standing <= self.small_until:
            return False  # scattered into a small-scale War Game: only newcomers lift it
        return wargame.is_large_scale(standing, self.frame)

    def _check_scale(self) -> None:
        large = self._should_be_large()
        if large != self.large:
            self.switch_scale(large)
        if self.large:
            self._name_leaders()

    def _name_leaders(self) -> None:
        """At large scale every faction has a leader (RULES.md 1.12 [S]: "name a leader").

        A side whose scenario names none gets one the first time it fights at large scale:
        its member in the fight with the most HD (as a morale roll counts them: HD less
        wounds under the systems without War Game HD), ties to the first listed
        (``battle.faction_leader``; ``none`` names nobody). It stays the side's leader at
        either scale, and an event says who. A system without factions (2W2P, whose fronts
        fight alike at every scale) names none.
        """
        if self.opts.faction_leader == "none" or not self.system.factions:
            return
        for s in self.sides.values():
            if s.leaders:
                continue
            members = [f for f in s.fighters if f.in_fight]
            if not members:
                continue
            lead = max(members, key=self.morale_hd)  # the first of the most HD
            lead.leader = True
            s.leaders.append(lead)
            self.note(
                s.name,
                "names a leader",
                lead.name,
                result=f"the member with the most HD ({self.morale_hd(lead)})",
            )

    def switch_scale(self, large: bool, *, hold: bool = False) -> None:
        """Change scale (RULES.md 1.12); individuals keep their own state.

        ``hold``: a scattered faction's members fight on as individuals, so the battle stays
        small scale until reinforcements lift the count above today's.
        """
        self.small_until = self.standing() if hold else None
        self.large = large
        self.scale_switches += 1
        self.side_order = None
        self.next_side = 0
        self.last_side = None
        for s in self.sides.values():
            s.pool = None
        word = "large" if large else "small"
        self.note("battle", "scale", result=f"{word} scale ({self.standing()} standing)")
