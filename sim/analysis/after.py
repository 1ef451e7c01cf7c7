"""Aftermath and campaigns: the ``aftermath`` and ``campaign`` tables (sim.run.campaign)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from sim.analysis.dataset import Dataset, has_table
from sim.analysis.fmt import _f2, _fmt_value, _interval, _num, _pct, _pct_ci, _plain, short_names
from sim.analysis.stats import CLUSTER_INTERVAL, cluster_bootstrap
from sim.analysis.summary import Summary, _check_by, group_runs


def _run_groups(ds: Dataset, by: Sequence[str]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(run_id -> group id of the runs that did not fail, the groups' ``by`` values)."""
    by = _check_by(ds, by)
    t = ds.arrow("runs", ["run_id", *by, "error"])
    runs = t.filter(t["error"].is_null()).drop_columns(["error"]).to_pandas()
    runs["group"], groups = group_runs(ds, runs[list(by)], by, runs["run_id"].to_numpy())
    return runs[["run_id", "group"]], groups


def _clusters(
    fighters: pd.DataFrame, out: pd.DataFrame, keys: list[str], counts: list[str]
) -> pd.DataFrame:
    """Each run's ``counts`` per row of ``out`` (whose ``keys`` columns name its rows).

    One row per (``out`` row, run): the clusters of :func:`cluster_bootstrap`, its row
    number in ``row``.
    """
    per_run = fighters.groupby([*keys, "run_id"], sort=False)[counts].sum().reset_index()
    where = out[keys].reset_index(names="row")
    return per_run.merge(where, on=keys, how="inner", validate="many_to_one")


def _add_cluster_interval(
    out: pd.DataFrame, name: str, clusters: pd.DataFrame, k: str, n: str
) -> None:
    """``name`` (pooled ``k / n``) with its cluster bootstrap interval (``.lo``, ``.hi``)."""
    p, lo, hi = cluster_bootstrap(
        clusters[k].to_numpy(), clusters[n].to_numpy(), clusters["row"].to_numpy(), len(out)
    )
    out[name], out[f"{name}.lo"], out[f"{name}.hi"] = p, lo, hi


def aftermath_summary(ds: Dataset, by: Sequence[str] | None = None) -> pd.DataFrame:
    """Per group and side: the wounded, who died of their wounds, who recovered by the last day.

    From the ``aftermath`` table (every battle of a campaign counts). A fighter is
    ``wounded`` when it was alive after the battle and hurt; it ``died of wounds`` when it is
    dead on its last aftermath day, and ``recovered`` when it is up with no open wound then.
    One row per group and side: ``runs``, ``days`` (the aftermath's length), ``wounded`` and
    ``died`` (means per run), ``died_share`` and ``recovered_share`` (shares of the wounded,
    with 95% intervals ``.lo``/``.hi`` that respect the runs: :func:`cluster_bootstrap`),
    and ``still_share`` (neither).
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
            "run_id": last["run_id"].to_numpy(),
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
    clusters = _clusters(frame, out, ["group", "side"], ["wounded", "died", "recovered"])
    _add_cluster_interval(out, "died_share", clusters, "died", "wounded")
    _add_cluster_interval(out, "recovered_share", clusters, "recovered", "wounded")
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
    more). One row per group and battle (``battle``, its name ``battle_label``): ``runs``
    (that reached the battle), means per run of ``fought``, ``alive``, ``veterans``, and
    ``veteran_share`` (of the living, with a 95% interval ``.lo``/``.hi`` by
    :func:`cluster_bootstrap` over the runs).
    """
    by = tuple(ds.params if by is None else by)
    runs, groups = _run_groups(ds, by)
    c = ds.arrow("campaign", ["run_id", "battle", "battle_label", "fought", "status", "tier_after"])
    c = c.to_pandas().merge(runs, on="run_id", how="inner")
    alive = (c["status"] != "dead").to_numpy()
    frame = pd.DataFrame(
        {
            "group": c["group"].to_numpy(),
            "battle": c["battle"].to_numpy(),
            "battle_label": c["battle_label"].to_numpy(),
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
            battle_label=("battle_label", "first"),
            runs=("run_id", "nunique"),
            fought=("fought", "sum"),
            alive=("alive", "sum"),
            veterans=("veterans", "sum"),
        )
        .reset_index()
    )
    clusters = _clusters(frame, out, ["group", "battle"], ["alive", "veterans"])
    _add_cluster_interval(out, "veteran_share", clusters, "veterans", "alive")
    for col in ("fought", "alive", "veterans"):
        out[col] = out[col] / out["runs"]
    keys = groups.reset_index(names="group")
    return keys.merge(out, on="group", how="inner").drop(columns=["group"])


