"""Against history: the rule systems' force-ratio curves beside CDB90's, before and after a fit.

Reads two datasets and history's table, draws one chart and prints the figures it shows::

    python experiments/history/against_history.py [--results DIR] [--chart FILE] [--fresh]

- ``DIR/field_curves``: ``sim sweep experiments/history/field_curves.yaml``, the field battle
  under each rule system with every default, the larger side at history's five median force
  ratios ("before");
- ``DIR/against_history``: ``sim sweep experiments/history/against_history.yaml``, the War
  Game calibrated to the table; its ``search/answer.json`` gives the fitted model's
  predictive mean and 95% interval of each observed statistic ("after");
- ``experiments/history/cdb90_ratio.csv``: history's table (``cdb90_table.py``).

``DIR`` is ``results/`` of the repository (found from this file's own place, not the working
directory) unless ``--results``. A sweep whose folder is missing is run (``sim sweep``, its
output on standard error); ``--fresh`` runs both again, replacing their folders. A folder
that is not that experiment's dataset is never touched: the script stops and says so. A
folder made by other sim code or another version of the experiment is used with a warning.

The chart (``docs/img/against-history.png`` unless ``--chart``) is written to a temporary
file beside it, then moved into place. Standard output gets the figures as Markdown tables.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import shutil
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from matplotlib.figure import Figure
from matplotlib.patches import Patch
from matplotlib.ticker import NullLocator

from sim import files
from sim.charts import COLORS, literal, png_bytes

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
RESULTS = ROOT / "results"
CHART = ROOT / "docs" / "img" / "against-history.png"
TABLE = HERE / "cdb90_ratio.csv"
CURVES = "field_curves"
FIT = "against_history"
SYSTEMS = {"wargame": "War Game", "2w2p": "2W2P", "deathwish": "Deathwish", "d6": "D6"}
COUNT = "sides.blue.fighters[1].count"
LARGER = "blue"
STATS = ("wins.larger", "loser.casualties.median", "winner.casualties.median")
OUT = ("incapacitated", "dead", "surrendered")
"""What counts as a casualty, as the calibration's ``SIDE.casualties`` (history's killed,
wounded and captured; those who fled got away)."""
ATTRIBUTION = (
    "CDB90 (U.S. Army Concepts Analysis Agency, Helmbold 1991), tidied by J. Arnold, ODC-By 1.0"
)
DODGE = (-1, -2, 2, 3)
"""Where each system's points are drawn, in steps beside history's (0) and the fit's (1)."""
BAND = 0.2
"""The opacity of the fitted model's band."""
STEP = 1.018
"""One step apart on the log axis: a factor of 1.018."""
SIZE = (14.0, 6.0)
"""The chart's size in inches, at 100 dpi: 1400 x 600 pixels."""


@dataclass(frozen=True)
class Series:
    """One line of the chart: a value per band, with its 95% interval where there is one."""

    value: tuple[float, ...]
    lo: tuple[float, ...] | None = None
    hi: tuple[float, ...] | None = None
    n: tuple[int, ...] | None = None
    """The battles each value is of (history's sample size, the simulated decisive ones)."""
    fails: tuple[bool, ...] | None = None
    """The fitted model's: whether the predictive check failed to reproduce history here."""


@dataclass(frozen=True)
class Figures:
    """Everything the chart and the tables show, per band of force ratio."""

    labels: tuple[str, ...]
    ratios: tuple[float, ...]
    wins: dict[str, Series]
    """The larger side's share of decisive battles: ``history``, each system, ``fitted``."""
    loser: dict[str, Series]
    """The loser's median casualties: ``history``, ``wargame`` (its default), ``fitted``."""
    winner: dict[str, Series]
    """The winner's median casualties, as ``loser``."""


# ------------------------------------------------------------------------------------------
# the two sweeps


def _manifest(folder: Path) -> dict[str, Any] | None:
    try:
        text = (folder / "manifest.json").read_text(encoding="utf-8")
        m = json.loads(text)
    except (OSError, ValueError):
        return None
    return m if isinstance(m, dict) else None


