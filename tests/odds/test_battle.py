"""Exact odds of a whole battle (sim.odds.battle), against the simulator's own battles."""

import json
import math
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

from sim.battle import Battle
from sim.cli import main
from sim.frame.core import STATUSES
from sim.odds import battle as exact_battle
from sim.odds.battle import NotExact, TooLarge, battle_odds, estimate
from sim.scenario import load_scenario
from tests.odds.make_exact import EXACT, text_sha256

ROOT = Path(__file__).resolve().parents[2]
DUEL = ROOT / "scenarios/exact/duel_2w2p.yaml"
GREATSWORD = ROOT / "scenarios/greatsword.yaml"
ACCEPTED = [(DUEL, [])]  # what the exact method answers in seconds (the kept ones: below)
KEPT = json.loads(EXACT.read_text())  # and in minutes: its answers kept (tests/odds/make_exact.py)


def fought(path, sets, battles):
    """Each (winner, end reason), rounds and per-side status counts of ``battles`` battles."""
    s = load_scenario(path, sets)
    ends, rounds, statuses = Counter(), Counter(), Counter()
    for seed in range(battles):
        out = Battle(s, seed=seed).run()
        ends[(out.winner, out.end_reason)] += 1
        rounds[out.rounds] += 1
        for side, counts in out.sides.items():
            for st in STATUSES:
                statuses[(side, st, int(counts[st]))] += 1
    return ends, rounds, statuses


def within(p, hits, n, z):
    """Whether the exact ``p`` lies in the ``z`` band of the measured frequency hits/n."""
    se = math.sqrt(max(float(p) * (1 - float(p)), 1 / n) / n)
    return abs(hits / n - float(p)) <= z * se + 1e-12


def test_one_round_duel_is_a_short_exact_fraction():
    odds = battle_odds(DUEL, ["max_rounds=1"])
    assert odds.win("veteran") == Fraction(20, 27)
    assert odds.draw("max_rounds") == Fraction(7, 27)
    assert sum(odds.outcomes.values()) == 1
    assert odds.rounds() == {1: 1}


def test_whole_duel_sums_to_one_and_agrees_with_4000_battles():
    odds = battle_odds(DUEL, ["max_rounds=3"])
    assert sum(odds.outcomes.values()) == 1
    ends, rounds, _ = fought(DUEL, ["max_rounds=3"], 4000)
    for key, p in odds.reasons().items():
        assert within(p, ends[key], 4000, 4.4), (key, p, ends[key])
    assert set(ends) <= set(odds.reasons())


def test_statuses_and_json_are_plain_data(capsys):
    assert main(["odds", "battle", str(DUEL), "--set", "max_rounds=1", "--format", "json"]) == 0
    out = capsys.readouterr()
    data = json.loads(out.out)
    assert data["sides"]["veteran"]["win"]["exact"] == "20/27"
    assert "estimate: about" in out.err
    status = data["sides"]["green"]["statuses"]
    for dist in status.values():
        assert sum(Fraction(v["exact"]) for v in dist.values()) == 1


def test_a_table_names_each_side_and_the_work(capsys):
    assert main(["odds", "battle", str(DUEL), "--set", "max_rounds=1"]) == 0
    out = capsys.readouterr().out
    assert "veteran wins" in out and "(20/27)" in out and "fights of a round" in out


def test_plot_draws_the_ends_and_the_rounds_and_keeps_an_existing_file(capsys, tmp_path):
    from tests.test_cli_frames import assert_picture

    png = tmp_path / "duel.png"
    assert main(["odds", "battle", str(DUEL), "--plot", str(png)]) == 0
    assert f"plot: {png}" in capsys.readouterr().err
    assert_picture(png)
    before = png.read_bytes()
    assert main(["odds", "battle", str(DUEL), "--plot", str(png)]) == 2
    err = capsys.readouterr().err
    assert "estimate" not in err  # refused before any work
    assert err.strip().endswith("add --force to replace it")
    assert png.read_bytes() == before
    again = ["odds", "battle", str(DUEL), "--set", "max_rounds=1", "--plot", str(png), "--force"]
    assert main(again) == 0
    assert png.read_bytes() != before


