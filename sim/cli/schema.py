"""JSON Schemas of scenario and experiment files, for editors (``sim schema``).

An editor with the YAML language server reads the schema a file names in its first line,
``# yaml-language-server: $schema=../docs/schema/scenario.schema.json``, and then completes
keys, shows what each means and underlines a key that does not exist or a value of the
wrong kind. The schema is built from the loader's own key lists, the option dataclasses
(their defaults, choices, bounds and meanings) and the rule tables' names, so it follows
the code. It is a help for writing, not the judge: ``sim validate`` (the loader) checks
everything, with located messages; a file the loader takes is valid against the schema
(tests/test_schema.py checks every example file).
"""

from __future__ import annotations

import json
from dataclasses import MISSING, fields
from pathlib import Path
from typing import Any

from sim import files

SCHEMA_URI = "https://json-schema.org/draft/2020-12/schema"
FILES = {"scenario": "scenario.schema.json", "experiment": "experiment.schema.json"}
"""The file ``sim schema --out DIR`` writes for each kind of file."""

Schema = dict[str, Any]


def _whole(low: int | None = None, high: int | None = None, doc: str = "") -> Schema:
    out: Schema = {"type": "integer"}
    if low is not None:
        out["minimum"] = low
    if high is not None:
        out["maximum"] = high
    if doc:
        out["description"] = doc
    return out


def _text(doc: str = "", examples: list[str] | None = None) -> Schema:
    out: Schema = {"type": "string"}
    if doc:
        out["description"] = doc
    if examples:
        out["examples"] = examples
    return out


def _closed(properties: dict[str, Schema], doc: str = "", **more: Any) -> Schema:
    """An object with these keys and no others."""
    out: Schema = {"type": "object", "properties": properties, "additionalProperties": False}
    if doc:
        out["description"] = doc
    out.update(more)
    return out


def options_schema(*classes: Any, doc: str = "") -> Schema:
    """The options of these dataclasses (merged): type, default, choices, bounds, meaning."""
    props: dict[str, Schema] = {}
    for cls in classes:
        for f in fields(cls):
            if f.name == "name" or f.default is MISSING:
                continue
            meta = f.metadata
            s: Schema = {"default": f.default}
            if isinstance(f.default, bool):
                s["type"] = "boolean"
            elif isinstance(f.default, int):
                s["type"] = "integer"
            elif isinstance(f.default, float):
                s["type"] = "number"
            elif isinstance(f.default, str):
                s["type"] = "string"
            if meta.get("choices"):
                s["enum"] = list(meta["choices"])
            if meta.get("low") is not None:
                s["minimum"] = meta["low"]
            if meta.get("high") is not None:
                s["maximum"] = meta["high"]
            tag = f" [{meta['tag']}]" if meta.get("tag") else ""
            s["description"] = f"{meta.get('doc') or f.name}{tag} (default {f.default!r})"
            props.setdefault(f.name, s)
    return _closed(props, doc)


# ---------------------------------------------------------------------------------------
# names from the rule tables (suggested, not enforced: the lookups forgive spelling)


def _names() -> dict[str, list[str]]:
    from sim.rules.deathwish.tables import AMMUNITION_TABLE, ARMOR_TABLE, WEAPON_TABLE
    from sim.rules.wargame.tables import named_tables

    t = named_tables()
    return {
        "weapon": list(t["weapons"].names),
        "armor": list(t["armor"].names),
        "shield": list(t["shields"].names),
        "cover": list(t["cover"].names),
        "distraction": list(t["distraction"].names),
        "hazard": list(t["hazard"].names),
        "dw_weapon": list(WEAPON_TABLE.names),
        "dw_armor": list(ARMOR_TABLE.names),
        "ammo": list(AMMUNITION_TABLE.names),
    }


# ---------------------------------------------------------------------------------------
# scenario files


