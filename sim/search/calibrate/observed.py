"""A calibration's observed table: each row a setting of the scenario and what was seen there.

The table is a CSV file beside the experiment (its path relative to the experiment file)
or a list of rows in the experiment itself::

    observed: ambush_observed.csv
    observed:
      - {sides.bandits.fighters[0].count: 3, battles: 120, wins.guards: 61%, rounds: 1.8}

A column is one of:

- a **setting**: a scenario path (its first step a scenario key: ``sides``, ``battle``,
  ``rules``, ``max_rounds`` ...) and the value it has in that row; every row sets the same
  paths;
- a **statistic** (:data:`STATISTICS`): ``wins.SIDE``, the side's share of the battles that
  had a winner; ``draws``, the share of battles without one; ``rounds``, the mean length;
  ``loser_out``, the mean share of the losing side's fighters incapacitated or dead at the
  end (fled and surrendered ones are not out), over battles with a winner. A cell may be
  left empty (not observed in that row). Shares are written ``0.42`` or ``42%``;
- a **sample size**: ``battles`` (required: the battles observed in the row), ``decisive``
  (of those, the ones with a winner: the sample of ``wins.SIDE`` and ``loser_out``; when it
  is missing it comes from ``draws`` if observed, else from the simulated share of
  decisive battles), and ``STAT.sd`` (the spread of one battle's ``rounds`` or
  ``loser_out`` as observed; else the simulated one);
- ``label``: the row's name in the answer (default: its number).

In a CSV file, a line whose first cell starts with ``#`` is a comment, a lone carriage
return ends a line (as in a classic Mac file), and each column is named once.

Problems are located where the row is: ``observed.csv:4: wins.pirates: ...``.
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sim.errors import SimError, did_you_mean
from sim.scenario import Issue
from sim.scenario.checks.document import _TOP_KEYS
from sim.scenario.reader import ScenarioError, bad_text, read_text_file, show

SHARES = ("draws",)
MEANS = ("rounds", "loser_out")
FRACTIONS = ("loser_out",)
"""Means of a share of a side's fighters: 0..1, or a percentage."""
SIZES = ("battles", "decisive")
MAX_ROWS = 1000
MAX_FILE = 1024 * 1024
Bad = Callable[[str, str], None]


@dataclass(frozen=True, slots=True)
class Stat:
    """A statistic of a row: its column name, share or mean, and over which battles."""

    name: str
    kind: str
    """``share`` (a binomial share) or ``mean`` (a mean of one value per battle)."""
    decisive: bool
    """Whether it counts only battles with a winner."""
    side: str | None = None

    @property
    def shown(self) -> str:
        """How the answer names it."""
        if self.name.startswith("wins."):
            return f"{self.side} wins (of decisive)"
        return {"draws": "draws", "rounds": "mean rounds", "loser_out": "loser out"}[self.name]


def statistics(sides: Sequence[str]) -> dict[str, Stat]:
    """Every statistic a row may give, for a scenario with ``sides``."""
    out = {f"wins.{s}": Stat(f"wins.{s}", "share", True, s) for s in sides}
    out["draws"] = Stat("draws", "share", False)
    out["rounds"] = Stat("rounds", "mean", False)
    out["loser_out"] = Stat("loser_out", "mean", True)
    return out


@dataclass(frozen=True, slots=True)
class Row:
    """One observed row: its setting, statistics, sample sizes and where it is."""

    label: str
    line: int | None
    setting: tuple[tuple[str, Any], ...]
    values: tuple[tuple[str, float], ...]
    battles: int
    decisive: int | None = None
    sds: tuple[tuple[str, float], ...] = ()

    def value(self, stat: str) -> float | None:
        """The observed value of ``stat`` (None if the row does not give it)."""
        return dict(self.values).get(stat)

    def sd(self, stat: str) -> float | None:
        """The observed spread of one battle's ``stat`` (None if not given)."""
        return dict(self.sds).get(stat)


@dataclass(frozen=True, slots=True)
class Observed:
    """The observed table: where it is, its rows, the statistics they give, its problems."""

    source: str
    rows: tuple[Row, ...]
    stats: tuple[Stat, ...]
    paths: tuple[str, ...]
    inline: bool
    issues: tuple[Issue, ...] = ()
    header: int | None = None
    """A CSV file's header line."""


