"""Scenario files: YAML in, a checked :class:`~sim.scenario.Scenario` out, every error at once.

``load_scenario(path, overrides)`` reads a file; ``parse_scenario(text, source, overrides)``
reads a string. Both check the whole document and raise :class:`ScenarioError` listing every
problem, one line each, as ``file:line: field.path: message``::

    ford.yaml:12: max_rounds: expected a whole number, got 'three'
    ford.yaml:40: sides.red.fighters[0].weapon: unknown weapon category 'ax'; did you mean 'axe'?

Files are read safely: PyYAML composes nodes with ``SafeLoader`` and this module builds plain
values from them itself (mappings, lists, strings, numbers, booleans, null; no tags that make
objects, no code). Mapping keys are text as written (``yes:`` is the key ``"yes"``); anchors,
aliases and ``<<`` merge keys work; a key given twice is an error. Limits: a file of at most
5 MB (checked before it is read), at most 200,000 values once aliases are expanded (a
"billion laughs" alias bomb is refused before anything is built), at most 64 levels of
nesting, 100,000 fighters in all.

Format
------

Top level (every key optional except ``sides``):

- ``name``: text; default: the file's name without its extension.
- ``description``: text.
- ``rules``: a system name (``wargame``, ``2w2p``, ``deathwish``, ``d6``; default ``wargame``)
  or a mapping ``{system: NAME, options: {OPTION: VALUE, ...}}``; the options are the system's
  own (``sim options SYSTEM``).
- ``frame``: War Game frame options (morale, scale, initiative; names as in
  ``sim options wargame``) for a system other than ``wargame``. Under ``wargame`` they go in
  ``rules.options`` and ``frame`` is an error.
- ``battle``: the battle's own house rules (``sim options battle``).
- ``max_rounds``: whole number 1..10000; default 50.
- ``seed``: whole number 0 or more, or null (then a run must be given a seed).
- ``templates``: mapping of template name to fighter fields (any fighter field below except
  ``name``, ``count`` and ``template``).
- ``factors``: list of environmental factors in play from the start, each a one-key mapping
  ``{cover: NAME}``, ``{distraction: NAME}``, ``{hazard: NAME}`` (names from the War Game d8
  tables) or ``{roll: KIND}`` (rolled on the d8 table of KIND when the battle starts).
- ``sides``: mapping of side name to side; at least two sides (exactly two under ``2w2p``).
- ``events``: list of scripted events (below).
- ``aftermath``: days after the battle (below; :mod:`sim.campaign`).
- ``campaign``: one side's company through several battles (below).
- ``map``: the battlefield drawn as text (below; :mod:`sim.space`); without it the battle has
  no space.

Side:

- ``fighters`` (required): non-empty list of fighter entries.
- ``leader``: the name of one of the side's starting fighters (after ``count`` expansion, so
  ``guard 1`` names the first of ``{name: guard, count: 2}``).
- ``tactic``: a tactic name (``balanced``, ``aggressive``, ``defensive``, ``focus_leader``) or
  ``{name: NAME, params: {PARAMETER: VALUE, ...}}`` (``sim options tactic``); default balanced.
- ``goals``: list of goals, each a one-key mapping ``{protect: FIGHTER}`` (one of the side's
  own fighters, reinforcements included), ``{destroy: TOUGHNESS}`` (1..1000000),
  ``{hold: ROUNDS}`` or ``{take_and_hold: ROUNDS}`` (1..max_rounds), optionally with
  ``wins: false`` beside it (the goal then does not win the battle by itself); or the long form
  ``{kind: KIND, target: FIGHTER | toughness: N | rounds: N, wins: BOOL}``.

Fighter entry:

Fields left out take :class:`~sim.scenario.FighterSpec`'s defaults. Table names are stored
as the table spells them (``weapon: Bastard Sword`` becomes ``bastard_sword``).

- ``name`` (required): text.
- ``template``: a key of ``templates``; the entry's own fields override the template's
  (``skills``, ``deathwish`` and ``d6`` merge key by key).
- ``count``: whole number 1..100000; the entry stands for fighters ``NAME 1`` .. ``NAME N``
  (``count: 1``, the default, keeps the name as it is). Fighter names must differ across the
  whole scenario, reinforcements included.
- War Game: ``hit_dice`` (1..100, default 4); ``armor`` (a list of armor names from the d6
  table, aliases allowed; piecemeal armor as ``"piecemeal:N"`` for N pieces; a single name
  may stand alone); ``shield`` (``small``, ``medium``, ``large`` or their aliases, or an armor
  value 2..4; null for none); ``weapon`` (a d12 weapon category or ``plain``, the default);
  ``dex_modifier`` (-10..10); ``savvy`` (a two-digit score 10..99 whose second digit replaces
  the Dex modifier, or null); ``inventory_slots`` (0..1000); ``mounted``, ``two_handed``
  (true/false).
- Shared attributes: ``body``, ``strength``, ``dexterity`` (1..20, default 5); ``athletics``
  (0..20); ``resolve`` (0..100, used by ``morale_compare: fixed``); ``role`` (text, default
  ``fighter``); ``front`` (text, the 2W2P front; default ``main``).
- Starting state: ``wounds`` (0..100, wounds taken before the battle, each one of the system's
  own kind) and ``status`` (``active``, the default, or out of the fight from the start:
  ``incapacitated``, ``dead``, ``fled``, ``surrendered``).
- 2W2P: ``fights`` (0..1000, the fight count that gives the tier); ``prime`` (true/false);
  ``head_protection`` (true/false); ``skills`` (mapping of skill name to level:
  ``unskilled``, ``competent``, ``experienced`` or ``specialized``).
- ``deathwish``: mapping with ``weapon`` (a Deathwish weapon name), ``armor`` (below),
  ``skill`` (0..20), ``traits`` (-20..20) and ``ammo`` (an ammunition type). Body, Strength
  and traits must give a trauma tolerance of 1 or more. A hit meets only the armor on the
  location it strikes (torso, or with ``battle: {deathwish_location: random}`` head, vitals,
  limb or torso). ``armor`` is one value or a mapping by location:
  - one value: armor points 0..20, or a name from the armor table (``none`` 0, ``light vest``
    1, ``military vest`` and ``SWAT vest`` 2, ``trauma plates`` 3; ``helmet`` 2 is a house rule
    [H]). Points, vests and plates are body armor: torso and vitals, not head or limbs [H];
    ``helmet`` covers the head only.
  - a mapping of location to points or an armor name, keys ``head``, ``torso``, ``vitals``,
    ``limbs`` (each optional, default 0); ``torso`` covers the vitals too unless ``vitals`` is
    given: ``armor: {torso: military vest, head: helmet, limbs: 1}``. A template's ``armor``
    is replaced whole by an entry's.
- ``d6``: mapping with dice codes (``3D``, ``4D+1``, at most 100D) ``strength``,
  ``dexterity``, ``attack``, ``dodge``, ``parry`` and ``damage`` (for those two, an empty
  string means none / unarmed), ``armor``, and ``size`` (a participant of the D6 scale table
  such as ``Dragon``, or a signed size value -100..100).

Event (each needs ``round``, 1..max_rounds, and exactly one action):

- ``{round: N, reinforce: SIDE, fighters: [FIGHTER ENTRY, ...]}``: fighters join SIDE.
- ``{round: N, add_factor: {KIND: NAME}}`` or ``{round: N, add_factor: {roll: KIND}}``.
- ``{round: N, remove_factor: {KIND: NAME}}``.

Aftermath (``{days: N, healers: [...], camp: {...}, options: {...}}``, every key optional):

- ``days``: whole number 1..3650, default 7: days the camps run after the battle (day 0 is
  the battle's own).
- ``healers``: camp healers who do not fight, each ``{name, side, role, skill, count,
  supervisor, first_aid}``: ``name``, ``side`` (a side of the scenario) and ``role``
  (``nurse``, ``surgeon``, ``physician``) required; ``skill`` a skill level (default
  ``competent``); ``count`` 0..1000 (default 1; the entry stands for ``NAME 1`` .. ``NAME N``,
  0 for none); ``supervisor`` a healer of the same side (camp healer or healing fighter);
  ``first_aid`` a D6 dice code. A healer's name must not be a fighter's: fighters whose
  ``skills`` name ``nurse``, ``surgeon`` or ``physician`` heal their side by those skills.
- ``camp``: camp options (``sim options camp``).
- ``options``: the rule system's aftermath options (``sim options 2w2p-aftermath`` ...;
  War Game has none).

Campaign (``{side: SIDE, battles: [...], days_between: N, options: {...}}``):

- ``side`` (required): the side whose fighters (its roster in ``sides``) fight every battle.
- ``battles`` (required): 1..100 battles, each a mapping of the scenario keys it changes
  (``rules``, ``frame``, ``battle``, ``max_rounds``, ``templates``, ``factors``, ``sides``,
  ``events``) merged into this file's battle (mappings key by key, anything else replaced;
  ``{}`` is the file's battle as it is), plus ``name``, a label (default ``battle N``). The
  rules system stays the file's, and the company's fighters are not given again (its tactic,
  leader and goals may change).
- ``days_between``: whole number 1..3650, default 7: aftermath days after each battle but
  the last (after the last: ``aftermath.days``, or ``days_between`` without ``aftermath``).
- ``options``: campaign options (``sim options campaign``).

Map (``{picture: |, cell: SIZE, legend: {...}, at: {...}}``, ``picture`` required):

- ``picture``: a ``|`` block, one line per map row (row 0 at the top), one character per cell
  (shorter rows end in open ground). Characters: ``.`` open, ``#`` wall, ``T`` trees,
  ``R`` ruin_wall, ``B`` building_wall (cover), ``^`` cliff, ``~`` quicksand, ``*`` fire,
  ``o`` spiked_pit (hazards), and the digits ``1``-``9``: open ground in the deployment zone of
  the 1st, 2nd, ... side as the file lists them. A space is no character; errors name the file
  line of the row. At most 1000 x 1000 cells.
- ``cell``: the side of one cell, a number and ``ft`` or ``yd`` (``5 ft``, ``10 yd``,
  ``2.5 ft``; a bare number is feet); default ``5 ft``.
- ``legend``: mapping of one character (not a digit 1-9) to ``wall``, ``open``,
  ``{cover: NAME, value: N}`` (a War Game cover; ``value`` 0 or more: its Deathwish points and
  D6 dice, default the battle's ``deathwish_cover`` / ``d6_cover_dice``) or
  ``{hazard: NAME}`` (a War Game hazard); adds to the characters above or overrides them.
- ``at``: mapping of fighter name (after ``count`` expansion; reinforcements too) to its
  starting cell ``[x, y]`` (column and row from 0), on the map and not a wall, a hazard or
  another fighter's cell.

Every side needs room: its fighters without an ``at`` cell (reinforcements included) must
fit in its zone's cells left free by ``at``.

Overrides (``--set PATH=VALUE``, the ``overrides`` argument): PATH is a dotted path into the
document with ``[i]`` list indexes (``rules.options.pool``, ``sides.red.fighters[0].hit_dice``);
VALUE is read as YAML (``10``, ``true``, ``[chain, plate]``, ``{reserve: 2}``; empty is null).
Missing mapping keys on the way are created; the change is made before the document is
checked. Errors in an overridden value are reported against ``<--set>``.

An optional key left empty (null) counts as left out, so takes its default; in a fighter entry
or template only ``shield`` and ``savvy`` may be null (none).

Unknown keys and names (weapons, armors, factors, tactics and their parameters, rule options,
skill levels, sizes, systems, sides, fighters) are errors with the closest known name
suggested, or the known names listed.
"""

