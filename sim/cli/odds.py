"""``sim odds``: the exact odds tables of each rule system (dice expressions: sim.cli.dice)."""

from __future__ import annotations

import argparse
import os
from typing import Any

from sim import odds
from sim.cli import text
from sim.cli.common import (
    Parser,
    add_format,
)
from sim.cli.dice import add_check_plot as _add_check_plot
from sim.cli.dice import add_dice, check_and_plot, plotted
from sim.dice import parse_code
from sim.errors import SimError
from sim.rules import deathwish, twowp


def _odds_deathwish(a: argparse.Namespace) -> str:
    tt = _target_tt(a)
    armor = odds.parse_armor(a.armor, a.location)
    tt_text = text.deathwish_tt(tt)
    if a.weapon is None and a.penetration is None and a.lethality is None:
        rows = odds.deathwish_table(tt, a.attacker_strength, a.cover, a.location, a.ammo)
        title = (
            f"Deathwish: every weapon against armor 0-3, {tt_text}, cover {a.cover}, "
            f"{a.location}, {a.ammo} ammunition (exact)"
        )
        if a.check is not None:
            raise SimError("--check needs one attack: give --weapon or --penetration/--lethality")
        if a.plot:
            from sim.odds import plot as oddsplot

            fig = oddsplot.grouped(title, rows, "weapon", "armor", "mean")
            plotted(oddsplot.save(fig, a.plot, a.force))
        return text.deathwish_table_text(rows, a.format, title)
    weapon = _attack(a)
    name = weapon.name if a.weapon is not None else "custom attack"
    pen, leth = deathwish.attack_values(
        weapon, strength=a.attacker_strength, location=a.location, ammo=a.ammo
    )
    data = odds.deathwish_odds(pen, leth, armor, a.cover, tt)
    title = (
        f"Deathwish: {name} (penetration {pen}, lethality {leth}) against armor {armor},"
        f" cover {a.cover}, {a.location}, {a.ammo}; {tt_text}"
    )
    exact = data["damage"]

    def draw(rng: Any) -> int:
        return deathwish.roll_damage(pen, leth, armor, a.cover, rng)

    out = text.deathwish_odds_text(data, a.format, title)
    return check_and_plot(a, out, title, exact, draw, "sim.rules.deathwish.roll_damage", "damage")


def _target_tt(a: argparse.Namespace) -> int:
    """The target's trauma tolerance from ``--tt`` or ``--body`` with ``--strength``."""
    if a.tt is not None and (a.body is not None or a.strength is not None):
        raise SimError("give either --tt or --body with --strength, not both")
    if (a.body is None) != (a.strength is None):
        raise SimError("--body and --strength go together (they give the target's TT)")
    if a.body is not None:
        return deathwish.trauma_tolerance(a.body, a.strength)
    return 5 if a.tt is None else a.tt


def _attack(a: argparse.Namespace) -> deathwish.Weapon:
    """The attack's weapon: ``--weapon`` from the seed's table or a custom one."""
    if a.weapon is not None:
        if a.penetration is not None or a.lethality is not None:
            raise SimError("give either --weapon or --penetration/--lethality, not both")
        return deathwish.find_weapon(a.weapon)
    if a.penetration is None or a.lethality is None:
        raise SimError("--penetration and --lethality go together")
    return deathwish.Weapon(name="custom", penetration=a.penetration, lethality=a.lethality)


def _odds_2w2p(a: argparse.Namespace) -> str:
    if (a.attack is None) == (a.attackers is None):
        raise SimError("give exactly one of --attack N or --attackers TIER=COUNT,...")
    if a.attackers is not None:
        attack = twowp.group_dice(odds.parse_attackers(a.attackers))
    else:
        attack = a.attack
    data = odds.twowp_odds(attack, a.defence)
    out = text.twowp_odds_text(data, a.defence, a.format)
    exact = {f"{o['felling']},{o['wounding']}": o["p"] for o in data["outcomes"]}

    def draw(rng: Any) -> str:
        hits = twowp.roll_exchange(attack, a.defence, rng)
        return f"{hits.felling},{hits.wounding}"

    title = f"2W2P: {attack} attack dice against {a.defence} defence dice (exact)"
    if a.plot:
        from sim.odds import plot as oddsplot

        fig = oddsplot.grid(title, data["outcomes"], "felling", "wounding")
        plotted(oddsplot.save(fig, a.plot, a.force))
    via = "sim.rules.twowp.roll_exchange"
    return check_and_plot(a, out, title, exact, draw, via, "", bars=False)


