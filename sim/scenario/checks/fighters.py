"""Checks of fighters: templates, fighter entries and every field of a stat block."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from sim.dice import parse_code
from sim.errors import did_you_mean, unknown
from sim.rules import d6, deathwish, twowp, wargame
from sim.scenario.checks.base import BAD, Checks, listing, unknown_key
from sim.scenario.model import ROLLED_GEAR, START_STATUSES, D6Stats, DeathwishStats, FighterSpec
from sim.scenario.reader import join_path, show

MAX_COUNT = 100_000
"""Largest ``count`` of one entry, and most fighters in one scenario."""
MAX_D6_DICE = 100
MAX_DW_ARMOR = 20
"""Most Deathwish armor points on one location."""

_ENTRY_KEYS = ("name", "template", "count")
ROLL = object()
"""What a gear check returns for ``{roll: DIE}``: the gear is rolled when the fighter joins."""
_DW_KEYS = ("weapon", "armor", "skill", "traits", "ammo")
_D6_CODES = (
    "strength",
    "dexterity",
    "attack",
    "dodge",
    "parry",
    "damage",
    "armor",
    "ride",
    "poison",
    "resist",
    "religion",
)
_D6_MAY_BE_EMPTY = ("parry", "damage", "ride", "poison", "resist", "religion")
MAX_D6_RANGE_FT = 3000
"""Longest D6 weapon range in feet."""
MAX_D6_AREA = 100
"""Most enemies one D6 area attack catches."""
_D6_KEYS = (*_D6_CODES, "size", "range", "area")


class FighterChecks(Checks):
    """Templates and fighter entries (a side's fighters, a reinforce event's)."""

    def rolled(self, value: dict[str, Any], path: str, gear: str) -> Any:
        """``{roll: DIE}`` for War Game ``gear``: DIE must be its table's die (d12, d6)."""
        die = ROLLED_GEAR[gear]
        if len(value) != 1:
            self.error(path, f"expected {{roll: {die}}}, got {len(value)} keys")
            return BAD
        ((key, v),) = value.items()
        if key != "roll":
            self.error(join_path(path, key), unknown_key(key, ["roll"]))
            return BAD
        if v != die:
            self.error(
                join_path(path, key), f"the {gear} table is rolled on a {die}, got {show(v)}"
            )
            return BAD
        return ROLL

    def armor(self, value: Any, path: str) -> Any:
        """War Game ``armor``: armor names (one may stand alone), piecemeal as ``NAME:PIECES``.

        ``{roll: d6}``: one armor rolled on the d6 table when the fighter joins a battle.
        """
        if isinstance(value, dict):
            return self.rolled(value, path, "armor")
        items = [value] if isinstance(value, str) else value
        if not isinstance(items, list):
            self.error(path, f"expected a list of armor names, got {show(value)}")
            return BAD
        out: list[str] = []
        for i, item in enumerate(items):
            item_path = f"{path}[{i}]" if isinstance(value, list) else path
            if self.text(item, item_path) is BAD:
                continue
            name, sep, pieces = item.partition(":")
            spec = self.attempt(item_path, wargame.armor_spec, name.strip())
            if spec is BAD:
                continue
            if not sep:
                out.append(spec.name)
                continue
            if not pieces.strip().isdigit():
                self.error(item_path, f"expected NAME:PIECES such as piecemeal:3, got {item!r}")
                continue
            n = int(pieces)
            if self.attempt(item_path, wargame.armor_piece, spec.name, n) is BAD:
                continue
            out.append(f"{spec.name}:{n}")
        return tuple(out)

    def shield(self, value: Any, path: str) -> Any:
        """``shield``: small, medium, large (or an alias), an armor value 2..4, or null."""
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, (str, int)):
            self.error(path, f"expected small, medium, large or 2..4, got {show(value)}")
            return BAD
        return value if self.attempt(path, wargame.shield_value, value) is not BAD else BAD

    def weapon(self, value: Any, path: str) -> Any:
        """``weapon``: a War Game d12 weapon category or ``plain``, as the table spells it.

        ``{roll: d12}``: a category rolled on the d12 table when the fighter joins a battle.
        """
        if isinstance(value, dict):
            return self.rolled(value, path, "weapon")
        if self.text(value, path) is BAD:
            return BAD
        found = self.attempt(path, wargame.weapon, value)
        return BAD if found is BAD else found.name

    def start_status(self, value: Any, path: str) -> Any:
        """``status``: what the fighter is when the battle starts."""
        if self.text(value, path) is BAD:
            return BAD
        if value not in START_STATUSES:
            self.error(path, str(unknown("starting status", value, START_STATUSES)))
            return BAD
        return value

    def savvy(self, value: Any, path: str) -> Any:
        """``savvy``: a two-digit score, or null."""
        return None if value is None else self.whole(value, path, 10, 99)

    def skills(self, value: Any, path: str) -> Any:
        """2W2P ``skills``: skill name to level, levels as the rules spell them."""
        m = self.mapping(value, path, "a mapping of skill name to level")
        if m is None:
            return BAD
        out: dict[str, str] = {}
        for name, level in m.items():
            level_path = join_path(path, name)
            if self.text(level, level_path) is BAD:
                continue
            found = self.attempt(level_path, twowp.parse_skill, level)
            if found is not BAD:
                out[name] = found.value
        return out

    def deathwish(self, value: Any, path: str) -> Any:
        """The ``deathwish`` block: weapon, armor, skill, traits, ammo."""
        m = self.mapping(value, path)
        if m is None:
            return BAD
        self.keys(m, path, _DW_KEYS)
        out: dict[str, Any] = {}
        for key, v in m.items():
            p = join_path(path, key)
            if key == "weapon":
                ok = self.text(v, p)
                found = BAD if ok is BAD else self.attempt(p, deathwish.find_weapon, v)
                if found is not BAD:
                    out[key] = found.name
            elif key == "armor":
                if (worn := self.dw_armor(v, p)) is not BAD:
                    out[key] = worn
            elif key == "skill":
                if (n := self.whole(v, p, 0, 20)) is not BAD:
                    out[key] = n
            elif key == "traits":
                if (n := self.whole(v, p, -20, 20)) is not BAD:
                    out[key] = n
            elif key == "ammo":
                ok = self.text(v, p)
                if ok is not BAD and self.attempt(p, deathwish.ammo_modifiers, v) is not BAD:
                    out[key] = v
        return out

    def dw_armor(self, value: Any, path: str) -> Any:
        """A Deathwish ``armor``: one value (points or a name) or a mapping by location."""
        if isinstance(value, dict):
            parts: dict[str, int] = {}
            for part, v in value.items():
                p = join_path(path, part)
                if part not in deathwish.ARMOR_PARTS:
                    self.error(p, unknown_key(part, deathwish.ARMOR_PARTS))
                elif (points := self.dw_armor_points(v, p)) is not BAD:
                    parts[part] = points
            if len(parts) < len(value):
                return BAD
            return deathwish.armor_by_location(parts)
        if isinstance(value, str):
            return self.attempt(path, deathwish.worn_armor, value)
        if isinstance(value, int) and not isinstance(value, bool):
            points = self.whole(value, path, 0, MAX_DW_ARMOR)
            return BAD if points is BAD else deathwish.body_armor(points)
        self.error(
            path,
            f"expected armor points 0..{MAX_DW_ARMOR}, an armor name or a mapping of location "
            f"to armor, got {show(value)}",
        )
        return BAD

    def dw_armor_points(self, value: Any, path: str) -> Any:
        """The points of one location's Deathwish armor: a number or an armor name."""
        if isinstance(value, str):
            return self.attempt(path, deathwish.find_armor, value)
        if isinstance(value, int) and not isinstance(value, bool):
            return self.whole(value, path, 0, MAX_DW_ARMOR)
        self.error(
            path, f"expected armor points 0..{MAX_DW_ARMOR} or an armor name, got {show(value)}"
        )
        return BAD

    def d6(self, value: Any, path: str) -> Any:
        """The ``d6`` block: dice codes (at most 100D), a size, a range and an area."""
        m = self.mapping(value, path)
        if m is None:
            return BAD
        self.keys(m, path, _D6_KEYS)
        out: dict[str, Any] = {}
        for key, v in m.items():
            p = join_path(path, key)
            if key == "size":
                if isinstance(v, bool) or not isinstance(v, (str, int)):
                    self.error(p, f"expected a size name or a size value, got {show(v)}")
                elif isinstance(v, int):
                    if self.whole(v, p, -100, 100) is not BAD:
                        out[key] = v
                elif self.attempt(p, d6.size_value, v) is not BAD:
                    out[key] = v
            elif key == "range":
                if self.whole(v, p, 0, MAX_D6_RANGE_FT) is not BAD:
                    out[key] = v
            elif key == "area":
                if self.whole(v, p, 0, MAX_D6_AREA) is not BAD:
                    out[key] = v
            elif key in _D6_CODES:
                if not isinstance(v, str):
                    self.error(p, f"expected a dice code such as 3D or 4D+1, got {show(v)}")
                elif v.strip() == "" and key in _D6_MAY_BE_EMPTY:
                    out[key] = ""
                else:
                    code = self.attempt(p, parse_code, v)
                    if code is BAD:
                        continue
                    if code.dice > MAX_D6_DICE:
                        self.error(p, f"at most {MAX_D6_DICE}D, got {v!r}")
                        continue
                    out[key] = str(code)
        return out

    def field_checks(self) -> dict[str, Callable[[Any, str], Any]]:
        """The check of every fighter field, by field name."""
        return {
            "role": lambda v, p: self.text(v, p),
            "hit_dice": lambda v, p: self.whole(v, p, 1, 100),
            "armor": self.armor,
            "shield": self.shield,
            "weapon": self.weapon,
            "dex_modifier": lambda v, p: self.whole(v, p, -10, 10),
            "savvy": self.savvy,
            "inventory_slots": lambda v, p: self.whole(v, p, 0, 1000),
            "healing_tools": lambda v, p: self.whole(v, p, 0, 100),
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
        checks = self.field_checks()
        allowed = [*_ENTRY_KEYS, *checks] if entry else list(checks)
        out: dict[str, Any] = {}
        for key, value in m.items():
            key_path = join_path(path, key)
            if key in _ENTRY_KEYS and not entry:
                self.error(key_path, f"{key} belongs on a fighter entry, not in a template")
                continue
            if key in _ENTRY_KEYS:
                continue
            check = checks.get(key)
            if check is None:
                self.error(key_path, unknown_key(key, allowed))
                continue
            checked = check(value, key_path)
            if checked is not BAD:
                out[key] = checked
        return out

    # ----------------------------------------------------------------- fighter entries
    def templates_(self, value: Any) -> None:
        """The ``templates`` key: each template's fields, kept for the entries that use it."""
        if value is None:
            return
        m = self.mapping(value, "templates", "a mapping of template name to fighter fields")
        for name, body in (m or {}).items():
            path = join_path("templates", name)
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
        """The fighters of one entry (``count`` of them), or none if it is not good."""
        m = self.mapping(item, path, "a fighter entry (a mapping with at least a name)")
        if m is None:
            return []
        name = m.get("name", BAD)
        if "name" not in m:
            self.error(join_path(path, "name"), "required: every fighter entry needs a name")
        elif self.text(name, join_path(path, "name"), empty=False) is BAD:
            name = BAD
        base = self.template_of(m, path) if "template" in m else {}
        count = 1
        if "count" in m:
            checked = self.whole(m["count"], join_path(path, "count"), 1, MAX_COUNT)
            count = 0 if checked is BAD else checked
        own = self.fighter_fields(m, path, entry=True)
        if name is BAD or count == 0:
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
                join_path(path, "count") if "count" in m else path,
                f"this entry brings the scenario to {self.total + count} fighters; "
                f"the limit is {MAX_COUNT}",
            )
            return []
        self.total += count
        names = [spec.name] if count == 1 else [f"{spec.name} {i}" for i in range(1, count + 1)]
        for n in names:
            if n in self.names:
                self.error(
                    join_path(path, "name"),
                    f"fighter name {n!r} is already used by {self.names[n]}",
                )
                return []
        self.names.update(dict.fromkeys(names, path))
        return [spec] if count == 1 else [spec.renamed(n) for n in names]

    def template_of(self, m: Mapping[str, Any], path: str) -> dict[str, Any]:
        """The checked fields of the template an entry names (none if it names no template)."""
        tpath = join_path(path, "template")
        t = m["template"]
        if self.text(t, tpath) is not BAD:
            if t in self.templates:
                return self.templates[t]
            known = did_you_mean(t, self.templates) or (
                "; known: " + listing(list(self.templates))
                if self.templates
                else "; the file has no templates"
            )
            self.error(tpath, f"unknown template {t!r}{known}")
        return {}

    def spec(self, name: str, merged: dict[str, Any], path: str) -> FighterSpec | None:
        """The stat block of checked fields, if its Deathwish trauma tolerance is 1 or more.

        A ``two_handed`` fighter needs a D6 weapon to parry with: its ``d6.damage`` may not
        be empty (unarmed).
        """
        dw = merged.pop("deathwish", {})
        sixes = merged.pop("d6", {})
        rolled = tuple(g for g in ROLLED_GEAR if merged.get(g) is ROLL)
        for gear in rolled:
            del merged[gear]
        if merged.get("two_handed") and sixes.get("damage") == "":
            self.error(
                join_path(path, "two_handed"),
                "a two-handed fighter wields a weapon, but its d6.damage is empty (unarmed)",
            )
            return None
        body, strength = merged.get("body", 5), merged.get("strength", 5)
        traits = dw.get("traits", 0)
        tt = self.attempt(path, deathwish.trauma_tolerance, body, strength, traits)
        if tt is BAD:
            return None
        built = self.attempt(
            path,
            lambda: FighterSpec(
                name=name,
                deathwish=DeathwishStats(**dw),
                d6=D6Stats(**sixes),
                rolled=rolled,
                **merged,
            ),
        )
        return None if built is BAD else built