from __future__ import annotations

import copy
import math
import os
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

from sim.dice import DiceError, parse_code
from sim.errors import SimError, did_you_mean, unknown
from sim.options import BattleOptions, CampaignOptions, CampOptions, build_options
from sim.rules import SYSTEMS, d6, deathwish, twowp, wargame
from sim.scenario import (
    START_STATUSES,
    AftermathSpec,
    CampaignSpec,
    D6Stats,
    DeathwishStats,
    Event,
    FactorSpec,
    FighterSpec,
    Goal,
    Scenario,
    Side,
    TacticSpec,
)
from sim.scenario.overrides import OVERRIDE_SOURCE, apply_override
from sim.scenario.reader import MAX_BYTES, MB, Issue, ScenarioError, read_yaml
from sim.scenario.reader import fail as _fail
from sim.scenario.reader import join_path as _join
from sim.scenario.reader import quote_name as _name
from sim.scenario.reader import show as _show
from sim.scenario.reader import size_message as _size_message
from sim.space import DEFAULT_LEGEND, FEET_PER_UNIT, Cell, MapSpec, from_picture
from sim.tactics import TACTICS, Tactic, make_tactic

__all__ = [
    "Issue",
    "ScenarioError",
    "apply_override",
    "load_scenario",
    "parse_scenario",
    "read_yaml",
]

MAX_ROUNDS = 10_000
MAX_COUNT = 100_000
"""Largest ``count`` of one entry, and most fighters in one scenario."""
MAX_D6_DICE = 100
MAX_DW_ARMOR = 20
"""Most Deathwish armor points on one location."""

Locate = Callable[[str], "int | None"]


def _unknown_key(key: str, allowed: Iterable[str]) -> str:
    names = list(allowed)
    hint = did_you_mean(key, names) or "; allowed: " + ", ".join(names)
    return f"unknown key {key!r}{hint}"


def _listing(names: Sequence[str], limit: int = 10) -> str:
    shown = ", ".join(repr(n) for n in names[:limit])
    return shown + (f" and {len(names) - limit} more" if len(names) > limit else "")


# --------------------------------------------------------------------------- checking
_BAD = object()  # a field value that failed its check (the error is already recorded)

_SIDE_KEYS = ("leader", "tactic", "goals", "fighters")
_TOP_KEYS = (
    "name",
    "description",
    "rules",
    "frame",
    "battle",
    "max_rounds",
    "seed",
    "templates",
    "factors",
    "sides",
    "events",
    "aftermath",
    "campaign",
    "map",
)
_ENTRY_KEYS = ("name", "template", "count")
_GOAL_KEYS = ("kind", "target", "toughness", "rounds", "wins")
_GOAL_FIELD = {"protect": "target", "destroy": "toughness", "hold": "rounds"}
_EVENT_ACTIONS = ("reinforce", "add_factor", "remove_factor")
_DW_KEYS = ("weapon", "armor", "skill", "traits", "ammo")
_AFTERMATH_KEYS = ("days", "healers", "camp", "options")
_HEALER_KEYS = ("name", "side", "role", "skill", "count", "supervisor", "first_aid")
MAX_HEALERS = 1000
"""Most camp healers one entry stands for (``count``)."""
_CAMPAIGN_KEYS = ("side", "battles", "days_between", "options")
_BATTLE_KEYS = (
    "name",
    "rules",
    "frame",
    "battle",
    "max_rounds",
    "templates",
    "factors",
    "sides",
    "events",
)
MAX_DAYS = 3650
"""Most aftermath days after one battle (and days between two battles of a campaign)."""
MAX_BATTLES = 100
"""Most battles in one campaign."""
_MAP_KEYS = ("cell", "picture", "legend", "at")
_LEGEND_KEYS = ("cover", "hazard", "value")
_LEGEND_WORDS = ("wall", "open")
_CELL = re.compile(r"\s*(\d+(?:\.\d*)?|\.\d+)\s*([^\d\s.]\S*)?\s*")
MAX_MAP_SIDE = 1000
"""Most cells across and down a map."""
MAX_PICTURE_ISSUES = 10
"""Most rows of a map picture reported with unknown characters (the rest are counted)."""
_D6_CODES = ("strength", "dexterity", "attack", "dodge", "parry", "damage", "armor")


def _get(m: Mapping[str, Any], key: str, default: Any) -> Any:
    """``m[key]``, or ``default`` when the key is missing or null."""
    value = m.get(key)
    return default if value is None else value


def _strip(message: str, *prefixes: str) -> str:
    for prefix in prefixes:
        if message.startswith(prefix):
            return message[len(prefix) :]
    return message


