"""History's force-ratio table, from CDB90: how often the larger side won, and what it cost.

Reads the CDB90 data package kept in the repository (``data/cdb90/``, found from this
file's own place, not the working directory) and writes one CSV row per band of force
ratio (``experiments/history/cdb90_ratio.csv`` unless ``--out FILE``)::

    python experiments/history/cdb90_table.py [--out FILE]

The rule: battles that are a part of another listed battle (a non-empty ``parent``) are
left out; of the rest, the decisive ones (``WINA`` of the original wide table 1, the
attacker won, or -1, the defender won; the tidy ``wina`` lost every -1 to an empty cell)
whose two sides' initial strengths (``intst``, else the total ``str`` where it is not
given) are known and differ. A battle's force ratio is the larger initial strength over
the smaller, binned [1, 1.25), [1.25, 2), [2, 3), [3, 5), [5, inf). Equal strengths have
no larger side and are left out. A side's loss is its casualties (``cas``) over its total
strength (``str``: the initial one and its reinforcements, as the simulator counts a
side's fighters); a missing one or one above 1 is left out of the medians.

The file is written to a temporary file beside it, then moved into place.
"""

from __future__ import annotations

import argparse
import csv
import io
import math
import os
import sys
import tempfile
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
DATA = ROOT / "data" / "cdb90"
OUT = HERE / "cdb90_ratio.csv"
BATTLES = Path("data/battles.csv")
SIDES = Path("data/belligerents.csv")
ORIGINAL = Path("src-data/CDB90-orig.csv")

EDGES = (1.0, 1.25, 2.0, 3.0, 5.0, math.inf)
LABELS = ("1-1.25", "1.25-2", "2-3", "3-5", "5+")
COLUMNS = (
    "label",
    "ratio",
    "battles",
    "decisive",
    "wins.larger",
    "loser.casualties.median",
    "loser.casualties.median.n",
    "winner.casualties.median",
    "winner.casualties.median.n",
)
ATTRIBUTION = (
    "CDB90 (U.S. Army Concepts Analysis Agency, Helmbold 1991), tidied by J. Arnold, ODC-By 1.0"
)
Z95 = 1.959963984540054


@dataclass(frozen=True)
class Table:
    """The battles kept, one row each, and how many were left out and why."""

    battles: pd.DataFrame
    """Per battle: ``name``, ``ratio``, ``bin`` (0-4), ``larger_won``, ``loser_lost``,
    ``winner_lost`` (NaN where unknown or above 1)."""
    dropped: dict[str, int]
    """Battles left out, by reason, in the order the rule drops them."""
    lost_out: dict[str, int]
    """Casualty shares left out of the medians: ``{loser,winner}.{missing,above1}``."""
    total: int


def _read(path: Path) -> pd.DataFrame:
    """A CSV file as text cells, an empty cell an empty string."""
    return pd.read_csv(path, dtype=str, keep_default_na=False)


def _number(cells: pd.Series) -> pd.Series:
    """Text cells as numbers; an empty or non-numeric cell NaN."""
    return pd.to_numeric(cells.str.strip(), errors="coerce").astype(float)


def check_data(data: Path) -> None:
    """Refuse (SystemExit, one line) a data folder that is missing or lacks a file."""
    if not data.is_dir():
        raise SystemExit(f"cdb90_table.py: no CDB90 data folder at {data}")
    for name in (BATTLES, SIDES, ORIGINAL):
        if not (data / name).is_file():
            raise SystemExit(f"cdb90_table.py: the CDB90 data folder lacks {data / name}")


def battles(data: Path = DATA) -> Table:
    """The decisive battles with two known, different strengths, and what was left out."""
    check_data(data)
    tidy = _read(data / BATTLES)
    sides = _read(data / SIDES)
    original = _read(data / ORIGINAL)

    per_battle = sides.groupby("isqno")["attacker"].agg(lambda s: "".join(sorted(s)))
    if not (per_battle == "01").all() or set(per_battle.index) != set(tidy["isqno"]):
        raise SystemExit(f"cdb90_table.py: {data / SIDES}: not one attacker and one defender")
    wina = original.set_index("ISQNO")["WINA"]
    if set(wina.index) != set(tidy["isqno"]):
        raise SystemExit(f"cdb90_table.py: {data / ORIGINAL}: not the battles of {BATTLES}")

    frame = tidy[["isqno", "name", "parent"]].set_index("isqno")
    frame["wina"] = _number(wina.reindex(frame.index))
    for role, flag in (("a", "1"), ("d", "0")):
        side = sides[sides["attacker"] == flag].set_index("isqno").reindex(frame.index)
        frame[f"str_{role}"] = _number(side["str"])
        frame[f"ini_{role}"] = _number(side["intst"]).fillna(frame[f"str_{role}"])
        frame[f"cas_{role}"] = _number(side["cas"])
    total = len(frame)
    dropped: dict[str, int] = {}

    rules = (
        ("parts of another battle", lambda f: f["parent"].str.strip() == ""),
        ("draws", lambda f: f["wina"] != 0),
        ("without a result", lambda f: f["wina"].isin([1, -1])),
        ("with a strength unknown", lambda f: (f["ini_a"] > 0) & (f["ini_d"] > 0)),
        ("with equal strengths", lambda f: f["ini_a"] != f["ini_d"]),
    )
    for reason, rule in rules:
        mask = rule(frame)
        dropped[reason] = int((~mask).sum())
        frame = frame[mask]

    attacker_won = frame["wina"] == 1
    attacker_larger = frame["ini_a"] > frame["ini_d"]
    larger = np.maximum(frame["ini_a"], frame["ini_d"])
    smaller = np.minimum(frame["ini_a"], frame["ini_d"])
    ratio = larger / smaller
    share_a = frame["cas_a"] / frame["str_a"]
    share_d = frame["cas_d"] / frame["str_d"]
    loser = pd.Series(np.where(attacker_won, share_d, share_a), index=frame.index)
    winner = pd.Series(np.where(attacker_won, share_a, share_d), index=frame.index)
    lost_out = {
        "loser.missing": int(loser.isna().sum()),
        "loser.above1": int((loser > 1).sum()),
        "winner.missing": int(winner.isna().sum()),
        "winner.above1": int((winner > 1).sum()),
    }
    out = pd.DataFrame(
        {
            "name": frame["name"],
            "ratio": ratio,
            "bin": np.searchsorted(np.array(EDGES), ratio.to_numpy(), side="right") - 1,
            "larger_won": attacker_won == attacker_larger,
            "loser_lost": loser.where(loser <= 1),
            "winner_lost": winner.where(winner <= 1),
        }
    )
    return Table(out, dropped, lost_out, total)


