"""Exact odds too slow to compute in the test suite, kept for its slow oracle test.

``tests/odds/exact.json`` holds :meth:`sim.odds.battle.BattleOdds.to_dict` of each scenario
below, as ``sim odds battle`` gives it; ``tests/odds/test_battle.py`` fights 100,000 battles
of each and finds every exact chance in the 99.9% band. A rule change that moves the odds
regenerates it in its own commit (about 2.5 minutes here)::

    python -m tests.odds.make_exact
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from sim.odds.battle import battle_odds

ROOT = Path(__file__).resolve().parents[2]
EXACT = Path(__file__).resolve().parent / "exact.json"
SLOW = (
    "scenarios/duel_of_tiers.yaml",
    "scenarios/exact/duel_d6.yaml",
    "scenarios/exact/duel_deathwish.yaml",
    "scenarios/exact/duel_wargame.yaml",
    "scenarios/skirmish.yaml",
)


def text_sha256(path: Path) -> str:
    """The scenario file's digest: the kept odds are of this text."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def main() -> None:
    out = {}
    for path in SLOW:
        odds = battle_odds(ROOT / path)
        out[path] = {**odds.to_dict(), "scenario_sha256": text_sha256(ROOT / path)}
        print(f"{path}: {odds.executions:,} fights of a round in {odds.seconds:.0f} s")
    EXACT.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
