"""D6 tiers (seed 003, RULES.md 4): opposed rolls, the body roll and the damage table.

The hit rating against the reaction rolled once per round and the difficulty, then damage
against the body roll and the damage table's stacking. On a map a move of one space [S],
and a sprint instead of the attack [S]. Mortal wounds kill with time
(:meth:`D6.end_of_round`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar

from sim.aftermath import Aftermath
from sim.aftermath.d6 import D6Aftermath
from sim.dice import D6Code, parse_code
from sim.rules import d6
from sim.rules.common import Status
from sim.systems.base import System
from sim.systems.common import (
    BAND_DIFFICULTY,
    flee,
    map_cover,
    map_move_then_target,
    one_attack_target,
    plan_move,
)

if TYPE_CHECKING:
    from sim.agents import Fighter
    from sim.battle import Battle
    from sim.scenario import FighterSpec


@dataclass
class D6State:
    """A D6 fighter's condition on the damage table, its stuns, and its round's reaction."""

    condition: d6.Condition = d6.UNHURT
    stuns: list[int] = field(default_factory=list)  # rounds in which a stun was taken
    mortal_rounds: int = 0
    reaction: int | None = None  # the reaction total that stands for this round
    reaction_kind: str = "dodge"
    sprinted: int = -1  # the round it last sprinted (on a map)


class D6(System):
    """D6 tiers: one attack a turn against a reaction that stands for the round."""

    name: ClassVar[str] = d6.NAME
    rules: ClassVar[ModuleType] = d6
    aftermath: ClassVar[type[Aftermath]] = D6Aftermath

    def new_state(self, spec: FighterSpec) -> D6State:
        """Unhurt, but a Wounded result for each wound taken before (stacking)."""
        condition = d6.UNHURT
        for _ in range(spec.wounds):
            condition = d6.stacked(condition, d6.DamageTier.WOUNDED)
        return D6State(condition)

    def carried(self, f: Fighter) -> dict[str, Any]:
        """Its condition on the damage table."""
        return {"d6_condition": f.state.condition.label}

    def carry_in(self, f: Fighter, carried: Mapping[str, Any]) -> None:
        """Its condition on the damage table (unhurt if it carries none)."""
        f.state.condition = d6.Condition.from_label(carried.get("d6_condition", "none"))

    def carry_out(
        self, f: Fighter | None, survivor: Mapping[str, Any], carried: Mapping[str, Any]
    ) -> dict[str, Any]:
        """Its condition at the end of the aftermath."""
        return {"d6_condition": survivor["d6_condition"]}

    def start_round(self, b: Battle) -> None:
        """A reaction rolled last round no longer stands."""
        for f in b.all_fighters():
            f.state.reaction = None

    def start_status(self, f: Fighter) -> Status:
        """What the damage table makes of its condition."""
        return d6.status_for(f.state.condition)

    def take_turn(self, b: Battle, f: Fighter) -> None:
        """``f``'s attack (:func:`turn`)."""
        turn(b, f)

    def end_of_round(self, b: Battle) -> None:
        """A mortally wounded fighter rolls 2D; below the rounds so far, it dies [S]."""
        for f in b.all_fighters():
            if (
                f.status == Status.DEAD
                or f.state.condition.tier is not d6.DamageTier.MORTALLY_WOUNDED
            ):
                continue
            f.state.mortal_rounds += 1
            if d6.roll_mortal_check(f.state.mortal_rounds, b.rng):
                b.note(f.name, "dies of a mortal wound", result=f"round {f.state.mortal_rounds}")
                f.state.condition = d6.Condition(d6.DamageTier.DEAD)
                b.set_status(f, Status.DEAD)


def map_move(b: Battle, f: Fighter) -> Fighter | None:
    """A D6 turn on a map: a move of one space [S], then the attack.

    If that brings no enemy in reach and the tactic sprints, a second space instead of the
    attack (half dodge this round) [S].
    """
    target = map_move_then_target(b, f, 0, cells=1)
    if target is None and b.tactic_of(f).sprint:
        plan = plan_move(b, f, 0, cells=1)
        if plan is not None:
            plan()
            f.state.sprinted = b.round
            b.note(f.name, "sprints", result="half dodge this round")
    return target


def dice_code(text: str, fallback: D6Code) -> D6Code:
    """The dice code ``text``, or ``fallback`` when it is empty."""
    return parse_code(text) if text else fallback


