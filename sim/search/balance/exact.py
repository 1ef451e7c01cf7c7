"""``design: balance`` with ``method: exact``: the crossing from exact odds, no battle fought.

For a scenario small enough for the exact method (:mod:`sim.odds.battle`; a 2W2P duel, say)
the side's chance to win at a whole-number value of the parameter is a fraction, not a
sample. The search bisects the range on those chances (a balance search takes the share to
move one way along its range, as the battles' search does): the two neighbouring values
whose chances straddle the target are the answer, each with its exact chance, and no
interval (there is no sampling error). A value too large for the exact method is refused
with the exact method's own one line.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pyarrow as pa

from sim.errors import SimError
from sim.search.balance.read import Settings
from sim.search.core import Answer, History, Planned
from sim.search.spec import Search


class ExactBalance:
    """The exact balance design the driver runs: it plans no battle and answers from odds."""

    def __init__(self, search: Search) -> None:
        self.search = search
        self.s: Settings = search.settings
        self.p = search.params[0]
        self.cache: dict[int, Any] = {}

    def columns(self) -> list[pa.Field]:
        """None of its own: it fights nothing."""
        return []

    def plan(self, history: History, recorded: dict[str, Any] | None) -> Planned | None:
        """No battle: the answer is computed."""
        return None

    def progress(self, history: History) -> str:
        """Nothing fought."""
        return "exact odds: no battle is fought"

    def finished_batch(self, history: History, root: Any) -> None:
        """No batch."""

    def share(self, v: int) -> Fraction:
        """The target side's exact share at value ``v`` (of decisive battles, or of all)."""
        if v not in self.cache:
            from sim.odds.battle import TooLarge, battle_odds

            overrides = self.search.overrides_of({self.p.name: v})
            try:
                self.cache[v] = battle_odds(self.search.scenario_path, overrides)
            except TooLarge as err:
                raise SimError(f"{self.p.name}={v}: {err}") from err
        odds = self.cache[v]
        win = odds.win(self.s.side)
        if self.s.of == "all":
            return Fraction(win)
        decisive = 1 - odds.draw()
        return Fraction(win / decisive) if decisive else Fraction(0)

    def answer(self, history: History) -> Answer:
        """The two values either side of the target, by bisection on the exact chances."""
        lo, hi = int(self.p.low), int(self.p.high)
        target = Fraction(self.s.share).limit_denominator(10_000)
        label = self.search.label(self.p.name)
        at_lo, at_hi = self.share(lo) - target, self.share(hi) - target
        head = f"balance (exact odds): {self.s.side} wins {_pct(target)} of {self.s.of} battles"
        if at_lo == 0 or at_hi == 0:
            v = lo if at_lo == 0 else hi
            return self._answer("answered", 0, head, [f"{label} = {v}: exactly {_pct(target)}."])
        if (at_lo > 0) == (at_hi > 0):
            nearest = lo if abs(at_lo) <= abs(at_hi) else hi
            line = (
                f"no value of {label} from {lo} to {hi} reaches it: {_pct(self.share(lo))} at "
                f"{lo}, {_pct(self.share(hi))} at {hi}; nearest {nearest}."
            )
            return self._answer("unreached", 1, head, [line])
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if self.share(mid) == target:
                line = f"{label} = {mid}: exactly {_pct(target)}."
                return self._answer("answered", 0, head, [line], mid, mid)
            if (self.share(mid) - target > 0) == (at_lo > 0):
                lo = mid
            else:
                hi = mid
        a, b = self.share(lo), self.share(hi)
        nearer = lo if abs(a - target) <= abs(b - target) else hi
        words = f"{label}: between {lo} ({_exact(a)}) and {hi} ({_exact(b)}); {nearer} is nearer."
        return self._answer("answered", 0, head, [words], lo, hi)

    def _answer(
        self, status: str, code: int, head: str, lines: list[str], lo: int = 0, hi: int = 0
    ) -> Answer:
        rows = [
            [str(v), _pct(x), _fraction(x), f"{self.cache[v].seconds:.1f} s"]
            for v, x in ((v, self.share(v)) for v in sorted(self.cache))
        ]
        table = {
            "title": "Exact chances at the values the bisection looked at",
            "headers": [self.search.label(self.p.name), "share", "exactly", "time"],
            "rows": rows,
        }
        data = {
            "method": "exact",
            "target": float(self.s.share),
            "values": {str(v): str(self.share(v)) for v in sorted(self.cache)},
            "between": [lo, hi] if status == "answered" and hi else None,
            "battles": 0,
        }
        return Answer(status, code, [head, *lines], [table], [], data)


def _pct(x: Fraction) -> str:
    return f"{100 * float(x):.2f}%"


def _fraction(x: Fraction) -> str:
    """The exact fraction where it is short enough to read, else its first 12 digits."""
    text = str(x)
    return text if len(text) <= 24 else f"{float(x):.12f}..."


def _exact(x: Fraction) -> str:
    text = _fraction(x)
    return f"{_pct(x)}, exactly {text}" if not text.endswith("...") else f"{_pct(x)}: {text}"


def make(search: Search) -> ExactBalance:
    """The exact balance design of ``search``."""
    return ExactBalance(search)
