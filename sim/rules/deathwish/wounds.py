"""Deathwish wounds: Trauma Tolerance, the four wound thresholds, wound levels.

Follows seed ``001_e5fc2d51799d4e98.txt`` ("Trauma Tolerance", "Wound Thresholds", "Wound
effects"; RULES.md 3, with the half-up rounding of RULES.md 0; ``deathwish_wound_levels.csv``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from sim.dice import Dist
from sim.errors import SimError
from sim.rules.common import load_csv, round_half_up
from sim.rules.deathwish.options import DEFAULT_OPTIONS, Options


class WoundLevel(StrEnum):
    """The four wound levels, least to worst (seed: "Wound Thresholds")."""

    SLIGHT = "slight"
    MODERATE = "moderate"
    SERIOUS = "serious"
    CRITICAL = "critical"

    @property
    def difficulty(self) -> int:
        """Difficulty this wound adds to every task (Slight +1 ... Critical +4) [S]."""
        return _LEVEL_DIFFICULTY[self.value]


_LEVEL_ROWS = load_csv("deathwish_wound_levels.csv")
_LEVEL_DIFFICULTY: dict[str, int] = {r["level"]: int(r["difficulty"]) for r in _LEVEL_ROWS}
_LEVEL_MULTIPLE: dict[str, Fraction] = {r["level"]: Fraction(r["threshold"]) for r in _LEVEL_ROWS}
if [r["level"] for r in _LEVEL_ROWS] != [lv.value for lv in WoundLevel]:  # pragma: no cover
    raise RuntimeError("deathwish_wound_levels.csv must list slight, moderate, serious, critical")


def trauma_tolerance(body: int, strength: int, traits: int = 0) -> int:
    """Trauma Tolerance: round_half_up((Body + Strength) / 2) + trait modifiers [S].

    Raises:
        SimError: if Body or Strength is below 1 or the result is below 1.
    """
    if body < 1 or strength < 1:
        raise SimError(f"Body and Strength must be 1 or more, got {body} and {strength}")
    tt = round_half_up(Fraction(body + strength, 2)) + traits
    if tt < 1:
        raise SimError(f"trauma tolerance must be 1 or more, got {tt}")
    return tt


@dataclass(frozen=True, slots=True)
class Thresholds:
    """The four wound thresholds of one character."""

    slight: int
    moderate: int
    serious: int
    critical: int

    def of(self, level: WoundLevel | str) -> int:
        """The threshold of ``level``."""
        value: int = getattr(self, WoundLevel(level).value)
        return value


def thresholds(tt: int) -> Thresholds:
    """Wound thresholds for Trauma Tolerance ``tt``: TT/4, TT/2, TT, 2·TT, half up [S].

    Raises:
        SimError: if ``tt`` is below 1.
    """
    if tt < 1:
        raise SimError(f"trauma tolerance must be 1 or more, got {tt}")
    v = {lv: round_half_up(tt * m) for lv, m in _LEVEL_MULTIPLE.items()}
    return Thresholds(v["slight"], v["moderate"], v["serious"], v["critical"])


def wound_level(
    damage: int, thr: Thresholds, options: Options = DEFAULT_OPTIONS
) -> WoundLevel | None:
    """The wound ``damage`` inflicts: the highest threshold met (or exceeded); None below Slight.

    Damage of 0 or less never wounds, whatever the thresholds.
    """
    if damage <= 0:
        return None
    exceeds = options.threshold_compare == "exceeds"
    for level in reversed(WoundLevel):
        t = thr.of(level)
        if damage > t or (not exceeds and damage == t):
            return level
    return None


def wound_dist(damage: Dist, thr: Thresholds, options: Options = DEFAULT_OPTIONS) -> Dist:
    """Exact distribution of the wound level ("none", "slight", ... "critical") from damage."""

    def level(d: int) -> str:
        lv = wound_level(d, thr, options)
        return "none" if lv is None else lv.value

    return damage.map(level)


def wound_difficulty(wounds: Iterable[WoundLevel | str]) -> int:
    """Total difficulty of a character's wounds: each adds its level (1..4) [S]."""
    return sum(WoundLevel(w).difficulty for w in wounds)