def _ours(folder: Path, name: str) -> dict[str, Any]:
    """The manifest of ``folder`` if it is the dataset of experiment ``name``; else stop."""
    if folder.is_symlink() or not folder.is_dir():
        raise SystemExit(f"against_history.py: {folder}: not a folder; choose another --results")
    m = _manifest(folder)
    if m is None or m.get("experiment_name") != name:
        what = "no dataset" if m is None else f"the dataset of {m.get('experiment_name')!r}"
        raise SystemExit(
            f"against_history.py: {folder} holds {what}, not {name}'s: left as it is; "
            "choose another --results"
        )
    return m


def _finished(folder: Path, name: str, m: dict[str, Any]) -> bool:
    if name == FIT:
        return (folder / "search" / "answer.json").is_file()
    rows = sum(int(p.get("rows", 0)) for p in m.get("parts", {}).values())
    planned = m.get("planned_runs")
    return isinstance(planned, int) and rows >= planned


def _stale(folder: Path, m: dict[str, Any], experiment: Path) -> list[str]:
    """Why a finished dataset may not be what the code and experiment give now."""
    from sim.dataset import store

    why = []
    if m.get("code") != store.code_fingerprint():
        why.append(f"made by other sim code ({m.get('code')}, now {store.code_fingerprint()})")
    if m.get("experiment_text") != experiment.read_text(encoding="utf-8"):
        why.append(f"made from another version of {experiment.name}")
    return why


def _remove(folder: Path) -> None:
    """Remove a dataset folder, holding its lock (refused while a sweep writes in it)."""
    from sim.dataset import store
    from sim.errors import SimError

    try:
        with store.locked(folder):
            shutil.rmtree(folder)
    except SimError as e:
        raise SystemExit(f"against_history.py: {e}") from None


def _sweep(experiment: Path, folder: Path) -> None:
    """``sim sweep EXPERIMENT --out FOLDER``, its output on standard error."""
    print(f"against_history.py: sim sweep {experiment} --out {folder}", file=sys.stderr)
    done = subprocess.run(
        [sys.executable, "-m", "sim", "sweep", str(experiment), "--out", str(folder)],
        stdout=sys.stderr,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(
            f"against_history.py: sim sweep {experiment.name} ended with code {done.returncode}"
        )


def ensure(results: Path, fresh: bool = False) -> tuple[Path, Path]:
    """The folders of the two sweeps under ``results``, run where missing (all if ``fresh``)."""
    results.mkdir(parents=True, exist_ok=True)
    folders = []
    for name in (CURVES, FIT):
        experiment = HERE / f"{name}.yaml"
        folder = results / name
        if folder.exists() or folder.is_symlink():
            m = _ours(folder, name)
            if fresh:
                _remove(folder)
            elif not _finished(folder, name, m):
                raise SystemExit(
                    f"against_history.py: {folder}: an unfinished {name} sweep; finish it "
                    f"(sim sweep {experiment} --out {folder} --resume) or add --fresh"
                )
            else:
                for why in _stale(folder, m, experiment):
                    print(
                        f"against_history.py: warning: {folder}: {why}; --fresh runs it again",
                        file=sys.stderr,
                    )
        if not folder.exists():
            _sweep(experiment, folder)
        folders.append(folder)
    return folders[0], folders[1]


# ------------------------------------------------------------------------------------------
# the figures


def history(table: Path = TABLE) -> list[dict[str, str]]:
    """History's table: its rows, each cell as text (the ``#`` comment lines left out)."""
    with table.open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(line for line in f if not line.startswith("#")))


def _shares(k: Sequence[float], n: Sequence[float]) -> Series:
    from sim.intervals import wilson

    p, lo, hi = wilson(np.asarray(k, float), np.asarray(n, float))
    return Series(tuple(p), tuple(lo), tuple(hi), tuple(int(x) for x in n))


def _casualties(sides: Any) -> dict[str, float]:
    """Each side's casualties over its fighters, in one battle's ``sides`` structs."""
    return {s["side"]: sum(s[k] for k in OUT) / s["fighters"] for s in sides}


