"""The contract between the battle frame and a rule system (DESIGN.md habit 1).

The frame (:mod:`sim.battle.battle`) runs the War Game's rounds, turn order, morale, goals and
scale for every system; it asks the battle's :class:`RuleSystem` everything that differs
between systems, and never tests a system's name. Each system is one object in
:data:`sim.systems.SYSTEMS`; a fifth system is one module more and passes the same contract
test (``tests/systems/test_contract.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, runtime_checkable

from sim.errors import SimError
from sim.rules import wargame
from sim.rules.common import Status, build_options

if TYPE_CHECKING:
    from sim.aftermath import Aftermath
    from sim.battle.battle import Battle
    from sim.frame.agents import Fighter
    from sim.scenario import FighterSpec


@runtime_checkable
class RuleSystem(Protocol):
    """What the battle frame asks a rule system."""

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

    def start_round(self, b: Battle) -> None:
        """What the system resets at the start of every round."""

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

    def morale_hd(self, b: Battle, f: Fighter) -> int:
        """``f``'s current HD as a morale roll sees it (War Game 1.8)."""

    def fight_round(self, b: Battle) -> None:
        """Fight one round's blows (after the frame started the round)."""

    def take_turn(self, b: Battle, f: Fighter) -> None:
        """``f``'s turn (the frame checks it is in the fight and the battle goes on)."""

    def end_of_round(self, b: Battle) -> None:
        """What comes with time at the end of a round (deaths of untreated wounds, flight)."""

    def is_ranged(self, f: Fighter) -> bool:
        """Whether ``f`` fights at range (the cover tactic looks at its enemies)."""

    def range_ft(self, b: Battle, f: Fighter) -> float:
        """How far ``f``'s weapon reaches on a map, in feet (0: melee)."""

    def shoots_past_cover(self, b: Battle, f: Fighter) -> bool:
        """Whether ``f`` holds its fire at enemies whose cover would stop it (on a map)."""

    def covered(self, b: Battle, f: Fighter, e: Fighter) -> bool:
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


class System:
    """Defaults a rule system inherits: a turn per fighter, no range, the frame's own HD."""

    name: ClassVar[str]
    rules: ClassVar[ModuleType]
    aftermath: ClassVar[type[Aftermath]]
    jumps_in: ClassVar[bool] = False
    factions: ClassVar[bool] = True

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

    def start_round(self, b: Battle) -> None:
        """Nothing to reset."""

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

    def morale_hd(self, b: Battle, f: Fighter) -> int:
        """The HD a morale roll compares: hit_dice less wounds (``battle.morale_hd``)."""
        if b.opts.morale_hd == "full":
            return f.wg.hit_dice
        return max(0, f.wg.hit_dice - f.wounds_taken)

    def fight_round(self, b: Battle) -> None:
        """Every fighter takes a turn, in the frame's turn order."""
        b.take_turns()

    def take_turn(self, b: Battle, f: Fighter) -> None:
        """A system that fights by turns overrides this."""
        raise SimError(f"{self.name} fighters take no turns")

    def end_of_round(self, b: Battle) -> None:
        """Nothing comes with time."""

    def is_ranged(self, f: Fighter) -> bool:
        """Melee only."""
        return False

    def range_ft(self, b: Battle, f: Fighter) -> float:
        """Melee only: the neighbouring cells."""
        return 0.0

    def shoots_past_cover(self, b: Battle, f: Fighter) -> bool:
        """Never holds fire."""
        return False

    def covered(self, b: Battle, f: Fighter, e: Fighter) -> bool:
        """Cover never stops an attack outright."""
        return False
