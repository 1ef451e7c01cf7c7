"""The War Game's seed mechanics in battle (issue 19): each happens, and only as its rule says.

Every mechanic has a scripted test (forced dice, one decision at a time) and a test that
fights whole battles and fails if the mechanic is never used.
"""

from dataclasses import replace
from pathlib import Path

from sim.battle.battle import Battle
from sim.rules import wargame
from sim.rules.common import Status
from sim.scenario import FactorSpec, FighterSpec, Scenario, Side, TacticSpec, load_scenario
from sim.systems import common
from sim.systems import wargame as wgsys
from tests.conftest import ScriptedRng

ROOT = Path(__file__).resolve().parent.parent


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


# --------------------------------------------------------------------------- grapple, shove, disarm
def test_a_dagger_grapples_then_stabs_and_the_held_breaks_free_against_its_holder():
    sc = duel(
        FighterSpec("A", hit_dice=6, weapon="dagger", strength=2),
        FighterSpec("B", hit_dice=4, armor=("plate",), strength=1),
        params_a={"contest": "auto"},
        params_b={"dodge": "never"},
    )
    b = Battle(sc, seed=1, events=True)
    a, t = by_name(b, "A"), by_name(b, "B")
    b.rng = ScriptedRng([8, 1, 1, 1])  # A's contest die 8, B's 1; then A's stab 2
    assert wgsys.maneuver(b, a, used_factor=False) == "contest"
    assert (t.wg.grappled, t.wg.held_by, t.wg.spendable) == (True, "A", 3)
    assert b.log[-1]["result"] == "grapple: contest 10 (8) vs 2 (1): attacker wins; grappled"
    assert wgsys.maneuver(b, a, used_factor=True) == "attack"  # once a turn; now it stabs
    assert t.wg.hit_dice == 3  # the plate took the blow, the dagger 1 HD
    b.rng = ScriptedRng([3, 6])  # B breaks free: 3 + 1 against the holder's 6 + 2
    wgsys.start_of_turn(b, t)
    assert t.wg.grappled and b.log[-1]["action"] == "fails to break free"
    b.set_status(a, Status.INCAPACITATED)
    wgsys.start_of_turn(b, t)  # the holder is out: the grapple ends
    assert not t.wg.grappled and actions(b, "released")


def test_a_shoved_fighter_cannot_dodge_until_it_stands_and_a_disarmed_one_fights_plain():
    sc = duel(
        FighterSpec("A", hit_dice=8, strength=3),
        FighterSpec("B", hit_dice=6, weapon="axe"),
        params_a={"contest": "shove"},
    )
    b = Battle(sc, seed=1, events=True)
    a, t = by_name(b, "A"), by_name(b, "B")
    b.rng = ScriptedRng([8, 1])
    assert wgsys.contest(b, a, t) and t.wg.prone and not wargame.can_dodge(t.wg)
    assert not wgsys.contest(b, a, t)  # already down: nothing to try
    t.wg = t.wg.evolve(spendable=6)
    wgsys.start_of_turn(b, t)
    assert not t.wg.prone and t.wg.spendable == 4 and b.log[-1]["action"] == "stands up"
    b2 = Battle(
        replace(
            sc,
            sides=(
                replace(sc.sides[0], tactic=TacticSpec("balanced", {"contest": "disarm"})),
                sc.sides[1],
            ),
        ),
        seed=1,
        events=True,
    )
    a2, t2 = by_name(b2, "A"), by_name(b2, "B")
    b2.rng = ScriptedRng([8, 1])
    assert wgsys.contest(b2, a2, t2) and t2.wg.disarmed
    assert wgsys.arms(t2).name == "plain" and not wgsys.armed(t2)
    b2.rng = ScriptedRng([8, 8])  # max damage: an axe would strip 1 HD more; plain does not
    wgsys.attack(b2, t2, a2)
    assert "strips" not in b2.log[-1]["result"]
    t2.wg = t2.wg.evolve(spendable=6)
    wgsys.start_of_turn(b2, t2)
    assert not t2.wg.disarmed and b2.log[-1]["action"] == "picks up its weapon"


def test_a_whip_s_subduing_blow_also_disarms_or_knocks_down():
    for weapon, follow in (("axe", "disarmed"), ("plain", "shoved to the ground")):
        sc = duel(
            FighterSpec("A", hit_dice=6, weapon="whip"),
            FighterSpec("B", hit_dice=6, armor=("plate",), weapon=weapon),
            params_b={"dodge": "never"},
        )
        b = Battle(sc, seed=1, events=True)
        a, t = by_name(b, "A"), by_name(b, "B")
        b.rng = ScriptedRng([8, 8])  # max damage: subdued [S]
        wgsys.attack(b, a, t)
        assert t.wg.subdued and b.log[-1]["result"] == follow
        none = Battle(
            replace(
                sc,
                sides=(
                    replace(sc.sides[0], tactic=TacticSpec("balanced", {"whip": "none"})),
                    sc.sides[1],
                ),
            ),
            seed=1,
            events=True,
        )
        none.rng = ScriptedRng([8, 8])
        wgsys.attack(none, by_name(none, "A"), by_name(none, "B"))
        t2 = by_name(none, "B")
        assert t2.wg.subdued and not (t2.wg.disarmed or t2.wg.prone)


