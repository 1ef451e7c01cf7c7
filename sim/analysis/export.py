"""A dataset's tables as flat files for spreadsheets and R: CSV or Parquet, plain columns.

``sim export DATASET --out PATH --table runs`` writes one table as one file; several
``--table`` options write a new folder with one file per table. The columns are flat and
their names plain (letters, digits and ``_``; lower case; unique): a swept parameter
``sides.guards.tactic`` becomes ``sides_guards_tactic``; the ``runs`` table's list of sides
becomes one column per side and figure (``guards_dead``, ``bandits_leader_status``); any
other list (an aftermath row's wounds, say) becomes its JSON text. Every table but ``runs``
has its run's seed and parameters joined, as :meth:`sim.analysis.Dataset.table` gives it.
In CSV, a text cell that a spreadsheet would run as a formula (``=``, ``+``, ``-``, ``@``,
a tab or a carriage return first) gets a ``'`` before it; Parquet keeps every value.

Nothing is ever overwritten: the file or folder must not exist. A file appears whole (a
temporary name, then a hard link that fails if something took the name meanwhile); a
folder too: its files are written into a hidden temporary folder beside it, renamed into
place once every one is whole.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from sim import files
from sim.analysis import Dataset, flatten_sides, has_table
from sim.dataset import records
from sim.errors import SimError, unknown

FORMATS = ("csv", "parquet")


def plain_names(columns: Sequence[str]) -> list[str]:
    """Column names as plain words: ``[A-Za-z0-9_]``, lower case, not starting with a digit.

    Names that would come out equal get ``_2``, ``_3`` ... in order.
    """
    out: list[str] = []
    for c in columns:
        name = re.sub(r"[^0-9a-z]+", "_", str(c).lower()).strip("_") or "column"
        if name[0].isdigit():
            name = f"x{name}"
        base, k = name, 2
        while name in out:
            name, k = f"{base}_{k}", k + 1
        out.append(name)
    return out


def flat_table(ds: Dataset, table: str) -> pd.DataFrame:
    """One table of ``ds`` with flat columns and plain names (:func:`plain_names`)."""
    if table not in records.TABLES:
        raise SimError(unknown("table", table, records.TABLES))
    if table == "runs":
        frame = _wide_sides(ds)
    else:
        frame = ds.table(table)
    for col in frame.columns:
        if frame[col].dtype == object and frame[col].map(_nested).any():
            frame[col] = frame[col].map(_as_json)
    frame.columns = plain_names(list(frame.columns))
    return frame


def _wide_sides(ds: Dataset) -> pd.DataFrame:
    """The ``runs`` table with its ``sides`` list as one column per side and figure."""
    t = ds.arrow("runs").sort_by("run_id")
    frame = t.drop_columns(["sides"]).to_pandas()
    sides, parent = flatten_sides(t["sides"])
    figures = [f.name for f in records.SIDE_TYPE if f.name != "side"]
    at = list(frame.columns).index("error") if "error" in frame.columns else len(frame.columns)
    wide = []
    for name in pd.unique(sides["side"]) if len(sides) else []:
        mine = (sides["side"] == name).to_numpy()
        block = pd.DataFrame(
            {f"{name}_{f}": sides[f].to_numpy()[mine] for f in figures}, index=parent[mine]
        ).reindex(range(len(frame)))
        for f in figures:  # whole numbers stay whole where a run lacks the side
            if pd.api.types.is_numeric_dtype(sides[f]):
                block[f"{name}_{f}"] = block[f"{name}_{f}"].astype("Int64")
        wide.append(block)
    return pd.concat([frame.iloc[:, :at], *wide, frame.iloc[:, at:]], axis=1)


def _nested(v: Any) -> bool:
    return isinstance(v, (list, dict, tuple, np.ndarray))


def _as_json(v: Any) -> Any:
    """A list or mapping as its JSON text; anything else as it is."""
    return json.dumps(_plain(v), default=str) if _nested(v) else v


def _plain(v: Any) -> Any:
    """Nested numpy values as plain Python lists, dicts and scalars."""
    if isinstance(v, (np.ndarray, list, tuple)):
        return [_plain(x) for x in v]
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    if isinstance(v, np.generic):
        return v.item()
    return v


FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
"""How a text cell starts that a spreadsheet would run as a formula."""


def neutralise(value: Any) -> Any:
    """A text cell a spreadsheet would run as a formula, with a ``'`` before it.

    The usual leading-quote rule: a text starting with ``=``, ``+``, ``-``, ``@``, a tab or
    a carriage return (``=HYPERLINK(...)`` as a side's name) is written ``'=HYPERLINK(...)``,
    which a spreadsheet shows as text. Numbers and other values are as they are.
    """
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def table_bytes(frame: pd.DataFrame, fmt: str) -> bytes:
    """``frame`` as CSV (UTF-8, a header row, empty for missing) or Parquet bytes.

    In CSV, text cells a spreadsheet would run are neutralised (:func:`neutralise`).
    """
    if fmt == "csv":
        frame = frame.copy()
        for col in frame.columns:
            if frame[col].dtype == object or pd.api.types.is_string_dtype(frame[col]):
                frame[col] = frame[col].map(neutralise)
        # rows end in CRLF while written, so a cell holding a CR is quoted as one with a LF
        # is (Python's csv quotes only the line ending's characters); then LF outside quotes
        text = frame.to_csv(index=False, lineterminator="\r\n")
        pieces = text.split('"')  # even pieces are outside quotes ("" toggles twice)
        pieces[::2] = [p.replace("\r\n", "\n") for p in pieces[::2]]
        return '"'.join(pieces).encode("utf-8")
    buf = io.BytesIO()
    pq.write_table(pa.Table.from_pandas(frame, preserve_index=False), buf)
    return buf.getvalue()


def export(
    ds: Dataset, out: str | Path, tables: Sequence[str] = ("runs",), fmt: str = "csv"
) -> list[tuple[str, Path, int, int]]:
    """Write ``tables`` of ``ds`` to the new file (one table) or folder (several) ``out``.

    Returns (table, file, rows, columns) of each file written. Refuses, before writing
    anything, a name that exists, an unknown table or format, and a table the dataset did
    not record (an error naming the ones it has).
    """
    out = Path(out)
    if fmt not in FORMATS:
        raise SimError(f"unknown format {fmt!r}; one of {', '.join(FORMATS)}")
    tables = list(dict.fromkeys(tables))
    recorded = [t for t in records.TABLES if t == "runs" or has_table(ds, t)]
    for t in tables:
        if t not in records.TABLES:
            raise SimError(unknown("table", t, records.TABLES))
        if t not in recorded:
            raise SimError(f"{ds.root} has no {t} table; it has {', '.join(recorded)}")
    if out.exists() or out.is_symlink():
        raise SimError(f"{out} exists; sim export writes only a new file or folder")
    frames = [(t, flat_table(ds, t)) for t in tables]
    if len(frames) == 1:
        t, frame = frames[0]
        _write_new_file(out, table_bytes(frame, fmt))
        return [(t, out, len(frame), len(frame.columns))]
    return _write_new_folder(out, frames, fmt)


def _write_new_file(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path``, which must not exist; never replaces a file."""
    try:
        files.write_file(path, data)
    except SimError as err:
        if "the file exists" in str(err):
            raise SimError(f"{path} exists; sim export writes only a new file or folder") from None
        raise


def _write_new_folder(
    out: Path, frames: Sequence[tuple[str, pd.DataFrame]], fmt: str
) -> list[tuple[str, Path, int, int]]:
    """Write each frame as ``out/<table>.<fmt>`` in a new folder: whole, or not at all.

    The files are written into a hidden temporary folder beside ``out``, renamed to ``out``
    once every file is whole (:func:`sim.files.new_folder`): a killed export leaves no
    ``out``, so it never looks finished.
    """
    try:
        with files.new_folder(out) as tmp:
            done = []
            for t, frame in frames:
                files.write_file(tmp / f"{t}.{fmt}", table_bytes(frame, fmt), within=tmp)
                done.append((t, out / f"{t}.{fmt}", len(frame), len(frame.columns)))
    except FileExistsError:
        raise SimError(f"{out} exists; sim export writes only a new file or folder") from None
    return done
