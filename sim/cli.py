"""The ``sim`` command line: argparse and printing only.

Every command parses its arguments, checks what only the command line can get wrong (flags
that go together, pictures of a map-less scenario), calls the library (:mod:`sim.run`,
:mod:`sim.replay`, :mod:`sim.runner`, :mod:`sim.analysis`, :mod:`sim.odds`,
:mod:`sim.catalogue`) and prints the text :mod:`sim.text` makes of the result. Bad input
never shows a traceback: it prints one line on stderr and exits with code 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from sim import __version__, odds, text
from sim.catalogue import option_rows
from sim.cliodds import add_check_plot as _add_check_plot
from sim.cliodds import add_dice, check_and_plot, plotted
from sim.dice import DiceError, parse_code
from sim.errors import SimError
from sim.replay import ReplayMismatch
from sim.rules import deathwish, twowp

EXIT_USAGE = 2


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line on stderr, exit code 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


class SweepInterrupted(SimError):
    """A sweep stopped by Ctrl-C: what is done is kept (exit code 130)."""


class SweepFailed(SimError):
    """A sweep some of whose runs failed: its output, then the failures (exit code 1)."""

    def __init__(self, output: str, failures: str) -> None:
        super().__init__(failures)
        self.output = output


# ---------------------------------------------------------------------------------------
# sim odds


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
            from sim import oddsplot

            fig = oddsplot.grouped(title, rows, "weapon", "armor", "mean")
            plotted(oddsplot.save(fig, a.plot))
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
        from sim import oddsplot

        fig = oddsplot.grid(title, data["outcomes"], "felling", "wounding")
        plotted(oddsplot.save(fig, a.plot))
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


# ---------------------------------------------------------------------------------------
# sim run, sim replay, sim validate


def _run(a: argparse.Namespace) -> str:
    from pathlib import Path

    from sim.run import draw_seed, fight, write_dataset
    from sim.scenario import load_scenario

    scenario = load_scenario(a.file, a.set)
    _run_warnings(a.file, a.set)
    seed = a.seed if a.seed is not None else scenario.seed
    if seed is None:
        seed = draw_seed()
        print(f"seed {seed} (replay with --seed {seed})", file=sys.stderr)
    if seed < 0:
        raise SimError(f"--seed must be 0 or more, got {seed}")
    if a.out is not None and seed >= 2**64:
        raise SimError(
            f"seed {seed} does not fit a dataset's seed column (0 to 2**64-1); run it "
            "without --out, or choose a smaller seed"
        )
    _check_pictures(a, scenario, a.file)
    fought = fight(scenario, seed, events=a.events or bool(a.html))
    if a.out is not None:
        source = Path(a.file).read_text(encoding="utf-8")
        write_dataset(a.out, fought, seed, str(a.file), source, a.set, events=a.events)
    _pictures(a, fought)
    _page(a, fought, seed)
    if a.format == "json":
        return text.run_json(fought, seed)
    out = text.render_outcome(fought.battle, seed)
    if a.events:
        out += "\n\n" + "\n".join(fought.battle.narrative())
    return out + text.after_text(fought)


def _run_warnings(file: str, sets: Sequence[str]) -> None:
    """The scenario's warnings on stderr (fields its system ignores, misleading aliases)."""
    from pathlib import Path

    from sim.scenario.notes import scenario_notes

    source = Path(file).read_text(encoding="utf-8-sig")
    _print_warnings([str(i) for i in scenario_notes(source, str(file), tuple(sets))])


def _replay(a: argparse.Namespace) -> str:
    from sim import replay

    stored = replay.stored_run(a.dataset, a.run_id)
    scenario = stored.scenario
    _check_pictures(a, scenario, f"run {a.run_id}'s scenario ({scenario.name})")
    fought = replay.replay(stored)
    _pictures(a, fought)  # only a battle that replays exactly is worth a picture
    _page(a, fought, stored.seed)
    out = text.render_outcome(fought.battle, stored.seed) + text.after_text(fought)
    if a.events:
        out += "\n\n" + "\n".join(fought.battle.narrative())
    return f"run {a.run_id} replays exactly.\n{out}"


