"""Deathwish's aftermath (RULES.md 3; rules in :mod:`sim.rules.deathwish`).

On the battle's day, surgeons reach the bleeding in triage order; a Serious wound kills if
treatment has not started within ``serious_minutes``, a Critical one within
``critical_minutes``; survivors stay incapacitated per ``incapacitated_from``. No recovery
over days (the seed has none): a campaign member's wound levels add their difficulty for
good, and a member who sat a battle out is no patient of its aftermath.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from fractions import Fraction
from types import ModuleType
from typing import Any, ClassVar

from sim.aftermath.days import Aftermath, Day
from sim.aftermath.patients import Patient
from sim.rules import deathwish, twowp
from sim.rules.common import Status


class DeathwishAftermath(Aftermath):
    """Deathwish: the bleeding reached in time or not; later deaths of the treated."""

    system: ClassVar[str] = deathwish.NAME
    rules: ClassVar[ModuleType | None] = deathwish
    treats_sitting_out: ClassVar[bool] = False

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._treated: dict[str, bool] = {}

    def initial_state(self, p: Patient) -> tuple[str, ...]:
        """Its wound levels."""
        return p.dw_wounds

    def urgency(self, p: Patient) -> tuple[Any, ...]:
        """The bleeding first, earliest deadline first; then the most wounds."""
        s = self.states[p.name]
        deadline = deathwish.untreated_deadline(s, self.aftermath_options)
        return (deadline is None, deadline or 0, -len(s))

    def day_step(self, days: dict[str, Day]) -> None:
        """Day 0 the surgeons; day 1 the later deaths of the treated; then who stays down."""
        aopts: deathwish.AftermathOptions = self.aftermath_options
        if self.day == 0:
            self._surgeons(days)
        elif self.day == 1:
            for p in self._alive():
                if self._treated.get(p.name) and deathwish.roll_later_death(
                    self.states[p.name], self.rng, aopts
                ):
                    self.status[p.name] = Status.DEAD.value
        for p in self._alive():
            wounds = self.states[p.name]
            battle_inc = p.status == Status.INCAPACITATED.value
            if deathwish.stays_incapacitated(wounds, battle_inc, aopts):
                self.status[p.name] = Status.INCAPACITATED.value
            else:
                self.status[p.name] = self._kept_away(p, Status.ACTIVE.value)

    def _surgeons(self, days: dict[str, Day]) -> None:
        """Surgeons reach the bleeding in triage order; the unreached in time die."""
        aopts: deathwish.AftermathOptions = self.aftermath_options
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
                self._treated[p.name] = True

    def row_fields(self, p: Patient, state: tuple[str, ...]) -> dict[str, Any]:
        """Every wound level: lethal ones treated or untreated, the others open."""
        treated = self._treated.get(p.name, False)
        wounds = []
        for lv in state:
            lethal = deathwish.wounds_to_treat([lv]) > 0
            wounds.append(
                {
                    "kind": lv,
                    "state": "treated" if lethal and treated else "untreated" if lethal else "open",
                    "advances": 0,
                    "needs_reset": False,
                    "reset_known": False,
                    "infected": False,
                    "infection_known": False,
                }
            )
        return {**super().row_fields(p, state), "wounds": wounds}

    def carries(self, state: tuple[str, ...]) -> dict[str, Any]:
        """Its wound levels."""
        return {"dw_wounds": state}

    def hurt(self, p: Patient) -> bool:
        """Any wound level."""
        return bool(p.dw_wounds)

    def healed(self, row: Mapping[str, Any], hd_max: int, carried: Mapping[str, Any]) -> bool:
        """No wound, new or carried (the seed heals none)."""
        return not row["wounds"] and not carried.get("dw_wounds")

    @classmethod
    def less_carried(cls, p: Patient, carried: Mapping[str, Any]) -> Patient:
        """Only this battle's wound levels (its older ones are not treated again)."""
        return replace(p, dw_wounds=p.dw_wounds[len(carried.get("dw_wounds", ())) :])

    @classmethod
    def member_fields(cls, carried: Mapping[str, Any], hit_dice: int, dead: bool) -> dict[str, Any]:
        """Its wound levels (none once dead)."""
        levels = () if dead else tuple(carried.get("dw_wounds", ()))
        return {
            **super().member_fields(carried, hit_dice, dead),
            "wounds": len(levels),
            "dw_wounds": list(levels),
        }
