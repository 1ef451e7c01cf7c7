"""A calibration's observed table: each row a setting of the scenario and what was seen there.

The table is a CSV file beside the experiment (its path relative to the experiment file)
or a list of rows in the experiment itself::

    observed: ambush_observed.csv
    observed:
      - {sides.bandits.fighters[0].count: 3, battles: 120, wins.guards: 61%, rounds: 1.8}

A column is one of:

- a **setting**: a scenario path (its first step a scenario key: ``sides``, ``battle``,
  ``rules``, ``max_rounds`` ...) and the value it has in that row; every row sets the same
  paths; or a **covariate**, a column the experiment's ``covariates:`` reads to set paths
  (:mod:`sim.search.calibrate.covariates`);
- a **statistic** (:mod:`sim.search.calibrate.statistics`): ``wins.SIDE``, the side's share
  of the battles that had a winner; ``draws``, the share of battles without one;
  ``rounds``, the mean length; ``SIDE.down``, ``SIDE.gone``, ``SIDE.lost``,
  ``SIDE.casualties``, the mean share of a side's fighters out at the end (incapacitated or
  dead; also fleeing or fled; also surrendered; incapacitated, dead or surrendered, as
  history counts casualties); ``.median`` after ``rounds`` or a share out for its median.
  ``SIDE`` is a side or a role: ``winner`` and ``loser`` (over battles with a winner),
  ``larger`` and ``smaller`` (by fighters at the start; a battle of equal sides has
  neither), ``attacker`` and ``defender`` (as the row's ``attacker`` column names them).
  ``loser_out`` is ``loser.down``. A cell may be left empty (not observed in that row).
  Shares are written ``0.42`` or ``42%``, or as a count ``17/30`` (its own sample size);
- beside a statistic: ``STAT.n``, its own sample size (a published share or median and
  the battles it is of); ``STAT.lo`` and ``STAT.hi``, its own 95% interval (a share's
  gives the sample size a binomial share with that interval has, a mean's its standard
  error); ``STAT.sd``, the spread of one battle's value of a mean (else the simulated one);
- a **sample size**: ``battles`` (required: the battles observed in the row), ``decisive``
  (of those, the ones with a winner: the sample of a statistic of decisive battles; when
  it is missing it comes from ``draws`` if observed, else from the simulated share of
  decisive battles);
- ``attacker``: the side that attacks in the row; ``label``: the row's name in the answer
  (default: its number).

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
from sim.search.calibrate.covariates import Term
from sim.search.calibrate.statistics import (
    FORMS,
    MODIFIERS,
    Stat,
    statistics,
)

Z95 = 1.959963984540054
SIZES = ("battles", "decisive")
ATTACKER = "attacker"
"""The column naming the side that attacks in the row."""
MAX_ROWS = 1000
MAX_FILE = 1024 * 1024
Bad = Callable[[str, str], None]


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
    ns: tuple[tuple[str, int], ...] = ()
    """Statistics with their own sample size (``STAT.n``, or a share's ``k/n``, or the
    size a share's own interval implies)."""
    ses: tuple[tuple[str, float], ...] = ()
    """Means with their own standard error (from ``STAT.lo`` and ``STAT.hi``)."""
    attacker: str | None = None
    shown: tuple[tuple[str, Any], ...] = ()
    """The row's setting as the table gave it (its covariates, where they set paths)."""

    def value(self, stat: str) -> float | None:
        """The observed value of ``stat`` (None if the row does not give it)."""
        return dict(self.values).get(stat)

    def sd(self, stat: str) -> float | None:
        """The observed spread of one battle's ``stat`` (None if not given)."""
        return dict(self.sds).get(stat)

    def n(self, stat: str) -> int | None:
        """The statistic's own sample size (None: the row's battles, or its decisive ones)."""
        return dict(self.ns).get(stat)

    def se(self, stat: str) -> float | None:
        """A mean's own standard error (None: from its spread and sample size)."""
        return dict(self.ses).get(stat)


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


def read(
    spec: Any,
    source: str | None,
    sides: Sequence[str],
    bad: Bad,
    covariates: dict[str, Term | None] | None = None,
) -> Observed:
    """The ``observed:`` table (a CSV file's name, or rows inline); problems reported.

    ``covariates``: the paths the table's covariate columns set (:mod:`.covariates`; a
    bad one None: its problem is the experiment's, and the rows are not read).
    Problems of the key itself go to ``bad`` (in the experiment file); those of a CSV
    file's cells are kept as the table's ``issues``, located in the CSV.
    """
    mapped = covariates or {}
    if isinstance(spec, str):
        return _from_csv(spec, source, sides, bad, mapped)
    if isinstance(spec, list) and spec and all(isinstance(r, dict) for r in spec):
        cells = [{str(k): v for k, v in r.items()} for r in spec]
        return _table(cells, [None] * len(cells), source or "", sides, True, bad, None, mapped)
    bad(
        "observed",
        "expected a CSV file's name (beside the experiment) or a list of rows, each a "
        "mapping of setting paths, statistics and battles",
    )
    return Observed(source or "", (), (), (), True)


def _from_csv(
    name: str, source: str | None, sides: Sequence[str], bad: Bad, mapped: dict[str, Term | None]
) -> Observed:
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
    table = _table(cells, where, str(path), sides, False, bad, (header, lines[0][0]), mapped)
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
    covariates: dict[str, Term | None] | None = None,
) -> Observed:
    """Rows from each row's cells (column -> value); ``header``: a CSV's, and its line.

    A problem of a column is located at the header (``k`` -1), of a cell at its row.
    """
    issues: list[Issue] = []
    mapped = {p: t for p, t in (covariates or {}).items() if t is not None}

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
    names = list(dict.fromkeys(n for t in mapped.values() for n in t.names()))
    if len(mapped) < len(covariates or {}) or not _columns_read(mapped, columns, bad):
        return Observed(source, (), (), (), inline, tuple(issues))  # the rows depend on them
    given = [c for c in columns if _is_path(c)]
    paths = [*given, *(p for p in mapped if p not in given)]
    _check_columns(columns, known, mapped, names, sides, problem)
    if len(cells) > MAX_ROWS:
        problem(-1, "", f"{len(cells)} rows; at most {MAX_ROWS}")
        cells = cells[:MAX_ROWS]
    if not paths:
        problem(-1, "", "no setting: name a scenario path in a column, or declare covariates")
    rows = []
    for k, row in enumerate(cells):

        def at_row(column: str, message: str, k: int = k) -> None:
            problem(k, column, message)

        made = _row(k, row, lines[k], given, mapped, known, sides, at_row)
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


