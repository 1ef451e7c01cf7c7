"""D6 tiers attacks: the hit roll, the difficulty and the damage, in one call.

Follows seed ``003_fd1c4a13f28810ec.txt`` (RULES.md 4 attack and damage).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.dice import D6Code, Dist
from sim.rules.d6.difficulty import NO_MODIFIERS, AttackModifiers, difficulty_dist, roll_difficulty
from sim.rules.d6.reactions import _hit_chance, opposed
from sim.rules.d6.tiers import DamageResult, _code_dist, roll_damage_vs_body, tier_dist

MISS = "miss"
"""Outcome of :func:`attack_dist` when the attack does not hit."""


@dataclass(frozen=True, slots=True)
class AttackResult:
    """One attack: the hit roll, the difficulty it met or not, and the damage if it hit."""

    hit_total: int
    difficulty: int
    hit: bool
    damage: DamageResult | None

    @property
    def outcome(self) -> str:
        """``"miss"`` or the tier name of the damage."""
        return self.damage.tier.value if self.damage is not None else MISS


def roll_attack(
    hit_rating: D6Code,
    reaction_total: int,
    difficulty: int,
    damage: D6Code,
    body: D6Code,
    rng: np.random.Generator,
    modifiers: AttackModifiers = NO_MODIFIERS,
) -> AttackResult:
    """Roll an attack against a reaction total rolled earlier this round, then its damage.

    Rolls, in order: the hit rating, the difficulty dice, the easing dice, and on a hit the
    damage (+ damage dice) against the body (+ body dice).
    """
    total = hit_rating.roll(rng)
    diff = roll_difficulty(difficulty, modifiers, rng)
    if not opposed(total, reaction_total, diff):
        return AttackResult(total, diff, False, None)
    result = roll_damage_vs_body(damage + modifiers.damage_dice, body + modifiers.body_dice, rng)
    return AttackResult(total, diff, True, result)


def attack_dist(
    hit_rating: D6Code,
    reaction: D6Code,
    difficulty: int,
    damage: D6Code,
    body: D6Code,
    modifiers: AttackModifiers = NO_MODIFIERS,
) -> Dist:
    """Exact distribution of :attr:`AttackResult.outcome` when the reaction is ``reaction``."""
    p_hit = _hit_chance(hit_rating, _code_dist(reaction), difficulty_dist(difficulty, modifiers))
    tiers = tier_dist(damage + modifiers.damage_dice, body + modifiers.body_dice)
    return Dist({MISS: 1 - p_hit, **{t: p_hit * p for t, p in tiers.items()}})
