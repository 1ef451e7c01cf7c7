"""Battles a worth search needs for costs known to +-10%, against a full grid (issue 40).

Run from the repository root::

    python -m benchmarks.worth              # both cases; each grid fought too
    python -m benchmarks.worth --quick      # the synthetic case only, fewer searches
    python -m benchmarks.worth --coverage 1000   # the intervals' coverage, 1,000 searches
    python -m benchmarks.worth --systems    # the slow test's mirror under each rule system

Two cases, each priced until every cost and the handicap is known to +-10% (the design's
``tolerance: 10%``: of itself, or of the scale's cost when smaller):

- **synthetic**: the tests' game, whose win probability is exactly logistic in the summed
  worths (:data:`TRUE`: a bandit 0.9 log-odds, a guard 1.6, plate 0.3, the guards' handicap
  1.0; bandits 0..6, guards 0..3 above the base, plate or not: 56 compositions). The search
  is the design's own planner (:func:`sim.search.worth.choose.step`) with battles drawn
  from the exact probabilities (:func:`synthetic_search`).
- **mirror**: ``scenarios/mirror.yaml`` (War Game), the numbers of Bel and Cai against
  their twins Eno and Fen, each 1..5 (625 compositions): the slow test's search.

The grid fits the same model to every composition with ``r`` battles each, ``r`` the
fewest at which its widest interval would be within +-10%, from its Fisher information at
the true worths (synthetic) or at the searches' fitted ones (mirror); then that grid is
fought (synthetic: drawn 5 times; mirror: once, as a sweep) and the widest interval it
reached is printed. Battle counts do not depend on the machine; the seconds printed do.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.figures import ROOT
from sim.search.worth import choose
from sim.search.worth import costs as cs
from sim.search.worth.fit import Fit, fit
from sim.search.worth.model import Item, Space

TOLERANCE = 0.10
SPACE = Space(
    (7, 4, 2),
    (
        Item("bandit", 0, None, "bandits", -1),
        Item("guard", 1, None, "guards", 1),
        Item("plate", 2, 1, "guards", 1),
    ),
)
TRUE = np.array([1.0, 0.9, 1.6, 0.3])
"""The synthetic game: the guards' handicap, then a bandit's, a guard's and plate's worth."""
SCALE = cs.Scale(0, 10.0)
RULE = choose.Rule(start=30, replicates=40, per_batch=choose.per_batch(SPACE))
"""The design's defaults (``start: 30``, ``replicates: 40``)."""
MIRROR = f"""\
name: mirror_worth
scenario: {ROOT / "scenarios" / "mirror.yaml"}
design: worth
parameters:
  sides.north.fighters[1].count: {{low: 1, high: 5}}
  sides.north.fighters[2].count: {{low: 1, high: 5}}
  sides.south.fighters[1].count: {{low: 1, high: 5}}
  sides.south.fighters[2].count: {{low: 1, high: 5}}
scale: {{Eno: 10}}
tolerance: {100 * TOLERANCE:g}%
budget: 20000
seed: SEED
labels:
  sides.north.fighters[1].count: Bel
  sides.north.fighters[2].count: Cai
  sides.south.fighters[1].count: Eno
  sides.south.fighters[2].count: Fen
"""
"""The mirror's search (``SEED`` replaced); the slow test's, with a smaller budget."""


def logistic(x: Any) -> Any:
    return 1 / (1 + np.exp(-x))


def synthetic_search(
    seed: int,
    space: Space = SPACE,
    true: np.ndarray[Any, Any] = TRUE,
    tolerance: float = TOLERANCE,
    budget: int = 100_000,
) -> tuple[Fit, int]:
    """The design's planner on the synthetic game, each battle drawn from its exact odds.

    Returns the final fit and the battles fought.
    """
    rng = np.random.default_rng([seed, 40])
    tally: dict[tuple[int, ...], list[float]] = {}
    spent, batch = 0, 0
    while True:
        comps = list(tally)
        fought = np.array(comps, dtype=np.int64).reshape(-1, len(space.levels))
        k = np.array([tally[c][0] for c in comps])
        n = np.array([tally[c][1] for c in comps])
        step = choose.step(space, RULE, SCALE, tolerance, seed, batch, fought, k, n, budget - spent)
        if step is None:
            break
        for comp, reps in zip(step.comps, step.replicates, strict=True):
            p = float(logistic(space.rows([comp])[0] @ true))
            got = tally.setdefault(comp, [0.0, 0.0])
            got[0] += float(rng.binomial(reps, p))
            got[1] += reps
            spent += reps
        batch += 1
    comps = list(tally)
    k_all = np.array([tally[c][0] for c in comps])
    f = fit(space.rows(comps), k_all, np.array([tally[c][1] for c in comps]))
    assert f is not None
    return f, spent


