"""What observers record: statistics by role and definition, own sizes, covariate rows.

Read from an observed table as a calibration reads it (before any battle), each problem
located where it is.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sim.search import load_search
from sim.search.calibrate.observed import Z95
from tests.search.calib_helpers import BANDITS
from tests.search.test_calibrate_spec import issues, write

GUARDS = "sides.guards.fighters[1].count"
ROLES_CSV = f"""\
{BANDITS},battles,wins.larger,loser.lost.median,loser.lost.median.n,winner.down,winner.down.sd
3,40,17/30,0.16,25,0.05,0.1
5,40,55%,0.2,40,0.06,0.12
"""


def table(tmp_path: Path, csv: str, extra: str = "") -> object:
    return load_search(write(tmp_path, csv, extra=extra)).settings.table


def test_statistics_by_role_and_definition_with_their_own_sizes(tmp_path: Path) -> None:
    t = table(tmp_path, ROLES_CSV)
    first, second = t.rows
    assert [s.name for s in t.stats] == ["wins.larger", "winner.down", "loser.lost.median"]
    kinds = {s.name: (s.kind, s.decisive, s.side, s.what) for s in t.stats}
    assert kinds["wins.larger"] == ("share", True, "larger", "wins")
    assert kinds["loser.lost.median"] == ("median", True, "loser", "lost")
    assert kinds["winner.down"] == ("mean", True, "winner", "down")
    # a share written as a count is that count, with its own size
    assert first.value("wins.larger") == pytest.approx(17 / 30) and first.n("wins.larger") == 30
    assert second.n("wins.larger") is None and first.n("loser.lost.median") == 25
    assert first.sd("winner.down") == 0.1


def test_a_published_share_or_mean_with_its_interval(tmp_path: Path) -> None:
    csv = (
        f"{BANDITS},battles,wins.guards,wins.guards.lo,wins.guards.hi,rounds,rounds.lo,rounds.hi\n"
        "3,40,52%,0.45,0.59,2.0,1.8,2.2\n"
    )
    row = table(tmp_path, csv).rows[0]
    # the size a binomial share of 0.52 with that interval has: 0.52 * 0.48 / se^2
    assert row.n("wins.guards") == round(0.52 * 0.48 * (2 * Z95 / 0.14) ** 2) == 196
    assert row.se("rounds") == pytest.approx(0.4 / (2 * Z95))
    assert row.n("rounds") is None


@pytest.mark.parametrize(
    ("header", "cells", "message"),
    [
        ("wins.guards,wins.guards.lo", "0.5,0.4", "wins.guards.hi: wins.guards.lo is given: give"),
        ("wins.guards,wins.guards.lo,wins.guards.hi", "0.5,0.6,0.7", "must hold wins.guards"),
        ("loser.down.median,loser.down.median.lo,loser.down.median.hi", "0.5,0.4,0.6", "(.n)"),
        ("loser.down.median,loser.down.median.sd", "0.5,0.1", "a spread (.sd) is of a mean"),
        ("rounds,wins.guards.n", "2,30", "the row gives no wins.guards"),
        ("wins.guards,wins.guards.n", "17/30,40", "given as a count of 30, not 40"),
        ("wins.guards", "31/30", "expected a count such as 17/30"),
        ("attacker,wins.attacker", "pirates,0.5", "attacker: no side 'pirates'"),
        ("wins.defender", "0.5", "give an attacker column"),
        ("rounds,loser.fled", "2,0.5", "no statistic 'loser.fled'"),
    ],
)
def test_a_bad_column_beside_a_statistic_is_located(
    tmp_path: Path, header: str, cells: str, message: str
) -> None:
    found = issues(write(tmp_path, f"{BANDITS},battles,{header}\n3,40,{cells}\n"))
    assert len(found) == 1 and message in found[0], found
    assert found[0].startswith(f"{tmp_path / 'observed.csv'}:")


COVARIATES = f"""\
covariates:
  {BANDITS}: size
  {GUARDS}: {{value: size, times: ratio, round: nearest, min: 1}}
