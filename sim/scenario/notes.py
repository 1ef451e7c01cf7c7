"""Warnings about a scenario that loads but may not mean what its author thinks.

Two kinds, each reported once per field (at its first place, with how many more):

- a fighter field the chosen rule system never reads: a War Game ``weapon`` under 2W2P, a
  ``deathwish`` block under D6 tiers... (War Game stats count under Deathwish and D6 tiers
  when ``battle.large_scale: pools``, which fights War Game pools: then they are not
  reported). A scenario whose fighters carry both a ``deathwish`` and a ``d6`` block is
  written for every system (``scenarios/mirror.yaml``) and gets none of these;
- a War Game weapon alias that names another row than the one it resembles: ``sword`` is
  the seed's ``plain`` (a weapon with no category property), not ``bastard_sword``.

A warning is an :class:`~sim.scenario.reader.Issue`; it never stops a run.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from functools import cache
from typing import Any

from sim.rules import SYSTEMS
from sim.rules.common import aliases_of, load_csv
from sim.scenario.overrides import OVERRIDE_SOURCE, apply_override
from sim.scenario.reader import Issue, Locate, ScenarioError, join_path, read_yaml

WHAT = {
    "weapon": "a War Game weapon category",
    "shield": "a War Game shield",
    "mounted": "a War Game weapon effect",
    "two_handed": "a War Game weapon effect",
    "prime": "a 2W2P field",
    "head_protection": "a 2W2P field",
    "front": "a 2W2P front",
    "deathwish": "the Deathwish block",
    "d6": "the D6 tiers block",
}


def ignored(system: str, large_scale: str) -> tuple[str, ...]:
    """The fighter fields ``system`` never reads, with ``battle.large_scale`` as given.

    Every system's ``FIGHTER_FIELDS`` (:mod:`sim.rules`) that this one does not read
    (its ``POOL_FIELDS`` count as read in War Game pools).
    """
    module = SYSTEMS.get(system)
    if module is None:
        return ()
    reads = set(module.FIGHTER_FIELDS)
    if large_scale == "pools":
        reads |= set(module.POOL_FIELDS)
    known = [f for m in SYSTEMS.values() for f in m.FIGHTER_FIELDS]
    return tuple(dict.fromkeys(f for f in known if f not in reads))


def _written_for_every_system(fields: set[str]) -> bool:
    """Whether fighters carry every system's own block (``deathwish:`` and ``d6:``)."""
    blocks = {m.NAME for m in SYSTEMS.values() if m.NAME in m.FIGHTER_FIELDS}
    return bool(blocks) and blocks <= fields


@cache
def changed_meaning() -> dict[str, str]:
    """War Game weapon aliases that resemble another row's name: alias -> the row it is."""
    rows = [
        (r["name"], [r["name"], *aliases_of(r["aliases"])]) for r in load_csv("wargame_weapons.csv")
    ]
    out = {}
    for name, words in rows:
        for alias in words[1:]:
            key = key_of(alias)
            others = [key_of(w) for n, ws in rows if n != name for w in ws]
            if any(key in o for o in others if len(key) > 3):
                out[key] = name
    return out


def key_of(name: str) -> str:
    """A name as the tables key it: lower case, spaces and dashes as underscores."""
    return name.strip().lower().replace(" ", "_").replace("-", "_")


def _fighters(doc: Mapping[str, Any]) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """(path, fields) of every template and fighter entry of the document."""
    templates = doc.get("templates")
    if isinstance(templates, dict):
        for name, body in templates.items():
            if isinstance(body, dict):
                yield join_path("templates", str(name)), body
    sides = doc.get("sides")
    if isinstance(sides, dict):
        for name, side in sides.items():
            entries = side.get("fighters") if isinstance(side, dict) else None
            for i, e in enumerate(entries if isinstance(entries, list) else []):
                if isinstance(e, dict):
                    yield f"{join_path(join_path('sides', str(name)), 'fighters')}[{i}]", e
    events = doc.get("events")
    for j, ev in enumerate(events if isinstance(events, list) else []):
        entries = ev.get("fighters") if isinstance(ev, dict) else None
        for i, e in enumerate(entries if isinstance(entries, list) else []):
            if isinstance(e, dict):
                yield f"events[{j}].fighters[{i}]", e


def document_notes(
    doc: Mapping[str, Any],
    source: str,
    locate: Locate,
    systems: bool = True,
    overridden: tuple[str, ...] = (),
) -> list[Issue]:
    """The warnings of a scenario document (``systems``: about ignored fields too).

    A warning at or below one of the ``overridden`` paths is blamed on ``--set``.
    """
    rules = doc.get("rules", "wargame")
    system = rules if isinstance(rules, str) else (rules or {}).get("system", "wargame")
    battle = doc.get("battle")
    scale = battle.get("large_scale", "turns") if isinstance(battle, dict) else "turns"
    every = _written_for_every_system({f for _, fields in _fighters(doc) for f in fields})
    skip = ignored(str(system), str(scale)) if systems and not every else ()
    seen: dict[str, list[str]] = {}
    aliases = changed_meaning()
    for path, fields in _fighters(doc):
        for f in fields:
            if f in skip:
                seen.setdefault(f"ignored:{f}", []).append(join_path(path, f))
        weapon = fields.get("weapon")
        if isinstance(weapon, str) and key_of(weapon) in aliases:
            seen.setdefault(f"alias:{key_of(weapon)}", []).append(join_path(path, "weapon"))
    out = []
    for key, paths in seen.items():
        kind, _, name = key.partition(":")
        more = f" (and {len(paths) - 1} more)" if len(paths) > 1 else ""
        if kind == "ignored":
            message = f"ignored under {system}: {WHAT[name]}{more}"
        else:
            message = (
                f"{name!r} is read as the War Game weapon {aliases[name]!r}, not as the "
                f"category it resembles{more}"
            )
        first = paths[0]
        if any(first == o or first.startswith((o + ".", o + "[")) for o in overridden):
            out.append(Issue(OVERRIDE_SOURCE, None, first, message))
        else:
            out.append(Issue(source, locate(first), first, message))
    return sorted(out, key=lambda i: (i.line or 0, i.path))


def scenario_notes(text: str, source: str, overrides: tuple[str, ...] = ()) -> list[Issue]:
    """The warnings of a scenario text after its overrides (none if it does not read)."""
    try:
        doc, locate = read_yaml(text, source)
        if not isinstance(doc, dict):
            return []
        changed = tuple(apply_override(doc, o) for o in overrides)
    except ScenarioError:
        return []
    return document_notes(doc, source, locate, overridden=changed)
