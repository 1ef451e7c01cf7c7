"""Exact odds of whole battles (issue 39): time, memory and work per scenario.

Run from the repository root::

    python -m benchmarks.odds_battle            # every scenario below, each in a fresh process
    python -m benchmarks.odds_battle FILE ...   # these scenario files

For each scenario it prints the estimate (round and turn starts a sample of 100 battles met,
times their mean outcomes), then either the exact answer's time, fights of a round, most
states and peak memory, or the refusal, in one line. The answer is worked out as ``sim odds
battle`` does it, on a worker per core; its peak memory is the most its process and its
workers held at once (their proportional memory, a shared page split among the processes
that share it, read from /proc every 0.2 s). Goals
(issue 39): each 1 v 1 at most 10 s, the 2 v 2 alley at most 60 s, the 1 v 3 duels and the
3 v 3 skirmish at most 10 minutes, peak memory at most 2 GB. Work counts do not depend on
the machine; the seconds printed do.
"""

from __future__ import annotations

import json
import os
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
WORKERS = os.cpu_count() or 1  # as sim odds battle: every core

_CHILD = """
import json, os, sys, threading, time
from pathlib import Path
from sim.odds.battle import battle_odds, estimate
from sim.errors import SimError

def memory(pid, rss):
    # a process's proportional memory (Pss: a page it shares with n processes counts 1/n),
    # so that the libraries the forkserver's workers share count once; else its resident
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return rss

def tree_mb():
    # the memory of this process and every process under it (the forkserver and the
    # workers it forks), from /proc
    parent, rss = {}, {}
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                fields = (d / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            parent[int(d.name)] = int(fields[1])
            rss[int(d.name)] = int(fields[21]) * os.sysconf("SC_PAGE_SIZE")
    mine, grew = {os.getpid()}, True
    while grew:
        more = {p for p, pp in parent.items() if pp in mine} - mine
        grew = bool(more)
        mine |= more
    return sum(memory(p, rss[p]) for p in mine if p in rss) / 2**20

peak = [0.0]
def watch():
    while True:
        peak[0] = max(peak[0], tree_mb())
        time.sleep(0.2)

threading.Thread(target=watch, daemon=True).start()
path, workers = sys.argv[1], int(sys.argv[2])
t = time.perf_counter()
try:
    guess = estimate(path)
    odds = battle_odds(path, guess=guess, workers=workers)
    row = {"answer": odds.to_dict()["work"],
           "win": {s: float(odds.win(s)) for s in odds.sides}, "draw": float(odds.draw())}
except SimError as e:
    row = {"refused": str(e)}
    guess = locals().get("guess")
row["estimate"] = guess
row["seconds"] = time.perf_counter() - t
row["peak_mb"] = max(peak[0], tree_mb())
print(json.dumps(row))
"""


def measure(path: str) -> dict:
    """One scenario's exact odds in a fresh process (its peak memory its own)."""
    try:
        out = subprocess.run(
            [sys.executable, "-c", _CHILD, path, str(WORKERS)],
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
                f"peak {row['peak_mb']:.0f} MB with {WORKERS} workers; {guess}; "
                f"{wins}, draw {row['draw']:.6f}"
            )
        else:
            peak = f", peak {row['peak_mb']:.0f} MB" if "peak_mb" in row else ""
            took = f"{row.get('seconds', 0):.1f} s{peak}"
            print(f"{path}: refused in {took}; {guess}: {row['refused']}")


if __name__ == "__main__":
    main(sys.argv[1:])
