"""The summary as tables for reading: headers and rows of text."""

from __future__ import annotations

from typing import Any

from sim.analysis.fmt import _f1, _f2, _fmt_value, _pct, _pct_ci, _plain, _span
from sim.analysis.summary import Summary


def decisive_sides(s: Summary) -> tuple[str, ...]:
    """The sides whose share of the decisive battles the outcome table shows.

    With two sides only the first: the second's share is the rest.
    """
    return s.sides[:1] if len(s.sides) == 2 else s.sides


def outcome_caption(s: Summary) -> str:
    """What the outcome table's figures are (its caption)."""
    rest = f" ({s.sides[1]}: the rest)" if len(s.sides) == 2 else ""
    return (
        "Outcomes: win and draw rates of all battles; of decisive: a side's share of the "
        f"battles a side won{rest}; 95% Wilson intervals; rounds: mean with a 95% interval"
    )


def outcome_rows(s: Summary) -> tuple[list[str], list[list[str]]]:
    """Headers and rows of the outcome table.

    Runs, win and draw rates of all battles, each side's share of the decisive ones
    (:func:`decisive_sides`), length, scale switches.
    """
    headers = [s.name(b) for b in s.by] + ["runs"]
    failed = bool(s.frame["failed"].any())
    if failed:
        headers.append("failed")
    headers += [f"{side} win [95% CI]" for side in s.sides] + ["draw [95% CI]"]
    headers += [f"{side} of decisive [95% CI]" for side in decisive_sides(s)]
    headers += ["rounds [95% CI]", "median", "scale switch"]
    rows = []
    for _, r in s.frame.iterrows():
        row = [_fmt_value(r[b]) for b in s.by] + [str(int(r["runs"]))]
        if failed:
            row.append(str(int(r["failed"])))
        row += [_pct_ci(r, f"win.{side}") for side in s.sides] + [_pct_ci(r, "draw")]
        row += [_pct_ci(r, f"decisive.{side}") for side in decisive_sides(s)]
        row += [f"{_f1(r['rounds.mean'])} [{_span(r['rounds.lo'], r['rounds.hi'])}]"]
        row += [_f1(r["rounds.median"]), _pct(r["scale_switch"])]
        rows.append(row)
    return headers, rows


def loss_rows(s: Summary) -> tuple[list[str], list[list[str]]]:
    """Headers and rows of the loss table.

    Mean fighters per battle by final status, and the share of battles in which each
    side's leader ended not active.
    """
    headers = [s.name(b) for b in s.by]
    rows: list[list[str]] = [[_fmt_value(r[b]) for b in s.by] for _, r in s.frame.iterrows()]
    for side in s.sides:
        headers += [f"{side} {st}" for st in s.statuses] + [f"{side} leader lost"]
        for row, (_, r) in zip(rows, s.frame.iterrows(), strict=True):
            row += [_f2(r[f"casualties.{side}.{st}"]) for st in s.statuses]
            row.append(_pct(r[f"leader_lost.{side}"]))
    return headers, rows


def flat_rows(s: Summary) -> tuple[list[str], list[list[Any]]]:
    """Every column of the summary with full precision (the ``--format csv`` output)."""
    headers = list(s.frame.columns)
    rows = [[_plain(v) for v in r] for r in s.frame.itertuples(index=False)]
    return headers, rows
