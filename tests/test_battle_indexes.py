"""The battle's indexes (per-side counts, weakest-first heaps, the popcorn queue) pick exactly
what a scan of every fighter picks (the performance issue: no per-turn scans)."""

import pytest

from sim.battle.battle import Battle, FighterHeap
from sim.scenario import load_scenario, parse_scenario
from sim.systems import common
from sim.systems import wargame as wgsys


def crowd(per_side: int, target: str, large_above: int, ties: str = "first_listed") -> str:
    """Two mixed warbands of ``per_side`` fighters a side, each with a leader."""
    return f"""
name: crowd
rules:
  system: wargame
  options: {{large_scale_above: {large_above}, initiative_ties: {ties}}}
sides:
  red:
    leader: Ulf
    tactic: {{name: balanced, params: {{target: {target}}}}}
    fighters:
      - {{name: Ulf, hit_dice: 5, armor: [chain], shield: medium, weapon: axe}}
      - {{name: spear, count: {per_side // 2}, hit_dice: 4, armor: [gambeson], weapon: spear}}
      - {{name: bow, count: {per_side - per_side // 2 - 1}, hit_dice: 3, weapon: warbow}}
  blue:
    leader: Bo
    tactic: {{name: aggressive, params: {{target: {target}}}}}
    fighters:
      - {{name: Bo, hit_dice: 5, armor: [lamellar], weapon: bastard_sword, two_handed: true}}
      - {{name: knife, count: {per_side // 2}, hit_dice: 3, weapon: dagger}}
      - {{name: maul, count: {per_side - per_side // 2 - 1}, hit_dice: 4, weapon: maul}}
"""


def _scan_target(b, f):
    return b.tactic_of(f).choose_target(common.rank_and_file(b, common.targets(b, f)), b.rng)


def _fight(sc, seed):
    b = Battle(sc, seed=seed)
    b.run()
    return b.outcome().to_dict(), b.round_rows, b.fighter_rows()


@pytest.mark.parametrize(
    "text",
    [
        crowd(12, "weakest", 100),  # small scale, many fighters: queue and heaps at work
        crowd(12, "leader", 100),
        crowd(8, "weakest", 10, ties="reroll"),  # large scale: the enemy's rank and file
    ],
)
def test_indexes_pick_what_a_scan_picks(monkeypatch, text):
    sc = parse_scenario(text, "<crowd>")
    fast = [_fight(sc, seed) for seed in range(15)]
    monkeypatch.setattr(common, "choose_target", _scan_target)
    monkeypatch.setattr(wgsys, "choose_target", _scan_target)
    monkeypatch.setattr(Battle, "_waiting", lambda self, fighters: None)
    assert [_fight(sc, seed) for seed in range(15)] == fast


def test_indexes_match_scans_on_the_examples(monkeypatch):
    from pathlib import Path

    paths = sorted((Path(__file__).resolve().parents[1] / "scenarios").glob("*.yaml"))
    scenarios = [load_scenario(p) for p in paths]
    fast = [_fight(sc, seed) for sc in scenarios for seed in range(5)]
    monkeypatch.setattr(common, "choose_target", _scan_target)
    monkeypatch.setattr(wgsys, "choose_target", _scan_target)
    monkeypatch.setattr(Battle, "_waiting", lambda self, fighters: None)
    assert [_fight(sc, seed) for sc in scenarios for seed in range(5)] == fast


class _F:
    def __init__(self, uid, key):
        self.unique_id, self.k, self.member = uid, key, True


def test_heap_top_follows_changed_keys_and_members():
    fs = [_F(i, k) for i, k in enumerate([5, 3, 4])]
    heap = FighterHeap(lambda f: (f.k, f.unique_id), lambda f: f.member, fs)
    assert heap.top() is fs[1]
    fs[1].k = 9  # grew: found stale at the top and filed again
    assert heap.top() is fs[2]
    fs[0].k = 1  # shrank: must be pushed again
    heap.push(fs[0])
    assert heap.top() is fs[0]
    fs[0].member = False
    assert heap.top() is fs[2]
    fs[2].member = fs[1].member = False
    assert heap.top() is None
