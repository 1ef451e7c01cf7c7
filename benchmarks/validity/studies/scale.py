"""e. Scale: the same battle at large scale and forced small agrees, and head count counts.

Two parts. *continuity*: 6 v 5 everyday fighters (default battle rules, but no leader named
at large scale: ``battle.faction_leader: none``) at large scale and forced small, on the same
seeds. **Invariants:** win rates within 5 points, mean lengths
within 25%. *ratio*: the bigger side at large scale for 10 v 8, 12 v 8, 16 v 8 and 20 v 16.
**Invariants:** it wins more often than not, more as the ratio grows, and 20 v 16 not
significantly below 10 v 8.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from benchmarks.validity.base import (
    LEADERLESS,
    SYSTEMS,
    Z99_ONE_SIDED,
    config_text,
    default_scale,
    scale_arg,
    title,
)
from benchmarks.validity.battles import Point, Runner, Sample
from benchmarks.validity.charts import errorbar, pyplot
from benchmarks.validity.report import md_table, verdict
from benchmarks.validity.stats import Check, Share, drop_z, paired_difference, pct
from benchmarks.validity.studies.lanchester import AttritionRow
from benchmarks.validity.study import Part, Results, Study


@dataclass(frozen=True)
class ContinuityRow:
    """The same battle at large scale (the default threshold) and forced small."""

    system: str
    n: int
    m: int
    large: Sample
    small: Sample

    @property
    def wins_large(self) -> Share:
        return Share(self.large.a_wins, self.large.runs)

    @property
    def wins_small(self) -> Share:
        return Share(self.small.a_wins, self.small.runs)

    @property
    def diff(self) -> float:
        return self.wins_large.p - self.wins_small.p

    @property
    def diff_interval(self) -> tuple[float, float]:
        """99% interval of the difference of the win rates, from the paired battles.

        Both arms fight with the same seeds (common random numbers), so battle ``i`` at
        large scale is paired with battle ``i`` forced small.
        """
        _, lo, hi = paired_difference(self.large, self.small)
        return lo, hi

    @property
    def length_ratio(self) -> float:
        return self.large.mean_rounds / self.small.mean_rounds

    @property
    def wins_pass(self) -> bool:
        return abs(self.diff) <= 0.05

    @property
    def wins_clearly_apart(self) -> bool:
        """The paired 99% interval of the difference lies wholly beyond 5 points."""
        lo, hi = self.diff_interval
        return lo > 0.05 or hi < -0.05

    @property
    def length_pass(self) -> bool:
        return abs(self.length_ratio - 1) <= 0.25


def continuity_study(
    runner: Runner, runs: int, systems: Sequence[str] = SYSTEMS, n: int = 6, m: int = 5
) -> list[ContinuityRow]:
    """e. ``n`` v ``m`` everyday fighters (default battle rules) at both scales.

    Both arms use the same seeds, so the difference is measured on paired battles.
    """
    if n + m <= 10:
        raise ValueError("the battle must be large scale under the default threshold")
    plan = {}
    for s in systems:
        for sc in ("large", "small (forced)"):
            text = config_text(
                s, "everyday", n, m, battle=LEADERLESS, large_scale_above=scale_arg(sc)
            )
            key = f"scale/{s}/{n}v{m}"
            plan[s, sc] = Point(f"{key}/{sc}", text, runs, seed_key=key)
    got = runner.run(list(plan.values()))
    return [
        ContinuityRow(s, n, m, got[plan[s, "large"].key], got[plan[s, "small (forced)"].key])
        for s in systems
    ]


def continuity_checks(rows: Sequence[ContinuityRow]) -> list[Check]:
    """Two checks per system: win rates within 5 points, mean lengths within 25%."""
    out = []
    for r in rows:
        lo, hi = r.diff_interval
        out.append(
            Check(
                "scale",
                r.system,
                f"{r.n} v {r.m}: win rate at large scale within 5 points of small",
                r.wins_pass,
                f"large {r.wins_large.text()}, small {r.wins_small.text()}: "
                f"{100 * r.diff:+.1f} points (99% {100 * lo:+.1f} to {100 * hi:+.1f})",
            )
        )
        out.append(
            Check(
                "scale",
                r.system,
                f"{r.n} v {r.m}: mean length at large scale within 25% of small",
                r.length_pass,
                f"large {r.large.mean_rounds:.2f} rounds, small {r.small.mean_rounds:.2f}: "
                f"x{r.length_ratio:.2f}",
            )
        )
    return out


RATIO_SIZES = ((10, 8), (12, 8), (16, 8), (20, 16))


def ratio_study(
    runner: Runner,
    runs: int,
    systems: Sequence[str] = SYSTEMS,
    sizes: Sequence[tuple[int, int]] = RATIO_SIZES,
) -> list[AttritionRow]:
    """e. The bigger side at large scale (everyday fighters, default battle rules)."""
    plan = [
        (s, n, m, Point(f"ratio/{s}/{n}v{m}", config_text(s, "everyday", n, m), runs))
        for s in systems
        for n, m in sizes
    ]
    got = runner.run([p for *_, p in plan])
    return [
        AttritionRow(s, "everyday", n, m, default_scale(n, m), got[p.key]) for s, n, m, p in plan
    ]


def ratio_checks(rows: Sequence[AttritionRow]) -> list[Check]:
    """Per size: the bigger side wins more often; per system: more as the ratio grows."""
    out = []
    by_system: dict[str, dict[tuple[int, int], AttritionRow]] = {}
    for r in rows:
        by_system.setdefault(r.system, {})[r.n, r.m] = r
        out.append(
            Check(
                "scale",
                r.system,
                f"large {r.n} v {r.m}: the bigger side wins more often than not",
                r.passed,
                f"A {r.decisive.text()} of {r.decisive.n} decisive ({r.sample.draws} draws)",
            )
        )
    for system, got in by_system.items():
        ladder = [got[k] for k in ((10, 8), (12, 8), (16, 8)) if k in got]
        if len(ladder) > 1:
            zs = [drop_z(x.wins, y.wins) for x, y in zip(ladder, ladder[1:], strict=False)]
            rise = -drop_z(ladder[0].wins, ladder[-1].wins)
            saturated = ladder[0].wins.k == ladder[0].wins.n  # no room left to rise
            out.append(
                Check(
                    "scale",
                    system,
                    "large "
                    + ", ".join(f"{r.n} v {r.m}" for r in ladder)
                    + ": the win rate rises with the ratio (the last significantly above "
                    "the first unless the first already wins every battle, no step "
                    "significantly down)",
                    (saturated or rise > Z99_ONE_SIDED) and all(z <= Z99_ONE_SIDED for z in zs),
                    " < ".join(pct(r.wins.p) for r in ladder)
                    + f"; rise z = {rise:.2f}, largest drop z = {max(zs):.2f} (99%: "
                    f"{Z99_ONE_SIDED:.2f})",
                )
            )
        if (10, 8) in got and (20, 16) in got:
            z = drop_z(got[10, 8].wins, got[20, 16].wins)
            out.append(
                Check(
                    "scale",
                    system,
                    "large 20 v 16 not significantly below 10 v 8 (same ratio, more fighters)",
                    z <= Z99_ONE_SIDED,
                    f"10 v 8 {pct(got[10, 8].wins.p)}, 20 v 16 {pct(got[20, 16].wins.p)}; "
                    f"drop z = {z:.2f}",
                )
            )
    return out


def section(res: Results, charts: Mapping[str, str]) -> str:
    """The report's section e: what, why, the invariants, the two scales, then the ratios."""
    lines = ["## e. Small and large scale\n"]
    lines.append(
        "**What.** The same battle just above the large-scale threshold, everyday fighters "
        "and the default battle rules (morale on) but for the leader large scale would name "
        "(`battle.faction_leader: none`; study f measures what leaders add): at large scale "
        "(the default: more than 10 fighters) and forced small (`large_scale_above: "
        "100000`, under `rules.options` for the War Game and `frame:` for the others). Both "
        "arms fight with the same seeds, so "
        "the difference is measured on paired battles. Then the bigger side at large scale "
        "for 10 v 8, 12 v 8, 16 v 8 and 20 v 16.\n\n"
        "**Why.** Crossing the threshold by one fighter must not change who wins "
        "([rules](rules.md#15-small-and-large-scale)), and at large scale head count must "
        "still matter, more as the ratio grows. "
        "**Invariants:** win rates within 5 percentage points and mean lengths within 25%; "
        "at large scale the bigger side wins more often than not (99% interval of its share "
        "of the decisive battles above 50%), its win rate rises with the ratio (16 v 8 "
        "significantly above 10 v 8, and no step from 10 v 8 to 12 v 8 to 16 v 8 "
        "significantly down; one-sided 99%), and 20 v 16 does not fall significantly below "
        f"10 v 8. {res.reps['continuity']:,} battles an arm; "
        f"{res.reps['ratio']:,} per size.\n"
    )
    lines.append(_continuity_table(res.rows["continuity"]))
    lines.append("")
    lines.append(_ratio_table(res.rows["ratio"]))
    lines.append("")
    trend = [
        c for c in ratio_checks(res.rows["ratio"]) if "ratio" in c.name or "20 v 16 not" in c.name
    ]
    if trend:
        lines.append(
            md_table(
                ["system", "invariant", "figures", "verdict"],
                [[title(c.system), c.name, c.figures, verdict(c.passed)] for c in trend],
            )
        )
    if "scale" in charts:
        lines.append(
            f"\n![Large against small scale, and the ratio at large scale]({charts['scale']})\n"
        )
    return "\n".join(lines) + "\n"


