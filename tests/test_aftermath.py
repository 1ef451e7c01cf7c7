"""The aftermath stepper (sim/aftermath/): capacities, invariants, exact small cases."""

from fractions import Fraction
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest

from sim.aftermath import (
    ROW_KEYS,
    WOUND_KEYS,
    Aftermath,
    CampOptions,
    Healer,
    Patient,
    day_capacity,
    hd_after_rest,
    healers_from_fighters,
    patient_from_fighter,
    run_aftermath,
    working_level,
)
from sim.dataset import records
from sim.dice import Dist, parse_code
from sim.errors import SimError
from sim.rules import d6, twowp
from sim.rules.twowp import Skill
from tests.conftest import assert_matches

F = Fraction
ROOT = Path(__file__).resolve().parents[1]


def wounded(n, wounding=1, felling=0, **kw):
    return [Patient(f"p{i}", wounding=wounding, felling=felling, **kw) for i in range(n)]


def by_day(rows):
    out = {}
    for r in rows:
        out.setdefault(r["day"], []).append(r)
    return out


# --- capacity -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("skill", "cap"), [("competent", 3), ("experienced", 5), ("specialized", 8)]
)
def test_a_nurse_never_tends_more_than_its_capacity(skill, cap):
    rng = np.random.default_rng(7)
    a = Aftermath(wounded(10), [Healer("n", "nurse", skill)], "2w2p", rng)
    needing = 10
    for _ in range(6):
        rows = a.step()
        tended = [r for r in rows if "n" in r["treated_by"]]
        assert len(tended) <= cap
        assert len(a.assignments.get("n", [])) == len(tended)
        # never idle while someone who needed care this morning is left untended
        assert len(tended) == min(cap, needing)
        needing = sum(
            1
            for r in rows
            if r["status"] != "dead"
            and (r["infections"] or any(w["state"] != "recovered" for w in r["wounds"]))
        )


def test_a_competent_nurse_never_tends_a_fourth_patient():
    for seed in range(20):
        a = Aftermath(wounded(4, felling=1, wounding=0), [Healer("n", "nurse")], "2w2p",
                      np.random.default_rng(seed))  # fmt: skip
        for _ in range(5):
            a.step()
            assert len([t for t in a.assignments.get("n", []) if t[1] == "care"]) <= 3


def test_day_capacity_and_working_level():
    camp = CampOptions(healer_hours=8)
    assert day_capacity("nurse", "care", Skill.COMPETENT, camp) == 3
    assert day_capacity("surgeon", "treat", Skill.COMPETENT, camp) == 16  # 2 an hour, 8 hours
    assert day_capacity("physician", "compound", Skill.SPECIALIZED, camp) == 40
    sup = Healer("s", "nurse", "specialized")
    stud = Healer("t", "nurse", "competent", supervisor="s")
    raw = Healer("u", "nurse", "unskilled", supervisor="s")
    assert working_level(sup, [stud]) is Skill.COMPETENT  # works as its least student
    assert working_level(raw, []) is Skill.COMPETENT  # supervised_unskilled: competent
    assert working_level(raw, [], CampOptions(supervised_unskilled="none")) is Skill.UNSKILLED


def test_surgeon_hours_limit_the_wounds_treated():
    # one competent surgeon, 1 hour a day: 2 wounds bound on day 0, in triage order
    camp = CampOptions(healer_hours=1)
    a = Aftermath(wounded(3, wounding=1), [Healer("s", "surgeon")], "2w2p",
                  np.random.default_rng(0), camp=camp)  # fmt: skip
    rows = a.step()
    assert [r["treated_by"] for r in rows] == [["s"], ["s"], []]
    assert a.assignments["s"] == [("p0", "treat"), ("p1", "treat")]


def test_supervision_adds_a_die():
    # The student (listed first) takes both patients; its supervisor adds one die to the
    # first patient's roll: patient 1 + competent 1 = w 2 -> 2 dice, +1 = 3; the other 2.
    healers = [Healer("stud", "nurse", "competent", supervisor="sup"),
               Healer("sup", "nurse", "experienced")]  # fmt: skip
    a = Aftermath(wounded(2), healers, "2w2p", np.random.default_rng(0))
    rows = a.step()
    assert [r["dice"] for r in rows] == [3, 2]
    assert ("p0", "supervise") in a.assignments["sup"]
    with pytest.raises(SimError, match="at most 1 students"):
        Aftermath([], [Healer("a", "nurse", "competent"),
                       Healer("b", "nurse", supervisor="a"),
                       Healer("c", "nurse", supervisor="a")], "2w2p",
                  np.random.default_rng(0))  # fmt: skip
    with pytest.raises(SimError, match="supervisor"):
        Aftermath([], [Healer("b", "nurse", supervisor="nobody")], "2w2p", np.random.default_rng(0))


