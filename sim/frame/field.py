"""The battlefield of a battle with a ``map:``: fighters as cell agents on a Mesa grid.

:class:`Battlefield` holds the ``mesa.discrete_space.OrthogonalMooreGrid`` the fighters
stand on (one per cell) and answers the questions a turn asks of space: who is in reach,
at which range band, whether a cell gives cover, where a fighter steps to close in,
disengage, flank or run, where a shove ends, which hazard lies next to a target, and which
2W2P fronts fighters next to enemies form. The geometry is :mod:`sim.space.map`; the rules that
use it are in :mod:`sim.systems`. Without a map a battle has no Battlefield and nothing here runs.

House rules of space [H] (every number is an option of ``battle:``, see ``sim options battle``):

- Melee reaches the 8 neighbouring cells. A ranged weapon reaches its range (the warbow's
  400 yards [S]; guns ``gun_range_yd``; Deathwish firearms ``firearm_range_yd``), needs a
  line of sight that no wall crosses, and is not used against an adjacent enemy
  (``ranged_in_melee``): its bearer first disengages.
- Range bands: short up to a third of the range, medium up to two thirds, long beyond.
- A cell's cover protects against attacks from fighters not adjacent to it.
- No one enters a wall, a hazard or an occupied cell of their own accord; the fallen and
  the fled leave the grid (their last cell is kept for pictures).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, NoReturn, Protocol

import numpy as np

from sim import space
from sim.frame.agents import Fighter
from sim.options import BattleOptions
from sim.rules.common import Status
from sim.scenario.tactics import Tactic
from sim.space.map import Cell, MapSpec, Mark, Terrain

YARD = 3.0


def line_of_sight(spec: MapSpec, a: Cell, b: Cell) -> bool:
    """Whether no wall stands on the cells strictly between ``a`` and ``b`` (Bresenham)."""
    (x0, y0), (x1, y1) = a, b
    dx, dy = abs(x1 - x0), -abs(y1 - y0)
    sx, sy = (1 if x0 < x1 else -1), (1 if y0 < y1 else -1)
    err = dx + dy
    walls = spec.walls()
    while True:
        if (x0, y0) != a and (x0, y0) != b and (x0, y0) in walls:
            return False
        if (x0, y0) == (x1, y1):
            return True
        e2 = 2 * err
        if e2 >= dy:
            err += dy
            x0 += sx
        if e2 <= dx:
            err += dx
            y0 += sy


def band(distance_ft: float, range_ft: float) -> str:
    """The range band of a shot: short, medium or long (thirds of the weapon's range) [H]."""
    if distance_ft * 3 <= range_ft:
        return "short"
    if distance_ft * 3 <= 2 * range_ft:
        return "medium"
    return "long"


class Host(Protocol):
    """What the battlefield reads of its battle (a :class:`sim.frame.core.BattleCore` is one).

    The field sits below the battle: it is handed its battle, it never imports it.
    """

    random: Any  # the battle's own random.Random (Mesa's), for the grid
    rng: np.random.Generator
    opts: BattleOptions
    round: int
    log: list[dict[str, Any]] | None

    def note(
        self, actor: str, action: str, target: str = "", dice: str = "", result: str = ""
    ) -> None:
        """Add one line to the event log."""
        ...

    def tactic_of(self, f: Fighter) -> Tactic:
        """The tactic of ``f``'s side."""
        ...

    def all_fighters(self) -> list[Fighter]:
        """Every fighter of every side, in creation order."""
        ...


class Battlefield:
    """The map of one battle, its grid, and where every fighter stands or fell.

    ``reach`` is how far a fighter's weapon reaches in feet (0: melee), as the battle's rule
    system says.
    """

    def __init__(self, battle: Host, spec: MapSpec, reach: Callable[[Fighter], float]) -> None:
        self.b = battle
        self.reach = reach
        self.spec = spec
        self.grid = space.build_grid(spec, battle.random)
        self.last_cell: dict[int, Cell] = {}
        self.snapshots: dict[int, list[Mark]] = {}
        self._terrain_blocks = spec.walls() | spec.hazards()
        self.standing: dict[Cell, Fighter] = {}  # who stands where (mirrors the grid's cells)

    # ------------------------------------------------------------------ where fighters are
    def cell(self, f: Fighter) -> Cell:
        """The cell ``f`` stands on (or last stood on, once off the grid)."""
        return self.last_cell[f.unique_id]

    def on_grid(self, f: Fighter) -> bool:
        """Whether ``f`` still stands on the map."""
        return f.cell is not None

    def free(self, c: Cell) -> bool:
        """Whether one may step onto ``c``: on the map, open ground, nobody there."""
        return self.spec.inside(c) and c not in self._terrain_blocks and c not in self.standing

    def put(self, f: Fighter, c: Cell) -> None:
        """Stand ``f`` on cell ``c`` (a hazard cell too: that is where it was thrown)."""
        if f.cell is not None:
            del self.standing[self.last_cell[f.unique_id]]
        f.cell = self.grid[c]
        self.standing[c] = f
        self.last_cell[f.unique_id] = c

    def leave(self, f: Fighter) -> None:
        """Take ``f`` off the grid (fallen, fled); its last cell stays for pictures."""
        if f.cell is not None:
            del self.standing[self.last_cell[f.unique_id]]
        f.cell = None

    def deploy(self, f: Fighter) -> None:
        """Place a new fighter on the map.

        Its ``at:`` cell, else the free cell of its side's zone nearest the enemy's zones,
        else the free cell nearest its zone.
        """
        at = self.spec.at.get(f.name)
        if at is not None and self.free(at):
            self.put(f, at)
            return
        zone = self.spec.zones.get(f.side, ())
        enemy = [c for s, cells in self.spec.zones.items() if s != f.side for c in cells]
        centre = _centre(enemy) if enemy else _centre(zone or [(0, 0)])

        def front_first(c: Cell) -> tuple[float, int, int]:
            return ((c[0] - centre[0]) ** 2 + (c[1] - centre[1]) ** 2, c[1], c[0])

        for c in sorted(zone, key=front_first):
            if self.free(c):
                self.put(f, c)
                return
        anchor = at or (zone[0] if zone else (0, 0))
        spare = [c for c in self.spec.open_cells() if self.free(c)]
        if not spare:
            raise_full(self.spec, f.name)
        self.put(f, min(spare, key=lambda c: (space.distance(c, anchor), c[1], c[0])))

    def fallen(self, f: Fighter) -> None:
        """Book a status change on the grid.

        The fallen and the fled leave it; a fighter back in the fight stands again on its
        cell or the nearest free one.
        """
        if f.status in (Status.ACTIVE, Status.FLEEING):
            if not self.on_grid(f):
                here = self.cell(f)
                if self.free(here):
                    self.put(f, here)
                else:
                    spare = [c for c in self.spec.open_cells() if self.free(c)]
                    if spare:
                        self.put(f, min(spare, key=lambda c: (space.distance(c, here), c)))
        elif self.on_grid(f):
            self.leave(f)

    # ------------------------------------------------------------------ reach and range
    def range_ft(self, f: Fighter) -> float:
        """How far ``f``'s weapon reaches, in feet (0: melee, the neighbouring cells)."""
        return self.reach(f)

    def in_reach(self, f: Fighter, e: Fighter) -> bool:
        """Whether ``f`` can attack ``e`` from where both stand now."""
        if not (self.on_grid(f) and self.on_grid(e)):
            return False
        a, c = self.cell(f), self.cell(e)
        d = space.distance(a, c)
        reach = self.range_ft(f)
        if reach <= 0:
            return d == 1
        if d == 1 and self.b.opts.ranged_in_melee == "no":
            return False
        return d * self.spec.cell_feet <= reach and line_of_sight(self.spec, a, c)

    def band_of(self, f: Fighter, e: Fighter) -> str:
        """The range band of ``f`` shooting at ``e`` (``short`` for melee)."""
        reach = self.range_ft(f)
        if reach <= 0 or self.b.opts.range_bands == "off":
            return "short"
        return band(space.feet(self.spec, self.cell(f), self.cell(e)), reach)

    def any_in_reach(self, f: Fighter, enemies: Sequence[Fighter]) -> bool:
        """Whether ``f`` can attack any of ``enemies`` from where it stands."""
        if self.range_ft(f) <= 0:
            if not self.on_grid(f):
                return False
            x, y = self.cell(f)
            side = f.side
            for dx, dy in space.NEIGHBOURS:
                e = self.standing.get((x + dx, y + dy))
                if e is not None and e.side != side and e.in_fight:
                    return True
            return False
        return any(self.in_reach(f, e) for e in enemies)

    def targets(self, f: Fighter, enemies: Iterable[Fighter]) -> list[Fighter]:
        """The enemies ``f`` can attack from where it stands."""
        return [e for e in enemies if self.in_reach(f, e)]

    def engaged(self, f: Fighter) -> bool:
        """Whether an active enemy stands next to ``f``."""
        return any(e.side != f.side and e.active for e in self._around(self.cell(f)) if e is not f)

    def engaged_with(self, f: Fighter, e: Fighter) -> bool:
        """Whether ``f`` and ``e`` stand next to each other."""
        return (
            self.on_grid(f) and self.on_grid(e) and space.distance(self.cell(f), self.cell(e)) == 1
        )

    def cover(self, target: Fighter, attacker: Fighter | None = None) -> Terrain | None:
        """The cover ``target``'s cell gives against ``attacker`` (none against a neighbour)."""
        if not self.on_grid(target):
            return None
        c = self.spec.cover_at(self.cell(target))
        if c is None or (
            attacker is not None and space.distance(self.cell(attacker), self.cell(target)) == 1
        ):
            return None
        return c

    # ------------------------------------------------------------------ movement
    def allowance(self, f: Fighter, feet: float) -> int:
        """Cells ``f`` may move with ``feet`` of movement, less its quicksand penalty [S]."""
        return max(0, space.cells_for(self.spec, feet - f.wg.movement_penalty_ft))

    def goal(self, f: Fighter, enemies: Sequence[Fighter]) -> Cell | None:
        """Where ``f``'s formation takes it (None: it holds its ground).

        ``advance``: the nearest enemy. ``leader``: the enemy leader while it stands, else
        the nearest enemy. ``flank``: the free cell next to its target (the tactic's pick)
        farthest from the target's allies. ``hold``: nowhere.
        """
        formation = self.b.tactic_of(f).formation
        standing = [e for e in enemies if self.on_grid(e)]
        if formation == "hold" or not standing:
            return None
        here = self.cell(f)
        nearest = min(standing, key=lambda e: (space.distance(here, self.cell(e)), e.unique_id))
        if formation == "leader":
            lead = next((e for e in standing if e.leader and e.active), None)
            return self.cell(lead or nearest)
        if formation == "flank":
            t = self.b.tactic_of(f).choose_target(standing, self.b.rng) or nearest
            tc = self.cell(t)
            mates = [self.cell(e) for e in standing if e.side == t.side and e is not t]
            around = [c for dx, dy in space.NEIGHBOURS if self.free(c := (tc[0] + dx, tc[1] + dy))]
            if not around or not mates:
                return tc

            def exposed(c: Cell) -> tuple[int, int, int, int]:
                far = min(space.distance(c, m) for m in mates)
                return (-far, space.distance(here, c), c[1], c[0])

            return min(around, key=exposed)
        return self.cell(nearest)

    def step(self, f: Fighter, goal: Cell) -> Cell | None:
        """The free neighbouring cell that brings ``f`` nearer ``goal`` (None: none does).

        Nearer by the way around walls and hazards; if others stand on every such cell, by
        the way around them too, so a crowd flows round its front rank instead of waiting.
        """
        here = self.cell(f)
        pick = space.step_by(here, goal, self.spec.ways_to(goal), self.free)
        if pick is None and any(
            self.free((here[0] + dx, here[1] + dy)) for dx, dy in space.NEIGHBOURS
        ):
            crowd = self._terrain_blocks | (self.standing.keys() - {here})
            way = space.path_lengths(self.spec, goal, crowd, until=here)
            pick = space.step_by(here, goal, way, self.free)
        return pick

    def move(
        self, f: Fighter, goal: Cell, cells: int, done: Callable[[], bool] | None = None
    ) -> list[Cell]:
        """Move ``f`` up to ``cells`` steps toward ``goal``; the cells entered, in order.

        It stops early once ``done()`` is true (e.g. a target is in reach).
        """
        path: list[Cell] = []
        for _ in range(cells):
            if done is not None and done():
                break
            nxt = self.step(f, goal)
            if nxt is None:
                break
            self.put(f, nxt)
            path.append(nxt)
        if path and self.b.log is not None:
            self.b.note(f.name, "moves", result=_path_text(path))
        return path

    def _away_step(self, f: Fighter, foes: Sequence[Cell]) -> Cell | None:
        """The free neighbouring cell farthest from the nearest of ``foes`` (None: none)."""
        here = self.cell(f)

        def safety(c: Cell) -> tuple[int, int, int, int]:
            near = min(space.distance(c, e) for e in foes)
            return (near, sum(space.distance(c, e) for e in foes), -c[1], -c[0])

        moves = [c for dx, dy in space.NEIGHBOURS if self.free(c := (here[0] + dx, here[1] + dy))]
        best = max(moves, key=safety, default=None)
        return best if best is not None and safety(best) > safety(here) else None

    def can_step_away(self, f: Fighter, enemies: Sequence[Fighter]) -> bool:
        """Whether ``f`` has a free cell to back away to."""
        foes = [self.cell(e) for e in enemies if self.on_grid(e)]
        return bool(foes) and self._away_step(f, foes) is not None

    def away(
        self,
        f: Fighter,
        cells: int,
        enemies: Sequence[Fighter],
        done: Callable[[], bool] | None = None,
    ) -> list[Cell]:
        """Move ``f`` up to ``cells`` steps away from ``enemies`` (disengage, flee).

        It stops early once ``done()`` is true and no enemy stands next to it.
        """
        path: list[Cell] = []
        foes = [self.cell(e) for e in enemies if self.on_grid(e)]
        if not foes:
            return path
        for _ in range(cells):
            if path and done is not None and not self.engaged(f) and done():
                break
            best = self._away_step(f, foes)
            if best is None:
                break
            self.put(f, best)
            path.append(best)
        if path and self.b.log is not None:
            self.b.note(f.name, "moves away", result=_path_text(path))
        return path

    # ------------------------------------------------------------------ shoves and hazards
    def shove(self, pusher: Fighter, target: Fighter, feet: float) -> str:
        """Shove ``target`` ``feet`` away from ``pusher``; the hazard it lands in, if any."""
        if not (self.on_grid(pusher) and self.on_grid(target)):
            return ""
        taken = {self.cell(x) for x in self._everyone() if x is not target}
        path = space.shove(self.spec, self.cell(pusher), self.cell(target), feet, taken)
        if not path:
            return ""
        self.put(target, path[-1])
        if self.b.log is not None:
            self.b.note(target.name, "is shoved", result=_path_text(list(path)))
        return self.spec.hazard(path[-1])

    def hazard_beside(self, target: Fighter) -> Cell | None:
        """A hazard cell next to ``target`` that nobody stands in (the first in a fixed order)."""
        if not self.on_grid(target):
            return None
        tc = self.cell(target)
        for dx, dy in space.NEIGHBOURS:
            c = (tc[0] + dx, tc[1] + dy)
            if self.spec.hazard(c) and c not in self.standing:
                return c
        return None

    # ------------------------------------------------------------------ fronts and pictures
    def fronts(self, fighters: Iterable[Fighter]) -> list[list[Fighter]]:
        """2W2P fronts among ``fighters``: groups linked by enemies beside them (RULES.md 2.4).

        A fighter fights in a front only when an enemy stands next to it: 2W2P melee
        reaches the neighbouring cells and no further (:meth:`range_ft` is 0 for every 2W2P
        fighter; no 2W2P weapon reaches beyond them), so an ally behind an engaged ally is in
        no front, neither rolling nor hit (:func:`sim.space.map.fronts`).
        """
        by_name = {f.name: f for f in fighters if self.on_grid(f)}
        groups = space.fronts({n: (f.side, self.cell(f)) for n, f in by_name.items()})
        return [[by_name[n] for n in g] for g in groups]

    def snapshot(self) -> None:
        """Keep every fighter's cell and status for this round's picture."""
        self.snapshots[self.b.round] = [
            Mark(f.name, f.side, self.cell(f), f.status.value)
            for f in self.b.all_fighters()
            if f.unique_id in self.last_cell
        ]

    # ------------------------------------------------------------------ helpers
    def _around(self, c: Cell) -> list[Fighter]:
        out: list[Fighter] = []
        for dx, dy in space.NEIGHBOURS:
            f = self.standing.get((c[0] + dx, c[1] + dy))
            if f is not None:
                out.append(f)
        return out

    def _everyone(self) -> list[Fighter]:
        return [f for f in self.b.all_fighters() if self.on_grid(f)]


def _centre(cells: Sequence[Cell]) -> tuple[float, float]:
    return (sum(c[0] for c in cells) / len(cells), sum(c[1] for c in cells) / len(cells))


def _path_text(path: list[Cell]) -> str:
    return " -> ".join(f"({x},{y})" for x, y in path)


def raise_full(spec: MapSpec, name: str) -> NoReturn:
    """No free cell left for ``name``."""
    from sim.errors import SimError

    raise SimError(f"no free cell on the {spec.width} x {spec.height} map for {name}")
