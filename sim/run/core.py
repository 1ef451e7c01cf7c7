"""One run: a scenario fought to its end with one seed, and the rows it adds to a dataset.

:func:`fight` is the one entry of every run (``sim run``, ``sim sweep``, ``sim replay``, the
golden digests, the tests):

- a scenario without ``aftermath`` or ``campaign``: its battle fought to its end;
- with ``aftermath``: then every side's camp runs ``aftermath.days`` days, drawing from the
  battle's Generator after the battle (:func:`sim.run.campaign.aftermath_rows`);
- with ``campaign``: the battles in order with one Generator through all of them and their
  aftermaths (:func:`sim.run.campaign.fight_campaign`).

The seed rule (one place): a run's seed is a whole number 0 or more (a scenario's ``seed:``,
``--seed``, a drawn one, or a sweep's per-run seed from
:meth:`sim.experiment.model.Experiment.run_seed`), and :func:`generator` turns it into the run's
one ``numpy.random.Generator``. Every roll of the run, battle and aftermath, comes from it.

:func:`run_rows` gives the rows a finished run adds to each table of a dataset (the schemas
are :mod:`sim.dataset.records`'), and :func:`write_dataset` writes one run as a dataset of its own
(``sim run --out``): a one-point sweep, with the manifest every dataset has.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from sim import files
from sim.dice import generator
from sim.errors import SimError

if TYPE_CHECKING:
    from sim.battle.battle import Battle
    from sim.scenario import Scenario


def draw_seed() -> int:
    """A fresh seed from the operating system's entropy, to print and replay."""
    return int(np.random.SeedSequence().generate_state(1, dtype=np.uint32)[0])


@dataclass
class Fought:
    """A run fought to its end: its last battle and the rows of the aftermath tables.

    ``battles`` holds every battle fought (one, or a campaign's in order); ``battle`` is the
    last of them, whose outcome is the run's. ``days`` counts the aftermath days run.
    """

    battle: Battle
    aftermath: list[dict[str, Any]] = field(default_factory=list)
    campaign: list[dict[str, Any]] = field(default_factory=list)
    battles: list[Battle] = field(default_factory=list)
    days: int = 0

    def __post_init__(self) -> None:
        if not self.battles:
            self.battles = [self.battle]

    def tables(self) -> dict[str, list[dict[str, Any]]]:
        """The extra tables' rows (without run_id): ``aftermath`` and ``campaign``."""
        return {"aftermath": self.aftermath, "campaign": self.campaign}


def fight(
    scenario: Scenario,
    seed: int | None = None,
    *,
    rng: np.random.Generator | None = None,
    events: bool = False,
    on_battle: Callable[[Battle], None] | None = None,
) -> Fought:
    """Fight ``scenario`` with ``seed`` (or ``rng``): its battle, aftermath or campaign.

    Without ``seed`` and ``rng`` the scenario's own ``seed:`` is used; ``rng``, when given,
    is used as it is (``seed`` is then ignored). ``events`` logs every roll and decision.
    ``on_battle`` is given each battle as it starts (a progress display watches it; it
    must not change it).
    """
    from sim.battle.battle import Battle
    from sim.run import campaign

    if rng is None:
        seed = scenario.seed if seed is None else seed
        if seed is None:
            what = "campaign" if scenario.campaign is not None else "battle"
            raise SimError(f"a {what} needs a seed (or an rng)")
        rng = generator(seed)
    if scenario.campaign is not None:
        run = campaign.fight_campaign(scenario, rng, events, on_battle)
        return Fought(run.battles[-1], run.aftermath, run.campaign, run.battles, run.days)
    battle = Battle(scenario, rng=rng, events=events)
    if on_battle is not None:
        on_battle(battle)
    while not battle.ended:  # battle.run() without its Outcome: run_rows makes the one needed
        battle.step()
    if scenario.aftermath is None:
        return Fought(battle)
    rows = campaign.aftermath_rows(battle, scenario.aftermath)
    return Fought(battle, aftermath=rows, days=scenario.aftermath.days)


