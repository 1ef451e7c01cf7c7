import copy
import pickle
import time
from pathlib import Path
from textwrap import dedent

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sim.scenario
from sim.battle import Battle
from sim.errors import SimError
from sim.rules.deathwish import WornArmor
from sim.scenario import (
    Event,
    FactorSpec,
    FighterSpec,
    Goal,
    Issue,
    Scenario,
    ScenarioError,
    TacticSpec,
    apply_override,
    load_scenario,
    parse_scenario,
    read_yaml,
)

FORD = Path(__file__).resolve().parents[1] / "scenarios" / "ford.yaml"

TWO_SIDES = """\
sides:
  red:
    fighters:
      - {name: a}
  blue:
    fighters:
      - {name: b}
"""


def errors(text: str, overrides=()) -> list[str]:
    with pytest.raises(ScenarioError) as info:
        parse_scenario(dedent(text), "t.yaml", overrides)
    lines = str(info.value).splitlines()
    assert len(lines) == len(info.value.issues)
    return lines


def load(text: str, overrides=()) -> Scenario:
    return parse_scenario(dedent(text), "t.yaml", overrides)


# --------------------------------------------------------------------------- the example
def test_ford_loads_with_everything_in_it():
    sc = load_scenario(FORD)
    assert isinstance(sc, Scenario)
    assert sc.name == "ford" and sc.rules == "wargame" and sc.max_rounds == 30 and sc.seed == 9
    assert sc.description.startswith("Red holds the ford") and not sc.description.endswith("\n")
    assert dict(sc.options) == {"pool": "literal"}
    assert sc.frame == {} and sc.battle == {}
    assert sc.factors == (
        FactorSpec("cover", "trees"),
        FactorSpec("hazard", "storm"),
        FactorSpec("distraction", "sand"),
        FactorSpec("cover", None),  # rolled
    )
    red, blue = sc.sides
    assert red.name == "red" and blue.name == "blue"
    assert [f.name for f in red.fighters] == ["Bran", "Ailis", "guard 1", "guard 2"]
    assert [f.name for f in blue.fighters] == ["Osk", "levy 1", "levy 2", "levy 3", "levy 4"]
    assert red.leader == "Bran" and blue.leader == "Osk"
    assert red.tactic == TacticSpec("defensive")
    assert blue.tactic == TacticSpec("aggressive", {"reserve": 1, "target": "strongest"})
    assert red.goals == (Goal("hold", rounds=5), Goal("protect", target="Ailis"))
    assert blue.goals == ()
    bran, ailis, guard1, _ = red.fighters
    assert (bran.hit_dice, bran.armor, bran.shield, bran.weapon, bran.fights) == (
        5,
        ("chain",),
        "medium",
        "axe",
        12,
    )
    assert (ailis.hit_dice, ailis.role, ailis.weapon) == (4, "priest", "plain")
    assert guard1 == bran.renamed("guard 1")
    osk = blue.fighters[0]
    assert osk.weapon == "maul" and osk.hit_dice == 5  # own field over the template's
    assert blue.fighters[1].armor == ("gambeson",) and blue.fighters[1].weapon == "spear"
    reinforce, fire = sc.events
    assert (reinforce.round, reinforce.kind, reinforce.side) == (3, "reinforce", "blue")
    assert [f.name for f in reinforce.fighters] == ["rider 1", "rider 2"]
    assert all(f.mounted and f.weapon == "lance" and f.hit_dice == 3 for f in reinforce.fighters)
    assert fire == Event(4, "add_factor", factor=FactorSpec("hazard", "fire"))
    assert hash(sc) == hash(pickle.loads(pickle.dumps(sc)))


def test_ford_fights_a_battle():
    sc = load_scenario(str(FORD))
    outcome = Battle(sc, seed=1).run()
    assert outcome.end_reason in (
        "defeat",
        "goal_achieved",
        "goal_failed",
        "mutual_defeat",
        "max_rounds",
    )
    assert outcome.rounds >= 1
    again = Battle(load_scenario(FORD), seed=1).run()
    assert again.to_dict() == outcome.to_dict()


# --------------------------------------------------------------------------- issues
def test_issue_formats():
    assert str(Issue("f.yaml", 3, "sides.red", "bad")) == "f.yaml:3: sides.red: bad"
    assert str(Issue("<--set>", None, "max_rounds", "bad")) == "<--set>: max_rounds: bad"
    assert str(Issue("f.yaml", None, "", "file not found")) == "f.yaml: file not found"
    assert str(Issue("f.yaml", 2, "", "malformed")) == "f.yaml:2: malformed"
    err = ScenarioError([Issue("a", 1, "x", "one"), Issue("a", 2, "y", "two")])
    assert isinstance(err, SimError) and str(err) == "a:1: x: one\na:2: y: two"
    copied = pickle.loads(pickle.dumps(err))
    assert copied.issues == err.issues and str(copied) == str(err)


