"""2W2P: fighting experience, skill and task dice, melee fronts, injury and the aftermath.

Follows seed ``000_7f98fe11b25af74f.txt`` and implements RULES.md section 2:

- 2.1 fighting experience: :class:`Tier`, :func:`tier_from_fights`, :func:`tier_dice`,
  :func:`group_dice`, :func:`effective_tier`, :func:`side_dice`, :func:`fights_after_battle`;
- 2.2 skill and task dice: :class:`Skill`, :data:`SKILL_WEIGHTS`, :func:`task_dice`,
  :func:`task_pool`, supervision, training times (:func:`trained_skill`);
- 2.3 goals and risks: :class:`Stake`, :func:`resolve`, :func:`assign_greedy`,
  :func:`roll_task` / :func:`task_dist`;
- 2.4 melee fronts: :func:`apply_defence`, :func:`roll_exchange` / :func:`exchange_dist`,
  :func:`side_pool`, :func:`roll_front` / :func:`front_dist`, :func:`take_hits` /
  :func:`take_hits_dist`, :class:`Wounds`;
- 2.5 the aftermath, one day for one patient: :func:`wound_needs_reset`,
  :func:`aftermath_day` / :func:`aftermath_day_dist`, :func:`recovery_roll_due`,
  :func:`detection_delay`, :func:`healer_capacity`;
- 2.5 the aftermath over days: :class:`WoundState`, :class:`PatientState`,
  :func:`take_blows`, :func:`patient_stakes`, :func:`apply_patient_day`,
  :func:`patient_day` / :func:`patient_day_dist` / :func:`patient_days_dist`,
  :func:`infection_chance`, :func:`reset_wound`, :func:`examine_resets`,
  :func:`detect_infections`, :func:`recovery_due` (healers' assignment is in
  :mod:`sim.aftermath`).

Tables ship as data: ``twowp_tiers.csv``, ``twowp_skills.csv``, ``twowp_training.csv``,
``twowp_healers.csv``, ``twowp_detection.csv``.

Options (:class:`Options`; [I] interpretation, [H] house rule):

- ``unskilled_weight`` = 0 [I]: what an unskilled person counts for in a task.
- ``patient_weight`` = 1 [I]: what the patient counts for in its own aftermath rolls.
- ``below_green`` = ``none`` [H]: a fighter wounded below Green adds no dice (``green``: as Green).
- ``protection_one`` = 1, ``protection_both`` = 2 [I]: extra defence dice when everyone on the
  side has body or head protection / both.
- ``defence_share`` = 0 [H]: fraction of a side's dice set aside for defence, rounded down.
- ``defence_order`` = ``felling_first`` [H]: how the defender spends defence dice.
- ``take_hits`` = ``spread`` [H]: who takes the hits (``spread``, ``shield_best``, ``random``).
- ``stack_advances`` = False [I]: whether one roll may put several dice on one goal.
- ``reset_rule`` = ``chance`` [I]: a non-felling wound needs re-set with probability 1/3
  (``every_third``: exactly every third one).
- ``infection_risk_recurs`` = False [I]: whether a delayed infection risk is rolled again.
- ``surgeon_examines_experienced`` = 4 [I]: patients an experienced surgeon examines an hour.
- ``healer_training_mix`` = False [I]: whether partial supervised and instructed healer
  training add up.

Aftermath options (:class:`AftermathOptions`, a group of their own so the battle's options
are unchanged):

- ``rest`` = ``full`` [H]: patients rest fully and roll to recover every day (``light``:
  every third day).
- ``rest_on_blow_day`` = False [I]: the day of the blow is no day of rest.
- ``unknown_reset_roll`` = ``fails`` [I]: any die put on a wound that secretly needs re-set
  is a failed recovery roll (``as_rolled``: only a lost goal is).
- ``lost_recovery_keeps_advances`` = True [I]: a lost recovery goal keeps its advances.
- ``infection_ends_when_removed`` = True [I]: a 5-6 on an infection's death risk ends it.
- ``infection_ends_with_wound`` = True [I]: an infection ends when its wound recovers.
- ``felled_until`` = ``felling_recovered`` [I]: felled until the felling wounds recover
  (``all_recovered``: all wounds).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import IntEnum, StrEnum
from fractions import Fraction
from functools import cache
from math import comb, isqrt
from types import MappingProxyType

import numpy as np

from sim.dice import Dist
from sim.errors import SimError, unknown
from sim.rules.common import load_csv, option

NAME = "2w2p"
SEED = "000_7f98fe11b25af74f.txt"

# Single figures of the seed [S]; the tables are in data/twowp_*.csv.
FELLING_BLOW_PRIME = 3  # "for those in their physical prime, the third wounding blow ..."
FELLING_BLOW_OTHER = 2  # "for everyone else, the second wounding blow is a felling blow"
MAX_DELAYS = 2  # "no risk may be delayed more than twice" (unless the GM says otherwise)
ADVANCES_TO_ACHIEVE = 3  # "advancing the same goal three times achieves it"
SCARCE_RESOURCE_DICE = 1  # declaring a scarce resource used up gives one extra die
SUPERVISION_DICE = 1  # a supervisor adds one die to one student's roll each period
RESET_ONE_IN = 3  # "one out of every three other wounds must be re-set"
LIGHT_DAYS_PER_RECOVERY_ROLL = 3  # "or after three days without strenuous activity"
INSTRUCTION_FACTOR = 2  # instruction replaces practice at "two times as much"
INSTRUCTION_MAX_SHARE = Fraction(1, 2)  # "up to half of these requirements"
SELF_STUDY_FACTOR = 3  # self-study "takes three times as long"


# --------------------------------------------------------------------------------------------
# Options
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Options:
    """The 2W2P interpretations [I] and house rules [H] (RULES.md 2)."""

    unskilled_weight: int = option(
        0,
        "what an unskilled person counts for in a task's weighted head count "
        "(the seed lists no figure; 1 would count heads)",
        tag="I",
        low=0,
        high=1,
    )
    patient_weight: int = option(
        1,
        "what the patient counts for in its own aftermath rolls (anyone may count as "
        "competent at a task that needs no training)",
        tag="I",
        low=0,
        high=4,
    )
    below_green: str = option(
        "none",
        "a fighter wounded below Green adds no dice (none) or fights as Green (green)",
        tag="H",
        choices=("none", "green"),
    )
    protection_one: int = option(
        1,
        "extra defence dice when everyone on the side has body or head protection",
        tag="I",
        low=0,
        high=2,
    )
    protection_both: int = option(
        2,
        "extra defence dice when everyone on the side has body and head protection",
        tag="I",
        low=0,
        high=2,
    )
    defence_share: float = option(
        0.0,
        "fraction of a side's dice set aside for defence before rolling, rounded down (tactic)",
        tag="H",
        low=0,
        high=1,
    )
    defence_order: str = option(
        "felling_first",
        "how the defender spends defence dice: felling_first (5-6s stop felling hits, 3-4s "
        "turn felling hits into wounding ones, the rest stop wounding hits; fewest felling "
        "hits) or fewest_hits (fewest hits of any kind, then fewest felling hits)",
        tag="H",
        choices=("felling_first", "fewest_hits"),
    )
    take_hits: str = option(
        "spread",
        "who takes the hits a side suffers: spread, shield_best or random (tactic)",
        tag="H",
        choices=("spread", "shield_best", "random"),
    )
    stack_advances: bool = option(
        False,
        "one roll may put several dice on one goal, so leftover 3+ dice advance goals again "
        "(default: one die per goal or risk per roll)",
        tag="I",
    )
    reset_rule: str = option(
        "chance",
        "which non-felling wounds need re-set: each with probability 1/3 (chance) or exactly "
        "every third one a fighter takes (every_third)",
        tag="I",
        choices=("chance", "every_third"),
    )
    infection_risk_recurs: bool = option(
        False,
        "a 3-4 on an infection risk avoids it for good (false) or delays it to the next day's "
        "roll, at most twice (true)",
        tag="I",
    )
    surgeon_examines_experienced: int = option(
        4,
        "patients an experienced surgeon examines an hour (the seed gives 3 and 5 for the "
        "other levels only)",
        tag="I",
        low=3,
        high=5,
    )
    healer_training_mix: bool = option(
        False,
        "partial supervised practice and instruction add up towards a healer level that "
        "needs either (false: one path must be complete)",
        tag="I",
    )


DEFAULT_OPTIONS = Options()


def _check_count(value: int, what: str) -> None:
    if value < 0:
        raise SimError(f"{what} must be 0 or more, got {value}")


# --------------------------------------------------------------------------------------------
# 2.1 Fighting experience
# --------------------------------------------------------------------------------------------


class Tier(IntEnum):
    """A fighter's experience tier, from its count of life-or-death fights (RULES.md 2.1)."""

    GREEN = 0
    FRESH = 1
    TESTED = 2
    SEASONED = 3
    VETERAN = 4
    HERO = 5

    @property
    def label(self) -> str:
        """The tier's name as the seed writes it (``Green``)."""
        return self.name.capitalize()


