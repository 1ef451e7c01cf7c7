"""D6 tiers conditions: stacking injuries, who may act, penalty dice.

Follows seed ``003_fd1c4a13f28810ec.txt`` (the damage table's stacking, the Multiple Action
Penalty; RULES.md 4 stacking and a round).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from sim.dice import D6Code
from sim.errors import SimError
from sim.rules.common import Status
from sim.rules.d6.options import DEFAULT_OPTIONS, Options
from sim.rules.d6.tiers import DamageTier, _tier


@dataclass(frozen=True, slots=True)
class Condition:
    """A character's injury: its worst tier, and for Wounded how many wounds (1 or 2).

    ``STUNNED`` means stunned and nothing worse; the -1D of a stun is timed (this round and
    the next) and is counted by :func:`stuns_in_effect`, not by the condition.
    """

    tier: DamageTier = DamageTier.NONE
    wounds: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "tier", _tier(self.tier))
        if self.tier is DamageTier.WOUNDED:
            if self.wounds not in (1, 2):
                raise SimError(f"a wounded condition has 1 or 2 wounds, got {self.wounds}")
        elif self.wounds:
            raise SimError(f"only wounded carries wounds, got {self.wounds} with {self.tier}")

    @staticmethod
    def of(tier: DamageTier | str, wounds: int | None = None) -> Condition:
        """The condition of ``tier`` (Wounded gets 1 wound unless ``wounds`` says 2)."""
        t = _tier(tier)
        if t is DamageTier.WOUNDED:
            return Condition(t, 1 if wounds is None else wounds)
        return Condition(t, wounds or 0)

    @staticmethod
    def from_label(label: str) -> Condition:
        """The condition named ``label`` ("wounded_twice" included)."""
        if label == "wounded_twice":
            return Condition(DamageTier.WOUNDED, 2)
        return Condition.of(label)

    @staticmethod
    def from_rank(rank: int) -> Condition:
        """The condition at ``rank`` on the ladder (see :attr:`rank`), clamped to 0..6."""
        return _LADDER[min(max(rank, 0), len(_LADDER) - 1)]

    @property
    def rank(self) -> int:
        """Spot on the ladder ("wounded has two spots").

        none 0, stunned 1, wounded 2, wounded twice 3, incapacitated 4, mortally wounded 5,
        dead 6.
        """
        if self.tier is DamageTier.WOUNDED:
            return 1 + self.wounds
        r = self.tier.rank
        return r if r <= 1 else r + 1

    @property
    def label(self) -> str:
        """Name of the ladder spot, e.g. ``"wounded_twice"``."""
        return "wounded_twice" if self.wounds == 2 else self.tier.value

    def __str__(self) -> str:
        return self.label


_LADDER: tuple[Condition, ...] = (
    Condition(DamageTier.NONE),
    Condition(DamageTier.STUNNED),
    Condition(DamageTier.WOUNDED, 1),
    Condition(DamageTier.WOUNDED, 2),
    Condition(DamageTier.INCAPACITATED),
    Condition(DamageTier.MORTALLY_WOUNDED),
    Condition(DamageTier.DEAD),
)
UNHURT = _LADDER[0]
"""The condition of a character without injury."""
_RANK_OF_TIER = {c.tier: c.rank for c in _LADDER if c.wounds < 2}


def stacked(current: Condition, new: DamageTier | str) -> Condition:
    """The condition after a new damage result ``new`` lands on ``current`` [S].

    Stunned any number of times (a stun never worsens a worse condition); Wounded twice;
    after that any result of 4+ (wounded or worse) moves the character one spot worse. In
    general a result of Wounded or worse gives the worse of its own spot and one spot past
    the current one: wounded + wounded = wounded twice, wounded twice + wounded =
    incapacitated, incapacitated + wounded = mortally wounded, mortally wounded + wounded =
    dead; wounded + incapacitated = incapacitated.
    """
    t = _tier(new)
    if current.tier is DamageTier.DEAD or t is DamageTier.NONE:
        return current
    if t is DamageTier.STUNNED:
        return current if current.rank >= 1 else _LADDER[1]
    return Condition.from_rank(max(_RANK_OF_TIER[t], current.rank + 1))


def can_act(condition: Condition) -> bool:
    """Whether the character may act: not incapacitated, mortally wounded or dead."""
    return condition.rank < _RANK_OF_TIER[DamageTier.INCAPACITATED]


def status_for(condition: Condition) -> Status:
    """Fighter status (RULES.md 0): incapacitated or mortally wounded -> incapacitated."""
    if condition.tier is DamageTier.DEAD:
        return Status.DEAD
    return Status.ACTIVE if can_act(condition) else Status.INCAPACITATED


def stuns_in_effect(stun_rounds: Iterable[int], current_round: int) -> int:
    """How many stuns weigh on ``current_round``: those taken this round or the last [S]."""
    return sum(1 for r in stun_rounds if 0 <= current_round - r <= 1)


def extra_actions(regular: int = 1, moves: int = 1, map_reactions: int = 0) -> int:
    """Actions beyond one regular and one move action (a sprint swaps the regular for a move).

    ``map_reactions`` counts reactions that add MAP (dodging an area attack). Free actions
    never count.
    """
    if min(regular, moves, map_reactions) < 0:
        raise SimError("action counts must be 0 or more")
    spare_moves = 2 if regular == 0 else 1
    return max(0, regular - 1) + max(0, moves - spare_moves) + map_reactions


def map_actions(
    extra_attacks: int = 0, area_dodges: int = 0, options: Options = DEFAULT_OPTIONS
) -> int:
    """Extra actions of a round: ``extra_attacks`` and ``area_dodges`` area attacks dodged [S].

    ``extra_attacks`` are attacks beyond the regular action, each one more regular action
    (:func:`extra_actions`); dodging area attacks counts each dodge (``area_dodge_map:
    each``) or once a round (``once``) [I].
    """
    if min(extra_attacks, area_dodges) < 0:
        raise SimError("action counts must be 0 or more")
    dodges = area_dodges if options.area_dodge_map == "each" else min(area_dodges, 1)
    return extra_actions(1 + extra_attacks, 1, map_reactions=dodges)


def is_sprint(regular: int, moves: int) -> bool:
    """A sprint: the regular action forfeited for a second move [S]."""
    return regular == 0 and moves >= 2


def penalty_dice(
    condition: Condition = UNHURT,
    *,
    stuns: int = 0,
    extra: int = 0,
    body: bool = False,
    options: Options = DEFAULT_OPTIONS,
) -> int:
    """Dice taken off a roll this round: MAP, stuns in effect, wounds [S/H].

    Status penalties spare the Body roll [S]; the MAP spares it only if
    ``map_applies_to_body`` is off.
    """
    dice = 0
    if not body or options.map_applies_to_body:
        dice += extra * options.map_dice_per_action
    if not body:
        dice += stuns if options.stun_penalty == "per_stun" else min(stuns, 1)
        dice += (
            condition.wounds if options.wound_penalty == "per_wound" else min(condition.wounds, 1)
        )
    return dice


def apply_penalty(code: D6Code, dice: int) -> D6Code:
    """``code`` less ``dice`` whole dice, never below 0D."""
    return code.plus_dice(-dice)
