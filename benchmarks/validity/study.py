"""What a study is: the battle sets it fights, its checks, its report section and its chart.

Each study module (``studies/*.py``) builds one :class:`Study`; the registry
(:data:`benchmarks.validity.studies.STUDIES`) lists them in report order, and the whole run
(:func:`benchmarks.validity.run.run_all`), its checks (:meth:`Results.checks`), the report
(:func:`benchmarks.validity.report.render`) and the charts
(:func:`benchmarks.validity.charts.draw_charts`) go through that list, which the
:class:`Results` carry. Adding a study is one module and one line in the registry.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from benchmarks.validity.battles import Runner
from benchmarks.validity.stats import Check


@dataclass(frozen=True)
class Part:
    """One set of battles a study fights, timed and counted on its own.

    ``study(runner, runs, systems)`` fights it with ``runs`` battles per point and returns its
    rows, which the study's checks, section and chart read from ``Results.rows[name]``;
    ``full`` and ``quick`` are its battles per point in the full and the ``--quick`` run.
    """

    name: str
    study: Callable[[Runner, int, Sequence[str]], list[Any]]
    full: int
    quick: int


def no_checks(res: Results) -> list[Check]:
    """The checks of a study that measures and has no invariant: none."""
    return []


@dataclass(frozen=True)
class Study:
    """A study: its name, the parts it fights, and what it gives the report.

    ``name`` is its checks' ``study`` and its chart's file name; ``section(res, charts)`` its
    report section (``charts`` maps a chart's name to its path from the report);
    ``chart(res)`` its matplotlib figure (None: nothing to draw); ``summary`` the label of its
    row in the report's summary ("": no row, for a study without invariants).
    """

    name: str
    parts: tuple[Part, ...]
    section: Callable[[Results, Mapping[str, str]], str]
    checks: Callable[[Results], list[Check]] = no_checks
    chart: Callable[[Results], Any] | None = None
    summary: str = ""


class Replicates(dict[str, int]):
    """Battles per point of each part of the studies, by the part's name."""

    @classmethod
    def full(cls, studies: Iterable[Study]) -> Replicates:
        """The full run's: the report's."""
        return cls({p.name: p.full for s in studies for p in s.parts})

    @classmethod
    def quick(cls, studies: Iterable[Study]) -> Replicates:
        """The ``--quick`` run's: fewer battles, the first of the full run's."""
        return cls({p.name: p.quick for s in studies for p in s.parts})


@dataclass
class Results:
    """Every study's rows (by part name), the time each part took and the battles it fought."""

    reps: Replicates
    systems: tuple[str, ...]
    studies: tuple[Study, ...]
    rows: dict[str, list[Any]] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)
    battles: dict[str, int] = field(default_factory=dict)
    workers: int = 1

    def checks(self) -> list[Check]:
        """Every study's checks, in report order."""
        return [c for study in self.studies for c in study.checks(self)]
