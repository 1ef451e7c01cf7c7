"""Days after a battle: injury, infection, recovery and healers (RULES.md 1.4, 2.5, 3, 4).

A Mesa-free core. :class:`Aftermath` takes the survivors' end state (:class:`Patient`, built
from a battle's fighters by :func:`patient_from_fighter`), the side's healers
(:class:`Healer`: ordinary fighters with a nurse, surgeon or physician skill level), the rule
system and a ``numpy.random.Generator``; each :meth:`Aftermath.step` is one day (day 0 is the
day of the battle) and yields one row per patient (:data:`ROW_KEYS`,
``sim.records.AFTERMATH_FIELDS``).

Per system:

- **2W2P** (RULES.md 2.5, the full model; rules in :mod:`sim.rules.twowp`): wounds that need
  re-set (felling ones always, others 1 in 3, secretly); on the day of the blow each wound is
  an infection risk; a felled fighter's death risk every day until removed; each infection a
  daily death risk from the next day; a recovery goal per wound after each day of rest; all
  rolled as one task by the patient and its carers (2.2, 2.3). Healers detect infections and
  re-sets by their skill and role; surgeons bind and re-set; physicians compound medicine.
- **Deathwish** (RULES.md 3): on the battle's day, surgeons reach the bleeding in triage
  order; a Serious wound kills if treatment has not started within ``serious_minutes``, a
  Critical one within ``critical_minutes``; survivors stay incapacitated per
  ``incapacitated_from``. No recovery over days (the seed has none).
- **D6 tiers** (RULES.md 4 "Healing"): on the battle's day surgeons give first aid (one try
  per patient, First Aid code by skill level), patients drink their potions, the Mortally
  wounded who are not stabilized die, the Incapacitated wake as Wounded twice; then every
  third day of rest a Strength roll heals or infects one spot, with the first-aid bonus.
- **War Game** (RULES.md 1.4): 1 HD back per 8 hours of rest (:func:`hd_after_rest`); a
  creature incapacitated at 1 or fewer HD is back on its feet above ``wake_above_hd``.

Healers and capacity (seed 000 "healers"): a nurse cares for 3/5/8 patients at a time
(competent/experienced/specialized), all day; a surgeon treats 2/3/5 wounds or examines
3/4/5 patients an hour, a physician examines 3/3/5 or compounds medicine for 2/3/5 an hour,
for ``healer_hours`` hours a day. A supervisor (named by its students' ``supervisor``) takes
1/3/6 students, works at its least-skilled student's level, and each day adds one die to one
roll of one of its students (the first of that student's patients in triage order).

Default triage (``triage: felled_first`` [H]): patients who are felled (2W2P), bleeding out
(Deathwish: earliest deadline) or mortally wounded (D6) first; then those with a known
infection; then those with the most open wounds (worst condition); ties in list order.
Healers are taken best first (skill, then list order). A healer who is also a patient works
only while active (or fleeing), and not on itself. In 2W2P each day runs: nurses take
patients in triage order (one nurse per patient); every attending healer then spots what its
skill lets it (infections, wounds needing re-set); surgeons examine (experienced or
specialized: to find re-sets), bind the day's new wounds and re-set known ones; physicians
compound medicine for known infections and examine the rest; then every living patient rolls
(in list order), carers being its nurse, the surgeons who treated a wound of it and the
physicians who compounded for it (examining alone is no treatment [I]).

Options: the system's own (``twowp.Options`` ...), its ``AftermathOptions`` group
(``twowp.AftermathOptions``, ``deathwish.AftermathOptions``, ``d6.AftermathOptions``), and
:class:`CampOptions` here:

- ``healer_hours`` = 8 [H]: hours a surgeon or physician works a day.
- ``triage`` = ``felled_first`` [H]: the default triage above (``listed``: list order).
- ``supervised_unskilled`` = ``competent`` [H]: an unskilled student under supervision works
  at a competent healer's capacity (it still counts 0 in the head count) (``none``: not at all).
- ``first_aid_competent`` = "3D", ``first_aid_experienced`` = "4D",
  ``first_aid_specialized`` = "5D" [H]: D6 tiers First Aid code of a healer of that level
  (a healer's own ``first_aid`` code overrides it).
- ``rest_hours_per_day`` = 8 [H]: War Game hours of rest per aftermath day.
- ``wake_above_hd`` = 1 [I]: War Game: an incapacitated creature is up again once its HD
  exceed this.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from sim.dice import parse_code
from sim.errors import SimError, unknown
from sim.options import CampOptions
from sim.rules import d6, deathwish, twowp
from sim.rules.common import Status
from sim.rules.twowp import Skill, parse_skill

SYSTEMS = ("2w2p", "deathwish", "d6", "wargame")
HOURS_PER_HD = 8
"""War Game: "8 hours of rest to regain 1 HD" [S]."""

ROW_KEYS = (
    "day",
    "name",
    "side",
    "status",
    "fights",
    "dice",
    "treated_by",
    "wounds",
    "infections",
    "infections_known",
    "hd",
    "condition",
)
"""Keys of every aftermath row, in ``sim.records.AFTERMATH_FIELDS`` order (less run_id)."""

WOUND_KEYS = (
    "kind",
    "state",
    "advances",
    "needs_reset",
    "reset_known",
    "infected",
    "infection_known",
)
"""Keys of each entry of a row's ``wounds`` list."""


