"""c. Lanchester: the bigger of two identical sides wins, set against Lanchester's laws.

N v M identical fighters (2 v 1 to 20 v 16, everyday and one-hit-one-kill), morale off and
one initiative die per side, at the default scale and forced small, beside Brown's
stochastic square and linear laws computed exactly (:func:`benchmarks.validity.laws.lanchester`).
**Invariant:** the bigger side wins more often than not (99% interval of its share of the
decisive battles above 50%).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from benchmarks.validity.base import (
    ATTRITION,
    CONFIG_TITLES,
    SYSTEMS,
    config_text,
    default_scale,
    scale_arg,
    title,
)
from benchmarks.validity.battles import Point, Runner, Sample
from benchmarks.validity.charts import errorbar, pyplot
from benchmarks.validity.laws import Law, lanchester
from benchmarks.validity.report import md_table, verdict
from benchmarks.validity.stats import Check, Share, paired_difference, pct
from benchmarks.validity.study import Part, Results, Study

LANCHESTER_SIZES = ((2, 1), (4, 3), (10, 8), (20, 16))


@dataclass(frozen=True)
class AttritionRow:
    """N v M identical fighters of a config, at the default scale or forced small."""

    system: str
    config: str
    n: int
    m: int
    scale: str  # "small", "large" (the default threshold) or "small (forced)"
    sample: Sample

    @property
    def wins(self) -> Share:
        """The bigger side A's win rate over all battles."""
        return Share(self.sample.a_wins, self.sample.runs)

    @property
    def decisive(self) -> Share:
        """A's share of the decisive battles."""
        return Share(self.sample.a_wins, self.sample.decisive)

    @property
    def square(self) -> Law:
        return lanchester(self.n, self.m, "square")

    @property
    def linear(self) -> Law:
        return lanchester(self.n, self.m, "linear")

    @property
    def passed(self) -> bool:
        """The bigger side wins more often than the smaller: 99% lower bound above 50%."""
        return self.decisive.n > 0 and self.decisive.lo > 0.5

    @property
    def nearest(self) -> str:
        """Which law A's win rate agrees with: the laws inside its 99% interval, or where."""
        w, sq, li = self.wins, self.square.p_a, self.linear.p_a
        has_sq, has_li = w.lo <= sq <= w.hi, w.lo <= li <= w.hi
        if has_sq and has_li:
            return "both"
        if has_sq or has_li:
            return "square" if has_sq else "linear"
        if w.lo > max(sq, li):
            return "above square"
        if w.hi < min(sq, li):
            return "below linear"
        return "between"


def lanchester_study(
    runner: Runner,
    runs: int,
    systems: Sequence[str] = SYSTEMS,
    configs: Sequence[str] = ("everyday", "one_hit"),
    sizes: Sequence[tuple[int, int]] = LANCHESTER_SIZES,
    scales: Sequence[str] = ("default", "small (forced)"),
) -> list[AttritionRow]:
    """c. N v M identical fighters with morale off and one initiative die per side.

    ``scales``: ``default`` fights each size at the scale the default threshold gives it;
    ``small (forced)`` fights the sizes that are large by default at small scale too. Both
    fight with the same seeds (paired battles).
    """
    plan = []
    for s in systems:
        for c in configs:
            for n, m in sizes:
                chosen = []
                if "default" in scales:
                    chosen.append(default_scale(n, m))
                if "small (forced)" in scales and default_scale(n, m) == "large":
                    chosen.append("small (forced)")
                for sc in chosen:
                    text = config_text(
                        s, c, n, m, battle=ATTRITION, large_scale_above=scale_arg(sc)
                    )
                    key = f"lanchester/{s}/{c}/{n}v{m}"
                    plan.append((s, c, n, m, sc, Point(f"{key}/{sc}", text, runs, seed_key=key)))
    got = runner.run([p for *_, p in plan])
    return [AttritionRow(s, c, n, m, sc, got[p.key]) for s, c, n, m, sc, p in plan]


