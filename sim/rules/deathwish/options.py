"""Deathwish options: the seed's figures and the interpretations [I] and house rules [H].

Follows seed ``001_e5fc2d51799d4e98.txt`` (RULES.md 3); every field of :class:`Options` is
listed, with its default, in the docstring of :mod:`sim.rules.deathwish`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from sim.rules.common import build_options, describe_options, option

DIE = 10
DEFAULT_SKILL = 5  # "attacker's skill (default 5)" [H]: a fighter whose stat block names none
"""Deathwish rolls d10s."""
LETHALITY_MIN = 2
"""Lethality can't be lowered below 2 ... for any reason [S]."""
LETHALITY_MAX = 8
"""... or raised above 8 [S]."""


@dataclass(frozen=True, slots=True)
class Options:
    """Deathwish interpretations [I] and house rules [H] (RULES.md 3)."""

    threshold_compare: str = option(
        "meets",
        "wound level = highest threshold the damage meets (or exceeds); the seed says "
        "'exceeds' but its TT 5 example (1-2 points Slight) needs 'meets'",
        tag="I",
        choices=("meets", "exceeds"),
    )
    limb_lethality: int = option(-2, "Lethality modifier of limb hits", low=-6, high=6)
    hollow_point_penetration: int = option(
        -1, "Penetration modifier of hollow-point ammunition", low=-10, high=10
    )
    hollow_point_lethality: int = option(
        1, "Lethality modifier of hollow-point ammunition", low=-6, high=6
    )
    armor_piercing_penetration: int = option(
        1, "Penetration modifier of armor-piercing ammunition", low=-10, high=10
    )
    armor_piercing_lethality: int = option(
        -1, "Lethality modifier of armor-piercing ammunition", low=-6, high=6
    )
    incapacitate_slight: float = option(
        0.0, "chance a new Slight wound incapacitates at once", low=0, high=1
    )
    incapacitate_moderate: float = option(
        0.25, "chance a new Moderate wound incapacitates at once", low=0, high=1
    )
    incapacitate_serious: float = option(
        0.75, "chance a new Serious wound incapacitates at once", low=0, high=1
    )
    incapacitate_critical: float = option(
        1.0, "chance a new Critical wound incapacitates at once", low=0, high=1
    )
    untreated_serious_rounds: int = option(
        30, "rounds after which an untreated Serious wound kills", low=1
    )
    untreated_critical_rounds: int = option(
        5, "rounds after which an untreated Critical wound kills", low=1
    )
    instant_death_multiple: int = option(
        2,
        "a Critical wound with damage >= this many times the Critical threshold kills at "
        "once unless the cheat-death roll succeeds",
        low=1,
    )
    cheat_death_dice: int = option(
        3, "d10s thrown for the cheat-death roll (0: no chance)", low=0, high=100
    )
    cheat_death: int = option(
        1, "cheat-death target: succeeds if any cheat-death die shows this or less", low=0, high=10
    )
    cover_difficulty_per_point: int = option(
        1, "to-hit difficulty per point of the target's cover", low=0, high=10
    )


DEFAULT_OPTIONS = Options()


def make_options(values: dict[str, object] | None = None, where: str = "options") -> Options:
    """Build :class:`Options` from a plain dict, with clear errors for bad names or values."""
    result: Options = build_options(Options, dict(values or {}), where)
    return result


def option_docs() -> list[dict[str, object]]:
    """Name, default, tag, choices and meaning of every option."""
    return describe_options(Options)


def _prob(p: float | int | Fraction) -> Fraction:
    """A probability option as an exact Fraction (0.25 -> 1/4, 0.1 -> 1/10)."""
    return p if isinstance(p, Fraction) else Fraction(str(p))