# --------------------------------------------------------------------------- bad input
BAD_CASES = {
    "unknown top-level key": (
        TWO_SIDES + "max_round: 10\n",
        ["t.yaml:8: max_round: unknown key 'max_round'; did you mean 'max_rounds'?"],
    ),
    "unknown key, nothing close": (
        TWO_SIDES + "zzz: 1\n",
        [
            "t.yaml:8: zzz: unknown key 'zzz'; allowed: name, description, rules, frame, "
            "battle, max_rounds, seed, templates, factors, sides, events, aftermath, campaign, "
            "map"
        ],
    ),
    "string for a number": (
        "max_rounds: three\n" + TWO_SIDES,
        ["t.yaml:1: max_rounds: expected a whole number, got 'three'"],
    ),
    "max_rounds out of range": (
        "max_rounds: 20000\n" + TWO_SIDES,
        ["t.yaml:1: max_rounds: must be 1..10000, got 20000"],
    ),
    "negative seed": ("seed: -1\n" + TWO_SIDES, ["t.yaml:1: seed: must be 0 or more, got -1"]),
    "unknown system": (
        "rules: wargam\n" + TWO_SIDES,
        ["t.yaml:1: rules: unknown rules system 'wargam'; did you mean 'wargame'?"],
    ),
    "unknown rule option": (
        "rules:\n  system: wargame\n  options: {pools: headcount}\n" + TWO_SIDES,
        ["t.yaml:3: rules.options.pools: unknown option 'pools'; did you mean 'pool'?"],
    ),
    "bad rule option value": (
        "rules:\n  system: d6\n  options:\n    called_shot_difficulty: 2X\n" + TWO_SIDES,
        [
            "t.yaml:4: rules.options.called_shot_difficulty: bad dice code '2X': expected ND "
            "or ND+P, e.g. 3D, 3D+2, 4D-1"
        ],
    ),
    "frame under wargame": (
        "frame: {morale_compare: fixed}\n" + TWO_SIDES,
        ["t.yaml:1: frame: War Game frame options go in rules.options under system wargame"],
    ),
    "frame option checked against War Game options": (
        "rules: deathwish\nframe:\n  morale_compare: fix\n" + TWO_SIDES,
        ["t.yaml:3: frame.morale_compare: 'fix' is not one of 'hd', 'fixed'"],
    ),
    "battle option": (
        "battle: {cover_rounds: 0}\n" + TWO_SIDES,
        ["t.yaml:1: battle.cover_rounds: must be 1 or more, got 0"],
    ),
    "unknown factor": (
        TWO_SIDES + "factors:\n  - {cover: tres}\n",
        ["t.yaml:9: factors[0].cover: unknown cover 'tres'; did you mean 'trees' or 'creatures'?"],
    ),
    "unknown factor kind to roll": (
        TWO_SIDES + "factors:\n  - {cover: trees}\n  - {roll: hazzard}\n",
        ["t.yaml:10: factors[1].roll: unknown factor kind 'hazzard'; did you mean 'hazard'?"],
    ),
    "factor not a mapping": (
        TWO_SIDES + "factors: [trees]\n",
        [
            "t.yaml:8: factors[0]: expected a one-key mapping such as {cover: trees} or "
            "{roll: hazard}, got 'trees'"
        ],
    ),
    "fewer than two sides": (
        "sides:\n  red:\n    fighters: [{name: a}]\n",
        ["t.yaml:1: sides: a battle needs at least two sides, got 1"],
    ),
    "no sides at all": (
        "name: x\n",
        ["t.yaml: sides: required: a scenario needs sides (at least two)"],
    ),
    "2w2p has exactly two sides": (
        "rules: 2w2p\n" + TWO_SIDES + "  green:\n    fighters: [{name: c}]\n",
        ["t.yaml:2: sides: 2w2p battles have exactly two sides, got 3"],
    ),
    "empty side": (
        "sides:\n  red:\n    fighters: []\n  blue:\n    fighters: [{name: b}]\n",
        ["t.yaml:3: sides.red.fighters: needs at least one fighter"],
    ),
    "side without fighters": (
        "sides:\n  red:\n    leader: a\n  blue:\n    fighters: [{name: b}]\n",
        ["t.yaml:2: sides.red.fighters: required: a side needs at least one fighter"],
    ),
    "unknown side key": (
        "sides:\n  red:\n    fighters: [{name: a}]\n    leadr: a\n  blue:\n    fighters: "
        "[{name: b}]\n",
        ["t.yaml:4: sides.red.leadr: unknown key 'leadr'; did you mean 'leader'?"],
    ),
    "leader not among the side's fighters": (
        "sides:\n  red:\n    leader: Brann\n    fighters: [{name: Bran}, {name: Cole}]\n"
        "  blue:\n    leader: Bran\n    fighters: [{name: b}]\n",
        [
            "t.yaml:3: sides.red.leader: 'Brann' is not a starting fighter of side red; "
            "did you mean 'Bran'?",
            "t.yaml:6: sides.blue.leader: 'Bran' is not a starting fighter of side blue; "
            "its fighters: 'b'",
        ],
    ),
    "duplicate fighter names across sides and counts": (
        "sides:\n  red:\n    fighters:\n      - {name: guard, count: 2}\n"
        "  blue:\n    fighters:\n      - {name: guard 2}\n",
        [
            "t.yaml:7: sides.blue.fighters[0].name: fighter name 'guard 2' is already used by "
            "sides.red.fighters[0]"
        ],
    ),
    "duplicate name in a reinforcement": (
        TWO_SIDES + "events:\n  - {round: 2, reinforce: blue, fighters: [{name: a}]}\n",
        [
            "t.yaml:9: events[0].fighters[0].name: fighter name 'a' is already used by "
            "sides.red.fighters[0]"
        ],
    ),
    "negative count": (
        "sides:\n  red:\n    fighters:\n      - {name: a, count: -3}\n"
        "  blue:\n    fighters: [{name: b}]\n",
        ["t.yaml:4: sides.red.fighters[0].count: must be 1..100000, got -3"],
    ),
    "absurd count": (
        "sides:\n  red:\n    fighters:\n      - {name: a, count: 1000000000}\n"
        "  blue:\n    fighters: [{name: b}]\n",
        ["t.yaml:4: sides.red.fighters[0].count: must be 1..100000, got 1000000000"],
    ),
    "too many fighters in all": (
        "sides:\n  red:\n    fighters:\n      - {name: a, count: 60000}\n"
        "  blue:\n    fighters:\n      - {name: b, count: 60000}\n",
        [
            "t.yaml:7: sides.blue.fighters[0].count: this entry brings the scenario to 120000 "
            "fighters; the limit is 100000"
        ],
    ),
    "fighter without a name": (
        "sides:\n  red:\n    fighters:\n      - {hit_dice: 3}\n  blue:\n    fighters: [{name: "
        "b}]\n",
        ["t.yaml:4: sides.red.fighters[0].name: required: every fighter entry needs a name"],
    ),
    "fighter field errors": (
        "sides:\n  red:\n    fighters:\n"
        "      - name: a\n"
        "        hit_dice: 0\n"
        "        armor: [chian, 'piecemeal:9', 'piecemeal:x']\n"
        "        shield: huge\n"
        "        weapon: swrod\n"
        "        savvy: 5\n"
        "        mounted: maybe\n"
        "        dexterity: 25\n"
        "        hitdice: 3\n"
        "  blue:\n    fighters: [{name: b}]\n",
        [
            "t.yaml:5: sides.red.fighters[0].hit_dice: must be 1..100, got 0",
            "t.yaml:6: sides.red.fighters[0].armor[0]: unknown armor 'chian'; did you mean "
            "'chain'?",
            "t.yaml:6: sides.red.fighters[0].armor[1]: piecemeal covers 1..4 pieces, got 9",
            "t.yaml:6: sides.red.fighters[0].armor[2]: expected NAME:PIECES such as piecemeal:3, "
            "got 'piecemeal:x'",
            "t.yaml:7: sides.red.fighters[0].shield: unknown shield size 'huge'; known: 'small', "
            "'medium', 'large'",
            "t.yaml:8: sides.red.fighters[0].weapon: unknown weapon category 'swrod'; did you mean "
            "'warbow'?",
            "t.yaml:9: sides.red.fighters[0].savvy: must be 10..99, got 5",
            "t.yaml:10: sides.red.fighters[0].mounted: expected true or false, got 'maybe'",
            "t.yaml:11: sides.red.fighters[0].dexterity: must be 1..20, got 25",
            "t.yaml:12: sides.red.fighters[0].hitdice: unknown key 'hitdice'; did you mean "
            "'hit_dice'?",
        ],
    ),
    "shield value out of range": (
        "sides:\n  red:\n    fighters: [{name: a, shield: 7}]\n  blue:\n    fighters: [{name: "
        "b}]\n",
        [
            "t.yaml:3: sides.red.fighters[0].shield: shield armor must be 2..4 (or 0 for "
            "none), got 7"
        ],
    ),
    "skills, deathwish and d6 blocks": (
        "sides:\n  red:\n    fighters:\n"
        "      - name: a\n"
        "        skills: {sword: expert}\n"
        "        deathwish: {weapon: glok 18, armor: kevlar, skil: 3}\n"
        "        d6: {attack: 4X, size: giant, damage: 200D}\n"
        "  blue:\n    fighters: [{name: b}]\n",
        [
            "t.yaml:5: sides.red.fighters[0].skills.sword: unknown skill level 'expert'; did you "
            "mean 'experienced'?",
            "t.yaml:6: sides.red.fighters[0].deathwish.skil: unknown key 'skil'; did you mean "
            "'skill'?",
            "t.yaml:6: sides.red.fighters[0].deathwish.weapon: unknown weapon 'glok 18'; did you "
            "mean 'Glock 18' or 'Glock 20'?",
            "t.yaml:6: sides.red.fighters[0].deathwish.armor: unknown armor 'kevlar'; known: "
            "'none', 'light vest', 'military vest', 'SWAT vest', 'trauma plates', 'helmet'",
            "t.yaml:7: sides.red.fighters[0].d6.attack: bad dice code '4X': expected ND or ND+P, "
            "e.g. 3D, 3D+2, 4D-1",
            "t.yaml:7: sides.red.fighters[0].d6.size: unknown size 'giant'; did you mean 'Pegiya' "
            "or 'Ralitan'?",
            "t.yaml:7: sides.red.fighters[0].d6.damage: at most 100D, got '200D'",
        ],
    ),
    "deathwish armor by location": (
        "sides:\n  red:\n    fighters:\n"
        "      - name: a\n"
        "        deathwish:\n"
        "          armor:\n"
        "            torso: ligth vest\n"
        "            hed: 2\n"
        "            limb: 1\n"
        "            legs: 1\n"
        "            vitals: 21\n"
        "            head: -1\n"
        "            limbs: 1.5\n"
        "      - {name: b, deathwish: {armor: {head: helmut, limbs: null}}}\n"
        "  blue:\n    fighters: [{name: c}]\n",
        [
            "t.yaml:7: sides.red.fighters[0].deathwish.armor.torso: unknown armor 'ligth vest'; "
            "did you mean 'light vest' or 'military vest' or 'SWAT vest'?",
            "t.yaml:8: sides.red.fighters[0].deathwish.armor.hed: unknown key 'hed'; did you mean "
            "'head'?",
            "t.yaml:9: sides.red.fighters[0].deathwish.armor.limb: unknown key 'limb'; did you "
            "mean 'limbs'?",
            "t.yaml:10: sides.red.fighters[0].deathwish.armor.legs: unknown key 'legs'; allowed: "
            "head, torso, vitals, limbs",
            "t.yaml:11: sides.red.fighters[0].deathwish.armor.vitals: must be 0..20, got 21",
            "t.yaml:12: sides.red.fighters[0].deathwish.armor.head: must be 0..20, got -1",
            "t.yaml:13: sides.red.fighters[0].deathwish.armor.limbs: expected armor points 0..20 "
            "or an armor name, got 1.5",
            "t.yaml:14: sides.red.fighters[1].deathwish.armor.head: unknown armor 'helmut'; did "
            "you mean 'helmet'?",
            "t.yaml:14: sides.red.fighters[1].deathwish.armor.limbs: expected armor points 0..20 "
            "or an armor name, got null",
        ],
    ),
    "deathwish armor as one value": (
        "sides:\n  red:\n    fighters:\n"
        "      - {name: a, deathwish: {armor: [light vest, helmet]}}\n"
        "      - {name: b, deathwish: {armor: 2.5}}\n"
        "      - {name: c, deathwish: {armor: 21}}\n"
        "      - {name: d, deathwish: {armor: helmut}}\n"
        "      - {name: e, deathwish: {armor: true}}\n"
        "  blue:\n    fighters: [{name: f}]\n",
        [
            "t.yaml:4: sides.red.fighters[0].deathwish.armor: expected armor points 0..20, an "
            "armor name or a mapping of location to armor, got a list",
            "t.yaml:5: sides.red.fighters[1].deathwish.armor: expected armor points 0..20, an "
            "armor name or a mapping of location to armor, got 2.5",
            "t.yaml:6: sides.red.fighters[2].deathwish.armor: must be 0..20, got 21",
            "t.yaml:7: sides.red.fighters[3].deathwish.armor: unknown armor 'helmut'; did you "
            "mean 'helmet'?",
            "t.yaml:8: sides.red.fighters[4].deathwish.armor: expected armor points 0..20, an "
            "armor name or a mapping of location to armor, got true",
        ],
    ),
    "trauma tolerance below 1": (
        "sides:\n  red:\n    fighters:\n"
        "      - {name: a, body: 1, strength: 1, deathwish: {traits: -5}}\n"
        "  blue:\n    fighters: [{name: b}]\n",
        ["t.yaml:4: sides.red.fighters[0]: trauma tolerance must be 1 or more, got -4"],
    ),
    "unknown tactic": (
        "sides:\n  red:\n    tactic: agressive\n    fighters: [{name: a}]\n"
        "  blue:\n    fighters: [{name: b}]\n",
        [
            "t.yaml:3: sides.red.tactic: unknown tactic 'agressive'; did you mean 'aggressive' "
            "or 'defensive'?"
        ],
    ),
    "unknown and bad tactic params": (
        "sides:\n  red:\n    tactic:\n      name: defensive\n"
        "      params: {reserv: 1, dodge: often, name: x}\n    fighters: [{name: a}]\n"
        "  blue:\n    fighters: [{name: b}]\n",
        [
            "t.yaml:5: sides.red.tactic.params.reserv: unknown tactic parameter 'reserv'; did you "
            "mean 'reserve'?",
            "t.yaml:5: sides.red.tactic.params.dodge: 'often' is not one of 'never', 'wound', "
            "'out'",
            "t.yaml:5: sides.red.tactic.params.name: the tactic's name is not a parameter; give "
            "it as tactic.name",
        ],
    ),
    "protect target is not one of the side's fighters": (
        "sides:\n  red:\n    goals:\n      - {protect: b}\n    fighters: [{name: a}]\n"
        "  blue:\n    fighters: [{name: b}]\n",
        [
            "t.yaml:4: sides.red.goals[0].protect: 'b' is not a fighter of side red; its "
            "fighters: 'a'"
        ],
    ),
    "goal errors": (
        "max_rounds: 10\n"
        "sides:\n  red:\n    goals:\n"
        "      - {hold: 11}\n"
        "      - {defend: a}\n"
        "      - {kind: destroy, rounds: 3}\n"
        "      - {destroy: 5, wins: sometimes}\n"
        "    fighters: [{name: a}]\n"
        "  blue:\n    fighters: [{name: b}]\n",
        [
            "t.yaml:5: sides.red.goals[0].hold: must be 1..10, got 11",
            "t.yaml:6: sides.red.goals[1].defend: unknown key 'defend'; allowed: protect, "
            "destroy, hold, take_and_hold, wins, kind",
            "t.yaml:7: sides.red.goals[2].rounds: not used by a destroy goal (it takes toughness)",
            "t.yaml:7: sides.red.goals[2].toughness: required: a destroy goal needs toughness",
            "t.yaml:8: sides.red.goals[3].wins: expected true or false, got 'sometimes'",
        ],
    ),
    "templates": (
        "templates:\n  levy: {hit_dice: 300, name: x}\n"
        "sides:\n  red:\n    fighters: [{name: a, template: levi}]\n"
        "  blue:\n    fighters: [{name: b, template: levy}]\n",
        [
            "t.yaml:2: templates.levy.hit_dice: must be 1..100, got 300",
            "t.yaml:2: templates.levy.name: name belongs on a fighter entry, not in a template",
            "t.yaml:5: sides.red.fighters[0].template: unknown template 'levi'; did you mean "
            "'levy'?",
        ],
    ),
    "events": (
        "max_rounds: 10\n" + TWO_SIDES + "events:\n"
        "  - {round: 11, reinforce: bleu, fighters: [{name: c}]}\n"
        "  - {round: 2, add_factor: {hazard: lavaa}}\n"
        "  - {round: 2, remove_factor: {roll: cover}}\n"
        "  - {round: 3}\n"
        "  - {round: 3, add_factor: {cover: trees}, fighters: []}\n",
        [
            "t.yaml:10: events[0].round: must be 1..10, got 11",
            "t.yaml:10: events[0].reinforce: unknown side 'bleu'; did you mean 'blue'?",
            "t.yaml:11: events[1].add_factor.hazard: unknown hazard 'lavaa'; known: "
            "'falling_objects', 'fire', 'spiked_pit', 'cliff', 'storm', 'tangle', 'quicksand', "
            "'acid'",
            "t.yaml:12: events[2].remove_factor.roll: unknown key 'roll'; allowed: cover, "
            "distraction, hazard",
            "t.yaml:13: events[3]: an event takes exactly one of reinforce, add_factor, "
            "remove_factor, got none",
            "t.yaml:14: events[4].fighters: only a reinforce event has fighters",
        ],
    ),
    "no cascade from an entry that makes no fighter": (
        "sides:\n  red:\n    leader: guard 1\n    goals: [{protect: late}]\n    fighters:\n"
        "      - {name: guard, count: zero}\n  blue:\n    fighters: [{name: b}]\n"
        "events:\n  - {round: 0, reinforce: red, fighters: [{name: late}]}\n",
        [
            "t.yaml:6: sides.red.fighters[0].count: expected a whole number, got 'zero'",
            "t.yaml:10: events[0].round: must be 1..50, got 0",
        ],
    ),
    "wrong container types": (
        "sides: [red, blue]\nfactors: {cover: trees}\n",
        [
            "t.yaml:1: sides: expected a mapping of side name to side, got a list",
            "t.yaml:2: factors: expected a list of factors, got a mapping",
        ],
    ),
}