class _Checker:
    """Walks a document, collecting an :class:`Issue` for every problem it finds."""

    def __init__(
        self, source: str, locate: Locate, overridden: Sequence[str], default_name: str
    ) -> None:
        self.source = source
        self.locate = locate
        self.overridden = tuple(overridden)
        self.default_name = default_name
        self.issues: list[Issue] = []
        self.templates: dict[str, dict[str, Any]] = {}
        self.names: dict[str, str] = {}  # fighter name -> path of the entry that made it
        self.total = 0
        self.max_rounds = MAX_ROUNDS
        self.unsure: set[str] = set()  # sides with fighter entries that made no fighter
        self.within = ""  # " in campaign.battles[i]" while checking a campaign's battle

    # ----------------------------------------------------------------- reporting
    def error(self, path: str, message: str, below: int = 0) -> None:
        self.issues.append(self.issue_at(path, message, below))

    def issue_at(self, path: str, message: str, below: int = 0) -> Issue:
        """The :class:`Issue` of ``message`` at ``path`` (an override's, if it set the path).

        ``below`` counts lines below the path's own: a row of a ``|`` block such as
        ``map.picture`` (its first row is on the line after the key).
        """
        for o in self.overridden:
            if path == o or path.startswith((o + ".", o + "[")):
                return Issue(OVERRIDE_SOURCE, None, path, message)
        line = self.locate(path)
        return Issue(self.source, None if line is None else line + below, path, message)

    def attempt(
        self, path: str, check: Callable[..., Any], *args: Any, strip: Sequence[str] = ()
    ) -> Any:
        """``check(*args)``, or ``_BAD`` after recording its SimError or DiceError.

        ``strip`` lists prefixes to take off the error message (a path the issue already has).
        """
        try:
            return check(*args)
        except (SimError, DiceError) as err:
            self.error(path, _strip(str(err), *strip))
            return _BAD

    # ----------------------------------------------------------------- plain values
    def mapping(self, value: Any, path: str, what: str = "a mapping") -> dict[str, Any] | None:
        if isinstance(value, dict):
            return value
        self.error(path, f"expected {what}, got {_show(value)}")
        return None

    def keys(self, m: Mapping[str, Any], path: str, allowed: Sequence[str]) -> None:
        for key in m:
            if key not in allowed:
                self.error(_join(path, key), _unknown_key(key, allowed))

    def whole(self, value: Any, path: str, low: int | None, high: int | None) -> Any:
        if isinstance(value, bool) or not isinstance(value, int):
            self.error(path, f"expected a whole number, got {_show(value)}")
            return _BAD
        if low is not None and high is not None and not low <= value <= high:
            self.error(path, f"must be {low}..{high}, got {_show(value)}")
            return _BAD
        if low is not None and value < low:
            self.error(path, f"must be {low} or more, got {_show(value)}")
            return _BAD
        return value

    def flag(self, value: Any, path: str) -> Any:
        if isinstance(value, bool):
            return value
        self.error(path, f"expected true or false, got {_show(value)}")
        return _BAD

    def text(self, value: Any, path: str, empty: bool = True) -> Any:
        if not isinstance(value, str):
            self.error(path, f"expected text, got {_show(value)}")
            return _BAD
        if not empty and not value.strip():
            self.error(path, "must not be empty")
            return _BAD
        return value

    def a_list(self, value: Any, path: str, what: str) -> list[Any] | None:
        if isinstance(value, list):
            return value
        self.error(path, f"expected a list of {what}, got {_show(value)}")
        return None

    # ----------------------------------------------------------------- options
    def options(self, cls: Any, value: Any, path: str, what: str = "option") -> dict[str, Any]:
        """The valid entries of an options mapping checked against ``cls`` one by one."""
        if value is None:
            return {}
        m = self.mapping(value, path, f"a mapping of {what}s")
        if m is None:
            return {}
        known = {f.name: f for f in fields(cls) if not (cls is Tactic and f.name == "name")}
        good: dict[str, Any] = {}
        for key, v in m.items():
            key_path = _join(path, key)
            if cls is Tactic and key == "name":
                self.error(key_path, "the tactic's name is not a parameter; give it as tactic.name")
                continue
            if key not in known:
                self.error(key_path, str(unknown(what, key, known)))
                continue
            default = known[key].default
            if isinstance(default, str) and not isinstance(v, str):
                self.error(key_path, f"expected text, got {_show(v)}")
                continue
            if isinstance(v, float) and not math.isfinite(v):
                self.error(key_path, f"expected a finite number, got {_show(v)}")
                continue
            low, high = known[key].metadata.get("low"), known[key].metadata.get("high")
            number = isinstance(v, (int, float)) and not isinstance(v, bool)
            if number and not isinstance(default, bool) and isinstance(default, (int, float)):
                if low is not None and high is not None and not low <= v <= high:
                    self.error(key_path, f"must be {low:g}..{high:g}, got {v!r}")
                    continue
                if low is not None and v < low:
                    self.error(key_path, f"must be {low:g} or more, got {v!r}")
                    continue
                if high is not None and v > high:
                    self.error(key_path, f"must be {high:g} or less, got {v!r}")
                    continue
            checked = self.attempt(
                key_path,
                build_options,
                cls,
                {key: v},
                path,
                strip=(f"{path}.{key}: ", f"options.{key}: "),
            )
            if checked is not _BAD:
                good[key] = v
        self.attempt(path, build_options, cls, good, path, strip=(f"{path}.",))
        return good

    # ----------------------------------------------------------------- names
    def factor(self, value: Any, path: str, allow_roll: bool) -> FactorSpec | None:
        kinds = (*wargame.FACTOR_KINDS, "roll") if allow_roll else wargame.FACTOR_KINDS
        example = "{cover: trees}" + (" or {roll: hazard}" if allow_roll else "")
        if not isinstance(value, dict) or len(value) != 1:
            got = f"{len(value)} keys" if isinstance(value, dict) else _show(value)
            self.error(path, f"expected a one-key mapping such as {example}, got {got}")
            return None
        ((kind, name),) = value.items()
        key_path = _join(path, kind)
        if kind not in kinds:
            self.error(key_path, _unknown_key(kind, kinds))
            return None
        if self.text(name, key_path) is _BAD:
            return None
        if kind == "roll":
            if name not in wargame.FACTOR_KINDS:
                self.error(key_path, str(unknown("factor kind", name, wargame.FACTOR_KINDS)))
                return None
            return FactorSpec(name, None)
        found = self.attempt(key_path, wargame.factor, kind, name)
        return None if found is _BAD else FactorSpec(kind, found.name)

    # ----------------------------------------------------------------- fighter fields
    def armor(self, value: Any, path: str) -> Any:
        items = [value] if isinstance(value, str) else value
        if not isinstance(items, list):
            self.error(path, f"expected a list of armor names, got {_show(value)}")
            return _BAD
        out: list[str] = []
        for i, item in enumerate(items):
            item_path = f"{path}[{i}]" if isinstance(value, list) else path
            if self.text(item, item_path) is _BAD:
                continue
            name, sep, pieces = item.partition(":")
            spec = self.attempt(item_path, wargame.armor_spec, name.strip())
            if spec is _BAD:
                continue
            if not sep:
                out.append(spec.name)
                continue
            if not pieces.strip().isdigit():
                self.error(item_path, f"expected NAME:PIECES such as piecemeal:3, got {item!r}")
                continue
            n = int(pieces)
            if self.attempt(item_path, wargame.armor_piece, spec.name, n) is _BAD:
                continue
            out.append(f"{spec.name}:{n}")
        return tuple(out)

    def shield(self, value: Any, path: str) -> Any:
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, (str, int)):
            self.error(path, f"expected small, medium, large or 2..4, got {_show(value)}")
            return _BAD
        return value if self.attempt(path, wargame.shield_value, value) is not _BAD else _BAD

    def weapon(self, value: Any, path: str) -> Any:
        if self.text(value, path) is _BAD:
            return _BAD
        found = self.attempt(path, wargame.weapon, value)
        return _BAD if found is _BAD else found.name

    def start_status(self, value: Any, path: str) -> Any:
        if self.text(value, path) is _BAD:
            return _BAD
        if value not in START_STATUSES:
            self.error(path, str(unknown("starting status", value, START_STATUSES)))
            return _BAD
        return value

    def savvy(self, value: Any, path: str) -> Any:
        return None if value is None else self.whole(value, path, 10, 99)

    def skills(self, value: Any, path: str) -> Any:
        m = self.mapping(value, path, "a mapping of skill name to level")
        if m is None:
            return _BAD
        out: dict[str, str] = {}
        for name, level in m.items():
            level_path = _join(path, name)
            if self.text(level, level_path) is _BAD:
                continue
            found = self.attempt(level_path, twowp.parse_skill, level)
            if found is not _BAD:
                out[name] = found.value
        return out

    def deathwish(self, value: Any, path: str) -> Any:
        m = self.mapping(value, path)
        if m is None:
            return _BAD
        self.keys(m, path, _DW_KEYS)
        out: dict[str, Any] = {}
        for key, v in m.items():
            p = _join(path, key)
            if key == "weapon":
                ok = self.text(v, p)
                found = _BAD if ok is _BAD else self.attempt(p, deathwish.find_weapon, v)
                if found is not _BAD:
                    out[key] = found.name
            elif key == "armor":
                if (worn := self.dw_armor(v, p)) is not _BAD:
                    out[key] = worn
            elif key == "skill":
                if (n := self.whole(v, p, 0, 20)) is not _BAD:
                    out[key] = n
            elif key == "traits":
                if (n := self.whole(v, p, -20, 20)) is not _BAD:
                    out[key] = n
            elif key == "ammo":
                ok = self.text(v, p)
                if ok is not _BAD and self.attempt(p, deathwish.ammo_modifiers, v) is not _BAD:
                    out[key] = v
        return out

    def dw_armor(self, value: Any, path: str) -> Any:
        """A Deathwish ``armor``: one value (points or a name) or a mapping by location."""
        if isinstance(value, dict):
            parts: dict[str, int] = {}
            for part, v in value.items():
                p = _join(path, part)
                if part not in deathwish.ARMOR_PARTS:
                    self.error(p, _unknown_key(part, deathwish.ARMOR_PARTS))
                elif (points := self.dw_armor_points(v, p)) is not _BAD:
                    parts[part] = points
            if len(parts) < len(value):
                return _BAD
            return deathwish.armor_by_location(parts)
        if isinstance(value, str):
            return self.attempt(path, deathwish.worn_armor, value)
        if isinstance(value, int) and not isinstance(value, bool):
            points = self.whole(value, path, 0, MAX_DW_ARMOR)
            return _BAD if points is _BAD else deathwish.body_armor(points)
        self.error(
            path,
            f"expected armor points 0..{MAX_DW_ARMOR}, an armor name or a mapping of location "
            f"to armor, got {_show(value)}",
        )
        return _BAD

    def dw_armor_points(self, value: Any, path: str) -> Any:
        """The points of one location's Deathwish armor: a number or an armor name."""
        if isinstance(value, str):
            return self.attempt(path, deathwish.find_armor, value)
        if isinstance(value, int) and not isinstance(value, bool):
            return self.whole(value, path, 0, MAX_DW_ARMOR)
        self.error(
            path, f"expected armor points 0..{MAX_DW_ARMOR} or an armor name, got {_show(value)}"
        )
        return _BAD

    def d6(self, value: Any, path: str) -> Any:
        m = self.mapping(value, path)
        if m is None:
            return _BAD
        self.keys(m, path, (*_D6_CODES, "size"))
        out: dict[str, Any] = {}
        for key, v in m.items():
            p = _join(path, key)
            if key == "size":
                if isinstance(v, bool) or not isinstance(v, (str, int)):
                    self.error(p, f"expected a size name or a size value, got {_show(v)}")
                elif isinstance(v, int):
                    if self.whole(v, p, -100, 100) is not _BAD:
                        out[key] = v
                elif self.attempt(p, d6.size_value, v) is not _BAD:
                    out[key] = v
            elif key in _D6_CODES:
                if not isinstance(v, str):
                    self.error(p, f"expected a dice code such as 3D or 4D+1, got {_show(v)}")
                elif v.strip() == "" and key in ("parry", "damage"):
                    out[key] = ""
                else:
                    code = self.attempt(p, parse_code, v)
                    if code is _BAD:
                        continue
                    if code.dice > MAX_D6_DICE:
                        self.error(p, f"at most {MAX_D6_DICE}D, got {v!r}")
                        continue
                    out[key] = str(code)
        return out

    def _fields(self) -> dict[str, Callable[[Any, str], Any]]:
        return {
            "role": lambda v, p: self.text(v, p),
            "hit_dice": lambda v, p: self.whole(v, p, 1, 100),
            "armor": self.armor,
            "shield": self.shield,
            "weapon": self.weapon,
            "dex_modifier": lambda v, p: self.whole(v, p, -10, 10),
            "savvy": self.savvy,
            "inventory_slots": lambda v, p: self.whole(v, p, 0, 1000),
            "mounted": self.flag,
            "two_handed": self.flag,
            "body": lambda v, p: self.whole(v, p, 1, 20),
            "strength": lambda v, p: self.whole(v, p, 1, 20),
            "dexterity": lambda v, p: self.whole(v, p, 1, 20),
            "athletics": lambda v, p: self.whole(v, p, 0, 20),
            "prime": self.flag,
            "fights": lambda v, p: self.whole(v, p, 0, 1000),
            "skills": self.skills,
            "head_protection": self.flag,
            "resolve": lambda v, p: self.whole(v, p, 0, 100),
            "front": lambda v, p: self.text(v, p, empty=False),
            "deathwish": self.deathwish,
            "d6": self.d6,
            "wounds": lambda v, p: self.whole(v, p, 0, 100),
            "status": self.start_status,
        }

    def fighter_fields(self, m: Mapping[str, Any], path: str, entry: bool) -> dict[str, Any]:
        """The valid FighterSpec fields of a fighter entry or template (nested as dicts)."""
        checks = self._fields()
        allowed = [*_ENTRY_KEYS, *checks] if entry else list(checks)
        out: dict[str, Any] = {}
        for key, value in m.items():
            key_path = _join(path, key)
            if key in _ENTRY_KEYS and not entry:
                self.error(key_path, f"{key} belongs on a fighter entry, not in a template")
                continue
            if key in _ENTRY_KEYS:
                continue
            check = checks.get(key)
            if check is None:
                self.error(key_path, _unknown_key(key, allowed))
                continue
            checked = check(value, key_path)
            if checked is not _BAD:
                out[key] = checked
        return out

    # ----------------------------------------------------------------- fighters
    def templates_(self, value: Any) -> None:
        if value is None:
            return
        m = self.mapping(value, "templates", "a mapping of template name to fighter fields")
        for name, body in (m or {}).items():
            path = _join("templates", name)
            tm = self.mapping(body, path, "a mapping of fighter fields")
            self.templates[name] = self.fighter_fields(tm or {}, path, entry=False)

    def entries(self, value: Any, path: str, side: str) -> list[FighterSpec] | None:
        """Fighters of a ``fighters`` list, counts expanded; None if the list is unusable.

        A ``side`` some of whose entries give no fighter is noted in ``self.unsure``: its
        leader and protect goals cannot be checked against its names.
        """
        items = self.a_list(value, path, "fighter entries")
        if items is None:
            return None
        if not items:
            self.error(path, "needs at least one fighter")
            return None
        out: list[FighterSpec] = []
        for i, item in enumerate(items):
            made = self.entry(item, f"{path}[{i}]")
            if not made:
                self.unsure.add(side)
            out += made
        return out

    def entry(self, item: Any, path: str) -> list[FighterSpec]:
        m = self.mapping(item, path, "a fighter entry (a mapping with at least a name)")
        if m is None:
            return []
        name = m.get("name", _BAD)
        if "name" not in m:
            self.error(_join(path, "name"), "required: every fighter entry needs a name")
        elif self.text(name, _join(path, "name"), empty=False) is _BAD:
            name = _BAD
        base: dict[str, Any] = {}
        if "template" in m:
            tpath = _join(path, "template")
            t = m["template"]
            if self.text(t, tpath) is not _BAD:
                if t in self.templates:
                    base = self.templates[t]
                else:
                    known = did_you_mean(t, self.templates) or (
                        "; known: " + _listing(list(self.templates))
                        if self.templates
                        else "; the file has no templates"
                    )
                    self.error(tpath, f"unknown template {t!r}{known}")
        count = 1
        if "count" in m:
            checked = self.whole(m["count"], _join(path, "count"), 1, MAX_COUNT)
            count = 0 if checked is _BAD else checked
        own = self.fighter_fields(m, path, entry=True)
        if name is _BAD or count == 0:
            return []
        merged = {**base, **own}
        for nested in ("skills", "deathwish", "d6"):
            if nested in base and nested in own:
                merged[nested] = {**base[nested], **own[nested]}
        spec = self.spec(name, merged, path)
        if spec is None:
            return []
        if self.total + count > MAX_COUNT:
            self.error(
                _join(path, "count") if "count" in m else path,
                f"this entry brings the scenario to {self.total + count} fighters; "
                f"the limit is {MAX_COUNT}",
            )
            return []
        self.total += count
        names = [spec.name] if count == 1 else [f"{spec.name} {i}" for i in range(1, count + 1)]
        for n in names:
            if n in self.names:
                self.error(
                    _join(path, "name"),
                    f"fighter name {n!r} is already used by {self.names[n]}",
                )
                return []
        self.names.update(dict.fromkeys(names, path))
        return [spec] if count == 1 else [spec.renamed(n) for n in names]

    def spec(self, name: str, merged: dict[str, Any], path: str) -> FighterSpec | None:
        dw = merged.pop("deathwish", {})
        sixes = merged.pop("d6", {})
        body, strength = merged.get("body", 5), merged.get("strength", 5)
        traits = dw.get("traits", 0)
        tt = self.attempt(path, deathwish.trauma_tolerance, body, strength, traits)
        if tt is _BAD:
            return None
        built = self.attempt(
            path,
            lambda: FighterSpec(
                name=name, deathwish=DeathwishStats(**dw), d6=D6Stats(**sixes), **merged
            ),
        )
        return None if built is _BAD else built

    # ----------------------------------------------------------------- sides
    def tactic(self, value: Any, path: str) -> TacticSpec:
        name: Any = "balanced"
        params: dict[str, Any] = {}
        if isinstance(value, dict):
            self.keys(value, path, ("name", "params"))
            name = _get(value, "name", "balanced")
            params = self.options(
                Tactic, value.get("params"), _join(path, "params"), "tactic parameter"
            )
            name_path = _join(path, "name")
        else:
            name_path = path
            name = value
        if self.text(name, name_path) is _BAD:
            return TacticSpec(params=params)
        if name not in TACTICS:
            self.error(name_path, str(unknown("tactic", name, TACTICS)))
            return TacticSpec(params=params)
        self.attempt(path, make_tactic, name, params, path, strip=(f"{path}.",))
        return TacticSpec(name, params)

    def goals(self, value: Any, path: str, side: str, fighters: Sequence[str]) -> list[Goal]:
        items = self.a_list(value, path, "goals")
        out: list[Goal] = []
        for i, item in enumerate(items or []):
            goal = self.goal(item, f"{path}[{i}]", side, fighters)
            if goal is not None:
                out.append(goal)
        return out

    def goal(self, item: Any, path: str, side: str, fighters: Sequence[str]) -> Goal | None:
        example = "a goal such as {hold: 5} or {protect: NAME}"
        m = self.mapping(item, path, example)
        if m is None:
            return None
        kinds = ("protect", "destroy", "hold", "take_and_hold")
        wins = True
        if "wins" in m:
            checked = self.flag(m["wins"], _join(path, "wins"))
            wins = True if checked is _BAD else checked
        if "kind" in m:  # long form
            self.keys(m, path, _GOAL_KEYS)
            kind_path = _join(path, "kind")
            kind = m["kind"]
            if self.text(kind, kind_path) is _BAD:
                return None
            if kind not in kinds:
                self.error(kind_path, str(unknown("goal kind", kind, kinds)))
                return None
            field = _GOAL_FIELD.get(kind, "rounds")
            for other in ("target", "toughness", "rounds"):
                if other in m and other != field:
                    self.error(_join(path, other), f"not used by a {kind} goal (it takes {field})")
            if field not in m:
                self.error(_join(path, field), f"required: a {kind} goal needs {field}")
                return None
            arg, arg_path = m[field], _join(path, field)
        else:
            given = [k for k in m if k in kinds]
            strays = [k for k in m if k not in kinds and k != "wins"]
            for key in strays:
                self.error(_join(path, key), _unknown_key(key, [*kinds, "wins", "kind"]))
            if strays and not given:
                return None
            if len(given) != 1:
                got = "none" if not given else " and ".join(given)
                self.error(path, f"expected one of {', '.join(kinds)}, got {got}")
                return None
            kind = given[0]
            arg, arg_path = m[kind], _join(path, kind)
        if kind == "protect":
            if self.text(arg, arg_path) is _BAD:
                return None
            if arg not in fighters and side not in self.unsure:
                hint = did_you_mean(arg, fighters) or f"; its fighters: {_listing(fighters)}"
                self.error(arg_path, f"{arg!r} is not a fighter of side {_name(side)}{hint}")
                return None
            return Goal(kind, target=arg, wins=wins)
        if kind == "destroy":
            n = self.whole(arg, arg_path, 1, 1_000_000)
            return None if n is _BAD else Goal(kind, toughness=n, wins=wins)
        n = self.whole(arg, arg_path, 1, self.max_rounds)
        return None if n is _BAD else Goal(kind, rounds=n, wins=wins)

    # ----------------------------------------------------------------- events
    def event(self, item: Any, path: str, sides: Sequence[str]) -> Event | None:
        m = self.mapping(
            item, path, "an event such as {round: 3, reinforce: SIDE, fighters: [...]}"
        )
        if m is None:
            return None
        self.keys(m, path, ("round", *_EVENT_ACTIONS, "fighters"))
        rnd: Any = _BAD
        if "round" not in m:
            self.error(_join(path, "round"), "required: the round the event happens in")
        else:
            rnd = self.whole(m["round"], _join(path, "round"), 1, self.max_rounds)
        actions = [a for a in _EVENT_ACTIONS if a in m]
        if len(actions) != 1:
            got = "none" if not actions else " and ".join(actions)
            self.error(
                path, f"an event takes exactly one of {', '.join(_EVENT_ACTIONS)}, got {got}"
            )
            return None
        kind = actions[0]
        kind_path = _join(path, kind)
        if kind != "reinforce" and "fighters" in m:
            self.error(_join(path, "fighters"), "only a reinforce event has fighters")
        if kind == "reinforce":
            side = m[kind]
            ok = self.text(side, kind_path) is not _BAD
            if ok and side not in sides:
                self.error(kind_path, str(unknown("side", side, sides)))
                ok = False
            fighters: list[FighterSpec] | None = None
            if "fighters" not in m:
                self.error(_join(path, "fighters"), "required: a reinforce event needs fighters")
            else:
                fighters = self.entries(m["fighters"], _join(path, "fighters"), side if ok else "")
            if not ok or fighters is None or rnd is _BAD:
                if ok:
                    self.unsure.add(side)
                return None
            return Event(rnd, kind, side=side, fighters=tuple(fighters))
        factor = self.factor(m[kind], kind_path, allow_roll=kind == "add_factor")
        if factor is None or rnd is _BAD:
            return None
        return Event(rnd, kind, factor=factor)

    # ----------------------------------------------------------------- the document
    def scenario(self, doc: dict[str, Any]) -> Scenario | None:
        self.keys(doc, "", _TOP_KEYS)
        if "sides" not in doc:
            self.error("sides", "required: a scenario needs sides (at least two)")

        name: Any = _get(doc, "name", self.default_name)
        if self.text(name, "name", empty=False) is _BAD:
            name = self.default_name
        description: Any = doc.get("description")
        if description is None:
            description = ""
        if self.text(description, "description") is _BAD:
            description = ""

        if doc.get("max_rounds") is not None:
            rounds = self.whole(doc["max_rounds"], "max_rounds", 1, MAX_ROUNDS)
            self.max_rounds = MAX_ROUNDS if rounds is _BAD else rounds
        else:
            self.max_rounds = 50
        seed = doc.get("seed")
        if seed is not None and self.whole(seed, "seed", 0, None) is _BAD:
            seed = None

        system, options = self.rules(_get(doc, "rules", "wargame"))
        frame: dict[str, Any] = {}
        if doc.get("frame") not in (None, {}):
            if system == "wargame":
                self.error(
                    "frame", "War Game frame options go in rules.options under system wargame"
                )
            else:
                frame = self.options(wargame.Options, doc["frame"], "frame")
        battle = self.options(BattleOptions, doc.get("battle"), "battle")

        self.templates_(doc.get("templates"))
        factors: list[FactorSpec] = []
        raw_factors = doc.get("factors")
        if raw_factors is not None:
            for i, item in enumerate(self.a_list(raw_factors, "factors", "factors") or []):
                spec = self.factor(item, f"factors[{i}]", allow_roll=True)
                if spec is not None:
                    factors.append(spec)

        sides_doc = self.mapping(doc.get("sides", {}), "sides", "a mapping of side name to side")
        side_names = list(sides_doc or {})
        starting: dict[str, list[FighterSpec]] = {}
        side_maps: dict[str, dict[str, Any]] = {}
        for side, body in (sides_doc or {}).items():
            path = _join("sides", side)
            sm = self.mapping(body, path, "a side (a mapping with fighters)")
            if sm is None:
                continue
            side_maps[side] = sm
            self.keys(sm, path, _SIDE_KEYS)
            if "fighters" not in sm:
                self.error(_join(path, "fighters"), "required: a side needs at least one fighter")
                continue
            found = self.entries(sm["fighters"], _join(path, "fighters"), side)
            if found is not None:
                starting[side] = found
        if sides_doc is not None and "sides" in doc and len(side_names) < 2:
            self.error("sides", f"a battle needs at least two sides, got {len(side_names)}")
        if system == "2w2p" and len(side_names) > 2:
            self.error("sides", f"2w2p battles have exactly two sides, got {len(side_names)}")

        events: list[Event] = []
        raw_events = doc.get("events")
        if raw_events is not None:
            for i, item in enumerate(self.a_list(raw_events, "events", "events") or []):
                event = self.event(item, f"events[{i}]", side_names)
                if event is not None:
                    events.append(event)

        sides: list[Side] = []
        for side, sm in side_maps.items():
            path = _join("sides", side)
            names = [f.name for f in starting.get(side, [])]
            leader = sm.get("leader")
            if leader is not None:
                if self.text(leader, _join(path, "leader")) is _BAD:
                    leader = None
                elif leader not in names and side in starting and side not in self.unsure:
                    hint = did_you_mean(leader, names) or f"; its fighters: {_listing(names)}"
                    self.error(
                        _join(path, "leader"),
                        f"{leader!r} is not a starting fighter of side {_name(side)}{hint}",
                    )
                    leader = None
            tactic = self.tactic(_get(sm, "tactic", "balanced"), _join(path, "tactic"))
            arrivals = [
                f.name
                for e in events
                if e.kind == "reinforce" and e.side == side
                for f in e.fighters
            ]
            goals: list[Goal] = []
            if sm.get("goals") is not None:
                goals = self.goals(sm["goals"], _join(path, "goals"), side, names + arrivals)
            if side in starting:
                sides.append(Side(side, tuple(starting[side]), leader, tactic, tuple(goals)))

        after = None
        if doc.get("aftermath") is not None:
            after = self.aftermath_(doc["aftermath"], system, side_names, starting)
        campaign = None
        if doc.get("campaign") is not None:
            campaign = self.campaign_(doc, system, side_names, starting)
        battle_map = None
        if doc.get("map") is not None:
            battle_map = self.map_(doc["map"], side_names, starting, events)

        if self.issues:
            return None
        built = self.attempt(
            "",
            lambda: Scenario(
                sides=tuple(sides),
                name=name,
                description=description.strip(),
                rules=system,
                options=options,
                frame=frame,
                battle=battle,
                max_rounds=self.max_rounds,
                factors=tuple(factors),
                events=tuple(events),
                seed=seed,
                aftermath=after,
                campaign=campaign,
                map=battle_map,
            ),
        )
        return None if built is _BAD else built

    # ----------------------------------------------------------------- aftermath, campaign
    def aftermath_(
        self,
        value: Any,
        system: str,
        side_names: Sequence[str],
        starting: Mapping[str, Sequence[FighterSpec]],
    ) -> AftermathSpec | None:
        """The ``aftermath`` key: days, camp healers, camp options, the system's options."""
        from sim.aftermath import Healer, healers_from_fighters, students_of

        m = self.mapping(value, "aftermath", "a mapping with days, healers, camp and options")
        if m is None:
            return None
        self.keys(m, "aftermath", _AFTERMATH_KEYS)
        days = self.whole(_get(m, "days", 7), "aftermath.days", 1, MAX_DAYS)
        camp = self.options(CampOptions, m.get("camp"), "aftermath.camp", "camp option")
        module = {"2w2p": twowp, "deathwish": deathwish, "d6": d6}.get(system)
        options: dict[str, Any] = {}
        if module is not None:
            options = self.options(
                module.AftermathOptions, m.get("options"), "aftermath.options", "aftermath option"
            )
        elif m.get("options") not in (None, {}):
            self.error(
                "aftermath.options",
                f"the {system} system has no aftermath options (camp options go in aftermath.camp)",
            )
        fighters = {n: {f.name for f in fs} for n, fs in starting.items()}
        every = {n for names in fighters.values() for n in names}
        healers: list[Healer] = []
        bad = False
        raw = m.get("healers")
        items = [] if raw is None else self.a_list(raw, "aftermath.healers", "healers")
        for i, item in enumerate(items or []):
            path = f"aftermath.healers[{i}]"
            made = self.healer(item, path, side_names, every, healers)
            bad = bad or made is None
            healers += made or []
        if items is None or bad or days is _BAD:
            return None
        entry_of: dict[tuple[str, str], int] = {}
        for i, item in enumerate(items):
            base = item["name"]
            n = _get(item, "count", 1)
            for made_name in [base] if n == 1 else [f"{base} {k}" for k in range(1, n + 1)]:
                entry_of[made_name, item["side"]] = i
        for side in side_names:  # supervisors and their students, side by side
            own = healers_from_fighters(_SpecFighter(f, side) for f in starting.get(side, ())) + [
                h for h in healers if h.side == side
            ]
            names = [h.name for h in own]
            for h in healers:
                if h.side == side and h.supervisor is not None and h.supervisor not in names:
                    path = f"aftermath.healers[{entry_of[h.name, side]}].supervisor"
                    others = [n for n in names if n != h.name]
                    hint = did_you_mean(h.supervisor, others) or (
                        f"; the healers of side {_name(side)}: {_listing(others)}"
                        if others
                        else f"; side {_name(side)} has no other healer"
                    )
                    self.error(path, f"{h.supervisor!r} is not a healer of side {side}{hint}")
                    bad = True
            if not bad:
                self.attempt("aftermath.healers", students_of, own)
        return AftermathSpec(days, tuple(healers), camp, options) if not bad else None

    def healer(
        self,
        item: Any,
        path: str,
        side_names: Sequence[str],
        fighter_names: set[str],
        earlier: Sequence[Any],
    ) -> list[Any] | None:
        """The camp healers of one entry (``count`` of them), or None."""
        from sim.aftermath import Healer

        example = "a healer such as {name: Mara, side: red, role: surgeon, skill: experienced}"
        hm = self.mapping(item, path, example)
        if hm is None:
            return None
        self.keys(hm, path, _HEALER_KEYS)
        ok = True
        for key in ("name", "side", "role"):
            if hm.get(key) is None:
                self.error(_join(path, key), f"required: a healer needs a {key}")
                ok = False
        name, side, role = hm.get("name"), hm.get("side"), hm.get("role")
        if name is not None and self.text(name, _join(path, "name"), empty=False) is _BAD:
            ok = False
        elif name in fighter_names:
            self.error(
                _join(path, "name"),
                f"{name!r} is a fighter; a fighter heals by its skills "
                "(skills: {surgeon: experienced}), a camp healer needs a name of its own",
            )
            ok = False
        elif any(h.name == name and h.side == side for h in earlier):
            self.error(_join(path, "name"), f"healer name {name!r} is already used on its side")
            ok = False
        if side is not None and self.text(side, _join(path, "side")) is not _BAD:
            if side not in side_names:
                self.error(_join(path, "side"), str(unknown("side", side, side_names)))
                ok = False
        elif side is not None:
            ok = False
        if role is not None:
            if self.text(role, _join(path, "role")) is _BAD:
                ok = False
            elif role not in twowp.ROLES:
                self.error(_join(path, "role"), str(unknown("healer role", role, twowp.ROLES)))
                ok = False
        skill: Any = _get(hm, "skill", "competent")
        if self.text(skill, _join(path, "skill")) is _BAD:
            ok = False
        elif self.attempt(_join(path, "skill"), twowp.parse_skill, skill) is _BAD:
            ok = False
        supervisor = hm.get("supervisor")
        if supervisor is not None and self.text(supervisor, _join(path, "supervisor")) is _BAD:
            ok = False
        first_aid: Any = _get(hm, "first_aid", "")
        if self.text(first_aid, _join(path, "first_aid")) is _BAD:
            ok = False
        elif first_aid and self.attempt(_join(path, "first_aid"), parse_code, first_aid) is _BAD:
            ok = False
        count: Any = _get(hm, "count", 1)
        if self.whole(count, _join(path, "count"), 0, MAX_HEALERS) is _BAD:
            ok = False
        if not ok:
            return None
        names = [name] if count == 1 else [f"{name} {k}" for k in range(1, count + 1)]
        for n in names if count != 1 else ():
            if n in fighter_names or any(h.name == n and h.side == side for h in earlier):
                self.error(_join(path, "name"), f"healer name {n!r} is already used")
                return None
        role_, side_ = str(role), str(side)
        made = [
            self.attempt(
                path, lambda n=n: Healer(n, role_, skill, supervisor, str(first_aid), side=side_)
            )
            for n in names
        ]
        return None if any(h is _BAD for h in made) else made

    def campaign_(
        self,
        doc: Mapping[str, Any],
        system: str,
        side_names: Sequence[str],
        starting: Mapping[str, Sequence[FighterSpec]],
    ) -> CampaignSpec | None:
        """The ``campaign`` key: the company's side, its battles (patches of this file)."""
        m = self.mapping(
            doc["campaign"], "campaign", "a mapping with side, battles and days_between"
        )
        if m is None:
            return None
        self.keys(m, "campaign", _CAMPAIGN_KEYS)
        side: Any = m.get("side")
        if side is None:
            self.error("campaign.side", "required: the side whose company fights every battle")
        elif self.text(side, "campaign.side") is _BAD:
            side = None
        elif side not in side_names:
            self.error("campaign.side", str(unknown("side", side, side_names)))
            side = None
        elif side in self.unsure or not starting.get(side):
            side = None
        days = self.whole(_get(m, "days_between", 7), "campaign.days_between", 1, MAX_DAYS)
        options = self.options(
            CampaignOptions, m.get("options"), "campaign.options", "campaign option"
        )
        items: list[Any] | None = None
        if m.get("battles") is None:
            self.error("campaign.battles", "required: a list of battles, e.g. [{}, {}, {}]")
        else:
            items = self.a_list(m["battles"], "campaign.battles", "battles")
            if items is not None and not 1 <= len(items) <= MAX_BATTLES:
                self.error(
                    "campaign.battles", f"expected 1..{MAX_BATTLES} battles, got {len(items)}"
                )
                items = None
        base = {k: v for k, v in doc.items() if k not in ("aftermath", "campaign")}
        battles: list[Scenario] = []
        names: list[str] = []
        for i, entry in enumerate(items or []):
            path = f"campaign.battles[{i}]"
            em = {} if entry is None else self.mapping(entry, path, _BATTLE_EXAMPLE)
            if em is None:
                continue
            self.keys(em, path, _BATTLE_KEYS)
            label: Any = _get(em, "name", f"battle {i + 1}")
            if self.text(label, _join(path, "name"), empty=False) is _BAD:
                label = f"battle {i + 1}"
            patch = {k: v for k, v in em.items() if k in _BATTLE_KEYS and k != "name"}
            sides_patch = patch.get("sides")
            if side is not None and isinstance(sides_patch, dict):
                mine = sides_patch.get(side)
                if isinstance(mine, dict) and "fighters" in mine:
                    self.error(
                        _join(_join(_join(path, "sides"), side), "fighters"),
                        "the company's fighters carry on from battle to battle: give them "
                        "once, in the scenario's sides",
                    )
                    continue
            merged = copy.deepcopy(base)
            patched: set[str] = set()
            _merge(merged, patch, "", patched)
            sub = _BattleChecker(self, path, patched)
            sc = sub.scenario(merged)
            for issue in sub.issues:
                if issue not in self.issues:
                    self.issues.append(issue)
            if sc is None:
                continue
            if sc.rules != system:
                self.error(
                    _join(path, "rules"),
                    f"a campaign keeps one rules system ({system}); this battle is {sc.rules}",
                )
                continue
            battles.append(sc)
            names.append(label)
        if side is None or days is _BAD or items is None or len(battles) != len(items):
            return None
        built = self.attempt(
            "campaign", lambda: CampaignSpec(side, tuple(battles), days, tuple(names), options)
        )
        return None if built is _BAD else built

    # ----------------------------------------------------------------- map
    def map_(
        self,
        value: Any,
        side_names: Sequence[str],
        starting: Mapping[str, Sequence[FighterSpec]],
        events: Sequence[Event],
    ) -> MapSpec | None:
        """The ``map`` key: the battlefield drawn as text, its legend and starting cells."""
        m = self.mapping(value, "map", "a mapping with picture, cell, legend and at")
        if m is None:
            return None
        before = len(self.issues)
        self.keys(m, "map", _MAP_KEYS)
        size, unit = self.cell_size(_get(m, "cell", "5 ft"), "map.cell")
        legend, chars, legend_ok = self.legend(m.get("legend"))
        rows = self.picture(m.get("picture"), side_names, chars)
        fighters = {side: [f.name for f in fs] for side, fs in starting.items()}
        for e in events:
            if e.kind == "reinforce" and e.side in fighters:
                fighters[e.side] += [f.name for f in e.fighters]
        at = self.at_cells(m.get("at"), fighters)
        if rows is None or not legend_ok:
            return None
        built = self.attempt(
            "map.picture",
            lambda: from_picture(
                rows, side_names, cell_size=5.0 if size is _BAD else size, unit=unit, legend=legend
            ),
        )
        if built is _BAD:
            return None
        cells: dict[str, Cell] = {}
        owner: dict[Cell, str] = {}
        for name, c in (at or {}).items():
            path = _join("map.at", name)
            if c is _BAD:
                continue
            where = f"[{c[0]}, {c[1]}]"
            if not built.inside(c):
                w, h = built.width, built.height
                self.error(
                    path, f"cell {where} is off the {w} x {h} map (x 0..{w - 1}, y 0..{h - 1})"
                )
            elif c in built.walls():
                self.error(path, f"cannot start on {where}: it is a wall")
            elif built.hazard(c):
                self.error(path, f"cannot start on {where}: it is a hazard ({built.hazard(c)})")
            elif c in owner:
                self.error(path, f"cell {where} is taken by {owner[c]!r}")
            else:
                cells[name], owner[c] = c, name
        for i, side in enumerate(side_names):
            if at is None or side not in fighters or side in self.unsure:
                continue
            loose = [n for n in fighters[side] if n not in at]
            zone = built.zones.get(side, ())
            taken = sum(c in owner for c in zone)
            if len(loose) <= len(zone) - taken:
                continue
            many = f"{len(loose)} fighter{'s' if len(loose) != 1 else ''}"
            head = f"side {side!r} has {many}{self.within} without an 'at:' cell but"
            if i >= 9:
                self.error("map.picture", f"{head} only the first 9 sides have a zone digit")
            elif not zone:
                self.error("map.picture", f"{head} the picture has no zone for it (digit {i + 1})")
            else:
                room = f"{len(zone)} cell{'s' if len(zone) != 1 else ''}"
                free = f" ({taken} taken by 'at:')" if taken else ""
                self.error("map.picture", f"{head} its zone (digit {i + 1}) has {room}{free}")
        if len(self.issues) > before:
            return None
        placed = self.attempt("map.at", lambda: replace(built, at=cells))
        return None if placed is _BAD else placed

    def cell_size(self, value: Any, path: str) -> tuple[Any, str]:
        """A map cell's ``(size, unit)`` from ``5 ft``, ``10 yd``, ``2.5`` (feet)."""
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            number, unit = float(value), "ft"
        elif isinstance(value, str) and (found := _CELL.fullmatch(value)):
            number, unit = float(found.group(1)), found.group(2) or "ft"
        else:
            self.error(path, f"expected a cell size such as 5 ft or 10 yd, got {_show(value)}")
            return _BAD, "ft"
        if unit not in FEET_PER_UNIT:
            self.error(path, str(unknown("unit", unit, FEET_PER_UNIT)))
            return _BAD, "ft"
        if not math.isfinite(number) or number <= 0:
            self.error(path, f"must be above 0, got {_show(value)}")
            return _BAD, "ft"
        return number, unit

    def legend(self, value: Any) -> tuple[dict[str, tuple[str, str, int | None]], list[str], bool]:
        """The legend's good entries, its characters (bad entries too), whether all are good."""
        good: dict[str, tuple[str, str, int | None]] = {}
        chars: list[str] = []
        if value is None:
            return good, chars, True
        m = self.mapping(value, "map.legend", "a mapping of map character to terrain")
        if m is None:
            return good, chars, False
        ok = True
        for char, entry in m.items():
            path = _join("map.legend", char)
            if len(char) != 1 or char.isspace() or not char.isprintable():
                self.error(path, f"a map character is one visible character, got {char!r}")
                ok = False
            elif char in "123456789":
                self.error(path, "digits 1-9 mark the sides' deployment zones")
                ok = False
            else:
                chars.append(char)
                made = self.legend_entry(entry, path)
                if made is None:
                    ok = False
                else:
                    good[char] = made
        return good, chars, ok

    def legend_entry(self, value: Any, path: str) -> tuple[str, str, int | None] | None:
        """``(kind, name, value)`` of one legend entry: wall, open, {cover: ...}, {hazard: ...}."""
        if isinstance(value, str) and value in _LEGEND_WORDS:
            return value, "", None
        if not isinstance(value, dict):
            hint = ""
            if isinstance(value, str):
                hint = did_you_mean(value, _LEGEND_WORDS)
                for kind in ("cover", "hazard"):
                    try:
                        hint = f"; write {{{kind}: {wargame.factor(kind, value).name}}}"
                    except SimError:
                        continue
            self.error(
                path,
                f"expected wall, open, {{cover: NAME}} or {{hazard: NAME}}, "
                f"got {_show(value)}{hint}",
            )
            return None
        self.keys(value, path, _LEGEND_KEYS)
        kinds = [k for k in ("cover", "hazard") if k in value]
        if len(kinds) != 1:
            if kinds or all(k in _LEGEND_KEYS for k in value):
                got = "none" if not kinds else "both"
                self.error(path, f"expected one of cover or hazard, got {got}")
            return None
        kind = kinds[0]
        kind_path = _join(path, kind)
        found: Any = _BAD
        if self.text(value[kind], kind_path) is not _BAD:
            found = self.attempt(kind_path, wargame.factor, kind, value[kind])
        amount: Any = None
        if value.get("value") is not None:
            if kind != "cover":
                self.error(_join(path, "value"), "only a cover has a value")
                return None
            amount = self.whole(value["value"], _join(path, "value"), 0, None)
        if found is _BAD or amount is _BAD:
            return None
        return kind, found.name, amount

    def picture(self, value: Any, sides: Sequence[str], chars: Sequence[str]) -> list[str] | None:
        """The map picture's rows; every unknown character reported at its row's line."""
        path = "map.picture"
        if value is None:
            self.error(path, "required: the map drawn as text, one line per row (picture: |)")
            return None
        if self.text(value, path, empty=False) is _BAD:
            return None
        rows = value.split("\n")
        if rows[-1] == "":
            rows.pop()
        width, height = max(len(r) for r in rows), len(rows)
        if width > MAX_MAP_SIDE or height > MAX_MAP_SIDE:
            self.error(
                path,
                f"a map is at most {MAX_MAP_SIDE} x {MAX_MAP_SIDE} cells, got {width} x {height}",
            )
            return None
        known = {*DEFAULT_LEGEND, *chars}
        zones = "123456789"[: len(sides)]
        listed = ", ".join(repr(c) for c in dict.fromkeys([*DEFAULT_LEGEND, *chars]))
        if zones:
            listed += f" and the zone digits {zones[0]}-{zones[-1]}" if zones[1:] else " and 1"
        bad_rows: list[int] = []
        for y, row in enumerate(rows, 1):
            strays: dict[str, int] = {}
            for x, ch in enumerate(row, 1):
                if ch not in known and ch not in zones:
                    strays.setdefault(ch, x)
            if strays:
                bad_rows.append(y)
            if not strays or len(bad_rows) > MAX_PICTURE_ISSUES:
                continue
            for ch, x in strays.items():
                if ch in "123456789":
                    problem = f"zone {ch} but there are {len(sides)} sides"
                else:
                    problem = f"unknown map character {ch!r}; known: {listed}"
                self.error(path, f"row {y}, column {x}: {problem}", below=y)
        if len(bad_rows) > MAX_PICTURE_ISSUES:
            y = bad_rows[MAX_PICTURE_ISSUES]
            extra = len(bad_rows) - MAX_PICTURE_ISSUES
            self.error(
                path, f"row {y}: {extra} more rows have characters the map does not know", below=y
            )
        return None if bad_rows else rows

    def at_cells(self, value: Any, fighters: Mapping[str, Sequence[str]]) -> dict[str, Any] | None:
        """``map.at``: each fighter named and its cell (``_BAD`` if not one); None if unusable."""
        if value is None:
            return {}
        m = self.mapping(value, "map.at", "a mapping of fighter name to a cell [x, y]")
        if m is None:
            return None
        every = [n for names in fighters.values() for n in names]
        known = set(every)
        out: dict[str, Any] = {}
        for name, cell in m.items():
            path = _join("map.at", name)
            if name not in known and not self.unsure:
                hint = did_you_mean(name, every) or f"; the fighters: {_listing(every)}"
                self.error(path, f"{name!r} is not a fighter{self.within}{hint}")
                continue
            items = cell if isinstance(cell, list) else []
            if [isinstance(v, int) and not isinstance(v, bool) for v in items] != [True, True]:
                self.error(
                    path,
                    f"expected a cell [x, y]: column and row, whole numbers from 0, "
                    f"got {_show(cell)}",
                )
                out[name] = _BAD
                continue
            out[name] = (cell[0], cell[1])
        return out

    def rules(self, value: Any) -> tuple[str, dict[str, Any]]:
        system: Any = value
        system_path = "rules"
        raw_options: Any = None
        if isinstance(value, dict):
            self.keys(value, "rules", ("system", "options"))
            system = _get(value, "system", "wargame")
            system_path = "rules.system"
            raw_options = value.get("options")
        if not isinstance(system, str):
            self.error(
                system_path, f"expected a system name ({', '.join(SYSTEMS)}), got {_show(system)}"
            )
            return "wargame", {}
        if system not in SYSTEMS:
            self.error(system_path, str(unknown("rules system", system, SYSTEMS)))
            return system, {}
        options = self.options(SYSTEMS[system].Options, raw_options, "rules.options")
        return system, options


