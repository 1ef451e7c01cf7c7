"""Profile skirmish5 through the sweep pipeline; prints the top entries (not a test).

What ``docs/performance.md`` quotes as the before/after profile: ``N`` runs of
``scenarios/skirmish5.yaml`` through :func:`sim.runner.sweep` (serial, Parquet, the runs,
rounds and fighters tables, chunks of 500, events off: figure 1's path) under ``cProfile``,
after a warm-up sweep so that imports are not counted.

Run: python benchmarks/profile_battles.py [N] [--sort tottime|cumulative] [--top K]
"""

import argparse
import cProfile
import pstats
import tempfile
from pathlib import Path

import yaml

from sim.experiment import load_experiment
from sim.runner import sweep
from sim.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("runs", nargs="?", type=int, default=2000)
    ap.add_argument("--scenario", default="skirmish5")
    ap.add_argument("--sort", default="tottime", choices=["tottime", "cumulative"])
    ap.add_argument("--top", type=int, default=25)
    args = ap.parse_args()
    path = ROOT / "scenarios" / f"{args.scenario}.yaml"
    work = Path(tempfile.mkdtemp(prefix="profile_"))
    doc = {
        "name": "profile",
        "scenario": str(path),
        "design": "list",
        "points": [{"max_rounds": load_scenario(path).max_rounds}],
        "replicates": 1_000_000,
        "seed": 2026,
        "tables": ["runs", "rounds", "fighters"],
        "chunk": 500,
    }
    exp_file = work / "profile.yaml"
    exp_file.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    exp = load_experiment(exp_file)
    sweep(exp, work / "warm", limit=100, progress=False)
    profile = cProfile.Profile()
    profile.enable()
    sweep(exp, work / "out", limit=args.runs, progress=False)
    profile.disable()
    stats = pstats.Stats(profile)
    stats.sort_stats(args.sort).print_stats(args.top)


if __name__ == "__main__":
    main()
