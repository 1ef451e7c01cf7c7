"""The battle: a Mesa model that fights one scenario round by round under its rule system.

:class:`Battle` (``mesa.Model``) runs the War Game frame (:mod:`sim.frame`) and asks the
scenario's rule system (:mod:`sim.systems`) for every turn; :mod:`~sim.battle.collect` is
its Mesa ``DataCollector`` and the drawing of its map.

May import: everything below it (the ground floor, ``sim.rules``, ``sim.aftermath``,
``sim.space``, ``sim.scenario``, ``sim.frame``, ``sim.systems``); nothing above.
"""

from sim.battle.battle import Battle, run_battle
from sim.frame.agents import Fighter
from sim.frame.core import Outcome

__all__ = ["Battle", "Fighter", "Outcome", "run_battle"]
