"""The battles a search has fought, read back from its ``runs`` parts as one row each.

A design plans from these rows (:class:`sim.search.core.History`), never from what the
workers returned, so a resumed search sees exactly what an uninterrupted one saw.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

BASE = ("run_id", "batch", "point", "winner", "rounds", "error")
SIDE_COLUMNS = ("lost", "down", "fighters", "surrendered")
"""Per side: fighters not active at the end, those incapacitated or dead, all of them, and
those surrendered."""


def empty(columns: Sequence[str], sides: Sequence[str]) -> pd.DataFrame:
    """No battles yet, with the columns battles have."""
    names = ["run_id", "batch", "point", *columns, "failed", "winner", "rounds"]
    per_side = [f"{c}.{s}" for s in sides for c in SIDE_COLUMNS]
    return pd.DataFrame({n: [] for n in [*names, *per_side]})


def read(files: Iterable[Path], columns: Sequence[str], sides: Sequence[str]) -> pd.DataFrame:
    """The runs of the parts ``files``: ids, batch, point, ``columns``, outcome, losses.

    ``failed`` is True for a run that raised; ``lost.SIDE`` counts the side's fighters
    that ended the battle not active, ``down.SIDE`` those incapacitated or dead, and
    ``fighters.SIDE`` all of them, ``surrendered.SIDE`` those surrendered (0 for a failed
    run).
    """
    tables = [pq.read_table(f, columns=[*BASE, *columns, "sides"]) for f in files]
    if not tables:
        return empty(columns, sides)
    data = pa.concat_tables(tables)
    frame = data.drop_columns(["sides", "error"]).to_pandas()
    frame["failed"] = data.column("error").is_valid().to_numpy(zero_copy_only=False)
    for name, counts in _losses(data.column("sides").combine_chunks(), len(frame), sides).items():
        frame[name] = counts
    return frame.sort_values("run_id", ignore_index=True)


def _losses(sides: Any, rows: int, names: Sequence[str]) -> dict[str, np.ndarray[Any, Any]]:
    """Per side (``lost.SIDE``, ``down.SIDE``, ``fighters.SIDE``), each run's counts."""
    out = {f"{c}.{s}": np.zeros(rows, dtype=np.int64) for s in names for c in SIDE_COLUMNS}
    flat = pc.list_flatten(sides)
    parent = pc.list_parent_indices(sides).to_numpy(zero_copy_only=False)
    if len(flat) == 0:
        return out

    def field(name: str) -> np.ndarray[Any, Any]:
        return flat.field(name).to_numpy(zero_copy_only=False)

    side, fighters = field("side"), field("fighters")
    counts = {
        "lost": fighters - field("active"),
        "down": field("incapacitated") + field("dead"),
        "fighters": fighters,
        "surrendered": field("surrendered"),
    }
    for s in names:
        mine = side == s
        for c in SIDE_COLUMNS:
            out[f"{c}.{s}"][parent[mine]] = counts[c][mine]
    return out
