"""Battles and wall time per calibration of the documented example, and its coverage (not a test).

Runs ``experiments/ambush_calibration.yaml`` (docs/calibration.md) through
``sim.search.run_search`` ``--repeat`` times, each with its own search seed, into a
temporary folder, and prints per calibration the battles fought, the batches, the wall time
and the battles per second, then the mean. With ``--coverage K`` it also runs the recovery
of ``tests/search/test_calibrate_recovery.py`` K times (a table observed at the true
settings with ``--battles`` battles a row, each with its own seed, then calibrated) and
prints how many of the K 95% intervals held both true values, and the battles each cost.

Battle counts are deterministic (the same seeds give the same battles); wall times move
with the machine's load.

Run: python -m benchmarks.calibration [--repeat N] [--workers W] [--coverage K] [--battles B]
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "experiments" / "ambush_calibration.yaml"


def example(seed: int, folder: Path, workers: int) -> tuple[int, int, float]:
    """One calibration of the documented example with search seed ``seed``."""
    from sim.search import load_search, run_search

    text = re.sub(r"(?m)^seed: \d+$", f"seed: {seed}", EXAMPLE.read_text(encoding="utf-8"))
    text = text.replace("../scenarios/ambush.yaml", str(ROOT / "scenarios" / "ambush.yaml"))
    path = folder / f"example-{seed}.yaml"
    path.write_text(text, encoding="utf-8")
    table = EXAMPLE.parent / "ambush_observed.csv"
    (folder / table.name).write_bytes(table.read_bytes())
    executor = "processes" if workers > 1 else "serial"
    start = time.perf_counter()
    result = run_search(
        load_search(path),
        folder / f"out-{seed}",
        workers=workers,
        executor=executor,
        progress=False,
    )
    return result.spent, _batches(result.out), time.perf_counter() - start


def _batches(out: Path) -> int:
    import json

    return len(json.loads((out / "search" / "journal.json").read_text())["batches"])


def coverage(k: int, battles: int, folder: Path) -> None:
    """K recoveries: how many intervals held the truth, and their battles."""
    sys.path.insert(0, str(ROOT))
    from tests.search.calib_helpers import recover
    from tests.search.test_calibrate_recovery import EXTRA, holds

    held, spent = 0, []
    for seed in range(1, k + 1):
        answer = recover(folder / f"recovery-{seed}", battles, seed, extra=EXTRA)
        held += holds(answer)
        spent.append(answer["data"]["battles"])
    print(
        f"recovery at {battles} observed battles a row: the truth in {held} of {k} 95% "
        f"intervals; {statistics.mean(spent):,.0f} battles per calibration "
        f"({min(spent):,}-{max(spent):,})"
    )


def main(argv: list[str] | None = None) -> None:
    """Run the benchmark (see the module's docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--coverage", type=int, default=0)
    parser.add_argument("--battles", type=int, default=12)
    a = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        rows = []
        for seed in range(2026, 2026 + a.repeat):
            spent, batches, seconds = example(seed, folder, a.workers)
            rows.append((spent, seconds))
            plural = "s" if a.workers > 1 else ""
            print(
                f"seed {seed}: {spent:,} battles in {batches} batches, {seconds:.1f} s "
                f"({spent / seconds:.0f} battles/s, {a.workers} worker{plural})",
                flush=True,
            )
        print(
            f"mean per calibration of {EXAMPLE.relative_to(ROOT)}: "
            f"{statistics.mean(s for s, _ in rows):,.0f} battles, "
            f"{statistics.mean(t for _, t in rows):.1f} s"
        )
        if a.coverage:
            coverage(a.coverage, a.battles, folder)


if __name__ == "__main__":
    main()
