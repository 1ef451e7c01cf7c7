"""Battlefield space: a map's cells and terrain, distances, movement, shoves and fronts.

Pure geometry on the optional ``map:`` of a scenario (:mod:`~sim.space.map`): the scenario
holds a :class:`MapSpec`, the battle's field (:mod:`sim.frame.field`) asks it where fighters
may go and whom they reach. It never asks back.

May import: the ground floor and ``sim.rules``.
"""

from sim.space.map import (
    DEFAULT_LEGEND,
    FEET_PER_UNIT,
    NEIGHBOURS,
    SIDE_COLORS,
    TERRAIN_KINDS,
    Cell,
    MapSpec,
    Mark,
    Terrain,
    adjacent,
    build_grid,
    cells_for,
    distance,
    feet,
    from_picture,
    fronts,
    in_range,
    path_lengths,
    shove,
    step_by,
    step_toward,
)

__all__ = [
    "DEFAULT_LEGEND",
    "FEET_PER_UNIT",
    "NEIGHBOURS",
    "SIDE_COLORS",
    "TERRAIN_KINDS",
    "Cell",
    "MapSpec",
    "Mark",
    "Terrain",
    "adjacent",
    "build_grid",
    "cells_for",
    "distance",
    "feet",
    "from_picture",
    "fronts",
    "in_range",
    "path_lengths",
    "shove",
    "step_by",
    "step_toward",
]
