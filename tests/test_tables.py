"""sim tables: every name a scenario may use, read from the rule systems' own tables."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sim.cli.catalogue import TABLE_TOPICS, table_listings
from sim.rules import deathwish, wargame
from sim.rules.d6.difficulty import size_value
from sim.rules.wargame.tables import named_tables
from sim.scenario import load_scenario
from tests.test_cli_run import run

ROOT = Path(__file__).resolve().parents[1]


def listing(topic: str, system: str, title_start: str = ""):
    return next(
        t for t in table_listings(topic) if t.system == system and t.title.startswith(title_start)
    )


def test_shields_print_their_sizes_aliases_and_armor(capsys):
    code, out, err = run(capsys, "tables", "shields")
    assert (code, err) == (0, "")
    assert out == (
        "War Game shields (or an armor value 2..4) [wargame]\n"
        "scenario: fighter shield:\n"
        "spelling: case, spaces, hyphens, underscores and slashes ignored\n"
        "\n"
        "size    aliases              armor\n"
        "------  -------------------  -----\n"
        "small   buckler                  2\n"
        "medium  round, heater            3\n"
        "large   tower, kite, pavise      4\n"
    )


def test_every_listed_name_and_alias_is_one_the_rules_accept():
    weapons = listing("weapons", "wargame")
    for row in weapons.rows:
        for name in [row[1], *filter(None, row[2].split(", "))]:
            assert wargame.weapon(name).name == row[1], name
    for row in listing("armor", "wargame").rows:
        for name in [row[1], *filter(None, row[2].split(", "))]:
            assert wargame.armor_spec(name).value == int(row[3]), name
    for row in listing("shields", "wargame").rows:
        for name in [row[0], *row[1].split(", ")]:
            assert wargame.shield_value(name) == int(row[2])
    for t in table_listings("factors"):
        kind = t.title.split()[3]
        for row in t.rows:
            for name in [row[1], *filter(None, row[2].split(", "))]:
                assert wargame.factor(kind, name).name == row[1]
    for row in listing("deathwish", "deathwish", "Deathwish weapons").rows:
        w = deathwish.find_weapon(row[0])
        assert (str(w.penetration), w.lethality) == (
            row[3],
            None if row[4] == "Strength" else int(row[4]),
        )
    for row in listing("d6", "d6", "D6 scale").rows:
        assert size_value(row[0]) == int(row[1])


def test_the_listing_is_the_rule_data_itself():
    """Every row of the data files, no more, no less (nothing copied by hand)."""
    tables = named_tables()
    assert [r[1] for r in listing("weapons", "wargame").rows] == list(tables["weapons"].names)
    assert len(listing("weapons", "wargame").rows) == 13  # the d12 and plain
    assert [r[1] for r in listing("hazards", "wargame").rows] == list(tables["hazard"].names)
    hazards = {r[1]: r[0] for r in listing("hazards", "wargame").rows}
    assert (hazards["cliff"], hazards["quicksand"], hazards["storm"]) == ("^", "~", "")
    assert [r[0] for r in listing("armor", "deathwish").rows] == list(deathwish.ARMORS)
    ammo = {r[0]: r[1:] for r in listing("deathwish", "deathwish", "Deathwish ammunition").rows}
    assert ammo["hollow-point"] == (
        "-1 (option hollow_point_penetration)",
        "+1 (option hollow_point_lethality)",
    )
    assert tables["armor"].aliases[0] == ("aketon", "arming doublet", "arming_doublet")


def test_every_name_the_example_scenarios_use_is_listed():
    keys = set()
    for t in table_listings():
        for row in t.rows:
            keys.update(wargame_key(c) for c in row if c)
            keys.update(wargame_key(a) for c in row for a in c.split(", "))
    for path in sorted((ROOT / "scenarios").glob("*.yaml")):
        sc = load_scenario(path)
        for side in sc.sides:
            for f in side.fighters:
                assert wargame_key(f.weapon) in keys, (path.name, f.weapon)
                for a in f.armor:
                    assert wargame_key(a.partition(":")[0]) in keys, (path.name, a)


def wargame_key(name: str) -> str:
    return "".join(ch for ch in str(name).lower() if ch.isalnum())


@pytest.mark.parametrize("topic", TABLE_TOPICS)
def test_every_topic_prints_and_has_a_json_form(capsys, topic):
    code, out, _ = run(capsys, "tables", topic, "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert data and all(t["topic"] == topic and t["rows"] for t in data)


def test_all_topics_without_one_and_an_unknown_topic(capsys):
    code, out, _ = run(capsys, "tables")
    assert code == 0
    assert out.count("(environmental factors)") == 3
    assert "D6 damage table" in out and "[deathwish]" in out
    code, out, err = run(capsys, "tables", "swords")
    assert (code, out) == (2, "")
    assert err.startswith("sim tables: error: argument topic: invalid choice: 'swords'")
