"""A solved game (:mod:`sim.games`) in words, tables and a heatmap, as answers show it.

The same for the game design (:mod:`sim.search.game`, kept in ``search/answer.json``) and
``sim analyze --game`` (:mod:`sim.analysis.game`): :func:`report` gives the lines and the
tables (``{title, headers, rows}``), :func:`heatmap` the payoff table drawn, and
:func:`data` the figures for programs. Every verdict said follows from the interval
printed beside it. Ground floor (with :mod:`sim.games` and :mod:`sim.charts`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from matplotlib.figure import Figure

from sim.charts import literal
from sim.games import Result
from sim.intervals import wilson


@dataclass(frozen=True, slots=True)
class Names:
    """Who plays and for what: the sides, what each chooses, its alternatives, the payoff."""

    row_side: str
    col_side: str
    row_choice: str
    col_choice: str
    rows: tuple[str, ...]
    cols: tuple[str, ...]
    of: str
    """``decisive`` or ``all``: which battles the row side's share is of."""

    @property
    def payoff(self) -> str:
        """``guards' win share of decisive battles``."""
        return f"{own(self.row_side)} win share of {self.of} battles"


def own(name: str) -> str:
    """``guards'``, ``shooter's``."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def pct(p: float) -> str:
    """``57.3%``."""
    return f"{100 * p:.1f}%"


def ci(lo: float, hi: float) -> str:
    """``[52.4-60.5]`` in percent."""
    return f"[{100 * lo:.1f}-{100 * hi:.1f}]"


def points(mean: float, lo: float, hi: float) -> str:
    """A difference in points: ``+15.3 [+4.1 to +25.3]``."""
    return f"{100 * mean:+.1f} [{100 * lo:+.1f} to {100 * hi:+.1f}]"


def mix_text(names: tuple[str, ...], mix: Any, bounds: Any) -> str:
    """``aggressive 27.3% [0.0-40.3], defensive 72.7% [8.2-85.8]`` (weights above 0 first)."""
    order = sorted(range(len(names)), key=lambda i: (mix[i] <= 0, i))
    return ", ".join(f"{names[i]} {pct(mix[i])} {ci(*bounds[i])}" for i in order)


def report(r: Result, n: Names, battles: int) -> tuple[list[str], list[dict[str, Any]]]:
    """The answer's lines and tables."""
    m, k = r.table.shape
    lines = [
        f"game: {own(n.row_side)} choice of {n.row_choice} ({m} alternatives) against "
        f"{own(n.col_side)} of {n.col_choice} ({k}); payoff: {n.payoff} (high is good for "
        f"{n.row_side}, low for {n.col_side}); {battles:,} battles",
        *_dominance_lines(r, n),
        f"{own(n.row_side)} mix: {mix_text(n.rows, r.eq.row, r.row_ci)}",
        f"{own(n.col_side)} mix: {mix_text(n.cols, r.eq.col, r.col_ci)}",
        f"value: {n.row_side} win {pct(r.eq.value)} {ci(*r.value_ci)} of {n.of} battles when "
        "both play their mix (95% intervals carry every cell's sampling error).",
        f"exploitability: at most {100 * r.exploit95:.1f} points (95%): what the two sides "
        "together could gain by replying best to the other's mix.",
    ]
    return lines, [_payoff_table(r, n), _mix_table(r, n)]


def _dominance_lines(r: Result, n: Names) -> list[str]:
    if not r.dominated:
        return [
            "dominated: none at 95% (no alternative is clearly worse than another "
            "against every choice of the other side)."
        ]
    out = []
    for d in r.dominated:
        side, opp = (n.row_side, n.col_side) if d.side == "row" else (n.col_side, n.row_side)
        mine, theirs = (n.rows, n.cols) if d.side == "row" else (n.cols, n.rows)
        worst = min(d.diffs, key=lambda x: x[2])
        kind = (
            f"strictly (step {d.step})"
            if d.strict
            else "weakly (clearly better somewhere, nowhere clearly worse by the margin)"
        )
        out.append(
            f"dominated {kind}: {own(side)} {mine[d.alternative]} by {mine[d.by]}, better for "
            f"{side} against every remaining choice of {opp}; closest against "
            f"{theirs[worst[0]]}: {points(*worst[1:])} points"
        )
    return out


def _cell(r: Result, i: int, j: int) -> str:
    k, c = r.cells.wins[i, j], r.cells.counted[i, j]
    if not c:
        return "- (0)"
    p, lo, hi = wilson(k, c)
    return f"{pct(float(p))} {ci(float(lo), float(hi))} ({int(c)})"


