"""Ground shared by every rule system (RULES.md section 0): rounding, statuses, data tables."""

from __future__ import annotations

import csv
from collections.abc import Callable, Iterable, Iterator
from enum import StrEnum
from fractions import Fraction
from functools import cache
from importlib import resources
from typing import Any, Generic, TypeVar

import numpy as np

from sim.dice import Dist, die
from sim.errors import unknown


def round_half_up(x: Fraction | float | int) -> int:
    """Round to the nearest integer, halves up (2.5 -> 3), as Deathwish does.

    Python's ``round`` rounds halves to even (``round(2.5) == 2``) and is wrong here.
    Exact for ``Fraction`` and ``int``; pass a Fraction when the input is a ratio.
    """
    f = Fraction(x)
    return int((f + Fraction(1, 2)).__floor__())


class Status(StrEnum):
    """Fighter status (RULES.md 0). Only ``active`` fighters act; ``fleeing`` ones only run."""

    ACTIVE = "active"
    FLEEING = "fleeing"
    FLED = "fled"
    SURRENDERED = "surrendered"
    INCAPACITATED = "incapacitated"
    DEAD = "dead"


OUT_OF_FIGHT = frozenset({Status.FLED, Status.SURRENDERED, Status.INCAPACITATED, Status.DEAD})


@cache
def load_csv(name: str) -> tuple[dict[str, str], ...]:
    """Rows of ``sim/rules/data/<name>`` as dicts of strings, in file order."""
    text = resources.files("sim.rules").joinpath("data", name).read_text(encoding="utf-8")
    rows = csv.DictReader(line for line in text.splitlines() if not line.startswith("#"))
    return tuple(dict(r) for r in rows)


Row = TypeVar("Row")


def aliases_of(text: str) -> tuple[str, ...]:
    """The aliases of a data row's ``aliases`` cell: ``;``-separated, blanks dropped."""
    return tuple(a for a in text.split(";") if a.strip())


class Table(Generic[Row]):
    """A seed's table: rows in file order, each found by its name or an alias, rolled as a die.

    The one helper behind the table lookups of every rule system. ``key`` is the system's
    spelling rule for names (which case, spaces or hyphens count). A name is looked up by its
    key among the keys of every row's name and aliases (a row's name beats another row's
    alias; among aliases the first wins), so a name as written always finds its row. A miss
    is a :class:`sim.errors.SimError` naming ``what`` and the closest names. ``die`` lists the
    rows a roll picks from (default: every row, in order), so a d12 table may hold rows no
    face gives.

    Raises:
        ValueError: two rows whose names have the same key (a broken data file).
    """

    __slots__ = ("what", "rows", "names", "aliases", "_index", "_key", "_die")

    def __init__(
        self,
        what: str,
        rows: Iterable[Row],
        names: Iterable[str],
        *,
        aliases: Iterable[Iterable[str]] | None = None,
        key: Callable[[str], str] = str,
        die: Callable[[Row], bool] | None = None,
    ) -> None:
        self.what = what
        self.rows: tuple[Row, ...] = tuple(rows)
        self.names: tuple[str, ...] = tuple(names)
        if len(self.names) != len(self.rows):
            raise ValueError(f"{what} table: {len(self.rows)} rows but {len(self.names)} names")
        alias_lists = [tuple(a) for a in aliases or ()]
        self.aliases: tuple[tuple[str, ...], ...] = tuple(
            alias_lists[i] if i < len(alias_lists) else () for i in range(len(self.rows))
        )
        """Each row's aliases as the data file spells them (``sim tables`` lists them)."""
        self._key = key
        self._index: dict[str, Row] = {}
        for name, row in zip(self.names, self.rows, strict=True):
            if key(name) in self._index:
                raise ValueError(f"{what} table: two rows are called {name!r}")
            self._index[key(name)] = row
        for row, alias_list in zip(self.rows, self.aliases, strict=True):
            for alias in alias_list:
                self._index.setdefault(key(alias), row)
        self._die = tuple(i for i, row in enumerate(self.rows) if die is None or die(row))

    @classmethod
    def from_csv(
        cls,
        file: str,
        what: str,
        make: Callable[[dict[str, str]], Row],
        *,
        key: Callable[[str], str] = str,
        name: str = "name",
        aliases: str | None = None,
        keep: Callable[[dict[str, str]], bool] | None = None,
        die: Callable[[Row], bool] | None = None,
    ) -> Table[Row]:
        """The table of ``sim/rules/data/<file>``: one row ``make(cells)`` per kept data row.

        ``name`` and ``aliases`` name the columns holding a row's name and its ``;``-separated
        aliases; ``keep`` filters the data rows (e.g. one kind of a file of several tables).
        """
        cells = [r for r in load_csv(file) if keep is None or keep(r)]
        return cls(
            what,
            [make(r) for r in cells],
            [r[name] for r in cells],
            aliases=[aliases_of(r[aliases]) for r in cells] if aliases else None,
            key=key,
            die=die,
        )

    def __len__(self) -> int:
        return len(self.rows)

    def __iter__(self) -> Iterator[Row]:
        return iter(self.rows)

    def get(self, name: str) -> Row | None:
        """The row called ``name`` (or an alias, spelt as ``key`` allows), or None."""
        return self._index.get(self._key(name))

    def find(self, name: str) -> Row:
        """The row called ``name``; a :class:`SimError` with the closest names otherwise."""
        row = self._index.get(self._key(name))
        if row is None:
            raise unknown(self.what, str(name), self.names)
        return row

    @property
    def sides(self) -> int:
        """Faces of the die rolled on the table: one per rolled row."""
        return len(self._die)

    def face(self, face: int) -> Row:
        """The row the die's ``face`` (1 .. :attr:`sides`) gives."""
        return self.rows[self._die[face - 1]]

    def roll(self, rng: np.random.Generator) -> Row:
        """Roll the table's die (one draw, faces 1 .. :attr:`sides`)."""
        return self.face(die(rng, self.sides))

    def roll_dist(self) -> Dist:
        """Exact distribution of the name of the row :meth:`roll` gives."""
        return Dist({self.names[i]: Fraction(1, self.sides) for i in self._die})


