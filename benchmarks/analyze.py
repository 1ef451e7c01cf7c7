"""Time ``sim analyze`` on a dataset; prints measured figures (not a test).

Times each stage on its own (reading the ``runs`` columns, the columnar summary, the text
tables) and then the whole command as a user runs it (``sim analyze DIR``, a fresh process,
imports included), best of ``--repeat``. Also reports the parent's peak RSS (VmHWM).

Run: python benchmarks/analyze.py DATASET [--repeat K] [--plot]
     (e.g. the 1,000,000-run dataset kept by
      python benchmarks/sweep_memory.py 1000000 --keep DIR)
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from sim import analysis
from sim.cli.text import render_table

T = TypeVar("T")


def best(fn: Callable[[], T], repeat: int) -> tuple[float, T]:
    """The fastest of ``repeat`` calls (at least one), and the last result."""
    times = []
    for _ in range(max(repeat, 1)):
        start = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - start)
    return min(times), out


def peak_rss_mb() -> float:
    """This process's peak RSS in MB (Linux)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dataset")
    ap.add_argument("--repeat", type=int, default=3, help="repeats per stage (default 3)")
    ap.add_argument("--plot", action="store_true", help="also time the --plot chart")
    args = ap.parse_args()
    ds = analysis.load(args.dataset)
    parts = len(list((ds.root / "runs").glob("part-*.parquet")))

    read_s, table = best(
        lambda: ds.arrow("runs", [*ds.params, "winner", "rounds", "scale_switches", "sides"]),
        args.repeat,
    )
    runs = table.num_rows
    summary_s, s = best(lambda: analysis.summarize(ds), args.repeat)
    render_s, _ = best(
        lambda: (
            render_table(*analysis.outcome_rows(s)),
            render_table(*analysis.loss_rows(s)),
        ),
        args.repeat,
    )
    cmd = [sys.executable, "-m", "sim", "analyze", str(ds.root)]
    if args.plot:
        cmd += ["--plot", str(Path("/tmp") / "benchmark_analyze.png")]
    cli_s, _ = best(
        lambda: subprocess.run(cmd, check=True, capture_output=True),
        args.repeat,
    )
    print(f"dataset            {ds.root} ({runs} runs in {parts} parts)")
    print(f"read runs columns  {read_s:.2f} s")
    print(f"summarize          {summary_s:.2f} s (reading included; {len(s.frame)} groups)")
    print(f"render tables      {render_s * 1000:.1f} ms")
    extra = ", --plot" if args.plot else ""
    print(f"sim analyze        {cli_s:.2f} s (the whole command in a fresh process{extra})")
    print(f"runs/s summarised  {runs / summary_s:,.0f}")
    print(f"peak RSS           {peak_rss_mb():.0f} MB (this process)")


if __name__ == "__main__":
    main()
