"""War Game attacks: defence, the pool, weapon effects, mighty attacks, in one call.

Follows seed ``002_5306f142c0f73876.txt`` (RULES.md 1.2 attacks, 1.3 defence, 1.4 wounds, 1.9
weapon categories, 1.10 cover). :func:`resolve_attack` applies a rolled damage;
:func:`attack_dist` is its exact counterpart.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from sim.dice import Dist
from sim.errors import SimError
from sim.rules.common import Status
from sim.rules.wargame.base import (
    DEFENCES,
    DODGE_COST,
    MIGHTY_HD,
    WOUND_HD,
    Draw,
    _check_choice,
    _d,
    _exact,
    _roll_amount,
)
from sim.rules.wargame.called import LIMBS, called_damage, dismembers, lost_limb
from sim.rules.wargame.combatant import (
    Combatant,
    Wound,
    effective_pool,
    is_ignitable,
    is_loud,
    is_out,
    limbs_unprotected,
    prevents_dismemberment,
    warbow_blocked,
)
from sim.rules.wargame.conditions import add_condition_in_place, condition_roll
from sim.rules.wargame.damage import DamageRoll, absorb, damage_roll_dist
from sim.rules.wargame.factors import cover_protects, heard_in_cover
from sim.rules.wargame.maneuvers import can_block, can_dodge, spend_in_place
from sim.rules.wargame.options import DEFAULT_OPTIONS, Options
from sim.rules.wargame.tables import Factor, Weapon, armor_spec, factor, weapon
from sim.rules.wargame.wounds import _weapon_wound_type, lose_hd_in_place


@dataclass(frozen=True, slots=True)
class Hit:
    """What one attack did to its target (the before/after numbers a log line needs)."""

    weapon: str
    defence: str
    dodged: bool
    blocked: bool
    rolled: int
    damage: int
    faces: tuple[int, ...]
    is_max: bool
    armor_before: int
    armor_after: int
    armor_max_before: int
    armor_max_after: int
    hd_before: int
    hd_after: int
    wounds: tuple[Wound, ...]
    effects: tuple[str, ...]
    shoved_ft: int
    status: Status

    def describe(self) -> str:
        """E.g. ``plain: 2d8 [4, 1] = 5; armor 1 -> 0; wound, 2 HD left``."""
        if self.dodged:
            return f"{self.weapon}: dodged (1 HD spent)"
        if self.blocked:
            return f"{self.weapon}: blocked with an inventory slot (item lost)"
        if self.faces:
            roll = DamageRoll(self.rolled, self.faces, self.is_max).describe()
        else:
            roll = f"damage {self.rolled}" + (" (max)" if self.is_max else "")
        parts = [f"{self.weapon}: {roll}"]
        if self.damage != self.rolled:
            parts.append(f"damage {self.damage}")
        if self.armor_before != self.armor_after:
            parts.append(f"armor {self.armor_before} -> {self.armor_after}")
        if self.armor_max_before != self.armor_max_after:
            parts.append(f"armor max {self.armor_max_before} -> {self.armor_max_after}")
        if self.wounds:
            kinds = [w.type for w in self.wounds if w.type]
            label = "wound" if len(self.wounds) == 1 else f"{len(self.wounds)} HD lost"
            label += f" ({', '.join(kinds)})" if kinds else ""
            parts.append(f"{label}, {self.hd_after} HD left")
        elif self.hd_before == self.hd_after and not self.effects:
            parts.append("no wound")
        parts.extend(self.effects)
        if self.status not in (Status.ACTIVE, Status.FLEEING):
            parts.append(str(self.status))
        return "; ".join(parts)


class Blow:
    """One attack applied to its target, which it changes in place: what the battle reads.

    ``damage`` (after a two-handed grip or a called shot's halving), ``dodged``, ``blocked``,
    ``shoved_ft`` and :attr:`wounds`; :meth:`hit` is the whole report (:class:`Hit`), made
    only when asked for (a battle asks only when it logs).
    """

    __slots__ = (
        "c",
        "roll",
        "w",
        "defence",
        "finish",
        "options",
        "rng",
        "script",
        "called",
        "effects",
        "shoved_ft",
        "severed",
        "before",
        "after",
        "damage",
        "dodged",
        "blocked",
    )
    after: tuple[int, int, int, tuple[Wound, ...], Status]

    def __init__(
        self,
        target: Combatant,
        roll: DamageRoll,
        w: Weapon,
        defence: str,
        finish: str,
        options: Options,
        rng: np.random.Generator | None,
        called: str | None = None,
        script: Draw | None = None,
    ) -> None:
        self.c = target
        self.roll = roll
        self.w = w
        self.defence = defence
        self.finish = finish
        self.options = options
        self.rng = rng
        self.script = script  # the exact oracle's faces (_exact), instead of rng
        self.called = called
        self.effects: list[str] = []
        self.shoved_ft = 0
        self.severed: str | None = None
        # what the Hit compares: armor, armor max, HD and wounds before the blow (and after:
        # the same and the status, set by done)
        self.before = (target.armor_pool, target.armor_max, target.hit_dice, len(target.wounds))
        self.damage = 0
        self.dodged = self.blocked = False

    def draw(self, sides: int) -> int:
        """A die of ``sides`` faces, from the battle's generator (or the oracle's script)."""
        if self.script is not None:
            return self.script(sides)
        if self.rng is None:
            raise SimError("this attack rolls dice: pass rng")
        return _d(self.rng, sides)

    def lose(self, n: int, source: str, kind: str | None = None) -> None:
        """The target loses ``n`` HD (a wound of ``kind`` first)."""
        c = self.c
        before = c.hit_dice
        lose_hd_in_place(c, n, source, kind, self.finish, self.options)
        if kind == "lingering" and c.hit_dice < before:
            self.linger()

    def linger(self) -> None:
        """A lingering wound landed: the limb taken off, or a rolled condition (``lingering``)."""
        condition = self.severed
        if condition is None and self.options.lingering == "conditions":
            condition = condition_roll(self.draw)
            self.effects.append(f"lingering wound: {condition}")
        if condition is not None:
            add_condition_in_place(self.c, condition)

    def wound_type(self) -> str | None:
        """The type of this blow's wound: lingering if it takes a limb off, else the weapon's.

        A called shot's dismemberment: :mod:`sim.rules.wargame.called`. Under
        ``wound_types="by_kind"`` a wound dealt with max damage lingers (unless the weapon
        names a type of its own): the d4 table names no damage kind for lingering wounds, and
        max damage is the d12 table's trigger of every special effect.
        """
        if self.called is not None and dismembers(self.roll.is_max, self.options):
            if prevents_dismemberment(self.c):
                self.effects.append(f"plate: the {self.called} stays on")
            else:
                self.severed = lost_limb(self.called)
                self.effects.append(f"{self.called} taken off ({self.severed})")
                return "lingering"
        by_kind = self.options.wound_types == "by_kind"
        if by_kind and self.roll.is_max and not self.w.wound_type:
            return "lingering"
        return _weapon_wound_type(self.w, self.options, self.draw)

    def done(self, dodged: bool = False, blocked: bool = False, damage: int = 0) -> Blow:
        """The blow, finished: what it did and the target's numbers after it."""
        c = self.c
        self.dodged, self.blocked, self.damage = dodged, blocked, damage
        self.after = (c.armor_pool, c.armor_max, c.hit_dice, c.wounds, c.status)
        return self

    @property
    def wounds(self) -> tuple[Wound, ...]:
        """The wounds the blow dealt."""
        return self.after[3][self.before[3] :]

    def hit(self) -> Hit:
        """The :class:`Hit` that says what the attack did."""
        armor, armor_max, hd, _ = self.before
        armor_after, armor_max_after, hd_after, _, status = self.after
        roll, shoved = self.roll, self.shoved_ft
        return Hit(
            self.w.name,
            self.defence,
            self.dodged,
            self.blocked,
            roll.total,
            self.damage,
            roll.faces,
            roll.is_max and self.damage > 0,
            armor,
            armor_after,
            armor_max,
            armor_max_after,
            hd,
            hd_after,
            self.wounds,
            tuple(self.effects),
            shoved,
            status,
        )


