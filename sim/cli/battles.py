"""``sim run``, ``sim replay`` and ``sim validate``: one battle, its pictures, checked files."""

from __future__ import annotations

import _thread
import argparse
import contextlib
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from sim.cli import text
from sim.cli.common import (
    exp_warnings,
    print_warnings,
)
from sim.errors import SimError


def _run(a: argparse.Namespace) -> str:
    from pathlib import Path

    from sim.experiment.load import wrong_kind
    from sim.run.core import draw_seed, fight, write_dataset
    from sim.scenario import load_scenario

    if (why := wrong_kind(a.file, "scenario")) is not None:
        raise SimError(why)
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
    with battle_progress() as watch:
        fought = fight(scenario, seed, events=a.events or bool(a.html), on_battle=watch)
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


PROGRESS_EVERY = 5.0
"""Seconds before the first progress line of a long battle, and between the next ones."""


@contextlib.contextmanager
def battle_progress() -> Iterator[Callable[[Any], None]]:
    """Progress lines on stderr while a long battle is fought; yields ``fight``'s ``on_battle``.

    After :data:`PROGRESS_EVERY` seconds, and as often again, a thread prints the round
    and how many fighters are still active (``progress: round 1, 74210 fighters active;
    10 s``), read from the battle without changing it. A battle that ends sooner prints
    nothing. Ctrl-C is made sure of: Python drops a KeyboardInterrupt raised inside a weak
    reference's callback (Mesa's agents have them), so if the battle still runs a second
    after Ctrl-C, the thread raises it again.
    """
    battles: list[Any] = []
    done, ctrl_c = threading.Event(), threading.Event()
    start = time.monotonic()
    noted = [start]  # when Ctrl-C was last raised

    def watch() -> None:
        said = start
        while not done.wait(min(0.25, PROGRESS_EVERY)):
            if ctrl_c.is_set() and time.monotonic() - noted[0] >= 1.0 and not done.is_set():
                noted[0] = time.monotonic()  # still fighting a second on: it was dropped
                _thread.interrupt_main()
            if battles and time.monotonic() - said >= PROGRESS_EVERY:
                said = time.monotonic()
                print(_progress_line(battles, said - start), file=sys.stderr, flush=True)

    ticker = threading.Thread(target=watch, name="sim-progress", daemon=True)
    with _ctrl_c_noted(ctrl_c, noted):
        ticker.start()
        try:
            yield battles.append
        finally:
            done.set()
            ticker.join()


def _progress_line(battles: Sequence[Any], seconds: float) -> str:
    """``progress: [battle N, ]round R, A fighters active; S s`` of the latest battle."""
    b = battles[-1]
    where = f"battle {len(battles)}, " if len(battles) > 1 else ""
    active = sum(side.active for side in b.sides.values())
    return f"progress: {where}round {b.round}, {active} fighters active; {seconds:.0f} s"


@contextlib.contextmanager
def _ctrl_c_noted(noted: threading.Event, when: list[float]) -> Iterator[None]:
    """In the main thread, Ctrl-C sets ``noted`` (and ``when[0]``) as it raises."""
    if (
        threading.current_thread() is not threading.main_thread()
        or signal.getsignal(signal.SIGINT) is not signal.default_int_handler
    ):
        yield
        return

    def interrupt(signum: int, frame: Any) -> None:
        when[0] = time.monotonic()
        noted.set()
        raise KeyboardInterrupt

    from sim.workers import dropped_quietly

    old = signal.signal(signal.SIGINT, interrupt)
    try:
        with dropped_quietly(noted):
            yield
    finally:
        signal.signal(signal.SIGINT, old)


def _run_warnings(file: str, sets: Sequence[str]) -> None:
    """The scenario's warnings on stderr (fields its system ignores, misleading aliases)."""
    from pathlib import Path

    from sim.scenario.notes import scenario_notes

    source = Path(file).read_text(encoding="utf-8-sig")
    print_warnings([str(i) for i in scenario_notes(source, str(file), tuple(sets))])


def _replay(a: argparse.Namespace) -> str:
    from sim.run import replay

    stored = replay.stored_run(a.dataset, a.run_id)
    scenario = stored.scenario
    _check_pictures(a, scenario, f"run {a.run_id}'s scenario ({scenario.name})")
    with battle_progress() as watch:
        fought = replay.replay(stored, watch)
    _pictures(a, fought)  # only a battle that replays exactly is worth a picture
    _page(a, fought, stored.seed)
    out = text.render_outcome(fought.battle, stored.seed) + text.after_text(fought)
    if a.events:
        out += "\n\n" + "\n".join(fought.battle.narrative())
    return f"run {a.run_id} replays exactly.\n{out}"


