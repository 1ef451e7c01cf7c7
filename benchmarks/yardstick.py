"""A yardstick of the machine's speed: a toy 5 v 5 skirmish in bare Python (not a test).

The virtual machine the figures are measured on runs the same code at different speeds on
different days (skirmish5 ran at 1,128 battles/s one afternoon and at 396 that evening, with
no change to the code). Figure 1 is an absolute rate, so it is reported beside this toy's
rate, timed in the same run, to tell a slow machine from slow code. It is an indicator, not
a correction: two runs 17 minutes apart saw skirmish5 move 24% and the toy 3% (most likely
because a real battle leans on memory and caches that the toy hardly touches).

The toy is a War Game skirmish stripped to its arithmetic: five fighters a side, 3 HD and
an armor pool of 4 each, initiative rolled each round. A fighter attacks while it has 2 HD
or more to spend: a random enemy, 1 d8 per HD spent (2 against a target with more than
1 HD). The armor pool soaks what it can, each point through takes 1 HD, and a target about
to be taken out dodges (1 HD: a d8 at least the damage). No Mesa, no numpy, no rows:
``random.Random`` dice and plain lists, about the least a battle of this size can cost in
Python on this machine.

Run: python benchmarks/yardstick.py   (prints toy battles per second)
"""

from __future__ import annotations

import random
import time

FIGHTERS = 5
HD = 3
ARMOR = 4
MAX_ROUNDS = 50


def toy_battle(seed: int) -> int:
    """One toy battle with ``seed``: the winning side (0 or 1), or -1 for a draw."""
    rng = random.Random(seed)
    d8 = rng.randint
    hd = [[HD] * FIGHTERS, [HD] * FIGHTERS]
    armor = [[ARMOR] * FIGHTERS, [ARMOR] * FIGHTERS]
    for _ in range(MAX_ROUNDS):
        spend = [list(hd[0]), list(hd[1])]
        order = (0, 1) if d8(0, 1) == 0 else (1, 0)  # initiative, rolled each round
        for i in range(FIGHTERS):
            for side in order:
                foe = 1 - side
                while hd[side][i] > 0 and spend[side][i] >= 2:
                    alive = [j for j in range(FIGHTERS) if hd[foe][j] > 0]
                    if not alive:
                        return side
                    j = alive[d8(0, len(alive) - 1)]
                    dice = 2 if hd[foe][j] > 1 else 1  # mighty against a fresh target
                    spend[side][i] -= dice
                    damage = sum(d8(1, 8) for _ in range(dice))
                    through = max(0, damage - armor[foe][j])
                    armor[foe][j] = max(0, armor[foe][j] - damage)
                    if through >= hd[foe][j] and spend[foe][j] > 0:  # dodge what takes it out
                        spend[foe][j] -= 1
                        if d8(1, 8) >= damage:
                            continue
                    hd[foe][j] = max(0, hd[foe][j] - through)
        if not any(hd[0]) or not any(hd[1]):
            return 0 if any(hd[0]) else 1 if any(hd[1]) else -1
    return -1


BATTLES = 10_000


def rate(repeats: int = 3, battles: int = BATTLES) -> float:
    """Toy battles per second on one core: the best of ``repeats`` passes of ``battles``.

    Every pass fights seeds ``0..battles-1``, so it does the same work on any day.
    """
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for seed in range(battles):
            toy_battle(seed)
        best = min(best, time.perf_counter() - start)
    return battles / best


if __name__ == "__main__":
    print(f"{rate():.0f} toy battles/s")
