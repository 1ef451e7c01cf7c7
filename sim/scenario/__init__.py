"""Scenarios: the frozen description of a battle, and the YAML files that describe one.

- :mod:`sim.scenario.model`: the data (:class:`Scenario` and its parts), plain and frozen.
- :mod:`sim.scenario.load`: :func:`load_scenario` and :func:`parse_scenario`, a file or a
  text in, a checked :class:`Scenario` out, every problem reported at once.
- :mod:`sim.scenario.reader`: YAML read safely with the line of every value
  (:func:`read_yaml`), and the :class:`Issue` / :class:`ScenarioError` of a problem.
- :mod:`sim.scenario.overrides`: the ``--set PATH=VALUE`` language (:func:`apply_override`).
- :mod:`sim.scenario.checks`: the checks, one module per section of the format.

The format is described in docs/scenario-format.md. Loading a scenario imports no Mesa,
pandas or matplotlib.

May import: the ground floor, ``sim.rules``, ``sim.aftermath`` (camp healers) and
``sim.space`` (the map); nothing of the battle.
"""

from __future__ import annotations

from sim.scenario.load import load_scenario, parse_scenario
from sim.scenario.model import (
    GOAL_KINDS,
    START_STATUSES,
    AftermathSpec,
    CampaignSpec,
    D6Stats,
    DeathwishStats,
    Event,
    FactorSpec,
    FighterSpec,
    FrozenDict,
    Goal,
    Scenario,
    Side,
    TacticSpec,
)
from sim.scenario.overrides import apply_override
from sim.scenario.reader import Issue, ScenarioError, read_yaml

__all__ = [
    "GOAL_KINDS",
    "START_STATUSES",
    "AftermathSpec",
    "CampaignSpec",
    "D6Stats",
    "DeathwishStats",
    "Event",
    "FactorSpec",
    "FighterSpec",
    "FrozenDict",
    "Goal",
    "Issue",
    "Scenario",
    "ScenarioError",
    "Side",
    "TacticSpec",
    "apply_override",
    "load_scenario",
    "parse_scenario",
    "read_yaml",
]
