"""The validation studies (``benchmarks/validity/``, ``docs/validation.md``) as tests.

Fast tests: the exact Lanchester dynamic program (Brown's stochastic square and linear laws,
checked against figures worked out by hand), the study scenarios, the seeds, and that the
results do not depend on the worker count.

Slow tests keep the report's invariants with fewer battles (the first battles of the
report's own, as the seeds depend only on each battle set's key and the run): identical sides
win equally often in either order; no rung of a ladder does significantly worse than the
rung below; the bigger of two identical sides wins more often than not, and more as the
ratio grows; the same battle at large scale and forced small agrees within 5 points and 25%
of its length. So that a test fails by chance no more often than one check of the report
(1%), a test of several checks on few battles uses intervals made wider for their number
(Bonferroni, :func:`benchmarks.validity.family_z`), and the scale test fails when the paired
99% interval of the difference lies wholly beyond 5 points (the report, with 2,000 battles
an arm, holds the point estimate to 5 points).

Every invariant holds on today's model (issue 14 fixed the War Game's, which failed: a
stalled 2 v 1, and faction pools that ignored head count). One that breaks again may be
marked ``xfail(strict=True)`` with the fault as its reason, never quietly skipped.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from benchmarks import validity as v
from sim.battle.battle import Battle
from sim.scenario import parse_scenario

SYSTEMS = v.SYSTEMS


# ------------------------------------------------------------------------- Lanchester's laws
def test_square_law_two_beat_one_five_times_in_six():
    law = v.lanchester(2, 1, "square", exact=True)
    assert law.p_a == Fraction(5, 6)
    # (2,1) -> (2,0) with 2/3; -> (1,1) with 1/3, then (1,0) or (0,1) with 1/2 each
    assert law.mean_a == Fraction(2 * 2, 3) + Fraction(1, 6)
    assert law.mean_b == Fraction(1, 6)


def test_square_law_ten_beat_eight():
    assert round(v.lanchester(10, 8, "square").p_a, 4) == 0.7914


def test_linear_law_ten_beat_eight():
    law = v.lanchester(10, 8, "linear", exact=True)
    # B loses 8 before A loses 10: a fair coin's 8th tail before its 10th head
    by_hand = sum(Fraction(math.comb(7 + k, k), 2 ** (8 + k)) for k in range(10))
    assert law.p_a == by_hand
    assert round(float(law.p_a), 5) == 0.68547


def test_laws_are_fair_between_equal_sides_and_floats_match_fractions():
    for law in ("square", "linear"):
        assert v.lanchester(5, 5, law, exact=True).p_a == Fraction(1, 2)
        exact = v.lanchester(7, 4, law, exact=True)
        approx = v.lanchester(7, 4, law)
        assert approx.p_a == pytest.approx(float(exact.p_a), abs=1e-12)
        assert approx.mean_winner == pytest.approx(float(exact.mean_winner), abs=1e-12)


def test_square_law_hundred_against_eighty_keeps_about_sixty():
    law = v.lanchester(100, 80, "square")
    assert 0.99 < law.p_a < 1
    assert 57 < law.mean_a < math.sqrt(100**2 - 80**2)  # a little under the deterministic 60
    assert v.lanchester(100, 80, "linear").mean_a < law.mean_a


def test_lanchester_rejects_an_unknown_law_and_empty_battles():
    with pytest.raises(ValueError, match="square"):
        v.lanchester(2, 1, "cubic")
    with pytest.raises(ValueError):
        v.lanchester(0, 0)


# ------------------------------------------------------------------------- scenarios
@pytest.mark.parametrize("system", SYSTEMS)
@pytest.mark.parametrize("config", sorted(v.CONFIGS))
def test_every_study_scenario_is_valid_and_switches_scale_where_asked(system, config):
    text = v.config_text(system, config, 6, 5, battle=v.ATTRITION)
    sc = parse_scenario(text)
    assert sc.rules == system
    assert [len(s.fighters) for s in sc.sides] == [6, 5]
    assert dict(sc.battle) == v.ATTRITION
    assert Battle(sc, seed=1).large  # 11 > 10: large scale by default
    small = parse_scenario(v.config_text(system, config, 6, 5, large_scale_above=v.FORCE_SMALL))
    where = small.options if system == "wargame" else small.frame
    assert where["large_scale_above"] == v.FORCE_SMALL
    assert not Battle(small, seed=1).large


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_ladder_rung_is_a_valid_scenario(system):
    for ladder in v.LADDERS[system]:
        for point in ladder.points(1):
            parse_scenario(point.text)


@pytest.mark.parametrize("system", SYSTEMS)
def test_one_hit_fighters_are_out_after_one_wound(system):
    text = v.config_text(system, "one_hit", 3, 3, battle=v.ATTRITION)
    sc = parse_scenario(text)
    hurt = 0
    for seed in range(40):
        battle = Battle(sc, seed=seed)
        battle.run()
        for row in battle.fighter_rows():
            if row["wounds_taken"]:
                hurt += 1
                assert row["status"] in ("incapacitated", "dead"), (seed, row)
    assert hurt > 40


def test_the_scenario_option_prints_a_study_scenario(capsys):
    assert v.main(["--scenario", "deathwish", "one_hit", "10", "8"]) == 0
    sc = parse_scenario(capsys.readouterr().out)
    assert sc.rules == "deathwish" and sc.options["incapacitate_slight"] == 1.0
    assert [len(s.fighters) for s in sc.sides] == [10, 8]


# ------------------------------------------------------------------------- seeds and workers
def test_seeds_depend_on_the_key_and_run_only():
    ten = v.point_seeds("k", 10)
    assert list(v.point_seeds("k", 4)) == list(ten[:4])  # the quick run is a prefix
    assert list(v.point_seeds("k", 10, 6)) == list(ten[6:])
    assert list(v.point_seeds("other", 4)) != list(ten[:4])


def test_results_do_not_depend_on_workers_or_chunks():
    point = v.Point("workers", v.config_text("d6", "everyday", 2, 2), 23)
    whole = v.fight(point, 0, 23)
    with v.Runner(1) as one:
        serial = one.run([point])["workers"].rows
    with v.Runner(2) as two:
        parallel = two.run([point])["workers"].rows
    assert np.array_equal(whole, serial) and np.array_equal(whole, parallel)


def test_a_runner_refuses_two_points_with_one_key():
    point = v.Point("same", v.config_text("d6", "everyday", 1, 1), 1)
    with v.Runner(1) as runner, pytest.raises(ValueError, match="keys"):
        runner.run([point, point])


def test_drop_test_flags_only_a_significant_drop():
    assert v.drop_z(v.Share(60, 100), v.Share(40, 100)) > v.Z99_ONE_SIDED
    assert v.drop_z(v.Share(50, 100), v.Share(45, 100)) < v.Z99_ONE_SIDED
    assert v.drop_z(v.Share(40, 100), v.Share(60, 100)) < 0


def test_family_quantiles_widen_with_the_number_of_checks():
    assert v.family_z(1) == pytest.approx(v.Z99)
    assert v.family_z(1, sides=1) == pytest.approx(v.Z99_ONE_SIDED)
    assert v.family_z(4) == pytest.approx(3.0233, abs=1e-4)  # 99.875% two-sided
    assert v.family_z(4) > v.family_z(1)


def test_the_report_renders_every_study(tmp_path):
    reps = v.Replicates(
        mirror=4, monotone=3, lanchester=3, survivors=2, continuity=4, ratio=3, shipped=2, pools=2
    )
    with v.Runner(1) as runner:
        res = v.run_all(runner, reps, ["2w2p"])
    charts = v.draw_charts(res, tmp_path / "charts")
    assert sorted(charts) == ["lanchester", "mirror", "monotone", "scale", "shipped"]
    assert all(p.stat().st_size > 1000 for p in charts.values())
    text = v.render(res, {k: f"charts/{k}.png" for k in charts}, "cmd", 1.0)
    for heading in (
        "## Summary",
        "## a. Mirror",
        "## b. Monotone",
        "## c. Lanchester",
        "## d. 100 v 80",
        "## e. Small and large scale",
        "## f. The shipped scenarios at both scales",
        "## Re-running",
    ):
        assert heading in text
    assert "(charts/lanchester.png)" in text
    assert f"of {len(res.checks())} invariants pass" in text


def test_every_study_module_is_in_the_registry_once():
    import importlib
    import pkgutil

    from benchmarks.validity import studies

    modules = [m.name for m in pkgutil.iter_modules(studies.__path__)]
    registered = [importlib.import_module(f"{studies.__name__}.{m}").STUDY for m in modules]
    assert sorted(s.name for s in registered) == sorted(s.name for s in v.STUDIES)
    parts = [p.name for s in v.STUDIES for p in s.parts]
    assert len(set(parts)) == len(parts)
    assert list(v.FULL) == list(v.QUICK) == parts


def test_a_new_study_is_run_checked_and_reported_from_its_study_object_alone(tmp_path):
    def duels(runner, runs, systems):
        points = [v.Point(f"duel/{s}", v.config_text(s, "everyday", 2, 1), runs) for s in systems]
        return list(runner.run(points).values())

    def checks(res):
        return [v.Check("duel", "d6", "2 v 1 fought", True, f"{len(res.rows['duel'])} sample")]

    duel = v.Study(
        "duel",
        (v.Part("duel", duels, full=3, quick=2),),
        lambda res, charts: "## f. Duel\n",
        checks,
        summary="f. duel",
    )
    with v.Runner(1) as runner:
        res = v.run_all(runner, v.Replicates.quick([duel]), ["d6"], studies=[duel])
    assert res.rows["duel"][0].runs == 2 and res.battles == {"duel": 2}
    assert [c.figures for c in res.checks()] == ["1 sample"]
    assert v.draw_charts(res, tmp_path) == {}
    text = v.render(res, {}, "cmd", 1.0)
    assert "## f. Duel" in text and "| f. duel | 1/1 PASS |" in text
    assert "| duel | 2 | 2 |" in text  # the re-running table's row
    assert "A `--quick` run" in text


# ------------------------------------------------------------------------- the invariants
# Fewer battles than the report; each test reuses the study function of the report.
@pytest.mark.slow
@pytest.mark.parametrize("system", SYSTEMS)
def test_identical_sides_win_equally_often_in_either_order(system):
    with v.Runner(1) as runner:
        rows = v.mirror_study(runner, 300, [system])
    bad = [c for c in v.mirror_checks(rows, v.family_z(len(rows))) if not c.passed]
    assert not bad, bad


@pytest.mark.slow
@pytest.mark.parametrize("system", SYSTEMS)
def test_a_stronger_side_never_does_significantly_worse(system):
    with v.Runner(1) as runner:
        results = v.monotone_study(runner, 150, [system])
    steps = sum(len(r.steps) for r in results)
    bad = [c for c in v.monotone_checks(results, v.family_z(steps, sides=1)) if not c.passed]
    assert not bad, bad
    assert all(r.rises for r in results if r.ladder.name in ("fighters", "skill"))


@pytest.mark.slow
@pytest.mark.parametrize("system", SYSTEMS)
def test_the_bigger_side_wins_man_to_man(system):
    """Small scale (forced for 10 v 8 and 20 v 16), morale off: the bigger side wins."""
    with v.Runner(1) as runner:
        rows = v.lanchester_study(runner, 150, [system], sizes=((2, 1), (4, 3)))
        rows += v.lanchester_study(
            runner, 150, [system], sizes=((10, 8), (20, 16)), scales=("small (forced)",)
        )
    assert len(rows) == 8
    bad = [c for c in v.lanchester_checks(rows) if not c.passed]
    assert not bad, bad


@pytest.mark.slow
@pytest.mark.parametrize("system", SYSTEMS)
def test_the_bigger_side_wins_at_large_scale_with_morale_off(system):
    with v.Runner(1) as runner:
        rows = v.lanchester_study(
            runner, 300, [system], sizes=((10, 8), (20, 16)), scales=("default",)
        )
    assert {r.scale for r in rows} == {"large"}
    bad = [c for c in v.lanchester_checks(rows) if not c.passed]
    assert not bad, bad


@pytest.mark.slow
@pytest.mark.parametrize("system", SYSTEMS)
def test_at_large_scale_the_bigger_side_wins_more_as_the_ratio_grows(system):
    with v.Runner(1) as runner:
        rows = v.ratio_study(runner, 150, [system])
    bad = [c for c in v.ratio_checks(rows) if not c.passed]
    assert not bad, bad


@pytest.mark.slow
@pytest.mark.parametrize("system", SYSTEMS)
def test_crossing_the_large_scale_threshold_keeps_the_result(system):
    with v.Runner(1) as runner:
        (row,) = v.continuity_study(runner, 600, [system])
    assert not row.wins_clearly_apart, v.continuity_checks([row])[0]
    assert row.length_pass, v.continuity_checks([row])[1]
