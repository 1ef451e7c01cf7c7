"""The contract between the battle frame and a rule system (DESIGN.md habit 1).

The frame (:mod:`sim.frame`, run by :class:`sim.battle.Battle`) runs the War Game's rounds,
turn order, morale, goals and scale for every system; it asks the battle's
:class:`~sim.frame.turns.RuleSystem` everything that differs between systems, and never tests a
system's name. :class:`System` is what most systems share. Each system is one object in
:data:`sim.systems.SYSTEMS`; a fifth system is one module more and passes the same contract
test (``tests/systems/test_contract.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar

from sim.errors import SimError
from sim.frame.turns import RuleSystem
from sim.rules import wargame
from sim.rules.common import Status, build_options

if TYPE_CHECKING:
    from sim.aftermath import Aftermath
    from sim.frame.agents import Fighter
    from sim.frame.turns import TurnFrame
    from sim.options import BattleOptions
    from sim.scenario import FighterSpec

__all__ = ["RuleSystem", "System"]


class System:
    """Defaults a rule system inherits: a turn per fighter, no range, the frame's own HD."""

    name: ClassVar[str]
    rules: ClassVar[ModuleType]
    aftermath: ClassVar[type[Aftermath]]
    jumps_in: ClassVar[bool] = False
    factions: ClassVar[bool] = True
    #: Fields of a fighter's state that only this round reads (:meth:`start_round` resets
    #: them): attacks on it, then its own turn too. :meth:`state_key` leaves them out.
    this_round: ClassVar[tuple[tuple[str, ...], tuple[str, ...]]] = ((), ())

    def build_options(self, values: Mapping[str, Any], where: str) -> Any:
        """The system's options (its ``Options`` record) from a scenario's values."""
        return build_options(self.rules.Options, dict(values), where=where)

    def frame(self, options: Any, values: Mapping[str, Any]) -> wargame.Options:
        """The War Game frame options: the scenario's ``frame`` block."""
        result: wargame.Options = build_options(wargame.Options, dict(values), where="frame")
        return result

    def check_sides(self, count: int) -> None:
        """Any number of sides (two or more; the scenario checks that)."""

    def new_state(self, spec: FighterSpec) -> Any:
        """No state of its own: the frame's War Game record is all."""
        return None

    def start_round(self, b: TurnFrame) -> None:
        """Nothing to reset."""

    def state_key(self, f: Fighter, left: int | None) -> Any:
        """All of it, but what only this round reads once no turn of it that could is to come.

        :attr:`this_round`'s first fields once every other fighter has acted (none can attack
        ``f`` again), its second once ``f`` has too.
        """
        on_it, own = self.this_round
        if not on_it or any(g is not f and g.in_fight and not g.acted for g in f.model.roster):
            return None
        drop = on_it + own if f.acted else on_it
        return {k: v for k, v in vars(f.state).items() if k not in drop}

    def carried(self, f: Fighter) -> dict[str, Any]:
        """Nothing of its own: the frame's HD say it all."""
        return {}

    def carry_in(self, f: Fighter, carried: Mapping[str, Any]) -> None:
        """Nothing to carry in."""

    def carry_out(
        self, f: Fighter | None, survivor: Mapping[str, Any], carried: Mapping[str, Any]
    ) -> dict[str, Any]:
        """What it carried before: nothing changes."""
        return dict(carried)

    def start_status(self, f: Fighter) -> Status:
        """Active: a system whose wounds never take a fighter out says so."""
        return Status.ACTIVE

    def morale_hd(self, f: Fighter, opts: BattleOptions) -> int:
        """The HD a morale roll compares: hit_dice less wounds (``battle.morale_hd``)."""
        if opts.morale_hd == "full":
            return f.wg.hit_dice
        return max(0, f.wg.hit_dice - f.wounds_taken)

    def fight_round(self, b: TurnFrame) -> None:
        """Every fighter takes a turn, in the frame's turn order."""
        b.take_turns()

    def take_turn(self, b: TurnFrame, f: Fighter) -> None:
        """A system that fights by turns overrides this."""
        raise SimError(f"{self.name} fighters take no turns")

    def end_of_round(self, b: TurnFrame) -> None:
        """Nothing comes with time."""

    def is_ranged(self, f: Fighter) -> bool:
        """Melee only."""
        return False

    def range_ft(self, b: TurnFrame, f: Fighter) -> float:
        """Melee only: the neighbouring cells."""
        return 0.0

    def shoots_past_cover(self, b: TurnFrame, f: Fighter) -> bool:
        """Never holds fire."""
        return False

    def covered(self, b: TurnFrame, f: Fighter, e: Fighter) -> bool:
        """Cover never stops an attack outright."""
        return False
