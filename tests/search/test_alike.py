"""Alternatives that fought the same battles on every shared seed are said to (issue 37).

Four War Game weapons fought identically on every shared seed of a search and nothing said
so. With shared seeds, points whose battles are identical on each of the first 20 seeds get
one note, in a sweep's analysis and in an optimize search's answer; points that differ get
none.
"""

from __future__ import annotations

from pathlib import Path

from sim.cli import main
from sim.dataset.alike import alike
from tests.search.helpers import DUEL, write

ROOT = Path(__file__).resolve().parents[2]


def test_points_alike_on_their_first_seeds_are_grouped():
    a, b = list(range(20)), [*range(19), 99]
    assert alike({0: a, 1: list(a), 2: b, 3: list(a)}) == [[0, 1, 3]]
    assert alike({0: a, 1: b}) == [] and alike({0: a[:5], 1: a[:5]}) == []


def test_a_sweep_with_shared_seeds_says_which_points_fought_alike(tmp_path, capsys):
    """max_rounds 50 or 60: the skirmish never lasts that long; 2 cuts battles short."""
    exp = write(
        tmp_path,
        "s.yaml",
        f"scenario: {ROOT / 'scenarios' / 'skirmish.yaml'}\nparameters:\n"
        "  max_rounds: [2, 50, 60]\nreplicates: 20\nseeds: shared\nseed: 4\n",
    )
    assert main(["sweep", str(exp), "--out", str(tmp_path / "d"), "--workers", "1"]) == 0
    out = capsys.readouterr().out
    note = (
        "note: max_rounds = 50 and max_rounds = 60 fought identical battles (winner, rounds "
        "and losses) on each of the first 20 shared seeds: these rules may not tell them apart."
    )
    assert out.count(note) == 1, out
    assert "max_rounds = 2 and" not in out


def test_an_optimize_search_says_which_candidates_fought_alike(tmp_path, capsys):
    """The target's name is no rule: Moss and Rook are the same choice."""
    write(tmp_path, "duel.yaml", DUEL)
    exp = write(
        tmp_path,
        "o.yaml",
        "scenario: duel.yaml\ndesign: optimize\nparameters:\n"
        "  rules.options.incapacitate_serious: {choices: [0.25, 0.75]}\n"
        "  sides.target.fighters[0].name: {choices: [Moss, Rook]}\n"
        "objective: {side: shooter, wins: max}\nbudget: 400\nreplicates: 10\n"
        "confirm: {top: 4, replicates: 30, final: 30}\nseed: 5\n",
    )
    assert main(["sweep", str(exp), "--out", str(tmp_path / "o"), "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert out.count("fought identical battles") == 1, out
    note = out.split("note: ", 1)[1].split(" fought identical", 1)[0]
    for serious in ("0.25", "0.75"):
        both = [
            f"rules.options.incapacitate_serious = {serious}, sides.target.fighters[0].name = {n}"
            for n in ("Moss", "Rook")
        ]
        assert f"{both[0]} and {both[1]}" in note or f"{both[1]} and {both[0]}" in note, note
