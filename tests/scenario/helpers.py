"""What the scenario tests share: the example file, a small battle, error and load helpers."""

from pathlib import Path
from textwrap import dedent

import pytest

from sim.scenario import Scenario, ScenarioError, parse_scenario

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "scenarios"
FORD = SCENARIOS / "ford.yaml"

TWO_SIDES = """\
sides:
  red:
    fighters:
      - {name: a}
  blue:
    fighters:
      - {name: b}
"""

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


def errors(text: str, overrides=()) -> list[str]:
    with pytest.raises(ScenarioError) as info:
        parse_scenario(dedent(text), "t.yaml", overrides)
    lines = str(info.value).splitlines()
    assert len(lines) == len(info.value.issues)
    return lines


def load(text: str, overrides=()) -> Scenario:
    return parse_scenario(dedent(text), "t.yaml", overrides)
