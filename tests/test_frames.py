"""sim.frames: frames and GIFs of a map are valid images that show what is on it."""

from __future__ import annotations

import io

import numpy as np
from matplotlib.image import imread

from sim import frames
from sim.frames import Mark
from sim.space import MapSpec, Terrain
from tests.test_plots import png_size

BRIDGE = MapSpec(
    12,
    6,
    terrain=(
        Terrain("wall", tuple((x, 0) for x in range(12))),
        Terrain("hazard", tuple((x, 5) for x in range(12)), "cliff"),
        Terrain("cover", ((5, 2), (5, 3)), value=2),
    ),
    zones={"few": ((8, 2), (8, 3)), "many": ((1, 2), (1, 3), (2, 2), (2, 3))},
)
ROUNDS = {
    1: [Mark("a", "few", (8, 2)), Mark("b", "many", (1, 2)), Mark("c", "many", (2, 3))],
    2: [
        Mark("a", "few", (7, 2)),
        Mark("b", "many", (6, 2), "incapacitated"),
        Mark("c", "many", (3, 3), "fleeing"),
    ],
}


def test_each_round_is_a_valid_png(tmp_path):
    paths = frames.write_frames(BRIDGE, ROUNDS, tmp_path / "frames", sides=["few", "many"])
    assert [p.name for p in paths] == ["round-001.png", "round-002.png"]
    for p in paths:
        data = p.read_bytes()
        width, height = png_size(data)
        assert width >= 400 and height >= 300
        pixels = imread(io.BytesIO(data), format="png")
        assert pixels[..., :3].std() > 0.05
    a, b = (imread(p)[..., :3] for p in paths)
    assert a.shape == b.shape and not np.array_equal(a, b), "the rounds differ"


def test_the_gif_has_a_frame_per_round(tmp_path):
    from PIL import Image

    path = frames.write_gif(BRIDGE, ROUNDS, tmp_path / "battle.gif")
    with Image.open(path) as im:
        assert im.format == "GIF" and im.n_frames == 2