def expected_widest(space: Space, beta: np.ndarray[Any, Any], scale: cs.Scale, r: float) -> float:
    """The widest cost interval of the full grid fought ``r`` times each, if ``beta`` is true."""
    rows = space.rows(space.grid())
    p = logistic(rows @ beta)
    info = r * rows.T @ (rows * (p * (1 - p))[:, None])
    f = Fit(beta, np.linalg.inv(info), 1.0, 0.0, 0.0, len(rows) - len(beta), p)
    return cs.widest(f, space, scale)


def grid_replicates(space: Space, beta: np.ndarray[Any, Any], scale: cs.Scale) -> int:
    """The fewest battles per composition of the full grid for every cost to +-10%."""
    lo, hi = 1, 2
    while expected_widest(space, beta, scale, hi) > TOLERANCE:
        lo, hi = hi, hi * 2
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if expected_widest(space, beta, scale, mid) > TOLERANCE else (lo, mid)
    return hi


def synthetic(quick: bool) -> dict[str, Any]:
    """The synthetic case: searches, the grid computed and drawn."""
    seeds = range(5) if quick else range(20)
    found = []
    for s in seeds:
        f, spent = synthetic_search(s)
        found.append({"seed": s, "battles": spent, "widest": cs.widest(f, SPACE, SCALE)})
    per = grid_replicates(SPACE, TRUE, SCALE)
    rows = SPACE.rows(SPACE.grid())
    drawn = []
    for s in range(5):
        rng = np.random.default_rng([s, 41])
        k = rng.binomial(per, logistic(rows @ TRUE)).astype(float)
        g = fit(rows, k, np.full(len(rows), float(per)))
        drawn.append(math.inf if g is None else cs.widest(g, SPACE, SCALE))
    return _figure(found, SPACE.size, per, {"widest_drawn": drawn})


def _figure(
    found: list[dict[str, Any]], size: int, per: int, extra: dict[str, Any]
) -> dict[str, Any]:
    median = statistics.median(f["battles"] for f in found)
    total = size * per
    return {
        "searches": found,
        "search_battles_median": median,
        "grid_compositions": size,
        "grid_battles_per_composition": per,
        "grid_battles": total,
        "ratio": round(total / median, 1),
        **extra,
    }


def mirror(work: Path, quick: bool, workers: int) -> dict[str, Any]:
    """The mirror: searches, then the full grid computed at their worths and fought once."""
    from sim.search import load_search, run_search
    from sim.search.designs import KINDS

    found, coefs = [], []
    how = "processes" if workers > 1 else "serial"
    for s in range(1, 2 if quick else 4):
        path = work / f"mirror-{s}.yaml"
        path.write_text(MIRROR.replace("SEED", str(s)), encoding="utf-8")
        search = load_search(path)
        start = time.perf_counter()
        r = run_search(search, work / f"mirror-{s}", workers=workers, executor=how, progress=False)
        seconds = time.perf_counter() - start
        assert r.answer is not None
        d = r.answer["data"]
        coefs.append(np.array(d["coef"]))
        found.append(
            {"seed": s, "battles": r.spent, "widest": d["widest"], "seconds": round(seconds, 1)}
        )
    design: Any = KINDS["worth"].make(search)
    beta = np.mean(coefs, axis=0)
    per = grid_replicates(design.space, beta, design.s.scale)
    fig = _figure(found, design.space.size, per, {})
    if not quick:
        fig["grid_fought"] = fight_grid(work, design, per, workers)
    return fig


