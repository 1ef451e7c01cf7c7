"""A sweep's dataset before it runs: a new manifest, a checked one, or a rebuilt one.

:func:`prepare` runs with the dataset folder locked (:func:`sim.dataset.store.locked`). A new
folder gets a new manifest. An existing dataset must be this experiment's, its manifest
whole, every listed part as recorded (the chunks of damaged parts run again on
``--resume``; without it the sweep is refused, naming them), and made by this code (or
``--force``, recorded). A lost or garbage manifest is refused with the command that
recovers the parts: ``--resume --rebuild-manifest`` lists the whole chunks found on disk
(:func:`rebuild`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from sim import files
from sim.dataset import records, store
from sim.errors import SimError
from sim.experiment.model import Experiment


def listed_run_ids(manifest: dict[str, Any]) -> set[int]:
    """Run ids of the ``runs`` parts the manifest lists."""
    ids: set[int] = set()
    for name, rec in manifest["parts"].items():
        if name.startswith("runs/"):
            ids.update(range(int(rec["first"]), int(rec["stop"])))
    return ids


def fresh_manifest(exp: Experiment) -> dict[str, Any]:
    """The manifest of a new dataset of ``exp``, no parts yet."""
    from sim.scenario import parse_scenario

    base = parse_scenario(exp.scenario_text, exp.scenario_path, exp.overrides)
    return records.manifest(
        kind="sweep",
        experiment_name=exp.name,
        experiment_file=exp.path,
        experiment_text=exp.text,
        scenario_file=exp.scenario_path,
        scenario_texts={base.name: exp.scenario_text},
        points=exp.points,
        overrides=exp.overrides,
        parameters=exp.parameters,
        master_seed=exp.seed,
        replicates=exp.replicates,
        chunk=exp.chunk,
        tables=exp.tables,
        fingerprint=exp.fingerprint(),
    )


def has_content(out: Path) -> bool:
    """True if ``out`` holds anything but its lock file."""
    return out.is_dir() and any(p.name != store.LOCK_NAME for p in out.iterdir())


OURS = (store.LOCK_NAME, "manifest.json", *records.TABLES)
"""The names in a dataset folder that are sim's: never a link."""


def sim_parts(out: Path) -> int:
    """How many part files of sim's tables the folder ``out`` holds."""
    return sum(len(list((out / t).glob("part-*.parquet"))) for t in records.TABLES)


def check_folder(exp: Experiment, out: Path, resume: bool, rebuild: bool) -> None:
    """Refuse, reading only, a folder ``out`` that this sweep may not write in.

    A link where a name of sim's belongs (:data:`OURS`), a lock file that is not sim's, a
    manifest that is not sim's in a folder with no parts of sim's (another tool's folder:
    no recovery applies), a damaged manifest beside parts (the command that recovers them,
    unless this is that command), or a folder of other files.
    """
    if not out.is_dir():
        return
    for name in OURS:
        if files.is_link(out / name):
            raise files.link_error(out / name)
    why = store.lock_is_ours(out)
    if why is not None:
        raise SimError(why)
    if not has_content(out):
        return
    if not (out / "manifest.json").exists():
        if not rebuild:
            prepare(exp, out, resume)  # refuses, naming what is there; writes nothing
        elif not sim_parts(out):
            raise SimError(f"{out}: holds no parts of a sim dataset; {store.NOT_A_DATASET}")
        return
    try:
        records.check_manifest(out, records.read_manifest(out))
    except SimError as err:
        if not sim_parts(out):
            raise SimError(f"{err}; {store.NOT_A_DATASET}") from None
        if not rebuild:
            raise SimError(f"{err}; {_hint(exp, out)}") from None


def _hint(exp: Experiment, out: Path) -> str:
    return f"to recover its parts: sim sweep {exp.path} --out {out} --resume --rebuild-manifest"


