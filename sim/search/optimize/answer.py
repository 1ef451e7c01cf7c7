"""An optimize search's progress and answer.

The candidates for the confirmation are distinct points ranked by every battle the search
fought at each (:func:`sim.search.optimize.plan.candidates`). The confirmation's battles,
fought with shared seeds, rank them (the ranking table). The best and the runner-up are
then measured on the final comparison's battles alone, fresh shared seeds that did not pick
them: each one's estimate is unbiased, and the difference between them a paired one, its
mean and 95% Student-t interval over the replicates both finished (for a win rate of
decisive battles, the difference of the two ratios, its interval by the delta method).
The battles that pick two candidates would flatter the gap between them.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from sim.dataset.alike import alike, alike_note
from sim.intervals import t975, wilson
from sim.search.core import Answer, History
from sim.search.optimize import charts as optplot
from sim.search.optimize.plan import (
    Optimize,
    Scored,
    best_first,
    confirmed,
    searched,
    stage_runs,
)
from sim.search.optimize.read import Objective
from sim.search.spec import Search


def describe(design: Optimize, history: History, point: int) -> str:
    """A point's parameters, as the answer names them."""
    values = history.points[point]
    return ", ".join(
        f"{design.search.label(p.name)} = {p.shown(values[p.name])}" for p in design.params
    )


def shown(o: Objective, v: float) -> str:
    """An objective's value: a percentage for a win rate, else two decimals."""
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "-"
    return f"{100 * v:.1f}%" if o.share else f"{v:.2f}"


def with_ci(o: Objective, mean: float, lo: float, hi: float) -> str:
    """``61.0% [56.1-65.7]`` (a win rate) or ``1.25 [1.10-1.40]``."""
    if o.share:
        return f"{shown(o, mean)} [{100 * lo:.1f}-{100 * hi:.1f}]"
    sep = " to " if lo < 0 else "-"
    return f"{shown(o, mean)} [{lo:.2f}{sep}{hi:.2f}]"


def interval(o: Objective, values: np.ndarray[Any, Any]) -> tuple[float, float, float, int]:
    """Mean and 95% interval of a candidate's scores: Wilson for a win rate, else Student-t.

    NaN values (a failed battle; a draw, for a win rate of decisive battles) are left out.
    """
    v = values[~np.isnan(values)]
    n = len(v)
    if not n:
        return math.nan, math.nan, math.nan, 0
    if o.share:
        p, lo, hi = wilson(float(v.sum()), n)
        return float(p), float(lo), float(hi), n
    mean = float(v.mean())
    half = t975(n - 1) * float(v.std(ddof=1)) / math.sqrt(n) if n > 1 else math.inf
    return mean, mean - half, mean + half, n


def paired(o: Objective, a: Scored, b: Scored, i: int = 0) -> tuple[float, float, float, int]:
    """The difference ``a - b`` of objective ``i`` over the replicates both finished.

    Its mean and 95% Student-t interval: of the replicate-by-replicate differences; for a
    win rate of decisive battles (a ratio: wins over decisive battles), of the two ratios'
    difference, each replicate's share of it linearised (the delta method), so a draw on
    one side of a pair still counts on the other.
    """
    size = min(len(a), len(b))
    keep = ~(a.failed[:size] | b.failed[:size])
    va, vb = a.values[:size, i][keep], b.values[:size, i][keep]
    n = len(va)
    if o.what == "wins" and o.of == "decisive":
        da, db = ~np.isnan(va), ~np.isnan(vb)
        if n < 2 or not da.any() or not db.any():
            return math.nan, math.nan, math.nan, n
        wa, wb = np.nan_to_num(va), np.nan_to_num(vb)
        ra, rb = wa.sum() / da.sum(), wb.sum() / db.sum()
        d = (wa - ra * da) / da.mean() - (wb - rb * db) / db.mean()
        mean = float(ra - rb)
    else:
        d = va - vb
        d = d[~np.isnan(d)]
        n = len(d)
        if n < 2:
            return math.nan, math.nan, math.nan, n
        mean = float(d.mean())
    half = t975(n - 1) * float(d.std(ddof=1)) / math.sqrt(n)
    return mean, mean - half, mean + half, n


