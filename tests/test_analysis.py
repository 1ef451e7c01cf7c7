"""sim.analysis: intervals against textbook values, summaries against hand counts."""

from __future__ import annotations

import json
import math
import textwrap
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from sim import analysis
from sim.dataset import records
from sim.errors import SimError
from sim.experiment import load_experiment
from sim.experiment.runner import sweep

ROOT = Path(__file__).resolve().parents[1]

# --------------------------------------------------------------------------- intervals

# Newcombe (1998), "Two-sided confidence intervals for the single proportion", Table I,
# method 3 (Wilson score, no continuity correction), to 4 decimals.
NEWCOMBE = [
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0000, 0.1611),
    (1, 29, 0.0061, 0.1718),
]


@pytest.mark.parametrize(("k", "n", "lo", "hi"), NEWCOMBE)
def test_wilson_matches_newcombe(k, n, lo, hi):
    p, got_lo, got_hi = analysis.wilson(k, n)
    assert p == k / n
    assert round(float(got_lo), 4) == lo
    assert round(float(got_hi), 4) == hi


def test_wilson_is_vectorised_and_nan_for_no_runs():
    p, lo, hi = analysis.wilson([5, 0, 3], [10, 0, 3])
    assert lo[0] == pytest.approx(0.2366, abs=5e-5) and hi[0] == pytest.approx(0.7634, abs=5e-5)
    assert np.isnan(p[1]) and np.isnan(lo[1]) and np.isnan(hi[1])
    assert hi[2] == 1.0 and lo[2] == pytest.approx(0.4385, abs=5e-5)


