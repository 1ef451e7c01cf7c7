"""War Game: hit dice, maneuvers, armor pools, wounds, weapons, environment, morale, factions.

Follows seed ``002_5306f142c0f73876.txt`` and implements the rules of RULES.md section 1
(1.1-1.10 and 1.12; the turn loop, goals and scale switching belong to the battle). Pure
functions of numbers, frozen records and a passed-in ``numpy.random.Generator``; every
function that rolls has an exact ``*_dist`` counterpart.

State is a frozen :class:`Combatant` (a creature, or a faction's pool at large scale).
Functions take one and return ``(new_combatant, result)``, the result a frozen record that
says what happened (``describe()`` gives a log line such as ``armor 4 -> 0; wound, 2 HD left``).

Data files (``sim/rules/data``): ``wargame_armors.csv`` (d6), ``wargame_shields.csv``,
``wargame_weapons.csv`` (d12 plus ``plain``), ``wargame_wound_types.csv`` (d4),
``wargame_factors.csv`` (d8 cover, distractions, hazards).

Options (fields of :class:`Options`; [I] interpretation, [H] house rule):

- ``damage`` = ``"hd_sum"`` [I]: damage is the total of the spent HD rolled as d8s
  (``"weapon_d8"``: one d8 whatever was spent).
- ``max_damage`` = ``"all_eight"`` [I]: max damage = every spent die shows 8 (``"any_eight"``).
- ``finish`` = ``"incapacitate"`` [H]: what a creature becomes at 0 HD (``"kill"``).
- ``inventory_block`` = False [I]: a defender may block with an inventory slot (item lost).
- ``broken_bones`` = ``"all_hd_on_8"`` [I]: attacking or moving costs all remaining HD and
  succeeds only on a d8 of 8 (``"forbidden"``: not possible at all).
- ``wound_types`` = ``"named"`` [H]: a wound gets a type only where the weapon or hazard names
  one (``"by_kind"``: also by the weapon's damage kind per the d4 table; ``"rolled"``: d4).
- ``extinguish`` = ``"maneuver"`` [H]: putting out a fire is a maneuver (``"one_hd"``).
- ``mighty_hd`` = ``"extra"`` [I]: a mighty attack's lost HD comes on top of any wound
  (``"at_least_one"``: the attack costs the target at least 1 HD in all).
- ``wound_spendable`` = ``"cap"`` [I]: after a lost HD the dice left to spend this round are
  capped at the new HD (``"unspent"``: the lost die comes out of the unspent ones).
- ``warbow_direct`` = ``"wound"`` [I]: an unblocked warbow hit is a wound whatever the armor
  (``"damage"``: it removes as many HD as the damage).
- ``skewer`` = ``"incapacitate"`` [H]: a skewered target is incapacitated (``"kill"``).
- ``spear_breaks_engagement`` = True [H]: a spear's 10 ft shove breaks melee engagement.
- ``hazard_contest`` = True [I]: pushing into a hazard is a contested maneuver.
- ``contest_ties`` = ``"defender"`` [H]: tied contests go to the defender
  (``"attacker"``, ``"reroll"``).
- ``contest_roll`` = ``"d8"`` [I]: the attacker of a contest rolls one d8 (``"spent"``: the
  HD spent on the maneuver, totalled).
- ``contest_unable`` = ``"attribute_only"`` [I]: a defender that cannot spend HD adds no die
  (``"auto_lose"``: it loses the contest).
- ``distraction_limit`` = ``"per_factor"`` [I]: each distraction works once on a given target
  (``"per_target"``: a target can be distracted once in all).
- ``morale_compare`` = ``"hd"`` [I]: morale compares current HD to the roll (``"fixed"``:
  a per-fighter ``resolve``).
- ``morale_triggers_once`` = True [H]: each morale trigger fires once per side, except two
  quiet rounds, which fires again after two more.
- ``flee_turns`` = 1 [H]: a fleeing creature is ``fled`` at the end of this many own turns.
- ``initiative_ties`` = ``"reroll"`` [H]: tied initiative re-rolls (``"first_listed"``).
  Whom an actor names next in popcorn initiative is a tactic's choice (``name_next``,
  :mod:`sim.tactics`), not an option here.
- ``act_out_of_turn`` = False [H]: the tactic of spending 1 HD to act at once is used.
- ``weak_cover`` = ``"table"`` [I]: cover the seed calls "no real protection" (fog, bushes,
  pits) does not stop ranged attacks (``"protects"``: every cover does).
- ``large_scale_above`` = 10 [H]: more individuals than this is a large-scale War Game.
- ``pool`` = ``"literal"`` [I]: a faction's HD is its members' average HD (``"headcount"``:
  its head count, with the average HD as the dice it may spend per round).
- ``faction_rounding`` = ``"half_up"`` [H]: rounding of faction averages (``"down"``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache, lru_cache
from typing import Any

import numpy as np

from sim.dice import Dist, parse_dice
from sim.errors import SimError, unknown
from sim.rules.common import (
    OUT_OF_FIGHT,
    Status,
    build_options,
    describe_options,
    load_csv,
    option,
    round_half_up,
)

NAME = "wargame"
SEED = "002_5306f142c0f73876.txt"

# The seed's own numbers (RULES.md 1.1-1.12), named once.
HD_SIDES = 8  # "When an HD must be rolled, it is rolled with a d8."
MANEUVER_COST = 2  # "Performing any maneuver costs 2 HD, or 1 if only a single HD is left."
DODGE_COST = 1  # spend 1 HD to dodge
RECOVER_COST = 1  # spend 1 HD at the start of a turn to recover armor
RESIST_COST = 1  # a contested target must spend 1 HD
ACT_NOW_COST = 1  # spend 1 HD to act out of turn
WOUND_HD = 1  # a wound costs 1 HD
MIGHTY_HD = 1  # a mighty attack removes 1 HD
HAZARD_HD = 1  # a hazard removes 1 HD
BURNING_HD = 1  # burning removes 1 HD at the start of every round
BROKEN_BONES_NEEDS = 8  # broken bones: the maneuver succeeds only on a d8 of 8
LEADER_KILLING_TARGET = 7  # leader killing succeeds on 7 or more
LEADER_OUT_KEEPS = 1  # a faction whose leader is out loses all but 1 HD
BACK_IN_ROUNDS = 2  # "go last for the next 2 rounds"
QUIET_ROUNDS = 2  # two rounds without damage is a morale trigger
MAX_DICE = 100  # most damage dice the exact functions accept

FACTOR_KINDS = ("cover", "distraction", "hazard")
DEFENCES = ("armor", "dodge", "block")
MANEUVERS = ("attack", "move", "contest", "factor", "leader_killing", "extinguish", "other")


# --------------------------------------------------------------------------- options
@dataclass(frozen=True, slots=True)
class Options:
    """The War Game's interpretations [I] and house rules [H] (RULES.md section 1)."""

    damage: str = option(
        "hd_sum",
        "damage = total of the spent HD rolled as d8s; weapon_d8 rolls one d8",
        tag="I",
        choices=("hd_sum", "weapon_d8"),
    )
    max_damage: str = option(
        "all_eight",
        "max damage = every spent die shows 8; any_eight = at least one does",
        tag="I",
        choices=("all_eight", "any_eight"),
    )
    finish: str = option(
        "incapacitate",
        "what a creature brought to 0 HD becomes (the attacker's decision)",
        tag="H",
        choices=("incapacitate", "kill"),
    )
    inventory_block: bool = option(
        False, "a defender may block an attack with an inventory slot (the item is lost)", tag="I"
    )
    broken_bones: str = option(
        "all_hd_on_8",
        "broken bones: attacking/moving costs all remaining HD and needs a d8 of 8; "
        "forbidden = impossible",
        tag="I",
        choices=("all_hd_on_8", "forbidden"),
    )
    wound_types: str = option(
        "named",
        "a wound gets a type only where the weapon or hazard names one; by_kind also by the "
        "weapon's damage kind (d4 table); rolled rolls the d4 for every weapon wound",
        tag="H",
        choices=("named", "by_kind", "rolled"),
    )
    extinguish: str = option(
        "maneuver",
        "putting out a fire is a maneuver; one_hd costs 1 HD",
        tag="H",
        choices=("maneuver", "one_hd"),
    )
    mighty_hd: str = option(
        "extra",
        "a mighty attack's lost HD comes on top of any wound; at_least_one = 1 HD in all",
        tag="I",
        choices=("extra", "at_least_one"),
    )
    wound_spendable: str = option(
        "cap",
        "after a lost HD the dice left this round are capped at the new HD; unspent = the "
        "lost die comes out of the unspent ones",
        tag="I",
        choices=("cap", "unspent"),
    )
    warbow_direct: str = option(
        "wound",
        "an unblocked warbow hit is one wound whatever the armor; damage = it removes as many "
        "HD as the damage",
        tag="I",
        choices=("wound", "damage"),
    )
    skewer: str = option(
        "incapacitate",
        "a skewered target is incapacitated (or killed)",
        tag="H",
        choices=("incapacitate", "kill"),
    )
    spear_breaks_engagement: bool = option(
        True, "a spear's 10 ft shove breaks melee engagement", tag="H"
    )
    hazard_contest: bool = option(
        True, "pushing a creature into a hazard is a contested maneuver", tag="I"
    )
    contest_ties: str = option(
        "defender",
        "who wins a tied contested maneuver",
        tag="H",
        choices=("defender", "attacker", "reroll"),
    )
    contest_roll: str = option(
        "d8",
        "the contest attacker rolls one d8; spent = the HD spent on the maneuver, totalled",
        tag="I",
        choices=("d8", "spent"),
    )
    contest_unable: str = option(
        "attribute_only",
        "a contest defender that cannot spend HD adds no die; auto_lose = it loses",
        tag="I",
        choices=("attribute_only", "auto_lose"),
    )
    distraction_limit: str = option(
        "per_factor",
        "each distraction works once on a given target; per_target = once in all",
        tag="I",
        choices=("per_factor", "per_target"),
    )
    morale_compare: str = option(
        "hd",
        "morale: creatures whose current HD (fixed: resolve) is <= the roll flee",
        tag="I",
        choices=("hd", "fixed"),
    )
    morale_triggers_once: bool = option(
        True,
        "each morale trigger fires once per side (two quiet rounds again after two more)",
        tag="H",
    )
    flee_turns: int = option(
        1, "own turns a fleeing creature takes to leave the field", tag="H", low=1, high=20
    )
    initiative_ties: str = option(
        "reroll",
        "tied initiative re-rolls; first_listed = the first side listed wins",
        tag="H",
        choices=("reroll", "first_listed"),
    )
    act_out_of_turn: bool = option(
        False, "the tactic of spending 1 HD to act at once, out of order, is used", tag="H"
    )
    weak_cover: str = option(
        "table",
        "cover the seed's table calls 'no real protection' (fog, bushes, pits) does not stop "
        "ranged attacks ('table'); 'protects' = all cover stops them",
        tag="I",
        choices=("table", "protects"),
    )
    large_scale_above: int = option(
        10, "more individuals than this is a large-scale War Game", tag="H", low=1, high=100_000
    )
    pool: str = option(
        "literal",
        "faction HD = average member HD; headcount = head count, spending the average per round",
        tag="I",
        choices=("literal", "headcount"),
    )
    faction_rounding: str = option(
        "half_up",
        "rounding of faction averages",
        tag="H",
        choices=("half_up", "down"),
    )