@dataclass(frozen=True, slots=True)
class TierRow:
    """One row of ``twowp_tiers.csv``: where the tier starts and the dice its groups add."""

    tier: Tier
    min_fights: int
    block: int
    dice_per_block: int
    remainder_dice: tuple[int, ...]


@cache
def tier_table() -> tuple[TierRow, ...]:
    """The tier table from ``twowp_tiers.csv``, checked, in tier order."""
    rows = []
    for raw in load_csv("twowp_tiers.csv"):
        row = TierRow(
            tier=Tier[raw["tier"].upper()],
            min_fights=int(raw["min_fights"]),
            block=int(raw["block"]),
            dice_per_block=int(raw["dice_per_block"]),
            remainder_dice=tuple(int(x) for x in raw["remainder_dice"].split(";")),
        )
        if row.block < 1 or len(row.remainder_dice) != row.block:
            raise ValueError(f"twowp_tiers.csv: bad block or remainder_dice for {row.tier.label}")
        rows.append(row)
    if [r.tier for r in rows] != list(Tier) or rows[0].min_fights != 0:
        raise ValueError("twowp_tiers.csv: tiers must run Green..Hero starting at 0 fights")
    if any(a.min_fights >= b.min_fights for a, b in zip(rows, rows[1:], strict=False)):
        raise ValueError("twowp_tiers.csv: min_fights must increase")
    return tuple(rows)


