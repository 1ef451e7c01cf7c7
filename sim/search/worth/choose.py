"""Which compositions a worth search fights: pure functions of the counts so far.

1. **A start**: a Latin hypercube over the parameters' levels (every level of each
   parameter about equally often, the parameters mixed), ``2 x`` the model's coefficients
   compositions (at least 6), each fought ``start`` times. Most are lopsided; together
   they say roughly where the even fights are.
2. **Near-even batches**: the model is fitted (a penalized fit, :func:`~sim.search.worth.
   fit.ridge`, finite even when a few lopsided compositions separate the counts), and the
   next compositions are chosen among those it predicts near an even fight (the first
   side's log-odds within ``band``: 27% to 73% for a band of 1). A logistic model learns
   most from battles whose outcome is most uncertain, and a points table is about even
   fights. Among them the batch is chosen greedily for the most information about every
   worth together (D-optimal: each pick adds most to the determinant of the Fisher
   information of everything fought and picked so far), which spreads the batch along the
   even fights and a little either side of them, where the slope of the response is
   learnt. Every other pick must be a composition not fought yet (while the band has
   one), so the costs are fitted over the band and not read off its few most informative
   corners, and the lack of fit is tested where the table is used.

The planner sees only the counts and a seeded generator, so the same battles give the same
plan (:mod:`sim.search.worth.plan`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from sim.intervals import Z95
from sim.search.worth.costs import Scale, widest
from sim.search.worth.fit import fit, information, ridge
from sim.search.worth.model import Composition, Space

Array = np.ndarray[Any, Any]
POWER = 1.0
CAP = 20_000
"""Compositions scored for a batch at most (drawn from the grid when it is larger)."""


@dataclass(frozen=True, slots=True)
class Rule:
    """How a worth search spends its battles."""

    start: int
    """Battles at each composition of the start."""
    replicates: int
    """Battles at each composition of a later batch."""
    per_batch: int
    """Compositions in a later batch."""
    band: float = 1.0
    """The near-even band: the predicted log-odds at most this far from 0."""


def per_batch(space: Space) -> int:
    """Compositions in a later batch: twice the model's coefficients, at least 6."""
    return max(6, 2 * space.columns)


def start_count(space: Space) -> int:
    """How many compositions the start fights."""
    return min(space.size, max(6, 2 * space.columns))


def start(space: Space, rng: np.random.Generator) -> list[Composition]:
    """The start's compositions: a Latin hypercube over the levels, no composition twice."""
    m = start_count(space)
    if m >= space.size:
        return [tuple(int(v) for v in row) for row in space.grid()]
    cols = []
    for levels in space.levels:
        u = (rng.permutation(m) + rng.random(m)) / m
        cols.append(np.minimum((u * levels).astype(np.int64), levels - 1))
    out: list[Composition] = []
    for row in np.column_stack(cols):
        comp = tuple(int(v) for v in row)
        if comp not in out:
            out.append(comp)
    while len(out) < m:  # repeats of a hypercube over few levels: distinct others instead
        comp = tuple(int(rng.integers(n)) for n in space.levels)
        if comp not in out:
            out.append(comp)
    return out


def near_even(
    space: Space,
    fought: Array,
    n: Array,
    beta: Array,
    count: int,
    replicates: int,
    band: float,
    rng: np.random.Generator,
    targets: Array | None = None,
) -> list[Composition]:
    """``count`` compositions near an even fight, most informative together (see above).

    ``fought`` are the compositions fought so far (rows of level indices) and ``n`` their
    counted battles; ``beta`` the model's coefficients to plan by. ``targets``, if given,
    are the figures the answer needs (rows: each figure's gradient in the coefficients,
    divided by the standard error it must reach): each pick then removes the most of their
    variances, each in its own target's units, the furthest from its target counting most.
    """
    cands = space.candidates(CAP, rng)
    rows = space.rows(cands)
    eta = rows @ beta
    inside = np.abs(eta) <= band
    near = np.flatnonzero(inside)
    if len(near) < count:  # too few inside the band: the nearest ones
        near = np.argsort(np.abs(eta), kind="stable")[: max(count, 3 * count)]
    seen = {tuple(int(v) for v in c) for c in np.atleast_2d(fought)} if len(fought) else set()
    new = np.array([tuple(int(v) for v in cands[i]) not in seen for i in near], dtype=bool)
    info = information(space.rows(fought), n, beta) if len(fought) else 0.0
    info = info + 1e-6 * np.eye(space.columns)
    p = 1 / (1 + np.exp(-eta[near]))
    weight = replicates * p * (1 - p)
    x = rows[near]
    picked: list[int] = []
    for slot in range(min(count, len(near))):
        inv = np.linalg.inv(info)
        spread = np.einsum("ij,jk,ik->i", x, inv, x)
        if targets is None:
            gain = weight * spread
        else:
            var = np.einsum("fj,jk,fk->f", targets, inv, targets)  # each in its target's units
            reach = (targets @ inv @ x.T) ** 2  # (figures, candidates)
            gain = (var**POWER) @ reach * weight / (1 + weight * spread)
        gain[picked] = -np.inf
        if slot % 2 == 0 and np.any(new & np.isfinite(gain)):  # every other pick: a new one
            gain[~new] = -np.inf
        best = int(np.argmax(gain))
        picked.append(best)
        info = info + weight[best] * np.outer(x[best], x[best])
    return [tuple(int(v) for v in cands[near[i]]) for i in picked]


