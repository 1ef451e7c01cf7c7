"""D6 tiers aftermath: poison and Resist Disease or Poison, resurrection (issue 19).

Exact small cases of the aftermath (certain rolls: 0D, 30D), the first aid's dice on the
Resist roll, the priest's spell and the Religion 4D ritual, a campaign member raised, and
the example scenario, where every mechanic must happen.
"""

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from sim.aftermath import CampOptions, Healer, Patient, run_aftermath
from sim.rules import d6
from sim.run.core import fight
from sim.scenario import load_scenario, parse_scenario

ROOT = Path(__file__).resolve().parents[1]
AFTER = d6.AftermathOptions
RNG = np.random.default_rng


def rows_of(a, name):
    return {r["day"]: r for r in a.rows if r["name"] == name}


# --- poison -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("potency", "after"), [("30D", "wounded_twice"), ("0D", "wounded")])
def test_the_poisoned_resist_the_next_day(potency, after):
    p = Patient("p", d6_condition="wounded", d6_poison=potency, d6_strength="1D")
    a = run_aftermath([p], [], "d6", 3, RNG(0))
    r = rows_of(a, "p")
    assert (r[0]["infections"], r[0]["infections_known"], r[0]["condition"]) == (1, 1, "wounded")
    assert (r[1]["infections"], r[1]["condition"]) == (0, after)
    assert r[2]["condition"] == after  # resisted once: the poison is gone


def test_resist_rolls_the_resist_code_else_strength_plus_first_aid_dice(monkeypatch):
    seen = []
    real = d6.roll_resist_poison

    def spy(cond, resist, potency, rng, bonus, fails):
        seen.append((str(resist), str(potency), bonus, fails))
        return real(cond, resist, potency, rng, bonus, fails)

    monkeypatch.setattr(d6, "roll_resist_poison", spy)
    pts = [
        Patient("a", d6_condition="wounded", d6_poison="3D", d6_strength="2D"),
        Patient("b", d6_condition="wounded", d6_poison="4D", d6_resist="5D+1"),
    ]
    run_aftermath(pts, [], "d6", 2, RNG(0))
    assert seen == [("2D", "3D", 0, "worsen"), ("5D+1", "4D", 0, "worsen")]
    seen.clear()
    surgeon = Healer("s", "surgeon", first_aid="30D")  # a success by 10+: +2D
    run_aftermath(
        pts[:1], [surgeon], "d6", 2, RNG(0), aftermath_options=AFTER(poison_fails="by_margin")
    )
    assert seen == [("2D", "3D", 2, "by_margin")]


@pytest.mark.parametrize(("bonus", "time_bonus"), [("both", 2), ("either", 0)])
def test_first_aid_bonus_both_or_only_to_resist(monkeypatch, bonus, time_bonus):
    seen = []
    real = d6.rest_day

    def spy(cond, day, strength, rng, b, opts):
        if d6.time_heal_due(day):
            seen.append(b)
        return real(cond, day, strength, rng, b, opts)

    monkeypatch.setattr(d6, "rest_day", spy)
    p = Patient("p", d6_condition="wounded_twice", d6_poison="0D")
    surgeon = Healer("s", "surgeon", first_aid="30D")
    run_aftermath([p], [surgeon], "d6", 4, RNG(0), aftermath_options=AFTER(first_aid_bonus=bonus))
    assert seen == [time_bonus]


def test_the_dead_have_no_poison_to_resist():
    p = Patient("p", status="dead", d6_condition="dead", d6_poison="3D")
    a = run_aftermath([p], [], "d6", 2, RNG(0))
    assert [r["infections"] for r in a.rows] == [0, 0]
    assert [r["status"] for r in a.rows] == ["dead", "dead"]


# --- resurrection -------------------------------------------------------------------------------


def dead(name="d", **kw):
    return Patient(name, side="s", status="dead", d6_condition="dead", **kw)


