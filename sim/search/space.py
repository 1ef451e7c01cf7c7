"""What a search may vary: each parameter's kind, its values, and how a value is fought.

A parameter is a scenario path (``--set`` style, as in any experiment) with

- ``{low: A, high: B}``: a range, of whole numbers when both ends are whole, else real;
- ``{choices: [V1, V2, ...]}``: one of the values (any YAML value: ``[plate]`` is a list);
- ``[V1, V2, ...]``: the values a balance search's second parameter is traced at;

or a name of the search's own (not a path) with named alternatives, each a mapping of
paths to values set together::

    upgrade:
      choices:
        nothing: {}
        plate on Hild: {sides.guards.fighters[0].armor: [plate]}
        a fourth guard: {sides.guards.fighters[1].count: 3}

Its column in the ``runs`` table holds the alternative's name. Problems are reported at the
parameter's line (:class:`Param` keeps where it was read).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import pyarrow as pa

from sim.experiment.model import arrow_type, column_value

Bad = Callable[[str, str], None]
KINDS = ("whole", "real", "choices", "bundle", "values")


@dataclass(frozen=True, slots=True)
class Param:
    """One parameter a search varies (see the module's docstring)."""

    name: str
    kind: str
    low: float = 0.0
    high: float = 0.0
    choices: tuple[Any, ...] = ()
    """``choices`` and ``values``: the values; ``bundle``: the alternatives' names."""
    sets: tuple[tuple[tuple[str, Any], ...], ...] = ()
    """``bundle``: each alternative's (path, value) pairs."""

    @property
    def where(self) -> str:
        """Its path in the experiment file (for located errors)."""
        return f"parameters.{self.name}"

    @property
    def numeric(self) -> bool:
        """Whether it is a range of numbers."""
        return self.kind in ("whole", "real")

    def field(self) -> pa.Field:
        """Its column in the ``runs`` table."""
        if self.kind == "whole":
            return pa.field(self.name, pa.int64())
        if self.kind == "real":
            return pa.field(self.name, pa.float64())
        if self.kind == "bundle":
            return pa.field(self.name, pa.string())
        return pa.field(self.name, arrow_type(list(self.choices)))

    def column(self, value: Any) -> Any:
        """``value`` as its column stores it."""
        return column_value(value, self.field().type)

    def overrides(self, value: Any) -> list[str]:
        """The ``--set`` overrides that give the scenario ``value``."""
        if self.kind == "bundle":
            pairs = self.sets[self.choices.index(value)]
            return [f"{path}={json.dumps(v)}" for path, v in pairs]
        return [f"{self.name}={json.dumps(value)}"]

    def paths(self, value: Any) -> dict[str, Any]:
        """The scenario paths ``value`` sets, and their values."""
        if self.kind == "bundle":
            return dict(self.sets[self.choices.index(value)])
        return {self.name: value}

    def checked(self) -> list[Any]:
        """The values checked before the first battle: every choice, or a range's ends."""
        if self.kind == "whole":
            return sorted({int(self.low), int(self.high)})
        if self.kind == "real":
            return sorted({self.low, self.high})
        return list(self.choices)

    def shown(self, value: Any) -> str:
        """``value`` as a table shows it."""
        if self.kind == "real":
            return f"{value:.6g}"
        if isinstance(value, str):
            return value
        return json.dumps(value)


def read_param(name: str, spec: Any, bad: Bad, allowed: tuple[str, ...]) -> Param | None:
    """The parameter ``name: spec`` of an experiment file, if its kind is ``allowed``.

    Problems go to ``bad`` (at ``parameters.NAME``); None then.
    """
    where = f"parameters.{name}"
    if isinstance(spec, list):
        return _values(name, spec, bad, allowed)
    if not isinstance(spec, dict):
        bad(where, f"expected {_kinds(allowed)}, got {_shown(spec)}")
        return None
    if "choices" in spec:
        extra = sorted(set(spec) - {"choices"})
        if extra:
            bad(where, f"choices go alone; unexpected {', '.join(extra)}")
            return None
        if isinstance(spec["choices"], dict):
            return _bundle(name, spec["choices"], bad, allowed)
        return _choices(name, spec["choices"], bad, allowed)
    return _range(name, spec, bad, allowed)


def _kinds(allowed: tuple[str, ...]) -> str:
    words = {
        "whole": "{low, high}",
        "real": "{low, high}",
        "choices": "{choices: [...]}",
        "bundle": "{choices: {NAME: {PATH: VALUE}}}",
        "values": "a list of values",
    }
    return " or ".join(dict.fromkeys(words[k] for k in allowed))


def _range(name: str, spec: Mapping[str, Any], bad: Bad, allowed: tuple[str, ...]) -> Param | None:
    where = f"parameters.{name}"
    if set(spec) != {"low", "high"}:
        bad(where, f"expected {_kinds(allowed)}, got keys {', '.join(map(str, spec)) or 'none'}")
        return None
    low, high = spec["low"], spec["high"]
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (low, high)):
        bad(where, f"low and high must be numbers, got {_shown(low)} and {_shown(high)}")
        return None
    if not all(_finite(v) for v in (low, high)):
        bad(
            where,
            f"low and high must be finite numbers of at most {WIDEST:,} in size, got "
            f"{_shown(low)} and {_shown(high)}",
        )
        return None
    if high <= low:
        bad(where, f"high ({high}) must be above low ({low})")
        return None
    kind = "whole" if isinstance(low, int) and isinstance(high, int) else "real"
    if kind not in allowed:
        what = "whole numbers" if kind == "whole" else "a real range"
        bad(where, f"{what} are not a kind this parameter may take: {_kinds(allowed)}")
        return None
    return Param(name, kind, float(low), float(high))