# --------------------------------------------------------------------------------------------
# Options, healers, patients
# --------------------------------------------------------------------------------------------


DEFAULT_CAMP = CampOptions()


@dataclass(frozen=True, slots=True)
class Healer:
    """A healer: an ordinary fighter with a skill level in one healing role.

    Attributes:
        name: the fighter's name.
        role: ``nurse``, ``surgeon`` or ``physician``.
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
        if self.role not in twowp.ROLES:
            raise unknown("healer role", self.role, twowp.ROLES)
        object.__setattr__(self, "skill", parse_skill(self.skill).value)
        if self.first_aid:
            parse_code(self.first_aid)

    @property
    def level(self) -> Skill:
        """The skill level as a :class:`~sim.rules.twowp.Skill`."""
        return Skill(self.skill)


@dataclass(frozen=True, slots=True)
class Patient:
    """One fighter's state at the end of a battle, as the aftermath needs it.

    Attributes:
        name, side, status: the fighter and its status at the battle's end (RULES.md 0).
        fights: its fight count after the battle (``twowp.fights_after_battle``).
        wounding, felling: 2W2P blows taken in this battle.
        twowp_state: 2W2P state carried from an earlier aftermath (campaigns), or None.
        dw_wounds: Deathwish wound levels carried.
        d6_condition: D6 tiers condition label (``wounded_twice`` ...).
        d6_strength: D6 tiers Strength code, for time healing.
        d6_potions: D6 tiers healing potions' dice codes, drunk on the battle's day.
        hd, hd_max: War Game current and full hit dice.
        in_battle: it fought in the battle (did not rest that day): in a campaign its older
            2W2P wounds get no recovery roll on the battle's day (:func:`twowp.patient_stakes`).
    """

    name: str
    side: str = ""
    status: str = "active"
    fights: int = 0
    wounding: int = 0
    felling: int = 0
    twowp_state: twowp.PatientState | None = None
    dw_wounds: tuple[str, ...] = ()
    d6_condition: str = "none"
    d6_strength: str = "3D"
    d6_potions: tuple[str, ...] = ()
    hd: int = 0
    hd_max: int = 0
    in_battle: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "status", Status(self.status).value)
        object.__setattr__(self, "dw_wounds", tuple(self.dw_wounds))
        object.__setattr__(self, "d6_potions", tuple(self.d6_potions))
        if self.fights < 0 or self.wounding < 0 or self.felling < 0:
            raise SimError(f"{self.name}: fights and blows must be 0 or more")


def patient_from_fighter(fighter: Any) -> Patient:
    """A :class:`Patient` from a battle's fighter (``sim.agents.Fighter``, read duck-typed).

    Reads ``name``, ``side``, ``status``, ``fights``, ``fought``, ``spec.d6.strength``,
    ``wg.hit_dice``, ``hd_start``, and what its battle's rule system says it carries
    (``model.system.carried``: 2W2P blows, Deathwish wound levels, the D6 condition). The
    2W2P blows are all the fighter carries (a campaign passes earlier state separately).
    """
    status = Status(getattr(fighter.status, "value", fighter.status))
    fights = twowp.fights_after_battle(fighter.fights, fighter.fought, status != Status.DEAD)
    return Patient(
        name=fighter.name,
        side=fighter.side,
        status=status.value,
        fights=fights,
        d6_strength=fighter.spec.d6.strength,
        hd=fighter.wg.hit_dice,
        hd_max=fighter.hd_start,
        in_battle=True,
        **fighter.model.system.carried(fighter),
    )


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


def hd_after_rest(hd: int, hd_max: int, rest_hours: int) -> tuple[int, int]:
    """War Game: (HD, hours of rest left over) after ``rest_hours`` of rest [S].

    1 HD back per full 8 hours, never above ``hd_max``; hours short of 8 carry over
    (none carry once the HD are full).
    """
    if hd < 0 or hd_max < 0 or rest_hours < 0:
        raise SimError("hit dice and rest hours must be 0 or more")
    gained, left = divmod(rest_hours, HOURS_PER_HD)
    new = min(hd_max, hd + gained)
    return new, (0 if new >= hd_max else left)


# --------------------------------------------------------------------------------------------
# Healer capacity and supervision
# --------------------------------------------------------------------------------------------


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


class _Budget:
    """A surgeon's or physician's hours left today; tasks cost 1/rate hours each."""

    def __init__(self, healer: Healer, level: Skill, camp: CampOptions, options: Any) -> None:
        self.healer = healer
        self.level = level
        self.hours = Fraction(camp.healer_hours) if level is not Skill.UNSKILLED else Fraction(0)
        self.options = options

    def cost(self, task: str) -> Fraction | None:
        rate = twowp.healer_capacity(self.healer.role, task, self.level, self.options)
        return Fraction(1, rate) if rate else None

    def spend(self, task: str) -> bool:
        c = self.cost(task)
        if c is None or c > self.hours:
            return False
        self.hours -= c
        return True


# --------------------------------------------------------------------------------------------
# The day-stepping model
# --------------------------------------------------------------------------------------------


@dataclass(slots=True)
class _Day:
    """What healers did for one patient today."""

    carers: list[Healer] = field(default_factory=list)
    attending: list[Healer] = field(default_factory=list)
    extra_dice: int = 0
    dice: int | None = None
    bound: set[int] = field(default_factory=set)


class Aftermath:
    """Days after one battle for one camp (or several sides' patients at once).

    Args:
        patients: the survivors' (and the dead's) end state; the dead stay dead.
        healers: the camp's healers (patients may be healers too).
        system: ``2w2p``, ``deathwish``, ``d6`` or ``wargame``.
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
        if system not in SYSTEMS:
            raise unknown("rules system", system, SYSTEMS)
        self.system = system
        self.patients = tuple(patients)
        names = [p.name for p in self.patients]
        if len(set(names)) != len(names):
            raise SimError("patient names must be unique")
        self.healers = tuple(healers)
        self.students = students_of(self.healers)
        self.rng = rng
        self.camp = camp
        module = {"2w2p": twowp, "deathwish": deathwish, "d6": d6}.get(system)
        self.options: Any = (
            options if options is not None else getattr(module, "DEFAULT_OPTIONS", None)
        )
        self.aftermath_options: Any = (
            aftermath_options
            if aftermath_options is not None
            else getattr(module, "DEFAULT_AFTERMATH_OPTIONS", None)
        )
        self._twowp_options: Any = self.options if system == "2w2p" else twowp.DEFAULT_OPTIONS
        if start_day < 0:
            raise SimError(f"start_day must be 0 or more, got {start_day}")
        self.start_day = start_day
        self.day = 0
        self.rows: list[dict[str, Any]] = []
        self.assignments: dict[str, list[tuple[str, str]]] = {}
        self.status: dict[str, str] = {p.name: p.status for p in self.patients}
        self.states: dict[str, Any] = {}
        self._examined: dict[str, int] = {}
        self._dw_treated: dict[str, bool] = {}
        self._d6_bonus: dict[str, int] = {}
        self._d6_rolls: dict[str, int] = {}
        self._wg_hours: dict[str, int] = {}
        for p in self.patients:
            self.states[p.name] = self._initial_state(p)

    # ---------------------------------------------------------------- set-up
    def _initial_state(self, p: Patient) -> Any:
        if self.system == "2w2p":
            return p.twowp_state if p.twowp_state is not None else twowp.PatientState()
        if self.system == "deathwish":
            return p.dw_wounds
        if self.system == "d6":
            return d6.Condition.from_label(p.d6_condition)
        return p.hd

    def _level(self, h: Healer) -> Skill:
        return working_level(h, self.students.get(h.name, ()), self.camp)

    def _weight(self, h: Healer) -> int:
        """What a carer counts for in the patient's roll: a supervisor as its least student."""
        if self.students.get(h.name):
            return twowp.skill_weight(self._level(h), self._twowp_options)
        return twowp.skill_weight(h.skill, self._twowp_options)

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

    # ---------------------------------------------------------------- triage
    def triage(self, patients: Sequence[Patient]) -> list[Patient]:
        """Patients in the order healers take them (``triage``; see the module docstring)."""
        if self.camp.triage == "listed":
            return list(patients)
        index = {p.name: i for i, p in enumerate(self.patients)}
        return sorted(patients, key=lambda p: (*self._urgency(p), index[p.name]))

    def _urgency(self, p: Patient) -> tuple[Any, ...]:
        s = self.states[p.name]
        if self.system == "2w2p":
            felled = s.felled_risk is not None or s.felled(self.aftermath_options)
            known = sum(1 for w in s.wounds if w.infected and w.infection_known)
            open_wounds = sum(1 for w in s.wounds if not w.recovered)
            return (not felled, -known, -open_wounds)
        if self.system == "deathwish":
            deadline = deathwish.untreated_deadline(s, self.aftermath_options)
            return (deadline is None, deadline or 0, -len(s))
        if self.system == "d6":
            return (-s.rank,)
        return (p.hd - p.hd_max,)

    # ---------------------------------------------------------------- stepping
    def step(self) -> list[dict[str, Any]]:
        """Run one day; return its rows (one per patient, list order)."""
        self.assignments = {}
        days = {p.name: _Day() for p in self.patients}
        if self.system == "2w2p":
            self._step_twowp(days)
        elif self.system == "deathwish":
            self._step_deathwish(days)
        elif self.system == "d6":
            self._step_d6(days)
        else:
            self._step_wargame()
        rows = [self._row(p, days[p.name]) for p in self.patients]
        self.rows.extend(rows)
        self.day += 1
        return rows

    def survivor(self, name: str) -> dict[str, Any]:
        """What a patient carries into the next battle of a campaign.

        ``status``, ``fights``, and per system: ``twowp_state`` with ``wounding``/``felling``
        (the blows still carried, 2.1), ``dw_wounds``, ``d6_condition`` or ``hd``.
        """
        p = next(x for x in self.patients if x.name == name)
        s = self.states[name]
        out: dict[str, Any] = {"status": self.status[name], "fights": p.fights}
        if self.system == "2w2p":
            out["twowp_state"] = s
            out["wounding"], out["felling"] = s.carried
        elif self.system == "deathwish":
            out["dw_wounds"] = s
        elif self.system == "d6":
            out["d6_condition"] = s.label
        else:
            out["hd"] = s
        return out

    def run(self, days: int) -> list[dict[str, Any]]:
        """Run ``days`` days; return their rows."""
        out: list[dict[str, Any]] = []
        for _ in range(days):
            out.extend(self.step())
        return out

    # ---------------------------------------------------------------- 2W2P
    def _step_twowp(self, days: dict[str, _Day]) -> None:
        opts: twowp.Options = self.options
        aopts: twowp.AftermathOptions = self.aftermath_options
        d = self.start_day + self.day  # the campaign's calendar
        if self.day == 0:  # the battle's blows: whether each needs re-set is drawn now
            for p in self.patients:
                if self.status[p.name] != Status.DEAD.value and (p.wounding or p.felling):
                    s = twowp.take_blows(
                        self.states[p.name], p.wounding, p.felling, d, self.rng, opts
                    )
                    self.states[p.name] = s
        needing = [p for p in self._alive() if not self.states[p.name].healed]
        order = self.triage(needing)
        # nurses: one per patient, best first, within capacity
        nurses = self._healers("nurse")
        load = {h.name: 0 for h in nurses}
        for p in order:
            for h in nurses:
                cap = day_capacity("nurse", "care", self._level(h), self.camp, opts)
                if load[h.name] < cap and h.name != p.name:
                    load[h.name] += 1
                    days[p.name].carers.append(h)
                    days[p.name].attending.append(h)
                    self._assign(h, p, "care")
                    break
        for p in order:  # what the nurses can tell
            self._detect(p, days[p.name])
        # surgeons: examine for re-sets, bind today's wounds, re-set known ones
        budgets = [_Budget(h, self._level(h), self.camp, opts) for h in self._healers("surgeon")]
        for p in order:
            for b in budgets:
                self._surgeon(b, p, days[p.name])
        # physicians: compound for known infections, examine the others
        budgets = [_Budget(h, self._level(h), self.camp, opts) for h in self._healers("physician")]
        for p in order:
            for b in budgets:
                if self._physician(b, p, days[p.name]):
                    break
        for p in order:  # what everyone who attended can tell, for tomorrow's triage
            self._detect(p, days[p.name])
        self._supervision(order, days)
        for p in self.patients:  # the rolls, in list order
            s = self.states[p.name]
            if s.dead or self.status[p.name] == Status.DEAD.value:
                continue
            day = days[p.name]
            weight = opts.patient_weight + sum(self._weight(h) for h in _unique(day.carers))
            dice = twowp.task_dice(weight) + day.extra_dice
            fought = self.day == 0 and p.in_battle  # no rest on a battle's day [S]
            new, result = twowp.patient_day(s, d, dice, self.rng, opts, aopts, fought=fought)
            day.dice = dice if result is not None else None
            self.states[p.name] = new
            self.status[p.name] = self._twowp_status(p, new)

    def _detect(self, p: Patient, day: _Day) -> None:
        s = self.states[p.name]
        for h in _unique(day.attending):  # what it can tell goes by its own skill
            s = twowp.detect_infections(s, self.start_day + self.day, h.role, h.level)
            s = twowp.examine_resets(s, h.role, h.level)
        self.states[p.name] = s

    def _surgeon(self, b: _Budget, p: Patient, day: _Day) -> None:
        if b.healer.name == p.name:
            return
        s: twowp.PatientState = self.states[p.name]
        can_find = twowp.detection_delay("reset", "surgeon", b.healer.level) is not None
        if can_find and self._examined.get(p.name, 0) < len(s.wounds):
            unknown_left = any(
                not w.recovered and not w.reset_known and not w.felling for w in s.wounds
            )
            if unknown_left and b.spend("examine"):
                self._examined[p.name] = len(s.wounds)
                s = twowp.examine_resets(s, "surgeon", b.healer.level)
                self._assign(b.healer, p, "examine")
                day.attending.append(b.healer)
        treated = False
        for i, w in enumerate(s.wounds):
            if w.recovered:
                continue
            fresh = w.day == self.start_day + self.day and i not in day.bound
            if not (fresh or w.awaiting_reset):
                continue
            if not b.spend("treat"):
                break
            if w.awaiting_reset:
                s = twowp.reset_wound(s, i)
            day.bound.add(i)
            treated = True
            self._assign(b.healer, p, "treat")
        self.states[p.name] = s
        if treated:
            day.carers.append(b.healer)
            day.attending.append(b.healer)

    def _physician(self, b: _Budget, p: Patient, day: _Day) -> bool:
        """Returns True when the patient needs nothing more from physicians today."""
        if b.healer.name == p.name:
            return False
        s: twowp.PatientState = self.states[p.name]
        if not any(w.infected and w.infection_known for w in s.wounds):
            if not any(not w.recovered or w.infected for w in s.wounds):
                return True
            if b.healer in day.attending or not b.spend("examine"):
                return False
            self._assign(b.healer, p, "examine")
            day.attending.append(b.healer)
            s = twowp.detect_infections(s, self.start_day + self.day, "physician", b.healer.level)
            s = twowp.examine_resets(s, "physician", b.healer.level)
            self.states[p.name] = s
            if not any(w.infected and w.infection_known for w in s.wounds):
                return True
        if b.spend("compound"):
            self._assign(b.healer, p, "compound")
            day.carers.append(b.healer)
            day.attending.append(b.healer)
            return True
        return False

    def _supervision(self, order: Sequence[Patient], days: dict[str, _Day]) -> None:
        """Each supervisor adds one die to one roll of one student (first patient in triage)."""
        for sup, studs in self.students.items():
            if not self._can_work(next(h for h in self.healers if h.name == sup)):
                continue
            names = {s.name for s in studs}
            for p in order:
                if any(h.name in names for h in days[p.name].carers):
                    days[p.name].extra_dice += twowp.SUPERVISION_DICE
                    self.assignments.setdefault(sup, []).append((p.name, "supervise"))
                    break

    def _twowp_status(self, p: Patient, s: twowp.PatientState) -> str:
        if s.dead:
            return Status.DEAD.value
        if s.felled(self.aftermath_options):
            return Status.INCAPACITATED.value
        if p.status in (Status.FLED.value, Status.SURRENDERED.value):
            return p.status
        return Status.ACTIVE.value

    # ---------------------------------------------------------------- Deathwish
    def _step_deathwish(self, days: dict[str, _Day]) -> None:
        aopts: deathwish.AftermathOptions = self.aftermath_options
        if self.day == 0:
            bleeding = [p for p in self._alive() if deathwish.wounds_to_treat(self.states[p.name])]
            surgeons = self._healers("surgeon")
            free = {h.name: Fraction(aopts.reach_minutes) for h in surgeons}
            day_end = Fraction(aopts.reach_minutes + 60 * self.camp.healer_hours)
            for p in self.triage(bleeding):
                wounds = self.states[p.name]
                start: Fraction | None = None
                for h in sorted(surgeons, key=lambda h: free[h.name]):  # stable: best first
                    if h.name == p.name:
                        continue
                    rate = twowp.healer_capacity("surgeon", "treat", self._level(h))
                    need = Fraction(60 * deathwish.wounds_to_treat(wounds), rate)
                    if free[h.name] + need <= day_end and not deathwish.dies_untreated(
                        wounds, free[h.name], aopts
                    ):
                        start = free[h.name]
                        free[h.name] += need
                        days[p.name].carers.append(h)
                        self._assign(h, p, "treat")
                        break
                if deathwish.dies_untreated(wounds, start, aopts):
                    self.status[p.name] = Status.DEAD.value
                else:
                    self._dw_treated[p.name] = True
        elif self.day == 1:
            for p in self._alive():
                if self._dw_treated.get(p.name) and deathwish.roll_later_death(
                    self.states[p.name], self.rng, aopts
                ):
                    self.status[p.name] = Status.DEAD.value
        for p in self._alive():
            wounds = self.states[p.name]
            battle_inc = p.status == Status.INCAPACITATED.value
            if deathwish.stays_incapacitated(wounds, battle_inc, aopts):
                self.status[p.name] = Status.INCAPACITATED.value
            elif p.status in (Status.FLED.value, Status.SURRENDERED.value):
                self.status[p.name] = p.status
            else:
                self.status[p.name] = Status.ACTIVE.value

    # ---------------------------------------------------------------- D6 tiers
    def _first_aid_code(self, h: Healer) -> str:
        if h.first_aid:
            return h.first_aid
        level = working_level(h, (), self.camp).value  # its own skill, not its students'
        code: str = getattr(self.camp, f"first_aid_{level}")
        return code

    def _step_d6(self, days: dict[str, _Day]) -> None:
        opts: d6.Options = self.options
        aopts: d6.AftermathOptions = self.aftermath_options
        T = d6.DamageTier
        if self.day == 0:
            hurt = [p for p in self._alive() if self.states[p.name].rank >= 2]
            budgets = [
                _Budget(h, self._level(h), self.camp, self._twowp_options)
                for h in self._healers("surgeon")
            ]
            for p in self.triage(hurt):
                cond: d6.Condition = self.states[p.name]
                for b in budgets:
                    if b.healer.name == p.name or not b.spend("treat"):
                        continue
                    res = d6.roll_first_aid(
                        cond, parse_code(self._first_aid_code(b.healer)), self.rng, None, opts
                    )
                    stabilized = res.success and cond.tier is T.MORTALLY_WOUNDED
                    cond = res.condition
                    self._d6_bonus[p.name] = res.time_heal_bonus
                    days[p.name].carers.append(b.healer)
                    self._assign(b.healer, p, "first_aid")
                    if stabilized:
                        cond = d6.wake(cond)  # "following waking from incapacitated"
                    break
                self.states[p.name] = cond
            for p in self._alive():
                cond = self.states[p.name]
                if cond.tier is T.STUNNED:  # a stun lasts the round and the next [S]
                    cond = d6.UNHURT
                for code in p.d6_potions:
                    cond = d6.roll_heal(cond, parse_code(code), self.rng, None, opts)
                if cond.tier is T.MORTALLY_WOUNDED and aopts.untreated_mortal == "dies":
                    cond = d6.Condition(T.DEAD)
                if cond.tier is T.INCAPACITATED and aopts.wake == "all":
                    cond = d6.wake(cond)
                self.states[p.name] = cond
        else:
            for p in self._alive():
                cond = self.states[p.name]
                if not d6.time_heal_due(self.day):
                    continue
                rolls = self._d6_rolls.get(p.name, 0)
                bonus = self._d6_bonus.get(p.name, 0)
                if rolls and aopts.bonus_lasts == "next_roll":
                    bonus = 0
                before = cond
                cond = d6.rest_day(cond, self.day, parse_code(p.d6_strength), self.rng, bonus, opts)
                if before.tier in (T.WOUNDED, T.INCAPACITATED):
                    self._d6_rolls[p.name] = rolls + 1
                self.states[p.name] = cond
        for p in self._alive():
            status = d6.status_for(self.states[p.name]).value
            if status == Status.ACTIVE.value and p.status in (
                Status.FLED.value,
                Status.SURRENDERED.value,
            ):
                status = p.status
            self.status[p.name] = status

    # ---------------------------------------------------------------- War Game
    def _step_wargame(self) -> None:
        if self.day == 0:
            return
        for p in self._alive():
            hours = self._wg_hours.get(p.name, 0) + self.camp.rest_hours_per_day
            hd, left = hd_after_rest(self.states[p.name], p.hd_max, hours)
            self.states[p.name] = hd
            self._wg_hours[p.name] = left
            if self.status[p.name] == Status.INCAPACITATED.value and hd > self.camp.wake_above_hd:
                self.status[p.name] = Status.ACTIVE.value

    # ---------------------------------------------------------------- rows
    def _row(self, p: Patient, day: _Day) -> dict[str, Any]:
        s = self.states[p.name]
        wounds: list[dict[str, Any]] = []
        infections = known = 0
        hd: int | None = None
        condition: str | None = None
        if self.system == "2w2p":
            for w in s.wounds:
                wounds.append(
                    {
                        "kind": "felling" if w.felling else "wounding",
                        "state": w.state,
                        "advances": w.advances,
                        "needs_reset": w.needs_reset,
                        "reset_known": w.reset_known,
                        "infected": w.infected,
                        "infection_known": w.infection_known and w.infected,
                    }
                )
            infections = s.infections
            known = sum(1 for w in s.wounds if w.infected and w.infection_known)
        elif self.system == "deathwish":
            treated = self._dw_treated.get(p.name, False)
            for lv in s:
                lethal = deathwish.wounds_to_treat([lv]) > 0
                wounds.append(
                    {
                        "kind": lv,
                        "state": "treated"
                        if lethal and treated
                        else "untreated"
                        if lethal
                        else "open",
                        "advances": 0,
                        "needs_reset": False,
                        "reset_known": False,
                        "infected": False,
                        "infection_known": False,
                    }
                )
        elif self.system == "d6":
            condition = s.label
        else:
            hd = s
        return {
            "day": self.day,
            "name": p.name,
            "side": p.side,
            "status": self.status[p.name],
            "fights": p.fights,
            "dice": day.dice,
            "treated_by": [h.name for h in _unique(day.carers)],
            "wounds": wounds,
            "infections": infections,
            "infections_known": known,
            "hd": hd,
            "condition": condition,
        }


def _unique(healers: Iterable[Healer]) -> list[Healer]:
    seen: set[str] = set()
    out = []
    for h in healers:
        if h.name not in seen:
            seen.add(h.name)
            out.append(h)
    return out


def run_aftermath(
    patients: Iterable[Patient],
    healers: Iterable[Healer],
    system: str,
    days: int,
    rng: np.random.Generator,
    **kwargs: Any,
) -> Aftermath:
    """Build an :class:`Aftermath` and run it for ``days`` days."""
    a = Aftermath(patients, healers, system, rng, **kwargs)
    a.run(days)
    return a


__all__ = [
    "DEFAULT_CAMP",
    "HOURS_PER_HD",
    "ROW_KEYS",
    "SYSTEMS",
    "WOUND_KEYS",
    "Aftermath",
    "CampOptions",
    "Healer",
    "Patient",
    "day_capacity",
    "hd_after_rest",
    "healers_from_fighters",
    "patient_from_fighter",
    "run_aftermath",
    "students_of",
    "working_level",
]
