"""The dataset: Parquet tables (runs, rounds, fighters, events, aftermath, campaign), a manifest.

A dataset is a directory::

    manifest.json        what made it: scenario text, overrides, package version, schema
                         (one shape for every dataset: :func:`manifest`)
    runs/part-*.parquet  one row per battle: seed, parameters, outcome (sides as a list)
    rounds/...           one row per round and side
    fighters/...         one row per fighter: its final state
    events/...           one row per logged roll or decision (only when asked for)
    aftermath/...        one row per fighter per aftermath day (scenarios with aftermath:)
    campaign/...         one row per company member per battle (scenarios with campaign:)

Every part and the manifest are written atomically (a temporary file, then a rename), so
a crash leaves only whole files behind. Any tool reads the tables with no glue:
``pd.read_parquet(DIR / "runs")``, ``pyarrow.dataset``, DuckDB, polars.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.dataset as pads
import pyarrow.parquet as pq

from sim import files
from sim.dataset import store
from sim.dataset.points import compact_points, expand_points
from sim.errors import SimError
from sim.scenario.model import DRAW  # the outcome of a battle nobody won
from sim.version import __version__

SCHEMA_VERSION = 2
"""The tables' shape. 2 (issue 31): ``runs`` gained ``outcome`` and ``decisive``; the
``campaign`` table's ``label`` became ``battle_label``, and it gained ``conditions``.
Datasets of every version in :data:`READABLE` are read as today's (:func:`conform`);
only today's are resumed."""
READABLE = (1, 2)
TABLES = ("runs", "rounds", "fighters", "events", "aftermath", "campaign")
STATUSES = ("active", "fleeing", "fled", "surrendered", "incapacitated", "dead")

SIDE_TYPE = pa.struct(
    [("side", pa.string()), ("fighters", pa.int32())]
    + [(s, pa.int32()) for s in STATUSES]
    + [("leader_status", pa.string()), ("wounds_dealt", pa.int32()), ("hd_lost", pa.int32())]
)

