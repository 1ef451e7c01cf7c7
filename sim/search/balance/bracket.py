"""Where a balance search fights next, and when it stops: pure functions of the points so far.

Given every measured point (a parameter value, the battles fought there and the target's
successes among those counted), :func:`next_step` says what the search does next:

1. **Coarse start**: five values spread over the range (whole numbers: up to five), each
   ``start`` battles.
2. **Bracket**: two neighbouring measured values whose win rates lie either side of the
   target. None: the rates are all on one side, so the end of the range nearest the target
   is fought until its Wilson interval says whether it reaches the target
   (``unreached``: the curve never gets there) or not.
3. **Whole numbers**: a gap in the bracket is filled at the fitted crossing's neighbours
   (or its middle); once the bracket is two adjacent values, both are fought until their
   Wilson intervals are within the tolerance. The answer is the two values, and the one
   nearer the target. When neither reaches it (the nearer's measured rate is further than
   the tolerance from the target: the rate jumps across it from one number to the next,
   like 42.6% to 1.0%) the status is ``unreached``; decided at once when both values'
   intervals are clear of the target's band, one above it and one below.
4. **Real numbers**: the fitted crossing (:mod:`sim.search.balance.glm`) with its 95% Fieller
   interval; the next battles go either side of the crossing, half an interval away, as many
   as the interval needs to shrink to the tolerance (at most twice what it already has).
   The search stops when the share's interval at the crossing is within the tolerance and
   some measured value is near the target; a bracket narrower than 1/10,000 of the range
   whose ends are both far from the target is a ``jump``.

Every step is a function of the points alone, so a resumed search takes the same path.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache, cached_property

import numpy as np

from sim.search.balance.glm import Z95, Crossing, Fit, fit_response

COARSE = 5
"""Values of the coarse start."""
RESOLUTION = 1e-4
"""The narrowest bracket of a real parameter, as a share of its range."""
GROWTH = 2.0
"""A batch brings a point at most this many times the battles it has (or ``start``)."""
OVERSHOOT = 1.25
"""A value is fought to this many times the battles its rate says would decide it, so that
a rate that drifts a little towards the band's edge does not cost another look."""
ALPHA = 0.05
"""A value's interval misses its true rate at any of the search's looks at most this often."""


@dataclass(frozen=True, slots=True)
class Rule:
    """How a balance search runs: the range, the target and when it is close enough."""

    low: float
    high: float
    whole: bool
    target: float
    tolerance: float
    """The half-width of the 95% interval, in share (0.02: two points), to stop at."""
    tolerance_value: float | None = None
    """Or the crossing's half-width in the parameter's units, when given."""
    link: str = "logit"
    start: int = 50
    min_batch: int = 100
    budget: int = 20_000
    """The battles the search may spend on this parameter (its share of the budget)."""

    @property
    def looks(self) -> int:
        """The most batches that fight at one value (its looks): what the budget allows.

        A look brings a value at most ``1 + GROWTH`` times the battles it had, from
        ``start``: the budget is reached in ``ceil(log(budget / start) / log(1 + GROWTH))``
        looks after the first, and one more is allowed for a last top-up.
        """
        ratio = max(self.budget / self.start, 1.0)
        return 2 + math.ceil(math.log(ratio) / math.log(1 + GROWTH) - 1e-9)

    @property
    def z(self) -> float:
        """The normal quantile of a value's intervals: 95% over all of its looks together.

        Bonferroni over :attr:`looks`: each look's interval misses on each side with at
        most ``ALPHA / 2 / looks``, so the chance that any of a value's intervals, at any
        look, is wrong is at most ``ALPHA``; a verdict read from them (fair, or not) is
        wrong at most 2.5% of the time. With plain 95% intervals at each of several looks,
        a rate at the band's edge would be called wrongly one time in seven.
        """
        return statistics.NormalDist().inv_cdf(1 - ALPHA / 2 / self.looks)


@dataclass(frozen=True, slots=True)
class Point:
    """A measured value: battles fought (``runs``), counted (``n``) and successes (``k``)."""

    x: float
    k: int
    n: int
    runs: int
    looks: int = 1
    """The batches that fought at this value."""

    @property
    def rate(self) -> float:
        """The measured share (NaN with nothing counted)."""
        return self.k / self.n if self.n else math.nan

    def wilson(self, z: float = Z95) -> tuple[float, float]:
        """The share's Wilson interval (95% unless ``z`` says otherwise; 0..1 if none counted)."""
        return wilson(self.k, self.n, z)