@pytest.mark.parametrize(("text", "expected"), BAD_CASES.values(), ids=BAD_CASES.keys())
def test_bad_input_is_reported_exactly(text, expected):
    assert errors(text) == expected


def test_every_error_in_a_file_is_reported_at_once(tmp_path):
    text = FORD.read_text()
    text = text.replace("max_rounds: 30", "max_rounds: thirty")
    text = text.replace(
        "{name: Bran, template: veteran}", "{name: Bran, template: veteran, weapon: ax}"
    )
    text = text.replace("leader: Osk", "leader: Oks")
    text = text.replace("{hazard: fire}", "{hazard: fir}")
    path = tmp_path / "ford.yaml"
    path.write_text(text)
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    src = str(path)

    def line(snippet):  # 1-based line of a snippet in the file, so ford.yaml may change
        return next(i for i, t in enumerate(text.splitlines(), 1) if snippet in t)

    assert str(info.value).splitlines() == [
        f"{src}:{line('thirty')}: max_rounds: expected a whole number, got 'thirty'",
        f"{src}:{line('weapon: ax}')}: sides.red.fighters[0].weapon: unknown weapon category "
        "'ax'; did you mean 'axe'?",
        f"{src}:{line('Oks')}: sides.blue.leader: 'Oks' is not a starting fighter of side "
        "blue; did you mean 'Osk'?",
        f"{src}:{line('fir}')}: events[1].add_factor.hazard: unknown hazard 'fir'; did you "
        "mean 'fire'?",
    ]