def _brawl(contest):
    red = TacticSpec("balanced", {"contest": contest})
    return Scenario(
        sides=(
            Side(
                "red",
                (
                    FighterSpec("R1", hit_dice=5, weapon="dagger", strength=3),
                    FighterSpec("R2", hit_dice=5, strength=3),
                ),
                tactic=red,
            ),
            Side(
                "blue",
                (
                    FighterSpec("B1", hit_dice=5, weapon="axe"),
                    FighterSpec("B2", hit_dice=5, weapon="spear"),
                ),
            ),
        ),
    )


def test_battles_with_contested_maneuvers_use_them():
    kinds = {e["action"] for s in range(10) for e in fought(_brawl("auto"), s).log}
    assert {"grapple", "disarm"} <= kinds
    never = {e["action"] for s in range(10) for e in fought(_brawl("never"), s).log}
    assert not never & {"grapple", "shove", "disarm"}


# --------------------------------------------------------------------------- loud armor
def _ambush(armor, loud_armor="heard", cover="trees"):
    return Scenario(
        sides=(
            Side("red", (FighterSpec("Archer", hit_dice=5, weapon="warbow"),)),
            Side("blue", (FighterSpec("B", hit_dice=5, armor=armor, weapon="axe"),)),
        ),
        factors=(FactorSpec("cover", cover),),
        options={"loud_armor": loud_armor},
    )


def test_a_loud_wearer_cannot_hide_in_the_trees_and_says_so_once_a_round():
    quiet = Battle(_ambush(("gambeson",)), seed=1, events=True)
    assert common.take_cover(quiet, by_name(quiet, "B")).name == "trees"
    assert actions(quiet, "cannot hide") == []
    loud = Battle(_ambush(("chain",)), seed=1, events=True)
    b = by_name(loud, "B")
    assert common.take_cover(loud, b) is None
    assert common.take_cover(loud, b) is None  # asked again in the same round: said once
    said = actions(loud, "cannot hide")
    assert [e["result"] for e in said] == ["loud armor heard in the trees"]
    loud.round += 1
    common.take_cover(loud, b)
    assert len(actions(loud, "cannot hide")) == 2
    # physical cover shelters it; silent armor hides in the trees
    wall = Battle(_ambush(("plate",), cover="building_wall"), seed=1, events=True)
    assert common.take_cover(wall, by_name(wall, "B")).name == "building_wall"
    silent = Battle(_ambush(("plate",), "silent"), seed=1, events=True)
    assert common.take_cover(silent, by_name(silent, "B")).name == "trees"


def test_in_the_woods_loud_armor_is_heard_and_arrows_land():
    """The example scenario: the knight and men-at-arms cannot hide, the foresters do."""
    sc = load_scenario(ROOT / "scenarios" / "woods.yaml")
    loud = {"Sir Aldo", "man-at-arms 1", "man-at-arms 2"}
    heard, hid, hit = set(), set(), set()
    for seed in range(5):
        b = fought(sc, seed)
        heard |= {e["actor"] for e in actions(b, "cannot hide")}
        hid |= {e["actor"] for e in actions(b, "takes cover")}
        hit |= {e["target"] for e in b.log if "warbow" in e["result"] and "wound" in e["result"]}
    assert heard == loud and not hid & loud and hid
    assert hit & loud  # arrows (through the pool) wound the loud ones where they would hide
    silent = replace(sc, options={**sc.options, "loud_armor": "silent"})
    b = fought(silent, 0)
    assert (
        actions(b, "cannot hide") == [] and {e["actor"] for e in actions(b, "takes cover")} & loud
    )


# --------------------------------------------------------------------------- healing, back into it
def _healers(heal="fallen", tools=2):
    return Scenario(
        sides=(
            Side(
                "red",
                (
                    FighterSpec("R1", hit_dice=5, weapon="axe"),
                    FighterSpec("R2", hit_dice=5, weapon="axe"),
                    FighterSpec("Medic", hit_dice=6, healing_tools=tools),
                ),
                tactic=TacticSpec("balanced", {"heal": heal}),
            ),
            Side("blue", tuple(FighterSpec(f"B{i}", hit_dice=5, weapon="axe") for i in (1, 2, 3))),
        ),
    )


