"""A battle's Mesa ``DataCollector``, built from what the battle keeps anyway, and its map.

Every :class:`sim.battle.battle.Battle` has a ``datacollector`` (so ``mesa.batch_run(Battle, ...)``
works with no subclass): a :class:`BattleCollector`, made on first use and filled by Mesa's
own ``collect`` from the battle's records (its ``states``, kept after every round), so a
battle that nobody asks pays nothing for it. Its model variables are, per side, ``SIDE
active``, ``SIDE fleeing`` and ``SIDE hd`` (HD of those still in the fight) and the
``round``; its agent variables, per fighter, ``name``, ``side``, ``status``, ``hd`` and
``wounds`` (taken). Step 0 is the deployment, step N the state after round N, as Mesa's
examples collect (once in ``__init__``, once after each step).

:func:`draw_space` draws a battle's map with Mesa's ``draw_space``, the same way up as
``sim run --frames`` (row 0 of the scenario's picture at the top).
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

import mesa

from sim.rules.common import OUT_OF_FIGHT
from sim.space.map import SIDE_COLORS

if TYPE_CHECKING:
    from sim.frame.core import BattleCore

AGENT_VARIABLES = ("name", "side", "status", "hd", "wounds")
SIDE_VARIABLES = ("active", "fleeing", "hd")


def model_variable(side: str, what: str) -> str:
    """The name of a side's model variable, e.g. ``guards active``."""
    return f"{side} {what}"


class BattleCollector(mesa.DataCollector):
    """The battle's data, as Mesa's ``DataCollector`` gives it, from the battle's records.

    Its reporters are real: :meth:`collect` runs Mesa's own ``collect`` once per round not
    yet collected, on the battle as it stood at the end of that round (:class:`_RoundView`,
    rebuilt from the battle's ``states``), so collecting twice, or after the end, never
    doubles a row, and a battle nobody asks pays nothing.
    """

    def __init__(self, battle: BattleCore) -> None:
        reporters: dict[str, Any] = {"round": "round"}
        for side in battle.sides:
            reporters[model_variable(side, "active")] = _counter(side, "active")
            reporters[model_variable(side, "fleeing")] = _counter(side, "fleeing")
            reporters[model_variable(side, "hd")] = _side_hd(side)
        super().__init__(
            model_reporters=reporters,
            agent_reporters={
                "name": "name",
                "side": "side",
                "status": lambda f: f.status.value,
                "hd": lambda f: f.wg.hit_dice,
                "wounds": "wounds_taken",
            },
        )
        self.battle = battle
        self.filled = 0  # rounds collected so far

    def collect(self, model: Any = None) -> None:
        """Bring the tables up to the battle's last recorded round (``model`` is ignored)."""
        b = self.battle
        for r in range(self.filled, len(b.states)):
            super().collect(_RoundView(b, r))
        self.filled = len(b.states)


class _FighterThen:
    """A fighter as it stood at the end of a round: what the reporters read of a Fighter."""

    __slots__ = ("model", "unique_id", "name", "side", "status", "in_fight", "wg", "wounds_taken")

    def __init__(self, model: _RoundView, f: Any, state: tuple[Any, ...]) -> None:
        self.model, self.unique_id, self.name, self.side = model, f.unique_id, f.name, f.side
        self.status, hd, _, self.wounds_taken = state[:4]
        self.in_fight = self.status not in OUT_OF_FIGHT
        self.wg = SimpleNamespace(hit_dice=hd)


class _RoundView:
    """The battle at the end of round ``r`` (0: the deployment), for Mesa's ``collect``.

    It has what ``collect`` and the reporters read of a model: ``steps`` (and ``time``,
    Mesa's newer step key), ``round``, ``agents`` (the fighters on the field by then) and
    ``sides`` (each side's ``fighters``).
    """

    def __init__(self, b: BattleCore, r: int) -> None:
        self.steps = self.time = self.round = r
        self.agents = [
            _FighterThen(self, f, st) for f, st in zip(b.roster, b.states[r], strict=False)
        ]
        self.sides = {s: SimpleNamespace(fighters=[]) for s in b.sides}
        for f in self.agents:
            self.sides[f.side].fighters.append(f)


def _counter(side: str, status: str) -> Any:
    return lambda m: sum(f.status.value == status for f in m.sides[side].fighters)


def _side_hd(side: str) -> Any:
    return lambda m: sum(f.wg.hit_dice for f in m.sides[side].fighters if f.in_fight)


TERRAIN_COLORS = {"wall": "#4d4d4d", "cover": "#a6d96a", "hazard": "#d8b365"}


def portrayal(agent: Any) -> Any:
    """How :func:`draw_space` draws a fighter: its side's colour, faint while it flees."""
    AgentPortrayalStyle = _mesa_visualization().components.AgentPortrayalStyle  # noqa: N806

    order = list(agent.model.sides)
    colour = SIDE_COLORS[order.index(agent.side) % len(SIDE_COLORS)]
    fleeing = agent.status.value == "fleeing"
    # zorder 1: Mesa 3.3 draws no other (its mask reads `z == zorder & mask`)
    return AgentPortrayalStyle(color=colour, size=60, zorder=1, alpha=0.4 if fleeing else 1.0)


def draw_space(battle: BattleCore, ax: Any = None) -> Any:
    """Draw ``battle``'s map and the fighters on it with Mesa's ``draw_space``; the axes.

    Walls, cover and hazards are shaded under the fighters. Mesa draws row 0 at the bottom;
    the axes are turned so that row 0 is at the top, the same way up as ``sim run --frames``
    and the scenario's ``map:`` picture.
    """
    from matplotlib.patches import Rectangle

    mesa_draw_space = _mesa_visualization().draw_space
    if battle.field is None:
        raise ValueError(f"scenario {battle.spec.name!r} has no map: nothing to draw")
    grid = battle.field.grid
    ax = mesa_draw_space(grid, portrayal, ax=ax)
    for t in battle.field.spec.terrain:
        for x, y in t.cells:
            ax.add_patch(
                Rectangle((x - 0.5, y - 0.5), 1, 1, lw=0, color=TERRAIN_COLORS[t.kind], zorder=0)
            )
    ax.set_ylim(grid.height - 0.5, -0.5)
    ax.set_aspect("equal")
    return ax


def _mesa_visualization() -> Any:
    """``mesa.visualization`` (Mesa's ``viz`` extra: ``pip install -e .[viz]``).

    Importing it imports solara, whose hook check warns about Mesa 3.3's own components;
    that warning is not ours to fix, so it is silenced here.
    """
    import warnings

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            import mesa.visualization
    except ImportError as err:  # pragma: no cover - the viz extra is in the test extras
        raise ImportError(
            "drawing with Mesa needs its visualization extra: pip install -e '.[viz]'"
        ) from err
    return mesa.visualization