# --------------------------------------------------------------------------- files and YAML
def test_malformed_yaml_is_one_issue_at_its_line():
    assert errors("sides:\n  red: [a, b\n  blue: 3\n") == [
        "t.yaml:3: malformed YAML: while parsing a flow sequence: expected ',' or ']', but got ':'"
    ]
    assert errors("a: b: c\n") == ["t.yaml:1: malformed YAML: mapping values are not allowed here"]
    assert errors("a: 1\n---\nb: 2\n") == [
        "t.yaml:2: malformed YAML: expected a single document in the stream: but found another "
        "document"
    ]


def test_documents_that_are_not_scenarios():
    assert errors("") == ["t.yaml: the file is empty; expected a mapping with at least sides"]
    assert errors("- a\n- b\n") == [
        "t.yaml:1: expected a mapping of keys (name, rules, sides, ...) at the top level, got "
        "a list"
    ]
    assert errors("just text\n") == [
        "t.yaml:1: expected a mapping of keys (name, rules, sides, ...) at the top level, "
        "got 'just text'"
    ]


def test_yaml_tricks_are_refused():
    assert errors("a: !!python/object/apply:os.system [echo hi]\n") == [
        "t.yaml:1: a: unsupported tag !!python/object/apply:os.system"
    ]
    assert errors("a: 1\nb: 2\na: 3\n") == ["t.yaml:3: a: duplicate key (first on line 1)"]
    assert errors("a: &x [*x]\n") == ["t.yaml:1: an alias refers to a node that contains it"]
    assert errors("a: \x00\n") == [
        "t.yaml:1: unacceptable character #x0000 (special characters are not allowed)"
    ]
    deep = "a: " + "[" * 70 + "]" * 70 + "\n"
    assert errors(deep) == ["t.yaml:1: nesting deeper than 64 levels"]
    assert errors("a: " + "[" * 2000 + "]" * 2000 + "\n") == ["t.yaml: nesting is too deep"]
    chain = "x0: &x0 " + "[" * 30 + "]" * 30 + "\n"
    for i in range(1, 5):
        chain += f"x{i}: &x{i} " + "[" * 30 + f"*x{i - 1}" + "]" * 30 + "\n"
    assert errors(chain) == ["t.yaml:3: nesting deeper than 64 levels once aliases are expanded"]