def _check_pictures(a: argparse.Namespace, scenario: Any, where: str) -> None:
    """Refuse ``--frames``, ``--gif`` or ``--html`` before fighting if nothing could be written."""
    from pathlib import Path

    from sim import files

    if a.html and files.is_link(a.html):
        raise files.link_error(a.html, "--html")
    if a.html and Path(a.html).is_dir():
        raise SimError(f"--html {a.html}: is a directory, not a file name")
    if a.html and Path(a.html).exists() and not a.force:
        raise files.exists_error(a.html, "--html")  # and again as the page is written
    if not (a.frames or a.gif):
        return
    battles = scenario.campaign.battles if scenario.campaign is not None else (scenario,)
    if all(b.map is None for b in battles):
        flag = "--frames" if a.frames else "--gif"
        raise SimError(f"{where} has no `map:`, so there is nothing to draw for {flag}")
    from sim.page.frames import check_targets

    check_targets(a.frames or None, a.gif or None, a.force)


def _pictures(a: argparse.Namespace, fought: Any) -> None:
    """Draw the run's battles as ``--frames``/``--gif`` ask (:func:`sim.page.frames.draw_run`).

    One line each on stderr, so stdout stays the outcome (pure JSON with ``--format json``).
    """
    if not (a.frames or a.gif):
        return
    from functools import partial

    from sim.page import frames  # matplotlib: imported only when drawing

    say = partial(print, file=sys.stderr)
    frames.draw_run(fought, a.frames or None, a.gif or None, say, a.force)


def _page(a: argparse.Namespace, fought: Any, seed: int) -> None:
    """Write the replay page ``--html`` asks for (:func:`sim.page.write`); a line on stderr."""
    if not a.html:
        return
    from sim import page

    print(f"replay page: {page.write(a.html, fought, seed, a.force)}", file=sys.stderr)


def _validate(a: argparse.Namespace) -> str:
    """Check scenario and experiment files (an experiment: every design point too)."""
    problems: list[str] = []
    names = []
    for file in a.files:
        try:
            line, notes = _validate_one(file)
            names.append(line)
            print_warnings(notes)
        except SimError as err:
            problems.append(str(err))
    if problems:
        raise SimError("\n".join(problems))
    return "\n".join(names)


def _validate_one(file: str) -> tuple[str, list[str]]:
    """One checked file's line, and its warnings."""
    from pathlib import Path

    from sim.experiment.load import is_experiment, load_experiment
    from sim.scenario import load_scenario
    from sim.scenario.notes import scenario_notes
    from sim.search import is_search, load_search
    from sim.search.spec import check_experiment

    if is_search(file):
        search = load_search(file)
        return text.search_line(file, search), exp_warnings(check_experiment(search))
    if is_experiment(file):
        exp = load_experiment(file)
        return text.experiment_line(file, exp), exp_warnings(exp)
    scenario = load_scenario(file)
    source = Path(file).read_text(encoding="utf-8-sig")
    return text.scenario_line(file, scenario), [str(i) for i in scenario_notes(source, file)]


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


def add_run(sub: Any) -> None:
    """Add ``sim run`` to the subcommands ``sub``."""
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


def add_validate(sub: Any) -> None:
    """Add ``sim validate`` to the subcommands ``sub``."""
    p_val = sub.add_parser(
        "validate",
        help="check scenario and experiment files without running them (an experiment: "
        "every design point)",
    )
    p_val.add_argument("files", nargs="+", help="scenario or experiment YAML files")
    p_val.set_defaults(run=_validate)


def add_replay(sub: Any) -> None:
    """Add ``sim replay`` to the subcommands ``sub``."""
    p_rep = sub.add_parser("replay", help="re-run one stored run and check it replays exactly")
    p_rep.add_argument("dataset", help="a dataset directory (from sim run --out or sim sweep)")
    p_rep.add_argument("--run", dest="run_id", type=int, required=True, help="the run id")
    p_rep.add_argument("--events", action="store_true", help="print the narrative")
    _add_pictures(p_rep)
    p_rep.set_defaults(run=_replay)
