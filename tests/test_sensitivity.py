"""Sensitivity designs and indices (issue 15): SALib's samples as design points, and
``sim analyze --sensitivity`` on the design's outcomes, checked on known functions through
the code path a sweep takes (:func:`sim.experiment.designs.expand`, then
:func:`sim.analysis.sensitivity.analyze_design`)."""

from __future__ import annotations

import json
import math
import textwrap
from pathlib import Path

import numpy as np
import pytest

from sim.analysis.sensitivity import analyze_design
from sim.cli import main
from sim.experiment import designs, load_experiment
from sim.scenario import ScenarioError

ROOT = Path(__file__).resolve().parents[1]
SKIRMISH = ROOT / "scenarios" / "skirmish.yaml"


def sample(design, samples, bounds, **keys):
    """The design document, its points as an array (columns x1, x2, ...) and its names."""
    doc = {
        "design": design,
        "samples": samples,
        "parameters": {f"x{i + 1}": {"low": lo, "high": hi} for i, (lo, hi) in enumerate(bounds)},
        **keys,
    }
    problems = []
    points, names, _ = designs.expand(doc, design, 2026, lambda p, m: problems.append((p, m)))
    assert problems == []
    assert len(points) == designs.count_points(doc, design)
    return doc, np.array([[p[n] for n in names] for p in points]), names


def ishigami(x, a=7.0, b=0.1):
    return np.sin(x[:, 0]) + a * np.sin(x[:, 1]) ** 2 + b * x[:, 2] ** 4 * np.sin(x[:, 0])


@pytest.mark.slow  # a statistical check of the estimates
def test_sobol_indices_of_the_ishigami_function():
    # published values (Ishigami and Homma 1990; Saltelli et al. 2008): a = 7, b = 0.1
    s1 = {"x1": 0.3139, "x2": 0.4424, "x3": 0.0}
    st = {"x1": 0.5576, "x2": 0.4424, "x3": 0.2437}
    doc, x, names = sample("sobol", 4096, [(-math.pi, math.pi)] * 3)
    assert x.shape == (4096 * 5, 3)
    got = analyze_design(doc, 2026, names, ishigami(x))
    for n in names:
        assert got[n]["S1"] == pytest.approx(s1[n], abs=0.03), n
        assert got[n]["ST"] == pytest.approx(st[n], abs=0.03), n
        assert 0 < got[n]["S1_conf"] < 0.05 and 0 < got[n]["ST_conf"] < 0.05


@pytest.mark.slow  # a statistical check of the estimates
def test_second_order_sobol_indices_of_the_ishigami_function():
    # the only interaction is x1 with x3: S13 = 0.2437; S12 = S23 = 0
    doc, x, names = sample("sobol", 4096, [(-math.pi, math.pi)] * 3, second_order=True)
    assert x.shape == (4096 * 8, 3)
    pairs = {}
    got = analyze_design(doc, 2026, names, ishigami(x), pairs)
    assert got["x2"]["S1"] == pytest.approx(0.4424, abs=0.03)
    assert {k: round(v["S2"], 2) for k, v in pairs.items()} == pytest.approx(
        {"x1 x x2": 0.0, "x1 x x3": 0.24, "x2 x x3": 0.0}, abs=0.05
    )


def test_morris_effects_of_a_linear_function_are_its_slopes_times_the_ranges():
    doc, x, names = sample("morris", 20, [(0.0, 1.0), (0.0, 2.0), (5.0, 6.0)], levels=4)
    assert x.shape == (20 * 4, 3)
    y = 3 * x[:, 0] + 1 * x[:, 1] + 0 * x[:, 2]
    got = analyze_design(doc, 2026, names, y)
    assert [got[n]["mu_star"] for n in names] == pytest.approx([3, 2, 0])
    assert [got[n]["sigma"] for n in names] == pytest.approx([0, 0, 0], abs=1e-9)


def test_fast_indices_of_an_additive_function():
    doc, x, names = sample("fast", 1000, [(0.0, 1.0)] * 3)
    y = 3 * x[:, 0] + x[:, 1]  # S1 = a_i^2 / sum a^2 for uniform inputs: 0.9, 0.1, 0
    got = analyze_design(doc, 2026, names, y)
    assert [got[n]["S1"] for n in names] == pytest.approx([0.9, 0.1, 0], abs=0.02)
    assert [got[n]["ST"] for n in names] == pytest.approx([0.9, 0.1, 0], abs=0.03)


