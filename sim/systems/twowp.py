"""2W2P (seed 000, RULES.md 2.4): every front at once, both sides rolling together.

A 2W2P round is its fronts, not a turn per fighter: the sides of each front roll their dice
at once and the results apply together. Fleeing fighters run at the end of the round.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import partial
from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar

from sim.aftermath import Aftermath
from sim.aftermath.twowp import TwoWPAftermath
from sim.errors import SimError
from sim.frame.morale import flee
from sim.rules import twowp
from sim.rules.common import Status
from sim.systems.base import System

if TYPE_CHECKING:
    from sim.frame.agents import Fighter
    from sim.frame.sides import SideState
    from sim.frame.turns import TurnFrame
    from sim.scenario import FighterSpec


@dataclass
class TwoWPState:
    """A 2W2P fighter's blows (RULES.md 2.4): wounding and felling, and its prime."""

    wounds: twowp.Wounds


class TwoWP(System):
    """2W2P: fronts of fighters, each side's dice by its fighters' experience."""

    name: ClassVar[str] = twowp.NAME
    factions: ClassVar[bool] = False  # every round all fronts fight, at any scale
    rules: ClassVar[ModuleType] = twowp
    aftermath: ClassVar[type[Aftermath]] = TwoWPAftermath

    def check_sides(self, count: int) -> None:
        """Exactly two sides: a front pits one side against one."""
        if count != 2:
            raise SimError("2w2p battles have exactly two sides (fronts pit one side against one)")

    def new_state(self, spec: FighterSpec) -> TwoWPState:
        """No blows yet, but one wounding blow for each wound taken before."""
        wounds = twowp.Wounds(0, 0, prime=spec.prime)
        for _ in range(spec.wounds):
            wounds = wounds.take(felling=False)
        return TwoWPState(wounds)

    def carried(self, f: Fighter) -> dict[str, Any]:
        """Its wounding and felling blows."""
        return {"wounding": f.state.wounds.wounding, "felling": f.state.wounds.felling}

    def carry_in(self, f: Fighter, carried: Mapping[str, Any]) -> None:
        """The blows its wounds still carry (each makes it fight one tier worse [S])."""
        state: twowp.PatientState | None = carried.get("twowp_state")
        if state is not None:
            wounding, felling = state.carried
            f.state.wounds = twowp.Wounds(wounding, felling, prime=f.spec.prime)

    def carry_out(
        self, f: Fighter | None, survivor: Mapping[str, Any], carried: Mapping[str, Any]
    ) -> dict[str, Any]:
        """Its wounds' state at the end of the aftermath."""
        return {"twowp_state": survivor["twowp_state"]}

    def start_status(self, f: Fighter) -> Status:
        """Felled by the blows it carries."""
        return Status.INCAPACITATED if f.state.wounds.felled else Status.ACTIVE

    def fight_round(self, b: TurnFrame) -> None:
        """Every front at once (:func:`fight_round`)."""
        fight_round(b)

    def end_of_round(self, b: TurnFrame) -> None:
        """Fleeing fighters run."""
        for f in b.all_fighters():
            if f.status == Status.FLEEING:
                flee(b, f)


