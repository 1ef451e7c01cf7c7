"""a. Mirror: identical sides win equally often, whichever is listed first.

Two identical sides (3 v 3 everyday fighters, and ``scenarios/mirror.yaml`` under each
system), each fought in both orders. **Invariant:** 50% lies inside the 99% interval of side
A's share of the decisive battles.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from benchmarks.validity.base import (
    EVERYDAY,
    ROOT,
    SIDE_A,
    SIDE_B,
    SYSTEMS,
    Z99,
    scenario_text,
    title,
)
from benchmarks.validity.battles import Point, Runner, Sample
from benchmarks.validity.charts import errorbar, pyplot
from benchmarks.validity.report import md_table, verdict
from benchmarks.validity.stats import Check, Share, pct
from benchmarks.validity.study import Part, Results, Study

MIRROR_SCENARIOS = ("3v3", "mirror.yaml")


@dataclass(frozen=True)
class MirrorRow:
    system: str
    scenario: str
    first: str  # the side listed first
    sample: Sample

    @property
    def share(self) -> Share:
        """Side A's share of the decisive battles."""
        return Share(self.sample.a_wins, self.sample.decisive)

    def passed_at(self, z: float = Z99) -> bool:
        """50% lies inside the interval of A's share (of quantile ``z``)."""
        share = Share(self.sample.a_wins, self.sample.decisive, z)
        return share.n > 0 and share.lo <= 0.5 <= share.hi

    @property
    def passed(self) -> bool:
        return self.passed_at(Z99)


def mirror_points(system: str, scenario: str, runs: int) -> list[Point]:
    """The two orders of one mirror scenario: A listed first, then B listed first."""
    if scenario == "3v3":
        kind = EVERYDAY[system]
        text = scenario_text(system, 3, 3, kind.fields, kind.fields, options=kind.options)
        overrides: tuple[str, ...] = ()
        source = "<validity>"
    else:
        path = ROOT / "scenarios" / scenario
        text = path.read_text(encoding="utf-8")
        overrides = (f"rules.system={system}",)
        source = str(path.relative_to(ROOT))
    return [
        Point(f"mirror/{system}/{scenario}/{first}", text, runs, overrides, first == SIDE_B, source)
        for first in (SIDE_A, SIDE_B)
    ]


def mirror_study(
    runner: Runner,
    runs: int,
    systems: Sequence[str] = SYSTEMS,
    scenarios: Sequence[str] = MIRROR_SCENARIOS,
) -> list[MirrorRow]:
    """a. Identical sides, each order: side A's share of decisive battles holds 50%."""
    points = [p for s in systems for sc in scenarios for p in mirror_points(s, sc, runs)]
    got = runner.run(points)
    return [
        MirrorRow(s, sc, first, got[f"mirror/{s}/{sc}/{first}"])
        for s in systems
        for sc in scenarios
        for first in (SIDE_A, SIDE_B)
    ]


def mirror_checks(rows: Sequence[MirrorRow], z: float = Z99) -> list[Check]:
    """One check per system, scenario and order: 50% inside the 99% interval (or ``z``'s)."""
    level = "99%" if z == Z99 else f"z = {z:.2f}"
    return [
        Check(
            "mirror",
            r.system,
            f"{r.scenario}, {r.first} listed first: 50% in A's {level} interval",
            r.passed_at(z),
            f"A {Share(r.sample.a_wins, r.sample.decisive, z).text()} of {r.share.n} "
            f"decisive; {r.sample.draws} draws",
        )
        for r in rows
    ]


def section(res: Results, charts: Mapping[str, str]) -> str:
    """The report's section a: what, why, the invariant, a row per system, scenario and order."""
    lines = ["## a. Mirror symmetry\n"]
    lines.append(
        "**What.** Two identical sides: 3 v 3 everyday fighters, and `scenarios/mirror.yaml` "
        "(three different fighters a side, every one with a twin) fought under each system "
        "(`--set rules.system=...`). Each is fought with side A listed first and again, on "
        "other seeds, with side B listed first.\n\n"
        "**Why.** Nothing but chance may decide between identical sides: not the order the "
        "scenario lists them in, not who is checked first for morale or initiative. "
        "**Invariant:** 50% lies inside the 99% interval of side A's share of the decisive "
        f"battles, in both orders. {res.reps['mirror']:,} battles each.\n"
    )
    rows = []
    for r in res.rows["mirror"]:
        rows.append(
            [
                title(r.system),
                r.scenario,
                r.first,
                r.sample.runs,
                pct(r.sample.draws / r.sample.runs),
                r.share.text(),
                pct(1 - r.share.p) if r.share.n else "-",
                verdict(r.passed),
            ]
        )
    lines.append(
        md_table(
            [
                "system",
                "scenario",
                "listed first",
                "battles",
                "draws",
                "A's share of decisive [99%]",
                "B's share",
                "verdict",
            ],
            rows,
            right="3,4,6",
        )
    )
    if "mirror" in charts:
        lines.append(
            f"\n![Side A's share of decisive battles, 99% intervals]({charts['mirror']})\n"
        )
    return "\n".join(lines) + "\n"


def chart(res: Results) -> Any:
    """Side A's share of the decisive battles in every order, with 99% intervals."""
    rows: list[MirrorRow] = res.rows["mirror"]
    if not rows:
        return None
    fig, ax = pyplot().subplots(figsize=(12, 3.8))
    labels = [
        f"{title(r.system)}\n{r.scenario.removesuffix('.yaml')}\n{r.first} first" for r in rows
    ]
    x = np.arange(len(rows))
    errorbar(ax, x, [r.share for r in rows], fmt="o", color="tab:blue")
    ax.axhline(50, color="grey", lw=1, ls="--")
    ax.set_xticks(x, labels, fontsize=7)
    ax.set_ylabel("A's share of decisive battles (%)")
    ax.set_title("a. Mirror: identical sides, both orders (99% Wilson intervals)")
    return fig


# 1,000 battles an order: 99% half-width +-4.1 points at 50%.
STUDY = Study(
    "mirror",
    (Part("mirror", mirror_study, full=1000, quick=200),),
    section,
    lambda res: mirror_checks(res.rows["mirror"]),
    chart,
    summary="a. mirror",
)
