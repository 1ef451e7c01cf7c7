"""Battles a balance search needs, against a uniform grid of the same precision (issue 32).

Run from the repository root::

    python -m benchmarks.search            # 5 searches per case, and each grid fought once
    python -m benchmarks.search --quick    # 2 searches per case, the grids counted only

Two cases, each balanced to 50% with a tolerance of +-2 points:

- **duel** (a real parameter): the Deathwish duel of the tests, ``incapacitate_serious``
  from 0 to 1, the shooter's wins of all battles; the grid is every 0.1 (11 values).
- **ambush** (a whole number): ``scenarios/ambush.yaml``, the bandits' number from 1 to 12,
  the guards' wins of decisive battles; the grid is every number (12 values).

A grid has the same precision when every value's win rate is known to +-2 points (its
95% Wilson half-width), since nobody knows beforehand where the crossing is; at p = 50%
that is ``ceil(1.96^2 * 0.25 / 0.02^2)`` = 2,401 counted battles at each value (divided by
the share of decisive battles near the crossing, measured, when draws do not count). The
grid is then fought once and its measured half-widths at the two values either side of the
crossing are printed. The goal: the search needs at least 5 times fewer battles.

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
DUEL = """\
name: duel
rules: {system: deathwish}
battle: {morale: none}
max_rounds: 4
seed: 1
sides:
  shooter:
    fighters:
      - {name: Vale, deathwish: {weapon: Glock 20, armor: light vest}}
  target:
    fighters:
      - {name: Moss, deathwish: {weapon: Unarmed}}
