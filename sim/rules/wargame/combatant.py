"""War Game state: the armor pool and the :class:`Combatant`.

Follows seed ``002_5306f142c0f73876.txt`` (RULES.md 1.1 hit dice, 1.5 the armor pool: worn
armor, Dex or Savvy, shield). A creature, or a faction's pool at large scale, is one frozen
record.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from sim.errors import SimError
from sim.rules.common import OUT_OF_FIGHT, Status
from sim.rules.wargame.tables import armor_spec, shield_value


@dataclass(frozen=True, slots=True)
class ArmorPiece:
    """A worn armor: its table ``kind``, current ``value`` (chain wears down) and ``pieces``."""

    kind: str
    value: int
    pieces: int = 1


def armor_piece(kind: str, pieces: int = 1) -> ArmorPiece:
    """A new armor of ``kind`` covering ``pieces`` parts (piecemeal: 1..4, others 1)."""
    spec = armor_spec(kind)
    if not 1 <= pieces <= spec.max_pieces:
        raise SimError(f"{spec.name} covers 1..{spec.max_pieces} pieces, got {pieces}")
    return ArmorPiece(spec.name, spec.value * pieces, pieces)


def _as_piece(item: str | tuple[str, int] | ArmorPiece) -> ArmorPiece:
    if isinstance(item, ArmorPiece):
        return item
    if isinstance(item, tuple):
        return armor_piece(item[0], item[1])
    return armor_piece(item)


def savvy_modifier(savvy: int) -> int:
    """The second digit of a two-digit Savvy score (47 -> 7), used instead of a Dex modifier."""
    if isinstance(savvy, bool) or not isinstance(savvy, int) or not 10 <= savvy <= 99:
        raise SimError(f"Savvy must be a two-digit score 10..99, got {savvy!r}")
    return savvy % 10


def pool_maximum(
    armor: Sequence[str | tuple[str, int] | ArmorPiece] = (),
    dex_modifier: int = 0,
    shield: str | int | None = None,
) -> int:
    """Armor pool maximum: worn armor + Dex modifier (or Savvy digit) + shield, never below 0.

    A doublet adds +1 per piece of other armor worn with it; a gambeson takes 1 off the Dex
    modifier while worn [I: the score's -1 lowers the added number by 1].
    """
    worn = [_as_piece(a) for a in armor]
    total = sum(p.value for p in worn)
    for i, piece in enumerate(worn):
        spec = armor_spec(piece.kind)
        total -= spec.dex_penalty
        if spec.per_other_piece:
            others = sum(q.pieces for j, q in enumerate(worn) if j != i)
            total += spec.per_other_piece * others
    return max(0, total + dex_modifier + shield_value(shield))


@dataclass(frozen=True, slots=True)
class Worn:
    """What a creature's worn armor is, beside its value: the d6 Armors table's properties.

    Any piece worn gives its property (RULES.md 1.5): metal (blocks warbows), loud (chain,
    scale, plate), ignitable (a gambeson), ``prevents_dismemberment`` (plate),
    ``limbs_unprotected`` (lamellar).
    """

    metal: bool = False
    loud: bool = False
    ignitable: bool = False
    prevents_dismemberment: bool = False
    limbs_unprotected: bool = False


@lru_cache(maxsize=1024)
def _worn(kinds: tuple[str, ...]) -> Worn:
    """The properties of armor of these ``kinds`` worn together (looked up once per set)."""
    specs = [armor_spec(k) for k in kinds]
    return Worn(
        metal=any(s.metal for s in specs),
        loud=any(s.loud for s in specs),
        ignitable=any(s.ignitable for s in specs),
        prevents_dismemberment=any(s.prevents_dismemberment for s in specs),
        limbs_unprotected=any(s.limbs_unprotected for s in specs),
    )


def _worn_by(armor: tuple[ArmorPiece, ...]) -> Worn:
    return _worn(tuple([p.kind for p in armor]))


@dataclass(frozen=True, slots=True)
class Wound:
    """One lost HD: its ``type`` (None for a plain wound) and ``source``."""

    type: str | None
    source: str


_new = object.__new__
_set = object.__setattr__


@dataclass(unsafe_hash=True)  # mutable, owned by a battle; no slots (see copy)
class Combatant:
    """A creature's War Game state, or a faction's pool (``faction=True``) at large scale.

    ``hit_dice`` is the current HD (wounds lower it); ``spendable`` the HD left to spend this
    round. ``exposed``: armor counts 0 until the end of the round (a hazard). ``maneuver_dice``
    caps ``spendable`` at each round start (headcount factions); None = ``hit_dice``.
    ``inventory_slots`` are the items it carries (each may block one attack, option
    ``inventory_block``; ``inventory_lost`` counts those gone); ``healing_tools`` the uses of
    healing tools it carries. ``prone`` (shoved to the ground), ``disarmed`` and ``held_by``
    (the name of the creature grappling it) come from contested maneuvers (RULES.md 1.7).
    ``conditions`` are the lasting conditions of lingering wounds and lost limbs (blinded,
    ``lost_arm``, ``lost_leg``, shaken: :mod:`sim.rules.wargame.conditions`).

    The battle owns its creatures' records and changes them in place, through the rules
    named ``..._in_place`` (:func:`~sim.rules.wargame.maneuvers.pay_maneuver_in_place`,
    :func:`~sim.rules.wargame.attacks.resolve_attack_in_place`): a blow changes a few of
    its numbers, not a copy of all of them. Every other rule, and every rule of that name
    without the suffix, leaves the record it is given alone and returns a changed one
    (:meth:`evolve`), so that a rule can be tested, and its exact distribution computed, on
    records nobody else holds. Records are equal and hashed by value (exact distributions
    hold them); one that is a key or in a set is never changed. No ``slots``: a copy is one
    dict copy (:meth:`copy`).
    """

    hit_dice: int
    spendable: int
    armor_pool: int = 0
    armor_max: int = 0
    armor: tuple[ArmorPiece, ...] = ()
    shield: int = 0
    strength: int = 0
    resolve: int = 0
    wounds: tuple[Wound, ...] = ()
    conditions: tuple[str, ...] = ()
    status: Status = Status.ACTIVE
    subdued: bool = False
    grappled: bool = False
    burning: bool = False
    exposed: bool = False
    distracted: bool = False
    distracted_by: tuple[str, ...] = ()
    mighty_attack_pending: bool = False
    damaged_while_fleeing: bool = False
    fleeing_turns: int = 0
    stuck_in: str | None = None
    movement_penalty_ft: int = 0
    inventory_lost: int = 0
    inventory_slots: int = 0
    healing_tools: int = 0
    prone: bool = False
    disarmed: bool = False
    held_by: str | None = None
    goes_last: bool = False
    late_rounds: int = 0
    falling_kills: bool = True
    arrow_proof: bool = False
    maneuver_dice: int | None = None
    faction: bool = False
    leader_out: bool = False
    worn: Worn = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if "worn" not in self.__dict__:
            self.worn = _worn_by(self.armor)
        if self.hit_dice < 0 or not 0 <= self.spendable <= self.hit_dice:
            raise SimError(f"need 0 <= spendable ({self.spendable}) <= hit_dice ({self.hit_dice})")
        if not 0 <= self.armor_pool <= self.armor_max:
            raise SimError(
                f"need 0 <= armor_pool ({self.armor_pool}) <= armor_max ({self.armor_max})"
            )

    def copy(self) -> Combatant:
        """A record of its own with the same values (for a rule that changes it in place)."""
        new = _new(Combatant)
        _set(new, "__dict__", self.__dict__.copy())
        return new

    def evolve(self, **changes: Any) -> Combatant:
        """A new record with ``changes``, as ``dataclasses.replace`` makes it (checks included).

        Returns the record itself when nothing changes.
        """
        fields = self.__dict__
        for name, value in changes.items():
            if name not in fields or fields[name] != value:
                break
        else:
            return self  # every value equal: nothing changes
        merged = fields | changes  # a dict copy (faster than {**fields, **changes})
        if len(merged) != len(fields):  # a name that is not a field
            raise TypeError(f"Combatant has no field {sorted(changes.keys() - fields.keys())}")
        if "armor" in changes:
            merged["worn"] = _worn_by(merged["armor"])
        new = _new(type(self))
        _set(new, "__dict__", merged)
        hd = merged["hit_dice"]  # __post_init__'s checks inline; it raises the error
        if hd < 0 or not 0 <= merged["spendable"] <= hd:
            new.__post_init__()
        elif not 0 <= merged["armor_pool"] <= merged["armor_max"]:
            new.__post_init__()
        return new


def combatant(
    hit_dice: int,
    *,
    armor: Sequence[str | tuple[str, int] | ArmorPiece] = (),
    dex_modifier: int = 0,
    shield: str | int | None = None,
    strength: int = 0,
    resolve: int = 0,
    falling_kills: bool = True,
    inventory_slots: int = 0,
    healing_tools: int = 0,
) -> Combatant:
    """A fresh creature: full spendable HD and a full armor pool.

    ``armor`` lists worn armor by name, ``(name, pieces)`` (piecemeal) or :class:`ArmorPiece`;
    ``inventory_slots`` the items it carries, ``healing_tools`` the uses of its healing tools.
    """
    if isinstance(hit_dice, bool) or not isinstance(hit_dice, int) or hit_dice < 1:
        raise SimError(f"hit_dice must be a whole number 1 or more, got {hit_dice!r}")
    worn = tuple(_as_piece(a) for a in armor)
    top = pool_maximum(worn, dex_modifier, shield)
    return Combatant(
        hit_dice=hit_dice,
        spendable=hit_dice,
        armor_pool=top,
        armor_max=top,
        armor=worn,
        shield=shield_value(shield),
        strength=strength,
        resolve=resolve,
        falling_kills=falling_kills,
        inventory_slots=inventory_slots,
        healing_tools=healing_tools,
    )


def is_out(c: Combatant) -> bool:
    """True if the creature is out of the fight (fled, surrendered, incapacitated, dead)."""
    return c.status in OUT_OF_FIGHT


def effective_pool(c: Combatant) -> int:
    """Armor that counts now: 0 while burning or exposed by a hazard, else the pool."""
    return 0 if (c.burning or c.exposed) else c.armor_pool


def warbow_blocked(c: Combatant) -> bool:
    """True if a shield or metal armor (chain, scale, lamellar, plate) blocks warbows."""
    return c.arrow_proof or c.shield > 0 or c.worn.metal


def inventory_left(c: Combatant) -> int:
    """Items the creature still carries: its slots less those lost (blocks, acid)."""
    return max(0, c.inventory_slots - c.inventory_lost)


def is_loud(c: Combatant) -> bool:
    """True if it wears loud armor: chain or plate, "loud as hell" [S]."""
    return c.worn.loud


def is_ignitable(c: Combatant) -> bool:
    """True if it wears armor that "can be ignited" [S]: a gambeson."""
    return c.worn.ignitable


def limbs_unprotected(c: Combatant) -> bool:
    """True if its armor cannot protect arms or legs from called shots [S]: lamellar."""
    return c.worn.limbs_unprotected


def prevents_dismemberment(c: Combatant) -> bool:
    """True if it wears armor that "prevents dismemberment" [S]: plate."""
    return c.worn.prevents_dismemberment


def lingering_wounds(c: Combatant) -> int:
    """How many lingering wounds (blinded, a missing limb) the creature carries."""
    return sum(1 for w in c.wounds if w.type == "lingering")


def has_broken_bones(c: Combatant) -> bool:
    """True if the creature carries a broken-bones wound."""
    for w in c.wounds:  # a loop, not any() of a generator: every maneuver asks
        if w.type == "broken_bones":
            return True
    return False
