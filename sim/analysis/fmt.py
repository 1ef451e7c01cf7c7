"""How figures are shown: values, shares, intervals and parameter names as text."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd


def _short(param: str) -> str:
    """A dotted parameter path shortened for a column header: its last two parts.

    Alone it may clash with another parameter's; headers use :func:`short_names`.
    """
    return ".".join(param.split(".")[-2:])


def short_names(params: Sequence[str], labels: Mapping[str, str] | None = None) -> dict[str, str]:
    """Each parameter's column header: its shortest unique dotted suffix, never a clash.

    A header keeps at least the path's last two parts (``guards.tactic``, or the whole
    path if it is shorter), and a side's path keeps its side (``sides.raiders.fighters[1]
    .count`` is ``raiders.fighters[1].count``, never ``fighters[1].count``), and grows part
    by part, leftwards, until no other parameter's suffix of the same length is equal, so
    ``sides.troopers.fighters[1].count`` and ``sides.pirates.fighters[1].count`` stay
    apart. ``labels`` (the experiment's ``labels:`` map and ``--label PATH=TEXT``) names
    some parameters outright.
    """
    split = {p: p.split(".") for p in params}
    names: dict[str, str] = {}
    for p, parts in split.items():
        others = [o for q, o in split.items() if q != p]
        side = len(parts) - 1 if len(parts) > 2 and parts[0] == "sides" else 2
        k = min(side, len(parts))
        while k < len(parts) and any(o[-k:] == parts[-k:] for o in others):
            k += 1
        names[p] = ".".join(parts[-k:])
    short = dict(names)
    for p, label in (labels or {}).items():
        if p in names:
            names[p] = label
    shown = list(names.values())
    for p, name in names.items():
        if shown.count(name) > 1:  # a label equal to another header: say which path
            names[p] = name if name == short[p] else f"{name} ({short[p]})"
    return names


def _plain(v: Any) -> Any:
    """A numpy or pandas scalar as a plain Python value (NaN as None)."""
    if isinstance(v, np.generic):
        v = v.item()
    if isinstance(v, float) and math.isnan(v):
        return None
    return v


def _num(v: Any) -> float | None:
    v = _plain(v)
    return None if v is None else float(v)


def _interval(row: pd.Series, name: str, key: str) -> dict[str, float | None]:
    return {key: _num(row[name]), "lo": _num(row[f"{name}.lo"]), "hi": _num(row[f"{name}.hi"])}


def _fmt_value(v: Any) -> str:
    """A parameter's value as a table or chart shows it.

    A list or mapping (a text column holds it as JSON) as the experiment file writes it:
    ``[plate]``, not ``["plate"]``.
    """
    v = _plain(v)
    if v is None:
        return "-"
    if isinstance(v, float):
        return f"{v:g}"
    if isinstance(v, str) and v[:1] in "[{":
        try:
            return _flow(json.loads(v))
        except ValueError:
            return v
    return str(v)


def _flow(v: Any) -> str:
    """A JSON value in YAML's flow style, as an experiment writes it (``[chain, shield]``)."""
    if isinstance(v, list):
        return "[" + ", ".join(_flow(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {_flow(x)}" for k, x in v.items()) + "}"
    if v is None or isinstance(v, bool):
        return json.dumps(v)
    return f"{v:g}" if isinstance(v, float) else str(v)


def _pct(p: Any) -> str:
    p = _plain(p)
    return "-" if p is None else f"{100 * p:.1f}%"


def _pct_ci(row: pd.Series, name: str) -> str:
    if _plain(row[name]) is None:
        return "-"
    lo, hi = 100 * row[f"{name}.lo"], 100 * row[f"{name}.hi"]
    return f"{100 * row[name]:5.1f}% [{lo:4.1f}-{hi:4.1f}]"


def _f1(x: Any) -> str:
    x = _plain(x)
    return "-" if x is None else f"{x:.1f}"


def _span(lo: Any, hi: Any) -> str:
    """``lo-hi`` at one decimal; ``lo to hi`` when ``lo`` is negative (not ``-1.2-4.5``)."""
    low = _plain(lo)
    sep = " to " if low is not None and low < 0 else "-"
    return f"{_f1(lo)}{sep}{_f1(hi)}"


def _f2(x: Any) -> str:
    x = _plain(x)
    return "-" if x is None else f"{x:.2f}"
