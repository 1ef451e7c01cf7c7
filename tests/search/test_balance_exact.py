"""A balance search on the exact odds (``method: exact``): bisection on exact chances."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from sim.odds.battle import BattleOdds
from sim.search import load_search, run_search
from tests.search.helpers import write

ROOT = Path(__file__).resolve().parents[2]
DUEL = ROOT / "scenarios" / "exact" / "duel_2w2p.yaml"
FIGHTS = "sides.green.fighters[0].fights"


def experiment(folder: Path, low: int = 0, high: int = 16, extra: str = "") -> Path:
    text = (
        f"name: exact\nscenario: {DUEL}\ndesign: balance\nmethod: exact\nparameters:\n"
        f"  {FIGHTS}: {{low: {low}, high: {high}}}\n"
        f"target: {{side: veteran, wins: 50%, of: decisive}}\nseed: 1\n{extra}"
    )
    return write(folder, "exact.yaml", text)


def fake(shares: dict[int, Fraction], asked: list[int]) -> Any:
    """battle_odds as a table of the veteran's chances (a tenth of the battles drawn)."""

    def odds(path: Any, overrides: Any, **kw: Any) -> BattleOdds:
        v = int(overrides[-1].rpartition("=")[2])
        asked.append(v)
        win = shares[v] * Fraction(9, 10)
        outcomes = {
            ("veteran", "defeat", 1, ()): win,
            ("green", "defeat", 1, ()): Fraction(9, 10) - win,
            (None, "max_rounds", 30, ()): Fraction(1, 10),
        }
        return BattleOdds("duel", "2w2p", ("veteran", "green"), {}, outcomes, seconds=0.1)

    return odds


def test_the_bisection_names_the_values_either_side_and_looks_at_few(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shares = {v: Fraction(20 - v, 20) for v in range(0, 17)}  # 50% between... at 10 exactly
    shares = {v: s - Fraction(1, 40) for v, s in shares.items()}  # now 9 (52.5%), 10 (47.5%)
    asked: list[int] = []
    monkeypatch.setattr("sim.odds.battle.battle_odds", fake(shares, asked))
    result = run_search(load_search(experiment(tmp_path)), tmp_path / "out", progress=False)
    answer = result.answer
    assert answer["status"] == "answered" and answer["data"]["between"] == [9, 10]
    assert "between 9 (52.50%, exactly 21/40) and 10 (47.50%, exactly 19/40)" in answer["lines"][1]
    assert len(set(asked)) <= 7 and result.fought == 0  # a bisection of 17 values, no battle
    assert answer["data"]["values"]["9"] == "21/40"  # of decisive: the draws left out


def test_a_value_at_the_target_exactly_is_the_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shares = {v: Fraction(20 - v, 20) for v in range(0, 17)}
    monkeypatch.setattr("sim.odds.battle.battle_odds", fake(shares, []))
    answer = run_search(load_search(experiment(tmp_path)), tmp_path / "o", progress=False).answer
    assert answer["lines"][1] == f"{FIGHTS} = 10: exactly 50.00%."


def test_a_target_no_value_reaches_says_so_and_exits_1(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shares = {v: Fraction(9, 10) for v in range(0, 17)}
    monkeypatch.setattr("sim.odds.battle.battle_odds", fake(shares, []))
    answer = run_search(load_search(experiment(tmp_path)), tmp_path / "o", progress=False).answer
    assert answer["status"] == "unreached" and answer["exit"] == 1
    assert "no value of" in answer["lines"][1]


@pytest.mark.parametrize(
    ("extra", "message"),
    [("method: sampled\n", "method: expected battles or exact")],
)
def test_a_bad_method_is_located(tmp_path: Path, extra: str, message: str) -> None:
    from sim.scenario import ScenarioError

    path = experiment(tmp_path)
    path.write_text(path.read_text().replace("method: exact\n", extra), encoding="utf-8")
    with pytest.raises(ScenarioError) as err:
        load_search(path)
    assert any(message in str(i) for i in err.value.issues)


def test_exact_takes_one_whole_parameter(tmp_path: Path) -> None:
    from sim.scenario import ScenarioError

    path = experiment(tmp_path)
    text = path.read_text().replace("{low: 0, high: 16}", "{low: 0.0, high: 16.5}")
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ScenarioError) as err:
        load_search(path)
    assert any("one whole-number parameter" in str(i) for i in err.value.issues)
