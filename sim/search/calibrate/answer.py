"""A calibration's answer: in words, as tables, as charts, and as figures for programs.

Each unknown gets its fitted value (the posterior median of a number, the most probable
choice) and its 95% interval (a set of choices); an interval that spans the prior is said
not to be pinned down by the observations, one that reaches an end of the prior range is
said to, since the truth may lie beyond it; a narrow one pins it down, a wider one narrows
it (:func:`verdict`). The predictive check sets each observed
statistic beside the fitted model's 95% predictive interval at the observed sample size
and names those it fails to reproduce.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from sim.intervals import wilson
from sim.search.calibrate import charts as calplot
from sim.search.calibrate import dispersion
from sim.search.calibrate import posterior as post
from sim.search.calibrate.plan import Calibrate
from sim.search.core import Answer, History
from sim.search.spec import Search

PREDICTIVE_KEY = 0x43414C49
"""The first word of the predictive check's seed key (``SeedSequence(master, (KEY,))``)."""


def shown(p: Any, v: Any) -> str:
    """An unknown's value as the answer shows it."""
    if v is None:
        return "-"
    if p.kind == "real":
        return f"{v:.3g}"
    return str(p.shown(v))


def interval_text(p: Any, iv: post.Interval) -> str:
    """``3 [95%: 3-4]`` or ``none (95% set: none, all)``."""
    if p.kind in ("choices", "bundle"):
        return f"{shown(p, iv.fitted)} (95% set: {', '.join(shown(p, c) for c in iv.chosen)})"
    return f"{shown(p, iv.fitted)} [95%: {shown(p, iv.lo)} to {shown(p, iv.hi)}]"


PINNED = 0.25
"""An interval at most this share of its prior range pins an unknown down."""


def verdict(p: Any, iv: post.Interval, values: Any) -> str:
    """Whether the data pin the unknown down, in words, from its interval's width.

    ``values``: the unknown's prior grid. An interval of at most :data:`PINNED` of the
    prior range (a choice's 95% set of one) pins it down; a wider one narrows it
    (``narrowed to 3 to 9 of 1 to 10``).
    """
    if iv.spans:
        return "not pinned down: the interval spans the prior"
    if iv.low_end:
        return "reaches the low end of the prior: the truth may lie below it"
    if iv.high_end:
        return "reaches the high end of the prior: the truth may lie above it"
    if p.kind in ("choices", "bundle"):
        if len(iv.chosen) == 1:
            return "pinned down"
        kept, of = (", ".join(shown(p, v) for v in vs) for vs in (iv.chosen, values))
        return f"narrowed to {kept} of {of}"
    if iv.hi - iv.lo <= PINNED * (values[-1] - values[0]):
        return "pinned down"
    return (
        f"narrowed to {shown(p, iv.lo)} to {shown(p, iv.hi)} of "
        f"{shown(p, values[0])} to {shown(p, values[-1])}"
    )


def stat_value(stat: Any, v: float) -> str:
    """A statistic's value: a share in percent, a mean with two decimals."""
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "-"
    return f"{100 * v:.1f}%" if stat.kind == "share" else f"{v:.2f}"


def stat_range(stat: Any, lo: float, hi: float) -> str:
    """A 95% range of a statistic."""
    if stat.kind == "share":
        return f"[{100 * lo:.1f}-{100 * hi:.1f}]"
    return f"[{lo:.2f}-{hi:.2f}]"