# --- exact small cases through the stepper ----------------------------------------------------


def infected_on_day0(healers, n=3000):
    out = []
    for seed in range(n):
        a = Aftermath([Patient("p", wounding=1)], healers, "2w2p", np.random.default_rng(seed))
        out.append(a.step()[0]["infections"])
    return out


def test_infection_alone_and_with_a_healer():
    # alone: 1 die, infected 1/3; a competent nurse: 2 dice, 1/9 (RULES.md 2.2, 2.3)
    assert_matches(infected_on_day0([], 1500), Dist({1: F(1, 3), 0: F(2, 3)}))
    assert_matches(infected_on_day0([Healer("n", "nurse")], 1500), Dist({1: F(1, 9), 0: F(8, 9)}))
    # a surgeon binding the wound is a carer too; a physician who only examines is not
    a = Aftermath([Patient("p", wounding=1)], [Healer("s", "surgeon")], "2w2p",
                  np.random.default_rng(0))  # fmt: skip
    assert a.step()[0]["dice"] == 2
    a = Aftermath([Patient("p", wounding=1)], [Healer("d", "physician")], "2w2p",
                  np.random.default_rng(0))  # fmt: skip
    assert a.step()[0]["dice"] == 1
    assert a.assignments["d"] == [("p", "examine")]


# --- invariants -------------------------------------------------------------------------------


CAMPS = [
    [],
    [Healer("n", "nurse", "competent")],
    [
        Healer("n", "nurse", "specialized"),
        Healer("s", "surgeon", "competent"),
        Healer("d", "physician", "experienced"),
    ],  # fmt: skip
    [Healer("s", "surgeon", "experienced"), Healer("t", "surgeon", "unskilled", supervisor="s")],
]


@pytest.mark.parametrize("camp", range(len(CAMPS)))
def test_invariants_over_many_days(camp):
    patients = [
        Patient("felled", felling=1, wounding=1, status="incapacitated", fights=2),
        Patient("twice", wounding=2, fights=5),
        Patient("once", wounding=1),
        Patient("dead", status="dead", felling=1, fights=1),
        Patient("whole", fights=3),
    ]
    for seed in range(15):
        a = run_aftermath(patients, CAMPS[camp], "2w2p", 12, np.random.default_rng(seed))
        seen_dead: set[str] = set()
        fights = {p.name: p.fights for p in patients}
        for _day, rows in sorted(by_day(a.rows).items()):
            for r in rows:
                assert set(r) == set(ROW_KEYS)
                # the dead never return
                if r["name"] in seen_dead:
                    assert r["status"] == "dead"
                if r["status"] == "dead":
                    seen_dead.add(r["name"])
                # fight counts only grow (the aftermath never lowers them)
                assert r["fights"] >= fights[r["name"]]
                fights[r["name"]] = r["fights"]
                for w in r["wounds"]:
                    assert set(w) == set(WOUND_KEYS)
                    # nobody recovers a wound that still needs re-setting
                    assert not (w["state"] == "recovered" and w["needs_reset"])
                # only those with a healer's care are treated
                assert set(r["treated_by"]) <= {h.name for h in CAMPS[camp]}
        assert "dead" in seen_dead


def test_felling_wound_needs_a_surgeon():
    # Without a surgeon a felling wound is never re-set, so it never recovers: a felled
    # survivor stays incapacitated. With one, it is re-set on day 0 and can recover.
    alone = [run_aftermath([Patient("p", felling=1)], [], "2w2p", 30, np.random.default_rng(s))
             for s in range(30)]  # fmt: skip
    for a in alone:
        last = a.rows[-1]
        assert last["status"] in ("dead", "incapacitated")
        assert last["wounds"][0]["state"] == "needs_reset"
    healed = 0
    for s in range(60):
        a = run_aftermath([Patient("p", felling=1)], [Healer("s", "surgeon"), Healer("n", "nurse")],
                          "2w2p", 30, np.random.default_rng(s))  # fmt: skip
        last = a.rows[-1]
        healed += last["status"] == "active"
        if last["status"] == "active":
            assert last["wounds"][0]["state"] == "recovered"
    assert healed > 0