def prepare(
    exp: Experiment,
    out: Path,
    resume: bool,
    *,
    force: bool = False,
    rebuild: bool = False,
    limit: int | None = None,
) -> tuple[dict[str, Any], set[int], list[str]]:
    """Check, repair or write the manifest of the (locked) dataset ``out``.

    Returns:
        The manifest, the run ids already done, and notes for the summary.
    """
    notes: list[str] = []
    if rebuild:
        if not resume:
            raise SimError("--rebuild-manifest goes with --resume")
        m = rebuild_manifest(exp, out, notes)
        return m, listed_run_ids(m), notes
    if not (out / "manifest.json").exists():
        return _new(exp, out), set(), notes
    m = _existing(exp, out)
    changed = _drop_damaged(out, m, resume, notes)
    done = listed_run_ids(m)
    if not resume and len(done) < exp.planned_runs:
        raise SimError(
            f"{out}: already holds this experiment's dataset, unfinished ({len(done)} of "
            f"{exp.planned_runs} runs); use --resume to finish it, or choose another --out"
        )
    wanted = min(limit, exp.planned_runs) if limit else exp.planned_runs
    if not set(range(wanted)) <= done or changed:
        _check_schema(out, m)
        changed = _check_code(out, m, force, notes) or changed
    ours = {f"part-{cid:06d}.parquet" for cid, _ in exp.chunks()}  # replaced when run
    extra = [e for e in store.unlisted(out, m["parts"], exp.tables) if e.split("/")[1] not in ours]
    if extra:
        listed = ", ".join(extra[:5])
        notes.append(f"ignored {len(extra)} files the manifest does not list: {listed}")
    for table in exp.tables:  # parts whose writer was killed (never through a link)
        files.remove_matching(out / table, out, _killed_part)
    if changed:
        records.write_manifest(out, m)
    return m, done, notes


def _killed_part(name: str) -> bool:
    """A temporary part file a killed writer left (:func:`sim.files.write_file`'s name)."""
    return name.startswith(".part-") and name.endswith(".tmp")


def _new(exp: Experiment, out: Path) -> dict[str, Any]:
    """Write the manifest of a new dataset; refuse a folder that holds anything else."""
    if has_content(out):
        parts = len(list(out.glob("*/part-*.parquet")))
        if parts:
            raise SimError(
                f"{out}: not a dataset (no manifest.json), but it holds {parts} parts; "
                + _hint(exp, out)
            )
        raise SimError(f"{out}: exists and is not a dataset; choose another --out")
    m = fresh_manifest(exp)
    try:
        records.write_manifest(out, m)
    except OSError as err:
        raise SimError(f"{out}: cannot write the manifest: {err.strerror or err}") from None
    return m


def _existing(exp: Experiment, out: Path) -> dict[str, Any]:
    """The manifest of ``out``, whole, listing its parts, and of this experiment."""
    try:
        m = records.read_manifest(out)
        records.check_manifest(out, m)
    except SimError as err:
        raise SimError(f"{err}; {_hint(exp, out)}") from None
    if m.get("fingerprint") != exp.fingerprint():
        raise SimError(
            f"{out}: holds a dataset of experiment {m.get('experiment_name')!r} "
            f"(fingerprint {m.get('fingerprint')}), not this one ({exp.name!r}, "
            f"{exp.fingerprint()}): the experiment, scenario or overrides differ; "
            "choose another --out"
        )
    if "parts" not in m:
        raise SimError(f"{out}: made by an older sim that listed no parts; {_hint(exp, out)}")
    return m


def _drop_damaged(out: Path, m: dict[str, Any], resume: bool, notes: list[str]) -> bool:
    """Unlist every part of a chunk with a damaged part, to run again (True if any)."""
    bad = store.damage(out, m["parts"])
    if bad and not resume:
        raise SimError(
            f"{out}: damaged parts: {store.describe(bad)}; add --resume to run their chunks again"
        )
    if bad:
        chunks = {name.rsplit("/", 1)[-1] for name in bad}
        m["parts"] = {k: v for k, v in m["parts"].items() if k.rsplit("/", 1)[-1] not in chunks}
        notes.append(f"running again the chunks of damaged parts: {store.describe(bad)}")
    return bool(bad)


def _check_schema(out: Path, m: dict[str, Any]) -> None:
    """Refuse to add to (or relist) a dataset of an older schema: one dataset, one schema."""
    if m.get("schema_version") != records.SCHEMA_VERSION:
        raise SimError(
            f"{out}: a dataset of schema version {m.get('schema_version')} (an older sim); "
            f"this sim writes version {records.SCHEMA_VERSION}, and a dataset holds one "
            "version: sweep into another --out (sim analyze and sim replay still read this one)"
        )


def _check_code(out: Path, m: dict[str, Any], force: bool, notes: list[str]) -> bool:
    """Refuse to add runs under other code unless forced; record a forced resume (True)."""
    code = store.code_fingerprint()
    if m.get("code") == code:
        return False
    if not force:
        raise SimError(
            f"{out}: made by other code (sim {m.get('code')}; this is {code}): resuming "
            "would mix rows of two simulators; sweep into another --out, or add --force "
            "to resume anyway (the manifest records it)"
        )
    m.setdefault("forced", []).append({"at": store.now(), "from": m.get("code"), "to": code})
    notes.append(f"resumed under other code (was {m.get('code')}, now {code}): --force")
    m["code"] = code
    return True


