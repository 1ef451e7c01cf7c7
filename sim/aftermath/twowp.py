"""2W2P's aftermath (RULES.md 2.5, the full model; rules in :mod:`sim.rules.twowp`).

Wounds that need re-set (felling ones always, others 1 in 3, secretly); on the day of the blow
each wound is an infection risk; a felled fighter's death risk every day until removed; each
infection a daily death risk from the next day; a recovery goal per wound after each day of
rest; all rolled as one task by the patient and its carers (2.2, 2.3). Healers detect
infections and re-sets by their skill and role; surgeons bind and re-set; physicians compound
medicine.

Each day runs: nurses take patients in triage order (one nurse per patient); every attending
healer then spots what its skill lets it (infections, wounds needing re-set); surgeons
examine (experienced or specialized: to find re-sets), bind the day's new wounds and re-set
known ones; physicians compound medicine for known infections and examine the rest; then
every living patient rolls (in list order), carers being its nurse, the surgeons who treated
a wound of it and the physicians who compounded for it (examining alone is no treatment [I]).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from types import ModuleType
from typing import Any, ClassVar

from sim.aftermath.days import Aftermath, Day
from sim.aftermath.healers import Budget, Healer, day_capacity, unique
from sim.aftermath.patients import Patient
from sim.rules import twowp
from sim.rules.common import Status


class TwoWPAftermath(Aftermath):
    """2W2P: wounds to re-set, infections, recovery rolls shared with the carers."""

    system: ClassVar[str] = twowp.NAME
    rules: ClassVar[ModuleType | None] = twowp

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._examined: dict[str, int] = {}

    def initial_state(self, p: Patient) -> twowp.PatientState:
        """The state carried from an earlier aftermath, or none (the day's blows come later)."""
        return p.twowp_state if p.twowp_state is not None else twowp.PatientState()

    def urgency(self, p: Patient) -> tuple[Any, ...]:
        """The felled first, then the most known infections, then the most open wounds."""
        s = self.states[p.name]
        felled = s.felled_risk is not None or s.felled(self.aftermath_options)
        known = sum(1 for w in s.wounds if w.infected and w.infection_known)
        open_wounds = sum(1 for w in s.wounds if not w.recovered)
        return (not felled, -known, -open_wounds)

    # ---------------------------------------------------------------- the day
    def day_step(self, days: dict[str, Day]) -> None:
        """The battle's blows (day 0), the healers in triage order, then every roll."""
        opts: twowp.Options = self.options
        if self.day == 0:  # the battle's blows: whether each needs re-set is drawn now
            for p in self.patients:
                if self.status[p.name] != Status.DEAD.value and (p.wounding or p.felling):
                    s = twowp.take_blows(
                        self.states[p.name], p.wounding, p.felling, self._today, self.rng, opts
                    )
                    self.states[p.name] = s
        needing = [p for p in self._alive() if not self.states[p.name].healed]
        order = self.triage(needing)
        self._nurses(order, days)
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
        self._rolls(days)

    @property
    def _today(self) -> int:
        """Today on the campaign's calendar."""
        return self.start_day + self.day

    def _nurses(self, order: Sequence[Patient], days: dict[str, Day]) -> None:
        """Nurses: one per patient, best first, within capacity."""
        nurses = self._healers("nurse")
        load = {h.name: 0 for h in nurses}
        for p in order:
            for h in nurses:
                cap = day_capacity("nurse", "care", self._level(h), self.camp, self.options)
                if load[h.name] < cap and h.name != p.name:
                    load[h.name] += 1
                    days[p.name].carers.append(h)
                    days[p.name].attending.append(h)
                    self._assign(h, p, "care")
                    break

    def _rolls(self, days: dict[str, Day]) -> None:
        """Every living patient's roll, in list order, with its carers' dice."""
        opts: twowp.Options = self.options
        aopts: twowp.AftermathOptions = self.aftermath_options
        for p in self.patients:
            s = self.states[p.name]
            if s.dead or self.status[p.name] == Status.DEAD.value:
                continue
            day = days[p.name]
            weight = opts.patient_weight + sum(self._weight(h) for h in unique(day.carers))
            dice = twowp.task_dice(weight) + day.extra_dice
            fought = self.day == 0 and p.in_battle  # no rest on a battle's day [S]
            new, result = twowp.patient_day(
                s, self._today, dice, self.rng, opts, aopts, fought=fought
            )
            day.dice = dice if result is not None else None
            self.states[p.name] = new
            self.status[p.name] = self._status(p, new)

    def _weight(self, h: Healer) -> int:
        """What a carer counts for in the patient's roll: a supervisor as its least student."""
        if self.students.get(h.name):
            return twowp.skill_weight(self._level(h), self.options)
        return twowp.skill_weight(h.skill, self.options)

    def _detect(self, p: Patient, day: Day) -> None:
        s = self.states[p.name]
        for h in unique(day.attending):  # what it can tell goes by its own skill
            s = twowp.detect_infections(s, self._today, h.role, h.level)
            s = twowp.examine_resets(s, h.role, h.level)
        self.states[p.name] = s

    def _surgeon(self, b: Budget, p: Patient, day: Day) -> None:
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
            fresh = w.day == self._today and i not in day.bound
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

    def _physician(self, b: Budget, p: Patient, day: Day) -> bool:
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
            s = twowp.detect_infections(s, self._today, "physician", b.healer.level)
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

    def _supervision(self, order: Sequence[Patient], days: dict[str, Day]) -> None:
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

    def _status(self, p: Patient, s: twowp.PatientState) -> str:
        if s.dead:
            return Status.DEAD.value
        if s.felled(self.aftermath_options):
            return Status.INCAPACITATED.value
        return self._kept_away(p, Status.ACTIVE.value)

    # ---------------------------------------------------------------- rows and survivors
    def row_fields(self, p: Patient, state: twowp.PatientState) -> dict[str, Any]:
        """Every wound with its state, the infections and those known."""
        wounds = [
            {
                "kind": "felling" if w.felling else "wounding",
                "state": w.state,
                "advances": w.advances,
                "needs_reset": w.needs_reset,
                "reset_known": w.reset_known,
                "infected": w.infected,
                "infection_known": w.infection_known and w.infected,
            }
            for w in state.wounds
        ]
        known = sum(1 for w in state.wounds if w.infected and w.infection_known)
        return {
            **super().row_fields(p, state),
            "wounds": wounds,
            "infections": state.infections,
            "infections_known": known,
        }

    def carries(self, state: twowp.PatientState) -> dict[str, Any]:
        """Its state, and the blows still carried (2.1)."""
        wounding, felling = state.carried
        return {"twowp_state": state, "wounding": wounding, "felling": felling}

    # ---------------------------------------------------------------- between battles
    def hurt(self, p: Patient) -> bool:
        """Blows of this battle, or carried ones not yet healed."""
        old = p.twowp_state is not None and not p.twowp_state.healed
        return bool(p.wounding or p.felling or old)

    def healed(self, row: Mapping[str, Any], hd_max: int, carried: Mapping[str, Any]) -> bool:
        """No infection, every wound recovered."""
        return row["infections"] == 0 and all(w["state"] == "recovered" for w in row["wounds"])

    @classmethod
    def less_carried(cls, p: Patient, carried: Mapping[str, Any]) -> Patient:
        """Its earlier state apart from this battle's blows (it fought carrying its blows)."""
        state: twowp.PatientState | None = carried.get("twowp_state")
        if state is None:
            return p
        wounding, felling = state.carried
        return replace(
            p, twowp_state=state, wounding=p.wounding - wounding, felling=p.felling - felling
        )

    @classmethod
    def member_fields(cls, carried: Mapping[str, Any], hit_dice: int, dead: bool) -> dict[str, Any]:
        """Its open blows, wounding and felling (none once dead)."""
        state: twowp.PatientState | None = carried.get("twowp_state")
        wounding, felling = state.carried if state is not None and not dead else (0, 0)
        return {
            **super().member_fields(carried, hit_dice, dead),
            "wounds": wounding + felling,
            "wounding": wounding,
            "felling": felling,
        }
