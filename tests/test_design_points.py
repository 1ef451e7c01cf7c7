"""Design points (issue 15): ``label:`` in a list design, common random numbers
(``seeds: shared``) with paired differences, and ``sim sweep --replicates`` previews."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pandas as pd

from sim.cli import main
from sim.experiment import load_experiment

ROOT = Path(__file__).resolve().parents[1]
SKIRMISH = ROOT / "scenarios" / "skirmish.yaml"


def write(tmp_path, body, name="exp.yaml"):
    path = tmp_path / name
    path.write_text(
        f"scenario: {SKIRMISH}\n" + textwrap.dedent(body).lstrip("\n"), encoding="utf-8"
    )
    return path


def cli(capsys, *argv):
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


LABELLED = """
design: list
points:
  - {max_rounds: 5, label: short fight}
  - {max_rounds: 30, label: long fight}
replicates: 3
seed: 3
"""


def test_list_design_labels_are_a_column_and_shown_in_every_table(tmp_path, capsys):
    path = write(tmp_path, LABELLED)
    exp = load_experiment(path)
    assert exp.parameters == ("max_rounds",)
    assert exp.point_labels == ("short fight", "long fight")
    out = tmp_path / "out"
    code, stdout, err = cli(capsys, "sweep", path, "--out", out, "--executor", "serial")
    assert code == 0, err
    runs = pd.read_parquet(out / "runs")
    assert runs.sort_values("run_id")["label"].tolist() == ["short fight"] * 3 + ["long fight"] * 3
    code, text, _ = cli(capsys, "analyze", out)
    assert "2 groups by label, max_rounds" in text
    tables = [t for t in text.split("\n\n") if "-----" in t]
    assert len(tables) >= 2
    for table in tables:
        assert table.splitlines()[0].startswith("label")
        assert "short fight" in table and "long fight" in table
    code, js, _ = cli(capsys, "analyze", out, "--format", "json")
    assert '"label": "long fight"' in js


def test_a_label_must_be_text_and_unique(tmp_path):
    import pytest

    from sim.scenario import ScenarioError

    path = write(
        tmp_path,
        "design: list\npoints:\n  - {max_rounds: 5, label: a}\n  - {max_rounds: 6, label: a}\n",
    )
    with pytest.raises(ScenarioError) as err:
        load_experiment(path)
    assert str(err.value).splitlines() == [
        f"{path}:4: points[0].label: label 'a' names more than one point"
    ]
