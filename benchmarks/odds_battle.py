"""Exact odds of whole battles (issue 39): time, memory and work per scenario.

Run from the repository root::

    python -m benchmarks.odds_battle            # every scenario below, each in a fresh process
    python -m benchmarks.odds_battle FILE ...   # these scenario files

For each scenario it prints the estimate (round and turn starts a sample of 100 battles met,
times their mean outcomes), then either the exact answer's time, fights of a round, most
states and peak memory (the child process's max RSS), or the refusal, in one line. Goals
(issue 39): each 1 v 1 at most 10 s, the 2 v 2 alley at most 60 s, the 1 v 3 duels and the
3 v 3 skirmish at most 10 minutes, peak memory at most 2 GB. Work counts do not depend on
the machine; the seconds printed do.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = [
    "scenarios/exact/duel_2w2p.yaml",
    "scenarios/exact/duel_wargame.yaml",
    "scenarios/exact/duel_deathwish.yaml",
    "scenarios/exact/duel_d6.yaml",
    "scenarios/alley.yaml",
    "scenarios/duel_of_tiers.yaml",
    "scenarios/greatsword.yaml",
    "scenarios/skirmish.yaml",
]

TIMEOUT = 900  # seconds a scenario may take here before it is stopped

_CHILD = """
import json, resource, sys, time
from sim.odds.battle import battle_odds, estimate
from sim.errors import SimError
path = sys.argv[1]
t = time.perf_counter()
try:
    guess = estimate(path)
    odds = battle_odds(path, guess=guess)
    row = {"answer": odds.to_dict()["work"],
           "win": {s: float(odds.win(s)) for s in odds.sides}, "draw": float(odds.draw())}
except SimError as e:
    row = {"refused": str(e)}
    guess = locals().get("guess")
row["estimate"] = guess
row["seconds"] = time.perf_counter() - t
row["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps(row))
"""


def measure(path: str) -> dict:
    """One scenario's exact odds in a fresh process (its peak memory its own)."""
    try:
        out = subprocess.run(
            [sys.executable, "-c", _CHILD, path],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
        )
    except subprocess.TimeoutExpired:
        return {"refused": f"not done in {TIMEOUT} s (stopped)", "seconds": TIMEOUT}
    if out.returncode:
        return {"refused": out.stderr.strip().splitlines()[-1]}
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv: list[str]) -> None:
    for path in argv or SCENARIOS:
        row = measure(path)
        est = row.get("estimate") or {}
        guess = (
            f"estimate {est['executions']:,.0f} ({est['starts']:,.0f} starts x "
            f"{est['branching']:,.1f})"
            if est
            else "no estimate"
        )
        if "answer" in row:
            w = row["answer"]
            wins = ", ".join(f"{s} {p:.6f}" for s, p in row["win"].items())
            print(
                f"{path}: exact in {row['seconds']:.1f} s, {w['executions']:,} fights of a round, "
                f"{w['states']:,} states (at most {w['most_states']:,} in a round), "
                f"peak {row['peak_mb']:.0f} MB; {guess}; "
                f"{wins}, draw {row['draw']:.6f}"
            )
        else:
            print(f"{path}: refused in {row.get('seconds', 0):.1f} s; {guess}: {row['refused']}")


if __name__ == "__main__":
    main(sys.argv[1:])
