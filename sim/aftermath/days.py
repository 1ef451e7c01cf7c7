"""The day-stepping model: one camp's days after one battle (see :mod:`sim.aftermath`)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from sim.aftermath.healers import (
    DEFAULT_CAMP,
    Budget,
    Healer,
    day_capacity,
    students_of,
    unique,
    working_level,
)
from sim.aftermath.patients import Patient
from sim.dice import parse_code
from sim.errors import SimError, unknown
from sim.options import CampOptions
from sim.rules import d6, deathwish, twowp
from sim.rules.common import Status
from sim.rules.twowp import Skill

SYSTEMS = ("2w2p", "deathwish", "d6", "wargame")
HOURS_PER_HD = 8
"""War Game: "8 hours of rest to regain 1 HD" [S]."""


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
        budgets = [Budget(h, self._level(h), self.camp, opts) for h in self._healers("surgeon")]
        for p in order:
            for b in budgets:
                self._surgeon(b, p, days[p.name])
        # physicians: compound for known infections, examine the others
        budgets = [Budget(h, self._level(h), self.camp, opts) for h in self._healers("physician")]
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
            weight = opts.patient_weight + sum(self._weight(h) for h in unique(day.carers))
            dice = twowp.task_dice(weight) + day.extra_dice
            fought = self.day == 0 and p.in_battle  # no rest on a battle's day [S]
            new, result = twowp.patient_day(s, d, dice, self.rng, opts, aopts, fought=fought)
            day.dice = dice if result is not None else None
            self.states[p.name] = new
            self.status[p.name] = self._twowp_status(p, new)

    def _detect(self, p: Patient, day: _Day) -> None:
        s = self.states[p.name]
        for h in unique(day.attending):  # what it can tell goes by its own skill
            s = twowp.detect_infections(s, self.start_day + self.day, h.role, h.level)
            s = twowp.examine_resets(s, h.role, h.level)
        self.states[p.name] = s

    def _surgeon(self, b: Budget, p: Patient, day: _Day) -> None:
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

    def _physician(self, b: Budget, p: Patient, day: _Day) -> bool:
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
                Budget(h, self._level(h), self.camp, self._twowp_options)
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
            "treated_by": [h.name for h in unique(day.carers)],
            "wounds": wounds,
            "infections": infections,
            "infections_known": known,
            "hd": hd,
            "condition": condition,
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
    a = Aftermath(patients, healers, system, rng, **kwargs)
    a.run(days)
    return a