def _check_pictures(a: argparse.Namespace, scenario: Any, where: str) -> None:
    """Refuse ``--frames``, ``--gif`` or ``--html`` before fighting if nothing could be written."""
    from pathlib import Path

    if a.html and Path(a.html).is_dir():
        raise SimError(f"--html {a.html}: is a directory, not a file name")
    if a.html and Path(a.html).exists() and not a.force:
        raise SimError(f"--html {a.html}: the file exists (--force replaces it)")
    if not (a.frames or a.gif):
        return
    battles = scenario.campaign.battles if scenario.campaign is not None else (scenario,)
    if all(b.map is None for b in battles):
        flag = "--frames" if a.frames else "--gif"
        raise SimError(f"{where} has no `map:`, so there is nothing to draw for {flag}")
    from sim.frames import check_targets

    check_targets(a.frames or None, a.gif or None, a.force)


def _pictures(a: argparse.Namespace, fought: Any) -> None:
    """Draw the run's battles as ``--frames``/``--gif`` ask (:func:`sim.frames.draw_run`).

    One line each on stderr, so stdout stays the outcome (pure JSON with ``--format json``).
    """
    if not (a.frames or a.gif):
        return
    from functools import partial

    from sim import frames  # matplotlib: imported only when drawing

    say = partial(print, file=sys.stderr)
    frames.draw_run(fought, a.frames or None, a.gif or None, say, a.force)


def _page(a: argparse.Namespace, fought: Any, seed: int) -> None:
    """Write the replay page ``--html`` asks for (:func:`sim.page.write`); a line on stderr."""
    if not a.html:
        return
    from sim import page

    print(f"replay page: {page.write(a.html, fought, seed)}", file=sys.stderr)


def _validate(a: argparse.Namespace) -> str:
    """Check scenario and experiment files (an experiment: every design point too)."""
    problems: list[str] = []
    names = []
    for file in a.files:
        try:
            line, notes = _validate_one(file)
            names.append(line)
            _print_warnings(notes)
        except SimError as err:
            problems.append(str(err))
    if problems:
        raise SimError("\n".join(problems))
    return "\n".join(names)


def _validate_one(file: str) -> tuple[str, list[str]]:
    """One checked file's line, and its warnings."""
    from pathlib import Path

    from sim.experiment import is_experiment, load_experiment
    from sim.scenario import load_scenario
    from sim.scenario.notes import scenario_notes

    if is_experiment(file):
        exp = load_experiment(file)
        return text.experiment_line(file, exp), exp_warnings(exp)
    scenario = load_scenario(file)
    source = Path(file).read_text(encoding="utf-8-sig")
    return text.scenario_line(file, scenario), [str(i) for i in scenario_notes(source, file)]


# ---------------------------------------------------------------------------------------
# sim sweep, sim analyze, sim options


def _sweep(a: argparse.Namespace) -> str:
    import os
    from pathlib import Path

    from sim import analysis
    from sim.experiment import load_experiment
    from sim.runner import summary, sweep

    exp = load_experiment(a.experiment)  # every design point checked: exit 2 before a run
    _print_warnings(exp_warnings(exp))
    if a.replicates is not None:
        exp = exp.preview(a.replicates)
    cpus = os.cpu_count() or 1
    if a.workers is not None and a.workers < 1:
        raise SimError(f"--workers must be 1 or more, got {a.workers}")
    if a.workers is not None and a.workers > cpus:
        print(f"warning: --workers {a.workers} is more than the {cpus} CPUs", file=sys.stderr)
    workers = a.workers or cpus
    executor = a.executor or ("processes" if workers > 1 else "serial")
    if executor == "serial":
        workers = 1
    out = Path(a.out) if a.out else Path("results") / exp.name
    result = sweep(
        exp,
        out,
        workers=workers,
        executor=executor,
        scheduler=a.scheduler,
        resume=a.resume,
        limit=a.limit,
        force=a.force,
        rebuild_manifest=a.rebuild_manifest,
    )
    done = summary(exp, result, executor, workers)
    if result.interrupted:
        raise SweepInterrupted(done)
    text_out = f"{done}\n\n{text.analyze_text(out)}\n\n(sim analyze {out} prints this again)"
    ds = analysis.load(out)
    if analysis.failure_groups(ds):
        raise SweepFailed(text_out, analysis.failures_text(ds))
    return text_out


def exp_warnings(exp: Any) -> list[str]:
    """Warnings about the experiment's scenario (fields its system ignores, aliases)."""
    from sim.scenario.notes import experiment_notes

    return [str(w) for w in experiment_notes(exp)]


def _print_warnings(lines: Sequence[str]) -> None:
    for line in lines:
        print(f"warning: {line}", file=sys.stderr)