def _choices(name: str, choices: Any, bad: Bad, allowed: tuple[str, ...]) -> Param | None:
    where = f"parameters.{name}"
    if "choices" not in allowed:
        bad(where, f"expected {_kinds(allowed)}")
        return None
    if not isinstance(choices, list) or len(choices) < 2:
        bad(where, "choices must be a list of two values or more")
        return None
    texts = [json.dumps(c, sort_keys=True) for c in choices]
    if len(set(texts)) < len(texts):
        dup = next(t for t in texts if texts.count(t) > 1)
        bad(where, f"choice {dup} is given twice")
        return None
    if any(isinstance(c, float) and not math.isfinite(c) for c in choices):
        bad(where, "choices must be finite numbers")
        return None
    return Param(name, "choices", choices=tuple(choices))


def _bundle(
    name: str, choices: Mapping[str, Any], bad: Bad, allowed: tuple[str, ...]
) -> Param | None:
    where = f"parameters.{name}"
    if "bundle" not in allowed:
        bad(where, f"expected {_kinds(allowed)}")
        return None
    if len(choices) < 2:
        bad(where, "named choices need two alternatives or more")
        return None
    sets = []
    for label, paths in choices.items():
        at = f"{where}.choices.{label}"
        if not isinstance(paths, dict) and paths is not None:
            bad(at, f"expected a mapping of scenario paths to values, got {_shown(paths)}")
            return None
        sets.append(tuple((str(p), v) for p, v in (paths or {}).items()))
    return Param(name, "bundle", choices=tuple(str(c) for c in choices), sets=tuple(sets))


def _values(name: str, values: list[Any], bad: Bad, allowed: tuple[str, ...]) -> Param | None:
    where = f"parameters.{name}"
    if "values" not in allowed:
        bad(where, f"expected {_kinds(allowed)}, got a list")
        return None
    if not values:
        bad(where, "expected a non-empty list of values")
        return None
    if len({json.dumps(v, sort_keys=True) for v in values}) < len(values):
        bad(where, "a value is given twice")
        return None
    return Param(name, "values", choices=tuple(values))


WIDEST = 2**53
"""The largest size of a range's end: a whole number held exactly as a float."""


def _finite(v: float) -> bool:
    """Whether ``v`` can be a range's end: false for nan, inf and a 500-digit whole number."""
    return abs(v) <= WIDEST


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 43 else text[:40] + "..."