def parse_tier(name: str) -> Tier:
    """The tier called ``name`` (any case); a SimError with a suggestion otherwise."""
    key = name.strip().upper() if isinstance(name, str) else ""
    if key in Tier.__members__:
        return Tier[key]
    raise unknown("tier", str(name), [t.label for t in Tier])


def tier_from_fights(fights: int) -> Tier:
    """The tier of a fighter with ``fights`` life-or-death fights behind it [S]."""
    _check_count(fights, "fight count")
    tier = Tier.GREEN
    for row in tier_table():
        if fights >= row.min_fights:
            tier = row.tier
    return tier


def fights_after_battle(fights: int, fought: bool, survived: bool) -> int:
    """Fight count after a battle: one more if the fighter fought in it and survived [S]."""
    _check_count(fights, "fight count")
    return fights + 1 if fought and survived else fights


def effective_tier(tier: Tier, wounds: int) -> Tier | None:
    """The tier a fighter fights at: one worse per wounding blow carried [S].

    Returns ``None`` below Green (such a fighter adds no dice by default, see ``below_green``).
    """
    _check_count(wounds, "wounding blows")
    level = int(tier) - wounds
    return Tier(level) if level >= 0 else None


def tier_dice(tier: Tier, n: int) -> int:
    """Dice a group of ``n`` fighters of one ``tier`` adds to its side of a front [S]."""
    _check_count(n, "number of fighters")
    row = tier_table()[Tier(tier)]
    return row.dice_per_block * (n // row.block) + row.remainder_dice[n % row.block]


def group_dice(counts: Mapping[Tier, int]) -> int:
    """Dice a side of a front rolls: the dice of each tier's group, added up."""
    return sum(tier_dice(tier, n) for tier, n in counts.items())


def side_dice(fighters: Iterable[tuple[Tier, int]], options: Options = DEFAULT_OPTIONS) -> int:
    """Dice of the standing fighters on one side of a front, given (tier, wounding blows) each.

    Fighters are grouped by effective tier; those below Green add nothing unless the option
    ``below_green`` is ``green``.
    """
    counts: Counter[Tier] = Counter()
    for tier, wounds in fighters:
        eff = effective_tier(tier, wounds)
        if eff is None and options.below_green == "green":
            eff = Tier.GREEN
        if eff is not None:
            counts[eff] += 1
    return group_dice(counts)


# --------------------------------------------------------------------------------------------
# 2.2 Skill, task dice, supervision, training
# --------------------------------------------------------------------------------------------


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
    options: Options = DEFAULT_OPTIONS,
) -> bool:
    """Whether months of training reach ``skill`` on a track (RULES.md 2.2, 2.5) [S].

    General track: supervised practice, plus self-study at a third, plus instruction at half
    that may stand in for at most half the requirement. Healer track: the supervised months
    or the instruction months (both for specialized); self-study does not count there;
    ``healer_training_mix`` lets the two paths' fractions add up.
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
    if options.healer_training_mix:
        return sup_part + inst_part >= 1
    return sup_part >= 1 or inst_part >= 1


def trained_skill(
    *,
    track: str = "general",
    supervised: Fraction | int = 0,
    instruction: Fraction | int = 0,
    self_study: Fraction | int = 0,
    options: Options = DEFAULT_OPTIONS,
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
            options=options,
        ):
            best = level
    return best


# --------------------------------------------------------------------------------------------
# 2.3 Goals and risks
# --------------------------------------------------------------------------------------------


class StakeKind(StrEnum):
    """What is at stake on a task; the greedy tactic serves them in this order."""

    DEATH = "death"
    INFECTION = "infection"
    RISK = "risk"
    GOAL = "goal"


_PRIORITY = {kind: i for i, kind in enumerate(StakeKind)}


class Outcome(StrEnum):
    """What became of a goal or risk after a roll."""

    ACHIEVED = "achieved"  # goal: a 5-6, or its last needed advance
    ADVANCED = "advanced"  # goal: a 3-4 short of the last advance
    OPEN = "open"  # goal: no die, but the chance is kept (recovery, later step)
    LOST = "lost"  # goal: no 3+ die; the opportunity is lost (a failed roll)
    REMOVED = "removed"  # risk: a 5-6
    DELAYED = "delayed"  # risk: a 3-4 while it may still be delayed (avoided for now)
    HAPPENS = "happens"  # risk: no die that stops it


@dataclass(frozen=True, slots=True)
class Stake:
    """A goal or a risk of a task, with what earlier rolls did to it.

    Attributes:
        kind: death, infection or other risk, or goal.
        delays: risks: times delayed by earlier rolls.
        advances: goals: times advanced by earlier rolls.
        keep_open: goals: not lost when no die at all is left for it (recovery goals:
            "fewer dice than goals keeps the leftover chances open").
        after: goals split into steps: index of the previous step in the same stake list;
            a step with no 3+ die stays open while that step is being advanced.
        max_delays: risks: how often it may be delayed ("unless the GM says otherwise").
        advances_needed: goals: advances that achieve it.
        label: free text for logs.
    """

    kind: StakeKind
    delays: int = 0
    advances: int = 0
    keep_open: bool = False
    after: int | None = None
    max_delays: int = MAX_DELAYS
    advances_needed: int = ADVANCES_TO_ACHIEVE
    label: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.kind, StakeKind):
            try:
                object.__setattr__(self, "kind", StakeKind(self.kind))
            except ValueError:
                raise unknown("stake kind", str(self.kind), [k.value for k in StakeKind]) from None
        for name in ("delays", "advances", "max_delays"):
            _check_count(getattr(self, name), name)
        if self.advances_needed < 1:
            raise SimError(f"advances_needed must be 1 or more, got {self.advances_needed}")

    @property
    def is_risk(self) -> bool:
        """True for death, infection and other risks."""
        return self.kind is not StakeKind.GOAL


@dataclass(frozen=True, slots=True)
class StakeResult:
    """The outcome of one stake after a roll, the dice put on it and its updated counts."""

    outcome: Outcome
    dice: tuple[int, ...]
    delays: int
    advances: int


Assignment = tuple[tuple[int, ...], ...]
"""For each stake, the indices (into the dice) of the dice assigned to it."""

Assigner = Callable[[tuple[int, ...], Sequence[Stake]], tuple[StakeResult, ...]]
"""A dice-assignment tactic: sorted dice (highest first) and the stakes in, outcomes out."""


def suffices(face: int, stake: Stake) -> bool:
    """Whether a die of ``face`` keeps ``stake`` from its no-die fate.

    For a risk: a 5-6 (removes it), or a 3-4 while the risk has been delayed fewer than
    ``max_delays`` times (delays it). For a goal: any 3+ (a 5-6 achieves, a 3-4 advances).
    """
    if face >= 5:
        return True
    if face >= 3:
        return not stake.is_risk or stake.delays < stake.max_delays
    return False


def _check_face(face: int) -> None:
    if not 1 <= face <= 6:
        raise SimError(f"a die face must be 1..6, got {face}")


def resolve(
    dice: Sequence[int], stakes: Sequence[Stake], chosen: Sequence[Sequence[int]]
) -> tuple[StakeResult, ...]:
    """Outcome of every stake when ``chosen[i]`` are the indices of the dice put on stake i.

    Rules (RULES.md 2.3) [S]: a 5-6 achieves a goal or removes a risk; a 3-4 advances a goal
    (the ``advances_needed``-th advance achieves it) or delays a risk (while it may still be
    delayed); a risk with no such die happens; a goal with no 3+ die is lost, except that it
    stays open if it got no die at all and is ``keep_open``, or if it is a later step whose
    previous step is still being advanced (advanced or open). Several dice on one stake add
    their advances; a risk is delayed at most once per roll.
    """
    if len(chosen) != len(stakes):
        raise SimError(f"an assignment needs one entry per stake: {len(chosen)} != {len(stakes)}")
    for face in dice:
        _check_face(face)
    used: set[int] = set()
    for idxs in chosen:
        for j in idxs:
            if not 0 <= j < len(dice) or j in used:
                raise SimError(f"die index {j} is out of range or assigned twice")
            used.add(j)
    results: list[StakeResult] = []
    for i, (stake, idxs) in enumerate(zip(stakes, chosen, strict=True)):
        faces = tuple(dice[j] for j in idxs)
        high = sum(1 for f in faces if f >= 5)
        mid = sum(1 for f in faces if 3 <= f <= 4)
        if stake.is_risk:
            if high:
                outcome, delays = Outcome.REMOVED, stake.delays
            elif mid and stake.delays < stake.max_delays:
                outcome, delays = Outcome.DELAYED, stake.delays + 1
            else:
                outcome, delays = Outcome.HAPPENS, stake.delays
            results.append(StakeResult(outcome, faces, delays, stake.advances))
            continue
        advances = stake.advances + mid
        if high or advances >= stake.advances_needed:
            outcome = Outcome.ACHIEVED
        elif mid:
            outcome = Outcome.ADVANCED
        elif stake.keep_open and not faces:
            outcome = Outcome.OPEN
        elif stake.after is not None:
            if not 0 <= stake.after < i or stakes[stake.after].is_risk:
                raise SimError(f"stake {i}: 'after' must name an earlier goal, got {stake.after}")
            prev = results[stake.after].outcome
            outcome = Outcome.OPEN if prev in (Outcome.ADVANCED, Outcome.OPEN) else Outcome.LOST
        else:
            outcome = Outcome.LOST
        results.append(StakeResult(outcome, faces, stake.delays, advances))
    return tuple(results)


def greedy_assignment(
    dice: Sequence[int], stakes: Sequence[Stake], options: Options = DEFAULT_OPTIONS
) -> Assignment:
    """The default dice-assignment tactic [H]; returns the dice indices put on each stake.

    1. Stakes are served in the order death risks, infection risks, other risks, goals (list
       order within a kind). Each takes the highest die still free if that die *suffices*
       (:func:`suffices`: it stops the risk or advances/achieves the goal); since dice are
       taken highest first, when the highest free die does not suffice no lower one does and
       the stake gets nothing in this pass.
    2. With ``stack_advances``, free 3+ dice then go round the goals not yet achieved, in the
       same order, one die each per round, highest first.
    3. Every die must be assigned: the remaining dice (highest first) go one each to stakes
       that have none, in the same order but ``keep_open`` goals last; dice left over after
       every stake has one are unused. So a recovery goal stays open only when the dice ran
       out before it.
    """
    for face in dice:
        _check_face(face)
    order = sorted(range(len(stakes)), key=lambda i: (_PRIORITY[stakes[i].kind], i))
    free = sorted(range(len(dice)), key=lambda j: (-dice[j], j))
    chosen: list[list[int]] = [[] for _ in stakes]
    for i in order:
        if free and suffices(dice[free[0]], stakes[i]):
            chosen[i].append(free.pop(0))
    if options.stack_advances:
        goals = [i for i in order if not stakes[i].is_risk]
        progress = True
        while progress and free and dice[free[0]] >= 3:
            progress = False
            for i in goals:
                faces = [dice[j] for j in chosen[i]]
                done = (
                    any(f >= 5 for f in faces)
                    or stakes[i].advances + sum(1 for f in faces if f >= 3)
                    >= stakes[i].advances_needed
                )
                if not done and free and dice[free[0]] >= 3:
                    chosen[i].append(free.pop(0))
                    progress = True
    empty = [i for i in order if not chosen[i]]
    empty.sort(key=lambda i: stakes[i].keep_open and not stakes[i].is_risk)  # stable
    for i in empty:
        if not free:
            break
        chosen[i].append(free.pop(0))
    return tuple(tuple(c) for c in chosen)


def assign_greedy(
    dice: Sequence[int], stakes: Sequence[Stake], options: Options = DEFAULT_OPTIONS
) -> tuple[StakeResult, ...]:
    """Outcome of each stake under the default greedy assignment (an :data:`Assigner`)."""
    return resolve(dice, stakes, greedy_assignment(dice, stakes, options))


@dataclass(frozen=True, slots=True)
class TaskRoll:
    """A task's dice, highest first, and the outcome of each of its stakes."""

    dice: tuple[int, ...]
    results: tuple[StakeResult, ...]

    @property
    def outcomes(self) -> tuple[Outcome, ...]:
        """The outcomes alone, in stake order (the outcomes of :func:`task_dist`)."""
        return tuple(r.outcome for r in self.results)


