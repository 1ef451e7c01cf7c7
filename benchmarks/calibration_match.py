"""History matching with six unknowns: coverage and battles of the recovery (not a test).

``tests/search/calib_helpers.recover_six`` K times, each with its own seeds: a table the
simulator made at known settings of six unknowns (the ambush, a broken side withdrawing;
100 battles at each of four settings), calibrated by ``method: match`` within a budget of
30,000 battles. Prints per calibration the battles, the waves, whether every 95% interval
held its true value, the wall time, and then how many of the K held all six. Issue 41's
goal: at least 28 of 30.

Run: python -m benchmarks.calibration_match [--coverage K] [--workers W] [--budget B]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.calibration_match")
    parser.add_argument("--coverage", type=int, default=30)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--budget", type=int, default=30_000)
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from tests.search.calib_helpers import SIX, recover_six

    held, battles = 0, []
    print(f"six unknowns ({', '.join(SIX)}); budget {args.budget:,} battles a calibration")
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(1, args.coverage + 1):
            start = time.perf_counter()
            answer, ok = recover_six(Path(tmp) / str(seed), seed, args.budget, args.workers)
            spent = int(answer["data"]["battles"])
            battles.append(spent)
            held += ok
            missed = [
                p["name"]
                for p in answer["data"]["parameters"]
                if not p["lo"] <= SIX[p["name"]][0] <= p["hi"]
            ]
            print(
                f"seed {seed:2d}: {spent:6,} battles, {len(answer['data']['waves'])} waves, "
                f"{'held' if ok else 'missed ' + ', '.join(missed)}, "
                f"{time.perf_counter() - start:.0f} s",
                flush=True,
            )
    print(
        f"coverage: {held} of {args.coverage} calibrations held every true value; battles "
        f"{min(battles):,} to {max(battles):,} (mean {sum(battles) / len(battles):,.0f})"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
