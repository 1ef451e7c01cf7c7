"""sim.frame.field and the battle on a map: movement, shoves, hazards, range, cover, fronts
(issue 9).

Each scripted test builds a tiny map with every fighter placed by hand, starts round 1 and
gives one fighter its turn, so what happens follows from the rules and not from initiative.
"""

from __future__ import annotations

import textwrap
from dataclasses import replace
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from sim import space
from sim.battle.battle import Battle
from sim.frame.field import band, line_of_sight
from sim.rules import d6 as d6_rules
from sim.rules import deathwish as deathwish_rules
from sim.rules.common import Status
from sim.scenario import parse_scenario
from sim.systems import common
from sim.systems import wargame as wgsys

ROOT = Path(__file__).resolve().parents[1]


def make(doc: str, rows: list[str], at: dict, *, seed: int = 1, cell: float = 5, unit="ft", **opts):
    """A battle of the YAML ``doc`` on the map ``rows`` with fighters placed by ``at``."""
    sc = parse_scenario(textwrap.dedent(doc))
    m = space.from_picture(rows, [s.name for s in sc.sides], cell_size=cell, unit=unit, at=at)
    sc = replace(sc, map=m, battle={**sc.battle, **opts})
    return Battle(sc, seed=seed, events=True)


def turn(b: Battle, name: str) -> list[dict]:
    """Start round 1 and give ``name`` its turn; the events of that turn."""
    if b.round == 0:
        b.round = 1
        b.harm_this_round = False
        b._start_round()
    start = len(b.log)
    b.take_turn(who(b, name))
    return b.log[start:]


def who(b: Battle, name: str):
    return next(f for f in b.all_fighters() if f.name == name)


def acts(events: list[dict]) -> list[tuple[str, str]]:
    return [(e["actor"], e["action"]) for e in events]


DUEL = """\
rules: wargame
sides:
  north:
    tactic: {name: balanced, params: {formation: %s}}
    fighters: [{name: A, hit_dice: 4, weapon: %s}]
  south:
    tactic: {name: balanced, params: {dodge: never}}
    fighters: [{name: B, hit_dice: 8}]
"""


def duel(rows, at, formation="advance", weapon="plain", tactic=None, **kw):
    doc = DUEL % (formation, weapon)
    if tactic:
        doc = doc.replace(
            "name: balanced, params: {formation", f"name: {tactic}, params: {{formation"
        )
    return make(doc, rows, at, **kw)


# --------------------------------------------------------------------------- movement
def test_closing_in_is_a_move_maneuver_of_move_ft():
    b = duel(["." * 12], {"A": (0, 0), "B": (11, 0)})
    events = turn(b, "A")
    assert acts(events) == [("A", "moves")]
    assert events[0]["result"] == "(1,0) -> (2,0) -> (3,0) -> (4,0) -> (5,0) -> (6,0)"  # 30 ft
    a = who(b, "A")
    assert a.wg.spendable == 2  # the move cost 2 HD; 1 reserved: no second maneuver
    assert b.field.cell(a) == (6, 0) and a.cell.coordinate == (6, 0)  # a Mesa cell agent
    events = turn(b, "B")  # B closes in and stops once A is in reach
    assert events[0]["result"] == "(10,0) -> (9,0) -> (8,0) -> (7,0)"


def test_moving_goes_around_walls_and_stops_in_reach():
    rows = ["..#..", "..#..", "....."]
    b = duel(rows, {"A": (0, 0), "B": (4, 0)}, move_ft=50)
    events = turn(b, "A")
    assert events[0]["result"] == "(1,1) -> (2,2) -> (3,1)"
    assert space.adjacent(b.field.cell(who(b, "A")), (4, 0))


def test_a_held_line_does_not_move():
    b = duel(["." * 12], {"A": (0, 0), "B": (11, 0)}, formation="hold")
    assert turn(b, "A") == [] and who(b, "A").wg.spendable == 4