_BATTLE_EXAMPLE = "a battle: a mapping of the scenario keys it changes, such as {max_rounds: 20}"


class _SpecFighter:
    """A fighter spec seen as ``sim.aftermath.healers_from_fighters`` reads a fighter."""

    def __init__(self, spec: FighterSpec, side: str) -> None:
        self.spec, self.name, self.side = spec, spec.name, side


class _BattleChecker(_Checker):
    """Checks one campaign battle: the scenario document with the battle's entry merged in.

    An issue at a path the entry set is reported at ``campaign.battles[i].PATH`` (its line
    in the entry); an issue elsewhere is the scenario's own, reported once.
    """

    def __init__(self, parent: _Checker, prefix: str, patched: set[str]) -> None:
        super().__init__(parent.source, parent.locate, (), parent.default_name)
        self.parent, self.prefix, self.patched = parent, prefix, patched
        self.within = f" in {prefix}"

    def error(self, path: str, message: str, below: int = 0) -> None:
        if any(path == p or path.startswith((p + ".", p + "[")) for p in self.patched):
            path = f"{self.prefix}.{path}" if path else self.prefix
        self.issues.append(self.parent.issue_at(path, message, below))


def _merge(base: dict[str, Any], patch: Mapping[str, Any], path: str, patched: set[str]) -> None:
    """Merge ``patch`` into ``base`` in place: mappings key by key, anything else replaced.

    ``patched`` collects the paths the patch set. A ``rules: NAME`` short form in ``base``
    becomes ``{system: NAME}`` so a patch can give ``rules: {options: ...}``.
    """
    for key, value in patch.items():
        here = _join(path, key)
        old = base.get(key)
        if not path and key == "rules" and isinstance(old, str) and isinstance(value, dict):
            old = base[key] = {"system": old}
        if isinstance(value, dict) and isinstance(old, dict):
            _merge(old, value, here, patched)
        else:
            base[key] = copy.deepcopy(value)
            patched.add(here)


