"""A balance search's answer: in words, as tables, as charts, and as figures for programs.

The words say what the battles show and no more: a whole-number parameter gets the two
values either side of the crossing with their win rates, and which is nearer; a crossing
that no value reaches (a jump from one value to the next, or a curve that never gets
there) is said to be unreached, with the nearest values, and no crossing is made up.
"""

from __future__ import annotations

import math
from statistics import NormalDist
from typing import Any

from sim.search.balance import charts as balplot
from sim.search.balance.bracket import Point, Step, state
from sim.search.balance.glm import Z95
from sim.search.balance.plan import Balance
from sim.search.core import Answer, History
from sim.search.spec import Search

EXIT = {"answered": 0, "flat": 0, "edge": 0, "unreached": 1, "jump": 1, "undecided": 1}


def pct(p: float) -> str:
    """A share as a percentage with one decimal."""
    return f"{100 * p:.1f}%"


def rate_ci(p: Point, z: float) -> str:
    """A point's win rate and Wilson interval (quantile ``z``): ``53.1% [51.2-55.0]``."""
    if not p.n:
        return "- (no battle counted)"
    lo, hi = p.wilson(z)
    return f"{pct(p.rate)} [{100 * lo:.1f}-{100 * hi:.1f}]"


def intervals(design: Balance) -> str:
    """What a value's interval is: 95% over every look the search may take at it."""
    r = design.rule
    each = 100 * (1 - 2 * (1 - NormalDist().cdf(r.z)))
    return f"95% over the {r.looks} looks a value may get (Wilson, {each:.2f}% at each)"


def value(design: Balance, x: float) -> str:
    """A value of the balanced parameter as the answer shows it.

    As fought, and as ``sim analyze`` shows it: to the millionth of the range the search
    rounds its values to.
    """
    return str(int(round(x))) if design.first.kind == "whole" else f"{x:g}"


def crossing_text(design: Balance, step: Step) -> str:
    """``4.35 [4.28-4.42]``, or ``4.35 (its interval does not close ...)``; "" if none."""
    c = step.crossing
    if c is None:
        return ""
    if not c.bounded:
        return f"{c.x:.4g} (its interval does not close within the range)"
    return f"{c.x:.4g} [{c.lo:.4g}-{c.hi:.4g}]"


def band(design: Balance) -> str:
    """The target's band: ``47.0-53.0%``."""
    s = design.s
    return f"{100 * (s.share - s.tolerance):.1f}-{100 * (s.share + s.tolerance):.1f}%"


def lies(design: Balance, p: Point) -> str:
    """Where a value's interval lies against the band, in words."""
    where = state(design.rule, p)
    if where == "inside":
        return "inside the band"
    if where in ("above", "below"):
        return f"clear of the band, {where} it"
    return "across an edge of the band"


def estimate(design: Balance, step: Step) -> str:
    """One line for the progress display: where the search stands."""
    z = design.rule.z
    if step.status == "search" and not step.points:
        return "coarse start"
    if design.first.kind == "whole" and step.bracket is not None:
        a, b = step.bracket
        return (
            f"between {value(design, a.x)} ({rate_ci(a, z)}) and "
            f"{value(design, b.x)} ({rate_ci(b, z)})"
        )
    c = step.crossing
    if c is None or not c.bounded:
        rates = ", ".join(f"{pct(p.rate)} at {value(design, p.x)}" for p in step.points if p.n)
        if step.bracket is None:
            return f"no crossing yet: {rates}"
        a, b = step.bracket
        return (
            f"the rates cross {pct(design.s.share)} between {value(design, a.x)} and "
            f"{value(design, b.x)}; the fitted crossing's interval does not close yet: {rates}"
        )
    goal = design.s.tolerance_value
    want = (
        f"goal +-{goal:g}" if goal is not None else f"goal +-{100 * design.s.tolerance:.1f} points"
    )
    return f"crossing {crossing_text(design, step)}, +-{100 * c.points:.1f} points ({want})"


def _of(design: Balance) -> str:
    return "decisive battles" if design.s.of == "decisive" else "all battles"


