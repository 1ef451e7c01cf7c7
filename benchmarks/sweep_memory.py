"""Memory of a long sweep: does the parent process stay flat as the runs pile up? (not a test)

Runs the quick-start experiment's scenario and design (experiments/quickstart.yaml) with
enough replicates for N runs, from an experiment file generated in a temporary directory,
through ``sim.experiment.runner.sweep`` on the process pool (2 workers, no progress
bar). A background
thread samples the parent's RSS (VmRSS) and peak RSS (VmHWM) from /proc/self/status every
second, with the runs done so far (the finished chunks' ``runs`` parts). Prints runs, seconds,
runs/s, the parent's peak RSS, its RSS at 10%, 50% and 100% of the runs, and the dataset's
size on disk; ``--children`` adds the worker processes' RSS (children found through
/proc/self/task/*/children, or by PPid). Linux only (/proc). The dataset is deleted at the
end unless ``--keep DIR`` is given.

Chunks default to the experiment's own choice (500 runs once N > 32,000). A watchdog
reports a sweep that makes no progress for 15 s with no worker alive as STALLED (exit code
3) instead of waiting forever (it caught CPython gh-115634, since worked around in
sim.experiment.runner).

Run: python benchmarks/sweep_memory.py [N] [--children] [--chunk K] [--workers W] [--keep DIR]
     (N runs, default 200,000; about 7 minutes at 500 runs/s on 2 cores)
"""

from __future__ import annotations

import argparse
import math
import os
import shutil
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from sim.experiment import load_experiment
from sim.experiment.runner import sweep

ROOT = Path(__file__).resolve().parents[1]
QUICKSTART = ROOT / "experiments" / "quickstart.yaml"
MB = 1024 * 1024


def status_kb(pid: int | str, keys: tuple[str, ...] = ("VmRSS", "VmHWM")) -> dict[str, int]:
    """The given /proc/PID/status fields in kB (missing ones, e.g. of a zombie, left out)."""
    out: dict[str, int] = {}
    try:
        with open(f"/proc/{pid}/status", encoding="ascii", errors="replace") as f:
            for line in f:
                key, _, rest = line.partition(":")
                if key in keys:
                    out[key] = int(rest.split()[0])
    except (OSError, ValueError, IndexError):
        pass
    return out


def child_pids() -> set[int]:
    """This process's children: from /proc/self/task/*/children, else by scanning PPid."""
    pids: set[int] = set()
    found = False
    for task in Path("/proc/self/task").iterdir():
        try:
            text = (task / "children").read_text()
        except OSError:
            continue
        found = True
        pids.update(int(p) for p in text.split())
    if found:
        return pids
    me = str(os.getpid())
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/status", encoding="ascii", errors="replace") as f:
                    for line in f:
                        if line.startswith("PPid:"):
                            if line.split()[1] == me:
                                pids.add(int(name))
                            break
            except OSError:
                continue
    return pids


def is_worker(pid: int) -> bool:
    """A pool worker, not multiprocessing's resource tracker."""
    try:
        cmd = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False
    return b"resource_tracker" not in cmd


@dataclass
class Sample:
    """One sample: seconds since the start, runs done, parent RSS and peak, worker RSS."""

    t: float
    runs: int
    rss_kb: int
    hwm_kb: int
    workers: int = 0
    workers_kb: int = 0
    worker_max_kb: int = 0