def write(tmp_path, body):
    path = tmp_path / "exp.yaml"
    path.write_text(f"scenario: {SKIRMISH}\n" + textwrap.dedent(body).lstrip("\n"))
    return path


SOBOL = """
design: sobol
samples: 4
parameters:
  sides.guards.fighters[0].hit_dice: {low: 3, high: 7}
  sides.guards.tactic.params.recover_below: {low: 0.0, high: 1.0}
replicates: 2
seed: 5
seeds: shared
"""


def test_a_sobol_sweep_and_its_indices(tmp_path, capsys):
    path = write(tmp_path, SOBOL)
    exp = load_experiment(path)
    assert len(exp.points) == 16 and exp.design == "sobol"
    hd = [p["sides.guards.fighters[0].hit_dice"] for p in exp.points]
    assert set(hd) <= {3, 4, 5, 6, 7} and all(isinstance(v, int) for v in hd)
    out = tmp_path / "out"
    assert main(["sweep", str(path), "--out", str(out), "--executor", "serial"]) == 0
    capsys.readouterr()
    png = tmp_path / "sens.png"
    assert main(["analyze", str(out), "--sensitivity", "--format", "json", "--plot", str(png)]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["method"] == "sobol" and got["points"] == 16 and got["replicates"] == 2
    assert set(got["indices"]) == {
        "win.guards",
        "win.bandits",
        "rounds",
        "losses.guards",
        "losses.bandits",
    }
    first = got["indices"]["win.guards"]["sides.guards.fighters[0].hit_dice"]
    assert set(first) == {"S1", "S1_lo", "S1_hi", "ST", "ST_lo", "ST_hi"}
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert main(["analyze", str(out), "--sensitivity"]) == 0
    text = capsys.readouterr().out
    assert "S1 [95% CI]" in text and "ST [95% CI]" in text and "guards win rate" in text
    page = tmp_path / "report.html"
    assert main(["analyze", str(out), "--report", str(page)]) == 0
    html = page.read_text()
    assert "<h2>Sensitivity</h2>" in html and "<th>S1 [95% CI]</th>" in html


def test_second_order_indices_are_printed_and_in_the_json(tmp_path, capsys):
    path = write(tmp_path, SOBOL.replace("replicates: 2", "replicates: 1") + "second_order: true\n")
    assert len(load_experiment(path).points) == 4 * 6
    out = tmp_path / "out"
    assert main(["sweep", str(path), "--out", str(out), "--executor", "serial"]) == 0
    capsys.readouterr()
    assert main(["analyze", str(out), "--sensitivity", "--format", "json"]) == 0
    got = json.loads(capsys.readouterr().out)
    pair = "sides.guards.fighters[0].hit_dice x sides.guards.tactic.params.recover_below"
    assert set(got["second_order"]["rounds"]) == {pair}
    assert set(got["second_order"]["rounds"][pair]) == {"S2", "S2_lo", "S2_hi"}
    assert main(["analyze", str(out), "--sensitivity"]) == 0
    assert "Second-order Sobol indices S2" in capsys.readouterr().out


def test_sensitivity_needs_a_sensitivity_design(tmp_path, capsys):
    path = write(tmp_path, "parameters:\n  max_rounds: [5, 6]\n")
    out = tmp_path / "out"
    assert main(["sweep", str(path), "--out", str(out), "--executor", "serial"]) == 0
    capsys.readouterr()
    assert main(["analyze", str(out), "--sensitivity"]) == 2
    assert capsys.readouterr().err.strip() == (
        f"sim analyze: error: {out}: --sensitivity needs a sweep with a sobol, morris or "
        "fast design (this one is grid)"
    )


@pytest.mark.parametrize(
    ("keys", "message"),
    [
        ("design: sobol\nsamples: 48\n", "5: samples: a sobol design needs samples: a power of 2"),
        ("design: fast\nsamples: 40\n", "5: samples: a fast design needs samples: more than 64"),
        ("design: morris\nsamples: 4\nlevels: 1\n", "6: levels: a morris design's levels is"),
    ],
)
def test_sensitivity_design_keys_are_checked(tmp_path, keys, message):
    path = write(tmp_path, "parameters:\n  max_rounds: {low: 5, high: 9}\n" + keys)
    with pytest.raises(ScenarioError) as err:
        load_experiment(path)
    assert str(err.value).startswith(f"{path}:{message}")
