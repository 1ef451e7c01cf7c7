"""Exact odds for each rule system: the numbers behind ``sim odds``.

Each function returns plain data (dicts and lists of floats) computed from the exact
distributions in :mod:`sim.rules`; :mod:`sim.cli.text` renders it as a table, JSON or CSV.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from sim.dice import D6Code, Dist
from sim.errors import SimError
from sim.rules import d6, deathwish, twowp, wargame

WOUND_LEVELS = ("none", "slight", "moderate", "serious", "critical")
DEATHWISH_TABLE_ARMOR = (0, 1, 2, 3)


def _floats(dist: Dist) -> dict[str, float]:
    return {str(k): float(p) for k, p in dist.items()}


def parse_armor(text: str, location: str = "torso") -> int:
    """Deathwish armor on the struck ``location``: a number of points, or an armor name.

    A number is the points on that location. A name counts only where the armor covers
    (:func:`sim.rules.deathwish.worn_armor`: a vest or plates torso and vitals, a helmet the
    head), so ``light vest`` on a head hit is 0.
    """
    try:
        value = int(text)
    except ValueError:
        return deathwish.armor_on(deathwish.worn_armor(text.strip()), location)
    if value < 0:
        raise SimError(f"armor must be 0 or more, got {value}")
    return value


def deathwish_odds(
    penetration: int, lethality: int, armor: int, cover: int, tt: int
) -> dict[str, Any]:
    """Exact damage distribution, mean, P(0) and wound-level chances for one attack."""
    if tt < 1:
        raise SimError(f"trauma tolerance must be 1 or more, got {tt}")
    if cover < 0:
        raise SimError(f"cover must be 0 or more, got {cover}")
    if not 0 <= penetration <= MAX_PENETRATION:
        raise SimError(f"penetration must be 0..{MAX_PENETRATION}, got {penetration}")
    damage = deathwish.damage_dist(penetration, lethality, armor, cover)
    wounds = deathwish.wound_dist(damage, deathwish.thresholds(tt))
    return {
        "mean": float(damage.mean()),
        "p_zero": float(damage[0]),
        "damage": _floats(damage),
        "wounds": {level: float(wounds[level]) for level in WOUND_LEVELS},
    }


def deathwish_table(
    tt: int, strength: int, cover: int, location: str, ammo: str
) -> list[dict[str, Any]]:
    """Every seed weapon against armor 0 to 3: mean, P(0) and wound-level chances."""
    rows = []
    for weapon in deathwish.WEAPONS.values():
        pen, leth = deathwish.attack_values(weapon, strength=strength, location=location, ammo=ammo)
        for armor in DEATHWISH_TABLE_ARMOR:
            odds = deathwish_odds(pen, leth, armor, cover, tt)
            del odds["damage"]
            rows.append(
                {
                    "weapon": weapon.name,
                    "penetration": pen,
                    "lethality": leth,
                    "armor": armor,
                    **odds,
                }
            )
    return rows


def parse_attackers(text: str) -> dict[twowp.Tier, int]:
    """``TIER=COUNT,...`` (e.g. ``green=3,veteran=1``) as counts per 2W2P tier."""
    counts: dict[twowp.Tier, int] = {}
    for part in text.split(","):
        name, sep, count = part.partition("=")
        if not sep or not count.strip().isdigit():
            raise SimError(f"bad attackers {part.strip()!r}: expected TIER=COUNT, e.g. green=3")
        tier = twowp.parse_tier(name.strip())
        counts[tier] = counts.get(tier, 0) + int(count)
    return counts


MAX_TWOWP_WORK = 2500
"""Most attack dice times defence dice in ``sim odds 2w2p`` (50 x 50: about 7 s)."""
MAX_PENETRATION = 100
"""Highest penetration in ``sim odds deathwish`` (100 dice: about 6 s)."""
MAX_D6_DICE = 100
"""Most dice of ``sim odds d6``'s damage and body codes together (100D: about 5 s)."""


def twowp_odds(attack_dice: int, defence_dice: int) -> dict[str, Any]:
    """Exact joint distribution of felling and wounding hits that get through the defence."""
    for name, n in (("attack", attack_dice), ("defence", defence_dice)):
        if not 0 <= n <= 200:
            raise SimError(f"{name} dice must be 0..200, got {n}")
    if attack_dice * defence_dice > MAX_TWOWP_WORK:
        raise SimError(
            f"{attack_dice} attack dice x {defence_dice} defence dice is over the limit of "
            f"{MAX_TWOWP_WORK} (an exact table that size takes minutes)"
        )
    dist = twowp.exchange_dist(attack_dice, defence_dice)
    return {
        "attack_dice": attack_dice,
        "defence_dice": defence_dice,
        "mean_felling": float(dist.map(lambda o: o[0]).mean()),
        "mean_wounding": float(dist.map(lambda o: o[1]).mean()),
        "outcomes": [{"felling": f, "wounding": w, "p": float(p)} for (f, w), p in dist.items()],
    }