def test_flanking_takes_the_side_away_from_the_targets_friends():
    doc = """\
    rules: wargame
    sides:
      north:
        tactic: {name: balanced, params: {formation: flank}}
        fighters: [{name: A, hit_dice: 4}]
      south:
        fighters: [{name: B, hit_dice: 4}, {name: C, hit_dice: 4}]
    """
    b = make(doc, ["." * 9] * 5, {"A": (0, 2), "B": (6, 2), "C": (6, 0)}, move_ft=60)
    turn(b, "A")
    # the free cell beside B farthest from C is below it
    assert b.field.cell(who(b, "A")) in {(5, 3), (6, 3), (7, 3)}


def test_a_bow_next_to_an_enemy_disengages_then_shoots():
    b = duel(["." * 12], {"A": (1, 0), "B": (0, 0)}, weapon="warbow", tactic="aggressive")
    events = turn(b, "A")
    assert acts(events)[:2] == [("A", "moves away"), ("A", "mighty attack")]  # aggressive
    assert events[0]["result"] == "(2,0)"
    b = duel(
        ["." * 12],
        {"A": (1, 0), "B": (0, 0)},
        weapon="warbow",
        tactic="aggressive",
        ranged_in_melee="yes",
    )
    assert acts(turn(b, "A"))[0] == ("A", "mighty attack")


def test_d6_moves_one_space_and_sprints_instead_of_attacking():
    doc = """\
    rules: d6
    sides:
      north:
        tactic: {name: balanced, params: {sprint: %s, called_shot: never}}
        fighters: [{name: A}]
      south:
        fighters: [{name: B}]
    """
    b = make(doc % "true", ["." * 8], {"A": (0, 0), "B": (7, 0)})
    events = turn(b, "A")
    assert acts(events) == [("A", "moves"), ("A", "moves"), ("A", "sprints")]
    assert b.field.cell(who(b, "A")) == (2, 0) and who(b, "A").state.sprinted == 1
    b = make(doc % "false", ["." * 8], {"A": (0, 0), "B": (7, 0)})
    assert acts(turn(b, "A")) == [("A", "moves")]
    assert b.field.cell(who(b, "A")) == (1, 0)
    b = make(doc % "true", ["." * 8], {"A": (0, 0), "B": (2, 0)})
    assert acts(turn(b, "A"))[:2] == [("A", "moves"), ("A", "attacks")]  # one move, in reach


# --------------------------------------------------------------------------- shoves and hazards
SPEAR = """\
rules: wargame
sides:
  north:
    tactic: aggressive
    fighters: [{name: S, hit_dice: 8, weapon: spear}]
  south:
    tactic: {name: balanced, params: {dodge: never}}
    fighters: [{name: T, hit_dice: 8}]
"""


def test_a_spear_shoves_ten_feet_and_a_cliff_kills():
    b = make(SPEAR, ["....^"], {"S": (1, 0), "T": (2, 0)})
    events = turn(b, "S")
    t = who(b, "T")
    assert ("T", "is shoved") in acts(events)
    assert next(e for e in events if e["action"] == "is shoved")["result"] == "(3,0) -> (4,0)"
    assert t.status == Status.DEAD and "falls to its death" in events[2]["result"]
    assert b.field.cell(t) == (4, 0) and t.cell is None  # the fallen leave the grid


def test_a_shove_stops_at_a_wall_and_is_one_cell_on_ten_foot_cells():
    b = make(SPEAR, ["...#."], {"S": (1, 0), "T": (2, 0)})
    events = turn(b, "S")
    assert ("T", "is shoved") not in acts(events) and b.field.cell(who(b, "T")) == (2, 0)
    b = make(SPEAR, ["......"], {"S": (1, 0), "T": (2, 0)}, cell=10)
    events = turn(b, "S")
    shoves = [e["result"] for e in events if e["action"] == "is shoved"]
    assert shoves[0] == "(3,0)"  # 10 ft is one 10 ft cell


