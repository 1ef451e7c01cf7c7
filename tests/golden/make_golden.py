"""Golden digests of everything the examples produce; ``tests/test_golden.py`` keeps them.

For every scenario in ``scenarios/``: the ``sim run --format json`` text and the
``sim run --events`` text for seeds 0..4, and every table row (events included) over
seeds 0..19; the two scenarios statted for every system (mirror, skirmish_all_rules) under
each of the four. For every experiment in ``experiments/``: the rows of the first two
replicates of every design point, with their real run ids and seeds, as the sweep writes them
(a search, ``design: balance``, ``optimize`` or ``calibrate``: of every point of its first
batch, as the search fights it).

A refactor leaves these digests unchanged. A behaviour change regenerates them in its own
commit, which says why::

    python -m tests.golden.make_golden        # rewrites tests/golden/golden.json
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).resolve().parent / "golden.json"
SYSTEMS = ("wargame", "2w2p", "deathwish", "d6")
EVERY_SYSTEM = ("mirror", "skirmish_all_rules")
TABLE_SEEDS = range(20)
CLI_SEEDS = range(5)
REPLICATES = 2


def _sha(data: Any) -> str:
    text = data if isinstance(data, str) else json.dumps(data, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def cli_text(*argv: str) -> str:
    """What ``sim ARGV`` prints on stdout (run in this process)."""
    from sim.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(list(argv))
    if code != 0:
        raise RuntimeError(f"sim {' '.join(argv)} exited {code}")
    return out.getvalue()


def table_digest(path: Path, overrides: tuple[str, ...] = ()) -> str:
    """sha256 of every table row (events included) of the scenario's runs over TABLE_SEEDS."""
    from sim.run import fight, run_rows
    from sim.scenario import load_scenario

    sc = load_scenario(path, overrides)
    rows = []
    for seed in TABLE_SEEDS:
        got = fight(sc, seed, events=True)
        rows.append(run_rows(got, seed, seed, events=True))
    return _sha(rows)


def scenario_digests(path: Path) -> dict[str, str]:
    """The digests of one scenario file: its JSON outcomes, its narratives, its tables."""
    rel = str(path.relative_to(ROOT))
    js = [cli_text("run", rel, "--seed", str(s), "--format", "json") for s in CLI_SEEDS]
    ev = [cli_text("run", rel, "--seed", str(s), "--events") for s in CLI_SEEDS]
    return {"json": _sha("".join(js)), "events": _sha("".join(ev)), "tables": table_digest(path)}


def experiment_digest(path: Path) -> str:
    """sha256 of the rows of the first REPLICATES runs of every design point of ``path``."""
    from sim.experiment import load_experiment
    from sim.run import fight, run_rows
    from sim.scenario import parse_scenario

    exp = load_experiment(path)
    fields = exp.param_fields()
    events = "events" in exp.tables
    rows = []
    for point in range(len(exp.points)):
        sc = parse_scenario(exp.scenario_text, exp.scenario_path, exp.point_overrides(point))
        for rep in range(min(REPLICATES, exp.replicates)):
            run_id = point * exp.replicates + rep
            seed = exp.run_seed(run_id)
            got = fight(sc, seed=seed, events=events)
            got_rows = run_rows(got, run_id, seed, exp.param_values(point, fields), events)
            rows.append({t: got_rows[t] for t in exp.tables})
    return _sha(rows)


def search_digest(path: Path) -> str:
    """sha256 of the rows of the first REPLICATES runs of every point of a search's first batch.

    The batch is the driver's own (:func:`sim.search.driver.first_batch`): the same run ids,
    seeds, point ids and columns (``batch``, ``point``, the design's) a search writes.
    """
    from sim.run import fight, run_rows
    from sim.scenario import parse_scenario
    from sim.search import load_search
    from sim.search.driver import first_batch

    search = load_search(path)
    batch = first_batch(search)
    events = "events" in search.tables
    rows: list[Any] = []
    if batch is None:  # it fights no battle
        return _sha(rows)
    for point in range(len(batch.replicates)):
        sc = parse_scenario(batch.scenario_text, batch.scenario_path, batch.point_overrides(point))
        start = batch.first_run + sum(batch.replicates[:point])
        for run_id in range(start, start + min(REPLICATES, batch.replicates[point])):
            seed = batch.run_seed(run_id)
            got = fight(sc, seed=seed, events=events)
            got_rows = run_rows(got, run_id, seed, batch.param_values(point), events)
            rows.append({t: got_rows[t] for t in search.tables})
    return _sha(rows)


def compute() -> dict[str, Any]:
    """Every golden digest, recomputed with today's code."""
    out: dict[str, Any] = {"scenarios": {}, "systems": {}, "experiments": {}}
    for path in sorted((ROOT / "scenarios").glob("*.yaml")):
        out["scenarios"][path.stem] = scenario_digests(path)
    for name in EVERY_SYSTEM:
        for system in SYSTEMS:
            path = ROOT / "scenarios" / f"{name}.yaml"
            out["systems"][f"{name}@{system}"] = table_digest(path, (f"rules.system={system}",))
    from sim.search import is_search

    for path in sorted((ROOT / "experiments").glob("*.yaml")):
        digest = search_digest if is_search(path) else experiment_digest
        out["experiments"][path.stem] = digest(path)
    return out


if __name__ == "__main__":
    got = compute()
    GOLDEN.write_text(json.dumps(got, indent=1, sort_keys=True) + "\n")
    print(f"wrote {GOLDEN.relative_to(ROOT)}", file=sys.stderr)
