"""Analysis of a dataset: the common questions, answered in columnar code.

For notebooks::

    from sim import analysis
    ds = analysis.load("results/quickstart")
    ds.runs                      # pandas: one row per battle, the parameters as columns
    ds.table("fighters")         # one row per fighter, the run's parameters joined
    s = analysis.summarize(ds)   # one row per group of the swept parameters
    s.frame                      # win rates with Wilson intervals, length, casualties ...

Every figure is computed over whole columns (Arrow, numpy ``bincount``, pandas group-by),
never a Python loop over runs, so a million-run dataset is summarised in seconds. Runs
that failed (``error`` set) are counted per group and left out of every rate.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.dataset as pads

from sim import records
from sim.errors import SimError, unknown

Z95 = 1.959963984540054  # the standard normal's 97.5% quantile
CASUALTIES = ("fleeing", "fled", "surrendered", "incapacitated", "dead")
GROUPABLE = ("scenario", "rules")  # columns besides the parameters one may group by

# Student's t 97.5% quantiles for 1..10 degrees of freedom (beyond 10 the series below)
_T975 = (
    12.706204736174698,
    4.302652729749464,
    3.182446305284263,
    2.7764451051977934,
    2.570581835636314,
    2.4469118511449692,
    2.3646242515927844,
    2.3060041352041662,
    2.2621571627982053,
    2.2281388519862735,
)


def wilson(
    k: Any, n: Any, z: float = Z95
) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """The share ``k / n`` and its Wilson score interval (95% by default), elementwise.

    NaN where ``n`` is 0.
    """
    k = np.asarray(k, dtype=float)
    n = np.asarray(n, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = k / n
        z2n = z * z / n
        centre = (p + z2n / 2) / (1 + z2n)
        half = z * np.sqrt(p * (1 - p) / n + z2n / (4 * n)) / (1 + z2n)
        lo = np.where(k == 0, 0.0, np.clip(centre - half, 0.0, 1.0))
        hi = np.where(k == n, 1.0, np.clip(centre + half, 0.0, 1.0))
    empty = n == 0
    return np.where(empty, np.nan, p), np.where(empty, np.nan, lo), np.where(empty, np.nan, hi)


def t975(df: int) -> float:
    """Student's t 97.5% quantile with ``df`` degrees of freedom (NaN below 1).

    Exact table values up to 10; beyond, the Cornish-Fisher series of Abramowitz and
    Stegun 26.7.5, within 1e-5 of the true value.
    """
    if df < 1:
        return math.nan
    if df <= len(_T975):
        return _T975[df - 1]
    z = Z95
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
    g4 = (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160
    return z + g1 / df + g2 / df**2 + g3 / df**3 + g4 / df**4


# ---------------------------------------------------------------------------------------
# loading


@dataclass
class Dataset:
    """A dataset on disk: its manifest, swept parameters and tables (read when first used)."""

    root: Path
    manifest: dict[str, Any]
    params: tuple[str, ...]
    unlisted: tuple[str, ...] = ()  # part files the manifest does not list (not read)

    def arrow(self, table: str, columns: Sequence[str] | None = None) -> pa.Table:
        """One table (every part) as Arrow, optionally only some columns."""
        files = records.table_files(self.root, table, self.manifest)
        if not files:
            empty = records.schema(table, self._param_fields())
            return empty.empty_table().select(list(columns)) if columns else empty.empty_table()
        data = pads.dataset([str(f) for f in files], format="parquet")
        return data.to_table(columns=list(columns) if columns is not None else None)

    def _param_fields(self) -> list[pa.Field]:
        return [pa.field(p, pa.string()) for p in self.params]

    @cached_property
    def runs(self) -> pd.DataFrame:
        """One row per battle (``sides`` left as lists), sorted by run id."""
        frame = self.arrow("runs").to_pandas()
        return frame.sort_values("run_id", ignore_index=True)

    def table(self, name: str) -> pd.DataFrame:
        """``rounds``, ``fighters`` or ``events`` with the run's parameters and seed joined."""
        if name == "runs":
            return self.runs
        if name not in records.TABLES:
            raise SimError(unknown("table", name, records.TABLES))
        rows = self.arrow(name).to_pandas()
        keys = self.arrow("runs", ["run_id", "seed", *self.params]).to_pandas()
        return rows.merge(keys, on="run_id", how="left", validate="many_to_one")

    @cached_property
    def sides(self) -> pd.DataFrame:
        """One row per run and side (the ``sides`` lists flattened), the parameters joined."""
        runs = self.arrow("runs", ["run_id", "sides", *self.params])
        frame, parent = flatten_sides(runs["sides"])
        keys = runs.drop_columns(["sides"]).take(pa.array(parent)).to_pandas()
        return pd.concat([keys, frame], axis=1)


