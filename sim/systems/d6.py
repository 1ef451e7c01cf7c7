"""D6 tiers (seed 003, RULES.md 4): opposed rolls, the body roll and the damage table.

The hit rating against the reaction rolled once per round and the difficulty, then damage
against the body roll and the damage table's stacking. On a map a move of one space [S], and
a sprint instead of the attack [S]. Mortal wounds kill with time (:meth:`D6.end_of_round`).
The seed's own mechanics: its turn cycle (:func:`cycle_turns`), extra attacks under the
Multiple Action Penalty (:func:`turn`), area attacks with one hit roll (:func:`area_attack`),
called shots (:func:`call_shot`), the modifiers table as outnumbering (:func:`hit_rating`),
cover dice where ``d6.cover_on`` says (:func:`modifiers`), Ride reactions
(:func:`choose_reaction`), the two-handed parry's penalty (:func:`react`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar

from sim.aftermath import Aftermath
from sim.aftermath.d6 import D6Aftermath
from sim.dice import D6Code, parse_code
from sim.frame.morale import flee
from sim.rules import d6
from sim.rules.common import Status
from sim.systems.base import System
from sim.systems.common import (
    BAND_DIFFICULTY,
    choose_target,
    map_cover,
    map_move_then_target,
    map_target,
    one_attack_target,
    plan_move,
)
from sim.systems.reactions import ALL_REACTIONS, NO_PARRY, Plan, meet, react, two_handed_penalty

if TYPE_CHECKING:
    from sim.frame.agents import Fighter
    from sim.frame.turns import TurnFrame
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
    extra_attacks: int = 0  # attacks beyond the regular action declared this round
    area_dodges: int = 0  # area attacks dodged this round
    attacked_by: dict[int, str] = field(default_factory=dict)  # this round: id -> side
    attacked: bool = False  # it attacked this round (a two-handed weapon then parries at -2)
    poison: str = ""  # the most potent poison taken (a dice code; empty: none)


class D6(System):
    """D6 tiers: one attack a turn against a reaction that stands for the round."""

    name: ClassVar[str] = d6.NAME
    rules: ClassVar[ModuleType] = d6
    aftermath: ClassVar[type[Aftermath]] = D6Aftermath
    this_round = ("reactions", "attacked_by"), ("extra_attacks", "area_dodges", "attacked")

    def new_state(self, spec: FighterSpec) -> D6State:
        """Unhurt, but a Wounded result for each wound taken before (stacking)."""
        condition = d6.UNHURT
        for _ in range(spec.wounds):
            condition = d6.stacked(condition, d6.DamageTier.WOUNDED)
        return D6State(condition)

    def carried(self, f: Fighter) -> dict[str, Any]:
        """Its condition on the damage table, and the poison it took (the aftermath's)."""
        return {"d6_condition": f.state.condition.label, "d6_poison": f.state.poison}

    def carry_in(self, f: Fighter, carried: Mapping[str, Any]) -> None:
        """Its condition on the damage table (unhurt if it carries none)."""
        f.state.condition = d6.Condition.from_label(carried.get("d6_condition", "none"))

    def carry_out(
        self, f: Fighter | None, survivor: Mapping[str, Any], carried: Mapping[str, Any]
    ) -> dict[str, Any]:
        """Its condition at the end of the aftermath."""
        return {"d6_condition": survivor["d6_condition"]}

    def start_round(self, b: TurnFrame) -> None:
        """A reaction rolled last round no longer stands, nor last round's extra actions."""
        for f in b.all_fighters():
            f.state.reactions = {}
            f.state.extra_attacks = f.state.area_dodges = 0
            f.state.attacked_by = {}
            f.state.attacked = False

    def start_status(self, f: Fighter) -> Status:
        """What the damage table makes of its condition."""
        return d6.status_for(f.state.condition)

    def fight_round(self, b: TurnFrame) -> None:
        """The round's turns: the frame's initiative and popcorn, or the seed's cycle.

        ``turn_order: cycle`` [I] (:func:`cycle_turns`) everywhere but in the large-scale
        pools, which are the War Game's own.
        """
        if b.options.turn_order == "cycle" and not (b.large and b.large_mode == "pools"):
            cycle_turns(b)
        else:
            b.take_turns()

    def take_turn(self, b: TurnFrame, f: Fighter) -> None:
        """``f``'s attack (:func:`turn`)."""
        turn(b, f)

    def is_ranged(self, f: Fighter) -> bool:
        """A weapon with a range (``d6.range``)."""
        return f.spec.d6.range > 0

    def range_ft(self, b: TurnFrame, f: Fighter) -> float:
        """Its weapon's range in feet (0: hand to hand)."""
        return float(f.spec.d6.range)

    def end_of_round(self, b: TurnFrame) -> None:
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


def cycle_turns(b: TurnFrame) -> None:
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


def map_move(b: TurnFrame, f: Fighter) -> Fighter | None:
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


def extra(b: TurnFrame, f: Fighter) -> int:
    """``f``'s extra actions this round, of the Multiple Action Penalty [S]."""
    return d6.map_actions(f.state.extra_attacks, f.state.area_dodges, b.options)


def penalty(b: TurnFrame, f: Fighter) -> int:
    """The dice ``f`` loses on its rolls now: the MAP, its wounds and the stuns in effect."""
    return d6.penalty_dice(
        f.state.condition,
        stuns=d6.stuns_in_effect(f.state.stuns, b.round),
        extra=extra(b, f),
        options=b.options,
    )


def choose_reaction(b: TurnFrame, t: Fighter, allowed: tuple[str, ...]) -> tuple[str, D6Code]:
    """The reaction ``t`` rolls this round among ``allowed``, and its skill.

    Parry if allowed, its tactic parries and its parry code beats its dodge code, else
    dodge; a mounted fighter whose tactic rides and whose Ride code beats both rides [S].
    A ``two_handed`` fighter who attacked this round weighs its parry less the two-handed
    penalty (:func:`two_handed_penalty`), whoever attacks it.
    """
    tactic = b.tactic_of(t)
    dodge = parse_code(t.spec.d6.dodge)
    best, score = ("dodge", dodge), dodge.total_pips
    parry = dice_code(t.spec.d6.parry, D6Code(0))
    parry_score = parry.total_pips - two_handed_penalty(b, t)
    if "parry" in allowed and tactic.parry and parry_score > score:
        best, score = ("parry", parry), parry_score
    ride = dice_code(t.spec.d6.ride, D6Code(0))
    if "ride" in allowed and t.spec.mounted and tactic.ride and ride.total_pips > score:
        best = ("ride", ride)
    return best


def plan_reaction(b: TurnFrame, t: Fighter, allowed: tuple[str, ...] = ALL_REACTIONS) -> Plan:
    """How ``t`` meets the next attack (nothing rolled yet), with one of ``allowed``.

    A reaction of an allowed kind rolled earlier this round stands [S]; otherwise it rolls one
    (a fighter who parried hand to hand dodges a ranged or area attack).
    """
    for kind, total in t.state.reactions.items():
        if kind in allowed:
            return Plan(kind, total, None)
    kind, skill = choose_reaction(b, t, allowed)
    if not t.active or not d6.can_act(t.state.condition):
        return Plan(kind, None, None)
    code = d6.reaction_code(
        skill,
        kind,
        sprinting=t.state.sprinted == b.round,
        mounted=t.spec.mounted,
        penalty=penalty(b, t),
        options=b.options,
    )
    return Plan(kind, None, code)


def area_plan(b: TurnFrame, t: Fighter) -> Plan:
    """How ``t`` meets an area attack: no parry; a dodge is one more action of the MAP [S].

    The dodge is counted before it is rolled, so a dodge rolled now bears its own penalty
    [I] (``d6.area_dodge_map`` says whether each area attack dodged counts, or one a round).
    """
    plan = plan_reaction(b, t, NO_PARRY)
    reacts = plan.standing is not None or plan.code is not None
    if reacts and d6.reaction_against(0, plan.kind, area=True, options=b.options).adds_map:
        t.state.area_dodges += 1
        plan = plan_reaction(b, t, NO_PARRY)
    return plan


def turn(b: TurnFrame, f: Fighter) -> None:
    """``f``'s D6 turn: its attack (after a move on a map), and any extra attacks [S].

    The tactic's ``extra_attacks`` are declared once it has a target; each is one more
    action of the Multiple Action Penalty for the rest of the round [S].
    """
    if f.status == Status.FLEEING:
        flee(b, f)
        return
    if not d6.can_act(f.state.condition):
        return
    target, base, cover = aim(b, f)
    if target is None:
        return
    more = b.tactic_of(f).extra_attacks
    if more:
        f.state.extra_attacks += more
        b.note(
            f.name,
            "extra actions",
            result=f"{more} more attack{'s' if more > 1 else ''}: MAP -{penalty_of_map(b, f)}D "
            "this round",
        )
    attack(b, f, target, base, cover)
    for _ in range(more):
        if b.ended or not f.active or not d6.can_act(f.state.condition):
            return
        target, base, cover = aim(b, f, move=False)
        if target is None:
            return
        attack(b, f, target, base, cover)


def penalty_of_map(b: TurnFrame, f: Fighter) -> int:
    """The dice the Multiple Action Penalty alone takes off ``f``'s rolls this round."""
    return extra(b, f) * b.options.map_dice_per_action


def aim(b: TurnFrame, f: Fighter, *, move: bool = True) -> tuple[Fighter | None, int, int]:
    """``f``'s target (after its move on a map), the difficulty number and the target's cover.

    ``move``: the turn's first attack, which may take cover off a map and move on one.
    """
    if b.field is None:
        target = one_attack_target(b, f) if move else choose_target(b, f)
        cover = b.opts.d6_cover_dice if target is not None and b.in_cover(target) else 0
        return target, b.opts.d6_difficulty, cover
    target = map_move(b, f) if move else map_target(b, f)
    if target is None:
        return None, 0, 0
    cover = map_cover(b, f, target, b.opts.d6_cover_dice)
    return target, b.opts.d6_difficulty + BAND_DIFFICULTY[b.field.band_of(f, target)], cover


def modifiers(
    b: TurnFrame, f: Fighter, target: Fighter, cover: int, *, called: bool = False
) -> d6.AttackModifiers:
    """Cover, a ``called`` shot and scale of ``f``'s attack on ``target`` [S]."""
    return d6.attack_modifiers(
        cover=cover,
        called_shot=called,
        target_size=target.spec.d6.size,
        attacker_size=f.spec.d6.size,
        options=b.options,
    )


def call_shot(
    b: TurnFrame, f: Fighter, target: Fighter, hit_code: D6Code, plan: Plan, base: int, cover: int
) -> bool:
    """Whether ``f`` calls its shot at ``target``, as its tactic weighs the exact odds [S].

    The odds of each blow (:func:`sim.rules.d6.blow_dist`) from what ``f`` can see: the
    target's reaction standing this round or the code it would roll, the difficulty, damage
    and body with each blow's modifiers, and the target's condition.
    """
    tactic = b.tactic_of(f)
    if tactic.called_shot == "never":
        return False
    if tactic.called_shot == "always":
        return True
    reaction: D6Code | int = plan.standing if plan.standing is not None else plan.code or 0
    damage, body = damage_code(f), body_of(b, target)

    def harm(called: bool) -> tuple[Any, ...]:
        mods = modifiers(b, f, target, cover, called=called)
        return d6.blow_harm(
            target.state.condition, hit_code, reaction, base, damage, body, mods, options=b.options
        )

    return tactic.wants_called_shot(harm(False), harm(True))


def attack(b: TurnFrame, f: Fighter, target: Fighter, base: int, cover: int) -> None:
    """One attack of ``f`` on ``target``: the hit [S], then on a hit the damage [S].

    An area attack (``d6.area``) catches the target's neighbours too (:func:`area_attack`).
    """
    f.state.attacked = True
    if f.spec.d6.area > 0:
        area_attack(b, f, target, base, cover)
        return
    hit_code = hit_rating(b, f, target)
    allowed = NO_PARRY if b.system.is_ranged(f) else ALL_REACTIONS
    plan = plan_reaction(b, target, allowed)
    called = call_shot(b, f, target, hit_code, plan, base, cover)
    mods = modifiers(b, f, target, cover, called=called)
    if called:
        b.note(
            f.name,
            "calls a shot at",
            target.name,
            result=f"+{b.options.called_shot_difficulty} difficulty, "
            f"+{b.options.called_shot_damage} damage",
        )
    kind, reaction, difficulty, hit = meet(b, target, plan, f, hit_code, base, mods)
    if not hit.hit:
        shelter = f", cover {cover}D on the {b.options.cover_on}" if cover else ""
        b.note(
            f.name,
            "attacks",
            target.name,
            dice=f"{hit_code}={hit.total}",
            result=f"misses ({kind} {reaction}, difficulty {difficulty}{shelter})",
        )
        return
    strike(b, f, target, mods)


def hit_rating(b: TurnFrame, f: Fighter, target: Fighter) -> D6Code:
    """``f``'s attack code against ``target``: less its penalties, plus any advantage [S].

    The modifiers table (:func:`sim.rules.d6.outnumber_dice`, ``d6.outnumber_pips`` [H]):
    each ally who attacked ``target`` earlier this round is that many pips of advantage,
    turned into dice. ``f`` is then booked as one of ``target``'s attackers.
    """
    code = d6.apply_penalty(parse_code(f.spec.d6.attack), penalty(b, f))
    allies = sum(side == f.side for i, side in target.state.attacked_by.items() if i != f.unique_id)
    target.state.attacked_by[f.unique_id] = f.side
    bonus = d6.outnumber_dice(allies, b.options)
    if bonus.dice:
        pips = allies * b.options.outnumber_pips
        b.note(
            f.name,
            "outnumbers",
            target.name,
            result=f"+{bonus}: {allies} all{'ies' if allies > 1 else 'y'} before it, "
            f"{d6.advantage_degree(pips, b.options)} advantage ({pips} pips)",
        )
    return code.plus_dice(bonus.dice)


def caught(b: TurnFrame, f: Fighter, target: Fighter) -> list[Fighter]:
    """Whom ``f``'s area attack on ``target`` catches: up to ``d6.area`` enemies [I].

    The target first, then on a map the active enemies next to it (nearest the attacker
    first), off a map the active enemies of the target's side in their order.
    """
    others = [e for e in b.enemies_of(f) if e is not target and e.active]
    if b.field is not None:
        at = b.field.cell(target)
        others = [e for e in others if _next_to(b.field.cell(e), at)]
    else:
        others = [e for e in others if e.side == target.side]
    return [target, *others][: f.spec.d6.area]


def _next_to(a: tuple[int, int], c: tuple[int, int]) -> bool:
    return max(abs(a[0] - c[0]), abs(a[1] - c[1])) <= 1


def area_attack(b: TurnFrame, f: Fighter, target: Fighter, base: int, cover: int) -> None:
    """An area attack: one roll to hit against everyone it catches [S].

    Each target reacts (a dodge counts half and adds MAP, :func:`area_plan`), then the one
    hit roll (:func:`sim.rules.d6.roll_area_attack`) stands against each reaction and each
    target's own difficulty; each target hit takes its own damage against its own body.
    """
    victims = caught(b, f, target)
    hit_code = hit_rating(b, f, target)
    for t in victims[1:]:
        t.state.attacked_by[f.unique_id] = f.side
    plans = []
    for t in victims:
        kind, reaction = react(b, t, area_plan(b, t), f, area=True)
        plans.append((kind, reaction, modifiers(b, f, t, cover if t is target else 0)))
    results = d6.roll_area_attack(
        hit_code,
        [
            d6.AreaTarget(reaction, base, damage_code(f), body_of(b, t), mods)
            for t, (_, reaction, mods) in zip(victims, plans, strict=True)
        ],
        b.rng,
    )
    b.note(
        f.name,
        "area attack",
        ", ".join(t.name for t in victims),
        dice=f"{hit_code}={results[0].hit_total}",
    )
    for t, (kind, reaction, mods), res in zip(victims, plans, results, strict=True):
        if res.damage is None:
            b.note(
                f.name,
                "attacks",
                t.name,
                result=f"misses ({kind} {reaction} against an area attack, "
                f"difficulty {res.difficulty})",
            )
            continue
        damage = damage_code(f).plus_dice(mods.damage_dice.dice)
        body = body_of(b, t, mods)
        wound(b, f, t, res.damage, f"{damage}={res.damage.damage} vs body {body}={res.damage.body}")


def damage_code(f: Fighter) -> D6Code:
    """``f``'s weapon damage, or unarmed (Strength - 2 pips) [S]."""
    return dice_code(f.spec.d6.damage, d6.unarmed_damage(parse_code(f.spec.d6.strength)))


def body_of(b: TurnFrame, t: Fighter, mods: d6.AttackModifiers = d6.NO_MODIFIERS) -> D6Code:
    """``t``'s body code against one attack: Strength and Dexterity, armor, ``mods``' dice.

    Less the Multiple Action Penalty of its round (``d6.map_applies_to_body``) [S, H].
    """
    d = t.spec.d6
    body = d6.body_code(
        parse_code(d.strength), parse_code(d.dexterity), parse_code(d.armor), b.options
    )
    if extra(b, t):
        body = d6.apply_penalty(
            body,
            d6.penalty_dice(t.state.condition, extra=extra(b, t), body=True, options=b.options),
        )
    return body.plus_dice(mods.body_dice.dice)


def strike(b: TurnFrame, f: Fighter, target: Fighter, mods: d6.AttackModifiers) -> None:
    """``f``'s damage against ``target``'s body roll, and the damage table's result [S]."""
    damage = damage_code(f).plus_dice(mods.damage_dice.dice)
    body = body_of(b, target, mods)
    res = d6.roll_damage_vs_body(damage, body, b.rng)
    wound(b, f, target, res, f"{damage}={res.damage} vs body {body}={res.body}")


def said(label: str, none: str = "unhurt") -> str:
    """A tier or condition label as the narrative says it ("wounded twice"; ``none`` for none)."""
    return none if label == "none" else label.replace("_", " ")


def wound(b: TurnFrame, f: Fighter, target: Fighter, res: d6.DamageResult, dice: str) -> None:
    """Book a damage roll's result on ``target``: its condition, stuns, poison, status [S].

    A blow of a poisoned weapon (``d6.poison``) that ``d6.poisons`` poisons the target [I].
    """
    before = target.state.condition
    target.state.condition = d6.stacked(before, res.tier)
    if b.log is not None:
        b.note(
            f.name,
            "attacks",
            target.name,
            dice=dice,
            result=f"{said(res.tier.value, 'no damage')}; now {said(target.state.condition.label)}",
        )
    if res.tier is d6.DamageTier.NONE:
        return
    b.damaged()
    if res.tier is d6.DamageTier.STUNNED:
        target.state.stuns.append(b.round)
    else:
        b.harmed(f, target, 1, 1)
    poison = f.spec.d6.poison
    alive = target.state.condition.tier is not d6.DamageTier.DEAD
    if poison and alive and d6.poisons(res.tier, b.options):
        target.state.poison = d6.stronger_poison(target.state.poison, poison)
        b.note(f.name, "poisons", target.name, result=f"poison {poison}")
    status = d6.status_for(target.state.condition)
    if status != Status.ACTIVE and target.status != status:
        b.set_status(target, status)
