"""D6 tiers in battle: the seed's mechanics happen (issue 19), with forced dice where exact."""

from __future__ import annotations

from typing import Any

from sim.battle import Battle
from sim.scenario import parse_scenario


def battle(text: str, seed: int = 1, **kw: Any) -> Battle:
    return Battle(parse_scenario(text, "<test>"), seed=seed, events=True, **kw)


def by_name(b: Battle, name: str):
    return next(f for f in b.all_fighters() if f.name == name)


def events(b: Battle, action: str) -> list[dict[str, Any]]:
    assert b.log is not None
    return [e for e in b.log if e["action"] == action]


CYCLE = """
rules: {system: d6, options: {turn_order: cycle}}
battle: {morale: none}
max_rounds: 3
sides:
  red:
    fighters:
      - {name: slow, d6: {dexterity: 2D, dodge: 5D, armor: 20D}}
      - {name: quick, d6: {dexterity: 4D, dodge: 5D, armor: 20D}}
  blue:
    fighters:
      - {name: mid, d6: {dexterity: 3D, dodge: 5D, armor: 20D}}
      - {name: twin, d6: {dexterity: 2D, dodge: 5D, armor: 20D}}
events:
  - {round: 2, reinforce: blue, fighters: [{name: late, d6: {dexterity: 6D, armor: 20D}}]}
"""


def test_the_turn_cycle_puts_the_quickest_first_and_returns_every_round():
    b = battle(CYCLE)
    b.run()
    actors = [e["actor"] for e in b.log if e["action"] == "attacks"]
    cycles = [e["result"] for e in events(b, "turn cycle")]
    # 4D, 3D, then the two 2D fighters, sides in turn from a side drawn at random
    assert cycles[0] in ("quick, mid, slow, twin", "quick, mid, twin, slow")
    assert cycles[1:] == ["late join"]  # a latecomer joins at the end, whatever its Dexterity
    first = cycles[0].split(", ")
    assert actors == [*first, *first, "late", *first, "late"]


def test_popcorn_is_the_default_and_has_no_cycle():
    b = battle(CYCLE.replace("options: {turn_order: cycle}", "options: {}"))
    b.run()
    assert events(b, "turn cycle") == []