def test_a_battle_too_large_is_refused_in_one_line_before_the_work(capsys):
    with pytest.raises(TooLarge, match="estimated"):
        battle_odds(GREATSWORD)
    assert main(["odds", "battle", str(GREATSWORD)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("sim odds: error: greatsword: about ")
    assert "too large for the exact method" in err[-1]


def test_the_limit_bounds_the_work_itself():
    with pytest.raises(TooLarge, match="more than 50 fights"):
        battle_odds(DUEL, limit=50, guess={"executions": 0})


def test_a_battle_on_a_map_is_refused():
    with pytest.raises(NotExact, match="map"):
        battle_odds(ROOT / "scenarios/bridge.yaml")


def test_the_estimate_counts_starts_and_outcomes():
    e = estimate(DUEL, battles=50)
    assert e["starts"] >= e["seen"] > 0 and e["branching"] > 1
    assert e["executions"] == pytest.approx(e["starts"] * e["branching"])


@pytest.mark.parametrize(
    "path",
    [
        "scenarios/exact/duel_2w2p.yaml",
        "scenarios/duel_of_tiers.yaml",
        "scenarios/exact/duel_d6.yaml",
        "scenarios/exact/duel_wargame.yaml",
    ],
)
def test_the_estimate_is_a_floor_within_a_few_times_the_work(path):
    """On these battles the work was 1.0 to 1.9 times the estimate (the skirmish's: 15)."""
    e = estimate(ROOT / path)
    work = KEPT[path]["work"]["executions"] if path in KEPT else battle_odds(ROOT / path).executions
    assert e["executions"] <= work <= 6 * e["executions"]


def check_oracle(path, sets, ends_p, rounds_p, statuses_p, n=100_000):
    """Each exact chance (of an end, a length, a side's count in a status) in the 99.9% band."""
    ends, rounds, statuses = fought(path, sets, n)
    z = 3.29  # two-sided 99.9%
    for key, p in ends_p.items():
        assert within(p, ends[key], n, z), (key, float(p), ends[key])
    for r, p in rounds_p.items():
        assert within(p, rounds[r], n, z), (r, float(p), rounds[r])
    for key, p in statuses_p.items():
        assert within(p, statuses[key], n, z), (key, float(p), statuses[key])
    assert set(ends) <= set(ends_p) and set(rounds) <= set(rounds_p)


@pytest.mark.slow
@pytest.mark.parametrize("path,sets", ACCEPTED, ids=lambda x: str(x)[-20:])
def test_oracle_every_exact_chance_is_in_the_999_band_of_100000_battles(path, sets):
    """Issue 39's oracle: each exact probability within the 99.9% band of 100,000 battles."""
    odds = battle_odds(path, sets)
    statuses = {
        (side, st, count): p
        for side in odds.sides
        for st, dist in odds.statuses(side).items()
        for count, p in dist.items()
    }
    check_oracle(path, sets, odds.reasons(), odds.rounds(), statuses)


def test_turn_starts_forgotten_past_the_bound_give_the_same_odds(monkeypatch):
    """MAX_TURNS bounds the turn starts kept (their memory): the same answer, more fights."""
    duel = ROOT / "scenarios/exact/duel_d6.yaml"
    kept = battle_odds(duel, ["max_rounds=3"], guess={"executions": 0})
    forgot = []
    real = exact_battle._Explorer.forget

    def forget(self):
        forgot.append(len(self.nodes))
        real(self)

    monkeypatch.setattr(exact_battle, "MAX_TURNS", 60)
    monkeypatch.setattr(exact_battle._Explorer, "forget", forget)
    bounded = battle_odds(duel, ["max_rounds=3"], guess={"executions": 0})
    assert forgot and min(forgot) > 60
    assert bounded.outcomes == kept.outcomes and bounded.states == kept.states
    assert bounded.executions > kept.executions


def test_the_kept_exact_odds_are_of_the_scenarios_as_they_are():
    """tests/odds/exact.json (too slow to compute here) is of today's scenario files."""
    for path, data in KEPT.items():
        assert data["scenario_sha256"] == text_sha256(ROOT / path), f"{path}: make_exact again"
        assert sum(Fraction(e["exact"]) for e in data["ends"]) == 1


@pytest.mark.slow
@pytest.mark.parametrize("path", sorted(KEPT))
def test_oracle_of_the_kept_exact_odds(path):
    """The oracle for a battle whose exact odds take minutes: the kept odds, 100,000 battles."""
    data = KEPT[path]
    ends = {(e["winner"], e["end_reason"]): Fraction(e["exact"]) for e in data["ends"]}
    rounds = {int(r): Fraction(v["exact"]) for r, v in data["rounds"].items()}
    statuses = {
        (side, st, int(count)): Fraction(v["exact"])
        for side, sd in data["sides"].items()
        for st, dist in sd["statuses"].items()
        for count, v in dist.items()
    }
    check_oracle(ROOT / path, [], ends, rounds, statuses)
