"""D6 tiers odds of a blow: the exact chances a tactic weighs before it chooses.

Follows seed ``003_fd1c4a13f28810ec.txt`` (RULES.md 4 attack, damage, stacking). Nothing here
rolls: :func:`blow_dist` is the exact distribution of a target's condition after one attack,
from the same codes a battle rolls (:func:`sim.rules.d6.roll_attack`), and :func:`harm`
sums it up as (chance the target is out of the fight, its expected spot on the ladder). A
called shot or an area dodge is chosen by comparing two such sums
(:mod:`sim.scenario.tactics`).
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from sim.dice import D6Code, Dist
from sim.rules.d6.conditions import Condition, can_act, stacked
from sim.rules.d6.difficulty import NO_MODIFIERS, AttackModifiers, difficulty_dist
from sim.rules.d6.options import DEFAULT_OPTIONS, Options
from sim.rules.d6.reactions import _hit_chance, half_total
from sim.rules.d6.tiers import _code_dist, tier_dist


def reaction_use_dist(
    reaction: D6Code | int,
    *,
    halve: bool = False,
    minus: int = 0,
    options: Options = DEFAULT_OPTIONS,
) -> Dist:
    """Exact distribution of a reaction as it counts against one attack.

    ``reaction`` is a total already rolled this round or the code about to be rolled; the
    count takes ``minus`` off (a two-handed parry, never below 0) and then halves it
    (``halve``: dodge against an area attack), as :func:`sim.rules.d6.reaction_against`.
    """
    base = Dist.constant(reaction) if isinstance(reaction, int) else _code_dist(reaction)

    def use(total: int) -> int:
        total = max(total - minus, 0)
        return half_total(total, options) if halve else total

    return base.map(use)


@lru_cache(maxsize=8192)
def blow_dist(
    condition: Condition,
    hit_rating: D6Code,
    reaction: D6Code | int,
    difficulty: int,
    damage: D6Code,
    body: D6Code,
    modifiers: AttackModifiers = NO_MODIFIERS,
    *,
    halve: bool = False,
    minus: int = 0,
    options: Options = DEFAULT_OPTIONS,
) -> Dist:
    """Exact distribution of the target's condition label after one attack [S].

    The attack (``hit_rating``, with any penalty or advantage already in it) must beat the
    reaction (:func:`reaction_use_dist`) and meet the difficulty (``difficulty`` plus the
    rolled ``modifiers``); on a hit ``damage`` (+ damage dice) against ``body`` (+ body
    dice) gives a tier of the damage table, which stacks on ``condition``.
    """
    p_hit = _hit_chance(
        hit_rating,
        reaction_use_dist(reaction, halve=halve, minus=minus, options=options),
        difficulty_dist(difficulty, modifiers),
    )
    out: dict[str, Fraction] = {condition.label: 1 - p_hit}
    for tier, p in tier_dist(damage + modifiers.damage_dice, body + modifiers.body_dice).items():
        label = stacked(condition, tier).label
        out[label] = out.get(label, Fraction(0)) + p_hit * p
    return Dist(out)


def harm(dist: Dist) -> tuple[Fraction, Fraction]:
    """What a :func:`blow_dist` does to its target, the first figure deciding, the second ties.

    (chance the target can no longer act, its expected rank on the ladder).
    """
    out = Fraction(0)
    rank = Fraction(0)
    for label, p in dist.items():
        c = Condition.from_label(label)
        rank += p * c.rank
        if not can_act(c):
            out += p
    return out, rank


@lru_cache(maxsize=8192)
def blow_harm(
    condition: Condition,
    hit_rating: D6Code,
    reaction: D6Code | int,
    difficulty: int,
    damage: D6Code,
    body: D6Code,
    modifiers: AttackModifiers = NO_MODIFIERS,
    *,
    options: Options = DEFAULT_OPTIONS,
) -> tuple[Fraction, Fraction]:
    """:func:`harm` of :func:`blow_dist`, kept: a tactic weighs it before every attack."""
    return harm(
        blow_dist(
            condition, hit_rating, reaction, difficulty, damage, body, modifiers, options=options
        )
    )
