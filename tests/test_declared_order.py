"""Every table and chart of `sim analyze` keeps the order the experiment declares (issue 31).

For each design a small sweep of the skirmish (shared seeds, so the paired table shows too),
and for the campaign tables a two-point sweep of the campaign: the groups must come in the
declared order (a ``list`` design's: its points as written, labelled or not; a grid's: each
parameter's levels as written, numbers too; a sampled design's: numbers ascending) in
the summary, the outcome, loss and paired tables, the text, CSV and JSON outputs, the
report, and every chart.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import json

import pytest

import sim
from sim import analysis
from sim.analysis import plots, report
from sim.analysis.fmt import _fmt_value
from sim.cli import main
from sim.experiment import parse_experiment
from tests.test_docs import ROOT
from tests.test_report import Parts

TACTIC = "sides.guards.tactic"
HILD = "sides.guards.fighters[0].hit_dice"
CROW = "sides.bandits.fighters[0].hit_dice"

DESIGNS = {
    "grid": f"""
design: grid
parameters:
  {TACTIC}: [defensive, balanced, aggressive]
  {HILD}: [6, 4]
""",
    "list-labels": f"""
design: list
points:
  - {{label: reference, {TACTIC}: defensive, "{HILD}": 6}}
  - {{label: beta, {TACTIC}: aggressive, "{HILD}": 4}}
  - {{label: alpha, {TACTIC}: balanced, "{HILD}": 5}}
""",
    "list": f"""
design: list
points:
  - {{{TACTIC}: defensive, "{HILD}": 6}}
  - {{{TACTIC}: aggressive, "{HILD}": 4}}
  - {{{TACTIC}: defensive, "{HILD}": 4}}
""",
    **{
        design: f"""
design: {design}
samples: {samples}
parameters:
  {HILD}: {{low: 3, high: 7}}
  {CROW}: {{low: 3, high: 7}}
