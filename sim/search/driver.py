"""The search loop, the same for every design: plan a batch, fight it, read it back, repeat.

:func:`run_search` holds the dataset folder as a sweep does (made if need be, locked, a
manifest listing every checked part; :func:`sim.experiment.runner.claimed`), opens one
pool of workers for the whole search (:func:`sim.experiment.runner.open_pool`) and then,
batch after batch:

1. the design plans the batch from the battles so far (:meth:`Design.plan`);
2. its new points go into the manifest and the batch into the journal
   (:mod:`sim.search.journal`), both before its first battle;
3. its chunks are fought through the runner (:func:`sim.experiment.runner.run_chunks`),
   every battle a row of the dataset's tables, with its batch and point;
4. its ``runs`` parts are read back (:mod:`sim.search.outcomes`) and the design's estimate
   is shown and noted in the journal.

When the design is done, its answer is written into the folder. Ctrl-C or SIGTERM stop the
search with every finished chunk kept; ``resume`` replays the journal (each batch planned
again must be the one it lists), fights the missing chunks, and goes on to the same answer.
"""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa

from sim.dataset import records
from sim.errors import SimError
from sim.experiment.resume import check_names, has_content, listed_run_ids
from sim.experiment.runner import (
    SweepResult,
    check_run_options,
    claimed,
    interrupts,
    open_pool,
    run_chunks,
)
from sim.search import journal as jr
from sim.search import outcomes
from sim.search.batch import Batch, chunk_size
from sim.search.core import BadNote, Design, History, Planned
from sim.search.progress import SearchProgress
from sim.search.spec import Search


@dataclass
class SearchResult:
    """How a search went: its answer (None if it did not end), battles and time."""

    out: Path
    answer: dict[str, Any] | None
    spent: int = 0
    fought: int = 0
    seconds: float = 0.0
    interrupted: bool = False
    notes: list[str] = field(default_factory=list)


def run_search(
    search: Search,
    out: str | Path,
    *,
    workers: int = 1,
    executor: str = "serial",
    scheduler: str | None = None,
    resume: bool = False,
    force: bool = False,
    progress: bool = True,
) -> SearchResult:
    """Run ``search`` into the dataset folder ``out`` (see the module's docstring).

    Raises:
        sim.errors.SimError: ``out`` holds something else, an unfinished search without
            ``resume``, a dataset of other code without ``force``, or a resume that would
            take another path than the journal's.
    """
    check_run_options(executor, workers)
    root = Path(out)
    with claimed(root, lambda: _check_folder(root)):
        pool, close = open_pool(executor, workers, scheduler)
        try:
            manifest, journal, notes = jr.prepare(search, root, resume, force)
            loop = _Loop(search, root, manifest, journal, pool, close)
            result = loop.run(progress)
        finally:
            close()
    result.notes[:0] = notes
    return result


def _check_folder(root: Path) -> None:
    """Refuse, reading only, a folder a search may not write in (as a sweep's)."""
    check_names(root, (jr.FOLDER,))
    if not has_content(root) or (root / "manifest.json").exists():
        return
    parts = len(list(root.glob("*/part-*.parquet")))
    what = f"it holds {parts} parts" if parts else "it is not a dataset"
    raise SimError(f"{root}: {what} (no manifest.json); choose another --out")


def first_batch(search: Search) -> Batch | None:
    """The search's first batch, as :func:`run_search` numbers, seeds and fights it.

    Nothing is written (the golden digests of ``tests/golden`` fight its first runs). None
    for a search that fights no battle (a balance on the exact odds).
    """
    manifest = jr.fresh_manifest(search)
    loop = _Loop(search, Path(search.name), manifest, {"batches": []}, None, lambda: None)
    history = loop._empty_history()
    planned = loop.design.plan(history, None)
    if planned is None:
        return None
    return loop._batch(0, planned, history)