def progress_line(design: Optimize, history: History) -> str:
    """One line: the best point so far by the search's battles, or the confirmation's."""
    o = design.s.objectives[0]
    stage = history.batches[-1].get("stage") if history.batches else ""
    if stage in ("confirm", "final"):
        order, by_point = confirmed(design, history)
        best = order[0]
        measured = confirmed(design, history, "final")[1] if stage == "final" else by_point
        mean, lo, hi, n = interval(o, measured[best].values[:, 0])
        what = "confirmed best" if stage == "confirm" else "the best on fresh seeds:"
        return f"{what} {describe(design, history, best)}: {o.name} {with_ci(o, mean, lo, hi)}"
    table = searched(design, history)
    asked = len(design.trials(history))
    if not len(table):
        return f"trial {asked} of {design.s.trials}: no finished battle yet"
    best = int(best_first(design, table).index[0])
    row = table.loc[best]
    return (
        f"trial {asked} of {design.s.trials}: best so far {describe(design, history, best)}: "
        f"{o.name} {shown(o, row['o0'])} ({int(row['battles'])} battles)"
    )


def answer(design: Optimize, history: History) -> Answer:
    """The answer: the confirmed ranking (or front), the best and its runner-up."""
    order, by_point = confirmed(design, history)
    table = searched(design, history)
    objs = design.s.objectives
    final = confirmed(design, history, "final")[1]
    again = f", the best two again with {len(final[order[0]])} fresh shared seeds" if final else ""
    counts = "; ".join(o.counts for o in objs if o.counts)
    head = (
        f"optimize: {' and '.join(f'{o.direction} {o.name}' for o in objs)}; "
        f"{len(design.trials(history))} trials over {len(table)} points, then the top "
        f"{len(order)} again with {len(by_point[order[0]]) if order else 0} shared seeds"
        f"{again}; {history.spent:,} battles" + (f"; {counts}" if counts else "")
    )
    if not order:
        return Answer("unanswered", 1, [head, "no battle of the search finished: no answer."])
    lines = [head, *_verdict(design, history, order, by_point, final), *_alike(design, history)]
    tables = [_ranking(design, history, order, by_point), _search_table(design, history, table)]
    charts = [("history.png", optplot.history(design, history))]
    if len(objs) == 2:
        boxes = [[interval(o, by_point[p].values[:, i]) for i, o in enumerate(objs)] for p in order]
        charts.append(("front.png", optplot.front(design, table, boxes)))
    else:
        names = [describe(design, history, p) for p in order]
        rows = [interval(objs[0], by_point[p].values[:, 0]) for p in order]
        charts.append(("ranking.png", optplot.ranking(design, names, rows)))
    data = _data(design, history, order, by_point, final)
    return Answer("answered", 0, lines, tables, charts, data)


def _verdict(
    design: Optimize,
    history: History,
    order: list[int],
    by_point: dict[int, Scored],
    final: dict[int, Scored],
) -> list[str]:
    o = design.s.objectives[0]
    if len(design.s.objectives) == 2:
        return ["the Pareto front (no candidate beats another on both objectives): below."]
    best = order[0]
    fresh = len(order) > 1 and order[1] in final and best in final
    measured = final if fresh else by_point
    where = "fresh battles that did not pick it" if fresh else "the battles that ranked it"
    mean, lo, hi, n = interval(o, measured[best].values[:, 0])
    lines = [
        f"best: {describe(design, history, best)}: {o.name} {with_ci(o, mean, lo, hi)} "
        f"over {n} {where} (95% interval)."
    ]
    if len(order) < 2:
        return [*lines, "only one candidate: no runner-up to compare with."]
    second = order[1]
    m2, lo2, hi2, _ = interval(o, measured[second].values[:, 0])
    d, dlo, dhi, pairs = paired(o, measured[best], measured[second])
    unit = 100 if o.share else 1
    word = "points" if o.share else o.name.split()[-1]
    if not math.isnan(dlo) and dlo > 0:
        verdict = "the best is clearly better"
    elif not math.isnan(dhi) and dhi < 0:
        verdict = "the runner-up is clearly better on these battles: the ranking was luck"
    else:
        verdict = "not clearly better: the two are within the noise"
    seeds = (
        "fresh shared seeds, not the ones that ranked them"
        if fresh
        else "the shared seeds that ranked them, which flatter the gap (no final comparison)"
    )
    return [
        *lines,
        f"runner-up: {describe(design, history, second)}: {o.name} {with_ci(o, m2, lo2, hi2)}.",
        f"best minus runner-up: {unit * d:+.1f} {word} [{unit * dlo:+.1f} to {unit * dhi:+.1f}] "
        f"(paired over {pairs} {seeds}): {verdict}.",
    ]


