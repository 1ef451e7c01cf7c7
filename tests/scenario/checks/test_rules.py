"""The rules a battle is fought by: rules, frame and battle."""

import pytest

from tests.scenario.helpers import TWO_SIDES, errors

BAD_CASES = {
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
}


@pytest.mark.parametrize(("text", "expected"), BAD_CASES.values(), ids=BAD_CASES.keys())
def test_bad_input_is_reported_exactly(text, expected):
    assert errors(text) == expected
