"""Sweeps: run an experiment's battles on an executor and stream them into a dataset.

Runs go out in chunks (a few hundred battles each, so tiny battles do not pay per-task
overhead). Each chunk writes its own Parquet parts, every one atomically, the ``runs`` part
last: a chunk whose ``runs`` part holds all its run ids is done. That makes a sweep
resumable after Ctrl-C, a crash or SIGKILL, and the resumed dataset equal to an
uninterrupted one (same run ids, same seeds, same rows).

Executors: ``serial`` (in this process), ``processes`` (a process pool; workers are not
recycled, as the Mesa id leak is worked around in :class:`sim.agents.Fighter`), and
``dask`` (``distributed``'s ``concurrent.futures`` executor, on a local cluster or the
scheduler at ``--scheduler``).
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import os
import sys
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq

from sim import records
from sim.errors import SimError
from sim.experiment import Experiment

EXECUTORS = ("serial", "processes", "dask")


@dataclass(frozen=True, slots=True)
class ChunkResult:
    """What one chunk did: how many runs, how many failed, and who won them."""

    chunk: int
    runs: int
    failed: int
    winners: dict[str, int]


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


def run_chunk(exp: Experiment, out: str, chunk: int, start: int, stop: int) -> ChunkResult:
    """Fight runs ``start..stop-1`` and write the chunk's parts; a failing run is a row."""
    from sim.run import fight, run_rows
    from sim.scenario import parse_scenario

    scenarios: dict[int, Any] = {}
    rows: dict[str, list[dict[str, Any]]] = {t: [] for t in records.TABLES}
    failed = 0
    winners: Counter[str] = Counter()
    events = "events" in exp.tables
    fields = exp.param_fields()
    values: dict[int, dict[str, Any]] = {}  # a point's parameter columns (rows copy them)
    for run_id in range(start, stop):
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
    root = Path(out)
    part = f"{chunk:06d}"
    for table in exp.tables:
        if table != "runs":
            records.write_part(root, table, rows[table], part)
    records.write_part(root, "runs", rows["runs"], part, fields)  # last: the chunk is done
    return ChunkResult(chunk, stop - start, failed, dict(winners))


def done_run_ids(out: Path) -> set[int]:
    """Run ids already in the dataset's ``runs`` parts."""
    ids: set[int] = set()
    for part in sorted((out / "runs").glob("part-*.parquet")):
        ids.update(pq.read_table(part, columns=["run_id"]).column("run_id").to_pylist())
    return ids


def prepare(exp: Experiment, out: Path, resume: bool) -> set[int]:
    """Check or write the manifest; return the run ids already done (resume)."""
    from sim.scenario import parse_scenario

    manifest = out / "manifest.json"
    if manifest.exists():
        m = records.read_manifest(out)
        if m.get("fingerprint") != exp.fingerprint():
            raise SimError(
                f"{out}: holds a dataset of experiment {m.get('experiment_name')!r} "
                f"(fingerprint {m.get('fingerprint')}), not this one ({exp.name!r}, "
                f"{exp.fingerprint()}): the experiment, scenario or overrides differ; "
                "choose another --out"
            )
        done = done_run_ids(out)
        if not resume and len(done) < exp.planned_runs:
            raise SimError(
                f"{out}: already holds this experiment's dataset, unfinished ({len(done)} of "
                f"{exp.planned_runs} runs); use --resume to finish it, or choose another --out"
            )
        return done
    if out.exists() and any(out.iterdir()):
        raise SimError(f"{out}: exists and is not a dataset; choose another --out")
    base = parse_scenario(exp.scenario_text, exp.scenario_path, exp.overrides)
    made = records.manifest(
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
    records.write_manifest(out, made)
    return set()


class Progress:
    """A progress bar (tqdm) on a terminal; otherwise a plain line every few seconds."""

    def __init__(self, total: int, initial: int, stream: Any = None) -> None:
        self.stream = stream or sys.stderr
        self.total, self.count, self.start = total, initial, time.monotonic()
        self.first = initial
        self.last_line = 0.0
        self.bar = None
        if getattr(self.stream, "isatty", lambda: False)():
            from tqdm import tqdm

            self.bar = tqdm(
                total=total,
                initial=initial,
                unit="run",
                file=self.stream,
                smoothing=0.1,
                dynamic_ncols=True,
            )

    def update(self, n: int) -> None:
        """Count ``n`` more runs done."""
        self.count += n
        if self.bar is not None:
            self.bar.update(n)
            return
        now = time.monotonic()
        if now - self.last_line >= 5 or self.count >= self.total:
            self.last_line = now
            rate = (self.count - self.first) / max(now - self.start, 1e-9)
            left = (self.total - self.count) / rate if rate > 0 else float("inf")
            eta = f"{left:.0f}s" if left != float("inf") else "?"
            print(
                f"progress: {self.count}/{self.total} runs "
                f"({100 * self.count / max(self.total, 1):.0f}%), {rate:.0f} runs/s, "
                f"ETA {eta}",
                file=self.stream,
                flush=True,
            )

    def close(self) -> None:
        """Finish the bar."""
        if self.bar is not None:
            self.bar.close()


@contextlib.contextmanager
def _sigint_ignored() -> Iterator[None]:
    """Ignore Ctrl-C in this (main) thread for the block.

    A process started meanwhile inherits the ignored SIGINT, so Python in it never turns
    Ctrl-C into a KeyboardInterrupt, not even while it is still starting up.
    """
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)