@dataclass
class Sampler:
    """Samples every ``interval`` seconds on a daemon thread until stopped.

    The thread is also a watchdog: no new chunk for ``idle`` seconds with no worker alive
    (or for ``stall`` seconds in any case) calls ``on_stall`` once.
    """

    out: Path
    chunk: int
    total: int
    children: bool
    interval: float = 1.0
    idle: float = 15.0
    stall: float = 600.0
    on_stall: Callable[[], None] | None = None
    samples: list[Sample] = field(default_factory=list)
    worker_pids: set[int] = field(default_factory=set)
    live_workers: set[int] = field(default_factory=set)
    worker_peak_kb: int = 0  # the highest VmHWM seen in any worker
    start: float = field(default_factory=time.monotonic)
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    def runs_done(self) -> int:
        """Runs in the finished chunks (their ``runs`` parts are written last)."""
        runs = self.out / "runs"
        if not runs.is_dir():
            return 0
        parts = sum(1 for n in os.listdir(runs) if n.startswith("part-") and n.endswith(".parquet"))
        return min(parts * self.chunk, self.total)

    def sample(self) -> Sample:
        """Take one sample (the workers are always looked up, for the watchdog)."""
        me = status_kb("self")
        s = Sample(time.monotonic() - self.start, self.runs_done(), me.get("VmRSS", 0), me["VmHWM"])
        self.live_workers = set()
        for pid in child_pids():
            if not is_worker(pid):
                continue
            st = status_kb(pid)
            if "VmRSS" not in st:
                continue
            self.live_workers.add(pid)
            self.worker_pids.add(pid)
            self.worker_peak_kb = max(self.worker_peak_kb, st.get("VmHWM", 0))
            s.workers += 1
            s.workers_kb += st["VmRSS"]
            s.worker_max_kb = max(s.worker_max_kb, st["VmRSS"])
        self.samples.append(s)
        return s

    def _loop(self) -> None:
        last_runs, last_change, no_worker_since = -1, time.monotonic(), None
        while not self._stop.wait(self.interval):
            s = self.sample()
            now = time.monotonic()
            if s.runs != last_runs:
                last_runs, last_change = s.runs, now
            if s.workers or s.runs >= self.total:
                no_worker_since = None
            elif no_worker_since is None:
                no_worker_since = now
            idle = 0.0 if no_worker_since is None else now - max(no_worker_since, last_change)
            if idle >= self.idle or now - last_change >= self.stall:
                if self.on_stall is not None:
                    self.on_stall()
                return

    def __enter__(self) -> Sampler:
        self.start = time.monotonic()
        self.sample()
        self._thread = threading.Thread(target=self._loop, name="rss-sampler", daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()

    def at(self, share: float) -> Sample:
        """The first sample with at least ``share`` of the runs done (else the last)."""
        want = math.ceil(share * self.total)
        return next((s for s in self.samples if s.runs >= want), self.samples[-1])


def experiment_text(n: int, chunk: int | None) -> str:
    """The quick-start experiment, its scenario made absolute, with replicates for n runs."""
    doc = yaml.safe_load(QUICKSTART.read_text(encoding="utf-8"))
    points = math.prod(len(v) for v in doc["parameters"].values())
    doc["name"] = "sweep_memory"
    doc["description"] = f"{n} runs of the quick-start experiment (benchmarks/sweep_memory.py)"
    doc["scenario"] = str((QUICKSTART.parent / doc["scenario"]).resolve())
    doc["replicates"] = math.ceil(n / points)
    if chunk:
        doc["chunk"] = chunk
    return yaml.safe_dump(doc, sort_keys=False)


def disk_mb(root: Path) -> float:
    """Bytes of every file under ``root``, in MB."""
    return sum(p.stat().st_size for p in root.rglob("*") if p.is_file()) / MB


def mb(kb: int) -> str:
    """kB as MB, one decimal."""
    return f"{kb / 1024:.1f}"


def report(
    sampler: Sampler, final: Sample, done: int, failed: int, seconds: float, size: float
) -> None:
    """Print the figures."""
    rate = done / seconds if seconds > 0 else 0.0
    s10, s50 = sampler.at(0.10), sampler.at(0.50)
    print(f"runs done          {done} ({failed} failed)")
    print(f"seconds            {seconds:.1f}")
    print(f"runs/s             {rate:.1f}")
    print(f"parent RSS start   {mb(sampler.samples[0].rss_kb)} MB")
    print(f"parent peak RSS    {mb(final.hwm_kb)} MB (VmHWM)")
    print(
        f"parent RSS at 10% / 50% / 100%   {mb(s10.rss_kb)} / {mb(s50.rss_kb)} / "
        f"{mb(final.rss_kb)} MB  (samples at {s10.runs}, {s50.runs}, {final.runs} runs)"
    )
    print(f"dataset on disk    {size:.1f} MB ({1e6 * size / max(done, 1):.0f} bytes/run)")
    print(f"samples            {len(sampler.samples)} (every {sampler.interval:g} s)")
    if sampler.children:
        live = [s for s in sampler.samples if s.workers]
        if live:
            print(
                f"workers            {len(sampler.worker_pids)} distinct pids seen; "
                f"peak RSS of one worker "
                f"{mb(max(s.worker_max_kb for s in live))} MB (VmHWM "
                f"{mb(sampler.worker_peak_kb)} MB), peak total "
                f"{mb(max(s.workers_kb for s in live))} MB, total at 50% "
                f"{mb(sampler.at(0.50).workers_kb)} MB"
            )
        else:
            print("workers            none seen")
    sys.stdout.flush()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("n", nargs="?", type=int, default=200_000, help="runs (default 200000)")
    ap.add_argument("--children", action="store_true", help="also report the workers' RSS")
    ap.add_argument("--workers", type=int, default=2, help="pool workers (default 2)")
    ap.add_argument("--chunk", type=int, help="runs per chunk (default: the experiment's)")
    ap.add_argument("--keep", metavar="DIR", help="write the dataset to DIR and keep it")
    args = ap.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="sweep_memory_"))
    exp_file = tmp / "sweep_memory.yaml"
    exp_file.write_text(experiment_text(args.n, args.chunk), encoding="utf-8")
    exp = load_experiment(exp_file)
    out = Path(args.keep) if args.keep else tmp / "dataset"
    n = min(args.n, exp.planned_runs)
    chunks = math.ceil(n / exp.chunk)
    print(
        f"sweep_memory: {n} runs of {QUICKSTART.name}'s scenario, {len(exp.points)} points, "
        f"{chunks} chunks of {exp.chunk}, tables {', '.join(exp.tables)}, "
        f"processes x {args.workers}",
        flush=True,
    )

    def stalled() -> None:
        final = sampler.sample()
        done = final.runs
        print(
            f"STALLED: no chunk finished for {sampler.idle:g}+ s and no worker alive "
            f"(or none for {sampler.stall:g} s) after {done} of {n} runs "
            f"({math.ceil(done / exp.chunk)} chunks); the process pool stopped replacing "
            "retired workers (CPython gh-115634)",
            flush=True,
        )
        report(sampler, final, done, 0, final.t, disk_mb(out))
        for pid in sampler.live_workers:  # our own pool workers, if any are left
            try:
                os.kill(pid, signal.SIGTERM)
            except OSError:
                pass
        shutil.rmtree(tmp, ignore_errors=True)
        os._exit(3)

    sampler = Sampler(out, exp.chunk, n, args.children, on_stall=stalled)
    try:
        with sampler:
            result = sweep(
                exp, out, workers=args.workers, executor="processes", limit=n, progress=False
            )
        final = sampler.sample()
        final.runs = result.done
        size = disk_mb(out)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    report(sampler, final, result.done, result.failed, result.seconds, size)
    if args.keep:
        print(f"dataset kept at    {out}")


if __name__ == "__main__":
    main()