ExtraTable = tuple[str, str, list[str], list[list[str]]]  # title, caption, headers, rows


def extra_tables(
    ds: Dataset, by: Sequence[str], names: Mapping[str, str] | None = None
) -> list[ExtraTable]:
    """(title, caption, headers, rows) of the aftermath and campaign tables ``ds`` has.

    The first ``len(by) + 1`` columns of each are keys: the group's values, then the side
    (aftermath) or the battle (campaign). ``names`` gives the parameters' headers (a
    summary's ``names``; default: :func:`short_names` of ``by``).
    """
    out = []
    if has_table(ds, "aftermath"):
        out.append(
            (
                "Aftermath",
                "wounded (alive after the battle and hurt) and died of wounds, means per run; "
                "died and recovered by the last day: shares of the wounded, "
                f"{CLUSTER_INTERVAL}",
                *aftermath_rows(aftermath_summary(ds, by), by, names),
            )
        )
    if has_table(ds, "campaign"):
        out.append(
            (
                "Campaign",
                "the company after each battle and its aftermath, means per run; veteran "
                f"share: Veterans and Heroes among the living, {CLUSTER_INTERVAL}",
                *campaign_rows(campaign_summary(ds, by), by, names),
            )
        )
    return out


def groups_json(ds: Dataset, s: Summary) -> list[dict[str, Any]]:
    """``s.groups()`` with the aftermath and campaign figures added where ``ds`` has them.

    Each group object gains ``aftermath`` (per side: ``runs``, ``days``, ``wounded`` and
    ``died`` per run, ``died_share`` and ``recovered_share`` as ``{p, lo, hi}``,
    ``still_share``, ``interval``: what the intervals are) and ``campaign`` (a list per
    battle: ``battle``, ``label``, ``runs``, ``fought``, ``alive``, ``veterans`` per run,
    ``veteran_share`` as ``{p, lo, hi}``, ``interval``).
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
                    "interval": CLUSTER_INTERVAL,
                }
    if groups and has_table(ds, "campaign"):
        for _, r in campaign_summary(ds, s.by).iterrows():
            g = group_of(r)
            if g is not None:
                g.setdefault("campaign", []).append(
                    {
                        "battle": int(r["battle"]),
                        "label": str(r["battle_label"]),
                        "runs": int(r["runs"]),
                        "fought": _num(r["fought"]),
                        "alive": _num(r["alive"]),
                        "veterans": _num(r["veterans"]),
                        "veteran_share": _interval(r, "veteran_share", "p"),
                        "interval": CLUSTER_INTERVAL,
                    }
                )
    return groups


def aftermath_rows(
    frame: pd.DataFrame, by: Sequence[str], names: Mapping[str, str] | None = None
) -> tuple[list[str], list[list[str]]]:
    """Headers and rows of the aftermath table (:func:`aftermath_summary`) for reading.

    ``names`` gives the parameters' headers (default: :func:`short_names` of ``by``).
    """
    names = names or short_names(by)
    headers = [names[b] for b in by] + ["side", "runs", "days", "wounded", "died of wounds"]
    headers += ["died [95% CI]", "recovered [95% CI]", "still wounded"]
    rows = []
    for _, r in frame.iterrows():
        row = [_fmt_value(r[b]) for b in by] + [str(r["side"]), str(int(r["runs"]))]
        row += [str(int(r["days"])), _f2(r["wounded"]), _f2(r["died"])]
        row += [_pct_ci(r, "died_share"), _pct_ci(r, "recovered_share"), _pct(r["still_share"])]
        rows.append(row)
    return headers, rows


def campaign_rows(
    frame: pd.DataFrame, by: Sequence[str], names: Mapping[str, str] | None = None
) -> tuple[list[str], list[list[str]]]:
    """Headers and rows of the campaign table (:func:`campaign_summary`) for reading.

    ``names`` gives the parameters' headers (default: :func:`short_names` of ``by``).
    """
    names = names or short_names(by)
    headers = [names[b] for b in by] + ["battle", "runs", "fought", "alive", "veterans"]
    headers += ["veteran share [95% CI]"]
    rows = []
    for _, r in frame.iterrows():
        row = [_fmt_value(r[b]) for b in by] + [f"{int(r['battle'])} {r['battle_label']}"]
        row += [str(int(r["runs"])), _f2(r["fought"]), _f2(r["alive"]), _f2(r["veterans"])]
        row += [_pct_ci(r, "veteran_share")]
        rows.append(row)
    return headers, rows
