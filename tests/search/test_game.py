"""design: game, end to end: checked before the first battle, the exact duel game, resume."""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sim import games
from sim.cli import main
from sim.scenario import ScenarioError
from sim.search import load_search, run_search
from tests.search.helpers import COVERS, DUEL, DUEL_GAME, GUNS, duel_game_win, duel_game_yaml, write
from tests.test_runner import finish, start, wait_for_parts

GAME = """\
name: g
scenario: duel.yaml
design: game
parameters:
  sides.shooter.fighters[0].deathwish.weapon: [Glock 20, S&W 500]
  sides.target.fighters[0].deathwish.armor: [none, light vest]
payoff: {side: shooter, of: all}
tolerance: 10%
start: 10
budget: 400
seed: 3
"""


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    write(tmp_path, "duel.yaml", DUEL)
    write(tmp_path, "duel_game.yaml", DUEL_GAME)
    return tmp_path


def answer_of(out: Path) -> dict:
    return json.loads((out / "search" / "answer.json").read_text())


def runs_of(out: Path) -> pd.DataFrame:
    frame = pd.read_parquet(out / "runs").sort_values("run_id", ignore_index=True)
    return frame.drop(columns=["sides"])


@pytest.mark.parametrize(
    ("old", "new", "where", "says"),
    [
        (
            "  sides.shooter.fighters[0].deathwish.weapon: [Glock 20, S&W 500]\n"
            "  sides.target.fighters[0].deathwish.armor: [none, light vest]\n",
            "  sides.target.fighters[0].deathwish.armor: [none, light vest]\n"
            "  sides.shooter.fighters[0].deathwish.weapon: [Glock 20, S&W 500]\n",
            "parameters.sides.target.fighters[0].deathwish.armor",
            "the first parameter is shooter's choice",
        ),
        ("side: shooter", "side: shoter", "payoff.side", "did you mean 'shooter'"),
        ("of: all", "of: most", "payoff.of", "expected decisive"),
        ("start: 10", "start: 1", "start", "2..100000"),
        ("budget: 400", "budget: 30", "budget", "cannot pay for the start"),
        ("tolerance: 10%", "tolerance: 80%", "tolerance", "0.1%..50%"),
        ("[Glock 20, S&W 500]", "[Glock 20]", "parameters.sides.shooter", "two alternatives"),
        ("[none, light vest]", "[none, plate armour]", "parameters.sides.target", "armor"),
    ],
)
def test_every_mistake_is_located_before_the_first_battle(
    folder: Path, old: str, new: str, where: str, says: str
) -> None:
    assert old in GAME
    bad = write(folder, "bad.yaml", GAME.replace(old, new))
    with pytest.raises(ScenarioError) as err:
        load_search(bad)
    text = str(err.value)
    assert "bad.yaml:" in text and where in text and says in text, text


@pytest.mark.slow
def test_the_exact_duel_game_is_found_within_its_intervals(folder: Path) -> None:
    """Real searches of the duel game: the value's interval holds the exact value."""
    exact = np.array([[float(duel_game_win(g, c)) for c in COVERS] for g in GUNS])
    truth = games.solve(exact)
    for seed in (1, 2):
        exp = write(folder, f"d{seed}.yaml", duel_game_yaml(seed=seed, tolerance="4%", budget=4000))
        result = run_search(load_search(exp), folder / f"d{seed}", progress=False)
        data = result.answer["data"]
        assert data["value"]["lo"] <= truth.value <= data["value"]["hi"]
        assert data["value"]["hi"] - data["value"]["lo"] <= 0.08 + 1e-9
        assert result.answer["status"] == "answered" and result.spent <= 4000
        # every battle a row, every cell fought at least the start
        assert sum(map(sum, data["counted"])) == result.spent
        assert min(min(r) for r in data["counted"]) >= 20


def test_the_answer_says_dominance_mixes_value_and_is_drawn(folder: Path, capsys) -> None:
    text = GAME.replace("budget: 400", "budget: 2000").replace("tolerance: 10%", "tolerance: 4%")
    exp = write(folder, "g.yaml", text)
    code = main(["sweep", str(exp), "--out", str(folder / "out"), "--workers", "1"])
    out = capsys.readouterr().out
    # the S&W 500 beats the Glock whatever the target wears; the vest helps the target
    assert "dominated strictly (step 1): shooter's Glock 20 by S&W 500" in out
    assert "dominated strictly (step 2): target's none by light vest" in out
    assert "value: shooter win" in out and "exploitability: at most" in out
    assert (folder / "out" / "search" / "payoff.png").is_file()
    answer = answer_of(folder / "out")
    assert answer["data"]["row_mix"][1]["weight"] == 1.0
    assert code == (0 if answer["status"] == "answered" else 1)
    again = main(["analyze", str(folder / "out")])
    assert again == 0 and "game search" in capsys.readouterr().out


def test_a_search_without_enough_budget_says_so(folder: Path) -> None:
    exp = write(folder, "g.yaml", GAME.replace("tolerance: 10%", "tolerance: 0.5%"))
    result = run_search(load_search(exp), folder / "b", progress=False)
    assert result.answer["status"] == "budget" and result.answer["exit"] == 1
    assert "the budget is spent" in result.answer["lines"][0]


def test_uniform_mode_fights_every_cell_alike(folder: Path) -> None:
    exp = write(folder, "u.yaml", GAME + "mode: uniform\n")
    run_search(load_search(exp), folder / "u", progress=False)
    journal = json.loads((folder / "u" / "search" / "journal.json").read_text())
    for batch in journal["batches"]:
        assert len(batch["points"]) == 4 and len(set(batch["replicates"])) == 1


@pytest.mark.slow
def test_serial_and_processes_give_the_same_search(folder: Path) -> None:
    search = load_search(write(folder, "g.yaml", GAME))
    run_search(search, folder / "s", progress=False)
    run_search(search, folder / "p", workers=2, executor="processes", progress=False)
    assert runs_of(folder / "s").equals(runs_of(folder / "p"))
    assert answer_of(folder / "s") == answer_of(folder / "p")


def test_a_killed_search_resumes_to_the_same_answer(folder: Path, capsys) -> None:
    exp = write(folder, "g.yaml", GAME.replace("budget: 400", "budget: 1000"))
    clean = folder / "clean"
    run_search(load_search(exp), clean, progress=False)
    assert len(json.loads((clean / "search" / "journal.json").read_text())["batches"]) > 2
    out = folder / "killed"
    proc = start("sweep", exp, "--out", out, "--workers", "1")
    assert wait_for_parts(proc, out, 10), "the search ended before it could be killed"
    os.killpg(proc.pid, signal.SIGKILL)
    finish(proc)
    main(["sweep", str(exp), "--out", str(out), "--resume", "--workers", "1"])
    capsys.readouterr()
    assert runs_of(out).equals(runs_of(clean))
    assert answer_of(out) == answer_of(clean)
