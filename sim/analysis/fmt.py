"""How figures are shown: values, shares, intervals and parameter names as text."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd


def _short(param: str) -> str:
    """A dotted parameter path shortened for a column header: its last two parts."""
    return ".".join(param.split(".")[-2:])


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
    v = _plain(v)
    if v is None:
        return "-"
    if isinstance(v, float):
        return f"{v:g}"
    return str(v)


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


def _f2(x: Any) -> str:
    x = _plain(x)
    return "-" if x is None else f"{x:.2f}"
