"""Scenarios with known answers for the search tests, and their exact win rates.

DUEL: a Deathwish duel the shooter cannot lose: the target, unarmed, cannot get through the
shooter's light vest, and morale is off, so the shooter wins when one of its shots within
``max_rounds`` incapacitates or kills, and the battle is otherwise a draw. Each shot's
chance of that is exact from the rules' distributions (to hit, damage, wound level,
incapacitation, instant death), so the win rate at any ``incapacitate_serious`` and the
value where it crosses 50% are exact (:func:`duel_win`, :func:`duel_crossing`).

MIRROR: two sides of identical War Game fighters; side ``a`` has three, side ``b``'s count
varies. With three each the sides are the same, so each wins half the decisive battles.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from benchmarks.search import DUEL as DUEL  # the benchmark's duel is the tests'
from sim.rules import deathwish as dw

MIRROR = """\
name: mirror_count
rules: wargame
seed: 1
sides:
  a:
    fighters:
      - {name: a, count: 3, hit_dice: 4, armor: [gambeson], weapon: spear}
  b:
    fighters:
      - {name: b, count: 3, hit_dice: 4, armor: [gambeson], weapon: spear}
"""


def duel_win(weapon: str = "Glock 20", serious: float = 0.75, rounds: int = 4) -> Fraction:
    """The exact chance the shooter wins the duel (within ``rounds`` shots)."""
    opts = dw.make_options({"incapacitate_serious": serious})
    thr = dw.thresholds(dw.trauma_tolerance(5, 5))
    pen, leth = dw.attack_values(dw.find_weapon(weapon), strength=5, options=opts)
    effect = dw.effect_dist(dw.damage_dist(pen, leth, 0, 0), thr, opts)
    q = dw.hit_chance(5, 0, 0) * effect.prob(lambda e: e in ("incapacitated", "dead"))
    return 1 - (1 - q) ** rounds


def duel_crossing(target: float = 0.5, weapon: str = "Glock 20", rounds: int = 4) -> float:
    """The ``incapacitate_serious`` at which the shooter wins ``target`` (bisection)."""
    lo, hi = 0.0, 1.0
    for _ in range(60):
        mid = (lo + hi) / 2
        if duel_win(weapon, mid, rounds) < target:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def write(folder: Path, name: str, text: str) -> Path:
    """Write ``text`` as ``folder/name``; its path."""
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path
