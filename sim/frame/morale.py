"""Status changes, morale, goals and the end of a battle (RULES.md 1.8, 1.11, 0).

:class:`MoraleFrame` books every change of a fighter's status, rolls morale the moment a
trigger is met, keeps the sides' goals, and ends the battle: one side left, a rout on every
side, a goal won or lost.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sim.frame.agents import Fighter
from sim.frame.core import BattleCore
from sim.frame.sides import SideState
from sim.rules import wargame
from sim.rules.common import OUT_OF_FIGHT, Status


class MoraleFrame(BattleCore):
    """The frame's status changes, morale checks, goals and end."""

    # ---------------------------------------------------------------------- status
    def set_status(self, f: Fighter, status: Status) -> None:
        """Change ``f``'s status (keeping its War Game record in step).

        A fighter going out of the fight checks the morale triggers at once (RULES.md 1.8,
        :meth:`check_triggers`); a fighter starting to flee checks whether the battle ended
        (a rout).
        """
        if f.status == status:
            return
        before = f.status
        side = self.sides[f.side]
        side.recount(before, status)
        if not f.acted:
            side.waiting += (status == Status.ACTIVE) - (before == Status.ACTIVE)
        f.status = status
        if status == Status.ACTIVE:
            self.sides[f.side].refile(f)
        if before in OUT_OF_FIGHT and status not in OUT_OF_FIGHT:
            # back in the fight mid-round (healed): the round's heaps never filed it. Small
            # scale: it goes last, which the heaps do not know; the rest of the round names
            # by scan. Large scale: its faction's heap files it (it sorts last there).
            self.queue = None
            if self.faction_queue is not None:
                self.faction_queue[f.side].push(f)
        f.wg.status = status  # (the battle's own record: changed in place)
        if self.log is not None:  # (the line costs more than the change when not logged)
            self.note(f.name, "status", result=status.value)
        if self.field is not None:
            self.field.fallen(f)
        if f.leader and status in (Status.INCAPACITATED, Status.DEAD) and self.large:
            self._leader_down(side)
        if status in OUT_OF_FIGHT and before not in OUT_OF_FIGHT:
            self.check_triggers()
        elif not self.deferred:
            self.check_end()

    def _leader_down(self, side: SideState) -> None:
        """A faction whose leader falls at large scale loses all but 1 HD [S].

        With turns this is read as its members' HD to spend this round: each keeps at most
        1 [I]. (With pools it is the pool's HD: :mod:`sim.frame.pools`.) With
        ``battle.leader_down: none`` nothing happens beyond the morale check.
        """
        if self.large_mode != "turns" or self.opts.leader_down == "none":
            return
        for m in side.fighters:
            if m.in_fight and m.wg.spendable > 1:
                m.wg = m.wg.evolve(spendable=1)
        self.note(side.name, "leader down", result="every member keeps at most 1 HD this round")

    # ---------------------------------------------------------------------- morale
    def check_triggers(self) -> None:
        """Check every side's immediate morale triggers (RULES.md 1.8: half out, leader down).

        :meth:`set_status` calls this the moment a fighter goes out of the fight, so the roll
        comes before the acting creature's next maneuver or roll; inside :meth:`together` the
        check waits until everything that happens at once has been booked.
        """
        if self.deferred:
            return
        for s in self.sides.values():
            if s.defeated:
                continue
            total = len(s.fighters)
            out = total - s.standing
            if total and out >= self.opts.morale_at * total:  # half [S]: battle.morale_at
                self.morale_check(s, "half_out")
            lead = s.leader_fighter()
            if lead is not None and lead.status in (Status.INCAPACITATED, Status.DEAD):
                self.morale_check(s, "leader_out")
        self.check_end()

    @contextmanager
    def together(self) -> Iterator[None]:
        """Book changes that happen at once (a 2W2P front's hits, a faction's casualties).

        Morale triggers and the end of the battle are checked once, when all are booked.
        """
        self.deferred += 1
        try:
            yield
        finally:
            self.deferred -= 1
        if not self.deferred:
            self.check_triggers()

    def morale_check(self, s: SideState, trigger: str, *, once: bool = True) -> None:
        """Roll 1 HD for side ``s``: every active fighter at or below the roll flees.

        The caller checks the end of the battle afterwards (:meth:`check_end`), once every
        side that checks at this moment has rolled.
        """
        if self.opts.morale not in ("all", trigger):
            return
        if once and self.frame.morale_triggers_once:
            if trigger in s.triggers_fired:
                return
            s.triggers_fired.add(trigger)
        members = [f for f in s.fighters if f.active]
        if not members:
            return
        if self.frame.morale_compare == "fixed":
            values = [f.spec.resolve for f in members]
        else:
            values = [self.morale_hd(f) for f in members]
        morale = wargame.roll_morale(values, self.rng)
        fleeing = [members[i] for i in morale.fleeing]
        if self.log is not None:
            self.note(
                s.name,
                "morale",
                dice=f"d8={morale.roll}",
                result=f"{trigger}: "
                + (", ".join(f.name for f in fleeing) + " flee" if fleeing else "all hold"),
            )
        if self.opts.withdraw == "broken" and fleeing and self._broken(len(fleeing), len(members)):
            self.withdraw(s)
            return
        for f in fleeing:
            f.wg = wargame.start_fleeing(f.wg)
            self.set_status(f, Status.FLEEING)

    def _broken(self, fleeing: int, members: int) -> bool:
        """Whether ``fleeing`` of ``members`` put to flight break the side (``withdraw_share``)."""
        return fleeing >= self.opts.withdraw_share * members

    def withdraw(self, s: SideState) -> None:
        """Side ``s`` is broken and withdraws in order (``battle.withdraw: broken``) [H].

        Each of its fighters still in the fight leaves the field (fled), unless the pursuit
        catches it (surrendered) at the chance ``battle.pursuit``, one draw each in the
        side's order. The side is beaten: with nobody left standing it is defeated.
        """
        leaving = [f for f in s.fighters if f.in_fight]
        self.note(s.name, "withdraws", result=f"{len(leaving)} leave the field")
        with self.together():
            for f in leaving:
                caught = self.rng.random() < self.opts.pursuit
                self.set_status(f, Status.SURRENDERED if caught else Status.FLED)

    # ---------------------------------------------------------------------- goals
    def _update_goals(self) -> None:
        sides = list(self.sides.values())
        for s in sides:
            if s.defeated:
                continue
            for i, goal in enumerate(s.goals):
                if i in s.goals_failed or i in s.goals_achieved:
                    continue
                if goal.kind == "hold" and self.round >= goal.rounds and s.in_fight():
                    self.goal_achieved(s, i)
                elif goal.kind == "take_and_hold":
                    mine = sum(1 for f in s.fighters if f.active)
                    theirs = sum(1 for o in sides if o is not s for f in o.fighters if f.active)
                    s.held_rounds[i] = s.held_rounds.get(i, 0) + 1 if mine > theirs else 0
                    if s.held_rounds[i] >= goal.rounds:
                        self.goal_achieved(s, i)
        self.check_goals()

    def check_goals(self) -> None:
        """Fail goals that became impossible (a protected fighter down)."""
        for s in self.sides.values():
            if not s.goals:
                continue
            for i, goal in enumerate(s.goals):
                if i in s.goals_failed or i in s.goals_achieved or goal.kind != "protect":
                    continue
                ward = s.by_name.get(goal.target)
                if ward is not None and ward.status in (Status.INCAPACITATED, Status.DEAD):
                    self.goal_failed(s, i)

    def goal_achieved(self, s: SideState, index: int) -> None:
        """Side ``s`` achieved goal ``index``; a winning goal ends the battle."""
        s.goals_achieved.add(index)
        goal = s.goals[index]
        self.note(s.name, "goal achieved", result=goal.kind)
        if goal.wins and not self.ended:
            for o in self.sides.values():
                if o is not s:
                    o.defeated = True
            self._finish(s.name, "goal_achieved")

    def goal_failed(self, s: SideState, index: int) -> None:
        """Side ``s``'s goal ``index`` became impossible: a morale trigger, and it loses."""
        s.goals_failed.add(index)
        self.note(s.name, "goal failed", result=s.goals[index].kind)
        with self.together():
            self.morale_check(s, "goal_failed")
        s.defeated = True
        self.check_end(reason="goal_failed")

    # ---------------------------------------------------------------------- the end
    def check_end(self, reason: str = "defeat") -> None:
        """End the battle when at most one side is left, or when every side left is routed.

        A side with nobody in the fight is defeated. A rout on every side left (nobody who is
        not fleeing) is a draw at once; with ``battle.rout: field`` a routed side is defeated
        at once, so the side still holding the field wins (RULES.md 1.8). Who acts first in
        the next round never decides it.
        """
        if self.ended or self.deferred:
            return
        self.check_goals()
        if self.ended:
            return
        routs_lose = self.opts.rout == "field"
        standing = []
        active = False  # anyone not fleeing on a side still standing
        for s in self.sides.values():
            if not s.defeated and (not s.standing or (routs_lose and not s.active)):
                s.defeated = True
            if not s.defeated:
                standing.append(s)
                if s.active:
                    active = True
        if len(standing) == 1:
            self._finish(standing[0].name, reason)
        elif not standing:
            emptied = not any(s.standing for s in self.sides.values())
            self._finish(None, "mutual_defeat" if emptied else "mutual_rout")
        elif not active:
            self._finish(None, "mutual_rout")

    def _finish(self, winner: str | None, reason: str) -> None:
        self.ended = True  # Mesa's running turns off on the next step (Battle.step)
        self.winner = winner
        self.end_reason = reason
        if self.log is not None:
            self.note("battle", "end", result=f"{reason}; winner {winner}")


def flee(b: MoraleFrame, f: Fighter) -> None:
    """A fleeing fighter's turn: it runs, and is gone after ``flee_turns`` turns [H].

    On a map it runs its move away from the enemy first.
    """
    if b.field is not None and b.field.on_grid(f):
        b.field.away(f, b.field.allowance(f, b.opts.move_ft), b.enemies_of(f))
    f.wg = wargame.end_turn(f.wg, b.frame)
    if f.wg.status == Status.FLED:
        b.set_status(f, Status.FLED)
