"""``sim options``, ``sim tables`` and ``sim schema``: what a scenario may say."""

from __future__ import annotations

import argparse
from typing import Any

from sim.cli import text
from sim.cli.catalogue import option_rows


def _options(a: argparse.Namespace) -> str:
    return text.options_text(option_rows(a.system), a.format)


def _schema(a: argparse.Namespace) -> str:
    from sim.cli import schema

    if a.out is None:
        return schema.text(a.kind).rstrip("\n")
    return "\n".join(f"wrote {p}" for p in schema.write(a.out, a.force))


def _tables(a: argparse.Namespace) -> str:
    from sim.cli.catalogue import table_listings

    return text.tables_text(table_listings(a.topic), a.format)


def add_options(sub: Any) -> None:
    """Add ``sim options`` to the subcommands ``sub``."""
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


def add_schema(sub: Any) -> None:
    """Add ``sim schema`` to the subcommands ``sub``."""
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
        help="write both, DIR/scenario.schema.json and DIR/experiment.schema.json, instead "
        "(replacing only sim's own schemas there)",
    )
    p_sch.add_argument(
        "--force", action="store_true", help="with --out: replace files that are not sim's schemas"
    )
    p_sch.set_defaults(run=_schema)


def add_tables(sub: Any) -> None:
    """Add ``sim tables`` to the subcommands ``sub``."""
    from sim.cli.catalogue import TABLE_TOPICS

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
