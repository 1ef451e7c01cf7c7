"""Sweeps: run an experiment's battles on an executor and stream them into a dataset.

Runs go out in chunks (a few hundred battles each, so tiny battles do not pay per-task
overhead). Each chunk writes its own Parquet parts, every one atomically, the ``runs`` part
last: a chunk whose ``runs`` part holds all its run ids is done. That makes a sweep
resumable after Ctrl-C, a crash or SIGKILL, and the resumed dataset equal to an
uninterrupted one (same run ids, same seeds, same rows).

The dataset folder is locked for the whole sweep, and the manifest lists every part with its
rows, size and checksum (:mod:`sim.dataset.store`): a resume re-runs the chunks of damaged or
missing parts, refuses to mix rows of other code unless forced, and reads nothing it did
not list. Pool workers stop when the sweep's process dies, even by SIGKILL (before they
write another part); SIGTERM stops a sweep as Ctrl-C does.

Executors: ``serial`` (in this process), ``processes`` (a process pool whose workers come
from a forkserver that has imported what they need, :mod:`sim.workers`; they are not
recycled, as the Mesa id leak is worked around in :class:`sim.frame.agents.Fighter`), and
``dask`` (``distributed``'s ``concurrent.futures`` executor, on a local cluster or the
scheduler at ``--scheduler``).
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import os
import threading
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import pyarrow as pa
import pyarrow.parquet as pq

from sim import files
from sim import workers as sweep_workers
from sim.dataset import records, store
from sim.errors import SimError
from sim.experiment.model import Experiment
from sim.experiment.progress import Progress
from sim.experiment.resume import check_folder, chunk_metadata, prepare

EXECUTORS = ("serial", "processes", "dask")


class RunPlan(Protocol):
    """What :func:`run_chunk` fights: numbered runs, each a point's scenario and a seed.

    An :class:`~sim.experiment.model.Experiment` is one; so is a search's batch
    (:mod:`sim.search`), whose runs continue the numbering of the batches before it.
    """

    @property
    def scenario_text(self) -> str:
        """The base scenario's text."""

    @property
    def scenario_path(self) -> str:
        """Where the base scenario was read from (for its messages)."""

    @property
    def tables(self) -> tuple[str, ...]:
        """The tables to record (``runs`` first)."""

    def point_of(self, run_id: int) -> int:
        """The point (of this plan) run ``run_id`` fights."""

    def run_seed(self, run_id: int) -> int:
        """The seed of run ``run_id``."""

    def param_values(self, point: int, fields: Any = None) -> dict[str, Any]:
        """The parameter columns of a point's ``runs`` rows."""

    def param_fields(self) -> list[pa.Field]:
        """The Arrow fields of the parameter columns."""

    def point_overrides(self, point: int) -> list[str]:
        """The ``--set`` overrides that build a point's scenario."""


@dataclass(frozen=True, slots=True)
class ChunkResult:
    """What one chunk did: how many runs, how many failed, and who won them."""

    chunk: int
    runs: int
    failed: int
    winners: dict[str, int]
    parts: dict[str, dict[str, Any]] = field(default_factory=dict)


@dataclass
class SweepResult:
    """A sweep's totals, for the summary."""

    out: Path
    planned: int
    selected: int
    already: int = 0
    done: int = 0
    failed: int = 0
    winners: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0
    interrupted: bool = False
    notes: list[str] = field(default_factory=list)
    manifest: dict[str, Any] = field(default_factory=dict)


