"""The War Game's seed mechanics in battle (issue 19): each happens, and only as its rule says.

Every mechanic has a scripted test (forced dice, one decision at a time) and a test that
fights whole battles and fails if the mechanic is never used.
"""

from dataclasses import replace

from sim.battle import Battle
from sim.rules import wargame
from sim.scenario import FactorSpec, FighterSpec, Scenario, Side, TacticSpec
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


def test_no_mighty_attack_on_a_target_that_would_block_it():
    sc = duel(
        FighterSpec("A", hit_dice=6, weapon="axe"),
        FighterSpec("B", hit_dice=4, inventory_slots=1),
        options={"inventory_block": True},
    )
    for block, word in (("fallback", "attack"), ("never", "mighty attack")):
        b = Battle(
            replace(
                sc,
                sides=(
                    sc.sides[0],
                    replace(sc.sides[1], tactic=TacticSpec("balanced", {"block": block})),
                ),
            ),
            seed=1,
            events=True,
        )
        a, t = by_name(b, "A"), by_name(b, "B")
        t.wg = t.wg.evolve(spendable=0)  # B cannot dodge; it can block unless its tactic won't
        b.rng = ScriptedRng([5, 4])
        wgsys.attack(b, a, t)
        assert b.log[-1]["action"] == word


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


# --------------------------------------------------------------------------- survive any source
def test_a_hazard_s_wound_is_survived_for_one_hd_as_its_tactic_dodges():
    sc = duel(
        FighterSpec("A", hit_dice=6, strength=5),
        FighterSpec("B", hit_dice=4),
        factors=(FactorSpec("hazard", "storm"),),
    )
    b = Battle(sc, seed=1, events=True)
    a, t = by_name(b, "A"), by_name(b, "B")
    b.rng = ScriptedRng([8, 1])  # A's contest die 8, B's 1: B is pushed into the storm
    assert wgsys.invoke_factor(b, a, t)
    assert (t.wg.hit_dice, t.wg.spendable) == (4, 2)  # 1 HD to resist, 1 to survive
    assert "1 HD spent to survive the wound" in b.log[-1]["result"]
    never = Battle(sc, seed=1, events=True, options={"survive": "attacks"})
    a2, t2 = by_name(never, "A"), by_name(never, "B")
    never.rng = ScriptedRng([8, 1])
    wgsys.invoke_factor(never, a2, t2)
    assert (t2.wg.hit_dice, t2.wg.spendable) == (2, 2)


def test_a_burning_fighter_survives_the_burn_at_the_round_start():
    sc = duel(FighterSpec("A", hit_dice=6), FighterSpec("B", hit_dice=4))
    b = Battle(sc, seed=1, events=True)
    t = by_name(b, "B")
    t.wg = wargame.apply_wound_type(t.wg, "burning")
    b._start_round()
    assert (t.wg.hit_dice, t.wg.spendable, t.wg.burning) == (4, 3, True)
    assert b.log[-1]["result"] == "1 HD spent to survive the burn"
    off = Battle(sc, seed=1, events=True, options={"survive": "attacks"})
    t2 = by_name(off, "B")
    t2.wg = wargame.apply_wound_type(t2.wg, "burning")
    off._start_round()
    assert (t2.wg.hit_dice, t2.wg.spendable) == (3, 3)
    assert not results(off, "survive the burn")


def _storm(**options):
    return Scenario(
        sides=(
            Side("red", tuple(FighterSpec(f"R{i}", hit_dice=4, strength=6) for i in (1, 2))),
            Side("blue", tuple(FighterSpec(f"B{i}", hit_dice=4, strength=5) for i in (1, 2))),
        ),
        factors=(FactorSpec("hazard", "storm"), FactorSpec("hazard", "fire")),
        options=options,
    )


def test_battles_by_hazards_see_their_wounds_survived():
    assert sum(len(results(fought(_storm(), s), "to survive")) for s in range(10)) > 0
    off = _storm(survive="attacks")
    assert not any(results(fought(off, s), "to survive") for s in range(10))
