"""Charts of a summary (matplotlib, headless: figures are drawn with no pyplot and no screen).

The win-rate chart fits the sweep: bars with no grouping, lines with 95% bands over one
parameter, a heatmap over two, and horizontal bars with error bars over more. The other
charts are the distribution of battle length and the casualties by final status.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.patches import Patch

from sim import files
from sim.analysis import Dataset, Summary, wilson
from sim.analysis.fmt import _fmt_value
from sim.charts import COLORS, image_bytes, literal, png_bytes

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
MAX_LINE_LEVELS = 20  # one numeric parameter with more values: a scatter, smoothed
GRID_DESIGNS = ("grid", "list")  # designs of chosen levels; the others sample points
FORMATS = ("png", "svg", "pdf")  # --plot's file types, by the name's ending
LABEL = "label"  # a list design's point labels (sim.experiment.model.LABEL)


def _numeric(values: Any) -> bool:
    return bool(len(values)) and all(
        isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool)
        for v in values
    )


def varying(s: Summary) -> list[str]:
    """The grouping parameters that take more than one value.

    A ``list`` design's ``label`` alone when it names every group apart: the labelled
    points are the levels, drawn in their declared order, not a grid of their values.
    """
    vary = [b for b in s.by if s.frame[b].nunique(dropna=False) > 1]
    if LABEL in vary and s.frame[LABEL].notna().all() and s.frame[LABEL].is_unique:
        return [LABEL]
    return vary


def sparse(s: Summary) -> bool:
    """Whether the groups are scattered points of a numeric space, not a grid's levels.

    So a sampled design (any but ``grid`` and ``list``: ``random``, ``lhs`` ...) over
    numbers. Without the experiment to say, a guess: one numeric parameter with more than
    :data:`MAX_LINE_LEVELS` values, or two and more varying parameters, the first two
    numeric, whose value pairs fill less than half of their grid.
    """
    vary = varying(s)
    if not vary or not all(_numeric(list(s.frame[b].dropna())) for b in vary[:2]):
        return False
    if s.design is not None:
        return s.design not in GRID_DESIGNS
    if len(vary) == 1:
        return int(s.frame[vary[0]].nunique()) > MAX_LINE_LEVELS
    cells = int(s.frame[vary[0]].nunique()) * int(s.frame[vary[1]].nunique())
    return len(s.frame[vary[:2]].drop_duplicates()) < cells / 2


def _win_scatter(ax: Axes, s: Summary) -> None:
    """A sampled design's win rates: each point where it was sampled.

    One parameter: each point's win rate per side, its size the point's runs, and a smoothed
    line (the pooled win rate of each tenth of the range, with its 95% Wilson band). Two and
    more: the first side's win rate as the colour of each point over the first two varying
    parameters, its size the point's runs.
    """
    f = s.frame
    vary = varying(s)
    ok = (f["runs"] - f["failed"]).to_numpy(dtype=float)
    size = 12 + 60 * ok / max(float(ok.max()), 1.0)
    x = f[vary[0]].to_numpy(dtype=float)
    if len(vary) == 1:
        edges = np.unique(np.quantile(x, np.linspace(0, 1, 11)))
        bins = np.clip(np.searchsorted(edges, x, side="right") - 1, 0, len(edges) - 2)
        # a tenth the sampled points skip (edges between repeated values) has no line
        held = np.flatnonzero(np.bincount(bins, minlength=len(edges) - 1))
        mids = np.array([x[bins == b].mean() for b in held])
        n = np.bincount(bins, weights=ok, minlength=len(edges) - 1)[held]
        for i, side in enumerate(s.sides):
            c = COLORS[i % len(COLORS)]
            p = f[f"win.{side}"].to_numpy(dtype=float)
            ax.scatter(x, p, s=size, color=c, alpha=0.35, edgecolor="none")
            k = np.bincount(bins, weights=np.nan_to_num(p) * ok, minlength=len(edges) - 1)
            pooled, lo, hi = wilson(k[held], n)
            ax.plot(mids, pooled, color=c, lw=2, label=f"{side} (smoothed)")
            ax.fill_between(mids, lo, hi, color=c, alpha=0.2)
        ax.set_xlabel(s.name(vary[0]))
        ax.set_ylim(0, 1)
        ax.set_ylabel("win rate (points; line: pooled by tenths, 95% Wilson band)")
        ax.legend(loc="best", fontsize="small")
        ax.grid(alpha=0.3)
        return
    side = s.sides[0]
    y = f[vary[1]].to_numpy(dtype=float)
    dots = ax.scatter(
        x, y, c=f[f"win.{side}"], s=size, cmap="RdBu_r", vmin=0, vmax=1, edgecolor="grey"
    )
    ax.set_xlabel(s.name(vary[0]))
    ax.set_ylabel(s.name(vary[1]))
    ax.figure.colorbar(dots, ax=ax, label=f"{side} win rate")
    others = [s.name(b) for b in vary[2:]]
    ax.set_title(
        f"{side} win rate at each sampled point"
        + (f" ({', '.join(others)} vary too)" if others else ""),
        fontsize="medium",
    )
    ax.grid(alpha=0.3)


def win_chart(ax: Axes, s: Summary) -> None:
    """Each side's win rate with its 95% Wilson interval, in the chart that fits the sweep.

    The chart depends on how many grouping parameters vary: bars for none, lines with
    bands for one, a heatmap for two, labelled bars for more; a sampled design (random,
    Latin hypercube: :func:`sparse`) as a scatter of its points.
    """
    f = s.frame
    if f.empty or not s.sides:
        ax.text(0.5, 0.5, "no battles", ha="center", va="center")
        return
    vary = varying(s)
    if sparse(s):
        _win_scatter(ax, s)
        return
    if len(vary) == 2:
        _win_heatmap(ax, s, *vary)
        return
    if len(vary) == 1:
        _win_lines(ax, s, vary[0])
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


def _win_lines(ax: Axes, s: Summary, param: str) -> None:
    """Each side's win rate over one parameter: lines with 95% bands (and the draws).

    In the summary's (the declared) order; along a number axis, by value.
    """
    f = s.frame
    numeric = _numeric(list(f[param]))
    if numeric:  # a number axis: the line runs along it (a list design may not)
        f = f.sort_values(param, kind="stable")
    col = f[param]
    x = col.to_numpy(dtype=float) if numeric else np.arange(len(f))
    for i, side in enumerate(s.sides):
        c = COLORS[i % len(COLORS)]
        ax.plot(x, f[f"win.{side}"], marker="o", color=c, label=side)
        ax.fill_between(x, f[f"win.{side}.lo"], f[f"win.{side}.hi"], color=c, alpha=0.2)
    if f["draw"].fillna(0).any():
        ax.plot(x, f["draw"], marker=".", ls="--", color="grey", label="draw")
    if not numeric:
        ax.set_xticks(x, [_fmt_value(v) for v in col], rotation=30 if len(f) > 6 else 0)
    ax.set_xlabel(s.name(param))
    ax.set_ylim(0, 1)
    ax.set_ylabel("win rate (95% Wilson band)")
    ax.legend(loc="best", fontsize="small")
    ax.grid(alpha=0.3)


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
    ax.set_xticks(range(data.shape[1]), [_fmt_value(v) for v in table.columns])
    ax.set_yticks(range(data.shape[0]), [_fmt_value(v) for v in table.index])
    ax.set_xlabel(s.name(cols_key))
    ax.set_ylabel(s.name(rows_key))
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


def _group_keys(frame: pd.DataFrame, by: Sequence[str]) -> list[str]:
    """Each row's group as its parameter values (``all`` with no grouping)."""
    if not by:
        return ["all"] * len(frame)
    return [", ".join(_fmt_value(r[b]) for b in by) for _, r in frame.iterrows()]


