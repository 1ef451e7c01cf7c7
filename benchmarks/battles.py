"""Time runs of each example scenario; prints measured figures (not a test).

Each run goes through ``sim.run.core.fight``, as in a sweep: a battle, or a campaign of battles
with its aftermath (counted as one, like figure 1 of ``python -m benchmarks``).

Run: python benchmarks/battles.py [N]   (N runs per scenario, default 300)
"""

import sys
import time
from pathlib import Path

from sim.run.core import fight
from sim.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[1]


def main(n: int) -> None:
    print(f"{'scenario':<12} {'rules':<10} {'fighters':>8} {'ms/battle':>10} {'battles/s':>10}")
    for path in sorted((ROOT / "scenarios").glob("*.yaml")):
        sc = load_scenario(path)
        start = time.perf_counter()
        for seed in range(n):
            fight(sc, seed)
        per = (time.perf_counter() - start) / n
        fighters = sum(len(s.fighters) for s in sc.sides)
        print(f"{sc.name:<12} {sc.rules:<10} {fighters:>8} {per * 1000:>10.2f} {1 / per:>10.0f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 300)
