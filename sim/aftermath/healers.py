"""The camp's healers: who heals, at what level, and how much a day (seed 000 "healers").

A nurse cares for 3/5/8 patients at a time (competent/experienced/specialized), all day; a
surgeon treats 2/3/5 wounds or examines 3/4/5 patients an hour, a physician examines 3/3/5 or
compounds medicine for 2/3/5 an hour, for ``healer_hours`` hours a day. A supervisor takes
1/3/6 students and works at its least-skilled student's level.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from sim.dice import parse_code
from sim.errors import SimError, unknown
from sim.options import CampOptions
from sim.rules import twowp
from sim.rules.twowp import Skill, parse_skill

DEFAULT_CAMP = CampOptions()
ROLES = (*twowp.ROLES, "priest")
"""Healer roles: the 2W2P seed's nurse, surgeon and physician, and the D6 seed's priest, whose
resurrection spell raises the dead in a D6 tiers aftermath (and does nothing elsewhere)."""


@dataclass(frozen=True, slots=True)
class Healer:
    """A healer: an ordinary fighter with a skill level in one healing role.

    Attributes:
        name: the fighter's name.
        role: ``nurse``, ``surgeon``, ``physician`` or ``priest`` (:data:`ROLES`).
        skill: ``unskilled``, ``competent``, ``experienced`` or ``specialized``.
        supervisor: name of the healer supervising this one (a student), if any.
        first_aid: D6 tiers First Aid code; empty: the camp's code for ``skill``.
        side: the side it heals for (informational).
    """

    name: str
    role: str
    skill: str = "competent"
    supervisor: str | None = None
    first_aid: str = ""
    side: str = ""

    def __post_init__(self) -> None:
        if self.role not in ROLES:
            raise unknown("healer role", self.role, ROLES)
        object.__setattr__(self, "skill", parse_skill(self.skill).value)
        if self.first_aid:
            parse_code(self.first_aid)

    @property
    def level(self) -> Skill:
        """The skill level as a :class:`~sim.rules.twowp.Skill`."""
        return Skill(self.skill)


def healers_from_fighters(
    fighters: Iterable[Any], supervisors: dict[str, str] | None = None
) -> list[Healer]:
    """The healers among a side's fighters (``spec.skills`` naming nurse, surgeon, physician).

    A fighter with several healing skills heals in its best one (ties: surgeon, physician,
    nurse) [H]; ``supervisors`` maps a student's name to its supervisor's. Read duck-typed
    (``name``, ``side``, ``spec.skills``).
    """
    prefer = ("surgeon", "physician", "nurse")
    out = []
    for f in fighters:
        skills = {k: parse_skill(v) for k, v in dict(f.spec.skills).items() if k in prefer}
        if not skills:
            continue
        role = max(prefer, key=lambda r: (skills[r].rank if r in skills else -1, -prefer.index(r)))
        sup = (supervisors or {}).get(f.name)
        out.append(Healer(f.name, role, skills[role].value, supervisor=sup, side=f.side))
    return out


def students_of(healers: Sequence[Healer]) -> dict[str, list[Healer]]:
    """Students by supervisor name; a SimError for unknown supervisors or too many students."""
    names = {h.name for h in healers}
    if len(names) != len(healers):
        raise SimError("healer names must be unique")
    out: dict[str, list[Healer]] = {}
    for h in healers:
        if h.supervisor is None:
            continue
        if h.supervisor not in names or h.supervisor == h.name:
            raise unknown("supervisor", h.supervisor, sorted(names - {h.name}))
        out.setdefault(h.supervisor, []).append(h)
    by_name = {h.name: h for h in healers}
    for sup, studs in out.items():
        cap = twowp.supervision_capacity(by_name[sup].skill)
        if len(studs) > cap:
            raise SimError(
                f"healer {sup}: a {by_name[sup].skill} supervisor takes at most {cap} students, "
                f"got {len(studs)}"
            )
    return out


def working_level(
    healer: Healer, students: Sequence[Healer], camp: CampOptions = DEFAULT_CAMP
) -> Skill:
    """The level a healer works at.

    A supervisor works at its least-skilled student's level [S]; an unskilled student under
    supervision at competent (``supervised_unskilled``) [H].
    """

    def own(h: Healer) -> Skill:
        if h.level is Skill.UNSKILLED and h.supervisor is not None:
            return Skill.COMPETENT if camp.supervised_unskilled == "competent" else h.level
        return h.level

    return min([own(healer), *(own(s) for s in students)], key=lambda s: s.rank)


def day_capacity(
    role: str,
    task: str,
    level: Skill,
    camp: CampOptions = DEFAULT_CAMP,
    options: twowp.Options = twowp.DEFAULT_OPTIONS,
) -> Fraction:
    """Work units a healer of ``level`` gets through in a day.

    Nurse ``care``: patients at a time; the hourly tasks: their rate times ``healer_hours``.
    """
    per = twowp.healer_capacity(role, task, level, options)
    if role == "nurse":
        return Fraction(per)
    return Fraction(per * camp.healer_hours)


class Budget:
    """A surgeon's or physician's hours left today; tasks cost 1/rate hours each."""

    def __init__(self, healer: Healer, level: Skill, camp: CampOptions, options: Any) -> None:
        self.healer = healer
        self.level = level
        self.hours = Fraction(camp.healer_hours) if level is not Skill.UNSKILLED else Fraction(0)
        self.options = options

    def cost(self, task: str) -> Fraction | None:
        """Hours one ``task`` takes this healer (None: it cannot do it)."""
        rate = twowp.healer_capacity(self.healer.role, task, self.level, self.options)
        return Fraction(1, rate) if rate else None

    def spend(self, task: str) -> bool:
        """Spend the hours of one ``task``; False (nothing spent) if they are not left."""
        c = self.cost(task)
        if c is None or c > self.hours:
            return False
        self.hours -= c
        return True


def unique(healers: Iterable[Healer]) -> list[Healer]:
    """``healers`` without repeats (by name), in order."""
    seen: set[str] = set()
    out = []
    for h in healers:
        if h.name not in seen:
            seen.add(h.name)
            out.append(h)
    return out
