"""D6 tiers' aftermath (RULES.md 4 "Healing"; rules in :mod:`sim.rules.d6`).

On the battle's day surgeons give first aid (one try per patient, First Aid code by skill
level), patients drink their potions, the Mortally wounded who are not stabilized die, the
Incapacitated wake as Wounded twice; then every third day of rest a Strength roll heals or
infects one spot, with the first-aid bonus. A patient poisoned in the battle rolls Resist
Disease or Poison the next day (the poison works overnight [I]), with the first-aid dice.
At the end of every day the side's priests (camp healers of role ``priest``: the spell) and
its members with Religion 4D (the ritual) raise its dead, one an hour each
(``camp.healer_hours`` a day) [S].
"""

from __future__ import annotations

from collections.abc import Mapping
from types import ModuleType
from typing import Any, ClassVar

from sim.aftermath.days import Aftermath, Day
from sim.aftermath.healers import Budget, Healer, working_level
from sim.aftermath.patients import Patient
from sim.dice import parse_code
from sim.rules import d6, twowp
from sim.rules.common import Status

T = d6.DamageTier


class D6Aftermath(Aftermath):
    """D6 tiers: first aid and potions on the battle's day, then healing with time."""

    system: ClassVar[str] = d6.NAME
    rules: ClassVar[ModuleType | None] = d6

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._bonus: dict[str, int] = {}
        self._resist_bonus: dict[str, int] = {}
        self._rolls: dict[str, int] = {}
        self._poison: dict[str, str] = {p.name: p.d6_poison for p in self.patients if p.d6_poison}
        self._raised: dict[str, int] = {}  # the day each patient was raised

    def initial_state(self, p: Patient) -> d6.Condition:
        """Its condition on the damage table."""
        return d6.Condition.from_label(p.d6_condition)

    def urgency(self, p: Patient) -> tuple[Any, ...]:
        """The worst condition first."""
        return (-self.states[p.name].rank,)

    def day_step(self, days: dict[str, Day]) -> None:
        """Day 0 first aid and potions; later days the rolls of time; then each status."""
        if self.day == 0:
            self._first_aid(days)
            self._battle_day_end()
        else:
            self._resist()
            self._rest_day()
        for p in self._alive():
            status = d6.status_for(self.states[p.name]).value
            self.status[p.name] = self._kept_away(p, status)
        self._resurrect(days)

    def _first_aid_code(self, h: Healer) -> str:
        if h.first_aid:
            return h.first_aid
        level = working_level(h, (), self.camp).value  # its own skill, not its students'
        code: str = getattr(self.camp, f"first_aid_{level}")
        return code

    def _first_aid(self, days: dict[str, Day]) -> None:
        """Surgeons give first aid, one try per patient, in triage order."""
        opts: d6.Options = self.options
        aopts: d6.AftermathOptions = self.aftermath_options
        hurt = [p for p in self._alive() if self.states[p.name].rank >= 2]
        budgets = [
            Budget(h, self._level(h), self.camp, twowp.DEFAULT_OPTIONS)
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
                self._bonus[p.name] = res.time_heal_bonus
                self._resist_bonus[p.name] = res.resist_dice
                if p.name in self._poison and aopts.first_aid_bonus == "either":
                    self._bonus[p.name] = 0  # the seed's "or": the poison gets the bonus
                days[p.name].carers.append(b.healer)
                self._assign(b.healer, p, "first_aid")
                if stabilized:
                    cond = d6.wake(cond)  # "following waking from incapacitated"
                break
            self.states[p.name] = cond

    def _battle_day_end(self) -> None:
        """Stuns pass, potions are drunk, the unstabilized mortally wounded die, all wake."""
        opts: d6.Options = self.options
        aopts: d6.AftermathOptions = self.aftermath_options
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

    def _resist(self) -> None:
        """The poisoned roll Resist Disease or Poison (plus first aid's dice) once [I]."""
        aopts: d6.AftermathOptions = self.aftermath_options
        for p in self._alive():
            poison = self._poison.pop(p.name, "")
            if not poison:
                continue
            resist = parse_code(p.d6_resist or p.d6_strength)
            res = d6.roll_resist_poison(
                self.states[p.name],
                resist,
                parse_code(poison),
                self.rng,
                self._resist_bonus.get(p.name, 0),
                aopts.poison_fails,
            )
            self.states[p.name] = res.condition

    def _resurrectors(self) -> list[Healer]:
        """The side's priests (the spell), then its members with Religion 4D (the ritual)."""
        out = self._healers("priest")
        for p in self.patients:
            if p.d6_religion and d6.can_resurrect(parse_code(p.d6_religion)):
                if self.status[p.name] == Status.ACTIVE.value:  # up, and with its side
                    out.append(Healer(p.name, "priest", side=p.side))
        return out

    def _resurrect(self, days: dict[str, Day]) -> None:
        """The dead raised, one an hour per priest or ritualist [S], in list order."""
        aopts: d6.AftermathOptions = self.aftermath_options
        dead = [p for p in self.patients if self.status[p.name] == Status.DEAD.value]
        if not dead:
            return
        each = d6.resurrections_per_day(self.camp.healer_hours)
        slots = [h for h in self._resurrectors() for _ in range(each)]
        for p, h in zip(dead, slots, strict=False):
            self.states[p.name] = d6.raised_condition(aopts.raised_as)
            self.status[p.name] = d6.status_for(self.states[p.name]).value
            self._raised[p.name] = self.day
            self._poison.pop(p.name, None)
            days[p.name].carers.append(h)
            self._assign(h, p, "resurrect")

    def _rest_day(self) -> None:
        """Every third day of rest a Strength roll, with the first-aid bonus."""
        opts: d6.Options = self.options
        aopts: d6.AftermathOptions = self.aftermath_options
        for p in self._alive():
            cond = self.states[p.name]
            if not d6.time_heal_due(self.day):
                continue
            rolls = self._rolls.get(p.name, 0)
            bonus = self._bonus.get(p.name, 0)
            if rolls and aopts.bonus_lasts == "next_roll":
                bonus = 0
            before = cond
            cond = d6.rest_day(cond, self.day, parse_code(p.d6_strength), self.rng, bonus, opts)
            if before.tier in (T.WOUNDED, T.INCAPACITATED):
                self._rolls[p.name] = rolls + 1
            self.states[p.name] = cond

    def row_fields(self, p: Patient, state: d6.Condition) -> dict[str, Any]:
        """Its condition's label (``resurrected`` the day it was raised), a poison as 1 infection.

        A poison not yet resisted counts as an infection, known (``infections`` and
        ``infections_known`` 1). The day a patient is raised its condition reads
        ``resurrected``: -2 to body rolls and -1D to all else for half a day [S], over by the
        next day (so never in a campaign's next battle, a day or more later).
        """
        poisoned = int(p.name in self._poison and self.status[p.name] != Status.DEAD.value)
        condition = "resurrected" if self._raised.get(p.name) == self.day else state.label
        return {
            **super().row_fields(p, state),
            "condition": condition,
            "infections": poisoned,
            "infections_known": poisoned,
        }

    def carries(self, state: d6.Condition) -> dict[str, Any]:
        """Its condition's label."""
        return {"d6_condition": state.label}

    def hurt(self, p: Patient) -> bool:
        """Wounded or worse."""
        return d6.Condition.from_label(p.d6_condition).rank >= 2

    def healed(self, row: Mapping[str, Any], hd_max: int, carried: Mapping[str, Any]) -> bool:
        """Unhurt, or only stunned."""
        return row["condition"] in ("none", "stunned")

    @classmethod
    def member_fields(cls, carried: Mapping[str, Any], hit_dice: int, dead: bool) -> dict[str, Any]:
        """Its open wounds on the damage table, and its condition."""
        condition = carried.get("d6_condition", "none")
        wounds = 0 if dead else max(0, d6.Condition.from_label(condition).rank - 1)
        return {
            **super().member_fields(carried, hit_dice, dead),
            "wounds": wounds,
            "condition": condition,
        }
