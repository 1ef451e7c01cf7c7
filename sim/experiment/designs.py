"""Designs: the points an experiment's ``parameters`` expand into, counted before they are made.

Six designs. ``grid`` (the full factorial of value lists), ``list`` (points given one by
one, each with an optional ``label``), ``random`` and ``lhs`` (``samples`` draws of numeric
ranges, a Latin hypercube for ``lhs``), and three for global sensitivity analysis, sampled
through SALib: ``sobol`` (Saltelli's scheme, ``samples`` N a power of 2: N*(D+2) points, or
N*(2D+2) with ``second_order: true``), ``morris`` (``samples`` trajectories of D+1 points on
``levels`` levels, default 4) and ``fast`` (extended FAST, ``samples`` N per parameter,
N*D points, N above 64). D is the number of parameters.

A design's size is counted from its keys before a point is made (:func:`count_points`),
so ``samples: 10000000`` or a grid of 10^9 combinations is refused at once. Sampled
designs draw unit values in [0, 1] first (:func:`unit_sample`) and map them onto each
parameter's range: ``low + u * (high - low)``, or whole numbers ``low .. high`` in equal
shares when both bounds are whole; the unit matrix is what the sensitivity analysis reads.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

DESIGNS = ("grid", "random", "lhs", "list", "sobol", "morris", "fast")
SENSITIVITY = ("sobol", "morris", "fast")
SAMPLED = ("random", "lhs", *SENSITIVITY)
MAX_POINTS = 100_000
"""Most design points an experiment may have (every one is checked before the first run)."""
LIST_KEYS = ("label",)
"""Keys of a ``list`` design's point that are not parameters."""

Bad = Callable[[str, str], None]


def count_points(doc: Mapping[str, Any], design: str) -> int | None:
    """How many points the design makes, from its keys alone; None if they are malformed.

    Nothing is expanded: a grid's size is the product of its lists' lengths.
    """
    params = doc.get("parameters")
    if design == "list":
        pts = doc.get("points")
        return len(pts) if isinstance(pts, list) else None
    if not isinstance(params, dict) or not params:
        return None
    if design == "grid":
        sizes = [len(v) if isinstance(v, list) else 0 for v in params.values()]
        return math.prod(sizes) if all(sizes) else None
    samples = doc.get("samples")
    if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
        return None
    d = len(params)
    if design == "sobol":
        return samples * (2 * d + 2 if doc.get("second_order") is True else d + 2)
    if design == "morris":
        return samples * (d + 1)
    if design == "fast":
        return samples * d
    return samples


def expand(
    doc: Mapping[str, Any], design: str, seed: int, bad: Bad
) -> tuple[list[dict[str, Any]], list[str], list[str | None]]:
    """The design's points (ordered), the parameter names and each point's label (or None).

    Call :func:`count_points` first: this makes every point.
    """
    if design == "list":
        return _list_points(doc.get("points"), bad)
    params = doc.get("parameters")
    if not isinstance(params, dict) or not params:
        bad("parameters", "expected a mapping of PATH to values")
        return [], [], []
    names = [str(n) for n in params]
    if design == "grid":
        lists = []
        for n in names:
            vals = params[n]
            if not isinstance(vals, list) or not vals:
                bad(f"parameters.{n}", "a grid parameter is a non-empty list of values")
                return [], [], []
            for i, v in enumerate(vals):
                _finite(v, f"parameters.{n}[{i}]", bad)
            lists.append(vals)
        points = [dict(zip(names, c, strict=True)) for c in itertools.product(*lists)]
        unlabelled: list[str | None] = [None] * len(points)
        return points, names, unlabelled
    columns = _sampled_columns(doc, design, names, seed, bad)
    if columns is None:
        return [], [], []
    size = len(next(iter(columns.values())))
    none: list[str | None] = [None] * size
    return [{p: columns[p][i] for p in names} for i in range(size)], names, none


def _list_points(pts: Any, bad: Bad) -> tuple[list[dict[str, Any]], list[str], list[str | None]]:
    """A ``list`` design: its points as given, each one's ``label`` taken out.

    A point may leave out a parameter other points set: it keeps the base scenario's value
    (its runs' column is null).
    """
    if not isinstance(pts, list) or not pts or not all(isinstance(p, dict) for p in pts):
        bad("points", "a list design needs points: a non-empty list of mappings")
        return [], [], []
    # the parameters in the order the points first name them (the tables' column order)
    names = list(dict.fromkeys(str(k) for p in pts for k in p if k not in LIST_KEYS))
    labels: list[str | None] = []
    for i, p in enumerate(pts):  # a point may leave a parameter at the base scenario's value
        label = p.get("label")
        if label is not None and (not isinstance(label, str) or not label.strip()):
            bad(f"points[{i}].label", f"expected a short text, got {label!r}")
            label = None
        labels.append(label)
        for n in (n for n in names if n in p):
            _finite(p[n], f"points[{i}].{n}", bad)
    given = [x for x in labels if x is not None]
    for x in sorted({x for x in given if given.count(x) > 1}):
        bad(f"points[{labels.index(x)}].label", f"label {x!r} names more than one point")
    points = [{n: p[n] for n in names if n in p} for p in pts]
    return points, names, labels


