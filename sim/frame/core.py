"""The battle's state and what every part of the frame reads and books on it.

:class:`BattleCore` holds a battle's state (declared here, set by
:class:`sim.battle.battle.Battle`), answers the queries a turn asks (enemies, tactics, cover,
counts), keeps the event log, books harm, and writes the battle's rows (rounds, fighters,
the outcome). The frame's other layers build on it: :class:`sim.frame.morale.MoraleFrame` (status,
morale, goals, the end), :class:`sim.frame.turns.TurnFrame` (turn order), and
:class:`sim.battle.battle.Battle` (the round and the scale).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Protocol

import mesa
import pandas as pd

from sim.frame.agents import Fighter
from sim.frame.field import Battlefield
from sim.frame.sides import FactionQueue, FighterHeap, SideState
from sim.options import BattleOptions
from sim.rules import twowp, wargame
from sim.rules.common import Status
from sim.scenario import Scenario
from sim.scenario.tactics import Tactic

END_REASONS = (
    "defeat",
    "goal_achieved",
    "goal_failed",
    "mutual_defeat",
    "mutual_rout",
    "max_rounds",
)
STATUSES = tuple(s.value for s in Status)
_VALUE = {s: s.value for s in Status}  # a status's plain string (Enum's .value is a property)

#: A fighter's state at the end of a round, as :attr:`BattleCore.states` keeps it: its
#: status, HD, armor pool, wounds taken and wounds dealt so far.
FighterState = tuple[Status, int, int, int, int]


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a battle ended: winner (None for a draw), reason, length, and per-side counts."""

    winner: str | None
    end_reason: str
    rounds: int
    scale_switches: int
    sides: Mapping[str, Mapping[str, Any]]

    def to_dict(self) -> dict[str, Any]:
        """The outcome as plain JSON-ready data."""
        return {
            "winner": self.winner,
            "end_reason": self.end_reason,
            "rounds": self.rounds,
            "scale_switches": self.scale_switches,
            "sides": {k: dict(v) for k, v in self.sides.items()},
        }


class MoraleReader(Protocol):
    """What the frame's core asks of the battle's rule system (a ``RuleSystem`` is one)."""

    def morale_hd(self, f: Fighter, opts: BattleOptions) -> int:
        """``f``'s current HD as a morale roll sees it."""
        ...


