"""sim analyze reads unambiguously: distinct headers, declared order, named axes."""

from __future__ import annotations

from sim import analysis
from sim.analysis import report
from sim.cli.text import analyze_text
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


def test_a_sides_header_always_says_whose():
    names = analysis.short_names(
        [
            "sides.raiders.fighters[1].count",
            "sides.guards.tactic.params.reserve",
            "sides.guards.fighters[0].hit_dice",
            "rules.options.pool",
        ]
    )
    assert names == {
        "sides.raiders.fighters[1].count": "raiders.fighters[1].count",
        "sides.guards.tactic.params.reserve": "guards.tactic.params.reserve",
        "sides.guards.fighters[0].hit_dice": "guards.fighters[0].hit_dice",
        "rules.options.pool": "options.pool",
    }


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


SKILLS = ["unskilled", "competent", "specialized"]  # alphabetical: competent, specialized, ...


def declared_dataset(tmp_path, params):
    """:func:`sweep_dataset` whose manifest keeps the design's points, as a sweep's does."""
    import itertools

    from sim.dataset import records

    ds = sweep_dataset(tmp_path, params)
    points = [dict(zip(params, vs, strict=True)) for vs in itertools.product(*params.values())]
    records.write_manifest(ds.root, {**ds.manifest, "points": points, "parameters": list(params)})
    return analysis.load(ds.root)


def test_levels_keep_the_declared_order_in_tables(tmp_path):
    ds = declared_dataset(tmp_path, {"aftermath.healers[0].skill": SKILLS, "n": [4, 1, 2]})
    assert ds.declared("aftermath.healers[0].skill") == SKILLS
    s = analysis.summarize(ds)
    assert list(dict.fromkeys(s.frame["aftermath.healers[0].skill"])) == SKILLS
    assert list(s.frame["n"][:3]) == [1, 2, 4], "numbers ascending"
    one = analysis.summarize(ds, ["aftermath.healers[0].skill"])
    lines = analyze_text(ds.root, ["aftermath.healers[0].skill"]).splitlines()
    rows = [ln.split()[0] for ln in lines if ln.split() and ln.split()[0] in SKILLS]
    assert rows == SKILLS * 2, "both tables in the declared order"
    assert [one.group_values(i) for i in range(3)] == SKILLS


def test_levels_keep_the_declared_order_in_charts(tmp_path):
    from sim.analysis import plots

    ds = declared_dataset(tmp_path, {"sides.red.tactic": SKILLS})
    ax = plots.chart(analysis.summarize(ds), "win").axes[0]
    assert [t.get_text() for t in ax.get_xticklabels()] == SKILLS
    two = declared_dataset(
        tmp_path / "2", {"sides.red.tactic": SKILLS, "sides.blue.tactic": ["z", "a"]}
    )
    ax = plots.chart(analysis.summarize(two), "win").axes[0]
    assert [t.get_text() for t in ax.get_yticklabels()] == SKILLS
    assert [t.get_text() for t in ax.get_xticklabels()] == ["z", "a"]


def test_a_dataset_without_points_sorts_as_before(tmp_path):
    ds = sweep_dataset(tmp_path, {"sides.red.tactic": SKILLS})
    assert ds.declared("sides.red.tactic") == []
    s = analysis.summarize(ds)
    assert list(s.frame["sides.red.tactic"]) == sorted(SKILLS)


def test_list_values_read_as_the_experiment_writes_them():
    from sim.analysis.fmt import _fmt_value

    assert _fmt_value('["plate"]') == "[plate]"
    assert _fmt_value('["chain", "medium"]') == "[chain, medium]"
    assert _fmt_value('{"roll": "d6"}') == "{roll: d6}"
    assert _fmt_value("[1, 2.5, null, true]") == "[1, 2.5, null, true]"
    assert _fmt_value("[not json") == "[not json"
    assert _fmt_value("balanced") == "balanced"
