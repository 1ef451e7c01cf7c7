"""sim.space.map: distances, movement, shoves and fronts on small maps."""

from __future__ import annotations

import random

import pytest

from sim import space
from sim.errors import SimError
from sim.space.map import MapSpec, Terrain


def test_distances_count_a_diagonal_step_as_one_cell():
    m = MapSpec(10, 10, cell_size=5)
    assert space.distance((0, 0), (3, 4)) == 4
    assert space.feet(m, (0, 0), (3, 4)) == 20
    assert space.adjacent((2, 2), (3, 3)) and not space.adjacent((2, 2), (4, 2))


def test_cell_size_in_yards_and_ranges():
    m = MapSpec(100, 3, cell_size=10, unit="yd")
    assert m.cell_feet == 30
    assert space.in_range(m, (0, 0), (40, 0), 400 * 3)  # a warbow's 400 yards
    assert not space.in_range(m, (0, 0), (41, 0), 400 * 3)
    assert space.cells_for(m, 10) == 0  # 10 ft is under one 30 ft cell


def test_step_toward_goes_around_walls_and_occupied_cells():
    wall = Terrain("wall", ((1, 0), (1, 1)))
    m = MapSpec(3, 3, terrain=(wall,))
    assert space.step_toward(m, (0, 0), (2, 0)) == (0, 1)
    assert space.step_toward(m, (0, 1), (2, 0)) == (1, 2)
    assert space.step_toward(m, (0, 1), (2, 0), blocked=[(1, 2)]) == (0, 1)  # nowhere better
    assert space.step_toward(MapSpec(5, 5), (0, 0), (4, 4)) == (1, 1)


def test_a_spear_shoves_ten_feet_and_stops_at_walls_and_cliffs():
    m = MapSpec(8, 3, cell_size=5)
    assert space.shove(m, (1, 1), (2, 1), 10) == ((3, 1), (4, 1))
    assert space.shove(m, (2, 2), (3, 1), 10) == ((4, 0),)  # the map's edge
    walled = MapSpec(8, 3, terrain=(Terrain("wall", ((4, 1),)),))
    assert space.shove(walled, (1, 1), (2, 1), 10) == ((3, 1),)
    cliff = MapSpec(8, 3, terrain=(Terrain("hazard", ((3, 1),), "cliff"),))
    path = space.shove(cliff, (1, 1), (2, 1), 10)
    assert path == ((3, 1),) and cliff.hazard(path[-1]) == "cliff"
    assert space.shove(m, (2, 1), (2, 1), 10) == ()


def test_cover_and_hazards_by_cell():
    m = MapSpec(
        4,
        4,
        terrain=(
            Terrain("cover", ((0, 0), (1, 0)), value=1),
            Terrain("cover", ((1, 0),), "trees", value=3),
            Terrain("hazard", ((2, 2),), "quicksand"),
        ),
    )
    assert m.cover_at((0, 0)) == Terrain("cover", ((0, 0), (1, 0)), "ruin_wall", 1)
    assert m.cover_at((1, 0)).name == "trees" and m.cover_at((1, 0)).value == 3  # later wins
    assert m.cover_at((3, 3)) is None
    assert m.hazard((2, 2)) == "quicksand" and m.hazard((0, 0)) == ""


def fighters(**cells):
    return {name: (name[0], cell) for name, cell in cells.items()}  # side = first letter


def test_fronts_split_when_a_gap_opens():
    line = fighters(a1=(0, 0), b1=(1, 0), a2=(2, 0), b2=(3, 0))
    assert space.fronts(line) == [("a1", "a2", "b1", "b2")]
    gap = fighters(a1=(0, 0), b1=(1, 0), a2=(3, 0), b2=(4, 0))
    assert space.fronts(gap) == [("a1", "b1"), ("a2", "b2")]


def test_fronts_merge_when_fighters_meet():
    apart = fighters(a1=(0, 0), b1=(1, 1), a2=(5, 5), b2=(6, 5))
    assert space.fronts(apart) == [("a1", "b1"), ("a2", "b2")]
    met = {**apart, "a3": ("a", (3, 3)), "b3": ("b", (4, 4))}
    # a3 touches b1's neighbour chain? (3,3)-(4,4) adjacent, (4,4)-(5,5) adjacent: merge
    assert space.fronts(met) == [("a1", "b1"), ("a2", "a3", "b2", "b3")]


