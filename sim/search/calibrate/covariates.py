"""A calibration's covariates: columns of the observed table that set the scenario.

A table may record what history records (a force ratio, an army's size) rather than each
side's head count. ``covariates:`` declares how those columns set the scenario's paths,
in a small vocabulary (no ``eval``)::

    covariates:
      sides.smaller.fighters[0].count: size          # the column's value
      sides.larger.fighters[0].count: {value: size, times: ratio, round: nearest, min: 1}

A path's expression is a column's name, a number, or a mapping: ``value`` (a column or a
number), times each of ``times`` (one or a list), plus each of ``plus``, then ``round``
(``nearest``: half up; ``down``; ``up``) to a whole number, then held to ``min`` and
``max``. Every name an expression uses is a column of the table, a number in every row.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

ROUNDS: dict[str, Callable[[float], float]] = {
    "nearest": lambda x: math.floor(x + 0.5),
    "down": math.floor,
    "up": math.ceil,
}
KEYS = ("value", "times", "plus", "round", "min", "max")
Operand = str | float


@dataclass(frozen=True, slots=True)
class Term:
    """One path's expression: ``value * times... + plus...``, rounded, held to min and max."""

    value: Operand
    times: tuple[Operand, ...] = ()
    plus: tuple[Operand, ...] = ()
    round: str | None = None
    low: float | None = None
    high: float | None = None

    def names(self) -> tuple[str, ...]:
        """The columns it reads."""
        return tuple(o for o in (self.value, *self.times, *self.plus) if isinstance(o, str))

    def of(self, row: Mapping[str, float]) -> Any:
        """Its value in a row (each name a number there)."""

        def get(o: Operand) -> float:
            return float(row[o]) if isinstance(o, str) else float(o)

        x = get(self.value)
        for t in self.times:
            x *= get(t)
        for p in self.plus:
            x += get(p)
        if self.round is not None:
            x = ROUNDS[self.round](x)
        if self.low is not None:
            x = max(x, self.low)
        if self.high is not None:
            x = min(x, self.high)
        return int(x) if float(x).is_integer() else x  # a whole number stays whole

    def shown(self) -> str:
        """The expression in words: ``size x ratio, nearest, at least 1``."""
        text = " x ".join(str(o) for o in (self.value, *self.times))
        text += "".join(f" + {p}" for p in self.plus)
        extra = [self.round or ""]
        extra += [f"at least {_num(self.low)}"] if self.low is not None else []
        extra += [f"at most {_num(self.high)}"] if self.high is not None else []
        return ", ".join([text, *(e for e in extra if e)])


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


Bad = Callable[[str, str], None]


def read(spec: Any, bad: Bad) -> dict[str, Term | None]:
    """The ``covariates:`` key: each scenario path with its expression (None: it is bad)."""
    if spec is None:
        return {}
    if not isinstance(spec, dict) or not spec:
        bad("covariates", "expected a mapping of scenario paths, each to its expression")
        return {"covariates": None}
    return {str(path): _term(expr, f"covariates.{path}", bad) for path, expr in spec.items()}


def _term(expr: Any, where: str, bad: Bad) -> Term | None:
    if isinstance(expr, str) or _is_number(expr):
        op = _operand(expr, where, bad)
        return None if op is None else Term(op)
    if not isinstance(expr, dict):
        bad(where, f"expected a column's name, a number or a mapping of {', '.join(KEYS)}")
        return None
    unknown = [k for k in expr if k not in KEYS]
    if unknown:
        bad(f"{where}.{unknown[0]}", f"unknown key {unknown[0]!r}; expected {', '.join(KEYS)}")
        return None
    if "value" not in expr:
        bad(where, "expected value: a column's name or a number")
        return None
    value = _operand(expr["value"], f"{where}.value", bad)
    times = _operands(expr.get("times", []), f"{where}.times", bad)
    plus = _operands(expr.get("plus", []), f"{where}.plus", bad)
    rounding = expr.get("round")
    if rounding is not None and rounding not in ROUNDS:
        bad(f"{where}.round", f"expected one of {', '.join(ROUNDS)}, got {rounding!r}")
        return None
    bounds = []
    for key in ("min", "max"):
        v = expr.get(key)
        if v is not None and not _is_number(v):
            bad(f"{where}.{key}", f"expected a number, got {v!r}")
            return None
        bounds.append(None if v is None else float(v))
    if bounds[0] is not None and bounds[1] is not None and bounds[0] > bounds[1]:
        bad(f"{where}.max", f"max ({_num(bounds[1])}) is below min ({_num(bounds[0])})")
        return None
    if value is None or times is None or plus is None:
        return None
    return Term(value, times, plus, rounding, bounds[0], bounds[1])


def _operands(spec: Any, where: str, bad: Bad) -> tuple[Operand, ...] | None:
    items = spec if isinstance(spec, list) else [spec]
    out = [
        _operand(o, f"{where}[{k}]" if isinstance(spec, list) else where, bad)
        for k, o in enumerate(items)
    ]
    return None if any(o is None for o in out) else tuple(o for o in out if o is not None)


def _operand(spec: Any, where: str, bad: Bad) -> Operand | None:
    if _is_number(spec):
        return float(spec)
    if isinstance(spec, str) and spec.strip() and "." not in spec and "[" not in spec:
        return spec.strip()
    bad(where, f"expected a column's name (not a scenario path) or a number, got {spec!r}")
    return None


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