def aftermath_chart(
    ax: Axes, frame: pd.DataFrame, by: Sequence[str], names: Mapping[str, str]
) -> None:
    """The wounded's fate per group and side: died of wounds and recovered, with intervals.

    ``frame`` is :func:`sim.analysis.aftermath_summary`'s; the error bars are its
    intervals (``.lo``/``.hi``); sides told apart by marker, groups along the axis.
    """
    if frame.empty:
        ax.text(0.5, 0.5, "no aftermath", ha="center", va="center")
        return
    keys = _group_keys(frame, by)
    labels = list(dict.fromkeys(keys))
    x_of = {k: i for i, k in enumerate(labels)}
    sides = list(dict.fromkeys(frame["side"]))
    step = 0.8 / (2 * len(sides))
    markers = ("o", "s", "^", "D", "v", "P")
    for j, side in enumerate(sides):
        mine = (frame["side"] == side).to_numpy()
        part = frame[mine]
        x = np.array([x_of[k] for k, m in zip(keys, mine, strict=True) if m], dtype=float)
        for m, (col, what, color) in enumerate(
            (("died_share", "died", "#7f0000"), ("recovered_share", "recovered", "#2ca02c"))
        ):
            p = part[col].to_numpy(dtype=float)
            err = np.vstack([p - part[f"{col}.lo"], part[f"{col}.hi"] - p])
            ax.errorbar(
                x - 0.4 + step * (2 * j + m + 0.5),
                p,
                yerr=np.nan_to_num(err),
                fmt=markers[j % len(markers)],
                color=color,
                capsize=2,
                label=f"{side}: {what}",
            )
    turn = len(labels) > 4
    ax.set_xticks(
        range(len(labels)),
        labels,
        rotation=30 if turn else 0,
        ha="right" if turn else "center",
        fontsize="small",
    )
    if by:
        ax.set_xlabel(", ".join(names.get(b, b) for b in by))
    ax.set_ylim(0, 1)
    ax.set_ylabel("share of the wounded (95% interval)")
    ax.set_title("aftermath: the wounded who died of wounds or recovered", fontsize="medium")
    ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.0, 1.0))
    ax.grid(axis="y", alpha=0.3)