def _attack_core(
    blow: Blow,
    mighty: bool,
    two_handed: bool,
    mounted: bool,
    protected: bool,
    ranged: bool,
    heard: str | None,
) -> Blow:
    """The ``blow``, on the target it changes in place."""
    target, roll, w, options, called, defence = (
        blow.c,
        blow.roll,
        blow.w,
        blow.options,
        blow.called,
        blow.defence,
    )
    if defence == "dodge":
        return _dodged(blow)
    if defence == "block":
        return _blocked(blow)
    helpless = target.subdued or target.grappled or target.status == Status.INCAPACITATED
    if is_out(target) and not (w.trigger == "helpless_target" and helpless):
        blow.effects.append("target already out")
        return blow.done()
    damage = roll.total
    if w.effect == "multiply_damage" and two_handed:
        damage *= int(w.amount)
        blow.effects.append(f"two-handed: damage x{w.amount}")
    if called is not None:
        blow.effects.insert(0, f"called shot at the {called}")
        if options.called_shot_cost == "half":
            damage = called_damage(damage, options)
            blow.effects.append("called shot: damage halved")
    if ranged and protected:
        blow.effects.append("cover: no damage")
        return blow.done()
    if ranged and heard is not None:
        blow.effects.append(f"loud armor heard in the {heard}: no cover")
    if target.status == Status.FLEEING and damage > 0:
        target.damaged_while_fleeing = True
    hd_before = target.hit_dice
    if not is_out(blow.c):
        _strike(blow, damage)
    if w.trigger == "helpless_target" and helpless:
        blow.lose(int(w.amount), w.name)
        blow.effects.append(f"{w.name}: helpless target loses {w.amount} HD")
    if roll.is_max and damage > 0 and not is_out(blow.c):
        _max_damage(blow, mounted)
    if mighty and not is_out(blow.c):
        if options.mighty_hd == "extra" or blow.c.hit_dice == hd_before:
            blow.lose(MIGHTY_HD, "mighty")
            blow.effects.append(f"mighty attack removes {MIGHTY_HD} HD")
    if w.effect == "shove" and w.trigger == "hit" and not is_out(blow.c):
        blow.shoved_ft = int(w.amount)
        blow.effects.append(f"{w.name}: shoved {w.amount} ft")
    return blow.done(damage=damage)


