"""sim analyze: the summary in each format, charts and reports, and clear errors."""

from __future__ import annotations

import csv
import io
import json

from sim import analysis
from tests.test_analysis import hand  # noqa: F401  (a fixture)
from tests.test_plots import png_size
from tests.test_runner import cli, write


def test_the_table_shows_each_group_aligned(capsys, hand):  # noqa: F811
    code, out, err = cli(capsys, "analyze", hand.root)
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "t: 6 runs (1 failed) in 2 groups by arms"
    header = next(ln for ln in lines if ln.startswith("arms  runs"))
    assert "red win [95% CI]" in header and "rounds [95% CI]" in header
    assert "draw [95% CI]" in header and "red of decisive [95% CI]" in header
    assert "blue of decisive" not in header, "two sides: the second's share is the rest"
    rows = [ln for ln in lines if ln.startswith(("a  ", "b  "))]
    assert len(rows) == 4  # each group in both tables
    assert "66.7% [20.8-93.9]" in rows[0]  # 2 of 3, Wilson
    widths = {len(ln) for ln in lines[lines.index(header) : lines.index(header) + 4]}
    assert len(widths) == 1, "columns are aligned"


def test_json_is_a_list_of_group_objects(capsys, hand):  # noqa: F811
    code, out, _ = cli(capsys, "analyze", hand.root, "--format", "json")
    groups = json.loads(out)
    assert code == 0 and [g["arms"] for g in groups] == ["a", "b"]
    assert groups[1]["runs"] == 3 and groups[1]["failed"] == 1
    lo = float(analysis.wilson(2, 2)[1])
    assert groups[1]["win_rate"]["blue"] == {"p": 1.0, "lo": lo, "hi": 1.0}
    assert groups[0]["decisive_win_rate"]["red"]["p"] == 1.0  # 2 of the 2 that were won
    assert groups[0]["draw_rate"]["p"] == 1 / 3


def test_csv_has_every_figure(capsys, hand):  # noqa: F811
    code, out, _ = cli(capsys, "analyze", hand.root, "--format", "csv", "--by")
    assert code == 2  # --by needs a parameter
    code, out, _ = cli(capsys, "analyze", hand.root, "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert code == 0 and len(rows) == 2
    assert float(rows[0]["win.red"]) == 2 / 3 and rows[0]["casualties.blue.fled"]


def test_plot_and_report_are_written(capsys, tmp_path, hand):  # noqa: F811
    png, page = tmp_path / "charts" / "a.png", tmp_path / "r.html"
    code, out, _ = cli(capsys, "analyze", hand.root, "--plot", png, "--report", page)
    assert code == 0
    assert f"plot: {png}" in out and f"report: {page}" in out
    assert png_size(png.read_bytes()) == (1200, 900)
    assert "<table>" in page.read_text()


def test_json_stdout_stays_json_with_a_plot(capsys, tmp_path, hand):  # noqa: F811
    code, out, err = cli(
        capsys, "analyze", hand.root, "--format", "json", "--plot", tmp_path / "a.png"
    )
    assert code == 0 and json.loads(out) and err.startswith("plot: ")


def test_errors_are_one_line(capsys, tmp_path, hand):  # noqa: F811
    code, out, err = cli(capsys, "analyze", tmp_path / "nothing")
    assert code == 2 and err.count("\n") == 1 and "not a dataset" in err
    code, out, err = cli(capsys, "analyze", hand.root, "--by", "arm")
    assert code == 2 and err.count("\n") == 1 and "did you mean 'arms'" in err


def test_a_sweep_ends_with_its_analysis(capsys, tmp_path):
    exp = write(
        tmp_path,
        f"""\
        name: tiny
        scenario: {__import__("pathlib").Path("scenarios/skirmish.yaml").resolve()}
        parameters:
          sides.bandits.tactic: [balanced, aggressive]
        replicates: 5
        seed: 3
        tables: [runs]
        """,
    )
    out_dir = tmp_path / "out"
    code, out, _ = cli(capsys, "sweep", exp, "--out", out_dir, "--workers", "1")
    assert code == 0
    _, again, _ = cli(capsys, "analyze", out_dir)
    assert out.rstrip().endswith(f"(sim analyze {out_dir} prints this again)")
    assert again.strip() in out
