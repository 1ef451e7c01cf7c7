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
from sim.errors import SimError
from sim.search.core import BadNote
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


def check_note(
    params: Sequence[Param], note: Any, first: int, count: int
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The trials and study notes of a batch's journal note, checked; else :class:`BadNote`.

    The batch's ``count`` trials, numbered from ``first``, each with a value of every
    parameter that the parameter can take (a choice it still has, a number in its range).
    """
    trials, attrs = note.get("trials"), note.get("study_attrs")
    if not isinstance(trials, list) or len(trials) != count:
        raise BadNote(("trials",), f"expected the batch's {count} trials")
    if not isinstance(attrs, dict):
        raise BadNote(("study_attrs",), "expected an object (Optuna's notes on the study)")
    for i, trial in enumerate(trials):
        if not isinstance(trial, dict) or not isinstance(trial.get("params"), dict):
            raise BadNote(("trials", i), "expected a trial: its number and params")
        if trial.get("number") != first + i or isinstance(trial.get("number"), bool):
            raise BadNote(("trials", i, "number"), f"expected {first + i}")
        if not isinstance(trial.get("system_attrs", {}), dict):
            raise BadNote(("trials", i, "system_attrs"), "expected an object")
        for p in params:
            if p.name not in trial["params"]:
                raise BadNote(("trials", i, "params"), f"no value of {p.name!r}")
            problem = _value_problem(p, trial["params"][p.name])
            if problem:
                raise BadNote(("trials", i, "params", p.name), problem)
    return trials, attrs


def _value_problem(p: Param, value: Any) -> str:
    """What is wrong with a trial's value of ``p`` as Optuna holds it ("" if nothing)."""
    if p.kind in ("choices", "bundle"):
        names = [p.shown(c) for c in p.choices]
        return "" if value in names else f"{value!r} is not one of its choices"
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    if not number or (p.kind == "whole" and not isinstance(value, int)):
        return f"expected a {'whole ' if p.kind == 'whole' else ''}number, got {value!r}"
    return "" if p.low <= value <= p.high else f"{value!r} is outside {p.low:g}..{p.high:g}"


def rebuild_error(err: Exception) -> SimError:
    """A study the journal's trials do not rebuild (Optuna refused their notes)."""
    return SimError(
        f"search/journal.json: its trials do not rebuild the Optuna study "
        f"({type(err).__name__}: {str(err)[:80]}); the journal is damaged: search again into "
        "another --out"
    )


def trial_note(trial: Any) -> dict[str, Any]:
    """What the journal keeps of a trial: its number, parameters and Optuna's notes."""
    return {
        "number": int(trial.number),
        "params": dict(trial.params),
        "system_attrs": dict(trial.system_attrs),
    }


class StudyDB:
    """The dataset's SQLite study, ``DIR/search/study.db``, opened for each write.

    :meth:`write` adds the trials it does not hold yet. Opened, a database that is not the
    journal's (one Optuna cannot read, not SQLite at all, another study, trials that are
    not the journal's first ones, or more of them: a search killed while it wrote) is
    built again from the journal, so a damaged or replaced study never stops a search.
    Every connection is closed once written (:func:`closing`): the writes are seconds apart,
    and an open one would be left to the garbage collector (which Python 3.13's sqlite3
    warns of).
    """

    def __init__(self, root: Path, params: Sequence[Param], directions: Sequence[str]) -> None:
        self.path = root / "search" / DB
        self.params, self.directions = list(params), list(directions)
        self.url: str | None = None
        self.held = 0
        self.written = 0.0
        """When it was last written (``time.monotonic``)."""

    def _open(self, trials: Sequence[dict[str, Any]]) -> None:
        root = self.path.parent.parent
        try:  # SQLite would follow a link out of the dataset: refused, as every reader does
            present = files.check_inside(self.path, root)
        except files.LinkFound as err:
            raise SimError(
                f"{err}; the search then builds its study again from the journal"
            ) from None
        except SimError as err:
            raise SimError(
                f"{err}; remove it, and the search builds its study again from the journal"
            ) from None
        with quiet() as optuna:
            url = f"sqlite:///{self.path.resolve()}"
            held = _held(optuna, url, trials) if present else 0
            if held < 0:
                for name in (DB, f"{DB}-journal", f"{DB}-wal", f"{DB}-shm"):
                    files.remove(self.path.parent / name, root)
                held = 0
            self.url, self.held = url, held

    def write(
        self, trials: Sequence[dict[str, Any]], values: dict[int, list[float] | None]
    ) -> None:
        """Add the finished ``trials`` the database does not hold yet."""
        if self.url is None:
            self._open(trials)
        with closing(str(self.url)) as storage:
            rebuild(self.params, self.directions, trials[self.held :], values, {}, storage)
        self.held = len(trials)
        self.written = time.monotonic()


@contextlib.contextmanager
def closing(url: str) -> Iterator[Any]:
    """Optuna's storage of the database at ``url``, its connections closed after the block.

    No pool (``NullPool``): each connection is closed as it is given back, so one that a
    file Optuna cannot read leaves behind, as ``RDBStorage`` fails, is closed as well.
    """
    from sqlalchemy.pool import NullPool  # imported with Optuna, only when a search runs

    with quiet() as optuna:
        storage = optuna.storages.RDBStorage(url, engine_kwargs={"poolclass": NullPool})
    try:
        yield storage
    finally:
        storage.remove_session()
        storage.engine.dispose()


def _held(optuna: Any, url: str, trials: Sequence[dict[str, Any]]) -> int:
    """How many of the journal's first ``trials`` the database holds, as they are; else -1.

    -1 for anything else: a file SQLite or Optuna cannot read, another study, trials that
    differ from the journal's, or more of them than it has finished.
    """
    try:
        with closing(url) as storage:
            kept = optuna.load_study(study_name=STUDY, storage=storage).get_trials(deepcopy=False)
        same = len(kept) <= len(trials) and all(
            t.number == int(note["number"]) and t.params == note["params"]
            for t, note in zip(kept, trials, strict=False)
        )
    except Exception:  # noqa: BLE001 - whatever the file is, the journal builds it again
        return -1
    return len(kept) if same else -1