def _payoff_table(r: Result, n: Names) -> dict[str, Any]:
    m, k = r.table.shape
    head = [f"{n.row_side} \\ {n.col_side}", *n.cols]
    rows = [[n.rows[i], *(_cell(r, i, j) for j in range(k))] for i in range(m)]
    return {
        "title": f"Payoff: {n.payoff}, 95% Wilson intervals (battles counted)",
        "headers": head,
        "rows": rows,
    }


def _mix_table(r: Result, n: Names) -> dict[str, Any]:
    out = []
    for side, names, mix, bounds, regret, other in (
        ("row", n.rows, r.eq.row, r.row_ci, r.row_regret, n.cols),
        ("col", n.cols, r.eq.col, r.col_ci, r.col_regret, n.rows),
    ):
        who = n.row_side if side == "row" else n.col_side
        for i, name in enumerate(names):
            rep = next(x for x in r.replies if x[0] != side and x[1] == i)
            reply = other[rep[2]]
            if rep[3] >= 0:
                reply += f" ({points(*rep[4:])} over {other[rep[3]]})"
            out.append(
                [
                    who,
                    name,
                    f"{pct(mix[i])} {ci(*bounds[i])}",
                    f"{100 * regret[i, 0]:.1f} [{100 * regret[i, 1]:.1f}-{100 * regret[i, 2]:.1f}]",
                    reply,
                ]
            )
    return {
        "title": "Each alternative: its weight in the mix, its regret against the other side's "
        "mix (points short of the best reply to it), and the other side's best reply to it",
        "headers": ["side", "alternative", "mix [95% CI]", "regret [95% CI]", "best reply to it"],
        "rows": out,
    }


def data(r: Result, n: Names, battles: int) -> dict[str, Any]:
    """The answer's figures, for programs."""

    def mixes(names: tuple[str, ...], mix: Any, bounds: Any, regret: Any) -> list[Any]:
        return [
            {
                "alternative": a,
                "weight": float(mix[i]),
                "lo": float(bounds[i][0]),
                "hi": float(bounds[i][1]),
                "regret": [float(v) for v in regret[i]],
            }
            for i, a in enumerate(names)
        ]

    return {
        "sides": [n.row_side, n.col_side],
        "choices": [n.row_choice, n.col_choice],
        "of": n.of,
        "battles": battles,
        "rows": list(n.rows),
        "cols": list(n.cols),
        "wins": r.cells.wins.tolist(),
        "counted": r.cells.counted.tolist(),
        "value": {"mean": r.eq.value, "lo": r.value_ci[0], "hi": r.value_ci[1]},
        "exploitability95": r.exploit95,
        "row_mix": mixes(n.rows, r.eq.row, r.row_ci, r.row_regret),
        "col_mix": mixes(n.cols, r.eq.col, r.col_ci, r.col_regret),
        "dominated": [
            {
                "side": n.row_side if d.side == "row" else n.col_side,
                "alternative": (n.rows if d.side == "row" else n.cols)[d.alternative],
                "by": (n.rows if d.side == "row" else n.cols)[d.by],
                "strict": d.strict,
                "step": d.step,
                "differences": [list(x) for x in d.diffs],
            }
            for d in r.dominated
        ],
        "draws": r.draws,
    }


@literal
def heatmap(r: Result, n: Names) -> Figure:
    """The payoff table as a heatmap, each cell's share and 95% interval written in it."""
    m, k = r.table.shape
    fig = Figure(figsize=(2.2 + 1.6 * k, 1.6 + 0.9 * m), layout="constrained")
    ax = fig.add_subplot()
    im = ax.imshow(100 * r.table, cmap="RdBu", vmin=0, vmax=100, aspect="auto")
    for i in range(m):
        for j in range(k):
            p, lo, hi = wilson(r.cells.wins[i, j], r.cells.counted[i, j])
            text = f"{pct(float(p))}\n{ci(float(lo), float(hi))}" if r.cells.counted[i, j] else "-"
            dark = abs(r.table[i, j] - 0.5) > 0.3
            ax.text(
                j,
                i,
                text,
                ha="center",
                va="center",
                fontsize="small",
                color="white" if dark else "black",
            )
    ax.set_xticks(range(k), [f"{c}\n({pct(r.eq.col[j])})" for j, c in enumerate(n.cols)])
    ax.set_yticks(range(m), [f"{c} ({pct(r.eq.row[i])})" for i, c in enumerate(n.rows)])
    ax.set_xlabel(f"{n.col_side}: {n.col_choice} (equilibrium weight)")
    ax.set_ylabel(f"{n.row_side}: {n.row_choice} (weight)")
    ax.set_title(f"{n.payoff}; value {pct(r.eq.value)} {ci(*r.value_ci)}")
    fig.colorbar(im, ax=ax, label=f"{n.row_side} win share (%)")
    return fig