def test_file_not_found(tmp_path):
    missing = tmp_path / "nope.yaml"
    with pytest.raises(ScenarioError) as info:
        load_scenario(missing)
    assert str(info.value) == f"{missing}: file not found"


def test_file_that_is_not_utf8(tmp_path):
    path = tmp_path / "latin.yaml"
    path.write_bytes(b"name: x\ndescription: caf\xe9\n")
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    assert str(info.value) == f"{path}:2: not UTF-8 text (byte 24)"


BILLION_LAUGHS = """\
a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol","lol"]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]
f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e,*e]
g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f,*f]
h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g,*g]
i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h,*h]
j: &j [*i,*i,*i,*i,*i,*i,*i,*i,*i,*i]
"""


def test_alias_bomb_is_refused_quickly(tmp_path):
    path = tmp_path / "bomb.yaml"
    path.write_text(BILLION_LAUGHS)
    start = time.perf_counter()
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    assert time.perf_counter() - start < 0.5
    assert str(info.value) == (
        f"{path}:6: the document holds more than 200000 values once aliases are expanded "
        "(an alias bomb?)"
    )


def test_aliases_and_merge_keys_within_the_limits_work():
    doc, locate = read_yaml("base: &v {hit_dice: 5}\nuse: {<<: *v, name: a}\n")
    assert doc["use"] == {"hit_dice": 5, "name": "a"}
    text = dedent(
        """\
        templates:
          vet: &vet {hit_dice: 5, weapon: axe}
        sides:
          red:
            fighters:
              - {<<: *vet, name: a}
              - {<<: *vet, name: b, weapon: maul}
          blue:
            fighters: [{name: c}]
        """
    )
    sc = parse_scenario(text)
    a, b = sc.sides[0].fighters
    assert (a.hit_dice, a.weapon, b.hit_dice, b.weapon) == (5, "axe", 5, "maul")


