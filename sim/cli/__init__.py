"""The ``sim`` command line: argparse and printing only.

Every command parses its arguments, checks what only the command line can get wrong (flags
that go together, pictures of a map-less scenario), calls the library (:mod:`sim.run.core`,
:mod:`sim.run.replay`, :mod:`sim.experiment.runner`, :mod:`sim.analysis`, :mod:`sim.odds.exact`,
:mod:`sim.cli.catalogue`, :mod:`sim.cli.schema`) and prints the text :mod:`sim.cli.text` makes
of the result. Bad input never shows a traceback: it prints one line on stderr and exits with
code 2. The option catalogue (``sim options``, ``sim tables``) and the JSON Schemas of the files
(``sim schema``) describe the inputs for the command line and the docs, so they live here.

May import: every stage; nothing imports it (but ``python -m sim``).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from sim.cli.battles import add_replay, add_run, add_validate
from sim.cli.catalogue import option_rows
from sim.cli.common import EXIT_USAGE, Parser, SweepFailed, SweepInterrupted
from sim.cli.info import add_options, add_schema, add_tables
from sim.cli.odds import add_odds
from sim.cli.sweeps import add_analyze, add_export, add_sweep
from sim.dice import DiceError
from sim.errors import SimError
from sim.run.replay import ReplayMismatch
from sim.version import __version__

__all__ = ["EXIT_USAGE", "build_parser", "main", "option_rows"]


def build_parser() -> argparse.ArgumentParser:
    """The argument parser for every ``sim`` subcommand."""
    parser = Parser(prog="sim", description="Agent-based battle simulator.")
    parser.add_argument("--version", action="version", version=f"sim {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    for add in (add_odds, add_run, add_sweep, add_analyze, add_export, add_validate):
        add(sub)
    add_replay(sub)
    add_options(sub)
    add_tables(sub)
    add_schema(sub)
    return parser


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
    except KeyboardInterrupt:  # Ctrl-C: files are written whole or not at all
        print(f"sim {args.command}: interrupted", file=sys.stderr)
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