@dataclass(frozen=True)
class Step:
    """What a balance search does next, and where it stands.

    ``status``: ``search`` (fight ``runs``: value and battles), or the end:
    ``answered``, ``unreached`` (no value reaches the target), ``jump`` (the share jumps
    across the target), ``flat`` (every value gives about the target), ``edge`` (only an
    end of the range reaches it). The fitted response (:attr:`fit`, :attr:`crossing`) is
    fitted when first asked for: a whole number's bracket of two neighbours is decided
    from their counts alone.
    """

    status: str
    runs: tuple[tuple[float, int], ...] = ()
    bracket: tuple[Point, Point] | None = None
    nearest: Point | None = None
    note: str = ""
    points: tuple[Point, ...] = field(default=())
    response: Callable[[], tuple[Fit | None, Crossing | None]] | None = field(
        default=None, repr=False, compare=False
    )

    @cached_property
    def _fitted(self) -> tuple[Fit | None, Crossing | None]:
        return self.response() if self.response is not None else (None, None)

    @property
    def fit(self) -> Fit | None:
        """The fitted response of every counted point (None if it cannot be fitted)."""
        return self._fitted[0]

    @property
    def crossing(self) -> Crossing | None:
        """Where the fitted response meets the target, with its interval (None: nowhere)."""
        return self._fitted[1]


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of ``k`` in ``n`` (95% by default; 0..1 when ``n`` is 0)."""
    if n <= 0:
        return 0.0, 1.0
    p, z2 = k / n, z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return (0.0 if k == 0 else max(0.0, centre - half), 1.0 if k == n else min(1.0, centre + half))


def next_step(rule: Rule, measured: Sequence[Point]) -> Step:
    """The next step of the search after ``measured`` (every value fought so far)."""
    pts = tuple(sorted(measured, key=lambda p: p.x))
    if not pts:
        return Step("search", tuple((x, rule.start) for x in coarse(rule)))
    counted = [p for p in pts if p.n > 0]

    @cache
    def fitted() -> tuple[Fit | None, Crossing | None]:
        fit = fit_response(
            [p.x for p in counted],
            [p.k for p in counted],
            [p.n for p in counted],
            rule.link,
            rule.low,
            rule.high,
        )
        return fit, fit.crossing(rule.target, rule.low, rule.high) if fit is not None else None

    def cross() -> Crossing | None:
        return fitted()[1]

    pair = straddle(counted, rule.target, cross)
    if pair is None:
        step = _edge(rule, pts, counted)
    elif rule.whole:
        step = _whole(rule, pts, pair, cross)
    else:
        step = _real(rule, pts, pair, cross())
    return Step(step.status, step.runs, pair, step.nearest, step.note, pts, fitted)


def around(pts: Sequence[Point], x: float) -> tuple[Point, Point] | None:
    """The measured values nearest ``x`` below and above it (None if one side has none)."""
    below = [p for p in pts if p.x <= x]
    above = [p for p in pts if p.x > x]
    return (below[-1], above[0]) if below and above else None


def coarse(rule: Rule) -> list[float]:
    """The values of the coarse start: spread evenly over the range, its ends included."""
    if rule.whole:
        count = min(COARSE, int(rule.high - rule.low) + 1)
        return sorted({int(round(v)) for v in np.linspace(rule.low, rule.high, count)})
    return [float(v) for v in np.linspace(rule.low, rule.high, COARSE)]


def straddle(
    pts: Sequence[Point], target: float, crossing: Callable[[], Crossing | None]
) -> tuple[Point, Point] | None:
    """Two neighbouring measured values whose rates lie either side of the target.

    Of several (noise near the crossing, or a curve that turns), the one holding the
    fitted crossing (``crossing()``, asked only then), else the one nearest it, else the
    first.
    """
    pairs = [
        (a, b)
        for a, b in zip(pts, pts[1:], strict=False)
        if (a.rate - target) * (b.rate - target) <= 0
    ]
    if not pairs:
        return None
    if len(pairs) == 1:
        return pairs[0]
    cross = crossing()
    if cross is None:
        return pairs[0]
    return min(
        pairs,
        key=lambda ab: (
            0.0
            if ab[0].x <= cross.x <= ab[1].x
            else min(abs(ab[0].x - cross.x), abs(ab[1].x - cross.x))
        ),
    )


def state(rule: Rule, p: Point) -> str:
    """Where ``p``'s interval (:attr:`Rule.z`) lies against the band ``target +- tolerance``.

    ``inside`` (the value is fair: its whole interval is in the band), ``above`` or
    ``below`` (it is not: the interval is clear of the band), or ``open`` (the interval
    reaches across an edge of the band: more battles decide).
    """
    lo, hi = p.wilson(rule.z)
    low, high = rule.target - rule.tolerance, rule.target + rule.tolerance
    if lo > high:
        return "above"
    if hi < low:
        return "below"
    return "inside" if low <= lo and hi <= high else "open"


def decided(rule: Rule, p: Point) -> bool:
    """Whether ``p`` is decided: its interval inside the band or clear of it.

    Or its looks spent (:attr:`Rule.looks`): it stays open, and is fought no more.
    """
    return state(rule, p) != "open" or p.looks >= rule.looks


def to_decide(rule: Rule, p: Point) -> int:
    """Battles to add at ``p`` so that its interval, if its rate holds, decides it (0: decided).

    Enough for the interval's half-width to shrink below the rate's distance from the
    nearer edge of the band; at most ``GROWTH`` times what it has (at least ``start``), so a
    rate at the very edge is fought in growing batches, until it is decided or the budget
    is spent.
    """
    if decided(rule, p):
        return 0
    share = min(max(p.rate if p.n else 0.5, 0.02), 0.98)
    edges = (rule.target - rule.tolerance, rule.target + rule.tolerance)
    gap = max(min(abs(share - e) for e in edges), 1e-6)
    want = OVERSHOOT * rule.z * rule.z * share * (1 - share) / (gap * gap)
    counted = p.n / p.runs if p.runs else 1.0
    more = math.ceil(max(want - p.n, 1) / max(counted, 0.05))
    return max(rule.start, min(more, int(GROWTH * max(p.runs, rule.start))))


def _band(rule: Rule, p: Point) -> str:
    """``above`` or ``below`` when ``p``'s interval is clear of the band, else ``in``."""
    where = state(rule, p)
    return where if where in ("above", "below") else "in"


