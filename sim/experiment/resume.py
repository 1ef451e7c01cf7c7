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

from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from sim.dataset import records, store
from sim.errors import SimError
from sim.experiment.model import Experiment

ALWAYS = ("rounds", "fighters")
"""Tables that every fought battle has rows in."""


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
    changed = drop_damaged(out, m, resume, notes)
    done = listed_run_ids(m)
    if not resume and len(done) < exp.planned_runs:
        raise SimError(
            f"{out}: already holds this experiment's dataset, unfinished ({len(done)} of "
            f"{exp.planned_runs} runs); use --resume to finish it, or choose another --out"
        )
    wanted = min(limit, exp.planned_runs) if limit else exp.planned_runs
    if not set(range(wanted)) <= done:
        changed = check_code(out, m, force, notes) or changed
    ours = {f"part-{cid:06d}.parquet" for cid, _ in exp.chunks()}  # replaced when run
    extra = [e for e in store.unlisted(out, m["parts"], exp.tables) if e.split("/")[1] not in ours]
    if extra:
        listed = ", ".join(extra[:5])
        notes.append(f"ignored {len(extra)} files the manifest does not list: {listed}")
    for table in exp.tables:  # parts whose writer was killed
        for tmp in (out / table).glob(".part-*.tmp"):
            tmp.unlink(missing_ok=True)
    if changed:
        records.write_manifest(out, m)
    return m, done, notes


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
    return existing_manifest(out, exp.name, exp.fingerprint(), _hint(exp, out))


def existing_manifest(out: Path, name: str, fingerprint: str, hint: str) -> dict[str, Any]:
    """The manifest of the dataset ``out``: whole, listing its parts, of experiment ``name``.

    ``fingerprint`` is the experiment's (:meth:`Experiment.fingerprint`); ``hint`` ends
    the message of a damaged manifest (how to recover the parts).
    """
    try:
        m = records.read_manifest(out)
        records.check_manifest(out, m)
    except SimError as err:
        raise SimError(f"{err}; {hint}") from None
    if m.get("fingerprint") != fingerprint:
        raise SimError(
            f"{out}: holds a dataset of experiment {m.get('experiment_name')!r} "
            f"(fingerprint {m.get('fingerprint')}), not this one ({name!r}, "
            f"{fingerprint}): the experiment, scenario or overrides differ; "
            "choose another --out"
        )
    if "parts" not in m:
        raise SimError(f"{out}: made by an older sim that listed no parts; {hint}")
    return m


def drop_damaged(out: Path, m: dict[str, Any], resume: bool, notes: list[str]) -> bool:
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


def check_code(out: Path, m: dict[str, Any], force: bool, notes: list[str]) -> bool:
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

    A chunk counts when its ``runs`` part holds exactly its first run ids with the
    experiment's columns, and every other part of it reads with the right columns and run
    ids (a chunk with a battle fought has ``rounds`` and ``fighters`` parts, if asked for);
    other chunks run again. The code that made the parts is not known.
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
    """The records of chunk ``cid``'s parts if they make a whole chunk, else None."""
    found: dict[str, dict[str, Any]] = {}
    fought = False
    for table in ("runs", *(t for t in exp.tables if t != "runs")):
        path = out / table / f"part-{cid:06d}.parquet"
        if not path.is_file():
            if table == "runs" or (fought and table in ALWAYS):
                return None
            continue
        try:
            data = pq.read_table(path)
        except (OSError, pa.ArrowException):
            return None
        want = records.schema(table, fields if table == "runs" else ())
        got = data.column("run_id").to_pylist() if "run_id" in data.column_names else []
        if not data.schema.equals(want, check_metadata=False) or not set(got) <= set(ids):
            return None
        found[f"{table}/{path.name}"] = store.part_record(path, data.num_rows)
        if table == "runs":
            if not got or got != list(range(ids.start, ids.start + len(got))):
                return None
            fought = any(e is None for e in data.column("error").to_pylist())
            found[f"runs/{path.name}"].update(first=ids.start, stop=ids.start + len(got))
    return found