def _odds_wargame(a: argparse.Namespace) -> str:
    from sim.rules import wargame

    data = odds.wargame_odds(a.dice, a.armor, a.mode)
    out = text.wargame_odds_text(data, a.dice, a.armor, a.mode, a.format)

    def draw(rng: Any) -> int:
        return wargame.roll_damage(a.dice, rng, a.mode).total

    title = f"War Game: damage of {a.dice} HD spent ({a.mode}), exact"
    via = "sim.rules.wargame.roll_damage"
    return check_and_plot(a, out, title, data["damage"], draw, via, "damage")


def _odds_d6(a: argparse.Namespace) -> str:
    from sim.rules import d6

    damage, body = parse_code(a.damage), parse_code(a.body)
    data = odds.d6_odds(damage, body)

    def draw(rng: Any) -> str:
        return str(d6.roll_damage_vs_body(damage, body, rng).tier.value)

    title = f"D6 tiers: damage {damage} against body {body}, exact"
    via = "sim.rules.d6.roll_damage_vs_body"
    out = text.d6_odds_text(data, a.format)
    return check_and_plot(a, out, title, data["tiers"], draw, via, "tier")


def add_odds(sub: Any) -> None:
    """Add ``sim odds`` to the subcommands ``sub``."""
    p_odds = sub.add_parser("odds", help="exact probability tables for each rule system")
    systems = p_odds.add_subparsers(dest="system", required=True, parser_class=Parser)
    _add_odds_deathwish(systems)

    tw = systems.add_parser("2w2p", help="felling and wounding hits through defence dice")
    tw.add_argument("--attack", type=int, help="number of attack dice")
    tw.add_argument("--attackers", help="attackers by tier, e.g. green=3,veteran=1")
    tw.add_argument("--defence", type=int, default=0, help="defence dice (default 0)")
    add_format(tw)
    _add_check_plot(tw)
    tw.set_defaults(run=_odds_2w2p)

    wg = systems.add_parser("wargame", help="damage of spent HD and the chance of a wound")
    wg.add_argument("--dice", type=int, required=True, help="HD spent on the attack")
    wg.add_argument("--armor", type=int, default=0, help="target's armor pool (default 0)")
    wg.add_argument(
        "--mode",
        choices=["hd_sum", "weapon_d8"],
        default="hd_sum",
        help="damage option (default hd_sum)",
    )
    add_format(wg)
    _add_check_plot(wg)
    wg.set_defaults(run=_odds_wargame)

    d = systems.add_parser("d6", help="chance of each damage-table tier")
    d.add_argument("--damage", required=True, help="damage dice code, e.g. 4D+1")
    d.add_argument("--body", required=True, help="body roll dice code, e.g. 3D")
    add_format(d)
    _add_check_plot(d)
    d.set_defaults(run=_odds_d6)

    add_dice(systems)
    add_odds_battle(systems)


def _add_odds_deathwish(systems: Any) -> None:
    dw = systems.add_parser("deathwish", help="damage and wound odds (whole table if no weapon)")
    dw.add_argument("--weapon", help="a weapon from the seed's table, e.g. 'Glock 18'")
    dw.add_argument("--penetration", type=int, help="a custom attack's penetration")
    dw.add_argument("--lethality", type=int, help="a custom attack's lethality")
    dw.add_argument(
        "--armor",
        default="0",
        help="armor on the struck location: points, or a name that counts only where it "
        "covers (a vest: torso and vitals; helmet: head), e.g. 2 or 'light vest'",
    )
    dw.add_argument("--cover", type=int, default=0, help="cover points (dice lost)")
    dw.add_argument("--location", default="torso", help="torso, limb, head or vitals")
    dw.add_argument("--ammo", default="standard", help="standard, hollow-point or armor-piercing")
    dw.add_argument("--tt", type=int, help="target's trauma tolerance (default 5)")
    dw.add_argument("--body", type=int, help="target's Body (with --strength gives TT)")
    dw.add_argument("--strength", type=int, help="target's Strength (with --body gives TT)")
    dw.add_argument(
        "--attacker-strength",
        type=int,
        default=5,
        help="attacker's Strength: the lethality of an unarmed attack (default 5)",
    )
    add_format(dw)
    _add_check_plot(dw)
    dw.set_defaults(run=_odds_deathwish)