def _rules() -> Schema:
    from sim.rules import SYSTEMS

    systems = list(SYSTEMS)
    by_system = [
        {
            "if": {"properties": {"system": {"const": name}}},
            "then": {
                "properties": {
                    "options": options_schema(
                        module.Options, doc=f"{name} options (sim options {name})"
                    )
                }
            },
        }
        for name, module in SYSTEMS.items()
    ]
    return {
        "description": "the rule system, or {system: NAME, options: {...}} (default wargame)",
        "oneOf": [
            {"type": "string", "enum": systems},
            {
                **_closed(
                    {
                        "system": {"type": "string", "enum": systems},
                        "options": {"type": "object", "description": "the system's options"},
                    },
                    required=["system"],
                ),
                "allOf": by_system,
            },
        ],
    }


def _factor(names: dict[str, list[str]], roll: bool = True) -> Schema:
    from sim.rules.wargame.base import FACTOR_KINDS

    props = {k: _text(f"a War Game {k} (sim tables factors)", names[k]) for k in FACTOR_KINDS}
    if roll:
        props["roll"] = {"type": "string", "enum": list(FACTOR_KINDS)}
    return _closed(
        props,
        "one key: {cover: NAME}, {distraction: NAME}, {hazard: NAME}",
        minProperties=1,
        maxProperties=1,
    )


def _deathwish_block(names: dict[str, list[str]]) -> Schema:
    location_armor = {"anyOf": [_whole(0, 20), _text(examples=names["dw_armor"])]}
    dw = {
        "weapon": _text("a Deathwish weapon (sim tables deathwish)", names["dw_weapon"]),
        "armor": {
            "description": "points 0..20, an armor name, or a mapping by location",
            "anyOf": [
                *location_armor["anyOf"],
                _closed({k: location_armor for k in ("head", "torso", "vitals", "limbs")}),
            ],
        },
        "skill": _whole(0, 20),
        "traits": _whole(-20, 20),
        "ammo": _text("an ammunition type", names["ammo"]),
    }
    return _closed(dw, "the Deathwish block")


def _d6_block() -> Schema:
    from sim.scenario.checks.fighters import _D6_CODES, MAX_D6_AREA, MAX_D6_RANGE_FT

    d6: dict[str, Schema] = dict.fromkeys(_D6_CODES, _text("a D6 dice code such as 3D or 4D+1"))
    d6["size"] = {
        "description": "a participant of the D6 scale (sim tables d6) or a size value",
        "anyOf": [_text(), _whole(-100, 100)],
    }
    d6["range"] = _whole(0, MAX_D6_RANGE_FT, "a ranged weapon's reach in feet (0: hand to hand)")
    d6["area"] = _whole(0, MAX_D6_AREA, "an area attack: enemies it catches (0: one)")
    return _closed(d6, "the D6 block: dice codes, a size, a range and an area")


def _rolled(gear: str) -> Schema:
    """``{roll: DIE}``: War Game ``gear`` rolled on its table as the fighter joins."""
    from sim.scenario.model import ROLLED_GEAR

    die = ROLLED_GEAR[gear]
    return _closed({"roll": {"const": die}}, f"rolled on the {die} table", required=["roll"])