def fight_grid(work: Path, design: Any, per: int, workers: int) -> dict[str, Any]:
    """Fight every composition ``per`` times (a sweep) and fit the model: its widest interval."""
    import pandas as pd
    import yaml

    from sim.experiment.load import load_experiment
    from sim.experiment.runner import sweep

    search = design.search
    doc = {
        "name": "mirror-grid",
        "scenario": search.scenario_path,
        "parameters": {p.name: list(range(int(p.low), int(p.high) + 1)) for p in search.params},
        "replicates": per,
        "seed": 1,
    }
    path = work / "mirror-grid.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    start = time.perf_counter()
    how = "processes" if workers > 1 else "serial"
    sweep(load_experiment(path), work / "grid", workers=workers, executor=how, progress=False)
    seconds = time.perf_counter() - start
    runs = pd.read_parquet(work / "grid" / "runs")
    names = [p.name for p in search.params]
    decisive = runs[runs.winner.notna()]
    won = (
        decisive.assign(k=decisive.winner == design.s.first)
        .groupby(names)["k"]
        .agg(["sum", "count"])
    )
    comps = [design.comp_of(dict(zip(names, key, strict=True))) for key in won.index]
    f = fit(design.space.rows(comps), won["sum"].to_numpy(float), won["count"].to_numpy(float))
    widest = math.inf if f is None else cs.widest(f, design.space, design.s.scale)
    return {
        "battles": len(runs),
        "seconds": round(seconds, 1),
        "widest": widest,
        "dispersion": None if f is None else f.dispersion,
        "decisive": len(decisive) / len(runs),
        "per_composition_for_tolerance": math.ceil(per * (widest / TOLERANCE) ** 2),
    }


def held_out(
    search: Any, answer: dict[str, Any], count: int = 20, battles: int = 400
) -> list[dict[str, Any]]:
    """Fight ``count`` equal-points matchups the search never fought, ``battles`` each.

    The matchups are the compositions of the full grid nearest equal points by the fitted
    table (the first side's points plus the handicap less the other's: every cost at its
    estimate), leaving out those fought and those that set the same army on both sides (a
    mirror's twins at the same numbers: even by symmetry, not by the table). Returns each
    matchup's values, its points difference, and the first side's wins of its decisive
    battles.
    """
    from sim.run import fight
    from sim.scenario import parse_scenario
    from sim.search.designs import KINDS

    design: Any = KINDS["worth"].make(search)
    sp, d = design.space, answer["data"]
    fought = {design.comp_of(c["values"]) for c in d["compositions"]}
    signed = np.array([c["est"] * it.sign for c, it in zip(d["costs"], sp.items, strict=True)])
    grid = sp.grid()
    delta = sp.counts(grid) @ signed + d["handicap"]["est"]
    out: list[dict[str, Any]] = []
    for i in np.argsort(np.abs(delta), kind="stable"):
        comp = tuple(int(v) for v in grid[i])
        if comp in fought or _same_army(design, comp):
            continue
        values = design.values_of(comp)
        scenario = parse_scenario(
            search.scenario_text, search.scenario_path, search.overrides_of(values)
        )
        k = n = 0
        for r in range(battles):
            seed = np.random.SeedSequence([search.seed, 40, len(out), r]).generate_state(1)[0]
            winner = fight(scenario, int(seed)).battle.outcome().winner
            n += winner is not None
            k += winner == d["first"]
        out.append({"values": values, "delta": float(delta[i]), "wins": k, "decisive": n})
        if len(out) == count:
            break
    return out


def _same_army(design: Any, comp: tuple[int, ...]) -> bool:
    """Whether both sides get the same army: each side's parameters at the other's values."""
    by_side: dict[str, list[tuple[str, int]]] = {}
    for p, level in zip(design.params, comp, strict=True):
        if not p.name.startswith("sides."):
            return False
        side, _, path = p.name.removeprefix("sides.").partition(".")
        by_side.setdefault(side, []).append((path, level))
    armies = [sorted(v) for v in by_side.values()]
    return len(armies) == 2 and armies[0] == armies[1]


def coverage(count: int) -> dict[str, Any]:
    """How often each worth's, cost's and the handicap's 95% interval holds the truth."""
    names = ["handicap", *(it.name for it in SPACE.items)]
    truth = {f"{n} (log-odds)": t for n, t in zip(names, TRUE, strict=True)}
    for i, it in enumerate(SPACE.items):
        if i != SCALE.item:
            truth[f"{it.name} (points)"] = SCALE.points * TRUE[1 + i] / TRUE[1 + SCALE.item]
    truth["handicap (points)"] = SCALE.points * TRUE[0] / TRUE[1 + SCALE.item]
    held = dict.fromkeys(truth, 0)
    for seed in range(count):
        f, _ = synthetic_search(seed)
        found = {f"{n} (log-odds)": f.wald(j)[1:] for j, n in enumerate(names)}
        for i, it in enumerate(SPACE.items):
            if i != SCALE.item:
                c = cs.cost(f, SPACE, SCALE, i)
                found[f"{it.name} (points)"] = (c.lo, c.hi)
        h = cs.handicap(f, SPACE, SCALE)
        found["handicap (points)"] = (h.lo, h.hi)
        for name, t in truth.items():
            held[name] += found[name][0] <= t <= found[name][1]
    return {"searches": count, "held": held}