def test_only_fighters_next_to_an_enemy_are_in_a_front():
    # a column in a one-cell corridor: only the two face to face fight (RULES.md 2.4)
    column = fighters(a3=(0, 0), a2=(1, 0), a1=(2, 0), b1=(3, 0), b2=(4, 0), b3=(5, 0))
    assert space.fronts(column) == [("a1", "b1")]
    # an ally beside an engaged ally, with no enemy beside it, does not fight
    beside = fighters(a1=(1, 1), b1=(2, 1), a2=(0, 0), a3=(0, 2), b2=(3, 1))
    assert space.fronts(beside) == [("a1", "b1")]
    # back to back: two allies touching, each facing its own enemy, are two fronts
    back = fighters(b1=(0, 0), a1=(1, 0), a2=(2, 0), b2=(3, 0))
    assert space.fronts(back) == [("a1", "b1"), ("a2", "b2")]


def test_two_enemies_beside_one_fighter_are_one_front():
    between = fighters(b1=(0, 0), a1=(1, 0), b2=(2, 0))
    assert space.fronts(between) == [("a1", "b1", "b2")]
    corners = fighters(b1=(0, 0), a1=(1, 1), b2=(2, 2), a2=(4, 4))  # b1, b2 not adjacent
    assert space.fronts(corners) == [("a1", "b1", "b2")]
    # two fighters on one enemy, and a chain through enemies, is one front however long
    chain = fighters(a1=(0, 0), a2=(0, 2), b1=(0, 1), b2=(1, 3), a3=(2, 4))
    assert space.fronts(chain) == [("a1", "a2", "a3", "b1", "b2")]


def test_allies_alone_are_no_front_and_order_does_not_matter():
    assert space.fronts(fighters(a1=(0, 0), a2=(1, 0))) == []
    p = fighters(b2=(3, 0), a1=(0, 0), b1=(1, 0), a2=(2, 0))
    assert space.fronts(dict(reversed(list(p.items())))) == space.fronts(p)


def test_bad_maps_are_clear_errors():
    with pytest.raises(SimError, match="off the 3 x 3 map"):
        MapSpec(3, 3, terrain=(Terrain("wall", ((3, 0),)),))
    with pytest.raises(SimError, match="unknown hazard 'lavaa'"):
        Terrain("hazard", ((0, 0),), "lavaa")
    with pytest.raises(SimError, match="unknown unit"):
        MapSpec(3, 3, unit="m")


def test_the_grid_is_a_mesa_moore_grid_with_the_battle_random():
    grid = space.build_grid(MapSpec(4, 3), random.Random(5))
    assert grid.dimensions == (4, 3)
    cell = grid[(1, 1)]
    assert len(cell.neighborhood) == 8
    a = space.build_grid(MapSpec(4, 3), random.Random(5)).select_random_empty_cell()
    b = space.build_grid(MapSpec(4, 3), random.Random(5)).select_random_empty_cell()
    assert a.coordinate == b.coordinate


def test_a_map_drawn_as_text():
    m = space.from_picture(
        ["11.#..^", "1..T.22", "..~#.2P"],
        ["north", "south"],
        legend={"P": ("cover", "pit", 0)},
        at={"Hero": (4, 0)},
    )
    assert (m.width, m.height) == (7, 3)
    assert m.zones == {"north": ((0, 0), (1, 0), (0, 1)), "south": ((5, 1), (6, 1), (5, 2))}
    assert m.walls() == {(3, 0), (3, 2)}
    assert m.hazard((6, 0)) == "cliff" and m.hazard((2, 2)) == "quicksand"
    assert m.cover_at((3, 1)).name == "trees" and m.cover_at((6, 2)).value == 0
    assert m.at == {"Hero": (4, 0)}
    assert (0, 0) in m.open_cells() and (3, 0) not in m.open_cells()
    with pytest.raises(SimError, match=r"row 1, column 2: unknown map character '\?'"):
        space.from_picture([".?"], ["a", "b"])
    with pytest.raises(SimError, match="row 1, column 1: zone 3 but there are 2 sides"):
        space.from_picture(["3"], ["a", "b"])
    with pytest.raises(SimError, match="cannot start on"):
        space.from_picture(["#."], ["a", "b"], at={"x": (0, 0)})
