"""What a calibration's observed table may record: statistics by side, role and definition.

A statistic is ``wins.SIDE`` (the side's share of the battles with a winner), ``draws``,
``rounds`` (a battle's length), or ``SIDE.DEF``: the share of a side's fighters out at the
end, where ``DEF`` says what counts as out (:data:`DEFINITIONS`); each a mean, or with
``.median`` a median. ``SIDE`` is a side's name or a role (:data:`ROLES`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

ROLES = ("winner", "loser", "larger", "smaller", "attacker", "defender")
"""Sides named by their part in a battle: ``larger`` and ``smaller`` by fighters at the
start (a battle of equal sides has neither), ``attacker`` as the row's ``attacker`` column
names it and ``defender`` the others."""
WIN_ROLES = ("larger", "smaller", "attacker", "defender")
"""The roles a share of wins may be of (the winner's share of wins says nothing)."""
DEFINITIONS = {
    "down": "incapacitated or dead",
    "gone": "incapacitated, dead, fleeing or fled",
    "lost": "incapacitated, dead, fleeing, fled or surrendered",
    "casualties": "incapacitated, dead or surrendered (as history counts the killed, wounded "
    "and captured: those who fled got away)",
}
"""What counts as a side's fighters out: the share ``SIDE.down``, ``.gone``, ``.lost``,
``.casualties``."""
MODIFIERS = ("sd", "n", "lo", "hi")
"""Columns beside a statistic: ``STAT.sd`` a mean's spread of one battle, ``STAT.n`` its
own sample size, ``STAT.lo`` and ``STAT.hi`` its own 95% interval."""
FORMS = (
    "wins.SIDE, draws, rounds, rounds.median, SIDE.down, SIDE.gone, SIDE.lost, SIDE.casualties "
    "(each .median "
    f"too), where SIDE is a side or one of {', '.join(ROLES)}; STAT.sd, STAT.n, STAT.lo, STAT.hi"
)


@dataclass(frozen=True, slots=True)
class Stat:
    """A statistic of a row: its column name, kind, over which battles, of whom, of what."""

    name: str
    kind: str
    """``share`` (a binomial share), ``mean`` or ``median`` (of one value per battle)."""
    decisive: bool
    """Whether it counts only battles with a winner."""
    side: str | None = None
    """The side or role (:data:`ROLES`) it is of."""
    what: str = ""
    """``wins``, ``draws``, ``rounds``, or what counts as out (:data:`DEFINITIONS`)."""

    @property
    def fraction(self) -> bool:
        """Whether each battle's value is a share of a side's fighters (0..1)."""
        return self.what in DEFINITIONS

    @property
    def shown(self) -> str:
        """How the answer names it."""
        if self.name == "loser_out":
            return "loser out"
        if self.what == "wins":
            return f"{self.side} wins (of decisive)"
        if self.what == "draws":
            return "draws"
        if self.what == "rounds":
            return f"{self.kind} rounds"
        return f"{self.side} {self.what} ({self.kind} share)"


def statistics(sides: Sequence[str]) -> dict[str, Stat]:
    """Every statistic a row may give, for a scenario with ``sides``.

    A side named like a role (:data:`ROLES`) is the side: the role is not available.
    """
    who = [*sides, *(r for r in ROLES if r not in sides)]
    out = {
        f"wins.{s}": Stat(f"wins.{s}", "share", True, s, "wins")
        for s in who
        if s in sides or s in WIN_ROLES
    }
    out["draws"] = Stat("draws", "share", False, None, "draws")
    for kind, suffix in (("mean", ""), ("median", ".median")):
        out[f"rounds{suffix}"] = Stat(f"rounds{suffix}", kind, False, None, "rounds")
        for s in who:
            for d in DEFINITIONS:
                name = f"{s}.{d}{suffix}"
                out[name] = Stat(name, kind, s in ("winner", "loser") and s not in sides, s, d)
    out["loser_out"] = Stat("loser_out", "mean", True, "loser", "down")
    return out