DEFAULT_OPTIONS = Options()


def make_options(values: Mapping[str, Any] | None = None, where: str = "options") -> Options:
    """Build :class:`Options` from a plain mapping, with clear errors for bad names/values."""
    result: Options = build_options(Options, dict(values or {}), where)
    return result


def options_help() -> list[dict[str, Any]]:
    """Name, default, tag, choices and meaning of every option."""
    return describe_options(Options)


# --------------------------------------------------------------------------- helpers
def _key(name: str) -> str:
    """A table name or alias as the indexes store it."""
    return _key_text(str(name))


@lru_cache(maxsize=1024)
def _key_text(name: str) -> str:  # cached: weapons are looked up on every attack
    return re.sub(r"[\s\-_/]+", "_", name.strip().lower())


def _yes(text: str) -> bool:
    return text.strip().lower() in ("yes", "true", "1")


def _d(rng: np.random.Generator, sides: int) -> int:
    return int(rng.integers(1, sides + 1))


Draw = Callable[[int], int]


def _rng_draw(rng: np.random.Generator | None) -> Draw:
    def draw(sides: int) -> int:
        if rng is None:
            raise SimError("this attack rolls dice: pass rng")
        return _d(rng, sides)

    return draw


class _Branch(Exception):
    def __init__(self, sides: int) -> None:
        self.sides = sides


class _Script:
    """A draw that replays fixed faces, then asks for a branch on the next die."""

    def __init__(self, prefix: tuple[int, ...]) -> None:
        self.prefix = prefix
        self.asked: list[int] = []

    def __call__(self, sides: int) -> int:
        i = len(self.asked)
        self.asked.append(sides)
        if i < len(self.prefix):
            return self.prefix[i]
        raise _Branch(sides)


def _exact(fn: Callable[[Draw], Any]) -> Dist:
    """Exact distribution of ``fn(draw)`` by enumerating every sequence of faces it asks for.

    A private generic oracle (it could live in ``sim.dice``): ``fn`` must ask a finite,
    small number of dice.
    """
    out: dict[Any, Fraction] = {}
    pending: list[tuple[int, ...]] = [()]
    while pending:
        prefix = pending.pop()
        script = _Script(prefix)
        try:
            value = fn(script)
        except _Branch as branch:
            pending.extend(prefix + (f,) for f in range(1, branch.sides + 1))
            continue
        p = Fraction(1)
        for sides in script.asked:
            p /= sides
        out[value] = out.get(value, Fraction(0)) + p
    return Dist(out)


def _roll_amount(amount: str, draw: Draw) -> int:
    text = amount.strip()
    if text.isdigit():
        return int(text)
    dice = parse_dice(text)
    return sum(draw(dice.sides) for _ in range(dice.count)) + dice.modifier


def _check_dice(dice: int) -> None:
    if isinstance(dice, bool) or not isinstance(dice, int) or not 1 <= dice <= MAX_DICE:
        raise SimError(f"damage dice must be a whole number 1..{MAX_DICE}, got {dice!r}")


def _check_pool(armor_pool: int) -> None:
    if isinstance(armor_pool, bool) or not isinstance(armor_pool, int) or armor_pool < 0:
        raise SimError(f"armor pool must be a whole number 0 or more, got {armor_pool!r}")


def _check_choice(what: str, value: str, choices: Sequence[str]) -> None:
    if value not in choices:
        raise unknown(what, str(value), choices)


# --------------------------------------------------------------------------- tables
@dataclass(frozen=True, slots=True)
class ArmorSpec:
    """One row of the d6 Armors table."""

    roll: int
    name: str
    value: int
    max_pieces: int
    per_other_piece: int
    wear_on_empty: int
    dex_penalty: int
    metal: bool
    loud: bool
    ignitable: bool
    prevents_dismemberment: bool
    limbs_unprotected: bool
    text: str


@dataclass(frozen=True, slots=True)
class Weapon:
    """One weapon category of the d12 table (or ``plain``), effect numbers from the data."""

    name: str
    roll: int | None
    ranged: bool
    range_yards: int
    ignores_armor: bool
    trigger: str
    effect: str
    amount: str
    damage_kind: str
    wound_type: str
    text: str


@dataclass(frozen=True, slots=True)
class WoundType:
    """One row of the d4 Wound Types table."""

    roll: int
    name: str
    left_by: tuple[str, ...]
    armor_max_loss: int
    armor_max_floor: int
    text: str


@dataclass(frozen=True, slots=True)
class Factor:
    """An environmental factor (d8 cover, distraction or hazard table)."""

    kind: str
    roll: int
    name: str
    protects: bool
    effect: str
    amount: int
    wound_type: str
    text: str