def _sorted(issues: Iterable[Issue]) -> list[Issue]:
    return sorted(issues, key=lambda i: (i.line is not None, i.line or 0))


def parse_scenario(text: str, source: str = "<string>", overrides: Sequence[str] = ()) -> Scenario:
    """The :class:`Scenario` a YAML text describes, after ``--set`` overrides.

    Raises:
        ScenarioError: every problem found, one :class:`Issue` each.
    """
    doc, locate = read_yaml(text, source)
    if doc is None:
        raise _fail(source, "the file is empty; expected a mapping with at least sides")
    if not isinstance(doc, dict):
        raise _fail(
            source,
            f"expected a mapping of keys (name, rules, sides, ...) at the top level, "
            f"got {_show(doc)}",
            locate(""),
        )
    issues: list[Issue] = []
    overridden: list[str] = []
    for override in overrides:
        try:
            overridden.append(apply_override(doc, override))
        except ScenarioError as err:
            issues += err.issues
    default_name = "battle" if source.startswith("<") else (Path(source).stem or "battle")
    checker = _Checker(source, locate, overridden, default_name)
    scenario = checker.scenario(doc)
    issues += checker.issues
    if issues or scenario is None:
        raise ScenarioError(_sorted(issues) or [Issue(source, None, "", "not a valid scenario")])
    return scenario


def load_scenario(path: str | os.PathLike[str], overrides: Sequence[str] = ()) -> Scenario:
    """Read and check the scenario file at ``path`` (see the module docstring for the format).

    Raises:
        ScenarioError: a missing or unreadable file, a file over 5 MB (checked before it is
            read), or every problem in its contents.
    """
    source = os.fspath(path)
    try:
        size = os.stat(source).st_size
        if size > MAX_BYTES:
            raise _fail(source, _size_message(size))
        with open(source, "rb") as handle:
            data = handle.read(MAX_BYTES + 1)
    except FileNotFoundError:
        raise _fail(source, "file not found") from None
    except IsADirectoryError:
        raise _fail(source, "is a directory, not a file") from None
    except OSError as err:
        raise _fail(source, f"cannot read: {err.strerror or err}") from None
    if len(data) > MAX_BYTES:
        raise _fail(source, f"file is over the limit of {MAX_BYTES // MB} MB")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line = data[: err.start].count(b"\n") + 1
        raise _fail(source, f"not UTF-8 text (byte {err.start})", line) from None
    return parse_scenario(text, source, overrides)