def option(
    default: Any,
    doc: str,
    *,
    tag: str = "H",
    choices: tuple[Any, ...] | None = None,
    low: float | None = None,
    high: float | None = None,
) -> Any:
    """A documented rule option: a dataclass field whose metadata says what it means.

    ``tag`` is ``"I"`` (our interpretation) or ``"H"`` (house rule), as in RULES.md;
    ``choices`` lists the allowed values of a named option, ``low``/``high`` bound a number.
    """
    from dataclasses import field

    meta = {"doc": doc, "tag": tag, "choices": choices, "low": low, "high": high}
    return field(default=default, metadata=meta)


def build_options(cls: Any, values: dict[str, Any] | None = None, where: str = "options") -> Any:
    """Build the ``Options`` dataclass ``cls`` from a plain dict, checking names and values.

    Unknown names and bad values raise :class:`sim.errors.SimError` naming ``where.name``,
    with the closest known name or the allowed values.
    """
    from dataclasses import fields

    from sim.errors import SimError, did_you_mean

    known = {f.name: f for f in fields(cls)}
    for key, value in (values or {}).items():
        if key not in known:
            raise SimError(f"{where}.{key}: unknown option{did_you_mean(key, known)}")
        meta = known[key].metadata
        default = known[key].default
        if meta.get("choices") is not None and value not in meta["choices"]:
            allowed = ", ".join(repr(c) for c in meta["choices"])
            hint = ""
            if isinstance(value, str):  # 0.6: 'often' is not offered 'out'
                hint = did_you_mean(value, map(str, meta["choices"]), 0.6)
            raise SimError(f"{where}.{key}: {value!r} is not one of {allowed}{hint}")
        if isinstance(default, bool) and not isinstance(value, bool):
            raise SimError(f"{where}.{key}: expected true or false, got {value!r}")
        if isinstance(default, (int, float)) and not isinstance(default, bool):
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise SimError(f"{where}.{key}: expected a number, got {value!r}")
            if isinstance(default, int) and not isinstance(value, int):
                raise SimError(f"{where}.{key}: expected a whole number, got {value!r}")
            low, high = meta.get("low"), meta.get("high")
            if (low is not None and value < low) or (high is not None and value > high):
                raise SimError(f"{where}.{key}: {value!r} is out of range {low}..{high}")
    return cls(**(values or {}))


def describe_options(cls: Any) -> list[dict[str, Any]]:
    """Name, default, tag, allowed values and meaning of every option of ``cls``."""
    from dataclasses import fields

    return [
        {
            "name": f.name,
            "default": f.default,
            "tag": f.metadata.get("tag"),
            "choices": f.metadata.get("choices"),
            "doc": f.metadata.get("doc"),
        }
        for f in fields(cls)
    ]
