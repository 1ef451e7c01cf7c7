"""A battle's state keys for the exact method (sim.odds.states): equal but for the round."""

import re
from pathlib import Path

import pytest

import sim.odds.battle as exact_battle
from sim.battle import Battle
from sim.odds.battle import battle_odds
from sim.odds.states import Codec, relative, round_key, rounds_free, start, state_of
from sim.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[2]
DUEL = ROOT / "scenarios/exact/duel_2w2p.yaml"
WARGAME = ROOT / "scenarios/exact/duel_wargame.yaml"
D6 = ROOT / "scenarios/exact/duel_d6.yaml"

# Every line of the battle code that reads the round number or a field holding one (outside
# the records, the page and a map's snapshots): sim.odds.states.relative counts these from
# the round that plays next. A new read fails here: teach relative() about it, then add it.
ROUND_READS = {
    ("sim/frame/core.py", "return self.cover_until.get(f.unique_id, -1) >= self.round"),
    (
        "sim/frame/morale.py",
        'if goal.kind == "hold" and self.round >= goal.rounds and s.in_fight():',
    ),
    ("sim/systems/common.py", "if cover is None and b.heard_round.get(f.unique_id) != b.round:"),
    ("sim/systems/common.py", "b.heard_round[f.unique_id] = b.round"),
    ("sim/systems/common.py", "b.cover_until[f.unique_id] = b.round + b.opts.cover_rounds - 1"),
    ("sim/systems/d6.py", "f.state.sprinted = b.round"),
    ("sim/systems/d6.py", "stuns=d6.stuns_in_effect(f.state.stuns, b.round),"),
    ("sim/systems/d6.py", "sprinting=t.state.sprinted == b.round,"),
    ("sim/systems/d6.py", "target.state.stuns.append(b.round)"),
    ("sim/battle/battle.py", "self.round = 0"),
    ("sim/battle/battle.py", "f.arrived_round = self.round"),
    ("sim/battle/collect.py", "self.steps = self.time = self.round = r"),  # a record's replay
    ("sim/battle/battle.py", "self.round += 1"),
    ("sim/battle/battle.py", "if not self.ended and self.round >= self.max_rounds:"),
    ("sim/battle/battle.py", "if ev.round != self.round:"),
}
_READ = re.compile(
    r"\b(?:b|self|t|f|target)\.(?:round|state\.(?:stuns|sprinted))\b|\.cover_until\b|\.heard_round\b"
)
_NOT_RULES = ("sim/odds/", "sim/page/", "sim/dataset/", "sim/cli/", "sim/search/", "sim/report")
_RECORDS = (
    '"round": self.round',
    "self.snapshots[self.b.round]",
    "self.round, self.scale_switches",
)


_DECLARED = (
    "def ",
    '"""',
    "self.cover_until: ",
    "self.heard_round: ",
    "cover_until: ",
    "heard_round: ",
)