def test_same_seed_same_days():
    kw = dict(healers=CAMPS[2], system="2w2p", days=8)
    a = run_aftermath(wounded(5, felling=1), rng=np.random.default_rng(4), **kw)
    b = run_aftermath(wounded(5, felling=1), rng=np.random.default_rng(4), **kw)
    assert a.rows == b.rows


def test_campaign_state_carries_over(rng):
    # a second battle on day 10 of the campaign: old wounds keep their days, the new blow is
    # dated day 10, and only it is an infection risk that day
    old = twowp.PatientState(wounds=(twowp.WoundState(infection_risk=None, advances=1),) * 2)
    a = Aftermath([Patient("p", wounding=1, twowp_state=old)], [], "2w2p", rng, start_day=10)
    rows = a.step()
    assert rows[0]["day"] == 0 and len(rows[0]["wounds"]) == 3
    state = a.states["p"]
    assert [w.day for w in state.wounds] == [0, 0, 10]
    assert state.wounds[0].advances == 1  # no recovery roll on the battle's day


# --- rows and records -------------------------------------------------------------------------


def test_rows_fit_the_aftermath_schema(rng):
    rows = []
    for system, patients in [
        ("2w2p", wounded(2, felling=1)),
        ("deathwish", [Patient("p", dw_wounds=("serious", "slight"))]),
        ("d6", [Patient("p", d6_condition="wounded_twice")]),
        ("wargame", [Patient("p", hd=1, hd_max=4, status="incapacitated")]),
    ]:
        a = run_aftermath(patients, CAMPS[2], system, 3, rng)
        rows += [{"run_id": 1, **r} for r in a.rows]
    table = pa.Table.from_pylist(rows, schema=records.schema("aftermath"))
    assert table.num_rows == len(rows)
    # the run adds its battle and the fighter's battle status, wounded and recovered
    # (sim.run.campaign.AFTERMATH_EXTRA) before the core's keys
    extra = ["battle", "battle_status", "wounded", "recovered"]
    assert records.schema("aftermath").names == ["run_id", *extra, *ROW_KEYS]


def test_patients_from_a_real_battle():
    from sim.battle.battle import run_battle
    from sim.scenario import load_scenario

    battle = run_battle(load_scenario(ROOT / "scenarios" / "shieldwall.yaml"), seed=3)
    fighters = list(battle.all_fighters())
    patients = [patient_from_fighter(f) for f in fighters]
    by_row = {r["name"]: r for r in battle.fighter_rows()}
    for f, p in zip(fighters, patients, strict=True):
        assert p.fights == by_row[f.name]["fights_after"] >= f.fights
        assert (p.wounding, p.felling) == (f.state.wounds.wounding, f.state.wounds.felling)
    healers = [Healer("Eda", "surgeon", "competent"), Healer("levy 1", "nurse", "competent")]
    a = run_aftermath(patients, healers, "2w2p", 5, np.random.default_rng(3))
    assert len(a.rows) == 5 * len(patients)


# --- Deathwish --------------------------------------------------------------------------------


def test_deathwish_who_dies_untreated():
    # A competent surgeon treats 2 wounds an hour: 30 minutes a wound. Critical wounds kill
    # after 10 minutes untreated: the first patient is reached at minute 0, the second at 30.
    crit = [Patient(f"c{i}", dw_wounds=("critical",), status="incapacitated") for i in range(2)]
    a = run_aftermath(crit, [Healer("s", "surgeon")], "deathwish", 2, np.random.default_rng(0))
    assert [r["status"] for r in a.rows[:2]] == ["incapacitated", "dead"]
    # Serious wounds kill after 180 minutes: reached at 0, 30, ..., 180 (7 saved), then 210.
    ser = [Patient(f"s{i}", dw_wounds=("serious",)) for i in range(9)]
    a = run_aftermath(ser, [Healer("s", "surgeon")], "deathwish", 1, np.random.default_rng(0))
    assert [r["status"] for r in a.rows] == ["incapacitated"] * 7 + ["dead"] * 2
    # Critical first in triage, whatever the list order; no surgeon: all the bleeding die
    mixed = [Patient("s", dw_wounds=("serious",)), Patient("c", dw_wounds=("critical",)),
             Patient("m", dw_wounds=("moderate",), status="incapacitated")]  # fmt: skip
    a = run_aftermath(mixed, [Healer("x", "surgeon")], "deathwish", 1, np.random.default_rng(0))
    assert a.assignments["x"] == [("c", "treat"), ("s", "treat")]
    assert [r["status"] for r in a.rows] == ["incapacitated", "incapacitated", "active"]
    a = run_aftermath(mixed, [], "deathwish", 3, np.random.default_rng(0))
    assert [r["status"] for r in a.rows[-3:]] == ["dead", "dead", "active"]


