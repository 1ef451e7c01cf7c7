"""``design: optimize``: the values of several parameters that are best for a side.

::

    design: optimize
    parameters:
      sides.guards.tactic: {choices: [balanced, aggressive, defensive]}
      sides.guards.fighters[0].hit_dice: {low: 3, high: 7}
      upgrade:                       # named alternatives, each setting paths together
        choices:
          nothing: {}
          plate on Hild: {sides.guards.fighters[0].armor: [plate]}
    objective: {side: guards, wins: max}     # wins | losses (of a side) | rounds; max | min
    second: {side: guards, losses: min}      # optional: a second objective, the Pareto front
    budget: 6000         # battles at most, search and confirmation
    replicates: 40       # battles per trial (default 40)
    parallel: 4          # trials asked together, one batch (default 4)
    confirm: {top: 5, replicates: 400, final: 400}   # default: 30% of the budget

A win rate counts ``of: all`` battles by default (``{side: guards, wins: max, of: all}``):
the chance a battle ends in the side's win, a draw being a battle it did not win, so a
choice that trades wins for draws never looks better than it is. ``of: decisive`` counts
only battles with a winner (a side's share of them, as a fair fight's balance does); a
choice that ends most battles in draws can then rank high on a few decisive ones. The
answer says which it counts.

The search (Optuna: TPE for one objective, NSGA-II for two; :mod:`sim.search.optimize.study`) spends
the budget less the confirmation's on trials of ``replicates`` battles each, its objective a
trial's mean. A trial's mean is noisy and the best of many noisy means is lucky, so the
top candidates (distinct points, by the mean of every battle fought at each) are fought
again, ``confirm.replicates`` battles each with shared seeds (replicate ``r`` meets the same
dice at every candidate), which rank them. The two they rank first are picked by those
battles, so those battles would flatter the gap between them; the final comparison fights
the best and the runner-up again, ``confirm.final`` battles each on fresh shared seeds
that did not pick them, and the answer's figures (each one's 95% interval, and their
paired difference with its 95% interval) come from those alone
(:mod:`sim.search.optimize.answer`). With two objectives the candidates are the Pareto
front of the search's points, and the answer is the front, confirmed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from sim.errors import did_you_mean
from sim.search.space import Param, read_param
from sim.search.spec import Bad

KEYS = ("objective", "second", "replicates", "parallel", "confirm")
BUDGET = 6_000
"""The default budget of battles."""
WHATS = ("wins", "losses", "rounds")
OF = ("all", "decisive")
DIRECTIONS = {"max": "maximize", "maximize": "maximize", "min": "minimize", "minimize": "minimize"}


@dataclass(frozen=True, slots=True)
class Objective:
    """What a trial's battles are scored by: a side's wins or losses, or the battle's length."""

    what: str
    side: str | None
    direction: str
    of: str = "all"
    """For a win rate: the battles it counts, ``all`` or ``decisive`` ones."""

    @property
    def name(self) -> str:
        """How the answer names it (a win rate says what it counts)."""
        if self.what == "wins":
            return f"{self.side} win rate ({self.of} battles)"
        if self.what == "losses":
            return f"{self.side} losses"
        return "rounds"

    @property
    def counts(self) -> str:
        """What a win rate counts, in words for the answer ("" for another objective)."""
        if self.what != "wins":
            return ""
        if self.of == "decisive":
            return f"the win rate of {self.side} counts decisive battles only, draws left out"
        return f"the win rate of {self.side} counts all battles, a draw being a battle not won"

    @property
    def share(self) -> bool:
        """Whether it is a share (a win rate), shown in percent."""
        return self.what == "wins"

    def values(self, runs: pd.DataFrame) -> np.ndarray[Any, Any]:
        """Each battle's score (NaN for a battle that failed)."""
        if self.what == "wins":
            v = (runs["winner"] == self.side).to_numpy(dtype=float)
            if self.of == "decisive":
                v[runs["winner"].isna().to_numpy()] = np.nan  # a draw is not counted
        elif self.what == "losses":
            v = runs[f"lost.{self.side}"].to_numpy(dtype=float)
        else:
            v = runs["rounds"].to_numpy(dtype=float)
        return np.where(runs["failed"].to_numpy(dtype=bool), np.nan, v)

    def better(self, a: float, b: float) -> bool:
        """Whether ``a`` beats ``b``."""
        return a > b if self.direction == "maximize" else a < b


@dataclass(frozen=True, slots=True)
class Settings:
    """An optimize search's own keys, checked."""

    objectives: tuple[Objective, ...]
    replicates: int
    parallel: int
    top: int
    confirm: int
    trials: int
    final: int = 0
    """Battles of each of the best two in the final comparison (0: none, two objectives)."""


