"""The ground the studies stand on: constants, the fighters of each system, the scenario texts.

Every study scenario is built here (:func:`scenario_text`, :func:`config_text`): side A
against side B, each a group of identical fighters, the balanced tactic, no leader, no map.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
SYSTEMS = ("wargame", "2w2p", "deathwish", "d6")
SYSTEM_TITLES = {"wargame": "War Game", "2w2p": "2W2P", "deathwish": "Deathwish", "d6": "D6 tiers"}
MASTER_SEED = 14  # the number; every battle's seed derives from it and its point's key
MAX_ROUNDS = 50  # every study scenario (the default): a battle still on after it is a draw
FORCE_SMALL = 100_000  # large_scale_above that keeps any battle here at small scale
ATTRITION = {"morale": "none", "initiative": "sides"}  # battle options of the attrition studies
# Study e's sides fight without the leader large scale names (the frame's own continuity);
# what leaders add is attributed rule by rule in the shipped scenarios' study (issue 30)
LEADERLESS = {"faction_leader": "none"}
Z99 = 2.5758293035489004  # two-sided 99%: the standard normal's 99.5% quantile
Z99_ONE_SIDED = 2.3263478740408408  # one-sided 99%: the 99% quantile
SIDE_A, SIDE_B = "A", "B"


def title(system: str) -> str:
    """The system's name as the report spells it (``War Game``)."""
    return SYSTEM_TITLES[system]


def default_scale(n: int, m: int) -> str:
    """The scale the default threshold (more than 10 individuals is large) gives n v m."""
    return "large" if n + m > 10 else "small"


def scale_arg(scale: str) -> int | None:
    """The ``large_scale_above`` that fights at ``scale``: FORCE_SMALL when forced small."""
    return FORCE_SMALL if scale == "small (forced)" else None


@dataclass(frozen=True)
class Fighters:
    """A kind of fighter under one system: its scenario fields and the rule options it needs."""

    fields: Mapping[str, Any]
    options: Mapping[str, Any] = field(default_factory=dict)
    note: str = ""


EVERYDAY: dict[str, Fighters] = {
    "wargame": Fighters(
        {"hit_dice": 4}, note="4 HD, no armor, a plain weapon: the War Game's default fighter"
    ),
    "2w2p": Fighters(
        {"fights": 1},
        note="Fresh (1 fight: one die each, so a side's dice grow in step with its head count), "
        "in its prime (felled by the third wounding blow), no protection",
    ),
    "deathwish": Fighters(
        {"deathwish": {"weapon": "M1911"}},
        note="an M1911 (penetration 2, lethality 5), skill 5 (hits on a d10 of 5 or less), "
        "trauma tolerance 5, no armor",
    ),
    "d6": Fighters(
        {}, note="the D6 defaults: attack 4D, dodge 3D, damage 4D, Strength and Dexterity 3D"
    ),
}

ONE_HIT: dict[str, Fighters] = {
    "wargame": Fighters(
        {"hit_dice": 1},
        note="1 HD and no armor: any blow wounds, and a wound on 1 HD takes the fighter out "
        "([rules](rules.md#23-wounds)). Exact except for dodging: the balanced tactic "
        "dodges a blow that would take it out if it still has its HD this round, and then "
        "cannot attack",
    ),
    "2w2p": Fighters(
        {"fights": 3, "prime": False, "wounds": 1},
        note="Tested, not in its prime, one wounding blow already taken: it fights one tier "
        "worse (Fresh, one die each) and any hit fells it (a felling hit, or its second "
        "wounding blow). Exact; each die hits on 3-6 (2/3), and both sides roll at once",
    ),
    "deathwish": Fighters(
        {"deathwish": {"weapon": "M2HB"}},
        {"incapacitate_slight": 1.0, "incapacitate_moderate": 1.0, "incapacitate_serious": 1.0},
        note="an M2HB (7d10, lethality 8) and every wound level incapacitating "
        "(rules.options incapacitate_slight/moderate/serious: 1.0): a hit fails to take the "
        "target out only when it does no damage, with probability 0.2^7 = 0.0000128; "
        "a shot hits with probability 1/2 (skill 5)",
    ),
    "d6": Fighters(
        {"d6": {"damage": "12D"}},
        note="12D damage against a 3D body roll: a hit falls short of Incapacitated (a "
        "difference of 9 or more) with probability {d6_miss}; a hit needs the attack (4D) to "
        "beat the dodge (3D) and the difficulty 10",
    ),
}

