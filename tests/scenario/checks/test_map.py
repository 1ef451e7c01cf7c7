"""The scenario file's ``map`` key: a battlefield drawn as text, loaded into ``Scenario.map``."""

import pickle

import pytest

from sim.scenario import load_scenario
from sim.space.map import MapSpec
from tests.scenario.helpers import ROOT, errors, load

SCENARIOS = sorted((ROOT / "scenarios").glob("*.yaml"))

SIDES = """\
sides:
  north:
    fighters:
      - {name: Horatius}
      - {name: guard, count: 2}
  south:
    fighters:
      - {name: levy, count: 4}
"""

BRIDGE = (
    SIDES
    + """\
map:
  cell: 10 yd
  picture: |
    ^^^^^^^^^^^^^^^^^^
    11....TT......2222
    11....##..P...2222
    ......~~..Q....,.W
  legend:
    P: {cover: pit, value: 0}
    Q: {hazard: quicksand}
    W: wall
    ",": open
  at:
    Horatius: [9, 1]
"""
)
KNOWN = "known: '.', '#', 'T', 'R', 'B', '^', '~', '*', 'o' and the zone digits 1-2"


# --------------------------------------------------------------------------- good maps
def test_a_map_loads_with_zones_terrain_and_placements():
    m = load(BRIDGE).map
    assert isinstance(m, MapSpec)
    assert (m.width, m.height) == (18, 4)
    assert (m.cell_size, m.unit, m.cell_feet) == (10.0, "yd", 30.0)
    assert m.zones == {
        "north": ((0, 1), (1, 1), (0, 2), (1, 2)),
        "south": ((14, 1), (15, 1), (16, 1), (17, 1), (14, 2), (15, 2), (16, 2), (17, 2)),
    }
    assert m.hazard((0, 0)) == "cliff" and m.hazard((6, 3)) == "quicksand"
    assert m.hazard((10, 3)) == "quicksand"  # Q from the legend
    assert m.cover_at((6, 1)).name == "trees" and m.cover_at((6, 1)).value is None
    assert m.cover_at((10, 2)).name == "pit" and m.cover_at((10, 2)).value == 0
    assert m.walls() == {(6, 2), (7, 2), (17, 3)}
    assert (15, 3) in m.open_cells()  # "," is open ground
    assert m.at == {"Horatius": (9, 1)}


def test_map_defaults_and_cell_sizes():
    sc = load(SIDES + "map:\n  picture: |\n    111..2222\n")
    assert (sc.map.cell_size, sc.map.unit, sc.map.cell_feet) == (5.0, "ft", 5.0)
    assert sc.map.at == {} and sc.map.terrain == ()
    assert (sc.map.width, sc.map.height) == (9, 1)
    for cell, feet in (("2.5 ft", 2.5), ("2.5", 2.5), ("3", 3.0), ("10yd", 30.0), ("1 yd", 3.0)):
        m = load(SIDES + f"map: {{cell: {cell}, picture: '111..2222'}}\n").map
        assert m.cell_feet == feet


def test_a_picture_keeps_its_rows_and_pads_short_ones():
    m = load(SIDES + "map:\n  picture: |\n\n    1.2\n    11..222\n").map
    assert (m.width, m.height) == (7, 3)  # the leading empty line is an open row
    assert m.zones["north"] == ((0, 1), (0, 2), (1, 2))
    assert m.open_cells()[:3] == [(0, 0), (1, 0), (2, 0)]


def test_zone_counts_include_at_and_reinforcements():
    text = (
        SIDES
        + """\
map:
  picture: |
    11...2222
  at: {Horatius: [3, 0], rider: [4, 0]}
events:
  - {round: 2, reinforce: north, fighters: [{name: rider}]}
"""
    )
    sc = load(text)
    assert sc.map.at == {"Horatius": (3, 0), "rider": (4, 0)}


def test_a_side_placed_by_at_needs_no_zone():
    text = SIDES + "map:\n  picture: '...2222'\n  at: {Horatius: [0, 0], guard 1: [1, 0], "
    m = load(text + "guard 2: [2, 0]}\n").map
    assert "north" not in m.zones and m.at["guard 2"] == (2, 0)


def test_without_a_map_nothing_changes():
    assert load(SIDES).map is None


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.name for p in SCENARIOS])
def test_every_example_scenario_loads_with_a_map_only_if_it_draws_one(path):
    sc = load_scenario(path)
    assert (sc.map is not None) == ("\nmap:" in path.read_text(encoding="utf-8"))
    if sc.campaign is not None:
        assert all(b.map is None for b in sc.campaign.battles)


def test_a_scenario_with_a_map_pickles():
    sc = load(BRIDGE)
    copied = pickle.loads(pickle.dumps(sc))
    assert copied == sc and copied.map.at == {"Horatius": (9, 1)}


