"""Every rule system keeps the same contract with the battle frame (DESIGN.md habit 1).

Axelrod's per-strategy test class is the model: one class of checks, run for every system
in :data:`sim.systems.SYSTEMS`. A fifth system is one module more and must pass it too.
"""

from __future__ import annotations

import numpy as np
import pytest

from sim import systems
from sim.battle.battle import Battle
from sim.rules.common import OUT_OF_FIGHT, Status
from sim.scenario import parse_scenario
from sim.systems.base import RuleSystem

NAMES = sorted(systems.SYSTEMS)

TWO_SIDES = """
name: contract
rules: {system}
max_rounds: 40
sides:
  red:
    leader: R1
    fighters:
      - {{name: R1, hit_dice: 5, armor: [chain], weapon: axe, fights: 6,
          deathwish: {{weapon: M16, armor: light vest}}, d6: {{attack: 5D, damage: 5D}}}}
      - {{name: R, count: 3, hit_dice: 4, fights: 2, deathwish: {{weapon: M1911}}}}
  blue:
    leader: B1
    fighters:
      - {{name: B1, hit_dice: 5, armor: [chain], weapon: axe, fights: 6,
          deathwish: {{weapon: M16, armor: light vest}}, d6: {{attack: 5D, damage: 5D}}}}
      - {{name: B, count: 3, hit_dice: 4, fights: 2, deathwish: {{weapon: M1911}}}}
"""


def scenario(name: str, extra: str = ""):
    return parse_scenario(TWO_SIDES.format(system=name) + extra, f"<{name}>")


@pytest.mark.parametrize("name", NAMES)
class TestEverySystem:
    def test_is_found_by_its_name_and_keeps_the_protocol(self, name):
        system = systems.get(name)
        assert isinstance(system, RuleSystem)  # every member of the protocol is there
        assert system.name == name
        assert system.rules.NAME == name  # its pure rules module
        assert system.build_options({}, "rules.options") == system.rules.Options()

    def test_fights_every_battle_to_an_end_within_max_rounds(self, name):
        sc = scenario(name)
        for seed in range(10):
            b = Battle(sc, seed=seed)
            out = b.run()
            assert b.ended and out.rounds <= sc.max_rounds
            assert out.end_reason in (
                "defeat",
                "mutual_defeat",
                "mutual_rout",
                "max_rounds",
                "goal_achieved",
                "goal_failed",
            )

    def test_every_fighter_ends_in_exactly_one_status(self, name):
        sc = scenario(name)
        for seed in range(10):
            b = Battle(sc, seed=seed)
            out = b.run()
            for side, counts in out.sides.items():
                assert sum(counts[s.value] for s in Status) == counts["fighters"] == 4, side
            loser = [s for s in b.sides.values() if s.name != out.winner]
            if out.winner is not None:
                assert all(
                    f.status in OUT_OF_FIGHT or f.status == Status.FLEEING
                    for s in loser
                    for f in s.fighters
                )

    def test_the_same_seed_gives_the_same_battle(self, name):
        sc = scenario(name)
        logs = [Battle(sc, seed=7, events=True) for _ in range(2)]
        for b in logs:
            b.run()
        assert logs[0].log == logs[1].log and logs[0].log
        other = Battle(sc, seed=8, events=True)
        other.run()
        assert other.log != logs[0].log

    def test_draws_only_from_the_battles_generator(self, name, monkeypatch):
        def forbidden(*a, **k):
            raise AssertionError("a draw from numpy's global random state")

        monkeypatch.setattr(np.random, "random", forbidden)
        monkeypatch.setattr(np.random, "randint", forbidden)
        Battle(scenario(name), seed=1).run()

    @pytest.mark.slow  # a statistical check: 200 battles
    def test_mirrored_sides_win_alike(self, name):
        sc = scenario(name)
        wins = {"red": 0, "blue": 0}
        for seed in range(200):
            w = Battle(sc, seed=seed).run().winner
            if w is not None:
                wins[w] += 1
        decisive = wins["red"] + wins["blue"]
        assert decisive >= 50
        share = wins["red"] / decisive
        assert 0.3 < share < 0.7, (wins, share)  # a coarse check; docs/validation.md is fine

    def test_fights_at_large_scale_and_switches_back(self, name):
        sc = scenario(name, "\nframe: {large_scale_above: 6}\n" if name != "wargame" else "")
        if name == "wargame":
            sc = parse_scenario(
                TWO_SIDES.format(system=name).replace(
                    "rules: wargame", "rules: {system: wargame, options: {large_scale_above: 6}}"
                ),
                "<wargame>",
            )
        b = Battle(sc, seed=3)
        assert b.large
        b.run()
        assert b.ended

    def test_a_start_wounded_or_out_fighter_is_booked_by_the_system(self, name):
        text = TWO_SIDES.format(system=name).replace(
            "{name: R, count: 3, hit_dice: 4,", "{name: R, count: 3, hit_dice: 4, wounds: 9,"
        )
        b = Battle(parse_scenario(text, "<wounded>"), seed=1)
        status = systems.get(name).start_status(
            next(f for f in b.all_fighters() if f.name == "R 1")
        )
        assert status in (Status.ACTIVE, Status.INCAPACITATED, Status.DEAD)
        assert next(f for f in b.all_fighters() if f.name == "R 1").status == status