RUN_FIELDS = [
    pa.field("run_id", pa.int64()),
    pa.field("seed", pa.uint64()),
    pa.field("scenario", pa.string()),
    pa.field("rules", pa.string()),
    pa.field("winner", pa.string()),  # the side that won; null for a draw or a failed run
    pa.field("outcome", pa.string()),  # the winner, or "draw"; null for a failed run
    pa.field("decisive", pa.bool_()),  # a side won (false for a draw or a failed run)
    pa.field("end_reason", pa.string()),
    pa.field("rounds", pa.int32()),
    pa.field("scale_switches", pa.int32()),
    pa.field("sides", pa.list_(SIDE_TYPE)),
    pa.field("error", pa.string()),
]
ROUND_FIELDS = [
    pa.field("run_id", pa.int64()),
    pa.field("round", pa.int32()),
    pa.field("side", pa.string()),
    pa.field("scale", pa.string()),
    *[pa.field(s, pa.int32()) for s in STATUSES],
    pa.field("hd", pa.int32()),
    pa.field("armor", pa.int32()),
    pa.field("pool_hd", pa.int32()),
    pa.field("wounds_dealt", pa.int32()),
    pa.field("wounds_taken", pa.int32()),
]
FIGHTER_FIELDS = [
    pa.field("run_id", pa.int64()),
    pa.field("name", pa.string()),
    pa.field("side", pa.string()),
    pa.field("role", pa.string()),
    pa.field("leader", pa.bool_()),
    pa.field("status", pa.string()),
    pa.field("arrived_round", pa.int32()),
    pa.field("hd_start", pa.int32()),
    pa.field("hd_end", pa.int32()),
    pa.field("armor_end", pa.int32()),
    pa.field("wounds_taken", pa.int32()),
    pa.field("wounds_dealt", pa.int32()),
    pa.field("conditions", pa.string()),  # War Game lingering conditions, comma-separated
    pa.field("fights_before", pa.int32()),
    pa.field("fights_after", pa.int32()),
    pa.field("tier_before", pa.string()),
    pa.field("tier_after", pa.string()),
    pa.field("rolled_weapon", pa.string()),  # gear rolled as it joined (null: as written)
    pa.field("rolled_armor", pa.string()),
]
EVENT_FIELDS = [
    pa.field("run_id", pa.int64()),
    pa.field("seq", pa.int32()),
    pa.field("round", pa.int32()),
    pa.field("actor", pa.string()),
    pa.field("action", pa.string()),
    pa.field("target", pa.string()),
    pa.field("dice", pa.string()),
    pa.field("result", pa.string()),
]
AFTERMATH_WOUND_TYPE = pa.struct(
    [
        ("kind", pa.string()),
        ("state", pa.string()),
        ("advances", pa.int32()),
        ("needs_reset", pa.bool_()),
        ("reset_known", pa.bool_()),
        ("infected", pa.bool_()),
        ("infection_known", pa.bool_()),
    ]
)
"""One wound in an aftermath row (``sim.aftermath.WOUND_KEYS``)."""
AFTERMATH_FIELDS = [  # one row per fighter per aftermath day (``sim.aftermath.ROW_KEYS``)
    pa.field("run_id", pa.int64()),
    pa.field("battle", pa.int32()),  # 1, or the campaign's battle (sim.run.campaign)
    pa.field("battle_status", pa.string()),  # the fighter's status when the battle ended
    pa.field("wounded", pa.bool_()),  # alive after the battle and hurt
    pa.field("recovered", pa.bool_()),  # up, with no open wound, at the end of the day
    pa.field("day", pa.int32()),
    pa.field("name", pa.string()),
    pa.field("side", pa.string()),
    pa.field("status", pa.string()),
    pa.field("fights", pa.int32()),
    pa.field("dice", pa.int32()),
    pa.field("treated_by", pa.list_(pa.string())),
    pa.field("wounds", pa.list_(AFTERMATH_WOUND_TYPE)),
    pa.field("infections", pa.int32()),
    pa.field("infections_known", pa.int32()),
    pa.field("hd", pa.int32()),
    pa.field("condition", pa.string()),
]
CAMPAIGN_FIELDS = [  # one row per company member per battle (``sim.run.campaign.CAMPAIGN_KEYS``)
    pa.field("run_id", pa.int64()),
    pa.field("battle", pa.int32()),  # 1, 2, ... in the campaign's order
    pa.field("battle_label", pa.string()),  # the battle entry's name, or "battle N"
    pa.field("day", pa.int32()),  # the campaign day the battle is fought on
    pa.field("winner", pa.string()),  # the battle's winner (null: a draw)
    pa.field("name", pa.string()),
    pa.field("fought", pa.bool_()),  # took part in the battle
    pa.field("status_before", pa.string()),  # before the battle (after the last aftermath)
    pa.field("battle_status", pa.string()),  # at the battle's end (null: did not fight)
    pa.field("status", pa.string()),  # after the battle's aftermath days
    pa.field("fit", pa.bool_()),  # fights the next battle (campaign.options)
    pa.field("fights_before", pa.int32()),
    pa.field("fights_after", pa.int32()),
    pa.field("tier_before", pa.string()),
    pa.field("tier_after", pa.string()),
    pa.field("wounds", pa.int32()),  # open wounds carried on (0 for the dead)
    pa.field("wounding", pa.int32()),  # 2W2P: wounding blows carried (else null)
    pa.field("felling", pa.int32()),  # 2W2P: felling blows carried (else null)
    pa.field("dw_wounds", pa.list_(pa.string())),  # Deathwish: wound levels carried
    pa.field("condition", pa.string()),  # D6 tiers: condition carried (else null)
    pa.field("hd", pa.int32()),  # War Game: hit dice carried (else null)
    pa.field("conditions", pa.string()),  # War Game lingering conditions carried ("" none)
]
BASE_FIELDS = {
    "runs": RUN_FIELDS,
    "rounds": ROUND_FIELDS,
    "fighters": FIGHTER_FIELDS,
    "events": EVENT_FIELDS,
    "aftermath": AFTERMATH_FIELDS,
    "campaign": CAMPAIGN_FIELDS,
}


