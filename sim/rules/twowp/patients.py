"""2W2P patients over days: wounds, infections, death risks, re-sets, recovery.

Follows seed ``000_7f98fe11b25af74f.txt`` (RULES.md 2.5 the aftermath over days, one patient at
a time).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

import numpy as np

from sim.dice import Dist
from sim.errors import SimError
from sim.rules.twowp.aftermath import (
    DEFAULT_AFTERMATH_OPTIONS,
    AftermathOptions,
    DayResult,
    PatientDay,
    _day_result,
    aftermath_day,
    recovery_roll_due,
    wound_needs_reset,
)
from sim.rules.twowp.healers import detection_delay
from sim.rules.twowp.options import DEFAULT_OPTIONS, Options, _check_count
from sim.rules.twowp.skills import Skill
from sim.rules.twowp.tasks import (
    Assigner,
    Outcome,
    Stake,
    StakeKind,
    TaskRoll,
    _assigner,
    _trinomial,
    task_dist,
)


@dataclass(frozen=True, slots=True)
class WoundState:
    """One wound in the aftermath (RULES.md 2.5).

    Attributes:
        felling: a felling wound (always needs re-set, and everyone knows it).
        needs_reset: still needs re-setting before it can recover (the GM's secret).
        reset_known: someone knows it needs re-set (felling wounds always; others by an
            experienced surgeon's or a specialized healer's examination, or after a failed
            roll to recover it, by any competent healer).
        day: the day of the blow.
        advances: recovery advances so far (three achieve it).
        recovered: recovered; a recovered wound is no longer carried.
        failed_recovery: a roll to recover it failed while it still needed re-set; any
            competent healer attending from then on can tell.
        infection_risk: the open infection risk's delays, or None once settled.
        infected_day: the day its infection set in, or None.
        infection_delays: times the infection's death risk was delayed.
        infection_over: the infection has ended (its risk removed or its wound recovered).
        infection_known: a healer has spotted the infection.
    """

    felling: bool = False
    needs_reset: bool = False
    reset_known: bool = False
    day: int = 0
    advances: int = 0
    recovered: bool = False
    failed_recovery: bool = False
    infection_risk: int | None = 0
    infected_day: int | None = None
    infection_delays: int = 0
    infection_over: bool = False
    infection_known: bool = False

    @property
    def infected(self) -> bool:
        """An infection set in and has not ended."""
        return self.infected_day is not None and not self.infection_over

    @property
    def awaiting_reset(self) -> bool:
        """Known to need re-set and not yet re-set: not rolled for until a surgeon sets it."""
        return self.needs_reset and self.reset_known and not self.recovered

    @property
    def state(self) -> str:
        """``recovered``, ``needs_reset`` (known, awaiting a surgeon) or ``recovering``."""
        if self.recovered:
            return "recovered"
        return "needs_reset" if self.awaiting_reset else "recovering"


def new_wound(
    felling: bool,
    day: int,
    rng: np.random.Generator,
    options: Options = DEFAULT_OPTIONS,
    other_wounds_before: int = 0,
) -> WoundState:
    """A wound taken on ``day``: whether it needs re-set is drawn (:func:`wound_needs_reset`)."""
    reset = wound_needs_reset(felling, rng, options, other_wounds_before)
    return WoundState(felling=felling, needs_reset=reset, reset_known=felling, day=day)


@dataclass(frozen=True, slots=True)
class PatientState:
    """One fighter's aftermath state under 2W2P: its wounds and open death risks.

    Attributes:
        wounds: every wound it has taken (recovered ones included, for the record).
        felled_risk: delays of the open death risk of a felled fighter, or None when there
            is none (never felled, or the risk was removed) [S].
        dead: it died of its wounds.
        died_day: the day it died.
    """

    wounds: tuple[WoundState, ...] = ()
    felled_risk: int | None = None
    dead: bool = False
    died_day: int | None = None

    def felled(self, aftermath: AftermathOptions = DEFAULT_AFTERMATH_OPTIONS) -> bool:
        """Alive and still felled (option ``felled_until``)."""
        if self.dead or not any(w.felling for w in self.wounds):
            return False
        if aftermath.felled_until == "all_recovered":
            return any(not w.recovered for w in self.wounds)
        return any(w.felling and not w.recovered for w in self.wounds)

    @property
    def carried(self) -> tuple[int, int]:
        """(wounding, felling) wounds not yet recovered: the blows it still carries (2.1)."""
        wounding = sum(1 for w in self.wounds if not w.recovered and not w.felling)
        felling = sum(1 for w in self.wounds if not w.recovered and w.felling)
        return wounding, felling

    @property
    def infections(self) -> int:
        """Infections running now."""
        return sum(1 for w in self.wounds if w.infected)

    @property
    def healed(self) -> bool:
        """Alive with every wound recovered, no infection and no open death risk."""
        return (
            not self.dead
            and all(w.recovered for w in self.wounds)
            and self.infections == 0
            and self.felled_risk is None
        )


def take_blows(
    state: PatientState,
    wounding: int,
    felling: int,
    day: int,
    rng: np.random.Generator,
    options: Options = DEFAULT_OPTIONS,
) -> PatientState:
    """``state`` after ``wounding`` wounding and ``felling`` felling blows on ``day``.

    Non-felling wounds draw whether they need re-set first, then felling ones (which always
    do). A felling blow opens the felled death risk, rolled from that day on [S]; one that is
    already open keeps its delays.
    """
    _check_count(wounding, "wounding blows")
    _check_count(felling, "felling blows")
    if state.dead:
        raise SimError("the dead take no more blows")
    others = sum(1 for w in state.wounds if not w.felling)
    new = [new_wound(False, day, rng, options, others + k) for k in range(wounding)]
    new += [new_wound(True, day, rng, options) for _ in range(felling)]
    risk = state.felled_risk
    if felling and risk is None:
        risk = 0
    return replace(state, wounds=state.wounds + tuple(new), felled_risk=risk)


def recovery_due(day: int, aftermath: AftermathOptions = DEFAULT_AFTERMATH_OPTIONS) -> bool:
    """Whether the patient rolls to recover on ``day`` (0 = the day of the blow) [S].

    Full rest: every day from day 1 (day 0 too with ``rest_on_blow_day``). Light rest:
    every third day (:func:`recovery_roll_due`).
    """
    _check_count(day, "day")
    first = 0 if aftermath.rest_on_blow_day else 1
    if day < first:
        return False
    return recovery_roll_due(aftermath.rest == "full", day + 1 - first)


@dataclass(frozen=True, slots=True)
class DayStakes:
    """A patient's stakes on one day and which wound each wound-stake belongs to."""

    day: PatientDay
    infection_wounds: tuple[int, ...]
    risk_wounds: tuple[int, ...]
    recovery_wounds: tuple[int, ...]


def patient_stakes(
    state: PatientState,
    day: int,
    options: Options = DEFAULT_OPTIONS,
    aftermath: AftermathOptions = DEFAULT_AFTERMATH_OPTIONS,
    fought: bool = False,
) -> DayStakes:
    """What ``state`` rolls against on ``day`` [S].

    The felled death risk while open; each infection that set in before today as a death
    risk; each open infection risk (the day of the blow, or a delayed one with
    ``infection_risk_recurs``); and a goal for each wound not yet recovered and not known to
    await re-set whose recovery roll is due, counting days from that wound's blow
    (:func:`recovery_due`; a wound whose need of re-set is still secret is rolled for, but
    cannot recover). A patient who ``fought`` on ``day`` (a campaign's later battle) did not
    rest: every wound counts that day as its day of the blow.
    """
    if state.dead:
        return DayStakes(PatientDay(), (), (), ())
    ws = state.wounds
    inf = tuple(
        i
        for i, w in enumerate(ws)
        if w.infected and w.infected_day is not None and w.infected_day < day
    )
    risks = tuple(i for i, w in enumerate(ws) if w.infection_risk is not None and w.day <= day)
    # each wound's rest is counted from its own blow (a campaign's later wounds are dated later)
    rec = tuple(
        i
        for i, w in enumerate(ws)
        if not w.recovered
        and not w.awaiting_reset
        and w.day <= day
        and recovery_due(0 if fought else day - w.day, aftermath)
    )
    patient = PatientDay(
        felled_delays=state.felled_risk,
        infections=tuple(ws[i].infection_delays for i in inf),
        infection_risks=tuple(ws[i].infection_risk or 0 for i in risks),
        recovering=tuple(ws[i].advances for i in rec),
    )
    return DayStakes(patient, inf, risks, rec)


def apply_patient_day(
    state: PatientState,
    day: int,
    stakes: DayStakes,
    result: DayResult,
    options: Options = DEFAULT_OPTIONS,
    aftermath: AftermathOptions = DEFAULT_AFTERMATH_OPTIONS,
) -> PatientState:
    """``state`` after the day's roll ``result`` on ``stakes`` (pure, no dice) [S].

    A death risk that happens kills. The felled risk: removed (5-6) closes it, delayed (3-4)
    carries it on. An infection's death risk: removed ends the infection
    (``infection_ends_when_removed``), delayed carries it on. An infection risk that happens
    sets an infection in today; delayed, it is rolled again tomorrow only with
    ``infection_risk_recurs``. A recovery goal achieved recovers the wound (unless it still
    needs re-set: then the roll fails, ``unknown_reset_roll``); advanced adds its advances;
    lost keeps them (``lost_recovery_keeps_advances``).
    """
    if state.dead:
        return state
    if result.died:
        return replace(state, dead=True, died_day=day)
    ws = list(state.wounds)
    felled = state.felled_risk
    if result.felled is not None:
        felled = None if result.felled.outcome is Outcome.REMOVED else result.felled.delays
    for i, r in zip(stakes.infection_wounds, result.infections, strict=True):
        if r.outcome is Outcome.REMOVED and aftermath.infection_ends_when_removed:
            ws[i] = replace(ws[i], infection_over=True)
        else:
            ws[i] = replace(ws[i], infection_delays=r.delays)
    for i, r in zip(stakes.risk_wounds, result.infection_risks, strict=True):
        if r.outcome is Outcome.HAPPENS:
            ws[i] = replace(ws[i], infection_risk=None, infected_day=day, infection_delays=0)
        elif r.outcome is Outcome.DELAYED and options.infection_risk_recurs:
            ws[i] = replace(ws[i], infection_risk=r.delays)
        else:
            ws[i] = replace(ws[i], infection_risk=None)
    for i, r in zip(stakes.recovery_wounds, result.recovering, strict=True):
        w = ws[i]
        if w.needs_reset:  # cannot recover: a failed roll, if dice were put on it
            failed = (
                bool(r.dice)
                if aftermath.unknown_reset_roll == "fails"
                else r.outcome is Outcome.LOST
            )
            ws[i] = replace(w, failed_recovery=w.failed_recovery or failed)
        elif r.outcome is Outcome.ACHIEVED:
            ended = w.infection_over or (
                w.infected_day is not None and aftermath.infection_ends_with_wound
            )
            ws[i] = replace(w, recovered=True, advances=r.advances, infection_over=ended)
        elif r.outcome is Outcome.ADVANCED:
            ws[i] = replace(w, advances=r.advances)
        elif r.outcome is Outcome.LOST and not aftermath.lost_recovery_keeps_advances:
            ws[i] = replace(w, advances=0)
    return replace(state, wounds=tuple(ws), felled_risk=felled)


def patient_day(
    state: PatientState,
    day: int,
    dice: int,
    rng: np.random.Generator,
    options: Options = DEFAULT_OPTIONS,
    aftermath: AftermathOptions = DEFAULT_AFTERMATH_OPTIONS,
    assign: Assigner | None = None,
    fought: bool = False,
) -> tuple[PatientState, DayResult | None]:
    """Roll one aftermath day for one patient with ``dice`` dice (:func:`patient_dice`).

    Returns the new state and the day's result (None, and no dice drawn, when the patient
    is dead or has nothing at stake today). ``fought``: see :func:`patient_stakes`.
    """
    stakes = patient_stakes(state, day, options, aftermath, fought)
    if state.dead or not stakes.day.stakes():
        return state, None
    result = aftermath_day(stakes.day, dice, rng, options, assign)
    return apply_patient_day(state, day, stakes, result, options, aftermath), result


def patient_day_dist(
    state: PatientState,
    day: int,
    dice: int,
    options: Options = DEFAULT_OPTIONS,
    aftermath: AftermathOptions = DEFAULT_AFTERMATH_OPTIONS,
    assign: Assigner | None = None,
) -> Dist:
    """Exact distribution of the new :class:`PatientState` after :func:`patient_day`.

    Enumerates how many dice show 5-6, 3-4 and 1-2 (exact for any assignment tactic that
    looks at no more than that, as :func:`task_dist`).
    """
    _check_count(dice, "dice")
    stakes = patient_stakes(state, day, options, aftermath)
    if state.dead or not stakes.day.stakes():
        return Dist.constant(state)
    fn = _assigner(assign, options)
    acc: dict[PatientState, int] = {}
    for high, mid, ways in _trinomial(dice):
        faces = (6,) * high + (4,) * mid + (2,) * (dice - high - mid)
        roll = TaskRoll(faces, fn(faces, stakes.day.stakes()))
        new = apply_patient_day(
            state, day, stakes, _day_result(stakes.day, roll), options, aftermath
        )
        acc[new] = acc.get(new, 0) + ways
    return Dist({k: Fraction(v, 3**dice) for k, v in acc.items()})


def patient_days_dist(
    state: PatientState,
    first_day: int,
    dice: Sequence[int],
    options: Options = DEFAULT_OPTIONS,
    aftermath: AftermathOptions = DEFAULT_AFTERMATH_OPTIONS,
) -> Dist:
    """Exact distribution of the state after days ``first_day``, ``first_day + 1``, ...

    ``dice[k]`` is the patient's dice on day ``first_day + k`` (no healer changes it).
    """
    dist = Dist.constant(state)
    for k, n in enumerate(dice):

        def one_day(s: PatientState, day: int = first_day + k, n: int = n) -> Dist:
            return patient_day_dist(s, day, n, options, aftermath)

        dist = dist.bind(one_day)
    return dist


def infection_chance(dice: int, options: Options = DEFAULT_OPTIONS) -> Fraction:
    """Chance a fresh wound, the only stake of the roll, is infected on the day of the blow.

    The risk happens when no die of 3+ can be put on it [S], so it is 3**-dice: 1/3 for
    the patient alone (1 die), 1/9 with one competent healer (2 dice).
    """
    stake = (Stake(StakeKind.INFECTION),)
    return task_dist(dice, stake, options).prob(lambda k: k[0] is Outcome.HAPPENS)


def reset_wound(state: PatientState, index: int) -> PatientState:
    """``state`` after a surgeon re-sets wound ``index`` (known to need it) [S]."""
    w = state.wounds[index]
    if not w.awaiting_reset:
        raise SimError(f"wound {index} is not known to need re-set")
    ws = state.wounds[:index] + (replace(w, needs_reset=False),) + state.wounds[index + 1 :]
    return replace(state, wounds=ws)


def examine_resets(state: PatientState, role: str, skill: str | Skill) -> PatientState:
    """What a healer's attendance reveals about wounds needing re-set [S].

    An experienced surgeon's or any specialized healer's examination finds every one; any
    competent healer finds those after a failed roll to recover them.
    """
    exam = detection_delay("reset", role, skill) is not None
    after_fail = detection_delay("reset_after_failed_recovery", role, skill) is not None
    ws = tuple(
        replace(w, reset_known=True)
        if w.needs_reset and not w.reset_known and (exam or (after_fail and w.failed_recovery))
        else w
        for w in state.wounds
    )
    return replace(state, wounds=ws)


def detect_infections(state: PatientState, day: int, role: str, skill: str | Skill) -> PatientState:
    """Infections a healer attending on ``day`` spots (:func:`detection_delay`) [S]."""
    delay = detection_delay("infection", role, skill)
    if delay is None:
        return state
    ws = tuple(
        replace(w, infection_known=True)
        if w.infected and w.infected_day is not None and day - w.infected_day >= delay
        else w
        for w in state.wounds
    )
    return replace(state, wounds=ws)