def _continuity_table(results: Sequence[ContinuityRow]) -> str:
    """A row per system: A's win rate at each scale, their difference, lengths, verdicts."""
    rows = []
    for r in results:
        lo, hi = r.diff_interval
        rows.append(
            [
                title(r.system),
                f"{r.n} v {r.m}",
                r.wins_large.text(),
                r.wins_small.text(),
                f"{100 * r.diff:+.1f} ({100 * lo:+.1f} to {100 * hi:+.1f})",
                verdict(r.wins_pass),
                f"{pct(r.large.draws / r.large.runs)} / {pct(r.small.draws / r.small.runs)}",
                f"{r.large.mean_rounds:.2f} / {r.small.mean_rounds:.2f}",
                f"x{r.length_ratio:.2f}",
                verdict(r.length_pass),
            ]
        )
    return md_table(
        [
            "system",
            "battle",
            "A wins, large [99%]",
            "A wins, small [99%]",
            "difference, points (99%)",
            "verdict",
            "draws large / small",
            "rounds large / small",
            "ratio",
            "verdict",
        ],
        rows,
        right="4,6,7,8",
    )


def _ratio_table(results: Sequence[AttritionRow]) -> str:
    """A row per system and size at large scale: the bigger side's win rate, its verdict."""
    rows = []
    for a in results:
        rows.append(
            [
                title(a.system),
                f"{a.n} v {a.m}",
                f"{a.n / a.m:.2f}",
                a.wins.text(),
                pct(a.sample.draws / a.sample.runs),
                a.decisive.text(),
                f"{a.sample.mean_rounds:.1f}",
                verdict(a.passed),
            ]
        )
    return md_table(
        [
            "system",
            "battle (large)",
            "ratio",
            "A wins [99%]",
            "draws",
            "A's share of decisive [99%]",
            "rounds",
            "verdict",
        ],
        rows,
        right="2,4,6",
    )


