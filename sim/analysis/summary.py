"""Per-group figures of a dataset's runs: win and draw rates, length, losses."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
import pyarrow.compute as pc

from sim.analysis.dataset import Dataset, flatten_sides
from sim.analysis.fmt import _fmt_value, _interval, _num, _plain, short_names
from sim.analysis.stats import t975, wilson
from sim.errors import SimError, unknown

CASUALTIES = ("fleeing", "fled", "surrendered", "incapacitated", "dead")
GROUPABLE = ("scenario", "rules")  # columns besides the parameters one may group by


@dataclass(frozen=True)
class Summary:
    """Per-group figures of a dataset.

    ``frame`` has one row per group, sorted by the ``by`` columns, and these columns:
    ``runs``, ``failed``; ``win.<side>`` with ``.lo`` and ``.hi`` (95% Wilson: the share
    of the finished battles the side won); ``draw`` likewise; ``decisive.<side>`` likewise
    (the share of the decisive battles, those a side won, that this side won);
    ``rounds.mean``, ``rounds.median``, ``rounds.lo``, ``rounds.hi`` (a 95% t interval of
    the mean); ``casualties.<side>.<status>`` (mean per battle);
    ``leader_lost.<side>`` (share of battles whose leader ended not active); and
    ``scale_switch`` (share of battles that switched scale at least once).
    """

    by: tuple[str, ...]
    sides: tuple[str, ...]
    statuses: tuple[str, ...]
    frame: pd.DataFrame
    lengths: pd.DataFrame = field(repr=False)  # group, rounds: each finished battle's length
    names: Mapping[str, str] = field(default_factory=dict)  # parameter -> its header
    design: str | None = None  # the experiment's design (grid, list, random, lhs ...), if known

    def name(self, param: str) -> str:
        """The header of grouping column ``param`` (unique: :func:`short_names`)."""
        return self.names.get(param) or short_names(self.by).get(param, param)

    def group_label(self, i: int) -> str:
        """Group ``i``'s parameter values as one short label (``all`` with no grouping)."""
        if not self.by:
            return "all"
        row = self.frame.iloc[i]
        return ", ".join(f"{self.name(b)}={_fmt_value(row[b])}" for b in self.by)

    def group_values(self, i: int) -> str:
        """Group ``i``'s parameter values alone, for a tick label (``all`` with no grouping)."""
        if not self.by:
            return "all"
        row = self.frame.iloc[i]
        return ", ".join(_fmt_value(row[b]) for b in self.by)

    def groups(self) -> list[dict[str, Any]]:
        """The groups as JSON-ready objects (the ``--format json`` output)."""
        out = []
        for _, row in self.frame.iterrows():
            obj: dict[str, Any] = {b: _plain(row[b]) for b in self.by}
            obj["runs"] = int(row["runs"])
            obj["failed"] = int(row["failed"])
            obj["win_rate"] = {
                s: _interval(row, f"win.{s}", "p")
                for s in self.sides  # each side: {"p", "lo", "hi"}
            }
            obj["draw_rate"] = _interval(row, "draw", "p")
            obj["decisive_win_rate"] = {s: _interval(row, f"decisive.{s}", "p") for s in self.sides}
            obj["rounds"] = {
                "mean": _num(row["rounds.mean"]),
                "median": _num(row["rounds.median"]),
                "lo": _num(row["rounds.lo"]),
                "hi": _num(row["rounds.hi"]),
            }
            obj["casualties"] = {
                s: {st: _num(row[f"casualties.{s}.{st}"]) for st in self.statuses}
                for s in self.sides
            }
            obj["leader_loss_rate"] = {s: _num(row[f"leader_lost.{s}"]) for s in self.sides}
            obj["scale_switch_rate"] = _num(row["scale_switch"])
            out.append(obj)
        return out


