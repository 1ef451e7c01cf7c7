"""2W2P skill: weighted head counts, task dice, supervision, training times.

Follows seed ``000_7f98fe11b25af74f.txt`` (RULES.md 2.2 general skill and task dice; 2.5 healer
training; the tables are ``twowp_skills.csv`` and ``twowp_training.csv``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from functools import cache
from math import isqrt
from types import MappingProxyType

from sim.errors import SimError, unknown
from sim.rules.common import load_csv
from sim.rules.twowp.options import (
    DEFAULT_OPTIONS,
    INSTRUCTION_FACTOR,
    INSTRUCTION_MAX_SHARE,
    SCARCE_RESOURCE_DICE,
    SELF_STUDY_FACTOR,
    SUPERVISION_DICE,
    Options,
    _check_count,
)


class Skill(StrEnum):
    """Skill levels in a task, lowest first (RULES.md 2.2)."""

    UNSKILLED = "unskilled"
    COMPETENT = "competent"
    EXPERIENCED = "experienced"
    SPECIALIZED = "specialized"

    @property
    def rank(self) -> int:
        """Position in the order unskilled < competent < experienced < specialized."""
        return list(Skill).index(self)


@cache
def _skill_rows() -> dict[Skill, tuple[int, int]]:
    rows = {
        Skill(r["skill"]): (int(r["weight"]), int(r["students"]))
        for r in load_csv("twowp_skills.csv")
    }
    if list(rows) != list(Skill):
        raise ValueError("twowp_skills.csv: needs one row per skill level, lowest first")
    return rows


SKILL_WEIGHTS: Mapping[Skill, int] = MappingProxyType({s: w for s, (w, _) in _skill_rows().items()})
"""What one person of each skill level counts for in a task [S; unskilled 0 is I]."""


def parse_skill(name: str | Skill) -> Skill:
    """The skill level called ``name`` (any case); a SimError with a suggestion otherwise."""
    key = name.strip().lower() if isinstance(name, str) else ""
    try:
        return Skill(key)
    except ValueError:
        raise unknown("skill level", str(name), [s.value for s in Skill]) from None


def skill_weight(skill: str | Skill, options: Options = DEFAULT_OPTIONS) -> int:
    """What one person of ``skill`` counts for (unskilled: option ``unskilled_weight``)."""
    level = parse_skill(skill)
    return options.unskilled_weight if level is Skill.UNSKILLED else SKILL_WEIGHTS[level]


def weighted_count(
    skills: Iterable[str | Skill],
    *,
    untrained_task: bool = False,
    options: Options = DEFAULT_OPTIONS,
) -> int:
    """Weighted head count of the people on a task.

    With ``untrained_task`` (a task that needs no special training) the GM treats anyone as at
    least competent [S].
    """
    total = 0
    for s in skills:
        level = parse_skill(s)
        if untrained_task and level is Skill.UNSKILLED:
            level = Skill.COMPETENT
        total += skill_weight(level, options)
    return total


def task_dice(weighted: int) -> int:
    """Dice for a task from the weighted head count ``w`` [S]: k dice while w <= k(k+1)/2.

    1 for 1, 2 for 2-3, 3 for 4-6, 4 for 7-10, ...; nobody (w = 0) rolls nothing.
    """
    _check_count(weighted, "weighted head count")
    k = (isqrt(8 * weighted + 1) - 1) // 2  # largest k with k(k+1)/2 <= w
    return k if k * (k + 1) // 2 >= weighted else k + 1


def task_pool(
    skills: Iterable[str | Skill],
    *,
    untrained_task: bool = False,
    scarce_resource_used: bool = False,
    supervisors: int = 0,
    options: Options = DEFAULT_OPTIONS,
) -> int:
    """Dice rolled for a task: from the weighted head count, plus the extras [S].

    ``scarce_resource_used``: the players declared a scarce resource used up (+1 die; if they
    do not, using it is a risk of the task). ``supervisors``: supervisors adding their die to
    this roll this period (+1 each).
    """
    _check_count(supervisors, "supervisors")
    dice = task_dice(weighted_count(skills, untrained_task=untrained_task, options=options))
    return (
        dice
        + (SCARCE_RESOURCE_DICE if scarce_resource_used else 0)
        + supervisors * (SUPERVISION_DICE)
    )


def supervision_capacity(skill: str | Skill) -> int:
    """Students one supervisor of ``skill`` may take: competent 1, experienced 3, specialized 6."""
    return _skill_rows()[parse_skill(skill)][1]


def supervisor_weight(
    supervisor: str | Skill, students: Sequence[str | Skill], options: Options = DEFAULT_OPTIONS
) -> int:
    """What a supervisor counts for in its own work: no more than its least-skilled student [S].

    A SimError if it has more students than its level allows.
    """
    cap = supervision_capacity(supervisor)
    if len(students) > cap:
        raise SimError(
            f"a {parse_skill(supervisor).value} supervisor takes at most {cap} students, "
            f"got {len(students)}"
        )
    own = skill_weight(supervisor, options)
    if not students:
        return own
    return min(own, *(skill_weight(s, options) for s in students))


@dataclass(frozen=True, slots=True)
class TrainingRow:
    """One row of ``twowp_training.csv`` (months)."""

    track: str
    skill: Skill
    supervised_months: int
    instruction_months: int | None
    rule: str


TRACKS = ("general", "healer")


@cache
def training_table() -> tuple[TrainingRow, ...]:
    """The training times from ``twowp_training.csv``."""
    return tuple(
        TrainingRow(
            track=r["track"],
            skill=Skill(r["skill"]),
            supervised_months=int(r["supervised_months"]),
            instruction_months=int(r["instruction_months"]) if r["instruction_months"] else None,
            rule=r["rule"],
        )
        for r in load_csv("twowp_training.csv")
    )


def training_reached(
    skill: str | Skill,
    *,
    track: str = "general",
    supervised: Fraction | int = 0,
    instruction: Fraction | int = 0,
    self_study: Fraction | int = 0,
) -> bool:
    """Whether months of training reach ``skill`` on a track (RULES.md 2.2, 2.5) [S].

    General track: supervised practice, plus self-study at a third, plus instruction at half
    that may stand in for at most half the requirement. Healer track: the supervised months
    or the instruction months (both for specialized), one path complete [S]; self-study does
    not count there.
    """
    level = parse_skill(skill)
    if track not in TRACKS:
        raise unknown("training track", track, TRACKS)
    for months, what in ((supervised, "supervised"), (instruction, "instruction")):
        if months < 0:
            raise SimError(f"{what} months must be 0 or more, got {months}")
    if self_study < 0:
        raise SimError(f"self-study months must be 0 or more, got {self_study}")
    if level is Skill.UNSKILLED:
        return True
    row = next(r for r in training_table() if r.track == track and r.skill is level)
    need = Fraction(row.supervised_months)
    if row.rule == "replace_half":
        instructed = min(Fraction(instruction) / INSTRUCTION_FACTOR, need * INSTRUCTION_MAX_SHARE)
        return Fraction(supervised) + Fraction(self_study) / SELF_STUDY_FACTOR + instructed >= need
    inst_need = Fraction(row.instruction_months or 0)
    sup_part = Fraction(supervised) / need
    inst_part = Fraction(instruction) / inst_need
    if row.rule == "both":
        return sup_part >= 1 and inst_part >= 1
    return sup_part >= 1 or inst_part >= 1


def trained_skill(
    *,
    track: str = "general",
    supervised: Fraction | int = 0,
    instruction: Fraction | int = 0,
    self_study: Fraction | int = 0,
) -> Skill:
    """The highest skill level the given months of training reach on ``track``."""
    best = Skill.UNSKILLED
    for level in Skill:
        if training_reached(
            level,
            track=track,
            supervised=supervised,
            instruction=instruction,
            self_study=self_study,
        ):
            best = level
    return best
