"""War Game's aftermath (RULES.md 1.4): hit dice back with rest.

1 HD back per 8 hours of rest (:func:`hd_after_rest`, ``rest_hours_per_day`` a day); a
creature incapacitated at 1 or fewer HD is back on its feet above ``wake_above_hd``. Healers
make no difference (the seed has none).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import ModuleType
from typing import Any, ClassVar

from sim.aftermath.days import Aftermath, Day
from sim.aftermath.patients import Patient
from sim.errors import SimError
from sim.rules import wargame
from sim.rules.common import Status

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


class WarGameAftermath(Aftermath):
    """War Game: HD back with rest, up again above ``wake_above_hd``."""

    system: ClassVar[str] = wargame.NAME
    rules: ClassVar[ModuleType | None] = wargame

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._hours: dict[str, int] = {}

    def initial_state(self, p: Patient) -> int:
        """Its hit dice."""
        return p.hd

    def urgency(self, p: Patient) -> tuple[Any, ...]:
        """The most HD lost first."""
        return (p.hd - p.hd_max,)

    def day_step(self, days: dict[str, Day]) -> None:
        """After the battle's day, each day's rest."""
        if self.day == 0:
            return
        for p in self._alive():
            hours = self._hours.get(p.name, 0) + self.camp.rest_hours_per_day
            hd, left = hd_after_rest(self.states[p.name], p.hd_max, hours)
            self.states[p.name] = hd
            self._hours[p.name] = left
            if self.status[p.name] == Status.INCAPACITATED.value and hd > self.camp.wake_above_hd:
                self.status[p.name] = Status.ACTIVE.value

    def row_fields(self, p: Patient, state: int) -> dict[str, Any]:
        """Its hit dice."""
        return {**super().row_fields(p, state), "hd": state}

    def carries(self, state: int) -> dict[str, Any]:
        """Its hit dice."""
        return {"hd": state}

    def hurt(self, p: Patient) -> bool:
        """HD lost, or incapacitated."""
        return p.hd < p.hd_max or p.status == Status.INCAPACITATED.value

    def healed(self, row: Mapping[str, Any], hd_max: int, carried: Mapping[str, Any]) -> bool:
        """Every HD back."""
        return row["hd"] is None or row["hd"] >= hd_max

    @classmethod
    def member_fields(cls, carried: Mapping[str, Any], hit_dice: int, dead: bool) -> dict[str, Any]:
        """The HD it lacks, its HD, and the lingering conditions it carries."""
        hd = carried.get("hd")
        lost = max(0, hit_dice - hd) if hd is not None and not dead else 0
        return {
            **super().member_fields(carried, hit_dice, dead),
            "wounds": lost,
            "hd": hd if hd is not None else hit_dice,
            "conditions": ",".join(carried.get("wg_conditions", ())),
        }