def test_a_priest_raises_the_dead_on_the_battle_s_day():
    a = run_aftermath([dead()], [Healer("Anselm", "priest", side="s")], "d6", 2, RNG(0))
    r = rows_of(a, "d")
    assert (r[0]["status"], r[0]["condition"], r[0]["treated_by"]) == (
        "active",
        "resurrected",
        ["Anselm"],
    )
    assert (r[1]["status"], r[1]["condition"], r[1]["treated_by"]) == ("active", "none", [])
    assert a.assignments == {}  # day 1: nothing left to do
    assert a.survivor("d")["d6_condition"] == "none"
    nobody = run_aftermath([dead()], [], "d6", 2, RNG(0))
    assert [r["status"] for r in nobody.rows] == ["dead", "dead"]
    unskilled = run_aftermath([dead()], [Healer("A", "priest", "unskilled")], "d6", 1, RNG(0))
    assert unskilled.rows[0]["status"] == "dead"


def test_raised_as_wounded_twice():
    aopts = AFTER(raised_as="wounded_twice")
    a = run_aftermath([dead()], [Healer("A", "priest")], "d6", 2, RNG(0), aftermath_options=aopts)
    assert [r["condition"] for r in a.rows] == ["resurrected", "wounded_twice"]


@pytest.mark.parametrize(
    ("religion", "condition", "raised"),
    [
        ("4D", "none", True),
        ("5D+2", "wounded", True),
        ("3D+2", "none", False),
        ("4D", "mortally_wounded", False),  # down all day: no ritual
        ("", "none", False),
    ],
)
def test_religion_4d_performs_the_ritual(religion, condition, raised):
    status = "incapacitated" if condition == "mortally_wounded" else "active"
    oda = Patient("Oda", side="s", status=status, d6_condition=condition, d6_religion=religion)
    lingers = AFTER(untreated_mortal="lingers")
    a = run_aftermath([dead(), oda], [], "d6", 1, RNG(0), aftermath_options=lingers)
    r = rows_of(a, "d")[0]
    assert (r["status"] == "active") is raised
    assert r["treated_by"] == (["Oda"] if raised else [])


def test_one_resurrection_an_hour():
    camp = CampOptions(healer_hours=1)
    pts = [dead("d1"), dead("d2"), dead("d3")]
    a = run_aftermath(pts, [Healer("A", "priest")], "d6", 3, RNG(0), camp=camp)
    status = {(r["day"], r["name"]): r["status"] for r in a.rows}
    assert [status[0, n] for n in ("d1", "d2", "d3")] == ["active", "dead", "dead"]
    assert [status[1, n] for n in ("d1", "d2", "d3")] == ["active", "active", "dead"]
    assert [status[2, n] for n in ("d1", "d2", "d3")] == ["active"] * 3
    two = run_aftermath(
        pts, [Healer("A", "priest"), Healer("B", "priest")], "d6", 1, RNG(0), camp=camp
    )
    assert [r["status"] for r in two.rows] == ["active", "active", "dead"]


def test_a_campaign_member_raised_fights_the_next_battle():
    text = """
rules: d6
max_rounds: 1
sides:
  red:
    fighters:
      - {name: Ghost, status: dead}
      - {name: R}
  blue:
    fighters: [{name: B, d6: {attack: 0D, damage: 0D}}]
aftermath:
  healers: [{name: Anselm, side: red, role: priest}]
campaign:
  side: red
  days_between: 1
  battles: [{}, {}]
"""
    got = fight(parse_scenario(text, "t.yaml"), seed=0)
    ghost = [r for r in got.campaign if r["name"] == "Ghost"]
    assert [(r["battle"], r["fought"], r["status"], r["fit"]) for r in ghost] == [
        (1, True, "active", True),
        (2, True, "active", True),
    ]
    first = [r for r in got.aftermath if r["name"] == "Ghost" and r["battle"] == 1]
    assert [(r["battle_status"], r["status"], r["condition"]) for r in first] == [
        ("dead", "active", "resurrected")
    ]
    no_priest = parse_scenario(
        text.replace("  healers: [{name: Anselm, side: red, role: priest}]\n", "  days: 1\n"),
        "t.yaml",
    )
    ghost = [r for r in fight(no_priest, seed=0).campaign if r["name"] == "Ghost"]
    assert [(r["fought"], r["status"], r["fit"]) for r in ghost] == [
        (True, "dead", False),
        (False, "dead", False),
    ]


