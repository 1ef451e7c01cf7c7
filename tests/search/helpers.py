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


DUEL_GAME = """\
name: duel_game
rules: {system: deathwish}
battle: {morale: none, deathwish_location: random}
max_rounds: 4
seed: 1
sides:
  shooter:
    fighters:
      - {name: Vale, deathwish: {weapon: S&W 500, armor: {torso: 1, head: 1, limbs: 1}}}
  target:
    fighters:
      - {name: Moss, deathwish: {weapon: Unarmed}}
"""
"""The duel as a game: the shooter picks a gun, the target where its armor goes.

Hits land on a rolled location (d10: head, vitals, four limbs, four torso); the shooter's
armor covers every part, so the unarmed target still cannot hurt it, and each shot's chance
to incapacitate or kill is exact from the rules (:func:`duel_game_win`).
"""
GUNS = {"S&W 500": ("S&W 500", "standard"), "M16 AP": ("M16", "armor-piercing")}
COVERS = {"greaves": {"limbs": 3}, "helmet": {"head": 3, "limbs": 1}}


def duel_game_win(gun: str, cover: str, rounds: int = 4) -> Fraction:
    """The exact chance the shooter wins the duel game's cell ``(gun, cover)``."""
    from sim.systems.deathwish import _LOCATION_D10

    weapon, ammo = GUNS[gun]
    opts = dw.make_options({})
    thr = dw.thresholds(dw.trauma_tolerance(5, 5))
    worn = dw.armor_by_location(COVERS[cover])
    q = Fraction(0)
    for loc in sorted(set(_LOCATION_D10)):
        pen, leth = dw.attack_values(dw.find_weapon(weapon), location=loc, ammo=ammo, options=opts)
        dist = dw.damage_dist(pen, leth, dw.armor_on(worn, loc), 0)
        down = dw.effect_dist(dist, thr, opts).prob(lambda e: e in ("incapacitated", "dead"))
        q += Fraction(_LOCATION_D10.count(loc), 10) * down
    q *= dw.hit_chance(5, 0, 0)
    return 1 - (1 - q) ** rounds


def duel_game_yaml(scenario: str = "duel_game.yaml", seed: int = 1, **keys: object) -> str:
    """A game search of the duel game (named alternatives on both sides)."""
    import json

    def alt(path: str, values: dict[str, object]) -> str:
        return json.dumps({name: {path: v} for name, v in values.items()})

    guns = {
        n: {
            "sides.shooter.fighters[0].deathwish.weapon": w,
            "sides.shooter.fighters[0].deathwish.ammo": a,
        }
        for n, (w, a) in GUNS.items()
    }
    covers = {n: {"sides.target.fighters[0].deathwish.armor": c} for n, c in COVERS.items()}
    extra = "".join(f"{k}: {json.dumps(v)}\n" for k, v in keys.items())
    return (
        f"name: duel_game_{seed}\nscenario: {scenario}\ndesign: game\nparameters:\n"
        f"  gun: {{choices: {json.dumps(guns)}}}\n  cover: {{choices: {json.dumps(covers)}}}\n"
        f"payoff: {{side: shooter, of: all}}\nseed: {seed}\n{extra}"
    )