"""
        for design, samples in (("random", 5), ("lhs", 5), ("sobol", 2), ("morris", 2))
    },
}


def expected(design: str) -> list[tuple]:
    """The groups in the order the design declares them, worked out from the file alone."""
    if design == "grid":
        return list(itertools.product(["defensive", "balanced", "aggressive"], [6, 4]))
    if design == "list-labels":
        return [("reference", "defensive", 6), ("beta", "aggressive", 4), ("alpha", "balanced", 5)]
    if design == "list":
        return [("defensive", 6), ("aggressive", 4), ("defensive", 4)]
    return []  # sampled: numbers ascending, checked against the points themselves


def sweep(tmp_path, name: str, body: str, scenario: str = "skirmish", replicates: int = 3):
    text = f"name: {name}\nscenario: ../scenarios/{scenario}.yaml\n{body}"
    text += f"replicates: {replicates}\nseed: 5\nseeds: shared\n"
    exp = parse_experiment(text, str(ROOT / "experiments" / f"{name}.yaml"))
    with contextlib.redirect_stderr(io.StringIO()):
        path = sim.sweep(exp, out=tmp_path / name)
    return analysis.load(path)


@pytest.fixture(scope="module", params=list(DESIGNS))
def swept(request, tmp_path_factory):
    design = request.param
    ds = sweep(tmp_path_factory.mktemp(design), design.replace("-", "_"), DESIGNS[design])
    return design, ds, analysis.summarize(ds)


def groups(s: analysis.Summary) -> list[tuple]:
    return [tuple(r) for r in s.frame[list(s.by)].itertuples(index=False)]


def shown(values: list[tuple]) -> list[list[str]]:
    return [[_fmt_value(v) for v in g] for g in values]


def test_the_summary_keeps_the_declared_order(swept):
    design, ds, s = swept
    got = groups(s)
    want = expected(design)
    if want:
        assert got == want
    else:  # a sampled design: ascending by each parameter in turn, every point once
        assert got == sorted(got)
        assert len(got) == len(set(got))


def test_a_list_design_keeps_its_parameters_in_the_order_written(swept):
    design, ds, _ = swept
    if design.startswith("list"):
        assert ds.params[-2:] == (TACTIC, HILD)
        assert (ds.params[0] == "label") == (design == "list-labels")


def test_every_table_keeps_the_declared_order(swept):
    design, ds, s = swept
    want = shown(groups(s))
    k = len(s.by)
    for rows in (analysis.outcome_rows(s)[1], analysis.loss_rows(s)[1]):
        assert [r[:k] for r in rows] == want
    p = analysis.paired(ds, s)
    if p is not None:
        rows = analysis.paired_rows(s, p)[1]
        assert [r[:k] for r in rows] == want
        first = ds.manifest["points"][0]  # the reference: the first design point
        ref = [r for r in rows if r[k + 1] == "(reference)"]
        at = [i for i, b in enumerate(s.by) if b in first]
        assert [[r[i] for i in at] for r in ref] == [[_fmt_value(first[s.by[i]]) for i in at]]
        if not expected(design):
            assert ref[0] != rows[0] or p.reference == 0
        else:
            assert rows[0] == ref[0], "the first declared point comes first"
    assert [r[:k] for r in analysis.flat_rows(s)[1]] == [list(g) for g in groups(s)]
    objs = analysis.groups_json(ds, s)
    assert [[_fmt_value(o[b]) for b in s.by] for o in objs] == want


def test_the_printed_outputs_keep_the_declared_order(swept):
    _, ds, s = swept
    want = [" ".join(g) for g in shown(groups(s))]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["analyze", str(ds.root)]) == 0
    lines = [" ".join(ln.split()[: len(s.by)]) for ln in out.getvalue().splitlines()]
    tables = 3 if analysis.paired(ds, s) is not None else 2
    assert [ln for ln in lines if ln in want] == want * tables
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["analyze", str(ds.root), "--format", "json"]) == 0
    objs = json.loads(out.getvalue())
    assert [tuple(o[b] for b in s.by) for o in objs] == [
        tuple(v.item() if hasattr(v, "item") else v for v in g) for g in groups(s)
    ]
    page = Parts()
    page.feed(report.render(ds, s))
    headers, rows = analysis.outcome_rows(s)
    table = [*headers, *itertools.chain(*rows)]
    at = page.cells.index(headers[0])
    assert page.cells[at : at + len(table)] == table, "the report's outcome table, in order"


def test_every_chart_keeps_the_declared_order(swept):
    _, _, s = swept
    labels = [s.group_label(i) for i in range(len(s.frame))]
    values = [s.group_values(i) for i in range(len(s.frame))]
    vary = plots.varying(s)
    win = plots.chart(s, "win").axes[0]
    if plots.sparse(s):
        pass  # a scatter: each point where it was sampled
    elif len(vary) == 1 and not plots._numeric(list(s.frame[vary[0]])):
        ticks = [t.get_text() for t in win.get_xticklabels()]
        assert ticks == [_fmt_value(v) for v in s.frame[vary[0]]]
    elif len(vary) == 2:
        rows = [t.get_text() for t in win.get_yticklabels()]
        cols = [t.get_text() for t in win.get_xticklabels()]
        assert rows == [_fmt_value(v) for v in dict.fromkeys(s.frame[vary[0]])]
        assert cols == [_fmt_value(v) for v in dict.fromkeys(s.frame[vary[1]])]
    elif len(vary) > 2:
        assert [t.get_text() for t in win.get_yticklabels()] == labels
    if 1 < len(s.frame) <= plots.MAX_LENGTH_GROUPS:
        legend = plots.chart(s, "length").axes[0].get_legend()
        assert [t.get_text() for t in legend.get_texts()] == labels
    if 1 < len(s.frame) <= plots.MAX_BAR_GROUPS:
        ax = plots.chart(s, "casualties").axes[0]
        assert [t.get_text() for t in ax.get_xticklabels()] == values


def test_a_labelled_list_is_drawn_as_its_labels(tmp_path):
    ds = sweep(tmp_path, "labels", DESIGNS["list-labels"])
    s = analysis.summarize(ds)
    assert plots.varying(s) == ["label"]
    ax = plots.chart(s, "win").axes[0]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["reference", "beta", "alpha"]


CAMPAIGN = {
    "list-labels": """
design: list
points:
  - {label: surgeon, "aftermath.healers[0].skill": specialized}
  - {label: barber, "aftermath.healers[0].skill": unskilled}
tables: [runs, aftermath, campaign]
""",
    "grid": """
design: grid
parameters:
  aftermath.healers[0].skill: [specialized, competent]
tables: [runs, aftermath, campaign]
""",
}


@pytest.mark.parametrize("design", list(CAMPAIGN))
def test_the_aftermath_and_campaign_tables_and_charts_keep_the_declared_order(tmp_path, design):
    ds = sweep(tmp_path, "camp", CAMPAIGN[design], scenario="campaign", replicates=2)
    s = analysis.summarize(ds)
    want = groups(s)
    assert [g[0] for g in want] == (
        ["surgeon", "barber"] if design == "list-labels" else ["specialized", "competent"]
    )
    k = len(s.by)
    tables = analysis.extra_tables(ds, s.by, s.names)
    assert [t[0] for t in tables] == ["Aftermath", "Campaign"]
    for title, _, _, rows in tables:
        order = [list(g) for g in dict.fromkeys(tuple(r[:k]) for r in rows)]
        assert order == shown(want), title
    after = analysis.aftermath_summary(ds, s.by)
    fig = plots.figure(s, ds=ds)
    ticks = [t.get_text() for t in fig.axes[3].get_xticklabels()]
    assert ticks == list(dict.fromkeys(plots._group_keys(after, s.by)))
    assert ticks == [", ".join(g) for g in shown(want)]
    legend = [t.get_text() for t in fig.axes[4].get_legend().get_texts()]
    assert legend == [s.group_label(i) for i in range(len(s.frame))]
