"""Exact replay: fight a stored run again from its dataset and check it gives the same rows.

A dataset's manifest keeps what made every run (the scenario text, the overrides, the swept
parameters' values at each design point) and each ``runs`` row its seed, so
:func:`stored_run` rebuilds a run's scenario and seed, and :func:`replay` fights it again
(events on) and compares the fresh ``runs`` row, and the ``aftermath`` and ``campaign`` rows
where the dataset stored them, with the stored ones. A difference raises
:class:`ReplayMismatch` naming each one.

Every dataset's manifest has one shape (:func:`sim.dataset.records.manifest`; a single run is a
one-point sweep). Datasets written by ``sim run --out`` before that (a ``scenario_text`` and
no ``points``) replay too.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sim.errors import SimError

if TYPE_CHECKING:
    from sim.battle.battle import Battle
    from sim.run.core import Fought
    from sim.scenario import Scenario


class ReplayMismatch(SimError):
    """A replayed run whose outcome differs from the stored row (exit code 1)."""


@dataclass(frozen=True, slots=True)
class StoredRun:
    """A run as its dataset keeps it: its ``runs`` row and its rebuilt scenario."""

    root: Path
    run_id: int
    row: dict[str, Any]
    scenario: Scenario
    params: tuple[str, ...]
    manifest: dict[str, Any] | None = None

    @property
    def seed(self) -> int:
        """The run's seed (its ``seed`` column)."""
        return int(self.row["seed"])


def stored_run(root: str | Path, run_id: int) -> StoredRun:
    """Run ``run_id`` of the dataset at ``root``; a clear error if there is none to replay."""
    import pyarrow.compute as pc

    from sim.dataset import records
    from sim.scenario import parse_scenario

    root = Path(root)
    manifest, _ = records.open_manifest(root)
    row = records.read_run(root, run_id, manifest) if -(2**63) <= run_id < 2**63 else None
    if row is None:
        ids = records.read_table(root, "runs", ["run_id"], manifest).column("run_id")
        span = f"{pc.min(ids)}..{pc.max(ids)}" if len(ids) else "none"
        raise SimError(f"{root}: no run {run_id} (run ids: {span})")
    if row.get("error"):
        raise SimError(
            f"run {run_id} failed in the sweep, so there is no battle to replay: {row['error']}"
        )
    params = tuple(manifest.get("parameters", []))
    try:
        sets = [*manifest.get("overrides", []), *_point_overrides(manifest, row, run_id, params)]
        text = (
            manifest["scenario_texts"][row["scenario"]]
            if "scenario_texts" in manifest
            else manifest["scenario_text"]  # a `sim run --out` dataset of the first shape
        )
    except (KeyError, IndexError, TypeError, ValueError) as err:
        raise SimError(
            f"{root}/manifest.json: does not describe run {run_id} ({type(err).__name__}: "
            f"{str(err)[:80]}); the manifest is damaged"
        ) from None
    scenario = parse_scenario(str(text), str(manifest.get("scenario_file", "<dataset>")), sets)
    return StoredRun(root, run_id, row, scenario, params, manifest)


def _point_overrides(
    manifest: dict[str, Any], row: dict[str, Any], run_id: int, params: tuple[str, ...]
) -> list[str]:
    """The ``--set`` overrides of the run's design point.

    From the manifest's ``points``, the values exactly as written; in a dataset without
    them, from the row's parameter columns.
    """
    if "points" in manifest:
        point = manifest["points"][run_id // int(manifest.get("replicates", 1))]
        return [f"{p}={json.dumps(point[p])}" for p in params if p in point]
    return [f"{p}={json.dumps(row[p])}" for p in params]


def replay(stored: StoredRun, on_battle: Callable[[Battle], None] | None = None) -> Fought:
    """Fight ``stored`` again (events on); :class:`ReplayMismatch` unless it replays exactly.

    ``on_battle`` sees each battle start (:func:`sim.run.core.fight`).
    """
    from sim.run.core import fight

    fought = fight(stored.scenario, stored.seed, events=True, on_battle=on_battle)
    diff = differences(stored, fought)
    if diff:
        raise ReplayMismatch(
            f"run {stored.run_id} does not replay: it differs from the stored row\n"
            + "\n".join(diff)
        )
    return fought


def differences(stored: StoredRun, fought: Fought) -> list[str]:
    """Lines naming what of ``fought`` differs from ``stored`` (none: it replays exactly).

    The ``runs`` row column by column; the ``aftermath`` and ``campaign`` rows table by
    table where the dataset stored that table.
    """
    from sim.run.core import run_rows

    values = {p: stored.row[p] for p in stored.params}
    fresh = run_rows(fought, stored.run_id, stored.seed, values)["runs"][0]
    row = stored.row
    diff = [
        f"  {k}: stored {row.get(k)!r}, replayed {v!r}" for k, v in fresh.items() if row.get(k) != v
    ]
    return diff + _table_differences(stored.root, stored.run_id, fought, stored.manifest)


def _table_differences(
    root: Path, run_id: int, fought: Fought, manifest: dict[str, Any] | None = None
) -> list[str]:
    """Differences between a replayed run's aftermath/campaign rows and the stored ones."""
    import pyarrow.dataset as pads

    from sim.dataset import records

    out = []
    for table, fresh in fought.tables().items():
        files = records.table_files(root, table, manifest)
        if not files:
            continue  # not stored (not asked for): nothing to compare
        where = pads.field("run_id") == run_id
        stored = records.read_parts(files, table, where=where).to_pylist()
        stored = [{k: v for k, v in r.items() if k != "run_id"} for r in stored]
        if stored != [dict(r) for r in fresh]:
            out.append(f"  {table}: {len(stored)} stored rows differ from {len(fresh)} replayed")
    return out