SHARED = ("rules",)
"""Parameters that are a ``runs`` column already: a swept ``rules`` is the rule system each
battle was fought under, the runs' own ``rules``."""


def schema(table: str, params: Sequence[pa.Field] = ()) -> pa.Schema:
    """The schema of ``table``; swept parameters are typed columns of ``runs``."""
    fields = list(BASE_FIELDS[table])
    if table == "runs":
        fields[2:2] = [f for f in params if f.name not in SHARED]
    return pa.schema(fields)


def error_row(
    run_id: int,
    seed: int,
    params: Mapping[str, Any] | None,
    error: str,
    scenario: str = "",
    rules: str = "",
) -> dict[str, Any]:
    """The ``runs`` row of a run that raised: its id, seed, parameters and the error."""
    return {
        "run_id": run_id,
        "seed": seed,
        **(params or {}),
        "scenario": scenario,
        "rules": rules,
        "winner": None,
        "outcome": None,
        "decisive": False,
        "end_reason": "error",
        "rounds": None,
        "scale_switches": None,
        "sides": [],
        "error": error,
    }


def write_part(
    root: Path,
    table: str,
    rows: Sequence[Mapping[str, Any]],
    part: str,
    params: Sequence[pa.Field] = (),
    metadata: Mapping[str, str] | None = None,
) -> Path | None:
    """Write ``rows`` as ``root/table/part-<part>.parquet`` atomically (None if no rows).

    Written inside ``root`` only (:func:`sim.files.write_file`: a linked table folder is
    refused); ``metadata`` goes into the file's key-value metadata.
    """
    if not rows:
        return None
    arrow = pa.Table.from_pylist(list(rows), schema=schema(table, params))
    if metadata:
        arrow = arrow.replace_schema_metadata(dict(metadata))
    path = root / table / f"part-{part}.parquet"

    def parquet(fh: Any) -> None:
        pq.write_table(arrow, fh, compression="zstd")

    files.write_file(path, parquet, replace=True, within=root, sync=False)  # checksummed
    return path


MANIFEST_KEYS = (
    "kind",
    "experiment_name",
    "experiment_file",
    "experiment_text",
    "scenario_file",
    "scenario_texts",
    "points",
    "overrides",
    "parameters",
    "master_seed",
    "planned_runs",
    "replicates",
    "chunk",
    "tables",
    "fingerprint",
    "code",
    "parts",
)
"""Keys of every manifest (:func:`manifest`); :func:`write_manifest` adds the two versions."""


def manifest(
    *,
    kind: str,
    scenario_file: str,
    scenario_texts: Mapping[str, str],
    overrides: Sequence[str],
    master_seed: int,
    tables: Sequence[str],
    fingerprint: str,
    parameters: Sequence[str] = (),
    points: Sequence[Mapping[str, Any]] = ({},),
    replicates: int = 1,
    chunk: int = 1,
    experiment_name: str | None = None,
    experiment_file: str | None = None,
    experiment_text: str | None = None,
    parts: Mapping[str, Mapping[str, Any]] | None = None,
) -> dict[str, Any]:
    """What made a dataset, in the one shape of every dataset (:data:`MANIFEST_KEYS`).

    ``kind`` says which command wrote it: ``sweep`` (``sim sweep``: an experiment's design
    ``points`` times ``replicates`` runs, run ``i``'s seed the ``i``-th child of
    ``master_seed``) or ``run`` (``sim run --out``: a one-point sweep of one run with no
    parameters and no experiment, whose seed is ``master_seed`` itself). ``scenario_texts``
    maps the ``scenario`` column's value to the scenario text it was read from; the run of
    design point ``p`` is that text with ``overrides`` and then the point's ``parameters``
    values set (``--set`` style). ``fingerprint`` identifies what made it (see
    :func:`fingerprint`); ``tables`` are the tables recorded. ``code`` is the code that
    made it (:func:`sim.dataset.store.code_fingerprint`) and ``parts`` every part file with its
    rows, size and checksum (:mod:`sim.dataset.store`).
    """
    return {
        "kind": kind,
        "experiment_name": experiment_name,
        "experiment_file": experiment_file,
        "experiment_text": experiment_text,
        "scenario_file": scenario_file,
        "scenario_texts": dict(scenario_texts),
        "points": [dict(p) for p in points],
        "overrides": list(overrides),
        "parameters": list(parameters),
        "master_seed": master_seed,
        "planned_runs": len(points) * replicates,
        "replicates": replicates,
        "chunk": chunk,
        "tables": list(tables),
        "fingerprint": fingerprint,
        "code": store.code_fingerprint(),
        "parts": {k: dict(v) for k, v in (parts or {}).items()},
    }


