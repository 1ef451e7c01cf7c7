"""A battle as Mesa 3.5's scenarios describe a model (``mesa.experimental.scenarios``).

Mesa 3.5 gives every model a ``scenario``: a ``mesa.experimental.scenarios.Scenario`` holding
the model's ``rng`` and its parameters, from which the model builds itself
(``Model(scenario=...)``). :class:`BattleScenario` is that Scenario for a :class:`Battle
<sim.battle.Battle>`: its parameters are the battle's own (:data:`PARAMETERS`), sim's scenario
among them (``spec``: a scenario file's path or a :class:`sim.scenario.Scenario`). It is an
adapter: it names sim's frozen scenario and never is one (docs/python-api.md says why).

On Mesa 3.3 and 3.4, which have no scenarios, :data:`MESA_SCENARIO` is None and
``BattleScenario`` is not defined (asking for it says why).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from sim.errors import SimError, unknown
from sim.scenario import Scenario, load_scenario

try:
    from mesa.experimental.scenarios import Scenario as MESA_SCENARIO
except ImportError:  # Mesa 3.3 and 3.4: no scenarios
    MESA_SCENARIO = None

PARAMETERS = ("spec", "overrides", "events", "options", "frame", "battle")
"""A battle's parameters in a Mesa scenario besides its ``rng``: what :class:`Battle
<sim.battle.Battle>` takes, and ``overrides`` (``--set`` lines) for a file's ``spec``."""

_KEYWORDS = ("events", "options", "frame", "battle")  # also Battle's keyword arguments

__all__ = ["MESA_SCENARIO", "PARAMETERS", "is_mesa_scenario", "read_mesa_scenario"]

if MESA_SCENARIO is not None:
    __all__ += ["BattleScenario"]

    class BattleScenario(MESA_SCENARIO):
        """Mesa 3.5's Scenario of one battle: its ``rng`` (a seed or a Generator) and parameters.

        ``BattleScenario(rng=7, spec="scenarios/skirmish.yaml",
        overrides=["sides.bandits.tactic=defensive"])`` is the battle of ``sim run
        scenarios/skirmish.yaml --set sides.bandits.tactic=defensive --seed 7``, and
        ``Battle(scenario=it)`` fights it. ``spec`` is a scenario file's path or a
        :class:`sim.scenario.Scenario`; ``events``, ``options``, ``frame`` and ``battle`` are
        :class:`Battle <sim.battle.Battle>`'s keyword arguments of the same names. Without an
        ``rng`` the battle takes the scenario's own seed, and the scenario records it.
        """

        spec: str | Path | Scenario | None = None
        overrides: Sequence[str] = ()
        events: bool = False
        options: Mapping[str, Any] | None = None
        frame: Mapping[str, Any] | None = None
        battle: Mapping[str, Any] | None = None


def __getattr__(name: str) -> Any:
    if name == "BattleScenario":
        raise AttributeError(
            "BattleScenario is a Mesa 3.5 scenario (mesa.experimental.scenarios), which this "
            "Mesa does not have: make a Battle from a scenario and a seed"
        )
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def is_mesa_scenario(value: object) -> bool:
    """Whether ``value`` is a Mesa 3.5 ``Scenario`` (never, on a Mesa without them)."""
    return MESA_SCENARIO is not None and isinstance(value, MESA_SCENARIO)


def read_mesa_scenario(
    mesa_scenario: Any, seed: int | np.random.Generator | None, given: Mapping[str, Any]
) -> tuple[Scenario, int | np.random.Generator | None, dict[str, Any]]:
    """Sim's scenario, the seed (or Generator) and Battle's keyword arguments it describes.

    ``seed`` is a seed given beside it (as ``mesa.batch_run`` gives one): None, or the same
    as the scenario's ``rng``. ``given`` are the keyword arguments given beside it: each may
    be given there or in the scenario (other than by its default), not both. Without a seed
    anywhere, the result's seed is None (the battle then takes sim's scenario's own).
    """
    params = {k: v for k, v in mesa_scenario if k != "rng"}
    for name in params:
        if name not in PARAMETERS:
            raise unknown("parameter of a battle's Mesa scenario", name, PARAMETERS)
    twice = [k for k in _KEYWORDS if params.get(k) and given.get(k)]  # a default is not given
    if twice:
        raise SimError(
            f"{', '.join(twice)}: given in the Mesa scenario and to Battle: give it once"
        )
    rng = mesa_scenario.rng
    if seed is not None and rng is not None and seed is not rng and seed != rng:
        raise SimError(f"seed {seed!r} and the Mesa scenario's rng {rng!r} differ: give one")
    spec = params.get("spec")
    overrides = list(params.get("overrides") or ())
    if isinstance(spec, str | Path):
        spec = load_scenario(spec, overrides)
    elif not isinstance(spec, Scenario):
        raise SimError(
            "a battle's Mesa scenario needs spec: a scenario file's path or a sim Scenario"
        )
    elif overrides:
        raise SimError("overrides (--set lines) apply to a scenario file: spec is a Scenario")
    kwargs = {k: params.get(k) or given.get(k) for k in _KEYWORDS}
    kwargs["events"] = bool(kwargs["events"])
    return spec, rng if rng is not None else seed, kwargs
