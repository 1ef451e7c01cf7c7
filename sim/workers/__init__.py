"""A sweep's worker processes: how they start, and that they die with their sweep.

Before its first battle a worker needs Mesa (and through it pandas, scipy and networkx),
pyarrow and the battle code: about 1.6 s of imports on this project's machine. A spawned
worker imports all of it again, each worker on its own, after the sweep has done its own
imports. Here workers come from a forkserver (the ``forkserver`` start method of
:mod:`multiprocessing`) preloaded with those modules (``set_forkserver_preload``): each worker
is a fork of a process that has imported them once. :func:`start` starts the server early
(``sim sweep`` calls it before it reads the experiment), so that its imports run beside the
sweep's own start instead of after it; in one Python process the server serves every later
sweep too.

Forking a process that runs threads can copy a lock another thread holds; so the server is
a fresh process that runs no thread of ours, and whose libraries start none
(:mod:`sim.workers.server`, imported first: one BLAS thread, no jemalloc background thread).
Its forks inherit none of the sweep's threads, locks or open files (forking the sweep itself
would pass on its threads' locks and its dataset's lock file). Where there is no forkserver
(Windows), workers are spawned.

A worker ignores Ctrl-C and SIGTERM (its sweep handles them), refuses to run if the server
imported another ``sim`` than the sweep's (:func:`check_same_code`), and ends itself, before
its next run or part, once its sweep has died, even by SIGKILL (:func:`init`,
:func:`stop_if_orphaned`).

May import: nothing of ``sim`` (the modules it preloads are named, not imported).
"""

from __future__ import annotations

import contextlib
import multiprocessing as mp
import os
import select
import signal
import sys
import threading
from collections.abc import Iterator
from multiprocessing.context import BaseContext
from pathlib import Path

PRELOAD = ("sim.workers.server", "sim.experiment.runner", "sim.run.core", "sim.battle.battle")
"""What the forkserver imports, in order: its settings, then what a worker needs."""
CODE = str(Path(__file__).resolve().parents[1])
"""The ``sim`` package this process runs (a worker must run the same)."""


def context() -> BaseContext:
    """The multiprocessing context sweeps start workers with: the preloaded forkserver."""
    if "forkserver" not in mp.get_all_start_methods():
        return mp.get_context("spawn")
    ctx = mp.get_context("forkserver")
    ctx.set_forkserver_preload(list(PRELOAD))
    return ctx


def start() -> None:
    """Start the forkserver now (it imports :data:`PRELOAD` meanwhile); no-op if running.

    It is started with Ctrl-C ignored, so that the workers it forks ignore it from their
    first instruction (a Ctrl-C while they start prints no traceback).
    """
    if context().get_start_method() != "forkserver":
        return
    from multiprocessing import forkserver

    with sigint_ignored():
        forkserver.ensure_running()


@contextlib.contextmanager
def sigint_ignored() -> Iterator[None]:
    """Ignore Ctrl-C in this (main) thread for the block.

    A process started meanwhile inherits the ignored SIGINT, so Python in it never turns
    Ctrl-C into a KeyboardInterrupt, not even while it is still starting up.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)


_SWEEP: int | None = None
"""In a worker: the process id of the sweep it works for."""
_SWEEP_FD: int | None = None
"""In a worker on Linux: a pidfd of that sweep, readable once the sweep has ended."""
_CHILD = False
"""In a worker: True if the sweep is its parent (a spawned worker), not a forkserver."""


def _sweep_ended() -> bool:
    if _SWEEP is None:
        return False
    if _SWEEP_FD is not None:
        return bool(select.select([_SWEEP_FD], [], [], 0)[0])
    if _CHILD:  # given to another parent once the sweep has ended
        return os.getppid() != _SWEEP
    try:
        os.kill(_SWEEP, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False


def stop_if_orphaned() -> None:
    """End this worker at once if its sweep has ended (before another run or part)."""
    if _sweep_ended():
        os._exit(70)


def _watch() -> None:
    """Wait for the sweep to end (on its pidfd, or a look every 0.2 s), then end this worker."""
    while True:
        if _SWEEP_FD is not None:
            select.select([_SWEEP_FD], [], [])
        else:
            threading.Event().wait(0.2)
        stop_if_orphaned()


def check_same_code(code: str) -> None:
    """Refuse to work for a sweep that runs ``sim`` from another folder than this process.

    The forkserver finds ``sim`` on the path a fresh interpreter has, which a program that
    changed its ``sys.path`` may not share: its workers would run other code.
    """
    if code != CODE:
        raise RuntimeError(
            f"this sweep worker imports sim from {CODE}, the sweep from {code}: a forkserver "
            "started by another program, or a changed sys.path; install sim or set PYTHONPATH"
        )


def init(sweep: int, code: str = CODE) -> None:
    """A worker of the sweep with process id ``sweep``: leave signals to it, die with it.

    On Linux the worker holds a pidfd of the sweep and a thread waits on it; a spawned
    worker (the sweep its parent) is also killed by the kernel as the sweep dies
    (``PR_SET_PDEATHSIG``). Elsewhere a thread looks at the sweep every 0.2 s. The worker
    also looks before every run and every part it writes. ``code`` is the ``sim`` folder of
    the sweep (:data:`CODE`).
    """
    global _SWEEP, _SWEEP_FD, _CHILD
    check_same_code(code)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    _SWEEP, _CHILD = sweep, os.getppid() == sweep
    with contextlib.suppress(OSError, AttributeError):
        _SWEEP_FD = os.pidfd_open(sweep)
    if _CHILD and sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            import ctypes

            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    stop_if_orphaned()  # the sweep ended before the lines above
    threading.Thread(target=_watch, name="sim-sweep-watch", daemon=True).start()