def fields(search: Search, design: Design) -> list[pa.Field]:
    """The ``runs`` columns of a search: its parameters, ``batch``, ``point``, the design's."""
    return [
        *(p.field() for p in search.params),
        pa.field("batch", pa.int64()),
        pa.field("point", pa.int64()),
        *design.columns(),
    ]


class _Loop:
    """One search's batches, from the first (or the journal's) to the answer."""

    def __init__(
        self,
        search: Search,
        root: Path,
        manifest: dict[str, Any],
        journal: dict[str, Any],
        pool: Any,
        close: Any,
    ) -> None:
        from sim.search.designs import KINDS

        self.search, self.root, self.manifest, self.journal = search, root, manifest, journal
        self.pool, self.close = pool, close
        self.design: Design = KINDS[search.design].make(search)
        self.fields = fields(search, self.design)
        self.extra = [f.name for f in self.design.columns()]
        self.keys = {tuple(o): i for i, o in enumerate(manifest.get("point_overrides", []))}

    def run(self, progress: bool) -> SearchResult:
        """Every batch, then the answer; an interrupt stops it with what is done kept."""
        result = SearchResult(self.root, None)
        if self.journal.get("finished"):
            result.answer = jr.read_answer(self.root)
            result.spent = len(listed_run_ids(self.manifest))
            return result
        done = listed_run_ids(self.manifest)
        bar = SearchProgress(self.search.budget, len(done)) if progress else None
        start = time.monotonic()
        history = self._empty_history()
        try:
            with interrupts():
                history = self._batches(history, done, bar, result)
                if not result.interrupted:
                    answer = self.design.answer(history)
                    result.answer = jr.write_answer(self.root, self.search.design, answer)
                    self.journal["finished"] = True
        except KeyboardInterrupt:
            result.interrupted = True
        finally:
            if bar is not None:
                bar.close()
            with contextlib.suppress(OSError):
                jr.write_journal(self.root, self.journal)
                records.write_manifest(self.root, self.manifest)
        result.spent, result.seconds = len(history.runs), time.monotonic() - start
        return result

    def _empty_history(self) -> History:
        cols = [*self.search.parameters, *self.extra]
        return History((), outcomes.empty(cols, self.search.sides), (), self.search.budget)

    def _batches(self, history: History, done: set[int], bar: Any, result: SearchResult) -> History:
        entries: list[dict[str, Any]] = self.journal["batches"]
        b = 0
        while True:
            recorded = entries[b] if b < len(entries) else None
            try:
                planned = self.design.plan(history, recorded["note"] if recorded else None)
            except BadNote as err:
                raise jr.damaged(
                    self.root, ("batches", b, "note", *err.where), err.message
                ) from None
            if planned is None:
                if recorded is not None:
                    raise _diverged(self.root, b)
                return history
            batch = self._batch(b, planned, history)
            entry = _entry(batch, planned)
            if recorded is None:
                entries.append(entry)
                jr.write_journal(self.root, self.journal)
                records.write_manifest(self.root, self.manifest)
            elif {k: recorded.get(k) for k in entry} != entry:
                raise _diverged(self.root, b)
            todo = [(cid, ids) for cid, ids in batch.chunks() if not set(ids) <= done]
            swept = SweepResult(self.root, batch.runs, len(todo), manifest=self.manifest)
            run_chunks(batch, self.root, self.pool, self.close, todo, swept, bar, close_bar=False)
            result.fought += swept.done
            if swept.interrupted:
                result.interrupted = True
                return history
            history = self._read(history, batch, entries[b])
            entries[b]["estimate"] = self.design.progress(history)
            jr.write_journal(self.root, self.journal)
            if bar is not None:
                bar.batch(b, len(history.runs), entries[b]["estimate"])
            self.design.finished_batch(history, self.root)
            b += 1

    def _batch(self, index: int, planned: Planned, history: History) -> Batch:
        """The batch's runs, numbered after the history's, its points' columns typed."""
        if planned.runs > history.left or min(planned.replicates, default=1) < 1:
            raise SimError(
                f"internal: batch {index} plans {planned.runs} battles, {history.left} left"
            )
        first = int(history.batches[-1]["stop"]) if history.batches else 0
        first_chunk = int(history.batches[-1]["chunks_stop"]) if history.batches else 0
        values, overrides = [], []
        for i, point in enumerate(planned.points):
            sets = tuple(self.search.overrides_of(point))
            key = self._point_id(point, sets)
            cols = {p.name: p.column(point[p.name]) for p in self.search.params}
            cols.update(batch=index, point=key)
            cols.update({name: col[i] for name, col in planned.columns.items()})
            values.append(cols)
            overrides.append(sets)
        return Batch(
            scenario_text=self.search.scenario_text,
            scenario_path=self.search.scenario_path,
            tables=self.search.tables,
            master=self.search.seed,
            index=index,
            first_run=first,
            first_chunk=first_chunk,
            chunk=chunk_size(planned.runs, self.search.chunk),
            replicates=planned.replicates,
            overrides=tuple(overrides),
            values=tuple(values),
            fields=tuple(self.fields),
            shared=planned.shared,
        )

    def _point_id(self, point: dict[str, Any], sets: tuple[str, ...]) -> int:
        """The point's index in the manifest (a new point is added to it)."""
        if sets not in self.keys:
            self.keys[sets] = len(self.keys)
            self.manifest["points"].append({k: point[k] for k in self.search.parameters})
            self.manifest["point_overrides"].append(list(sets))
        return self.keys[sets]

    def _read(self, history: History, batch: Batch, entry: dict[str, Any]) -> History:
        """The history with the batch's battles read back from its ``runs`` parts."""
        names = {f"runs/part-{cid:06d}.parquet" for cid, _ in batch.chunks()}
        files = [self.root / n for n in sorted(names) if n in self.manifest["parts"]]
        if len(files) != len(names):
            raise SimError(
                f"{self.root}: batch {batch.index} is missing parts; --resume fights them"
            )
        cols = [*self.search.parameters, *self.extra]
        runs = outcomes.read(files, cols, self.search.sides)
        both = pd.concat([history.runs, runs], ignore_index=True) if len(history.runs) else runs
        points = tuple(self.manifest["points"])
        return History((*history.batches, entry), both, points, history.budget)


