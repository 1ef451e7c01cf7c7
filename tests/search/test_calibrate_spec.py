"""A calibration's file is checked before the first battle, each problem located (exit 2)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sim.cli import main
from sim.scenario import ScenarioError
from sim.search import load_search
from sim.search.calibrate.read import ROW
from tests.search.calib_helpers import AMBUSH, BANDITS, HILD_HD
from tests.test_fuzz_cli import FUZZ, assert_clean, mutated, run

GOOD_CSV = f"""\
{BANDITS},battles,decisive,wins.guards,rounds,loser_out
3,40,38,55%,1.8,0.7
5,40,40,0.1,1.4,0.85
"""


def write(folder: Path, csv: str = GOOD_CSV, params: str = "", extra: str = "") -> Path:
    """A calibration beside its observed table ``observed.csv``; the experiment's path."""
    (folder / "observed.csv").write_text(csv, encoding="utf-8")
    params = (
        params or f"  battle.morale: {{choices: [all, none]}}\n  {HILD_HD}: {{low: 4, high: 8}}\n"
    )
    text = (
        f"name: cal\nscenario: {AMBUSH}\ndesign: calibrate\nparameters:\n{params}"
        f"observed: observed.csv\nbudget: 5000\n{extra}"
    )
    path = folder / "cal.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def issues(path: Path) -> list[str]:
    """The located problems of the file (none: it loads)."""
    try:
        load_search(path)
    except ScenarioError as err:
        return [str(i) for i in err.issues]
    return []


def test_a_good_calibration_reads_its_table_beside_it(tmp_path: Path) -> None:
    search = load_search(write(tmp_path))
    assert search.design == "calibrate"
    assert search.parameters == ("battle.morale", HILD_HD, ROW)
    table = search.settings.table
    assert [r.label for r in table.rows] == ["1", "2"]
    assert table.rows[0].value("wins.guards") == pytest.approx(0.55)
    assert table.rows[0].decisive == 38
    assert [s.name for s in table.stats] == ["wins.guards", "rounds", "loser_out"]
    assert search.settings.grid.size == 2 * 5
    assert table.rows[1].line == 3


def test_a_setting_that_is_not_a_path_of_the_scenario_is_located_in_the_csv(
    tmp_path: Path,
) -> None:
    csv = GOOD_CSV.replace(BANDITS, "sides.bandts.fighters[0].count")
    found = issues(write(tmp_path, csv))
    assert found == [
        f"{tmp_path / 'observed.csv'}:1: sides.bandts.fighters[0].count: sides.bandts is not "
        "in the scenario; did you mean 'bandits' or 'guards'?"
    ]


def test_a_bad_value_of_a_setting_is_located_at_its_row(tmp_path: Path) -> None:
    csv = GOOD_CSV.replace("\n5,40", "\n0,40")
    found = issues(write(tmp_path, csv))
    assert found and found[0].startswith(f"{tmp_path / 'observed.csv'}:3: {BANDITS}: ")


def test_a_statistic_the_dataset_has_no_column_for_is_located_at_the_header(
    tmp_path: Path,
) -> None:
    csv = GOOD_CSV.replace("wins.guards", "wins.pirates")
    found = issues(write(tmp_path, csv))
    assert found == [
        f"{tmp_path / 'observed.csv'}:1: wins.pirates: no statistic 'wins.pirates' in the "
        "dataset; did you mean 'wins.bandits' or 'wins.guards'?"
    ]


def test_an_empty_prior_range_is_located_in_the_experiment(tmp_path: Path) -> None:
    found = issues(write(tmp_path, params=f"  {HILD_HD}: {{low: 6, high: 6}}\n"))
    assert found == [
        f"{tmp_path / 'cal.yaml'}:5: parameters.{HILD_HD}: high (6) must be above low (6)"
    ]


def test_a_row_without_its_sample_size_is_refused(tmp_path: Path) -> None:
    csv = GOOD_CSV.replace("3,40,38", "3,,38")
    found = issues(write(tmp_path, csv))
    assert found and found[0].startswith(f"{tmp_path / 'observed.csv'}:2: battles: ")
    assert "sample size" in found[0]


