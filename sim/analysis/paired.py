"""Paired differences between design points of a sweep with common random numbers.

With ``seeds: shared`` replicate ``r`` has the same seed at every design point, so the
runs of two points are pairs: the same dice, met under different parameters. The
difference of an outcome between a point and the reference point (the first design
point) is then measured replicate by replicate, and its mean has a 95% Student t
interval over the pairs (``mean +- t975(n-1) * sd / sqrt(n)``, n the replicates where
both runs finished). Pairing removes the dice's own variance from the comparison: the
interval is narrower than the difference of two independent intervals whenever the
outcomes of a pair are correlated, which is what common random numbers are for.

Measured for each side's win (a run scores 1 or 0, so the difference is one of
-1, 0, 1 per pair and its mean a difference of win rates) and for the battle's length in
rounds. A group of the summary must be one design point (the default grouping by every
swept parameter); otherwise there is nothing to pair.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from sim.analysis.dataset import Dataset
from sim.analysis.fmt import _fmt_value
from sim.analysis.stats import t975
from sim.analysis.summary import Summary, group_runs
from sim.dataset.alike import FIRST, alike, alike_note


@dataclass(frozen=True)
class Paired:
    """Paired differences of each group (one design point each) from the reference group.

    ``frame`` has one row per group in the summary's order: ``pairs`` and, for each
    outcome ``o`` (``win.<side>``, ``rounds``), ``o``, ``o.lo``, ``o.hi``; the reference
    row is all NaN with 0 pairs.
    """

    reference: int
    outcomes: tuple[str, ...]
    frame: pd.DataFrame
    alike: tuple[tuple[int, ...], ...] = ()
    """Groups of groups that fought identical battles on each of the first shared seeds
    (:mod:`sim.dataset.alike`): the rules may not tell them apart."""


def shared_seeds(ds: Dataset) -> bool:
    """Whether the sweep used common random numbers: each replicate one seed at every point."""
    reps = int(ds.manifest.get("replicates", 1) or 1)
    t = ds.arrow("runs", ["run_id", "seed"]).to_pandas()
    points = t["run_id"] // reps
    if points.nunique() < 2:
        return False
    return bool((t.groupby(t["run_id"] % reps)["seed"].nunique() == 1).all())


def paired(ds: Dataset, s: Summary) -> Paired | None:
    """The paired differences of ``s``'s groups, or None without shared seeds or pairs."""
    if not shared_seeds(ds) or len(s.frame) < 2:
        return None
    reps = int(ds.manifest.get("replicates", 1) or 1)
    t = ds.arrow("runs", ["run_id", "winner", "rounds", "error", *s.by]).to_pandas()
    gid, _ = group_runs(ds, t[list(s.by)], s.by, t["run_id"].to_numpy())  # as s.frame's
    point = (t["run_id"] // reps).to_numpy()
    if not _one_point_each(gid, point):
        return None
    rep = (t["run_id"] % reps).to_numpy()
    ok = t["error"].isna().to_numpy()
    values = {f"win.{side}": (t["winner"] == side).to_numpy(float) for side in s.sides}
    values["rounds"] = t["rounds"].to_numpy(float)
    groups = len(s.frame)
    reference = int(gid[point == point.min()][0])
    frame = pd.DataFrame(index=range(groups))
    frame["pairs"] = 0
    for name, x in values.items():
        grid = np.full((groups, reps), np.nan)
        grid[gid[ok], rep[ok]] = x[ok]
        diff = grid - grid[reference]
        n = np.sum(~np.isnan(diff), axis=1)
        frame["pairs"] = n
        mean, lo, hi = _t_intervals(diff, n)
        frame[name], frame[f"{name}.lo"], frame[f"{name}.hi"] = mean, lo, hi
    frame.loc[reference, :] = np.nan
    frame.loc[reference, "pairs"] = 0
    return Paired(reference, tuple(values), frame, _alike(ds, t, gid, rep))


def _alike(
    ds: Dataset, t: pd.DataFrame, gid: np.ndarray[Any, Any], rep: np.ndarray[Any, Any]
) -> tuple[tuple[int, ...], ...]:
    """The groups whose battles were identical on each of the first shared seeds."""
    first = t.assign(_g=gid, _r=rep)[rep < FIRST]
    sides = ds.arrow("runs", ["run_id", "sides"]).to_pandas().set_index("run_id")["sides"]
    battles: dict[int, list[Any]] = {}
    for g, group in first.sort_values(["_g", "_r"]).groupby("_g", sort=True):
        battles[int(g)] = [
            (r.winner, r.rounds, r.error, json.dumps(list(sides[r.run_id]), default=str))
            for r in group.itertuples()
        ]
    return tuple(tuple(g) for g in alike(battles))


def alike_text(s: Summary, p: Paired) -> str:
    """The note that some points fought alike (:mod:`sim.dataset.alike`), one line."""
    names = [
        [", ".join(f"{s.name(b)} = {_fmt_value(s.frame.loc[i, b])}" for b in s.by) for i in g]
        for g in p.alike
    ]
    return alike_note(names) + "."


def _one_point_each(gid: np.ndarray[Any, Any], point: np.ndarray[Any, Any]) -> bool:
    """Whether every group holds exactly one design point (and so the reverse)."""
    pairs = pd.DataFrame({"g": gid, "p": point}).drop_duplicates()
    return bool(pairs["g"].is_unique and pairs["p"].is_unique)


def _t_intervals(
    diff: np.ndarray[Any, Any], n: np.ndarray[Any, Any]
) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """Each row's mean difference and its 95% t interval (NaN with fewer than 2 pairs)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(n > 0, np.nansum(diff, axis=1) / np.maximum(n, 1), np.nan)
        sq = np.nansum((diff - mean[:, None]) ** 2, axis=1)
        sd = np.sqrt(sq / np.maximum(n - 1, 1))
        half = np.array([t975(int(k) - 1) for k in n]) * sd / np.sqrt(np.maximum(n, 1))
    half = np.where(n > 1, half, np.nan)
    return mean, mean - half, mean + half


def paired_rows(s: Summary, p: Paired) -> tuple[list[str], list[list[str]]]:
    """Headers and rows of the paired-differences table (the reference row says so)."""
    headers = [s.name(b) for b in s.by] + ["pairs"]
    sides = [o for o in p.outcomes if o.startswith("win.")]
    headers += [f"{o[4:]} win diff [95% CI]" for o in sides] + ["rounds diff [95% CI]"]
    rows = []
    for i, r in s.frame.iterrows():
        d = p.frame.loc[i]
        row = [_fmt_value(r[b]) for b in s.by]
        if i == p.reference:
            rows.append([*row, "-", *["(reference)"] * (len(headers) - len(row) - 1)])
            continue
        row.append(str(int(d["pairs"])))
        row += [_pp_ci(d, o) for o in sides]
        row.append(_rounds_ci(d))
        rows.append(row)
    return headers, rows


def _pp_ci(d: pd.Series, name: str) -> str:
    """A difference of shares in percentage points, with its interval."""
    if math.isnan(d[name]):
        return "-"
    lo, hi = d[f"{name}.lo"], d[f"{name}.hi"]
    if math.isnan(lo):
        return f"{100 * d[name]:+.1f} pp"
    return f"{100 * d[name]:+.1f} pp [{100 * lo:+.1f} to {100 * hi:+.1f}]"


def _rounds_ci(d: pd.Series) -> str:
    if math.isnan(d["rounds"]):
        return "-"
    if math.isnan(d["rounds.lo"]):
        return f"{d['rounds']:+.2f}"
    return f"{d['rounds']:+.2f} [{d['rounds.lo']:+.2f} to {d['rounds.hi']:+.2f}]"


def paired_json(s: Summary, p: Paired, groups: list[dict[str, Any]]) -> None:
    """Add ``paired`` to each non-reference group object of ``groups`` (``s.groups()``).

    ``paired`` is ``{"vs": {the reference's parameters}, "pairs": n, "win_rate": {side:
    {"diff", "lo", "hi"}}, "rounds": {"diff", "lo", "hi"}}``; the reference group gets
    ``"paired": "reference"``.
    """
    ref = {b: groups[p.reference][b] for b in s.by}
    for i, g in enumerate(groups):
        if i == p.reference:
            g["paired"] = "reference"
            continue
        d = p.frame.loc[i]

        def diff(name: str, d: pd.Series = d) -> dict[str, float | None]:
            return {k: _num(d[name + suffix]) for k, suffix in _KEYS}

        g["paired"] = {
            "vs": ref,
            "pairs": int(d["pairs"]),
            "win_rate": {o[4:]: diff(o) for o in p.outcomes if o.startswith("win.")},
            "rounds": diff("rounds"),
        }


_KEYS = (("diff", ""), ("lo", ".lo"), ("hi", ".hi"))


def _num(v: Any) -> float | None:
    v = float(v)
    return None if math.isnan(v) else v
