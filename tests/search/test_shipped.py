"""The shipped searches answer, and their charts and report print nothing on stderr (issue 37).

Each search of ``experiments/`` (one at least for every design) is fought once,
serially, as a user would; ``sim analyze DIR --plot`` and ``--report`` of it then write
their files with nothing on stderr (numpy's RuntimeWarnings did, for the balance).
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from sim.search import is_search
from sim.search.designs import KINDS
from tests.test_runner import cli

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted(p for p in (ROOT / "experiments").rglob("*.yaml") if is_search(p))


def test_every_design_has_a_shipped_search():
    designs = {yaml.safe_load(p.read_text())["design"] for p in SHIPPED}
    assert designs == set(KINDS)


# against_history's search is swept, plotted and reported by tests/test_against_history.py,
# whose script fights it anyway (fighting it twice cost the suite 40 s)
PLOTTED = [p for p in SHIPPED if p.name != "against_history.yaml"]


@pytest.mark.slow
@pytest.mark.parametrize("experiment", PLOTTED, ids=lambda p: p.stem)
def test_a_shipped_search_plots_and_reports_quietly(tmp_path, capsys, experiment):
    out = tmp_path / "out"
    code, _, _ = cli(capsys, "sweep", experiment, "--out", out, "--workers", "1")
    assert code in (0, 1)  # the balance says no number of bandits is fair: exit 1
    for flag, name in (("--plot", "p.png"), ("--report", "r.html")):
        code, printed, err = cli(capsys, "analyze", out, flag, tmp_path / name)
        assert code == 0 and err == "", err
        assert (tmp_path / name).stat().st_size > 10_000 and f"{tmp_path / name}" in printed
