"""Failed runs of a dataset, grouped by message, each group with a command that repeats it."""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass
from typing import Any

from sim.analysis.dataset import Dataset


@dataclass(frozen=True, slots=True)
class FailureGroup:
    """Runs that failed with one message: how many, and the first of them."""

    message: str
    count: int
    run_id: int
    command: str


def failure_groups(ds: Dataset) -> list[FailureGroup]:
    """The dataset's failed runs grouped by message, the most frequent first.

    A message's source place (``(run.py:12)``) is left out of the grouping. Each group
    names its first run and a ``sim run`` command that fights it again (the run's
    scenario, its seed and its design point's overrides), so the failure can be seen
    alone.
    """
    t = ds.arrow("runs", ["run_id", "seed", "error"])
    rows = t.filter(t["error"].is_valid()).to_pylist()
    groups: dict[str, list[dict[str, Any]]] = {}
    for r in sorted(rows, key=lambda r: r["run_id"]):
        groups.setdefault(_message(r["error"]), []).append(r)
    out = [
        FailureGroup(
            msg, len(rs), rs[0]["run_id"], rerun_command(ds, rs[0]["run_id"], rs[0]["seed"])
        )
        for msg, rs in groups.items()
    ]
    return sorted(out, key=lambda g: (-g.count, g.run_id))


def _message(error: str) -> str:
    return re.sub(r" \([\w./-]+\.py:\d+\)$", "", error.strip())


def rerun_command(ds: Dataset, run_id: int, seed: int) -> str:
    """A ``sim run`` command that fights run ``run_id`` of ``ds`` again."""
    m = ds.manifest
    points = m.get("points") or [{}]
    point = points[min(run_id // int(m.get("replicates", 1) or 1), len(points) - 1)]
    params = m.get("parameters", [])
    sets = [*m.get("overrides", []), *(f"{p}={json.dumps(point[p])}" for p in params)]
    words = ["sim", "run", str(m.get("scenario_file", "SCENARIO")), "--seed", str(seed)]
    for s in sets:
        words += ["--set", s]
    return " ".join(shlex.quote(w) for w in words)


def failures_text(ds: Dataset, limit: int = 10) -> str:
    """The failed runs as ``sim sweep`` reports them: grouped, counted, one command each."""
    groups = failure_groups(ds)
    total = sum(g.count for g in groups)
    lines = [f"{total} run{'s' if total != 1 else ''} failed:"]
    for g in groups[:limit]:
        lines.append(f"  {g.count} x {g.message}")
        lines.append(f"      first: run {g.run_id}; again alone: {g.command}")
    if len(groups) > limit:
        lines.append(f"  and {len(groups) - limit} more messages")
    return "\n".join(lines)