def answer(design: Calibrate, history: History) -> Answer:
    """The answer from every battle fought (see the module's docstring)."""
    sims, weights, joint = design.fit_joint(history)
    grid, table = design.grid, design.table
    ok = int(sims.ok.sum())

    def count(n: int, word: str, many: str) -> str:
        return f"{n:,} {word if n == 1 else many}"

    size = [
        count(len(grid.params), "unknown", "unknowns"),
        f"on a grid of {count(grid.size, 'cell', 'cells')}",
        count(len(table.rows), "observed row", "observed rows"),
        count(len(table.stats), "statistic", "statistics"),
    ]
    spent = f"{count(history.spent, 'battle', 'battles')} in "
    head = f"calibrate: {size[0]} {size[1]}, {size[2]}, {size[3]}; {spent}" + count(
        len(history.batches), "batch", "batches"
    )
    if not ok:
        return Answer("unanswered", 1, [head, "no battle finished: no answer."])
    ivs = [
        post.interval(p, grid.values[i], post.marginal(grid, weights, i))
        for i, p in enumerate(grid.params)
    ]
    seed = np.random.SeedSequence(design.search.seed, spawn_key=(PREDICTIVE_KEY,))
    disp = design.s.dispersion
    rhos = None if joint is None else (disp.values, joint)
    checks = post.predictive(sims, table, weights, np.random.default_rng(seed), rhos=rhos)
    lines = [head, *_words(design, ivs, checks, history)]
    said = None if joint is None else dispersion.words(disp, joint)
    if said:
        lines.insert(1 + len(ivs), said)
    tables = [
        _unknowns(design, ivs),
        *_marginals(design, weights),
        _check_table(design, checks),
    ]
    charts = [
        ("posterior.png", calplot.pairs(design, weights, ivs)),
        ("predictive.png", calplot.predictive(design, checks)),
    ]
    data = _data(design, history, weights, ivs, checks)
    if joint is not None:
        data["dispersion"] = {"values": list(disp.values), "posterior": dispersion.marginal(joint)}
    return Answer("answered", 0, lines, tables, charts, data)


def _words(
    design: Calibrate, ivs: list[post.Interval], checks: list[post.Check], history: History
) -> list[str]:
    out = []
    for p, iv, values in zip(design.grid.params, ivs, design.grid.values, strict=True):
        said = verdict(p, iv, values)
        out.append(f"{design.search.label(p.name)}: {interval_text(p, iv)}; {said}.")
    bad = [c for c in checks if c.fails]
    inside = len(checks) - len(bad)
    line = (
        f"predictive check: {inside} of {len(checks)} observed statistics inside the fitted "
        "model's 95% interval"
    )
    if bad:
        named = "; ".join(
            f"row {design.labels[c.row]} {c.stat.name} {stat_value(c.stat, c.observed)} "
            f"(model {stat_range(c.stat, c.lo, c.hi)})"
            for c in bad[:5]
        )
        line += f"; it fails to reproduce {named}" + (" ..." if len(bad) > 5 else "")
    out.append(line + ".")
    short = [w for w in design.wanted(history) if w[2] > 0]
    if short:
        cells = len({c for c, _, _ in short})
        out.append(
            f"the budget ran out before {cells} plausible cell{'s' if cells > 1 else ''} had "
            "all their battles: the intervals carry that simulation's noise too (wider)."
        )
    return out


def _unknowns(design: Calibrate, ivs: list[post.Interval]) -> dict[str, Any]:
    rows = []
    for i, (p, iv) in enumerate(zip(design.grid.params, ivs, strict=True)):
        values = design.grid.values[i]
        if p.kind in ("choices", "bundle"):
            prior = ", ".join(shown(p, v) for v in values)
            fitted, rng = shown(p, iv.fitted), ", ".join(shown(p, c) for c in iv.chosen)
        else:
            prior = f"{shown(p, values[0])} to {shown(p, values[-1])} ({len(values)} values)"
            fitted, rng = shown(p, iv.fitted), f"{shown(p, iv.lo)} to {shown(p, iv.hi)}"
        rows.append([design.search.label(p.name), prior, fitted, rng, verdict(p, iv, values)])
    return {
        "title": "Unknowns: fitted value and 95% interval (posterior, uniform prior on the grid)",
        "headers": ["unknown", "prior", "fitted", "95% interval", "the data"],
        "rows": rows,
    }