# --- D6 tiers ---------------------------------------------------------------------------------


def test_d6_mortally_wounded_need_first_aid():
    mort = [Patient("m", d6_condition="mortally_wounded", status="incapacitated")]
    a = run_aftermath(mort, [], "d6", 1, np.random.default_rng(0))
    assert a.rows[0]["status"] == "dead"
    # a First Aid of 30D always meets difficulty 20: lifted to Incapacitated, then wakes as
    # Wounded twice
    a = run_aftermath(mort, [Healer("s", "surgeon", first_aid="30D")], "d6", 1,
                      np.random.default_rng(0))  # fmt: skip
    assert a.rows[0]["condition"] == "wounded_twice" and a.rows[0]["status"] == "active"


def test_d6_time_healing_through_the_stepper():
    # Wounded, no healer, Strength 1D: nothing until day 3, then W2 2/3, healed 1/3
    out = []
    for seed in range(1200):
        a = run_aftermath([Patient("p", d6_condition="wounded", d6_strength="1D")], [], "d6", 4,
                          np.random.default_rng(seed))  # fmt: skip
        assert [r["condition"] for r in a.rows[:3]] == ["wounded"] * 3
        out.append(d6.Condition.from_label(a.rows[3]["condition"]))
    assert_matches(out, d6.rest_day_dist(d6.Condition.of("wounded"), 3, parse_code("1D")))


# --- War Game ---------------------------------------------------------------------------------


def test_wargame_rest():
    assert hd_after_rest(1, 4, 8) == (2, 0)
    assert hd_after_rest(1, 4, 12) == (2, 4)
    assert hd_after_rest(3, 4, 24) == (4, 0)
    with pytest.raises(SimError):
        hd_after_rest(1, 4, -1)
    a = run_aftermath([Patient("p", hd=1, hd_max=4, status="incapacitated")], [], "wargame", 5,
                      np.random.default_rng(0))  # fmt: skip
    assert [(r["hd"], r["status"]) for r in a.rows] == [
        (1, "incapacitated"), (2, "active"), (3, "active"), (4, "active"), (4, "active"),
    ]  # fmt: skip
    a = run_aftermath([Patient("p", hd=1, hd_max=4)], [], "wargame", 3, np.random.default_rng(0),
                      camp=CampOptions(rest_hours_per_day=12))  # fmt: skip
    assert [r["hd"] for r in a.rows] == [1, 2, 4]


def test_bad_input():
    with pytest.raises(SimError, match="did you mean"):
        Aftermath([], [], "2wp2", np.random.default_rng(0))
    with pytest.raises(SimError, match="did you mean 'nurse'"):
        Healer("x", "nurze")
    with pytest.raises(SimError):
        Healer("x", "nurse", "expert")
    with pytest.raises(SimError, match="unique"):
        Aftermath([Patient("a"), Patient("a")], [], "2w2p", np.random.default_rng(0))
    assert twowp.ROLES == ("nurse", "surgeon", "physician")


# --- triage and physicians --------------------------------------------------------------------


def infected_state(day, known):
    w = twowp.WoundState(infection_risk=None, infected_day=day, infection_known=known)
    return twowp.PatientState(wounds=(w,))