def test_a_medic_brings_a_fallen_ally_back_and_it_goes_last():
    b = Battle(_healers(), seed=1, events=True, battle={"morale": "none"})
    r1, medic = by_name(b, "R1"), by_name(b, "Medic")
    r1.wg = r1.wg.evolve(hit_dice=0, spendable=0)
    b.set_status(r1, Status.INCAPACITATED)
    assert wgsys.maneuver(b, medic, used_factor=False) == "heal"
    assert r1.status == Status.ACTIVE and (r1.wg.hit_dice, r1.wg.goes_last) == (1, True)
    assert medic.wg.healing_tools == 1 and medic.wg.spendable == 4
    assert b.log[-1]["result"] == (
        "1 HD back, 1 HD; back in the fight, goes last for 2 rounds (other: 2 HD spent)"
    )
    assert wgsys.patient_for(b, medic) is None  # nobody else is down (fallen only)
    wounded = Battle(_healers("wounded"), seed=1)
    r1w, medic_w = by_name(wounded, "R1"), by_name(wounded, "Medic")
    r1w.wg = r1w.wg.evolve(hit_dice=3, spendable=3)
    assert wgsys.patient_for(wounded, medic_w) is r1w  # missing 2 HD
    r1w.wg = r1w.wg.evolve(hit_dice=4, spendable=4)
    assert wgsys.patient_for(wounded, medic_w) is None  # missing 1: not worth a maneuver


def test_battles_with_healing_tools_bring_fighters_back():
    back = sum(len(results(fought(_healers(tools=3), s), "back in the fight")) for s in range(15))
    assert back > 0
    assert not any(actions(fought(_healers("never", 3), s), "heals") for s in range(15))
    assert not any(actions(fought(_healers(tools=0), s), "heals") for s in range(15))


# --------------------------------------------------------------------------- factions use factors
STORM = (FactorSpec("hazard", "storm"),)


def _factions(red_params=None, factors=STORM):
    def side(name, **params):
        fighters = tuple(
            FighterSpec(f"{name}{i}", hit_dice=6, armor=("chain",), weapon="axe") for i in range(6)
        )
        return Side(name, fighters, leader=f"{name}0", tactic=TacticSpec("balanced", params))

    return Scenario(
        sides=(side("red", **(red_params or {})), side("blue", hazard=False)),
        factors=factors,
        battle={"large_scale": "pools"},
        options={"pool": "literal"},  # the seed read literally
    )


def test_a_faction_pushes_an_armored_enemy_faction_into_a_hazard():
    b = Battle(_factions(), seed=1, events=True)
    assert b.large
    b.rng = ScriptedRng([8, 1, 8, 1])  # red's leader goes first; its contest 8 against 1
    b.step()
    push = actions(b, "faction hazard")[0]
    assert (push["actor"], push["target"]) == ("red", "blue")
    assert "hazard storm; contest" in push["result"] and "attacker wins" in push["result"]
    assert "1 HD spent to survive the wound" in push["result"]  # blue's pool survives it
    off = Battle(_factions({"hazard": False}), seed=1, events=True)
    off.rng = ScriptedRng([8, 1])
    off.step()
    assert not actions(off, "faction hazard") and actions(off, "faction attack")


def test_a_faction_distracts_the_enemy_faction_once():
    sc = _factions({"hazard": False, "distract": True}, (FactorSpec("distraction", "sand"),))
    b = fought(sc, 1)
    assert len(actions(b, "faction distraction")) == 1
    assert not actions(fought(_factions({"hazard": False}, sc.factors), 1), "faction distraction")


def test_a_faction_pool_ends_its_round_like_a_fighter():
    """A distracted or exposed faction can spend HD again next round (end of round clears it).

    Before the fix a faction pool never ended a round: one distraction kept the enemy
    faction from dodging or acting for the rest of the battle (the siege's attackers won
    every battle), and a faction that made a mighty attack could never dodge again.
    """
    sc = _factions({"hazard": False, "distract": True}, (FactorSpec("distraction", "sand"),))
    b = Battle(sc, seed=1, events=True)
    b.step()  # round 1, to its end
    blue = b.sides["blue"]
    assert actions(b, "faction distraction")
    assert not blue.pool.distracted  # "until the end of the round" [S]
    assert blue.pool.distracted_by == ("sand",)  # but used on this target for good
    b.step()
    assert any(e["round"] == 2 and e["actor"] == "blue" for e in b.log)  # blue acts again


def test_battles_of_factions_use_hazards():
    used = sum(len(actions(fought(_factions(), s), "faction hazard")) for s in range(5))
    assert used > 0
    off = _factions({"hazard": False})
    assert not any(actions(fought(off, s), "faction hazard") for s in range(5))


# ----------------------------------------------------------------------- gambeson can be ignited
def _torches(armor, **options):
    return Scenario(
        sides=(
            Side("red", tuple(FighterSpec(f"R{i}", hit_dice=6, weapon="torch") for i in (1, 2))),
            Side("blue", tuple(FighterSpec(f"B{i}", hit_dice=6, armor=armor) for i in (1, 2))),
        ),
        options={"damage": "weapon_d8", **options},
    )


def test_torches_ignite_gambesons_and_not_plate():
    def ignited(sc):
        return sum(len(results(fought(sc, s), "target ignites")) for s in range(10))

    assert ignited(_torches(("gambeson",))) > 0
    assert ignited(_torches(("plate",))) == 0
    assert ignited(_torches(("plate",), torch_ignites="anyone")) > 0
