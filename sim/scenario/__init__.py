"""Scenarios: the frozen description of a battle, and the files that describe one.

:mod:`sim.scenario.model` holds the data (:class:`Scenario` and its parts).
"""

from __future__ import annotations

from sim.scenario.model import (
    EVENT_KINDS,
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

__all__ = [
    "EVENT_KINDS",
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
    "Scenario",
    "Side",
    "TacticSpec",
]
