"""Warnings about an experiment that loads but may not mean what its author thinks.

Its base scenario's warnings with the ``set:`` entries applied
(:func:`sim.scenario.notes.document_notes`), and War Game weapon aliases among the design's
values that name another row than the one they resemble. A warning never stops a sweep.
"""

from __future__ import annotations

import copy

from sim.experiment.model import Experiment
from sim.scenario.notes import changed_meaning, document_notes, key_of
from sim.scenario.overrides import apply_override
from sim.scenario.reader import Issue, ScenarioError, read_yaml


def experiment_notes(exp: Experiment) -> list[Issue]:
    """The warnings of an experiment's base scenario with its ``set:`` entries applied.

    An experiment that sweeps ``rules.system`` gets no warnings about ignored fields: its
    scenario is meant for several systems.
    """
    try:
        doc, locate = read_yaml(exp.scenario_text, exp.scenario_path)
        if not isinstance(doc, dict):
            return []
        doc = copy.deepcopy(doc)
        for o in exp.overrides:
            apply_override(doc, o)
    except ScenarioError:
        return []
    systems = not any(p in ("rules", "rules.system") for p in exp.parameters)
    return document_notes(doc, exp.scenario_path, locate, systems) + _point_aliases(exp)


def _point_aliases(exp: Experiment) -> list[Issue]:
    """Misleading weapon aliases among the design's values, once per parameter and alias."""
    aliases = changed_meaning()
    found: dict[tuple[str, str], int] = {}
    for p in exp.parameters:
        if not p.endswith("weapon"):
            continue
        for point in exp.points:
            v = point.get(p)
            if isinstance(v, str) and key_of(v) in aliases:
                found[(p, key_of(v))] = found.get((p, key_of(v)), 0) + 1
    if not found:
        return []
    _, locate = read_yaml(exp.text, exp.path)
    out = []
    for (p, alias), n in found.items():
        where = f"parameters.{p}"
        if exp.design == "list":
            k = next(i for i, pt in enumerate(exp.points) if key_of(str(pt.get(p))) == alias)
            where = f"points[{k}].{p}"
        points = f" ({n} design point{'s' if n > 1 else ''})"
        message = (
            f"{alias!r} is read as the War Game weapon {aliases[alias]!r}, not as the "
            f"category it resembles{points}"
        )
        out.append(Issue(exp.path, locate(where), where, message))
    return out
