"""The command line, ``python -m benchmarks.validity``: run the studies, write the report.

Kept apart from ``__main__.py`` so the package can re-export :func:`main` (importing a
package's ``__main__`` from its ``__init__`` makes ``python -m`` warn).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from benchmarks.validity.arms import write_experiments
from benchmarks.validity.base import CONFIGS, ROOT, SYSTEMS, config_text
from benchmarks.validity.battles import Runner
from benchmarks.validity.charts import draw_charts
from benchmarks.validity.report import minutes, render
from benchmarks.validity.run import FULL, QUICK, run_all


def _parser() -> argparse.ArgumentParser:
    """The arguments of :func:`main`."""
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.validity",
        description="Run the validation studies and write the validation report.",
    )
    parser.add_argument("--quick", action="store_true", help="fewer battles (a smoke run)")
    parser.add_argument(
        "--out",
        type=Path,
        help="the report (default docs/validation.md; with --quick results/validation-quick.md); "
        "its charts go in a folder of the same name beside it",
    )
    parser.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument(
        "--systems", nargs="+", choices=SYSTEMS, default=list(SYSTEMS), help="rule systems"
    )
    parser.add_argument(
        "--strict", action="store_true", help="exit with status 1 when an invariant fails"
    )
    parser.add_argument(
        "--scenario",
        nargs=4,
        metavar=("SYSTEM", "CONFIG", "N", "M"),
        help="print the study scenario of N v M fighters (CONFIG: everyday or one_hit) and exit",
    )
    parser.add_argument(
        "--experiments",
        action="store_true",
        help="write experiments/large_scale_<scenario>.yaml (study f's battles as sweeps) and exit",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the studies and write the report (or, with ``--scenario``, print one scenario)."""
    parser = _parser()
    args = parser.parse_args(argv)
    if args.scenario:
        system, config, n, m = args.scenario
        if system not in SYSTEMS or config not in CONFIGS:
            parser.error(
                f"SYSTEM is one of {', '.join(SYSTEMS)}; CONFIG one of {', '.join(CONFIGS)}"
            )
        print(config_text(system, config, int(n), int(m)), end="")
        return 0
    if args.experiments:
        for path in write_experiments():
            print(f"wrote {os.path.relpath(path, ROOT)}")
        return 0
    out: Path = args.out or (
        ROOT / "results" / "validation-quick.md" if args.quick else ROOT / "docs" / "validation.md"
    )
    reps = QUICK if args.quick else FULL
    command = "python -m benchmarks.validity" + (" --quick" if args.quick else "")
    if args.systems != list(SYSTEMS):
        command += " --systems " + " ".join(args.systems)

    def log(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    start = time.perf_counter()
    with Runner(args.workers, log=log) as runner:
        res = run_all(runner, reps, args.systems)
    charts = draw_charts(res, out.parent / out.stem)
    total = time.perf_counter() - start
    rel = {k: os.path.relpath(v, out.parent).replace(os.sep, "/") for k, v in charts.items()}
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(f".{out.name}.tmp")
    tmp.write_text(render(res, rel, command, total), encoding="utf-8")
    tmp.replace(out)
    checks = res.checks()
    failed = [c for c in checks if not c.passed]
    for c in failed:
        print(f"FAIL {c.study} {c.system}: {c.name}: {c.figures}")
    print(
        f"{len(checks) - len(failed)} of {len(checks)} invariants pass; "
        f"{sum(res.battles.values()):,} battles in {minutes(total)}; report: {out}"
    )
    return 1 if args.strict and failed else 0