def fingerprint(*parts: str) -> str:
    """A short hash of ``parts`` (what made a dataset), each part ended by a NUL byte."""
    h = hashlib.sha256()
    for part in parts:
        h.update(part.encode())
        h.update(b"\0")
    return h.hexdigest()[:16]


def write_manifest(root: Path, manifest: Mapping[str, Any]) -> None:
    """Write ``manifest.json`` atomically, adding the package and schema versions.

    Long texts of the design points are kept once (:func:`compact_points`);
    :func:`read_manifest` puts them back.
    """
    data = {"schema_version": SCHEMA_VERSION, "sim_version": __version__, **manifest}
    data.pop("texts", None)
    if data.get("points"):
        data["points"], texts = compact_points(data["points"])
        if texts:
            data["texts"] = texts
    text = json.dumps(data, indent=2, sort_keys=True) + "\n"
    files.write_file(root / "manifest.json", text.encode(), replace=True, within=root)


def read_manifest(root: Path) -> dict[str, Any]:
    """The dataset's manifest; a clear error if ``root`` is not a dataset."""
    path = Path(root) / "manifest.json"
    try:
        raw = files.read_inside(path, root)
    except OSError as err:
        raise SimError(f"{path}: cannot read: {err.strerror or err}") from None
    if raw is None:
        raise SimError(f"{root}: not a dataset (no manifest.json)")
    try:
        data = json.loads(raw.decode("utf-8"))
    except OSError as err:
        raise SimError(f"{path}: cannot read: {err.strerror or err}") from None
    except UnicodeDecodeError as err:
        raise SimError(f"{path}: not UTF-8 text (byte {err.start})") from None
    except json.JSONDecodeError as err:
        raise SimError(f"{path}: not valid JSON ({err.msg}, line {err.lineno})") from None
    except ValueError as err:  # a number of more than 4,300 digits
        raise SimError(f"{path}: not a manifest ({str(err)[:60]})") from None
    except RecursionError:
        raise SimError(f"{path}: not a manifest (nested too deeply)") from None
    if not isinstance(data, dict):
        raise SimError(f"{path}: not a manifest (a JSON {type(data).__name__}, not an object)")
    if "schema_version" not in data and not {"kind", "parts", "points"} & set(data):
        raise SimError(f"{path}: not sim's manifest (it has none of sim's fields)")
    if data.get("schema_version") not in READABLE:
        raise SimError(
            f"{path}: schema version {data.get('schema_version')!r}; this sim "
            f"reads versions {', '.join(map(str, READABLE))}: use a newer sim"
        )
    if "texts" in data:
        texts = data.pop("texts")
        if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
            raise SimError(f"{path}: texts: expected a list of text; the manifest is damaged")
        if isinstance(data.get("points"), list):
            try:
                data["points"] = expand_points(data["points"], texts)
            except IndexError:
                raise SimError(
                    f"{path}: points: a text that is not in texts; the manifest is damaged"
                ) from None
    return data


def outcome_columns(winner: pa.Array, error: pa.Array) -> tuple[pa.Array, pa.Array]:
    """The ``outcome`` and ``decisive`` columns of runs with these ``winner`` and ``error``.

    What every version of the runs table means: a null ``winner`` is a draw unless the run
    failed (``error`` set), whose outcome is null and which is not decisive.
    """
    failed = pc.is_valid(error)
    outcome = pc.if_else(failed, pa.scalar(None, pa.string()), pc.fill_null(winner, DRAW))
    decisive = pc.and_(pc.is_valid(winner), pc.invert(failed))
    return outcome, decisive