def defaults(folder: Path, counts: Sequence[int]) -> dict[str, dict[str, Series]]:
    """From the field_curves dataset, per system: ``wins``, ``loser``, ``winner`` by count."""
    from sim import analysis

    runs = analysis.load(folder).runs
    missing = sorted(set(counts) - set(runs[COUNT]))
    if missing:
        raise SystemExit(
            f"against_history.py: {folder}: no battles at {COUNT} = "
            f"{', '.join(map(str, missing))}, which history's ratios ask for"
        )
    runs = runs[runs["error"].isna() & runs["decisive"].astype(bool)]
    out: dict[str, dict[str, Series]] = {}
    for system in SYSTEMS:
        wins, n, loser, winner = [], [], [], []
        for count in counts:
            at = runs[(runs["rules"] == system) & (runs[COUNT] == count)]
            shares = [_casualties(s) for s in at["sides"]]
            won = at["winner"].tolist()
            lost = [next(k for k in c if k != w) for c, w in zip(shares, won, strict=True)]
            wins.append(sum(w == LARGER for w in won))
            n.append(len(at))
            loser.append(_median([c[k] for c, k in zip(shares, lost, strict=True)]))
            winner.append(_median([c[w] for c, w in zip(shares, won, strict=True)]))
        out[system] = {
            "wins": _shares(wins, n),
            "loser": Series(tuple(loser), n=tuple(n)),
            "winner": Series(tuple(winner), n=tuple(n)),
        }
    return out


def _median(values: Sequence[float]) -> float:
    return float(np.median(values)) if len(values) else math.nan


def fitted(folder: Path, labels: Sequence[str]) -> dict[str, Series]:
    """The calibration's predictive check per statistic: mean, 95% interval, failed or not."""
    answer = json.loads((folder / "search" / "answer.json").read_text(encoding="utf-8"))
    checks = {(c["row"], c["statistic"]): c for c in answer["data"]["predictive"]}
    out = {}
    for stat in STATS:
        got = [checks.get((label, stat), {}) for label in labels]
        out[stat] = Series(
            tuple(float(c.get("mean", math.nan)) for c in got),
            tuple(float(c.get("lo", math.nan)) for c in got),
            tuple(float(c.get("hi", math.nan)) for c in got),
            tuple(int(c.get("n", 0)) for c in got),
            tuple(not c.get("reproduced", True) for c in got),
        )
    return out


def answer_lines(folder: Path) -> list[str]:
    """The calibration's answer in words."""
    answer = json.loads((folder / "search" / "answer.json").read_text(encoding="utf-8"))
    return [str(line) for line in answer["lines"]]


def figures(curves: Path, fit: Path, table: Path = TABLE) -> Figures:
    """The figures from the two datasets and history's table."""
    rows = history(table)
    labels = tuple(r["label"] for r in rows)
    ratios = tuple(float(r["ratio"]) for r in rows)
    counts = [math.floor(12 * x + 0.5) - 1 for x in ratios]  # as the covariate: half up
    sims = defaults(curves, counts)
    after = fitted(fit, labels)
    decisive = [int(r["decisive"]) for r in rows]
    wins = [round(float(r["wins.larger"]) * n) for r, n in zip(rows, decisive, strict=True)]

    def observed(stat: str) -> Series:
        return Series(
            tuple(float(r[stat]) for r in rows), n=tuple(int(r[f"{stat}.n"]) for r in rows)
        )

    return Figures(
        labels,
        ratios,
        {
            "history": _shares(wins, decisive),
            **{s: sims[s]["wins"] for s in SYSTEMS},
            "fitted": after["wins.larger"],
        },
        {
            "history": observed("loser.casualties.median"),
            "wargame": sims["wargame"]["loser"],
            "fitted": after["loser.casualties.median"],
        },
        {
            "history": observed("winner.casualties.median"),
            "wargame": sims["wargame"]["winner"],
            "fitted": after["winner.casualties.median"],
        },
    )


# ------------------------------------------------------------------------------------------
# the chart


