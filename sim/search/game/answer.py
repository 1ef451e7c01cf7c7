"""A game search's progress and answer.

The answer is :func:`sim.games.analyse` of every battle fought, with the posterior's draws
the stopping rule last saw (the same seed), so the exploitability bound said is the one the
search stopped on: ``answered`` when it is within the tolerance, ``budget`` when the
budget ran out first (exit 1: the goal is not met; the mixes are given all the same).
"""

from __future__ import annotations

from sim import gamereport, games
from sim.search.core import Answer, History
from sim.search.game import charts
from sim.search.game.plan import Game, rng_for
from sim.search.spec import Search


def names(design: Game) -> gamereport.Names:
    """Who plays what, as the answer says it."""
    s, search = design.s, design.search
    return gamereport.Names(
        s.side,
        s.opponent,
        search.label(design.rows.name),
        search.label(design.cols.name),
        tuple(design.rows.shown(c) for c in design.rows.choices),
        tuple(design.cols.shown(c) for c in design.cols.choices),
        s.of,
    )


def progress_line(design: Game, history: History) -> str:
    """The value with its interval, and the exploitability bound against the goal."""
    st = design.state(history)
    lo, hi = st.value_ci
    return (
        f"value {gamereport.pct(st.eq.value)} {gamereport.ci(lo, hi)}, exploitability <= "
        f"{100 * st.exploit95:.1f} points (95%; goal {100 * design.s.tolerance:.1f})"
    )


def answer(design: Game, history: History) -> Answer:
    """The answer (see the module's docstring)."""
    st = design.state(history)
    b = len(history.batches)
    result = games.analyse(st.cells, rng_for(design.search.seed, b), margin=design.s.tolerance)
    n = names(design)
    done = st.met(design.s.tolerance)
    goal = f"{100 * design.s.tolerance:.1f} points"
    verdict = (
        f"both within the goal of {goal}: answered."
        if done
        else f"not both within {goal}: the budget is spent."
    )
    head = (
        f"game search ({design.s.mode}): {history.spent:,} battles in {b} batches; the mixes' "
        f"exploitability is at most {100 * result.exploit95:.1f} points (95%) and the value "
        f"is known to +-{100 * st.half:.1f}: {verdict}"
    )
    lines, tables = gamereport.report(result, n, history.spent)
    data = gamereport.data(result, n, history.spent)
    data.update(
        status="answered" if done else "budget",
        tolerance=design.s.tolerance,
        mode=design.s.mode,
        spent=history.spent,
    )
    status = "answered" if done else "budget"
    return Answer(
        status,
        0 if done else 1,
        [head, *lines],
        tables,
        [("payoff.png", charts.payoff(result, n))],
        data,
    )


class GameDesign(Game):
    """The game design the driver runs (:class:`sim.search.core.Design`)."""

    def progress(self, history: History) -> str:
        """The value so far with its interval, and the exploitability bound."""
        return progress_line(self, history)

    def answer(self, history: History) -> Answer:
        """The answer (:func:`answer`)."""
        return answer(self, history)


def make(search: Search) -> GameDesign:
    """The game design of ``search``."""
    return GameDesign(search)