def _index(rows: Sequence[Any], aliases: Sequence[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for row, alias_text in zip(rows, aliases, strict=True):
        out[_key(row.name)] = row
        for alias in alias_text.split(";"):
            if alias.strip():
                out.setdefault(_key(alias), row)
    return out


@cache
def _armors() -> tuple[tuple[ArmorSpec, ...], dict[str, ArmorSpec]]:
    rows = load_csv("wargame_armors.csv")
    specs = tuple(
        ArmorSpec(
            roll=int(r["roll"]),
            name=r["name"],
            value=int(r["value"]),
            max_pieces=int(r["max_pieces"]),
            per_other_piece=int(r["per_other_piece"]),
            wear_on_empty=int(r["wear_on_empty"]),
            dex_penalty=int(r["dex_penalty"]),
            metal=_yes(r["metal"]),
            loud=_yes(r["loud"]),
            ignitable=_yes(r["ignitable"]),
            prevents_dismemberment=_yes(r["prevents_dismemberment"]),
            limbs_unprotected=_yes(r["limbs_unprotected"]),
            text=r["text"],
        )
        for r in rows
    )
    return specs, _index(specs, [r["aliases"] for r in rows])


@cache
def _shields() -> tuple[dict[str, int], dict[str, str]]:
    rows = load_csv("wargame_shields.csv")
    values = {r["size"]: int(r["armor"]) for r in rows}
    names: dict[str, str] = {}
    for r in rows:
        names[_key(r["size"])] = r["size"]
        for alias in r["aliases"].split(";"):
            if alias.strip():
                names[_key(alias)] = r["size"]
    return values, names


@cache
def _weapons() -> tuple[tuple[Weapon, ...], dict[str, Weapon]]:
    rows = load_csv("wargame_weapons.csv")
    weapons = tuple(
        Weapon(
            name=r["name"],
            roll=int(r["roll"]) if r["roll"].strip() else None,
            ranged=_yes(r["ranged"]),
            range_yards=int(r["range_yards"]),
            ignores_armor=_yes(r["ignores_armor"]),
            trigger=r["trigger"],
            effect=r["effect"],
            amount=r["amount"],
            damage_kind=r["damage_kind"],
            wound_type=r["wound_type"],
            text=r["text"],
        )
        for r in rows
    )
    return weapons, _index(weapons, [r["aliases"] for r in rows])


@cache
def _wound_types() -> tuple[tuple[WoundType, ...], dict[str, WoundType]]:
    rows = load_csv("wargame_wound_types.csv")
    types = tuple(
        WoundType(
            roll=int(r["roll"]),
            name=r["name"],
            left_by=tuple(k for k in r["left_by"].split(";") if k),
            armor_max_loss=int(r["armor_max_loss"]),
            armor_max_floor=int(r["armor_max_floor"]),
            text=r["text"],
        )
        for r in rows
    )
    return types, {t.name: t for t in types}


@cache
def _factors(kind: str) -> tuple[tuple[Factor, ...], dict[str, Factor]]:
    rows = [r for r in load_csv("wargame_factors.csv") if r["kind"] == kind]
    factors = tuple(
        Factor(
            kind=kind,
            roll=int(r["roll"]),
            name=r["name"],
            protects=_yes(r["protects"]),
            effect=r["effect"],
            amount=int(r["amount"]),
            wound_type=r["wound_type"],
            text=r["text"],
        )
        for r in rows
    )
    return factors, _index(factors, [r["aliases"] for r in rows])


def armors() -> tuple[ArmorSpec, ...]:
    """The d6 Armors table, in roll order."""
    return _armors()[0]


def armor_spec(name: str) -> ArmorSpec:
    """The armor called ``name`` (aliases such as ``aketon`` or ``scale`` allowed)."""
    specs, index = _armors()
    try:
        return index[_key(name)]
    except KeyError:
        raise unknown("armor", name, [s.name for s in specs]) from None


def roll_armor(rng: np.random.Generator) -> ArmorSpec:
    """Roll the d6 Armors table."""
    return armors()[_d(rng, len(armors())) - 1]


def armor_roll_dist() -> Dist:
    """Exact distribution of :func:`roll_armor`'s armor name."""
    return Dist({s.name: Fraction(1, len(armors())) for s in armors()})


def shield_value(shield: str | int | None) -> int:
    """Armor a shield adds to the pool: by size name (small 2, medium 3, large 4) or 2..4."""
    if shield is None:
        return 0
    values, names = _shields()
    if isinstance(shield, int) and not isinstance(shield, bool):
        low, high = min(values.values()), max(values.values())
        if shield != 0 and not low <= shield <= high:
            raise SimError(f"shield armor must be {low}..{high} (or 0 for none), got {shield}")
        return shield
    try:
        return values[names[_key(str(shield))]]
    except KeyError:
        raise unknown("shield size", str(shield), list(values)) from None


def weapons() -> tuple[Weapon, ...]:
    """The d12 weapon categories in roll order, then ``plain``."""
    return _weapons()[0]


def weapon(name: str | Weapon) -> Weapon:
    """The weapon category called ``name`` (aliases such as ``bastard sword`` allowed)."""
    if isinstance(name, Weapon):
        return name
    all_weapons, index = _weapons()
    try:
        return index[_key(name)]
    except KeyError:
        raise unknown("weapon category", name, [w.name for w in all_weapons]) from None


def _rolled_weapons() -> tuple[Weapon, ...]:
    return tuple(w for w in weapons() if w.roll is not None)


def roll_weapon(rng: np.random.Generator) -> Weapon:
    """Roll the d12 weapon categories."""
    table = _rolled_weapons()
    return table[_d(rng, len(table)) - 1]


def weapon_roll_dist() -> Dist:
    """Exact distribution of :func:`roll_weapon`'s category name."""
    table = _rolled_weapons()
    return Dist({w.name: Fraction(1, len(table)) for w in table})


def wound_types() -> tuple[WoundType, ...]:
    """The d4 Wound Types table, in roll order."""
    return _wound_types()[0]


def wound_type(name: str) -> WoundType:
    """The wound type called ``name`` (bleeding, broken_bones, burning, lingering)."""
    types, index = _wound_types()
    try:
        return index[_key(name)]
    except KeyError:
        raise unknown("wound type", name, [t.name for t in types]) from None


def roll_wound_type(rng: np.random.Generator) -> WoundType:
    """Roll the d4 Wound Types table."""
    return wound_types()[_d(rng, len(wound_types())) - 1]


def wound_type_dist() -> Dist:
    """Exact distribution of :func:`roll_wound_type`'s name."""
    return Dist({t.name: Fraction(1, len(wound_types())) for t in wound_types()})


def _check_kind(kind: str) -> None:
    if kind not in FACTOR_KINDS:
        raise unknown("factor kind", kind, FACTOR_KINDS)


def factors(kind: str) -> tuple[Factor, ...]:
    """The d8 table of ``kind`` (``cover``, ``distraction`` or ``hazard``), in roll order."""
    _check_kind(kind)
    return _factors(kind)[0]


def factor(kind: str, name: str | Factor) -> Factor:
    """The factor of ``kind`` called ``name`` (e.g. ``factor("hazard", "cliff")``)."""
    if isinstance(name, Factor):
        if name.kind != kind:
            raise SimError(f"{name.name!r} is a {name.kind}, not a {kind}")
        return name
    _check_kind(kind)
    table, index = _factors(kind)
    try:
        return index[_key(name)]
    except KeyError:
        raise unknown(kind, name, [f.name for f in table]) from None


def roll_factor(kind: str, rng: np.random.Generator) -> Factor:
    """Roll the d8 table of ``kind``."""
    table = factors(kind)
    return table[_d(rng, len(table)) - 1]


def factor_dist(kind: str) -> Dist:
    """Exact distribution of :func:`roll_factor`'s factor name."""
    table = factors(kind)
    return Dist({f.name: Fraction(1, len(table)) for f in table})


def cover_protects(cover: str | Factor, options: Options = DEFAULT_OPTIONS) -> bool:
    """Whether ``cover`` stops standard ranged attacks [S, I].

    As the d8 table says (fog, bushes and pits give "no real protection"); with
    ``weak_cover="protects"`` every cover does.
    """
    return factor("cover", cover).protects or options.weak_cover == "protects"


# --------------------------------------------------------------------------- armor pool
@dataclass(frozen=True, slots=True)
class ArmorPiece:
    """A worn armor: its table ``kind``, current ``value`` (chain wears down) and ``pieces``."""

    kind: str
    value: int
    pieces: int = 1


def armor_piece(kind: str, pieces: int = 1) -> ArmorPiece:
    """A new armor of ``kind`` covering ``pieces`` parts (piecemeal: 1..4, others 1)."""
    spec = armor_spec(kind)
    if not 1 <= pieces <= spec.max_pieces:
        raise SimError(f"{spec.name} covers 1..{spec.max_pieces} pieces, got {pieces}")
    return ArmorPiece(spec.name, spec.value * pieces, pieces)


def _as_piece(item: str | tuple[str, int] | ArmorPiece) -> ArmorPiece:
    if isinstance(item, ArmorPiece):
        return item
    if isinstance(item, tuple):
        return armor_piece(item[0], item[1])
    return armor_piece(item)


def savvy_modifier(savvy: int) -> int:
    """The second digit of a two-digit Savvy score (47 -> 7), used instead of a Dex modifier."""
    if isinstance(savvy, bool) or not isinstance(savvy, int) or not 10 <= savvy <= 99:
        raise SimError(f"Savvy must be a two-digit score 10..99, got {savvy!r}")
    return savvy % 10


def pool_maximum(
    armor: Sequence[str | tuple[str, int] | ArmorPiece] = (),
    dex_modifier: int = 0,
    shield: str | int | None = None,
) -> int:
    """Armor pool maximum: worn armor + Dex modifier (or Savvy digit) + shield, never below 0.

    A doublet adds +1 per piece of other armor worn with it; a gambeson takes 1 off the Dex
    modifier while worn [I: the score's -1 lowers the added number by 1].
    """
    worn = [_as_piece(a) for a in armor]
    total = sum(p.value for p in worn)
    for i, piece in enumerate(worn):
        spec = armor_spec(piece.kind)
        total -= spec.dex_penalty
        if spec.per_other_piece:
            others = sum(q.pieces for j, q in enumerate(worn) if j != i)
            total += spec.per_other_piece * others
    return max(0, total + dex_modifier + shield_value(shield))


# --------------------------------------------------------------------------- combatant
@dataclass(frozen=True, slots=True)
class Wound:
    """One lost HD: its ``type`` (None for a plain wound) and ``source``."""

    type: str | None
    source: str


@dataclass(frozen=True)  # no slots: see evolve
class Combatant:
    """A creature's War Game state, or a faction's pool (``faction=True``) at large scale.

    ``hit_dice`` is the current HD (wounds lower it); ``spendable`` the HD left to spend this
    round. ``exposed``: armor counts 0 until the end of the round (a hazard). ``maneuver_dice``
    caps ``spendable`` at each round start (headcount factions); None = ``hit_dice``.

    Change one with :meth:`evolve`. Unlike the other records it keeps its fields in a
    ``__dict__`` (no ``slots``): a changed copy is then one dict copy, four times faster than
    ``dataclasses.replace`` setting 29 frozen slots one by one, and the battle makes a
    hundred or more per fight.
    """

    hit_dice: int
    spendable: int
    armor_pool: int = 0
    armor_max: int = 0
    armor: tuple[ArmorPiece, ...] = ()
    shield: int = 0
    strength: int = 0
    resolve: int = 0
    wounds: tuple[Wound, ...] = ()
    status: Status = Status.ACTIVE
    subdued: bool = False
    grappled: bool = False
    burning: bool = False
    exposed: bool = False
    distracted: bool = False
    distracted_by: tuple[str, ...] = ()
    mighty_attack_pending: bool = False
    damaged_while_fleeing: bool = False
    fleeing_turns: int = 0
    stuck_in: str | None = None
    movement_penalty_ft: int = 0
    inventory_lost: int = 0
    goes_last: bool = False
    late_rounds: int = 0
    falling_kills: bool = True
    arrow_proof: bool = False
    maneuver_dice: int | None = None
    faction: bool = False
    leader_out: bool = False

    def __post_init__(self) -> None:
        if self.hit_dice < 0 or not 0 <= self.spendable <= self.hit_dice:
            raise SimError(f"need 0 <= spendable ({self.spendable}) <= hit_dice ({self.hit_dice})")
        if not 0 <= self.armor_pool <= self.armor_max:
            raise SimError(
                f"need 0 <= armor_pool ({self.armor_pool}) <= armor_max ({self.armor_max})"
            )

    def evolve(self, **changes: Any) -> Combatant:
        """The record with ``changes``, as ``dataclasses.replace`` makes it (checks included).

        Returns the record itself when nothing changes.
        """
        fields = self.__dict__
        if not changes.keys() <= fields.keys():
            raise TypeError(f"Combatant has no field {sorted(changes.keys() - fields.keys())}")
        if all(fields[name] == value for name, value in changes.items()):
            return self
        new = object.__new__(type(self))
        object.__setattr__(new, "__dict__", {**fields, **changes})
        new.__post_init__()
        return new


def combatant(
    hit_dice: int,
    *,
    armor: Sequence[str | tuple[str, int] | ArmorPiece] = (),
    dex_modifier: int = 0,
    shield: str | int | None = None,
    strength: int = 0,
    resolve: int = 0,
    falling_kills: bool = True,
) -> Combatant:
    """A fresh creature: full spendable HD and a full armor pool.

    ``armor`` lists worn armor by name, ``(name, pieces)`` (piecemeal) or :class:`ArmorPiece`.
    """
    if isinstance(hit_dice, bool) or not isinstance(hit_dice, int) or hit_dice < 1:
        raise SimError(f"hit_dice must be a whole number 1 or more, got {hit_dice!r}")
    worn = tuple(_as_piece(a) for a in armor)
    top = pool_maximum(worn, dex_modifier, shield)
    return Combatant(
        hit_dice=hit_dice,
        spendable=hit_dice,
        armor_pool=top,
        armor_max=top,
        armor=worn,
        shield=shield_value(shield),
        strength=strength,
        resolve=resolve,
        falling_kills=falling_kills,
    )


def is_out(c: Combatant) -> bool:
    """True if the creature is out of the fight (fled, surrendered, incapacitated, dead)."""
    return c.status in OUT_OF_FIGHT


def effective_pool(c: Combatant) -> int:
    """Armor that counts now: 0 while burning or exposed by a hazard, else the pool."""
    return 0 if (c.burning or c.exposed) else c.armor_pool


def warbow_blocked(c: Combatant) -> bool:
    """True if a shield or metal armor (chain, scale, lamellar, plate) blocks warbows."""
    if c.arrow_proof or c.shield > 0:
        return True
    return any(armor_spec(p.kind).metal for p in c.armor)


def has_broken_bones(c: Combatant) -> bool:
    """True if the creature carries a broken-bones wound."""
    return bool(c.wounds) and any(w.type == "broken_bones" for w in c.wounds)


# --------------------------------------------------------------------------- spending HD
def can_spend(c: Combatant, n: int = 1, purpose: str = "other") -> bool:
    """True if ``c`` may spend ``n`` HD now.

    Only active creatures spend; a fleeing one only to run (``purpose="run"``) unless it was
    damaged while fleeing; a distracted one not at all until the end of the round.
    """
    if n < 1 or c.spendable < n or c.distracted:
        return False
    if c.status == Status.ACTIVE:
        return True
    return c.status == Status.FLEEING and (purpose == "run" or c.damaged_while_fleeing)


def spend(c: Combatant, n: int, purpose: str = "other") -> Combatant:
    """``c`` with ``n`` HD spent; :class:`SimError` if it may not spend them."""
    if not can_spend(c, n, purpose):
        raise SimError(
            f"cannot spend {n} HD for {purpose}: {c.spendable} left, status {c.status}"
            + (", distracted" if c.distracted else "")
        )
    return c.evolve(spendable=c.spendable - n)


def maneuver_cost(hd: int) -> int:
    """HD a maneuver costs with ``hd`` left to spend: 2, or 1 if only 1 is left."""
    if isinstance(hd, bool) or not isinstance(hd, int) or hd < 1:
        raise SimError(f"a maneuver needs 1 or more HD left to spend, got {hd!r}")
    return min(MANEUVER_COST, hd)


def can_maneuver(c: Combatant, kind: str = "attack", options: Options = DEFAULT_OPTIONS) -> bool:
    """True if ``c`` can pay for a maneuver of ``kind`` now (see :data:`MANEUVERS`)."""
    _check_choice("maneuver", kind, MANEUVERS)
    if kind in ("attack", "move") and has_broken_bones(c):
        if options.broken_bones == "forbidden":
            return False
    purpose = "run" if kind == "move" else kind
    return can_spend(c, 1, purpose)


def maneuver_price(c: Combatant, kind: str = "attack", options: Options = DEFAULT_OPTIONS) -> int:
    """HD a maneuver of ``kind`` costs ``c``: all remaining HD with broken bones, else 2 or 1."""
    if not can_maneuver(c, kind, options):
        raise SimError(f"cannot perform a {kind} maneuver now")
    if kind in ("attack", "move") and has_broken_bones(c):
        return c.spendable
    return maneuver_cost(c.spendable)


@dataclass(frozen=True, slots=True)
class Maneuver:
    """A paid maneuver: ``cost`` HD spent, the dice an attack rolls.

    ``needs_eight``: broken bones make it succeed only on a d8 of 8.
    """

    kind: str
    cost: int
    needs_eight: bool

    def describe(self) -> str:
        """A log line."""
        extra = " (broken bones: needs a d8 of 8)" if self.needs_eight else ""
        return f"{self.kind}: {self.cost} HD spent{extra}"


def pay_maneuver(
    c: Combatant, kind: str = "attack", options: Options = DEFAULT_OPTIONS
) -> tuple[Combatant, Maneuver]:
    """Spend the HD for a maneuver of ``kind``."""
    cost = maneuver_price(c, kind, options)
    purpose = "run" if kind == "move" else kind
    needs = kind in ("attack", "move") and has_broken_bones(c)
    return spend(c, cost, purpose), Maneuver(kind, cost, needs)


def roll_broken_bones(rng: np.random.Generator) -> bool:
    """The d8 a broken-bones attack or move needs: True (it succeeds) only on an 8."""
    return _d(rng, HD_SIDES) >= BROKEN_BONES_NEEDS


def broken_bones_dist() -> Dist:
    """Exact distribution of :func:`roll_broken_bones` (True with probability 1/8)."""
    return Dist.die(HD_SIDES).map(lambda f: f >= BROKEN_BONES_NEEDS)


def declare_mighty(attacker: Combatant) -> Combatant:
    """The attacker after declaring a mighty attack: no dodging until its next turn."""
    return attacker.evolve(mighty_attack_pending=True)


def can_dodge(c: Combatant) -> bool:
    """True if ``c`` may spend 1 HD to dodge.

    Not after its own mighty attack (until its next turn), not while distracted, not while
    fleeing unless damaged while fleeing.
    """
    return not c.mighty_attack_pending and can_spend(c, DODGE_COST, "dodge")


def can_act_out_of_turn(c: Combatant, options: Options = DEFAULT_OPTIONS) -> bool:
    """True if the option is on and ``c`` may spend 1 HD to act now (not while going last)."""
    return options.act_out_of_turn and not c.goes_last and can_spend(c, ACT_NOW_COST, "act")


def act_out_of_turn(c: Combatant, options: Options = DEFAULT_OPTIONS) -> Combatant:
    """``c`` after spending 1 HD to act immediately, out of order."""
    if not can_act_out_of_turn(c, options):
        raise SimError("cannot spend 1 HD to act out of turn now")
    return spend(c, ACT_NOW_COST, "act")


# --------------------------------------------------------------------------- damage
@dataclass(frozen=True, slots=True)
class DamageRoll:
    """A damage roll: ``total``, each die's face, and whether it is max damage."""

    total: int
    faces: tuple[int, ...]
    is_max: bool

    def describe(self) -> str:
        """E.g. ``2d8 [8, 3] = 11``."""
        shown = f" {list(self.faces)}" if self.faces else ""
        return f"{len(self.faces)}d8{shown} = {self.total}" + (" (max)" if self.is_max else "")


def _damage_dice(dice: int, mode: str) -> int:
    _check_dice(dice)
    _check_choice("damage mode", mode, ("hd_sum", "weapon_d8"))
    return dice if mode == "hd_sum" else 1


def roll_damage(
    dice: int, rng: np.random.Generator, mode: str = "hd_sum", *, max_damage: str = "all_eight"
) -> DamageRoll:
    """Roll the damage of an attack on which ``dice`` HD were spent.

    ``mode="hd_sum"`` totals the spent dice as d8s; ``"weapon_d8"`` rolls one d8 whatever
    was spent. Max damage: every die shows 8 (``max_damage="any_eight"``: one does).
    """
    _check_choice("max_damage", max_damage, ("all_eight", "any_eight"))
    n = _damage_dice(dice, mode)
    # One d8 at a time: the same draws as one call with size=n (numpy's bounded integers
    # come off one stream of 32-bit words either way), and faster for the few dice spent.
    faces = tuple(_d(rng, HD_SIDES) for _ in range(n))
    eights = sum(f == HD_SIDES for f in faces)
    is_max = eights == n if max_damage == "all_eight" else eights > 0
    return DamageRoll(sum(faces), faces, is_max)


def damage_dist(dice: int, mode: str = "hd_sum") -> Dist:
    """Exact distribution of the damage total (``weapon_d8``: one d8 whatever ``dice``)."""
    return _sum_dist(_damage_dice(dice, mode))


@cache
def _sum_dist(n: int) -> Dist:
    return Dist.die(HD_SIDES).repeat(n)


def damage_roll_dist(dice: int, mode: str = "hd_sum", max_damage: str = "all_eight") -> Dist:
    """Exact distribution of :func:`roll_damage` as ``(total, is_max)`` tuples."""
    _check_choice("max_damage", max_damage, ("all_eight", "any_eight"))
    n = _damage_dice(dice, mode)
    totals = damage_dist(dice, mode)
    if max_damage == "all_eight":
        return totals.map(lambda t: (t, t == HD_SIDES * n))
    # P(total = t, no 8) = (7/8)^n * P(sum of n faces 1..7 = t)
    no_eight = Dist.die(HD_SIDES - 1).repeat(n)
    scale = Fraction(HD_SIDES - 1, HD_SIDES) ** n
    probs: dict[tuple[int, bool], Fraction] = {}
    for t, p in totals.items():
        q = no_eight[t] * scale
        probs[(t, True)] = p - q
        probs[(t, False)] = q
    return Dist(probs)


@dataclass(frozen=True, slots=True)
class Absorb:
    """Armor against damage: the pool after, whether a wound got through, whether it emptied."""

    armor_pool: int
    wound: bool
    emptied: bool


def absorb(damage: int, armor_pool: int) -> Absorb:
    """Let the armor pool absorb ``damage``.

    The pool drops by the damage; damage above the pool empties it and wounds; with no armor
    (pool 0) any damage above 0 wounds. ``emptied`` means a pool above 0 reached 0.
    """
    _check_pool(armor_pool)
    if damage < 0:
        raise SimError(f"damage must be 0 or more, got {damage}")
    if armor_pool == 0:
        return Absorb(0, damage > 0, False)
    if damage > armor_pool:
        return Absorb(0, True, True)
    return Absorb(armor_pool - damage, False, damage == armor_pool)


def absorb_dist(dice: int, armor_pool: int, mode: str = "hd_sum") -> Dist:
    """Exact distribution of ``(armor_pool_after, wound)`` tuples for an attack of ``dice``."""
    _check_pool(armor_pool)
    return damage_dist(dice, mode).map(
        lambda d: (absorb(d, armor_pool).armor_pool, absorb(d, armor_pool).wound)
    )


def wound_chance(dice: int, armor_pool: int, mode: str = "hd_sum") -> Fraction:
    """Exact chance that an attack of ``dice`` wounds through ``armor_pool`` (0: always)."""
    _check_pool(armor_pool)
    return damage_dist(dice, mode).prob(lambda d: absorb(d, armor_pool).wound)


# --------------------------------------------------------------------------- wounds
def bleed_armor_max(armor_max: int) -> int:
    """Armor maximum after a bleeding wound: 5 lower, not below 1 (an unarmored 0 stays 0)."""
    spec = wound_type("bleeding")
    if armor_max <= 0:
        return 0
    return max(spec.armor_max_floor, armor_max - spec.armor_max_loss)


def apply_wound_type(c: Combatant, kind: str | None) -> Combatant:
    """``c`` with the lasting effect of a wound of type ``kind``.

    Bleeding lowers the armor maximum (pool capped to it); burning ignites (armor 0 until put
    out); broken bones and lingering wounds act through the wound record itself.
    """
    if kind is None:
        return c
    name = wound_type(kind).name
    if name == "bleeding":
        top = bleed_armor_max(c.armor_max)
        return c.evolve(armor_max=top, armor_pool=min(c.armor_pool, top))
    if name == "burning":
        return c.evolve(burning=True, armor_pool=0)
    return c


@dataclass(frozen=True, slots=True)
class HdLoss:
    """HD lost at once from one ``source``."""

    source: str
    lost: int
    hd_before: int
    hd_after: int
    wound_type: str | None
    status: Status

    def describe(self) -> str:
        """E.g. ``mighty: -1 HD, 2 HD left``."""
        kind = f" ({self.wound_type})" if self.wound_type else ""
        end = "" if self.status in (Status.ACTIVE, Status.FLEEING) else f", {self.status}"
        return f"{self.source}: -{self.lost} HD{kind}, {self.hd_after} HD left{end}"


def _out_status(c: Combatant, finish: str) -> Status:
    if c.faction or finish == "incapacitate":
        return Status.INCAPACITATED
    return Status.DEAD


def lose_hd(
    c: Combatant,
    n: int,
    *,
    source: str = "wound",
    wound_type: str | None = None,
    finish: str | None = None,
    options: Options = DEFAULT_OPTIONS,
) -> tuple[Combatant, HdLoss]:
    """``c`` after losing ``n`` HD (wounds, strips, hazards, casualties), one wound record each.

    A wound landing on a creature with 1 or fewer HD puts it out: at 0 HD it is incapacitated
    or dead as ``finish`` (default ``options.finish``) says; a faction's leader is always
    incapacitated. Hitting an incapacitated creature with ``finish="kill"`` kills it. Only the
    first lost HD carries ``wound_type``, whose effect is applied.
    """
    finish = options.finish if finish is None else finish
    _check_choice("finish", finish, ("incapacitate", "kill"))
    if n < 0:
        raise SimError(f"HD lost must be 0 or more, got {n}")
    hd_after = max(0, c.hit_dice - n)
    lost = c.hit_dice - hd_after
    status = c.status
    if n > 0 and hd_after == 0 and status in (Status.ACTIVE, Status.FLEEING, Status.INCAPACITATED):
        status = _out_status(c, finish)
    if options.wound_spendable == "cap":
        spendable = min(c.spendable, hd_after)
    else:
        spendable = min(max(0, c.spendable - lost), hd_after)
    new_wounds = tuple(Wound(wound_type if i == 0 else None, source) for i in range(lost))
    after = c.evolve(
        hit_dice=hd_after, spendable=spendable, status=status, wounds=c.wounds + new_wounds
    )
    if lost:
        after = apply_wound_type(after, wound_type)
    return after, HdLoss(source, lost, c.hit_dice, hd_after, wound_type if lost else None, status)


def _weapon_wound_type(w: Weapon, options: Options, draw: Draw) -> str | None:
    if w.wound_type:
        return w.wound_type
    if options.wound_types == "by_kind" and w.damage_kind:
        for t in wound_types():
            if w.damage_kind in t.left_by:
                return t.name
    if options.wound_types == "rolled":
        return wound_types()[draw(len(wound_types())) - 1].name
    return None


# --------------------------------------------------------------------------- attacks
@dataclass(frozen=True, slots=True)
class Hit:
    """What one attack did to its target (the before/after numbers a log line needs)."""

    weapon: str
    defence: str
    dodged: bool
    blocked: bool
    rolled: int
    damage: int
    faces: tuple[int, ...]
    is_max: bool
    armor_before: int
    armor_after: int
    armor_max_before: int
    armor_max_after: int
    hd_before: int
    hd_after: int
    wounds: tuple[Wound, ...]
    effects: tuple[str, ...]
    shoved_ft: int
    breaks_engagement: bool
    status: Status

    def describe(self) -> str:
        """E.g. ``plain: 2d8 [4, 1] = 5; armor 1 -> 0; wound, 2 HD left``."""
        if self.dodged:
            return f"{self.weapon}: dodged (1 HD spent)"
        if self.blocked:
            return f"{self.weapon}: blocked with an inventory slot (item lost)"
        if self.faces:
            roll = DamageRoll(self.rolled, self.faces, self.is_max).describe()
        else:
            roll = f"damage {self.rolled}" + (" (max)" if self.is_max else "")
        parts = [f"{self.weapon}: {roll}"]
        if self.damage != self.rolled:
            parts.append(f"damage {self.damage}")
        if self.armor_before != self.armor_after:
            parts.append(f"armor {self.armor_before} -> {self.armor_after}")
        if self.armor_max_before != self.armor_max_after:
            parts.append(f"armor max {self.armor_max_before} -> {self.armor_max_after}")
        if self.wounds:
            kinds = [w.type for w in self.wounds if w.type]
            label = "wound" if len(self.wounds) == 1 else f"{len(self.wounds)} HD lost"
            label += f" ({', '.join(kinds)})" if kinds else ""
            parts.append(f"{label}, {self.hd_after} HD left")
        elif self.hd_before == self.hd_after and not self.effects:
            parts.append("no wound")
        parts.extend(self.effects)
        if self.status not in (Status.ACTIVE, Status.FLEEING):
            parts.append(str(self.status))
        return "; ".join(parts)


def _attack_core(
    target: Combatant,
    roll: DamageRoll,
    w: Weapon,
    *,
    defence: str,
    mighty: bool,
    two_handed: bool,
    mounted: bool,
    protected: bool,
    ranged: bool,
    finish: str,
    options: Options,
    draw: Draw,
) -> tuple[Combatant, Hit]:
    c = target
    effects: list[str] = []
    shoved = 0

    def done(dodged: bool = False, blocked: bool = False, damage: int = 0) -> tuple[Combatant, Hit]:
        new_wounds = c.wounds[len(target.wounds) :]
        return c, Hit(
            weapon=w.name,
            defence=defence,
            dodged=dodged,
            blocked=blocked,
            rolled=roll.total,
            damage=damage,
            faces=roll.faces,
            is_max=roll.is_max and damage > 0,
            armor_before=target.armor_pool,
            armor_after=c.armor_pool,
            armor_max_before=target.armor_max,
            armor_max_after=c.armor_max,
            hd_before=target.hit_dice,
            hd_after=c.hit_dice,
            wounds=new_wounds,
            effects=tuple(effects),
            shoved_ft=shoved,
            breaks_engagement=bool(shoved) and options.spear_breaks_engagement,
            status=c.status,
        )

    if defence == "dodge":
        if not can_dodge(c):
            raise SimError("the target cannot dodge now")
        c = spend(c, DODGE_COST, "dodge")
        return done(dodged=True)
    if defence == "block":
        if not options.inventory_block:
            raise SimError("blocking with an inventory slot is off (option inventory_block)")
        c = c.evolve(inventory_lost=c.inventory_lost + 1)
        return done(blocked=True)

    helpless = c.subdued or c.grappled or c.status == Status.INCAPACITATED
    if is_out(c) and not (w.trigger == "helpless_target" and helpless):
        effects.append("target already out")
        return done()

    damage = roll.total
    if w.effect == "multiply_damage" and two_handed:
        damage *= int(w.amount)
        effects.append(f"two-handed: damage x{w.amount}")
    if ranged and protected:
        effects.append("cover: no damage")
        return done()
    if c.status == Status.FLEEING and damage > 0:
        c = c.evolve(damaged_while_fleeing=True)
    is_max = roll.is_max and damage > 0
    hd_lost_before = c.hit_dice

    def lose(n: int, source: str, kind: str | None = None) -> None:
        nonlocal c
        c, _ = lose_hd(c, n, source=source, wound_type=kind, finish=finish, options=options)

    if not is_out(c):
        if w.ignores_armor:
            n = _roll_amount(w.amount, draw)
            lose(n, w.name, _weapon_wound_type(w, options, draw))
            effects.append(f"{w.name} ignores armor, removes {n} HD")
        elif w.effect == "direct" and not warbow_blocked(c):
            n = damage if options.warbow_direct == "damage" else WOUND_HD
            lose(n, w.name, _weapon_wound_type(w, options, draw))
            effects.append(f"{w.name} unblocked: damages HD directly")
        else:
            a = absorb(damage, effective_pool(c))
            if effective_pool(c) == c.armor_pool != a.armor_pool:
                c = c.evolve(armor_pool=a.armor_pool)
            if a.emptied:
                c = _on_pool_emptied(c, w, effects)
            if a.wound:
                lose(WOUND_HD, "wound", _weapon_wound_type(w, options, draw))

    if w.trigger == "helpless_target" and helpless:
        lose(int(w.amount), w.name)
        effects.append(f"{w.name}: helpless target loses {w.amount} HD")
    if is_max and not is_out(c):
        if w.trigger == "max_damage" and w.effect == "strip_hd":
            lose(int(w.amount), w.name)
            effects.append(f"{w.name}: max damage strips {w.amount} HD")
        elif w.trigger == "max_damage" and w.effect == "ignite":
            c = c.evolve(burning=True, armor_pool=0)
            effects.append(f"{w.name}: max damage, target ignites")
        elif w.trigger == "max_damage" and w.effect == "subdue":
            c = c.evolve(subdued=True)
            effects.append(f"{w.name}: max damage, target subdued (may be knocked down/disarmed)")
        elif w.trigger == "max_damage_mounted" and mounted:
            status = Status.INCAPACITATED if options.skewer == "incapacitate" else Status.DEAD
            c = c.evolve(status=status)
            effects.append(f"{w.name}: max damage while mounted, target skewered")
    if mighty and not is_out(c):
        if options.mighty_hd == "extra" or c.hit_dice == hd_lost_before:
            lose(MIGHTY_HD, "mighty")
            effects.append(f"mighty attack removes {MIGHTY_HD} HD")
    if w.effect == "shove" and w.trigger == "hit" and not is_out(c):
        shoved = int(w.amount)
        effects.append(f"{w.name}: shoved {w.amount} ft")
    return done(damage=damage)


def _on_pool_emptied(c: Combatant, w: Weapon, effects: list[str]) -> Combatant:
    """Chain wears by 1 and a maul lowers the armor maximum by 2 when the pool hits 0."""
    pieces = list(c.armor)
    top = c.armor_max
    for i, piece in enumerate(pieces):
        wear = min(armor_spec(piece.kind).wear_on_empty, piece.value)
        if wear:
            pieces[i] = replace(piece, value=piece.value - wear)
            top = max(0, top - wear)
            effects.append(f"{piece.kind} wears: value {piece.value} -> {piece.value - wear}")
    if w.trigger == "pool_emptied" and w.effect == "armor_max_loss":
        top = max(0, top - int(w.amount))
        effects.append(f"{w.name} empties the pool: armor max -{w.amount}")
    return c.evolve(armor=tuple(pieces), armor_max=top, armor_pool=min(c.armor_pool, top))


def _attack_setup(
    name: str | Weapon,
    defence: str,
    cover: str | Factor | None,
    ranged: bool | None,
    options: Options = DEFAULT_OPTIONS,
) -> tuple[Weapon, bool, bool]:
    _check_choice("defence", defence, DEFENCES)
    w = weapon(name)
    protected = cover is not None and cover_protects(cover, options)
    return w, protected, w.ranged if ranged is None else ranged


def resolve_attack(
    target: Combatant,
    roll: DamageRoll,
    weapon: str | Weapon = "plain",
    *,
    defence: str = "armor",
    mighty: bool = False,
    two_handed: bool = False,
    mounted: bool = False,
    cover: str | Factor | None = None,
    ranged: bool | None = None,
    finish: str | None = None,
    rng: np.random.Generator | None = None,
    options: Options = DEFAULT_OPTIONS,
) -> tuple[Combatant, Hit]:
    """Apply an attack whose damage was rolled (:func:`roll_damage`) to ``target``.

    ``defence``: ``"dodge"`` (spend 1 HD, avoided), ``"armor"`` (the pool absorbs; no armor
    means any damage wounds) or ``"block"`` (option ``inventory_block``). Then the weapon's
    category effect, and for a ``mighty`` attack 1 HD more (call :func:`declare_mighty` on the
    attacker). A standard ranged attack (``ranged`` defaults to the weapon's) against a target
    behind protecting ``cover`` does 0 damage and nothing else. ``rng`` is needed only for a
    gun's 1d4 and for ``wound_types="rolled"``.
    """
    w, protected, is_ranged = _attack_setup(weapon, defence, cover, ranged, options)
    return _attack_core(
        target,
        roll,
        w,
        defence=defence,
        mighty=mighty,
        two_handed=two_handed,
        mounted=mounted,
        protected=protected,
        ranged=is_ranged,
        finish=options.finish if finish is None else finish,
        options=options,
        draw=_rng_draw(rng),
    )


def attack_dist(
    target: Combatant,
    dice: int,
    weapon: str | Weapon = "plain",
    *,
    defence: str = "armor",
    mighty: bool = False,
    two_handed: bool = False,
    mounted: bool = False,
    cover: str | Factor | None = None,
    ranged: bool | None = None,
    finish: str | None = None,
    options: Options = DEFAULT_OPTIONS,
) -> Dist:
    """Exact distribution of the target after an attack of ``dice`` HD (a :class:`Combatant`).

    The counterpart of ``resolve_attack(target, roll_damage(dice, rng, options.damage,
    max_damage=options.max_damage), ...)``.
    """
    w, protected, is_ranged = _attack_setup(weapon, defence, cover, ranged, options)
    fin = options.finish if finish is None else finish

    def after(outcome: tuple[int, bool]) -> Dist:
        roll = DamageRoll(outcome[0], (), outcome[1])
        return _exact(
            lambda draw: _attack_core(
                target,
                roll,
                w,
                defence=defence,
                mighty=mighty,
                two_handed=two_handed,
                mounted=mounted,
                protected=protected,
                ranged=is_ranged,
                finish=fin,
                options=options,
                draw=draw,
            )[0]
        )

    return damage_roll_dist(dice, options.damage, options.max_damage).bind(after)


# --------------------------------------------------------------------------- rounds and turns
@dataclass(frozen=True, slots=True)
class RoundStart:
    """What the start of a round did: spendable HD refreshed, burning's lost HD if any."""

    spendable: int
    burning: HdLoss | None
    goes_last: bool

    def describe(self) -> str:
        """A log line."""
        burn = f"; {self.burning.describe()}" if self.burning else ""
        late = "; goes last" if self.goes_last else ""
        return f"{self.spendable} HD to spend{burn}{late}"


def start_round(
    c: Combatant, *, finish: str | None = None, options: Options = DEFAULT_OPTIONS
) -> tuple[Combatant, RoundStart]:
    """Start a round: spendable HD refresh, burning bites, late-comers count down.

    Spendable HD refresh to the current HD (a headcount faction's to its maneuver dice);
    burning removes 1 HD and keeps armor at 0; a creature back in the fight goes last.
    """
    burn: HdLoss | None = None
    if c.burning and not is_out(c):
        c, burn = lose_hd(c, BURNING_HD, source="burning", finish=finish, options=options)
    top = c.hit_dice if c.maneuver_dice is None else min(c.hit_dice, c.maneuver_dice)
    goes_last = c.late_rounds > 0
    c = c.evolve(
        spendable=top,
        goes_last=goes_last,
        late_rounds=max(0, c.late_rounds - 1),
        armor_pool=0 if c.burning else c.armor_pool,
    )
    return c, RoundStart(c.spendable, burn, goes_last)


def start_turn(c: Combatant) -> Combatant:
    """Start of the creature's own turn: it may dodge again after its mighty attack."""
    return c.evolve(mighty_attack_pending=False)


def end_turn(c: Combatant, options: Options = DEFAULT_OPTIONS) -> Combatant:
    """End of the creature's own turn: a fleeing one is ``fled`` after ``flee_turns`` [H]."""
    if c.status != Status.FLEEING:
        return c
    turns = c.fleeing_turns + 1
    status = Status.FLED if turns >= options.flee_turns else Status.FLEEING
    return c.evolve(fleeing_turns=turns, status=status)


def end_round(c: Combatant) -> Combatant:
    """End of a round: distraction and a hazard's armor 0 wear off."""
    return c.evolve(distracted=False, exposed=False)


def back_into_fight(c: Combatant, hit_dice: int) -> Combatant:
    """A creature brought back into the fight with ``hit_dice`` HD.

    It goes last for the next 2 rounds and cannot spend HD to act sooner.
    """
    if hit_dice < 1:
        raise SimError(f"a creature comes back with 1 or more HD, got {hit_dice}")
    return c.evolve(
        status=Status.ACTIVE,
        hit_dice=hit_dice,
        spendable=0,
        late_rounds=BACK_IN_ROUNDS,
        goes_last=True,
        fleeing_turns=0,
        damaged_while_fleeing=False,
    )


# --------------------------------------------------------------------------- armor recovery
@dataclass(frozen=True, slots=True)
class ArmorRecovery:
    """One HD spent at the start of a turn to recover armor."""

    roll: int
    before: int
    after: int

    def describe(self) -> str:
        """E.g. ``recover armor: d8 = 5, armor 1 -> 6``."""
        return f"recover armor: d8 = {self.roll}, armor {self.before} -> {self.after}"


def can_recover_armor(c: Combatant) -> bool:
    """True if spending 1 HD on armor could help: below the maximum and not burning."""
    return not c.burning and c.armor_pool < c.armor_max and can_spend(c, RECOVER_COST, "recover")


def recover_armor(c: Combatant, rng: np.random.Generator) -> tuple[Combatant, ArmorRecovery]:
    """Spend 1 HD at the start of a turn: roll a d8 and add it to the pool, capped at the max."""
    if not can_recover_armor(c):
        raise SimError("cannot recover armor now (no HD to spend, burning, or pool full)")
    roll = _d(rng, HD_SIDES)
    pool = min(c.armor_max, c.armor_pool + roll)
    c2 = spend(c, RECOVER_COST, "recover").evolve(armor_pool=pool)
    return c2, ArmorRecovery(roll, c.armor_pool, pool)


def recover_armor_dist(armor_pool: int, armor_max: int) -> Dist:
    """Exact distribution of the pool after :func:`recover_armor`."""
    _check_pool(armor_pool)
    return Dist.die(HD_SIDES).map(lambda r: min(armor_max, armor_pool + r))


# --------------------------------------------------------------------------- fire
def put_out_fire(c: Combatant, options: Options = DEFAULT_OPTIONS) -> tuple[Combatant, Maneuver]:
    """Put out a fire on ``c``: a maneuver [H] (``extinguish="one_hd"``: 1 HD)."""
    if not c.burning:
        raise SimError("the creature is not burning")
    if options.extinguish == "maneuver":
        c, paid = pay_maneuver(c, "extinguish", options)
    else:
        c, paid = spend(c, 1, "extinguish"), Maneuver("extinguish", 1, False)
    return c.evolve(burning=False), paid


def break_free(c: Combatant) -> Combatant:
    """``c`` out of a hazard, grapple or subdual; a hazard's slowing ends with it [I]."""
    return c.evolve(subdued=False, grappled=False, stuck_in=None, movement_penalty_ft=0)


def is_held(c: Combatant) -> bool:
    """True while ``c`` is stuck in a hazard, grappled or subdued."""
    return c.stuck_in is not None or c.grappled or c.subdued


def try_break_free(
    c: Combatant, rng: np.random.Generator, options: Options = DEFAULT_OPTIONS
) -> tuple[Combatant, Contest]:
    """A held creature's contested maneuver to break free (RULES.md 1.10 [I]).

    It rolls a d8 and adds its Strength or Athletics; the hold (hazard, grapple or subdual)
    rolls a d8 with nothing added [H]. Ties go as ``contest_ties`` says (default: the hold).
    The caller pays the maneuver. On a win the creature is free (:func:`break_free`).
    """
    result = roll_contest(c.strength, 0, rng, options=options)
    return (break_free(c) if result.winner == "attacker" else c), result


def break_free_dist(c: Combatant, options: Options = DEFAULT_OPTIONS) -> Dist:
    """Exact chance of :func:`try_break_free` (``True``: the creature is free)."""
    return contest_dist(c.strength, 0, options=options).map(lambda w: w == "attacker")


# --------------------------------------------------------------------------- contests
@dataclass(frozen=True, slots=True)
class Contest:
    """A contested maneuver: dice totals, totals with Strength/Athletics, the winner."""

    attacker_roll: int
    defender_roll: int
    attacker_total: int
    defender_total: int
    winner: str
    rerolls: int = 0

    def describe(self) -> str:
        """A log line."""
        again = f" after {self.rerolls} re-roll(s)" if self.rerolls else ""
        return (
            f"contest {self.attacker_total} ({self.attacker_roll}) vs "
            f"{self.defender_total} ({self.defender_roll}): {self.winner} wins{again}"
        )


def _tie_winner(ties: str) -> str:
    return "attacker" if ties == "attacker" else "defender"


def roll_contest(
    attacker_bonus: int,
    defender_bonus: int,
    rng: np.random.Generator,
    *,
    attacker_dice: int = 1,
    defender_dice: int = 1,
    options: Options = DEFAULT_OPTIONS,
) -> Contest:
    """Each side rolls its d8s and adds Strength or Athletics; the higher total wins.

    Ties go as ``options.contest_ties`` says (default: the defender).
    """
    if attacker_dice < 1 or defender_dice < 0:
        raise SimError("a contest needs 1 or more attacker dice and 0 or more defender dice")
    rerolls = 0
    while True:
        a = int(rng.integers(1, HD_SIDES + 1, size=attacker_dice).sum())
        d = int(rng.integers(1, HD_SIDES + 1, size=defender_dice).sum()) if defender_dice else 0
        at, dt = a + attacker_bonus, d + defender_bonus
        if at != dt:
            return Contest(a, d, at, dt, "attacker" if at > dt else "defender", rerolls)
        if options.contest_ties != "reroll":
            return Contest(a, d, at, dt, _tie_winner(options.contest_ties), rerolls)
        rerolls += 1


def contest_dist(
    attacker_bonus: int,
    defender_bonus: int,
    *,
    attacker_dice: int = 1,
    defender_dice: int = 1,
    options: Options = DEFAULT_OPTIONS,
) -> Dist:
    """Exact distribution of :func:`roll_contest`'s winner (``"attacker"``/``"defender"``)."""
    if attacker_dice < 1 or defender_dice < 0:
        raise SimError("a contest needs 1 or more attacker dice and 0 or more defender dice")
    att = Dist.die(HD_SIDES).repeat(attacker_dice).shift(attacker_bonus)
    dfn = Dist.die(HD_SIDES).repeat(defender_dice).shift(defender_bonus)
    diff = att.combine(dfn, lambda a, d: (a > d) - (a < d))
    win, lose, tie = diff[1], diff[-1], diff[0]
    if options.contest_ties == "reroll":
        return Dist({"attacker": win / (win + lose), "defender": lose / (win + lose)})
    if options.contest_ties == "attacker":
        win += tie
    else:
        lose += tie
    return Dist({"attacker": win, "defender": lose})


def _contest_setup(
    attacker: Combatant, target: Combatant, attacker_dice: int, options: Options
) -> tuple[Combatant, int, int, bool]:
    """Target after spending its 1 HD; attacker and defender dice; whether it loses outright."""
    a_dice = attacker_dice if options.contest_roll == "spent" else 1
    if can_spend(target, RESIST_COST, "resist"):
        return spend(target, RESIST_COST, "resist"), a_dice, 1, False
    return target, a_dice, 0, options.contest_unable == "auto_lose"


def contested_maneuver(
    attacker: Combatant,
    target: Combatant,
    rng: np.random.Generator,
    *,
    attacker_dice: int = 1,
    options: Options = DEFAULT_OPTIONS,
) -> tuple[Combatant, Contest]:
    """Grapple, shove, disarm, push: the target spends 1 HD (if it can) and the two contest.

    ``attacker_dice`` is the HD spent on the maneuver (rolled only if ``contest_roll="spent"``).
    """
    t2, a_dice, d_dice, auto = _contest_setup(attacker, target, attacker_dice, options)
    if auto:
        return t2, Contest(0, 0, attacker.strength, target.strength, "attacker")
    result = roll_contest(
        attacker.strength,
        target.strength,
        rng,
        attacker_dice=a_dice,
        defender_dice=d_dice,
        options=options,
    )
    return t2, result


def contested_maneuver_dist(
    attacker: Combatant,
    target: Combatant,
    *,
    attacker_dice: int = 1,
    options: Options = DEFAULT_OPTIONS,
) -> Dist:
    """Exact distribution of :func:`contested_maneuver`'s winner."""
    _, a_dice, d_dice, auto = _contest_setup(attacker, target, attacker_dice, options)
    if auto:
        return Dist.constant("attacker")
    return contest_dist(
        attacker.strength,
        target.strength,
        attacker_dice=a_dice,
        defender_dice=d_dice,
        options=options,
    )


# --------------------------------------------------------------------------- factors
@dataclass(frozen=True, slots=True)
class FactorUse:
    """An environmental factor invoked on a target and what it did."""

    factor: str
    kind: str
    applied: bool
    contest: Contest | None
    loss: HdLoss | None
    effects: tuple[str, ...]

    def describe(self) -> str:
        """A log line."""
        parts = [f"{self.kind} {self.factor}"]
        if self.contest is not None:
            parts.append(self.contest.describe())
        if not self.applied:
            parts.append("no effect")
        if self.loss is not None:
            parts.append(self.loss.describe())
        parts.extend(self.effects)
        return "; ".join(parts)


def can_distract(
    c: Combatant, distraction: str | Factor, options: Options = DEFAULT_OPTIONS
) -> bool:
    """True if this distraction may still be used on ``c`` (once per target)."""
    name = factor("distraction", distraction).name
    if options.distraction_limit == "per_target":
        return not c.distracted_by
    return name not in c.distracted_by


def distract(
    c: Combatant, distraction: str | Factor, options: Options = DEFAULT_OPTIONS
) -> tuple[Combatant, FactorUse]:
    """Invoke a distraction on ``c``: it cannot spend HD until the end of the round."""
    f = factor("distraction", distraction)
    if not can_distract(c, f, options):
        raise SimError(f"distraction {f.name!r} was already used on this target")
    c2 = c.evolve(distracted=True, distracted_by=c.distracted_by + (f.name,))
    return c2, FactorUse(f.name, "distraction", True, None, None, ("cannot spend HD this round",))


def apply_hazard(
    target: Combatant,
    hazard: str | Factor,
    *,
    finish: str | None = None,
    options: Options = DEFAULT_OPTIONS,
) -> tuple[Combatant, FactorUse]:
    """A creature caught by a hazard: armor 0 for the round, 1 HD lost, the hazard's effect.

    Effects: subdued, burning, limb unusable, death by falling, 1 HD more, -10 ft, 5 slots.
    The lost HD's wound takes the type the hazard names (fire: burning; spiked pit: broken
    bones), whatever ``wound_types`` says.
    """
    h = factor("hazard", hazard)
    effects: list[str] = []
    loss = HAZARD_HD + (h.amount if h.effect == "extra_hd_loss" else 0)
    c = target.evolve(exposed=True)
    c, lost = lose_hd(
        c,
        loss,
        source=f"hazard:{h.name}",
        wound_type=h.wound_type or None,
        finish=finish,
        options=options,
    )
    effects.append("armor 0 this round")
    if h.effect == "subdued":
        c = c.evolve(subdued=True, stuck_in=h.name)
        effects.append("subdued")
    elif h.effect == "burning":
        effects.append("on fire until put out")
    elif h.effect == "limb_unusable":
        effects.append("a limb is unusable")
    elif h.effect == "death_by_falling":
        if c.falling_kills:
            c = c.evolve(status=Status.DEAD)
            effects.append("falls to its death")
        else:
            effects.append("falls, but falling cannot kill it")
    elif h.effect in ("slowed", "inventory_loss"):
        c, more = _stuck_effect(c.evolve(stuck_in=h.name), h)
        effects.append(more)
    return c, FactorUse(h.name, "hazard", True, None, lost, tuple(effects))


def _stuck_effect(c: Combatant, h: Factor) -> tuple[Combatant, str]:
    if h.effect == "slowed":
        return c.evolve(movement_penalty_ft=c.movement_penalty_ft + h.amount), (
            f"movement -{h.amount} ft"
        )
    if h.effect == "inventory_loss":
        return c.evolve(inventory_lost=c.inventory_lost + h.amount), (
            f"{h.amount} inventory slots destroyed"
        )
    return c, ""


def hazard_round(c: Combatant) -> tuple[Combatant, str]:
    """A further round stuck in a hazard: quicksand -10 ft more, acid 5 slots more."""
    if c.stuck_in is None:
        return c, ""
    return _stuck_effect(c, factor("hazard", c.stuck_in))


def _push_core(
    target_after_spend: Combatant,
    winner: str,
    hazard: Factor,
    finish: str | None,
    options: Options,
) -> tuple[Combatant, bool, HdLoss | None, tuple[str, ...]]:
    if winner != "attacker":
        return target_after_spend, False, None, ()
    c, use = apply_hazard(target_after_spend, hazard, finish=finish, options=options)
    return c, True, use.loss, use.effects


def push_into_hazard(
    attacker: Combatant,
    target: Combatant,
    hazard: str | Factor,
    rng: np.random.Generator,
    *,
    attacker_dice: int = 1,
    finish: str | None = None,
    options: Options = DEFAULT_OPTIONS,
) -> tuple[Combatant, FactorUse]:
    """Invoke a hazard on ``target`` through a contested maneuver [I]; on a win it applies."""
    h = factor("hazard", hazard)
    contest: Contest | None = None
    if options.hazard_contest:
        t2, contest = contested_maneuver(
            attacker, target, rng, attacker_dice=attacker_dice, options=options
        )
        winner = contest.winner
    else:
        t2, winner = target, "attacker"
    c, applied, loss, effects = _push_core(t2, winner, h, finish, options)
    return c, FactorUse(h.name, "hazard", applied, contest, loss, effects)


def push_into_hazard_dist(
    attacker: Combatant,
    target: Combatant,
    hazard: str | Factor,
    *,
    attacker_dice: int = 1,
    finish: str | None = None,
    options: Options = DEFAULT_OPTIONS,
) -> Dist:
    """Exact distribution of the target (a :class:`Combatant`) after :func:`push_into_hazard`."""
    h = factor("hazard", hazard)
    if options.hazard_contest:
        t2, *_ = _contest_setup(attacker, target, attacker_dice, options)
        winners = contested_maneuver_dist(
            attacker, target, attacker_dice=attacker_dice, options=options
        )
    else:
        t2, winners = target, Dist.constant("attacker")
    return winners.map(lambda w: _push_core(t2, w, h, finish, options)[0])


# --------------------------------------------------------------------------- morale
@dataclass(frozen=True, slots=True)
class Morale:
    """A morale check: the d8 rolled and the indices of the creatures that start to flee."""

    roll: int
    fleeing: tuple[int, ...]

    def describe(self) -> str:
        """A log line."""
        return f"morale d8 = {self.roll}: {len(self.fleeing)} flee"


MORALE_TRIGGERS = ("half_out", "goal_failed", "leader_out", "quiet_rounds")


def morale_triggers(
    *,
    fighters: int,
    out: int,
    goal_failed: bool = False,
    leader_out: bool = False,
    quiet_rounds: int = 0,
    fired: frozenset[str] = frozenset(),
    options: Options = DEFAULT_OPTIONS,
) -> tuple[str, ...]:
    """The morale triggers a side meets now (names from :data:`MORALE_TRIGGERS`).

    Half its ``fighters`` ``out`` (at least half [I]), a failed goal, its leader out, or every
    second consecutive quiet round. With ``morale_triggers_once``, triggers in ``fired`` do not
    fire again (quiet rounds excepted).
    """
    met = {
        "half_out": fighters > 0 and 2 * out >= fighters,
        "goal_failed": goal_failed,
        "leader_out": leader_out,
        "quiet_rounds": quiet_rounds > 0 and quiet_rounds % QUIET_ROUNDS == 0,
    }
    return tuple(
        name
        for name in MORALE_TRIGGERS
        if met[name]
        and (name == "quiet_rounds" or not options.morale_triggers_once or name not in fired)
    )


def morale_value(c: Combatant, options: Options = DEFAULT_OPTIONS) -> int:
    """What a morale roll is compared to: current HD, or ``resolve`` if ``morale_compare=fixed``."""
    return c.hit_dice if options.morale_compare == "hd" else c.resolve


def flee_chance(value: int) -> Fraction:
    """Exact chance one morale d8 is at least ``value`` (the creature flees)."""
    return Fraction(min(HD_SIDES, max(0, HD_SIDES + 1 - value)), HD_SIDES)


def roll_morale(values: Sequence[int], rng: np.random.Generator) -> Morale:
    """Roll 1 HD (d8): every creature whose value is the roll or less starts to flee."""
    roll = _d(rng, HD_SIDES)
    return Morale(roll, tuple(i for i, v in enumerate(values) if v <= roll))


def morale_dist(values: Sequence[int]) -> Dist:
    """Exact distribution of :func:`roll_morale`'s tuple of fleeing indices."""
    vals = tuple(values)
    return Dist.die(HD_SIDES).map(lambda r: tuple(i for i, v in enumerate(vals) if v <= r))


def morale_check(
    side: Sequence[Combatant], rng: np.random.Generator, options: Options = DEFAULT_OPTIONS
) -> tuple[tuple[Combatant, ...], Morale]:
    """Check a side's morale: its active creatures at or below the roll start to flee."""
    morale = roll_morale([morale_value(c, options) for c in side], rng)
    fleeing = tuple(i for i in morale.fleeing if side[i].status == Status.ACTIVE)
    new = tuple(start_fleeing(c) if i in fleeing else c for i, c in enumerate(side))
    return new, Morale(morale.roll, fleeing)


def start_fleeing(c: Combatant) -> Combatant:
    """``c`` fleeing: it spends HD only to run, unless damaged while fleeing."""
    return c.evolve(status=Status.FLEEING, fleeing_turns=0, damaged_while_fleeing=False)


# --------------------------------------------------------------------------- initiative
@dataclass(frozen=True, slots=True)
class Initiative:
    """Initiative: each side's d8s (last throw), the side that goes first, re-rolls."""

    rolls: tuple[tuple[int, ...], ...]
    first: int
    rerolls: int

    def describe(self) -> str:
        """A log line."""
        again = f" after {self.rerolls} re-roll(s)" if self.rerolls else ""
        return f"initiative {[list(r) for r in self.rolls]}: side {self.first} first{again}"


def _check_counts(counts: Sequence[int]) -> None:
    if len(counts) < 2 or any(n < 0 for n in counts) or not any(counts):
        raise SimError("initiative needs 2 or more sides and someone to roll")


def roll_initiative(
    counts: Sequence[int], rng: np.random.Generator, options: Options = DEFAULT_OPTIONS
) -> Initiative:
    """Everyone rolls 1 HD; the side with the highest die goes first (ties re-roll [H]).

    ``counts`` is the number of creatures rolling per side (at large scale: 1 leader each).
    """
    _check_counts(counts)
    rerolls = 0
    while True:
        rolls = tuple(tuple(int(f) for f in rng.integers(1, HD_SIDES + 1, size=n)) for n in counts)
        tops = [max(r) if r else 0 for r in rolls]
        best = max(tops)
        leaders = [i for i, t in enumerate(tops) if t == best]
        if len(leaders) == 1 or options.initiative_ties == "first_listed":
            return Initiative(rolls, leaders[0], rerolls)
        rerolls += 1


def initiative_dist(counts: Sequence[int], options: Options = DEFAULT_OPTIONS) -> Dist:
    """Exact distribution of the side index :func:`roll_initiative` puts first."""
    _check_counts(counts)

    def below(n: int, v: int) -> Fraction:  # P(max of n d8 < v), 1 if nobody rolls
        return Fraction(v - 1, HD_SIDES) ** n

    def at(n: int, v: int) -> Fraction:  # P(max of n d8 == v)
        return Fraction(v, HD_SIDES) ** n - below(n, v) if n else Fraction(0)

    wins: dict[int, Fraction] = {}
    for i, n in enumerate(counts):
        p = Fraction(0)
        for v in range(1, HD_SIDES + 1):
            others = Fraction(1)
            for j, m in enumerate(counts):
                if j == i:
                    continue
                ok_equal = options.initiative_ties == "first_listed" and j > i
                others *= Fraction(v, HD_SIDES) ** m if ok_equal else below(m, v)
            p += at(n, v) * others
        wins[i] = p
    total = sum(wins.values())
    return Dist({i: p / total for i, p in wins.items()})


# --------------------------------------------------------------------------- large scale
def is_large_scale(individuals: int, options: Options = DEFAULT_OPTIONS) -> bool:
    """True if a War Game of this many individuals is large scale (more than 10)."""
    return individuals > options.large_scale_above


def _average(values: Sequence[int], options: Options) -> int:
    mean = Fraction(sum(values), len(values))
    return round_half_up(mean) if options.faction_rounding == "half_up" else int(mean)


def faction_pool(members: Sequence[Combatant], options: Options = DEFAULT_OPTIONS) -> Combatant:
    """A faction's pool: HD = average member HD, armor = average pool and maximum (halves up).

    ``pool="headcount"``: HD = head count, spending the average HD per round. Strength and
    resolve are averaged too; shields and metal armor block warbows if at least half the
    members have them [H].
    """
    if not members:
        raise SimError("a faction needs at least one member")
    avg_hd = _average([m.hit_dice for m in members], options)
    hd = len(members) if options.pool == "headcount" else avg_hd
    dice = avg_hd if options.pool == "headcount" else None
    top = _average([m.armor_max for m in members], options)
    pool = min(top, _average([m.armor_pool for m in members], options))
    blocked = 2 * sum(warbow_blocked(m) for m in members) >= len(members)
    return Combatant(
        hit_dice=hd,
        spendable=hd if dice is None else min(hd, dice),
        armor_pool=pool,
        armor_max=top,
        strength=_average([m.strength for m in members], options),
        resolve=_average([m.resolve for m in members], options),
        arrow_proof=blocked,
        maneuver_dice=dice,
        faction=True,
    )


def casualties(before: Combatant, after: Combatant) -> int:
    """Wounded members a faction lost between two states: one per HD lost."""
    return max(0, before.hit_dice - after.hit_dice)


def is_scattered(f: Combatant) -> bool:
    """True if a faction lost all its HD: leader incapacitated, the rest scattered."""
    return f.faction and f.hit_dice == 0


@dataclass(frozen=True, slots=True)
class LeaderKilling:
    """A leader-killing roll: the d8, success on 7+, else HD the attackers lose."""

    roll: int
    success: bool
    attacker_hd_lost: int

    def describe(self) -> str:
        """A log line."""
        if self.success:
            return f"leader killing d8 = {self.roll}: the enemy leader is out"
        return f"leader killing d8 = {self.roll}: fails, attackers lose {self.attacker_hd_lost} HD"


def leader_killing_result(roll: int) -> LeaderKilling:
    """The leader-killing outcome of a d8 ``roll``: 7+ succeeds, else 1 HD lost per point short."""
    lost = max(0, LEADER_KILLING_TARGET - roll)
    return LeaderKilling(roll, lost == 0, lost)


def roll_leader_killing(rng: np.random.Generator) -> LeaderKilling:
    """Roll 1 HD: 7 or more, the enemy leader is out; below 7, 1 HD lost per point short."""
    return leader_killing_result(_d(rng, HD_SIDES))


def leader_killing_dist() -> Dist:
    """Exact distribution of the HD the attacking faction loses (0 = the leader is out)."""
    return Dist.die(HD_SIDES).map(lambda r: leader_killing_result(r).attacker_hd_lost)


def leader_down(
    f: Combatant, *, finish: str | None = None, options: Options = DEFAULT_OPTIONS
) -> tuple[Combatant, HdLoss]:
    """A faction whose leader is incapacitated or killed: it loses all but 1 HD."""
    keep = min(f.hit_dice, LEADER_OUT_KEEPS)
    f2, loss = lose_hd(f, f.hit_dice - keep, source="leader_out", finish=finish, options=options)
    return f2.evolve(leader_out=True), loss


def resolve_leader_killing(
    attacker: Combatant,
    target: Combatant,
    result: LeaderKilling,
    *,
    finish: str | None = None,
    options: Options = DEFAULT_OPTIONS,
) -> tuple[Combatant, Combatant, HdLoss]:
    """Apply a leader-killing roll: the enemy leader goes down, or the attackers lose HD.

    Returns (attacker, target, the loss that happened).
    """
    if result.success:
        target, loss = leader_down(target, finish=finish, options=options)
        return attacker, target, loss
    attacker, loss = lose_hd(
        attacker, result.attacker_hd_lost, source="leader_killing", finish=finish, options=options
    )
    return attacker, target, loss
