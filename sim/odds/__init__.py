"""Exact odds: the tables of ``sim odds`` for each rule system, and any dice expression.

:mod:`~sim.odds.exact` computes each system's tables from the rules' exact distributions,
:mod:`~sim.odds.dicexpr` parses a dice expression for icepool, :mod:`~sim.odds.plot` draws
the tables.

May import: the ground floor (its charts' style: :mod:`sim.charts`) and the stages up to
``sim.experiment``: a whole battle's odds fight the battle's own rule code
(:mod:`~sim.odds.battle`); a balance search (``sim.search``) may ask for them.
"""

from sim.odds.exact import (
    DEATHWISH_TABLE_ARMOR,
    MAX_CHECK,
    MAX_D6_DICE,
    MAX_PENETRATION,
    MAX_TWOWP_WORK,
    WOUND_LEVELS,
    check_count,
    check_draws,
    cross_check,
    d6_odds,
    d6_tier_names,
    deathwish_odds,
    deathwish_table,
    dice_odds,
    parse_armor,
    parse_attackers,
    twowp_odds,
    wargame_odds,
)

__all__ = [
    "DEATHWISH_TABLE_ARMOR",
    "MAX_CHECK",
    "MAX_D6_DICE",
    "MAX_PENETRATION",
    "MAX_TWOWP_WORK",
    "WOUND_LEVELS",
    "check_count",
    "check_draws",
    "cross_check",
    "d6_odds",
    "d6_tier_names",
    "deathwish_odds",
    "deathwish_table",
    "dice_odds",
    "parse_armor",
    "parse_attackers",
    "twowp_odds",
    "wargame_odds",
]