def _finite(v: Any, path: str, bad: Bad) -> None:
    if isinstance(v, float) and not math.isfinite(v):
        bad(path, f"expected a finite number, got {v!r}")


def ranges(
    params: Mapping[str, Any], design: str, bad: Bad
) -> dict[str, tuple[float, float, bool] | list[Any]] | None:
    """Each parameter's ``(low, high, whole)`` range or ``random``'s list of choices."""
    out: dict[str, tuple[float, float, bool] | list[Any]] = {}
    for n, spec in params.items():
        where = f"parameters.{n}"
        if isinstance(spec, dict) and "choices" in spec and design == "random":
            choices = spec["choices"]
            if not isinstance(choices, list) or not choices:
                bad(where, "choices must be a non-empty list")
                return None
            out[str(n)] = choices
            continue
        if not (isinstance(spec, dict) and {"low", "high"} <= set(spec)):
            kind = "{low, high} or {choices: [...]}" if design == "random" else "{low, high}"
            bad(where, f"a {design} parameter is {kind}")
            return None
        low, high = spec["low"], spec["high"]
        if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (low, high)):
            bad(where, "low and high must be numbers")
            return None
        if not all(math.isfinite(v) for v in (low, high)):
            bad(where, f"low and high must be finite numbers, got {low!r} and {high!r}")
            return None
        if high < low:
            bad(where, f"high ({high}) is below low ({low})")
            return None
        if design in SENSITIVITY and high == low:
            bad(where, f"low and high are equal ({low}): nothing to vary")
            return None
        out[str(n)] = (low, high, isinstance(low, int) and isinstance(high, int))
    return out


def _sampled_columns(
    doc: Mapping[str, Any], design: str, names: list[str], seed: int, bad: Bad
) -> dict[str, list[Any]] | None:
    """Each parameter's values at every point of a sampled design."""
    spans = ranges(doc["parameters"], design, bad)
    if spans is None:
        return None
    samples = int(doc["samples"])
    if design in SENSITIVITY:
        unit = unit_sample(doc, design, len(names), seed, bad)
        if unit is None:
            return None
    else:
        rng = np.random.default_rng(np.random.SeedSequence(seed))
        unit = np.empty((samples, len(names)))
        for j, n in enumerate(names):
            if isinstance(spans[n], list):
                unit[:, j] = rng.integers(len(spans[n]), size=samples)
            elif design == "lhs":
                unit[:, j] = (rng.permutation(samples) + rng.random(samples)) / samples
            else:
                unit[:, j] = rng.random(samples)
    return {n: _scale(unit[:, j], spans[n]) for j, n in enumerate(names)}


def _scale(u: np.ndarray[Any, Any], span: tuple[float, float, bool] | list[Any]) -> list[Any]:
    """Unit values (or choice indexes) as a parameter's values."""
    if isinstance(span, list):
        return [span[int(i)] for i in u]
    low, high, whole = span
    if whole:
        return [min(int(high), int(low) + int(x * (high - low + 1))) for x in u]
    return [float(low + x * (high - low)) for x in u]


def unit_sample(
    doc: Mapping[str, Any], design: str, d: int, seed: int, bad: Bad | None = None
) -> np.ndarray[Any, Any] | None:
    """A sensitivity design's sample on the unit cube, one row per point (SALib's order).

    Checks the design's own keys (``samples``, ``levels``, ``second_order``) through ``bad``.
    """
    from SALib.sample import fast_sampler, morris, sobol

    def fail(path: str, message: str) -> None:
        if bad is not None:
            bad(path, message)

    n = int(doc["samples"])
    problem = {"num_vars": d, "names": [f"x{i}" for i in range(d)], "bounds": [[0, 1]] * d}
    seed32 = seed % 2**32
    if design == "sobol":
        second = doc.get("second_order", False)
        if not isinstance(second, bool):
            fail("second_order", f"expected true or false, got {second!r}")
            return None
        if n & (n - 1):
            fail("samples", f"a sobol design needs samples: a power of 2 (64, 128, ...), got {n}")
            return None
        x = sobol.sample(problem, n, calc_second_order=second, scramble=True, seed=seed32)
    elif design == "morris":
        levels = doc.get("levels", 4)
        if isinstance(levels, bool) or not isinstance(levels, int) or not 2 <= levels <= 100:
            fail("levels", f"a morris design's levels is a whole number 2..100, got {levels!r}")
            return None
        if n < 2:
            fail("samples", "a morris design needs samples: 2 trajectories or more")
            return None
        x = morris.sample(problem, n, num_levels=levels, seed=seed32)
    else:
        if n <= 64:
            fail("samples", f"a fast design needs samples: more than 64 per parameter, got {n}")
            return None
        x = fast_sampler.sample(problem, n, M=4, seed=seed32)
    return np.clip(np.asarray(x, dtype=float), 0.0, 1.0)
