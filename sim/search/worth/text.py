"""How a worth search's answer writes its figures: numbers, intervals, p-values, names."""

from __future__ import annotations

import math
from typing import Any

from sim.search.worth.fit import Ratio


def possessive(name: str) -> str:
    """``guards'``, ``north's``."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def num(x: float) -> str:
    """A figure with three significant digits, or ``-`` when it is not finite."""
    if not math.isfinite(x):
        return "-"
    return f"{x:.3g}" if abs(x) >= 0.01 else f"{x:.2g}"


def ratio_text(r: Ratio, under: str = "the scale item") -> str:
    """``17.6 [17.2 to 18]``, or why its interval does not close (``under``'s worth)."""
    if not math.isfinite(r.est):
        return "-"
    if not r.bounded:
        return f"{num(r.est)} [no interval: the worth of {under} is not clear of zero]"
    return f"{num(r.est)} [{num(r.lo)} to {num(r.hi)}]"


def points_text(r: Ratio) -> str:
    """``7.3 points [6.8 to 7.8]``."""
    if not r.bounded:
        return f"{num(r.est)} points (its interval does not close)"
    return f"{num(r.est)} points [{num(r.lo)} to {num(r.hi)}]"


def p_text(p: float) -> str:
    """``p = 0.041``, ``p < 0.001``."""
    if not math.isfinite(p):
        return "-"
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}"


def size(r: Ratio) -> Ratio:
    """A ratio's size: itself, or its negative (interval flipped) when below zero."""
    return r if r.est >= 0 else Ratio(-r.est, -r.hi, -r.lo)


def composition_text(design: Any, comp: Any) -> str:
    """A composition in words: each parameter's label and value."""
    vals = design.values_of(tuple(int(v) for v in comp))
    return ", ".join(f"{design.label(p)} {p.shown(vals[p.name])}" for p in design.params)