@literal
def draw(f: Figures) -> Figure:
    """The chart: who wins (left) and what it costs (right), against the force ratio.

    History in black (its shares with 95% Wilson bars), each rule system with every default
    in its colour, the fitted War Game dashed with its 95% predictive band. The series are
    drawn a little apart on the log axis, so that their bars do not hide one another.
    """
    fig = Figure(figsize=SIZE, layout="constrained")
    left, right = fig.subplots(1, 2)
    x = np.asarray(f.ratios, float)

    def at(k: float) -> np.ndarray[Any, Any]:
        return x * STEP**k

    h = f.wins["history"]
    shown = [
        left.errorbar(
            at(0),
            _pc(h.value),
            yerr=_bars(h),
            fmt="o",
            color="black",
            ms=7,
            capsize=4,
            lw=1.5,
            zorder=5,
        )
    ]
    names = ["history (CDB90), 95% Wilson"]
    for k, (system, name) in enumerate(SYSTEMS.items()):
        s = f.wins[system]
        bars = left.errorbar(
            at(DODGE[k]),
            _pc(s.value),
            yerr=_bars(s),
            fmt="-",
            marker="s",
            ms=4,
            color=COLORS[k],
            capsize=2,
            lw=1.2,
        )
        shown.append(bars)
        names.append(f"{name}, every default, 95% Wilson")
    shown.append(_fitted(left, at(1), f.wins["fitted"], "o"))
    names.append("War Game fitted: predictive mean, 95% band")
    left.set_ylim(0, 104)
    left.set_ylabel("larger side's share of the decisive battles (%)")
    left.set_title("Who wins: the larger side's share of the decisive battles", loc="left")
    left.legend(shown, names, loc="lower right", fontsize="small")

    handles: dict[str, list[Any]] = {"history": [], "War Game default": [], "War Game fitted": []}
    for role, marker, fill in (("loser", "o", "black"), ("winner", "s", "white")):
        series = f.loser if role == "loser" else f.winner
        (line,) = right.plot(
            at(0),
            _pc(series["history"].value),
            linestyle="none",
            marker=marker,
            ms=8,
            color="black",
            markerfacecolor=fill,
            zorder=5,
        )
        handles["history"].append(line)
        (line,) = right.plot(
            at(-1),
            _pc(series["wargame"].value),
            "-",
            marker=marker,
            ms=5,
            color=COLORS[0],
            markerfacecolor=COLORS[0] if fill == "black" else "white",
        )
        handles["War Game default"].append(line)
        handles["War Game fitted"].append(_fitted(right, at(1), series["fitted"], marker))
    every = [v for d in (f.loser, f.winner) for s in d.values() for v in (*s.value, *(s.hi or ()))]
    top = np.nanmax(_pc(every)) if np.isfinite(_pc(every)).any() else 100.0
    right.set_ylim(0, max(top, 10.0) * 1.35)
    right.set_ylabel("median casualties (% of the side's fighters)")
    right.set_title("What it costs: the loser's and the winner's median casualties", loc="left")
    order = [h for group in handles.values() for h in group]
    names = [f"{who}: {role}" for who in handles for role in ("loser", "winner")]
    right.legend(order, names, loc="upper center", fontsize="small", ncols=3)

    for ax in (left, right):
        ax.set_xscale("log")
        ax.xaxis.set_minor_locator(NullLocator())
        ax.set_xticks(list(x), [f"{r:g}\n{b}" for r, b in zip(x, f.labels, strict=True)])
        ax.set_xlim(x.min() / 1.15, x.max() * 1.15)
        ax.set_xlabel("force ratio, larger side : smaller (history's median in each band)")
        ax.grid(True, axis="y", alpha=0.3)
    fig.supxlabel(f"History: {ATTRIBUTION}", x=0.99, ha="right", fontsize="small", color="#555555")
    return fig


def _pc(values: Sequence[float]) -> np.ndarray[Any, Any]:
    return np.asarray(values, float) * 100


def _bars(s: Series) -> np.ndarray[Any, Any] | None:
    """Error bars below and above each value, in percent (None without an interval)."""
    if s.lo is None or s.hi is None:
        return None
    v, lo, hi = _pc(s.value), _pc(s.lo), _pc(s.hi)
    return np.vstack([np.clip(v - lo, 0, None), np.clip(hi - v, 0, None)])


def _fitted(ax: Any, x: Any, s: Series, marker: str) -> tuple[Any, ...]:
    """The fitted model: its predictive mean dashed, its 95% predictive band shaded.

    Its legend entry: the band and the line as one handle.
    """
    color = COLORS[4]
    parts: list[Any] = []
    if s.lo is not None and s.hi is not None:
        ax.fill_between(x, _pc(s.lo), _pc(s.hi), color=color, alpha=BAND, lw=0)
        parts.append(Patch(facecolor=color, alpha=BAND, lw=0))
    (line,) = ax.plot(
        x, _pc(s.value), "--", marker=marker, ms=5, color=color, markerfacecolor="white", lw=1.6
    )
    return (*parts, line)