def _ignore_sigint() -> None:
    """Pool workers leave Ctrl-C to the parent, which stops the sweep cleanly."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _executor(
    kind: str, workers: int, scheduler: str | None
) -> tuple[cf.Executor, Callable[[], None]]:
    if kind == "processes":
        import multiprocessing as mp

        # No max_tasks_per_child: on CPython 3.11 it deadlocks once workers retire
        # (gh-115634). Workers need no recycling: Fighter's weak-keyed ids stop Mesa's leak.
        pool = cf.ProcessPoolExecutor(
            max_workers=workers, mp_context=mp.get_context("spawn"), initializer=_ignore_sigint
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
            client = Client(scheduler)
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
) -> SweepResult:
    """Run the experiment (or its first ``limit`` runs) into the dataset at ``out``."""
    root = Path(out)
    if executor not in EXECUTORS:
        raise SimError(f"unknown executor {executor!r}; one of {', '.join(EXECUTORS)}")
    if workers < 1:
        raise SimError(f"--workers must be 1 or more, got {workers}")
    if limit is not None and limit < 1:
        raise SimError(f"--limit must be 1 or more, got {limit}")
    done = prepare(exp, root, resume)
    todo = [(cid, ids) for cid, ids in exp.chunks(limit) if not set(ids) <= done]
    selected = min(limit, exp.planned_runs) if limit else exp.planned_runs
    result = SweepResult(
        root, exp.planned_runs, selected, already=selected - sum(len(ids) for _, ids in todo)
    )
    bar = Progress(selected, result.already) if progress else None
    start = time.monotonic()

    def book(r: ChunkResult) -> None:
        result.done += r.runs
        result.failed += r.failed
        result.winners.update(r.winners)
        if bar is not None:
            bar.update(r.runs)

    try:
        if executor == "serial":
            for cid, ids in todo:
                book(run_chunk(exp, str(root), cid, ids.start, ids.stop))
        else:
            pool, close = _executor(executor, workers, scheduler)
            try:
                with _sigint_ignored():  # workers spawned now inherit it: no tracebacks
                    futures = [
                        pool.submit(run_chunk, exp, str(root), cid, ids.start, ids.stop)
                        for cid, ids in todo
                    ]
                for fut in cf.as_completed(futures):
                    book(fut.result())
            finally:
                close()
    except KeyboardInterrupt:
        result.interrupted = True
    finally:
        if bar is not None:
            bar.close()
        result.seconds = time.monotonic() - start
    return result


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
    for part in sorted((r.out / "runs").glob("part-*.parquet")):
        cols = pq.read_table(part, columns=["winner", "error"]).to_pydict()
        for w, e in zip(cols["winner"], cols["error"], strict=True):
            winners["(error)" if e else (w or "(draw)")] += 1
    total = sum(winners.values())
    lines = [head]
    if r.interrupted:
        lines.append(
            f"interrupted: {total} of {r.selected} runs are in the dataset; finish with --resume"
        )
    if total:
        shares = ", ".join(f"{k} {100 * v / total:.1f}%" for k, v in winners.most_common())
        lines.append(f"winners: {shares}")
    lines.append(f"dataset: {r.out}/ ({total} of {r.planned} planned runs)")
    return "\n".join(lines)
