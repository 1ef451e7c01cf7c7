"""A sweep's progress: a bar on a terminal, plain lines otherwise."""

from __future__ import annotations

import sys
import time
from typing import Any


class Progress:
    """A progress bar (tqdm) on a terminal; otherwise a plain line every few seconds.

    A plain line's rate and ETA count from the first chunk done, so the workers' start
    (seconds of imports, before any run ends) does not make the ETA of a short sweep read
    minutes; the first line says how long the first chunk took, the last the sweep's rate.
    The bar likewise: a bar of the start-up until the first chunk is done, then the bar
    of the runs, whose rate and ETA count from there.
    """

    def __init__(self, total: int, initial: int, stream: Any = None) -> None:
        self.stream = stream or sys.stderr
        self.total, self.count, self.start = total, initial, time.monotonic()
        self.first = initial
        self.since: tuple[float, int] | None = None  # (time, count) of the first update
        self.last_line = 0.0
        self.bar = None
        if getattr(self.stream, "isatty", lambda: False)():
            self.bar = self._bar(initial, "starting", leave=False)

    def _bar(self, initial: int, desc: str | None = None, leave: bool = True) -> Any:
        from tqdm import tqdm

        return tqdm(
            total=self.total,
            initial=initial,
            desc=desc,
            unit="run",
            file=self.stream,
            smoothing=0.1,
            dynamic_ncols=True,
            leave=leave,
        )

    def update(self, n: int) -> None:
        """Count ``n`` more runs done."""
        self.count += n
        now = time.monotonic()
        if self.bar is not None:
            if self.since is None:  # the first chunk: the workers have started
                self.since = (now, self.count)
                self.bar.close()
                self.bar = self._bar(self.count)
            else:
                self.bar.update(n)
            return
        share = 100 * self.count / max(self.total, 1)
        done = f"progress: {self.count}/{self.total} runs ({share:.0f}%)"
        if self.count >= self.total:  # the last line: the whole sweep's rate
            rate = (self.count - self.first) / max(now - self.start, 1e-9)
            print(f"{done}, {rate:.0f} runs/s, ETA 0s", file=self.stream, flush=True)
            return
        if self.since is None:
            self.since = (now, self.count)
            self.last_line = now
            print(
                f"{done}, first chunk done in {now - self.start:.1f}s", file=self.stream, flush=True
            )
            return
        if now - self.last_line >= 5:
            self.last_line = now
            then, counted = self.since
            rate = (self.count - counted) / max(now - then, 1e-9)
            left = (self.total - self.count) / rate if rate > 0 else float("inf")
            eta = f"{left:.0f}s" if left != float("inf") else "?"
            print(f"{done}, {rate:.0f} runs/s, ETA {eta}", file=self.stream, flush=True)

    def close(self) -> None:
        """Finish the bar."""
        if self.bar is not None:
            self.bar.close()