def _analyze(a: argparse.Namespace) -> str:
    from sim import analysis

    if a.plot:
        from sim import plots

        plots.plot_format(a.plot)  # a bad ending refused before any work
    if a.dpi is not None and not 10 <= a.dpi <= 2400:
        raise SimError(f"--dpi must be from 10 to 2400, got {a.dpi:g}")
    labels = {}
    for item in a.label:
        path, eq, name = item.partition("=")
        if not eq or not path.strip() or not name.strip():
            raise SimError(f"--label {item!r}: expected PATH=TEXT, e.g. sides.red.tactic=tactic")
        labels[path.strip()] = name.strip()
    ds = analysis.load(a.dataset)
    if ds.unlisted:
        print(
            f"note: {ds.root}: ignored {len(ds.unlisted)} files the manifest does not list: "
            + ", ".join(ds.unlisted[:5]),
            file=sys.stderr,
        )
    if a.sensitivity:
        return _sensitivity(a, ds)
    s = analysis.summarize(ds, a.by or None, labels)
    out = text.summary_text(ds, s, a.format)
    notes = []
    if a.plot:
        name = ds.manifest.get("experiment_name") or ds.root.name
        notes.append(f"plot: {plots.save(plots.figure(s, str(name), ds), a.plot, a.dpi)}")
    if a.report:
        from sim import report

        notes.append(f"report: {report.write(ds, s, a.report)}")
    if notes and a.format == "table":
        out += "\n\n" + "\n".join(notes)
    elif notes:
        print("\n".join(notes), file=sys.stderr)  # keep stdout pure JSON or CSV
    return out


def _sensitivity(a: argparse.Namespace, ds: Any) -> str:
    """``sim analyze --sensitivity``: the indices, and their chart with ``--plot``."""
    from sim.analysis.sensitivity import sensitivity

    sens = sensitivity(ds)
    out = text.sensitivity_text(ds, sens, a.format)
    if a.plot:
        from sim import plots, sensplot

        name = str(ds.manifest.get("experiment_name") or ds.root.name)
        note = f"plot: {plots.save(sensplot.figure(sens, name), a.plot, a.dpi)}"
        if a.format == "table":
            return f"{out}\n\n{note}"
        print(note, file=sys.stderr)
    return out


def _export(a: argparse.Namespace) -> str:
    from sim import analysis, export

    written = export.export(analysis.load(a.dataset), a.out, a.table or ["runs"], a.format)
    return "\n".join(
        f"{t}: {path} ({rows} rows, {cols} columns)" for t, path, rows, cols in written
    )


def _options(a: argparse.Namespace) -> str:
    return text.options_text(option_rows(a.system), a.format)


def _schema(a: argparse.Namespace) -> str:
    from sim import schema

    if a.out is None:
        return schema.text(a.kind).rstrip("\n")
    return "\n".join(f"wrote {p}" for p in schema.write(a.out))


def _tables(a: argparse.Namespace) -> str:
    from sim.catalogue import table_listings

    return text.tables_text(table_listings(a.topic), a.format)


# ---------------------------------------------------------------------------------------
# the parser


def _add_format(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--format",
        choices=["table", "json", "csv"],
        default="table",
        help="table for reading, json or csv for programs (default: table)",
    )


def _add_pictures(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--frames",
        metavar="DIR",
        help="draw the battle on its map: one PNG per round in DIR, round-000.png (the "
        "deployment) to round-NNN.png (DIR is created; old frames there are replaced); a "
        "campaign draws each battle, battle-N-round-NNN.png; needs a scenario with map: "
        "(DIR must be new, empty or an earlier --frames folder)",
    )
    p.add_argument(
        "--gif",
        metavar="FILE",
        help="draw the battle on its map as an animated GIF, one frame per round (a "
        "campaign: FILE-battle-N.gif per battle; an existing FILE only if sim drew it); "
        "needs a scenario with map:",
    )
    p.add_argument(
        "--html",
        metavar="FILE",
        help="write a replay page: one self-contained HTML file (no network) to watch the "
        "battle round by round in a browser, on its map or as columns of fighters",
    )
    p.add_argument(
        "--force",
        action="store_true",
        help="let --html replace an existing file, and --frames/--gif draw over files that "
        "sim did not write",
    )