def test_a_lone_carriage_return_ends_a_line_as_in_a_classic_mac_file(tmp_path: Path) -> None:
    """Before: the csv module's 'new-line character seen in unquoted field' traceback."""
    mac = GOOD_CSV.replace("\n", "\r")
    assert issues(write(tmp_path, mac)) == []
    cut = GOOD_CSV.replace("3,40,38,", "3,40,\r38,")  # a CR inside the first row
    assert issues(write(tmp_path, cut)) == [
        f"{tmp_path / 'observed.csv'}:2: 3 cells; the header has 6",
        f"{tmp_path / 'observed.csv'}:3: 4 cells; the header has 6",
    ]


def test_a_cell_too_long_for_csv_is_located_at_its_line(tmp_path: Path) -> None:
    huge = GOOD_CSV.replace("1.8", '"' + "1" * 140_000 + '"')
    assert issues(write(tmp_path, huge)) == [
        f"{tmp_path / 'observed.csv'}:2: a cell of over 131,072 characters"
    ]


def test_a_column_named_twice_is_refused_at_the_header(tmp_path: Path) -> None:
    """Before: accepted, and the last of the two silently won."""
    twice = GOOD_CSV.replace(",loser_out\n", ",rounds\n")
    assert issues(write(tmp_path, twice)) == [
        f"{tmp_path / 'observed.csv'}:1: column 'rounds' is named twice (columns 5 and 6); keep one"
    ]


@pytest.mark.parametrize(
    ("make", "said"),
    [
        (lambda p: p.mkdir(), "is a directory, not a file"),
        (lambda p: os.mkfifo(p), "not a regular file (a FIFO, socket or device); give a file"),
        (lambda p: p.symlink_to("/dev/zero"), "not a regular file"),
        (lambda p: p.symlink_to(p), "a loop of symbolic links; give a file"),
    ],
    ids=["folder", "fifo", "dev-zero", "link-loop"],
)
def test_an_observed_table_that_is_not_a_file_says_what_it_is(
    tmp_path: Path, make: Any, said: str
) -> None:
    """Before: each was 'observed table not found'."""
    path = write(tmp_path)
    (tmp_path / "observed.csv").unlink()
    make(tmp_path / "observed.csv")
    found = issues(path)
    assert len(found) == 1 and said in found[0], found
    assert found[0].startswith(f"{path}:7: observed: cannot read the observed table ")


def test_inline_rows_are_located_in_the_experiment(tmp_path: Path) -> None:
    path = tmp_path / "cal.yaml"
    path.write_text(
        f"name: cal\nscenario: {AMBUSH}\ndesign: calibrate\nparameters:\n"
        f"  {HILD_HD}: {{low: 4, high: 8}}\nobserved:\n"
        f'  - {{"{BANDITS}": 3, battles: 20, wins.guards: 0.5}}\n'
        f'  - {{"{BANDITS}": 4, battles: 20, wins.guards: 1.5}}\n',
        encoding="utf-8",
    )
    found = issues(path)
    assert found == [
        f"{path}:8: observed[1].wins.guards: expected a share such as 0.42 or 42%, got 1.5"
    ]


def test_the_first_batch_must_fit_the_budget(tmp_path: Path) -> None:
    found = issues(write(tmp_path, extra="start: 400\n"))
    assert any("cannot pay for the first batch" in f for f in found)


def test_sim_sweep_exits_2_before_a_battle(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, GOOD_CSV.replace("wins.guards", "wins.pirates"))
    out = tmp_path / "out"
    assert main(["sweep", str(path), "--out", str(out)]) == 2
    assert "observed.csv:1: wins.pirates" in capsys.readouterr().err
    assert not out.exists()


# ------------------------------------------------------------ hostile calibrations

CALIBRATION = (
    f"name: cal\nscenario: {AMBUSH}\ndesign: calibrate\nparameters:\n"
    f"  battle.morale: {{choices: [all, none]}}\n  {HILD_HD}: {{low: 4, high: 8}}\n"
    "observed: observed.csv\nlevels: 5\nstart: 20\nratio: 2\nbudget: 5000\n"
)


@FUZZ
@given(mutated(CALIBRATION), mutated(GOOD_CSV) | st.just(GOOD_CSV.encode()))
def test_hostile_calibrations_end_in_a_located_error(tmp_path_factory, experiment, table):
    folder = tmp_path_factory.mktemp("fuzz")
    (folder / "observed.csv").write_bytes(table)
    path = folder / "cal.yaml"
    path.write_bytes(experiment)
    code, err = run("validate", path)
    assert_clean(code, err, path)