def wargame_odds(dice: int, armor: int, mode: str) -> dict[str, Any]:
    """Damage distribution of ``dice`` spent HD and the chance it wounds through ``armor``."""
    if not 1 <= dice <= 100:
        raise SimError(f"dice must be 1..100, got {dice}")
    if armor < 0:
        raise SimError(f"armor must be 0 or more, got {armor}")
    dist = wargame.damage_dist(dice, mode)
    return {
        "dice": dice,
        "armor": armor,
        "mode": mode,
        "mean": float(dist.mean()),
        "p_wound": float(wargame.wound_chance(dice, armor, mode)),
        "damage": _floats(dist),
    }


def d6_odds(damage: D6Code, body: D6Code) -> dict[str, Any]:
    """Chance of each damage-table tier when ``damage`` is rolled against ``body``."""
    if damage.dice + body.dice > MAX_D6_DICE:
        raise SimError(
            f"{damage} against {body} is {damage.dice + body.dice} dice; the limit is "
            f"{MAX_D6_DICE} together"
        )
    dist = d6.tier_dist(damage, body)
    tiers: Mapping[str, float] = {t: float(dist[t]) for t in d6_tier_names()}
    return {"damage": str(damage), "body": str(body), "tiers": dict(tiers)}


def d6_tier_names() -> list[str]:
    """The damage table's tiers, mildest first, as the strings ``tier_dist`` uses."""
    return [str(getattr(t, "value", t)) for t in d6.DamageTier]


# ---------------------------------------------------------------------------------------
# any dice expression (sim odds dice), and the simulated cross-check of any table

MAX_CHECK = 10_000_000
"""Most simulated rolls ``--check`` makes."""


def dice_odds(text: str) -> dict[str, Any]:
    """Exact odds of a dice expression (:mod:`sim.odds.dicexpr`, computed by icepool).

    Rows of value (or, for ``A vs B``, first higher / tie / second higher), P and P(at least).
    """
    from sim.odds import dicexpr

    expr = dicexpr.parse(text)
    dist = dicexpr.exact(expr)
    probs = [float(p) for p in dist.values()]
    tails, left = [], Fraction(0)
    for p in reversed(dist.values()):  # one pass: 1000 values are not a million sums
        left += p
        tails.append(float(left))
    tails.reverse()
    out: dict[str, Any] = {
        "expression": expr.text,
        "describe": dicexpr.describe(expr),
        "opposed": expr.against is not None,
        "p": {str(k): p for k, p in zip(dist, probs, strict=True)},
    }
    if expr.against is None:
        mean = sum(k * p for k, p in dist.items())
        var = sum((k - mean) ** 2 * p for k, p in dist.items())
        out["mean"] = float(mean)
        out["sd"] = float(var) ** 0.5
        out["p_at_least"] = {str(k): t for k, t in zip(dist, tails, strict=True)}
    return out


def cross_check(
    exact: Mapping[str, float], draws: Sequence[Any] | Mapping[Any, int], seed: int, via: str
) -> dict[str, Any]:
    """Simulated frequencies of ``draws`` beside the ``exact`` probabilities.

    ``draws`` are the outcomes rolled, or how often each came (a mapping). Each row's band
    is the 95% interval of a frequency over the ``n`` rolls when the exact probability is
    right: 1.96 standard errors, sqrt(p (1 - p) / n). A row counts as outside when it misses
    the band by more than half a roll (the continuity correction, so one roll of a very
    rare outcome is not a miss).
    """
    counts: dict[str, int] = {}
    if isinstance(draws, Mapping):
        for d, times in draws.items():
            counts[str(d)] = counts.get(str(d), 0) + int(times)
    else:
        for d in draws:
            counts[str(d)] = counts.get(str(d), 0) + 1
    n = sum(counts.values())
    rows = []
    for key, p in exact.items():
        freq = counts.get(key, 0) / n
        band = 1.96 * (p * (1 - p) / n) ** 0.5
        rows.append({"outcome": key, "exact": p, "simulated": freq, "band": band})
    never = sorted(set(counts) - set(exact))
    return {
        "rolls": n,
        "seed": seed,
        "via": via,
        "rows": rows,
        "outside": sum(abs(r["simulated"] - r["exact"]) > r["band"] + 0.5 / n for r in rows)
        + len(never),
        "impossible": never,
    }


def check_draws(n: int, seed: int, draw: Any) -> list[Any]:
    """``n`` draws of ``draw(rng)`` with the Generator of ``seed`` (the runs' seed rule)."""
    from sim.dice import generator

    rng = generator(seed)
    return [draw(rng) for _ in range(check_count(n))]


def check_count(n: int) -> int:
    """``n`` if it is a number of rolls ``--check`` makes (1 .. :data:`MAX_CHECK`)."""
    if not 1 <= n <= MAX_CHECK:
        raise SimError(f"--check must be 1..{MAX_CHECK:,} rolls, got {n}")
    return n