def read(spec: Any, source: str | None, sides: Sequence[str], bad: Bad) -> Observed:
    """The ``observed:`` table (a CSV file's name, or rows inline); problems reported.

    Problems of the key itself go to ``bad`` (in the experiment file); those of a CSV
    file's cells are kept as the table's ``issues``, located in the CSV.
    """
    if isinstance(spec, str):
        return _from_csv(spec, source, sides, bad)
    if isinstance(spec, list) and spec and all(isinstance(r, dict) for r in spec):
        cells = [{str(k): v for k, v in r.items()} for r in spec]
        return _table(cells, [None] * len(cells), source or "", sides, inline=True, bad=bad)
    bad(
        "observed",
        "expected a CSV file's name (beside the experiment) or a list of rows, each a "
        "mapping of setting paths, statistics and battles",
    )
    return Observed(source or "", (), (), (), True)


def _from_csv(name: str, source: str | None, sides: Sequence[str], bad: Bad) -> Observed:
    problem = bad_text(name, allow_breaks=False) if name else "is empty"  # a name is one line
    if problem:
        bad("observed", f"the file name {show(name)} {problem}")
        return Observed(source or "", (), (), (), False)
    base = Path(source).parent if source else Path(".")
    path = Path(name) if Path(name).is_absolute() else base / name
    if not os.path.lexists(path):
        bad("observed", f"observed table not found: {path}")
        return Observed(str(path), (), (), (), False)
    try:  # a folder, a FIFO, a device or a loop of links: said as what it is
        text = read_text_file(path)
    except (OSError, SimError) as err:
        found = err.issues if isinstance(err, ScenarioError) else ()  # their path is ours
        reason = "; ".join(i.message for i in found) or str(err)
        bad("observed", f"cannot read the observed table {path}: {reason}")
        return Observed(str(path), (), (), (), False)
    if len(text.encode()) > MAX_FILE:
        bad("observed", f"{path}: the observed table is over 1 MB")
        return Observed(str(path), (), (), (), False)
    lines, broken = _csv_lines(text)
    if broken is not None:
        bad_line = Issue(str(path), broken[0], "", broken[1])
        return Observed(str(path), (), (), (), False, (bad_line,))
    if len(lines) < 2:
        bad("observed", f"{path}: expected a header line and one row or more")
        return Observed(str(path), (), (), (), False)
    header = [h.strip() for h in lines[0][1]]
    twice = [h for k, h in enumerate(header) if h and h in header[:k]]
    if twice:
        columns = [str(k + 1) for k, h in enumerate(header) if h == twice[0]]
        message = f"column {twice[0]!r} is named twice (columns {' and '.join(columns)}); keep one"
        return Observed(str(path), (), (), (), False, (Issue(str(path), lines[0][0], "", message),))
    cells: list[dict[str, Any]] = []
    where: list[int | None] = []
    issues: list[Issue] = []
    for line, row in lines[1:]:
        if len(row) != len(header):
            issues.append(
                Issue(str(path), line, "", f"{len(row)} cells; the header has {len(header)}")
            )
            continue
        cells.append({h: _cell(c) for h, c in zip(header, row, strict=True) if c.strip()})
        where.append(line)
    table = _table(
        cells, where, str(path), sides, inline=False, bad=bad, header=(header, lines[0][0])
    )
    return Observed(
        table.source,
        table.rows,
        table.stats,
        table.paths,
        False,
        (*issues, *table.issues),
        lines[0][0],
    )


def _csv_lines(text: str) -> tuple[list[tuple[int, list[str]]], tuple[int, str] | None]:
    """The CSV's rows that are not blank or comments, each with its line; or the line it breaks.

    Read as the csv module asks (``newline=""``): a lone carriage return ends a line, as
    in a classic Mac file; a cell too long for the csv module is the line it is on.
    """
    reader = csv.reader(io.StringIO(text, newline=""))
    lines = []
    try:
        for r in reader:
            if any(c.strip() for c in r) and not r[0].lstrip().startswith("#"):
                lines.append((reader.line_num, r))
    except csv.Error as err:
        line = reader.line_num or 1
        if "field larger than field limit" in str(err):
            return lines, (line, f"a cell of over {csv.field_size_limit():,} characters")
        return lines, (line, f"not a CSV line: {err}")
    return lines, None


def _cell(text: str) -> Any:
    """A CSV cell's value: a number, a JSON list or mapping, or the text."""
    text = text.strip()
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    if text[:1] in "[{":
        try:
            return json.loads(text)
        except json.JSONDecodeError:
            return text
    return text