def test_a_campaign_fights_every_battle_on_the_map():
    text = (
        SIDES
        + "map: {picture: '111..2222'}\n"
        + "campaign:\n  side: north\n  battles:\n    - {}\n"
        + "    - {sides: {south: {fighters: [{name: raider, count: 5}]}}}\n"
    )
    assert errors(text) == [
        "t.yaml:9: map.picture: side 'south' has 5 fighters in campaign.battles[1] without an "
        "'at:' cell but its zone (digit 2) has 4 cells"
    ]
    sc = load(text.replace("count: 5", "count: 3"))
    assert [b.map for b in sc.campaign.battles] == [sc.map, sc.map]


# --------------------------------------------------------------------------- bad maps
BAD = {
    "unknown key, no picture": (
        "map:\n  pictur: |\n    1..2\n",
        [
            "t.yaml:9: map.picture: required: the map drawn as text, one line per row (picture: |)",
            "t.yaml:10: map.pictur: unknown key 'pictur'; did you mean 'picture'?",
        ],
    ),
    "not a mapping": (
        "map: [1]\n",
        ["t.yaml:9: map: expected a mapping with picture, cell, legend and at, got a list"],
    ),
    "picture not text": ("map: {picture: 3}\n", ["t.yaml:9: map.picture: expected text, got 3"]),
    "picture empty": ("map: {picture: ''}\n", ["t.yaml:9: map.picture: must not be empty"]),
    "picture characters, at their rows' lines": (
        "map:\n  picture: |\n    111....2222\n\n    1.?.3..2 2?\n",
        [
            f"t.yaml:13: map.picture: row 3, column 3: unknown map character '?'; {KNOWN}",
            "t.yaml:13: map.picture: row 3, column 5: zone 3 but there are 2 sides",
            f"t.yaml:13: map.picture: row 3, column 9: unknown map character ' '; {KNOWN}",
        ],
    ),
    "legend characters join the known ones": (
        "map:\n  picture: |\n    11.P.X.22\n  legend:\n    P: wall\n",
        [
            "t.yaml:11: map.picture: row 1, column 6: unknown map character 'X'; known: '.', "
            "'#', 'T', 'R', 'B', '^', '~', '*', 'o', 'P' and the zone digits 1-2"
        ],
    ),
    "a big map": (
        "map: {picture: '" + "." * 1001 + "'}\n",
        ["t.yaml:9: map.picture: a map is at most 1000 x 1000 cells, got 1001 x 1"],
    ),
    "legend entries": (
        """\
map:
  picture: |
    111.PQ..2222
  legend:
    PP: wall
    "1": wall
    P: wal
    Q: trees
    X: {cover: trees, hazard: fire}
    Y: {cover: pitt}
    Z: {hazard: lavaa, value: 1}
    V: {cover: pit, value: -1}
    U: {cove: pit}
    S: 3
    " ": open
""",
        [
            "t.yaml:13: map.legend.PP: a map character is one visible character, got 'PP'",
            "t.yaml:14: map.legend.1: digits 1-9 mark the sides' deployment zones",
            "t.yaml:15: map.legend.P: expected wall, open, {cover: NAME} or {hazard: NAME}, "
            "got 'wal'; did you mean 'wall'?",
            "t.yaml:16: map.legend.Q: expected wall, open, {cover: NAME} or {hazard: NAME}, "
            "got 'trees'; write {cover: trees}",
            "t.yaml:17: map.legend.X: expected one of cover or hazard, got both",
            "t.yaml:18: map.legend.Y.cover: unknown cover 'pitt'; did you mean 'pit'?",
            "t.yaml:19: map.legend.Z.hazard: unknown hazard 'lavaa'; known: 'falling_objects', "
            "'fire', 'spiked_pit', 'cliff', 'storm', 'tangle', 'quicksand', 'acid'",
            "t.yaml:19: map.legend.Z.value: only a cover has a value",
            "t.yaml:20: map.legend.V.value: must be 0 or more, got -1",
            "t.yaml:21: map.legend.U.cove: unknown key 'cove'; did you mean 'cover'?",
            "t.yaml:22: map.legend.S: expected wall, open, {cover: NAME} or {hazard: NAME}, got 3",
            "t.yaml:23: map.legend. : a map character is one visible character, got ' '",
        ],
    ),
    "legend not a mapping": (
        "map: {picture: '11..22', legend: [P]}\n",
        ["t.yaml:9: map.legend: expected a mapping of map character to terrain, got a list"],
    ),
    "at cells": (
        """\
map:
  picture: |
    111.#~.2222
  at:
    Horatio: [0, 0]
    guard: [0, 0]
    guard 1: [4, 0]
    guard 2: [5, 0]
    levy 1: [11, 0]
    levy 2: [1, 2, 3]
    levy 3: [x, 1]
    levy 4: [1, -1]
    Horatius: [0, 0]
""",
        [
            "t.yaml:13: map.at.Horatio: 'Horatio' is not a fighter; did you mean 'Horatius'?",
            "t.yaml:14: map.at.guard: 'guard' is not a fighter; did you mean 'guard 2' or "
            "'guard 1'?",
            "t.yaml:15: map.at.guard 1: cannot start on [4, 0]: it is a wall",
            "t.yaml:16: map.at.guard 2: cannot start on [5, 0]: it is a hazard (quicksand)",
            "t.yaml:17: map.at.levy 1: cell [11, 0] is off the 11 x 1 map (x 0..10, y 0..0)",
            "t.yaml:18: map.at.levy 2: expected a cell [x, y]: column and row, whole numbers "
            "from 0, got a list",
            "t.yaml:19: map.at.levy 3: expected a cell [x, y]: column and row, whole numbers "
            "from 0, got a list",
            "t.yaml:20: map.at.levy 4: cell [1, -1] is off the 11 x 1 map (x 0..10, y 0..0)",
        ],
    ),
    "two fighters on one cell": (
        "map:\n  picture: '111..2222'\n  at: {Horatius: [3, 0], guard 1: [3, 0]}\n",
        ["t.yaml:11: map.at.guard 1: cell [3, 0] is taken by 'Horatius'"],
    ),
    "at not a mapping": (
        "map:\n  picture: '11..22'\n  at: [Horatius]\n",
        ["t.yaml:11: map.at: expected a mapping of fighter name to a cell [x, y], got a list"],
    ),
    "zones too small, reinforcements counted": (
        """\
map:
  picture: |
    11..22.
    ......2
  at: {levy 1: [6, 0], guard 1: [5, 0]}
events:
  - {round: 2, reinforce: north, fighters: [{name: rider}]}
""",
        [
            "t.yaml:10: map.picture: side 'north' has 3 fighters without an 'at:' cell but its "
            "zone (digit 1) has 2 cells",
            "t.yaml:10: map.picture: side 'south' has 3 fighters without an 'at:' cell but its "
            "zone (digit 2) has 3 cells (1 taken by 'at:')",
        ],
    ),
    "no zone": (
        "map:\n  picture: '111....'\n",
        [
            "t.yaml:10: map.picture: side 'south' has 4 fighters without an 'at:' cell but the "
            "picture has no zone for it (digit 2)"
        ],
    ),
}