def _dodged(blow: Blow) -> Blow:
    """The target spends 1 HD and avoids the attack altogether."""
    if not can_dodge(blow.c):
        raise SimError("the target cannot dodge now")
    spend_in_place(blow.c, DODGE_COST, "dodge")
    return blow.done(dodged=True)


def _blocked(blow: Blow) -> Blow:
    """The target blocks with an inventory slot (option ``inventory_block``); the item is lost."""
    if not blow.options.inventory_block:
        raise SimError("blocking with an inventory slot is off (option inventory_block)")
    if not can_block(blow.c, blow.options):
        raise SimError("the target cannot block now (no item left to block with)")
    blow.c.inventory_lost += 1
    return blow.done(blocked=True)


def _strike(blow: Blow, damage: int) -> None:
    """The damage meets the target: past armor, straight to HD, or into the armor pool.

    Guns and garrotes ignore armor; an unblocked warbow hits HD; otherwise the pool absorbs
    and its overflow wounds.
    """
    w, options, draw = blow.w, blow.options, blow.draw
    if w.ignores_armor:
        n = _roll_amount(w.amount, draw)
        blow.lose(n, w.name, blow.wound_type())
        blow.effects.append(f"{w.name} ignores armor, removes {n} HD")
    elif w.effect == "direct" and not warbow_blocked(blow.c):
        n = damage if options.warbow_direct == "damage" else WOUND_HD
        blow.lose(n, w.name, blow.wound_type())
        blow.effects.append(f"{w.name} unblocked: damages HD directly")
    elif blow.called is not None and limbs_unprotected(blow.c):
        blow.effects.append(f"lamellar leaves the {blow.called} bare")  # [S]: no AC for limbs
        if damage > 0:
            blow.lose(WOUND_HD, "wound", blow.wound_type())
    else:
        c = blow.c
        pool = effective_pool(c)
        a = absorb(damage, pool)
        if pool == c.armor_pool:  # (a pool that does not count, burning or exposed, stays)
            c.armor_pool = a.armor_pool
        if a.emptied:
            _on_pool_emptied(c, w, blow.effects)
        if a.wound:
            blow.lose(WOUND_HD, "wound", blow.wound_type())


