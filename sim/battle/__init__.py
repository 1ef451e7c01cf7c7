"""The battle: a Mesa model that fights one scenario round by round under its rule system.

:class:`Battle` (``mesa.Model``) runs the War Game frame (:mod:`sim.frame`) and asks the
scenario's rule system (:mod:`sim.systems`) for every turn; :mod:`~sim.battle.collect` is
its Mesa ``DataCollector`` and the drawing of its map; :mod:`~sim.battle.scenarios` its Mesa
3.5 ``Scenario`` (:class:`BattleScenario`, on a Mesa that has scenarios).

May import: everything below it (the ground floor, ``sim.rules``, ``sim.aftermath``,
``sim.space``, ``sim.scenario``, ``sim.frame``, ``sim.systems``); nothing above.
"""

from typing import Any

from sim.battle import scenarios
from sim.battle.battle import Battle, run_battle
from sim.frame.agents import Fighter
from sim.frame.core import Outcome

__all__ = ["Battle", "Fighter", "Outcome", "run_battle"]

if scenarios.MESA_SCENARIO is not None:  # Mesa 3.5
    from sim.battle.scenarios import BattleScenario

    __all__ += ["BattleScenario"]


def __getattr__(name: str) -> Any:
    if name == "BattleScenario":  # a Mesa without scenarios: say why there is none
        return getattr(scenarios, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