def test_every_read_of_the_round_number_is_known():
    found = set()
    for path in sorted((ROOT / "sim").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if rel.startswith(_NOT_RULES):
            continue
        for line in path.read_text().splitlines():
            code = line.split("#")[0].strip()
            if _READ.search(code) and not code.startswith(_DECLARED):
                if not any(r in code for r in _RECORDS):
                    found.add((rel, code))
    assert found == ROUND_READS


def _later(b, rounds):
    """``b`` as if the same state came ``rounds`` rounds later."""
    b.round += rounds
    b.cover_until = {k: v + rounds for k, v in b.cover_until.items()}
    b.heard_round = {k: v + rounds for k, v in b.heard_round.items()}
    for f in b.roster:
        st = getattr(f, "state", None)
        if hasattr(st, "stuns"):
            st.stuns = [x + rounds for x in st.stuns]
            st.sprinted += rounds


@pytest.mark.parametrize("path", [WARGAME, D6, DUEL], ids=lambda p: p.stem)
def test_a_state_met_rounds_later_has_the_same_key_and_a_changed_one_does_not(path):
    s = load_scenario(path)
    codec = Codec(start(s))
    b = Battle(s, seed=4)
    b.step()
    b.step()
    b.rng = None
    before = round_key(codec, state_of(codec, b), 1)
    _later(b, 5)
    assert round_key(codec, state_of(codec, b), 1) == before
    assert round_key(codec, state_of(codec, b), None) != before  # the round kept in the key
    b.quiet_rounds += 7
    assert round_key(codec, state_of(codec, b), 1) != before


def test_relative_puts_every_field_back():
    s = load_scenario(D6)
    b = Battle(s, seed=2)
    b.step()
    b.cover_until = {b.roster[0].unique_id: b.round + 1}
    b.heard_round = {b.roster[1].unique_id: b.round}
    b.roster[0].state.stuns = [b.round - 1, b.round]
    saved = (b.round, dict(b.cover_until), dict(b.heard_round), list(b.roster[0].state.stuns))
    with relative(b, 1):
        assert b.round == -1 and b.cover_until == {b.roster[0].unique_id: 0}
        assert b.heard_round == {} and b.roster[0].state.stuns == [-1]
    assert (b.round, b.cover_until, b.heard_round, b.roster[0].state.stuns) == saved


def test_a_reinforcement_or_a_hold_goal_keeps_the_round_in_the_key():
    assert rounds_free(load_scenario(DUEL))
    assert not rounds_free(load_scenario(ROOT / "scenarios/ford.yaml"))


@pytest.mark.parametrize(
    "path,sets",
    [
        (DUEL, ["max_rounds=8"]),
        pytest.param(
            WARGAME,
            [
                "sides.red.fighters[0].hit_dice=2",
                "sides.blue.fighters[0].hit_dice=3",
                "max_rounds=4",
            ],
            marks=pytest.mark.slow,  # 5 s
        ),
    ],
    ids=["2w2p", "wargame"],
)
def test_moves_kept_across_rounds_give_the_odds_of_rounds_fought_apart(path, sets, monkeypatch):
    kept = battle_odds(path, sets, guess={"executions": 0})
    monkeypatch.setattr(exact_battle, "rounds_free", lambda s: False)
    apart = battle_odds(path, sets, guess={"executions": 0})
    assert kept.outcomes == apart.outcomes
    assert kept.executions < apart.executions


# Every read of a Deathwish fighter's wound list in the battle code: the system's state key
# (sim.systems.deathwish.Deathwish.state_key) keeps them by their total difficulty alone,
# which is all the to-hit roll reads. A new read fails here: check the key, then add it.
WOUND_READS = {
    "deathwish.wound_difficulty(f.state.wounds),",  # the to-hit roll
    "difficulty = min(deathwish.wound_difficulty(state.wounds), max(0, f.spec.deathwish.skill))",
    'return {"dw_wounds": tuple(level.value for level in f.state.wounds)}',  # a campaign's
    'f.state.wounds = [deathwish.WoundLevel(w) for w in carried["dw_wounds"]]',  # carry-in
    "target.state.wounds.append(effect.level)",  # a new wound
    "return DeathwishState(weapon, thresholds, [deathwish.WoundLevel.SLIGHT] * spec.wounds)",
}


def test_every_read_of_a_deathwish_fighters_wounds_is_known():
    code = (ROOT / "sim/systems/deathwish.py").read_text().splitlines()
    found = {line.split("#")[0].strip() for line in code if "state.wounds" in line}
    found |= {line.strip() for line in code if "DeathwishState(" in line and "wounds" in line}
    assert found == WOUND_READS
    others = {
        p.relative_to(ROOT).as_posix()
        for p in (ROOT / "sim").rglob("*.py")
        if re.search(r"DeathwishState|state\.wounds\b", p.read_text())
    }
    # the others are 2W2P's (its Wounds record, a count of each kind): none reaches into a
    # Deathwish fighter's state
    assert others == {
        "sim/systems/deathwish.py",
        "sim/systems/twowp.py",
        "sim/aftermath/twowp.py",
        "sim/rules/twowp/patients.py",
    }


@pytest.mark.slow  # 6 s
def test_deathwish_wounds_keyed_by_difficulty_give_the_odds_of_wounds_kept_in_full(monkeypatch):
    from sim.systems.deathwish import Deathwish

    path, sets = ROOT / "scenarios/exact/duel_deathwish.yaml", ["max_rounds=3"]
    keyed = battle_odds(path, sets, guess={"executions": 0})
    monkeypatch.setattr(Deathwish, "state_key", lambda self, f, left: None)
    full = battle_odds(path, sets, guess={"executions": 0})
    assert keyed.outcomes == full.outcomes
    assert keyed.states < full.states


# Every read of a fighter's or a side's tallies outside the exact method, the page and the
# datasets: wounds_dealt and hd_lost only by the battle's records, wounds_taken by the records,
# morale (up to the fighter's hit dice) and the weakest-first pick among a side's fighters.
# The state key (sim.odds.states) leaves out the first two and counts wounds_taken up to the
# hit dice of a fighter alone on its side. A new read fails here: check the key, then add it.
TALLY_READS = {
    (
        "sim/frame/core.py",
        "(f.status, f.wg.hit_dice, f.wg.armor_pool, f.wounds_taken, f.wounds_dealt)",
    ),
    ("sim/frame/core.py", '"wounds_dealt": s.wounds_dealt,'),
    ("sim/frame/core.py", '"hd_lost": s.hd_lost,'),
    ("sim/frame/core.py", '"wounds_taken": f.wounds_taken,'),
    ("sim/frame/core.py", '"wounds_dealt": f.wounds_dealt,'),
    ("sim/systems/base.py", "return max(0, f.wg.hit_dice - f.wounds_taken)"),  # morale
    ("sim/scenario/tactics.py", "return (f.wg.hit_dice, -f.wounds_taken, f.unique_id)"),  # pick
}
_TALLY = re.compile(r"\.(?:wounds_taken|wounds_dealt|hd_lost)\b(?!\s*[+-]?=)")


def test_every_read_of_a_tally_is_known():
    found = set()
    for path in sorted((ROOT / "sim").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if rel.startswith(_NOT_RULES) or rel == "sim/battle/collect.py":  # (a record's replay)
            continue
        for line in path.read_text().splitlines():
            code = line.split("#")[0].strip()
            if _TALLY.search(code) and not code.startswith(("def ", "self.wounds_")):
                found.add((rel, code))
    assert found == TALLY_READS


def _full_states(monkeypatch):
    """State keys that keep every tally, index entry and wound in full."""
    import sim.odds.states as states
    from sim.systems.deathwish import Deathwish

    monkeypatch.setattr(Deathwish, "state_key", lambda self, f, left: None)
    monkeypatch.setattr(states, "_alone", lambda b: set())
    monkeypatch.setattr(states, "_FIGHTER_TALLIES", ())
    monkeypatch.setattr(states, "_SIDE_TALLIES", ())
    monkeypatch.setattr(states, "_heap", lambda h: h.__reduce_ex__(5))


@pytest.mark.parametrize(
    "path,sets",
    [  # wounds that kill within the battle and after its end; a fighter alone against three
        pytest.param(
            "scenarios/exact/duel_deathwish.yaml",
            ["max_rounds=4", "rules.options.untreated_serious_rounds=3"]
            + ["rules.options.untreated_critical_rounds=2"],
            marks=pytest.mark.slow,  # 18 s
            id="deathwish",
        ),
        pytest.param("scenarios/duel_of_tiers.yaml", ["max_rounds=3"], id="tiers"),
    ],
)
def test_states_keyed_give_the_odds_of_states_kept_in_full(path, sets, monkeypatch):
    keyed = battle_odds(ROOT / path, sets, guess={"executions": 0})
    _full_states(monkeypatch)
    full = battle_odds(ROOT / path, sets, guess={"executions": 0})
    assert keyed.outcomes == full.outcomes
    assert keyed.states < full.states


D6_ROUND = """
name: d6_round
rules: d6
max_rounds: 1
sides:
  red:
    tactic: {{params: {{extra_attacks: {extra}}}}}
    fighters:
      - {{name: Rolf, d6: {{dodge: 2D, attack: {red}, damage: 1D}}}}
  blue:
    fighters:
{blue}
"""


@pytest.mark.parametrize(
    "blue,red,cut",
    [  # a duel of two attacks a turn; one fighter attacked twice a round by two
        (["Bors"], "2D", True),
        pytest.param(["Bors", "Cole"], "1D", False, marks=pytest.mark.slow),  # 10 s
    ],
    ids=["duel", "two-on-one"],
)
def test_d6_reactions_left_out_once_no_attack_is_to_come_give_the_odds_kept_in_full(
    blue, red, cut, tmp_path, monkeypatch
):
    from sim.systems.d6 import D6

    rows = "\n".join(
        f"      - {{name: {n}, d6: {{dodge: 1D, attack: 2D, damage: 1D}}}}" for n in blue
    )
    path = tmp_path / "d6.yaml"
    path.write_text(D6_ROUND.format(red=red, blue=rows, extra=1 if cut else 0))
    keyed = battle_odds(path, [], guess={"executions": 0})
    monkeypatch.setattr(D6, "this_round", ((), ()))
    full = battle_odds(path, [], guess={"executions": 0})
    assert keyed.outcomes == full.outcomes
    assert keyed.executions < full.executions if cut else keyed.executions <= full.executions


@pytest.mark.parametrize(
    "blue,cut",
    [  # in the second, a reaction rolled is always met again: never drawn with its hit
        (["Bors"], True),
        pytest.param(["Bors", "Cole"], False, marks=pytest.mark.slow),  # 9 s
    ],
    ids=["duel", "two-on-one"],
)
def test_d6_reaction_and_hit_drawn_as_one_give_the_odds_of_each_drawn_in_full(
    blue, cut, tmp_path, monkeypatch
):
    """A reaction no other attack meets is rolled with its hit, keyed by the hit alone."""
    import sim.dice
    import sim.systems.reactions

    rows = "\n".join(
        f"      - {{name: {n}, d6: {{dodge: 1D, attack: 2D, damage: 1D}}}}" for n in blue
    )
    path = tmp_path / "d6.yaml"
    path.write_text(D6_ROUND.format(red="1D", blue=rows, extra=0))
    keyed = battle_odds(path, [], guess={"executions": 0})
    monkeypatch.setattr(
        sim.systems.reactions, "outcome", lambda rng, draw, key=None: sim.dice.outcome(rng, draw)
    )
    full = battle_odds(path, [], guess={"executions": 0})
    assert keyed.outcomes == full.outcomes
    assert keyed.executions < full.executions if cut else keyed.executions == full.executions


def test_a_battle_pickled_by_the_codec_comes_back_equal():
    """Its frozen dataclasses by their fields' values, a heap's count by its next value."""
    import itertools
    import pickle

    from sim.odds.states import _count
    from sim.rules.wargame.combatant import Wound

    s = load_scenario(ROOT / "scenarios/skirmish.yaml")
    codec = Codec(start(s))
    b = Battle(s, seed=3)
    b.step()
    b.rng = None
    blob = state_of(codec, b)
    back = codec.loads(blob)
    assert [f.wg for f in back.roster] == [f.wg for f in b.roster]
    assert [f.spec for f in back.roster] == [f.spec for f in b.roster]
    assert round_key(codec, state_of(codec, back), 1) == round_key(codec, blob, 1)
    assert Wound in codec.table  # a frozen slotted dataclass, by its fields' values
    wound = Wound("lingering", "axe")
    assert pickle.loads(codec.dumps(wound)) == wound
    c = itertools.count(7)
    next(c)
    make, args = _count(c)
    assert next(make(*args)) == 8
    assert _count(itertools.count(3, 2)) == (itertools.count, (3, 2))