def run_chunk(exp: RunPlan, out: str, chunk: int, start: int, stop: int) -> ChunkResult:
    """Fight runs ``start..stop-1`` and write the chunk's parts; a failing run is a row."""
    from sim.run.core import fight, run_rows
    from sim.scenario import parse_scenario

    scenarios: dict[int, Any] = {}
    rows: dict[str, list[dict[str, Any]]] = {t: [] for t in records.TABLES}
    failed = 0
    winners: Counter[str] = Counter()
    events = "events" in exp.tables
    fields = exp.param_fields()
    values: dict[int, dict[str, Any]] = {}  # a point's parameter columns (rows copy them)
    for run_id in range(start, stop):
        sweep_workers.stop_if_orphaned()
        point = exp.point_of(run_id)
        seed = exp.run_seed(run_id)
        if point not in values:
            values[point] = exp.param_values(point, fields)
        params = values[point]
        try:
            if point not in scenarios:
                try:
                    scenarios[point] = parse_scenario(
                        exp.scenario_text, exp.scenario_path, exp.point_overrides(point)
                    )
                except SimError as err:
                    scenarios[point] = err
            sc = scenarios[point]
            if isinstance(sc, Exception):
                raise sc
            fought = fight(sc, seed=seed, events=events)  # the battle, aftermath, campaign
            got = run_rows(fought, run_id, seed, params, events=events)
            for table in exp.tables:
                rows[table].extend(got[table])
            winners[got["runs"][0]["winner"] or "(draw)"] += 1
        except Exception as err:  # a failing run is recorded, and the sweep goes on
            failed += 1
            text = str(err).strip().splitlines()[0] if str(err).strip() else ""
            where = traceback.extract_tb(err.__traceback__)[-1] if err.__traceback__ else None
            place = f" ({Path(where.filename).name}:{where.lineno})" if where else ""
            rows["runs"].append(
                records.error_row(run_id, seed, params, f"{type(err).__name__}: {text}{place}")
            )
            winners["(error)"] += 1
    parts = _write_chunk(exp, Path(out), chunk, rows, fields)
    parts[f"runs/part-{chunk:06d}.parquet"].update(first=start, stop=stop)
    return ChunkResult(chunk, stop - start, failed, dict(winners), parts)


def _write_chunk(
    exp: RunPlan,
    root: Path,
    chunk: int,
    rows: dict[str, list[dict[str, Any]]],
    fields: list[Any],
) -> dict[str, dict[str, Any]]:
    """Write a chunk's parts, its ``runs`` part last (the chunk is done); their records.

    The ``runs`` part's metadata says how many rows each table got (for a rebuild's check).
    """
    part = f"{chunk:06d}"
    parts: dict[str, dict[str, Any]] = {}
    counts = chunk_metadata({t: len(rows[t]) for t in exp.tables})
    for table in (*(t for t in exp.tables if t != "runs"), "runs"):
        sweep_workers.stop_if_orphaned()  # a worker whose sweep died writes nothing more
        runs = table == "runs"
        path = records.write_part(
            root, table, rows[table], part, fields if runs else (), counts if runs else None
        )
        if path is not None:
            parts[f"{table}/{path.name}"] = store.part_record(path, len(rows[table]))
    return parts


def done_run_ids(out: Path) -> set[int]:
    """Run ids in every ``runs`` part on disk (listed in the manifest or not)."""
    ids: set[int] = set()
    for part in sorted((out / "runs").glob("part-*.parquet")):
        ids.update(pq.read_table(part, columns=["run_id"]).column("run_id").to_pylist())
    return ids


_ACTIVE: list[threading.Event] = []
"""The event of the outermost :func:`interrupts` block now running (nested blocks share it)."""


@contextlib.contextmanager
def interrupts() -> Iterator[threading.Event]:
    """In the main thread, Ctrl-C and SIGTERM stop the block (a KeyboardInterrupt).

    Each also sets the event yielded, which the block checks after every chunk: Python
    drops a KeyboardInterrupt raised inside a weak reference's callback (Mesa's agents have
    them), and the sweep must stop all the same. A block inside another (a search's batch
    inside the search) shares the outer block's handlers and event.
    """
    import signal

    if threading.current_thread() is not threading.main_thread():
        yield threading.Event()
        return
    if _ACTIVE:
        yield _ACTIVE[-1]
        return
    stop = threading.Event()

    def interrupt(signum: int, frame: Any) -> None:
        stop.set()
        raise KeyboardInterrupt

    old_term = signal.signal(signal.SIGTERM, interrupt)
    ctrl_c = signal.getsignal(signal.SIGINT) is signal.default_int_handler
    old_int = signal.signal(signal.SIGINT, interrupt) if ctrl_c else None
    _ACTIVE.append(stop)
    try:
        with sweep_workers.dropped_quietly(stop):
            yield stop
    finally:
        _ACTIVE.pop()
        signal.signal(signal.SIGTERM, old_term)
        if old_int is not None:
            signal.signal(signal.SIGINT, old_int)


