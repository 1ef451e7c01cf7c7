"""Measure the performance figures and write them to ``results/benchmarks.json``.

Run from the repository root::

    python -m benchmarks                 # every figure, full size (about 30 min on 2 cores)
    python -m benchmarks --quick         # every figure, small sizes (a few minutes)
    python -m benchmarks --only 1 4      # some figures; others already in the file are kept
    python -m benchmarks --only 6 7 --memory-from LOG --dataset DIR
                                         # reuse a sweep_memory.py log and its kept dataset
    python -m benchmarks --out docs/performance.json
                                         # update the figures docs/performance.md quotes

A run writes to ``results/`` (ignored by git), so measuring never changes a file the
repository tracks. The one committed copy is ``docs/performance.json``, the figures that
``docs/performance.md`` quotes: update it with ``--out docs/performance.json`` on an
otherwise idle machine, and the page with it.

Figures (the goals are for a 2-core machine):

1. battles per second on one core, events off, ``sim sweep`` with Parquet, every scenario
2. sweep throughput with 1 and 2 workers, and their ratio
3. the same runs through ``mesa.batch_run(number_processes=2)``, and our ratio to it
4. time per round with 100, 1,000 and 10,000 fighters a side, small (forced) and large scale
5. the exact odds table: every Deathwish weapon x armor 0-3 x TT 1-20
6. peak RSS of the parent and of a worker during a 1,000,000-run quick-start sweep
7. ``sim analyze`` on that 1,000,000-run dataset
8. the quick-start sweep on a local Dask cluster (``dask scheduler`` and ``dask worker``
   processes) with 1 and 2 workers: runs per second per worker, for planning a cluster

The results file holds each figure (value, units, goal, pass), the core count, the date and
the versions; it is written atomically. Timings are wall clock on whatever else the machine
is doing: run on an otherwise idle machine.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from benchmarks.base import Config, Figure
from benchmarks.figures import FIGURES

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "results" / "benchmarks.json"
"""Where a run writes by default: under ``results/``, which git ignores."""
QUOTED = ROOT / "docs" / "performance.json"
"""The committed figures that ``docs/performance.md`` quotes (written only with ``--out``)."""


def environment(quick: bool) -> dict[str, Any]:
    """Where and when the figures were taken."""
    import mesa
    import numpy
    import pyarrow

    from sim import __version__

    return {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "cpu_count": os.cpu_count(),
        "python": platform.python_version(),
        "mesa": mesa.__version__,
        "numpy": numpy.__version__,
        "pyarrow": pyarrow.__version__,
        "sim": __version__,
        "platform": platform.platform(),
        "mode": "quick" if quick else "full",
    }


def write_results(path: Path, figures: dict[str, Figure], env: dict[str, Any]) -> dict[str, Any]:
    """Merge ``figures`` into the results file at ``path`` (atomically); return its data.

    Figures not measured now keep their earlier values, each with its own ``date``. The
    file's directory is made if it is missing (a fresh clone has no ``results/`` content).
    """
    old: dict[str, Any] = {}
    if path.is_file():
        try:
            old = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError:
            old = {}
    merged = dict(old.get("figures", {}))
    for key, fig in figures.items():
        merged[key] = {"name": fig.name, **fig.to_dict(), "date": env["date"], "mode": env["mode"]}
    data = {**env, "figures": dict(sorted(merged.items()))}
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(json.dumps(data, indent=2) + "\n")
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return data


def table(data: dict[str, Any]) -> str:
    """The figures as a plain-text table."""
    rows = [("fig", "figure", "value", "goal", "met")]
    for key, f in data["figures"].items():
        met = {True: "yes", False: "NO", None: "n/a"}[f["pass"]]
        value = f"{f['value']:,.2f} {f['units']}".replace(".00 ", " ")
        rows.append((key, f["title"], value, f["goal"], met))
    widths = [min(max(len(r[i]) for r in rows), 70) for i in range(5)]
    lines = []
    for i, r in enumerate(rows):
        lines.append("  ".join(c[:70].ljust(w) for c, w in zip(r, widths, strict=True)).rstrip())
        if i == 0:
            lines.append("  ".join("-" * w for w in widths))
    head = (
        f"{data['date']}  {data['cpu_count']} cores  Python {data['python']}  "
        f"Mesa {data['mesa']}  ({data['mode']})"
    )
    return head + "\n" + "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small sizes (a few minutes)")
    ap.add_argument("--only", nargs="+", choices=sorted(FIGURES), metavar="FIG", help="1..8")
    ap.add_argument("--memory-from", type=Path, metavar="LOG", help="figure 6 from this log")
    ap.add_argument("--dataset", type=Path, metavar="DIR", help="figure 7 on this dataset")
    ap.add_argument(
        "--out",
        type=Path,
        default=RESULTS,
        help=f"results file (default: %(default)s; {QUOTED.relative_to(ROOT)}: the figures "
        "the docs quote)",
    )
    ap.add_argument("--keep", action="store_true", help="keep the work directory")
    args = ap.parse_args(argv)

    cfg = Config(quick=args.quick, memory_from=args.memory_from, dataset=args.dataset)
    env = environment(args.quick)
    wanted = args.only or sorted(FIGURES)
    measured: dict[str, Figure] = {}
    data: dict[str, Any] = {}
    try:
        for key in wanted:
            cfg.log((FIGURES[key].__doc__ or key).splitlines()[0])
            start = time.perf_counter()
            fig = FIGURES[key](cfg)
            fig.seconds = time.perf_counter() - start
            measured[key] = fig
            data = write_results(args.out, measured, env)
    finally:
        if args.keep:
            cfg.log(f"work directory kept: {cfg.work}")
        else:
            shutil.rmtree(cfg.work, ignore_errors=True)
    print(table(data))
    print(f"\nwritten: {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