def scale_gaps(rows: Sequence[AttritionRow], points: float = 0.05) -> list[str]:
    """Sentences on the sizes whose win rate at large scale differs from forced small.

    Only gaps of more than ``points`` whose paired 99% interval excludes 0.
    """
    out = []
    for r in rows:
        if r.scale != "large":
            continue
        twin = next(
            (
                x
                for x in rows
                if (x.system, x.config, x.n, x.m) == (r.system, r.config, r.n, r.m)
                and x.scale == "small (forced)"
            ),
            None,
        )
        if twin is None or twin.sample.runs != r.sample.runs:
            continue
        diff, lo, hi = paired_difference(r.sample, twin.sample)
        if abs(diff) > points and (lo > 0 or hi < 0):
            out.append(
                f"{title(r.system)}, {CONFIG_TITLES[r.config]} {r.n} v {r.m}: the bigger "
                f"side wins {pct(r.wins.p)} at large scale against {pct(twin.wins.p)} forced "
                f"small ({100 * diff:+.1f} points, 99% {100 * lo:+.1f} to {100 * hi:+.1f}, "
                "paired)."
            )
    return out


def lanchester_checks(rows: Sequence[AttritionRow]) -> list[Check]:
    """One check per system, config, size and scale: the bigger side wins more often."""
    return [
        Check(
            "lanchester",
            r.system,
            f"{CONFIG_TITLES[r.config]} {r.n} v {r.m} ({r.scale}): the bigger side wins "
            "more often than not",
            r.passed,
            f"A {r.decisive.text()} of {r.decisive.n} decisive ({r.sample.draws} draws); "
            f"square law {pct(r.square.p_a)}",
        )
        for r in rows
    ]


def _num(x: float) -> str:
    return "-" if math.isnan(x) else f"{x:.2f}"


def _law_text(x: Any) -> str:
    return f"{100 * float(x):.1f}%"


def section(res: Results, charts: Mapping[str, str]) -> str:
    """The report's section c: what, the laws, the invariant, a row per battle, the gaps."""
    rows: list[AttritionRow] = res.rows["lanchester"]
    lines = ["## c. Lanchester scaling\n"]
    lines.append(
        "**What.** N v M identical fighters for (2, 1), (4, 3), (10, 8), (20, 16), everyday and "
        "one-hit-one-kill (see Method), with **morale off** (`battle: {morale: none}`) and "
        "**one initiative die per side** (`battle: {initiative: sides}`), so that only "
        "attrition decides and the bigger side does not also buy the first move with its "
        "head count. 10 v 8 and 20 v 16 are large scale under the default threshold; they "
        "are also fought forced small (`large_scale_above: 100000`).\n\n"
        "**The laws.** Brown's stochastic Lanchester laws, computed exactly by a dynamic "
        "program over the states (a, b) (`lanchester` in `benchmarks/validity/laws.py`): "
        "under the **square law** (aimed fire: every fighter fires at the same rate) the next "
        "casualty falls on B with probability a / (a + b); under the **linear law** "
        "(casualties from one-on-one encounters) with probability 1/2. Checks the code "
        "reproduces: square law "
        "P(2 beats 1) = 5/6, P(10 beats 8) = 0.7914; linear law P(10 beats 8) = 0.68547. A "
        "battle model need not follow either law exactly (turns, simultaneous volleys, "
        "dodging and wounds that take several hits all move it), but it should land near "
        "them and rise with the numbers as they do.\n\n"
        "**Invariant:** the bigger side wins more often than the smaller: the 99% interval "
        "of its share of the decisive battles lies above 50%. "
        f"{res.reps['lanchester']:,} battles each. *Laws* says which law lies inside the "
        "interval of A's win rate (or where the rate falls).\n"
    )
    lines.append(_table(rows))
    lines.append(
        "\n*Winner's survivors*: the mean fighters the winner still has standing, over the "
        "decisive battles, beside each law's expectation.\n"
    )
    gaps = scale_gaps(rows)
    lines.append(
        "Large scale against forced small (the same seeds): "
        + (
            "sizes where the bigger side's win rate differs by more than 5 points (paired "
            "99% interval clear of 0):\n\n" + "\n".join(f"- {g}" for g in gaps) + "\n"
            if gaps
            else "no size differs by more than 5 points with a paired 99% interval clear of 0.\n"
        )
    )
    if "lanchester" in charts:
        lines.append(
            f"![The bigger side's win rate against the square and linear laws]"
            f"({charts['lanchester']})\n"
        )
    return "\n".join(lines) + "\n"