def wilson(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a binomial share (95% by default)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (centre - half, centre + half)


def rows(table: Table) -> list[dict[str, str]]:
    """The CSV's rows: one per bin of force ratio, each cell as text."""
    out = []
    for i, label in enumerate(LABELS):
        b = table.battles[table.battles["bin"] == i]
        loser = b["loser_lost"].dropna()
        winner = b["winner_lost"].dropna()
        out.append(
            {
                "label": label,
                "ratio": f"{b['ratio'].median():.3g}",
                "battles": str(len(b)),
                "decisive": str(len(b)),
                "wins.larger": f"{b['larger_won'].mean():.4f}",
                "loser.casualties.median": f"{loser.median():.4f}",
                "loser.casualties.median.n": str(len(loser)),
                "winner.casualties.median": f"{winner.median():.4f}",
                "winner.casualties.median.n": str(len(winner)),
            }
        )
    return out


def comments(table: Table) -> list[str]:
    """The CSV's opening comment lines (without the ``#``)."""
    d = table.dropped
    lo = table.lost_out
    kept = len(table.battles)
    return [
        "History's force-ratio table: CDB90's land battles of 1600-1973 by the ratio of the",
        "larger side's strength to the smaller's; per band, the larger side's share of the wins",
        "and the median share of its strength the loser and the winner lost.",
        "Derived from the decisive battles (WINA 1 or -1 of src-data/CDB90-orig.csv, joined on",
        "isqno), parts of another listed battle (a non-empty parent) left out, whose initial",
        "strengths (intst, else str where it is missing) are known and differ: ratio = larger",
        "/ smaller, binned [1,1.25) [1.25,2) [2,3) [3,5) [5,inf); a side's casualties (killed,",
        "wounded and captured or missing) = cas / str (its total strength, reinforcements in).",
        *textwrap.wrap(
            f"Of {table.total} battles: {d['parts of another battle']} parts, {d['draws']}"
            f" draws, {d['without a result']} without a result, {d['with a strength unknown']}"
            f" with a strength unknown and {d['with equal strengths']} with equal strengths"
            f" (no larger side) left out; {kept} kept. Left out of the medians: the loser's"
            f" share missing {lo['loser.missing']}, above 1 {lo['loser.above1']}; the"
            f" winner's missing {lo['winner.missing']}, above 1 {lo['winner.above1']}.",
            width=88,
        ),
        ATTRIBUTION,
        "made by experiments/history/cdb90_table.py",
    ]


def render(table: Table) -> str:
    """The whole CSV file: comment lines, header, one row per bin."""
    text = io.StringIO()
    for line in comments(table):
        text.write(f"# {line}\n")
    writer = csv.DictWriter(text, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows(table))
    return text.getvalue()


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file in the same folder."""
    if not path.parent.is_dir():
        raise SystemExit(f"cdb90_table.py: no folder {path.parent} to write {path.name} in")
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def summary(table: Table) -> str:
    """The short summary printed to stdout."""
    b = table.battles
    lines = [
        f"CDB90: {len(b)} decisive battles of {table.total} kept; left out: "
        + ", ".join(f"{n} {why}" for why, n in table.dropped.items()),
        f"{'ratio':>8} {'battles':>7}  {'larger wins [95% Wilson]':<26}"
        f"{'loser lost':>11} {'winner lost':>12}",
    ]
    for i, label in enumerate(LABELS):
        g = b[b["bin"] == i]
        wins, n = int(g["larger_won"].sum()), len(g)
        low, high = wilson(wins, n)
        lines.append(
            f"{label:>8} {n:>7}  {wins / n:6.1%} [{low:5.1%}, {high:5.1%}]     "
            f"{g['loser_lost'].median():10.1%} {g['winner_lost'].median():12.1%}"
        )
    lines.append(
        f"{'pooled':>8} {len(b):>7}  {b['larger_won'].mean():6.1%}{'':20}"
        f"{b['loser_lost'].median():10.1%} {b['winner_lost'].median():12.1%}"
        f"  (n {b['loser_lost'].notna().sum()} and {b['winner_lost'].notna().sum()})"
    )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None, *, data: Path = DATA) -> int:
    """Write the table (``--out FILE``, default beside this script) and print its summary."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help=f"the CSV to write ({OUT.name})")
    args = parser.parse_args(argv)
    table = battles(Path(data))
    write_atomic(args.out, render(table))
    print(summary(table))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
