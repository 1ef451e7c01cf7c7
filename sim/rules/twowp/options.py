"""2W2P options: the seed's single figures and the interpretations [I] and house rules [H].

Follows seed ``000_7f98fe11b25af74f.txt`` (RULES.md 2); every field of :class:`Options` is
listed, with its default, in the docstring of :mod:`sim.rules.twowp`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from sim.errors import SimError
from sim.rules.common import option

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


DEFAULT_OPTIONS = Options()


def _check_count(value: int, what: str) -> None:
    if value < 0:
        raise SimError(f"{what} must be 0 or more, got {value}")
