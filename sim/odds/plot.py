"""Pictures of ``sim odds`` tables (``--plot FILE.png``): each table's distribution.

One bar per outcome of a distribution (a dice expression, one Deathwish attack, War Game
damage, the D6 tiers); the 2W2P exchange as a grid of felling by wounding hits; the whole
Deathwish table as each weapon's mean damage against armor 0 to 3; a whole battle
(``sim odds battle``) as how it ends beside how long it lasts. The numbers are the table's
own (exact); a ``--check`` adds the simulated frequencies as dots.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from matplotlib.figure import Figure

from sim import files
from sim.charts import literal, png_bytes


@literal
def bars(
    title: str,
    probs: Mapping[str, float],
    xlabel: str,
    simulated: Mapping[str, float] | None = None,
) -> Figure:
    """One bar per outcome, in the table's order; simulated frequencies as dots."""
    labels = list(probs)
    fig = Figure(
        figsize=(max(6.0, min(16.0, 0.35 * len(labels) + 3)), 4.2), dpi=100, layout="constrained"
    )
    ax = fig.add_subplot()
    xs = range(len(labels))
    ax.bar(xs, [100 * probs[k] for k in labels], color="#4c72b0", label="exact")
    if simulated is not None:
        ax.plot(
            xs,
            [100 * simulated.get(k, 0.0) for k in labels],
            "o",
            color="#dd8452",
            ms=4,
            label="simulated",
        )
        ax.legend(frameon=False)
    step = max(1, len(labels) // 30)
    ax.set_xticks(list(xs)[::step], labels[::step], rotation=0 if len(labels) <= 12 else 90)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("probability (%)")
    ax.set_title(title, fontsize="medium")
    ax.spines[["top", "right"]].set_visible(False)
    return fig


@literal
def grid(title: str, outcomes: Sequence[Mapping[str, Any]], xkey: str, ykey: str) -> Figure:
    """A joint distribution of two counts as a shaded grid, each cell's percentage written."""
    import numpy as np

    xs = max(int(o[xkey]) for o in outcomes) + 1
    ys = max(int(o[ykey]) for o in outcomes) + 1
    z = np.zeros((ys, xs))
    for o in outcomes:
        z[int(o[ykey]), int(o[xkey])] += 100 * o["p"]
    fig = Figure(
        figsize=(max(5.0, 0.6 * xs + 2), max(4.0, 0.5 * ys + 1.5)), dpi=100, layout="constrained"
    )
    ax = fig.add_subplot()
    im = ax.imshow(z, origin="lower", cmap="Blues", aspect="auto")
    if xs * ys <= 150:
        for (y, x), v in np.ndenumerate(z):
            if v:
                ax.text(
                    x,
                    y,
                    f"{v:.1f}",
                    ha="center",
                    va="center",
                    fontsize=7,
                    color="black" if v < z.max() / 2 else "white",
                )
    ax.set_xlabel(f"{xkey} hits")
    ax.set_ylabel(f"{ykey} hits")
    ax.set_title(title, fontsize="medium")
    fig.colorbar(im, ax=ax, label="probability (%)")
    return fig


@literal
def grouped(
    title: str, rows: Sequence[Mapping[str, Any]], group: str, series: str, value: str
) -> Figure:
    """``value`` of each row as bars grouped by ``group``, one colour per ``series``."""
    groups = list(dict.fromkeys(r[group] for r in rows))
    kinds = list(dict.fromkeys(r[series] for r in rows))
    fig = Figure(figsize=(max(8.0, 0.8 * len(groups) + 2), 4.5), dpi=100, layout="constrained")
    ax = fig.add_subplot()
    width = 0.8 / len(kinds)
    for i, kind in enumerate(kinds):
        vals = {r[group]: r[value] for r in rows if r[series] == kind}
        ax.bar(
            [g + i * width for g in range(len(groups))],
            [vals.get(g, 0) for g in groups],
            width,
            label=f"{series} {kind}",
        )
    ax.set_xticks(
        [g + 0.4 - width / 2 for g in range(len(groups))], groups, rotation=30, ha="right"
    )
    ax.set_ylabel(value.replace("_", " "))
    ax.set_title(title, fontsize="medium")
    ax.legend(frameon=False, ncols=len(kinds))
    ax.spines[["top", "right"]].set_visible(False)
    return fig


@literal
def battle(title: str, ends: Mapping[str, float], rounds: Mapping[int, float]) -> Figure:
    """A whole battle's exact odds: each end beside the distribution of its length.

    An end is a side's win or a draw by its cause; rounds past 99.99% are left out.
    """
    fig = Figure(figsize=(11.0, 4.2), dpi=100, layout="constrained")
    left, right = fig.subplots(1, 2, width_ratios=(2, 3))
    labels = list(ends)
    left.barh(range(len(labels)), [100 * ends[k] for k in labels], color="#4c72b0")
    left.set_yticks(range(len(labels)), labels)
    left.invert_yaxis()
    left.set_xlabel("probability (%)")
    for i, k in enumerate(labels):
        left.text(100 * ends[k], i, f" {100 * ends[k]:.2f}%", va="center", fontsize=8)
    left.set_xlim(0, 118)
    shown, cum = [], 0.0
    for n, q in rounds.items():
        shown.append(n)
        cum += q
        if cum >= 0.9999:
            break
    right.bar(shown, [100 * rounds[n] for n in shown], color="#55a868")
    right.xaxis.get_major_locator().set_params(integer=True)
    right.set_xlabel("rounds")
    right.set_ylabel("probability (%)")
    for ax in (left, right):
        ax.spines[["top", "right"]].set_visible(False)
    fig.suptitle(title, fontsize="medium")
    return fig


def save(fig: Figure, path: str | Path, force: bool = False) -> Path:
    """Write ``fig`` as a PNG, whole; an existing file only with ``force`` (``--plot``)."""
    files.write_file(Path(path), png_bytes(fig), replace=force, flag="--plot")
    return Path(path)