def _fighter_fields(names: dict[str, list[str]]) -> dict[str, Schema]:
    from sim.scenario.model import START_STATUSES

    armor_names = _text(examples=[*names["armor"], "piecemeal:2"])
    return {
        "role": _text("default fighter"),
        "hit_dice": _whole(1, 100, "War Game HD (default 4)"),
        "armor": {
            "description": "War Game armor names (sim tables armor); piecemeal:N; or {roll: d6}",
            "anyOf": [armor_names, {"type": "array", "items": armor_names}, _rolled("armor")],
        },
        "shield": {
            "description": "small, medium, large (or an alias), an armor value 2..4, or null",
            "anyOf": [_text(examples=names["shield"]), _whole(0, 4), {"type": "null"}],
        },
        "weapon": {
            "description": "a War Game weapon category (sim tables weapons), or {roll: d12}",
            "examples": names["weapon"],
            "anyOf": [_text(examples=names["weapon"]), _rolled("weapon")],
        },
        "dex_modifier": _whole(-10, 10),
        "savvy": {"anyOf": [_whole(10, 99), {"type": "null"}]},
        "inventory_slots": _whole(0, 1000),
        "healing_tools": _whole(0, 100, "War Game: uses of healing tools, each 1 HD back"),
        "mounted": {"type": "boolean"},
        "two_handed": {"type": "boolean"},
        "body": _whole(1, 20),
        "strength": _whole(1, 20),
        "dexterity": _whole(1, 20),
        "athletics": _whole(0, 20),
        "prime": {"type": "boolean"},
        "fights": _whole(0, 1000, "2W2P fight count (gives the tier)"),
        "skills": {
            "type": "object",
            "description": "2W2P skill name to level",
            "additionalProperties": {
                "type": "string",
                "examples": ["unskilled", "competent", "experienced", "specialized"],
            },
        },
        "head_protection": {"type": "boolean"},
        "resolve": _whole(0, 100),
        "front": _text("the 2W2P front (default main)"),
        "deathwish": _deathwish_block(names),
        "d6": _d6_block(),
        "wounds": _whole(0, 100, "wounds taken before the battle"),
        "status": {"type": "string", "enum": list(START_STATUSES)},
    }


def _tactic() -> Schema:
    from sim.scenario.tactics import TACTICS, Tactic

    return {
        "description": "a tactic name or {name: NAME, params: {...}} (sim options tactic)",
        "anyOf": [
            {"type": "string", "enum": list(TACTICS)},
            _closed(
                {
                    "name": {"type": "string", "enum": list(TACTICS)},
                    "params": options_schema(Tactic),
                }
            ),
        ],
    }


def _goal() -> Schema:

    short = {
        "protect": _text("one of the side's own fighters"),
        "destroy": _whole(1, 1_000_000, "toughness"),
        "hold": _whole(1, None, "rounds"),
        "take_and_hold": _whole(1, None, "rounds"),
        "wins": {"type": "boolean"},
    }
    long = {
        "kind": {"type": "string", "enum": ["protect", "destroy", "hold", "take_and_hold"]},
        "target": _text(),
        "toughness": _whole(1, 1_000_000),
        "rounds": _whole(1),
        "wins": {"type": "boolean"},
    }
    return {"anyOf": [_closed(short), _closed(long, required=["kind"])]}


class _Defs(dict[str, Schema]):
    """The ``$defs`` of a schema: each part kept once and referred to by name."""

    def ref(self, name: str, schema: Schema) -> Schema:
        self[name] = schema
        return {"$ref": f"#/$defs/{name}"}


def _sides(defs: _Defs, names: dict[str, list[str]], fields_: dict[str, Schema]) -> Schema:
    """The side schema's properties (fighter entries, tactic, goals); entries kept in defs."""
    entry = defs.ref(
        "fighter_entry",
        _closed(
            {
                "name": _text("the fighter's name (NAME 1 .. NAME N with count)"),
                "template": _text("a key of templates"),
                "count": _whole(1, 100_000),
                **fields_,
            },
            "a fighter entry",
            required=["name"],
        ),
    )
    return {
        "leader": _text("one of the side's fighters"),
        "tactic": defs.ref("tactic", _tactic()),
        "goals": {"type": "array", "items": defs.ref("goal", _goal())},
        "fighters": {"type": "array", "items": entry, "minItems": 1},
    }


def _events(defs: _Defs, names: dict[str, list[str]]) -> Schema:
    event = _closed(
        {
            "round": _whole(1),
            "reinforce": _text("a side"),
            "fighters": {"type": "array", "items": {"$ref": "#/$defs/fighter_entry"}},
            "add_factor": defs.ref("factor", _factor(names)),
            "remove_factor": _factor(names, roll=False),
        },
        required=["round"],
    )
    return {"type": "array", "items": event}


