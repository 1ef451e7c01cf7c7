"""Checks of the rules a battle is fought by: ``rules``, ``frame`` and ``battle``."""

from __future__ import annotations

from typing import Any

from sim.errors import unknown
from sim.options import BattleOptions
from sim.rules import SYSTEMS, wargame
from sim.scenario.checks.base import Checks, get_or
from sim.scenario.reader import show


def pools_refused(system: str) -> str:
    """Why a ``system`` battle cannot be fought as faction pools, and what to do instead."""
    return (
        f"'pools' are the War Game's faction pools (each faction one pool of HD and armor); "
        f"a {system} battle has none: use 'turns' (the default), or rules: wargame"
    )


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

    def frame(self, value: Any) -> dict[str, Any]:
        """The ``frame`` key: the War Game frame's options, under any system.

        Under War Game the frame's options are the system's own: :meth:`frame_into_rules`
        moves them into ``rules.options``, so ``frame.large_scale_above`` means the same in
        a sweep across all four systems.
        """
        if value in (None, {}):
            return {}
        return self.options(wargame.Options, value, "frame")

    def frame_into_rules(
        self, system: str, options: dict[str, Any], frame: dict[str, Any]
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Under War Game, ``frame`` options join ``rules.options`` (the same record).

        Set in both to different values is a mistake.
        """
        if SYSTEMS[system].Options is not wargame.Options or not frame:
            return options, frame
        for key, value in frame.items():
            if key in options and options[key] != value:
                self.error(
                    f"frame.{key}",
                    f"also set in rules.options ({show(options[key])}): under War Game the "
                    "frame's options are its own; give it once",
                )
        return {**options, **frame}, {}

    def pools(self, system: str) -> None:
        """``battle.large_scale: pools`` only where the system has the War Game's pools."""
        if not SYSTEMS[system].FACTION_POOLS:
            self.error("battle.large_scale", pools_refused(system))

    def battle(self, value: Any) -> dict[str, Any]:
        """The ``battle`` key: the battle's own house rules."""
        return self.options(BattleOptions, value, "battle")
