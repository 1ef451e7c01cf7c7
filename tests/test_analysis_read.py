"""sim analyze reads unambiguously: distinct headers, declared order, named axes."""

from __future__ import annotations

from sim import analysis, report
from sim.text import analyze_text
from tests.test_plots import sweep_dataset
from tests.test_report import Parts

TWIN = {
    "sides.troopers.fighters[1].count": [1, 2],
    "sides.pirates.fighters[1].count": [3, 4],
}


def test_short_names_are_the_shortest_unique_suffix():
    names = analysis.short_names(
        ["sides.troopers.fighters[1].count", "sides.pirates.fighters[1].count", "rules.system"]
    )
    assert names == {
        "sides.troopers.fighters[1].count": "troopers.fighters[1].count",
        "sides.pirates.fighters[1].count": "pirates.fighters[1].count",
        "rules.system": "rules.system",
    }
    # one path the tail of another: the longer one grows to its whole length
    assert analysis.short_names(["a.b.c", "x.a.b.c", "tactic"]) == {
        "a.b.c": "a.b.c",
        "x.a.b.c": "x.a.b.c",
        "tactic": "tactic",
    }
    assert analysis.short_names(["sides.guards.tactic"]) == {"sides.guards.tactic": "guards.tactic"}


def test_a_label_equal_to_another_header_still_says_which():
    names = analysis.short_names(
        ["sides.a.tactic", "sides.b.tactic"], {"sides.a.tactic": "b.tactic"}
    )
    assert names == {"sides.a.tactic": "b.tactic (a.tactic)", "sides.b.tactic": "b.tactic"}


def test_terminal_headers_are_distinct(tmp_path):
    ds = sweep_dataset(tmp_path, TWIN)
    lines = analyze_text(ds.root).splitlines()
    headers = [ln for ln in lines if ln.startswith("troopers.fighters[1].count")]
    assert len(headers) == 2, "both tables name the parameters apart"
    assert all("pirates.fighters[1].count" in h for h in headers)


def test_report_headers_are_distinct(tmp_path):
    ds = sweep_dataset(tmp_path, TWIN)
    page = Parts()
    page.feed(report.render(ds, analysis.summarize(ds)))
    assert page.cells.count("troopers.fighters[1].count") == 2
    assert page.cells.count("pirates.fighters[1].count") == 2
    assert "fighters[1].count" not in page.cells