def test_pushing_into_an_adjacent_hazard_is_a_contest():
    doc = """\
    rules: wargame
    sides:
      north:
        fighters: [{name: A, hit_dice: 6, strength: 5}]
      south:
        fighters: [{name: T, hit_dice: 6, strength: 5}]
    """
    won = lost = 0
    for seed in range(30):
        b = make(doc, ["...", ".~.", "..."], {"A": (0, 0), "T": (1, 0)}, seed=seed)
        events = turn(b, "A")
        push = next(e for e in events if e["action"] == "hazard")
        t = who(b, "T")
        if "no effect" in push["result"]:
            lost += 1
            assert b.field.cell(t) == (1, 0) and t.wg.stuck_in is None
        else:
            won += 1
            assert b.field.cell(t) == (1, 1) and t.wg.stuck_in == "quicksand"
            assert t.wg.movement_penalty_ft == 10
            assert b.field.allowance(t, 30) == 4  # quicksand: -10 ft of movement [S]
        assert "contest" in push["result"] or "d8" in push["result"]
    assert won and lost


# --------------------------------------------------------------------------- range and cover
def test_a_warbow_reaches_400_yards_and_no_farther():
    rows = ["." * 42]
    b = duel(rows, {"A": (0, 0), "B": (40, 0)}, weapon="warbow", cell=10, unit="yd")
    assert b.field.in_reach(who(b, "A"), who(b, "B"))
    assert b.field.band_of(who(b, "A"), who(b, "B")) == "long"
    b = duel(rows, {"A": (0, 0), "B": (41, 0)}, weapon="warbow", cell=10, unit="yd")
    assert not b.field.in_reach(who(b, "A"), who(b, "B"))
    b = duel(rows, {"A": (0, 0), "B": (41, 0)}, "hold", "warbow", cell=10, unit="yd")
    assert turn(b, "A") == []  # out of range and holding: nothing to do


def test_guns_use_their_range_option_and_walls_block_the_line():
    b = duel(["." * 30], {"A": (0, 0), "B": (20, 0)}, weapon="gun", gun_range_yd=33)
    assert not b.field.in_reach(who(b, "A"), who(b, "B"))  # 33 yd = 99 ft < 100 ft
    b = duel(["." * 30], {"A": (0, 0), "B": (20, 0)}, weapon="gun", gun_range_yd=34)
    assert b.field.in_reach(who(b, "A"), who(b, "B"))
    walled = ["..........", "....#.....", ".........."]
    b = duel(walled, {"A": (0, 1), "B": (9, 1)}, weapon="gun")
    assert not b.field.in_reach(who(b, "A"), who(b, "B"))
    assert line_of_sight(b.field.spec, (0, 0), (9, 0))
    assert not line_of_sight(b.field.spec, (0, 0), (9, 2))  # the line crosses (4, 1)


def test_range_bands_are_thirds_of_the_range():
    assert [band(d, 1200) for d in (400, 401, 800, 801, 1200)] == [
        "short",
        "medium",
        "medium",
        "long",
        "long",
    ]


@pytest.mark.parametrize(
    ("x", "band_", "lost"), [(10, "short", 0), (150, "medium", 1), (250, "long", 2)]
)
def test_range_bands_cost_deathwish_skill(monkeypatch, x, band_, lost):
    doc = """\
    rules: deathwish
    sides:
      north:
        tactic: {name: balanced, params: {formation: hold}}
        fighters: [{name: A, deathwish: {weapon: M16, skill: 6}}]
      south:
        fighters: [{name: B}]
    """
    seen = []

    def roll_to_hit(rng, skill, *args, **kw):
        seen.append(skill)
        return False

    monkeypatch.setattr(deathwish_rules, "roll_to_hit", roll_to_hit)
    b = make(doc, ["." * 301], {"A": (0, 0), "B": (x, 0)}, cell=1, unit="yd")  # 300 yd range
    assert b.field.band_of(who(b, "A"), who(b, "B")) == band_
    turn(b, "A")
    assert seen == [6 - lost]
    b = make(doc, ["." * 301], {"A": (0, 0), "B": (x, 0)}, cell=1, unit="yd", range_bands="off")
    turn(b, "A")
    assert seen[-1] == 6