@dataclass(frozen=True, slots=True)
class Batch:
    """What to fight next: the compositions and the battles at each."""

    stage: str
    comps: tuple[Composition, ...]
    replicates: tuple[int, ...]


MIN_REPLICATES = 5
"""The fewest battles a composition of a batch gets (a budget's last battles included)."""


def step(
    space: Space,
    rule: Rule,
    scale: Scale,
    tolerance: float,
    seed: int,
    batch: int,
    fought: Array,
    k: Array,
    n: Array,
    left: int,
) -> Batch | None:
    """The next batch from the counts so far, or None when the costs are known well enough.

    ``fought`` are the compositions fought (rows of level indices, each once), ``k`` and
    ``n`` the first side's wins and the counted battles at each; ``left`` the battles the
    budget still allows. Done when every cost and the handicap are known to ``tolerance``
    (:func:`~sim.search.worth.costs.widest`), or the budget cannot pay for a batch.
    """
    rng = np.random.default_rng([seed, batch])
    if batch == 0:
        comps, reps = start(space, rng), rule.start
    else:
        keep = np.asarray(n) > 0
        rows = space.rows(fought[keep]) if keep.any() else np.zeros((0, space.columns))
        f = fit(rows, np.asarray(k)[keep], np.asarray(n)[keep]) if keep.any() else None
        if f is not None and widest(f, space, scale) <= tolerance:
            return None
        beta = ridge(rows, np.asarray(k)[keep], np.asarray(n)[keep])
        targets = aims(space, scale, tolerance, beta) if TARGETED else None
        targets = aims(space, scale, tolerance, beta) if TARGETED else None
        comps = near_even(
            space, fought[keep], np.asarray(n)[keep], beta, rule.per_batch, rule.replicates,
            rule.band, rng, targets,
        )  # fmt: skip
        reps = rule.replicates
    return _within(batch, comps, reps, left)


TARGETED = True


def aims(space: Space, scale: Scale, tolerance: float, beta: Array) -> Array:
    """The gradients of every cost but the scale's and of the handicap, over their targets.

    A cost ``c = S b_i / b_ref`` changes by ``S (e_i - (c / S) e_ref) / b_ref`` with the
    coefficients; it must be known to ``tolerance x max(|c|, S)``, a standard error of that
    over 1.96.
    """
    ref = 1 + scale.item
    den = beta[ref] if abs(beta[ref]) > 1e-6 else 1e-6
    out = []
    for j in range(space.columns):
        if j == ref:
            continue
        c = scale.points * beta[j] / den
        g = np.zeros(space.columns)
        g[j] = scale.points / den
        g[ref] = -c / den
        out.append(g / (tolerance * max(abs(c), scale.points) / Z95))
    return np.array(out)


def _within(batch: int, comps: list[Composition], reps: int, left: int) -> Batch | None:
    """The batch cut down to the budget left (fewer battles each, then fewer compositions)."""
    if not comps:
        return None
    if reps * len(comps) > left:
        reps = left // len(comps)
        if reps < MIN_REPLICATES:
            comps = comps[: left // MIN_REPLICATES]
            reps = MIN_REPLICATES
    if not comps or reps < 1:
        return None
    return Batch("start" if batch == 0 else "near-even", tuple(comps), (reps,) * len(comps))
