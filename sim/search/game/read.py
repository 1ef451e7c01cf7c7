"""``design: game``: two sides' alternatives, the payoff, and when the answer is good enough.

::

    design: game
    parameters:                      # the first: the payoff side's choice; the second: its
      sides.guards.tactic: [balanced, aggressive, defensive]      # opponents'
      sides.bandits.tactic: [balanced, aggressive, defensive]
    payoff: {side: guards, of: decisive}   # the guards' win share of decisive battles
    tolerance: 2%        # stop when the mixes' exploitability is within 2 points (95%)
    start: 20            # battles in every cell first (default 20)
    mode: adaptive       # or uniform: every cell alike, batch by batch (for comparison)
    budget: 20000        # battles at most

Each parameter is a scenario path with its values (a list, or ``{choices: [...]}``), or a
name of the search's own with named alternatives that set several paths together
(:mod:`sim.search.space`). The payoff side wants its win share high, its opponents want
it low. ``of: decisive`` (the default) counts only battles with a winner; ``of: all``
counts a draw as a battle the side did not win. The tolerance also sets the margin of
weak dominance (nowhere worse by more than it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sim.errors import did_you_mean
from sim.search.space import Param, read_param
from sim.search.spec import Bad

KEYS = ("payoff", "tolerance", "start", "mode")
BUDGET = 20_000
"""The default budget of battles."""
MODES = ("adaptive", "uniform")
OF = ("decisive", "all")
RESERVED = {"batch", "point", "trial", "run_id", "seed", "label"}


@dataclass(frozen=True, slots=True)
class Settings:
    """A game search's own keys, checked."""

    side: str
    opponent: str
    of: str
    tolerance: float
    start: int
    mode: str


def read(
    doc: dict[str, Any], sides: tuple[str, ...], budget: int, bad: Bad
) -> tuple[list[Param], Settings]:
    """The two parameters and the settings of a game search (problems to ``bad``)."""
    params = _params(doc.get("parameters"), bad)
    side, of = _payoff(doc.get("payoff"), sides, bad)
    others = [s for s in sides if s != side]
    opponent = others[0] if len(others) == 1 else "opponents"
    tol = _share(doc.get("tolerance", 0.02), "tolerance", bad)
    start = doc.get("start", 20)
    if isinstance(start, bool) or not isinstance(start, int) or not 2 <= start <= 100_000:
        bad(
            "start",
            f"expected battles in every cell first, a whole number 2..100000, got {start!r}",
        )
        start = 20
    mode = doc.get("mode", "adaptive")
    if mode not in MODES:
        bad("mode", f"expected adaptive or uniform, got {mode!r}")
        mode = "adaptive"
    if len(params) == 2:
        for p, mine in zip(params, (True, False), strict=True):
            _owner(p, side, mine, sides, bad)
        cells = len(params[0].choices) * len(params[1].choices)
        if budget < cells * start:
            bad(
                "budget",
                f"{budget} battles cannot pay for the start ({start} in each of {cells} "
                "cells); raise budget or lower start",
            )
    return params, Settings(side, opponent, of, tol, start, mode)


def _params(spec: Any, bad: Bad) -> list[Param]:
    if not isinstance(spec, dict) or len(spec) != 2:
        bad(
            "parameters",
            "a game search has two parameters: the payoff side's choice, then its opponents'",
        )
        return []
    out = []
    for name, value in spec.items():
        p = read_param(str(name), value, bad, ("choices", "bundle", "values"))
        if p is None:
            continue
        shown = [p.shown(c) for c in p.choices]
        if len(p.choices) < 2:
            bad(p.where, "a side's choice needs two alternatives or more")
        elif len(set(shown)) < len(shown):
            bad(p.where, "two alternatives read the same; give them names (choices: {NAME: ...})")
        if p.name in RESERVED:
            bad(p.where, f"{p.name!r} names a column of the runs table; choose another name")
        out.append(p)
    return out if len(out) == 2 else []


def _payoff(spec: Any, sides: tuple[str, ...], bad: Bad) -> tuple[str, str]:
    if not isinstance(spec, dict) or "side" not in spec or set(spec) - {"side", "of"}:
        bad("payoff", "expected {side: SIDE, of: decisive|all}: whose win share is the payoff")
        return "", "decisive"
    side = str(spec["side"])
    if sides and side not in sides:
        hint = did_you_mean(side, sides) or "; it has " + ", ".join(sides)
        bad("payoff.side", f"no side {side!r} in the scenario{hint}")
    of = str(spec.get("of", "decisive"))
    if of not in OF:
        bad("payoff.of", f"expected decisive (battles with a winner) or all, got {of!r}")
        of = "decisive"
    return side, of


def _owner(p: Param, side: str, mine: bool, sides: tuple[str, ...], bad: Bad) -> None:
    """A path of a side's own belongs to the right player: the payoff side's first."""
    for value in p.choices:
        for path in p.paths(value):
            parts = str(path).split(".")
            if len(parts) < 2 or parts[0] != "sides" or parts[1] not in sides:
                continue
            if mine and parts[1] != side:
                bad(
                    p.where,
                    f"the first parameter is {side}'s choice (payoff.side), but "
                    f"{path} is {parts[1]}'s; put the payoff side's choice first",
                )
                return
            if not mine and parts[1] == side:
                bad(
                    p.where,
                    f"the second parameter is the opponents' choice, but {path} is "
                    f"{side}'s (payoff.side)",
                )
                return


def _share(value: Any, where: str, bad: Bad) -> float:
    given = value
    if isinstance(value, str) and value.strip().endswith("%"):
        try:
            value = float(value.strip()[:-1]) / 100
        except ValueError:
            value = None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.001 <= value <= 0.5:
        bad(where, f"expected a share of points such as 2% or 0.02 (0.1%..50%), got {given!r}")
        return 0.02
    return float(value)