def _table(
    cells: list[dict[str, Any]],
    lines: list[int | None],
    source: str,
    sides: Sequence[str],
    inline: bool,
    bad: Bad,
    header: tuple[Sequence[str], int] | None = None,
) -> Observed:
    """Rows from each row's cells (column -> value); ``header``: a CSV's, and its line.

    A problem of a column is located at the header (``k`` -1), of a cell at its row.
    """
    issues: list[Issue] = []

    def problem(k: int, column: str, message: str) -> None:
        if inline:
            k = max(k, 0)
            bad(f"observed[{k}].{column}" if column else f"observed[{k}]", message)
        else:
            line = lines[k] if k >= 0 else (header[1] if header else 1)
            issues.append(Issue(source, line, column, message))

    known = statistics(sides)
    columns = (
        list(header[0]) if header is not None else list(dict.fromkeys(c for r in cells for c in r))
    )
    paths = [c for c in columns if _is_path(c)]
    for c in columns:
        if not (_is_path(c) or c in known or c in SIZES or c == "label" or _is_sd(c)):
            choices = [*known, *SIZES, "label", *(f"{m}.sd" for m in MEANS)]
            hint = did_you_mean(c, choices) or "; the statistics are " + ", ".join(known)
            problem(-1, c, f"no statistic {c!r} in the dataset{hint}")
    if len(cells) > MAX_ROWS:
        problem(-1, "", f"{len(cells)} rows; at most {MAX_ROWS}")
        cells = cells[:MAX_ROWS]
    if not paths:
        problem(-1, "", "no setting: name a scenario path in a column")
    rows = []
    for k, row in enumerate(cells):

        def at_row(column: str, message: str, k: int = k) -> None:
            problem(k, column, message)

        made = _row(k, row, lines[k], paths, known, at_row)
        if made is not None:
            rows.append(made)
    labels = [r.label for r in rows]
    for k, label in enumerate(labels):
        if labels.index(label) != k:
            problem(k, "label", f"label {label!r} is given twice")
    used = [s for s in known.values() if any(r.value(s.name) is not None for r in rows)]
    if rows and not used:
        problem(-1, "", "no statistic observed in any row")
    return Observed(source, tuple(rows), tuple(used), tuple(paths), inline, tuple(issues))


def _is_path(column: str) -> bool:
    first = column.split(".")[0].split("[")[0]
    return first in _TOP_KEYS


def _is_sd(column: str) -> bool:
    return column.endswith(".sd") and column[: -len(".sd")] in MEANS


def _row(
    k: int,
    cells: dict[str, Any],
    line: int | None,
    paths: Sequence[str],
    known: dict[str, Stat],
    problem: Bad,
) -> Row | None:
    """One row, checked (problems to ``problem(column, message)``)."""
    ok = True
    missing = [p for p in paths if p not in cells]
    if missing:
        problem(missing[0], "every row sets the same paths: this one has no value for it")
        ok = False
    battles = _count(cells.get("battles"), "battles", 1, problem)
    decisive = None
    if cells.get("decisive") is not None:
        decisive = _count(cells["decisive"], "decisive", 0, problem)
        if decisive is not None and battles is not None and decisive > battles:
            problem("decisive", f"{decisive} decisive battles of {battles}")
            ok = False
    values, sds = [], []
    for name, stat in known.items():
        if cells.get(name) is None:
            continue
        read_value = _share if stat.kind == "share" or name in FRACTIONS else _mean
        v = read_value(cells[name], name, problem)
        if v is None:
            ok = False
        else:
            values.append((name, v))
    for m in MEANS:
        if cells.get(f"{m}.sd") is not None:
            v = _mean(cells[f"{m}.sd"], f"{m}.sd", problem)
            if v is not None and v > 0:
                sds.append((m, v))
            elif v is not None:
                problem(f"{m}.sd", "a spread must be above 0")
    if battles is None:
        ok = False
    if not ok or battles is None:
        return None
    label = str(cells.get("label", k + 1))
    setting = tuple((p, cells[p]) for p in paths)
    return Row(label, line, setting, tuple(values), battles, decisive, tuple(sds))


def _count(value: Any, column: str, low: int, problem: Bad) -> int | None:
    if value is None:
        problem(column, "the row's sample size is needed to weigh it: give the battles observed")
        return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= 10**9:
        problem(column, f"expected a whole number {low} or more, got {value!r}")
        return None
    return value


def _share(value: Any, column: str, problem: Bad) -> float | None:
    given = value
    if isinstance(value, str) and value.strip().endswith("%"):
        try:
            value = float(value.strip()[:-1]) / 100
        except ValueError:
            value = None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
        problem(column, f"expected a share such as 0.42 or 42%, got {given!r}")
        return None
    return float(value)


def _mean(value: Any, column: str, problem: Bad) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        problem(column, f"expected a number, got {value!r}")
        return None
    if value < 0:
        problem(column, f"expected a number 0 or more, got {value!r}")
        return None
    return float(value)
