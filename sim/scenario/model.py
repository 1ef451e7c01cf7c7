"""Scenario: the frozen description of a battle (sides, fighters, goals, factors, events).

A :class:`Scenario` is plain, immutable data; :class:`sim.battle.battle.Battle` builds Mesa agents
from it. Everything a battle needs is here, so the same scenario and seed give the same
battle. Fighters carry stats for every system, so one scenario can be fought under any of
the four: War Game fields at the top level, 2W2P's fight count and skills, and the
``deathwish`` and ``d6`` blocks (defaults give an average fighter).

A scenario's option groups and its sides' tactics are built (and checked) once, the first
time a battle asks for them (:meth:`Scenario.rule_options`, :meth:`~Scenario.frame_options`,
:attr:`~Scenario.battle_options`, :meth:`~Scenario.side_tactic`), and kept with it; the rule
system (:mod:`sim.systems`) that builds the first two is passed in, so this module imports
no Mesa.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, NoReturn, Protocol

from sim.errors import SimError, unknown
from sim.options import BattleOptions, build_options
from sim.rules import wargame
from sim.rules.deathwish import DEFAULT_SKILL, WornArmor, worn_armor
from sim.scenario.tactics import Tactic, make_tactic
from sim.space.map import MapSpec

if TYPE_CHECKING:
    from sim.aftermath import Healer

GOAL_KINDS = ("protect", "destroy", "hold", "take_and_hold")
DRAW = "draw"
"""The outcome of a battle nobody won (the runs table's ``outcome``): no side's name."""


class OptionBuilder(Protocol):
    """What a scenario asks of its rule system to build its options.

    Every :class:`sim.systems.base.RuleSystem` is one; the scenario names no system above it.
    """

    def build_options(self, values: Mapping[str, Any], where: str) -> Any:
        """The system's ``Options`` from a scenario's ``rules.options``."""
        ...

    def frame(self, options: Any, values: Mapping[str, Any]) -> wargame.Options:
        """The War Game frame's options under the system, from a scenario's ``frame``."""
        ...


class FrozenDict(dict[str, Any]):
    """A dict that cannot change after it is built; hashable and picklable."""

    def _readonly(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise TypeError("this mapping is frozen")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = _readonly
    __ior__ = _readonly

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(tuple(sorted(self.items(), key=repr)))

    def __reduce__(self) -> tuple[Any, ...]:
        return (FrozenDict, (dict(self),))


def _frozen(mapping: Mapping[str, Any] | None) -> Mapping[str, Any]:
    return mapping if isinstance(mapping, FrozenDict) else FrozenDict(mapping or {})


@dataclass(frozen=True, slots=True)
class DeathwishStats:
    """A fighter's Deathwish block: firearm, armor by location, attack skill, trait modifier.

    ``armor`` is the Armor on each part of the body (a hit meets only the struck part's);
    one number or armor name given instead is body armor, torso and vitals
    (:func:`sim.rules.deathwish.worn_armor`).
    """

    weapon: str = "Unarmed"
    armor: WornArmor = WornArmor()
    skill: int = DEFAULT_SKILL
    traits: int = 0
    ammo: str = "standard"

    def __post_init__(self) -> None:
        """Read one armor value (points or a name) as body armor."""
        object.__setattr__(self, "armor", worn_armor(self.armor))


@dataclass(frozen=True, slots=True)
class D6Stats:
    """A fighter's D6-tiers block as dice codes (``3D``, ``4D+1``).

    ``attack`` is the weapon skill (hit rating), ``damage`` the weapon's damage code (empty:
    unarmed, Strength - 2 pips), ``armor`` the armor/shield dice added to the body roll.
    ``ride`` is the Ride skill, a reaction of a ``mounted`` fighter (empty: none). ``range``
    is the reach of a ranged weapon in feet (0: hand to hand); a ranged attack cannot be
    parried. ``area`` makes the attack an area attack that catches up to that many enemies
    (0: a single target). ``poison`` is the potency of a poison on the weapon (empty: none):
    a blow that wounds poisons its target (``d6.poison_from``), who rolls ``resist`` (its
    Resist Disease or Poison code; empty: its Strength) against it in the aftermath.
    ``religion`` is the Religion skill: at 4D the fighter may raise the dead of its side
    with the ritual in the aftermath (empty: none).
    """

    strength: str = "3D"
    dexterity: str = "3D"
    attack: str = "4D"
    dodge: str = "3D"
    parry: str = ""
    damage: str = "4D"
    armor: str = "0D"
    size: str | int = 0
    ride: str = ""
    range: int = 0
    area: int = 0
    poison: str = ""
    resist: str = ""
    religion: str = ""


ROLLED_GEAR = {"weapon": "d12", "armor": "d6"}
"""War Game gear a fighter may roll on its table when it joins a battle, and the table's die."""

START_STATUSES = ("active", "incapacitated", "dead", "fled", "surrendered")
"""What a fighter may be when the battle starts: in it, or already out of it."""


@dataclass(frozen=True, slots=True)
class FighterSpec:
    """One fighter's stat block.

    War Game: ``hit_dice``, worn ``armor`` (table names; piecemeal as ``"piecemeal:3"``),
    ``shield`` (small/medium/large or 2..4), ``weapon`` (a d12 category or ``plain``),
    ``dex_modifier`` (or a two-digit ``savvy`` score, whose second digit is used instead),
    ``inventory_slots``, ``healing_tools`` (uses, each 1 HD back), ``mounted``,
    ``two_handed``; ``rolled`` names the War Game gear rolled on its table when the fighter
    joins a battle instead (``weapon``: the d12 weapons, ``armor``: the d6 armors; a scenario
    writes ``weapon: {roll: d12}``). Shared attributes on
    the Deathwish scale (5 = average): ``body``, ``strength``, ``dexterity``; ``athletics`` is
    added in War Game contests instead of Strength when higher. 2W2P: ``fights`` (the count
    of life-or-death fights: its tier), ``prime``, ``skills`` (name -> level),
    ``head_protection`` (body protection is any worn armor). ``resolve`` is used by
    ``morale_compare: fixed``. ``front`` groups 2W2P fronts.

    A fighter may start the battle hurt or out of it: ``wounds`` taken before it (each one
    wound of its system's own kind, see :meth:`sim.frame.agents.Fighter.start_hurt`) and a starting
    ``status`` (``active``, or out of the fight: ``incapacitated``, ``dead``, ``fled``,
    ``surrendered``).
    """

    name: str
    role: str = "fighter"
    hit_dice: int = 4
    armor: tuple[str, ...] = ()
    shield: str | int | None = None
    weapon: str = "plain"
    dex_modifier: int = 0
    savvy: int | None = None
    inventory_slots: int = 10
    healing_tools: int = 0
    mounted: bool = False
    two_handed: bool = False
    rolled: tuple[str, ...] = ()
    body: int = 5
    strength: int = 5
    dexterity: int = 5
    athletics: int = 0
    prime: bool = True
    fights: int = 0
    skills: Mapping[str, str] = field(default_factory=dict)
    head_protection: bool = False
    resolve: int = 4
    front: str = "main"
    deathwish: DeathwishStats = DeathwishStats()
    d6: D6Stats = D6Stats()
    wounds: int = 0
    status: str = "active"

    def __post_init__(self) -> None:
        object.__setattr__(self, "skills", _frozen(self.skills))
        object.__setattr__(self, "armor", tuple(self.armor))
        object.__setattr__(self, "rolled", tuple(self.rolled))
        if bad := [r for r in self.rolled if r not in ROLLED_GEAR]:
            raise unknown("gear to roll", bad[0], list(ROLLED_GEAR))
        if not self.name:
            raise SimError("a fighter needs a name")
        if self.hit_dice < 1:
            raise SimError(f"{self.name}: hit_dice must be 1 or more, got {self.hit_dice}")
        if self.fights < 0:
            raise SimError(f"{self.name}: fights must be 0 or more, got {self.fights}")
        if self.wounds < 0:
            raise SimError(f"{self.name}: wounds must be 0 or more, got {self.wounds}")
        if self.status not in START_STATUSES:
            raise unknown("starting status", self.status, START_STATUSES)

    def renamed(self, name: str) -> FighterSpec:
        """The same stat block under another name (for groups with a count)."""
        return replace(self, name=name)


@dataclass(frozen=True, slots=True)
class Goal:
    """A side's goal beyond beating the enemy (RULES.md 1.11).

    - ``protect``: ``target`` (an own fighter) must not be incapacitated or killed.
    - ``destroy``: bring an object of ``toughness`` to 0 (damage reduces it).
    - ``hold``: still have fighters in the fight after ``rounds`` rounds.
    - ``take_and_hold``: hold the territory (more fighters active than all enemies) for
      ``rounds`` consecutive rounds.

    A goal achieved wins the battle for its side when ``wins`` is true; a goal made
    impossible loses it (and is a morale trigger).
    """

    kind: str
    target: str = ""
    toughness: int = 0
    rounds: int = 0
    wins: bool = True

    def __post_init__(self) -> None:
        if self.kind not in GOAL_KINDS:
            from sim.errors import unknown

            raise unknown("goal kind", self.kind, GOAL_KINDS)


@dataclass(frozen=True, slots=True)
class FactorSpec:
    """An environmental factor: ``kind`` (cover/distraction/hazard) and its table ``name``.

    ``name=None`` rolls the kind's d8 table with the battle's generator when it enters play.
    """

    kind: str
    name: str | None = None


@dataclass(frozen=True, slots=True)
class Event:
    """A scripted event at the start of round ``round``.

    ``reinforce``: ``fighters`` join ``side``. ``add_factor`` / ``remove_factor``: a factor
    enters or leaves play.
    """

    round: int
    kind: str
    side: str = ""
    fighters: tuple[FighterSpec, ...] = ()
    factor: FactorSpec | None = None


@dataclass(frozen=True, slots=True)
class TacticSpec:
    """A side's tactic by name, with parameter overrides (see :mod:`sim.scenario.tactics`)."""

    name: str = "balanced"
    params: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "params", _frozen(self.params))


