"""Profile skirmish5 through the sweep pipeline; prints the top entries (not a test).

What ``docs/performance.md`` quotes as the before/after profile: ``N`` runs of
``scenarios/skirmish5.yaml`` through :func:`sim.experiment.runner.sweep` (serial, Parquet, the runs,
rounds and fighters tables, chunks of 500, events off: figure 1's path) under ``cProfile``,
after a warm-up sweep so that imports are not counted.

Run: python benchmarks/profile_battles.py [N] [--sort tottime|cumulative] [--top K]

``--instructions`` runs the same sweep without ``cProfile``, inside ``functools.reduce`` so
that callgrind can count the instructions of that sweep alone (load does not change them)::

    PYTHONHASHSEED=0 valgrind --tool=callgrind --collect-atstart=no \
        --toggle-collect=functools_reduce --callgrind-out-file=/dev/null \
        python benchmarks/profile_battles.py 100 --instructions

"Collected" divided by N is the instructions per run that ``docs/performance.md`` quotes.
"""

import argparse
import cProfile
import functools
import pstats
import tempfile
from pathlib import Path

import yaml

from sim.experiment import load_experiment
from sim.experiment.runner import sweep
from sim.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("runs", nargs="?", type=int, default=2000)
    ap.add_argument("--scenario", default="skirmish5")
    ap.add_argument("--sort", default="tottime", choices=["tottime", "cumulative"])
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--instructions", action="store_true", help="no cProfile (for callgrind)")
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
    if args.instructions:  # callgrind --toggle-collect=functools_reduce counts this sweep only
        functools.reduce(
            lambda _a, _b: sweep(exp, work / "out", limit=args.runs, progress=False), [0, 1]
        )
        return
    profile = cProfile.Profile()
    profile.enable()
    sweep(exp, work / "out", limit=args.runs, progress=False)
    profile.disable()
    stats = pstats.Stats(profile)
    stats.sort_stats(args.sort).print_stats(args.top)


if __name__ == "__main__":
    main()