def open_pool(
    kind: str, workers: int, scheduler: str | None
) -> tuple[cf.Executor | None, Callable[[], None]]:
    """The executor that runs chunks (None for ``serial``) and the function that closes it.

    Opened once and kept: a sweep submits every chunk to it, a search (:mod:`sim.search`)
    every batch's chunks. Connecting comes first, so an unreachable ``--scheduler`` fails
    before anything is written.
    """
    if kind == "serial":
        return None, lambda: None
    return _executor(kind, workers, scheduler)


def _executor(
    kind: str, workers: int, scheduler: str | None
) -> tuple[cf.Executor, Callable[[], None]]:
    if kind == "processes":
        sweep_workers.start()  # its imports run while the dataset is prepared
        # No max_tasks_per_child: on CPython 3.11 it deadlocks once workers retire
        # (gh-115634). Workers need no recycling: Fighter's weak-keyed ids stop Mesa's leak.
        pool = cf.ProcessPoolExecutor(
            max_workers=workers,
            mp_context=sweep_workers.context(),  # forked from a preloaded forkserver
            initializer=sweep_workers.init,
            initargs=(os.getpid(),),
        )
        return pool, lambda: pool.shutdown(wait=True, cancel_futures=True)
    if kind == "dask":
        try:
            from distributed import Client, LocalCluster
        except ImportError:
            raise SimError(
                "the dask executor needs the dask extra: pip install -e '.[dask]'"
            ) from None
        if scheduler:
            try:
                client = Client(scheduler, timeout=10)
            except (OSError, ValueError, TypeError) as err:
                text = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
                raise SimError(f"--scheduler {scheduler}: cannot reach it: {text}") from None
            cluster = None
        else:
            cluster = LocalCluster(
                n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None
            )
            client = Client(cluster)
        executor = client.get_executor()

        def close() -> None:
            executor.shutdown(wait=False)
            client.close()
            if cluster is not None:
                cluster.close()

        return executor, close
    raise SimError(f"unknown executor {kind!r}; one of {', '.join(EXECUTORS)}")


def sweep(
    exp: Experiment,
    out: str | os.PathLike[str],
    *,
    workers: int = 1,
    executor: str = "serial",
    scheduler: str | None = None,
    resume: bool = False,
    limit: int | None = None,
    progress: bool = True,
    force: bool = False,
    rebuild_manifest: bool = False,
) -> SweepResult:
    """Run the experiment (or its first ``limit`` runs) into the dataset at ``out``.

    The folder is locked meanwhile (:func:`sim.dataset.store.locked`). ``force`` resumes a
    dataset made by other code; ``rebuild_manifest`` (with ``resume``) writes a new
    manifest from the experiment and the whole chunks on disk.
    """
    root = Path(out)
    check_run_options(executor, workers, limit)
    with claimed(root, lambda: check_folder(exp, root, resume, rebuild_manifest)):
        return _locked_sweep(
            exp,
            root,
            workers,
            executor,
            scheduler,
            resume,
            limit,
            progress,
            force,
            rebuild_manifest,
        )


def check_run_options(executor: str, workers: int, limit: int | None = None) -> None:
    """Refuse an unknown executor, fewer than one worker, or a ``--limit`` below 1."""
    if executor not in EXECUTORS:
        raise SimError(f"unknown executor {executor!r}; one of {', '.join(EXECUTORS)}")
    if workers < 1:
        raise SimError(f"--workers must be 1 or more, got {workers}")
    if limit is not None and limit < 1:
        raise SimError(f"--limit must be 1 or more, got {limit}")