def _entry(batch: Batch, planned: Planned) -> dict[str, Any]:
    """The journal's entry of a batch (what a resume must plan again)."""
    chunks = batch.chunks()
    points = [int(v["point"]) for v in batch.values]
    return {
        "batch": batch.index,
        "stage": planned.stage,
        "points": points,
        "replicates": list(planned.replicates),
        "shared": planned.shared,
        "first": batch.first_run,
        "stop": batch.stop,
        "chunk": batch.chunk,
        "chunks_stop": chunks[-1][0] + 1 if chunks else batch.first_chunk,
        "note": planned.note,
    }


def _diverged(root: Path, b: int) -> SimError:
    return SimError(
        f"{root}: resuming, the search plans batch {b} otherwise than its journal "
        f"({jr.FOLDER}/{jr.JOURNAL}) says it did: the battles read back or the code "
        "differ; search again into another --out"
    )


def summary_line(search: Search, r: SearchResult, executor: str, workers: int) -> str:
    """One line: what the search fought, and how fast."""
    if r.fought == 0 and r.answer is not None and not r.interrupted:
        return f"{search.name}: the search had ended ({r.spent:,} battles); its answer again"
    rate = r.fought / r.seconds if r.seconds > 0 else 0.0
    return (
        f"{search.name}: {search.design} search, {r.fought:,} battles in {r.seconds:.1f} s "
        f"({rate:.0f}/s, {executor}, {workers} worker{'s' if workers != 1 else ''}); "
        f"{r.spent:,} of at most {search.budget:,} fought in all"
    )