def _assigner(assign: Assigner | None, options: Options) -> Assigner:
    if assign is not None:
        return assign
    return lambda dice, stakes: assign_greedy(dice, stakes, options)


def roll_task(
    dice: int,
    stakes: Sequence[Stake],
    rng: np.random.Generator,
    options: Options = DEFAULT_OPTIONS,
    assign: Assigner | None = None,
) -> TaskRoll:
    """Roll ``dice`` d6 for a task and assign them to its stakes (default: greedy)."""
    _check_count(dice, "task dice")
    faces = tuple(sorted((int(f) for f in rng.integers(1, 7, size=dice)), reverse=True))
    return TaskRoll(faces, _assigner(assign, options)(faces, stakes))


@cache
def _trinomial(n: int) -> tuple[tuple[int, int, int], ...]:
    """(high, mid, ways) for n d6: ``high`` 5-6s, ``mid`` 3-4s; probability ways / 3**n."""
    return tuple(
        (a, b, comb(n, a) * comb(n - a, b)) for a in range(n + 1) for b in range(n - a + 1)
    )


def task_dist(
    dice: int,
    stakes: Sequence[Stake],
    options: Options = DEFAULT_OPTIONS,
    assign: Assigner | None = None,
) -> Dist:
    """Exact distribution of the tuple of outcomes (stake order) of :func:`roll_task`.

    Only whether a die is 1-2, 3-4 or 5-6 matters to the rules, so this enumerates those
    counts; it is exact for any ``assign`` that looks at no more than that.
    """
    _check_count(dice, "task dice")
    fn = _assigner(assign, options)
    acc: dict[tuple[Outcome, ...], int] = {}
    for high, mid, ways in _trinomial(dice):
        faces = (6,) * high + (4,) * mid + (2,) * (dice - high - mid)
        key = tuple(r.outcome for r in fn(faces, stakes))
        acc[key] = acc.get(key, 0) + ways
    return Dist({k: Fraction(v, 3**dice) for k, v in acc.items()})


