"""``design: balance``: the value of a parameter at which a side wins a target share.

::

    design: balance
    parameters:
      sides.bandits.fighters[0].count: {low: 2, high: 10}   # the value to find
      sides.guards.fighters[0].hit_dice: [4, 5, 6]           # optional: trace the curve
    target: {side: guards, wins: 50%, of: decisive}
    tolerance: 2%        # the win rate at the crossing known to +-2 points (default)
    budget: 20000        # battles at most
    start: 50            # battles at each value of the coarse start (default 50)
    link: logit          # or probit: the fitted response's shape

``of: decisive`` (the default) counts only battles with a winner, so 50% means both sides
win equally often however many battles are draws: a fair fight. ``of: all`` counts draws
as battles the side did not win. ``tolerance: {value: X}`` stops instead when the value's
own 95% interval is within +-X. Where the battles go and when the search stops:
:mod:`sim.search.balance.bracket`. With a second parameter, each of its values gets its own
search (the budget shared equally), and the answer is the balance curve.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from sim.errors import did_you_mean
from sim.search.balance import bracket
from sim.search.balance.bracket import Rule
from sim.search.balance.glm import LINKS
from sim.search.space import Param, read_param
from sim.search.spec import Bad

KEYS = ("target", "tolerance", "start", "link", "method")
METHODS = ("battles", "exact")
OF = ("decisive", "all")
BUDGET = 20_000
"""The default budget of battles."""


@dataclass(frozen=True, slots=True)
class Settings:
    """A balance search's own keys, checked."""

    side: str
    share: float
    of: str
    tolerance: float
    tolerance_value: float | None
    start: int
    link: str
    method: str = "battles"
    """``battles`` (fight and fit) or ``exact`` (the exact odds, :mod:`.exact`)."""


def share_of(value: Any, where: str, bad: Bad, low: float = 0.0, high: float = 1.0) -> float | None:
    """A share given as ``0.5`` or ``"50%"``, strictly between ``low`` and ``high``."""
    given = value
    if isinstance(value, str) and value.strip().endswith("%"):
        try:
            value = float(value.strip()[:-1]) / 100
        except ValueError:
            value = None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        bad(where, f"expected a share such as 0.5 or 50%, got {given!r}")
        return None
    if not low < value < high:
        hint = f" (for {value:g}%, write {value:g}%)" if 1 < value < 100 else ""
        bad(where, f"expected a share between {low:g} and {high:g}, got {given!r}{hint}")
        return None
    return float(value)


def read(
    doc: dict[str, Any], sides: tuple[str, ...], budget: int, bad: Bad
) -> tuple[list[Param], Settings]:
    """The parameters and settings of a balance search (problems to ``bad``)."""
    params = _params(doc.get("parameters"), bad)
    side, share, of = _target(doc.get("target"), sides, bad)
    tol, tol_value = _tolerance(doc.get("tolerance", 0.02), bad)
    start = doc.get("start", 50)
    if isinstance(start, bool) or not isinstance(start, int) or not 5 <= start <= 100_000:
        bad(
            "start",
            f"expected battles at each coarse value, a whole number 5..100000, got {start!r}",
        )
        start = 50
    link = doc.get("link", "logit")
    if link not in LINKS:
        bad("link", f"expected logit or probit, got {link!r}")
        link = "logit"
    method = doc.get("method", "battles")
    if method not in METHODS:
        bad("method", f"expected battles or exact, got {method!r}")
        method = "battles"
    if method == "exact" and params and (len(params) > 1 or params[0].kind != "whole"):
        bad("parameters", "method: exact balances one whole-number parameter (no curve)")
    if params and method == "battles":
        groups = len(params[1].choices) if len(params) > 1 else 1
        coarse = start * len(bracket.coarse(rule(params[0], share, 0.02, None, start, link)))
        if budget < groups * coarse:
            each = " for each value of the second parameter" if groups > 1 else ""
            bad(
                "budget",
                f"{budget} battles cannot pay for the coarse start ({coarse} battles{each}); "
                "raise budget or lower start",
            )
    return params, Settings(side, share, of, tol, tol_value, start, link, method)


def _target(target: Any, sides: tuple[str, ...], bad: Bad) -> tuple[str, float, str]:
    """``target: {side, wins, of}``: the side, its share and what counts."""
    if not isinstance(target, dict) or not {"side", "wins"} <= set(target):
        bad(
            "target",
            "expected {side: SIDE, wins: SHARE, of: decisive|all}, e.g. {side: guards, wins: 50%}",
        )
        return "", 0.5, "decisive"
    extra = sorted(set(target) - {"side", "wins", "of"})
    if extra:
        bad(f"target.{extra[0]}", f"unknown key {extra[0]!r}; a target has side, wins and of")
    side = str(target["side"])
    if sides and side not in sides:
        hint = did_you_mean(side, sides) or "; it has " + ", ".join(sides)
        bad("target.side", f"no side {side!r} in the scenario{hint}")
    share = share_of(target["wins"], "target.wins", bad) or 0.5
    of = str(target.get("of", "decisive"))
    if of not in OF:
        bad("target.of", f"expected decisive (battles with a winner) or all, got {of!r}")
    return side, share, of


def _params(spec: Any, bad: Bad) -> list[Param]:
    if not isinstance(spec, dict) or not 1 <= len(spec) <= 2:
        bad(
            "parameters",
            "a balance search varies one parameter {low, high}, and may trace it along a "
            "second, given as a list of values",
        )
        return []
    items = list(spec.items())
    first = read_param(str(items[0][0]), items[0][1], bad, ("whole", "real"))
    out = [first] if first is not None else []
    if len(items) == 2:
        second = read_param(str(items[1][0]), items[1][1], bad, ("values",))
        out += [second] if second is not None else []
    return out if len(out) == len(items) else []


def _tolerance(value: Any, bad: Bad) -> tuple[float, float | None]:
    if isinstance(value, dict):
        if set(value) != {"value"}:
            bad("tolerance", "expected a share (2%) or {value: X} in the parameter's units")
            return 0.02, None
        v = value["value"]
        if (
            isinstance(v, bool)
            or not isinstance(v, (int, float))
            or not v > 0
            or not math.isfinite(v)
        ):
            bad("tolerance.value", f"expected a positive number, got {v!r}")
            return 0.02, None
        return 0.02, float(v)
    tol = share_of(value, "tolerance", bad, 0.0, 0.5)
    return (tol or 0.02), None


def rule(
    p: Param,
    share: float,
    tol: float,
    tol_value: float | None,
    start: int,
    link: str,
    budget: int = BUDGET,
) -> Rule:
    """The bracket's :class:`~sim.search.balance.bracket.Rule` of a parameter and settings.

    ``budget`` is the battles the parameter's search may spend (a group's share).
    """
    return Rule(
        p.low,
        p.high,
        p.kind == "whole",
        share,
        tol,
        tol_value,
        link,
        start,
        max(100, 2 * start),
        budget,
    )
