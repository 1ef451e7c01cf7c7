"""Checks of the ``map`` key: the battlefield drawn as text, its legend, starting cells."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from sim.errors import SimError, did_you_mean, unknown
from sim.rules import wargame
from sim.scenario.checks.base import BAD, Checks, get_or, listing
from sim.scenario.model import Event, FighterSpec
from sim.scenario.reader import join_path, show
from sim.space.map import DEFAULT_LEGEND, FEET_PER_UNIT, Cell, MapSpec, from_picture

_MAP_KEYS = ("cell", "picture", "legend", "at")
_LEGEND_KEYS = ("cover", "hazard", "value")
_LEGEND_WORDS = ("wall", "open")
_CELL = re.compile(r"\s*(\d+(?:\.\d*)?|\.\d+)\s*([^\d\s.]\S*)?\s*")
MAX_MAP_SIDE = 1000
"""Most cells across and down a map."""
MAX_PICTURE_ISSUES = 10
"""Most rows of a map picture reported with unknown characters (the rest are counted)."""


class MapChecks(Checks):
    """The map: cell size, legend, picture (rows and zones) and starting cells."""

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
        size, unit = self.cell_size(get_or(m, "cell", "5 ft"), "map.cell")
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
                rows, side_names, cell_size=5.0 if size is BAD else size, unit=unit, legend=legend
            ),
        )
        if built is BAD:
            return None
        cells, owner = self.place(built, at or {})
        self.room(built, side_names, fighters, at, owner)
        if len(self.issues) > before:
            return None
        placed = self.attempt("map.at", lambda: replace(built, at=cells))
        return None if placed is BAD else placed

    def place(
        self, built: MapSpec, at: Mapping[str, Any]
    ) -> tuple[dict[str, Cell], dict[Cell, str]]:
        """The good ``at`` cells (fighter -> cell) and who stands on each (cell -> fighter)."""
        cells: dict[str, Cell] = {}
        owner: dict[Cell, str] = {}
        for name, c in at.items():
            path = join_path("map.at", name)
            if c is BAD:
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
        return cells, owner

    def room(
        self,
        built: MapSpec,
        side_names: Sequence[str],
        fighters: Mapping[str, Sequence[str]],
        at: Mapping[str, Any] | None,
        owner: Mapping[Cell, str],
    ) -> None:
        """Report every side whose fighters without an ``at`` cell do not fit in its zone."""
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

    def cell_size(self, value: Any, path: str) -> tuple[Any, str]:
        """A map cell's ``(size, unit)`` from ``5 ft``, ``10 yd``, ``2.5`` (feet)."""
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            number, unit = float(value), "ft"
        elif isinstance(value, str) and (found := _CELL.fullmatch(value)):
            number, unit = float(found.group(1)), found.group(2) or "ft"
        else:
            self.error(path, f"expected a cell size such as 5 ft or 10 yd, got {show(value)}")
            return BAD, "ft"
        if unit not in FEET_PER_UNIT:
            self.error(path, str(unknown("unit", unit, FEET_PER_UNIT)))
            return BAD, "ft"
        if not math.isfinite(number) or number <= 0:
            self.error(path, f"must be above 0, got {show(value)}")
            return BAD, "ft"
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
            path = join_path("map.legend", char)
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
                f"got {show(value)}{hint}",
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
        kind_path = join_path(path, kind)
        found: Any = BAD
        if self.text(value[kind], kind_path) is not BAD:
            found = self.attempt(kind_path, wargame.factor, kind, value[kind])
        amount: Any = None
        if value.get("value") is not None:
            if kind != "cover":
                self.error(join_path(path, "value"), "only a cover has a value")
                return None
            amount = self.whole(value["value"], join_path(path, "value"), 0, None)
        if found is BAD or amount is BAD:
            return None
        return kind, found.name, amount

    def picture(self, value: Any, sides: Sequence[str], chars: Sequence[str]) -> list[str] | None:
        """The map picture's rows; every unknown character reported at its row's line."""
        path = "map.picture"
        if value is None:
            self.error(path, "required: the map drawn as text, one line per row (picture: |)")
            return None
        if self.text(value, path, empty=False) is BAD:
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
        """``map.at``: each fighter named and its cell (``BAD`` if not one); None if unusable."""
        if value is None:
            return {}
        m = self.mapping(value, "map.at", "a mapping of fighter name to a cell [x, y]")
        if m is None:
            return None
        every = [n for names in fighters.values() for n in names]
        known = set(every)
        out: dict[str, Any] = {}
        for name, cell in m.items():
            path = join_path("map.at", name)
            if name not in known and not self.unsure:
                hint = did_you_mean(name, every) or f"; the fighters: {listing(every)}"
                self.error(path, f"{name!r} is not a fighter{self.within}{hint}")
                continue
            items = cell if isinstance(cell, list) else []
            if [isinstance(v, int) and not isinstance(v, bool) for v in items] != [True, True]:
                self.error(
                    path,
                    f"expected a cell [x, y]: column and row, whole numbers from 0, "
                    f"got {show(cell)}",
                )
                out[name] = BAD
                continue
            out[name] = (cell[0], cell[1])
        return out