def test_d6_long_range_raises_the_difficulty(monkeypatch):
    seen = []

    def roll_difficulty(difficulty, modifiers, rng):
        seen.append(difficulty)
        return difficulty

    monkeypatch.setattr(d6_rules, "roll_difficulty", roll_difficulty)
    doc = "rules: d6\nsides:\n  north: {fighters: [{name: A}]}\n  south: {fighters: [{name: B}]}\n"
    b = make(doc, ["..."], {"A": (0, 0), "B": (1, 0)})
    turn(b, "A")
    assert seen == [10]  # melee is always short range: the plain difficulty


def test_advancing_on_the_leader_passes_the_nearer_enemy():
    doc = """\
    rules: wargame
    sides:
      north:
        tactic: {name: balanced, params: {formation: %s}}
        fighters: [{name: A, hit_dice: 4}]
      south:
        leader: L
        fighters: [{name: N, hit_dice: 4}, {name: L, hit_dice: 4}]
    """
    at = {"A": (0, 2), "N": (4, 0), "L": (4, 4)}
    b = make(doc % "leader", ["....."] * 5, at, move_ft=15)
    turn(b, "A")
    assert space.adjacent(b.field.cell(who(b, "A")), (4, 4))  # next to L
    b = make(doc % "advance", ["....."] * 5, at, move_ft=15)
    turn(b, "A")
    assert space.adjacent(b.field.cell(who(b, "A")), (4, 0))  # N: the first of two as near


@pytest.mark.parametrize(("cover", "stops"), [("T", True), ("P", False)])
def test_cover_cells_stop_standard_ranged_attacks(cover, stops):
    sc = parse_scenario(textwrap.dedent(DUEL % ("hold", "warbow")))
    m = space.from_picture(
        ["......" + cover],
        ["north", "south"],
        legend={"P": ("cover", "pit")},
        at={"A": (0, 0), "B": (6, 0)},
    )
    b = Battle(replace(sc, map=m), seed=3, events=True)
    shots = [e for e in turn(b, "A") if e["action"] == "attack"]
    assert bool(shots) is not stops  # a bow holds its fire at a man behind trees
    assert b.system.covered(b, who(b, "A"), who(b, "B")) is stops
    start = len(b.log)
    wgsys.attack(b, who(b, "A"), who(b, "B"))  # shot anyway: the rule applies
    assert ("cover: no damage" in b.log[start]["result"]) is stops


@pytest.mark.parametrize(
    ("armor", "loud_armor", "stops"),
    [
        ("gambeson", "heard", True),
        ("plate", "heard", False),
        ("plate", "silent", True),
    ],
)
def test_a_bow_shoots_at_a_loud_wearer_behind_trees(armor, loud_armor, stops):
    doc = (DUEL % ("hold", "warbow")).replace("hit_dice: 8}", f"hit_dice: 8, armor: [{armor}]}}")
    doc = doc.replace(
        "rules: wargame", f"rules: {{system: wargame, options: {{loud_armor: {loud_armor}}}}}"
    )
    sc = parse_scenario(textwrap.dedent(doc))
    m = space.from_picture(["......T"], ["north", "south"], at={"A": (0, 0), "B": (6, 0)})
    b = Battle(replace(sc, map=m), seed=3, events=True)
    shots = [e for e in turn(b, "A") if e["action"] == "attack"]
    assert bool(shots) is not stops  # the bow holds its fire only where the trees hide B
    assert b.system.covered(b, who(b, "A"), who(b, "B")) is stops
    start = len(b.log)
    wgsys.attack(b, who(b, "A"), who(b, "B"))
    result = b.log[start]["result"]
    assert ("cover: no damage" in result) is stops
    assert ("loud armor heard in the trees: no cover" in result) is not stops


def test_cover_does_not_help_against_a_neighbour():
    b = duel(["..T"], {"A": (1, 0), "B": (2, 0)})
    a, t = who(b, "A"), who(b, "B")
    assert b.field.cover(t, a) is None
    assert b.field.cover(t, None).name == "trees"


def test_map_cover_value_feeds_deathwish_points_and_d6_dice():
    b = duel(["......T"], {"A": (0, 0), "B": (6, 0)})
    a, t = who(b, "A"), who(b, "B")
    assert common.map_cover(b, a, t, default=1) == 1
    m = space.from_picture(["......C"], ["north", "south"], legend={"C": ("cover", "trees", 3)})
    b.field.spec = m
    assert common.map_cover(b, a, t, default=1) == 3