def run_rows(
    fought: Fought,
    run_id: int,
    seed: int,
    params: Mapping[str, Any] | None = None,
    events: bool = False,
) -> dict[str, list[dict[str, Any]]]:
    """The rows one finished run adds to each table (:data:`sim.dataset.records.TABLES`).

    ``runs``, ``rounds``, ``fighters`` and ``events`` (only with ``events``) are the last
    battle's; ``aftermath`` and ``campaign`` the whole run's. ``params`` are the swept
    parameters' columns of the ``runs`` row.
    """
    from sim.dataset.records import DRAW

    battle = fought.battle
    out = battle.outcome()
    sides = [{"side": name, **dict(counts)} for name, counts in out.sides.items()]
    run = {
        "run_id": run_id,
        "seed": seed,
        **(params or {}),
        "scenario": battle.spec.name,
        "rules": battle.rules,
        "winner": out.winner,
        "outcome": out.winner or DRAW,
        "decisive": out.winner is not None,
        "end_reason": out.end_reason,
        "rounds": out.rounds,
        "scale_switches": out.scale_switches,
        "sides": sides,
        "error": None,
    }
    rows: dict[str, list[dict[str, Any]]] = {
        "runs": [run],
        "rounds": [{"run_id": run_id, **r} for r in battle.round_rows],
        "fighters": battle.fighter_rows(run_id),
        "events": [],
        "aftermath": [],
        "campaign": [],
    }
    for table, got in fought.tables().items():
        rows[table] = [{"run_id": run_id, **r} for r in got]
    if events:
        rows["events"] = [{"run_id": run_id, "seq": i, **e} for i, e in enumerate(battle.log or [])]
    return rows


def write_dataset(
    root: str | Path,
    fought: Fought,
    seed: int,
    scenario_file: str,
    scenario_text: str,
    overrides: Sequence[str] = (),
    *,
    events: bool = False,
) -> None:
    """Write the run ``fought`` with ``seed`` as the dataset ``root`` (run id 0).

    Its manifest is a one-point sweep's (:func:`sim.dataset.records.manifest`, kind ``run``): no
    parameters, one replicate, ``master_seed`` the run's seed; its scenario text is stored
    under the ``scenario`` column's value, so :mod:`sim.run.replay` rebuilds it. A ``root`` that
    already holds a dataset, or anything else, is refused (as ``sim sweep`` does); its parts
    are listed in the manifest (:mod:`sim.dataset.store`). The dataset is written beside
    ``root`` and renamed into place: it appears whole or not at all.
    """
    root = Path(root)
    if files.is_link(root):
        raise files.link_error(root, "--out")
    if (root / "manifest.json").exists():
        raise SimError(f"{root}: already holds a dataset; choose another --out")
    if root.exists() and not root.is_dir():
        raise SimError(f"{root}: is a file, not a folder; choose another --out")
    if root.is_dir() and any(root.iterdir()):
        raise SimError(f"{root}: exists and is not empty; choose another --out")
    rows = run_rows(fought, 0, seed, events=events)
    try:
        with files.new_folder(root) as tmp:  # the dataset appears whole or not at all
            _write_run(tmp, rows, seed, scenario_file, scenario_text, overrides)
    except FileExistsError:
        raise SimError(f"{root}: exists and is not empty; choose another --out") from None


def _write_run(
    root: Path,
    rows: Mapping[str, Sequence[Mapping[str, Any]]],
    seed: int,
    scenario_file: str,
    scenario_text: str,
    overrides: Sequence[str],
) -> None:
    """Write one run's ``rows`` and its manifest as the dataset ``root``."""
    from sim.dataset import records, store

    parts = {}
    for table, got in rows.items():
        path = records.write_part(root, table, got, "0")
        if path is not None:
            parts[f"{table}/{path.name}"] = store.part_record(path, len(got))
    parts["runs/part-0.parquet"].update(first=0, stop=1)
    made = records.manifest(
        kind="run",
        scenario_file=scenario_file,
        scenario_texts={rows["runs"][0]["scenario"]: scenario_text},
        overrides=overrides,
        master_seed=seed,
        tables=[t for t in records.TABLES if rows[t]],
        fingerprint=records.fingerprint("run", scenario_text, "\n".join(overrides), str(seed)),
        parts=parts,
    )
    records.write_manifest(root, made)