def systems(work: Path, workers: int) -> dict[str, Any]:
    """The slow test's mirror under each rule system: its costs, fit and held-out matchups."""
    from sim.search import load_search, run_search

    out = {}
    how = "processes" if workers > 1 else "serial"
    for system in ("wargame", "2w2p", "deathwish", "d6"):
        text = MIRROR.replace("SEED", "7").replace("budget: 20000", "budget: 6000")
        text = text.replace("design: worth\n", f'design: worth\nset: ["rules={system}"]\n')
        path = work / f"mirror-{system}.yaml"
        path.write_text(text, encoding="utf-8")
        search = load_search(path)
        start = time.process_time()
        r = run_search(search, work / system, workers=workers, executor=how, progress=False)
        assert r.answer is not None
        matchups = held_out(search, r.answer)
        off = [abs(m["wins"] / m["decisive"] - 0.5) for m in matchups]
        out[system] = {
            "battles": r.spent,
            "lines": r.answer["lines"][1:],
            "costs": r.answer["data"].get("costs"),
            "lack_of_fit": r.answer["data"].get("lack_of_fit"),
            "additive": r.answer["data"].get("additive"),
            "within": sum(o <= 0.05 for o in off),
            "mean_distance_points": round(100 * statistics.fmean(off), 2),
            "largest_delta": max(abs(m["delta"]) for m in matchups),
            "cpu_seconds": round(time.process_time() - start, 1),
        }
        print(f"{system}: {json.dumps(out[system])}", flush=True)
    return out


def report(case: str, fig: dict[str, Any]) -> str:
    """The figure as lines of text."""
    lines = [f"{case}: every cost known to +-{100 * TOLERANCE:g}%"]
    widest = [f["widest"] for f in fig["searches"]]
    battles = [f["battles"] for f in fig["searches"]]
    lines.append(
        f"  {len(battles)} searches: {min(battles):,} - {max(battles):,} battles (median "
        f"{fig['search_battles_median']:,.0f}), widest interval +-{100 * min(widest):.1f}% to "
        f"+-{100 * max(widest):.1f}%"
    )
    lines.append(
        f"  full grid: {fig['grid_compositions']} compositions x "
        f"{fig['grid_battles_per_composition']:,} = {fig['grid_battles']:,} battles: "
        f"{fig['ratio']}x the search's median"
    )
    if "widest_drawn" in fig:
        drawn = ", ".join(f"+-{100 * w:.1f}%" for w in fig["widest_drawn"])
        lines.append(f"  grid drawn 5 times: widest {drawn}")
    if "grid_fought" in fig:
        g = fig["grid_fought"]
        need = g["per_composition_for_tolerance"] * fig["grid_compositions"]
        lines.append(
            f"  grid fought: {g['battles']:,} battles in {g['seconds']} s, widest "
            f"+-{100 * g['widest']:.1f}% (dispersion {g['dispersion']:.2f}, "
            f"{100 * g['decisive']:.1f}% decisive); to +-{100 * TOLERANCE:g}% it would need "
            f"{g['per_composition_for_tolerance']} a composition, {need:,} battles: "
            f"{need / fig['search_battles_median']:.1f}x the search's median"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Measure and print the figures; write them to ``results/benchmarks-worth.json``."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.worth")
    parser.add_argument("--quick", action="store_true", help="the synthetic case, 5 searches")
    parser.add_argument(
        "--coverage", type=int, metavar="N", help="only: the intervals' coverage over N searches"
    )
    parser.add_argument(
        "--systems", action="store_true", help="only: the slow test's mirror under each system"
    )
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "benchmarks-worth.json")
    a = parser.parse_args(argv)
    if a.coverage:
        cov = coverage(a.coverage)
        for name, held in cov["held"].items():
            print(f"{name}: held {held} of {a.coverage} ({100 * held / a.coverage:.1f}%)")
        return 0
    if a.systems:
        systems(Path(tempfile.mkdtemp(prefix="benchmarks_worth_")), a.workers)
        return 0
    figures = {"synthetic": synthetic(a.quick)}
    print(report("synthetic", figures["synthetic"]), flush=True)
    if not a.quick:
        work = Path(tempfile.mkdtemp(prefix="benchmarks_worth_"))
        figures["mirror"] = mirror(work, a.quick, a.workers)
        print(report("mirror", figures["mirror"]), flush=True)
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text(json.dumps(figures, indent=1, default=str) + "\n", encoding="utf-8")
    print(f"figures: {a.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
