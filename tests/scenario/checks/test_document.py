"""The whole document: top-level keys, numbers, and problems that do not cascade."""

import pytest

from sim.battle.battle import Battle
from sim.rules.deathwish import WornArmor
from sim.scenario import (
    Event,
    FactorSpec,
    Goal,
    TacticSpec,
)
from tests.scenario.helpers import TWO_SIDES, errors, load

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
