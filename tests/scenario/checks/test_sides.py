"""Sides: their fighters, leaders, tactics and goals."""

import pytest

from tests.scenario.helpers import TWO_SIDES, errors

BAD_CASES = {
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
            "mean 'reserve' or 'pursue'?",
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
}


@pytest.mark.parametrize(("text", "expected"), BAD_CASES.values(), ids=BAD_CASES.keys())
def test_bad_input_is_reported_exactly(text, expected):
    assert errors(text) == expected