# --------------------------------------------------------------------------- 2W2P fronts
TWOWP = """\
rules: 2w2p
sides:
  a:
    fighters: [{name: a1, fights: 3}, {name: a2, fights: 3}, {name: a3, fights: 3}]
  b:
    fighters: [{name: b1, fights: 3}, {name: b2, fights: 3}, {name: b3, fights: 3}]
"""


def fronts(b: Battle) -> list[list[str]]:
    return [[f.name for f in g] for g in b.field.fronts(f for f in b.all_fighters() if f.active)]


def test_fronts_split_when_a_gap_opens():
    at = {"a1": (0, 0), "b1": (1, 0), "a2": (2, 0), "b2": (3, 0), "a3": (4, 0), "b3": (5, 0)}
    b = make(TWOWP, ["......"], at)
    assert fronts(b) == [["a1", "a2", "a3", "b1", "b2", "b3"]]
    b.set_status(who(b, "a2"), Status.INCAPACITATED)
    assert fronts(b) == [["a1", "b1"], ["a3", "b2", "b3"]]


def test_fronts_merge_when_fighters_meet_and_each_front_rolls():
    at = {"a1": (0, 1), "b1": (1, 1), "a2": (7, 1), "b2": (8, 1), "a3": (4, 0), "b3": (4, 2)}
    b = make(TWOWP, ["........."] * 3, at, move_ft=5)
    assert fronts(b) == [["a1", "b1"], ["a2", "b2"]]  # a3 and b3 are not engaged
    b.step()
    rolled = [e for e in b.log if e["round"] == 1 and e["action"] == "front"]
    moved = [e for e in b.log if e["round"] == 1 and e["action"] == "moves"]
    assert [(e["actor"], e["result"]) for e in moved] == [("a3", "(4,1)")]  # 5 ft toward b3
    assert [e["target"] for e in rolled] == ["a1", "a2", "a3"]  # a3 and b3 met: a third front
    # a1 b1 . b2 a2 with a3 below the gap, which only it can step into: the fronts merge
    doc = TWOWP.replace(", {name: b3, fights: 3}", "")
    rows = [".....", "##.##", "##.##"]
    at = {"a1": (0, 0), "b1": (1, 0), "b2": (3, 0), "a2": (4, 0), "a3": (2, 2)}
    b = make(doc, rows, at, move_ft=5)
    assert fronts(b) == [["a1", "b1"], ["a2", "b2"]]
    b.step()
    assert b.field.cell(who(b, "a3")) == (2, 1)
    rolled = [e["target"] for e in b.log if e["round"] == 1 and e["action"] == "front"]
    assert rolled == ["a1"]  # one front from end to end: a1 a2 a3 b1 b2


CORRIDOR = ["#########", ".........", "#########"]
COLUMNS = {"a3": (1, 1), "a2": (2, 1), "a1": (3, 1), "b1": (4, 1), "b2": (5, 1), "b3": (6, 1)}


def recording_fronts(b: Battle) -> list[tuple[int, list[list[str]]]]:
    """Record every round's fronts as the battle forms them (after its fighters moved up)."""
    seen: list[tuple[int, list[list[str]]]] = []
    formed = b.field.fronts

    def record(fighters):
        groups = formed(fighters)
        seen.append((b.round, [[f.name for f in g] for g in groups]))
        return groups

    b.field.fronts = record
    return seen