def penalty(b: Battle, f: Fighter) -> int:
    """The dice ``f`` loses on its rolls now: its wounds and the stuns in effect."""
    return d6.penalty_dice(
        f.state.condition, stuns=d6.stuns_in_effect(f.state.stuns, b.round), options=b.options
    )


def reaction_of(b: Battle, f: Fighter) -> tuple[str, int]:
    """The reaction ``f`` rolled this round (rolled on the first attack it faces)."""
    if f.state.reaction is None:
        dodge = parse_code(f.spec.d6.dodge)
        parry = dice_code(f.spec.d6.parry, D6Code(0))
        use_parry = b.tactic_of(f).parry and parry.total_pips > dodge.total_pips
        kind, skill = ("parry", parry) if use_parry else ("dodge", dodge)
        if not f.active or not d6.can_act(f.state.condition):
            total = 0
        else:
            code = d6.reaction_code(
                skill,
                kind,
                sprinting=f.state.sprinted == b.round,
                penalty=penalty(b, f),
                options=b.options,
            )
            total = code.roll(b.rng)
        f.state.reaction = total
        f.state.reaction_kind = kind
    return f.state.reaction_kind, f.state.reaction


def turn(b: Battle, f: Fighter) -> None:
    """``f``'s D6 turn: its one attack (after a move on a map) against one target."""
    if f.status == Status.FLEEING:
        flee(b, f)
        return
    if not d6.can_act(f.state.condition):
        return
    if b.field is None:
        target = one_attack_target(b, f)
        cover = b.opts.d6_cover_dice if target is not None and b.in_cover(target) else 0
        base = b.opts.d6_difficulty
    else:
        target = map_move(b, f)
        if target is not None:
            cover = map_cover(b, f, target, b.opts.d6_cover_dice)
            base = b.opts.d6_difficulty + BAND_DIFFICULTY[b.field.band_of(f, target)]
    if target is None:
        return
    mods = d6.attack_modifiers(
        cover=cover,
        target_size=target.spec.d6.size,
        attacker_size=f.spec.d6.size,
        options=b.options,
    )
    if hits(b, f, target, base, mods):
        strike(b, f, target, mods)


def hits(b: Battle, f: Fighter, target: Fighter, base: int, mods: d6.AttackModifiers) -> bool:
    """Whether ``f``'s hit rating beats ``target``'s reaction and meets the difficulty [S]."""
    hit_code = d6.apply_penalty(parse_code(f.spec.d6.attack), penalty(b, f))
    kind, reaction = reaction_of(b, f=target)
    use = d6.reaction_against(reaction, kind, options=b.options)
    difficulty = d6.roll_difficulty(base, mods, b.rng)
    hit = d6.roll_hit(hit_code, use.total, difficulty, b.rng)
    if not hit.hit:
        b.note(
            f.name,
            "attacks",
            target.name,
            dice=f"{hit_code}={hit.total}",
            result=f"misses ({kind} {use.total}, difficulty {difficulty})",
        )
    return bool(hit.hit)


def strike(b: Battle, f: Fighter, target: Fighter, mods: d6.AttackModifiers) -> None:
    """``f``'s damage against ``target``'s body roll, and the damage table's result [S]."""
    strength = parse_code(target.spec.d6.strength)
    damage = dice_code(f.spec.d6.damage, d6.unarmed_damage(parse_code(f.spec.d6.strength)))
    damage = damage.plus_dice(mods.damage_dice.dice)
    body = d6.body_code(
        strength, parse_code(target.spec.d6.dexterity), parse_code(target.spec.d6.armor), b.options
    ).plus_dice(mods.body_dice.dice)
    res = d6.roll_damage_vs_body(damage, body, b.rng)
    before = target.state.condition
    target.state.condition = d6.stacked(before, res.tier)
    if b.log is not None:
        b.note(
            f.name,
            "attacks",
            target.name,
            dice=f"{damage}={res.damage} vs body {body}={res.body}",
            result=f"{res.tier.value}; now {target.state.condition.label}",
        )
    if res.tier is d6.DamageTier.NONE:
        return
    b.damaged()
    if res.tier is d6.DamageTier.STUNNED:
        target.state.stuns.append(b.round)
    else:
        b.harmed(f, target, 1, 1)
    status = d6.status_for(target.state.condition)
    if status != Status.ACTIVE and target.status != status:
        b.set_status(target, status)