def test_big_file_is_refused_before_it_is_parsed(tmp_path, monkeypatch):
    path = tmp_path / "big.yaml"
    with path.open("w") as handle:
        handle.write("description: |\n")
        line = "  " + "x" * 98 + "\n"
        handle.write(line * (6 * 1024 * 1024 // len(line)))

    def no_parsing(*args, **kwargs):
        raise AssertionError("the file was parsed")

    monkeypatch.setattr(yaml, "compose", no_parsing)
    monkeypatch.setattr(Path, "read_text", no_parsing)
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    assert str(info.value) == f"{path}: file is 6.0 MB; the limit is 5 MB"
    with pytest.raises(ScenarioError) as info:
        parse_scenario("x" * (6 * 1024 * 1024), "big.yaml")
    assert str(info.value) == "big.yaml: file is 6.0 MB; the limit is 5 MB"


def test_read_yaml_locates_paths():
    doc, locate = read_yaml("a:\n  b:\n    - x\n    - {c: 1,\n       d: 2}\n", "f.yaml")
    assert doc == {"a": {"b": ["x", {"c": 1, "d": 2}]}}
    assert locate("a") == 1 and locate("a.b") == 2 and locate("a.b[0]") == 3
    assert locate("a.b[1]") == 4 and locate("a.b[1].d") == 5
    assert locate("a.b[1].missing") == 4  # falls back to the nearest parent
    assert locate("zzz") is None
    doc, _ = read_yaml("1: yes\nno: 2\n")
    assert doc == {"1": True, "no": 2}  # keys are taken as written


# --------------------------------------------------------------------------- overrides
def test_overrides_change_the_document_before_checking():
    sc = load_scenario(
        FORD,
        [
            "rules.options.pool=headcount",
            "sides.red.tactic=aggressive",
            "max_rounds=10",
            "sides.red.fighters[0].hit_dice=6",
            "sides.blue.tactic.params={reserve: 2, dodge: never}",
            "battle.cover_rounds=3",
            "seed=",
        ],
    )
    assert sc.options == {"pool": "headcount"} and sc.max_rounds == 10 and sc.seed is None
    red, blue = sc.sides
    assert red.tactic == TacticSpec("aggressive")
    assert red.fighters[0].hit_dice == 6 and red.fighters[2].hit_dice == 5
    assert blue.tactic == TacticSpec("aggressive", {"reserve": 2, "dodge": "never"})
    assert sc.battle == {"cover_rounds": 3}


def test_bad_overrides_are_reported_against_set():
    with pytest.raises(ScenarioError) as info:
        load_scenario(
            FORD,
            [
                "max_rounds",
                "sides.red.fighters[9].hit_dice=6",
                "sides.red.tactic.name=defensive",
                "nothing[0]=1",
                "max_rounds=0",
                "sides.red.fighters[0].weapon=swrod",
                "extra.deep.key=1",
                "rules.options.pool=[1",
            ],
        )
    assert str(info.value).splitlines() == [
        "<--set>: expected PATH=VALUE such as max_rounds=10 or sides.red.tactic=aggressive, "
        "got 'max_rounds'",
        "<--set>: sides.red.fighters[9].hit_dice: index 9 is out of range: sides.red.fighters "
        "has 3 items",
        "<--set>: sides.red.tactic.name: sides.red.tactic is 'defensive', not a mapping",
        "<--set>: nothing[0]: nothing does not exist",
        "<--set>: rules.options.pool: malformed YAML: while parsing a flow sequence: expected "
        "',' or ']', but got '<stream end>'",
        "<--set>: extra: unknown key 'extra'; allowed: name, description, rules, frame, battle, "
        "max_rounds, seed, templates, factors, sides, events, aftermath, campaign, map",
        "<--set>: max_rounds: must be 1..10000, got 0",
        "<--set>: sides.red.fighters[0].weapon: unknown weapon category 'swrod'; did you mean "
        "'warbow'?",
    ]


def test_apply_override_creates_missing_keys():
    doc = {"rules": "wargame", "sides": {}}
    assert apply_override(doc, "frame.morale_compare=fixed") == "frame"
    assert apply_override(doc, "sides.red=[1, 2]") == "sides.red"
    assert apply_override(doc, "sides.red[1]={a: b}") == "sides.red[1]"
    assert doc == {
        "rules": "wargame",
        "sides": {"red": [1, {"a": "b"}]},
        "frame": {"morale_compare": "fixed"},
    }
    # the short form `rules: wargame` becomes a mapping when a field inside it is set
    assert apply_override(doc, "rules.options.pool=headcount") == "rules.options"
    assert doc["rules"] == {"system": "wargame", "options": {"pool": "headcount"}}
    assert apply_override(doc, "rules.system=d6") == "rules.system"
    assert doc["rules"] == {"system": "d6", "options": {"pool": "headcount"}}
    with pytest.raises(ScenarioError, match=r"^<--set>: max_rounds.x: max_rounds is 5"):
        apply_override({"max_rounds": 5}, "max_rounds.x=1")


# --------------------------------------------------------------------------- the other forms
def test_long_forms_counts_and_template_merging():
    sc = load(
        """\
        name: demo
        rules: {system: deathwish, options: {}}
        frame: {morale_compare: fixed}
        battle: {deathwish_location: random}
        templates:
          gunman:
            deathwish: {weapon: glock 18, armor: light vest, skill: 6}
            skills: {shooting: competent}
            armor: chain
        sides:
          red:
            leader: solo
            tactic: {params: {target: strongest}}
            goals:
              - {kind: protect, target: late 2, wins: false}
              - {destroy: 12}
              - {take_and_hold: 3, wins: false}
            fighters:
              - name: solo
                template: gunman
                count: 1
                deathwish: {skill: 8, ammo: hollow-point}
                skills: {healing: Specialized}
                d6: {attack: 3D+4, parry: '', size: Dragon}
          blue:
            fighters: [{name: b, shield: 3, armor: ['piecemeal:2', doublet]}]
        events:
          - {round: 2, reinforce: red, fighters: [{name: late, count: 2}]}
          - {round: 4, add_factor: {roll: distraction}}
          - {round: 5, remove_factor: {cover: trees}}
        """
    )
    assert sc.rules == "deathwish" and sc.frame == {"morale_compare": "fixed"}
    assert sc.battle == {"deathwish_location": "random"} and sc.name == "demo"
    red, blue = sc.sides
    solo = red.fighters[0]
    assert solo.name == "solo" and solo.armor == ("chain",)
    assert solo.deathwish.weapon == "Glock 18"
    assert solo.deathwish.armor == WornArmor(torso=1, vitals=1)  # a vest: torso and vitals
    assert (solo.deathwish.skill, solo.deathwish.ammo) == (8, "hollow-point")
    assert dict(solo.skills) == {"shooting": "competent", "healing": "specialized"}
    assert (solo.d6.attack, solo.d6.parry, solo.d6.size) == ("4D+1", "", "Dragon")
    assert red.tactic == TacticSpec("balanced", {"target": "strongest"})
    assert red.goals == (
        Goal("protect", target="late 2", wins=False),
        Goal("destroy", toughness=12),
        Goal("take_and_hold", rounds=3, wins=False),
    )
    assert blue.fighters[0].armor == ("piecemeal:2", "doublet") and blue.fighters[0].shield == 3
    assert [f.name for f in sc.events[0].fighters] == ["late 1", "late 2"]
    assert sc.events[1].factor == FactorSpec("distraction", None)
    assert sc.events[2] == Event(5, "remove_factor", factor=FactorSpec("cover", "trees"))
    assert Battle(sc, seed=3).run().rounds >= 1


def test_name_defaults_to_the_file_stem(tmp_path):
    path = tmp_path / "skirmish.yaml"
    path.write_text(TWO_SIDES)
    assert load_scenario(path).name == "skirmish"
    assert parse_scenario(TWO_SIDES).name == "battle"


def test_loader_uses_only_safe_yaml():
    package = Path(sim.scenario.__file__).parent
    for path in package.rglob("*.py"):
        source = path.read_text()
        for unsafe in ("yaml.load(", "full_load", "unsafe_load", "yaml.Loader", "FullLoader"):
            assert unsafe not in source, path


# --------------------------------------------------------------------------- fuzzing
FORD_DOC = yaml.safe_load(FORD.read_text())

_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**12), max_value=10**12),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.sampled_from(["wargame", "2w2p", "d6", "deathwish", "Bran", "levy", "chain", "axe", "3D"]),
)
_values = st.recursive(
    _scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=8,
)


def _paths(node, prefix=()):
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, (*prefix, i))


FORD_PATHS = [p for p in _paths(FORD_DOC) if p]


def _mutate(doc, data):
    doc = copy.deepcopy(doc)
    for _ in range(data.draw(st.integers(1, 4))):
        path = data.draw(st.sampled_from(FORD_PATHS))
        parent = doc
        try:
            for step in path[:-1]:
                parent = parent[step]
            last = path[-1]
            parent[last]  # noqa: B018 - the path may be gone after an earlier mutation
        except (KeyError, IndexError, TypeError):
            continue
        action = data.draw(st.sampled_from(["replace", "delete", "rename", "duplicate"]))
        if action == "replace":
            parent[last] = data.draw(_values)
        elif action == "delete":
            del parent[last]
        elif action == "rename" and isinstance(parent, dict):
            parent[data.draw(st.text(max_size=10))] = parent.pop(last)
        elif action == "duplicate" and isinstance(parent, list):
            parent.append(copy.deepcopy(parent[last]))
    return doc


