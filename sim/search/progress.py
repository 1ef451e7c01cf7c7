"""A search's progress: battles fought against its budget, and the estimate as it narrows.

On a terminal, a bar (tqdm) over the budget whose right end shows the current estimate and
its interval; otherwise one plain line on stderr after each batch::

    search: batch 3, 1,690 of at most 20,000 battles: crossing 0.508 [0.462-0.554], ...
"""

from __future__ import annotations

import sys
import time
from typing import Any

EVERY = 5.0
"""Seconds between plain progress lines (the last batch's always shows)."""


class SearchProgress:
    """Counts battles (``update``, per chunk) and shows the estimate (``batch``, per batch)."""

    def __init__(self, budget: int, done: int, stream: Any = None) -> None:
        self.stream = stream or sys.stderr
        self.budget, self.done = budget, done
        self.bar = None
        self.last = 0.0
        self.pending = ""
        if getattr(self.stream, "isatty", lambda: False)():
            from tqdm import tqdm

            self.bar = tqdm(
                total=budget, initial=done, unit="battle", file=self.stream, dynamic_ncols=True
            )

    def update(self, n: int) -> None:
        """Count ``n`` more battles."""
        self.done += n
        if self.bar is not None:
            self.bar.update(n)

    def batch(self, index: int, spent: int, estimate: str) -> None:
        """Show where the search stands after batch ``index`` (``spent`` battles in all)."""
        if self.bar is not None:
            self.bar.set_postfix_str(estimate, refresh=True)
            return
        line = f"search: batch {index}, {spent:,} of at most {self.budget:,} battles: {estimate}"
        now = time.monotonic()
        if self.last and now - self.last < EVERY:
            self.pending = line  # shown at the next line's time, or at the end
            return
        self.last, self.pending = now, ""
        print(line, file=self.stream, flush=True)

    def close(self) -> None:
        """Finish the bar, or show the last batch's line if it was held back."""
        if self.bar is not None:
            self.bar.close()
        elif self.pending:
            print(self.pending, file=self.stream, flush=True)
