"""What every benchmark figure shares: its configuration, its result, and experiment files.

The figures (:mod:`benchmarks.figures`, :mod:`benchmarks.cluster`) build on this module; it
imports none of them.
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from benchmarks.sweep_memory import experiment_text

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = ROOT / "scenarios"


@dataclass
class Config:
    """What the figures run: ``quick`` sizes, the workspace, reused memory logs/datasets."""

    quick: bool = False
    work: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="benchmarks_")))
    memory_from: Path | None = None
    dataset: Path | None = None
    log: Callable[[str], None] = lambda text: print(text, file=sys.stderr, flush=True)

    def size(self, quick: int, full: int) -> int:
        """``quick`` or ``full``, by mode."""
        return quick if self.quick else full

    @property
    def repeats(self) -> int:
        """Timings per figure: the best (or median) of 2 full runs, to damp other load."""
        return 1 if self.quick else 2


@dataclass
class Figure:
    """One measured figure: its value and units, the goal and whether it is met."""

    name: str
    title: str
    value: float
    units: str
    goal: str
    passed: bool | None
    details: dict[str, Any] = field(default_factory=dict)
    seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {
            "title": self.title,
            "value": self.value,
            "units": self.units,
            "goal": self.goal,
            "pass": self.passed,
            "details": self.details,
            "seconds": round(self.seconds, 2),
        }


def experiment_file(work: Path, name: str, doc: dict[str, Any]) -> Path:
    """An experiment file named ``name`` in ``work`` from the document ``doc``."""
    path = work / f"{name}.yaml"
    path.write_text(yaml.safe_dump({"name": name, **doc}, sort_keys=False), encoding="utf-8")
    return path


def quickstart_file(work: Path, runs: int, name: str) -> Path:
    """The quick-start experiment with enough replicates for ``runs`` runs, chunks of 500."""
    doc = yaml.safe_load(experiment_text(runs, 500))
    doc["name"] = name
    path = work / f"{name}.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    return path
