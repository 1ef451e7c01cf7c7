"""Deathwish (seed 001, RULES.md 3): to-hit, the damage roll, the wound level and its effects.

Taking cover is free for a Deathwish fighter (a move action, not the attack) [H]; on a map a
fighter with no enemy in reach moves first. Untreated Serious and Critical wounds kill with
time (:meth:`Deathwish.end_of_round`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar

from sim.aftermath import Aftermath
from sim.aftermath.deathwish import DeathwishAftermath
from sim.frame.morale import flee
from sim.rules import deathwish
from sim.rules.common import Status
from sim.systems.base import System
from sim.systems.common import BAND_SKILL, map_cover, map_move_then_target, one_attack_target

if TYPE_CHECKING:
    from sim.frame.agents import Fighter
    from sim.frame.turns import TurnFrame
    from sim.scenario import FighterSpec

YARD = 3.0  # feet

# Deathwish hit location by d10 when BattleOptions.deathwish_location == "random" [H].
_LOCATION_D10 = (
    "head",
    "vitals",
    "limb",
    "limb",
    "limb",
    "limb",
    "torso",
    "torso",
    "torso",
    "torso",
)


@dataclass
class DeathwishState:
    """A Deathwish fighter's weapon, wound thresholds, wounds, and bleeding out (RULES.md 3)."""

    weapon: deathwish.Weapon
    thresholds: deathwish.Thresholds
    wounds: list[deathwish.WoundLevel] = field(default_factory=list)
    bleeding_out: int | None = None  # rounds left before an untreated wound kills


@lru_cache(maxsize=4096)
def _start(
    weapon: str, body: int, strength: int, traits: int
) -> tuple[deathwish.Weapon, deathwish.Thresholds]:
    """A fighter's weapon and wound thresholds (from its trauma tolerance), once per sweep."""
    found = deathwish.find_weapon(weapon)
    return found, deathwish.thresholds(deathwish.trauma_tolerance(body, strength, traits))


class Deathwish(System):
    """Deathwish: one shot a turn."""

    name: ClassVar[str] = deathwish.NAME
    rules: ClassVar[ModuleType] = deathwish
    aftermath: ClassVar[type[Aftermath]] = DeathwishAftermath

    def new_state(self, spec: FighterSpec) -> DeathwishState:
        """Its weapon and thresholds, and a Slight wound for each wound taken before."""
        dw = spec.deathwish
        weapon, thresholds = _start(dw.weapon, spec.body, spec.strength, dw.traits)
        return DeathwishState(weapon, thresholds, [deathwish.WoundLevel.SLIGHT] * spec.wounds)

    def state_key(self, f: Fighter, left: int | None) -> Any:
        """Its wounds by their total difficulty up to its skill, and when they kill.

        All a battle reads of them. The to-hit roll subtracts the difficulty from the skill
        (:func:`turn`; cover and a map's range only subtract more), so a difficulty at or
        past the skill never hits, as any higher one; a new wound's level, death and
        incapacity come from its own roll. Wounds that would kill after the battle's last
        round (more than ``left`` rounds away) are as none: a new wound's count is the
        lesser (:func:`turn`), so either kills only when the new one does. Only
        :meth:`carried` (a campaign's aftermath) reads each level.
        """
        state = f.state
        difficulty = min(deathwish.wound_difficulty(state.wounds), max(0, f.spec.deathwish.skill))
        bleeding = state.bleeding_out
        if bleeding is not None and left is not None and bleeding > left:
            bleeding = None
        return state.weapon, state.thresholds, difficulty, bleeding

    def carried(self, f: Fighter) -> dict[str, Any]:
        """Its wound levels."""
        return {"dw_wounds": tuple(level.value for level in f.state.wounds)}

    def carry_in(self, f: Fighter, carried: Mapping[str, Any]) -> None:
        """Its wound levels (each adds its difficulty for good: the seed heals none)."""
        if carried.get("dw_wounds"):
            f.state.wounds = [deathwish.WoundLevel(w) for w in carried["dw_wounds"]]

    def carry_out(
        self, f: Fighter | None, survivor: Mapping[str, Any], carried: Mapping[str, Any]
    ) -> dict[str, Any]:
        """Every wound level its fighter ended the battle with (none heal).

        One who sat the battle out keeps what it carried.
        """
        return self.carried(f) if f is not None else dict(carried)

    def take_turn(self, b: TurnFrame, f: Fighter) -> None:
        """``f``'s shot (:func:`turn`)."""
        turn(b, f)

    def end_of_round(self, b: TurnFrame) -> None:
        """An untreated wound that kills with time counts down, and kills at 0."""
        for f in b.all_fighters():
            if f.status == Status.DEAD or f.state.bleeding_out is None:
                continue
            f.state.bleeding_out -= 1
            if f.state.bleeding_out <= 0:
                b.note(f.name, "dies of untreated wounds")
                b.set_status(f, Status.DEAD)

    def is_ranged(self, f: Fighter) -> bool:
        """Every firearm; not Unarmed."""
        return f.state.weapon.lethality is not None

    def range_ft(self, b: TurnFrame, f: Fighter) -> float:
        """Every firearm reaches ``firearm_range_yd`` [H]; unarmed, the neighbouring cells."""
        return b.opts.firearm_range_yd * YARD if self.is_ranged(f) else 0.0


