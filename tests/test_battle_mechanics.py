"""The War Game's seed mechanics in battle (issue 19): each happens, and only as its rule says.

Every mechanic has a scripted test (forced dice, one decision at a time) and a test that
fights whole battles and fails if the mechanic is never used.
"""

from dataclasses import replace

from sim.battle import Battle
from sim.scenario import FighterSpec, Scenario, Side, TacticSpec
from sim.systems import wargame as wgsys
from tests.conftest import ScriptedRng


def duel(attacker, target, *, params_a=None, params_b=None, **kw):
    return Scenario(
        sides=(
            Side("red", (attacker,), tactic=TacticSpec("balanced", params_a or {})),
            Side("blue", (target,), tactic=TacticSpec("balanced", params_b or {})),
        ),
        **kw,
    )


def by_name(b, name):
    return next(f for f in b.all_fighters() if f.name == name)


def actions(b, action):
    return [e for e in b.log if e["action"] == action]


def results(b, text):
    return [e for e in b.log if text in e["result"]]


def fought(sc, seed, **kw):
    b = Battle(sc, seed=seed, events=True, **kw)
    b.run()
    return b


# --------------------------------------------------------------------------- inventory blocks
def test_a_defender_that_cannot_dodge_blocks_with_an_inventory_slot():
    sc = duel(
        FighterSpec("A", hit_dice=6, weapon="axe"),
        FighterSpec("B", hit_dice=4, inventory_slots=1),
        params_a={"mighty": "never"},
        options={"inventory_block": True},
    )
    b = Battle(sc, seed=1, events=True)
    a, t = by_name(b, "A"), by_name(b, "B")
    t.wg = t.wg.evolve(spendable=0)  # B has spent its HD: it cannot dodge
    b.rng = ScriptedRng([5, 4])
    wgsys.attack(b, a, t)
    assert t.wg.hit_dice == 4 and t.wg.inventory_lost == 1
    assert b.log[-1]["result"] == "axe: blocked with an inventory slot (item lost)"
    b.rng = ScriptedRng([5, 4])
    wgsys.attack(b, a, t)  # nothing left to block with: a wound
    assert t.wg.hit_dice == 3
    # option off: the same blow wounds
    off = Battle(replace(sc, options={}), seed=1)
    t2 = by_name(off, "B")
    t2.wg = t2.wg.evolve(spendable=0)
    off.rng = ScriptedRng([5, 4])
    wgsys.attack(off, by_name(off, "A"), t2)
    assert t2.wg.hit_dice == 3 and t2.wg.inventory_lost == 0


def _blockers(**options):
    fighters = [
        FighterSpec("R1", hit_dice=5, armor=("gambeson",), weapon="axe"),
        FighterSpec("R2", hit_dice=4, weapon="axe"),
    ]
    return Scenario(
        sides=(
            Side("red", tuple(fighters)),
            Side("blue", tuple(FighterSpec(f"B{i}", hit_dice=4, weapon="axe") for i in (1, 2))),
        ),
        options=options,
    )


def test_battles_with_inventory_blocks_use_them():
    on = _blockers(inventory_block=True)
    assert sum(len(results(fought(on, s), "blocked")) for s in range(10)) > 0
    assert not any(results(fought(_blockers(), s), "blocked") for s in range(10))