def _edge(rule: Rule, pts: Sequence[Point], counted: Sequence[Point]) -> Step:
    """Every rate on one side of the target: fight the nearest end until it is decided.

    Clear of the band: ``unreached``. Inside it: ``edge``, or ``flat`` when the other end
    is inside it too (fought until it is decided).
    """
    ends = [p for p in counted if p.x in (pts[0].x, pts[-1].x)] or list(counted)
    if not ends:  # nothing counted yet (every battle a draw, counting decisive ones)
        return Step(
            "search", tuple((p.x, to_decide(rule, p) or rule.start) for p in (pts[0], pts[-1]))
        )
    end = min(ends, key=lambda p: abs(p.rate - rule.target))
    where = state(rule, end)
    if where == "open":
        more = to_decide(rule, end)
        return (
            Step("search", ((end.x, more),), nearest=end)
            if more
            else Step("undecided", nearest=end)
        )
    if where != "inside":
        return Step("unreached", nearest=end, note="every value is on one side of the target")
    other = pts[-1] if end.x == pts[0].x else pts[0]
    if other.x != end.x and state(rule, other) == "open" and to_decide(rule, other):
        return Step("search", ((other.x, to_decide(rule, other)),), nearest=end)
    flat = other.x != end.x and state(rule, other) == "inside"
    return Step("flat" if flat else "edge", nearest=end)


def _whole(
    rule: Rule,
    pts: Sequence[Point],
    pair: tuple[Point, Point],
    crossing: Callable[[], Crossing | None],
) -> Step:
    """A whole-number parameter: fill the bracket's gap, then measure its two ends."""
    a, b = pair
    if b.x - a.x > 1:
        cross = crossing()
        if cross is not None and a.x < cross.x < b.x:
            inside = {
                min(max(math.floor(cross.x), a.x + 1), b.x - 1),
                max(min(math.ceil(cross.x), b.x - 1), a.x + 1),
            }
        else:
            inside = {math.floor((a.x + b.x) / 2)}
        return Step("search", tuple((float(x), rule.start) for x in sorted(inside)))
    return _verdict(rule, pair, "unreached")