DERIVED = {"runs": {"outcome": ("winner", "error"), "decisive": ("winner", "error")}}
"""Columns of today's tables that an older dataset lacks but :func:`conform` works out."""
RENAMED = {"campaign": {"battle_label": "label"}}
"""Today's name -> the name older datasets gave the column."""


def sources(table: str, columns: Sequence[str], have: Sequence[str]) -> list[str]:
    """The stored columns to read to give ``columns`` of ``table`` from parts with ``have``."""
    out: list[str] = []
    for c in columns:
        if c in have:
            out.append(c)
        elif c in DERIVED.get(table, {}):
            out += [s for s in DERIVED[table][c] if s in have]
        elif RENAMED.get(table, {}).get(c) in have:
            out.append(RENAMED[table][c])
    return list(dict.fromkeys(out))


def conform(table: str, data: pa.Table, columns: Sequence[str] | None = None) -> pa.Table:
    """Parts of ``table`` read from a dataset of any version, as today's columns.

    An older dataset's renamed columns get today's names, derived ones are worked out
    (``outcome``, ``decisive`` from ``winner`` and ``error``), and any other column it
    lacks is null (it was not recorded: a version-1 ``fighters`` table may have no
    ``conditions``). ``columns`` picks some, in that order (default: every stored one,
    then the missing ones of today's schema, in its order).
    """
    for new, old in RENAMED.get(table, {}).items():
        if new not in data.column_names and old in data.column_names:
            data = data.rename_columns([new if c == old else c for c in data.column_names])
    fields = {f.name: f for f in BASE_FIELDS[table]}
    names = list(columns) if columns is not None else _in_order(data.column_names, list(fields))
    missing = [n for n in names if n not in data.column_names]
    if table == "runs" and {"outcome", "decisive"} & set(missing):
        outcome, decisive = outcome_columns(data["winner"], data["error"])
        data = data.append_column("outcome", outcome).append_column("decisive", decisive)
    for name in missing:
        if name in data.column_names:
            continue
        if name not in fields:
            raise SimError(f"the {table} table has no column {name!r}")
        data = data.append_column(name, pa.nulls(data.num_rows, fields[name].type))
    return data.select(names)


def _in_order(stored: Sequence[str], today: Sequence[str]) -> list[str]:
    """The stored columns with today's missing ones, each after the column it follows today."""
    names = list(stored)
    for i, name in enumerate(today):
        if name not in names:
            before = [n for n in today[:i] if n in names]
            names.insert(names.index(before[-1]) + 1 if before else len(names), name)
    return names


_SHAPES: dict[str, tuple[type, ...]] = {
    "parameters": (list,),
    "overrides": (list,),
    "points": (list,),
    "tables": (list,),
    "scenario_texts": (dict,),
    "parts": (dict,),
    "replicates": (int,),
    "master_seed": (int,),
    "planned_runs": (int,),
}


def check_manifest(root: Path, m: Mapping[str, Any]) -> None:
    """Refuse a manifest whose fields do not have their shape (a damaged or edited one).

    Raises:
        SimError: ``DIR/manifest.json: field: what is wrong``, the first problem found.
    """
    path = Path(root) / "manifest.json"

    def bad(key: str, what: str) -> SimError:
        return SimError(f"{path}: {key}: {what}; the manifest is damaged")

    for key, kinds in _SHAPES.items():
        if key in m and (not isinstance(m[key], kinds) or isinstance(m[key], bool)):
            raise bad(key, f"expected a {kinds[0].__name__}, got {type(m[key]).__name__}")
    for key in ("parameters", "overrides"):
        if not all(isinstance(v, str) for v in m.get(key, [])):
            raise bad(key, "expected a list of text")
    if not all(t in TABLES for t in m.get("tables", [])):
        raise bad("tables", f"expected names of tables ({', '.join(TABLES)})")
    if not all(isinstance(v, str) for v in m.get("scenario_texts", {}).values()):
        raise bad("scenario_texts", "expected scenario texts")
    if not all(isinstance(p, dict) for p in m.get("points", [])):
        raise bad("points", "expected a list of objects")
    if m.get("replicates", 1) < 1:
        raise bad("replicates", "expected 1 or more")
    for name, rec in m.get("parts", {}).items():
        table, _, file = name.partition("/")
        ok = (
            table in TABLES
            and file.startswith("part-")
            and "/" not in file
            and isinstance(rec, dict)
            and all(isinstance(rec.get(k), int) for k in ("rows", "bytes"))
            and isinstance(rec.get("sha256"), str)
            and (table != "runs" or all(isinstance(rec.get(k), int) for k in ("first", "stop")))
        )
        if not ok:
            raise bad(f"parts.{name}"[:80], "not a part's record")