def _columns_read(mapped: dict[str, Term], columns: Sequence[str], bad: Bad) -> bool:
    """Whether every column the covariates read is in the table (else said where)."""
    ok = True
    for path, term in mapped.items():
        for n in term.names():
            if n not in columns:
                bad(f"covariates.{path}", f"no column {n!r} in the observed table")
                ok = False
    return ok


def _check_columns(
    columns: Sequence[str],
    known: dict[str, Stat],
    mapped: dict[str, Term],
    names: Sequence[str],
    sides: Sequence[str],
    problem: Callable[[int, str, str], None],
) -> None:
    """Each column is a path, a statistic, beside one, a size, a label or a covariate."""
    for c in columns:
        if _is_path(c) and c in mapped:
            problem(-1, c, "the covariates set this path: give it in one place")
    for c in columns:
        if not (_is_path(c) or c in known or c in SIZES or c in ("label", ATTACKER)):
            if c in names or _modifier(c, known) is not None:
                continue
            own = [n for n, st in known.items() if st.side is None or st.side in sides]
            hint = (
                did_you_mean(c, [*own, *SIZES, "label", ATTACKER])
                or did_you_mean(c, list(known))
                or f"; the statistics are {FORMS}"
            )
            if not any(n.split(".")[0] == c.split(".")[0] for n in known):
                hint += "; a covariate is a column the covariates: key reads"
            problem(-1, c, f"no statistic {c!r} in the dataset{hint}")
    for c in columns:
        stat = known.get(c)
        if stat is not None and stat.side in ("attacker", "defender") and ATTACKER not in columns:
            problem(-1, c, "name the side that attacks in each row: give an attacker column")


