"""Observed tables the simulator itself makes at known settings, for the calibration tests.

:func:`observe` fights ``battles`` battles at each row's setting with the unknowns at
their true values (a plain sweep, its own seed) and writes the table as a CSV file, as a
researcher's play tests would give it; a calibration of that table should find the truth.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from sim.experiment.load import parse_experiment
from sim.experiment.runner import sweep
from sim.search import outcomes
from sim.search.calibrate import observed as obs
from sim.search.calibrate import posterior as post

AMBUSH = Path(__file__).resolve().parents[2] / "scenarios" / "ambush.yaml"


def read_runs(root: Path, paths: Sequence[str], sides: Sequence[str]) -> pd.DataFrame:
    """A sweep dataset's runs as a calibration reads a search's (losses per side)."""
    files = sorted((root / "runs").glob("part-*.parquet"))
    data = pa.concat_tables(
        [pq.read_table(f, columns=[*paths, "winner", "rounds", "error", "sides"]) for f in files]
    )
    frame = data.drop_columns(["sides", "error"]).to_pandas()
    frame["failed"] = data.column("error").is_valid().to_numpy(zero_copy_only=False)
    counts = outcomes._losses(data.column("sides").combine_chunks(), len(frame), sides)
    for name, values in counts.items():
        frame[name] = values
    return frame


def observe(
    folder: Path,
    truth: Mapping[str, Any],
    settings: Mapping[str, Sequence[Any]],
    battles: int,
    seed: int,
    stats: Sequence[str] = ("wins.guards", "rounds", "loser_out"),
    scenario: Path = AMBUSH,
    sides: Sequence[str] = ("guards", "bandits"),
    name: str = "observed.csv",
    workers: int = 1,
) -> Path:
    """Fight ``battles`` at each setting with the unknowns at ``truth``; write the CSV."""
    sets = [f"{p}={json.dumps(v)}" for p, v in truth.items()]
    params = "\n".join(f"  {p}: {json.dumps(list(v))}" for p, v in settings.items())
    text = (
        f"name: truth\nscenario: {scenario}\nset: {json.dumps(sets)}\n"
        f"parameters:\n{params}\nreplicates: {battles}\nseed: {seed}\n"
    )
    exp = parse_experiment(text, str(folder / "truth.yaml"))
    out = folder / f"truth-{seed}"
    executor = "processes" if workers > 1 else "serial"
    sweep(exp, out, workers=workers, executor=executor, progress=False)
    runs = read_runs(out, list(settings), sides)
    known = obs.statistics(sides)
    rows = post.table_rows(runs, list(settings), [known[s] for s in stats], sides)
    path = folder / name
    with path.open("w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=[*settings, "battles", "decisive", *stats])
        w.writeheader()
        for row in rows:
            w.writerow({k: row.get(k, "") for k in w.fieldnames})
    return path


HILD_HD = "sides.guards.fighters[0].hit_dice"
BANDITS = "sides.bandits.fighters[0].count"
RECOVERY = {"battle.morale": "all", HILD_HD: 6}
"""The true settings of the recovery tests: morale on, and the guards' leader at 6 HD."""


def experiment(
    folder: Path,
    observed: Path,
    parameters: str,
    budget: int = 20_000,
    seed: int = 1,
    extra: str = "",
    scenario: Path = AMBUSH,
) -> Path:
    """Write a calibration of ``observed`` over ``parameters`` (YAML lines); its path."""
    text = (
        f"name: recovery\nscenario: {scenario}\ndesign: calibrate\nparameters:\n{parameters}"
        f"observed: {observed.name}\nbudget: {budget}\nseed: {seed}\n{extra}"
    )
    path = folder / f"calibrate-{seed}.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def recover(
    folder: Path, battles: int, seed: int, workers: int = 1, extra: str = ""
) -> dict[str, Any]:
    """Observe the truth with ``battles`` per row (seed ``seed``), calibrate it; the answer."""
    from sim.search import load_search, run_search

    folder.mkdir(parents=True, exist_ok=True)
    table = observe(
        folder,
        RECOVERY,
        {BANDITS: [2, 3, 4, 5, 6]},
        battles,
        seed=10_000 + seed,
        name=f"observed-{seed}.csv",
        workers=workers,
    )
    params = f"  battle.morale: {{choices: [all, none]}}\n  {HILD_HD}: {{low: 3, high: 9}}\n"
    exp = experiment(folder, table, params, seed=seed, extra=extra)
    executor = "processes" if workers > 1 else "serial"
    result = run_search(
        load_search(exp), folder / f"out-{seed}", workers=workers, executor=executor, progress=False
    )
    assert result.answer is not None
    return result.answer


SIX = {
    HILD_HD: (6, 3, 9),
    "sides.guards.fighters[1].hit_dice": (4, 2, 6),
    "sides.bandits.fighters[0].hit_dice": (3, 2, 5),
    "battle.morale_at": (0.45, 0.1, 0.9),
    "battle.withdraw_share": (0.5, 0.0, 1.0),
    "battle.pursuit": (0.2, 0.0, 0.6),
}
"""The six unknowns of the many-unknowns recovery: (truth, prior low, prior high); the
ambush with a broken side withdrawing (battle.withdraw: broken)."""
SIX_STATS = ("wins.guards", "rounds", "loser.casualties")


def recover_six(
    folder: Path, seed: int, budget: int = 30_000, workers: int = 1, battles: int = 100
) -> tuple[dict[str, Any], bool]:
    """Observe the six-unknown truth (``battles`` a row at 2, 3, 4 and 6 bandits), calibrate
    it by history matching; the answer and whether every 95% interval holds its truth."""
    from sim.search import load_search, run_search

    folder.mkdir(parents=True, exist_ok=True)
    truth = {p: t for p, (t, _, _) in SIX.items()}
    table = observe(
        folder,
        {**truth, "battle.withdraw": "broken"},
        {BANDITS: [2, 3, 4, 6]},
        battles,
        seed=20_000 + seed,
        stats=SIX_STATS,
        name=f"observed-{seed}.csv",
        workers=workers,
    )
    params = "".join(f"  {p}: {{low: {lo}, high: {hi}}}\n" for p, (_, lo, hi) in SIX.items())
    extra = "set: [battle.withdraw=broken]\nmethod: match\nstart: 10\n"
    exp = experiment(folder, table, params, budget, seed, extra)
    executor = "processes" if workers > 1 else "serial"
    result = run_search(
        load_search(exp), folder / f"out-{seed}", workers=workers, executor=executor, progress=False
    )
    assert result.answer is not None
    held = all(p["lo"] <= truth[p["name"]] <= p["hi"] for p in result.answer["data"]["parameters"])
    return result.answer, held
