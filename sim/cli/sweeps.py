"""``sim sweep``, ``sim analyze`` and ``sim export``: experiments and their datasets."""

from __future__ import annotations

import argparse
import errno
import os
import sys
from typing import Any

from sim.cli import text
from sim.cli.common import (
    SearchUnanswered,
    SweepFailed,
    SweepInterrupted,
    add_format,
    exp_warnings,
    print_warnings,
)
from sim.errors import SimError


def _sweep(a: argparse.Namespace) -> str:
    from pathlib import Path

    from sim import workers as sweep_workers

    workers, executor = _workers(a)
    if executor == "processes":
        sweep_workers.start()  # the workers' imports, beside this process's own from here on

    from sim import analysis
    from sim.experiment.load import load_experiment, wrong_kind
    from sim.experiment.runner import summary, sweep
    from sim.search import is_search

    if (why := wrong_kind(a.experiment, "experiment")) is not None:
        raise SimError(why)
    if is_search(a.experiment):
        return _search(a, workers, executor)
    exp = load_experiment(a.experiment)  # every design point checked: exit 2 before a run
    print_warnings(exp_warnings(exp))
    if a.replicates is not None:
        exp = exp.preview(a.replicates)
    _warn_of_workers(a)
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


def _workers(a: argparse.Namespace) -> tuple[int, str]:
    """The workers and executor ``sim sweep`` runs with (the CPU count, processes)."""
    if a.workers is not None and a.workers < 1:
        raise SimError(f"--workers must be 1 or more, got {a.workers}")
    workers = a.workers or os.cpu_count() or 1
    executor = a.executor or ("processes" if workers > 1 else "serial")
    return (1 if executor == "serial" else workers), executor


def _warn_of_workers(a: argparse.Namespace) -> None:
    """A warning when ``--workers`` asks for more workers than there are CPUs."""
    cpus = os.cpu_count() or 1
    if a.workers is not None and a.workers > cpus:
        print(f"warning: --workers {a.workers} is more than the {cpus} CPUs", file=sys.stderr)


def _search(a: argparse.Namespace, workers: int, executor: str) -> str:
    """``sim sweep`` of a search (balance, optimize, calibrate) on ``workers``: its answer."""
    from pathlib import Path

    from sim import analysis
    from sim.search import load_search, run_search
    from sim.search.driver import summary_line
    from sim.search.spec import check_experiment

    search = load_search(a.experiment)  # every checked value: exit 2 before a battle
    print_warnings(exp_warnings(check_experiment(search)))
    for flag in ("limit", "replicates"):
        if getattr(a, flag) is not None:
            raise SimError(f"--{flag} is for sweeps: a search fights at most its budget: battles")
    if a.rebuild_manifest:
        raise SimError(
            "--rebuild-manifest is for sweeps; a search with a lost manifest is searched again"
        )
    _warn_of_workers(a)
    out = Path(a.out) if a.out else Path("results") / search.name
    result = run_search(
        search,
        out,
        workers=workers,
        executor=executor,
        scheduler=a.scheduler,
        resume=a.resume,
        force=a.force,
    )
    head = "\n".join([*result.notes, summary_line(search, result, executor, workers)])
    if result.interrupted or result.answer is None:
        raise SweepInterrupted(
            f"{head}\ninterrupted: {result.spent:,} battles are in the dataset; "
            "finish with --resume"
        )
    body = text.answer_text(result.answer, out)
    output = f"{head}\n\n{body}\n\n(sim analyze {out} prints this again)"
    ds = analysis.load(out)
    if analysis.failure_groups(ds):
        raise SweepFailed(output, analysis.failures_text(ds))
    if result.answer.get("exit"):
        raise SearchUnanswered(output)
    return output


def _analyze(a: argparse.Namespace) -> str:
    from sim import analysis

    for flag, path in (("--plot", a.plot), ("--report", a.report)):
        if path and os.path.isdir(path):  # before the ending's check: the folder is the mistake
            raise IsADirectoryError(errno.EISDIR, "is a directory, not a file name", path)
        _check_output(path, flag, a.force)
    if a.plot:
        from sim.analysis import plots

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
    for flag, path in (("--plot", a.plot), ("--report", a.report)):
        _not_the_dataset(ds, path, flag)
    if ds.unlisted:
        print(
            f"note: {ds.root}: ignored {len(ds.unlisted)} files the manifest does not list: "
            + ", ".join(ds.unlisted[:5]),
            file=sys.stderr,
        )
    if a.sensitivity:
        return _sensitivity(a, ds)
    if a.game:
        return _game(a, ds)
    s = analysis.summarize(ds, a.by or None, labels)
    out = text.summary_text(ds, s, a.format)
    if ds.answer is not None and a.format == "table":  # a search's: its answer first
        out = f"{text.answer_text(ds.answer, ds.root)}\n\n{out}"
    notes = []
    if a.plot:
        name = ds.manifest.get("experiment_name") or ds.root.name
        fig = plots.figure(s, str(name), ds)
        notes.append(f"plot: {plots.save(fig, a.plot, a.dpi, a.force, '--plot')}")
    if a.report:
        from sim.analysis import report

        notes.append(f"report: {report.write(ds, s, a.report, a.force)}")
    if notes and a.format == "table":
        out += "\n\n" + "\n".join(notes)
    elif notes:
        print("\n".join(notes), file=sys.stderr)  # keep stdout pure JSON or CSV
    return out


