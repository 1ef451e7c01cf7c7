"""experiments/history/against_history.py: the systems' force-ratio curves beside history's."""

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest
from matplotlib.image import imread

from tests.test_runner import cli

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "experiments" / "history" / "against_history.py"
LABELS = ["1-1.25", "1.25-2", "2-3", "3-5", "5+"]
SHAPE = (600, 1400, 4)


@pytest.fixture(scope="module")
def script():
    spec = importlib.util.spec_from_file_location("against_history", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("against_history", module)
    spec.loader.exec_module(module)
    return module


def _band_rows(text):
    """The Markdown table rows of each band, in the order printed."""
    cells = [line.split("|")[1].strip() for line in text.splitlines() if line.startswith("| ")]
    return [c for c in cells if set(c) != {"-"}]


def _synthetic(script):
    """Figures of five bands, made up: every kind of series, a failed check, a band with no
    decisive battles (NaN) and a default without an interval."""
    S = script.Series
    five = (0.5, 0.55, 0.6, 0.65, 0.8)
    wins = {
        "history": S(five, tuple(v - 0.08 for v in five), tuple(v + 0.08 for v in five), (9,) * 5),
        "wargame": S(
            (0.7, 1, 1, 1, 1), (0.6, 0.98, 0.98, 0.98, 0.98), (0.8, 1, 1, 1, 1), (200,) * 5
        ),
        "2w2p": S((0.6, 1, 1, 1, float("nan")), n=(180, 200, 200, 200, 0)),
        "deathwish": S((0.65, 0.9, 1, 1, 1)),
        "d6": S((0.66, 0.95, 1, 1, 1), (0.6, 0.9, 0.98, 0.98, 0.98), (0.7, 0.98, 1, 1, 1)),
        "fitted": S(five, (0.4,) * 5, (0.9,) * 5, (9,) * 5, (False, False, True, False, False)),
    }
    cost = {
        "history": S((0.17, 0.17, 0.12, 0.14, 0.36), n=(9,) * 5),
        "wargame": S((0.54, 0.58, 0.5, 0.58, 0.58)),
        "fitted": S((0.17,) * 5, (0.15,) * 5, (0.25,) * 5, (9,) * 5, (False,) * 4 + (True,)),
    }
    return script.Figures(tuple(LABELS), (1.12, 1.52, 2.29, 3.64, 6.98), wins, cost, cost)


def test_the_chart_is_drawn_and_written_from_figures(script, tmp_path):
    chart = tmp_path / "chart.png"
    script.write_chart(_synthetic(script), chart)
    assert imread(chart).shape == SHAPE
    assert [p.name for p in tmp_path.iterdir()] == ["chart.png"]  # no temporary file left
    text = script.markdown(_synthetic(script))
    rows = _band_rows(text)
    assert rows == ["band", *LABELS, "band", *LABELS]
    assert text.count("FAILS") == 3
    assert "60.0% [40.0-90.0] FAILS" in text
    assert "| 5+     | 6.98  | 80.0% [72.0-88.0] of 9 |" in text


def test_a_folder_that_is_not_the_sweeps_is_left_alone(script, tmp_path):
    (tmp_path / "field_curves").mkdir()
    (tmp_path / "field_curves" / "notes.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(SystemExit, match="holds no dataset, not field_curves's"):
        script.ensure(tmp_path, fresh=True)
    other = tmp_path / "other" / "field_curves"
    other.mkdir(parents=True)
    (other / "manifest.json").write_text(json.dumps({"experiment_name": "mine"}), "utf-8")
    with pytest.raises(SystemExit, match="holds the dataset of 'mine'"):
        script.ensure(tmp_path / "other", fresh=True)
    assert (tmp_path / "field_curves" / "notes.txt").read_text(encoding="utf-8") == "mine"
    assert (other / "manifest.json").exists()


def _run(*args):
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=900
    )


@pytest.mark.slow
def test_the_script_runs_both_sweeps_and_draws_the_chart(tmp_path, capsys):
    results, chart = tmp_path / "results", tmp_path / "img" / "against-history.png"
    chart.parent.mkdir()
    done = _run("--results", str(results), "--chart", str(chart))
    assert done.returncode == 0, done.stderr
    assert imread(chart).shape == SHAPE
    assert _band_rows(done.stdout) == ["band", *LABELS, "band", *LABELS]
    assert "sim sweep" in done.stderr and "predictive check:" in done.stderr
    answer = json.loads((results / "against_history" / "search" / "answer.json").read_text())
    first = next(c for c in answer["data"]["predictive"] if c["statistic"] == "wins.larger")
    assert f"{first['mean']:.1%} [{first['lo'] * 100:.1f}-" in done.stdout
    for flag, name in (("--plot", "p.png"), ("--report", "r.html")):  # as every shipped search
        code, printed, err = cli(
            capsys, "analyze", results / "against_history", flag, tmp_path / name
        )
        assert code == 0 and err == "", err
        assert (tmp_path / name).stat().st_size > 10_000 and f"{tmp_path / name}" in printed
    again = _run("--results", str(results), "--chart", str(chart))  # the datasets are kept
    assert again.returncode == 0, again.stderr
    assert again.stdout == done.stdout and "sim sweep" not in again.stderr