"""


def test_covariates_set_the_scenario_through_declared_mappings(tmp_path: Path) -> None:
    csv = "label,size,ratio,battles,wins.larger\nsmall,3,1.5,40,0.6\nsame,4,1.125,40,0.55\n"
    t = table(tmp_path, csv, COVARIATES)
    assert t.paths == (BANDITS, GUARDS)
    # 3 x 1.5 = 4.5, rounded half up; 4 x 1.125 = 4.5 too
    assert [dict(r.setting) for r in t.rows] == [{BANDITS: 3, GUARDS: 5}, {BANDITS: 4, GUARDS: 5}]
    assert dict(t.rows[0].shown) == {"size": 3, "ratio": 1.5}


@pytest.mark.parametrize(
    ("csv", "extra", "message"),
    [
        (
            "size,battles,rounds\n3,40,2\n",
            COVARIATES,
            "covariates.sides.guards.fighters[1].count: no column 'ratio' in the observed table",
        ),
        (
            "size,ratio,battles,rounds\n3,big,40,2\n",
            COVARIATES,
            "ratio: the covariates read this column: expected a number, got 'big'",
        ),
        (
            f"size,ratio,{BANDITS},battles,rounds\n3,2,3,40,2\n",
            COVARIATES,
            "the covariates set this path: give it in one place",
        ),
        (
            "size,ratio,battles,rounds\n3,2,40,2\n",
            f"covariates:\n  {GUARDS}: {{value: size, round: half}}\n",
            "expected one of nearest, down, up, got 'half'",
        ),
        (
            "size,battles,rounds\n3,40,2\n",
            f"covariates:\n  {GUARDS}: {{value: size, by: 2}}\n",
            "unknown key 'by'",
        ),
        (
            "size,battles,rounds\n3,40,2\n",
            f"covariates:\n  {GUARDS}: {{value: sides.x}}\n",
            "not a scenario path",
        ),
        ("size,ratio,battles,rounds\n0,2,40,2\n", COVARIATES, "must be 1..100000, got 0"),
    ],
)
def test_a_bad_covariate_is_located(tmp_path: Path, csv: str, extra: str, message: str) -> None:
    found = issues(write(tmp_path, csv, extra=extra))
    assert len(found) == 1 and message in found[0], found


def test_a_column_no_covariate_reads_is_refused_with_the_forms(tmp_path: Path) -> None:
    found = issues(write(tmp_path, f"{BANDITS},ratio,battles,rounds\n3,2,40,2\n"))
    assert len(found) == 1 and "no statistic 'ratio'" in found[0]
    assert "SIDE.lost" in found[0] and "covariates" in found[0]


def test_a_calibration_by_covariates_roles_and_medians_holds_the_truth(tmp_path: Path) -> None:
    """The simulator's own table at Hild 6 HD, by the bandits' band size (a covariate)."""
    from sim.search import run_search
    from tests.search.calib_helpers import HILD_HD, experiment, observe

    stats = ("wins.larger", "loser.lost.median", "winner.down")
    made = observe(tmp_path, {HILD_HD: 6}, {BANDITS: [2, 4]}, 30, seed=7, stats=stats)
    text = made.read_text(encoding="utf-8").replace(BANDITS, "size", 1)
    made.write_text(text, encoding="utf-8")
    extra = f"covariates:\n  {BANDITS}: {{value: size}}\nstart: 10\nratio: 1\n"
    exp = experiment(tmp_path, made, f"  {HILD_HD}: {{low: 4, high: 8}}\n", 2000, 3, extra)
    answer = run_search(load_search(exp), tmp_path / "out", progress=False).answer
    assert answer is not None and answer["status"] == "answered"
    (hd,) = answer["data"]["parameters"]
    assert hd["lo"] <= 6 <= hd["hi"] and (hd["lo"], hd["hi"]) != (4, 8)
    checks = answer["data"]["predictive"]
    assert {c["statistic"] for c in checks} == set(stats) and len(checks) == 6
    settings = [r[1] for r in answer["tables"][-1]["rows"]]
    assert settings[0] == "size=2"
