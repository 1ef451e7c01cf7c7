"""Study f of the validation report (``benchmarks/validity/studies/shipped.py``, its arms in
``benchmarks/validity/arms.py``): the shipped scenarios at both scales, rule by rule (issue 30).

Fast tests: which scenarios and arms the study fights; that its seeds are a ``seeds:
shared`` sweep's with ``seed: 99``, so the shipped experiment files (which it writes, and
which must not drift from it) reproduce its battles; that with every seed rule of large
scale off a shipped battle is fought as at small scale, battle for battle; that the report
renders the study. Slow: the invariant itself, with fewer battles than the report.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from benchmarks import validity as v
from benchmarks.validity import arms as vs
from benchmarks.validity.studies import shipped
from sim.experiment import load_experiment
from sim.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[1]


def test_the_study_fights_every_scenario_of_more_than_ten_fighters():
    names = [p.stem for p in vs.shipped_scenarios()]
    assert names == ["adders", "bridge", "field", "ford", "pass", "raid", "shieldwall", "siege"]
    for path in sorted((ROOT / "scenarios").glob("*.yaml")):
        sc = load_scenario(path)
        if path.stem not in names:  # a campaign, or 10 or fewer
            assert sc.campaign is not None or vs.fighters_of(sc) <= 10, path.name


def test_each_scenario_gets_the_arms_of_the_rules_that_can_act_in_it():
    keys = {p.stem: [a.key for a in vs.arms_for(load_scenario(p))] for p in vs.shipped_scenarios()}
    turns = ["default", "small", "initiative", "ranks", "leader_down", "popcorn", "all_off"]
    assert keys["pass"] == keys["raid"] == turns
    assert keys["siege"] == [*turns[:5], "pools", *turns[5:]]
    assert keys["shieldwall"] == ["default", "small"]  # 2W2P: no factions
    siege = {a.key: a for a in vs.arms_for(load_scenario(ROOT / "scenarios/siege.yaml"))}
    seed_rules = [x for a in siege.values() if a.seed_rule for x in a.sets]
    assert siege["all_off"].sets == tuple(seed_rules)
    assert "battle.large_turns=popcorn" not in siege["all_off"].sets  # our reading, not a rule


def test_its_seeds_are_a_shared_seeds_sweeps_and_the_experiment_files_are_its_own():
    for path in vs.shipped_scenarios():
        if len(vs.arms_for(load_scenario(path))) == 2:
            continue
        written = ROOT / "experiments" / f"large_scale_{path.stem}.yaml"
        assert written.read_text(encoding="utf-8") == vs.experiment_text(path), (
            f"{written.name} drifted: python -m benchmarks.validity --experiments"
        )
        exp = load_experiment(written)
        assert exp.shared_seeds and exp.seed == vs.SEED
        point = len(exp.points) - 1
        runs = [exp.run_seed(point * exp.replicates + r) for r in range(5)]
        assert runs == vs.seeds(5)


def test_an_experiment_point_fights_the_studys_battles(tmp_path):
    import sim

    exp = load_experiment(ROOT / "experiments" / "large_scale_pass.yaml").preview(4)
    runs = sim.load(sim.sweep(exp, out=tmp_path / "pass", workers=1))
    arms = {a.key: a for a in vs.arms_for(load_scenario(ROOT / "scenarios/pass.yaml"))}
    sides = ["hill clan", "lowlanders"]
    for label in ("default", "small", "ranks"):
        mine = vs.fight_arm(str(ROOT / "scenarios/pass.yaml"), arms[label].sets, 0, 4)
        theirs = runs[runs["label"] == label].sort_values("run_id")
        won = [sides.index(w) + 1 if isinstance(w, str) else 0 for w in theirs["winner"]]
        assert won == list(mine[:, 0]) and list(theirs["rounds"]) == list(mine[:, 1])


@pytest.mark.parametrize("path", vs.shipped_scenarios(), ids=lambda p: p.stem)
def test_with_every_seed_rule_off_a_shipped_battle_is_fought_as_at_small_scale(path):
    """What the study's invariant rests on: no difference between the scales is our own."""
    arms = {a.key: a for a in vs.arms_for(load_scenario(path))}
    off = arms.get("all_off", arms["default"])
    small = vs.fight_arm(str(path), arms["small"].sets, 0, 12)
    assert (vs.fight_arm(str(path), off.sets, 0, 12) == small).all()