def flatten_sides(sides: pa.ChunkedArray) -> tuple[pd.DataFrame, np.ndarray[Any, Any]]:
    """The ``sides`` list column as one row per side, and each row's index in ``sides``."""
    flat = pc.list_flatten(sides)
    parent = pc.list_parent_indices(sides).to_numpy()
    if isinstance(flat, pa.ChunkedArray):
        flat = flat.combine_chunks() if flat.num_chunks else pa.array([], records.SIDE_TYPE)
    return pa.Table.from_struct_array(flat).to_pandas(), parent


def load(root: str | Path) -> Dataset:
    """Open the dataset at ``root`` (a clear error if it is not one)."""
    from sim import store

    root = Path(root)
    manifest, extra = store.open_manifest(root)
    return Dataset(root, manifest, tuple(manifest.get("parameters", [])), tuple(extra))


# ---------------------------------------------------------------------------------------
# summaries


@dataclass(frozen=True)
class Summary:
    """Per-group figures of a dataset.

    ``frame`` has one row per group, sorted by the ``by`` columns, and these columns:
    ``runs``, ``failed``; ``win.<side>`` with ``.lo`` and ``.hi`` (95% Wilson);
    ``draw`` likewise; ``rounds.mean``, ``rounds.median``, ``rounds.lo``, ``rounds.hi``
    (a 95% t interval of the mean); ``casualties.<side>.<status>`` (mean per battle);
    ``leader_lost.<side>`` (share of battles whose leader ended not active); and
    ``scale_switch`` (share of battles that switched scale at least once).
    """

    by: tuple[str, ...]
    sides: tuple[str, ...]
    statuses: tuple[str, ...]
    frame: pd.DataFrame
    lengths: pd.DataFrame = field(repr=False)  # group, rounds: each finished battle's length

    def group_label(self, i: int) -> str:
        """Group ``i``'s parameter values as one short label (``all`` with no grouping)."""
        if not self.by:
            return "all"
        row = self.frame.iloc[i]
        return ", ".join(f"{_short(b)}={_fmt_value(row[b])}" for b in self.by)

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


def summarize(ds: Dataset, by: Sequence[str] | None = None) -> Summary:
    """Summarise ``ds`` per group of ``by`` (default: every swept parameter)."""
    by = _check_by(ds, by)
    t = ds.arrow("runs", [*by, "winner", "rounds", "scale_switches", "sides", "error"])
    gid, frame = _group(t.select(list(by)).to_pandas(), by, t.num_rows)
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
    winner = t["winner"]
    for s in sides:
        won = pc.fill_null(pc.equal(winner, s), False).to_numpy(zero_copy_only=False)
        _add_interval(frame, f"win.{s}", count(ok & won), n_ok)
    draw = ok & winner.is_null().to_numpy(zero_copy_only=False)
    _add_interval(frame, "draw", count(draw), n_ok)

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
    return Summary(by, sides, statuses, frame, lengths)


def _check_by(ds: Dataset, by: Sequence[str] | None) -> tuple[str, ...]:
    """The grouping columns (default: every swept parameter); a clear error for unknown ones."""
    by = tuple(ds.params if by is None else by)
    allowed = (*ds.params, *GROUPABLE)
    for b in by:
        if b not in allowed:
            raise SimError(unknown("parameter to group by", b, allowed))
    return by


def _group(
    keys: pd.DataFrame, by: Sequence[str], n: int
) -> tuple[np.ndarray[Any, Any], pd.DataFrame]:
    """Each of ``n`` rows' group id (groups sorted by ``by``), and the groups' ``by`` values.

    With no ``by`` every row is in one group (none if there are no rows).
    """
    if not by:
        return np.zeros(n, dtype=np.int64), pd.DataFrame(index=range(1 if n else 0))
    grouped = keys.groupby(list(by), sort=True, dropna=False)
    return grouped.ngroup().to_numpy(), grouped.size().reset_index()[list(by)]


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


# ---------------------------------------------------------------------------------------
# tables for reading