def words(design: Balance, step: Step, status: str, where: str = "") -> list[str]:
    """The answer in words for one search (``where``: the second parameter's value)."""
    head = f"{where}: " if where else ""
    whole = design.first.kind == "whole"
    if status == "answered" and whole and step.bracket is not None:
        lines = _bracket_words(design, step)
    elif status == "answered" and step.crossing is not None and step.crossing.bounded:
        c = step.crossing
        lines = [
            f"{design.first_label} = {crossing_text(design, step)} makes {design.s.side} win "
            f"{pct(design.s.share)} of {_of(design)} (95% interval; the win rate there is known "
            f"to +-{100 * c.points:.1f} points)."
        ]
    elif (
        status in ("unreached", "jump", "undecided")
        and step.bracket is not None
        and (status == "jump" or whole)
    ):
        lines = _pair_words(design, step, status)
    else:
        lines = _other_words(design, step, status)
    return [head + line for line in lines]


def _nearness(design: Balance, a: Point, b: Point) -> str:
    """Which of two values is nearer the target, or that they are about equally near.

    About equally near when the difference of their distances is within its own 95%
    interval (the two rates' binomial noise).
    """
    g, goal = design.s.share, pct(design.s.share)
    offs = [100 * abs(p.rate - g) for p in (a, b)]
    spread = Z95 * 100 * math.sqrt(sum(p.rate * (1 - p.rate) / p.n for p in (a, b)))
    if abs(offs[0] - offs[1]) < spread:
        return f"the two are about equally near {goal} ({offs[0]:.1f} and {offs[1]:.1f} points off)"
    p, off = (a, offs[0]) if offs[0] < offs[1] else (b, offs[1])
    where = "above" if p.rate > g else "below"
    return f"{value(design, p.x)} is nearer {goal} ({off:.1f} points {where})"


def _rates(design: Balance, a: Point, b: Point) -> str:
    """``the win rate of guards is X with 3 (where it lies) and Y with 4 (...)``."""
    z = design.rule.z
    return (
        f"the win rate of {design.s.side} is {rate_ci(a, z)} with {value(design, a.x)} "
        f"({lies(design, a)}) and {rate_ci(b, z)} with {value(design, b.x)} ({lies(design, b)})"
    )


def _goal(design: Balance) -> str:
    """``50.0% of decisive battles (+-2.0 points: the band 48.0-52.0%)``."""
    s = design.s
    tol = f"+-{100 * s.tolerance:.1f} points"
    return f"{pct(s.share)} of {_of(design)} ({tol}: the band {band(design)})"


def _bracket_words(design: Balance, step: Step) -> list[str]:
    """A whole number answered: a value's interval inside the band, and the nearer one."""
    assert step.bracket is not None and step.nearest is not None
    a, b = step.bracket
    fair = [p for p in (a, b) if state(design.rule, p) == "inside"]
    which = (
        f"both make {design.s.side} win {_goal(design)}"
        if len(fair) == 2
        else f"{value(design, step.nearest.x)} makes {design.s.side} win {_goal(design)}"
    )
    lines = [
        f"{design.first_label} = {value(design, a.x)} or {value(design, b.x)}: {which}; "
        f"{_rates(design, a, b)}; {_nearness(design, a, b)}."
    ]
    if step.crossing is not None:
        lines.append(
            f"the fitted response crosses {pct(design.s.share)} at "
            f"{crossing_text(design, step)} (95% interval)."
        )
    return lines


def _pair_words(design: Balance, step: Step, status: str) -> list[str]:
    """Two neighbours either side of the target: no value reaches it, or undecided."""
    assert step.bracket is not None
    a, b = step.bracket
    label, side, goal = design.first_label, design.s.side, pct(design.s.share)
    if status == "undecided":
        return [
            f"undecided: the intervals do not say whether a value of {label} makes {side} win "
            f"{_goal(design)}: {_rates(design, a, b)}; more battles (a larger budget) would "
            "decide."
        ]
    return [
        f"no value of {label} makes {side} win {_goal(design)}: {_rates(design, a, b)}; the "
        f"win rate jumps across {goal} between them.",
        f"{_nearness(design, a, b)}.",
    ]


