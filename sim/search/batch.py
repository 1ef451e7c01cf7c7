"""A search's batch as the experiment runner fights it: numbered runs, their points and seeds.

Runs are numbered across the whole search: batch ``b``'s runs follow batch ``b - 1``'s, and
its chunks (the Parquet parts) follow that batch's chunks. Within a batch, point ``i``'s
runs come together, ``replicates[i]`` of them. A run's seed is the child of the master
seed for its run number (``SeedSequence(master, spawn_key=(run_id,))``, as in a sweep), or,
in a batch with shared seeds, of its replicate number within the batch
(``spawn_key=(SHARED, batch, r)``), so replicate ``r`` of every point meets the same dice.
Neither depends on the workers, the order runs finish in, or a resume.
"""

from __future__ import annotations

import bisect
import math
from dataclasses import dataclass
from itertools import accumulate
from typing import Any

import numpy as np
import pyarrow as pa

SHARED = 0x53484152
"""The first word of a shared seed's spawn key (it has three words; a run's has one)."""
CHUNKS = 8
"""A batch is cut into this many chunks (fewer if small), whatever the workers."""
MIN_CHUNK = 10
"""The fewest runs in a chunk (unless the batch is smaller)."""


@dataclass(frozen=True, slots=True)
class Batch:
    """One batch's runs (a :class:`sim.experiment.runner.RunPlan`)."""

    scenario_text: str
    scenario_path: str
    tables: tuple[str, ...]
    master: int
    index: int
    first_run: int
    first_chunk: int
    chunk: int
    replicates: tuple[int, ...]
    overrides: tuple[tuple[str, ...], ...]
    values: tuple[dict[str, Any], ...]
    fields: tuple[pa.Field, ...]
    shared: bool = False

    @property
    def runs(self) -> int:
        """The batch's runs."""
        return sum(self.replicates)

    @property
    def stop(self) -> int:
        """The run id after the batch's last."""
        return self.first_run + self.runs

    def _starts(self) -> list[int]:
        return [self.first_run + s for s in accumulate(self.replicates, initial=0)]

    def point_of(self, run_id: int) -> int:
        """The batch's point (its index in this batch) that run ``run_id`` fights."""
        return bisect.bisect_right(self._starts(), run_id) - 1

    def replicate_of(self, run_id: int) -> int:
        """Run ``run_id``'s replicate number at its point."""
        return run_id - self._starts()[self.point_of(run_id)]

    def run_seed(self, run_id: int) -> int:
        """The seed of run ``run_id`` (see the module's docstring)."""
        key = (SHARED, self.index, self.replicate_of(run_id)) if self.shared else (run_id,)
        child = np.random.SeedSequence(self.master, spawn_key=key)
        return int(child.generate_state(1, dtype=np.uint64)[0])

    def param_values(self, point: int, fields: Any = None) -> dict[str, Any]:
        """The ``runs`` columns of the point's rows: parameters, batch, point, the design's."""
        return dict(self.values[point])

    def param_fields(self) -> list[pa.Field]:
        """The Arrow fields of those columns (the same in every batch of the search)."""
        return list(self.fields)

    def point_overrides(self, point: int) -> list[str]:
        """The ``--set`` overrides of the point's scenario."""
        return list(self.overrides[point])

    def chunks(self) -> list[tuple[int, range]]:
        """(chunk id, run ids) of the batch, in order."""
        size = self.chunk
        return [
            (self.first_chunk + i, range(start, min(start + size, self.stop)))
            for i, start in enumerate(range(self.first_run, self.stop, size))
        ]


def chunk_size(runs: int, given: int | None) -> int:
    """Runs per chunk of a batch of ``runs``: the file's ``chunk``, else an eighth of it."""
    if given is not None:
        return given
    return max(min(MIN_CHUNK, runs), math.ceil(runs / CHUNKS)) if runs else 1
