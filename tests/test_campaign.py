"""Aftermath and campaigns in runs: scenario keys, fighting, records, sweeps (issue 7)."""

import json
import textwrap
from collections import defaultdict
from pathlib import Path

import pyarrow.dataset as pads
import pytest

from sim.battle.battle import Battle
from sim.cli import main
from sim.experiment import load_experiment
from sim.experiment.runner import sweep
from sim.rules import d6, deathwish, twowp
from sim.run import campaign
from sim.run.campaign import CAMPAIGN_KEYS
from sim.run.core import Fought, fight, run_rows
from sim.scenario import load_scenario, parse_scenario

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = sorted((ROOT / "scenarios").glob("*.yaml"))
CAMPAIGN = ROOT / "scenarios" / "campaign.yaml"

# a small 2W2P campaign: four fighters through three battles, a surgeon in camp
SMALL = """\
name: small
rules: 2w2p
seed: 3
sides:
  company:
    fighters:
      - {name: lead, fights: 8}
      - {name: hand, count: 3, fights: 0}
  foes:
    fighters: [{name: foe, count: 4, fights: 2}]
aftermath:
  days: 5
  healers: [{name: doc, side: company, role: surgeon, skill: experienced}]
campaign:
  side: company
  days_between: 3
  battles:
    - {}
    - {name: second, sides: {foes: {fighters: [{name: foe, count: 5, fights: 2}]}}}
    - {max_rounds: 20}
"""


