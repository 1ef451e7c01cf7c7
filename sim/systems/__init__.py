"""Rule systems as objects: the battle frame asks its system, never tests a name.

``SYSTEMS`` maps each scenario ``rules:`` name to its :class:`~sim.systems.base.RuleSystem`;
:func:`get` finds one (with a did-you-mean for a misspelt name).

Each system acts on the frame it is handed (:class:`sim.frame.turns.TurnFrame`) and is the
:class:`~sim.frame.turns.RuleSystem` the frame asks.

May import: ``sim.frame`` and everything below it; never the battle that asks it.
"""

from __future__ import annotations

from sim.errors import unknown
from sim.systems.base import RuleSystem, System
from sim.systems.d6 import D6
from sim.systems.deathwish import Deathwish
from sim.systems.twowp import TwoWP
from sim.systems.wargame import WarGame

SYSTEMS: dict[str, RuleSystem] = {s.name: s for s in (WarGame(), TwoWP(), Deathwish(), D6())}


def get(name: str) -> RuleSystem:
    """The rule system called ``name``."""
    try:
        return SYSTEMS[name]
    except KeyError:
        raise unknown("rule system", name, SYSTEMS) from None


__all__ = ["SYSTEMS", "RuleSystem", "System", "get"]
