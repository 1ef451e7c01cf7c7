"""D6 tiers difficulty: numbers, cover, called shots, scale, degrees of advantage.

Follows seed ``003_fd1c4a13f28810ec.txt`` ("Modifiers" and "Scale"; RULES.md 4 cover, scale,
difficulty numbers, modifiers table; ``d6_difficulties.csv``, ``d6_sizes.csv``,
``d6_modifiers.csv``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

import numpy as np

from sim.dice import D6Code, Dist
from sim.errors import SimError
from sim.rules.common import Table
from sim.rules.d6.options import COVER_DICE_MAX, DEFAULT_OPTIONS, NO_DICE, Options, _code
from sim.rules.d6.tiers import _code_dist


def _norm(word: str) -> str:
    return " ".join(word.replace("_", " ").lower().split())


def _degree_key(word: str) -> str:
    return _norm(word).removesuffix(" advantage")


_SIDE_SIGN = {"larger": 1, "average": 0, "smaller": -1}


@cache
def _difficulties() -> Table[int]:
    return Table.from_csv(
        "d6_difficulties.csv", "difficulty", lambda r: int(r["number"]), key=_norm
    )


def named_tables() -> dict[str, Table[Any]]:
    """The D6 tables a scenario or a reader names things from (``sim tables d6``)."""
    return {"sizes": _sizes(), "modifiers": _modifiers(), "difficulties": _difficulties()}


def difficulty_number(name: str) -> int:
    """The difficulty number named ``name`` (Very Easy 5 ... Heroic 30) [H]."""
    return _difficulties().find(name)


@cache
def _sizes() -> Table[int]:
    return Table.from_csv(
        "d6_sizes.csv",
        "size",
        lambda r: _SIDE_SIGN[r["side"]] * int(r["size_value"]),
        key=_norm,
        name="participant",
    )


def size_value(participant: str | int) -> int:
    """Signed size value of a participant from the scale table: + larger, - smaller [S].

    An int is taken as a signed size value already.
    """
    if isinstance(participant, int):
        return participant
    return _sizes().find(participant)


@dataclass(frozen=True, slots=True)
class AttackModifiers:
    """Dice an attack's circumstances add: rolled onto (or off) the difficulty, onto codes."""

    difficulty_dice: D6Code = NO_DICE
    """Rolled and added to the difficulty: cover, called shot, a smaller target."""
    easing_dice: D6Code = NO_DICE
    """Rolled and subtracted from the difficulty: a larger target."""
    damage_dice: D6Code = NO_DICE
    """Added to the damage code: called shot, a smaller target."""
    body_dice: D6Code = NO_DICE
    """Added to the target's body code: a larger target."""


NO_MODIFIERS = AttackModifiers()
"""An attack without cover, called shot or scale."""


@lru_cache(maxsize=1024)
def attack_modifiers(
    *,
    cover: int = 0,
    called_shot: bool = False,
    target_size: str | int = 0,
    attacker_size: str | int = 0,
    options: Options = DEFAULT_OPTIONS,
) -> AttackModifiers:
    """Collect cover (0 or 1..4 D), a called shot and scale into :class:`AttackModifiers`.

    Cover [S, I]: its dice go onto the difficulty, the target's body, or both
    (``cover_on``). Scale [S, I]: relative = target size - attacker size (``scale_basis``).
    A larger target (relative > 0) eases the difficulty by that many D and adds them to its
    body; a smaller one (relative < 0) adds them to the difficulty and to the damage it takes.
    Kept per its arguments (all hashable, the result frozen): a battle asks it three times
    an attack.
    """
    if not 0 <= cover <= COVER_DICE_MAX:
        raise SimError(f"cover must be 0 or 1..{COVER_DICE_MAX} dice, got {cover}")
    relative = size_value(target_size)
    if options.scale_basis == "relative":
        relative -= size_value(attacker_size)
    difficulty = D6Code(cover) if options.cover_on in ("difficulty", "both") else NO_DICE
    cover_body = D6Code(cover) if options.cover_on in ("body", "both") else NO_DICE
    damage = NO_DICE
    if called_shot:
        difficulty += _code(options.called_shot_difficulty, "options.called_shot_difficulty")
        damage += _code(options.called_shot_damage, "options.called_shot_damage")
    larger = D6Code(max(relative, 0))
    smaller = D6Code(max(-relative, 0))
    return AttackModifiers(difficulty + smaller, larger, damage + smaller, larger + cover_body)


