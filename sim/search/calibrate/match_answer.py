"""History matching's answer: the settings not ruled out, weighed by the table's likelihood.

From every battle the emulators are fitted once more; :data:`FINAL` settings drawn from the
region the last wave left in play, those not ruled out are weighed by the likelihood of the
observed table under the emulators (each statistic normal about the emulated value, its
variance the emulator's, the observation's and the dispersion's), under the uniform prior.
Each unknown's fitted value is the weighted median, its 95% interval the weighted 2.5% and
97.5% quantiles (a choice: the fewest values holding 95%). The predictive check draws the
settings by weight and each observation's replicate about the emulated value.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from matplotlib.figure import Figure

from sim.charts import COLORS, literal
from sim.search.calibrate import answer as grid_answer
from sim.search.calibrate import charts as calplot
from sim.search.calibrate import emulate
from sim.search.calibrate import posterior as post
from sim.search.calibrate.match import Match, volume_text
from sim.search.core import Answer, History

FINAL = 40_000
"""Settings drawn from the last region to weigh."""
DRAWS = 4000
FINAL_KEY = 0x46494E


def weighed(design: Match, history: History) -> tuple[Any, Any, Any, bool, Any]:
    """Settings of the last region (scaled, combination) and their posterior weights.

    And whether any was not ruled out (else every one is weighed), and the region.
    """
    last = history.batches[-1].get("note", {}) if history.batches else {}
    box = np.array(last.get("box", [[0.0, 1.0]] * design.space.d), dtype=float)
    box = box.reshape(design.space.d, 2)
    seed = np.random.SeedSequence(design.search.seed, spawn_key=(FINAL_KEY,))
    x, combo = design.space.sample(np.random.default_rng(seed), FINAL, box)
    means, _, totals = design.assess(history, x, combo, box)
    keep = emulate.implausibility(means, totals, design.targets) <= emulate.CUTOFF
    any_kept = bool(keep.any())
    if any_kept:
        x, combo = x[keep], combo[keep]
        means, totals = [m[keep] for m in means], [t[keep] for t in totals]
    ll = emulate.loglik(means, totals, design.targets, design.s.weights)
    return x, combo, post.posterior(ll), any_kept, box


def _interval(p: Any, v: np.ndarray[Any, Any], w: np.ndarray[Any, Any]) -> post.Interval:
    """The weighted median and 95% interval of an unknown's values ``v``."""
    order = np.argsort(v, kind="stable")
    cdf = np.cumsum(w[order])
    q = [
        float(v[order][min(int(np.searchsorted(cdf, x - 1e-12)), len(v) - 1)])
        for x in (0.025, 0.5, 0.975)
    ]
    if p.kind == "whole":
        q = [int(round(x)) for x in q]
    low, high = float(p.low), float(p.high)
    step = 0.5 if p.kind == "whole" else 0.025 * (high - low)
    low_end, high_end = q[0] <= low + step, q[2] >= high - step
    return post.Interval(q[1], q[0], q[2], (), low_end and high_end, low_end, high_end)


def intervals(design: Match, x: Any, combo: Any, w: Any) -> list[post.Interval]:
    """Each unknown's interval (in the grid's order of parameters)."""
    out = []
    for p in design.grid.params:
        if p in design.space.numeric:
            j = design.space.numeric.index(p)
            v = float(p.low) + x[:, j] * (float(p.high) - float(p.low))
            out.append(_interval(p, v, w))
        else:
            k = design.space.choices.index(p)
            values = [c[k] for c in design.space.combos]
            mass = np.array([w[np.array([values[c] == v for c in combo])].sum() for v in p.choices])
            out.append(post.interval(p, tuple(p.choices), mass))
    return out


def predictive(
    design: Match, history: History, x: Any, combo: Any, w: Any, box: Any
) -> list[post.Check]:
    """The predictive check at settings drawn by weight."""
    seed = np.random.SeedSequence(design.search.seed, spawn_key=(FINAL_KEY, 1))
    rng = np.random.default_rng(seed)
    picks = rng.choice(len(w), size=DRAWS, p=w)
    means, _, totals = design.assess(history, x[picks], combo[picks], box)
    out = []
    for t, m, v in zip(design.targets, means, totals, strict=True):
        rep = m + np.sqrt(v) * rng.standard_normal(DRAWS)
        rep = np.clip(rep, 0.0, 1.0 if t.stat.kind == "share" or t.stat.fraction else np.inf)
        lo, hi = (float(q) for q in np.quantile(rep, [0.025, 0.975]))
        tail = min(float(np.mean(rep <= t.observed)), float(np.mean(rep >= t.observed)))
        n = t.n
        out.append(
            post.Check(
                t.r, t.stat, t.observed, float(n), float(rep.mean()), lo, hi, min(1.0, 2 * tail)
            )
        )
    return out


