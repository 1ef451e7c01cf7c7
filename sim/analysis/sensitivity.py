"""Global sensitivity analysis of a sweep with a ``sobol``, ``morris`` or ``fast`` design.

The design's points are SALib samples of the unit cube, mapped onto each parameter's range
(:mod:`sim.experiment.designs`); each point's outcome is its mean over the point's finished
replicates.
The analysis is SALib's, on the unit cube, in the design's own order:

- ``sobol`` (Saltelli's estimators, ``SALib.analyze.sobol``): the first-order index S1
  (the share of the outcome's variance due to the parameter alone) and the total index ST
  (its share with every interaction it takes part in), each with a 95% bootstrap
  confidence half-width over 1,000 resamples of the design's base rows;
- ``morris`` (elementary effects, ``SALib.analyze.morris``): mu* (the mean absolute effect
  of moving the parameter across a level step, in outcome units per whole range), its 95%
  bootstrap half-width, and sigma (the effects' spread: interactions or non-linearity);
- ``fast`` (extended FAST, ``SALib.analyze.fast``): S1 and ST with 95% bootstrap
  half-widths.

The replicates' own noise is part of the outcome at each point, so a parameter that does
nothing still shows small indices of noise; the intervals include it. The outcomes are
each side's win rate, the mean battle length in rounds and each side's mean losses
(fighters not active at the end).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from sim.analysis.dataset import Dataset, flatten_sides
from sim.errors import SimError
from sim.experiment import designs

RESAMPLES = 1000
"""Bootstrap resamples of the confidence intervals."""
COLUMNS = {
    "sobol": ("S1", "S1_conf", "ST", "ST_conf"),
    "morris": ("mu_star", "mu_star_conf", "sigma"),
    "fast": ("S1", "S1_conf", "ST", "ST_conf"),
}
"""The figures each method gives per parameter (``*_conf``: a 95% half-width)."""


@dataclass(frozen=True)
class Sensitivity:
    """The indices of each outcome: ``indices[outcome][parameter][figure]``.

    ``second`` holds a Sobol design's second-order indices with ``second_order: true``:
    ``second[outcome]["A x B"]`` is ``{"S2", "S2_conf"}`` for each pair of parameters.
    """

    method: str
    parameters: tuple[str, ...]
    outcomes: tuple[str, ...]
    indices: dict[str, dict[str, dict[str, float]]]
    points: int
    replicates: int
    second: dict[str, dict[str, dict[str, float]]] = field(default_factory=dict)


def analyze_design(
    doc: Mapping[str, Any],
    seed: int,
    names: Sequence[str],
    y: Any,
    pairs: dict[str, dict[str, float]] | None = None,
) -> dict[str, dict[str, float]]:
    """SALib's indices of outcome ``y`` (one value per design point, in order).

    ``doc`` is the experiment document (its ``design``, ``samples``, ``levels``,
    ``second_order``) and ``seed`` its master seed: the same unit sample the sweep ran is
    drawn again (:func:`sim.experiment.designs.unit_sample`) where the method needs it (Morris).
    A Sobol design with ``second_order: true`` also fills ``pairs`` (when given) with
    ``{"A x B": {"S2", "S2_conf"}}``.
    """
    design = str(doc.get("design"))
    d = len(names)
    problem = {"num_vars": d, "names": list(names), "bounds": [[0.0, 1.0]] * d}
    y = np.asarray(y, dtype=float)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        # an outcome that never varies has no indices (NaN), not a warning; FAST's
        # bootstrap is indicative (said in the output), not a warning either
        warnings.simplefilter("ignore", RuntimeWarning)
        warnings.simplefilter("ignore", UserWarning)
        got = _salib(design, doc, problem, y, seed)
    if pairs is not None and "S2" in got:
        s2, conf = np.asarray(got["S2"]), np.asarray(got["S2_conf"])
        for i in range(d):
            for j in range(i + 1, d):
                pairs[f"{names[i]} x {names[j]}"] = {
                    "S2": float(s2[i, j]),
                    "S2_conf": float(conf[i, j]),
                }
    return {
        n: {c: float(np.asarray(got[c])[j]) for c in COLUMNS[design]} for j, n in enumerate(names)
    }


def _salib(design: str, doc: Mapping[str, Any], problem: dict[str, Any], y: Any, seed: int) -> Any:
    """SALib's analysis of ``y`` by the design's method."""
    from SALib.analyze import fast, morris, sobol

    seed32 = seed % 2**32
    if design == "sobol":
        second = doc.get("second_order") is True
        return sobol.analyze(
            problem, y, calc_second_order=second, num_resamples=RESAMPLES, seed=seed32
        )
    if design == "morris":
        unit = designs.unit_sample(doc, design, problem["num_vars"], seed)
        levels = int(doc.get("levels", 4))
        return morris.analyze(
            problem, unit, y, num_levels=levels, num_resamples=RESAMPLES, seed=seed32
        )
    if design == "fast":
        return fast.analyze(problem, y, M=4, num_resamples=RESAMPLES, seed=seed32)
    raise SimError(f"no sensitivity analysis of a {design} design")


def point_outcomes(ds: Dataset) -> pd.DataFrame:
    """Each design point's mean outcomes over its finished runs, one row per point in order.

    Columns ``win.<side>``, ``rounds`` and ``losses.<side>``; a point with no finished run
    is refused (SALib needs every point).
    """
    reps = int(ds.manifest.get("replicates", 1) or 1)
    points = len(ds.manifest.get("points") or [])
    t = ds.arrow("runs", ["run_id", "winner", "rounds", "sides", "error"])
    ok = t["error"].is_null().to_numpy(zero_copy_only=False)
    run_id = t["run_id"].to_numpy()
    flat, parent = flatten_sides(t["sides"])
    sides = tuple(pd.unique(flat["side"]))
    frame = pd.DataFrame({"point": run_id // reps})
    winner = t["winner"].to_pandas()
    for s in sides:
        frame[f"win.{s}"] = (winner == s).to_numpy(float)
    frame["rounds"] = t["rounds"].to_numpy(zero_copy_only=False).astype(float)
    lost = (flat["fighters"] - flat["active"]).to_numpy(float)
    for s in sides:
        mine = (flat["side"] == s).to_numpy()
        col = np.full(len(frame), np.nan)
        col[parent[mine]] = lost[mine]
        frame[f"losses.{s}"] = col
    means = frame[ok].groupby("point").mean()
    missing = sorted(set(range(points)) - set(means.index))
    if missing:
        shown = ", ".join(str(p) for p in missing[:5])
        raise SimError(
            f"{ds.root}: design point{'s' if len(missing) > 1 else ''} {shown} "
            f"{'have' if len(missing) > 1 else 'has'} no finished run; a sensitivity analysis "
            "needs every point (run the whole sweep; --resume finishes an interrupted one)"
        )
    return means.reindex(range(points))


def sensitivity(ds: Dataset) -> Sensitivity:
    """The sensitivity indices of every outcome of a sweep with a sensitivity design."""
    from sim.scenario import read_yaml

    text = ds.manifest.get("experiment_text")
    doc, _ = read_yaml(text, "experiment") if text else ({}, None)
    design = doc.get("design", "grid") if isinstance(doc, dict) else None
    if design not in designs.SENSITIVITY:
        raise SimError(
            f"{ds.root}: --sensitivity needs a sweep with a sobol, morris or fast design "
            f"(this one is {design or 'not a sweep'})"
        )
    names = tuple(ds.manifest.get("parameters", []))
    seed = int(ds.manifest.get("master_seed", 0))
    y = point_outcomes(ds)
    second: dict[str, dict[str, dict[str, float]]] = {o: {} for o in y.columns}
    indices = {o: analyze_design(doc, seed, names, y[o].to_numpy(), second[o]) for o in y.columns}
    reps = int(ds.manifest.get("replicates", 1) or 1)
    second = {o: v for o, v in second.items() if v}
    return Sensitivity(str(design), names, tuple(y.columns), indices, len(y), reps, second)


def outcome_name(outcome: str) -> str:
    """An outcome column as a reader says it (``guards win rate``, ``rounds``...)."""
    kind, _, side = outcome.partition(".")
    if kind == "win":
        return f"{side} win rate"
    if kind == "losses":
        return f"{side} losses"
    return "rounds (mean)"


def sensitivity_rows(s: Sensitivity) -> tuple[list[str], list[list[str]]]:
    """Headers and rows of the table: one row per outcome and parameter."""
    if s.method == "morris":
        headers = ["outcome", "parameter", "mu* [95% CI]", "sigma"]
    else:
        headers = ["outcome", "parameter", "S1 [95% CI]", "ST [95% CI]"]
    rows = []
    for o in s.outcomes:
        for p in s.parameters:
            f = s.indices[o][p]
            if s.method == "morris":
                cells = [_ci(f["mu_star"], f["mu_star_conf"]), _num(f["sigma"])]
            else:
                cells = [_ci(f["S1"], f["S1_conf"]), _ci(f["ST"], f["ST_conf"])]
            rows.append([outcome_name(o), p, *cells])
    return headers, rows


def second_order_rows(s: Sensitivity) -> tuple[list[str], list[list[str]]]:
    """Headers and rows of the second-order table (none without ``second_order: true``)."""
    rows = [
        [outcome_name(o), pair, _ci(f["S2"], f["S2_conf"])]
        for o in s.outcomes
        for pair, f in s.second.get(o, {}).items()
    ]
    return ["outcome", "parameters", "S2 [95% CI]"], rows


def _num(x: float) -> str:
    return "-" if math.isnan(x) else f"{x:.3f}"


def _ci(x: float, half: float) -> str:
    if math.isnan(x):
        return "-"
    if math.isnan(half):
        return f"{x:6.3f}"
    return f"{x:6.3f} [{x - half:6.3f} to {x + half:6.3f}]"


def sensitivity_json(s: Sensitivity) -> dict[str, Any]:
    """The indices as JSON: method, points, replicates and ``indices`` by outcome.

    Each parameter's figures are ``S1``, ``S1_lo``, ``S1_hi``, ``ST``... (Sobol and FAST)
    or ``mu_star`` with ``lo``/``hi`` and ``sigma`` (Morris): the index and its 95%
    interval (NaN as null); with ``second_order: true``, ``second_order`` by outcome and
    pair of parameters (``"A x B"``): ``S2``, ``S2_lo``, ``S2_hi``.
    """

    def figures(f: Mapping[str, float]) -> dict[str, float | None]:
        out: dict[str, float | None] = {}
        for k, v in f.items():
            if k.endswith("_conf"):
                base = k[: -len("_conf")]
                out[f"{base}_lo"] = _plain(f[base] - v)
                out[f"{base}_hi"] = _plain(f[base] + v)
            else:
                out[k] = _plain(v)
        return out

    out: dict[str, Any] = {
        "method": s.method,
        "points": s.points,
        "replicates": s.replicates,
        "parameters": list(s.parameters),
        "indices": {o: {p: figures(s.indices[o][p]) for p in s.parameters} for o in s.outcomes},
    }
    if s.second:
        out["second_order"] = {
            o: {pair: figures(f) for pair, f in pairs.items()} for o, pairs in s.second.items()
        }
    return out


def _plain(x: float) -> float | None:
    return None if math.isnan(x) else float(x)