def test_the_report_renders_study_f(tmp_path):
    reps = v.Replicates.quick(v.STUDIES)
    reps.update({name: 2 for name in reps} | {"shipped": 3, "pools": 2})
    with v.Runner(1) as runner:
        res = v.run_all(runner, reps, ["2w2p", "d6"])
    assert [r.name for r in res.rows["shipped"]] == ["adders", "raid", "shieldwall"]
    assert res.rows["pools"] == []  # the War Game's only
    assert res.battles["shipped"] == 3 * (7 + 7 + 2) and res.battles["pools"] == 0
    charts = v.draw_charts(res, tmp_path / "charts")
    assert charts["shipped"].stat().st_size > 1000
    text = v.render(res, {k: f"charts/{k}.png" for k in charts}, "cmd", 1.0)
    assert "## f. The shipped scenarios at both scales" in text
    assert "(charts/shipped.png)" in text and "| f. shipped |" in text
    assert sum(c.study == "shipped" for c in res.checks()) == 3


def test_the_section_renders_faction_pools():
    """The pools part is the War Game's only: rendered from a few of its battles."""
    reps = v.Replicates({"shipped": 0, "pools": 1})
    with v.Runner(1) as runner:
        rows = shipped.pools_study(runner, 1)
    res = v.Results(reps, ("wargame",), (shipped.STUDY,), {"shipped": [], "pools": rows})
    text = shipped.section(res, {})
    assert "**Faction pools** (`battle: {large_scale: pools}`" in text
    assert text.count("\n| 6 v 5 |") == 1 and "| 20 v 16 |" in text


def test_the_experiments_option_writes_the_files_the_test_above_checks(
    tmp_path, monkeypatch, capsys
):
    monkeypatch.setattr(
        "benchmarks.validity.cli.write_experiments", lambda: vs.write_experiments(tmp_path)
    )
    assert v.main(["--experiments"]) == 0
    written = sorted(tmp_path.iterdir())
    assert [p.name for p in written] == [
        f"large_scale_{n}.yaml"
        for n in ("adders", "bridge", "field", "ford", "pass", "raid", "siege")
    ]
    for p in written:
        shipped_file = ROOT / "experiments" / p.name
        assert p.read_text(encoding="utf-8") == shipped_file.read_text(encoding="utf-8")
    assert len(capsys.readouterr().out.splitlines()) == len(written)


def test_a_row_measures_gaps_on_paired_battles():
    arm = vs.Arm("x", "x")
    won = np.array([[1, 2, 0, 0], [2, 3, 0, 0], [0, 4, 1, 0], [1, 2, 0, 0]])
    lost = np.array([[2, 4, 0, 0], [2, 3, 0, 0], [2, 4, 0, 0], [1, 2, 0, 0]])
    row = shipped.ShippedRow(
        "t", "wargame", 12, "turns", ("a", "b"), 0,
        {"default": shipped.Outcomes(arm, won), "small": shipped.Outcomes(arm, lost)},
    )  # fmt: skip
    assert row.diff("default")[0] == pytest.approx(0.25)  # a: 2 of 4 against 1 of 4
    points, ratio = row.gap("default")
    assert points == pytest.approx(0.5)  # b: 1 of 4 against 3 of 4
    assert ratio == pytest.approx(11 / 13)
    assert not row.agrees("default") and not row.explained
    assert row.arms["default"].routs == 1 and row.arms["default"].draws == 1


# ------------------------------------------------------------------------- the invariant
@pytest.mark.slow
def test_every_shipped_scenario_agrees_with_small_scale_or_its_seed_rules_explain_it():
    """For every shipped scenario of more than 10 fighters: within 5 points and 25% of small
    scale, or within those once every seed rule of large scale is off (issue 30)."""
    with v.Runner(1) as runner:
        rows = shipped.scenarios_study(runner, 150)
    bad = [c for c in shipped.scenario_checks(rows) if not c.passed]
    assert not bad, bad
    assert {r.name for r in rows} == {p.stem for p in vs.shipped_scenarios()}


@pytest.mark.slow
def test_faction_pools_end_their_fights_and_let_the_bigger_side_win():
    """RULES.md 1.12: a pooled fight may not end at max_rounds for want of harm where the same
    fight at small scale ends, and the bigger of two identical sides wins, more with the ratio.
    """
    with v.Runner(1) as runner:
        rows = shipped.pools_study(runner, 150)
    checks = shipped.pools_checks(rows)
    assert len(checks) == len(shipped.POOL_SIZES) + 4 + 2  # stalls; 4 sizes; rise; 20 v 16
    bad = [c for c in checks if not c.passed]
    assert not bad, bad


def test_the_literal_pools_would_fail_the_pools_invariant():
    """The check can fail: the seed's literal pools end every fight at max_rounds."""
    text = v.config_text(
        "wargame", "everyday", 10, 8, battle={"large_scale": "pools", "morale": "none"}
    )
    point = v.Point("literal", text, 6, overrides=("rules.options.pool=literal",))
    with v.Runner(1) as runner:
        sample = runner.run([point])["literal"]
    assert shipped.PoolsRow.stalls(sample) == 6
