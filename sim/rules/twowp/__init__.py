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

The package follows the seed's sections, one module each; this ``__init__`` re-exports the
public API, so ``from sim.rules import twowp`` then ``twowp.<name>`` reaches everything:
:mod:`~sim.rules.twowp.options` (the seed's single figures, :class:`Options`),
:mod:`~sim.rules.twowp.experience` (2.1), :mod:`~sim.rules.twowp.skills` (2.2),
:mod:`~sim.rules.twowp.tasks` (2.3), :mod:`~sim.rules.twowp.fronts` (2.4), and the
aftermath of 2.5: :mod:`~sim.rules.twowp.aftermath` (its options and one patient's day),
:mod:`~sim.rules.twowp.healers` (what healers find and handle) and
:mod:`~sim.rules.twowp.patients` (one patient's wounds over days).
"""

from __future__ import annotations

from sim.rules.twowp.aftermath import (
    DEFAULT_AFTERMATH_OPTIONS,
    AftermathOptions,
    DayResult,
    PatientDay,
    aftermath_day,
    aftermath_day_dist,
    patient_dice,
    recovery_roll_due,
    wound_needs_reset,
    wound_needs_reset_dist,
)
from sim.rules.twowp.experience import (
    Tier,
    TierRow,
    effective_tier,
    fights_after_battle,
    group_dice,
    parse_tier,
    side_dice,
    tier_dice,
    tier_from_fights,
    tier_table,
)
from sim.rules.twowp.fronts import (
    Hits,
    SidePool,
    Wounds,
    _exchange_dist,
    apply_defence,
    exchange_dist,
    front_dist,
    protection_dice,
    roll_exchange,
    roll_front,
    side_pool,
    split_dice,
    take_hits,
    take_hits_dist,
)
from sim.rules.twowp.healers import FINDINGS, HEALER_TASKS, ROLES, detection_delay, healer_capacity
from sim.rules.twowp.options import (
    ADVANCES_TO_ACHIEVE,
    DEFAULT_OPTIONS,
    FELLING_BLOW_OTHER,
    FELLING_BLOW_PRIME,
    INSTRUCTION_FACTOR,
    INSTRUCTION_MAX_SHARE,
    LIGHT_DAYS_PER_RECOVERY_ROLL,
    MAX_DELAYS,
    RESET_ONE_IN,
    SCARCE_RESOURCE_DICE,
    SELF_STUDY_FACTOR,
    SUPERVISION_DICE,
    Options,
)
from sim.rules.twowp.patients import (
    DayStakes,
    PatientState,
    WoundState,
    apply_patient_day,
    detect_infections,
    examine_resets,
    infection_chance,
    new_wound,
    patient_day,
    patient_day_dist,
    patient_days_dist,
    patient_stakes,
    recovery_due,
    reset_wound,
    take_blows,
)
from sim.rules.twowp.skills import (
    SKILL_WEIGHTS,
    TRACKS,
    Skill,
    TrainingRow,
    parse_skill,
    skill_weight,
    supervision_capacity,
    supervisor_weight,
    task_dice,
    task_pool,
    trained_skill,
    training_reached,
    training_table,
    weighted_count,
)
from sim.rules.twowp.tasks import (
    Assigner,
    Assignment,
    Outcome,
    Stake,
    StakeKind,
    StakeResult,
    TaskRoll,
    assign_greedy,
    greedy_assignment,
    resolve,
    roll_task,
    suffices,
    task_dist,
)

NAME = "2w2p"
SEED = "000_7f98fe11b25af74f.txt"
MAX_SIDES: int | None = 2
"""Most sides a battle under these rules can have: two (a front pits one side against one)."""
FACTION_POOLS = False
"""Whether a large-scale battle may be fought as faction pools (``battle.large_scale: pools``):
2W2P fights its fronts at any scale; it has no pools."""
FIGHTER_FIELDS: tuple[str, ...] = ("prime", "head_protection", "front")
"""The scenario fighter fields these rules read (others' fields are warned about)."""
POOL_FIELDS: tuple[str, ...] = ()
"""Fighter fields read only when ``battle.large_scale: pools`` (War Game pools)."""

__all__ = [
    "ADVANCES_TO_ACHIEVE",
    "DEFAULT_OPTIONS",
    "FELLING_BLOW_OTHER",
    "FELLING_BLOW_PRIME",
    "INSTRUCTION_FACTOR",
    "INSTRUCTION_MAX_SHARE",
    "LIGHT_DAYS_PER_RECOVERY_ROLL",
    "MAX_DELAYS",
    "Options",
    "RESET_ONE_IN",
    "SCARCE_RESOURCE_DICE",
    "SELF_STUDY_FACTOR",
    "SUPERVISION_DICE",
    "Tier",
    "TierRow",
    "effective_tier",
    "fights_after_battle",
    "group_dice",
    "parse_tier",
    "side_dice",
    "tier_dice",
    "tier_from_fights",
    "tier_table",
    "SKILL_WEIGHTS",
    "Skill",
    "TRACKS",
    "TrainingRow",
    "parse_skill",
    "skill_weight",
    "supervision_capacity",
    "supervisor_weight",
    "task_dice",
    "task_pool",
    "trained_skill",
    "training_reached",
    "training_table",
    "weighted_count",
    "Assigner",
    "Assignment",
    "Outcome",
    "Stake",
    "StakeKind",
    "StakeResult",
    "TaskRoll",
    "assign_greedy",
    "greedy_assignment",
    "resolve",
    "roll_task",
    "suffices",
    "task_dist",
    "Hits",
    "SidePool",
    "Wounds",
    "_exchange_dist",
    "apply_defence",
    "exchange_dist",
    "front_dist",
    "protection_dice",
    "roll_exchange",
    "roll_front",
    "side_pool",
    "split_dice",
    "take_hits",
    "take_hits_dist",
    "AftermathOptions",
    "DEFAULT_AFTERMATH_OPTIONS",
    "DayResult",
    "PatientDay",
    "aftermath_day",
    "aftermath_day_dist",
    "patient_dice",
    "recovery_roll_due",
    "wound_needs_reset",
    "wound_needs_reset_dist",
    "FINDINGS",
    "HEALER_TASKS",
    "ROLES",
    "detection_delay",
    "healer_capacity",
    "DayStakes",
    "PatientState",
    "WoundState",
    "apply_patient_day",
    "detect_infections",
    "examine_resets",
    "infection_chance",
    "new_wound",
    "patient_day",
    "patient_day_dist",
    "patient_days_dist",
    "patient_stakes",
    "recovery_due",
    "reset_wound",
    "take_blows",
    "FIGHTER_FIELDS",
    "FACTION_POOLS",
    "MAX_SIDES",
    "POOL_FIELDS",
    "NAME",
    "SEED",
]
