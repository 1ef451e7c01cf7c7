"""2W2P fighting experience: tiers from fights, and the dice a front's groups add.

Follows seed ``000_7f98fe11b25af74f.txt`` (RULES.md 2.1 fighting experience; the table is
``twowp_tiers.csv``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import IntEnum
from functools import cache

from sim.errors import unknown
from sim.rules.common import load_csv
from sim.rules.twowp.options import DEFAULT_OPTIONS, Options, _check_count


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