def _other_words(design: Balance, step: Step, status: str) -> list[str]:
    """A curve that never gets there, a flat one, an end of the range, or no answer."""
    near, goal, of, z = step.nearest, pct(design.s.share), _of(design), design.rule.z
    low, high = value(design, design.first.low), value(design, design.first.high)
    label, side = design.first_label, design.s.side
    if status == "unreached" and near is not None:
        return [
            f"no value of {label} from {low} to {high} makes {side} win {_goal(design)}: the "
            f"nearest is {value(design, near.x)}, where the win rate of {side} is "
            f"{rate_ci(near, z)}, {lies(design, near)}."
        ]
    if status == "undecided" and near is not None:
        return [
            f"undecided: no value of {label} from {low} to {high} is known to make {side} win "
            f"{_goal(design)}, nor known not to: the nearest is {value(design, near.x)}, where "
            f"the win rate of {side} is {rate_ci(near, z)}, {lies(design, near)}; more battles "
            "(a larger budget) would decide."
        ]
    if status == "flat" and near is not None:
        rates = [p.rate for p in step.points if p.n]
        return [
            f"{label} hardly matters: every value from {low} to {high} gives {side} about "
            f"{goal} of {of} ({pct(min(rates))} to {pct(max(rates))} measured; the ends' "
            f"intervals inside the band {band(design)})."
        ]
    if status in ("edge", "answered") and near is not None:
        return [
            f"{label} = {value(design, near.x)} gives {side} {rate_ci(near, z)} of {of}, "
            f"{lies(design, near)} {band(design)}."
        ]
    return [f"the budget was spent before an answer: {estimate(design, step)}."]


def status_of(design: Balance, step: Step) -> str:
    """The step's status; for a search that was still going, ``undecided`` or ``budget``.

    ``undecided``: a whole number's two neighbours, or the end of a range nearest the
    target, were still being fought to decide whether they reach the band; ``budget``:
    a search still looking for its crossing.
    """
    if step.status != "search":
        return step.status
    pair = step.bracket
    if design.first.kind == "whole" and pair is not None and pair[1].x - pair[0].x <= 1:
        return "undecided"
    if pair is None and step.nearest is not None:
        return "undecided"
    return "budget"


def answer(design: Balance, history: History) -> Answer:
    """The whole answer: one search, or the balance curve of a second parameter."""
    steps = design.steps(history)
    lines: list[str] = []
    groups = []
    for g, step, spent in steps:
        status = status_of(design, step)
        where = f"{design.second_label} = {design.second.shown(g)}" if design.second else ""
        lines += words(design, step, status, where)
        groups.append(_group_data(design, g, step, status, spent))
    statuses = [g["status"] for g in groups]
    budget_ok = all(_has_estimate(design, s) for _, s, _ in steps)
    code = max((EXIT.get(s, 0 if budget_ok else 1) for s in statuses), default=1)
    if "budget" in statuses:
        lines.append(
            f"the budget of {design.search.budget:,} battles was spent before the tolerance "
            "was reached: the intervals above are wider than asked."
        )
    head = (
        f"balance: {design.first_label} for {design.s.side} winning {pct(design.s.share)} of "
        f"{_of(design)}; {history.spent:,} battles; each value's interval {intervals(design)}"
    )
    tables = [_table(design, g, step) for g, step, _ in steps]
    charts = [("balance.png", balplot.response(design, steps))]
    if design.second is not None:
        charts.append(("curve.png", balplot.curve(design, steps)))
        tables.insert(0, _curve_table(design, steps))
    return Answer(
        status=statuses[0] if len(statuses) == 1 else ("answered" if code == 0 else "partial"),
        exit=code,
        lines=[head, *lines],
        tables=tables,
        charts=charts,
        data={
            "parameter": design.first_label,
            "side": design.s.side,
            "target": design.s.share,
            "of": design.s.of,
            "tolerance": design.s.tolerance,
            "tolerance_value": design.s.tolerance_value,
            "battles": history.spent,
            "looks": design.rule.looks,
            "z": design.rule.z,
            "groups": groups,
        },
    )