def campaign_chart(
    ax: Axes, frame: pd.DataFrame, by: Sequence[str], names: Mapping[str, str]
) -> None:
    """The Veteran share of the living after each battle of a campaign, a line per group.

    ``frame`` is :func:`sim.analysis.campaign_summary`'s; the bands are its intervals.
    """
    if frame.empty:
        ax.text(0.5, 0.5, "no campaign", ha="center", va="center")
        return
    keys = np.array(_group_keys(frame, by), dtype=object)
    groups = list(dict.fromkeys(keys))
    for i, g in enumerate(groups):
        part = frame[keys == g]
        c = COLORS[i % len(COLORS)]
        ls = "-" if i < len(COLORS) else "--"
        x = part["battle"].to_numpy(dtype=float)
        first = part.iloc[0]
        label = ", ".join(f"{names.get(b, b)}={_fmt_value(first[b])}" for b in by) or g
        ax.plot(x, part["veteran_share"], marker="o", color=c, ls=ls, label=label)
        ax.fill_between(x, part["veteran_share.lo"], part["veteran_share.hi"], color=c, alpha=0.12)
    battles = frame.drop_duplicates("battle").sort_values("battle")
    ax.set_xticks(
        battles["battle"].to_numpy(dtype=float),
        [
            f"{int(b)} {lab}"
            for b, lab in zip(battles["battle"], battles["battle_label"], strict=True)
        ],
        fontsize="small",
    )
    ax.set_xlabel("battle")
    ax.set_ylim(0, 1)
    ax.set_ylabel("Veterans among the living (95% interval)")
    ax.set_title("campaign: Veteran share after each battle", fontsize="medium")
    if len(groups) <= 2 * len(COLORS):
        ax.legend(fontsize="x-small", loc="upper left", bbox_to_anchor=(1.0, 1.0))
    ax.grid(alpha=0.3)


@literal
def extra_charts(ds: Dataset, s: Summary) -> list[tuple[str, Figure]]:
    """(title, figure) of the aftermath and campaign charts, where ``ds`` has those tables."""
    from sim import analysis

    out = []
    if analysis.has_table(ds, "aftermath"):
        fig = Figure(figsize=(10, 5.5), dpi=100, layout="constrained")
        aftermath_chart(fig.add_subplot(), analysis.aftermath_summary(ds, s.by), s.by, s.names)
        out.append(("aftermath", fig))
    if analysis.has_table(ds, "campaign"):
        fig = Figure(figsize=(10, 5.5), dpi=100, layout="constrained")
        campaign_chart(fig.add_subplot(), analysis.campaign_summary(ds, s.by), s.by, s.names)
        out.append(("campaign", fig))
    return out


