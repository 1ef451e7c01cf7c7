"""The Mesa baseline of figure 3: our Battle model, run the Mesa way through ``batch_run``.

``BatchBattle`` is :class:`sim.battle.battle.Battle` with what ``mesa.batch_run`` expects of a
model: keyword parameters (``run_id`` and the experiment file, so each run is the very run
``sim sweep`` makes: same design point, same seed) and a ``DataCollector`` that collects
every step, as Mesa's own examples do. Model reporters give the ``runs`` row (winner, end
reason, rounds); agent reporters give the ``fighters`` rows (side, status, HD, wounds).
It collects after each step only: ``batch_run`` then reports the final model values (Mesa
3.3 reads model values by list position ``steps - 1``; its agent rows are keyed by step
number, so they show the round before last).

The class lives in an importable module so that ``batch_run``'s spawned workers find it.
"""

from __future__ import annotations

import inspect
from functools import cache
from typing import Any

import mesa

from sim.battle.battle import Battle
from sim.experiment import Experiment, load_experiment
from sim.scenario import Scenario, parse_scenario


@cache
def _experiment(path: str) -> Experiment:
    return load_experiment(path)


@cache
def _scenario(path: str, point: int) -> Scenario:
    exp = _experiment(path)
    return parse_scenario(exp.scenario_text, exp.scenario_path, exp.point_overrides(point))


class BatchBattle(Battle):
    """Run ``run_id`` of the experiment at ``experiment`` (a path), collecting every step."""

    def __init__(self, run_id: int, experiment: str, rng: None = None) -> None:
        # rng: Mesa 3.5's batch_run gives rng=None to a model without seed=; the run's is used
        exp = _experiment(experiment)
        super().__init__(_scenario(experiment, exp.point_of(run_id)), seed=exp.run_seed(run_id))
        self.datacollector = mesa.DataCollector(
            model_reporters={"winner": "winner", "end_reason": "end_reason", "rounds": "round"},
            agent_reporters={
                "side": "side",
                "status": lambda f: f.status.value,
                "hd": lambda f: f.wg.hit_dice,
                "wounds_taken": "wounds_taken",
                "wounds_dealt": "wounds_dealt",
            },
        )

    def step(self) -> None:
        """One round, then collect."""
        super().step()
        self.datacollector.collect(self)


def run(experiment: str, runs: int, processes: int = 2) -> list[dict[str, Any]]:
    """``mesa.batch_run`` over runs ``0..runs-1`` of ``experiment`` (one iteration each)."""
    from mesa.batchrunner import batch_run

    # one iteration: Mesa 3.5 counts them by rng (its iterations= is deprecated), Mesa 3.3 not
    once = {"rng": [None]} if "rng" in inspect.signature(batch_run).parameters else {}
    return batch_run(
        BatchBattle,
        parameters={"run_id": range(runs), "experiment": experiment},
        number_processes=processes,
        **once,
        data_collection_period=-1,
        max_steps=100_000,
        display_progress=False,
    )