def read(
    doc: dict[str, Any], sides: tuple[str, ...], budget: int, bad: Bad
) -> tuple[list[Param], Settings]:
    """The parameters and settings of an optimize search (problems to ``bad``)."""
    params = _params(doc.get("parameters"), bad)
    objectives = [_objective(doc.get("objective"), "objective", sides, bad)]
    if doc.get("second") is not None:
        objectives.append(_objective(doc["second"], "second", sides, bad))
    replicates = _count(doc.get("replicates", 40), "replicates", 1, 100_000, bad)
    parallel = _count(doc.get("parallel", 4), "parallel", 1, 64, bad)
    confirm = doc.get("confirm") or {}
    if not isinstance(confirm, dict) or set(confirm) - {"top", "replicates", "final"}:
        bad("confirm", "expected {top: N, replicates: N, final: N}")
        confirm = {}
    top = _count(confirm.get("top", 5), "confirm.top", 1, 100, bad)
    pair = 2 if len(objectives) == 1 and top > 1 else 0  # the final comparison's two
    each = confirm.get("replicates", max(20, int(0.3 * budget) // (top + pair)))
    again = _count(each, "confirm.replicates", 2, 1_000_000, bad)
    final = _count(confirm.get("final", again), "confirm.final", 2, 1_000_000, bad) if pair else 0
    if not pair and "final" in confirm:
        bad(
            "confirm.final",
            "a final comparison is of the best and the runner-up: one "
            "objective and a top of two or more",
        )
    kept = top * again + pair * final
    trials = (budget - kept) // max(replicates, 1)
    if trials < parallel:
        parts = f"{top} x {again}" + (f" and 2 x {final}" if pair else "")
        bad(
            "budget",
            f"{budget} battles leave {budget - kept} after the confirmation ({parts}): fewer "
            f"than one batch of {parallel} trials x {replicates} battles; raise budget, or "
            "lower replicates or confirm",
        )
    settings = Settings(
        tuple(o for o in objectives if o), replicates, parallel, top, again, trials, final
    )
    return params, settings


def _params(spec: Any, bad: Bad) -> list[Param]:
    if not isinstance(spec, dict) or not spec:
        bad("parameters", "an optimize search varies one parameter or more")
        return []
    out = []
    for name, value in spec.items():
        p = read_param(str(name), value, bad, ("whole", "real", "choices", "bundle"))
        if p is not None:
            shown = [p.shown(c) for c in p.choices]
            if len(set(shown)) < len(shown):
                bad(p.where, "two choices read the same; give them names (choices: {NAME: ...})")
            out.append(p)
    reserved = {"batch", "point", "trial", "run_id", "seed", "label"}
    for p in out:
        if p.name in reserved:
            bad(p.where, f"{p.name!r} names a column of the runs table; choose another name")
    return out


def _count(value: Any, where: str, low: int, high: int, bad: Bad) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        bad(where, f"expected a whole number {low}..{high}, got {value!r}")
        return low
    return value


def _objective(spec: Any, where: str, sides: tuple[str, ...], bad: Bad) -> Objective:
    """``{side: S, wins: max}``, ``{side: S, losses: min}`` or ``{rounds: min}``."""
    usage = (
        "expected {side: SIDE, wins: max|min, of: all|decisive}, {side: SIDE, losses: max|min} "
        "or {rounds: max|min}"
    )
    whats = [w for w in WHATS if isinstance(spec, dict) and w in spec]
    if not isinstance(spec, dict) or len(whats) != 1 or set(spec) - {"side", "of", *WHATS}:
        bad(where, usage)
        return Objective("wins", "", "maximize")
    what = whats[0]
    direction = DIRECTIONS.get(str(spec[what]))
    if direction is None:
        bad(f"{where}.{what}", f"expected max or min, got {spec[what]!r}")
        direction = "maximize"
    side = spec.get("side")
    of = spec.get("of", "all")
    if what != "wins" and "of" in spec:
        bad(f"{where}.of", "of: all | decisive says which battles a win rate counts: wins only")
    elif of not in OF:
        bad(
            f"{where}.of",
            f"expected all (every battle) or decisive (battles with a winner), got {of!r}",
        )
        of = "all"
    if what == "rounds":
        if side is not None:
            bad(f"{where}.side", "rounds are the battle's, not a side's: leave side out")
        return Objective(what, None, direction)
    if side is None:
        bad(where, f"{what} are a side's: add side: SIDE")
    elif sides and str(side) not in sides:
        hint = did_you_mean(str(side), sides) or "; it has " + ", ".join(sides)
        bad(f"{where}.side", f"no side {side!r} in the scenario{hint}")
    return Objective(what, None if side is None else str(side), direction, str(of))
