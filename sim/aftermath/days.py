"""The day-stepping model every rule system's aftermath shares (see :mod:`sim.aftermath`).

:class:`Aftermath` holds one camp's patients, healers and their state day by day: who can
work, triage, the day loop and its rows. One subclass per rule system says what differs
(:mod:`sim.aftermath.twowp`, :mod:`~sim.aftermath.deathwish`, :mod:`~sim.aftermath.d6`,
:mod:`~sim.aftermath.wargame`); it never tests a system's name:

- in the days: a patient's state at the start (:meth:`Aftermath.initial_state`), its place
  in triage (:meth:`~Aftermath.urgency`), what a day does (:meth:`~Aftermath.day_step`), what
  a row shows of its state (:meth:`~Aftermath.row_fields`) and what a survivor carries out
  (:meth:`~Aftermath.carries`);
- between the battles of a campaign (:mod:`sim.run.campaign`): whom the battle hurt
  (:meth:`~Aftermath.hurt`), who is healed (:meth:`~Aftermath.healed`), a patient less what
  it carried into the battle (:meth:`~Aftermath.less_carried`), what a campaign row shows of
  a member (:meth:`~Aftermath.member_fields`), and whether members who sat a battle out are
  its aftermath's patients (:attr:`~Aftermath.treats_sitting_out`).

What a member carries between battles is a mapping of :class:`~sim.aftermath.Patient` fields
(``twowp_state``, ``dw_wounds``, ``d6_condition`` or ``hd``): what the battle's rule system
takes out of an aftermath and gives its fighters at the next battle
(``sim.systems.RuleSystem.carry_out`` and ``carry_in``).

``Aftermath(patients, healers, system, rng)`` makes the aftermath of the system named
(:data:`KINDS`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, ClassVar

import numpy as np

from sim.aftermath.healers import DEFAULT_CAMP, Healer, students_of, unique, working_level
from sim.aftermath.patients import Patient
from sim.errors import SimError, unknown
from sim.options import CampOptions
from sim.rules.common import Status
from sim.rules.twowp import Skill

KINDS: dict[str, type[Aftermath]] = {}
"""Each rule system's :class:`Aftermath` by the system's name (each subclass files itself)."""

_AWAY = (Status.FLED.value, Status.SURRENDERED.value)


@dataclass(slots=True)
class Day:
    """What healers did for one patient today."""

    carers: list[Healer] = field(default_factory=list)
    attending: list[Healer] = field(default_factory=list)
    extra_dice: int = 0
    dice: int | None = None
    bound: set[int] = field(default_factory=set)


class Aftermath(ABC):
    """Days after one battle for one camp (or several sides' patients at once).

    Args:
        patients: the survivors' (and the dead's) end state; the dead stay dead.
        healers: the camp's healers (patients may be healers too).
        system: ``2w2p``, ``deathwish``, ``d6`` or ``wargame`` (:data:`KINDS`): the object
            made is that system's subclass.
        rng: the one Generator every draw comes from.
        camp: :class:`CampOptions`.
        options: the system's ``Options`` (battle options; default its defaults).
        aftermath_options: the system's ``AftermathOptions`` (none for War Game).
        start_day: the campaign day of this battle (2W2P wounds and infections are dated on
            the campaign's calendar, so state carried from an earlier aftermath stays right).

    Call :meth:`step` once per day (day 0 is the battle's day; rows count days from it);
    :attr:`rows` holds every row so far, :attr:`assignments` the last day's work by healer,
    :attr:`states` each patient's state (2W2P: a ``twowp.PatientState`` to carry into the
    next battle's aftermath), :attr:`status` each patient's status.
    """

    system: ClassVar[str] = ""
    """The rule system's name (a subclass's)."""
    rules: ClassVar[ModuleType | None] = None
    """The system's pure rules: its ``DEFAULT_OPTIONS`` and ``DEFAULT_AFTERMATH_OPTIONS``."""
    treats_sitting_out: ClassVar[bool] = True
    """Whether campaign members who sat the battle out are patients of its aftermath."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        KINDS[cls.system] = cls

    @staticmethod
    def kind(system: str) -> type[Aftermath]:
        """The aftermath class of the system called ``system``."""
        kind = KINDS.get(system)
        if kind is None:
            raise unknown("rules system", system, KINDS)
        return kind

    def __new__(
        cls,
        patients: Iterable[Patient],
        healers: Iterable[Healer],
        system: str,
        rng: np.random.Generator,
        **kwargs: Any,
    ) -> Aftermath:
        """The aftermath of the system called ``system``."""
        kind = cls.kind(system)
        if not issubclass(kind, cls):
            raise SimError(f"{cls.__name__} is no aftermath of the {system} system")
        return object.__new__(kind)

    def __init__(
        self,
        patients: Iterable[Patient],
        healers: Iterable[Healer],
        system: str,
        rng: np.random.Generator,
        *,
        camp: CampOptions = DEFAULT_CAMP,
        options: Any = None,
        aftermath_options: Any = None,
        start_day: int = 0,
    ) -> None:
        self.patients = tuple(patients)
        names = [p.name for p in self.patients]
        if len(set(names)) != len(names):
            raise SimError("patient names must be unique")
        self.healers = tuple(healers)
        self.students = students_of(self.healers)
        self.rng = rng
        self.camp = camp
        self.options: Any = (
            options if options is not None else getattr(self.rules, "DEFAULT_OPTIONS", None)
        )
        self.aftermath_options: Any = (
            aftermath_options
            if aftermath_options is not None
            else getattr(self.rules, "DEFAULT_AFTERMATH_OPTIONS", None)
        )
        if start_day < 0:
            raise SimError(f"start_day must be 0 or more, got {start_day}")
        self.start_day = start_day
        self.day = 0
        self.rows: list[dict[str, Any]] = []
        self.assignments: dict[str, list[tuple[str, str]]] = {}
        self.status: dict[str, str] = {p.name: p.status for p in self.patients}
        self.states: dict[str, Any] = {}
        for p in self.patients:
            self.states[p.name] = self.initial_state(p)

    # ---------------------------------------------------------------- the system's hooks
    @abstractmethod
    def initial_state(self, p: Patient) -> Any:
        """``p``'s state under the system at the start of the battle's day."""

    @abstractmethod
    def urgency(self, p: Patient) -> tuple[Any, ...]:
        """``p``'s triage key, most urgent least (``felled_first``)."""

    @abstractmethod
    def day_step(self, days: dict[str, Day]) -> None:
        """Run today: the healers' work and what time does, per patient into ``days``."""

    def row_fields(self, p: Patient, state: Any) -> dict[str, Any]:
        """A row's ``wounds``, ``infections``, ``infections_known``, ``hd`` and ``condition``."""
        return {"wounds": [], "infections": 0, "infections_known": 0, "hd": None, "condition": None}

    @abstractmethod
    def carries(self, state: Any) -> dict[str, Any]:
        """What a survivor of ``state`` carries out (:meth:`survivor`'s system keys)."""

    @abstractmethod
    def hurt(self, p: Patient) -> bool:
        """Whether living ``p`` has wounds to heal (or carried ones still open)."""

    @abstractmethod
    def healed(self, row: Mapping[str, Any], hd_max: int, carried: Mapping[str, Any]) -> bool:
        """Whether a row's patient, up, carries no open wound (``carried``: what it brought)."""

    @classmethod
    def less_carried(cls, p: Patient, carried: Mapping[str, Any]) -> Patient:
        """A battle's patient less what it ``carried`` into the battle (that was no new hurt)."""
        return p

    @classmethod
    def member_fields(cls, carried: Mapping[str, Any], hit_dice: int, dead: bool) -> dict[str, Any]:
        """What a campaign row shows of a member carrying ``carried``.

        Its ``wounds``, ``wounding``, ``felling``, ``dw_wounds``, ``condition``, ``hd`` and
        ``conditions`` (the member has ``hit_dice`` HD in full, and is ``dead`` or not).
        """
        return {
            "wounds": 0,
            "wounding": None,
            "felling": None,
            "dw_wounds": [],
            "condition": None,
            "hd": None,
            "conditions": "",
        }

    # ---------------------------------------------------------------- what the campaign asks
    def wounded(self, p: Patient) -> bool:
        """Alive after the battle and hurt: wounds to heal (or carried ones still open)."""
        return p.status != Status.DEAD.value and self.hurt(p)

    def recovered(self, row: Mapping[str, Any], hd_max: int, carried: Mapping[str, Any]) -> bool:
        """Alive, up, and carrying no open wound at the end of the row's day."""
        if row["status"] in (Status.DEAD.value, Status.INCAPACITATED.value):
            return False
        return self.healed(row, hd_max, carried)

    # ---------------------------------------------------------------- healers at work
    def _level(self, h: Healer) -> Skill:
        return working_level(h, self.students.get(h.name, ()), self.camp)

    def _healers(self, role: str) -> list[Healer]:
        """Healers of ``role`` who can work, best first (working level, then list order)."""
        hs = [h for h in self.healers if h.role == role and self._can_work(h)]
        hs = [h for h in hs if self._level(h) is not Skill.UNSKILLED]
        return sorted(hs, key=lambda h: -self._level(h).rank)

    def _can_work(self, h: Healer) -> bool:
        """A healer who is also a patient works only while active (or fleeing) [H]."""
        status = self.status.get(h.name)
        return status is None or status in (Status.ACTIVE.value, Status.FLEEING.value)

    def _alive(self) -> list[Patient]:
        return [p for p in self.patients if self.status[p.name] != Status.DEAD.value]

    def _assign(self, healer: Healer, patient: Patient, task: str) -> None:
        self.assignments.setdefault(healer.name, []).append((patient.name, task))

    def _kept_away(self, p: Patient, status: str) -> str:
        """An ``active`` status, or ``p``'s battle status if it fled or surrendered."""
        return p.status if status == Status.ACTIVE.value and p.status in _AWAY else status

    # ---------------------------------------------------------------- triage
    def triage(self, patients: Sequence[Patient]) -> list[Patient]:
        """Patients in the order healers take them (``triage``; see :mod:`sim.aftermath`)."""
        if self.camp.triage == "listed":
            return list(patients)
        index = {p.name: i for i, p in enumerate(self.patients)}
        return sorted(patients, key=lambda p: (*self.urgency(p), index[p.name]))

    # ---------------------------------------------------------------- stepping
    def step(self) -> list[dict[str, Any]]:
        """Run one day; return its rows (one per patient, list order)."""
        self.assignments = {}
        days = {p.name: Day() for p in self.patients}
        self.day_step(days)
        rows = [self._row(p, days[p.name]) for p in self.patients]
        self.rows.extend(rows)
        self.day += 1
        return rows

    def run(self, days: int) -> list[dict[str, Any]]:
        """Run ``days`` days; return their rows."""
        out: list[dict[str, Any]] = []
        for _ in range(days):
            out.extend(self.step())
        return out

    def survivor(self, name: str) -> dict[str, Any]:
        """What a patient carries into the next battle of a campaign.

        ``status``, ``fights``, and per system: ``twowp_state`` with ``wounding``/``felling``
        (the blows still carried, 2.1), ``dw_wounds``, ``d6_condition`` or ``hd``.
        """
        p = next(x for x in self.patients if x.name == name)
        out: dict[str, Any] = {"status": self.status[name], "fights": p.fights}
        return {**out, **self.carries(self.states[name])}

    def _row(self, p: Patient, day: Day) -> dict[str, Any]:
        return {
            "day": self.day,
            "name": p.name,
            "side": p.side,
            "status": self.status[p.name],
            "fights": p.fights,
            "dice": day.dice,
            "treated_by": [h.name for h in unique(day.carers)],
            **self.row_fields(p, self.states[p.name]),
        }


def run_aftermath(
    patients: Iterable[Patient],
    healers: Iterable[Healer],
    system: str,
    days: int,
    rng: np.random.Generator,
    **kwargs: Any,
) -> Aftermath:
    """Build an :class:`Aftermath` and run it for ``days`` days."""
    a = Aftermath.kind(system)(patients, healers, system, rng, **kwargs)
    a.run(days)
    return a