def _check(text, overrides=()):
    try:
        sc = parse_scenario(text, "fuzz.yaml", overrides)
    except ScenarioError as err:
        assert err.issues and all(isinstance(i, Issue) for i in err.issues)
        assert all("\n" not in str(i) for i in err.issues)
    else:
        assert isinstance(sc, Scenario) and len(sc.sides) >= 2
        assert all(isinstance(f, FighterSpec) for s in sc.sides for f in s.fighters)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_mutated_scenarios_load_or_fail_cleanly(data):
    doc = _mutate(FORD_DOC, data)
    text = yaml.safe_dump(doc, allow_unicode=True)
    overrides = data.draw(
        st.lists(
            st.one_of(
                st.text(max_size=20),
                st.builds(
                    lambda p, v: f"{p}={v}",
                    st.sampled_from(
                        [
                            "max_rounds",
                            "sides.red.tactic",
                            "rules.options.pool",
                            "sides.blue.fighters[0].hit_dice",
                            "x[1].y",
                            "seed",
                        ]
                    ),
                    st.text(max_size=10),
                ),
            ),
            max_size=2,
        )
    )
    _check(text, overrides)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_arbitrary_text_loads_or_fails_cleanly(text):
    _check(text)


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_mutated_yaml_text_loads_or_fails_cleanly(data):
    text = FORD.read_text()
    for _ in range(data.draw(st.integers(1, 3))):
        i = data.draw(st.integers(0, len(text)))
        j = data.draw(st.integers(i, min(len(text), i + 20)))
        text = text[:i] + data.draw(st.text(max_size=8)) + text[j:]
    _check(text)


# --------------------------------------------------------------------------- aftermath, campaign
AFTER = """\
rules: 2w2p
sides:
  red:
    fighters:
      - {name: a, skills: {surgeon: competent}}
      - {name: b}
  blue:
    fighters: [{name: c}]
"""


def test_aftermath_and_campaign_load():
    sc = load(
        AFTER
        + """\
aftermath:
  days: 3
  healers:
    - {name: Doc, side: red, role: surgeon, skill: experienced}
    - {name: kid, count: 2, side: red, role: nurse, skill: unskilled, supervisor: Doc}
  camp: {triage: listed}
  options: {rest: light}
campaign:
  side: red
  days_between: 2
  battles: [{}, {name: again, max_rounds: 9}]
  options: {fled: leave}
"""
    )
    a = sc.aftermath
    assert a.days == 3 and dict(a.camp) == {"triage": "listed"}
    assert dict(a.options) == {"rest": "light"}
    assert [(h.name, h.role, h.skill, h.supervisor) for h in a.healers] == [
        ("Doc", "surgeon", "experienced", None),
        ("kid 1", "nurse", "unskilled", "Doc"),
        ("kid 2", "nurse", "unskilled", "Doc"),
    ]
    c = sc.campaign
    assert c.side == "red" and c.days_between == 2 and dict(c.options) == {"fled": "leave"}
    assert c.names == ("battle 1", "again") and [b.max_rounds for b in c.battles] == [50, 9]
    assert all(b.aftermath is None and b.campaign is None for b in c.battles)
    assert pickle.loads(pickle.dumps(sc)) == sc


AFTER_BAD = {
    "aftermath keys and values": (
        """\
aftermath:
  dayz: 3
  days: 0
  camp: {triage: worst, healer_hourz: 3}
  options: {felled_until: never}
""",
        [
            "t.yaml:10: aftermath.dayz: unknown key 'dayz'; did you mean 'days'?",
            "t.yaml:11: aftermath.days: must be 1..3650, got 0",
            "t.yaml:12: aftermath.camp.triage: 'worst' is not one of 'felled_first', 'listed'",
            "t.yaml:12: aftermath.camp.healer_hourz: unknown camp option 'healer_hourz'; did you "
            "mean 'healer_hours'?",
            "t.yaml:13: aftermath.options.felled_until: 'never' is not one of "
            "'felling_recovered', 'all_recovered'",
        ],
    ),
    "healers": (
        """\
aftermath:
  healers:
    - {name: a, side: red, role: surgeon}
    - {name: Mara, side: redd, role: surgeonn, skill: expert}
    - {name: Pip, side: red, role: nurse, first_aid: 3X, count: -1}
    - {side: red, hair: grey}
""",
        [
            "t.yaml:11: aftermath.healers[0].name: 'a' is a fighter; a fighter heals by its "
            "skills (skills: {surgeon: experienced}), a camp healer needs a name of its own",
            "t.yaml:12: aftermath.healers[1].side: unknown side 'redd'; did you mean 'red'?",
            "t.yaml:12: aftermath.healers[1].role: unknown healer role 'surgeonn'; did you mean "
            "'surgeon'?",
            "t.yaml:12: aftermath.healers[1].skill: unknown skill level 'expert'; did you mean "
            "'experienced'?",
            "t.yaml:13: aftermath.healers[2].first_aid: bad dice code '3X': expected ND or ND+P, "
            "e.g. 3D, 3D+2, 4D-1",
            "t.yaml:13: aftermath.healers[2].count: must be 0..1000, got -1",
            "t.yaml:14: aftermath.healers[3].hair: unknown key 'hair'; allowed: name, side, role, "
            "skill, count, supervisor, first_aid",
            "t.yaml:14: aftermath.healers[3].name: required: a healer needs a name",
            "t.yaml:14: aftermath.healers[3].role: required: a healer needs a role",
        ],
    ),
    "supervisors": (
        """\
aftermath:
  healers:
    - {name: Kid, side: red, role: nurse, skill: unskilled, supervisor: A}
    - {name: Kad, side: blue, role: nurse, supervisor: Kid}
""",
        [
            "t.yaml:11: aftermath.healers[0].supervisor: 'A' is not a healer of side red; did "
            "you mean 'a'?",
            "t.yaml:12: aftermath.healers[1].supervisor: 'Kid' is not a healer of side blue; "
            "side blue has no other healer",
        ],
    ),
    "too many students": (
        """\
aftermath:
  healers: [{name: kid, count: 2, side: red, role: nurse, supervisor: a}]
""",
        [
            "t.yaml:10: aftermath.healers: healer a: a competent supervisor takes at most 1 "
            "students, got 2"
        ],
    ),
    "campaign keys": (
        """\
campaign:
  side: redd
  days_between: 0
  battle: []
""",
        [
            "t.yaml:9: campaign.battles: required: a list of battles, e.g. [{}, {}, {}]",
            "t.yaml:10: campaign.side: unknown side 'redd'; did you mean 'red'?",
            "t.yaml:11: campaign.days_between: must be 1..3650, got 0",
            "t.yaml:12: campaign.battle: unknown key 'battle'; did you mean 'battles'?",
        ],
    ),
    "campaign battles": (
        """\
campaign:
  side: red
  battles:
    - {}
    - {max_rounds: three, sides: {blue: {fighters: [{name: c, weapon: ax}]}}}
    - {rules: {system: d6}}
    - {sides: {red: {fighters: [{name: z}]}}}
    - {sieds: 1, name: 3}
    - 5
""",
        [
            "t.yaml:13: campaign.battles[1].max_rounds: expected a whole number, got 'three'",
            "t.yaml:13: campaign.battles[1].sides.blue.fighters[0].weapon: unknown weapon "
            "category 'ax'; did you mean 'axe'?",
            "t.yaml:14: campaign.battles[2].rules: a campaign keeps one rules system (2w2p); "
            "this battle is d6",
            "t.yaml:15: campaign.battles[3].sides.red.fighters: the company's fighters carry on "
            "from battle to battle: give them once, in the scenario's sides",
            "t.yaml:16: campaign.battles[4].sieds: unknown key 'sieds'; did you mean 'sides'?",
            "t.yaml:16: campaign.battles[4].name: expected text, got 3",
            "t.yaml:17: campaign.battles[5]: expected a battle: a mapping of the scenario keys "
            "it changes, such as {max_rounds: 20}, got 5",
        ],
    ),
}


