"""Deathwish aftermath: its options, who dies untreated, who stays incapacitated.

Follows seed ``001_e5fc2d51799d4e98.txt`` (RULES.md 3 incapacitation and death: untreated
Serious and Critical wounds kill; all house rules [H]).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from sim.dice import Dist
from sim.rules.common import option
from sim.rules.deathwish.options import _prob
from sim.rules.deathwish.wounds import WoundLevel


@dataclass(frozen=True, slots=True)
class AftermathOptions:
    """Deathwish aftermath house rules [H] (RULES.md 3: who dies untreated, who stays down).

    A group of its own, apart from :class:`Options`, so the battle's options are unchanged.
    """

    serious_minutes: int = option(
        180,
        "an untreated Serious wound kills this many minutes after the battle unless a healer "
        "starts treating it by then (the seed: 'within a few hours')",
        low=0,
    )
    critical_minutes: int = option(
        10,
        "an untreated Critical wound kills this many minutes after the battle unless a healer "
        "starts treating it by then (the seed: 'in minutes')",
        low=0,
    )
    reach_minutes: int = option(
        0, "minutes after the battle before a healer can start on the first patient", low=0
    )
    critical_later_death: float = option(
        0.0,
        "chance that each treated Critical wound still kills on the day after the battle "
        "(the seed: 'they'll still probably die later', with no figure)",
        low=0,
        high=1,
    )
    incapacitated_from: str = option(
        "serious",
        "after the battle a survivor stays incapacitated while it carries a wound of this "
        "level or worse (serious, critical), or keeps its battle status (as_battle)",
        choices=("serious", "critical", "as_battle"),
    )


DEFAULT_AFTERMATH_OPTIONS = AftermathOptions()


def untreated_deadline(
    wounds: Iterable[WoundLevel | str], aftermath: AftermathOptions = DEFAULT_AFTERMATH_OPTIONS
) -> int | None:
    """Minutes after the battle by which treatment must start, or None if nothing kills [H].

    The earliest over the wounds: Serious ``serious_minutes``, Critical ``critical_minutes``;
    Slight and Moderate wounds never kill.
    """
    limits = {
        WoundLevel.SERIOUS: aftermath.serious_minutes,
        WoundLevel.CRITICAL: aftermath.critical_minutes,
    }
    times = [limits[WoundLevel(w)] for w in wounds if WoundLevel(w) in limits]
    return min(times) if times else None


def wounds_to_treat(wounds: Iterable[WoundLevel | str]) -> int:
    """Wounds a healer must treat to save the patient: its Serious and Critical ones [H]."""
    return sum(1 for w in wounds if WoundLevel(w) in (WoundLevel.SERIOUS, WoundLevel.CRITICAL))


def dies_untreated(
    wounds: Iterable[WoundLevel | str],
    treated_at: Fraction | int | None,
    aftermath: AftermathOptions = DEFAULT_AFTERMATH_OPTIONS,
) -> bool:
    """Whether the patient dies before treatment starts ``treated_at`` minutes after the battle.

    None means no treatment at all. Treatment that starts exactly at the deadline saves [H].
    """
    deadline = untreated_deadline(wounds, aftermath)
    if deadline is None:
        return False
    return treated_at is None or treated_at > deadline


def stays_incapacitated(
    wounds: Iterable[WoundLevel | str],
    incapacitated_in_battle: bool,
    aftermath: AftermathOptions = DEFAULT_AFTERMATH_OPTIONS,
) -> bool:
    """Whether a survivor is incapacitated after the battle (``incapacitated_from``) [H]."""
    if aftermath.incapacitated_from == "as_battle":
        return incapacitated_in_battle
    order = list(WoundLevel)
    floor = order.index(WoundLevel(aftermath.incapacitated_from))
    return any(order.index(WoundLevel(w)) >= floor for w in wounds)


def later_death_chance(
    wounds: Iterable[WoundLevel | str], aftermath: AftermathOptions = DEFAULT_AFTERMATH_OPTIONS
) -> Fraction:
    """Chance a treated patient still dies later: any Critical wound kills with the option's p."""
    p = _prob(aftermath.critical_later_death)
    n = sum(1 for w in wounds if WoundLevel(w) is WoundLevel.CRITICAL)
    return 1 - (1 - p) ** n


def later_death_dist(
    wounds: Iterable[WoundLevel | str], aftermath: AftermathOptions = DEFAULT_AFTERMATH_OPTIONS
) -> Dist:
    """Exact distribution of :func:`roll_later_death`: True (dies) or False."""
    p = later_death_chance(wounds, aftermath)
    return Dist({True: p, False: 1 - p})


def roll_later_death(
    wounds: Iterable[WoundLevel | str],
    rng: np.random.Generator,
    aftermath: AftermathOptions = DEFAULT_AFTERMATH_OPTIONS,
) -> bool:
    """Roll whether a treated patient's Critical wounds still kill (one draw per Critical)."""
    p = float(_prob(aftermath.critical_later_death))
    crit = sum(1 for w in wounds if WoundLevel(w) is WoundLevel.CRITICAL)
    if p == 0 or crit == 0:
        return False
    return bool((rng.random(crit) < p).any())
