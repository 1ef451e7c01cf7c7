"""A sweep's worker processes: how they start, and that they die with their sweep.

Before its first battle a worker needs Mesa (and through it pandas, scipy and networkx),
pyarrow and the battle code: about 1.6 s of imports on this project's machine, 0.35 s of it
``sim``'s own. A spawned worker imports all of it again, each worker on its own, after the
sweep has done its own imports. Here workers come from a forkserver (the ``forkserver``
start method of :mod:`multiprocessing`) preloaded with the libraries
(``set_forkserver_preload``): each worker is a fork of a process that has imported them
once, and imports only ``sim`` itself. :func:`start` starts the server early (``sim sweep``
calls it before it reads the experiment), so that its imports run beside the sweep's own
start instead of after it; in one Python process the server serves every later sweep too.

``sim`` is not preloaded: the server finds modules on the path of a fresh interpreter in
the sweep's folder, which may hold another ``sim`` than the sweep's (a clone, with ``sim``
installed from elsewhere); a worker imports ``sim`` on the sweep's own path, as a spawned one
does, so it always runs the sweep's code.

Forking a process that runs threads can copy a lock another thread holds, so the server
runs none: it is a fresh process that runs no thread of ours, started with one OpenBLAS
thread and no jemalloc background thread (:data:`QUIET`, set for its start only), so its
libraries start none either. Its forks inherit none of the sweep's threads, locks or open
files (forking the sweep itself would pass on its threads' locks and its dataset's lock
file). Where there is no forkserver (Windows), workers are spawned.

A worker ignores Ctrl-C and SIGTERM (its sweep handles them) and ends itself, before its
next run or part, once its sweep has died, even by SIGKILL (:func:`init`,
:func:`stop_if_orphaned`).

May import: nothing of ``sim``.
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
from typing import Any

PRELOAD = ("numpy", "pandas", "pyarrow.parquet", "pyarrow.dataset", "yaml", "mesa")
"""The libraries a worker needs before its first battle, imported once by the forkserver."""
QUIET = {"OPENBLAS_NUM_THREADS": "1", "JE_ARROW_MALLOC_CONF": "background_thread:false"}
"""The forkserver's environment beyond the sweep's (unless the sweep sets them): numpy's and
SciPy's OpenBLAS start no thread pool, pyarrow's jemalloc no background thread. Its workers
inherit them: one BLAS thread each, which a worker fighting scalar battles never misses."""


def context() -> BaseContext:
    """The multiprocessing context sweeps start workers with: the preloaded forkserver."""
    if "forkserver" not in mp.get_all_start_methods():
        return mp.get_context("spawn")
    ctx = mp.get_context("forkserver")
    ctx.set_forkserver_preload(list(PRELOAD))
    return ctx


def start() -> None:
    """Start the forkserver now, if it is not running: it imports :data:`PRELOAD` meanwhile.

    It is started with :data:`QUIET` in its environment (this process's is as it was after),
    and with Ctrl-C ignored, so that the workers it forks ignore it from their first
    instruction (a Ctrl-C while they start prints no traceback).
    """
    if context().get_start_method() != "forkserver":
        return
    from multiprocessing import forkserver

    added = [k for k in QUIET if k not in os.environ]
    os.environ.update({k: QUIET[k] for k in added})
    try:
        with sigint_ignored():
            forkserver.ensure_running()
    finally:
        for k in added:
            os.environ.pop(k, None)


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


@contextlib.contextmanager
def dropped_quietly(noted: threading.Event) -> Iterator[None]:
    """A Ctrl-C that Python drops (raised in a weak reference's callback) prints no traceback.

    Python reports such an error as "Exception ignored in ..." with its traceback; once
    ``noted`` is set (the Ctrl-C was seen, and the block stops for it all the same), a
    dropped KeyboardInterrupt is not reported. Any other dropped error is, as before.
    """
    hook = sys.unraisablehook

    def report(unraisable: Any) -> None:
        if not (isinstance(unraisable.exc_value, KeyboardInterrupt) and noted.is_set()):
            hook(unraisable)

    sys.unraisablehook = report
    try:
        yield
    finally:
        sys.unraisablehook = hook


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


def init(sweep: int) -> None:
    """A worker of the sweep with process id ``sweep``: leave signals to it, die with it.

    On Linux the worker holds a pidfd of the sweep and a thread waits on it; a spawned
    worker (the sweep its parent) is also killed by the kernel as the sweep dies
    (``PR_SET_PDEATHSIG``). Elsewhere a thread looks at the sweep every 0.2 s. The worker
    also looks before every run and every part it writes.
    """
    global _SWEEP, _SWEEP_FD, _CHILD
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
