"""The JSON Schema of experiment files: sweeps' keys and the searches' (``sim schema``)."""

from __future__ import annotations

from sim.cli.schema_parts import SCHEMA_URI, Schema, _closed, _text, _whole


def experiment_schema() -> Schema:
    """The JSON Schema of an experiment file (docs/experiments.md, docs/search.md)."""
    from sim.dataset.records import TABLES
    from sim.experiment.designs import DESIGNS
    from sim.experiment.model import KEYS, SEEDS
    from sim.search.designs import KINDS

    choices = {"anyOf": [{"type": "array"}, {"type": "object"}]}
    value_range = _closed(
        {"low": {"type": "number"}, "high": {"type": "number"}, "choices": choices}
    )
    props: dict[str, Schema] = {
        "name": _text("default: the file's name"),
        "description": _text(),
        "scenario": _text("the base scenario, relative to this file"),
        "set": {"type": "array", "items": _text("PATH=VALUE"), "description": "fixed overrides"},
        "design": {"type": "string", "enum": [*DESIGNS, *KINDS], "default": "grid"},
        "parameters": {
            "type": "object",
            "description": "PATH to a list of values (grid) or {low, high} / {choices}",
            "additionalProperties": {"anyOf": [{"type": "array"}, value_range]},
        },
        "samples": _whole(1, None, "points drawn (random, lhs, ...)"),
        "points": {"type": "array", "items": {"type": "object"}, "description": "list design"},
        "replicates": _whole(
            1,
            None,
            "runs per point (default 1); optimize: battles per trial; worth: battles at each "
            "composition after the start (default 40)",
        ),
        "seed": _whole(0, None, "the master seed"),
        "tables": {"type": "array", "items": {"type": "string", "enum": list(TABLES)}},
        "chunk": _whole(1, None, "runs per Parquet part"),
        "seeds": {
            "type": "string",
            "enum": list(SEEDS),
            "default": SEEDS[0],
            "description": "shared: replicate r meets the same dice at every point (paired)",
        },
        "second_order": {"type": "boolean", "description": "sobol: second-order indices too"},
        "labels": {
            "type": "object",
            "additionalProperties": _text(),
            "description": "names for swept parameters in tables and charts: PATH: NAME",
        },
        **_search_properties(),
    }
    props.update(_game_properties(props))
    keys = list(
        dict.fromkeys([*KEYS, *(k for kind in KINDS.values() for k in ("budget", *kind.keys))])
    )
    for k in keys:  # keys a newer design reads: allowed (tests/test_schema.py: described)
        props.setdefault(k, {})
    return {
        "$schema": SCHEMA_URI,
        "$id": "sim-experiment",
        "title": "sim experiment",
        "description": "A sim experiment (docs/experiments.md); sim sweep runs it.",
        **_closed({k: props[k] for k in keys}, required=["scenario"], allOf=_search_requires()),
    }


def _search_properties() -> dict[str, Schema]:
    """The keys of a search: balance, optimize, calibrate, worth (docs/search.md, ...)."""
    share = {"anyOf": [{"type": "number"}, _text("a share: 0.5 or 50%")]}
    best = {"type": "string", "enum": ["max", "min", "maximize", "minimize"]}
    objective = _closed(
        {"side": _text("a side of the scenario"), "wins": best, "losses": best, "rounds": best},
        "{side: SIDE, wins: max|min}, {side: SIDE, losses: max|min} or {rounds: max|min}",
    )
    return {
        "budget": _whole(1, None, "a search: the most battles it may fight"),
        "target": _closed(
            {"side": _text(), "wins": share, "of": {"type": "string", "enum": ["decisive", "all"]}},
            "balance: the side and the share of its wins to find",
            required=["side", "wins"],
        ),
        "tolerance": {
            "anyOf": [share, _closed({"value": {"type": "number"}})],
            "description": "balance: the 95% interval's half-width to stop at (default 2%); "
            "worth: every cost's, as a share of itself or of the scale (default 10%)",
        },
        "start": _whole(
            2,
            100000,
            "balance: battles at each value of the coarse start (5 or more, default 50); "
            "calibrate: battles at each cell and row to begin with (default 20); "
            "worth: battles at each composition of the start (default 30)",
        ),
        "link": {"type": "string", "enum": ["logit", "probit"], "default": "logit"},
        "objective": objective,
        "second": objective,
        "parallel": _whole(1, 64, "optimize: trials asked together (one batch)"),
        "confirm": _closed(
            {"top": _whole(1, 100), "replicates": _whole(2, None)},
            "optimize: the top candidates fought again with shared seeds",
        ),
        **_calibrate_properties(),
        "levels": _whole(
            2,
            101,
            "morris: the grid's levels (2..100, default 4); calibrate: values of a real "
            "range on the prior's grid (default 9)",
        ),
        "ratio": {
            "type": "number",
            "minimum": 0.1,
            "maximum": 1000,
            "description": "calibrate: a plausible cell's battles per observed battle (default 2)",
        },
        **_worth_properties(),
    }


