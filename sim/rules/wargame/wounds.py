"""War Game wounds: lost HD, going out at 0 HD, and the d4 wound types' effects.

Follows seed ``002_5306f142c0f73876.txt`` (RULES.md 1.4 wounds).
"""

from __future__ import annotations

from dataclasses import dataclass

from sim.errors import SimError
from sim.rules.common import Status
from sim.rules.wargame.base import Draw, _check_choice
from sim.rules.wargame.combatant import Combatant, Wound
from sim.rules.wargame.options import DEFAULT_OPTIONS, Options
from sim.rules.wargame.tables import Weapon, wound_type, wound_types


def bleed_armor_max(armor_max: int) -> int:
    """Armor maximum after a bleeding wound: 5 lower, not below 1 (an unarmored 0 stays 0)."""
    spec = wound_type("bleeding")
    if armor_max <= 0:
        return 0
    return max(spec.armor_max_floor, armor_max - spec.armor_max_loss)


def apply_wound_type(c: Combatant, kind: str | None) -> Combatant:
    """``c`` with the lasting effect of a wound of type ``kind``.

    Bleeding lowers the armor maximum (pool capped to it); burning ignites (armor 0 until put
    out); broken bones and lingering wounds act through the wound record itself.
    """
    if kind is None:
        return c
    c = c.copy()
    _apply_wound_type_in_place(c, kind)
    return c


def _apply_wound_type_in_place(c: Combatant, kind: str) -> None:
    name = wound_type(kind).name
    if name == "bleeding":
        c.armor_max = top = bleed_armor_max(c.armor_max)
        c.armor_pool = min(c.armor_pool, top)
    elif name == "burning":
        c.burning = True
        c.armor_pool = 0


@dataclass(frozen=True, slots=True)
class HdLoss:
    """HD lost at once from one ``source``."""

    source: str
    lost: int
    hd_before: int
    hd_after: int
    wound_type: str | None
    status: Status

    def describe(self) -> str:
        """E.g. ``mighty: -1 HD, 2 HD left``."""
        kind = f" ({self.wound_type})" if self.wound_type else ""
        end = "" if self.status in (Status.ACTIVE, Status.FLEEING) else f", {self.status}"
        return f"{self.source}: -{self.lost} HD{kind}, {self.hd_after} HD left{end}"


def _out_status(c: Combatant, finish: str) -> Status:
    if c.faction or finish == "incapacitate":
        return Status.INCAPACITATED
    return Status.DEAD


def lose_hd(
    c: Combatant,
    n: int,
    *,
    source: str = "wound",
    wound_type: str | None = None,
    finish: str | None = None,
    options: Options = DEFAULT_OPTIONS,
) -> tuple[Combatant, HdLoss]:
    """``c`` after losing ``n`` HD (wounds, strips, hazards, casualties), one wound record each.

    A wound landing on a creature with 1 or fewer HD puts it out: at 0 HD it is incapacitated
    or dead as ``finish`` (default ``options.finish``) says; a faction's leader is always
    incapacitated. Hitting an incapacitated creature with ``finish="kill"`` kills it. Only the
    first lost HD carries ``wound_type``, whose effect is applied.
    """
    after = c.copy()
    lose_hd_in_place(after, n, source, wound_type, finish, options)
    lost = c.hit_dice - after.hit_dice
    hd_loss = HdLoss(
        source, lost, c.hit_dice, after.hit_dice, wound_type if lost else None, after.status
    )
    return after, hd_loss


def lose_hd_in_place(
    c: Combatant,
    n: int,
    source: str = "wound",
    wound_type: str | None = None,
    finish: str | None = None,
    options: Options = DEFAULT_OPTIONS,
) -> None:
    """:func:`lose_hd` on ``c`` itself, without its :class:`HdLoss` (an attack's need none)."""
    finish = options.finish if finish is None else finish
    if finish != "incapacitate" and finish != "kill":
        _check_choice("finish", finish, ("incapacitate", "kill"))
    if n < 0:
        raise SimError(f"HD lost must be 0 or more, got {n}")
    hd_after = max(0, c.hit_dice - n)
    lost = c.hit_dice - hd_after
    status = c.status
    if n > 0 and hd_after == 0 and status in (Status.ACTIVE, Status.FLEEING, Status.INCAPACITATED):
        status = _out_status(c, finish)
    if options.wound_spendable == "cap":
        spendable = min(c.spendable, hd_after)
    else:
        spendable = min(max(0, c.spendable - lost), hd_after)
    if lost:
        new_wounds = (
            (_wound(wound_type, source),) if lost == 1 else _wounds(lost, wound_type, source)
        )
        c.wounds += new_wounds
    c.hit_dice = hd_after
    c.spendable = spendable
    c.status = status
    if lost and wound_type is not None:
        _apply_wound_type_in_place(c, wound_type)


def _wounds(lost: int, wound_type: str | None, source: str) -> tuple[Wound, ...]:
    """``lost`` wound records: the first of ``wound_type``, the others plain."""
    return tuple(_wound(wound_type if i == 0 else None, source) for i in range(lost))


_WOUNDS: dict[tuple[str | None, str], Wound] = {}


def _wound(kind: str | None, source: str) -> Wound:
    """The wound record of ``kind`` from ``source``: frozen, so one is made per pair and shared."""
    key = (kind, source)
    w = _WOUNDS.get(key)
    if w is None:
        if len(_WOUNDS) > 4096:  # sources are a few names; never let it grow without end
            _WOUNDS.clear()
        w = _WOUNDS[key] = Wound(kind, source)
    return w


def _weapon_wound_type(w: Weapon, options: Options, draw: Draw) -> str | None:
    if w.wound_type:
        return w.wound_type
    if options.wound_types == "by_kind" and w.damage_kind:
        for t in wound_types():
            if w.damage_kind in t.left_by:
                return t.name
    if options.wound_types == "rolled":
        return wound_types()[draw(len(wound_types())) - 1].name
    return None
