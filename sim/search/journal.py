"""What a search keeps in its dataset folder besides the tables: its journal and its answer.

``DIR/search/journal.json`` lists every batch the search planned, written before the
batch's first battle: its stage, points (indexes into the manifest's ``points``, whose
``point_overrides`` build each point's scenario), battles per point, run ids and chunks,
and what the design noted of it; after the batch, the estimate it led to. A resumed
search follows it: each batch is planned again from the battles before it and must be the
one the journal lists (or the search refuses: the code or data differ), and only its
missing chunks are fought.

``DIR/search/answer.json`` is the answer, written once the search ends: ``design``,
``status``, ``exit``, ``lines`` (the answer in words), ``tables`` (each ``{title,
headers, rows}``), ``charts`` (each ``{file, title}``, PNG files in ``DIR/search/``) and
``data`` (the figures, for programs). ``sim analyze`` and the HTML report read it
(:attr:`sim.analysis.Dataset.answer`) without knowing the design. Both files, and the
charts, are written whole and inside the dataset folder only (:func:`sim.files.write_file`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sim import files
from sim.dataset import answer as answer_file
from sim.dataset import records, store
from sim.errors import SimError
from sim.experiment.resume import (
    check_code,
    check_schema,
    drop_damaged,
    existing_manifest,
    killed_part,
)
from sim.search.core import Answer
from sim.search.spec import Search

FOLDER = "search"
JOURNAL = "journal.json"
ANSWER = "answer.json"


MAX_JOURNAL = 64 << 20
"""The largest journal read (64 MB: a search of 100,000 trials keeps about 30 MB)."""


DAMAGED = "the journal is damaged: search again into another --out"
ENTRY: dict[str, type] = {
    "batch": int,
    "stage": str,
    "points": list,
    "replicates": list,
    "shared": bool,
    "first": int,
    "stop": int,
    "chunk": int,
    "chunks_stop": int,
    "note": dict,
}
"""What each batch of the journal holds (:func:`sim.search.driver._entry`), by type."""


def _read(root: Path, name: str) -> tuple[dict[str, Any], str] | None:
    """The JSON object in ``DIR/search/NAME`` and its text (None if there is none)."""
    path = root / FOLDER / name
    try:
        raw = files.read_inside(path, root, MAX_JOURNAL)
        if raw is None:
            return None
        text = raw.decode("utf-8")
        data = json.loads(text)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError, ValueError) as err:
        line = f":{err.lineno}" if isinstance(err, json.JSONDecodeError) else ""
        raise SimError(f"{path}{line}: not JSON ({type(err).__name__}); {DAMAGED}") from None
    if not isinstance(data, dict):
        raise SimError(f"{path}:1: not a JSON object; {DAMAGED}")
    return data, text


def damaged(root: Path, where: tuple[str | int, ...], message: str) -> SimError:
    """One located line for a place of the journal that is not what the search wrote."""
    path = root / FOLDER / JOURNAL
    try:
        raw = files.read_inside(path, root, MAX_JOURNAL) or b""
        line = answer_file.line_of(raw.decode("utf-8", "replace"), where)
    except (OSError, SimError):
        line = 1
    return SimError(f"{path}:{line}: {answer_file.dotted(where)}: {message}; {DAMAGED}")


def check_journal(root: Path, journal: dict[str, Any], design: str) -> None:
    """Refuse a journal that is not the shape a search writes (:data:`ENTRY`), located.

    What the design noted of each batch (``note``) is the design's to check when it plans
    that batch again (:class:`sim.search.core.BadNote`).
    """
    if journal.get("design") != design:
        raise damaged(root, ("design",), f"expected {design!r}, got {journal.get('design')!r}")
    if not isinstance(journal.get("batches"), list):
        raise damaged(root, ("batches",), "expected a list of the search's batches")
    if not isinstance(journal.get("finished", False), bool):
        raise damaged(root, ("finished",), "expected true or false")
    for b, entry in enumerate(journal["batches"]):
        if not isinstance(entry, dict):
            raise damaged(root, ("batches", b), "expected an object: a batch of the search")
        for key, kind in ENTRY.items():
            value = entry.get(key)
            ok = isinstance(value, kind) and (kind is bool or not isinstance(value, bool))
            if not ok:
                want = {int: "a whole number", str: "text", list: "a list", dict: "an object"}
                raise damaged(
                    root, ("batches", b, key), f"expected {want.get(kind, 'true or false')}"
                )
        for key in ("points", "replicates"):
            if not all(isinstance(v, int) and not isinstance(v, bool) for v in entry[key]):
                raise damaged(root, ("batches", b, key), "expected a list of whole numbers")


def _write(root: Path, name: str, data: dict[str, Any]) -> None:
    text = (json.dumps(data, indent=1, sort_keys=True, default=_plain) + "\n").encode("utf-8")
    if name == ANSWER:  # as its readers will check it: a design's own bug, caught here
        try:
            answer_file.check(json.loads(text))
        except answer_file.Damaged as err:
            raise SimError(f"internal: the {data.get('design')} answer: {err.message}") from None
        if len(text) > answer_file.MAX_ANSWER:
            raise SimError(f"internal: the answer is {len(text):,} bytes, over its readers' limit")
    files.write_file(root / FOLDER / name, text, replace=True, within=root)


def _plain(value: Any) -> Any:
    """Numpy scalars as plain numbers (the answer's figures)."""
    if hasattr(value, "item"):
        return value.item()
    raise TypeError(f"not JSON: {type(value).__name__}")


def read_journal(root: Path, design: str | None = None) -> dict[str, Any] | None:
    """The search's journal (None if there is none); checked when ``design`` is given."""
    found = _read(root, JOURNAL)
    if found is None:
        return None
    if design is not None:
        check_journal(root, found[0], design)
    return found[0]


def write_journal(root: Path, journal: dict[str, Any]) -> None:
    """Write the journal, whole."""
    _write(root, JOURNAL, journal)


def read_answer(root: Path, hint: str = "") -> dict[str, Any] | None:
    """The search's answer (None if it has not ended), checked (:mod:`sim.dataset.answer`)."""
    return answer_file.read(root, hint or "search again into another --out")


def write_answer(root: Path, design: str, answer: Answer) -> dict[str, Any]:
    """Draw the answer's charts into ``DIR/search/`` and write ``answer.json``; its data."""
    from sim.charts import png_bytes

    charts = []
    for name, fig in answer.charts:
        files.write_file(root / FOLDER / name, png_bytes(fig), replace=True, within=root)
        title = fig.axes[0].get_title() if fig.axes else name
        charts.append({"file": f"{FOLDER}/{name}", "title": title})
    data = {
        "design": design,
        "status": answer.status,
        "exit": answer.exit,
        "lines": answer.lines,
        "tables": answer.tables,
        "charts": charts,
        "data": answer.data,
    }
    _write(root, ANSWER, data)
    return data


def fresh_manifest(search: Search) -> dict[str, Any]:
    """The manifest of a new search dataset: no points and no parts yet.

    ``planned_runs`` is the budget (the most battles); ``points`` and ``point_overrides``
    grow as the search plans its batches.
    """
    from sim.scenario import parse_scenario

    base = parse_scenario(search.scenario_text, search.scenario_path, search.overrides)
    m = records.manifest(
        kind="search",
        experiment_name=search.name,
        experiment_file=search.path,
        experiment_text=search.text,
        scenario_file=search.scenario_path,
        scenario_texts={base.name: search.scenario_text},
        points=(),
        overrides=search.overrides,
        parameters=search.parameters,
        master_seed=search.seed,
        tables=search.tables,
        fingerprint=search.fingerprint(),
    )
    m.update(planned_runs=search.budget, design=search.design, point_overrides=[])
    return m


def _answered(root: Path, journal: dict[str, Any], resume: bool) -> bool:
    """Whether a finished search's answer is there as it was written (else: answer again).

    A gone or damaged answer is refused without ``resume``; with it, the journal is marked
    unfinished, so the search replays every batch (fighting none) and answers again.
    """
    again = "--resume writes it again from its battles"
    try:
        if read_answer(root, again) is not None:
            return True
    except SimError:
        if not resume:
            raise
    if not resume:
        raise SimError(
            f"{root}: the search had ended, but its answer ({FOLDER}/{ANSWER}) is gone; {again}"
        )
    journal.pop("finished")
    return False


def prepare(
    search: Search, root: Path, resume: bool, force: bool
) -> tuple[dict[str, Any], dict[str, Any], list[str]]:
    """The (locked) dataset's manifest and journal: new, or checked to go on with.

    A finished search's are returned as they are. An unfinished one is refused without
    ``resume``; with it, damaged parts are dropped (their chunks are fought again) and a
    dataset of other code is refused unless ``force``.
    """
    notes: list[str] = []
    if not (root / "manifest.json").exists():
        manifest = fresh_manifest(search)
        journal: dict[str, Any] | None = {"design": search.design, "batches": []}
        assert journal is not None
        try:
            write_journal(root, journal)
            records.write_manifest(root, manifest)
        except OSError as err:
            raise SimError(f"{root}: cannot write the dataset: {err.strerror or err}") from None
        return manifest, journal, notes
    hint = "search again into another --out"
    manifest = existing_manifest(root, search.name, search.fingerprint(), hint)
    journal = read_journal(root, search.design)
    if journal is None:
        raise SimError(f"{root}: the search's journal ({FOLDER}/{JOURNAL}) is missing; {hint}")
    if journal.get("finished") and _answered(root, journal, resume):
        return manifest, journal, notes
    changed = drop_damaged(root, manifest, resume, notes)
    fought = sum(
        int(r["stop"]) - int(r["first"])
        for n, r in manifest["parts"].items()
        if n.startswith("runs/")
    )
    if not resume:
        raise SimError(
            f"{root}: already holds this search, unfinished ({fought} battles fought); use "
            "--resume to finish it, or choose another --out"
        )
    check_schema(root, manifest)
    changed = check_code(root, manifest, force, notes) or changed
    for table in search.tables:  # parts whose writer was killed (never through a link)
        files.remove_matching(root / table, root, killed_part)
    extra = store.unlisted(root, manifest["parts"], search.tables)
    if extra:
        notes.append(f"{len(extra)} files the manifest does not list are fought again or ignored")
    if changed:
        records.write_manifest(root, manifest)
    return manifest, journal, notes
