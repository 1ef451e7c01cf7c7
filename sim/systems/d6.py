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
    """A D6 fighter's condition on the damage table, its stuns, and its round's reactions."""

    condition: d6.Condition = d6.UNHURT
    stuns: list[int] = field(default_factory=list)  # rounds in which a stun was taken
    mortal_rounds: int = 0
    reactions: dict[str, int] = field(default_factory=dict)  # kind -> total, this round [S]
    sprinted: int = -1  # the round it last sprinted (on a map)
    cycle_place: int = -1  # its place in the seed's turn cycle (-1: not in it yet)


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
            f.state.reactions = {}

    def start_status(self, f: Fighter) -> Status:
        """What the damage table makes of its condition."""
        return d6.status_for(f.state.condition)

    def fight_round(self, b: Battle) -> None:
        """The round's turns: the frame's initiative and popcorn, or the seed's cycle.

        ``turn_order: cycle`` [I] (:func:`cycle_turns`) everywhere but in the large-scale
        pools, which are the War Game's own.
        """
        if b.options.turn_order == "cycle" and not (b.large and b.large_mode == "pools"):
            cycle_turns(b)
        else:
            b.take_turns()

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


def cycle_turns(b: Battle) -> None:
    """A round of the seed's turn cycle: everyone in the fight once, in the cycle's order [S].

    The cycle is set the first round (:func:`sim.rules.d6.roll_cycle_order`: the highest
    Dexterity first) and every round returns to its first; fighters who join later are put at
    its end, in the same order among themselves.
    """
    fighters = [f for f in b.all_fighters() if f.in_fight]
    new = [f for f in fighters if f.state.cycle_place < 0]
    if new:
        sides = list(b.sides)
        order = d6.roll_cycle_order(
            [parse_code(f.spec.d6.dexterity).total_pips for f in new],
            [sides.index(f.side) for f in new],
            b.rng,
        )
        start = 1 + max((f.state.cycle_place for f in b.all_fighters()), default=-1)
        for place, i in enumerate(order, start):
            new[i].state.cycle_place = place
        b.note(
            "battle",
            "turn cycle",
            result=", ".join(new[i].name for i in order) + (" join" if start else ""),
        )
    for f in sorted(fighters, key=lambda f: f.state.cycle_place):
        if b.ended:
            break
        b.take_turn(f)
        b.mark_acted(f)


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


@dataclass(frozen=True, slots=True)
class Plan:
    """How a fighter meets one attack: its reaction, and the total standing or the code to roll.

    ``standing`` is the total rolled earlier this round, which stands [S]; otherwise it rolls
    ``code`` (``None``: it cannot react, and counts 0).
    """

    kind: str
    standing: int | None
    code: D6Code | None


def choose_reaction(b: Battle, t: Fighter) -> tuple[str, D6Code]:
    """The reaction ``t`` rolls this round, and its skill.

    Parry if its tactic parries and its parry code beats its dodge code, else dodge.
    """
    dodge = parse_code(t.spec.d6.dodge)
    parry = dice_code(t.spec.d6.parry, D6Code(0))
    if b.tactic_of(t).parry and parry.total_pips > dodge.total_pips:
        return "parry", parry
    return "dodge", dodge


def plan_reaction(b: Battle, t: Fighter) -> Plan:
    """How ``t`` meets the next attack (nothing rolled yet)."""
    if t.state.reactions:
        kind, total = next(iter(t.state.reactions.items()))
        return Plan(kind, total, None)
    kind, skill = choose_reaction(b, t)
    if not t.active or not d6.can_act(t.state.condition):
        return Plan(kind, None, None)
    code = d6.reaction_code(
        skill, kind, sprinting=t.state.sprinted == b.round, penalty=penalty(b, t), options=b.options
    )
    return Plan(kind, None, code)


def react(b: Battle, t: Fighter, plan: Plan) -> tuple[str, int]:
    """``t``'s reaction to one attack as ``plan`` says: rolled now unless one stands [S]."""
    total = plan.standing
    if total is None:
        total = plan.code.roll(b.rng) if plan.code is not None else 0
        t.state.reactions[plan.kind] = total
    use = d6.reaction_against(total, plan.kind, options=b.options)
    return plan.kind, use.total


def turn(b: Battle, f: Fighter) -> None:
    """``f``'s D6 turn: its one attack (after a move on a map) against one target."""
    if f.status == Status.FLEEING:
        flee(b, f)
        return
    if not d6.can_act(f.state.condition):
        return
    target, base, cover = aim(b, f)
    if target is not None:
        attack(b, f, target, base, cover)


def aim(b: Battle, f: Fighter) -> tuple[Fighter | None, int, int]:
    """``f``'s target (after its move on a map), the difficulty number and the target's cover."""
    if b.field is None:
        target = one_attack_target(b, f)
        cover = b.opts.d6_cover_dice if target is not None and b.in_cover(target) else 0
        return target, b.opts.d6_difficulty, cover
    target = map_move(b, f)
    if target is None:
        return None, 0, 0
    cover = map_cover(b, f, target, b.opts.d6_cover_dice)
    return target, b.opts.d6_difficulty + BAND_DIFFICULTY[b.field.band_of(f, target)], cover


def attack(b: Battle, f: Fighter, target: Fighter, base: int, cover: int) -> None:
    """One attack of ``f`` on ``target``: the hit [S], then on a hit the damage [S]."""
    mods = d6.attack_modifiers(
        cover=cover,
        target_size=target.spec.d6.size,
        attacker_size=f.spec.d6.size,
        options=b.options,
    )
    hit_code = d6.apply_penalty(parse_code(f.spec.d6.attack), penalty(b, f))
    kind, reaction = react(b, target, plan_reaction(b, target))
    difficulty = d6.roll_difficulty(base, mods, b.rng)
    hit = d6.roll_hit(hit_code, reaction, difficulty, b.rng)
    if not hit.hit:
        b.note(
            f.name,
            "attacks",
            target.name,
            dice=f"{hit_code}={hit.total}",
            result=f"misses ({kind} {reaction}, difficulty {difficulty})",
        )
        return
    strike(b, f, target, mods)


def damage_code(f: Fighter) -> D6Code:
    """``f``'s weapon damage, or unarmed (Strength - 2 pips) [S]."""
    return dice_code(f.spec.d6.damage, d6.unarmed_damage(parse_code(f.spec.d6.strength)))


def body_of(b: Battle, t: Fighter, mods: d6.AttackModifiers) -> D6Code:
    """``t``'s body code against one attack: Strength and Dexterity, armor, ``mods``' dice."""
    d = t.spec.d6
    body = d6.body_code(
        parse_code(d.strength), parse_code(d.dexterity), parse_code(d.armor), b.options
    )
    return body.plus_dice(mods.body_dice.dice)


def strike(b: Battle, f: Fighter, target: Fighter, mods: d6.AttackModifiers) -> None:
    """``f``'s damage against ``target``'s body roll, and the damage table's result [S]."""
    damage = damage_code(f).plus_dice(mods.damage_dice.dice)
    body = body_of(b, target, mods)
    res = d6.roll_damage_vs_body(damage, body, b.rng)
    wound(b, f, target, res, f"{damage}={res.damage} vs body {body}={res.body}")


def wound(b: Battle, f: Fighter, target: Fighter, res: d6.DamageResult, dice: str) -> None:
    """Book a damage roll's result on ``target``: its condition, stuns, status [S]."""
    before = target.state.condition
    target.state.condition = d6.stacked(before, res.tier)
    if b.log is not None:
        b.note(
            f.name,
            "attacks",
            target.name,
            dice=dice,
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
