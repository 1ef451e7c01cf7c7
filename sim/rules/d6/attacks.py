"""D6 tiers attacks: the hit roll, the difficulty and the damage, in one call.

Follows seed ``003_fd1c4a13f28810ec.txt`` (RULES.md 4 attack and damage).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

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


@dataclass(frozen=True, slots=True)
class AreaTarget:
    """One target of an attack and what it opposes to it.

    Its reaction total as it counts against this attack (an area attack's dodge already
    halved), the difficulty number, the damage and body codes and the modifiers of its cover
    and size.
    """

    reaction_total: int
    difficulty: int
    damage: D6Code
    body: D6Code
    modifiers: AttackModifiers = NO_MODIFIERS


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
    return _resolve(total, AreaTarget(reaction_total, difficulty, damage, body, modifiers), rng)


def _resolve(total: int, t: AreaTarget, rng: np.random.Generator) -> AttackResult:
    """A hit total against one target: its difficulty rolled, then on a hit the damage."""
    diff = roll_difficulty(t.difficulty, t.modifiers, rng)
    if not opposed(total, t.reaction_total, diff):
        return AttackResult(total, diff, False, None)
    result = roll_damage_vs_body(
        t.damage + t.modifiers.damage_dice, t.body + t.modifiers.body_dice, rng
    )
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


def roll_area_attack(
    hit_rating: D6Code, targets: Sequence[AreaTarget], rng: np.random.Generator
) -> tuple[AttackResult, ...]:
    """An area attack: one roll of the hit rating against every target it catches [S].

    The attacker rolls its skill dice once (an attack is one roll); each target's reaction
    (dodge at half, RULES.md 4) and difficulty stand against that total, and each target hit
    takes its own damage roll against its own body roll. Rolls, in order: the hit rating,
    then for each target in turn its difficulty dice, easing dice, and on a hit its damage
    and body.
    """
    total = hit_rating.roll(rng)
    return tuple(_resolve(total, t, rng) for t in targets)


def _outcome_given_hit(total: int, t: AreaTarget) -> Dist:
    """One target's outcome when the hit total is ``total``."""
    p_hit = difficulty_dist(t.difficulty, t.modifiers).prob(
        lambda d: opposed(total, t.reaction_total, d)
    )
    tiers = tier_dist(t.damage + t.modifiers.damage_dice, t.body + t.modifiers.body_dice)
    return Dist({MISS: 1 - p_hit, **{k: p_hit * p for k, p in tiers.items()}})


def area_attack_dist(hit_rating: D6Code, targets: Sequence[AreaTarget]) -> Dist:
    """Exact distribution of the outcomes of :func:`roll_area_attack`, as a tuple per target.

    The targets' outcomes are not independent: they share the one hit roll.
    """
    joint: dict[tuple[str, ...], Fraction] = {}
    for total, p in _code_dist(hit_rating).items():
        given = Dist.constant(())
        for t in targets:
            given = given.combine(_outcome_given_hit(total, t), lambda a, b: (*a, b))
        for outcome, q in given.items():
            joint[outcome] = joint.get(outcome, Fraction(0)) + p * q
    return Dist(joint)
