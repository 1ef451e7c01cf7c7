"""2W2P aftermath: its options, and one aftermath day for one patient.

Follows seed ``000_7f98fe11b25af74f.txt`` (RULES.md 2.5 injury, infection, death, recovery: the
day's roll against death risks, infection risks and recovery goals; which wounds need re-set).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from sim.dice import Dist
from sim.rules.common import option
from sim.rules.twowp.options import (
    DEFAULT_OPTIONS,
    LIGHT_DAYS_PER_RECOVERY_ROLL,
    RESET_ONE_IN,
    Options,
    _check_count,
)
from sim.rules.twowp.skills import Skill, skill_weight, task_dice
from sim.rules.twowp.tasks import (
    Assigner,
    Outcome,
    Stake,
    StakeKind,
    StakeResult,
    TaskRoll,
    roll_task,
    task_dist,
)


@dataclass(frozen=True, slots=True)
class AftermathOptions:
    """The 2W2P aftermath interpretations [I] and house rules [H] (RULES.md 2.5).

    Kept apart from :class:`Options` so the battle's option set is unchanged; the aftermath
    (:mod:`sim.aftermath`) takes them as its own group.
    """

    rest: str = option(
        "full",
        "patients in the aftermath rest fully every day and roll to recover each day (full), "
        "or only avoid strenuous activity and roll every third day (light)",
        tag="H",
        choices=("full", "light"),
    )
    rest_on_blow_day: bool = option(
        False,
        "the day of the blow (the battle's day) counts as a day of rest, so the first "
        "recovery roll comes that evening (default: from the next day)",
        tag="I",
    )
    unknown_reset_roll: str = option(
        "fails",
        "a recovery roll on a wound that needs re-set but is not known to: any die put on it "
        "is a failed roll (fails), or only a roll that loses the goal is (as_rolled); either "
        "way the wound does not recover",
        tag="I",
        choices=("fails", "as_rolled"),
    )
    lost_recovery_keeps_advances: bool = option(
        True,
        "a lost recovery goal keeps the advances it had (false: they are lost with it)",
        tag="I",
    )
    infection_ends_when_removed: bool = option(
        True,
        "a 5-6 on an infection's death risk removes the infection for good (false: the "
        "infection stays a daily death risk until its wound recovers)",
        tag="I",
    )
    felled_until: str = option(
        "felling_recovered",
        "a felled patient is incapacitated until every felling wound has recovered "
        "(felling_recovered) or every wound has (all_recovered)",
        tag="I",
        choices=("felling_recovered", "all_recovered"),
    )
    infection_ends_with_wound: bool = option(
        True,
        "an infection ends when its wound recovers (false: it runs on until its death risk "
        "is removed)",
        tag="I",
    )


DEFAULT_AFTERMATH_OPTIONS = AftermathOptions()


def wound_needs_reset(
    felling: bool,
    rng: np.random.Generator,
    options: Options = DEFAULT_OPTIONS,
    other_wounds_before: int = 0,
) -> bool:
    """Whether a new wound must be re-set before it can recover (the GM's secret) [S].

    Felling wounds always; other wounds one in three: by default each independently with
    chance 1/3 [I]; with ``reset_rule`` ``every_third``, the third, sixth, ... non-felling
    wound of the fighter (``other_wounds_before`` counts its earlier ones). Draws from
    ``rng`` only for a non-felling wound under ``chance``.
    """
    _check_count(other_wounds_before, "earlier wounds")
    if felling:
        return True
    if options.reset_rule == "every_third":
        return (other_wounds_before + 1) % RESET_ONE_IN == 0
    return int(rng.integers(RESET_ONE_IN)) == 0


def wound_needs_reset_dist(
    felling: bool, options: Options = DEFAULT_OPTIONS, other_wounds_before: int = 0
) -> Dist:
    """Exact distribution (over True/False) of :func:`wound_needs_reset`."""
    _check_count(other_wounds_before, "earlier wounds")
    if felling:
        return Dist.constant(True)
    if options.reset_rule == "every_third":
        return Dist.constant((other_wounds_before + 1) % RESET_ONE_IN == 0)
    p = Fraction(1, RESET_ONE_IN)
    return Dist({True: p, False: 1 - p})


def patient_dice(
    carers: Iterable[str | Skill] = (),
    *,
    extra_dice: int = 0,
    options: Options = DEFAULT_OPTIONS,
) -> int:
    """Dice a patient and its carers roll in the aftermath.

    The patient counts ``patient_weight`` [I], each carer its skill's weight; ``extra_dice``
    adds supervision or scarce-resource dice [S].
    """
    _check_count(extra_dice, "extra dice")
    weight = options.patient_weight + sum(skill_weight(s, options) for s in carers)
    return task_dice(weight) + extra_dice


@dataclass(frozen=True, slots=True)
class PatientDay:
    """What one patient rolls against on one aftermath day (all in one task roll).

    Attributes:
        felled_delays: felled and its death risk not yet removed: times that risk was
            delayed before; None if no such risk is open [S].
        infections: for each infection that set in before today: times its death risk was
            delayed before [S].
        infection_risks: for each infection risk rolled today (a wound taken today gives 0;
            a delayed one under ``infection_risk_recurs`` its earlier delays) [S].
        recovering: if a recovery roll is due today (:func:`recovery_roll_due`), for each
            wound that can recover (not awaiting re-set): its advances so far [S].
    """

    felled_delays: int | None = None
    infections: tuple[int, ...] = ()
    infection_risks: tuple[int, ...] = ()
    recovering: tuple[int, ...] = ()

    def stakes(self) -> tuple[Stake, ...]:
        """The day's stakes, in order.

        Felled death risk, infection death risks, infection risks, then recovery goals (each
        wound its own goal, kept open when the dice run out).
        """
        out: list[Stake] = []
        if self.felled_delays is not None:
            out.append(Stake(StakeKind.DEATH, delays=self.felled_delays, label="felled"))
        out += [Stake(StakeKind.DEATH, delays=d, label="infection") for d in self.infections]
        out += [Stake(StakeKind.INFECTION, delays=d) for d in self.infection_risks]
        out += [
            Stake(StakeKind.GOAL, advances=a, keep_open=True, label="recovery")
            for a in self.recovering
        ]
        return tuple(out)


@dataclass(frozen=True, slots=True)
class DayResult:
    """One aftermath day of one patient: the roll and what became of each stake."""

    dice: tuple[int, ...]
    felled: StakeResult | None
    infections: tuple[StakeResult, ...]
    infection_risks: tuple[StakeResult, ...]
    recovering: tuple[StakeResult, ...]

    @property
    def key(self) -> tuple[Outcome, ...]:
        """All outcomes in :meth:`PatientDay.stakes` order (the outcomes of the exact dist)."""
        first = (self.felled,) if self.felled is not None else ()
        rows = first + self.infections + self.infection_risks + self.recovering
        return tuple(r.outcome for r in rows)

    @property
    def died(self) -> bool:
        """A death risk happened."""
        first = (self.felled,) if self.felled is not None else ()
        return any(r.outcome is Outcome.HAPPENS for r in first + self.infections)

    @property
    def new_infections(self) -> int:
        """Infection risks that happened: infections that set in today."""
        return sum(1 for r in self.infection_risks if r.outcome is Outcome.HAPPENS)

    @property
    def recovered(self) -> int:
        """Wounds recovered today."""
        return sum(1 for r in self.recovering if r.outcome is Outcome.ACHIEVED)

    def pending_infection_risks(self, options: Options = DEFAULT_OPTIONS) -> tuple[int, ...]:
        """Delays of infection risks to roll again tomorrow (only ``infection_risk_recurs``)."""
        if not options.infection_risk_recurs:
            return ()
        return tuple(r.delays for r in self.infection_risks if r.outcome is Outcome.DELAYED)


def _day_result(patient: PatientDay, roll: TaskRoll) -> DayResult:
    res = list(roll.results)
    felled = res.pop(0) if patient.felled_delays is not None else None
    n_inf, n_risk = len(patient.infections), len(patient.infection_risks)
    return DayResult(
        dice=roll.dice,
        felled=felled,
        infections=tuple(res[:n_inf]),
        infection_risks=tuple(res[n_inf : n_inf + n_risk]),
        recovering=tuple(res[n_inf + n_risk :]),
    )


def aftermath_day(
    patient: PatientDay,
    dice: int,
    rng: np.random.Generator,
    options: Options = DEFAULT_OPTIONS,
    assign: Assigner | None = None,
) -> DayResult:
    """Roll one aftermath day for one patient, all in one task roll [S].

    ``dice`` (:func:`patient_dice`) against the day's death risks, infection risks and
    recovery goals, assigned by ``assign`` (default greedy: death risks first, then infection
    risks, then recovery).
    """
    return _day_result(patient, roll_task(dice, patient.stakes(), rng, options, assign))


def aftermath_day_dist(
    patient: PatientDay,
    dice: int,
    options: Options = DEFAULT_OPTIONS,
    assign: Assigner | None = None,
) -> Dist:
    """Exact distribution of :attr:`DayResult.key` for :func:`aftermath_day`."""
    return task_dist(dice, patient.stakes(), options, assign)


def recovery_roll_due(rested_today: bool, light_days: int) -> bool:
    """Whether a recovery roll is due [S].

    After a day of full rest, or after every third day in a row without strenuous activity
    (``light_days`` counts them, today included).
    """
    _check_count(light_days, "light days")
    return rested_today or (light_days > 0 and light_days % LIGHT_DAYS_PER_RECOVERY_ROLL == 0)