def test_physicians_treat_known_infections():
    # Campaign day 2. A known infection: the physician compounds for it, a carer: w = 2, 2 dice.
    p = [Patient("p", twowp_state=infected_state(0, True))]
    a = Aftermath(p, [Healer("d", "physician")], "2w2p", np.random.default_rng(0), start_day=2)
    assert a.step()[0]["dice"] == 2 and a.assignments["d"] == [("p", "compound")]
    # Infection set in on day 1, not yet known: a competent physician spots it two days
    # after (day 3), so on day 2 it only examines: 1 die.
    p = [Patient("p", twowp_state=infected_state(1, False))]
    a = Aftermath(p, [Healer("d", "physician")], "2w2p", np.random.default_rng(0), start_day=2)
    assert a.step()[0]["dice"] == 1 and a.assignments["d"] == [("p", "examine")]
    # an experienced one spots it the day after (day 2), then compounds: w = 1 + 2 = 3, 2 dice
    a = Aftermath(p, [Healer("d", "physician", "experienced")], "2w2p", np.random.default_rng(0),
                  start_day=2)  # fmt: skip
    row = a.step()[0]
    assert row["dice"] == 2 and row["infections_known"] in (0, 1)
    assert a.assignments["d"] == [("p", "examine"), ("p", "compound")]


def test_default_triage_felled_then_infected_then_most_wounds():
    rng = np.random.default_rng(0)
    old = twowp.WoundState(infection_risk=None)
    patients = [
        Patient("one", twowp_state=twowp.PatientState(wounds=(old,))),
        Patient("three", twowp_state=twowp.PatientState(wounds=(old,) * 3)),
        Patient("infected", twowp_state=infected_state(0, True)),
        Patient("felled", felling=1),
    ]
    b = Aftermath(patients, [], "2w2p", rng, start_day=5)
    b.states["felled"] = twowp.take_blows(b.states["felled"], 0, 1, 5, rng)  # as on day 0
    assert [p.name for p in b.triage(b.patients)] == ["felled", "infected", "three", "one"]
    listed = Aftermath(patients, [], "2w2p", rng, camp=CampOptions(triage="listed"))
    assert [p.name for p in listed.triage(listed.patients)] == [
        "one",
        "three",
        "infected",
        "felled",
    ]


def test_healers_and_survivors_from_fighters():
    from types import SimpleNamespace as NS

    def fighter(name, **skills):
        return NS(name=name, side="a", spec=NS(skills=skills))

    fs = [
        fighter("doc", surgeon="experienced", nurse="specialized", swords="veteran"),
        fighter("tie", physician="competent", nurse="competent"),
        fighter("plain", swords="competent"),
        fighter("kid", nurse="unskilled"),
    ]
    hs = healers_from_fighters(fs, {"kid": "doc"})
    assert [(h.name, h.role, h.skill, h.supervisor) for h in hs] == [
        ("doc", "nurse", "specialized", None),
        ("tie", "physician", "competent", None),
        ("kid", "nurse", "unskilled", "doc"),
    ]
    a = run_aftermath([Patient("p", wounding=2, fights=4)], [], "2w2p", 1, np.random.default_rng(2))
    carried = a.survivor("p")
    assert carried["fights"] == 4 and carried["twowp_state"] is a.states["p"]
    assert (carried["wounding"], carried["felling"]) == a.states["p"].carried


def test_stepper_matches_the_exact_patient_days():
    # A felled fighter alone for days 0 and 1 (1 die a day): the stepper agrees with
    # twowp.patient_days_dist, which gives death by day 1 with 7/9 (worked in
    # tests/rules/test_twowp_aftermath.py).
    start = twowp.take_blows(twowp.PatientState(), 0, 1, 0, np.random.default_rng(0))
    exact = twowp.patient_days_dist(start, 0, [1, 1]).map(lambda s: s.dead)
    assert exact == Dist({True: F(7, 9), False: F(2, 9)})
    samples = []
    for seed in range(1500):
        a = run_aftermath([Patient("p", felling=1)], [], "2w2p", 2, np.random.default_rng(seed))
        samples.append(a.rows[-1]["status"] == "dead")
    assert_matches(samples, exact)


def test_camp_options_checked():
    from sim.rules.common import build_options, describe_options

    assert all(o["tag"] in ("I", "H") and o["doc"] for o in describe_options(CampOptions))
    import sim.aftermath as am

    for o in describe_options(CampOptions):
        assert f"``{o['name']}``" in am.__doc__
    with pytest.raises(SimError, match="camp.first_aid_competent"):
        CampOptions(first_aid_competent="lots")
    with pytest.raises(SimError, match="did you mean 'triage'"):
        build_options(CampOptions, {"triag": "listed"})
