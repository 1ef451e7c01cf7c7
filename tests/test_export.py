"""sim export: a dataset's tables as flat CSV or Parquet files, never over an existing one."""

from __future__ import annotations

import csv
import io
import json

import pyarrow.parquet as pq
import pytest

from sim.analysis import export
from sim.dataset import records
from sim.errors import SimError
from tests.test_analysis import after_row, hand  # noqa: F401  (a fixture)
from tests.test_plots import sweep_dataset
from tests.test_runner import cli


def test_plain_names_are_words_and_unique():
    got = export.plain_names(
        ["sides.guards.tactic", "sides.troopers.fighters[1].count", "a-b", "a b", "1x", "Run"]
    )
    assert got == [
        "sides_guards_tactic",
        "sides_troopers_fighters_1_count",
        "a_b",
        "a_b_2",
        "x1x",
        "run",
    ]


def test_runs_as_csv_with_a_column_per_side_and_figure(capsys, tmp_path, hand):  # noqa: F811
    out = tmp_path / "runs.csv"
    code, text, err = cli(capsys, "export", hand.root, "--out", out)
    assert code == 0 and text.strip() == f"runs: {out} (6 rows, 32 columns)"
    rows = list(csv.DictReader(io.StringIO(out.read_text())))
    header = list(rows[0])
    assert header[:3] == ["run_id", "seed", "arms"]
    assert all(h.replace("_", "").isalnum() and h == h.lower() for h in header)
    assert {"red_dead", "blue_fled", "blue_leader_status", "error"} <= set(header)
    assert "sides" not in header
    first, failed = rows[0], rows[5]
    assert (first["arms"], first["winner"], first["red_dead"], first["blue_dead"]) == (
        "b",
        "blue",
        "3",
        "0",
    )
    assert failed["error"] == "boom" and failed["red_dead"] == "" and failed["rounds"] == ""


def test_several_tables_as_parquet_in_a_new_folder(tmp_path, hand):  # noqa: F811
    records.write_part(
        hand.root, "aftermath", [after_row(1, "x", 0, "dead", True, False)], "000000"
    )
    out = tmp_path / "flat"
    written = export.export(hand, out, ["runs", "aftermath"], "parquet")
    assert [(t, p.name, n) for t, p, n, _ in written] == [
        ("runs", "runs.parquet", 6),
        ("aftermath", "aftermath.parquet", 1),
    ]
    after = pq.read_table(out / "aftermath.parquet").to_pylist()[0]
    assert after["arms"] == "a" and after["seed"] == 1
    assert json.loads(after["treated_by"]) == [] and after["status"] == "dead"
    runs = pq.read_table(out / "runs.parquet")
    assert "red_dead" in runs.column_names and "sides" not in runs.column_names


def test_nothing_is_overwritten(capsys, tmp_path, hand):  # noqa: F811
    out = tmp_path / "runs.csv"
    out.write_text("mine\n")
    code, _, err = cli(capsys, "export", hand.root, "--out", out)
    assert (
        code == 2
        and err == f"sim export: error: {out} exists; sim export writes only a new file or folder\n"
    )
    assert out.read_text() == "mine\n"
    folder = tmp_path / "flat"
    folder.mkdir()
    with pytest.raises(SimError, match="exists"):
        export.export(hand, folder, ["runs", "runs"], "parquet")
    assert not any(folder.iterdir())
    assert sorted(p.name for p in tmp_path.iterdir()) == ["flat", "hand", "runs.csv"], (
        "no leftovers"
    )


def test_a_table_the_dataset_lacks_is_refused(capsys, tmp_path, hand):  # noqa: F811
    code, _, err = cli(
        capsys, "export", hand.root, "--out", tmp_path / "f.csv", "--table", "fighters"
    )
    assert code == 2 and f"{hand.root} has no fighters table; it has runs" in err
    assert not (tmp_path / "f.csv").exists()
    code, _, err = cli(
        capsys, "export", hand.root, "--out", tmp_path / "f.csv", "--table", "fighter"
    )
    assert code == 2 and "invalid choice: 'fighter'" in err


def test_parameters_with_clashing_tails_stay_apart(tmp_path):
    ds = sweep_dataset(
        tmp_path, {"sides.a.fighters[1].count": [1, 2], "sides.b.fighters[1].count": [3]}
    )
    frame = export.flat_table(ds, "runs")
    assert {"sides_a_fighters_1_count", "sides_b_fighters_1_count"} <= set(frame.columns)


FORMULAS = ['=HYPERLINK("http://x","y")', "@SUM(A1)", "+1+1", "-2+3", "\tx", "\r=1"]


def test_csv_cells_a_spreadsheet_would_run_are_neutralised(tmp_path):
    from tests.test_analysis import make_dataset, run, side

    names = ["=cmd|' /C calc'!A0", "@SUM(A1)"]
    rows = [
        run(i, FORMULAS[i], names[i % 2], -1 if i else 3, [side(names[0]), side(names[1])])
        for i in range(len(FORMULAS))
    ]
    ds = make_dataset(tmp_path / "ds", rows)
    out = tmp_path / "runs.csv"
    export.export(ds, out)
    got = list(csv.DictReader(io.StringIO(out.read_bytes().decode("utf-8"), newline="")))
    assert [r["arms"] for r in got] == ["'" + f for f in FORMULAS]
    assert {r["winner"] for r in got} == {"'" + n for n in names}
    assert [r["rounds"] for r in got] == ["3", "-1", "-1", "-1", "-1", "-1"], "numbers stay"
    flat = tmp_path / "runs.parquet"
    export.export(ds, flat, fmt="parquet")
    assert pq.read_table(flat).column("arms").to_pylist() == FORMULAS, "Parquet keeps values"