def summarize(
    ds: Dataset, by: Sequence[str] | None = None, labels: Mapping[str, str] | None = None
) -> Summary:
    """Summarise ``ds`` per group of ``by`` (default: every swept parameter).

    ``labels`` names parameters for headers and axes (``--label PATH=TEXT``), over the
    experiment's own ``labels:`` map (:attr:`Dataset.labels`); a clear error for a path
    that is not a parameter.
    """
    by = _check_by(ds, by)
    _check_labels(ds, labels or {})
    names = short_names(by, {**ds.labels, **(labels or {})})
    t = ds.arrow("runs", ["run_id", *by, "winner", "rounds", "scale_switches", "sides", "error"])
    gid, frame = group_runs(ds, t.select(list(by)).to_pandas(), by, t["run_id"].to_numpy())
    groups = len(frame)

    def count(mask: np.ndarray[Any, Any], where: np.ndarray[Any, Any] = gid) -> Any:
        return np.bincount(where, weights=mask, minlength=groups)

    ok = t["error"].is_null().to_numpy(zero_copy_only=False)
    frame["runs"] = np.bincount(gid, minlength=groups)
    frame["failed"] = frame["runs"] - count(ok).astype(np.int64)
    n_ok = count(ok)

    flat, parent = flatten_sides(t["sides"])
    flat_gid = gid[parent]
    sides = tuple(pd.unique(flat["side"]))
    _check_columns(ds, sides)
    winner = t["winner"]
    wins = {
        s: count(ok & pc.fill_null(pc.equal(winner, s), False).to_numpy(zero_copy_only=False))
        for s in sides
    }
    for s in sides:
        _add_interval(frame, f"win.{s}", wins[s], n_ok)
    draw = ok & winner.is_null().to_numpy(zero_copy_only=False)
    _add_interval(frame, "draw", count(draw), n_ok)
    for s in sides:  # of the decisive battles: those a side won
        _add_interval(frame, f"decisive.{s}", wins[s], n_ok - count(draw))

    rounds = t["rounds"].to_numpy(zero_copy_only=False).astype(float)
    _add_mean(frame, "rounds", gid[ok], rounds[ok], groups)

    statuses = tuple(s for s in CASUALTIES if s in flat and flat[s].any())
    leader = flat["leader_status"].to_numpy(dtype=object)
    has_leader = pd.notna(leader)
    lost = has_leader & (leader != "active")
    for s in sides:
        mine = (flat["side"] == s).to_numpy()
        where = flat_gid[mine]
        with np.errstate(invalid="ignore", divide="ignore"):
            for st in statuses:
                total = np.bincount(where, weights=flat[st].to_numpy()[mine], minlength=groups)
                frame[f"casualties.{s}.{st}"] = total / n_ok
            frame[f"leader_lost.{s}"] = count(lost[mine], where) / count(has_leader[mine], where)
    switched = ok & (np.nan_to_num(t["scale_switches"].to_numpy(zero_copy_only=False)) > 0)
    with np.errstate(invalid="ignore", divide="ignore"):
        frame["scale_switch"] = count(switched) / n_ok
    lengths = pd.DataFrame({"group": gid[ok], "rounds": rounds[ok]})
    return Summary(by, sides, statuses, frame, lengths, names, ds.design)


def _check_columns(ds: Dataset, sides: Sequence[str]) -> None:
    """Refuse sides whose columns would be the same (``guards`` and ``guards.lo``).

    Each side's figures are columns named after it (``win.SIDE.lo``); two sides sharing one
    would print one side's rate as the other's bound. The scenario reader refuses such
    names; a dataset made otherwise is refused here, before a number is printed.
    """
    taken: dict[str, str] = {}
    for side in sides:
        for col in (
            *(f"{kind}.{side}{end}" for kind in ("win", "decisive") for end in ("", ".lo", ".hi")),
            f"leader_lost.{side}",
        ):
            if col in taken:
                raise SimError(
                    f"{ds.root}: sides {taken[col]!r} and {side!r} share the summary's column "
                    f"{col}; rename one of them in the scenario and sweep again"
                )
            taken[col] = side


def _check_labels(ds: Dataset, labels: Mapping[str, str]) -> None:
    """A clear error for a label of a path that is not a parameter."""
    for path in labels:
        if path not in ds.params:
            raise SimError(unknown("parameter to label", path, ds.params))


def group_runs(
    ds: Dataset, keys: pd.DataFrame, by: Sequence[str], run_id: np.ndarray[Any, Any]
) -> tuple[np.ndarray[Any, Any], pd.DataFrame]:
    """Each run's group id and the groups' ``by`` values, in the order the experiment declares.

    ``keys`` holds the runs' ``by`` columns, ``run_id`` their ids. A ``list`` design's
    groups come in the order of its points (a group of several points where its first one
    is), labelled or not; every other design's levels come as :func:`_group` orders them.
    Every table and chart of a dataset groups its runs here, so they all agree.
    """
    point = None
    if ds.design == "list":
        point = np.asarray(run_id, dtype=np.int64) // int(ds.manifest.get("replicates", 1) or 1)
    chosen = ds.design in ("grid", "list")  # levels written out, numbers too
    return _group(keys, by, len(keys), {b: ds.declared(b) for b in by}, point, chosen)