@pytest.mark.parametrize(("tail", "expected"), BAD.values(), ids=BAD.keys())
def test_bad_maps_are_reported_exactly(tail, expected):
    assert errors(SIDES + tail) == expected


@pytest.mark.parametrize(
    ("cell", "message"),
    [
        ("3 m", "unknown unit 'm'; known: 'ft', 'yd'"),
        ("10 yards", "unknown unit 'yards'; did you mean 'yd'?"),
        ("0 ft", "must be above 0, got '0 ft'"),
        ("-2", "must be above 0, got -2"),
        ("five", "expected a cell size such as 5 ft or 10 yd, got 'five'"),
        ("true", "expected a cell size such as 5 ft or 10 yd, got true"),
    ],
)
def test_bad_cell_sizes(cell, message):
    assert errors(SIDES + f"map: {{cell: {cell}, picture: '111..2222'}}\n") == [
        f"t.yaml:9: map.cell: {message}"
    ]


def test_the_error_in_the_brief_names_the_picture_rows_line():
    text = BRIDGE.replace("11....##..P...2222", "11....##..P.?.2222")
    assert errors(text) == [
        "t.yaml:14: map.picture: row 3, column 13: unknown map character '?'; known: '.', '#', "
        "'T', 'R', 'B', '^', '~', '*', 'o', 'P', 'Q', 'W', ',' and the zone digits 1-2"
    ]


def test_many_bad_rows_are_counted_after_ten():
    text = SIDES + "map:\n  picture: |\n" + "    1?2\n" * 13
    lines = errors(text)
    assert len(lines) == 11
    assert lines[0].startswith("t.yaml:11: map.picture: row 1, column 2: unknown map character")
    assert lines[-1] == (
        "t.yaml:21: map.picture: row 11: 3 more rows have characters the map does not know"
    )


def test_map_overrides_are_reported_against_set():
    text = SIDES + "map: {picture: '111..2222'}\n"
    assert errors(text, ["map.cell=3 m", "map.at={Horatio: [0, 0]}"]) == [
        "<--set>: map.cell: unknown unit 'm'; known: 'ft', 'yd'",
        "<--set>: map.at.Horatio: 'Horatio' is not a fighter; did you mean 'Horatius'?",
    ]
    assert errors(text, ["map.picture=1?1..2222"]) == [
        f"<--set>: map.picture: row 1, column 2: unknown map character '?'; {KNOWN}"
    ]
    assert load(text, ["map.cell=2 yd"]).map.cell_feet == 6.0


def test_an_unknown_top_level_key_suggests_map():
    assert errors(SIDES + "mapp: {picture: '11..22'}\n") == [
        "t.yaml:9: mapp: unknown key 'mapp'; did you mean 'map'?"
    ]
