"""What a search design is to the driver: a planner of batches, and the answer at the end.

A design (:class:`Design`) sees the battles fought so far (:class:`History`) and says what
to fight next (:class:`Planned`: points, battles at each, seeds shared or not) or that it is
done; at the end it gives its :class:`Answer`. The driver (:mod:`sim.search.driver`) does the
rest for every design alike: the dataset folder, its lock and manifest, one pool of workers
for every batch, each battle a row of the dataset, the journal that a resume follows, the
progress display, and the answer kept in the folder.

A design must plan from the history alone (and what it recorded of its own earlier
batches, ``recorded``): the same battles must give the same plan, so that a resumed
search, or one run on other workers, takes the same path to the same answer.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import pandas as pd
import pyarrow as pa
from matplotlib.figure import Figure


@dataclass(frozen=True, slots=True)
class Planned:
    """One batch a design asks for.

    ``points`` are the parameters' values at each point (by parameter name, as the
    design's :class:`~sim.search.space.Param` take them) and ``replicates`` the battles at
    each. ``shared`` gives replicate ``r`` the same seed at every point of the batch (common
    random numbers, for paired comparisons); otherwise every battle has its own seed.
    ``columns`` are the design's own columns of the ``runs`` rows (:meth:`Design.columns`),
    one value per point. ``stage`` names what the batch is for; ``note`` is whatever the
    design keeps of it in the journal (JSON), given back as ``recorded`` on a resume.
    """

    points: tuple[dict[str, Any], ...]
    replicates: tuple[int, ...]
    stage: str = ""
    shared: bool = False
    columns: dict[str, tuple[Any, ...]] = field(default_factory=dict)
    note: dict[str, Any] = field(default_factory=dict)

    @property
    def runs(self) -> int:
        """The battles of the batch."""
        return sum(self.replicates)


@dataclass(frozen=True, slots=True)
class History:
    """The battles a search has fought: its batches and one row per battle.

    ``runs`` has ``run_id``, ``batch``, ``point`` (the point's index in ``points``), the
    design's columns and each parameter's value, ``failed``, ``winner`` (None: a draw),
    ``rounds``, and per side ``lost.SIDE`` (its fighters not active at the end).
    ``batches`` are the journal's entries of the finished batches.
    """

    batches: tuple[dict[str, Any], ...]
    runs: pd.DataFrame
    points: tuple[dict[str, Any], ...]
    budget: int

    @property
    def spent(self) -> int:
        """Battles fought."""
        return len(self.runs)

    @property
    def left(self) -> int:
        """Battles the budget still allows."""
        return max(0, self.budget - self.spent)


@dataclass
class Answer:
    """What a search found, as the dataset keeps it and ``sim analyze`` prints it again.

    ``status`` names the outcome (``answered``, or why not: ``unreached``, ``jump``,
    ``budget`` ...); ``exit`` is 0 for an answer and 1 for a search that cannot answer;
    ``lines`` say it in words; ``tables`` are ``{title, headers, rows}``; ``charts`` are
    ``(file name, figure)``; ``data`` holds the figures for programs.
    """

    status: str
    exit: int
    lines: list[str]
    tables: list[dict[str, Any]] = field(default_factory=list)
    charts: list[tuple[str, Figure]] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)


class BadNote(Exception):
    """What a design noted of a batch (the journal's ``note``), read back, is not its own.

    Raised by :meth:`Design.plan` for a ``recorded`` note it cannot plan from: ``where``
    is the place inside the note, ``message`` what is wrong; the driver locates it in the
    journal (one line, exit 2).
    """

    def __init__(self, where: tuple[str | int, ...], message: str) -> None:
        super().__init__(message)
        self.where, self.message = where, message


class Design(Protocol):
    """A search design: it plans batches from the history and answers at the end."""

    def columns(self) -> list[pa.Field]:
        """Its own columns of the ``runs`` table (``batch`` and ``point`` are everyone's)."""

    def plan(self, history: History, recorded: dict[str, Any] | None) -> Planned | None:
        """The next batch (at most ``history.left`` battles), or None when it is done.

        ``recorded`` is the journal's ``note`` of this batch when a resumed search plans
        a batch it had planned before; one it cannot plan from raises :class:`BadNote`.
        """

    def progress(self, history: History) -> str:
        """One line: where the search stands (its estimate and interval so far)."""

    def answer(self, history: History) -> Answer:
        """The answer, from every battle fought."""

    def finished_batch(self, history: History, root: Any) -> None:
        """Called after each batch with the history so far (a design may keep a record)."""


@dataclass(frozen=True, slots=True)
class Kind:
    """A search design as the registry (:data:`sim.search.designs.KINDS`) holds it.

    ``keys`` are the keys it adds to an experiment file and ``budget`` its default budget of
    battles. ``read(doc, sides, budget, bad)`` checks its keys and parameters (every problem
    to ``bad``, located) and returns its parameters and settings; ``make(search)`` gives the
    :class:`Design` the driver runs of a checked :class:`~sim.search.spec.Search`. A design
    that reads files beside the experiment (calibrate's observed table) sets ``source``: its
    ``read`` then also gets the experiment file's path. ``check``, if set, gives the design's
    own problems of a checked search, each located in whatever file it is in; they are
    reported before the scenario is checked at the parameters' values.
    """

    name: str
    keys: tuple[str, ...]
    budget: int
    read: Callable[..., tuple[list[Any], Any]]
    make: Callable[[Any], Design]
    source: bool = False
    check: Callable[[Any], list[Any]] | None = None


def per_point(history: History, values: Sequence[str]) -> pd.DataFrame:
    """The finished (not failed) runs grouped by point: ``values`` columns summed."""
    runs = history.runs[~history.runs["failed"]]
    return runs.groupby("point", sort=True)[list(values)].sum()