def _aftermath() -> Schema:
    from sim.aftermath.healers import ROLES as HEALER_ROLES
    from sim.options import CampOptions
    from sim.rules import SYSTEMS

    after_options = [m.AftermathOptions for m in SYSTEMS.values() if hasattr(m, "AftermathOptions")]
    healer = _closed(
        {
            "name": _text(),
            "side": _text(),
            "role": {"type": "string", "enum": list(HEALER_ROLES)},
            "skill": _text(examples=["competent", "experienced", "specialized"]),
            "count": _whole(0, 1000),
            "supervisor": _text(),
            "first_aid": _text("a D6 dice code"),
        },
        required=["name", "side", "role"],
    )
    return _closed(
        {
            "days": _whole(1, 3650, "days the camps run (default 7)"),
            "healers": {"type": "array", "items": healer},
            "camp": options_schema(CampOptions, doc="camp options (sim options camp)"),
            "options": options_schema(*after_options, doc="the system's aftermath options"),
        }
    )


def _map(names: dict[str, list[str]]) -> Schema:
    legend_value = {
        "anyOf": [
            {"type": "string", "enum": ["wall", "open"]},
            _closed(
                {
                    "cover": _text(examples=names["cover"]),
                    "hazard": _text(examples=names["hazard"]),
                    "value": {"type": "number", "minimum": 0},
                }
            ),
        ]
    }
    cell = {
        "type": "array",
        "items": {"type": "integer", "minimum": 0},
        "minItems": 2,
        "maxItems": 2,
    }
    return _closed(
        {
            "cell": {
                "description": "a cell's side: 5 ft, 10 yd, or a number of feet",
                "anyOf": [{"type": "string"}, {"type": "number"}],
            },
            "picture": _text("one line per map row; . open, # wall, T trees, ^ cliff, 1-9 zones"),
            "legend": {"type": "object", "additionalProperties": legend_value},
            "at": {"type": "object", "additionalProperties": cell},
        },
        required=["picture"],
    )


def _campaign(props: dict[str, Schema], side_props: dict[str, Schema]) -> Schema:
    from sim.options import CampaignOptions
    from sim.scenario.checks.campaign import _BATTLE_KEYS

    patch = {k: props[k] for k in _BATTLE_KEYS if k != "name"}
    # a battle's sides change the file's key by key: no side or fighters list is required
    patch["sides"] = {
        "type": "object",
        "additionalProperties": _closed(side_props),
        "description": "changes to the sides (the company's fighters are not given again)",
    }
    battle = _closed({"name": _text("a label"), **patch})
    return _closed(
        {
            "side": _text("the company's side"),
            "battles": {"type": "array", "items": battle, "minItems": 1, "maxItems": 100},
            "days_between": _whole(1, 3650),
            "options": options_schema(CampaignOptions, doc="sim options campaign"),
        },
        required=["side", "battles"],
    )


def scenario_schema() -> Schema:
    """The JSON Schema of a scenario file (docs/scenario-format.md)."""
    from sim.options import BattleOptions
    from sim.rules.wargame import Options as WargameOptions

    names = _names()
    fields_ = _fighter_fields(names)
    defs = _Defs()
    side_props = _sides(defs, names, fields_)
    frame = options_schema(WargameOptions, doc="War Game frame options, other systems")
    props: dict[str, Schema] = {
        "name": _text("default: the file's name"),
        "description": _text(),
        "rules": defs.ref("rules", _rules()),
        "frame": defs.ref("frame", frame),
        "battle": defs.ref("battle", options_schema(BattleOptions, doc="the battle's house rules")),
        "max_rounds": _whole(1, 10_000, "default 50"),
        "seed": {"anyOf": [_whole(0), {"type": "null"}]},
        "templates": {
            "type": "object",
            "additionalProperties": defs.ref("template", _closed(fields_, "a template's fields")),
        },
        "factors": {"type": "array", "items": {"$ref": "#/$defs/factor"}},
        "sides": {
            "type": "object",
            "additionalProperties": defs.ref("side", _closed(side_props, required=["fighters"])),
            "minProperties": 2,
            "description": "side name to side",
        },
        "events": _events(defs, names),
        "aftermath": _aftermath(),
        "campaign": {},
        "map": _map(names),
    }
    props["campaign"] = _campaign(props, side_props)
    return {
        "$schema": SCHEMA_URI,
        "$id": "sim-scenario",
        "title": "sim scenario",
        "description": "A sim battle scenario (docs/scenario-format.md); sim validate checks it.",
        **_closed(props, required=["sides"]),
        "$defs": dict(defs),
    }