def _alike(design: Optimize, history: History) -> list[str]:
    """A note when candidates fought identical battles on the confirmation's first seeds."""
    runs = stage_runs(history, "confirm")
    cols = [
        c for c in runs.columns if c in ("winner", "rounds") or c.startswith(("lost.", "down."))
    ]
    battles = {
        int(point): [tuple(r) for r in group[cols].astype(object).to_numpy()]
        for point, group in runs.groupby("point", sort=True)
    }
    groups = alike(battles)
    if not groups:
        return []
    return [alike_note([[describe(design, history, p) for p in g] for g in groups]) + "."]


def _ranking(
    design: Optimize, history: History, order: list[int], by_point: dict[int, Scored]
) -> dict[str, Any]:
    objs = design.s.objectives
    headers = ["rank", *(design.search.label(p.name) for p in design.params), "battles"]
    headers += [f"{o.name} [95% CI]" for o in objs]
    if len(objs) == 1:
        headers.append("vs best, paired [95% CI]")
    rows = []
    best = by_point[order[0]]
    for rank, point in enumerate(order, 1):
        v = history.points[point]
        row = [str(rank), *(p.shown(v[p.name]) for p in design.params), str(len(by_point[point]))]
        for i, o in enumerate(objs):
            mean, lo, hi, _ = interval(o, by_point[point].values[:, i])
            row.append(with_ci(o, mean, lo, hi))
        if len(objs) == 1:
            if rank == 1:
                row.append("-")
            else:
                d, dlo, dhi, _ = paired(objs[0], by_point[point], best)
                u = 100 if objs[0].share else 1
                row.append(f"{u * d:+.1f} [{u * dlo:+.1f} to {u * dhi:+.1f}]")
        rows.append(row)
    title = (
        "Ranking, confirmed with shared seeds"
        if len(objs) == 1
        else "Pareto front, confirmed with shared seeds"
    )
    return {"title": title, "headers": headers, "rows": rows}


def _search_table(design: Optimize, history: History, table: pd.DataFrame) -> dict[str, Any]:
    objs = design.s.objectives
    headers = [*(design.search.label(p.name) for p in design.params), "trials", "battles"]
    headers += [f"{o.name} (search)" for o in objs]
    rows = []
    for point, row in best_first(design, table).head(10).iterrows():
        v = history.points[int(point)]
        cells = [
            *(p.shown(v[p.name]) for p in design.params),
            str(int(row["trials"])),
            str(int(row["battles"])),
        ]
        cells += [shown(o, row[f"o{i}"]) for i, o in enumerate(objs)]
        rows.append(cells)
    return {
        "title": "The search's best points (by every battle it fought at each)",
        "headers": headers,
        "rows": rows,
    }


def _candidate(design: Optimize, history: History, point: int, scored: Scored) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "point": point,
        "values": history.points[point],
        "battles": len(scored),
    }
    for i, o in enumerate(design.s.objectives):
        mean, lo, hi, n = interval(o, scored.values[:, i])
        entry[f"objective{i + 1}"] = {"mean": mean, "lo": lo, "hi": hi, "n": n}
    return entry


def _data(
    design: Optimize,
    history: History,
    order: list[int],
    by_point: dict[int, Scored],
    final: dict[int, Scored],
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "objectives": [
            {"what": o.what, "side": o.side, "direction": o.direction, "of": o.of}
            for o in design.s.objectives
        ],
        "trials": len(design.trials(history)),
        "battles": history.spent,
        "candidates": [_candidate(design, history, p, by_point[p]) for p in order],
    }
    if len(order) > 1 and len(design.s.objectives) == 1:
        o = design.s.objectives[0]
        fresh = order[0] in final and order[1] in final
        measured = final if fresh else by_point
        d, lo, hi, n = paired(o, measured[order[0]], measured[order[1]])
        out["best_minus_runner_up"] = {"mean": d, "lo": lo, "hi": hi, "pairs": n, "fresh": fresh}
        if fresh:
            out["final"] = [_candidate(design, history, p, final[p]) for p in order[:2]]
    return out


class OptimizeDesign(Optimize):
    """The optimize design the driver runs (:class:`sim.search.core.Design`)."""

    def progress(self, history: History) -> str:
        """The best point so far (by the mean of its battles), or the confirmation's."""
        return progress_line(self, history)

    def answer(self, history: History) -> Answer:
        """The answer (:func:`answer`)."""
        return answer(self, history)


def make(search: Search) -> OptimizeDesign:
    """The optimize design of ``search``."""
    return OptimizeDesign(search)
