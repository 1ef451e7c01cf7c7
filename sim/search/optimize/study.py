"""Optuna for ``design: optimize``: the trials to fight next, and the study kept in SQLite.

Each batch asks Optuna for its trials from a study rebuilt in memory from the journal (every
earlier trial's parameters and Optuna's notes on it, :func:`trial_note`) and the values its
battles gave, with a sampler seeded from the master seed and the batch's number: TPE for one
objective, NSGA-II for two. A batch's trials are asked before any is told (TPE's constant
liar keeps them apart), so the plan never depends on which battles finish first, and a
resumed search, rebuilding the same study, asks for the same trials.

The dataset folder keeps the study as Optuna keeps one, ``DIR/search/study.db`` (SQLite,
study ``search``): every finished trial with its values and, as user attributes, its
battles and point. ``optuna.load_study(study_name="search",
storage="sqlite:///DIR/search/study.db")`` opens it (as does ``optuna-dashboard``). It is
written after each batch, and built again from the journal when a resume finds it behind.
"""

from __future__ import annotations

import contextlib
import logging
import math
import time
import warnings
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from sim import files
from sim.search.space import Param

STUDY = "search"
DB = "study.db"
OPTUNA_KEY = 0x4F505455
"""The first word of a batch sampler's seed key (``SeedSequence(master, (KEY, batch))``)."""


@contextlib.contextmanager
def quiet() -> Iterator[Any]:
    """Optuna imported, its INFO logging and experimental warnings held back for the block."""
    import optuna

    log = logging.getLogger("optuna")
    level = log.level
    log.setLevel(logging.WARNING)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
            yield optuna
    finally:
        log.setLevel(level)


def label(p: Param, value: Any) -> Any:
    """A parameter's value as Optuna holds it (a choice by its shown name)."""
    return p.shown(value) if p.kind in ("choices", "bundle") else value


def unlabel(p: Param, value: Any) -> Any:
    """The parameter's value from Optuna's."""
    if p.kind in ("choices", "bundle"):
        return next(c for c in p.choices if p.shown(c) == value)
    return int(value) if p.kind == "whole" else float(value)


def distributions(params: Sequence[Param]) -> dict[str, Any]:
    """Optuna's distribution of each parameter."""
    with quiet() as optuna:
        d = optuna.distributions
        out: dict[str, Any] = {}
        for p in params:
            if p.kind == "whole":
                out[p.name] = d.IntDistribution(int(p.low), int(p.high))
            elif p.kind == "real":
                out[p.name] = d.FloatDistribution(p.low, p.high)
            else:
                out[p.name] = d.CategoricalDistribution([p.shown(c) for c in p.choices])
        return out


def sampler(objectives: int, master: int, batch: int, population: int) -> Any:
    """The batch's sampler: TPE for one objective, NSGA-II for two, seeded for the batch."""
    seed = int(np.random.SeedSequence(master, spawn_key=(OPTUNA_KEY, batch)).generate_state(1)[0])
    with quiet() as optuna:
        if objectives == 1:
            return optuna.samplers.TPESampler(seed=seed)
        return optuna.samplers.NSGAIISampler(seed=seed, population_size=population)


def rebuild(
    params: Sequence[Param],
    directions: Sequence[str],
    trials: Sequence[dict[str, Any]],
    values: dict[int, list[float] | None],
    study_attrs: dict[str, Any],
    storage: Any = None,
    sampler_: Any = None,
) -> tuple[Any, Any]:
    """A study holding ``trials`` (each :func:`trial_note`) with their ``values``; its storage.

    A trial whose battles all failed (``values[n]`` None) is a failed trial. In memory
    unless ``storage`` (an Optuna storage) is given; ``study_attrs`` (Optuna's notes on
    the study, such as NSGA-II's parents of each generation) are restored in memory only.
    """
    with quiet() as optuna:
        store = storage if storage is not None else optuna.storages.InMemoryStorage()
        study = optuna.create_study(
            storage=store,
            study_name=STUDY,
            directions=list(directions),
            sampler=sampler_,
            load_if_exists=True,
        )
        dists = distributions(params)
        made = [_frozen(optuna, t, dists, values.get(int(t["number"]))) for t in trials]
        study.add_trials(made)
        if storage is None:
            sid = store.get_study_id_from_name(STUDY)
            for key, value in study_attrs.items():
                store.set_study_system_attr(sid, key, value)
        return study, store


