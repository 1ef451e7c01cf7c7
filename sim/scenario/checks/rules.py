"""Checks of the rules a battle is fought by: ``rules``, ``frame`` and ``battle``."""

from __future__ import annotations

from typing import Any

from sim.errors import unknown
from sim.options import BattleOptions
from sim.rules import SYSTEMS, wargame
from sim.scenario.checks.base import Checks, get_or
from sim.scenario.reader import show


class RuleChecks(Checks):
    """The rules system and its options, the War Game frame options, the battle's options."""

    def rules(self, value: Any) -> tuple[str, dict[str, Any]]:
        """The ``rules`` key: the system's name and its good options."""
        system: Any = value
        system_path = "rules"
        raw_options: Any = None
        if isinstance(value, dict):
            self.keys(value, "rules", ("system", "options"))
            system = get_or(value, "system", "wargame")
            system_path = "rules.system"
            raw_options = value.get("options")
        if not isinstance(system, str):
            self.error(
                system_path, f"expected a system name ({', '.join(SYSTEMS)}), got {show(system)}"
            )
            return "wargame", {}
        if system not in SYSTEMS:
            self.error(system_path, str(unknown("rules system", system, SYSTEMS)))
            return system, {}
        options = self.options(SYSTEMS[system].Options, raw_options, "rules.options")
        return system, options

    def frame(self, value: Any, system: str) -> dict[str, Any]:
        """The ``frame`` key: War Game frame options, for a system other than War Game."""
        if value in (None, {}):
            return {}
        if system == "wargame":
            self.error("frame", "War Game frame options go in rules.options under system wargame")
            return {}
        return self.options(wargame.Options, value, "frame")

    def battle(self, value: Any) -> dict[str, Any]:
        """The ``battle`` key: the battle's own house rules."""
        return self.options(BattleOptions, value, "battle")
