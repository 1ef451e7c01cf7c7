"""Charts of a summary (matplotlib, headless: figures are drawn with no pyplot and no screen).

The win-rate chart fits the sweep: bars with no grouping, lines with 95% bands over one
parameter, a heatmap over two, and horizontal bars with error bars over more. The other
charts are the distribution of battle length and the casualties by final status.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.patches import Patch

from sim.analysis import Summary

COLORS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b")
STATUS_COLORS = {
    "fleeing": "#fdd49e",
    "fled": "#fc8d59",
    "surrendered": "#bdbdbd",
    "incapacitated": "#ef6548",
    "dead": "#7f0000",
}
HATCHES = ("", "///", "...", "xxx", "\\\\\\", "ooo")
MAX_LENGTH_GROUPS = 6  # battle-length histograms drawn per group up to this many groups
MAX_BAR_GROUPS = 12  # casualty bars drawn per group up to this many groups


def _numeric(values: Any) -> bool:
    return bool(len(values)) and all(
        isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool)
        for v in values
    )


def varying(s: Summary) -> list[str]:
    """The grouping parameters that take more than one value."""
    return [b for b in s.by if s.frame[b].nunique(dropna=False) > 1]


def win_chart(ax: Axes, s: Summary) -> None:
    """Each side's win rate with its 95% Wilson interval, in the chart that fits the sweep.

    The chart depends on how many grouping parameters vary: bars for none, lines with
    bands for one, a heatmap for two, labelled bars for more.
    """
    f = s.frame
    if f.empty or not s.sides:
        ax.text(0.5, 0.5, "no battles", ha="center", va="center")
        return
    vary = varying(s)
    if len(vary) == 2:
        _win_heatmap(ax, s, *vary)
        return
    if len(vary) == 1:
        # the summary's order: numbers ascending, other levels as the experiment declares
        col = f[vary[0]]
        numeric = _numeric(list(col))
        x = col.to_numpy(dtype=float) if numeric else np.arange(len(f))
        for i, side in enumerate(s.sides):
            c = COLORS[i % len(COLORS)]
            ax.plot(x, f[f"win.{side}"], marker="o", color=c, label=side)
            ax.fill_between(x, f[f"win.{side}.lo"], f[f"win.{side}.hi"], color=c, alpha=0.2)
        if f["draw"].fillna(0).any():
            ax.plot(x, f["draw"], marker=".", ls="--", color="grey", label="draw")
        if not numeric:
            ax.set_xticks(x, [str(v) for v in col], rotation=30 if len(f) > 6 else 0)
        ax.set_xlabel(vary[0])
        ax.set_ylim(0, 1)
        ax.set_ylabel("win rate (95% Wilson band)")
        ax.legend(loc="best", fontsize="small")
        ax.grid(alpha=0.3)
        return
    # no grouping, or three and more parameters: horizontal bars with error bars
    labels = [s.group_label(i) for i in range(len(f))]
    y = np.arange(len(f))
    height = 0.8 / max(len(s.sides), 1)
    for i, side in enumerate(s.sides):
        p = f[f"win.{side}"].to_numpy(dtype=float)
        err = np.vstack([p - f[f"win.{side}.lo"], f[f"win.{side}.hi"] - p])
        ax.barh(
            y + i * height,
            p,
            height,
            xerr=err,
            color=COLORS[i % len(COLORS)],
            label=side,
            capsize=2,
        )
    ax.set_yticks(y + height * (len(s.sides) - 1) / 2, labels, fontsize="small")
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xlabel("win rate (95% Wilson interval)")
    ax.legend(loc="best", fontsize="small")
    ax.grid(axis="x", alpha=0.3)


def _win_heatmap(ax: Axes, s: Summary, rows_key: str, cols_key: str) -> None:
    """The first side's win rate over two parameters, each cell labelled."""
    side = s.sides[0] if s.sides else None
    rows, cols = (list(dict.fromkeys(s.frame[k])) for k in (rows_key, cols_key))

    def pivot(values: str) -> pd.DataFrame:  # in the summary's (the declared) order
        return s.frame.pivot(index=rows_key, columns=cols_key, values=values).reindex(
            index=rows, columns=cols
        )

    table = pivot(f"win.{side}")
    data = table.to_numpy(dtype=float)
    im = ax.imshow(data, cmap="RdBu_r", vmin=0, vmax=1, aspect="auto")
    ax.set_xticks(range(data.shape[1]), [str(v) for v in table.columns])
    ax.set_yticks(range(data.shape[0]), [str(v) for v in table.index])
    ax.set_xlabel(cols_key)
    ax.set_ylabel(rows_key)
    lo, hi = pivot(f"win.{side}.lo").to_numpy(), pivot(f"win.{side}.hi").to_numpy()
    for (r, c), p in np.ndenumerate(data):
        if np.isnan(p):
            continue
        text = f"{100 * p:.0f}%\n[{100 * lo[r, c]:.0f}-{100 * hi[r, c]:.0f}]"
        color = "white" if abs(p - 0.5) > 0.3 else "black"
        ax.text(c, r, text, ha="center", va="center", fontsize="small", color=color)
    ax.set_title(f"{side} win rate (95% Wilson interval)", fontsize="medium")
    ax.figure.colorbar(im, ax=ax, label=f"{side} win rate")


