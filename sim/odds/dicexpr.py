"""Dice expressions for ``sim odds dice``: parsed here, computed exactly by icepool.

The notation (case does not matter; spaces are ignored)::

    EXPR   := SUM [ "vs" SUM ]                opposed: the first against the second
    SUM    := TERM { ("+" | "-") TERM }
    TERM   := NUMBER | DICE
    DICE   := [N] "d" [X] ["!"] [KEEP] [COUNT]
    KEEP   := ("kh" | "kl" | "dh" | "dl" | "k") K     keep / drop the highest or lowest K
    COUNT  := (">=" | ">" | "<=" | "<" | "=") T       a pool: how many dice meet T

``N`` defaults to 1 and ``X`` to 6 (so ``4D+1`` is the D6 code 4D+1); ``d%`` is a d100.
``!`` explodes a die that shows its highest face: another is rolled and added, at most
:data:`EXPLODE_DEPTH` times (icepool's own default), the last not exploding again. With
``COUNT`` the term is the number of (kept) dice meeting the target, not their sum:
``6d10>=8`` counts successes. Examples: ``4d6kh3``, ``d20+5``, ``3d6!``, ``2d20kl1``,
``8d6>=5``, ``2d6+3 vs 2d6``.

Exact distributions come from icepool (:func:`exact`), a small, well-kept library of exact
dice probabilities: this module only parses the text into its calls, and first estimates
their cost (:func:`work`), refusing a table that would take more than a few seconds.
:func:`simulate` rolls the same expression with :func:`sim.dice.roll_faces`, the draw
behind every roll of the battles, for ``sim odds dice --check``, in batches of bounded
memory.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from sim.dice import MAX_SIDES, roll_faces
from sim.errors import SimError

EXPLODE_DEPTH = 9
"""Most extra dice one exploding die adds (icepool's default depth)."""
MAX_POOL = 100
"""Most dice in one term."""
OPPOSED = ("first higher", "tie", "second higher")
"""The outcomes of an opposed expression, in order."""

_TOKEN = re.compile(
    r"\s*(?:(?P<dice>(?P<n>\d*)d(?P<x>\d+|%)?(?P<bang>!)?"
    r"(?:(?P<keep>kh|kl|dh|dl|k)(?P<k>\d+))?"
    r"(?:(?P<op>>=|<=|>|<|=)(?P<t>\d+))?)"
    r"|(?P<num>\d+)|(?P<sign>[+-])|(?P<vs>vs))",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Term:
    """One term of a sum: ``N`` dice of ``X`` sides (or a constant when ``sides`` is 0)."""

    count: int
    sides: int = 0
    explode: bool = False
    keep: str = ""
    k: int = 0
    op: str = ""
    target: int = 0

    @property
    def kept(self) -> int:
        """How many of the dice count."""
        if self.keep in ("kh", "kl", "k"):
            return min(self.k, self.count)
        if self.keep in ("dh", "dl"):
            return max(self.count - self.k, 0)
        return self.count


@dataclass(frozen=True)
class Expr:
    """A parsed expression: signed terms, and the second side's of an opposed roll."""

    text: str
    terms: tuple[tuple[int, Term], ...]
    against: tuple[tuple[int, Term], ...] | None = None


def parse(text: str) -> Expr:
    """The expression ``text`` (module docstring); a :class:`SimError` saying where it fails."""
    pos = 0
    sides_: list[list[tuple[int, Term]]] = [[]]
    sign, want_term = 1, True
    src = text.strip()
    if not src:
        raise SimError("empty dice expression; e.g. 4d6kh3, 3d6!, 8d6>=5, 2d6+3 vs 2d6")
    while pos < len(src):
        m = _TOKEN.match(src, pos)
        if m is None or m.end() == pos:
            raise SimError(f"dice expression {text!r}: cannot read {src[pos:].strip()!r}")
        pos = m.end()
        if m["sign"]:
            if not want_term:
                sign, want_term = (1 if m["sign"] == "+" else -1), True
                continue
            raise SimError(f"dice expression {text!r}: {m['sign']!r} where a term belongs")
        if m["vs"]:
            if want_term or len(sides_) == 2:
                raise SimError(f"dice expression {text!r}: 'vs' joins exactly two sums")
            sides_.append([])
            sign, want_term = 1, True
            continue
        if not want_term:
            raise SimError(f"dice expression {text!r}: a + or - belongs before {m[0].strip()!r}")
        sides_[-1].append((sign, _term(m, text)))
        want_term = False
    if want_term:
        raise SimError(f"dice expression {text!r}: ends where a term belongs")
    first = tuple(sides_[0])
    return Expr(src, first, tuple(sides_[1]) if len(sides_) == 2 else None)


def _term(m: re.Match[str], text: str) -> Term:
    if m["num"]:
        return Term(int(m["num"]))
    count = int(m["n"]) if m["n"] else 1
    x = m["x"] or "6"
    sides = 100 if x == "%" else int(x)
    if not 1 <= count <= MAX_POOL:
        raise SimError(f"dice expression {text!r}: 1..{MAX_POOL} dice in a term, got {count}")
    if not 2 <= sides <= MAX_SIDES:
        raise SimError(f"dice expression {text!r}: dice of 2..{MAX_SIDES} sides, got {sides}")
    keep = (m["keep"] or "").lower()
    if keep == "k":
        keep = "kh"
    term = Term(
        count, sides, bool(m["bang"]), keep, int(m["k"] or 0), m["op"] or "", int(m["t"] or 0)
    )
    if keep and term.kept == 0:
        raise SimError(f"dice expression {text!r}: {m[0].strip()} keeps no dice")
    return term


# ---------------------------------------------------------------------------------------
# the cost of the exact table, estimated before the work

MAX_WORK = 3_000_000
"""Most estimated steps of an exact table (one to two microseconds each: 2 to 6 s here)."""
MAX_KEEP_FACES = 400
"""Most faces of a die that is kept or dropped (icepool's pool recurses once per face)."""
KEEP_STEP = 0.2
"""A pool's step against a sum's (fitted: 100d100kh3 takes about 1 s, 20d100kh10 4 s)."""


@dataclass(frozen=True)
class _Shape:
    """What the estimate needs of a die: its outcomes and the span from lowest to highest."""

    outcomes: int
    span: int


def _die_shape(t: Term) -> _Shape:
    """The shape of one die of ``t`` (exploding: up to :data:`EXPLODE_DEPTH` more)."""
    if t.op and not t.keep:
        return _Shape(2, 1)  # each die meets the target or not
    if not t.explode:
        return _Shape(t.sides, t.sides - 1)
    rolls = EXPLODE_DEPTH + 1
    return _Shape((t.sides - 1) * rolls + 1, t.sides * rolls - 1)


def _term_work(t: Term, text: str) -> tuple[float, int]:
    """The estimated steps to compute term ``t`` exactly, and its table's size."""
    if t.sides == 0:
        return 0.0, 1
    die = _die_shape(t)
    if t.keep:
        if die.outcomes > MAX_KEEP_FACES:
            raise SimError(
                f"dice expression {text!r}: keeping or dropping dice of {die.outcomes} "
                f"outcomes; the limit is {MAX_KEEP_FACES}: fewer sides, or no !"
            )
        span = 1 if t.op else die.span
        return KEEP_STEP * die.outcomes * t.count * t.kept**2 * span, t.kept * span + 1
    work = die.outcomes * die.span * t.count * (t.count - 1) / 2  # adding one die at a time
    return work, t.count * die.span + 1


def work(expr: Expr) -> float:
    """The estimated steps of :func:`exact` for ``expr``: each term, then adding them up.

    Adding tables of ``a`` and ``b`` values takes ``a * b`` steps; a sum of ``n`` dice of
    ``m`` outcomes over a span ``r``, about ``m * r * n**2 / 2``; a pool that keeps ``k``
    dice, about ``m * n * k**2 * r / 5`` (fitted to icepool's times).
    """
    total, sizes = 0.0, []
    for terms in (expr.terms, expr.against or ()):
        size = 0
        for _, t in terms:
            steps, values = _term_work(t, expr.text)
            total += steps + size * values
            size = values if size == 0 else size + values - 1
        sizes.append(size)
    if expr.against is not None:
        total += sizes[0] * sizes[1]
    return total


def check_work(expr: Expr) -> None:
    """Refuse, before any work, an expression whose exact table would take too long."""
    steps = work(expr)
    if steps > MAX_WORK:
        raise SimError(
            f"dice expression {expr.text!r}: an exact table of about {steps:,.0f} steps; the "
            f"limit is {MAX_WORK:,} (a few seconds): fewer dice, sides or terms"
        )


# ---------------------------------------------------------------------------------------
# exact (icepool)


def _meets(op: str, target: int) -> Any:
    return {
        ">=": lambda o: o >= target,
        ">": lambda o: o > target,
        "<=": lambda o: o <= target,
        "<": lambda o: o < target,
        "=": lambda o: o == target,
    }[op]


def _term_die(t: Term) -> Any:
    """Term ``t`` as an icepool die: a sum or count by adding dice, a pool to keep some."""
    import icepool

    if t.sides == 0:
        return icepool.Die([t.count])
    die = icepool.d(t.sides)
    if t.explode:
        die = die.explode(depth=EXPLODE_DEPTH)
    if not t.keep:  # n @ die adds dice: no recursion per face, as a pool's evaluation has
        meets = _meets(t.op, t.target) if t.op else None
        one = die.map(lambda o: int(meets(o))) if meets is not None else die
        return t.count @ one
    pool = die.pool(t.count)
    if t.keep == "kh":
        pool = pool.highest(t.k)
    elif t.keep == "kl":
        pool = pool.lowest(t.k)
    elif t.keep == "dh":
        pool = pool.lowest(t.kept)
    elif t.keep == "dl":
        pool = pool.highest(t.kept)
    if t.op:
        return pool.keep_outcomes(_meets(t.op, t.target)).size()
    return pool.sum()


def _sum_die(terms: tuple[tuple[int, Term], ...]) -> Any:
    total = None
    for sign, t in terms:
        die = _term_die(t)
        die = die if sign > 0 else -die
        total = die if total is None else total + die
    return total


def exact(expr: Expr) -> dict[Any, Fraction]:
    """The exact distribution: value to probability (opposed: :data:`OPPOSED` outcomes).

    Raises:
        SimError: the expression would take too long (:func:`check_work`), before any work.
    """
    check_work(expr)
    die = _sum_die(expr.terms)
    if expr.against is not None:
        diff = die - _sum_die(expr.against)
        n = diff.denominator()
        win = sum(q for o, q in diff.items() if o > 0)
        tie = sum(q for o, q in diff.items() if o == 0)
        return dict(
            zip(
                OPPOSED,
                (Fraction(win, n), Fraction(tie, n), Fraction(n - win - tie, n)),
                strict=True,
            )
        )
    n = die.denominator()
    return {int(o): Fraction(q, n) for o, q in die.items() if q}


# ---------------------------------------------------------------------------------------
# simulated, through the battles' own draw

MAX_CHECK_DICE = 100_000_000
"""Most dice a ``--check`` rolls (about 5 s)."""
BATCH_DICE = 4_000_000
"""Most dice rolled at once (32 MB): more rolls go in batches, in bounded memory."""


def check_dice(expr: Expr, n: int) -> int:
    """About how many dice ``n`` rolls of ``expr`` take (an exploding die counts twice)."""
    per = sum(t.count * (2 if t.explode else 1) for _, t in (*expr.terms, *(expr.against or ())))
    return n * per


def check_size(expr: Expr, n: int) -> None:
    """Refuse, before any work, a ``--check`` of ``n`` rolls that would roll too many dice."""
    dice = check_dice(expr, n)
    if dice > MAX_CHECK_DICE:
        raise SimError(
            f"--check {n} of {expr.text!r} rolls about {dice:,} dice; the limit is "
            f"{MAX_CHECK_DICE:,}: fewer rolls"
        )


def _roll_term(t: Term, rng: np.random.Generator, n: int) -> np.ndarray:
    if t.sides == 0:
        return np.full(n, t.count, dtype=np.int64)
    faces = roll_faces(rng, t.sides, n * t.count).reshape(n, t.count).astype(np.int64)
    if t.explode:
        last = faces.copy()
        for _ in range(EXPLODE_DEPTH):
            again = last == t.sides
            if not again.any():
                break
            extra = np.zeros_like(last)
            extra[again] = roll_faces(rng, t.sides, int(again.sum()))
            faces += extra
            last = extra
    if t.keep:
        faces = np.sort(faces, axis=1)
        faces = faces[:, t.count - t.kept :] if t.keep in ("kh", "dl") else faces[:, : t.kept]
    if t.op:
        return _meets(t.op, t.target)(faces).sum(axis=1)
    return faces.sum(axis=1)


def _roll_sum(terms: tuple[tuple[int, Term], ...], rng: np.random.Generator, n: int) -> np.ndarray:
    return sum((sign * _roll_term(t, rng, n) for sign, t in terms), np.zeros(n, dtype=np.int64))


def simulate(expr: Expr, rng: np.random.Generator, n: int) -> Counter[Any]:
    """``n`` rolls of ``expr`` through :func:`sim.dice.roll_faces`: how often each value came.

    Opposed: how often each of :data:`OPPOSED`. Rolled in batches of at most
    :data:`BATCH_DICE` dice (one batch, and the same draws as ever, below that).

    Raises:
        SimError: more than :data:`MAX_CHECK_DICE` dice (:func:`check_size`).
    """
    check_size(expr, n)
    per = max(1, check_dice(expr, 1))
    batch = max(1, BATCH_DICE // per)
    counts: Counter[Any] = Counter()
    for start in range(0, n, batch):
        size = min(batch, n - start)
        values = _roll_sum(expr.terms, rng, size)
        if expr.against is None:
            found, times = np.unique(values, return_counts=True)
            counts.update(dict(zip(found.tolist(), times.tolist(), strict=True)))
            continue
        diff = values - _roll_sum(expr.against, rng, size)
        counts.update(
            {
                OPPOSED[0]: int((diff > 0).sum()),
                OPPOSED[1]: int((diff == 0).sum()),
                OPPOSED[2]: int((diff < 0).sum()),
            }
        )
    return +counts  # outcomes that never came are left out, as a list of draws would


def describe(expr: Expr) -> str:
    """The expression in words, for the table's title."""

    def term(t: Term) -> str:
        if t.sides == 0:
            return str(t.count)
        what = f"{t.count}d{t.sides}" + (" exploding" if t.explode else "")
        if t.keep:
            word = {
                "kh": "keep the highest",
                "kl": "keep the lowest",
                "dh": "drop the highest",
                "dl": "drop the lowest",
            }
            what += f", {word[t.keep]} {t.k}"
        if t.op:
            what += f", count the dice {t.op} {t.target}"
        return what

    def side(terms: tuple[tuple[int, Term], ...]) -> str:
        out = ""
        for i, (sign, t) in enumerate(terms):
            out += ("" if i == 0 and sign > 0 else " - " if sign < 0 else " + ") + term(t)
        return out

    text = side(expr.terms)
    return f"{text} against {side(expr.against)}" if expr.against is not None else text
