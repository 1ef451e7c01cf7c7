"""Figure 1's measure: instructions per skirmish5 run through ``sim sweep`` (callgrind).

The machine these figures are measured on runs the same code at speeds weeks apart by 3x,
and minutes apart by 10-15%, so figure 1 is tracked as a count that load does not change:
the instructions callgrind counts in a fixed sweep of ``scenarios/skirmish5.yaml``, divided
by its runs. The sweep is figure 1's path: :func:`sim.experiment.runner.sweep`, serial,
Parquet, the runs, rounds and fighters tables, chunks of 500, events off, seed 2026; it
runs after a warm-up sweep of 100 runs (imports and caches are not counted), inside
``functools.reduce`` so that callgrind counts that sweep alone. The work folder is entered
and named by relative paths, and ``PYTHONHASHSEED=0``, so the same code gives the same count
every time, but for a few instructions in a million (a process id, a clock read): four
counts of a 20-run sweep fell within 15 instructions of 191,481,311, two of a 100-run sweep
2,153 apart in 618 M. Counts a run agree to the 0.001 M printed (:func:`same`).

Goal: no regression from 5.48 M instructions a run (1,000 runs, at commit 15615d2).

Run: python -m benchmarks.instructions [RUNS] [--repeat 2]   (needs valgrind)
"""

from __future__ import annotations

import argparse
import functools
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
RUNS = 1_000
"""Runs of the counted sweep (5.48 M a run was counted over 1,000; fewer count more a run)."""
WARM_UP = 100
GOAL = 5.48e6
"""Instructions a run at the end of issue 18 (5.482 M), which figure 1 must not exceed."""
SCENARIO = "skirmish5"


def experiment(scenario: str = SCENARIO) -> dict[str, object]:
    """The counted sweep's experiment: the scenario as it is, a seed a run."""
    from sim.scenario import load_scenario

    path = ROOT / "scenarios" / f"{scenario}.yaml"
    return {
        "name": "instructions",
        "scenario": f"{scenario}.yaml",  # beside the experiment file, copied into the work folder
        "design": "list",
        "points": [{"max_rounds": load_scenario(path).max_rounds}],
        "replicates": 1_000_000,
        "seed": 2026,
        "tables": ["runs", "rounds", "fighters"],
        "chunk": 500,
    }


def counted_sweep(runs: int, scenario: str = SCENARIO) -> None:
    """Warm up, then sweep ``runs`` runs inside ``functools.reduce`` (what callgrind counts).

    Run in a fresh temporary folder, entered, so that every path the sweep sees is the same
    relative one on any machine and in any run.
    """
    from sim.experiment.load import load_experiment
    from sim.experiment.runner import sweep

    work = Path(tempfile.mkdtemp(prefix="instructions_"))
    here = Path.cwd()
    try:
        os.chdir(work)
        shutil.copy(ROOT / "scenarios" / f"{scenario}.yaml", f"{scenario}.yaml")
        Path("instructions.yaml").write_text(
            yaml.safe_dump(experiment(scenario), sort_keys=False), encoding="utf-8"
        )
        exp = load_experiment("instructions.yaml")
        sweep(exp, "warm", limit=WARM_UP, progress=False)
        # callgrind --toggle-collect=functools_reduce counts this sweep only
        functools.reduce(lambda _a, _b: sweep(exp, "out", limit=runs, progress=False), [0, 1])
    finally:
        os.chdir(here)
        shutil.rmtree(work, ignore_errors=True)


def count(runs: int = RUNS, scenario: str = SCENARIO) -> int:
    """Instructions callgrind counts in the sweep of ``runs`` runs (all of them, not a run's)."""
    if shutil.which("valgrind") is None:
        raise RuntimeError("counting instructions needs valgrind (apt-get install valgrind)")
    cmd = [
        "valgrind",
        "--tool=callgrind",
        "--collect-atstart=no",
        "--toggle-collect=functools_reduce",
        "--callgrind-out-file=/dev/null",
        sys.executable,
        "-m",
        "benchmarks.instructions",
        str(runs),
        "--scenario",
        scenario,
        "--counted",
    ]
    paths = [str(ROOT), *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    env = {**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": os.pathsep.join(paths)}
    done = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
    found = re.search(r"Collected\s*:\s*(\d+)", done.stderr)
    if done.returncode != 0 or found is None:
        tail = "\n".join(done.stderr.splitlines()[-15:])
        raise RuntimeError(f"callgrind failed (exit {done.returncode}):\n{tail}")
    return int(found.group(1))


def same(counts: list[int], runs: int) -> bool:
    """True if the counts give the same instructions a run, to the 1,000 printed."""
    return len({round(n / runs, -3) for n in counts}) == 1


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m benchmarks.instructions", description=__doc__.splitlines()[0]
    )
    ap.add_argument("runs", nargs="?", type=int, default=RUNS)
    ap.add_argument("--scenario", default=SCENARIO)
    ap.add_argument("--repeat", type=int, default=1, help="count again, to see it repeat")
    ap.add_argument("--counted", action="store_true", help=argparse.SUPPRESS)  # under callgrind
    args = ap.parse_args(argv)
    if args.counted:
        counted_sweep(args.runs, args.scenario)
        return 0
    counts = [count(args.runs, args.scenario) for _ in range(args.repeat)]
    for n in counts:
        print(f"{args.scenario}: {n:,} instructions, {n / args.runs / 1e6:.3f} M a run")
    if not same(counts, args.runs):
        print("the counts a run differ: the measure is not deterministic here", file=sys.stderr)
        return 1
    if args.scenario == SCENARIO and args.runs == RUNS:
        per = counts[0] / args.runs
        verdict = "met" if per <= GOAL else "MISSED"
        print(f"goal: at most {GOAL / 1e6:.2f} M a run: {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
