"""A battle's replay page: one self-contained HTML file to watch a run round by round.

``sim run SCENARIO --html FILE`` and ``sim replay DATASET --run N --html FILE`` write it
with :func:`write`. The page needs no network: its script and styles (``replay.js``,
``replay.css`` beside this module) are inlined, and the battle is a JSON block in it
(:func:`page_data`). It has play, pause, step and a round slider; the map with every fighter
by side, status and name (without a map, each side as a column of fighters); the
narrative of the round beside it; each side's active fighters and HD over the rounds as
two small charts; a click on a fighter shows its state. A campaign's battles are each a
choice of the page.

Every number on the page is the battle's own: fighters' states from ``Battle.states``
(the rows of ``battle.datacollector``), the sides' counts from ``Battle.round_rows``, the
narrative from ``Battle.narrative()`` (the run is fought with its event log on). A battle on a
map can also be drawn as one PNG per round and an animated GIF (:mod:`~sim.page.frames`).

May import: ``sim.run``, ``sim.battle``, ``sim.dataset``, ``sim.space`` and the ground floor;
never the CLI.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from markupsafe import Markup

from sim import files
from sim.battle.battle import headline
from sim.space.map import SIDE_COLORS

if TYPE_CHECKING:
    from sim.battle.battle import Battle
    from sim.run.core import Fought

IN_FIGHT = ("active", "fleeing")


def battle_data(battle: Battle, seed: int, label: str = "") -> dict[str, Any]:
    """One battle as the page draws it (plain JSON data)."""
    sides = list(battle.sides)
    roster = battle.roster
    out = battle.outcome()
    cells = _cells(battle)
    states = [
        [
            [st[0].value, st[1], st[2], st[3], st[4], *(cells.get((r, f.name)) or (None, None))]
            for f, st in zip(roster, row, strict=False)
        ]
        for r, row in enumerate(battle.states)
    ]
    return {
        "title": headline(battle, seed),
        "label": label,
        "scenario": battle.spec.name,
        "rules": battle.rules,
        "seed": seed,
        "winner": out.winner,
        "end_reason": out.end_reason,
        "rounds": out.rounds,
        "sides": [
            {"name": s, "color": SIDE_COLORS[i % len(SIDE_COLORS)]} for i, s in enumerate(sides)
        ],
        "fighters": [
            {
                "name": f.name,
                "side": f.side,
                "role": f.role,
                "leader": f.leader,
                "tier": f.tier.name.lower(),
                "hd_start": f.hd_start,
                "arrived": f.arrived_round,
            }
            for f in roster
        ],
        "state_fields": ["status", "hd", "armor", "wounds_taken", "wounds_dealt", "x", "y"],
        "states": states,
        "counts": _counts(battle),
        "narrative": _narrative(battle),
        "map": _map(battle),
    }


def page_data(fought: Fought, seed: int) -> dict[str, Any]:
    """Every battle of a run (one, or a campaign's in order) as the page's JSON data."""
    labels = {r["battle"]: r["battle_label"] for r in fought.campaign}
    return {
        "battles": [
            battle_data(b, seed, labels.get(i, "") if fought.campaign else "")
            for i, b in enumerate(fought.battles, start=1)
        ]
    }


def render(data: dict[str, Any]) -> str:
    """The page's HTML for ``data`` (:func:`page_data`): script, styles and data inline.

    One pass of a template with autoescape (Jinja2): every text of ``data`` is escaped
    where it lands, and the data block is JSON with ``<``, ``>`` and ``&`` written as JSON
    escapes (:func:`inline_json`), so no name can end the block, open a comment, or be
    taken for a placeholder.
    """
    import jinja2

    folder = resources.files(__name__)
    env = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined)
    template = env.from_string((folder / "replay.html").read_text(encoding="utf-8"))
    title = data["battles"][0]["title"] if data["battles"] else "sim replay"
    return template.render(
        title=title,
        style=Markup((folder / "replay.css").read_text(encoding="utf-8")),
        script=Markup((folder / "replay.js").read_text(encoding="utf-8")),
        data=Markup(inline_json(data)),
    )


_INLINE = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026"})


def inline_json(data: Any) -> str:
    """``data`` as JSON text that is safe inside an HTML ``<script>`` element.

    ``<``, ``>`` and ``&`` are written as JSON escapes (a backslash, ``u003c`` ...), which
    JSON reads back as the same characters, as it does every character beyond ASCII: the
    text can hold no ``</script>``, no ``<!--`` and no character reference.
    """
    return json.dumps(data, separators=(",", ":")).translate(_INLINE)


def write(path: str | Path, fought: Fought, seed: int, force: bool = False) -> Path:
    """Write the replay page of ``fought`` (fought with ``events=True``) to ``path``.

    Whole or not at all; an existing file is replaced only with ``force``, as the page is
    written (a file made while the battle was fought is not lost).
    """
    path = Path(path)
    data = render(page_data(fought, seed)).encode("utf-8")
    files.write_file(path, data, replace=force, flag="--html")
    return path


# ---------------------------------------------------------------------------------------
# parts of a battle's data


def _cells(battle: Battle) -> dict[tuple[int, str], tuple[int, int]]:
    """Where each fighter stood (or last stood) after each round, on a battle with a map."""
    if battle.field is None:
        return {}
    return {
        (r, m.name): (int(m.cell[0]), int(m.cell[1]))
        for r, marks in battle.field.snapshots.items()
        for m in marks
    }


def _counts(battle: Battle) -> dict[str, dict[str, list[int]]]:
    """Each side's active fighters and HD (of those in the fight) after each round.

    Round 0 (the deployment) from the fighters' first states; the others from the battle's
    round rows, the very numbers of the ``rounds`` table.
    """
    sides = list(battle.sides)
    counts = {s: {"active": [0], "fleeing": [0], "hd": [0]} for s in sides}
    for f, st in zip(battle.roster, battle.states[0], strict=False):
        c = counts[f.side]
        c["active"][0] += st[0].value == "active"
        c["fleeing"][0] += st[0].value == "fleeing"
        c["hd"][0] += st[1] if st[0].value in IN_FIGHT else 0
    for row in battle.round_rows:
        c = counts[row["side"]]
        for key in ("active", "fleeing", "hd"):
            c[key].append(int(row[key]))
    return counts


def _narrative(battle: Battle) -> list[list[str]]:
    """The narrative's lines, round by round (index 0: before the first round)."""
    rounds: list[list[str]] = [[] for _ in range(len(battle.states))]
    for event, line in zip(battle.log or [], battle.narrative(), strict=False):
        r = min(int(event["round"]), len(rounds) - 1)
        rounds[r].append(line.partition(": ")[2])
    return rounds


def _map(battle: Battle) -> dict[str, Any] | None:
    """The battlefield: its size, terrain and the sides' deployment zones; None without one."""
    if battle.field is None:
        return None
    spec = battle.field.spec
    return {
        "width": spec.width,
        "height": spec.height,
        "terrain": [
            {"kind": t.kind, "name": t.name, "cells": [list(c) for c in t.cells]}
            for t in spec.terrain
        ],
        "zones": {side: [list(c) for c in cells] for side, cells in spec.zones.items()},
    }


def sides_of(data: dict[str, Any]) -> Sequence[str]:
    """The side names of a battle's page data, in order."""
    return [s["name"] for s in data["sides"]]