CONFIGS: dict[str, dict[str, Fighters]] = {"everyday": EVERYDAY, "one_hit": ONE_HIT}
CONFIG_TITLES = {"everyday": "everyday", "one_hit": "one hit, one kill"}


def merged(base: Mapping[str, Any], extra: Mapping[str, Any]) -> dict[str, Any]:
    """``base`` with ``extra`` on top; the ``deathwish`` and ``d6`` blocks merge key by key."""
    out = dict(base)
    for k, v in extra.items():
        if isinstance(v, Mapping) and isinstance(out.get(k), Mapping):
            out[k] = {**out[k], **v}
        else:
            out[k] = v
    return out


def scenario_text(
    system: str,
    n: int,
    m: int,
    a: Mapping[str, Any] | None = None,
    b: Mapping[str, Any] | None = None,
    *,
    options: Mapping[str, Any] | None = None,
    battle: Mapping[str, Any] | None = None,
    large_scale_above: int | None = None,
    max_rounds: int = MAX_ROUNDS,
    description: str = "",
) -> str:
    """The scenario YAML of every study: side A (``n`` fighters ``a``) v side B (``m`` ``b``).

    ``a`` and ``b`` are fighter fields (as in a scenario file); ``options`` the system's rule
    options; ``battle`` the battle house rules; ``large_scale_above`` the large-scale
    threshold (``rules.options`` under ``wargame``, ``frame`` under the others, as
    :class:`sim.battle.battle.Battle` reads them). Both sides use the balanced tactic and no leader.
    """
    if system not in SYSTEMS:
        raise ValueError(f"unknown system {system!r}")
    opts = dict(options or {})
    frame: dict[str, Any] = {}
    if large_scale_above is not None:
        (opts if system == "wargame" else frame)["large_scale_above"] = large_scale_above
    doc: dict[str, Any] = {
        "name": f"validity-{system}-{n}v{m}",
        "description": description or f"{n} v {m} under {system} (benchmarks/validity/)",
        "rules": {"system": system, "options": opts} if opts else system,
    }
    if frame:
        doc["frame"] = frame
    if battle:
        doc["battle"] = dict(battle)
    doc["max_rounds"] = max_rounds
    doc["sides"] = {
        SIDE_A: {"fighters": [{"name": "a", "count": n, **(a or {})}]},
        SIDE_B: {"fighters": [{"name": "b", "count": m, **(b or {})}]},
    }
    return yaml.safe_dump(doc, sort_keys=False, default_flow_style=None, width=100)


def config_text(
    system: str,
    config: str,
    n: int,
    m: int,
    *,
    battle: Mapping[str, Any] | None = None,
    large_scale_above: int | None = None,
) -> str:
    """:func:`scenario_text` of ``n`` v ``m`` identical fighters of a config (CONFIGS)."""
    kind = CONFIGS[config][system]
    return scenario_text(
        system,
        n,
        m,
        kind.fields,
        kind.fields,
        options=kind.options,
        battle=battle,
        large_scale_above=large_scale_above,
    )


def one_hit_note(system: str) -> str:
    """The one-hit-one-kill fighter's note, with its exact figures filled in."""
    note = ONE_HIT[system].note
    if "{d6_miss}" in note:
        from sim.dice import parse_code
        from sim.rules import d6

        three = parse_code("3D")
        dist = d6.tier_dist(parse_code("12D"), d6.body_code(three, three))
        short = dist.prob(lambda t: t in ("none", "stunned", "wounded"))
        note = note.replace("{d6_miss}", f"{float(short):.5f}")
    return note
