"""D6 tiers poison and Resist Disease or Poison.

Follows seed ``003_fd1c4a13f28810ec.txt`` ("Healing and First Aid": a successful First Aid
roll gives "+1D to Resist Disease or Poison", doubled on a success by 10 or more; RULES.md 4
healing). The seed names the roll and the bonus, not what poisons nor what a failed roll
does; the rest is read here:

- a poisoned weapon (a fighter's ``d6: {poison: 4D}``, the poison's potency) poisons the
  target of a blow that leaves it Wounded or worse [I] (``poison_from``, :func:`poisons`);
  of two poisons the more potent stays [H] (:func:`stronger_poison`);
- the patient rolls its Resist code (plus the first-aid dice) against the poison's potency
  rolled; ties go to the patient, as damage ties go to the defender [I]; a failure makes it
  one spot worse on the damage table and at least Wounded (``poison_fails: worsen`` [H]) or
  stacks the margin as a damage result (``by_margin``) (:func:`resist_poison`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.dice import D6Code, Dist, parse_code
from sim.errors import SimError
from sim.rules.d6.conditions import Condition, stacked
from sim.rules.d6.options import DEFAULT_OPTIONS, Options
from sim.rules.d6.tiers import DamageTier, _code_dist, tier_for

POISON_FAILS = ("worsen", "by_margin")
"""What a failed Resist roll does (``poison_fails``)."""
WOUNDED_RANK = Condition(DamageTier.WOUNDED, 1).rank
"""A failed Resist roll leaves the patient at least Wounded (``worsen``)."""


def poisons(tier: DamageTier, options: Options = DEFAULT_OPTIONS) -> bool:
    """Whether a poisoned weapon's blow of ``tier`` poisons its target [I] (``poison_from``).

    ``wounded``: a blow that wounds (Wounded or worse, not Dead: the dead are past poison);
    ``stunned``: any blow that does damage.
    """
    least = DamageTier.WOUNDED if options.poison_from == "wounded" else DamageTier.STUNNED
    return least.rank <= tier.rank < DamageTier.DEAD.rank


def stronger_poison(current: str, new: str) -> str:
    """The more potent of two poison codes (``""``: none); ties keep ``current`` [H]."""
    if not current:
        return new
    if not new:
        return current
    return new if parse_code(new).total_pips > parse_code(current).total_pips else current


@dataclass(frozen=True, slots=True)
class ResistResult:
    """A Resist Disease or Poison roll: resisted or not, by how much, the new condition."""

    resisted: bool
    margin: int
    condition: Condition


def resist_poison(
    condition: Condition, resist_total: int, potency_total: int, fails: str = "worsen"
) -> ResistResult:
    """The condition after a Resist roll of ``resist_total`` against ``potency_total``.

    The patient resists when its total meets the potency's (ties to the patient [I]);
    ``margin`` is resist minus potency. On a failure ``fails`` says what happens [H]:
    ``worsen`` one spot worse on the damage table (as an infection: Wounded -> Wounded
    twice -> Incapacitated -> Mortally wounded -> Dead) and at least Wounded (an unhurt or
    stunned patient is Wounded), ``by_margin`` the margin by which
    the poison won looked up on the damage table and stacked like a blow. The dead stay dead.
    """
    if fails not in POISON_FAILS:
        raise SimError(f"poison_fails must be one of {', '.join(POISON_FAILS)}, got {fails!r}")
    margin = resist_total - potency_total
    if margin >= 0 or condition.tier is DamageTier.DEAD:
        return ResistResult(margin >= 0, margin, condition)
    if fails == "worsen":
        worse = Condition.from_rank(max(condition.rank + 1, WOUNDED_RANK))
        return ResistResult(False, margin, worse)
    return ResistResult(False, margin, stacked(condition, tier_for(-margin)))


def resist_code(resist: D6Code, bonus_dice: int = 0) -> D6Code:
    """The Resist code with the first-aid dice added (+1D, +2D on a success by 10+) [S]."""
    if bonus_dice < 0:
        raise SimError(f"bonus dice must be 0 or more, got {bonus_dice}")
    return resist.plus_dice(bonus_dice)


def roll_resist_poison(
    condition: Condition,
    resist: D6Code,
    potency: D6Code,
    rng: np.random.Generator,
    bonus_dice: int = 0,
    fails: str = "worsen",
) -> ResistResult:
    """Roll Resist (plus ``bonus_dice``), then the poison's potency; :func:`resist_poison`."""
    resist_total = resist_code(resist, bonus_dice).roll(rng)
    return resist_poison(condition, resist_total, potency.roll(rng), fails)


def resist_poison_dist(
    condition: Condition,
    resist: D6Code,
    potency: D6Code,
    bonus_dice: int = 0,
    fails: str = "worsen",
) -> Dist:
    """Exact distribution of :func:`roll_resist_poison`."""
    return _code_dist(resist_code(resist, bonus_dice)).combine(
        _code_dist(potency), lambda r, p: resist_poison(condition, r, p, fails)
    )