def _frozen(optuna: Any, note: dict[str, Any], dists: dict[str, Any], values: Any) -> Any:
    state = optuna.trial.TrialState
    failed = values is None or not all(math.isfinite(v) for v in values)
    return optuna.trial.create_trial(
        state=state.FAIL if failed else state.COMPLETE,
        values=None if failed else list(values),
        params=dict(note["params"]),
        distributions=dists,
        system_attrs=dict(note.get("system_attrs") or {}),
        user_attrs=dict(note.get("user_attrs") or {}),
    )


def ask(
    study: Any, store: Any, params: Sequence[Param], count: int
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """``count`` new trials of ``study`` (asked together): their notes, and the study's attrs."""
    dists = distributions(params)
    with quiet():
        asked = [study.ask(fixed_distributions=dists) for _ in range(count)]
        frozen = {t.number: t for t in study.get_trials(deepcopy=False)}
        notes = [trial_note(frozen[t.number]) for t in asked]
        attrs = dict(store.get_study_system_attrs(store.get_study_id_from_name(STUDY)))
    return notes, attrs


def trial_note(trial: Any) -> dict[str, Any]:
    """What the journal keeps of a trial: its number, parameters and Optuna's notes."""
    return {
        "number": int(trial.number),
        "params": dict(trial.params),
        "system_attrs": dict(trial.system_attrs),
    }


class StudyDB:
    """The dataset's SQLite study, ``DIR/search/study.db``, opened for each write.

    :meth:`write` adds the trials it does not hold yet. Opened, a database holding more
    trials than the journal's finished ones (a search killed while it wrote), or one
    Optuna cannot read, is built again from the journal. Every connection is closed once
    written (:func:`closing`): the writes are seconds apart, and an open one would be left
    to the garbage collector (which Python 3.13's sqlite3 warns of).
    """

    def __init__(self, root: Path, params: Sequence[Param], directions: Sequence[str]) -> None:
        self.path = root / "search" / DB
        self.params, self.directions = list(params), list(directions)
        self.url: str | None = None
        self.held = 0
        self.written = 0.0
        """When it was last written (``time.monotonic``)."""

    def _open(self, finished: int) -> None:
        root = self.path.parent.parent
        for path in (self.path.parent, self.path):  # SQLite would follow a link out of root
            if files.is_link(path):
                raise files.link_error(path)
        with quiet() as optuna:
            url = f"sqlite:///{self.path.resolve()}"
            held = -1
            if self.path.exists():
                try:
                    with closing(url) as storage:
                        held = len(optuna.load_study(study_name=STUDY, storage=storage).trials)
                except (KeyError, ValueError, optuna.exceptions.OptunaError):
                    held = -1
            if held < 0 or held > finished:
                files.remove(self.path, root)
                held = 0
            self.url, self.held = url, held

    def write(
        self, trials: Sequence[dict[str, Any]], values: dict[int, list[float] | None]
    ) -> None:
        """Add the finished ``trials`` the database does not hold yet."""
        if self.url is None:
            self._open(len(trials))
        with closing(str(self.url)) as storage:
            rebuild(self.params, self.directions, trials[self.held :], values, {}, storage)
        self.held = len(trials)
        self.written = time.monotonic()


@contextlib.contextmanager
def closing(url: str) -> Iterator[Any]:
    """Optuna's storage of the database at ``url``, its connections closed after the block."""
    with quiet() as optuna:
        storage = optuna.storages.RDBStorage(url)
    try:
        yield storage
    finally:
        storage.remove_session()
        storage.engine.dispose()
