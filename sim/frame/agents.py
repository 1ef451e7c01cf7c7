"""Fighter: a Mesa agent that holds a fighter's state. It decides nothing itself.

Every choice goes through the side's tactic (:mod:`sim.scenario.tactics`); every rule through
:mod:`sim.rules`. The battle (:mod:`sim.battle.battle`) moves state from one to the other.
"""

from __future__ import annotations

import itertools
import weakref
from functools import lru_cache
from typing import Any, Protocol

import mesa
from mesa.discrete_space import CellAgent

from sim.rules import twowp, wargame
from sim.rules.common import OUT_OF_FIGHT, Status
from sim.scenario import FighterSpec


class Starter(Protocol):
    """What a fighter asks of its battle's rule system when it is made.

    Every :class:`sim.frame.turns.RuleSystem` is one; a fighter names no system above it.
    """

    def new_state(self, spec: FighterSpec) -> Any:
        """The system's own state of a new fighter (None under War Game)."""
        ...

    def start_status(self, f: Fighter) -> Status:
        """The status the wounds of its stat block leave it in."""
        ...


class _WeakIds(weakref.WeakKeyDictionary[Any, Any]):
    """Per-model id counters that do not keep finished models alive.

    Mesa 3.3.1 keeps ``Agent._ids`` as a class-level ``defaultdict`` keyed by model, so every
    model ever built stays in memory (upstream issue 3179). Weak keys let it go. Mesa 3.4 and
    later number agents on the model and have no ``_ids``: there :class:`Fighter` has none.
    """

    def __getitem__(self, model: Any) -> Any:
        # the counter is also kept on the model: a battle's other agents find it there,
        # without a weak reference made per lookup
        counter = getattr(model, "_fighter_ids", None)
        if counter is not None:
            return counter
        try:
            counter = super().__getitem__(model)
        except KeyError:
            counter = itertools.count(1)
            self[model] = counter
        model._fighter_ids = counter
        return counter


class Fighter(CellAgent):
    """One fighter on one side: its stat block, the frame's state and its system's state.

    ``wg`` is its War Game record (hit dice, armor pool, wounds), which the frame keeps for
    every system (initiative, morale); ``state`` is its battle system's own state object
    (:meth:`sim.systems.base.RuleSystem.new_state`: 2W2P blows, Deathwish wound levels,
    D6 condition; None under War Game). ``status`` is the one every system shares (RULES.md 0);
    ``in_fight`` (active or fleeing: not yet out of the fight) and ``active`` (it can act:
    only active fighters do) follow it, kept as plain attributes since every turn reads them.
    On a battle with a map it stands on a cell of the battle's grid (``cell``, Mesa's
    ``CellAgent``); without one ``cell`` stays None.
    """

    if "_ids" in vars(mesa.Agent):  # Mesa 3.3 (Mesa 3.4 numbers agents on the model)
        _ids = _WeakIds()
    in_fight: bool
    active: bool

    def __init__(self, model: mesa.Model, spec: FighterSpec, side: str, leader: bool) -> None:
        super().__init__(model)
        self.spec = spec
        self.name = spec.name
        self.side = side
        self.role = spec.role
        self.leader = leader
        self.status = Status.ACTIVE
        self.fights = spec.fights
        self.fought = False
        self.arrived_round = 0
        # War Game (also used by every system for initiative and morale): a record of its
        # own, which the battle changes in place (the start is shared by every battle)
        self.wg = _wargame_start(
            spec.hit_dice,
            spec.armor,
            spec.dex_modifier if spec.savvy is None else wargame.savvy_modifier(spec.savvy),
            spec.shield,
            max(spec.strength, spec.athletics),
            spec.resolve,
            spec.inventory_slots,
            spec.healing_tools,
        ).copy()
        self.in_cover = False
        self.acted = False
        system: Starter | None = getattr(model, "system", None)
        self.state: Any = system.new_state(spec) if system is not None else None
        # records
        self.wounds_dealt = 0
        self.wounds_taken = 0
        if spec.wounds or spec.status != "active":
            self.start_hurt(system)
        self.hd_start = self.wg.hit_dice

    def start_hurt(self, system: Starter | None) -> None:
        """Book what the stat block says happened before the battle: wounds and status.

        Each of ``spec.wounds`` is one wound: 1 HD lost from the frame's War Game record
        (the HD every system uses for initiative and morale); the system's own state took
        them as its own kind of wound when it was made (``new_state``). A fighter those
        wounds put out of the fight starts out of it
        (:meth:`~sim.systems.base.RuleSystem.start_status`); ``spec.status`` may start it
        out of the fight anyway.
        """
        n = self.spec.wounds
        if n:
            self.wg, _ = wargame.lose_hd(
                self.wg, n, source="before the battle", finish="incapacitate"
            )
        status = Status(self.spec.status)
        if status == Status.ACTIVE and system is not None:
            status = system.start_status(self)
        self.status = status
        self.wg = self.wg.evolve(status=status)

    @property
    def status(self) -> Status:
        """Its status; setting it sets :attr:`in_fight` and :attr:`active` too."""
        return self._status

    @status.setter
    def status(self, status: Status) -> None:
        self._status = status
        self.in_fight = status not in OUT_OF_FIGHT
        self.active = status == Status.ACTIVE

    @property
    def tier(self) -> twowp.Tier:
        """2W2P tier from the fight count."""
        return twowp.tier_from_fights(self.fights)

    def __repr__(self) -> str:
        return f"Fighter({self.name!r}, side={self.side!r}, {self.status.value})"


def is_active(f: Fighter) -> bool:
    """True if ``f`` can act."""
    return f.active


def is_in_fight(f: Fighter) -> bool:
    """True if ``f`` is active or fleeing."""
    return f.in_fight


# A fighter's starting records are pure functions of a few stats, the same in every battle of
# a sweep: each is computed once, and every fighter gets a copy of its own.
@lru_cache(maxsize=4096)
def _wargame_start(
    hit_dice: int,
    armor: tuple[str, ...],
    dex_modifier: int,
    shield: str | int | None,
    strength: int,
    resolve: int,
    inventory_slots: int = 0,
    healing_tools: int = 0,
) -> wargame.Combatant:
    """A fresh War Game record (:func:`sim.rules.wargame.combatant`)."""
    return wargame.combatant(
        hit_dice,
        armor=[_armor_item(a) for a in armor],
        dex_modifier=dex_modifier,
        shield=shield,
        strength=strength,
        resolve=resolve,
        inventory_slots=inventory_slots,
        healing_tools=healing_tools,
    )


def _armor_item(text: str) -> str | tuple[str, int]:
    """``"piecemeal:3"`` -> ``("piecemeal", 3)``; other names pass through."""
    name, sep, pieces = text.partition(":")
    return (name.strip(), int(pieces)) if sep else text