def cli(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def rows_of(fought, table):
    return fought.tables()[table]


# --------------------------------------------------------------------------- nothing changes
@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenarios_without_aftermath_fight_exactly_as_before(path):
    sc = load_scenario(path)
    if sc.aftermath is not None or sc.campaign is not None:
        pytest.skip("has an aftermath")
    for seed in (1, 2):
        plain = Battle(sc, seed=seed)
        plain.run()
        got = fight(sc, seed)
        assert got.tables() == {"aftermath": [], "campaign": []}
        a = run_rows(Fought(plain), 0, seed)
        b = run_rows(got, 0, seed)
        assert a == b
        assert b["aftermath"] == b["campaign"] == []


def test_plain_json_output_has_no_new_keys(capsys):
    code, out, _ = cli(capsys, "run", ROOT / "scenarios" / "skirmish.yaml", "--format", "json")
    assert code == 0
    assert set(json.loads(out)) == {
        "end_reason",
        "rounds",
        "rules",
        "scale_switches",
        "scenario",
        "seed",
        "sides",
        "winner",
    }


# --------------------------------------------------------------------------- the scenario keys
def test_aftermath_key_loads():
    sc = parse_scenario(SMALL, "t.yaml")
    assert sc.aftermath is not None and sc.aftermath.days == 5
    (doc,) = sc.aftermath.healers
    assert (doc.name, doc.side, doc.role, doc.skill) == ("doc", "company", "surgeon", "experienced")
    assert sc.campaign is not None and sc.campaign.side == "company"
    assert sc.campaign.days_between == 3
    assert sc.campaign.names == ("battle 1", "second", "battle 3")
    first, second, third = sc.campaign.battles
    assert first.sides == sc.sides and first.aftermath is None and first.campaign is None
    assert [f.name for f in second.sides[1].fighters] == [f"foe {i}" for i in range(1, 6)]
    assert second.sides[0] == sc.sides[0] and third.max_rounds == 20


def test_healer_count_expands_and_is_sweepable():
    sc = parse_scenario(
        SMALL, "t.yaml", ["aftermath.healers[0].count=3", "aftermath.healers[0].skill=specialized"]
    )
    assert [(h.name, h.skill) for h in sc.aftermath.healers] == [
        (f"doc {i}", "specialized") for i in (1, 2, 3)
    ]
    none = parse_scenario(SMALL, "t.yaml", ["aftermath.healers[0].count=0"])
    assert none.aftermath.healers == ()


def test_campaign_paths_are_sweepable():
    sc = parse_scenario(
        SMALL, "t.yaml", ["campaign.days_between=9", "campaign.battles[2].max_rounds=7"]
    )
    assert sc.campaign.days_between == 9 and sc.campaign.battles[2].max_rounds == 7


# --------------------------------------------------------------------------- one battle
def test_a_battle_with_an_aftermath_has_rows_for_every_fighter_and_day():
    sc = load_scenario(ROOT / "scenarios" / "shieldwall.yaml", ["aftermath={days: 4}"])
    got = fight(sc, 5)
    rows = rows_of(got, "aftermath")
    fighters = got.battle.all_fighters()
    assert len(rows) == 4 * len(fighters)
    assert {r["battle"] for r in rows} == {1}
    by_row = {f["name"]: f for f in got.battle.fighter_rows()}
    for r in rows:
        assert r["battle_status"] == by_row[r["name"]]["status"]
        assert r["fights"] == by_row[r["name"]]["fights_after"]
        if r["battle_status"] == "dead":
            assert r["status"] == "dead" and not r["wounded"]
    # the battle itself is the plain one: the aftermath only draws after it
    plain = Battle(sc, seed=5)
    plain.run()
    assert run_rows(Fought(plain), 0, 5) == {
        **run_rows(got, 0, 5),
        "aftermath": [],
    }


def test_fighters_with_healing_skills_heal_their_side():
    camp = "  healers: [{name: doc, side: company, role: surgeon, skill: experienced}]\n"
    text = SMALL.replace(camp, "").replace("days: 5", "days: 2")
    skilled = "{name: lead, fights: 8, skills: {surgeon: specialized}}"
    text = text.replace("{name: lead, fights: 8}", skilled)
    sc = parse_scenario(text, "t.yaml")
    treated = set()
    for seed in range(8):
        for r in rows_of(fight(sc, seed), "aftermath"):
            treated.update(r["treated_by"])
    assert treated == {"lead"}


@pytest.mark.parametrize("system", ["2w2p", "deathwish", "d6", "wargame"])
def test_sim_run_prints_the_aftermath(capsys, system):
    path = ROOT / "scenarios" / "skirmish.yaml"
    sets = [f"rules.system={system}", "aftermath={days: 3}"]
    code, out, _ = cli(capsys, "run", path, *(a for s in sets for a in ("--set", s)))
    assert code == 0, out
    assert "Aftermath: 3 days" in out and "died of wounds" in out
    code, out, _ = cli(
        capsys, "run", path, "--format", "json", *(a for s in sets for a in ("--set", s))
    )
    data = json.loads(out)
    assert {r["side"] for r in data["aftermath"]} == {"guards", "bandits"}
    for r in data["aftermath"]:
        assert r["wounded"] == r["died_of_wounds"] + r["recovered"] + r["still_wounded"]


# --------------------------------------------------------------------------- campaigns
def check_campaign(got, system="2w2p"):
    """The invariants of one campaign run."""
    rows = sorted(rows_of(got, "campaign"), key=lambda r: (r["name"], r["battle"]))
    assert all(set(r) == set(CAMPAIGN_KEYS) for r in rows)
    last: dict[str, dict] = {}
    for r in rows:
        prev = last.get(r["name"])
        # fight counts only grow: by one for a battle it fought in (acted) and survived
        survived = r["battle_status"] not in (None, "dead")
        assert r["fights_after"] - r["fights_before"] in (
            (0, 1) if r["fought"] and survived else (0,)
        )
        if system == "2w2p" and r["fought"] and survived:  # everyone on a front fights
            assert r["fights_after"] == r["fights_before"] + 1
        assert r["tier_after"] == twowp.tier_from_fights(r["fights_after"]).name.lower()
        if prev is not None:
            assert r["fights_before"] == prev["fights_after"]
            assert r["status_before"] == prev["status"]
            # the dead stay dead, and never fight again
            if prev["status"] == "dead":
                assert r["status"] == "dead" and not r["fought"]
            assert r["fought"] == prev["fit"]
        if r["status"] == "dead":
            assert r["wounds"] == 0 and not r["fit"]
        last[r["name"]] = r
    company = {r["name"] for r in rows}
    dead_at: dict[tuple, tuple[int, int]] = {}
    for r in rows_of(got, "aftermath"):
        # a company member across the campaign; the others are new in every battle
        key = (r["name"],) if r["name"] in company else (r["battle"], r["side"], r["name"])
        when = (r["battle"], r["day"])
        if key in dead_at and when > dead_at[key]:
            assert r["status"] == "dead", f"{key} came back on {when}"
        if r["status"] == "dead":
            dead_at[key] = min(dead_at.get(key, when), when)
        for w in r["wounds"]:  # nobody recovers a wound that still needs re-setting
            assert not (w["state"] == "recovered" and w["needs_reset"])


def test_small_campaign_invariants_hold_over_many_seeds():
    sc = parse_scenario(SMALL, "t.yaml")
    deaths = veterans = 0
    for seed in range(40):
        got = fight(sc, seed)
        check_campaign(got)
        final = [r for r in rows_of(got, "campaign") if r["battle"] == len(got.battles)]
        deaths += sum(r["status"] == "dead" for r in final)
        veterans += sum(r["tier_after"] == "veteran" for r in final)
    assert deaths > 0 and veterans > 0  # the invariants were tested on real deaths


def test_campaign_carries_wounds_into_the_next_aftermath():
    # a carried 2W2P wound is still in the patient's state in the next battle's aftermath
    # (its rows keep every wound, recovered ones too)
    sc = parse_scenario(SMALL.replace("days_between: 3", "days_between: 1"), "t.yaml")
    seen = 0
    for seed in range(30):
        got = fight(sc, seed)
        carried = {
            (r["name"], r["battle"]): r["wounding"] + r["felling"] for r in rows_of(got, "campaign")
        }
        for r in rows_of(got, "aftermath"):
            if r["side"] != "company" or r["day"] != 0 or r["battle"] == 1:
                continue
            before = carried[r["name"], r["battle"] - 1]
            assert len(r["wounds"]) >= before or r["status"] == "dead"
            seen += before > 0
    assert seen > 0


def test_carry_in_sets_every_systems_state():
    sc = parse_scenario(SMALL, "t.yaml")
    members = {f.name: campaign._Member(f, 4) for f in sc.sides[0].fighters}
    members["hand 1"].carried = {
        "twowp_state": twowp.take_blows(
            twowp.PatientState(), 1, 0, 0, __import__("numpy").random.default_rng(0)
        )
    }
    members["hand 2"].carried = {"dw_wounds": ("moderate", "slight")}
    members["hand 3"].carried = {"d6_condition": "wounded_twice"}
    members["lead"].carried = {"hd": 2}
    fit = list(members.values())
    for system in ("2w2p", "deathwish", "d6", "wargame"):
        base = parse_scenario(SMALL.replace("rules: 2w2p", f"rules: {system}"), "t.yaml")
        battle_sc = campaign._with_company(base.campaign.battles[0], "company", fit)
        battle = Battle(battle_sc, seed=1)
        campaign._carry_in(battle, "company", members)
        f = {x.name: x for x in battle.sides["company"].fighters}
        assert all(x.fights == 4 for x in battle.sides["company"].fighters)
        if system == "2w2p":
            assert (f["hand 1"].state.wounds.wounding, f["hand 1"].state.wounds.felling) == (1, 0)
        elif system == "deathwish":
            assert f["hand 2"].state.wounds == [deathwish.WoundLevel("moderate"), "slight"]
        elif system == "d6":
            assert f["hand 3"].state.condition == d6.Condition.from_label("wounded_twice")
        else:
            assert f["lead"].wg.hit_dice == 2 and f["lead"].hd_start == 4


@pytest.mark.parametrize(
    ("path", "side"),
    [("skirmish.yaml", "guards"), ("firefight.yaml", None), ("beast.yaml", None)],
)
def test_every_system_runs_a_campaign(path, side):
    sc0 = load_scenario(ROOT / "scenarios" / path)
    side = side or sc0.sides[0].name
    sets = [f"campaign={{side: {json.dumps(side)}, days_between: 3, battles: [{{}}, {{}}, {{}}]}}"]
    sc = load_scenario(ROOT / "scenarios" / path, sets)
    for seed in range(6):
        got = fight(sc, seed)
        check_campaign(got, sc.rules)
        rows = rows_of(got, "campaign")
        by = defaultdict(list)
        for r in rows:
            by[r["name"]].append(r)
        for history in by.values():
            if sc.rules == "deathwish":  # Deathwish wounds never heal: they only pile up
                for a, b in zip(history, history[1:], strict=False):
                    if b["status"] != "dead":
                        assert b["dw_wounds"][: len(a["dw_wounds"])] == a["dw_wounds"]
            if sc.rules == "wargame":
                assert all(r["hd"] is not None for r in history)


def test_the_example_campaign_runs_and_prints(capsys):
    code, out, _ = cli(capsys, "run", CAMPAIGN)
    assert code == 0
    assert "Campaign: 5 battles over 42 days" in out
    for label in ("the ford", "the mill", "the barrow", "the bridge", "the hall"):
        assert label in out
    code, out, _ = cli(capsys, "run", CAMPAIGN, "--format", "json")
    data = json.loads(out)
    assert [b["battle"] for b in data["campaign"]] == [1, 2, 3, 4, 5]
    assert data["winner"] == data["campaign"][-1]["winner"]  # the run's outcome: the last battle


def test_a_campaign_is_one_generator_and_replays(tmp_path, capsys):
    sc = load_scenario(CAMPAIGN)
    a, b = fight(sc, 11), fight(sc, 11)
    assert a.tables() == b.tables()
    assert run_rows(a, 0, 11) == run_rows(b, 0, 11)
    assert fight(sc, 12).tables() != a.tables()
    out = tmp_path / "ds"
    code, _, _ = cli(capsys, "run", CAMPAIGN, "--seed", 11, "--out", out)
    assert code == 0
    for table in ("runs", "rounds", "fighters", "aftermath", "campaign"):
        assert (out / table).is_dir(), table
    stored = pads.dataset(out / "campaign", format="parquet").to_table().to_pylist()
    assert [{k: v for k, v in r.items() if k != "run_id"} for r in stored] == a.campaign
    code, out_text, _ = cli(capsys, "replay", out, "--run", 0)
    assert code == 0 and "replays exactly" in out_text and "Campaign:" in out_text


def test_a_company_with_nobody_fit_ends_the_campaign():
    text = SMALL.replace("foe, count: 4, fights: 2", "foe, count: 12, fights: 12")
    text = text.replace("battles:\n", "battles:\n    - {}\n    - {}\n")
    sc = parse_scenario(text, "t.yaml")
    ended = 0
    for seed in range(20):
        got = fight(sc, seed)
        check_campaign(got)
        battles = {r["battle"] for r in rows_of(got, "campaign")}
        assert battles == set(range(1, len(got.battles) + 1))
        ended += len(got.battles) < 5
    assert ended > 0


# --------------------------------------------------------------------------- sweeps
HEALERS = """\
name: tiny_healers
scenario: {scenario}
set: ["campaign.battles=[{{}}, {{}}]"]
design: grid
parameters:
  aftermath.healers[0].skill: [unskilled, specialized]
  aftermath.healers[0].count: [1, 2]
replicates: 3
seed: 5
chunk: 2
tables: [runs, fighters, aftermath, campaign]
"""


def write_exp(folder: Path, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "exp.yaml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def read(out: Path, table: str):
    t = pads.dataset(out / table, format="parquet").to_table()
    keys = {"runs": ["run_id"], "fighters": ["run_id", "name"]}.get(
        table, ["run_id", "battle", "name"] + (["day"] if table == "aftermath" else [])
    )
    return t.sort_by([(k, "ascending") for k in keys])


def test_sweeps_write_the_new_tables_the_same_serially_and_in_processes(tmp_path):
    exp = load_experiment(write_exp(tmp_path, HEALERS.format(scenario=CAMPAIGN)))
    a = sweep(exp, tmp_path / "serial", progress=False)
    b = sweep(exp, tmp_path / "procs", executor="processes", workers=2, progress=False)
    assert a.done == b.done == 12 and a.failed == b.failed == 0
    for table in ("runs", "fighters", "aftermath", "campaign"):
        ta, tb = read(tmp_path / "serial", table), read(tmp_path / "procs", table)
        assert ta.num_rows > 0 and ta.equals(tb), table
    camp = read(tmp_path / "serial", "campaign").to_pandas()
    assert set(camp["battle"]) == {1, 2}
    healers = read(tmp_path / "serial", "aftermath").to_pandas()
    treated = {n for names in healers["treated_by"] for n in names}
    assert {"Sister Ide 1", "Old Mag"} <= treated  # the first of the surgeons suffices


def test_tables_not_asked_for_are_not_written(tmp_path):
    text = HEALERS.format(scenario=CAMPAIGN).replace(
        "tables: [runs, fighters, aftermath, campaign]", "tables: [runs]"
    )
    exp = load_experiment(write_exp(tmp_path, text))
    sweep(exp, tmp_path / "out", progress=False, limit=2)
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [
        ".lock",
        "manifest.json",
        "runs",
    ]


def test_no_rest_for_old_wounds_on_a_later_battles_day():
    # a campaign's wounds are dated on its calendar: on day 5 an old wound (day 0) is due a
    # recovery roll, unless the patient fought that day; a new one (day 5) is not either way
    old = twowp.WoundState(day=0, infection_risk=None)
    new = twowp.WoundState(day=5, infection_risk=None)
    state = twowp.PatientState(wounds=(old, new))
    assert twowp.patient_stakes(state, 5).recovery_wounds == (0,)
    assert twowp.patient_stakes(state, 5, fought=True).recovery_wounds == ()
    assert twowp.patient_stakes(state, 6).recovery_wounds == (0, 1)