def _calibrate_properties() -> dict[str, Schema]:
    """The keys only design: calibrate has (docs/calibration.md)."""
    from sim.search.calibrate.read import DISTANCES, METHODS

    return {
        "observed": {
            "anyOf": [
                _text("a CSV file beside the experiment"),
                {"type": "array", "items": {"type": "object"}, "minItems": 1},
            ],
            "description": "calibrate: the observed table, each row a setting of the scenario "
            "(PATH columns, or covariates), its battles and the statistics seen there "
            "(wins.SIDE, draws, rounds, SIDE.down/gone/lost/casualties, .median; SIDE a side "
            "or a role: winner, loser, larger, smaller, attacker, defender)",
        },
        "covariates": {
            "type": "object",
            "minProperties": 1,
            "additionalProperties": {
                "anyOf": [
                    _text("a column of the observed table"),
                    {"type": "number"},
                    {
                        "type": "object",
                        "required": ["value"],
                        "additionalProperties": False,
                        "properties": {
                            "value": {"type": ["string", "number"]},
                            "times": {"type": ["string", "number", "array"]},
                            "plus": {"type": ["string", "number", "array"]},
                            "round": {"type": "string", "enum": ["nearest", "down", "up"]},
                            "min": {"type": "number"},
                            "max": {"type": "number"},
                        },
                    },
                ]
            },
            "description": "calibrate: scenario paths set from the observed table's covariate "
            "columns: a column, a number, or {value, times, plus, round, min, max}",
        },
        **_calibrate_fit(),
        "distance": {"type": "string", "enum": list(DISTANCES), "default": DISTANCES[0]},
        "method": {
            "type": "string",
            "enum": [*METHODS, "battles", "exact"],
            "description": "calibrate: grid (the default) or match (history matching); "
            "balance: battles (the default) or exact (the exact odds, no battle fought)",
        },
    }


def _calibrate_fit() -> dict[str, Schema]:
    """Calibrate's keys of how the table is weighed and how history matching runs."""
    return {
        "dispersion": {
            "anyOf": [
                {"type": "number", "minimum": 0, "maximum": 0.5},
                {"type": "string", "enum": ["fit"]},
            ],
            "default": 0,
            "description": "calibrate: how far the rows may differ beyond chance: 0 (by chance "
            "alone), a stated rho, or fit",
        },
        "weights": {
            "type": "object",
            "additionalProperties": {"type": "number", "exclusiveMinimum": 0, "maximum": 100},
            "description": "calibrate: a statistic's weight in the likelihood (default 1)",
        },
        "wave": _whole(2, 1000, "calibrate, method: match: design points a wave"),
        "waves": _whole(1, 50, "calibrate, method: match: the most waves (default 6)"),
    }


def _worth_properties() -> dict[str, Schema]:
    """The keys only design: worth has (docs/search.md)."""
    return {
        "scale": {
            "type": "object",
            "additionalProperties": {"type": "number", "exclusiveMinimum": 0},
            "minProperties": 1,
            "maxProperties": 1,
            "description": "worth: the unit, an item and its points, e.g. {bandit: 10}",
        },
        "of": {
            "type": "string",
            "enum": ["decisive", "all"],
            "default": "decisive",
            "description": "worth: the win share of decisive battles, or of all (a draw half)",
        },
        "curve": {
            "type": "array",
            "items": _text("an item counted by a range"),
            "minItems": 2,
            "maxItems": 2,
            "description": "worth: the exchange curve, [BALANCED, ALONG]",
        },
    }


def _game_properties(props: dict[str, Schema]) -> dict[str, Schema]:
    """The keys of design: game (docs/search.md): its own, and what it says of shared ones."""
    said = {
        "tolerance": "game: the exploitability and the value's half-width to stop at (2%)",
        "start": "game: battles in every pair of alternatives first (default 20)",
    }
    shared = {
        k: {**props[k], "description": f"{props[k]['description']}; {v}"} for k, v in said.items()
    }
    return {
        **shared,
        "payoff": _closed(
            {"side": _text(), "of": {"type": "string", "enum": ["decisive", "all"]}},
            "game: the side whose win share is the payoff (its choice is the first parameter)",
            required=["side"],
        ),
        "mode": {
            "type": "string",
            "enum": ["adaptive", "uniform"],
            "default": "adaptive",
            "description": "game: battles where the answer is decided, or every cell alike",
        },
    }


def _search_requires() -> list[Schema]:
    """What each search design needs besides its parameters (its loader says so too)."""
    needs = {
        "balance": ["target"],
        "optimize": ["objective"],
        "calibrate": ["observed"],
        "game": ["payoff"],
        "worth": [],
    }
    return [
        {
            "if": {"properties": {"design": {"const": design}}, "required": ["design"]},
            "then": {"required": ["parameters", *keys]},
        }
        for design, keys in needs.items()
    ]
