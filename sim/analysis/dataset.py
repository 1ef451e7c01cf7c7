"""A dataset on disk: its manifest, swept parameters and tables, read when first used."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.dataset as pads

from sim.dataset import answer as answer_file
from sim.dataset import records
from sim.errors import SimError, unknown


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
        return records.read_parts(files, table, columns)  # a dataset of any version

    def _param_fields(self) -> list[pa.Field]:
        return [pa.field(p, pa.string()) for p in self.params]

    def declared(self, param: str) -> list[Any]:
        """``param``'s values in the order the experiment declares them (its first points first).

        As the ``runs`` column holds them: text columns hold anything but a string as JSON.
        Empty for a column no design point sets (``scenario``, ``rules``) or a dataset whose
        manifest keeps no points.
        """
        values = [pt[param] for pt in self.manifest.get("points") or () if param in pt]
        if any(isinstance(v, str) for v in values) or not all(
            isinstance(v, (int, float)) for v in values
        ):
            values = [v if isinstance(v, str) else json.dumps(v, sort_keys=True) for v in values]
        return list(dict.fromkeys(values))

    @cached_property
    def experiment(self) -> dict[str, Any]:
        """The experiment file's document, from the copy the manifest keeps (empty if none)."""
        import yaml

        text = self.manifest.get("experiment_text") or ""
        try:
            doc = yaml.safe_load(text) if text else None
        except yaml.YAMLError:
            return {}
        return doc if isinstance(doc, dict) else {}

    @cached_property
    def labels(self) -> dict[str, str]:
        """The names the experiment gives its parameters (its ``labels:`` map), if any.

        Only the labels of swept parameters, as text.
        """
        given = self.experiment.get("labels")
        if not isinstance(given, dict):
            return {}
        return {str(k): str(v) for k, v in given.items() if str(k) in self.params}

    @property
    def design(self) -> str | None:
        """The experiment's design (``grid`` when it names none); None without an experiment."""
        if not self.experiment:
            return None
        return str(self.experiment.get("design") or "grid")

    @cached_property
    def answer(self) -> dict[str, Any] | None:
        """A search's answer (``search/answer.json``, :mod:`sim.dataset.answer`); else None.

        Checked against its shape and size, read through no link; a damaged one is refused
        in one located line that says how to write it again.
        """
        if self.manifest.get("kind") != "search":
            return None
        hint = answer_file.again(self.root, self.manifest.get("experiment_file"))
        return answer_file.read(self.root, hint)

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
    """Open the dataset at ``root`` (a clear error if it is not one).

    Its ``params`` are the swept parameters, after a ``label`` column if the runs have
    one (a ``list`` design's point labels), so every table shows the labels.
    """
    root = Path(root)
    manifest, extra = records.open_manifest(root)
    params = tuple(manifest.get("parameters", []))
    runs = records.table_files(root, "runs", manifest)
    if runs and "label" in pads.dataset([str(f) for f in runs], format="parquet").schema.names:
        params = ("label", *params)  # a list design's point labels, shown first
    return Dataset(root, manifest, params, tuple(extra))


def has_table(ds: Dataset, table: str) -> bool:
    """Whether the dataset holds any part of ``table``."""
    return bool(records.table_files(ds.root, table, ds.manifest))
