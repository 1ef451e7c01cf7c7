"""sim run --frames/--gif and sim replay --gif/--frames: pictures of a battle on its map."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from sim.cli import main
from tests.test_cli_run import run

ROOT = Path(__file__).resolve().parents[1]
MAP = """\
map:
  cell: 5 ft
  picture: |
    ^^^^^^^^^^^^
    111......222
    111..#T..222
    111..~...222
"""
CAMPAIGN = """\
campaign:
  side: guards
  days_between: 3
  battles:
    - {name: the road}
    - {name: the ford}
"""


def scenario(tmp_path: Path, extra: str = MAP, name: str = "mapped.yaml") -> Path:
    """The skirmish example with ``extra`` (a map, by default) added."""
    path = tmp_path / name
    path.write_text((ROOT / "scenarios/skirmish.yaml").read_text() + extra)
    return path


def assert_picture(path: Path) -> tuple[int, int]:
    """A PNG that decodes, is a sensible size and is not blank; its size."""
    with Image.open(path) as im:
        im.verify()
    with Image.open(path) as im:
        assert im.format == "PNG"
        size = im.size
        pixels = np.asarray(im.convert("RGB"), dtype=float) / 255
    assert size[0] >= 400 and size[1] >= 250
    assert pixels.std() > 0.05, f"{path.name} is (nearly) blank"
    return size


def gif_frames(path: Path) -> list[tuple[int, int]]:
    """The size of every frame of a GIF."""
    sizes = []
    with Image.open(path) as im:
        assert im.format == "GIF"
        for i in range(im.n_frames):
            im.seek(i)
            sizes.append(im.size)
    return sizes


def test_run_frames_writes_one_png_per_round_and_keeps_stdout_json(capsys, tmp_path):
    folder = tmp_path / "new" / "frames"  # created, parents too
    code, out, err = run(
        capsys, "run", scenario(tmp_path), "--seed", "9", "--format", "json", "--frames", folder
    )
    assert code == 0, err
    rounds = json.loads(out)["rounds"]  # stdout is still one JSON object
    assert rounds >= 2
    names = sorted(p.name for p in folder.iterdir() if p.name != ".sim-frames")
    assert names == [f"round-{r:03d}.png" for r in range(rounds + 1)]
    assert (folder / ".sim-frames").is_file(), "marked as sim's"
    assert err == f"frames: {rounds + 1} PNGs in {folder} (round-000.png .. {names[-1]})\n"
    sizes = {assert_picture(folder / n) for n in names}
    assert len(sizes) == 1, "every frame of a battle is the same size"
    first, last = (np.asarray(Image.open(folder / n).convert("RGB")) for n in (names[0], names[-1]))
    assert not np.array_equal(first, last), "the fight changes the picture"


def test_run_text_output_is_unchanged_by_frames(capsys, tmp_path):
    path = scenario(tmp_path)
    _, plain, _ = run(capsys, "run", path, "--seed", "3")
    code, drawn, err = run(capsys, "run", path, "--seed", "3", "--frames", tmp_path / "f")
    assert code == 0 and drawn == plain and err.startswith("frames: ")


def test_frames_replace_an_earlier_runs_frames_only(capsys, tmp_path):
    folder = tmp_path / "frames"
    folder.mkdir()
    (folder / "round-099.png").write_bytes(b"stale")
    (folder / "notes.txt").write_text("mine")
    code, _, err = run(capsys, "run", scenario(tmp_path), "--seed", "1", "--frames", folder)
    assert code == 2, "not sim's folder: refused"
    assert err == (
        f"sim run: error: --frames {folder}: holds files that sim did not draw (no "
        ".sim-frames file); choose a new or empty folder, or add --force to draw into it anyway\n"
    )
    code, _, err = run(
        capsys, "run", scenario(tmp_path), "--seed", "1", "--frames", folder, "--force"
    )
    assert code == 0, err
    assert (folder / "round-099.png").read_bytes() == b"stale", "--force deletes nothing"
    (folder / "round-099.png").write_bytes(b"stale")  # sim's folder now: its old frames go
    code, _, err = run(capsys, "run", scenario(tmp_path), "--seed", "1", "--frames", folder)
    assert code == 0, err
    n = int(re.search(r"frames: (\d+) PNGs", err).group(1))
    assert not (folder / "round-099.png").exists()
    assert (folder / "notes.txt").read_text() == "mine"
    assert len(list(folder.glob("round-*.png"))) == n


def test_run_gif_has_a_frame_per_round_all_the_same_size(capsys, tmp_path):
    gif = tmp_path / "out" / "fight.gif"
    code, out, err = run(
        capsys, "run", scenario(tmp_path), "--seed", "9", "--format", "json", "--gif", gif
    )
    assert code == 0, err
    rounds = json.loads(out)["rounds"]
    assert err == f"gif: {gif} ({rounds} rounds)\n"
    sizes = gif_frames(gif)
    assert len(sizes) == rounds + 1 and len(set(sizes)) == 1


def test_replay_draws_a_sweep_run(capsys, tmp_path):
    path = scenario(tmp_path)
    exp = tmp_path / "exp.yaml"
    exp.write_text(
        f"name: tiny\nscenario: {path}\nparameters:\n  sides.bandits.tactic: [balanced, "
        "aggressive]\nreplicates: 2\nseed: 3\ntables: [runs]\n"
    )
    data = tmp_path / "ds"
    code, _, err = run(capsys, "sweep", exp, "--out", data, "--workers", "1")
    assert code == 0, err
    _, plain, _ = run(capsys, "replay", data, "--run", "3")
    gif, folder = tmp_path / "run3.gif", tmp_path / "run3"
    code, out, err = run(capsys, "replay", data, "--run", "3", "--gif", gif, "--frames", folder)
    assert code == 0, err
    assert out == plain and out.startswith("run 3 replays exactly.")
    rounds = int(re.search(r"after (\d+) rounds?", out).group(1))
    assert f"gif: {gif} ({rounds} rounds)" in err.splitlines()
    assert f"frames: {rounds + 1} PNGs in {folder}" in err
    sizes = gif_frames(gif)
    assert len(sizes) == rounds + 1 and len(set(sizes)) == 1
    assert len(list(folder.glob("round-*.png"))) == rounds + 1


def test_no_map_is_one_line_error(capsys, tmp_path):
    plain = ROOT / "scenarios/skirmish.yaml"
    for flag, target in [("--frames", tmp_path / "f"), ("--gif", tmp_path / "a.gif")]:
        code, out, err = run(capsys, "run", plain, flag, target)
        assert code == 2 and out == ""
        assert err == (
            f"sim run: error: {plain} has no `map:`, so there is nothing to draw for {flag}\n"
        )
        assert not target.exists()
    data = tmp_path / "ds"
    assert run(capsys, "run", plain, "--out", data)[0] == 0
    code, out, err = run(capsys, "replay", data, "--run", "0", "--gif", tmp_path / "a.gif")
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith("sim replay: error: run 0's scenario (skirmish) has no `map:`")


def test_frames_onto_a_file_is_one_line_error(capsys, tmp_path):
    (tmp_path / "taken").write_text("x")
    code, _, err = run(capsys, "run", scenario(tmp_path), "--frames", tmp_path / "taken")
    assert code == 2 and err.count("\n") == 1 and "not a directory" in err


def test_a_campaign_draws_each_battle(capsys, tmp_path):
    path = scenario(tmp_path, MAP + CAMPAIGN)
    folder, gif = tmp_path / "frames", tmp_path / "c.gif"
    code, out, err = run(
        capsys, "run", path, "--seed", "2", "--format", "json", "--frames", folder, "--gif", gif
    )
    assert code == 0, err
    battles = {r["battle"]: r["label"] for r in json.loads(out)["campaign"]}
    assert battles == {1: "the road", 2: "the ford"}
    for n, label in battles.items():
        pngs = sorted(folder.glob(f"battle-{n}-round-*.png"))
        assert pngs and pngs[0].name == f"battle-{n}-round-000.png"
        assert f"frames: battle {n} ({label}): {len(pngs)} PNGs in {folder}" in err
        frames_of_gif = gif_frames(tmp_path / f"c-battle-{n}.gif")
        assert len(frames_of_gif) == len(pngs)
        assert_picture(pngs[-1])
    assert not gif.exists()


def test_help_documents_the_picture_options(capsys):
    for command in ("run", "replay"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        out = " ".join(capsys.readouterr().out.split())
        assert "--frames DIR" in out and "--gif FILE" in out and "needs a scenario with map:" in out
        assert "battle-N-round-NNN.png" in out


def test_validate_names_the_map(capsys):
    code, out, _ = run(capsys, "validate", ROOT / "scenarios" / "bridge.yaml")
    assert code == 0
    assert out.strip().endswith("ok (bridge, wargame, 16 fighters, map 24 x 8 cells of 5 ft)")


def test_a_run_without_pictures_does_not_import_matplotlib():
    import subprocess
    import sys

    code = (
        "import sys; from sim.cli import main; "
        f"main(['run', {str(ROOT / 'scenarios' / 'bridge.yaml')!r}, '--format', 'json']); "
        "sys.exit(3 if 'matplotlib' in sys.modules else 0)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