def outcome_rows(s: Summary) -> tuple[list[str], list[list[str]]]:
    """Headers and rows of the outcome table: runs, win rates, draws, length, scale switches."""
    headers = [_short(b) for b in s.by] + ["runs"]
    failed = bool(s.frame["failed"].any())
    if failed:
        headers.append("failed")
    headers += [f"{side} win [95% CI]" for side in s.sides]
    headers += ["draw", "rounds [95% CI]", "median", "scale switch"]
    rows = []
    for _, r in s.frame.iterrows():
        row = [_fmt_value(r[b]) for b in s.by] + [str(int(r["runs"]))]
        if failed:
            row.append(str(int(r["failed"])))
        row += [_pct_ci(r, f"win.{side}") for side in s.sides]
        row += [_pct(r["draw"])]
        row += [f"{_f1(r['rounds.mean'])} [{_f1(r['rounds.lo'])}-{_f1(r['rounds.hi'])}]"]
        row += [_f1(r["rounds.median"]), _pct(r["scale_switch"])]
        rows.append(row)
    return headers, rows


def loss_rows(s: Summary) -> tuple[list[str], list[list[str]]]:
    """Headers and rows of the loss table.

    Mean fighters per battle by final status, and the share of battles in which each
    side's leader ended not active.
    """
    headers = [_short(b) for b in s.by]
    rows: list[list[str]] = [[_fmt_value(r[b]) for b in s.by] for _, r in s.frame.iterrows()]
    for side in s.sides:
        headers += [f"{side} {st}" for st in s.statuses] + [f"{side} leader lost"]
        for row, (_, r) in zip(rows, s.frame.iterrows(), strict=True):
            row += [_f2(r[f"casualties.{side}.{st}"]) for st in s.statuses]
            row.append(_pct(r[f"leader_lost.{side}"]))
    return headers, rows


def flat_rows(s: Summary) -> tuple[list[str], list[list[Any]]]:
    """Every column of the summary with full precision (the ``--format csv`` output)."""
    headers = list(s.frame.columns)
    rows = [[_plain(v) for v in r] for r in s.frame.itertuples(index=False)]
    return headers, rows


def _short(param: str) -> str:
    """A dotted parameter path shortened for a column header: its last two parts."""
    return ".".join(param.split(".")[-2:])


def _plain(v: Any) -> Any:
    """A numpy or pandas scalar as a plain Python value (NaN as None)."""
    if isinstance(v, np.generic):
        v = v.item()
    if isinstance(v, float) and math.isnan(v):
        return None
    return v


def _num(v: Any) -> float | None:
    v = _plain(v)
    return None if v is None else float(v)


def _interval(row: pd.Series, name: str, key: str) -> dict[str, float | None]:
    return {key: _num(row[name]), "lo": _num(row[f"{name}.lo"]), "hi": _num(row[f"{name}.hi"])}


def _fmt_value(v: Any) -> str:
    v = _plain(v)
    if v is None:
        return "-"
    if isinstance(v, float):
        return f"{v:g}"
    return str(v)


def _pct(p: Any) -> str:
    p = _plain(p)
    return "-" if p is None else f"{100 * p:.1f}%"


def _pct_ci(row: pd.Series, name: str) -> str:
    if _plain(row[name]) is None:
        return "-"
    lo, hi = 100 * row[f"{name}.lo"], 100 * row[f"{name}.hi"]
    return f"{100 * row[name]:5.1f}% [{lo:4.1f}-{hi:4.1f}]"


def _f1(x: Any) -> str:
    x = _plain(x)
    return "-" if x is None else f"{x:.1f}"


def _f2(x: Any) -> str:
    x = _plain(x)
    return "-" if x is None else f"{x:.2f}"


# ---------------------------------------------------------------------------------------
# aftermath and campaigns (the ``aftermath`` and ``campaign`` tables, sim.campaign)


def has_table(ds: Dataset, table: str) -> bool:
    """Whether the dataset holds any part of ``table``."""
    return bool(records.table_files(ds.root, table, ds.manifest))


