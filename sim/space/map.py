"""Battlefield space: a map's cells, distances, movement, shoves and fronts (issue 9, core).

Pure geometry on an orthogonal Moore grid (8 neighbours; a diagonal step counts as one cell,
as on the Mesa grid). Cells are ``(x, y)`` with ``0 <= x < width``, ``0 <= y < height``.
A :class:`MapSpec` is a scenario's ``map:`` (:func:`from_picture` reads one drawn as text).
Nothing here rolls dice or holds a battle's state, so every function is testable in one
line; a battle (:mod:`sim.frame.field`) places its fighters on a
``mesa.discrete_space.OrthogonalMooreGrid`` built by :func:`build_grid` with the battle's
own random source.

The seeds' distances (RULES.md 1.10, 2.4, 4): a spear shoves 10 ft, quicksand costs 10 ft a
round, a warbow reaches 400 yards, a D6 round allows one move of one space (two when
sprinting), and a 2W2P front is whoever can help one another: here, fighters linked through
enemies standing next to them (:func:`fronts`); an ally merely behind them is in no front.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sim.errors import SimError

Cell = tuple[int, int]
FEET_PER_UNIT = {"ft": 1.0, "yd": 3.0}
SIDE_COLORS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b")
"""The sides' colours on every picture of a map, in the order of the scenario's sides."""
TERRAIN_KINDS = ("cover", "hazard", "wall")
NEIGHBOURS: tuple[Cell, ...] = tuple(
    (dx, dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if (dx, dy) != (0, 0)
)
# The picture legend every map understands; a scenario's ``legend`` adds to it or overrides.
# Digits 1-9 are open ground in the deployment zone of the first, second, ... side.
DEFAULT_LEGEND: Mapping[str, tuple[str, str]] = {
    ".": ("open", ""),
    "#": ("wall", ""),
    "T": ("cover", "trees"),
    "R": ("cover", "ruin_wall"),
    "B": ("cover", "building_wall"),
    "^": ("hazard", "cliff"),
    "~": ("hazard", "quicksand"),
    "*": ("hazard", "fire"),
    "o": ("hazard", "spiked_pit"),
}


@dataclass(frozen=True, slots=True)
class Mark:
    """One fighter in a frame: its name, side, cell and status."""

    name: str
    side: str
    cell: Cell
    status: str = "active"


def _factor_name(kind: str, name: str) -> str:
    from sim.rules import wargame

    return wargame.factor(kind, name).name


@dataclass(frozen=True, slots=True)
class Terrain:
    """Terrain on some cells: ``cover``, a ``hazard`` or a ``wall``.

    ``name`` is the War Game factor the cells are (RULES.md 1.10, the d8 tables: a cover
    such as ``trees`` or ``ruin_wall``, a hazard such as ``cliff`` or ``quicksand``).
    ``value`` is a cover's points for Deathwish (armor points) and its dice for D6; ``None``
    takes the battle's ``deathwish_cover`` / ``d6_cover_dice``.
    """

    kind: str
    cells: tuple[Cell, ...]
    name: str = ""
    value: int | None = None

    def __post_init__(self) -> None:
        if self.kind not in TERRAIN_KINDS:
            raise SimError(f"unknown terrain {self.kind!r}; one of {', '.join(TERRAIN_KINDS)}")
        if self.kind == "cover":
            object.__setattr__(self, "name", _factor_name("cover", self.name or "ruin_wall"))
        elif self.kind == "hazard":
            if not self.name:
                raise SimError("a hazard needs a name (cliff, quicksand, fire, ...)")
            object.__setattr__(self, "name", _factor_name("hazard", self.name))
        if self.value is not None and self.value < 0:
            raise SimError(f"cover value must be 0 or more, got {self.value}")
        object.__setattr__(self, "cells", tuple((int(x), int(y)) for x, y in self.cells))


@dataclass(frozen=True, slots=True)
class MapSpec:
    """A battle map: its size, the size of one cell, terrain, deployment zones, placements.

    ``zones`` maps a side's name to the cells it deploys in; ``at`` maps a fighter's name to
    its starting cell (it overrides the zone). Later terrain on a cell overrides earlier.
    """

    width: int
    height: int
    cell_size: float = 5.0
    unit: str = "ft"
    terrain: tuple[Terrain, ...] = ()
    zones: Mapping[str, tuple[Cell, ...]] = field(default_factory=dict)
    at: Mapping[str, Cell] = field(default_factory=dict)
    _walls: frozenset[Cell] = field(init=False, repr=False, compare=False)
    _cover: Mapping[Cell, Terrain] = field(init=False, repr=False, compare=False)
    _hazard: Mapping[Cell, str] = field(init=False, repr=False, compare=False)
    _ways: dict[Cell, dict[Cell, int]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.width < 1 or self.height < 1:
            raise SimError(f"a map is at least 1 x 1 cells, got {self.width} x {self.height}")
        if self.unit not in FEET_PER_UNIT:
            raise SimError(f"unknown unit {self.unit!r}; one of ft, yd")
        if self.cell_size <= 0:
            raise SimError(f"cell size must be above 0, got {self.cell_size}")
        object.__setattr__(self, "terrain", tuple(self.terrain))
        zones = {
            side: tuple((int(x), int(y)) for x, y in cells) for side, cells in self.zones.items()
        }
        at = {name: (int(c[0]), int(c[1])) for name, c in self.at.items()}
        object.__setattr__(self, "zones", zones)
        object.__setattr__(self, "at", at)
        kind: dict[Cell, Terrain] = {}
        for t in self.terrain:
            for c in t.cells:
                if not self.inside(c):
                    raise SimError(f"terrain cell {c} is off the {self.width} x {self.height} map")
                kind[c] = t
        object.__setattr__(
            self, "_walls", frozenset(c for c, t in kind.items() if t.kind == "wall")
        )
        object.__setattr__(self, "_cover", {c: t for c, t in kind.items() if t.kind == "cover"})
        object.__setattr__(
            self, "_hazard", {c: t.name for c, t in kind.items() if t.kind == "hazard"}
        )
        object.__setattr__(self, "_ways", {})
        for side, cells in zones.items():
            for c in cells:
                if not self.inside(c):
                    raise SimError(f"{side}'s deployment cell {c} is off the map")
        for name, c in at.items():
            if not self.inside(c):
                raise SimError(f"{name}'s cell {c} is off the {self.width} x {self.height} map")
            if c in self._walls or c in self._hazard:
                raise SimError(f"{name} cannot start on {c}: it is a wall or a hazard")

    @property
    def cell_feet(self) -> float:
        """The side of one cell in feet."""
        return self.cell_size * FEET_PER_UNIT[self.unit]

    def inside(self, c: Cell) -> bool:
        """Whether cell ``c`` is on the map."""
        return 0 <= c[0] < self.width and 0 <= c[1] < self.height

    def walls(self) -> frozenset[Cell]:
        """Cells no one can enter."""
        return self._walls

    def hazards(self) -> frozenset[Cell]:
        """Cells holding a hazard (no one enters them of their own accord)."""
        return frozenset(self._hazard)

    def cover_at(self, c: Cell) -> Terrain | None:
        """The cover terrain on cell ``c``, if any."""
        return self._cover.get(c)

    def hazard(self, c: Cell) -> str:
        """The hazard on cell ``c`` (``""`` if none)."""
        return self._hazard.get(c, "")

    def ways_to(self, goal: Cell) -> dict[Cell, int]:
        """Steps from every cell to ``goal`` around walls and hazards (cached: terrain is fixed)."""
        way = self._ways.get(goal)
        if way is None:
            way = path_lengths(self, goal, self.hazards())
            self._ways[goal] = way
        return way

    def open_cells(self) -> list[Cell]:
        """Cells one may stand on (not a wall nor a hazard), row by row."""
        return [
            (x, y)
            for y in range(self.height)
            for x in range(self.width)
            if (x, y) not in self._walls and (x, y) not in self._hazard
        ]


def from_picture(
    rows: Sequence[str],
    sides: Sequence[str],
    *,
    cell_size: float = 5.0,
    unit: str = "ft",
    legend: Mapping[str, tuple[str, str] | tuple[str, str, int | None]] | None = None,
    at: Mapping[str, Cell] | None = None,
) -> MapSpec:
    """A map drawn as text, one string per row (row 0 at the top), one character per cell.

    Characters are looked up in :data:`DEFAULT_LEGEND` updated by ``legend`` (``char ->
    (kind, name[, value])``); digits 1-9 mark the deployment zone of ``sides[n - 1]``.
    Rows shorter than the longest are padded with open ground.
    """
    table: dict[str, tuple[Any, ...]] = {**DEFAULT_LEGEND, **(legend or {})}
    width = max((len(r) for r in rows), default=0)
    cells: dict[tuple[str, str, int | None], list[Cell]] = {}
    zones: dict[str, list[Cell]] = {}
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            if ch.isdigit() and ch != "0" and ch not in table:
                n = int(ch)
                if n > len(sides):
                    raise SimError(
                        f"row {y + 1}, column {x + 1}: zone {ch} but there are {len(sides)} sides"
                    )
                zones.setdefault(sides[n - 1], []).append((x, y))
                continue
            entry = table.get(ch)
            if entry is None:
                known = "".join(sorted(table)) + "1-9"
                raise SimError(
                    f"row {y + 1}, column {x + 1}: unknown map character {ch!r} ({known})"
                )
            kind, name, *rest = entry
            if kind != "open":
                cells.setdefault((kind, name, rest[0] if rest else None), []).append((x, y))
    terrain = tuple(Terrain(k, tuple(cs), n, v) for (k, n, v), cs in cells.items())
    return MapSpec(
        width,
        len(rows),
        cell_size,
        unit,
        terrain,
        {s: tuple(c) for s, c in zones.items()},
        at or {},
    )


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


def path_lengths(
    spec: MapSpec, goal: Cell, blocked: Iterable[Cell] = (), until: Cell | None = None
) -> dict[Cell, int]:
    """Steps from every reachable cell to ``goal`` around walls and ``blocked`` cells (BFS).

    ``goal`` itself counts as reachable even when blocked (it is whom one moves toward).
    With ``until``, the search stops after the layer that reaches that cell.
    """
    stop = spec.walls() | frozenset(blocked)
    steps = {goal: 0}
    frontier = [goal]
    while frontier and (until is None or until not in steps):
        nxt: list[Cell] = []
        for x, y in frontier:
            for dx, dy in NEIGHBOURS:
                c = (x + dx, y + dy)
                if c not in steps and spec.inside(c) and c not in stop:
                    steps[c] = steps[(x, y)] + 1
                    nxt.append(c)
        frontier = nxt
    return steps


def step_by(
    start: Cell, goal: Cell, steps: Mapping[Cell, int], free: Callable[[Cell], bool]
) -> Cell | None:
    """The ``free`` neighbour of ``start`` nearest ``goal`` by ``steps``, if nearer than it.

    ``steps`` is a :func:`path_lengths` map to ``goal``; a cell it lacks counts as beyond
    every path. Nearer means fewer steps, or as many and fewer cells in a straight line;
    ties go to the smaller straight-line distance, then to the first in :data:`NEIGHBOURS`
    order, so the step is the same on every run. None if no neighbour is nearer.
    """
    far = len(steps)  # more than any path in the map

    def key(c: Cell) -> tuple[int, int, int]:
        return (steps.get(c, far), distance(c, goal), (c[0] - goal[0]) ** 2 + (c[1] - goal[1]) ** 2)

    here = key(start)[:2]
    moves = [
        c
        for dx, dy in NEIGHBOURS
        if free(c := (start[0] + dx, start[1] + dy)) and key(c)[:2] < here
    ]
    return min(moves, key=key, default=None)


def step_toward(spec: MapSpec, start: Cell, goal: Cell, blocked: Iterable[Cell] = ()) -> Cell:
    """The neighbour of ``start`` one step along a shortest way to ``goal`` (or ``start``).

    Walls and ``blocked`` cells (e.g. occupied ones) are never entered; with no way
    around them, the step is the neighbour nearest ``goal`` in a straight line, if nearer
    than ``start`` (:func:`step_by`).
    """
    if start == goal:
        return start
    stop = spec.walls() | frozenset(blocked)
    steps = path_lengths(spec, goal, stop)
    step = step_by(start, goal, steps, lambda c: spec.inside(c) and c not in stop)
    return start if step is None else step


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
    path: list[Cell] = []  # hazards may be entered: being shoved into one is the point
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
    """2W2P fronts from engagement: groups of fighters linked by enemies beside them (RULES.md 2.4).

    ``positions`` maps each active fighter's name to ``(side, cell)``. A fighter is linked
    only to the enemies next to it (the 8 neighbouring cells, as far as 2W2P melee
    reaches); a front is a connected group of those links [I]. So a fighter fights in a
    front only if an enemy stands beside it: an ally beside an engaged ally, with no enemy
    beside it itself, is in no front (it does not roll and cannot be hit), and a column in a
    one-cell corridor fights one pair at a time. This is how we read the seed's "separated
    from or able to help one another": one helps by fighting the same enemies, not by
    standing behind a friend. Two fighters beside one enemy, or one fighter between two
    enemies, share a front; a chain of such links is one front however long it is.

    Each front lists its names sorted; fronts are sorted by their first name, so the result
    does not depend on dict order.
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
    engaged: set[str] = set()
    for n in names:
        side, (x, y) = positions[n]
        for dx, dy in NEIGHBOURS:
            for m in by_cell.get((x + dx, y + dy), ()):
                if positions[m][0] == side:
                    continue
                engaged.add(n)
                a, b = root(n), root(m)
                if a != b:
                    parent[max(a, b)] = min(a, b)
    groups: dict[str, list[str]] = {}
    for n in names:
        if n in engaged:
            groups.setdefault(root(n), []).append(n)
    return sorted(tuple(g) for g in groups.values())


def build_grid(spec: MapSpec, random: Any) -> Any:
    """A ``mesa.discrete_space.OrthogonalMooreGrid`` of the map, one agent per cell.

    ``random`` is the battle's ``random.Random`` (``Battle.random``), so anything the grid
    draws (e.g. a random empty cell) follows the battle's seed.
    """
    from mesa.discrete_space import OrthogonalMooreGrid

    return OrthogonalMooreGrid((spec.width, spec.height), torus=False, capacity=1, random=random)