def _game(a: argparse.Namespace, ds: Any) -> str:
    """``sim analyze --game A B``: the grid read as a game; ``--plot`` draws its heatmap."""
    import json

    from sim.analysis import plots
    from sim.analysis.game import game

    if a.report or a.by or a.sensitivity:
        raise SimError("--game goes alone (with --plot for its heatmap, --side, --of, --format)")
    answer, fig = game(ds, a.game[0], a.game[1], a.side, a.of)
    if a.format == "json":
        out = json.dumps(answer["data"])
    elif a.format == "csv":
        table = answer["tables"][0]
        out = text.render_csv(table["headers"], table["rows"])
    else:
        out = text.answer_text(answer, ds.root)
    if a.plot:
        note = f"plot: {plots.save(fig, a.plot, a.dpi, a.force, '--plot')}"
        if a.format == "table":
            return f"{out}\n\n{note}"
        print(note, file=sys.stderr)
    return out


def _check_output(path: str | None, flag: str, force: bool) -> None:
    """Refuse, before any work, an output over a link, or over a file without ``--force``.

    Checked again as the file is written (:func:`sim.files.write_file`).
    """
    from sim import files

    if path and files.is_link(path):
        raise files.link_error(path, flag)
    if path and os.path.exists(path) and not force:
        raise files.exists_error(path, flag)


def _not_the_dataset(ds: Any, path: str | None, flag: str) -> None:
    """Refuse an output that is a file of the dataset itself, even with ``--force``."""
    from sim.dataset import store

    if not path:
        return
    own = ["manifest.json", store.LOCK_NAME, *ds.manifest.get("parts", {})]
    if os.path.realpath(path) in {os.path.realpath(ds.root / name) for name in own}:
        raise SimError(f"{flag} {path}: a file of the dataset {ds.root}; choose another name")


def _sensitivity(a: argparse.Namespace, ds: Any) -> str:
    """``sim analyze --sensitivity``: the indices, and their chart with ``--plot``."""
    from sim.analysis.sensitivity import sensitivity

    sens = sensitivity(ds)
    out = text.sensitivity_text(ds, sens, a.format)
    if a.plot:
        from sim.analysis import plots, sensplot

        name = str(ds.manifest.get("experiment_name") or ds.root.name)
        fig = sensplot.figure(sens, name)
        note = f"plot: {plots.save(fig, a.plot, a.dpi, a.force, '--plot')}"
        if a.format == "table":
            return f"{out}\n\n{note}"
        print(note, file=sys.stderr)
    return out


def _export(a: argparse.Namespace) -> str:
    from sim import analysis
    from sim.analysis import export

    written = export.export(analysis.load(a.dataset), a.out, a.table or ["runs"], a.format)
    return "\n".join(
        f"{t}: {path} ({rows} rows, {cols} columns)" for t, path, rows, cols in written
    )


DESIGNS = "balance, optimize, calibrate, game or worth"
"""The search designs ``sim sweep --help`` names (tests/search/test_spec.py holds it to the
registry's; not imported here, so that every command starts without the searches)."""


def add_sweep(sub: Any) -> None:
    """Add ``sim sweep`` to the subcommands ``sub``."""
    p_sw = sub.add_parser(
        "sweep",
        help="run an experiment's battles into a Parquet dataset (a search, design: "
        f"{DESIGNS}, fights only where its answer is, and prints it)",
    )
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


def add_analyze(sub: Any) -> None:
    """Add ``sim analyze`` to the subcommands ``sub``."""
    p_an = sub.add_parser("analyze", help="win rates, length and losses per group of a dataset")
    p_an.add_argument("dataset", help="a dataset directory (from sim sweep or sim run --out)")
    p_an.add_argument(
        "--by",
        nargs="+",
        metavar="PARAM",
        help="group by these swept parameters (default: all of them)",
    )
    add_format(p_an)
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
        "--force", action="store_true", help="let --plot and --report replace an existing file"
    )
    p_an.add_argument(
        "--sensitivity",
        action="store_true",
        help="Sobol indices S1 and ST (Morris: mu*, sigma; FAST: S1, ST) with 95%% intervals "
        "of a sweep with a sobol, morris or fast design; --plot draws them",
    )
    p_an.add_argument(
        "--game",
        nargs=2,
        metavar=("PATH_A", "PATH_B"),
        help="read the grid as a game: PATH_A's values are one side's alternatives, PATH_B's "
        "the other's; dominated choices, each side's equilibrium mix and the value, with 95%% "
        "intervals (--plot draws the payoff heatmap)",
    )
    p_an.add_argument(
        "--side",
        help="with --game: the side whose win share is the payoff (default: the side PATH_A "
        "names, else the first)",
    )
    p_an.add_argument(
        "--of",
        choices=["decisive", "all"],
        default="decisive",
        help="with --game: the win share of decisive battles (default) or of all",
    )
    p_an.set_defaults(run=_analyze)


def add_export(sub: Any) -> None:
    """Add ``sim export`` to the subcommands ``sub``."""
    from sim.dataset.records import TABLES

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