@contextlib.contextmanager
def claimed(root: Path, check: Callable[[], object]) -> Iterator[None]:
    """Hold the dataset folder ``root`` (made if need be, and locked) for the block.

    An existing folder is first shown to ``check``, which raises to refuse it (a link
    where sim's names belong, a lock or a manifest not sim's, a folder of other files;
    :func:`~sim.experiment.resume.check_folder`) and writes nothing. A folder made here
    is removed again if the block ends before a manifest was written, so a refused or
    failed start leaves nothing behind.
    """
    if root.exists() and not root.is_dir():
        raise SimError(f"{root}: is a file, not a folder; choose another --out")
    check()  # reads only: a folder this run may not write in is refused untouched
    try:
        root.mkdir(parents=True)
        created = True  # by this run: removed again if it ends before a manifest
    except FileExistsError:
        created = False
    except OSError as err:
        raise SimError(f"{root}: cannot make the folder: {err.strerror or err}") from None
    lock_made = not files.is_link(root / store.LOCK_NAME) and not (root / store.LOCK_NAME).exists()
    with store.locked(root):  # only the holder may remove what it made
        try:
            yield
        finally:
            if not (root / "manifest.json").exists():  # refused, or nothing was made
                if lock_made:
                    files.remove(root / store.LOCK_NAME, root)
                if created:
                    with contextlib.suppress(OSError):
                        root.rmdir()  # leave nothing behind


def _locked_sweep(
    exp: Experiment,
    root: Path,
    workers: int,
    executor: str,
    scheduler: str | None,
    resume: bool,
    limit: int | None,
    progress: bool,
    force: bool,
    rebuild: bool,
) -> SweepResult:
    pool, close = open_pool(executor, workers, scheduler)  # first: no manifest-only dataset
    try:
        manifest, done, notes = prepare(
            exp, root, resume, force=force, rebuild=rebuild, limit=limit
        )
        todo = [(cid, ids) for cid, ids in exp.chunks(limit) if not set(ids) <= done]
        selected = min(limit, exp.planned_runs) if limit else exp.planned_runs
        result = SweepResult(
            root,
            exp.planned_runs,
            selected,
            already=selected - sum(len(ids) for _, ids in todo),
            notes=notes,
            manifest=manifest,
        )
        bar = Progress(result.selected, result.already) if progress else None
        run_chunks(exp, root, pool, close, todo, result, bar)
    finally:
        close()
    return result


class _Ledger:
    """Books finished chunks into the result and lists their parts in the manifest.

    The manifest is written at most once a second, and at the end however the sweep ends
    (a finished chunk not yet listed runs again on resume).
    """

    def __init__(self, root: Path, result: SweepResult, bar: Any, close_bar: bool) -> None:
        self.root, self.result = root, result
        self.bar, self.close_bar = bar, close_bar
        self.start = self.last_save = time.monotonic()
        self.booked: set[int] = set()

    def book(self, r: ChunkResult) -> None:
        """Count chunk ``r`` and list its parts."""
        self.booked.add(r.chunk)
        self.result.done += r.runs
        self.result.failed += r.failed
        self.result.winners.update(r.winners)
        self.result.manifest["parts"].update(r.parts)
        if time.monotonic() - self.last_save >= 1.0:
            records.write_manifest(self.root, self.result.manifest)
            self.last_save = time.monotonic()
        if self.bar is not None:
            self.bar.update(r.runs)

    def finish(self, futures: list[cf.Future[ChunkResult]]) -> None:
        """Book the chunks that ended after an interrupt; write the manifest a last time."""
        for fut in futures:
            if fut.done() and not fut.cancelled() and fut.exception() is None:
                if fut.result().chunk not in self.booked:
                    self.book(fut.result())
        if self.booked:
            with contextlib.suppress(OSError):  # unlisted chunks run again on resume
                records.write_manifest(self.root, self.result.manifest)
        if self.bar is not None and self.close_bar:
            self.bar.close()
        self.result.seconds = time.monotonic() - self.start


