"""D6 tiers reactions and the opposed roll: halving, dodge, parry, ride, the hit.

Follows seed ``003_fd1c4a13f28810ec.txt`` (RULES.md 4 attack and reactions).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from sim.dice import D6Code, Dist, outcome
from sim.errors import SimError, unknown
from sim.rules.d6.conditions import apply_penalty
from sim.rules.d6.options import DEFAULT_OPTIONS, REACTIONS, Options
from sim.rules.d6.tiers import _code_dist


def half_total(total: int, options: Options = DEFAULT_OPTIONS) -> int:
    """Half of a total, rounded as ``halve_round`` says."""
    return total // 2 if options.halve_round == "down" else (total + 1) // 2


def half_code(code: D6Code, options: Options = DEFAULT_OPTIONS) -> D6Code:
    """Half of a code, in pips [I]: 4D -> 2D, 3D+1 (10 pips) -> 1D+2, 3D -> 1D+1 (down)."""
    return D6Code.from_pips(half_total(code.total_pips, options))


def _reaction_kind(kind: str) -> str:
    if kind not in REACTIONS:
        raise unknown("reaction", kind, REACTIONS)
    return kind


def reaction_code(
    skill: D6Code,
    kind: str = "dodge",
    *,
    sprinting: bool = False,
    mounted: bool = False,
    penalty: int = 0,
    options: Options = DEFAULT_OPTIONS,
) -> D6Code:
    """The code a character rolls for its reaction this round.

    A sprinter rolls half its dodge [S]; the half is taken before the ``penalty`` dice
    (MAP, stuns, wounds) come off [I]. Ride needs a mount [S].
    """
    kind = _reaction_kind(kind)
    if kind == "ride" and not mounted:
        raise SimError("only a mounted character can react with ride")
    code = half_code(skill, options) if (kind == "dodge" and sprinting) else skill
    return apply_penalty(code, penalty)


@dataclass(frozen=True, slots=True)
class ReactionUse:
    """A round's reaction total as it counts against one attack, and whether it adds MAP."""

    total: int
    adds_map: bool


def reaction_against(
    total: int,
    kind: str = "dodge",
    *,
    area: bool = False,
    ranged: bool = False,
    two_handed_attacked: bool = False,
    attacker_unarmed: bool = False,
    options: Options = DEFAULT_OPTIONS,
) -> ReactionUse:
    """How the reaction ``total`` rolled this round counts against one attack [S].

    The roll stands for the whole round; this adjusts it per attack. Dodge adds no MAP
    except against an area attack, where it counts half and adds MAP. Parry adds no MAP,
    is impossible against ranged attacks, and takes ``two_handed_parry_penalty`` when the
    two-handed weapon attacked this round, unless the attacker is unarmed. Ride never adds
    MAP and (``ride_vs_area``) counts half against area attacks.
    """
    kind = _reaction_kind(kind)
    if kind == "parry":
        if ranged:
            raise SimError("a ranged attack cannot be parried, only dodged")
        if two_handed_attacked and not attacker_unarmed:
            total -= options.two_handed_parry_penalty
        return ReactionUse(max(total, 0), False)
    if area and (kind == "dodge" or options.ride_vs_area == "half"):
        return ReactionUse(half_total(total, options), kind == "dodge")
    return ReactionUse(total, False)


def opposed(attack_total: int, reaction_total: int, difficulty: int) -> bool:
    """A hit: the attack beats the reaction roll and meets the difficulty; ties miss [S].

    An unopposed roll passes ``reaction_total`` = 0. A spell uses the same test with the
    spell's difficulty number [S].
    """
    return attack_total > reaction_total and attack_total >= difficulty


class _Below:
    """``P(X < v)`` of an int distribution, for any v."""

    def __init__(self, dist: Dist) -> None:
        self.lo, self.hi = min(dist.outcomes()), max(dist.outcomes())
        self.cdf: list[Fraction] = []
        acc = Fraction(0)
        for v in range(self.lo, self.hi + 1):
            self.cdf.append(acc)
            acc += dist[v]

    def __call__(self, v: int) -> Fraction:
        if v <= self.lo:
            return Fraction(0)
        return Fraction(1) if v > self.hi else self.cdf[v - self.lo]


def _hit_chance(hit_rating: D6Code, reaction: Dist, difficulty: Dist) -> Fraction:
    """P(H > R and H >= D) for independent H, R, D."""
    below_r, below_d = _Below(reaction), _Below(difficulty)
    return sum(
        (p * below_r(h) * below_d(h + 1) for h, p in _code_dist(hit_rating).items()),
        Fraction(0),
    )


def hit_dist(hit_rating: D6Code, reaction: D6Code, difficulty: int) -> Fraction:
    """Exact chance that ``hit_rating`` beats a ``reaction`` roll and meets ``difficulty``."""
    return _hit_chance(hit_rating, _code_dist(reaction), Dist.constant(difficulty))


@dataclass(frozen=True, slots=True)
class HitResult:
    """An attack roll and whether it hit."""

    total: int
    hit: bool


def roll_hit(
    hit_rating: D6Code, reaction_total: int, difficulty: int, rng: np.random.Generator
) -> HitResult:
    """Roll the hit rating against a reaction total already rolled this round [S]."""
    return outcome(rng, _hit, hit_rating, reaction_total, difficulty, key=_hits)  # type: ignore[no-any-return]


def _hit(rng: np.random.Generator, code: D6Code, reaction_total: int, difficulty: int) -> HitResult:
    total = code.roll(rng)
    return HitResult(total, opposed(total, reaction_total, difficulty))


def _hits(res: HitResult) -> bool:
    return res.hit  # only whether it hits matters after the roll (the total is only shown)
