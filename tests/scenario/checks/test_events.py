"""Factors in play and scripted events."""

import pytest

from tests.scenario.helpers import TWO_SIDES, errors

BAD_CASES = {
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
    "duplicate name in a reinforcement": (
        TWO_SIDES + "events:\n  - {round: 2, reinforce: blue, fighters: [{name: a}]}\n",
        [
            "t.yaml:9: events[0].fighters[0].name: fighter name 'a' is already used by "
            "sides.red.fighters[0]"
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
}


@pytest.mark.parametrize(("text", "expected"), BAD_CASES.values(), ids=BAD_CASES.keys())
def test_bad_input_is_reported_exactly(text, expected):
    assert errors(text) == expected