# --------------------------------------------------------------------------------------------
# 2.4 Melee fronts
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Hits:
    """Hits that got through a side's defence."""

    felling: int = 0
    wounding: int = 0

    @property
    def pair(self) -> tuple[int, int]:
        """``(felling, wounding)``, the outcome form of :func:`exchange_dist`."""
        return (self.felling, self.wounding)


def apply_defence(
    felling: int,
    wounding: int,
    def_high: int,
    def_mid: int,
    options: Options = DEFAULT_OPTIONS,
) -> tuple[int, int]:
    """Hits left after the defender spends its 5-6s (``def_high``) and 3-4s (``def_mid``).

    A 5-6 stops one hit of any kind; a 3-4 stops a wounding hit or turns a felling hit into a
    wounding one [S]. ``defence_order`` [H]:

    - ``felling_first`` (default): 5-6s stop felling hits; 3-4s turn the remaining felling hits
      into wounding ones; all dice left stop wounding hits (including turned ones). This leaves
      the fewest felling hits possible, max(0, F - H - M), and among the uses that do, the
      fewest wounding hits (a 5-6 on a felling hit saves a 3-4 for a wounding one, so the 5-6s
      go to felling hits first). It is the best use whenever a wounding hit is less harmful
      than a felling hit, which holds as long as some fighter can take a wounding blow without
      being felled; when every fighter that would take the hits is one blow from being felled,
      turning a felling hit gains nothing and ``fewest_hits`` is better.
    - ``fewest_hits``: the fewest hits of any kind, then the fewest felling hits: 5-6s stop
      felling hits, then wounding hits; 3-4s stop wounding hits; the 3-4s left remove felling
      hits two at a time (turn, then stop), and a last odd one turns one more.
    """
    for value, what in (
        (felling, "felling hits"),
        (wounding, "wounding hits"),
        (def_high, "defence 5-6s"),
        (def_mid, "defence 3-4s"),
    ):
        _check_count(value, what)
    if options.defence_order == "fewest_hits":
        return _fewest_hits(felling, wounding, def_high, def_mid)
    return _felling_first(felling, wounding, def_high, def_mid)