CHARTS: dict[str, tuple[str, Callable[[Axes, Summary], None]]] = {
    "win": ("Win rates", win_chart),
    "length": ("Battle length", length_chart),
    "casualties": ("Casualties", casualty_chart),
}


def _title(s: Summary, name: str) -> str:
    if name == "win" and varying(s):
        what = "win rate by " + ", ".join(s.name(b) for b in varying(s))
        return what + (" (sampled points)" if sparse(s) else "")
    return CHARTS[name][0].lower()


@literal
def figure(s: Summary, title: str = "", ds: Dataset | None = None) -> Figure:
    """All the charts of ``s`` in one figure: win rates on top, length and casualties below.

    Given the dataset ``ds``, the aftermath and campaign charts follow (where it has those
    tables), a row each.
    """
    from sim import analysis

    heatmap = len(varying(s)) == 2 or sparse(s) and len(varying(s)) > 1
    many = len(varying(s)) > 2 and len(s.frame) > 8
    extras = []
    if ds is not None:
        if analysis.has_table(ds, "aftermath"):
            extras.append((aftermath_chart, analysis.aftermath_summary(ds, s.by)))
        if analysis.has_table(ds, "campaign"):
            extras.append((campaign_chart, analysis.campaign_summary(ds, s.by)))
    height = (10 if many else 9) + 4.5 * len(extras)
    fig = Figure(figsize=(12, height), dpi=100, layout="constrained")
    grid = fig.add_gridspec(2 + len(extras), 2, height_ratios=(1.2, 1, *[1] * len(extras)))
    top = fig.add_subplot(grid[0, :])
    win_chart(top, s)
    if not heatmap:
        top.set_title(_title(s, "win"), fontsize="medium")
    length_chart(fig.add_subplot(grid[1, 0]), s)
    casualty_chart(fig.add_subplot(grid[1, 1]), s)
    for row, (draw, frame) in enumerate(extras, start=2):
        draw(fig.add_subplot(grid[row, :]), frame, s.by, s.names)
    if title:
        fig.suptitle(title)
    return fig


@literal
def chart(s: Summary, name: str) -> Figure:
    """One chart of ``s`` on its own (``win``, ``length`` or ``casualties``)."""
    fig = Figure(figsize=(10, 5.5), dpi=100, layout="constrained")
    ax = fig.add_subplot()
    CHARTS[name][1](ax, s)
    if not (name == "win" and (len(varying(s)) == 2 or sparse(s) and len(varying(s)) > 1)):
        ax.set_title(_title(s, name), fontsize="medium")
    return fig


def plot_format(path: str | Path) -> str:
    """The file type ``path``'s ending asks for (:data:`FORMATS`); a clear error otherwise."""
    from sim.errors import SimError

    fmt = Path(path).suffix.lower().lstrip(".")
    if fmt not in FORMATS:
        raise SimError(
            f"{path}: a chart is written as .png, .svg or .pdf (the name's ending says which)"
        )
    return fmt


def save(
    fig: Figure, path: str | Path, dpi: float | None = None, force: bool = False, flag: str = ""
) -> Path:
    """Write the figure as PNG, SVG or PDF by ``path``'s ending, whole or not at all.

    An existing file is replaced only with ``force`` (never through a link): checked as
    the file is written (:func:`sim.files.write_file`). ``flag`` (``--plot``) starts errors.
    """
    path = Path(path)
    files.write_file(path, image_bytes(fig, plot_format(path), dpi), replace=force, flag=flag)
    return path


def save_png(fig: Figure, path: str | Path, force: bool = False, flag: str = "") -> Path:
    """Write the figure as a PNG file, as :func:`save` does."""
    path = Path(path)
    files.write_file(path, png_bytes(fig), replace=force, flag=flag)
    return path
