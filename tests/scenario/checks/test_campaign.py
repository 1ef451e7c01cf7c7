"""The campaign key: the company's side and its battles, each checked as a whole scenario."""

import pytest

from tests.scenario.helpers import AFTER, errors

AFTER_BAD = {
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