def _felling_first(f: int, w: int, h: int, m: int) -> tuple[int, int]:
    stop = min(h, f)
    f -= stop
    h -= stop
    turn = min(m, f)
    f -= turn
    return f, max(0, w + turn - (h + m - turn))


def _fewest_hits(f: int, w: int, h: int, m: int) -> tuple[int, int]:
    stop = min(h, f)
    f -= stop
    h -= stop
    w = max(0, w - h)
    stop_w = min(m, w)
    w -= stop_w
    m -= stop_w
    removed = min(f, m // 2)  # two 3-4s take a felling hit away entirely
    turned = min(f - removed, m - 2 * removed)
    return f - removed - turned, w + turned


def roll_exchange(
    attack_dice: int,
    defence_dice: int,
    rng: np.random.Generator,
    options: Options = DEFAULT_OPTIONS,
) -> Hits:
    """Roll one side's attack dice against the other side's defence dice [S].

    Attack: each 5-6 a felling hit, each 3-4 a wounding hit. The attack dice are drawn first,
    then the defence dice.
    """
    _check_count(attack_dice, "attack dice")
    _check_count(defence_dice, "defence dice")
    attack = rng.integers(1, 7, size=attack_dice)
    defence = rng.integers(1, 7, size=defence_dice)
    f = int((attack >= 5).sum())
    w = int(((attack >= 3) & (attack <= 4)).sum())
    h = int((defence >= 5).sum())
    m = int(((defence >= 3) & (defence <= 4)).sum())
    return Hits(*apply_defence(f, w, h, m, options))


def exchange_dist(attack_dice: int, defence_dice: int, options: Options = DEFAULT_OPTIONS) -> Dist:
    """Exact distribution of the ``(felling, wounding)`` hits that get through the defence.

    Attack and defence dice each fall trinomially into (5-6, 3-4, 1-2) with chance 1/3 each;
    the counts are enumerated with integer weights and combined through
    :func:`apply_defence`, so 40 attack against 20 defence dice takes a fraction of a second.
    """
    _check_count(attack_dice, "attack dice")
    _check_count(defence_dice, "defence dice")
    return _exchange_dist(attack_dice, defence_dice, options.defence_order)


@cache
def _exchange_dist(attack_dice: int, defence_dice: int, order: str) -> Dist:
    use = _fewest_hits if order == "fewest_hits" else _felling_first
    defence = _trinomial(defence_dice)
    acc: dict[tuple[int, int], int] = {}
    for f, w, ways_a in _trinomial(attack_dice):
        for h, m, ways_d in defence:
            key = use(f, w, h, m)
            acc[key] = acc.get(key, 0) + ways_a * ways_d
    total = 3 ** (attack_dice + defence_dice)
    return Dist({k: Fraction(v, total) for k, v in acc.items()})


def protection_dice(
    protections: Iterable[tuple[bool, bool]], options: Options = DEFAULT_OPTIONS
) -> int:
    """Extra defence dice for a side, given (body, head) protection of each fighter on it.

    Everyone protected on body and head: ``protection_both`` (2); everyone on at least one:
    ``protection_one`` (1); else 0 [I]. A side with nobody on it gets nothing.
    """
    items = list(protections)
    if not items or not all(body or head for body, head in items):
        return 0
    if all(body and head for body, head in items):
        return options.protection_both
    return options.protection_one


@dataclass(frozen=True, slots=True)
class SidePool:
    """One side of a front: dice rolled to attack and dice rolled to defend."""

    attack: int
    defence: int


def split_dice(dice: int, defence_share: float) -> tuple[int, int]:
    """(attack, defence) when ``defence_share`` of ``dice`` is set aside, rounded down.

    The share is read as the decimal it was written as (0.3 of 10 is 3, not 2).
    """
    _check_count(dice, "dice")
    if not 0 <= defence_share <= 1:
        raise SimError(f"defence_share must be in 0..1, got {defence_share}")
    share = Fraction(defence_share).limit_denominator(10**6)
    defence = int(dice * share)
    return dice - defence, defence


def side_pool(dice: int, protection: int = 0, options: Options = DEFAULT_OPTIONS) -> SidePool:
    """A side's attack and defence dice from its total dice and its protection dice.

    ``defence_share`` of the dice (rounded down) defend; the protection dice
    (:func:`protection_dice`) are extra defence dice on top [S].
    """
    _check_count(protection, "protection dice")
    attack, defence = split_dice(dice, options.defence_share)
    return SidePool(attack, defence + protection)


def roll_front(
    a: SidePool, b: SidePool, rng: np.random.Generator, options: Options = DEFAULT_OPTIONS
) -> tuple[Hits, Hits]:
    """Both sides of a front roll at once [H]; returns (hits taken by a, hits taken by b).

    Draw order: a's attack against b's defence, then b's attack against a's defence. Both
    results come from the pools before the exchange; the caller applies them together.
    """
    on_b = roll_exchange(a.attack, b.defence, rng, options)
    on_a = roll_exchange(b.attack, a.defence, rng, options)
    return on_a, on_b


def front_dist(a: SidePool, b: SidePool, options: Options = DEFAULT_OPTIONS) -> Dist:
    """Exact distribution of ``((felling, wounding) on a, (felling, wounding) on b)``.

    The two exchanges are independent; the joint table grows as the product of both, so
    this is meant for small fronts (use :func:`exchange_dist` per side for large ones).
    """
    on_a = exchange_dist(b.attack, a.defence, options)
    on_b = exchange_dist(a.attack, b.defence, options)
    return on_a.combine(on_b, lambda x, y: (x, y))


@dataclass(frozen=True, slots=True, order=True)
class Wounds:
    """The blows a fighter carries: wounding blows, felling blows, and its physical prime.

    A felling hit is a felling blow; the ``FELLING_BLOW_PRIME``-th (prime) or
    ``FELLING_BLOW_OTHER``-th (others) wounding blow is a felling blow too [S]. A fighter with
    a felling blow is felled (``incapacitated``).
    """

    wounding: int = 0
    felling: int = 0
    prime: bool = True

    def __post_init__(self) -> None:
        _check_count(self.wounding, "wounding blows")
        _check_count(self.felling, "felling blows")

    @property
    def felled(self) -> bool:
        """True once it has taken a felling blow."""
        return self.felling > 0

    @property
    def wounding_left(self) -> int:
        """Wounding blows it can still take without being felled (0 when felled)."""
        if self.felled:
            return 0
        limit = FELLING_BLOW_PRIME if self.prime else FELLING_BLOW_OTHER
        return max(0, limit - 1 - self.wounding)

    def take(self, felling: bool) -> Wounds:
        """This fighter after one more hit, felling or wounding."""
        if felling or self.wounding_left == 0:
            return replace(self, felling=self.felling + 1)
        return replace(self, wounding=self.wounding + 1)


def _pick(policy: str, standing: list[int], state: list[Wounds], felling: bool) -> int:
    if policy == "shield_best":
        return standing[-1]
    if felling:  # spread: the felling hit lands on the most worn-down fighter
        return min(standing, key=lambda i: (state[i].wounding_left, i))
    return max(standing, key=lambda i: (state[i].wounding_left, -i))


def _candidates(state: Sequence[Wounds], shielded: frozenset[int]) -> list[int]:
    """Who may take the next hit: the standing, the ``shielded`` only when nobody else is."""
    standing = [i for i, s in enumerate(state) if not s.felled]
    return [i for i in standing if i not in shielded] or standing


def take_hits(
    felling: int,
    wounding: int,
    fighters: Sequence[Wounds],
    rng: np.random.Generator | None = None,
    options: Options = DEFAULT_OPTIONS,
    shielded: frozenset[int] = frozenset(),
) -> tuple[Wounds, ...]:
    """Distribute hits over a side's fighters; returns every fighter's new state, same order.

    Felling hits are dealt first, then wounding hits, one at a time, each to a fighter still
    standing (a felled fighter is out of the front; hits left when all are felled are lost).
    Fighters at the indices in ``shielded`` (a side's leader, when its tactic protects it)
    take a hit only when no other fighter of the front is standing. The side decides who
    takes them, by option ``take_hits`` [H]:

    - ``spread``: a felling hit goes to the standing fighter with the fewest wounding blows
      left before being felled (the most worn down; first in list order on ties); a wounding
      hit to the one with the most left (first in list order on ties), so wounds even out and
      nobody is felled by a wounding hit while anyone can still take one standing.
    - ``shield_best``: the caller lists fighters best first; every hit goes to the last
      fighter still standing, so the best are hit last.
    - ``random``: each hit to a standing fighter chosen uniformly with ``rng``.
    """
    _check_count(felling, "felling hits")
    _check_count(wounding, "wounding hits")
    policy = options.take_hits
    if policy == "random" and rng is None:
        raise SimError("take_hits 'random' needs a random generator")
    state = list(fighters)
    for is_felling in [True] * felling + [False] * wounding:
        standing = _candidates(state, shielded)
        if not standing:
            break
        if policy == "random":
            assert rng is not None
            i = standing[int(rng.integers(len(standing)))]
        else:
            i = _pick(policy, standing, state, is_felling)
        state[i] = state[i].take(is_felling)
    return tuple(state)


def take_hits_dist(
    felling: int,
    wounding: int,
    fighters: Sequence[Wounds],
    options: Options = DEFAULT_OPTIONS,
    shielded: frozenset[int] = frozenset(),
) -> Dist:
    """Exact distribution of :func:`take_hits`' result (a constant unless ``random``)."""
    start = tuple(fighters)
    if options.take_hits != "random":
        return Dist.constant(take_hits(felling, wounding, start, None, options, shielded))

    def hit(is_felling: bool) -> Callable[[tuple[Wounds, ...]], Dist]:
        def step(state: tuple[Wounds, ...]) -> Dist:
            standing = _candidates(state, shielded)
            if not standing:
                return Dist.constant(state)
            p = Fraction(1, len(standing))
            out: dict[tuple[Wounds, ...], Fraction] = {}
            for i in standing:
                nxt = state[:i] + (state[i].take(is_felling),) + state[i + 1 :]
                out[nxt] = out.get(nxt, Fraction(0)) + p
            return Dist(out)

        return step

    dist = Dist.constant(start)
    for is_felling in [True] * felling + [False] * wounding:
        dist = dist.bind(hit(is_felling))
    return dist


# --------------------------------------------------------------------------------------------
# 2.5 The aftermath: one day for one patient
# --------------------------------------------------------------------------------------------


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


# --------------------------------------------------------------------------------------------
# 2.5 The aftermath over days: one patient's wounds, infections and death risks
# --------------------------------------------------------------------------------------------


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
