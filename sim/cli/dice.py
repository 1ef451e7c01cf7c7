"""``sim odds dice`` and every odds table's ``--check`` and ``--plot``.

argparse and printing only, like :mod:`sim.cli`: the odds come from :mod:`sim.odds.exact` and
:mod:`sim.odds.dicexpr`, the pictures from :mod:`sim.odds.plot`.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from sim import odds
from sim.cli import text
from sim.errors import SimError


def add_dice(systems: Any) -> None:
    """The ``sim odds dice`` subcommand."""
    dx = systems.add_parser(
        "dice",
        help="any dice expression, exact (icepool): 4d6kh3, 3d6!, 8d6>=5, 2d6+3 vs 2d6",
    )
    dx.add_argument(
        "expression",
        help="NdX with + - and numbers; ! explodes; kh/kl/dh/dl K keeps or drops; "
        ">=T counts the dice meeting T (a pool of successes); A vs B an opposed roll",
    )
    dx.add_argument(
        "--format",
        choices=["table", "json", "csv"],
        default="table",
        help="table for reading, json or csv for programs (default: table)",
    )
    add_check_plot(dx)
    dx.set_defaults(run=odds_dice)


def add_check_plot(p: argparse.ArgumentParser) -> None:
    """``--check N``, ``--seed`` and ``--plot FILE.png`` on an odds subcommand."""
    p.add_argument(
        "--check",
        type=int,
        metavar="N",
        help="also roll N times through the battles' own code and show the simulated "
        "frequencies beside the exact ones",
    )
    p.add_argument("--seed", type=int, default=1, help="the --check rolls' seed (default 1)")
    p.add_argument("--plot", metavar="FILE.png", help="draw the table's distribution to a PNG")
    p.add_argument("--force", action="store_true", help="let --plot replace an existing file")


def odds_dice(a: argparse.Namespace) -> str:
    """``sim odds dice EXPR``: the exact table, and the check and picture asked for."""
    from sim.odds import dicexpr

    expr = dicexpr.parse(a.expression)
    if a.check is not None:  # refused before the table's work, not after it
        dicexpr.check_size(expr, odds.check_count(a.check))
    data = odds.dice_odds(a.expression)
    out = text.dice_odds_text(data, a.format)
    title = f"{data['expression']} (exact)"
    via = "sim.dice.roll_faces"
    headline = ("P(first higher)", dicexpr.OPPOSED[0]) if data["opposed"] else None

    def draws(n: int, rng: Any) -> Any:
        return dicexpr.simulate(expr, rng, n)

    return check_and_plot(a, out, title, data["p"], None, via, "value", draws, headline)


def check_and_plot(
    a: argparse.Namespace,
    out: str,
    title: str,
    exact: dict[str, float],
    draw: Any,
    via: str,
    xlabel: str,
    draws: Any = None,
    headline: tuple[str, str] | None = None,
    bars: bool = True,
) -> str:
    """The odds table ``out`` with ``--check N``'s simulated cross-check; ``--plot``'s picture.

    With ``--format json`` the two are one JSON object, ``{"odds": ..., "check": ...}``.
    ``draw(rng)`` rolls one outcome through the battles' own function ``via`` (or
    ``draws(n, rng)`` rolls n at once); the check uses the Generator of ``--seed``.
    ``bars=False``: the caller draws its own picture.
    """
    simulated = None
    if a.check is not None:
        from sim.dice import generator

        if a.format == "csv":
            raise SimError("--check prints a table or JSON: use --format table or json")
        if draws is not None:
            rolled = draws(odds.check_count(a.check), generator(a.seed))
        else:
            rolled = odds.check_draws(a.check, a.seed, draw)
        check = odds.cross_check({str(k): v for k, v in exact.items()}, rolled, a.seed, via)
        simulated = {r["outcome"]: r["simulated"] for r in check["rows"]}
        if a.format == "json":
            out = json.dumps({"odds": json.loads(out), "check": check})
        else:
            out += "\n\n" + text.check_text(check, "table", headline)
    if a.plot and bars:
        from sim.odds import plot as oddsplot

        fig = oddsplot.bars(title, {str(k): v for k, v in exact.items()}, xlabel, simulated)
        plotted(oddsplot.save(fig, a.plot, a.force))
    return out


def plotted(path: Any) -> None:
    """Say on stderr where the picture went (stdout stays the table)."""
    print(f"plot: {path}", file=sys.stderr)