# --- the example: every mechanic happens --------------------------------------------------------


def test_the_adders_poison_the_escort_resists_and_the_priest_raises_its_dead():
    sc = load_scenario(ROOT / "scenarios" / "adders.yaml")
    poisoned = worsened = raised = dead_at_end = 0
    poison_events = 0
    for seed in range(30):
        got = fight(sc, seed=seed, events=True)
        poison_events += sum(e["action"] == "poisons" for e in got.battle.log)
        rows = [r for r in got.aftermath if r["side"] == "escort"]
        by = {}
        for r in rows:
            by.setdefault(r["name"], {})[r["day"]] = r
        for d in by.values():
            raised += any(r["condition"] == "resurrected" for r in d.values())
            dead_at_end += d[max(d)]["status"] == "dead"
            if d[0]["infections"]:
                poisoned += 1
                c0, c1 = d[0]["condition"], d[1]["condition"]
                if (
                    c1 == "resurrected"
                    or d6.Condition.from_label(c1).rank > d6.Condition.from_label(c0).rank
                ):
                    worsened += 1
    assert poison_events > 0 and poisoned > 0
    assert 0 < worsened < poisoned
    assert raised > 0 and dead_at_end == 0
    # without the priest the escort keeps its dead; without poison nobody is poisoned
    plain = replace(sc, aftermath=replace(sc.aftermath, healers=sc.aftermath.healers[:1]))
    dead_plain = sum(
        r["status"] == "dead" and r["day"] == 3
        for seed in range(30)
        for r in fight(plain, seed=seed).aftermath
        if r["side"] == "escort"
    )
    assert dead_plain > 0


# --- in battle ----------------------------------------------------------------------------------

DUEL = """
rules: {system: d6, options: {poison_from: %s}}
sides:
  red:
    fighters: [{name: R, d6: {poison: %s}}]
  blue:
    fighters: [{name: B}]
"""


def _blow(tier, poison="3D+1", poison_from="wounded", before="none"):
    from sim.aftermath import patient_from_fighter
    from sim.battle.battle import Battle
    from sim.systems import d6 as d6sys

    b = Battle(parse_scenario(DUEL % (poison_from, poison or "''"), "t.yaml"), seed=0, events=True)
    r, t = (next(f for f in b.all_fighters() if f.name == n) for n in ("R", "B"))
    t.state.condition = d6.Condition.from_label(before)
    d6sys.wound(b, r, t, d6.DamageResult(10, 0, 10, d6.DamageTier(tier)), "x")
    said = [e["result"] for e in b.log if e["action"] == "poisons"]
    return t.state.poison, said, patient_from_fighter(t).d6_poison


@pytest.mark.parametrize(
    ("tier", "poison_from", "poisoned"),
    [
        ("wounded", "wounded", True),
        ("incapacitated", "wounded", True),
        ("mortally_wounded", "wounded", True),
        ("stunned", "wounded", False),
        ("stunned", "stunned", True),
        ("none", "stunned", False),
        ("dead", "wounded", False),
    ],
)
def test_a_poisoned_weapon_poisons_a_wounding_blow(tier, poison_from, poisoned):
    got, said, carried = _blow(tier, poison_from=poison_from)
    assert got == carried == ("3D+1" if poisoned else "")
    assert said == (["poison 3D+1"] if poisoned else [])


def test_no_poison_code_no_poison():
    assert _blow("wounded", poison="") == ("", [], "")