def _is_path(column: str) -> bool:
    first = column.split(".")[0].split("[")[0]
    return first in _TOP_KEYS


def _modifier(column: str, known: dict[str, Stat]) -> tuple[Stat, str] | None:
    """``(stat, modifier)`` of a column beside a statistic (``loser.lost.median.n``)."""
    stem, _, mod = column.rpartition(".")
    return (known[stem], mod) if mod in MODIFIERS and stem in known else None


def _row(
    k: int,
    cells: dict[str, Any],
    line: int | None,
    paths: Sequence[str],
    mapped: dict[str, Term],
    known: dict[str, Stat],
    sides: Sequence[str],
    problem: Bad,
) -> Row | None:
    """One row, checked (problems to ``problem(column, message)``)."""
    ok = True
    missing = [p for p in paths if p not in cells]
    if missing:
        problem(missing[0], "every row sets the same paths: this one has no value for it")
        ok = False
    covariates = {}
    for name in dict.fromkeys(n for t in mapped.values() for n in t.names()):
        v = cells.get(name)
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
            problem(name, f"the covariates read this column: expected a number, got {v!r}")
            ok = False
        else:
            covariates[name] = v
    battles = _count(cells.get("battles"), "battles", 1, problem)
    decisive = None
    if cells.get("decisive") is not None:
        decisive = _count(cells["decisive"], "decisive", 0, problem)
        if decisive is not None and battles is not None and decisive > battles:
            problem("decisive", f"{decisive} decisive battles of {battles}")
            ok = False
    attacker = cells.get(ATTACKER)
    if attacker is not None and attacker not in sides:
        problem(ATTACKER, f"no side {attacker!r}{did_you_mean(str(attacker), sides)}")
        ok = False
    values, ns = _values(cells, known, problem)
    ok = ok and values is not None
    values = values or {}
    extra = _modifiers(cells, known, values, ns, problem)
    if extra is None or battles is None or not ok:
        return None
    sds, ses = extra
    label = str(cells.get("label", k + 1))
    setting = [(p, cells[p]) for p in paths]
    setting += [(p, t.of(covariates)) for p, t in mapped.items()]
    shown = tuple((n, covariates[n]) for n in covariates) + tuple(setting[: len(paths)])
    return Row(
        label,
        line,
        tuple(setting),
        tuple(values.items()),
        battles,
        decisive,
        tuple(sds.items()),
        tuple(ns.items()),
        tuple(ses.items()),
        None if attacker is None else str(attacker),
        shown if mapped else (),
    )


def _values(
    cells: dict[str, Any], known: dict[str, Stat], problem: Bad
) -> tuple[dict[str, float] | None, dict[str, int]]:
    """The row's statistics (None if one is bad), and the sizes of shares given as counts."""
    values: dict[str, float] = {}
    ns: dict[str, int] = {}
    ok = True
    for name, stat in known.items():
        if cells.get(name) is None:
            continue
        if stat.kind == "share":
            got = _share(cells[name], name, problem)
            if got is not None and got[1] is not None:
                ns[name] = got[1]
            v = None if got is None else got[0]
        else:
            v = (_fraction if stat.fraction else _mean)(cells[name], name, problem)
        if v is None:
            ok = False
        else:
            values[name] = v
    return (values if ok else None), ns