def roll_difficulty(difficulty: int, modifiers: AttackModifiers, rng: np.random.Generator) -> int:
    """The difficulty of one attack: base + rolled difficulty dice - rolled easing dice."""
    return difficulty + modifiers.difficulty_dice.roll(rng) - modifiers.easing_dice.roll(rng)


def difficulty_dist(difficulty: int, modifiers: AttackModifiers = NO_MODIFIERS) -> Dist:
    """Exact distribution of :func:`roll_difficulty`."""
    up = _code_dist(modifiers.difficulty_dice)
    down = _code_dist(modifiers.easing_dice)
    return up.combine(down, lambda a, b: difficulty + a - b)


@cache
def _modifiers() -> Table[tuple[str, int, int | None, int]]:
    """The modifiers table: (degree, min_pips, max_pips or None, dice) by degree."""
    return Table.from_csv(
        "d6_modifiers.csv",
        "degree of advantage",
        lambda r: (
            r["degree"],
            int(r["min_pips"]),
            int(r["max_pips"]) if r["max_pips"] else None,
            int(r["dice"]),
        ),
        key=_degree_key,
        name="degree",
    )


def advantage_pips(degree: str, options: Options = DEFAULT_OPTIONS) -> tuple[int, int | None]:
    """Pip range of a degree of advantage, the overlap at 16 resolved (None: no upper bound)."""
    table = _modifiers()
    name, low, high, _dice = table.find(degree)
    decisive_high = table.find("decisive")[2]
    overwhelming_low = table.find("overwhelming")[1]
    if decisive_high is not None and decisive_high >= overwhelming_low:  # the overlap at 16
        if options.modifier_overlap_16 == "decisive" and name == "overwhelming":
            low = decisive_high + 1
        if options.modifier_overlap_16 == "overwhelming" and name == "decisive":
            high = overwhelming_low - 1
    return low, high


def advantage_dice(degree: str) -> D6Code:
    """Dice of a degree of advantage: slight 1D ... overwhelming 5D [S]."""
    return D6Code(_modifiers().find(degree)[3])


def advantage_degree(pips: int, options: Options = DEFAULT_OPTIONS) -> str:
    """The degree of advantage of a modifier of ``pips`` dots (1 or more)."""
    for name in _modifiers().names:
        low, high = advantage_pips(name, options)
        if pips >= low and (high is None or pips <= high):
            return name
    raise SimError(f"an advantage is 1 or more pips, got {pips}")


def advantage_from_pips(pips: int, options: Options = DEFAULT_OPTIONS) -> D6Code:
    """The dice of an advantage of ``pips`` dots by the modifiers table [S] (0 or less: none).

    1-5 pips is a slight advantage, +1D; 6-10 decent, +2D; 11-13 solid, +3D; 14-16 decisive,
    +4D; 16+ overwhelming, +5D (16 itself as ``modifier_overlap_16`` says).
    """
    return advantage_dice(advantage_degree(pips, options)) if pips > 0 else NO_DICE


def outnumber_dice(allies: int, options: Options = DEFAULT_OPTIONS) -> D6Code:
    """The advantage of an attacker whose ``allies`` attacked its target before it this round.

    ``outnumber_pips`` pips each [H], turned into dice by the modifiers table
    (:func:`advantage_from_pips`); none while ``outnumber_pips`` is 0.
    """
    if allies < 0:
        raise SimError(f"allies must be 0 or more, got {allies}")
    return advantage_from_pips(allies * options.outnumber_pips, options)
