"""sim analyze DIR --game PATH_A PATH_B: a finished grid read as a game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sim.cli import main
from tests.search.helpers import DUEL, write

GRID = """\
name: duel_grid
scenario: duel.yaml
design: grid
parameters:
  sides.shooter.fighters[0].deathwish.weapon: [Glock 20, S&W 500]
  sides.target.fighters[0].deathwish.armor: [none, trauma plates]
replicates: 40
seeds: shared
seed: 5
"""


@pytest.fixture(scope="module")
def grid(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("game")
    write(root, "duel.yaml", DUEL)
    exp = write(root, "grid.yaml", GRID)
    assert main(["sweep", str(exp), "--out", str(root / "out"), "--workers", "1"]) == 0
    return root / "out"


def test_the_grid_is_read_as_a_game(grid: Path, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    weapon, armor = (
        "sides.shooter.fighters[0].deathwish.weapon",
        "sides.target.fighters[0].deathwish.armor",
    )
    assert main(["analyze", str(grid), "--game", weapon, armor, "--of", "all"]) == 0
    out = capsys.readouterr().out
    assert "payoff: shooter's win share of all battles" in out
    assert "value: shooter win" in out and "shooter's mix:" in out and "target's mix:" in out
    # plates stop every round either gun fires at the torso (the duel's only hit location)
    assert "dominated strictly (step 1): target's none by trauma plates" in out
    assert "Payoff: shooter's win share of all battles" in out and "(40)" in out


def test_json_and_the_heatmap(
    grid: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    weapon, armor = (
        "sides.shooter.fighters[0].deathwish.weapon",
        "sides.target.fighters[0].deathwish.armor",
    )
    png = tmp_path / "game.png"
    code = main(
        [
            "analyze",
            str(grid),
            "--game",
            weapon,
            armor,
            "--of",
            "all",
            "--format",
            "json",
            "--plot",
            str(png),
        ]
    )
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and png.is_file()
    assert data["sides"] == ["shooter", "target"] and data["of"] == "all"
    assert sum(map(sum, data["counted"])) <= 160
    assert data["value"]["lo"] <= data["value"]["mean"] <= data["value"]["hi"]
    assert abs(sum(m["weight"] for m in data["row_mix"]) - 1) < 1e-9


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (
            ["--game", "sides.shooter.tactic", "sides.target.fighters[0].deathwish.armor"],
            "unknown swept parameter",
        ),
        (["--game", *["sides.target.fighters[0].deathwish.armor"] * 2], "two different"),
        (
            [
                "--game",
                "sides.shooter.fighters[0].deathwish.weapon",
                "sides.target.fighters[0].deathwish.armor",
                "--side",
                "nobody",
            ],
            "unknown side",
        ),
        (
            [
                "--game",
                "sides.shooter.fighters[0].deathwish.weapon",
                "sides.target.fighters[0].deathwish.armor",
            ],
            "--of all counts draws",
        ),
    ],
)
def test_mistakes_are_one_line(
    grid: Path, capsys: pytest.CaptureFixture[str], args: list[str], says: str
) -> None:
    assert main(["analyze", str(grid), *args]) == 2
    err = capsys.readouterr().err.strip()
    assert says in err and len(err.splitlines()) == 1, err
