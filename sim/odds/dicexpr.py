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
dice probabilities: this module only parses the text into its calls. :func:`simulate`
rolls the same expression with :func:`sim.dice.roll_faces`, the draw behind every roll of
the battles, for ``sim odds dice --check``.
"""

from __future__ import annotations

import re
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
    import icepool

    if t.sides == 0:
        return icepool.Die([t.count])
    die = icepool.d(t.sides)
    if t.explode:
        die = die.explode(depth=EXPLODE_DEPTH)
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
    """The exact distribution: value to probability (opposed: :data:`OPPOSED` outcomes)."""
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


def simulate(expr: Expr, rng: np.random.Generator, n: int) -> list[Any]:
    """``n`` rolls of ``expr`` through :func:`sim.dice.roll_faces`: values or outcomes."""
    values = _roll_sum(expr.terms, rng, n)
    if expr.against is None:
        return values.tolist()
    diff = values - _roll_sum(expr.against, rng, n)
    return [OPPOSED[0] if d > 0 else OPPOSED[1] if d == 0 else OPPOSED[2] for d in diff.tolist()]


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