def _marginals(design: Calibrate, weights: np.ndarray[Any, Any]) -> list[dict[str, Any]]:
    out = []
    for i, p in enumerate(design.grid.params):
        mass = post.marginal(design.grid, weights, i)
        rows = [[shown(p, v), f"{m:.3f}"] for v, m in zip(design.grid.values[i], mass, strict=True)]
        label = design.search.label(p.name)
        out.append(
            {"title": f"Posterior of {label}", "headers": [label, "posterior"], "rows": rows}
        )
    return out


def _setting(design: Calibrate, r: int) -> str:
    row = design.table.rows[r]
    return ", ".join(f"{path}={v}" for path, v in (row.shown or row.setting))


def _own(c: post.Check) -> str:
    """The observation's own 95% interval (a share's Wilson interval at its sample size)."""
    if c.stat.kind != "share" or c.n < 1:
        return stat_value(c.stat, c.observed)
    _, lo, hi = wilson(round(c.observed * c.n), round(c.n))
    return f"{stat_value(c.stat, c.observed)} {stat_range(c.stat, float(lo), float(hi))}"


def _check_table(design: Calibrate, checks: list[post.Check]) -> dict[str, Any]:
    rows = []
    for c in checks:
        rows.append(
            [
                design.labels[c.row],
                _setting(design, c.row),
                c.stat.name,
                _own(c),
                f"{c.n:.0f}",
                f"{stat_value(c.stat, c.mean)} {stat_range(c.stat, c.lo, c.hi)}",
                f"{c.p:.2f}",
                "FAILS" if c.fails else "ok",
            ]
        )
    return {
        "title": "Predictive check: each observation beside the fitted model at its sample size",
        "headers": [
            "row",
            "setting",
            "statistic",
            "observed [95% CI]",
            "n",
            "model [95% predictive]",
            "p",
            "reproduced",
        ],
        "rows": rows,
    }


def _data(
    design: Calibrate,
    history: History,
    weights: np.ndarray[Any, Any],
    ivs: list[post.Interval],
    checks: list[post.Check],
) -> dict[str, Any]:
    params = []
    for i, (p, iv) in enumerate(zip(design.grid.params, ivs, strict=True)):
        mass = post.marginal(design.grid, weights, i)
        params.append(
            {
                **interval_data(p, iv),
                "values": list(design.grid.values[i]),
                "posterior": [float(m) for m in mass],
            }
        )
    return {
        "parameters": params,
        "cells": design.grid.size,
        "plausible": len(post.plausible(weights, 1 - 1e-3)),
        "battles": history.spent,
        "predictive": checks_data(design.labels, checks),
    }


def interval_data(p: Any, iv: post.Interval) -> dict[str, Any]:
    """An unknown's fitted value and interval for programs."""
    return {
        "name": p.name,
        "kind": p.kind,
        "fitted": iv.fitted,
        "lo": iv.lo,
        "hi": iv.hi,
        "set": list(iv.chosen),
        "spans_prior": iv.spans,
    }


def checks_data(labels: Any, checks: list[post.Check]) -> list[dict[str, Any]]:
    """The predictive check's figures for programs, one mapping per observed statistic."""
    return [
        {
            "row": labels[c.row],
            "statistic": c.stat.name,
            "observed": c.observed,
            "n": c.n,
            "mean": c.mean,
            "lo": c.lo,
            "hi": c.hi,
            "p": c.p,
            "reproduced": not c.fails,
        }
        for c in checks
    ]


class CalibrateDesign(Calibrate):
    """The calibrate design the driver runs (:class:`sim.search.core.Design`)."""

    def answer(self, history: History) -> Answer:
        """The answer (:func:`answer`)."""
        return answer(self, history)


def make(search: Search) -> CalibrateDesign:
    """The grid's calibrate design of ``search``."""
    return CalibrateDesign(search)
