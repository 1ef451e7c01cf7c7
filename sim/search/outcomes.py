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


def empty(columns: Sequence[str], sides: Sequence[str]) -> pd.DataFrame:
    """No battles yet, with the columns battles have."""
    names = ["run_id", "batch", "point", *columns, "failed", "winner", "rounds"]
    return pd.DataFrame({n: [] for n in [*names, *(f"lost.{s}" for s in sides)]})


def read(files: Iterable[Path], columns: Sequence[str], sides: Sequence[str]) -> pd.DataFrame:
    """The runs of the parts ``files``: ids, batch, point, ``columns``, outcome, losses.

    ``failed`` is True for a run that raised; ``lost.SIDE`` counts the side's fighters
    that ended the battle not active (0 for a failed run).
    """
    tables = [pq.read_table(f, columns=[*BASE, *columns, "sides"]) for f in files]
    if not tables:
        return empty(columns, sides)
    data = pa.concat_tables(tables)
    frame = data.drop_columns(["sides", "error"]).to_pandas()
    frame["failed"] = data.column("error").is_valid().to_numpy(zero_copy_only=False)
    for side, lost in _losses(data.column("sides").combine_chunks(), len(frame), sides).items():
        frame[f"lost.{side}"] = lost
    return frame.sort_values("run_id", ignore_index=True)


def _losses(sides: Any, rows: int, names: Sequence[str]) -> dict[str, np.ndarray[Any, Any]]:
    """Per side, its fighters not active at the end of each run."""
    out = {s: np.zeros(rows, dtype=np.int64) for s in names}
    flat = pc.list_flatten(sides)
    parent = pc.list_parent_indices(sides).to_numpy(zero_copy_only=False)
    if len(flat) == 0:
        return out
    side = flat.field("side").to_numpy(zero_copy_only=False)
    lost = flat.field("fighters").to_numpy(zero_copy_only=False) - flat.field("active").to_numpy(
        zero_copy_only=False
    )
    for s in names:
        mine = side == s
        out[s][parent[mine]] = lost[mine]
    return out
