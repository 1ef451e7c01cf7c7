"""Plots for papers: vector files, resolution, named axes, sampled designs, aftermath charts."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import numpy as np
import pyarrow as pa
import pytest
from matplotlib.collections import PathCollection

from sim import analysis
from sim.analysis import plots, report
from sim.dataset import records
from tests.test_analysis import after_row, camp_row, hand, make_dataset, run, side  # noqa: F401
from tests.test_plots import KINDS, png_size, sweep_dataset
from tests.test_report import Parts
from tests.test_runner import cli


@pytest.mark.parametrize("kind", ["one number", "two parameters"])
def test_svg_is_a_real_vector_drawing(tmp_path, kind):
    s = analysis.summarize(sweep_dataset(tmp_path, KINDS[kind]))
    path = plots.save(plots.figure(s, kind), tmp_path / "fig.svg")
    data = path.read_bytes()
    assert not data.startswith(b"\x89PNG")
    root = ET.fromstring(data)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    paths = root.iter("{http://www.w3.org/2000/svg}path")
    assert sum(1 for _ in paths) > 20, "drawn as vector paths"
    assert plots.save(plots.figure(s, kind), tmp_path / "again.svg").read_bytes() == data


def test_pdf_is_a_real_vector_drawing(tmp_path):
    s = analysis.summarize(sweep_dataset(tmp_path, KINDS["one number"]))
    data = plots.save(plots.figure(s), tmp_path / "fig.pdf").read_bytes()
    assert data.startswith(b"%PDF-1.") and data.rstrip().endswith(b"%%EOF")
    assert b"/Subtype /Image" not in data, "a line chart has no raster image in it"
    assert plots.save(plots.figure(s), tmp_path / "again.pdf").read_bytes() == data


def test_cli_writes_svg_pdf_and_png_at_the_asked_dpi(capsys, tmp_path, hand):  # noqa: F811
    for name in ("f.svg", "f.pdf"):
        code, out, _ = cli(capsys, "analyze", hand.root, "--plot", tmp_path / name)
        assert code == 0 and f"plot: {tmp_path / name}" in out
    assert (tmp_path / "f.svg").read_bytes().lstrip().startswith(b"<?xml")
    assert (tmp_path / "f.pdf").read_bytes()[:5] == b"%PDF-"
    code, _, _ = cli(capsys, "analyze", hand.root, "--plot", tmp_path / "f.png", "--dpi", 200)
    assert code == 0 and png_size((tmp_path / "f.png").read_bytes()) == (2400, 1800)
    code, _, err = cli(capsys, "analyze", hand.root, "--plot", tmp_path / "f.jpg")
    assert code == 2 and "written as .png, .svg or .pdf" in err and err.count("\n") == 1
    assert not (tmp_path / "f.jpg").exists()
    code, _, err = cli(capsys, "analyze", hand.root, "--plot", tmp_path / "g.png", "--dpi", 0)
    assert code == 2 and "--dpi must be from 10 to 2400, got 0" in err


EXPERIMENT = """\
name: t
scenario: x.yaml
parameters:
  sides.red.tactic: [a, b]
labels:
  sides.red.tactic: red's tactic