def build_parser() -> argparse.ArgumentParser:
    """The argument parser for every ``sim`` subcommand."""
    parser = _Parser(prog="sim", description="Agent-based battle simulator.")
    parser.add_argument("--version", action="version", version=f"sim {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for add in (_add_odds, _add_run, _add_sweep, _add_analyze, _add_export, _add_validate):
        add(sub)
    _add_replay(sub)
    _add_options(sub)
    _add_tables(sub)
    _add_schema(sub)
    return parser


def _add_odds(sub: Any) -> None:
    p_odds = sub.add_parser("odds", help="exact probability tables for each rule system")
    systems = p_odds.add_subparsers(dest="system", required=True, parser_class=_Parser)
    _add_odds_deathwish(systems)

    tw = systems.add_parser("2w2p", help="felling and wounding hits through defence dice")
    tw.add_argument("--attack", type=int, help="number of attack dice")
    tw.add_argument("--attackers", help="attackers by tier, e.g. green=3,veteran=1")
    tw.add_argument("--defence", type=int, default=0, help="defence dice (default 0)")
    _add_format(tw)
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
    _add_format(wg)
    _add_check_plot(wg)
    wg.set_defaults(run=_odds_wargame)

    d = systems.add_parser("d6", help="chance of each damage-table tier")
    d.add_argument("--damage", required=True, help="damage dice code, e.g. 4D+1")
    d.add_argument("--body", required=True, help="body roll dice code, e.g. 3D")
    _add_format(d)
    _add_check_plot(d)
    d.set_defaults(run=_odds_d6)

    add_dice(systems)


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
    _add_format(dw)
    _add_check_plot(dw)
    dw.set_defaults(run=_odds_deathwish)


def _add_run(sub: Any) -> None:
    p_run = sub.add_parser("run", help="fight one scenario file and print its outcome")
    p_run.add_argument("file", help="a scenario YAML file")
    p_run.add_argument("--seed", type=int, help="the battle's seed (default: the file's, or drawn)")
    p_run.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="PATH=VALUE",
        help="override a scenario field, e.g. rules.options.pool=headcount",
    )
    p_run.add_argument("--events", action="store_true", help="print the round-by-round narrative")
    p_run.add_argument("--out", help="write the run's Parquet tables to this directory")
    p_run.add_argument("--format", choices=["text", "json"], default="text")
    _add_pictures(p_run)
    p_run.set_defaults(run=_run)


def _add_sweep(sub: Any) -> None:
    p_sw = sub.add_parser("sweep", help="run an experiment's battles into a Parquet dataset")
    p_sw.add_argument("experiment", help="an experiment YAML file")
    p_sw.add_argument("--out", help="dataset directory (default: results/<experiment name>/)")
    p_sw.add_argument("--workers", type=int, help="parallel workers (default: CPU count)")
    p_sw.add_argument(
        "--executor",
        choices=["serial", "processes", "dask"],
        help="where runs execute (default: processes, or serial for 1 worker)",
    )
    p_sw.add_argument("--scheduler", help="a dask scheduler address, e.g. tcp://host:8786")
    p_sw.add_argument("--resume", action="store_true", help="finish an interrupted sweep")
    p_sw.add_argument("--limit", type=int, help="run only the first N planned runs")
    p_sw.add_argument(
        "--replicates",
        type=int,
        metavar="N",
        help="a preview: only the first N replicates of every design point, each run with "
        "the seed it has in the full sweep",
    )
    p_sw.add_argument(
        "--force",
        action="store_true",
        help="resume a dataset made by other sim code (the manifest records it)",
    )
    p_sw.add_argument(
        "--rebuild-manifest",
        action="store_true",
        help="with --resume: write a lost or damaged manifest again from the experiment "
        "and the whole chunks in the folder",
    )
    p_sw.set_defaults(run=_sweep)


def _add_analyze(sub: Any) -> None:
    p_an = sub.add_parser("analyze", help="win rates, length and losses per group of a dataset")
    p_an.add_argument("dataset", help="a dataset directory (from sim sweep or sim run --out)")
    p_an.add_argument(
        "--by",
        nargs="+",
        metavar="PARAM",
        help="group by these swept parameters (default: all of them)",
    )
    _add_format(p_an)
    p_an.add_argument(
        "--plot",
        metavar="FILE",
        help="also draw the charts to FILE: .png, or .svg / .pdf for vector figures",
    )
    p_an.add_argument("--dpi", type=float, help="the plot's resolution (default 100)")
    p_an.add_argument(
        "--label",
        action="append",
        default=[],
        metavar="PATH=TEXT",
        help="name a parameter in headers and on axes, e.g. sides.guards.tactic='guard tactic' "
        "(over the experiment's labels: map)",
    )
    p_an.add_argument("--report", metavar="FILE.html", help="also write a self-contained report")
    p_an.add_argument(
        "--sensitivity",
        action="store_true",
        help="Sobol indices S1 and ST (Morris: mu*, sigma; FAST: S1, ST) with 95%% intervals "
        "of a sweep with a sobol, morris or fast design; --plot draws them",
    )
    p_an.set_defaults(run=_analyze)


