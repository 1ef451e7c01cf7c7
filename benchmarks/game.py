"""Battles a game search needs, adaptive against a uniform grid of the same precision (issue 38).

Run from the repository root::

    python -m benchmarks.game             # 3 searches of each mode
    python -m benchmarks.game --quick     # 1 of each

The case: the skirmish (``scenarios/skirmish.yaml``) as a game of tactics, the guards' three
against the bandits' three, the guards' win share of decisive battles the payoff. Each
search stops when the mixes' exploitability is at most 2 points (95%) and the value is
known to +-2 points. ``mode: adaptive`` spends its battles where the answer is decided;
``mode: uniform`` fights every cell alike, batch by batch, under the same stopping rule (a
uniform grid of the same precision, sized by the data as it comes). Also printed: the grid
that knows every cell to +-2 points beforehand (``ceil(1.96^2 * 0.25 / 0.02^2)`` = 2,401
battles a cell), counted, not fought. The goal: the adaptive mode needs at least 2 times
fewer battles than the uniform one.

Battle counts do not depend on the machine; the seconds printed do (other work on it).
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.figures import ROOT
from sim.intervals import Z95

TOLERANCE = 0.02
TACTICS = ["balanced", "aggressive", "defensive"]


def experiment(work: Path, mode: str, seed: int) -> Path:
    """The game search of the skirmish in ``mode`` with ``seed``, written into ``work``."""
    import yaml

    doc = {
        "name": f"skirmish-{mode}-{seed}",
        "scenario": str(ROOT / "scenarios" / "skirmish.yaml"),
        "design": "game",
        "parameters": {"sides.guards.tactic": TACTICS, "sides.bandits.tactic": TACTICS},
        "payoff": {"side": "guards", "of": "decisive"},
        "tolerance": f"{100 * TOLERANCE:g}%",
        "mode": mode,
        "budget": 200_000,
        "seed": seed,
    }
    path = work / f"{mode}-{seed}.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    return path


def search(work: Path, mode: str, seed: int, workers: int) -> dict[str, Any]:
    """One game search: its battles, seconds, and the answer's precision."""
    from sim.search import load_search, run_search

    s = load_search(experiment(work, mode, seed))
    start = time.perf_counter()
    how = "processes" if workers > 1 else "serial"
    out = work / f"{mode}-{seed}"
    run_search(s, out, workers=workers, executor=how, progress=False)
    seconds = time.perf_counter() - start
    answer = json.loads((out / "search" / "answer.json").read_text())
    d = answer["data"]
    return {
        "seed": seed,
        "battles": d["spent"],
        "seconds": round(seconds, 1),
        "status": d["status"],
        "exploitability95_points": round(100 * d["exploitability95"], 2),
        "value": d["value"],
        "cells": d["counted"],
    }


def main(argv: list[str] | None = None) -> int:
    """Measure and print the figure; write it to ``results/benchmarks-game.json``."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.game")
    parser.add_argument("--quick", action="store_true", help="1 search of each mode")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "benchmarks-game.json")
    a = parser.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="benchmarks_game_"))
    seeds = range(1, 2) if a.quick else range(1, 4)
    found = {m: [search(work, m, s, a.workers) for s in seeds] for m in ("adaptive", "uniform")}
    medians = {m: statistics.median(f["battles"] for f in found[m]) for m in found}
    per = math.ceil(Z95 * Z95 * 0.25 / TOLERANCE**2)
    fig = {
        "searches": found,
        "battles_median": medians,
        "fixed_grid_battles": per * len(TACTICS) ** 2,
        "ratio": round(medians["uniform"] / medians["adaptive"], 1),
        "goal": ">= 2x fewer battles than uniform",
        "pass": medians["uniform"] / medians["adaptive"] >= 2,
    }
    print(report(fig), flush=True)
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text(json.dumps(fig, indent=1, default=str) + "\n", encoding="utf-8")
    print(f"figures: {a.out}", file=sys.stderr)
    return 0


def report(fig: dict[str, Any]) -> str:
    """The figure as lines of text."""
    lines = [
        f"skirmish tactics game: exploitability <= {100 * TOLERANCE:g} points (95%) and the "
        f"value +-{100 * TOLERANCE:g}"
    ]
    for mode, runs in fig["searches"].items():
        for f in runs:
            v = f["value"]
            lines.append(
                f"  {mode} seed {f['seed']}: {f['battles']:,} battles, {f['status']}, "
                f"exploitability <= {f['exploitability95_points']} points, value "
                f"{100 * v['mean']:.1f}% [{100 * v['lo']:.1f}-{100 * v['hi']:.1f}], "
                f"{f['seconds']} s"
            )
    m = fig["battles_median"]
    lines.append(
        f"  median battles: adaptive {m['adaptive']:,.0f}, uniform {m['uniform']:,.0f}: "
        f"{fig['ratio']}x fewer (goal >= 2x: {'yes' if fig['pass'] else 'NO'}); a grid "
        f"knowing every cell to +-2 points beforehand: {fig['fixed_grid_battles']:,}"
    )
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())
