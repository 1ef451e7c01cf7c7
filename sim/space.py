"""Battlefield space: a map's cells, distances, movement, shoves and fronts (issue 9, core).

Pure geometry on an orthogonal Moore grid (8 neighbours; a diagonal step counts as one cell,
as on the Mesa grid). Cells are ``(x, y)`` with ``0 <= x < width``, ``0 <= y < height``.
Nothing here rolls dice or holds state, so every function is testable in one line; the
battle places its fighters on a ``mesa.discrete_space.OrthogonalMooreGrid`` built by
:func:`build_grid` with the battle's own random source.

The seeds' distances (RULES.md 1.10, 2.4, 4): a spear shoves 10 ft, quicksand costs 10 ft a
round, a warbow reaches 400 yards, a D6 round allows one move of one space (two when
sprinting), and a 2W2P front is whoever can help one another: here, fighters linked by
adjacency through a chain that includes an enemy (:func:`fronts`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from sim.errors import SimError

Cell = tuple[int, int]
FEET_PER_UNIT = {"ft": 1.0, "yd": 3.0}
TERRAIN_KINDS = ("cover", "hazard", "wall")
HAZARDS = ("cliff", "quicksand", "fire")
NEIGHBOURS: tuple[Cell, ...] = tuple(
    (dx, dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if (dx, dy) != (0, 0)
)


@dataclass(frozen=True, slots=True)
class Terrain:
    """Terrain on some cells: ``cover`` (``value`` points), a ``hazard`` or a ``wall``."""

    kind: str
    cells: tuple[Cell, ...]
    value: int = 1  # cover points
    hazard: str = ""  # cliff, quicksand or fire

    def __post_init__(self) -> None:
        if self.kind not in TERRAIN_KINDS:
            raise SimError(f"unknown terrain {self.kind!r}; one of {', '.join(TERRAIN_KINDS)}")
        if self.kind == "hazard" and self.hazard not in HAZARDS:
            raise SimError(f"unknown hazard {self.hazard!r}; one of {', '.join(HAZARDS)}")
        object.__setattr__(self, "cells", tuple((int(x), int(y)) for x, y in self.cells))


@dataclass(frozen=True, slots=True)
class MapSpec:
    """A battle map: its size, the size of one cell, terrain, and each side's deployment."""

    width: int
    height: int
    cell_size: float = 5.0
    unit: str = "ft"
    terrain: tuple[Terrain, ...] = ()
    zones: Mapping[str, tuple[Cell, ...]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.width < 1 or self.height < 1:
            raise SimError(f"a map is at least 1 x 1 cells, got {self.width} x {self.height}")
        if self.unit not in FEET_PER_UNIT:
            raise SimError(f"unknown unit {self.unit!r}; one of ft, yd")
        if self.cell_size <= 0:
            raise SimError(f"cell size must be above 0, got {self.cell_size}")
        for t in self.terrain:
            for c in t.cells:
                if not self.inside(c):
                    raise SimError(f"terrain cell {c} is off the {self.width} x {self.height} map")
        for side, cells in self.zones.items():
            for c in cells:
                if not self.inside(c):
                    raise SimError(f"{side}'s deployment cell {c} is off the map")

    @property
    def cell_feet(self) -> float:
        """The side of one cell in feet."""
        return self.cell_size * FEET_PER_UNIT[self.unit]

    def inside(self, c: Cell) -> bool:
        """Whether cell ``c`` is on the map."""
        return 0 <= c[0] < self.width and 0 <= c[1] < self.height

    def walls(self) -> frozenset[Cell]:
        """Cells no one can enter."""
        return frozenset(c for t in self.terrain if t.kind == "wall" for c in t.cells)

    def cover(self, c: Cell) -> int:
        """Cover points of cell ``c`` (the best of the cover terrain on it; 0 if none)."""
        return max((t.value for t in self.terrain if t.kind == "cover" and c in t.cells), default=0)

    def hazard(self, c: Cell) -> str:
        """The hazard on cell ``c`` (``""`` if none)."""
        return next((t.hazard for t in self.terrain if t.kind == "hazard" and c in t.cells), "")


def distance(a: Cell, b: Cell) -> int:
    """Cells between ``a`` and ``b`` on a Moore grid (Chebyshev: a diagonal step is one)."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def feet(spec: MapSpec, a: Cell, b: Cell) -> float:
    """The distance from ``a`` to ``b`` in feet."""
    return distance(a, b) * spec.cell_feet


def cells_for(spec: MapSpec, feet_: float) -> int:
    """Whole cells covered by a distance in feet, rounded down (the seeds round down)."""
    return int(feet_ // spec.cell_feet)


def adjacent(a: Cell, b: Cell) -> bool:
    """Whether ``a`` and ``b`` are neighbours (8-neighbourhood)."""
    return distance(a, b) == 1


def in_range(spec: MapSpec, a: Cell, b: Cell, reach_ft: float) -> bool:
    """Whether ``b`` is within ``reach_ft`` feet of ``a``."""
    return feet(spec, a, b) <= reach_ft


def path_lengths(spec: MapSpec, goal: Cell, blocked: Iterable[Cell] = ()) -> dict[Cell, int]:
    """Steps from every reachable cell to ``goal`` around walls and ``blocked`` cells (BFS).

    ``goal`` itself counts as reachable even when blocked (it is whom one moves toward).
    """
    stop = spec.walls() | frozenset(blocked)
    steps = {goal: 0}
    frontier = [goal]
    while frontier:
        nxt: list[Cell] = []
        for x, y in frontier:
            for dx, dy in NEIGHBOURS:
                c = (x + dx, y + dy)
                if c not in steps and spec.inside(c) and c not in stop:
                    steps[c] = steps[(x, y)] + 1
                    nxt.append(c)
        frontier = nxt
    return steps


def step_toward(spec: MapSpec, start: Cell, goal: Cell, blocked: Iterable[Cell] = ()) -> Cell:
    """The neighbour of ``start`` one step along a shortest way to ``goal`` (or ``start``).

    Walls and ``blocked`` cells (e.g. occupied ones) are never entered; with no way
    around them, the step is the neighbour nearest ``goal`` in a straight line, if nearer
    than ``start``. Ties go to the smaller straight-line distance, then to the first in
    :data:`NEIGHBOURS` order, so the step is the same on every run.
    """
    if start == goal:
        return start
    stop = spec.walls() | frozenset(blocked)
    steps = path_lengths(spec, goal, stop)
    far = len(steps) + spec.width * spec.height

    def key(c: Cell) -> tuple[int, int, int]:
        return (steps.get(c, far), distance(c, goal), (c[0] - goal[0]) ** 2 + (c[1] - goal[1]) ** 2)

    here = key(start)[:2]  # a step must bring it nearer by path or by cells
    moves = [
        c
        for dx, dy in NEIGHBOURS
        if spec.inside(c := (start[0] + dx, start[1] + dy)) and c not in stop and key(c)[:2] < here
    ]
    return min(moves, key=key, default=start)


def shove(
    spec: MapSpec, pusher: Cell, target: Cell, feet_: float, blocked: Iterable[Cell] = ()
) -> tuple[Cell, ...]:
    """The cells a target shoved ``feet_`` feet away from ``pusher`` passes through, in order.

    The direction is the step from ``pusher`` to ``target`` (each coordinate's sign). The
    shove stops early at the map's edge, a wall or a ``blocked`` cell; a hazard on a cell
    passed is the caller's to apply (a cliff edge ends the move). Empty if it cannot move.
    """
    dx = (target[0] > pusher[0]) - (target[0] < pusher[0])
    dy = (target[1] > pusher[1]) - (target[1] < pusher[1])
    if (dx, dy) == (0, 0):
        return ()
    stop = spec.walls() | frozenset(blocked)
    path: list[Cell] = []
    here = target
    for _ in range(cells_for(spec, feet_)):
        nxt = (here[0] + dx, here[1] + dy)
        if not spec.inside(nxt) or nxt in stop:
            break
        path.append(nxt)
        here = nxt
        if spec.hazard(nxt) == "cliff":
            break
    return tuple(path)


def fronts(positions: Mapping[str, tuple[str, Cell]]) -> list[tuple[str, ...]]:
    """2W2P fronts from adjacency: groups of fighters engaged with each other (RULES.md 2.4).

    ``positions`` maps each active fighter's name to ``(side, cell)``. Fighters are linked
    when adjacent; a front is a connected group holding fighters of at least two sides
    (allies touching only allies are not engaged). Each front lists its names sorted;
    fronts are sorted by their first name, so the result does not depend on dict order.
    """
    names = sorted(positions)
    parent = {n: n for n in names}

    def root(n: str) -> str:
        while parent[n] != n:
            parent[n] = parent[parent[n]]
            n = parent[n]
        return n

    by_cell: dict[Cell, list[str]] = {}
    for n in names:
        by_cell.setdefault(positions[n][1], []).append(n)
    for n in names:
        x, y = positions[n][1]
        for dx, dy in ((0, 0), *NEIGHBOURS):
            for m in by_cell.get((x + dx, y + dy), ()):
                a, b = root(n), root(m)
                if a != b:
                    parent[max(a, b)] = min(a, b)
    groups: dict[str, list[str]] = {}
    for n in names:
        groups.setdefault(root(n), []).append(n)
    engaged = [g for g in groups.values() if len({positions[n][0] for n in g}) >= 2]
    return sorted(tuple(g) for g in engaged)


def build_grid(spec: MapSpec, random: Any) -> Any:
    """A ``mesa.discrete_space.OrthogonalMooreGrid`` of the map, one agent per cell.

    ``random`` is the battle's ``random.Random`` (``Battle.random``), so anything the grid
    draws (e.g. a random empty cell) follows the battle's seed.
    """
    from mesa.discrete_space import OrthogonalMooreGrid

    return OrthogonalMooreGrid((spec.width, spec.height), torus=False, capacity=1, random=random)