def _verdict(rule: Rule, pair: tuple[Point, Point], off: str) -> Step:
    """Two neighbours either side of the target, decided by their intervals alone.

    ``answered`` when a value's interval lies inside the band (the nearer of two such),
    ``off`` (``unreached``, or ``jump``) when both are clear of it, and otherwise more
    battles at each value whose interval reaches across an edge of the band: a value is
    never called fair, or not, on its measured rate alone.
    """
    key = lambda p: (abs(p.rate - rule.target), p.x)  # noqa: E731
    fair = [p for p in pair if state(rule, p) == "inside"]
    if fair:
        return Step("answered", nearest=min(fair, key=key))
    more = tuple((p.x, to_decide(rule, p)) for p in pair if not decided(rule, p))
    if more:
        return Step("search", more)
    clear = all(state(rule, p) in ("above", "below") for p in pair)
    return Step(off if clear else "undecided", nearest=min(pair, key=key))


def _real(
    rule: Rule, pts: Sequence[Point], pair: tuple[Point, Point], cross: Crossing | None
) -> Step:
    """A real parameter: battles either side of the fitted crossing until it is precise."""
    res = (rule.high - rule.low) * RESOLUTION
    counted = [p for p in pts if p.n]
    if cross is None or not cross.bounded:
        return _unclear(rule, pts, pair, res)
    for a, b in (around(counted, cross.x) or pair, pair):
        if {_band(rule, a), _band(rule, b)} == {"above", "below"}:
            return _bisect(rule, a, b, res)  # neighbours clearly either side: a gap, or a jump
    precise = (
        cross.points <= rule.tolerance
        if rule.tolerance_value is None
        else cross.half <= rule.tolerance_value
    )
    if precise:
        return Step("answered")
    return Step("search", _around(rule, pts, cross, res))


def _unclear(rule: Rule, pts: Sequence[Point], pair: tuple[Point, Point], res: float) -> Step:
    """No crossing with an interval: bisect a bracket clearly either side, else the ends.

    Two neighbours clearly either side of the band are bisected at once (the rates have
    crossed: the range's ends have nothing more to say). Otherwise the ends are fought
    until each is decided: both inside the band is ``flat``; else the bracket is bisected.
    """
    if {_band(rule, p) for p in pair} == {"above", "below"}:
        return _bisect(rule, *pair, res)
    ends = (pts[0], pts[-1])
    more = tuple((p.x, m) for p in ends if (m := to_decide(rule, p)))
    if more:
        return Step("search", more)
    if all(state(rule, p) == "inside" for p in ends):
        return Step("flat", nearest=min(ends, key=lambda p: abs(p.rate - rule.target)))
    return _bisect(rule, *pair, res)


def _bisect(rule: Rule, a: Point, b: Point, res: float) -> Step:
    """Between two neighbours clearly either side of the target: the middle, or a jump."""
    if b.x - a.x > res:
        return Step("search", ((_round(rule, (a.x + b.x) / 2), 2 * rule.start),))
    return _verdict(rule, (a, b), "jump")


def _around(
    rule: Rule, pts: Sequence[Point], cross: Crossing, res: float
) -> tuple[tuple[float, int], ...]:
    """The next batch either side of the crossing: as many battles as the interval needs."""
    base = Z95 * Z95 * rule.target * (1 - rule.target)
    have = base / max(cross.points, 1e-9) ** 2  # counted battles' worth at the crossing
    if rule.tolerance_value is None:
        ratio = (cross.points / rule.tolerance) ** 2
    else:
        ratio = (cross.half / rule.tolerance_value) ** 2
    more = min(max(have * (ratio - 1) * 1.15, rule.min_batch), GROWTH * max(have, rule.min_batch))
    counted = sum(p.n for p in pts) / max(sum(p.runs for p in pts), 1)
    runs = math.ceil(more / max(counted, 0.05))
    d = min(max(cross.half, res), (rule.high - rule.low) / 4)
    xs = sorted({_round(rule, min(max(cross.x + s * d, rule.low), rule.high)) for s in (-1, 1)})
    return tuple((x, math.ceil(runs / len(xs))) for x in xs)


def _round(rule: Rule, x: float) -> float:
    """A real value on a fine grid of the range (a millionth of it): plain to read back."""
    span = rule.high - rule.low
    if span <= 0:
        return rule.low
    return float(round(x, max(0, 6 - math.floor(math.log10(span)))))