"""


def labelled(tmp_path):
    ds = sweep_dataset(tmp_path, {"sides.red.tactic": ["a", "b"], "sides.red.count": [1, 2]})
    records.write_manifest(ds.root, {**ds.manifest, "experiment_text": EXPERIMENT})
    return analysis.load(ds.root)


def test_labels_from_the_experiment_name_headers_and_axes(tmp_path):
    ds = labelled(tmp_path)
    assert ds.labels == {"sides.red.tactic": "red's tactic"}
    s = analysis.summarize(ds, ["sides.red.tactic"])
    assert analysis.outcome_rows(s)[0][0] == "red's tactic"
    ax = plots.chart(s, "win").axes[0]
    assert ax.get_xlabel() == "red's tactic"
    s = analysis.summarize(ds, labels={"sides.red.count": "squad size"})
    ax = plots.chart(s, "win").axes[0]  # a heatmap: rows the first parameter
    assert (ax.get_ylabel(), ax.get_xlabel()) == ("red's tactic", "squad size")


def test_label_on_the_command_line(capsys, tmp_path):
    ds = labelled(tmp_path)
    code, out, _ = cli(capsys, "analyze", ds.root, "--label", "sides.red.tactic=tactic (red)")
    assert code == 0 and out.count("tactic (red)  red.count") == 2
    code, _, err = cli(capsys, "analyze", ds.root, "--label", "sides.red.tactik=x")
    assert code == 2 and "unknown parameter to label 'sides.red.tactik'" in err
    assert "did you mean 'sides.red.tactic'" in err
    code, _, err = cli(capsys, "analyze", ds.root, "--label", "sides.red.tactic")
    assert code == 2 and "expected PATH=TEXT" in err


def sampled(tmp_path, params, points=40):
    """A Latin-hypercube-like dataset: ``points`` distinct numeric points, 10 runs each."""
    rng = np.random.default_rng(5)
    rows = []
    values = {p: rng.permutation(np.linspace(0, 1, points)) + 1 for p in params}
    for i in range(points):
        for _ in range(10):
            row = run(
                len(rows),
                None,
                "red" if rng.random() < 0.5 else "blue",
                3,
                [side("red"), side("blue")],
            )
            del row["arms"]
            row.update({p: float(values[p][i]) for p in params})
            rows.append(row)
    return make_dataset(
        tmp_path / "lhs", rows, params=tuple(params), types={p: pa.float64() for p in params}
    )


def test_a_sampled_design_is_a_scatter_not_a_sparse_heatmap(tmp_path):
    s = analysis.summarize(sampled(tmp_path, ["x", "y"]))
    assert plots.sparse(s)
    ax = plots.chart(s, "win").axes[0]
    assert not ax.images, "no heatmap"
    dots = [c for c in ax.collections if isinstance(c, PathCollection)]
    assert len(dots) == 1 and len(dots[0].get_offsets()) == 40
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("x", "y")
    grid = analysis.summarize(sweep_dataset(tmp_path / "g", KINDS["two parameters"]))
    assert not plots.sparse(grid) and plots.chart(grid, "win").axes[0].images


def test_one_sampled_parameter_is_a_scatter_with_a_smoothed_line(tmp_path):
    s = analysis.summarize(sampled(tmp_path, ["x"]))
    assert plots.sparse(s)
    ax = plots.chart(s, "win").axes[0]
    dots = [c for c in ax.collections if isinstance(c, PathCollection)]
    assert len(dots) == 2 and all(len(d.get_offsets()) == 40 for d in dots)
    assert [ln.get_label() for ln in ax.lines] == ["red (smoothed)", "blue (smoothed)"]
    assert len(ax.lines[0].get_xdata()) == 10, "pooled by tenths"


def with_aftermath(hand):  # noqa: F811
    rows = [after_row(i, "x", 0, "dead" if i % 2 else "active", True, not i % 2) for i in range(5)]
    records.write_part(hand.root, "aftermath", rows, "000000")
    camp = [
        camp_row(i, b, "x", "active", "veteran" if b > 1 else "tested")
        for i in (1, 2)
        for b in (1, 2)
    ]
    records.write_part(hand.root, "campaign", camp, "000000")
    return hand


def test_aftermath_and_campaign_charts(tmp_path, hand):  # noqa: F811
    ds = with_aftermath(hand)
    s = analysis.summarize(ds)
    fig = plots.figure(s, "t", ds)
    assert len(fig.axes) == 5 and len(plots.figure(s, "t").axes) == 3
    titles = [ax.get_title() for ax in fig.axes]
    assert "aftermath: the wounded who died of wounds or recovered" in titles
    assert "campaign: Veteran share after each battle" in titles
    after = next(ax for ax in fig.axes if ax.get_title().startswith("aftermath"))
    assert [t.get_text() for t in after.get_xticklabels()] == ["a", "b"]
    page = Parts()
    page.feed(report.render(ds, s))
    assert len(page.images) == 5, "win, length, casualties, aftermath, campaign"
    path = plots.save(fig, tmp_path / "all.svg")
    assert ET.fromstring(path.read_bytes()).tag.endswith("svg")


def test_the_experiment_says_whether_points_were_sampled(tmp_path):
    ds = sampled(tmp_path, ["x"])
    assert ds.design is None and plots.sparse(analysis.summarize(ds))
    for design, scatter in (("grid", False), ("list", False), ("lhs", True), ("random", True)):
        records.write_manifest(
            ds.root, {**ds.manifest, "experiment_text": f"name: t\ndesign: {design}\n"}
        )
        again = analysis.load(ds.root)
        assert again.design == design
        assert plots.sparse(analysis.summarize(again)) is scatter, design
    three = sweep_dataset(tmp_path / "3", {"x": [1, 2, 3], "y": [1, 2, 3], "z": [1, 2]})
    assert not plots.sparse(analysis.summarize(three)), "a full grid of numbers: not sampled"