# ---------------------------------------------------------------------------------------
# experiment files


def experiment_schema() -> Schema:
    """The JSON Schema of an experiment file (docs/experiments.md)."""
    from sim.dataset.records import TABLES
    from sim.experiment.designs import DESIGNS
    from sim.experiment.model import KEYS

    value_range = _closed(
        {"low": {"type": "number"}, "high": {"type": "number"}, "choices": {"type": "array"}}
    )
    props: dict[str, Schema] = {
        "name": _text("default: the file's name"),
        "description": _text(),
        "scenario": _text("the base scenario, relative to this file"),
        "set": {"type": "array", "items": _text("PATH=VALUE"), "description": "fixed overrides"},
        "design": {"type": "string", "enum": list(DESIGNS), "default": "grid"},
        "parameters": {
            "type": "object",
            "description": "PATH to a list of values (grid) or {low, high} / {choices}",
            "additionalProperties": {"anyOf": [{"type": "array"}, value_range]},
        },
        "samples": _whole(1, None, "points drawn (random, lhs, ...)"),
        "points": {"type": "array", "items": {"type": "object"}, "description": "list design"},
        "replicates": _whole(1, None, "runs per point (default 1)"),
        "seed": _whole(0, None, "the master seed"),
        "tables": {"type": "array", "items": {"type": "string", "enum": list(TABLES)}},
        "chunk": _whole(1, None, "runs per Parquet part"),
    }
    extra = [k for k in KEYS if k not in props]
    for k in extra:  # keys a newer design reads: allowed, not yet described
        props[k] = {}
    return {
        "$schema": SCHEMA_URI,
        "$id": "sim-experiment",
        "title": "sim experiment",
        "description": "A sim experiment (docs/experiments.md); sim sweep runs it.",
        **_closed({k: props[k] for k in KEYS}, required=["scenario"]),
    }


def schema(kind: str) -> Schema:
    """The schema of ``kind``: ``scenario`` or ``experiment``."""
    return scenario_schema() if kind == "scenario" else experiment_schema()


def text(kind: str) -> str:
    """The schema of ``kind`` as the JSON text ``sim schema`` writes."""
    return json.dumps(schema(kind), indent=2, default=str) + "\n"


def write(out: str | Path, force: bool = False) -> list[Path]:
    """Write both schemas into the directory ``out`` (created); their paths.

    A file there is replaced only if it is one of sim's schemas (its ``$id`` says so) or
    with ``force``; both are checked before either is written, and again as it is.
    """
    folder = Path(out)
    paths = [folder / name for name in FILES.values()]

    def replace(path: Path) -> bool:
        return force or _ours(path)

    for path in paths:
        if files.is_link(path):
            raise files.link_error(path)
        if path.is_file() and not replace(path):
            raise files.exists_error(path)
    for kind, path in zip(FILES, paths, strict=True):
        files.write_file(path, text(kind).encode("utf-8"), replace=replace)
    return paths


def _ours(path: Path) -> bool:
    """True if the file at ``path`` is a schema sim wrote (``$id`` ``sim-...``)."""
    head = files.read_head(path, 4 * 1024 * 1024)
    try:
        doc = json.loads(head.decode("utf-8")) if head is not None else None
    except (ValueError, UnicodeDecodeError):
        return False
    return isinstance(doc, dict) and doc.get("$id") in ("sim-scenario", "sim-experiment")
