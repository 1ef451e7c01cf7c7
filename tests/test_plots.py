"""sim.analysis.plots: each kind of sweep gets a valid, non-blank chart of the expected size."""

from __future__ import annotations

import io
import itertools
import struct

import numpy as np
import pyarrow as pa
import pytest
from matplotlib.image import imread

from sim import analysis
from sim.analysis import plots
from tests.test_analysis import make_dataset, run, side

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height from a PNG's header; fails unless it is a PNG."""
    assert data[:8] == PNG_MAGIC, "not a PNG file"
    assert data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def assert_png(data: bytes, width: int, height: int) -> None:
    assert png_size(data) == (width, height)
    pixels = imread(io.BytesIO(data), format="png")
    assert pixels.shape[:2] == (height, width)
    assert pixels[..., :3].std() > 0.05, "the image is (nearly) blank"
    assert len(data) > 15_000, f"only {len(data)} bytes: too little drawn"


def sweep_dataset(tmp_path, params):
    """A dataset over ``params`` (name -> values), 20 runs per point, winners by a rule."""
    rng = np.random.default_rng(1)
    names = list(params)
    points = list(itertools.product(*[range(len(v)) for v in params.values()]))
    rows = []
    for point in points:
        for _ in range(20):
            i = len(rows)
            winner = "red" if rng.random() < 0.3 + 0.1 * sum(point) else "blue"
            sides = [side("red", dead=int(rng.integers(0, 3))), side("blue", fled=1)]
            row = run(i, None, winner, int(rng.integers(2, 9)), sides)
            del row["arms"]
            row.update({n: params[n][j] for n, j in zip(names, point, strict=True)})
            rows.append(row)
    types = {n: pa.int64() if isinstance(v[0], int) else pa.string() for n, v in params.items()}
    return make_dataset(tmp_path / "d", rows, params=tuple(names), types=types)


KINDS = {
    "no parameters": {},
    "one number": {"sides.red.count": [1, 2, 4, 8]},
    "one choice": {"sides.red.tactic": ["balanced", "aggressive", "defensive"]},
    "two parameters": {"sides.red.count": [1, 2, 3], "sides.blue.tactic": ["a", "b"]},
    "three parameters": {"x": [1, 2], "y": ["p", "q"], "z": ["u", "v"]},
}


@pytest.mark.parametrize("kind", list(KINDS))
def test_the_figure_is_a_valid_png(tmp_path, kind):
    s = analysis.summarize(sweep_dataset(tmp_path, KINDS[kind]))
    path = plots.save_png(plots.figure(s, kind), tmp_path / "out" / "plot.png")
    data = path.read_bytes()
    width, height = png_size(data)
    assert width == 1200 and height in (900, 1000)
    assert_png(data, width, height)


@pytest.mark.parametrize("name", list(plots.CHARTS))
def test_each_chart_alone_is_a_valid_png(tmp_path, name):
    s = analysis.summarize(sweep_dataset(tmp_path, KINDS["one number"]))
    assert_png(plots.png_bytes(plots.chart(s, name)), 1000, 550)


def test_the_chart_fits_the_number_of_varying_parameters(tmp_path):
    two = analysis.summarize(sweep_dataset(tmp_path, KINDS["two parameters"]))
    assert plots.varying(two) == ["sides.red.count", "sides.blue.tactic"]
    fig = plots.chart(two, "win")
    assert fig.axes[0].images, "two parameters: a heatmap"
    one = analysis.summarize(two_as_one := sweep_dataset(tmp_path / "1", KINDS["one number"]))
    assert two_as_one.params == ("sides.red.count",)
    ax = plots.chart(one, "win").axes[0]
    assert not ax.images and len(ax.lines) == 2, "one parameter: a line per side"


def test_an_empty_summary_still_draws(tmp_path):
    from sim.dataset import records

    records.write_manifest(tmp_path, {"kind": "sweep", "parameters": []})
    s = analysis.summarize(analysis.load(tmp_path))
    assert png_size(plots.png_bytes(plots.figure(s)))[0] == 1200
