"""What the ``sim`` commands share: the one-line-error parser, the exit codes, warnings."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from sim.errors import SimError

EXIT_USAGE = 2


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line on stderr, exit code 2."""

    def error(self, message: str) -> NoReturn:
        """Print the one-line error and exit with code 2."""
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


class SweepInterrupted(SimError):
    """A sweep stopped by Ctrl-C: what is done is kept (exit code 130)."""


class SweepFailed(SimError):
    """A sweep some of whose runs failed: its output, then the failures (exit code 1)."""

    def __init__(self, output: str, failures: str) -> None:
        super().__init__(failures)
        self.output = output


def print_warnings(lines: Sequence[str]) -> None:
    """Print each warning on stderr."""
    for line in lines:
        print(f"warning: {line}", file=sys.stderr)


def add_format(p: argparse.ArgumentParser) -> None:
    """Add ``--format`` (table, csv or json) to ``p``."""
    p.add_argument(
        "--format",
        choices=["table", "json", "csv"],
        default="table",
        help="table for reading, json or csv for programs (default: table)",
    )


def exp_warnings(exp: Any) -> list[str]:
    """Warnings about the experiment's scenario (fields its system ignores, aliases)."""
    from sim.experiment.notes import experiment_notes

    return [str(w) for w in experiment_notes(exp)]