def open_manifest(root: Path) -> tuple[dict[str, Any], list[str]]:
    """The checked manifest of the dataset at ``root``, and the part files it does not list.

    Every listed part must be as recorded (a manifest of an older sim lists none: then
    every part on disk is read, unchecked).

    Raises:
        SimError: not a dataset, a damaged manifest, or damaged parts (named).
    """
    m = read_manifest(root)
    check_manifest(root, m)
    if "parts" not in m:
        return m, []
    bad = store.damage(root, m["parts"])
    if bad:
        again = (
            f"sim sweep {m.get('experiment_file')} --out {root} --resume"
            if m.get("kind") in ("sweep", "search")
            else "sim run again with --out into a new folder"
        )
        raise SimError(f"{root}: damaged parts: {store.describe(bad)}; to run them again: {again}")
    return m, store.unlisted(root, m["parts"], m.get("tables", ()))


def table_files(root: Path, table: str, manifest: Mapping[str, Any] | None = None) -> list[Path]:
    """The part files of ``table``: those the manifest lists, each a file of the dataset.

    A manifest of an older sim lists none: then every part on disk. Each is checked to be
    reached through no link (:func:`sim.files.check_inside`): Arrow opens them by name.

    Raises:
        SimError: a part, or its table's folder, is a link or not a file.
    """
    root = Path(root)
    if manifest is not None and "parts" in manifest:
        prefix = f"{table}/"
        found = [root / n for n in sorted(manifest["parts"]) if n.startswith(prefix)]
    else:
        folder = root / table
        if files.is_link(folder):
            raise files.read_link_error(folder)
        found = sorted(folder.glob("part-*.parquet")) if folder.is_dir() else []
    for path in found:
        files.check_inside(path, root)
    return found


def read_table(
    root: Path,
    table: str,
    columns: Sequence[str] | None = None,
    manifest: Mapping[str, Any] | None = None,
) -> pa.Table:
    """One table of a dataset (all its parts) as an Arrow table, optionally some columns.

    With ``manifest``, only the parts it lists (:func:`table_files`).
    """
    parts = table_files(Path(root), table, manifest)
    if not parts:
        empty = schema(table).empty_table()
        return empty.select(list(columns)) if columns is not None else empty
    return read_parts(parts, table, columns)


def read_parts(
    parts: Sequence[Path],
    table: str,
    columns: Sequence[str] | None = None,
    where: pads.Expression | None = None,
) -> pa.Table:
    """The rows of ``parts`` of ``table`` (those ``where`` keeps) as today's columns.

    Parts of any version in :data:`READABLE` (:func:`conform`); ``columns`` picks some.
    """
    data = pads.dataset([str(p) for p in parts], format="parquet")
    have = data.schema.names
    read = sources(table, columns, have) if columns is not None else None
    return conform(table, data.to_table(columns=read, filter=where), columns)


def read_run(
    root: Path, run_id: int, manifest: Mapping[str, Any] | None = None
) -> dict[str, Any] | None:
    """The ``runs`` row of run ``run_id`` (None if there is none), read with a filter."""
    parts = table_files(Path(root), "runs", manifest)
    if not parts:
        return None
    rows = read_parts(parts, "runs", where=pads.field("run_id") == run_id).to_pylist()
    return rows[0] if rows else None