def _has_estimate(design: Balance, step: Step) -> bool:
    if design.first.kind == "whole":
        return step.bracket is not None
    return step.crossing is not None and step.crossing.bounded


def _group_data(design: Balance, group: Any, step: Step, status: str, spent: int) -> dict[str, Any]:
    c, fit = step.crossing, step.fit
    return {
        "second": group,
        "status": status,
        "battles": spent,
        "crossing": None
        if c is None
        else {"x": c.x, "lo": _num(c.lo), "hi": _num(c.hi), "points": c.points},
        "bracket": None if step.bracket is None else [_point(design, p) for p in step.bracket],
        "nearest": None if step.nearest is None else _point(design, step.nearest),
        "points": [_point(design, p) for p in step.points],
        "fit": None
        if fit is None
        else {
            "coef": list(fit.coef),
            "cov": [list(r) for r in fit.cov],
            "centre": fit.centre,
            "span": fit.span,
            "link": fit.link,
            "dispersion": fit.dispersion,
        },
    }


def _num(x: float) -> float | None:
    return x if math.isfinite(x) else None


def _point(design: Balance, p: Point) -> dict[str, Any]:
    lo, hi = p.wilson(design.rule.z)
    return {
        "x": p.x,
        "wins": p.k,
        "counted": p.n,
        "battles": p.runs,
        "looks": p.looks,
        "rate": p.rate if p.n else None,
        "lo": lo,
        "hi": hi,
        "state": state(design.rule, p) if p.n else None,
    }


def _table(design: Balance, group: Any, step: Step) -> dict[str, Any]:
    """The measured values of one search: battles, win rate and interval, draws."""
    title = "Measured values"
    if design.second is not None:
        title += f" ({design.second_label} = {design.second.shown(group)})"
    headers = [
        design.first_label,
        "battles",
        f"{design.s.side} win of {_of(design)} [interval]",
        f"its interval against the band {band(design)}",
    ]
    if design.s.of == "decisive":
        headers.append("decisive")
    rows = []
    for p in step.points:
        row = [value(design, p.x), str(p.runs), rate_ci(p, design.rule.z)]
        row.append(state(design.rule, p) if p.n else "-")
        if design.s.of == "decisive":
            row.append(pct(p.n / p.runs) if p.runs else "-")
        rows.append(row)
    return {"title": title, "headers": headers, "rows": rows}


def _curve_table(design: Balance, steps: list[tuple[Any, Step, int]]) -> dict[str, Any]:
    """The balance curve: each value of the second parameter and the first's balance."""
    assert design.second is not None
    rows = []
    for g, step, spent in steps:
        status = status_of(design, step)
        if design.first.kind == "whole" and step.bracket is not None:
            a, b = step.bracket
            z = design.rule.z
            found = (
                f"{value(design, a.x)} ({rate_ci(a, z)}) - {value(design, b.x)} ({rate_ci(b, z)})"
            )
        else:
            found = crossing_text(design, step) or "-"
        rows.append([design.second.shown(g), status, found, str(spent)])
    headers = [design.second_label, "status", f"{design.first_label} [95% CI]", "battles"]
    return {"title": "Balance curve", "headers": headers, "rows": rows}


class BalanceDesign(Balance):
    """The balance design the driver runs (:class:`sim.search.core.Design`)."""

    def progress(self, history: History) -> str:
        """The estimate so far (of the first group, and how many groups are done)."""
        steps = self.steps(history)
        done = sum(1 for _, s, _ in steps if s.status != "search")
        line = estimate(self, steps[0][1])
        if len(steps) > 1:
            line = f"{done} of {len(steps)} values of {self.second_label} done; first: {line}"
        return line

    def answer(self, history: History) -> Answer:
        """The answer (:func:`answer`)."""
        return answer(self, history)


def make(search: Search) -> BalanceDesign:
    """The balance design of ``search``."""
    return BalanceDesign(search)
