"""``sim analyze DIR --game PATH_A PATH_B``: a finished grid read as a two-sided game.

Each value of ``PATH_A`` is an alternative of the side whose win share is the payoff (by
default the side ``PATH_A`` names, ``sides.NAME....``; else the first side), each value of
``PATH_B`` one of its opponents'; every pair must have been fought. The battles' seeds say
which met the same dice (a sweep with ``seeds: shared``), so the posterior keeps their
correlation. Solved by :mod:`sim.games` and said by :mod:`sim.gamereport`, as the game
design's answer is.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from matplotlib.figure import Figure

from sim import gamereport, games
from sim.analysis.dataset import Dataset
from sim.errors import SimError, unknown

SEED = 38
"""The posterior's own seed: the same dataset gives the same answer."""
MARGIN = 0.02
"""Weak dominance: nowhere worse by more than this (2 points)."""


def game(
    ds: Dataset, path_a: str, path_b: str, side: str | None = None, of: str = "decisive"
) -> tuple[dict[str, Any], Figure]:
    """The game of ``ds`` (an answer's ``lines``, ``tables`` and ``data``) and its heatmap."""
    for p in (path_a, path_b):
        if p not in ds.params:
            raise SimError(unknown("swept parameter", p, ds.params))
    if path_a == path_b:
        raise SimError("--game needs two different parameters, one for each side")
    if of not in ("decisive", "all"):
        raise SimError(f"--of: expected decisive or all, got {of!r}")
    runs = ds.runs
    sides = _sides(ds)
    me = side or _side_of(path_a, sides)
    if me not in sides:
        raise SimError(unknown("side", me, sides))
    others = [s for s in sides if s != me]
    them = others[0] if len(others) == 1 else "opponents"
    rows = [str(v) for v in (ds.declared(path_a) or sorted(runs[path_a].astype(str).unique()))]
    cols = [str(v) for v in (ds.declared(path_b) or sorted(runs[path_b].astype(str).unique()))]
    cells, battles = _cells(runs, path_a, path_b, rows, cols, me, of)
    result = games.analyse(cells, np.random.default_rng(SEED), margin=MARGIN)
    names = gamereport.Names(
        me,
        them,
        ds.labels.get(path_a, path_a),
        ds.labels.get(path_b, path_b),
        tuple(rows),
        tuple(cols),
        of,
    )
    lines, tables = gamereport.report(result, names, battles)
    answer = {
        "design": "game",
        "lines": lines,
        "tables": tables,
        "charts": [],
        "data": gamereport.data(result, names, battles),
    }
    return answer, gamereport.heatmap(result, names)


def _cells(
    runs: Any, path_a: str, path_b: str, rows: list[str], cols: list[str], me: str, of: str
) -> tuple[games.Cells, int]:
    """The cells of the runs (failed ones left out), and the battles that finished."""
    r = runs[path_a].astype(str).map({v: i for i, v in enumerate(rows)})
    c = runs[path_b].astype(str).map({v: i for i, v in enumerate(cols)})
    ok = runs["error"].isna().to_numpy() & r.notna().to_numpy() & c.notna().to_numpy()
    win = (runs["winner"] == me).to_numpy()
    counted = ok & (runs["winner"].notna().to_numpy() if of == "decisive" else True)
    cells = games.cells_of(
        r[ok].astype(int).to_numpy(),
        c[ok].astype(int).to_numpy(),
        win[ok],
        counted[ok],
        runs["seed"].to_numpy()[ok],
        (len(rows), len(cols)),
    )
    empty = np.argwhere(cells.counted == 0)
    if len(empty):
        i, j = empty[0]
        raise SimError(
            f"--game: no {of} battle at {path_a} = {rows[i]}, {path_b} = {cols[j]}; "
            "every pair of choices needs battles that count"
            + ("; --of all counts draws too" if of == "decisive" else "")
        )
    return cells, int(ok.sum())


def _sides(ds: Dataset) -> list[str]:
    frame = ds.sides
    return list(dict.fromkeys(frame["side"].astype(str))) if len(frame) else []


def _side_of(path: str, sides: list[str]) -> str:
    """The side a path names (``sides.guards.tactic``: guards), else the first side."""
    parts = path.split(".")
    if len(parts) > 1 and parts[0] == "sides" and parts[1] in sides:
        return parts[1]
    return sides[0] if sides else ""
