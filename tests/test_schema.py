"""sim schema: the JSON Schemas of scenario and experiment files, for editors."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
import yaml

from sim.cli import schema
from sim.experiment import KEYS as EXPERIMENT_KEYS
from sim.scenario.checks.aftermath import _AFTERMATH_KEYS, _HEALER_KEYS
from sim.scenario.checks.campaign import _BATTLE_KEYS, _CAMPAIGN_KEYS
from sim.scenario.checks.document import _TOP_KEYS
from sim.scenario.checks.fighters import _D6_KEYS, _DW_KEYS, _ENTRY_KEYS
from sim.scenario.checks.map import _MAP_KEYS
from sim.scenario.checks.sides import _GOAL_KEYS, _SIDE_KEYS
from tests.test_cli_run import run

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = [
    *(("scenario", p) for p in sorted((ROOT / "scenarios").glob("*.yaml"))),
    *(("experiment", p) for p in sorted((ROOT / "experiments").rglob("*.yaml"))),
]


def validator(kind: str) -> jsonschema.Draft202012Validator:
    s = schema.schema(kind)
    jsonschema.Draft202012Validator.check_schema(s)
    return jsonschema.Draft202012Validator(s)


@pytest.mark.parametrize(("kind", "path"), EXAMPLES, ids=lambda x: getattr(x, "stem", x))
def test_every_example_names_its_schema_and_is_valid_against_it(kind, path):
    text = path.read_text(encoding="utf-8")
    up = "../" * len(path.parent.relative_to(ROOT).parts)  # experiments/history/: ../../
    modeline = f"# yaml-language-server: $schema={up}docs/schema/{schema.FILES[kind]}"
    assert text.splitlines()[0] == modeline
    assert (path.parent / modeline.partition("=")[2]).is_file()
    errors = [
        f"{list(e.absolute_path)}: {e.message}"
        for e in validator(kind).iter_errors(yaml.safe_load(text))
    ]
    assert errors == []


def test_the_committed_schemas_are_what_sim_schema_writes(capsys, tmp_path):
    code, out, _ = run(capsys, "schema", "--out", tmp_path)
    assert code == 0
    assert out.splitlines() == [f"wrote {tmp_path / name}" for name in schema.FILES.values()]
    for name in schema.FILES.values():
        committed = (ROOT / "docs/schema" / name).read_text(encoding="utf-8")
        assert (tmp_path / name).read_text(encoding="utf-8") == committed, (
            f"docs/schema/{name} is stale: sim schema --out docs/schema"
        )
    code, out, _ = run(capsys, "schema", "experiment")
    assert json.loads(out)["title"] == "sim experiment"


def test_the_schema_knows_the_keys_the_loader_knows():
    s = schema.scenario_schema()
    defs = s["$defs"]
    assert tuple(s["properties"]) == _TOP_KEYS
    assert tuple(defs["side"]["properties"]) == _SIDE_KEYS
    assert set(defs["fighter_entry"]["properties"]) == {
        *_ENTRY_KEYS,
        *defs["template"]["properties"],
    }
    fighter = defs["template"]["properties"]
    assert tuple(fighter["deathwish"]["properties"]) == _DW_KEYS
    assert tuple(fighter["d6"]["properties"]) == _D6_KEYS
    assert tuple(defs["goal"]["anyOf"][1]["properties"]) == _GOAL_KEYS
    assert tuple(s["properties"]["aftermath"]["properties"]) == _AFTERMATH_KEYS
    healer = s["properties"]["aftermath"]["properties"]["healers"]["items"]
    assert tuple(healer["properties"]) == _HEALER_KEYS
    campaign = s["properties"]["campaign"]
    assert tuple(campaign["properties"]) == _CAMPAIGN_KEYS
    assert tuple(campaign["properties"]["battles"]["items"]["properties"]) == _BATTLE_KEYS
    assert tuple(s["properties"]["map"]["properties"]) == _MAP_KEYS
    from sim.search.designs import KINDS

    search = [k for kind in KINDS.values() for k in ("budget", *kind.keys)]
    keys = tuple(dict.fromkeys([*EXPERIMENT_KEYS, *search]))
    assert tuple(schema.experiment_schema()["properties"]) == keys
    undescribed = [k for k, v in schema.experiment_schema()["properties"].items() if not v]
    assert undescribed == []


def test_the_schema_knows_each_search_and_what_it_needs():
    from sim.search.designs import KINDS

    v = validator("experiment")
    design = schema.experiment_schema()["properties"]["design"]
    assert set(KINDS) <= set(design["enum"])
    examples = {
        p.stem: yaml.safe_load(p.read_text()) for p in (ROOT / "experiments").rglob("*.yaml")
    }
    for name, key in [
        ("ambush_balance", "target"),
        ("ambush_upgrade", "objective"),
        ("ambush_calibration", "observed"),
    ]:
        doc = examples[name]
        assert not list(v.iter_errors(doc))
        del doc[key]
        assert [e.message for e in v.iter_errors(doc)] == [f"'{key}' is a required property"]
    calibration = examples["ambush_calibration"]
    calibration.update(observed="rows.csv", levels=1, method="abc")
    paths = sorted(".".join(map(str, e.absolute_path)) for e in v.iter_errors(calibration))
    assert paths == ["levels", "method"]


def test_every_fighter_field_the_loader_checks_is_in_the_schema():
    from sim.scenario.checks.document import Checker

    checks = Checker.field_checks(Checker.__new__(Checker))
    assert set(schema.scenario_schema()["$defs"]["template"]["properties"]) == set(checks)


def test_the_schema_underlines_mistakes_and_offers_names():
    v = validator("scenario")
    good = yaml.safe_load((ROOT / "scenarios/skirmish.yaml").read_text())
    assert not list(v.iter_errors(good))
    side = next(iter(good["sides"].values()))
    side["fighters"][0]["weapn"] = "axe"  # a misspelt key
    good["rules"] = {"system": "wargame", "options": {"damage": "hd_summ"}}  # a bad choice
    good["max_rounds"] = 0
    problems = sorted(".".join(map(str, e.absolute_path)) for e in v.iter_errors(good))
    assert problems == ["max_rounds", "rules", "sides.guards.fighters.0"]
    s = schema.scenario_schema()
    weapon = s["$defs"]["template"]["properties"]["weapon"]
    assert (
        weapon["examples"][:3] == ["axe", "bastard_sword", "dagger"]
        and "plain" in weapon["examples"]
    )
    by_system = s["$defs"]["rules"]["oneOf"][1]["allOf"]
    d6 = next(x for x in by_system if x["if"]["properties"]["system"]["const"] == "d6")
    assert "default" in next(iter(d6["then"]["properties"]["options"]["properties"].values()))