def _modifiers(
    cells: dict[str, Any],
    known: dict[str, Stat],
    values: dict[str, float],
    ns: dict[str, int],
    problem: Bad,
) -> tuple[dict[str, float], dict[str, float]] | None:
    """The row's ``STAT.sd``, ``.n``, ``.lo`` and ``.hi``: spreads and standard errors.

    Own sample sizes go into ``ns``: a share's own interval gives the size a binomial
    share with that interval has.
    """
    ok = True
    sds: dict[str, float] = {}
    ses: dict[str, float] = {}
    bounds: dict[str, dict[str, float]] = {}
    for column, value in cells.items():
        found = _modifier(column, known)
        if found is None or value is None:
            continue
        stat, mod = found
        if stat.name not in values:
            problem(column, f"the row gives no {stat.name}, so nothing to give its {mod} for")
            ok = False
        elif mod == "sd":
            if stat.kind != "mean":
                problem(column, "a spread (.sd) is of a mean; a share or a median has none")
                ok = False
                continue
            v = _mean(value, column, problem)
            if v is not None and v > 0:
                sds[stat.name] = v
            elif v is not None:
                problem(column, "a spread must be above 0")
                ok = False
        elif mod == "n":
            n = _count(value, column, 1, problem)
            if n is None:
                ok = False
            elif stat.name in ns and ns[stat.name] != n:
                problem(column, f"the share was given as a count of {ns[stat.name]}, not {n}")
                ok = False
            else:
                ns[stat.name] = n
        else:
            if stat.kind == "median":
                if ok:  # once, for .lo and .hi
                    problem(column, "give a median's own sample size (.n), not its interval")
                ok = False
                continue
            read = _fraction if stat.kind == "share" or stat.fraction else _mean
            v = read(value, column, problem)
            if v is None:
                ok = False
            else:
                bounds.setdefault(stat.name, {})[mod] = v
    ok = _bounds(bounds, known, values, ns, ses, problem) and ok
    return (sds, ses) if ok else None


def _bounds(
    bounds: dict[str, dict[str, float]],
    known: dict[str, Stat],
    values: dict[str, float],
    ns: dict[str, int],
    ses: dict[str, float],
    problem: Bad,
) -> bool:
    """Each statistic's own 95% interval: a share's implied size, a mean's standard error."""
    ok = True
    for name, b in bounds.items():
        if len(b) < 2:
            have, want = ("lo", "hi") if "lo" in b else ("hi", "lo")
            problem(f"{name}.{want}", f"{name}.{have} is given: give its other end too")
            ok = False
            continue
        lo, hi, v = b["lo"], b["hi"], values[name]
        if not lo <= v <= hi or lo >= hi:
            problem(f"{name}.lo", f"the interval [{lo:g}, {hi:g}] must hold {name} ({v:g})")
            ok = False
        elif name in ns:
            problem(f"{name}.lo", "give a sample size or an interval, not both")
            ok = False
        elif known[name].kind == "share":
            mid = (lo + hi) / 2
            ns[name] = max(1, round(mid * (1 - mid) * (2 * Z95 / (hi - lo)) ** 2))
        else:
            ses[name] = (hi - lo) / (2 * Z95)
    return ok


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


def _share(value: Any, column: str, problem: Bad) -> tuple[float, int | None] | None:
    """A share, and its sample size when written as a count (``17/30``, ``17 of 30``)."""
    if isinstance(value, str) and ("/" in value or " of " in value):
        k, _, n = value.replace(" of ", "/").partition("/")
        try:
            kk, nn = int(k.strip()), int(n.strip())
        except ValueError:
            kk, nn = -1, 0
        if not 0 <= kk <= nn or nn < 1:
            problem(column, f"expected a count such as 17/30 (17 of 30 battles), got {value!r}")
            return None
        return kk / nn, nn
    v = _fraction(value, column, problem)
    return None if v is None else (v, None)


def _fraction(value: Any, column: str, problem: Bad) -> float | None:
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