@dataclass(frozen=True, slots=True)
class Side:
    """One side: its fighters, the name of its leader, its tactic and goals."""

    name: str
    fighters: tuple[FighterSpec, ...]
    leader: str | None = None
    tactic: TacticSpec = TacticSpec()
    goals: tuple[Goal, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "fighters", tuple(self.fighters))
        object.__setattr__(self, "goals", tuple(self.goals))


@dataclass(frozen=True, slots=True)
class Scenario:
    """A whole battle: rules system and options, sides, factors, events, limits.

    ``options`` are the rule system's own (see ``sim options``); ``frame`` holds War Game
    frame options (morale, scale, initiative) when the system is not ``wargame``;
    ``battle`` holds the battle's own house rules (:class:`sim.options.BattleOptions`).
    These plain mappings are what the scenario says; the option groups built from them (and
    each side's :class:`~sim.scenario.tactics.Tactic`) are built the first time they are asked for
    and kept, so the battles of one scenario share them. A bad value raises
    :class:`~sim.errors.SimError` then, naming its path (``rules.options.pool: ...``).
    """

    sides: tuple[Side, ...]
    name: str = "battle"
    description: str = ""
    rules: str = "wargame"
    options: Mapping[str, Any] = field(default_factory=dict)
    frame: Mapping[str, Any] = field(default_factory=dict)
    battle: Mapping[str, Any] = field(default_factory=dict)
    max_rounds: int = 50
    factors: tuple[FactorSpec, ...] = ()
    events: tuple[Event, ...] = ()
    seed: int | None = None
    aftermath: AftermathSpec | None = None
    campaign: CampaignSpec | None = None
    map: MapSpec | None = None  # battlefield space (sim.space.map); None: the abstract battle
    _built: dict[str, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for name in ("options", "frame", "battle"):
            object.__setattr__(self, name, _frozen(getattr(self, name)))
        object.__setattr__(self, "sides", tuple(self.sides))
        object.__setattr__(self, "factors", tuple(self.factors))
        object.__setattr__(self, "events", tuple(self.events))
        if len(self.sides) < 2:
            raise SimError("a battle needs at least two sides")
        if self.max_rounds < 1:
            raise SimError(f"max_rounds must be 1 or more, got {self.max_rounds}")
        names = [s.name for s in self.sides]
        if len(set(names)) != len(names):
            raise SimError(f"side names must differ, got {names}")
        if DRAW in names:
            raise SimError(f"{DRAW!r} is not a side's name: it is the outcome nobody won")

    def mirrored(self) -> Scenario:
        """The same battle with the order of the sides reversed (for bias checks)."""
        return replace(self, sides=tuple(reversed(self.sides)))

    def rule_options(self, system: OptionBuilder) -> Any:
        """The rules system's ``Options`` (``sim.rules.X.Options``) built from ``options``.

        ``system`` is the scenario's rule system (``sim.systems.get(self.rules)``), which
        builds them the first time; later calls give the same object.
        """
        return self._once("options", lambda: system.build_options(self.options, "rules.options"))

    def frame_options(self, system: OptionBuilder) -> wargame.Options:
        """The War Game frame's options, built by the scenario's rule system from ``frame``.

        Under War Game they are its own options (and a ``frame`` is an error).
        """
        frame: wargame.Options = self._once(
            "frame", lambda: system.frame(self.rule_options(system), self.frame)
        )
        return frame

    @property
    def battle_options(self) -> BattleOptions:
        """The battle's house rules built from ``battle``."""
        built: BattleOptions = self._once(
            "battle", lambda: build_options(BattleOptions, dict(self.battle), where="battle")
        )
        return built

    def side_tactic(self, name: str) -> Tactic:
        """The tactic of the side called ``name``, built from its :class:`TacticSpec`."""
        tactic: Tactic = self._once(f"tactic {name}", lambda: self._build_tactic(name))
        return tactic

    def _build_tactic(self, name: str) -> Tactic:
        (side,) = (s for s in self.sides if s.name == name)
        spec = side.tactic
        return make_tactic(spec.name, dict(spec.params), where=f"sides.{name}.tactic")

    def _once(self, key: str, build: Callable[[], Any]) -> Any:
        """``build()`` the first time ``key`` is asked for; the same object after that."""
        if key not in self._built:
            self._built[key] = build()
        return self._built[key]


# --------------------------------------------------------------------------------------------
# After the battle: the aftermath and campaigns (sim.aftermath, sim.run.campaign)


@dataclass(frozen=True, slots=True)
class AftermathSpec:
    """The scenario's ``aftermath`` key: days after the battle, camp healers and options.

    ``healers`` are camp healers who do not fight (:class:`sim.aftermath.Healer`, each with
    its ``side``); fighters whose ``skills`` name nurse, surgeon or physician heal their own
    side too. ``camp`` holds :class:`sim.options.CampOptions` values, ``options`` the rule
    system's ``AftermathOptions`` values.
    """

    days: int = 7
    healers: tuple[Healer, ...] = ()
    camp: Mapping[str, Any] = field(default_factory=dict)
    options: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "healers", tuple(self.healers))
        for name in ("camp", "options"):
            object.__setattr__(self, name, _frozen(getattr(self, name)))
        if self.days < 1:
            raise SimError(f"aftermath.days must be 1 or more, got {self.days}")


@dataclass(frozen=True, slots=True)
class CampaignSpec:
    """The scenario's ``campaign`` key: one side's company through several battles.

    ``battles`` are whole scenarios (the file's own, each patched by its ``battles`` entry);
    the ``side`` named carries on from one to the next: its roster is the scenario's, its
    survivors keep their wounds and fight counts. ``names`` labels each battle; ``options``
    holds :class:`sim.options.CampaignOptions` values.
    """

    side: str
    battles: tuple[Scenario, ...]
    days_between: int = 7
    names: tuple[str, ...] = ()
    options: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "battles", tuple(self.battles))
        object.__setattr__(self, "names", tuple(self.names))
        object.__setattr__(self, "options", _frozen(self.options))
        if not self.battles:
            raise SimError("a campaign needs at least one battle")
        if self.days_between < 1:
            raise SimError(f"campaign.days_between must be 1 or more, got {self.days_between}")