def _odds_battle(a: argparse.Namespace) -> str:
    import json
    import sys

    from sim.odds import battle

    if a.workers < 1:
        raise SimError(f"--workers must be 1 or more, got {a.workers}")
    s = battle.scenario_of(a.file, a.set)
    if a.plot and not a.force and os.path.lexists(a.plot):  # before minutes of work
        from sim.files import exists_error

        raise exists_error(a.plot, "--plot")
    guess = battle.estimate(s)
    print(
        f"estimate: about {guess['executions']:,.0f} fights of a round "
        f"({guess['starts']:,} round and turn starts x {guess['branching']:,.1f} outcomes); "
        f"limit {a.limit:,}",
        file=sys.stderr,
    )

    def progress(outcomes: int, states: int, alive: Any) -> None:
        rounds[0] += 1
        print(
            f"\rround {rounds[0]}: {states:,} states, {float(alive):.2e} still fighting",
            end="",
            file=sys.stderr,
            flush=True,
        )

    rounds = [0]
    shown = sys.stderr.isatty()
    result = battle.battle_odds(
        s, limit=a.limit, guess=guess, progress=progress if shown else None, workers=a.workers
    )
    if shown:
        print(file=sys.stderr)
    if a.plot:
        from sim.odds import plot as oddsplot

        ends = {
            f"{w} wins" if w else f"draw by {reason}": float(p)
            for (w, reason), p in result.reasons().items()
        }
        lengths = {n: float(p) for n, p in result.rounds().items()}
        title = f"{result.scenario} ({result.rules}): exact odds of the whole battle"
        plotted(oddsplot.save(oddsplot.battle(title, ends, lengths), a.plot, a.force))
    data = result.to_dict()
    if a.format == "json":
        return json.dumps(data, indent=2)
    return _battle_text(result)


def _short(p: Any) -> str:
    """A chance as a decimal, with its exact fraction when that is short enough to read."""
    frac = f"{p.numerator}/{p.denominator}"
    x = float(p)
    if not p:
        return "0"
    return (f"{x:.6f}" if x == 0 or x >= 1e-6 else f"{x:.3e}") + (
        f"  ({frac})" if len(frac) <= 24 else ""
    )


def _battle_text(r: Any) -> str:
    lines = [f"{r.scenario} ({r.rules}): exact odds of the whole battle", ""]
    for side in r.sides:
        lines.append(f"  {side + ' wins':<18}{_short(r.win(side))}")
    lines.append(f"  {'draw':<18}{_short(r.draw())}")
    for (w, reason), p in r.reasons().items():
        lines.append(f"    {w or 'draw'} by {reason}: {_short(p)}")
    for side in r.sides:
        lines += ["", f"  {side}'s {r.fighters[side]} fighter(s) at the end, by status:"]
        for status, dist in r.statuses(side).items():
            if set(dist) == {0}:
                continue
            cells = ", ".join(f"{n}: {float(p):.6f}" for n, p in dist.items())
            lines.append(f"    {status:<14} {cells}")
    rounds = r.rounds()
    lines += ["", f"  rounds (mean {float(r.mean_rounds()):.4f}):"]
    cum = 0.0
    for n, p in rounds.items():
        cum += float(p)
        if float(p) >= 1e-4 or n == max(rounds):
            lines.append(f"    {n:>3}  {float(p):.6f}  (by then {cum:.6f})")
    lines += [
        "",
        f"  work: {r.executions:,} fights of a round, {r.states:,} states "
        f"(at most {r.most_states:,} in a round), {r.seconds:.1f} s",
    ]
    return "\n".join(lines)


def add_odds_battle(systems: Any) -> None:
    """Add ``sim odds battle``: the exact odds of a whole small battle."""
    from sim.odds.battle import DEFAULT_LIMIT

    p = systems.add_parser("battle", help="exact odds of a whole small battle (a scenario file)")
    p.add_argument("file", help="a scenario YAML file")
    p.add_argument(
        "--set", action="append", default=[], metavar="PATH=VALUE", help="override a field"
    )
    p.add_argument(
        "--limit",
        type=int,
        default=DEFAULT_LIMIT,
        help=f"most fights of a round to spend (default {DEFAULT_LIMIT:,}); docs/odds.md",
    )
    p.add_argument(
        "--workers",
        type=int,
        default=os.cpu_count() or 1,
        help="processes to explore a round's new states on (default: CPU count); the same odds",
    )
    p.add_argument("--format", choices=["table", "json"], default="table")
    p.add_argument("--plot", metavar="FILE.png", help="draw how it ends and how long it lasts")
    p.add_argument("--force", action="store_true", help="let --plot replace an existing file")
    p.set_defaults(run=_odds_battle)