@given(st.integers(1, 10_000).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_wilson_brackets_the_share_and_mirrors(kn):
    k, n = kn
    p, lo, hi = (float(x) for x in analysis.wilson(k, n))
    assert 0.0 <= lo <= p <= hi <= 1.0
    q, qlo, qhi = (float(x) for x in analysis.wilson(n - k, n))
    assert qlo == pytest.approx(1 - hi, abs=1e-12) and qhi == pytest.approx(1 - lo, abs=1e-12)


# Student's t 97.5% quantiles (any statistics table)
T975 = {1: 12.7062, 2: 4.3027, 10: 2.2281, 11: 2.2010, 20: 2.0860, 30: 2.0423, 100: 1.9840}


@pytest.mark.parametrize(("df", "t"), sorted(T975.items()))
def test_t975_matches_the_table(df, t):
    assert analysis.t975(df) == pytest.approx(t, abs=5e-5)


def test_t975_tends_to_the_normal_quantile():
    assert analysis.t975(10**6) == pytest.approx(analysis.Z95, abs=1e-5)
    assert math.isnan(analysis.t975(0))


# --------------------------------------------------------------------------- summaries


def side(name, dead=0, fled=0, active=3, leader="active"):
    row = {s: 0 for s in records.STATUSES}
    row.update(side=name, fighters=3, active=active, dead=dead, fled=fled)
    return {**row, "leader_status": leader, "wounds_dealt": 0, "hd_lost": 0}


def run(i, arms, winner, rounds, sides, switches=0):
    return {
        "run_id": i,
        "seed": i,
        "arms": arms,
        "scenario": "t",
        "rules": "wargame",
        "winner": winner,
        "outcome": winner or "draw",
        "decisive": winner is not None,
        "end_reason": "defeat" if winner else "mutual_defeat",
        "rounds": rounds,
        "scale_switches": switches,
        "sides": sides,
        "error": None,
    }


def make_dataset(root, rows, params=("arms",), types=None):
    """A dataset of hand-made ``runs`` rows, split over two parts."""
    import pyarrow as pa

    fields = [pa.field(p, (types or {}).get(p, pa.string())) for p in params]
    half = len(rows) // 2
    records.write_part(root, "runs", rows[:half], "000000", fields)
    records.write_part(root, "runs", rows[half:], "000001", fields)
    records.write_manifest(
        root,
        {"kind": "sweep", "experiment_name": "t", "parameters": list(params)},
    )
    return analysis.load(root)


@pytest.fixture
def hand(tmp_path):
    """Group "a": 3 runs (red, red, draw); group "b": 2 runs (blue) and 1 failed run."""
    red_won = [side("red", dead=1), side("blue", dead=2, fled=1, leader="dead")]
    blue_won = [side("red", dead=3, active=0, leader="dead"), side("blue")]
    draw = [side("red", dead=3, active=0, leader="dead"), side("blue", dead=3, leader="fled")]
    rows = [
        run(0, "b", "blue", 4, blue_won),
        run(1, "a", "red", 2, red_won, switches=1),
        run(2, "a", "red", 4, red_won),
        run(3, "a", None, 9, draw),
        run(4, "b", "blue", 6, blue_won),
        {**run(5, "b", None, 0, []), "rounds": None, "sides": [], "error": "boom"}
        | {"outcome": None, "decisive": False},
    ]
    return make_dataset(tmp_path / "hand", rows)


def test_with_three_sides_every_side_has_its_share_of_the_decisive_battles(tmp_path):
    three = [side("red"), side("blue", dead=3), side("green", dead=3)]
    rows = [run(i, "a", w, 3, three) for i, w in enumerate(["red", "blue", "red", None])]
    s = analysis.summarize(make_dataset(tmp_path / "three", rows))
    headers, table = analysis.outcome_rows(s)
    assert [h for h in headers if "of decisive" in h] == [
        f"{c} of decisive [95% CI]" for c in ("red", "blue", "green")
    ]
    assert table[0][headers.index("red of decisive [95% CI]")].startswith(" 66.7%")  # 2 of 3
    assert table[0][headers.index("red win [95% CI]")].startswith(" 50.0%")  # 2 of 4
    assert "(blue: the rest)" not in analysis.outcome_caption(s)


def test_summary_counts_by_hand(hand):
    s = analysis.summarize(hand)
    f = s.frame.set_index("arms")
    assert list(f.index) == ["a", "b"]  # sorted
    assert s.sides == ("red", "blue")  # the scenario's order
    assert list(f["runs"]) == [3, 3] and list(f["failed"]) == [0, 1]
    assert f.loc["a", "win.red"] == pytest.approx(2 / 3) and f.loc["a", "draw"] == 1 / 3
    assert f.loc["b", "win.blue"] == 1.0 and f.loc["b", "win.red"] == 0.0
    # of the decisive battles (a side won): group a's 2 red wins of 2, not of all 3
    assert f.loc["a", "decisive.red"] == 1.0 and f.loc["a", "decisive.blue"] == 0.0
    assert f.loc["b", "decisive.blue"] == 1.0
    assert (f.loc["a", "decisive.red.lo"], f.loc["a", "draw.lo"]) == (
        analysis.wilson(2, 2)[1],
        analysis.wilson(1, 3)[1],
    )
    _, lo, hi = analysis.wilson(2, 3)
    assert (f.loc["a", "win.red.lo"], f.loc["a", "win.red.hi"]) == (lo, hi)
    assert f.loc["a", "rounds.mean"] == 5.0 and f.loc["a", "rounds.median"] == 4.0
    half = analysis.t975(2) * math.sqrt(np.var([2, 4, 9], ddof=1) / 3)
    assert f.loc["a", "rounds.lo"] == pytest.approx(5.0 - half)
    assert f.loc["b", "rounds.mean"] == 5.0 and f.loc["b", "rounds.median"] == 5.0
    assert f.loc["a", "casualties.red.dead"] == pytest.approx((1 + 1 + 3) / 3)
    assert f.loc["a", "casualties.blue.fled"] == pytest.approx(2 / 3)
    assert f.loc["b", "casualties.red.dead"] == 3.0  # the failed run is left out
    assert f.loc["a", "leader_lost.red"] == pytest.approx(1 / 3)
    assert f.loc["a", "leader_lost.blue"] == 1.0 and f.loc["b", "leader_lost.blue"] == 0.0
    assert f.loc["a", "scale_switch"] == pytest.approx(1 / 3) and f.loc["b", "scale_switch"] == 0
    assert s.statuses == ("fled", "dead")  # only the statuses that occur


def test_summary_without_grouping_pools_every_run(hand):
    s = analysis.summarize(hand, by=[])
    assert len(s.frame) == 1 and int(s.frame["runs"][0]) == 6
    assert s.frame["win.blue"][0] == pytest.approx(2 / 5)
    assert s.group_label(0) == "all"


def test_groups_json_shape(hand):
    groups = analysis.summarize(hand).groups()
    assert [g["arms"] for g in groups] == ["a", "b"]
    a = groups[0]
    assert a["runs"] == 3 and set(a["win_rate"]) == {"red", "blue"}
    assert set(a["win_rate"]["red"]) == {"p", "lo", "hi"}
    assert a["win_rate"]["red"]["lo"] < a["win_rate"]["red"]["p"] < a["win_rate"]["red"]["hi"]
    assert a["casualties"]["blue"]["fled"] == pytest.approx(2 / 3)


def test_grouping_by_an_unknown_column_is_a_clear_error(hand):
    with pytest.raises(SimError, match="did you mean 'arms'"):
        analysis.summarize(hand, by=["arm"])


def test_a_folder_that_is_not_a_dataset_is_refused(tmp_path):
    with pytest.raises(SimError, match="not a dataset"):
        analysis.load(tmp_path)


def test_an_empty_dataset_summarises_to_no_groups(tmp_path):
    records.write_manifest(tmp_path, {"kind": "sweep", "parameters": ["arms"]})
    s = analysis.summarize(analysis.load(tmp_path))
    assert s.frame.empty and s.groups() == []


def test_tables_come_with_the_parameters_joined(hand):
    rounds = [
        {"run_id": 1, "round": 1, "side": "red", "scale": "small"},
        {"run_id": 4, "round": 1, "side": "red", "scale": "small"},
    ]
    records.write_part(hand.root, "rounds", rounds, "000000")
    frame = hand.table("rounds")
    assert list(frame["arms"]) == ["a", "b"] and "seed" in frame
    assert list(hand.runs["run_id"]) == list(range(6))
    sides = hand.sides
    assert set(sides["side"]) == {"red", "blue"} and len(sides) == 10
    assert list(sides.columns[:3]) == ["run_id", "arms", "side"]
    assert list(sides["run_id"][:2]) == [0, 0] and list(sides["arms"][:2]) == ["b", "b"]


def test_a_mixed_type_parameter_groups_and_sorts(tmp_path):
    import pyarrow as pa

    rows = [
        {**run(i, None, "red", 3, [side("red"), side("blue")]), "size": v}
        for i, v in enumerate([2.5, 1.0, 2.5, 10.0])
    ]
    for r in rows:
        del r["arms"]
    ds = make_dataset(tmp_path / "d", rows, params=("size",), types={"size": pa.float64()})
    f = analysis.summarize(ds).frame
    assert list(f["size"]) == [1.0, 2.5, 10.0] and list(f["runs"]) == [1, 2, 1]


# --------------------------------------------------------------------------- a real sweep

MIRROR = """\
name: mirror_check
scenario: {scenario}
design: grid
parameters:
  rules.system: [wargame, 2w2p, deathwish, d6]
replicates: 500
seed: 11
tables: [runs]
"""


@pytest.fixture(scope="module")
def mirror(tmp_path_factory):
    folder = tmp_path_factory.mktemp("mirror")
    exp = folder / "mirror.yaml"
    exp.write_text(
        textwrap.dedent(MIRROR.format(scenario=ROOT / "scenarios" / "mirror.yaml")),
        encoding="utf-8",
    )
    sweep(load_experiment(exp), folder / "out", progress=False)
    return analysis.load(folder / "out")


@pytest.mark.slow  # a statistical check: 500 battles a system
@pytest.mark.parametrize("system", ["wargame", "2w2p", "deathwish", "d6"])
def test_a_mirrored_scenario_gives_each_side_about_half(mirror, system):
    s = analysis.summarize(mirror)
    f = s.frame.set_index("rules.system")
    assert int(f.loc[system, "runs"]) == 500
    north, south = f.loc[system, "win.north"], f.loc[system, "win.south"]
    decisive = round((north + south) * 500)
    p, lo, hi = analysis.wilson(round(north * 500), decisive)
    assert lo <= 0.5 <= hi, f"{system}: north wins {p:.3f} of decisive battles [{lo:.3f}, {hi:.3f}]"


# --------------------------------------------------------------------------- aftermath, campaign


def after_row(run_id, name, day, status, wounded, recovered, side="red", battle=1):
    return {
        "run_id": run_id,
        "battle": battle,
        "battle_status": "incapacitated" if wounded else "active",
        "wounded": wounded,
        "recovered": recovered,
        "day": day,
        "name": name,
        "side": side,
        "status": status,
        "fights": 1,
        "treated_by": [],
        "wounds": [],
        "infections": 0,
        "infections_known": 0,
    }


def camp_row(run_id, battle, name, status, tier):
    return {
        "run_id": run_id,
        "battle": battle,
        "battle_label": f"battle {battle}",
        "day": 7 * (battle - 1),
        "name": name,
        "fought": True,
        "status": status,
        "fit": status != "dead",
        "fights_before": 9,
        "fights_after": 10,
        "tier_before": "seasoned",
        "tier_after": tier,
    }


def test_aftermath_and_campaign_figures_by_hand(hand):
    # group "a" (runs 1, 2, 3): 2 days each. Run 1: x dies of its wounds on day 1, y
    # recovers, z was never hurt; run 2: x is still wounded, y recovers; run 3: nobody hurt.
    # Group "b" (runs 0, 4): x dies. Run 5 failed: its rows would not count.
    rows = []
    for day in (0, 1):
        rows += [
            after_row(1, "x", day, "incapacitated" if day == 0 else "dead", True, False),
            after_row(1, "y", day, "active", True, day == 1),
            after_row(1, "z", day, "active", False, True),
            after_row(2, "x", day, "incapacitated", True, False),
            after_row(2, "y", day, "active", True, day == 1),
            after_row(3, "x", day, "active", False, True),
            after_row(0, "x", day, "dead", True, False),
            after_row(4, "x", day, "dead", True, False),
            after_row(5, "x", day, "dead", True, False),
        ]
    records.write_part(hand.root, "aftermath", rows, "000000")
    f = analysis.aftermath_summary(hand).set_index("arms")
    assert list(f["side"]) == ["red", "red"] and list(f["days"]) == [2, 2]
    assert list(f["runs"]) == [3, 2]
    assert f.loc["a", "wounded"] == pytest.approx(4 / 3) and f.loc["b", "wounded"] == 1.0
    assert f.loc["a", "died"] == pytest.approx(1 / 3) and f.loc["b", "died"] == 1.0
    assert f.loc["a", "died_share"] == 0.25 and f.loc["a", "recovered_share"] == 0.5
    assert f.loc["a", "still_share"] == 0.25 and f.loc["b", "died_share"] == 1.0
    _, lo, hi = analysis.wilson(2, 4)
    assert (f.loc["a", "recovered_share.lo"], f.loc["a", "recovered_share.hi"]) == (lo, hi)

    # campaign: runs 1 and 2 of group "a" reach battle 2, run 1 only battle 3
    camp = [
        camp_row(1, 1, "x", "active", "seasoned"),
        camp_row(1, 1, "y", "active", "veteran"),
        camp_row(1, 2, "x", "dead", "veteran"),
        camp_row(1, 2, "y", "active", "hero"),
        camp_row(1, 3, "x", "dead", "veteran"),
        camp_row(1, 3, "y", "active", "hero"),
        camp_row(2, 1, "x", "active", "veteran"),
        camp_row(2, 1, "y", "active", "veteran"),
        camp_row(2, 2, "x", "active", "tested"),
        camp_row(2, 2, "y", "active", "veteran"),
    ]
    records.write_part(hand.root, "campaign", camp, "000000")
    c = analysis.campaign_summary(hand).set_index(["arms", "battle"])
    assert list(c["runs"]) == [2, 2, 1]
    assert c.loc[("a", 1), "veteran_share"] == 0.75  # 3 of 4 living members
    assert c.loc[("a", 2), "alive"] == 1.5 and c.loc[("a", 2), "veterans"] == 1.0
    assert c.loc[("a", 2), "veteran_share"] == pytest.approx(2 / 3)  # the dead x is no veteran
    assert c.loc[("a", 3), "veteran_share"] == 1.0 and c.loc[("a", 3), "battle_label"] == "battle 3"

    from sim.cli.text import analyze_text

    text = analyze_text(hand.root)
    assert "Aftermath: wounded" in text and "Campaign: the company" in text
    assert "25.0% [" in text and "75.0% [" in text

    groups = json.loads(analyze_text(hand.root, fmt="json"))
    a, b = groups
    assert a["arms"] == "a" and a["aftermath"]["red"]["runs"] == 3
    died = a["aftermath"]["red"]["died_share"]
    # resampling the runs: run 2 alone (no death) gives 0, run 1 alone 1/2; two runs with
    # wounded are one degree of freedom, whose t quantile (12.7) stretches that to [0, 1]
    assert died == {"p": 0.25, "lo": 0.0, "hi": 1.0}
    assert a["aftermath"]["red"]["interval"] == analysis.CLUSTER_INTERVAL
    assert [c["battle"] for c in a["campaign"]] == [1, 2, 3] and "campaign" not in b
    assert a["campaign"][1]["veteran_share"]["p"] == pytest.approx(2 / 3)
    assert b["aftermath"]["red"]["died"] == 1.0


def test_summaries_without_the_new_tables_are_unchanged(hand):
    from sim.cli.text import analyze_text

    assert not analysis.has_table(hand, "aftermath")
    assert "Aftermath" not in analyze_text(hand.root) and "Campaign" not in analyze_text(hand.root)


def test_an_interval_with_a_negative_end_reads_unambiguously():
    from sim.analysis.fmt import _span

    assert _span(2.0, 2.04) == "2.0-2.0"
    assert _span(-1.2, 4.5) == "-1.2 to 4.5"  # was "-1.2-4.5" (3 replicates, a t interval)
    assert _span(float("nan"), float("nan")) == "---"  # as before: no interval


@pytest.mark.slow
def test_the_decisive_share_interval_covers_at_about_95_percent(tmp_path):
    """The share of the decisive battles a side won: Wilson over a decisive count that varies.

    Groups of 150 battles with 45% wins, 35% losses and 20% draws: the interval must hold
    the true share of the decisive battles, 0.45 / 0.80, about 95% of the time.
    """
    rng = np.random.default_rng(31)
    counts = rng.multinomial(150, [0.45, 0.35, 0.20], size=20_000)
    won, decisive = counts[:, 0], counts[:, 0] + counts[:, 1]
    _, lo, hi = analysis.wilson(won, decisive)
    truth = 0.45 / 0.80
    coverage = np.mean((lo <= truth) & (truth <= hi))
    assert 0.94 < coverage < 0.96, coverage
    # and the summary computes exactly that interval from the runs table
    rows = [
        run(i, "a", w, 3, [side("red"), side("blue")])
        for i, w in enumerate(["red"] * 9 + ["blue"] * 7 + [None] * 4)
    ]
    f = analysis.summarize(make_dataset(tmp_path / "d", rows)).frame.iloc[0]
    assert (f["decisive.red"], f["decisive.red.lo"], f["decisive.red.hi"]) == tuple(
        float(x) for x in analysis.wilson(9, 16)
    )