def _check_by(ds: Dataset, by: Sequence[str] | None) -> tuple[str, ...]:
    """The grouping columns (default: every swept parameter); a clear error for unknown ones."""
    by = tuple(ds.params if by is None else by)
    allowed = (*ds.params, *GROUPABLE)
    for b in by:
        if b not in allowed:
            raise SimError(unknown("parameter to group by", b, allowed))
    return by


def _group(
    keys: pd.DataFrame,
    by: Sequence[str],
    n: int,
    declared: Mapping[str, Sequence[Any]] | None = None,
    point: np.ndarray[Any, Any] | None = None,
    numbers_declared: bool = False,
) -> tuple[np.ndarray[Any, Any], pd.DataFrame]:
    """Each of ``n`` rows' group id (groups in order of ``by``), and the groups' ``by`` values.

    Given each row's design ``point``, groups come in the order of the first point they
    hold. Otherwise a text column's levels keep the order ``declared`` gives (the
    experiment's, see :meth:`Dataset.declared`), others after them in sorted order; numbers
    too with ``numbers_declared`` (a grid's written levels), else sorted by value (a random
    or Latin hypercube design declares them in no useful order); missing values come last.
    With no ``by`` every row is in one group (none if there are no rows).
    """
    if not by:
        return np.zeros(n, dtype=np.int64), pd.DataFrame(index=range(1 if n else 0))
    grouped = keys.groupby(list(by), sort=False, dropna=False)
    first_gid = grouped.ngroup().to_numpy()
    groups = grouped.size().reset_index()[list(by)]
    ranks = [_ranks(groups[b], (declared or {}).get(b, ()), numbers_declared) for b in by]
    if point is not None and len(groups):
        first = pd.Series(point).groupby(first_gid).min().reindex(range(len(groups)))
        ranks.insert(0, first.to_numpy())
    order = np.lexsort(ranks[::-1]) if len(groups) else np.zeros(0, dtype=np.int64)
    new_id = np.empty(len(groups), dtype=np.int64)
    new_id[order] = np.arange(len(groups))
    return new_id[first_gid], groups.iloc[order].reset_index(drop=True)


def _ranks(
    values: pd.Series, declared: Sequence[Any], numbers_declared: bool = False
) -> np.ndarray[Any, Any]:
    """Each value's place among ``values``: declared order first, then sorted, missing last.

    Numbers are sorted by value unless ``numbers_declared``.
    """
    known = pd.notna(values).to_numpy()
    present = list(values[known])
    numeric = all(
        isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool)
        for v in present
    )
    first = [] if numeric and not numbers_declared else [v for v in declared if v in set(present)]
    rest = sorted((v for v in set(present) if v not in set(first)), key=_sort_key)
    place = {v: i for i, v in enumerate([*first, *rest])}
    return np.array(
        [place[v] if ok else len(place) for v, ok in zip(values, known, strict=True)],
        dtype=np.int64,
    )


def _sort_key(v: Any) -> tuple[int, Any]:
    """Numbers before text, each in its own order (a column may mix them)."""
    if isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool):
        return (0, float(v))
    return (1, str(v))


def _add_interval(
    frame: pd.DataFrame, name: str, k: np.ndarray[Any, Any], n: np.ndarray[Any, Any]
) -> None:
    p, lo, hi = wilson(k, n)
    frame[name], frame[f"{name}.lo"], frame[f"{name}.hi"] = p, lo, hi


def _add_mean(
    frame: pd.DataFrame,
    name: str,
    gid: np.ndarray[Any, Any],
    x: np.ndarray[Any, Any],
    groups: int,
) -> None:
    """Mean, median and a 95% t interval of the mean of ``x`` per group."""
    n = np.bincount(gid, minlength=groups).astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.bincount(gid, weights=x, minlength=groups) / n
        dev = x - mean[gid]
        var = np.bincount(gid, weights=dev * dev, minlength=groups) / (n - 1)
        half = np.array([t975(int(k) - 1) for k in n]) * np.sqrt(var / n)
    median = pd.Series(x).groupby(gid).median().reindex(range(groups)).to_numpy()
    frame[f"{name}.mean"], frame[f"{name}.median"] = mean, median
    frame[f"{name}.lo"], frame[f"{name}.hi"] = mean - half, mean + half