def _does(thr: deathwish.Thresholds, options: deathwish.Options, damage: int) -> Any:
    """All :func:`turn` reads of a damage but the log: any at all, its wound, an instant kill."""
    level = deathwish.wound_level(damage, thr, options)
    return damage > 0, level, level is not None and deathwish.instant_death(damage, thr, options)


def turn(b: TurnFrame, f: Fighter) -> None:
    """``f``'s Deathwish turn: one shot (after a move on a map) at one target."""
    if f.status == Status.FLEEING:
        flee(b, f)
        return
    if b.field is None:
        target = one_attack_target(b, f)
        cover_pts = b.opts.deathwish_cover if target is not None and b.in_cover(target) else 0
        skill = f.spec.deathwish.skill
    else:
        target = map_move_then_target(b, f, b.opts.move_ft)
        if target is not None:
            cover_pts = map_cover(b, f, target, b.opts.deathwish_cover)
            skill = f.spec.deathwish.skill - BAND_SKILL[b.field.band_of(f, target)]
    if target is None:
        return
    hit = deathwish.roll_to_hit(
        b.rng,
        skill,
        deathwish.wound_difficulty(f.state.wounds),
        deathwish.cover_difficulty(cover_pts, b.options),
    )
    if not hit:
        b.note(f.name, "shoots", target.name, result="misses")
        return
    location = "torso"
    if b.opts.deathwish_location == "random":
        location = _LOCATION_D10[int(b.rng.integers(10))]
    pen, leth = deathwish.attack_values(
        f.state.weapon,
        strength=f.spec.strength,
        location=location,
        ammo=f.spec.deathwish.ammo,
        options=b.options,
    )
    armor = deathwish.armor_on(target.spec.deathwish.armor, location)
    thr, options = target.state.thresholds, b.options
    damage = deathwish.roll_damage(
        pen, leth, armor, cover_pts, b.rng, lambda d: _does(thr, options, d), (thr, options)
    )
    effect = deathwish.roll_effect(damage, target.state.thresholds, b.rng, b.options)
    if b.log is not None:
        result = f"{location}, damage {damage}: " + (
            "no wound" if effect.level is None else f"{effect.level.value} wound, {effect.effect}"
        )
        b.note(f.name, "shoots", target.name, dice=f"{pen}d10 <= {leth}", result=result)
    if damage > 0:
        b.damaged()
    if effect.level is None:
        return
    target.state.wounds.append(effect.level)
    b.harmed(f, target, 1, 1)
    death_in = deathwish.rounds_to_death(effect.level, b.options)
    if death_in is not None:
        ticking = target.state.bleeding_out
        target.state.bleeding_out = death_in if ticking is None else min(ticking, death_in)
    if effect.dead:
        b.set_status(target, Status.DEAD)
    elif effect.incapacitated and target.status != Status.DEAD:
        b.set_status(target, Status.INCAPACITATED)