def rebuild_manifest(exp: Experiment, out: Path, notes: list[str]) -> dict[str, Any]:
    """A new manifest for ``out`` from the experiment and the whole chunks found on disk.

    A chunk counts when it is whole (:func:`_whole_chunk`): every table the experiment asks
    for has the rows its ``runs`` part says the chunk wrote; other chunks run again. The
    code that made the parts is not known. A folder with no whole chunk is refused before
    anything is written: its files may not be this sweep's.
    """
    m = fresh_manifest(exp)
    fields = exp.param_fields()
    kept = runs = 0
    for cid, ids in exp.chunks():
        found = _whole_chunk(exp, out, cid, ids, fields)
        if found:
            m["parts"].update(found)
            kept += 1
            runs += found[f"runs/part-{cid:06d}.parquet"]["stop"] - ids.start
    if not kept:  # nothing of this sweep's to recover: the files may be anyone's
        raise SimError(
            f"{out}: holds no whole chunk of this experiment's, so nothing to recover; "
            "choose another --out (or remove the folder's files)"
        )
    m["rebuilt"] = {"at": store.now(), "chunks": kept, "runs": runs}
    notes.append(
        f"rebuilt the manifest from {kept} whole chunk{'s' if kept != 1 else ''} ({runs} runs) "
        f"found in {out}; the code that made them is not known; the other runs run now"
    )
    records.write_manifest(out, m)
    return m


def _whole_chunk(
    exp: Experiment, out: Path, cid: int, ids: range, fields: list[pa.Field]
) -> dict[str, dict[str, Any]] | None:
    """The records of chunk ``cid``'s parts if they make a whole chunk, else None.

    Whole: its ``runs`` part holds its first run ids with the experiment's columns and says
    how many rows the chunk wrote to each table the experiment asks for
    (:data:`CHUNK_KEY`), and each of those parts is there with those rows and columns.
    """
    runs = out / "runs" / f"part-{cid:06d}.parquet"
    data = _read(runs, records.schema("runs", fields), ids)
    if data is None or data.num_rows == 0:
        return None
    got = data.column("run_id").to_pylist()
    if got != list(range(ids.start, ids.start + len(got))):
        return None
    counts = chunk_counts(data)
    if counts is None or set(counts) != set(exp.tables):
        return None  # written by an older sim, or for other tables: run it again
    found = {f"runs/{runs.name}": store.part_record(runs, data.num_rows)}
    found[f"runs/{runs.name}"].update(first=ids.start, stop=ids.start + len(got))
    for table in exp.tables:
        path = out / table / runs.name
        if table == "runs" or (counts[table] == 0 and not path.exists()):
            continue
        part = _read(path, records.schema(table), ids)
        if part is None or part.num_rows != counts[table]:
            return None
        found[f"{table}/{path.name}"] = store.part_record(path, part.num_rows)
    return found


CHUNK_KEY = b"sim.chunk"
"""The key of a ``runs`` part's metadata that gives its chunk's rows in every table."""


def chunk_metadata(counts: dict[str, int]) -> dict[str, str]:
    """The ``runs`` part's metadata: how many rows the chunk wrote to each table."""
    return {CHUNK_KEY.decode(): json.dumps({"rows": counts}, sort_keys=True)}


def chunk_counts(data: pa.Table) -> dict[str, int] | None:
    """The rows per table a ``runs`` part says its chunk wrote (None: it does not say)."""
    raw = (data.schema.metadata or {}).get(CHUNK_KEY)
    try:
        rows = json.loads(raw.decode())["rows"] if raw else None
    except (ValueError, KeyError, TypeError, UnicodeDecodeError):
        return None
    if not isinstance(rows, dict) or not all(
        t in records.TABLES and isinstance(n, int) and n >= 0 for t, n in rows.items()
    ):
        return None
    return rows


def _read(path: Path, want: pa.Schema, ids: range) -> pa.Table | None:
    """The part at ``path`` if it is a real file that reads with ``want``'s columns and ids."""
    if files.is_link(path) or files.is_link(path.parent) or not path.is_file():
        return None
    try:
        data = pq.read_table(path)
    except (OSError, pa.ArrowException):
        return None
    if not data.schema.equals(want, check_metadata=False):
        return None
    if not set(data.column("run_id").to_pylist()) <= set(ids):
        return None
    return data