def answer(design: Match, history: History) -> Answer:
    """The answer from every battle fought (see the module's docstring)."""
    g = design.grid
    head = (
        f"calibrate (history matching): {len(g.params)} unknowns, {len(design.labels)} "
        f"observed rows, {len(design.table.stats)} statistics; {history.spent:,} battles in "
        f"{len(history.batches)} waves"
    )
    if not history.spent or not (~history.runs["failed"]).any():
        return Answer("unanswered", 1, [head, "no battle finished: no answer."])
    x, combo, w, kept, box = weighed(design, history)
    ivs = intervals(design, x, combo, w)
    checks = predictive(design, history, x, combo, w, box)
    lines = [head]
    for p, iv in zip(g.params, ivs, strict=True):
        said = grid_answer.verdict(p, iv, _prior(p))
        lines.append(f"{design.search.label(p.name)}: {grid_answer.interval_text(p, iv)}; {said}.")
    last = history.batches[-1].get("note", {})
    lines.append(
        f"history matching: {volume_text(float(last.get('volume', 1.0)))} of the prior in play "
        "after the waves"
        + (
            ""
            if kept
            else "; no setting is plausible: every one is ruled out, the least "
            "implausible are weighed"
        )
        + "."
    )
    bad = [c for c in checks if c.fails]
    line = f"predictive check: {len(checks) - len(bad)} of {len(checks)} observed statistics "
    line += "inside the fitted model's 95% interval"
    if bad:
        line += (
            "; it fails to reproduce "
            + "; ".join(
                f"row {design.labels[c.row]} {c.stat.name} "
                f"{grid_answer.stat_value(c.stat, c.observed)} "
                f"(model {grid_answer.stat_range(c.stat, c.lo, c.hi)})"
                for c in bad[:5]
            )
            + (" ..." if len(bad) > 5 else "")
        )
    lines.append(line + ".")
    like: Any = design  # the grid's tables and charts read its labels, table and search
    tables = [_unknowns(design, ivs), _waves(history), grid_answer._check_table(like, checks)]
    charts = [
        ("posterior.png", scatter(design, x, w, ivs)),
        ("predictive.png", calplot.predictive(like, checks)),
    ]
    data = _data(design, history, ivs, checks)
    return Answer("answered", 0, lines, tables, charts, data)


def _data(design: Match, history: History, ivs: list[post.Interval], checks: Any) -> Any:
    """The answer's figures for programs."""
    return {
        "method": "match",
        "parameters": [
            grid_answer.interval_data(p, iv) for p, iv in zip(design.grid.params, ivs, strict=True)
        ],
        "waves": [dict(b.get("note", {})) for b in history.batches],
        "battles": history.spent,
        "predictive": grid_answer.checks_data(design.labels, checks),
    }


def _prior(p: Any) -> tuple[Any, ...]:
    """An unknown's prior as the verdict reads it: its choices, or its two ends."""
    if p.kind not in ("whole", "real"):
        return tuple(p.choices)
    return tuple(int(v) if p.kind == "whole" else float(v) for v in (p.low, p.high))


def _unknowns(design: Match, ivs: list[post.Interval]) -> dict[str, Any]:
    rows = []
    for p, iv in zip(design.grid.params, ivs, strict=True):
        if p.kind in ("whole", "real"):
            low, high = _prior(p)
            prior = f"{grid_answer.shown(p, low)} to {grid_answer.shown(p, high)}"
            rng = f"{grid_answer.shown(p, iv.lo)} to {grid_answer.shown(p, iv.hi)}"
            said = grid_answer.verdict(p, iv, (low, high))
        else:
            prior, rng = ", ".join(map(str, p.choices)), ", ".join(map(str, iv.chosen))
            said = grid_answer.verdict(p, iv, p.choices)
        rows.append(
            [design.search.label(p.name), prior, grid_answer.shown(p, iv.fitted), rng, said]
        )
    return {
        "title": "Unknowns: fitted value and 95% interval (history matching, uniform prior)",
        "headers": ["unknown", "prior", "fitted", "95% interval", "the data"],
        "rows": rows,
    }


def _waves(history: History) -> dict[str, Any]:
    rows = []
    for k, b in enumerate(history.batches):
        note = b.get("note", {})
        battles = int(b.get("stop", 0)) - int(b.get("first", 0))
        rows.append(
            [
                str(k + 1),
                str(note.get("points", 0)),
                f"{battles:,}",
                volume_text(float(note.get("volume", 1.0))),
            ]
        )
    return {
        "title": "Waves: design points, battles, and the share of the prior still in play",
        "headers": ["wave", "points", "battles", "in play"],
        "rows": rows,
    }


@literal
def scatter(design: Match, x: Any, w: Any, ivs: list[post.Interval]) -> Figure:
    """Each numeric unknown's weighted histogram, and each pair's weighted settings."""
    nums = design.space.numeric
    k = max(len(nums), 1)
    fig = Figure(figsize=(3.2 * k + 1, 3.0 * k + 0.6), layout="constrained")
    axes = fig.subplots(k, k, squeeze=False)
    vals = [float(p.low) + x[:, j] * (float(p.high) - float(p.low)) for j, p in enumerate(nums)]
    for i in range(k):
        for j in range(k):
            ax = axes[i][j]
            if j > i or not nums:
                ax.set_axis_off()
            elif i == j:
                ax.hist(vals[i], bins=30, weights=w, color=COLORS[0])
                ax.set_xlabel(design.search.label(nums[i].name))
            else:
                ax.scatter(vals[j], vals[i], s=4, c=w, cmap="Blues", alpha=0.6)
                ax.set_xlabel(design.search.label(nums[j].name))
                ax.set_ylabel(design.search.label(nums[i].name))
    axes[0][0].set_title("Posterior of the unknowns (settings weighed)", loc="left")
    return fig


class MatchDesign(Match):
    """The history-matching design the driver runs (:class:`sim.search.core.Design`)."""

    def answer(self, history: History) -> Answer:
        """The answer (:func:`answer`)."""
        return answer(self, history)
