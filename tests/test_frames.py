"""sim.page.frames: frames and GIFs of a map are valid images that show what is on it."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
from matplotlib.image import imread

from sim.page import frames
from sim.page.frames import Mark
from sim.space.map import MapSpec, Terrain
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


def test_titles_tally_who_is_still_up():
    assert frames.round_title(0, ROUNDS[1], ["few", "many"]) == (
        "round 0 (deployment) — few 1 up, many 2 up"
    )
    assert frames.round_title(2, ROUNDS[2], ["many", "few"]) == "round 2 — many 0 up, few 1 up"
    assert frames.round_title(3, [], label="the ford") == "the ford: round 3"
    # a side named nowhere in ``sides`` still counts, after the named ones
    assert frames.tally(ROUNDS[1], ["many"]) == "many 2 up, few 1 up"


def test_frames_name_the_fighters_and_explain_the_markers_once():
    fig = frames.draw(BRIDGE, ROUNDS[2], "round 2", ["few", "many"])
    ax = fig.axes[0]
    texts = {t.get_text() for t in ax.texts}
    assert {"a", "b", "c"} <= texts, "every fighter on the map has its name beside it"
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend[:5] == ["few", "many", "active", "fleeing", "down"]
    assert legend.count("active") == 1 and {"wall", "cliff"} <= set(legend)
    assert any(t.startswith("cover: ") for t in legend)
    gone = [Mark("a", "few", (8, 2), "fled"), Mark("b", "many", (1, 2))]
    names = {t.get_text() for t in frames.draw(BRIDGE, gone, "", ["few", "many"]).axes[0].texts}
    assert "a" not in names and "b" in names, "a fighter who fled has left the map"


def test_crowded_maps_leave_the_names_out():
    field = MapSpec(20, 10)
    crowd = [Mark(f"f{i}", "red" if i % 2 else "blue", (i % 20, i // 20)) for i in range(50)]
    assert not [t for t in frames.draw(field, crowd).axes[0].texts if t.get_text() == "f0"]
    few = crowd[: frames.MAX_LABELS]
    assert [t for t in frames.draw(field, few).axes[0].texts if t.get_text() == "f0"]


def test_long_names_are_shortened_and_neighbours_names_do_not_collide():
    marks = [Mark("Bartholomew the Unready", "few", (8, 2)), Mark("Bors", "few", (7, 2))]
    texts = {t.get_text(): t for t in frames.draw(BRIDGE, marks, "", ["few"]).axes[0].texts}
    (long,) = [t for name, t in texts.items() if name.startswith("Bart")]
    cell_pt = frames._cell_scale(BRIDGE) * 72
    assert long.get_text().endswith("…")
    assert frames._text_width(long.get_text(), long.get_fontsize()) <= 1.85 * cell_pt
    # side by side: the odd column's name goes above its marker, the even one's below
    assert texts["Bors"].get_va() == "bottom" and long.get_va() == "top"
    alone = frames.draw(BRIDGE, [Mark("Bors", "few", (7, 2))], "", ["few"]).axes[0].texts
    assert [t.get_va() for t in alone if t.get_text() == "Bors"] == ["top"]


def test_every_frame_of_a_battle_is_the_same_size(tmp_path):
    rounds = {
        0: ROUNDS[1],
        1: ROUNDS[2],
        12: [Mark("a", "few", (7, 2), "dead")],  # longer title, fewer fighters
    }
    paths = frames.write_frames(BRIDGE, rounds, tmp_path, sides=["few", "many"], label="bridge")
    sizes = {png_size(p.read_bytes()) for p in paths}
    assert len(sizes) == 1


def test_gif_frames_share_one_size(tmp_path):
    from PIL import Image

    path = frames.write_gif(BRIDGE, {0: ROUNDS[1], **ROUNDS}, tmp_path / "b.gif", 0.5, ["few"])
    with Image.open(path) as im:
        assert im.n_frames == 3
        sizes = set()
        for i in range(im.n_frames):
            im.seek(i)
            sizes.add(im.size)
            assert im.info["duration"] in (500, 1500)
    assert len(sizes) == 1


def test_same_size_pads_smaller_images_with_white():
    from PIL import Image

    a, b = Image.new("RGB", (30, 20), "red"), Image.new("RGB", (20, 25), "blue")
    out = frames.same_size([a, b])
    assert [im.size for im in out] == [(30, 25), (30, 25)]
    assert out[1].getpixel((25, 5)) == (255, 255, 255) and out[1].getpixel((5, 5)) == (0, 0, 255)
    assert out[0].getpixel((5, 5)) == (255, 0, 0) and out[0].getpixel((5, 22)) == (255, 255, 255)


def test_drawing_stays_headless():
    import subprocess
    import sys

    code = (
        "import sys; from sim.page import frames; from tests.test_frames import BRIDGE, ROUNDS; "
        "frames.png(frames.draw(BRIDGE, ROUNDS[2])); "
        "assert 'matplotlib.pyplot' not in sys.modules, 'pyplot was imported'"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=Path(__file__).parents[1])