def fight_round(b: TurnFrame) -> None:
    """Every front at once: each side rolls its dice, results apply together (RULES.md 2.4)."""
    first, second = b.sides.values()
    fronts = abstract_fronts(first, second) if b.field is None else map_fronts(b, first, second)
    results: list[tuple[list[Fighter], twowp.Hits]] = []
    for name, (mine, theirs) in fronts.items():
        pool_a = front_pool(b, first, mine)
        pool_b = front_pool(b, second, theirs)
        on_a, on_b = twowp.roll_front(pool_a, pool_b, b.rng, b.options)
        b.note(
            first.name,
            "front",
            name,
            dice=f"{pool_a.attack}+{pool_a.defence}d vs {pool_b.attack}+{pool_b.defence}d",
            result=f"{first.name} takes {on_a.felling}F {on_a.wounding}W; "
            f"{second.name} takes {on_b.felling}F {on_b.wounding}W",
        )
        results += [(mine, on_a), (theirs, on_b)]
        for f in mine + theirs:
            f.fought = True
    attackers = {id(mine): theirs for mine, theirs in fronts.values()}
    attackers.update({id(theirs): mine for mine, theirs in fronts.values()})
    with b.together():  # both sides' results apply together; morale looks at them after
        for fighters, hits in results:
            if hits.felling == 0 and hits.wounding == 0:
                continue
            b.damaged()
            side = b.sides[fighters[0].side]
            shielded = frozenset(
                i for i, f in enumerate(fighters) if f.leader and side.tactic.protect_leader
            )
            new = twowp.take_hits(
                hits.felling,
                hits.wounding,
                [f.state.wounds for f in fighters],
                b.rng,
                b.options,
                shielded,
            )
            foes = attackers[id(fighters)]
            for i, (f, w) in enumerate(zip(fighters, new, strict=True)):
                blows = (w.wounding - f.state.wounds.wounding) + (
                    w.felling - f.state.wounds.felling
                )
                f.state.wounds = w
                if blows:
                    b.harmed(foes[i % len(foes)] if foes else None, f, blows, blows)
                if w.felled and f.status == Status.ACTIVE:
                    b.set_status(f, Status.INCAPACITATED)
    b.check_end()


def abstract_fronts(a: SideState, c: SideState) -> dict[str, tuple[list[Fighter], list[Fighter]]]:
    """Fronts where both sides have active fighters; one-sided fronts join the first [H]."""
    names = sorted({f.spec.front for f in a.fighters + c.fighters if f.active})
    fronts = {
        n: (
            [f for f in a.fighters if f.active and f.spec.front == n],
            [f for f in c.fighters if f.active and f.spec.front == n],
        )
        for n in names
    }
    contested = [n for n, (x, y) in fronts.items() if x and y]
    if not contested:
        mine = [f for f in a.fighters if f.active]
        theirs = [f for f in c.fighters if f.active]
        return {"main": (mine, theirs)} if mine and theirs else {}
    out = {n: (list(fronts[n][0]), list(fronts[n][1])) for n in contested}
    for n, (x, y) in fronts.items():
        if n not in out:
            out[contested[0]][0].extend(x)
            out[contested[0]][1].extend(y)
    return out


def map_fronts(
    b: TurnFrame, a: SideState, c: SideState
) -> dict[str, tuple[list[Fighter], list[Fighter]]]:
    """Fronts on a map: fighters close in, then fighters next to enemies form the fronts.

    First every active fighter with no enemy beside it moves up to ``move_ft`` as its
    formation says (sides in order, fighters in order); then fronts are the groups linked
    by enemies standing next to each other (RULES.md 2.4 [I], :func:`sim.space.map.fronts`),
    named after their first fighter. Fighters in no front (no enemy beside them, even with
    an engaged ally beside them) do not roll this round and cannot be hit: a column in a
    one-cell corridor fights one pair at a time, its rear stepping up as the front falls.
    """
    field = b.field
    assert field is not None
    for f in a.fighters + c.fighters:
        if f.active and field.on_grid(f) and not field.engaged(f):
            goal = field.goal(f, b.enemies_of(f))
            if goal is not None:
                field.move(f, goal, field.allowance(f, b.opts.move_ft), partial(field.engaged, f))
    active = [f for f in a.fighters + c.fighters if f.active]
    out: dict[str, tuple[list[Fighter], list[Fighter]]] = {}
    for group in field.fronts(active):
        out[group[0].name] = (
            [f for f in group if f.side == a.name],
            [f for f in group if f.side == c.name],
        )
    return out


def front_pool(b: TurnFrame, s: SideState, fighters: list[Fighter]) -> twowp.SidePool:
    """The dice side ``s`` rolls on a front of ``fighters``: attack and defence."""
    dice = twowp.side_dice([(f.tier, f.state.wounds.wounding) for f in fighters], b.options)
    share = s.tactic.defence_share or b.options.defence_share
    attack, defence = twowp.split_dice(dice, share)
    protection = twowp.protection_dice(
        [(bool(f.spec.armor), f.spec.head_protection) for f in fighters], b.options
    )
    return twowp.SidePool(attack, defence + protection)