"""
CASES: dict[str, dict[str, Any]] = {
    "duel": {
        "scenario": "duel.yaml",
        "parameter": "rules.options.incapacitate_serious",
        "range": {"low": 0.0, "high": 1.0},
        "grid": [round(0.1 * i, 1) for i in range(11)],
        "target": {"side": "shooter", "wins": "50%", "of": "all"},
    },
    "ambush": {
        "scenario": str(ROOT / "scenarios" / "ambush.yaml"),
        "parameter": "sides.bandits.fighters[0].count",
        "range": {"low": 1, "high": 12},
        "grid": list(range(1, 13)),
        "target": {"side": "guards", "wins": "50%", "of": "decisive"},
    },
}


def experiment(work: Path, case: str, seed: int) -> Path:
    """The balance search of ``case`` with ``seed``, written into ``work``."""
    import yaml

    c = CASES[case]
    doc = {
        "name": f"{case}-{seed}",
        "scenario": c["scenario"],
        "design": "balance",
        "parameters": {c["parameter"]: c["range"]},
        "target": c["target"],
        "tolerance": f"{100 * TOLERANCE:g}%",
        "budget": 100_000,
        "seed": seed,
    }
    path = work / f"{case}-{seed}.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    return path


def search(work: Path, case: str, seed: int, workers: int) -> dict[str, Any]:
    """One balance search: its battles, seconds, and the precision it reached."""
    from sim.search import load_search, run_search

    search = load_search(experiment(work, case, seed))
    start = time.perf_counter()
    how = "processes" if workers > 1 else "serial"
    run_search(search, work / f"{case}-{seed}", workers=workers, executor=how, progress=False)
    seconds = time.perf_counter() - start
    answer = json.loads((work / f"{case}-{seed}" / "search" / "answer.json").read_text())
    group = answer["data"]["groups"][0]
    reached = group["crossing"]["points"] if group["crossing"] else math.nan
    if isinstance(CASES[case]["range"]["low"], int):  # the bracket's numbers are the answer
        reached = max((p["hi"] - p["lo"]) / 2 for p in group["bracket"])
    decisive = sum(p["counted"] for p in group["points"]) / sum(
        p["battles"] for p in group["points"]
    )
    near = group["bracket"] or group["points"]
    near_share = sum(p["counted"] for p in near) / sum(p["battles"] for p in near)
    return {
        "seed": seed,
        "battles": answer["data"]["battles"],
        "seconds": round(seconds, 1),
        "status": group["status"],
        "half_width_points": round(100 * reached, 2),
        "crossing": group["crossing"],
        "counted_share": decisive,
        "near_share": near_share,
    }


def grid_battles(case: str, counted_share: float) -> tuple[int, int]:
    """Battles per value, and in all, of the uniform grid with +-2 points at every value."""
    per = math.ceil(Z95 * Z95 * 0.25 / (TOLERANCE * TOLERANCE) / counted_share)
    return per, per * len(CASES[case]["grid"])


def fight_grid(work: Path, case: str, per: int, workers: int) -> dict[str, Any]:
    """Fight the grid once: its battles, seconds and half-widths either side of 50%."""
    import pandas as pd
    import yaml

    from sim import analysis
    from sim.experiment.load import load_experiment
    from sim.experiment.runner import sweep

    c = CASES[case]
    doc = {
        "name": f"{case}-grid",
        "scenario": c["scenario"],
        "parameters": {c["parameter"]: c["grid"]},
        "replicates": per,
        "seed": 1,
    }
    path = work / f"{case}-grid.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    start = time.perf_counter()
    how = "processes" if workers > 1 else "serial"
    sweep(
        load_experiment(path), work / f"{case}-grid", workers=workers, executor=how, progress=False
    )
    seconds = time.perf_counter() - start
    runs = pd.read_parquet(work / f"{case}-grid" / "runs")
    if c["target"]["of"] == "decisive":
        runs = runs[runs.winner.notna()]
    rows = []
    for x, g in runs.groupby(c["parameter"]):
        _, lo, hi = analysis.wilson(int((g.winner == c["target"]["side"]).sum()), len(g))
        rows.append((x, float((g.winner == c["target"]["side"]).mean()), float(hi - lo) / 2))
    either = [
        (a, b) for a, b in zip(rows, rows[1:], strict=False) if (a[1] - 0.5) * (b[1] - 0.5) <= 0
    ]
    halves = [100 * r[2] for pair in either[:1] for r in pair]
    return {
        "battles": len(pd.read_parquet(work / f"{case}-grid" / "runs", columns=["run_id"])),
        "seconds": round(seconds, 1),
        "half_width_points_either_side": halves,
    }


def main(argv: list[str] | None = None) -> int:
    """Measure and print the figures; write them to ``results/benchmarks-search.json``."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.search")
    parser.add_argument(
        "--quick", action="store_true", help="2 searches per case; grids counted only"
    )
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "benchmarks-search.json")
    a = parser.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="benchmarks_search_"))
    (work / "duel.yaml").write_text(DUEL, encoding="utf-8")
    seeds = range(1, 3) if a.quick else range(1, 6)
    figures: dict[str, Any] = {}
    for case in CASES:
        found = [search(work, case, s, a.workers) for s in seeds]
        share = statistics.fmean(f["near_share"] for f in found)
        per, total = grid_battles(case, share)
        median = statistics.median(f["battles"] for f in found)
        fig: dict[str, Any] = {
            "searches": found,
            "search_battles_median": median,
            "grid_values": len(CASES[case]["grid"]),
            "grid_battles_per_value": per,
            "grid_battles": total,
            "ratio": round(total / median, 1),
            "goal": ">= 5x fewer battles",
            "pass": total / median >= 5,
        }
        if not a.quick:
            fig["grid_fought"] = fight_grid(work, case, per, a.workers)
        figures[case] = fig
        print(report(case, fig), flush=True)
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text(json.dumps(figures, indent=1, default=str) + "\n", encoding="utf-8")
    print(f"figures: {a.out}", file=sys.stderr)
    return 0


def report(case: str, fig: dict[str, Any]) -> str:
    """The figure as lines of text."""
    lines = [f"{case}: balance to 50% +-{100 * TOLERANCE:g} points"]
    for f in fig["searches"]:
        lines.append(
            f"  search seed {f['seed']}: {f['battles']:,} battles, {f['status']}, "
            f"+-{f['half_width_points']} points, {f['seconds']} s"
        )
    lines.append(
        f"  uniform grid: {fig['grid_values']} values x {fig['grid_battles_per_value']:,} = "
        f"{fig['grid_battles']:,} battles; search median {fig['search_battles_median']:,.0f}: "
        f"{fig['ratio']}x fewer (goal >= 5x: {'yes' if fig['pass'] else 'NO'})"
    )
    if "grid_fought" in fig:
        g = fig["grid_fought"]
        halves = ", ".join(f"+-{h:.2f}" for h in g["half_width_points_either_side"])
        lines.append(
            f"  grid fought: {g['battles']:,} battles in {g['seconds']} s; either side of "
            f"50%: {halves} points"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())