def write_chart(f: Figures, path: Path) -> None:
    """Draw the chart and write it to ``path`` (PNG) through a temporary file beside it."""
    if not path.parent.is_dir():
        raise SystemExit(f"against_history.py: no folder {path.parent} to write {path.name} in")
    files.write_file(path, png_bytes(draw(f)), replace=True)


# ------------------------------------------------------------------------------------------
# the tables


def _pct(v: float) -> str:
    return "-" if math.isnan(v) else f"{v:.1%}"


def _interval(s: Series, i: int) -> str:
    assert s.lo is not None and s.hi is not None
    lo, hi = s.lo[i], s.hi[i]
    if math.isnan(lo) or math.isnan(hi):
        return _pct(s.value[i])
    mark = " FAILS" if s.fails is not None and s.fails[i] else ""
    return f"{_pct(s.value[i])} [{lo * 100:.1f}-{hi * 100:.1f}]{mark}"


def _markdown(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    cells = [list(header), *[list(r) for r in rows]]
    width = [max(len(r[j]) for r in cells) for j in range(len(header))]
    lines = ["| " + " | ".join(c.ljust(w) for c, w in zip(header, width, strict=True)) + " |"]
    lines.append("| " + " | ".join("-" * w for w in width) + " |")
    for r in rows:
        lines.append("| " + " | ".join(c.ljust(w) for c, w in zip(r, width, strict=True)) + " |")
    return lines


def markdown(f: Figures) -> str:
    """The figures the chart shows, as two Markdown tables."""
    bands = list(zip(f.labels, f.ratios, strict=True))
    h = f.wins["history"]
    assert h.n is not None
    wins = _markdown(
        [
            "band",
            "ratio",
            "history [95% Wilson]",
            *SYSTEMS.values(),
            "War Game fitted [95% predictive]",
        ],
        [
            [
                label,
                f"{ratio:g}",
                f"{_interval(h, i)} of {h.n[i]}",
                *[_pct(f.wins[s].value[i]) for s in SYSTEMS],
                _interval(f.wins["fitted"], i),
            ]
            for i, (label, ratio) in enumerate(bands)
        ],
    )
    cost = _markdown(
        [
            "band",
            "ratio",
            "loser: history",
            "War Game",
            "fitted [95% predictive]",
            "winner: history",
            "War Game",
            "fitted [95% predictive]",
        ],
        [
            [
                label,
                f"{ratio:g}",
                _pct(f.loser["history"].value[i]),
                _pct(f.loser["wargame"].value[i]),
                _interval(f.loser["fitted"], i),
                _pct(f.winner["history"].value[i]),
                _pct(f.winner["wargame"].value[i]),
                _interval(f.winner["fitted"], i),
            ]
            for i, (label, ratio) in enumerate(bands)
        ],
    )
    n = [k for s in SYSTEMS for k in f.wins[s].n or ()]
    of = f" ({min(n)} to {max(n)} decisive battles a band)" if n else ""
    return "\n".join(
        [
            "The larger side's share of the decisive battles: history (CDB90), each rule "
            f"system with every default{of}, and the War Game fitted to history:",
            "",
            *wins,
            "",
            "Median casualties (incapacitated, dead or surrendered, of the side's fighters) "
            "of the loser and the winner: history, the War Game with every default, and "
            "fitted:",
            "",
            *cost,
        ]
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Run the sweeps where missing, draw the chart and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--results", type=Path, default=RESULTS, help="where the two datasets are (results/)"
    )
    parser.add_argument("--chart", type=Path, default=CHART, help="the PNG to write")
    parser.add_argument("--fresh", action="store_true", help="run both sweeps again")
    args = parser.parse_args(argv)
    curves, fit = ensure(args.results, args.fresh)
    f = figures(curves, fit)
    write_chart(f, args.chart)
    print(markdown(f))
    print(f"the fitted War Game ({fit / 'search' / 'answer.json'}):", file=sys.stderr)
    for line in answer_lines(fit):
        print(f"  {line}", file=sys.stderr)
    print(f"chart: {args.chart}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