@pytest.mark.parametrize(("tail", "expected"), AFTER_BAD.values(), ids=AFTER_BAD.keys())
def test_bad_aftermath_and_campaign_keys_are_reported_exactly(tail, expected):
    assert errors(AFTER + tail) == expected


def test_bad_aftermath_overrides_are_reported_against_set():
    assert errors(
        AFTER + "aftermath: {healers: [{name: Doc, side: red, role: surgeon}]}\n",
        ["aftermath.healers[0].skill=wizard", "aftermath.days=x"],
    ) == [
        "<--set>: aftermath.days: expected a whole number, got 'x'",
        "<--set>: aftermath.healers[0].skill: unknown skill level 'wizard'; known: 'unskilled', "
        "'competent', 'experienced', 'specialized'",
    ]


def test_war_game_has_no_aftermath_options():
    text = AFTER.replace("rules: 2w2p", "rules: wargame") + "aftermath: {options: {rest: x}}\n"
    assert errors(text) == [
        "t.yaml:9: aftermath.options: the wargame system has no aftermath options (camp "
        "options go in aftermath.camp)"
    ]


# --------------------------------------------------------------------------- starting state
def test_fighters_may_start_wounded_or_out_of_the_fight():
    sc = load(
        """\
        sides:
          a:
            fighters:
              - {name: a0, wounds: 2}
              - {name: a1, status: fled}
          b:
            fighters: [{name: b0}]
        """
    )
    a0, a1 = sc.sides[0].fighters
    assert (a0.wounds, a0.status) == (2, "active")
    assert (a1.wounds, a1.status) == (0, "fled")


def test_a_bad_starting_state_is_a_located_error():
    assert errors(
        """\
        sides:
          a:
            fighters:
              - {name: a0, wounds: -1}
              - {name: a1, status: incapacitatd}
          b:
            fighters: [{name: b0, status: [dead]}]
        """
    ) == [
        "t.yaml:4: sides.a.fighters[0].wounds: must be 0..100, got -1",
        "t.yaml:5: sides.a.fighters[1].status: unknown starting status 'incapacitatd'; "
        "did you mean 'incapacitated'?",
        "t.yaml:7: sides.b.fighters[0].status: expected text, got a list",
    ]


# --------------------------------------------------------------------------- Deathwish armor
def test_old_single_armor_values_still_load_as_body_armor():
    sc = load_scenario(FORD.parent / "firefight.yaml")
    armor = {f.name: f.deathwish.armor for side in sc.sides for f in side.fighters}
    assert armor["Ruiz"] == WornArmor(torso=3, vitals=3)  # trauma plates
    assert armor["guard 1"] == WornArmor(torso=2, vitals=2)  # military vest
    assert armor["Vance"] == WornArmor(torso=1, vitals=1)  # light vest
    assert armor["raider 1"] == WornArmor()  # none given
    sc = load(TWO_SIDES, ["sides.red.fighters[0].deathwish={armor: 2}"])
    assert sc.sides[0].fighters[0].deathwish.armor == WornArmor(torso=2, vitals=2)
    sc = load(TWO_SIDES, ["sides.red.fighters[0].deathwish={armor: 0}"])
    assert sc.sides[0].fighters[0].deathwish.armor == WornArmor()


def test_deathwish_armor_by_location():
    sc = load(
        """\
        rules: deathwish
        templates:
          trooper: {deathwish: {weapon: M16, armor: {torso: military vest, head: 2, limbs: 1}}}
        sides:
          red:
            fighters:
              - {name: a, template: trooper}
              - {name: b, template: trooper, deathwish: {armor: helmet}}
              - {name: c, deathwish: {armor: {torso: trauma plates, vitals: 1}}}
              - {name: d, deathwish: {armor: {head: helmet, limbs: light vest}}}
              - {name: e, deathwish: {armor: {}}}
          blue:
            fighters: [{name: f, deathwish: {armor: {vitals: 0, torso: 2}}}]
        """
    )
    armor = {f.name: f.deathwish.armor for side in sc.sides for f in side.fighters}
    assert armor == {
        "a": WornArmor(head=2, torso=2, vitals=2, limbs=1),  # torso covers the vitals too
        "b": WornArmor(head=2),  # one name: the parts it covers (a helmet: the head)
        "c": WornArmor(torso=3, vitals=1),  # vitals given: their own
        "d": WornArmor(head=2, limbs=1),  # in a mapping a name gives its points there
        "e": WornArmor(),
        "f": WornArmor(torso=2, vitals=0),
    }
    assert sc.sides[0].fighters[1].deathwish.weapon == "M16"  # the rest of the template stays


def test_deathwish_armor_location_by_override():
    sc = load(TWO_SIDES, ["sides.red.fighters[0].deathwish.armor.head=helmet"])
    assert sc.sides[0].fighters[0].deathwish.armor == WornArmor(head=2)
    assert errors(TWO_SIDES, ["sides.red.fighters[0].deathwish.armor.hed=2"]) == [
        "<--set>: sides.red.fighters[0].deathwish.armor.hed: unknown key 'hed'; did you mean "
        "'head'?"
    ]