def _max_damage(blow: Blow, mounted: bool) -> None:
    """A weapon's max-damage effect: axe strips, torch ignites, whip subdues, lance skewers."""
    w = blow.w
    if w.trigger == "max_damage" and w.effect == "strip_hd":
        blow.lose(int(w.amount), w.name)
        blow.effects.append(f"{w.name}: max damage strips {w.amount} HD")
    elif w.trigger == "max_damage" and w.effect == "ignite":
        if blow.options.torch_ignites == "anyone" or is_ignitable(blow.c):
            blow.c.burning = True
            blow.c.armor_pool = 0
            blow.effects.append(f"{w.name}: max damage, target ignites")
        else:
            blow.effects.append(f"{w.name}: max damage, nothing on the target can be ignited")
    elif w.trigger == "max_damage" and w.effect == "subdue":
        blow.c.subdued = True
        blow.effects.append(f"{w.name}: max damage, target subdued (may be knocked down/disarmed)")
    elif w.trigger == "max_damage_mounted" and mounted:
        skewered = Status.INCAPACITATED if blow.options.skewer == "incapacitate" else Status.DEAD
        blow.c.status = skewered
        blow.effects.append(f"{w.name}: max damage while mounted, target skewered")


def _on_pool_emptied(c: Combatant, w: Weapon, effects: list[str]) -> None:
    """Chain wears by 1 and a maul lowers the armor maximum by 2 when the pool hits 0 (in place)."""
    pieces = list(c.armor)
    top = c.armor_max
    for i, piece in enumerate(pieces):
        wear = min(armor_spec(piece.kind).wear_on_empty, piece.value)
        if wear:
            pieces[i] = replace(piece, value=piece.value - wear)
            top = max(0, top - wear)
            effects.append(f"{piece.kind} wears: value {piece.value} -> {piece.value - wear}")
    if w.trigger == "pool_emptied" and w.effect == "armor_max_loss":
        top = max(0, top - int(w.amount))
        effects.append(f"{w.name} empties the pool: armor max -{w.amount}")
    c.armor = tuple(pieces)  # the same kinds: what the armor is (c.worn) stays
    c.armor_max = top
    c.armor_pool = min(c.armor_pool, top)


def _attack_setup(
    target: Combatant,
    name: str | Weapon,
    defence: str,
    cover: str | Factor | None,
    ranged: bool | None,
    options: Options = DEFAULT_OPTIONS,
    called: str | None = None,
) -> tuple[Weapon, bool, bool, str | None]:
    """The weapon, whether ``cover`` protects the target, whether ranged, the cover heard in."""
    if defence not in DEFENCES:
        _check_choice("defence", defence, DEFENCES)
    if called is not None and called not in LIMBS:
        _check_choice("called shot", called, LIMBS)
    w = weapon(name)
    is_ranged = w.ranged if ranged is None else ranged
    if cover is None:  # (most blows)
        return w, False, is_ranged, None
    loud = is_loud(target)
    protected = cover_protects(cover, options, loud=loud)
    heard = None
    if heard_in_cover(cover, loud, options) and cover_protects(cover, options):
        heard = factor("cover", cover).name  # it would have sheltered a quiet creature
    return w, protected, is_ranged, heard