def _table(results: Sequence[AttritionRow]) -> str:
    """A row per battle: A's win rate, the laws', the winner's survivors, rounds, verdict."""
    rows = []
    for r in results:
        rows.append(
            [
                title(r.system),
                CONFIG_TITLES[r.config],
                f"{r.n} v {r.m}",
                r.scale,
                r.wins.text(),
                pct(r.sample.draws / r.sample.runs),
                _law_text(r.square.p_a),
                _law_text(r.linear.p_a),
                r.nearest,
                _num(r.sample.winner_survivors()),
                f"{float(r.square.mean_winner):.2f}",
                f"{float(r.linear.mean_winner):.2f}",
                f"{r.sample.mean_rounds:.1f}",
                verdict(r.passed),
            ]
        )
    return md_table(
        [
            "system",
            "fighters",
            "battle",
            "scale",
            "A wins [99%]",
            "draws",
            "square",
            "linear",
            "laws",
            "winner's survivors",
            "square",
            "linear",
            "rounds",
            "verdict",
        ],
        rows,
        right="5,6,7,9,10,11,12",
    )


def chart(res: Results) -> Any:
    """The bigger side's win rate by size against both laws: a panel per config and system."""
    results: list[AttritionRow] = res.rows["lanchester"]
    if not results:
        return None
    configs = list(dict.fromkeys(r.config for r in results))
    systems = list(dict.fromkeys(r.system for r in results))
    sizes = list(dict.fromkeys((r.n, r.m) for r in results))
    fig, axes = pyplot().subplots(
        len(configs),
        len(systems),
        figsize=(3.2 * len(systems), 3.0 * len(configs)),
        squeeze=False,
        sharey=True,
    )
    x = np.arange(len(sizes))
    square = [100 * lanchester(n, m, "square").p_a for n, m in sizes]
    linear = [100 * lanchester(n, m, "linear").p_a for n, m in sizes]
    for i, c in enumerate(configs):
        for j, s in enumerate(systems):
            ax = axes[i][j]
            ax.plot(x, square, "k-", lw=1, label="square law")
            ax.plot(x, linear, "k--", lw=1, label="linear law")
            _points(ax, [r for r in results if r.config == c and r.system == s], sizes)
            ax.set_xticks(x, [f"{n} v {m}" for n, m in sizes], fontsize=7)
            ax.set_ylim(-3, 103)
            ax.set_title(f"{title(s)}, {CONFIG_TITLES[c]}", fontsize=8)
            if j == 0:
                ax.set_ylabel("bigger side wins (%)")
    axes[0][0].legend(fontsize=6, loc="lower left")
    fig.suptitle("c. Lanchester: the bigger side's win rate (morale off), 99% intervals")
    fig.tight_layout()
    return fig


def _points(ax: Any, rows: Sequence[AttritionRow], sizes: list[tuple[int, int]]) -> None:
    """A panel's win rates: at the default scale, and beside them forced small."""
    default = [r for r in rows if not r.scale.startswith("small (")]
    forced = [r for r in rows if r.scale.startswith("small (")]
    errorbar(
        ax,
        [sizes.index((r.n, r.m)) - 0.05 for r in default],
        [r.wins for r in default],
        fmt="o",
        color="tab:blue",
        label="default scale",
    )
    if forced:
        errorbar(
            ax,
            [sizes.index((r.n, r.m)) + 0.05 for r in forced],
            [r.wins for r in forced],
            fmt="s",
            color="tab:orange",
            label="forced small",
        )


# 800 battles a size: 99% half-width +-4.6 points at 50%.
STUDY = Study(
    "lanchester",
    (Part("lanchester", lanchester_study, full=800, quick=150),),
    section,
    lambda res: lanchester_checks(res.rows["lanchester"]),
    chart,
    summary="c. Lanchester",
)