def corridor_battle(seed: int) -> tuple[Battle, list[tuple[int, list[list[str]]]]]:
    """Fight 3 v 3 in single file in a one-cell corridor, checking every round's front."""
    b = make(TWOWP, CORRIDOR, COLUMNS, seed=seed)
    assert fronts(b) == [["a1", "b1"]]  # the rear ranks are in no front
    seen = recording_fronts(b)
    while not b.ended:
        before = {f.name: f.state.wounds for f in b.all_fighters()}
        b.step()
        (groups,) = [groups for r, groups in seen if r == b.round]
        if not groups:  # no front: a side has nobody left to fight (fled, say)
            assert {f.side for f in b.all_fighters() if f.active} != {"a", "b"}
            continue
        assert len(groups) == 1  # one front this round
        front = groups[0]
        assert sorted(n[0] for n in front) == ["a", "b"]  # of one fighter a side
        hit = {f.name for f in b.all_fighters() if f.state.wounds != before[f.name]}
        assert hit <= set(front)  # the rear cannot be hit
        rolls = [e["dice"] for e in b.log if e["round"] == b.round and e["action"] == "front"]
        assert rolls in [[f"{x}+0d vs {y}+0d"] for x in (0, 1) for y in (0, 1)]  # 1 die or none
    return b, seen


def test_a_column_in_a_corridor_fights_one_pair_at_a_time():
    stepped_up = set()
    for seed in range(1, 9):
        b, seen = corridor_battle(seed)
        assert len(seen) == b.round and b.end_reason in (
            "defeat",
            "mutual_defeat",
            "mutual_rout",
        )  # an end
        assert not any(f.active for f in b.all_fighters() if f.side != b.winner)
        out = {f.name for f in b.all_fighters() if f.status in (Status.INCAPACITATED, Status.DEAD)}
        in_fronts = {n for _, groups in seen for g in groups for n in g}
        assert out <= in_fronts  # only who came to the front fell
        assert {f.name for f in b.all_fighters() if f.fought} == in_fronts
        stepped_up |= in_fronts
    assert stepped_up == {"a1", "a2", "a3", "b1", "b2", "b3"}  # every rank comes to the front
    # seed 1: a1 falls in round 1, a2 steps into its cell and fells b1, then steps on to
    # b2 (who need not move: a2 came next to it), a3 following; a2 falls, a3 flees (morale)
    b, seen = corridor_battle(1)
    assert [groups for _, groups in seen] == [[["a1", "b1"]], [["a2", "b1"]], [["a2", "b2"]]]
    moves = [(e["round"], e["actor"], e["result"]) for e in b.log if e["action"] == "moves"]
    assert moves == [(2, "a2", "(3,1)"), (2, "a3", "(2,1)"), (3, "a2", "(4,1)"), (3, "a3", "(3,1)")]
    assert b.winner == "b" and who(b, "a3").status == Status.FLED


def test_the_same_seed_gives_the_same_battle_on_a_map():
    at = {"A": (0, 0), "B": (11, 0)}

    def rows_of(seed):
        b = duel(["." * 12, "...~~~......", "T....^....."], at, seed=seed)
        b.run()
        return b.log, {
            r: [(m.name, m.cell, m.status) for m in ms] for r, ms in b.field.snapshots.items()
        }

    assert rows_of(5) == rows_of(5)
    assert rows_of(5) != rows_of(6)


def test_a_map_sweep_gives_the_same_rows_serial_and_in_processes(tmp_path):
    from sim.experiment import load_experiment
    from sim.experiment.runner import sweep
    from tests.test_runner import assert_same_data

    exp = tmp_path / "bridge.yaml"
    exp.write_text(
        textwrap.dedent(
            f"""\
            name: bridge_small
            scenario: {ROOT / "scenarios" / "bridge.yaml"}
            design: grid
            parameters:
              sides.defenders.tactic.params.formation: [hold, flank]
            replicates: 6
            chunk: 3
            seed: 9
            tables: [runs, rounds, fighters, events]
            """
        ),
        encoding="utf-8",
    )
    serial = sweep(load_experiment(exp), tmp_path / "s", progress=False)
    procs = sweep(
        load_experiment(exp), tmp_path / "p", workers=2, executor="processes", progress=False
    )
    assert serial.done == procs.done == 12 and serial.failed == procs.failed == 0
    assert_same_data(tmp_path / "s", tmp_path / "p")
    events = [
        pq.read_table(tmp_path / x / "events").sort_by(
            [("run_id", "ascending"), ("seq", "ascending")]
        )
        for x in ("s", "p")
    ]
    assert events[0].num_rows > 100 and events[0].equals(events[1])
