"""Ground shared by every rule system (RULES.md section 0): rounding, statuses, data files."""

from __future__ import annotations

import csv
from enum import StrEnum
from fractions import Fraction
from functools import cache
from importlib import resources
from typing import Any


def round_half_up(x: Fraction | float | int) -> int:
    """Round to the nearest integer, halves up (2.5 -> 3), as Deathwish does.

    Python's ``round`` rounds halves to even (``round(2.5) == 2``) and is wrong here.
    Exact for ``Fraction`` and ``int``; pass a Fraction when the input is a ratio.
    """
    f = Fraction(x)
    return int((f + Fraction(1, 2)).__floor__())


class Status(StrEnum):
    """Fighter status (RULES.md 0). Only ``active`` fighters act; ``fleeing`` ones only run."""

    ACTIVE = "active"
    FLEEING = "fleeing"
    FLED = "fled"
    SURRENDERED = "surrendered"
    INCAPACITATED = "incapacitated"
    DEAD = "dead"


OUT_OF_FIGHT = frozenset({Status.FLED, Status.SURRENDERED, Status.INCAPACITATED, Status.DEAD})


@cache
def load_csv(name: str) -> tuple[dict[str, str], ...]:
    """Rows of ``sim/rules/data/<name>`` as dicts of strings, in file order."""
    text = resources.files("sim.rules").joinpath("data", name).read_text(encoding="utf-8")
    rows = csv.DictReader(line for line in text.splitlines() if not line.startswith("#"))
    return tuple(dict(r) for r in rows)


def option(
    default: Any,
    doc: str,
    *,
    tag: str = "H",
    choices: tuple[Any, ...] | None = None,
    low: float | None = None,
    high: float | None = None,
) -> Any:
    """A documented rule option: a dataclass field whose metadata says what it means.

    ``tag`` is ``"I"`` (our interpretation) or ``"H"`` (house rule), as in RULES.md;
    ``choices`` lists the allowed values of a named option, ``low``/``high`` bound a number.
    """
    from dataclasses import field

    meta = {"doc": doc, "tag": tag, "choices": choices, "low": low, "high": high}
    return field(default=default, metadata=meta)


def build_options(cls: Any, values: dict[str, Any] | None = None, where: str = "options") -> Any:
    """Build the ``Options`` dataclass ``cls`` from a plain dict, checking names and values.

    Unknown names and bad values raise :class:`sim.errors.SimError` naming ``where.name``,
    with the closest known name or the allowed values.
    """
    from dataclasses import fields

    from sim.errors import SimError, did_you_mean

    known = {f.name: f for f in fields(cls)}
    for key, value in (values or {}).items():
        if key not in known:
            raise SimError(f"{where}.{key}: unknown option{did_you_mean(key, known)}")
        meta = known[key].metadata
        default = known[key].default
        if meta.get("choices") is not None and value not in meta["choices"]:
            allowed = ", ".join(repr(c) for c in meta["choices"])
            raise SimError(f"{where}.{key}: {value!r} is not one of {allowed}")
        if isinstance(default, bool) and not isinstance(value, bool):
            raise SimError(f"{where}.{key}: expected true or false, got {value!r}")
        if isinstance(default, (int, float)) and not isinstance(default, bool):
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise SimError(f"{where}.{key}: expected a number, got {value!r}")
            if isinstance(default, int) and not isinstance(value, int):
                raise SimError(f"{where}.{key}: expected a whole number, got {value!r}")
            low, high = meta.get("low"), meta.get("high")
            if (low is not None and value < low) or (high is not None and value > high):
                raise SimError(f"{where}.{key}: {value!r} is out of range {low}..{high}")
    return cls(**(values or {}))


def describe_options(cls: Any) -> list[dict[str, Any]]:
    """Name, default, tag, allowed values and meaning of every option of ``cls``."""
    from dataclasses import fields

    return [
        {
            "name": f.name,
            "default": f.default,
            "tag": f.metadata.get("tag"),
            "choices": f.metadata.get("choices"),
            "doc": f.metadata.get("doc"),
        }
        for f in fields(cls)
    ]