def length_chart(ax: Axes, s: Summary) -> None:
    """The distribution of battle length in rounds: per group if there are few."""
    lengths = s.lengths
    if lengths.empty:
        ax.text(0.5, 0.5, "no finished battles", ha="center", va="center")
        return
    top = int(lengths["rounds"].max())
    bins = [r - 0.5 for r in range(int(lengths["rounds"].min()), top + 2)]
    if 1 < len(s.frame) <= MAX_LENGTH_GROUPS:
        for g, part in lengths.groupby("group"):
            ax.hist(
                part["rounds"],
                bins=bins,
                density=True,
                histtype="step",
                lw=1.5,
                label=s.group_label(int(g)),
            )
        ax.legend(fontsize="x-small")
    else:
        ax.hist(lengths["rounds"], bins=bins, density=True, color=COLORS[0], alpha=0.8)
    ax.set_xlabel("battle length (rounds)")
    ax.set_ylabel("share of battles")
    ax.grid(alpha=0.3)


def _casualty_means(
    s: Summary, per_group: bool
) -> tuple[list[str], dict[tuple[str, str], np.ndarray]]:
    """Bar labels and the mean fighters per battle by (side, status).

    Per group, or pooled over the groups, weighted by finished battles.
    """
    f = s.frame
    if per_group:
        labels = [s.group_values(i) for i in range(len(f))]
        means = {
            (side, st): f[f"casualties.{side}.{st}"].to_numpy(dtype=float)
            for side in s.sides
            for st in s.statuses
        }
        return labels, means
    weights = (f["runs"] - f["failed"]).to_numpy(dtype=float)
    total = weights.sum() or 1.0
    means = {
        (side, st): np.array(
            [np.nansum(f[f"casualties.{side}.{st}"].to_numpy(dtype=float) * weights) / total]
        )
        for side in s.sides
        for st in s.statuses
    }
    return ["all"], means


def casualty_chart(ax: Axes, s: Summary) -> None:
    """Mean fighters per battle by final status, stacked, per side (and group if few).

    Sides are told apart by hatching (the first side plain); groups are labelled by their
    parameter values, the parameters named on the axis.
    """
    per_group = 1 < len(s.frame) <= MAX_BAR_GROUPS
    labels, means = _casualty_means(s, per_group)
    n = len(labels)
    width = 0.8 / max(len(s.sides), 1)
    x = np.arange(n)
    handles = []
    for j, side in enumerate(s.sides):
        bottom = np.zeros(n)
        hatch = HATCHES[j % len(HATCHES)]
        for st in s.statuses:
            v = np.nan_to_num(means[(side, st)])
            ax.bar(
                x + j * width,
                v,
                width,
                bottom=bottom,
                color=STATUS_COLORS.get(st, "grey"),
                edgecolor="white",
                hatch=hatch,
                label=st if j == 0 else None,
            )
            bottom += v
        handles.append(Patch(facecolor="white", edgecolor="grey", hatch=hatch, label=side))
    turn = per_group and n > 3
    ax.set_xticks(
        x + width * (len(s.sides) - 1) / 2,
        labels,
        rotation=30 if turn else 0,
        ha="right" if turn else "center",
        fontsize="small",
    )
    if per_group:
        ax.set_xlabel(", ".join(s.name(b) for b in s.by))
    ax.set_ylabel("fighters per battle")
    ax.set_title("casualties by final status", fontsize="medium")
    if s.statuses:
        status_handles, _ = ax.get_legend_handles_labels()
        ax.legend(
            handles=[*status_handles, *handles],
            fontsize="small",
            loc="upper left",
            bbox_to_anchor=(1.0, 1.0),
        )
    ax.grid(axis="y", alpha=0.3)


CHARTS: dict[str, tuple[str, Callable[[Axes, Summary], None]]] = {
    "win": ("Win rates", win_chart),
    "length": ("Battle length", length_chart),
    "casualties": ("Casualties", casualty_chart),
}


def _title(s: Summary, name: str) -> str:
    if name == "win" and varying(s):
        return "win rate by " + ", ".join(s.name(b) for b in varying(s))
    return CHARTS[name][0].lower()


def figure(s: Summary, title: str = "") -> Figure:
    """All the charts of ``s`` in one figure: win rates on top, length and casualties below."""
    heatmap = len(varying(s)) == 2
    many = len(varying(s)) > 2 and len(s.frame) > 8
    fig = Figure(figsize=(12, 10 if many else 9), dpi=100, layout="constrained")
    grid = fig.add_gridspec(2, 2, height_ratios=(1.2, 1))
    top = fig.add_subplot(grid[0, :])
    win_chart(top, s)
    if not heatmap:
        top.set_title(_title(s, "win"), fontsize="medium")
    length_chart(fig.add_subplot(grid[1, 0]), s)
    casualty_chart(fig.add_subplot(grid[1, 1]), s)
    if title:
        fig.suptitle(title)
    return fig


def chart(s: Summary, name: str) -> Figure:
    """One chart of ``s`` on its own (``win``, ``length`` or ``casualties``)."""
    fig = Figure(figsize=(10, 5.5), dpi=100, layout="constrained")
    ax = fig.add_subplot()
    CHARTS[name][1](ax, s)
    if not (name == "win" and len(varying(s)) == 2):
        ax.set_title(_title(s, name), fontsize="medium")
    return fig


def png_bytes(fig: Figure) -> bytes:
    """The figure as PNG bytes."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    return buf.getvalue()


def save_png(fig: Figure, path: str | Path) -> Path:
    """Write the figure as a PNG file, atomically."""
    from sim.records import atomic_write_bytes

    path = Path(path)
    atomic_write_bytes(path, png_bytes(fig))
    return path