def chart(res: Results) -> Any:
    """Left, A's win rate at both scales; right, the bigger side's by size at large scale."""
    continuity: list[ContinuityRow] = res.rows["continuity"]
    ratio: list[AttritionRow] = res.rows["ratio"]
    if not (continuity or ratio):
        return None
    fig, (left, right) = pyplot().subplots(1, 2, figsize=(11, 3.6))
    if continuity:
        _continuity_panel(left, continuity)
    if ratio:
        _ratio_panel(right, ratio)
    fig.suptitle("e. Small and large scale (default battle rules), 99% intervals")
    fig.tight_layout()
    return fig


def _continuity_panel(left: Any, rows: Sequence[ContinuityRow]) -> None:
    """A's win rate at large scale and forced small, by system."""
    x = np.arange(len(rows))
    errorbar(
        left,
        x - 0.1,
        [r.wins_large for r in rows],
        fmt="o",
        color="tab:blue",
        label="large scale",
    )
    errorbar(
        left,
        x + 0.1,
        [r.wins_small for r in rows],
        fmt="s",
        color="tab:orange",
        label="forced small",
    )
    left.set_xticks(x, [title(r.system) for r in rows], fontsize=8)
    n, m = rows[0].n, rows[0].m
    left.set_title(f"{n} v {m}: A's win rate at both scales", fontsize=9)
    left.set_ylabel("A wins (%)")
    left.set_ylim(-3, 103)
    left.legend(fontsize=7)


def _ratio_panel(right: Any, results: Sequence[AttritionRow]) -> None:
    """The bigger side's win rate by size at large scale, a line per system."""
    sizes = list(dict.fromkeys((r.n, r.m) for r in results))
    x = np.arange(len(sizes))
    for k, s in enumerate(dict.fromkeys(r.system for r in results)):
        rows = [r for r in results if r.system == s]
        errorbar(
            right,
            [sizes.index((r.n, r.m)) + 0.06 * (k - 1.5) for r in rows],
            [r.wins for r in rows],
            fmt="o-",
            label=title(s),
        )
    right.set_xticks(x, [f"{n} v {m}" for n, m in sizes], fontsize=8)
    right.set_title("large scale: the bigger side's win rate", fontsize=9)
    right.set_ylim(-3, 103)
    right.legend(fontsize=7)


def _checks(res: Results) -> list[Check]:
    """Both parts' checks: the two scales', then the ratios'."""
    return [*continuity_checks(res.rows["continuity"]), *ratio_checks(res.rows["ratio"])]


# continuity 2,000 battles an arm, paired: the difference to within about +-4 points, so a
# gap of 5 is seen; ratio 800 a size: 99% half-width +-4.6 points at 50%.
STUDY = Study(
    "scale",
    (
        Part("continuity", continuity_study, full=2000, quick=300),
        Part("ratio", ratio_study, full=800, quick=120),
    ),
    section,
    _checks,
    chart,
    summary="e. scale",
)