def resolve_attack(
    target: Combatant,
    roll: DamageRoll,
    weapon: str | Weapon = "plain",
    *,
    defence: str = "armor",
    mighty: bool = False,
    two_handed: bool = False,
    mounted: bool = False,
    cover: str | Factor | None = None,
    ranged: bool | None = None,
    finish: str | None = None,
    rng: np.random.Generator | None = None,
    options: Options = DEFAULT_OPTIONS,
    called: str | None = None,
) -> tuple[Combatant, Hit]:
    """Apply an attack whose damage was rolled (:func:`roll_damage`) to ``target``.

    ``defence``: ``"dodge"`` (spend 1 HD, avoided), ``"armor"`` (the pool absorbs; no armor
    means any damage wounds) or ``"block"`` (option ``inventory_block``). Then the weapon's
    category effect, and for a ``mighty`` attack 1 HD more (call :func:`declare_mighty` on the
    attacker). A standard ranged attack (``ranged`` defaults to the weapon's) against a target
    behind protecting ``cover`` does 0 damage and nothing else. ``called``: ``"arm"`` or
    ``"leg"`` for a called shot (:mod:`sim.rules.wargame.called`; pay it with
    :func:`~sim.rules.wargame.called.pay_called_shot`). ``rng`` is needed only for a gun's
    1d4, for ``wound_types="rolled"`` and for a lingering wound's condition.
    """
    after = target.copy()
    blow = resolve_attack_in_place(
        after,
        roll,
        weapon,
        defence=defence,
        mighty=mighty,
        two_handed=two_handed,
        mounted=mounted,
        cover=cover,
        ranged=ranged,
        finish=finish,
        rng=rng,
        options=options,
        called=called,
    )
    return after, blow.hit()


def resolve_attack_in_place(
    target: Combatant,
    roll: DamageRoll,
    weapon: str | Weapon = "plain",
    *,
    defence: str = "armor",
    mighty: bool = False,
    two_handed: bool = False,
    mounted: bool = False,
    cover: str | Factor | None = None,
    ranged: bool | None = None,
    finish: str | None = None,
    rng: np.random.Generator | None = None,
    options: Options = DEFAULT_OPTIONS,
    called: str | None = None,
) -> Blow:
    """:func:`resolve_attack` on ``target`` itself (the battle's own record); the :class:`Blow`.

    Its :meth:`Blow.hit` is the :class:`Hit` that :func:`resolve_attack` returns.
    """
    w, protected, is_ranged, heard = _attack_setup(
        target, weapon, defence, cover, ranged, options, called
    )
    fin = options.finish if finish is None else finish
    blow = Blow(target, roll, w, defence, fin, options, rng, called)
    return _attack_core(blow, mighty, two_handed, mounted, protected, is_ranged, heard)


def attack_dist(
    target: Combatant,
    dice: int,
    weapon: str | Weapon = "plain",
    *,
    defence: str = "armor",
    mighty: bool = False,
    two_handed: bool = False,
    mounted: bool = False,
    cover: str | Factor | None = None,
    ranged: bool | None = None,
    finish: str | None = None,
    options: Options = DEFAULT_OPTIONS,
    called: str | None = None,
) -> Dist:
    """Exact distribution of the target after an attack of ``dice`` HD (a :class:`Combatant`).

    The counterpart of ``resolve_attack(target, roll_damage(dice, rng, options.damage,
    max_damage=options.max_damage), ...)``.
    """
    w, protected, is_ranged, heard = _attack_setup(
        target, weapon, defence, cover, ranged, options, called
    )
    fin = options.finish if finish is None else finish

    def after(outcome: tuple[int, bool]) -> Dist:
        roll = DamageRoll(outcome[0], (), outcome[1])

        def hit(draw: Draw) -> Combatant:
            c = target.copy()  # every sequence of faces strikes a record of its own
            blow = Blow(c, roll, w, defence, fin, options, None, called, draw)
            _attack_core(blow, mighty, two_handed, mounted, protected, is_ranged, heard)
            return c

        return _exact(hit)

    return damage_roll_dist(dice, options.damage, options.max_damage).bind(after)