class BattleCore(mesa.Model):
    """A battle's state, its queries, its event log, harm booked, and its rows."""

    spec: Scenario
    system: MoraleReader
    rules: str
    options: Any
    frame: wargame.Options
    opts: BattleOptions
    max_rounds: int
    round: int
    large: bool
    scale_switches: int
    quiet_rounds: int
    harm_this_round: bool
    ended: bool
    winner: str | None
    end_reason: str | None
    factors: list[wargame.Factor]
    log: list[dict[str, Any]] | None
    round_rows: list[dict[str, Any]]
    cover_until: dict[int, int]
    heard_round: dict[int, int]
    next_first: Fighter | None
    side_order: list[str] | None
    next_side: int
    last_side: str | None
    small_until: int | None
    queue: dict[str, tuple[FighterHeap, FighterHeap]] | None
    faction_queue: dict[str, FactionQueue] | None
    deferred: int
    sides: dict[str, SideState]
    roster: list[Fighter]
    rolled_gear: dict[str, dict[str, str]]
    states: list[list[FighterState]]
    field: Battlefield | None

    # ---------------------------------------------------------------------- queries
    def all_fighters(self) -> list[Fighter]:
        """Every fighter of every side, in creation order."""
        return [f for s in self.sides.values() for f in s.fighters]

    def enemies_of(self, f: Fighter) -> list[Fighter]:
        """Enemies still in the fight (active or fleeing)."""
        return [
            e for s in self.sides.values() if s.name != f.side for e in s.fighters if e.in_fight
        ]

    def tactic_of(self, f: Fighter) -> Tactic:
        """The tactic of ``f``'s side."""
        return self.sides[f.side].tactic

    def in_cover(self, f: Fighter) -> bool:
        """True while ``f`` is in cover."""
        return self.cover_until.get(f.unique_id, -1) >= self.round

    def factors_of(self, kind: str) -> list[wargame.Factor]:
        """Factors of ``kind`` in play."""
        if not self.factors:  # most battles have none
            return []
        return [x for x in self.factors if x.kind == kind]

    def standing(self) -> int:
        """Individuals still in the fight, all sides together."""
        return sum(s.standing for s in self.sides.values())

    def has_enemies(self, f: Fighter) -> bool:
        """True while an enemy of ``f`` is in the fight."""
        side = f.side
        for s in self.sides.values():
            if s.standing and s.name != side:
                return True
        return False

    def morale_hd(self, f: Fighter) -> int:
        """A fighter's current HD as morale sees it (RULES.md 1.8, BattleOptions.morale_hd)."""
        return self.system.morale_hd(f, self.opts)

    @property
    def large_mode(self) -> str:
        """How large scale is fought: ``turns`` (the default) or ``pools``."""
        return self.opts.large_scale

    # ---------------------------------------------------------------------- events
    def note(
        self, actor: str, action: str, target: str = "", dice: str = "", result: str = ""
    ) -> None:
        """Add one line to the event log (if it is on)."""
        if self.log is not None:
            self.log.append(
                {
                    "round": self.round,
                    "actor": actor,
                    "action": action,
                    "target": target,
                    "dice": dice,
                    "result": result,
                }
            )

    # ---------------------------------------------------------------------- harm
    def harmed(self, attacker: Fighter | None, target: Fighter, wounds: int, hd_lost: int) -> None:
        """Book damage or wounds that ``attacker`` did to ``target``."""
        if wounds <= 0 and hd_lost <= 0:
            return
        target.wounds_taken += wounds
        side_t = self.sides[target.side]
        side_t.round_taken += wounds
        side_t.hd_lost += hd_lost
        if attacker is not None:
            attacker.wounds_dealt += wounds
            self.sides[attacker.side].wounds_dealt += wounds
            self.sides[attacker.side].round_dealt += max(wounds, 1)
        self.harm_this_round = True
        if target.status == Status.FLEEING:
            target.wg.damaged_while_fleeing = True  # (its own record: changed in place)
        # its HD or wounds changed: file it again where it is now weaker
        side_t.refile(target)
        if self.queue is not None:
            self.queue[target.side][1].push(target)
        if self.faction_queue is not None:  # large scale: its faction may send it sooner
            self.faction_queue[target.side].push(target)

    def damaged(self) -> None:
        """Book damage that wounded nobody (it still breaks a quiet spell)."""
        self.harm_this_round = True

    # ---------------------------------------------------------------------- records
    def _record_states(self) -> None:
        """Keep every fighter's state after this round (``states[round][i]`` is roster[i]'s).

        The battle's data collector (:mod:`sim.battle.collect`) and replay page read it; a tuple a
        fighter, so that keeping it costs a battle little.
        """
        self.states.append(
            [
                (f.status, f.wg.hit_dice, f.wg.armor_pool, f.wounds_taken, f.wounds_dealt)
                for f in self.roster
            ]
        )

    def _record_round(self) -> None:
        if self.field is not None:
            self.field.snapshot()
        self._record_states()
        for s in self.sides.values():
            counts = dict.fromkeys(STATUSES, 0)
            hd = armor = 0  # of those in the fight
            for f in s.fighters:  # one pass over the side
                counts[f.status] += 1  # a StrEnum: its value's key
                if f.in_fight:
                    hd += f.wg.hit_dice
                    armor += f.wg.armor_pool
            self.round_rows.append(
                {
                    "round": self.round,
                    "side": s.name,
                    "scale": "large" if self.large else "small",
                    **counts,
                    "hd": hd,
                    "armor": armor,
                    "pool_hd": s.pool.hit_dice if s.pool is not None else None,
                    "wounds_dealt": s.round_dealt,
                    "wounds_taken": s.round_taken,
                }
            )

    def outcome(self) -> Outcome:
        """The battle's outcome (call after :meth:`run`)."""
        sides: dict[str, dict[str, Any]] = {}
        for s in self.sides.values():
            counts = dict.fromkeys(STATUSES, 0)
            for f in s.fighters:
                counts[f.status] += 1  # a StrEnum: its value's key
            lead = s.leader_fighter()
            sides[s.name] = {
                **counts,
                "fighters": len(s.fighters),
                "leader_status": _VALUE[lead.status] if lead is not None else None,
                "wounds_dealt": s.wounds_dealt,
                "hd_lost": s.hd_lost,
            }
        return Outcome(
            self.winner, self.end_reason or "running", self.round, self.scale_switches, sides
        )

    def fighter_rows(self, run_id: int | None = None) -> list[dict[str, Any]]:
        """One row per fighter: its final state (and its gear, if it rolled any).

        With ``run_id`` each row starts with it, as a dataset's ``fighters`` rows do
        (:func:`sim.run.core.run_rows`): built in one dict, not copied into a second.
        """
        rows = []
        for f in self.all_fighters():
            status = f.status
            after = twowp.fights_after_battle(f.fights, f.fought, status != Status.DEAD)
            row = {
                "run_id": run_id,
                "name": f.name,
                "side": f.side,
                "role": f.role,
                "leader": f.leader,
                "status": _VALUE[status],
                "arrived_round": f.arrived_round,
                "hd_start": f.hd_start,
                "hd_end": f.wg.hit_dice,
                "armor_end": f.wg.armor_pool,
                "wounds_taken": f.wounds_taken,
                "wounds_dealt": f.wounds_dealt,
                "conditions": ",".join(f.wg.conditions),
                "fights_before": f.fights,
                "fights_after": after,
                "tier_before": _tier_name(f.fights),
                "tier_after": _tier_name(after),
                **self.rolled_gear.get(f.name, {}),
            }
            if run_id is None:
                del row["run_id"]
            rows.append(row)
        return rows

    def rounds_frame(self) -> pd.DataFrame:
        """The per-round summary per side as a DataFrame."""
        return pd.DataFrame(self.round_rows)

    def fighters_frame(self) -> pd.DataFrame:
        """The per-fighter final state as a DataFrame."""
        return pd.DataFrame(self.fighter_rows())

    def events_frame(self) -> pd.DataFrame:
        """The event log as a DataFrame (empty unless the battle ran with ``events=True``)."""
        cols = ["round", "actor", "action", "target", "dice", "result"]
        return pd.DataFrame(self.log or [], columns=cols)

    def narrative(self) -> Iterable[str]:
        """The event log as readable lines: ``round 3: Bran (veteran) attack Osk: ...``."""
        tiers = {f.name: f.tier.name.lower() for f in self.all_fighters()}
        for e in self.log or []:
            actor = e["actor"] + (f" ({tiers[e['actor']]})" if e["actor"] in tiers else "")
            target = f" {e['target']}" if e["target"] else ""
            dice = f" [{e['dice']}]" if e["dice"] and e["dice"] not in e["result"] else ""
            sep = ": " if e["result"] else ""
            yield f"round {e['round']}: {actor} {e['action']}{target}{dice}{sep}{e['result']}"


@lru_cache(maxsize=256)
def _tier_name(fights: int) -> str:
    """The 2W2P tier of ``fights`` fights, as the fighters table writes it."""
    return twowp.tier_from_fights(fights).name.lower()