def run_chunks(
    plan: RunPlan,
    root: Path,
    pool: cf.Executor | None,
    close: Callable[[], None],
    todo: list[tuple[int, range]],
    result: SweepResult,
    bar: Any = None,
    close_bar: bool = True,
) -> None:
    """Run the chunks ``todo`` of ``plan`` into ``root``, booking each into ``result``.

    ``pool`` runs them (None: here, in order); every finished chunk's parts are listed in
    ``result.manifest`` (written at most once a second, and at the end). SIGTERM and
    Ctrl-C stop it with what is done kept (``result.interrupted``; ``close`` shuts the
    pool). ``bar`` counts the runs done (``update(n)``), closed at the end if
    ``close_bar``.
    """
    ledger = _Ledger(root, result, bar, close_bar)
    futures: list[cf.Future[ChunkResult]] = []
    try:
        with interrupts() as stop:
            try:
                if pool is None:
                    for cid, ids in todo:
                        _unless(stop)
                        ledger.book(run_chunk(plan, str(root), cid, ids.start, ids.stop))
                else:
                    with sweep_workers.sigint_ignored():  # workers started now inherit it
                        futures = [
                            pool.submit(run_chunk, plan, str(root), cid, ids.start, ids.stop)
                            for cid, ids in todo
                        ]
                    for fut in cf.as_completed(futures):
                        _unless(stop)
                        ledger.book(fut.result())
            except KeyboardInterrupt:
                result.interrupted = True
                close()  # the chunks under way finish; the rest are cancelled
            except BrokenProcessPool:
                raise SimError(
                    "a worker process died (out of memory, or killed); the finished chunks "
                    "are kept: finish with --resume"
                ) from None
            except OSError as err:  # a full or read-only disk, a folder made unwritable
                raise SimError(
                    f"{err.filename or root}: cannot write: {err.strerror or err}; the "
                    "finished chunks are kept: finish with --resume"
                ) from None
    finally:
        ledger.finish(futures)


def _unless(stop: threading.Event) -> None:
    """Stop as Ctrl-C does if an interrupt came (even one Python dropped on the way)."""
    if stop.is_set():
        raise KeyboardInterrupt


def summary(exp: Experiment, r: SweepResult, executor: str, workers: int) -> str:
    """A short text summary of a sweep: what ran, and who won across the whole dataset."""
    rate = r.done / r.seconds if r.seconds > 0 else 0.0
    if r.done == 0 and not r.interrupted:
        head = f"{exp.name}: all {r.selected} runs were already done; nothing to run"
    else:
        head = (
            f"{exp.name}: {r.done} runs in {r.seconds:.1f} s ({rate:.0f} runs/s, "
            f"{executor}, {workers} worker{'s' if workers != 1 else ''}); "
            f"{r.failed} failed" + (f"; {r.already} already done" if r.already else "")
        )
    winners: Counter[str] = Counter()
    for part in store.listed_files(r.out, r.manifest.get("parts", {}), "runs"):
        cols = pq.read_table(part, columns=["winner", "error"]).to_pydict()
        for w, e in zip(cols["winner"], cols["error"], strict=True):
            winners["(error)" if e else (w or "(draw)")] += 1
    total = sum(winners.values())
    lines = [*r.notes, head]
    if r.interrupted:
        lines.append(
            f"interrupted: {total} of {r.selected} runs are in the dataset; finish with --resume"
        )
    if total:
        shares = ", ".join(f"{k} {100 * v / total:.1f}%" for k, v in winners.most_common())
        lines.append(f"winners: {shares}")
    lines.append(f"dataset: {r.out}/ ({total} of {r.planned} planned runs)")
    return "\n".join(lines)