def _run_groups(ds: Dataset, by: Sequence[str]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(run_id -> group id of the runs that did not fail, the groups' ``by`` values)."""
    by = _check_by(ds, by)
    t = ds.arrow("runs", ["run_id", *by, "error"])
    runs = t.filter(t["error"].is_null()).drop_columns(["error"]).to_pandas()
    runs["group"], groups = _group(runs, by, len(runs))
    return runs[["run_id", "group"]], groups


def aftermath_summary(ds: Dataset, by: Sequence[str] | None = None) -> pd.DataFrame:
    """Per group and side: the wounded, who died of their wounds, who recovered by the last day.

    From the ``aftermath`` table (every battle of a campaign counts). A fighter is
    ``wounded`` when it was alive after the battle and hurt; it ``died of wounds`` when it is
    dead on its last aftermath day, and ``recovered`` when it is up with no open wound then.
    One row per group and side: ``runs``, ``days`` (the aftermath's length), ``wounded`` and
    ``died`` (means per run), ``died_share`` and ``recovered_share`` (shares of the wounded,
    with 95% Wilson intervals ``.lo``/``.hi``), and ``still_share`` (neither).
    """
    by = tuple(ds.params if by is None else by)
    runs, groups = _run_groups(ds, by)
    cols = ["run_id", "battle", "day", "side", "status", "wounded", "recovered"]
    a = ds.arrow("aftermath", cols).to_pandas()
    a = a.merge(runs, on="run_id", how="inner")  # failed runs have no rows
    last_day = a.groupby(["run_id", "battle"])["day"].transform("max")
    last = a[a["day"] == last_day]
    wounded = last["wounded"].to_numpy(dtype=bool)
    died = wounded & (last["status"] == "dead").to_numpy()
    recovered = wounded & last["recovered"].to_numpy(dtype=bool)
    frame = pd.DataFrame(
        {
            "group": last["group"].to_numpy(),
            "side": last["side"].to_numpy(),
            "wounded": wounded.astype(np.int64),
            "died": died.astype(np.int64),
            "recovered": recovered.astype(np.int64),
            "days": last["day"].to_numpy() + 1,
        }
    )
    out = (
        frame.groupby(["group", "side"], sort=True)
        .agg(
            wounded=("wounded", "sum"),
            died=("died", "sum"),
            recovered=("recovered", "sum"),
            days=("days", "max"),
        )
        .reset_index()
    )
    n_runs = runs.groupby("group").size()
    out["runs"] = out["group"].map(n_runs).to_numpy()
    k_w = out["wounded"].to_numpy(dtype=float)
    _add_interval(out, "died_share", out["died"].to_numpy(), k_w)
    _add_interval(out, "recovered_share", out["recovered"].to_numpy(), k_w)
    with np.errstate(invalid="ignore", divide="ignore"):
        out["still_share"] = (k_w - out["died"] - out["recovered"]) / k_w
    out["wounded"] = k_w / out["runs"]
    out["died"] = out["died"] / out["runs"]
    out = out.drop(columns=["recovered"])
    keys = groups.reset_index(names="group")
    out = keys.merge(out, on="group", how="inner").drop(columns=["group"])
    first = [*by, "side", "runs", "days", "wounded", "died"]
    return out[first + [c for c in out.columns if c not in first]]


def campaign_summary(ds: Dataset, by: Sequence[str] | None = None) -> pd.DataFrame:
    """Per group and battle: the company's living, its Veterans, and their share.

    From the ``campaign`` table: after each battle (and its aftermath days) a member is
    ``alive`` unless dead, a veteran when alive with tier Veteran or Hero (10 fights or
    more). One row per group and battle: ``runs`` (that reached the battle), means per run
    of ``fought``, ``alive``, ``veterans``, and ``veteran_share`` (of the living, with a 95%
    Wilson interval ``.lo``/``.hi``).
    """
    by = tuple(ds.params if by is None else by)
    runs, groups = _run_groups(ds, by)
    c = ds.arrow("campaign", ["run_id", "battle", "label", "fought", "status", "tier_after"])
    c = c.to_pandas().merge(runs, on="run_id", how="inner")
    alive = (c["status"] != "dead").to_numpy()
    frame = pd.DataFrame(
        {
            "group": c["group"].to_numpy(),
            "battle": c["battle"].to_numpy(),
            "label": c["label"].to_numpy(),
            "run_id": c["run_id"].to_numpy(),
            "fought": c["fought"].to_numpy(dtype=bool).astype(np.int64),
            "alive": alive.astype(np.int64),
            "veterans": (alive & c["tier_after"].isin(["veteran", "hero"]).to_numpy()).astype(
                np.int64
            ),
        }
    )
    out = (
        frame.groupby(["group", "battle"], sort=True)
        .agg(
            label=("label", "first"),
            runs=("run_id", "nunique"),
            fought=("fought", "sum"),
            alive=("alive", "sum"),
            veterans=("veterans", "sum"),
        )
        .reset_index()
    )
    _add_interval(out, "veteran_share", out["veterans"].to_numpy(), out["alive"].to_numpy())
    for col in ("fought", "alive", "veterans"):
        out[col] = out[col] / out["runs"]
    keys = groups.reset_index(names="group")
    return keys.merge(out, on="group", how="inner").drop(columns=["group"])


ExtraTable = tuple[str, str, list[str], list[list[str]]]  # title, caption, headers, rows


def extra_tables(ds: Dataset, by: Sequence[str]) -> list[ExtraTable]:
    """(title, caption, headers, rows) of the aftermath and campaign tables ``ds`` has.

    The first ``len(by) + 1`` columns of each are keys: the group's values, then the side
    (aftermath) or the battle (campaign).
    """
    out = []
    if has_table(ds, "aftermath"):
        out.append(
            (
                "Aftermath",
                "wounded (alive after the battle and hurt) and died of wounds, means per run; "
                "died and recovered by the last day: shares of the wounded, 95% Wilson intervals",
                *aftermath_rows(aftermath_summary(ds, by), by),
            )
        )
    if has_table(ds, "campaign"):
        out.append(
            (
                "Campaign",
                "the company after each battle and its aftermath, means per run; veteran "
                "share: Veterans and Heroes among the living, 95% Wilson intervals",
                *campaign_rows(campaign_summary(ds, by), by),
            )
        )
    return out


def groups_json(ds: Dataset, s: Summary) -> list[dict[str, Any]]:
    """``s.groups()`` with the aftermath and campaign figures added where ``ds`` has them.

    Each group object gains ``aftermath`` (per side: ``runs``, ``days``, ``wounded`` and
    ``died`` per run, ``died_share`` and ``recovered_share`` as ``{p, lo, hi}``,
    ``still_share``) and ``campaign`` (a list per battle: ``battle``, ``label``, ``runs``,
    ``fought``, ``alive``, ``veterans`` per run, ``veteran_share`` as ``{p, lo, hi}``).
    """
    groups = s.groups()
    index = {tuple(g[b] for b in s.by): g for g in groups}

    def group_of(row: pd.Series) -> dict[str, Any] | None:
        return index.get(tuple(_plain(row[b]) for b in s.by))

    if groups and has_table(ds, "aftermath"):
        for _, r in aftermath_summary(ds, s.by).iterrows():
            g = group_of(r)
            if g is not None:
                g.setdefault("aftermath", {})[str(r["side"])] = {
                    "runs": int(r["runs"]),
                    "days": int(r["days"]),
                    "wounded": _num(r["wounded"]),
                    "died": _num(r["died"]),
                    "died_share": _interval(r, "died_share", "p"),
                    "recovered_share": _interval(r, "recovered_share", "p"),
                    "still_share": _num(r["still_share"]),
                }
    if groups and has_table(ds, "campaign"):
        for _, r in campaign_summary(ds, s.by).iterrows():
            g = group_of(r)
            if g is not None:
                g.setdefault("campaign", []).append(
                    {
                        "battle": int(r["battle"]),
                        "label": str(r["label"]),
                        "runs": int(r["runs"]),
                        "fought": _num(r["fought"]),
                        "alive": _num(r["alive"]),
                        "veterans": _num(r["veterans"]),
                        "veteran_share": _interval(r, "veteran_share", "p"),
                    }
                )
    return groups


def aftermath_rows(frame: pd.DataFrame, by: Sequence[str]) -> tuple[list[str], list[list[str]]]:
    """Headers and rows of the aftermath table (:func:`aftermath_summary`) for reading."""
    headers = [_short(b) for b in by] + ["side", "runs", "days", "wounded", "died of wounds"]
    headers += ["died [95% CI]", "recovered [95% CI]", "still wounded"]
    rows = []
    for _, r in frame.iterrows():
        row = [_fmt_value(r[b]) for b in by] + [str(r["side"]), str(int(r["runs"]))]
        row += [str(int(r["days"])), _f2(r["wounded"]), _f2(r["died"])]
        row += [_pct_ci(r, "died_share"), _pct_ci(r, "recovered_share"), _pct(r["still_share"])]
        rows.append(row)
    return headers, rows


def campaign_rows(frame: pd.DataFrame, by: Sequence[str]) -> tuple[list[str], list[list[str]]]:
    """Headers and rows of the campaign table (:func:`campaign_summary`) for reading."""
    headers = [_short(b) for b in by] + ["battle", "runs", "fought", "alive", "veterans"]
    headers += ["veteran share [95% CI]"]
    rows = []
    for _, r in frame.iterrows():
        row = [_fmt_value(r[b]) for b in by] + [f"{int(r['battle'])} {r['label']}"]
        row += [str(int(r["runs"])), _f2(r["fought"]), _f2(r["alive"]), _f2(r["veterans"])]
        row += [_pct_ci(r, "veteran_share")]
        rows.append(row)
    return headers, rows