def _add_export(sub: Any) -> None:
    from sim.records import TABLES

    p_ex = sub.add_parser("export", help="a dataset's tables as flat CSV or Parquet files")
    p_ex.add_argument("dataset", help="a dataset directory (from sim sweep or sim run --out)")
    p_ex.add_argument(
        "--out",
        required=True,
        help="a new file (one table) or folder (several); an existing one is refused",
    )
    p_ex.add_argument(
        "--table",
        action="append",
        choices=TABLES,
        help="a table to export, repeatable (default: runs)",
    )
    p_ex.add_argument("--format", choices=["csv", "parquet"], default="csv")
    p_ex.set_defaults(run=_export)


def _add_validate(sub: Any) -> None:
    p_val = sub.add_parser(
        "validate",
        help="check scenario and experiment files without running them (an experiment: "
        "every design point)",
    )
    p_val.add_argument("files", nargs="+", help="scenario or experiment YAML files")
    p_val.set_defaults(run=_validate)


def _add_replay(sub: Any) -> None:
    p_rep = sub.add_parser("replay", help="re-run one stored run and check it replays exactly")
    p_rep.add_argument("dataset", help="a dataset directory (from sim run --out or sim sweep)")
    p_rep.add_argument("--run", dest="run_id", type=int, required=True, help="the run id")
    p_rep.add_argument("--events", action="store_true", help="print the narrative")
    _add_pictures(p_rep)
    p_rep.set_defaults(run=_replay)


def _add_options(sub: Any) -> None:
    p_opt = sub.add_parser("options", help="every option: default, tag [I]/[H], meaning")
    p_opt.add_argument(
        "system",
        nargs="?",
        help="one group: wargame, 2w2p, deathwish, d6, battle, tactic, 2w2p-aftermath, "
        "deathwish-aftermath, d6-aftermath, camp or campaign",
    )
    p_opt.add_argument(
        "--format",
        choices=["table", "json", "csv", "markdown"],
        default="table",
        help="output format (default: table)",
    )
    p_opt.set_defaults(run=_options)


def _add_schema(sub: Any) -> None:
    p_sch = sub.add_parser(
        "schema", help="the JSON Schema of scenario or experiment files, for editors"
    )
    p_sch.add_argument(
        "kind",
        nargs="?",
        choices=["scenario", "experiment"],
        default="scenario",
        help="which schema to print (default: scenario)",
    )
    p_sch.add_argument(
        "--out",
        metavar="DIR",
        help="write both, DIR/scenario.schema.json and DIR/experiment.schema.json, instead",
    )
    p_sch.set_defaults(run=_schema)


def _add_tables(sub: Any) -> None:
    from sim.catalogue import TABLE_TOPICS

    p_tab = sub.add_parser(
        "tables", help="every name a scenario may use (weapons, armor, ...), with aliases"
    )
    p_tab.add_argument(
        "topic", nargs="?", choices=TABLE_TOPICS, help="one topic (default: every table)"
    )
    p_tab.add_argument(
        "--format",
        choices=["table", "json", "markdown"],
        default="table",
        help="output format (default: table)",
    )
    p_tab.set_defaults(run=_tables)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``sim`` command line; return the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        out = args.run(args)
    except ReplayMismatch as err:
        print(f"sim replay: {err}", file=sys.stderr)
        return 1
    except SweepInterrupted as err:
        print(str(err), file=sys.stderr)
        return 130
    except SweepFailed as err:
        print(err.output)
        print(str(err), file=sys.stderr)
        return 1
    except OSError as err:  # the filesystem said no: one line, never a traceback
        where = f"{err.filename}: " if err.filename else ""
        print(f"sim {args.command}: error: {where}{err.strerror or err}", file=sys.stderr)
        return EXIT_USAGE
    except (SimError, DiceError) as err:
        message = str(err)
        if getattr(err, "issues", None) or args.command == "validate":
            print(message, file=sys.stderr)  # already file:line: path: message lines
        else:
            print(f"sim {args.command}: error: {message}", file=sys.stderr)
        return EXIT_USAGE
    try:
        try:
            print(out)
        except UnicodeEncodeError:  # a file name that is not text in the terminal's encoding
            enc = sys.stdout.encoding or "utf-8"
            print(out.encode(enc, "backslashreplace").decode(enc))
    except BrokenPipeError:  # e.g. `sim odds deathwish | head`
        sys.stderr.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
