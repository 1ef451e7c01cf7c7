"""2W2P healers: what nurses, surgeons and physicians find and how many they handle.

Follows seed ``000_7f98fe11b25af74f.txt`` (RULES.md 2.5 healers; the tables are
``twowp_detection.csv`` and ``twowp_healers.csv``). Which healer attends whom is in
:mod:`sim.aftermath`.
"""

from __future__ import annotations

from sim.errors import unknown
from sim.rules.common import load_csv
from sim.rules.twowp.options import DEFAULT_OPTIONS, Options
from sim.rules.twowp.skills import Skill, parse_skill

ROLES = ("nurse", "surgeon", "physician")
FINDINGS = ("infection", "reset", "reset_after_failed_recovery")


def _role(role: str) -> str:
    if role not in ROLES:
        raise unknown("healer role", role, ROLES)
    return role


def detection_delay(finding: str, role: str, skill: str | Skill) -> int | None:
    """Days after it sets in that a healer can find ``finding``, or None if it cannot [S].

    ``infection``: an experienced physician or any specialized healer on examination the day
    after it sets in, any competent healer two days after. ``reset`` (a non-felling wound
    needing re-set, on examination): an experienced surgeon or any specialized healer.
    ``reset_after_failed_recovery``: any competent healer. From ``twowp_detection.csv``.
    """
    if finding not in FINDINGS:
        raise unknown("finding", finding, FINDINGS)
    _role(role)
    level = parse_skill(skill)
    delays = [
        int(r["delay_days"])
        for r in load_csv("twowp_detection.csv")
        if r["finding"] == finding
        and r["role"] in (role, "any")
        and level.rank >= Skill(r["min_skill"]).rank
    ]
    return min(delays) if delays else None


HEALER_TASKS = {
    "nurse": ("care",),
    "surgeon": ("treat", "examine"),
    "physician": ("examine", "compound"),
}


def healer_capacity(
    role: str,
    task: str,
    skill: str | Skill,
    options: Options = DEFAULT_OPTIONS,
    *,
    practicing_other: bool = False,
) -> int:
    """Patients (nurse care: at a time) or wounds/patients per hour a healer handles [S].

    Nurse ``care`` 3/5/8 patients; surgeon ``treat`` 2/3/5 wounds or ``examine`` 3/4/5
    patients (4 is option ``surgeon_examines_experienced`` [I]); physician ``examine`` 3/3/5
    or ``compound`` 2/3/5 patients. Unskilled: 0. A nurse ``practicing_other`` healing skills
    gives no nursing meanwhile (it may still supervise nurses).
    """
    _role(role)
    if task not in HEALER_TASKS[role]:
        raise unknown(f"{role} task", task, HEALER_TASKS[role])
    level = parse_skill(skill)
    if level is Skill.UNSKILLED or (role == "nurse" and practicing_other):
        return 0
    row = next(r for r in load_csv("twowp_healers.csv") if r["role"] == role and r["task"] == task)
    cell = row[level.value]
    if cell == "" and (role, task, level) == ("surgeon", "examine", Skill.EXPERIENCED):
        return options.surgeon_examines_experienced  # the seed's gap [I]
    return int(cell)
