"""The --set PATH=VALUE language (sim.scenario.overrides)."""

import pytest

from sim.scenario import (
    ScenarioError,
    TacticSpec,
    apply_override,
    load_scenario,
)
from tests.scenario.helpers import FORD


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
