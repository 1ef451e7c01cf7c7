"""d. 100 v 80: the bigger side's survivors against the square law's 60 (a measurement).

100 v 80 one-hit-one-kill fighters, morale off, one initiative die per side, at the default
(large) scale and forced small: how far each system's attrition is from aimed fire. No
invariant.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from benchmarks.validity.base import (
    ATTRITION,
    SYSTEMS,
    Z99,
    config_text,
    default_scale,
    scale_arg,
    title,
)
from benchmarks.validity.battles import Point, Runner, Sample
from benchmarks.validity.laws import lanchester
from benchmarks.validity.report import md_table
from benchmarks.validity.stats import Share, pct
from benchmarks.validity.study import Part, Results, Study


@dataclass(frozen=True)
class SurvivorRow:
    system: str
    n: int
    m: int
    scale: str
    sample: Sample

    @property
    def mean(self) -> float:
        return float(self.sample.a_survivors.mean())

    @property
    def half_width(self) -> float:
        """99% normal interval half-width of the mean survivors."""
        x = self.sample.a_survivors
        return Z99 * float(x.std(ddof=1)) / math.sqrt(len(x)) if len(x) > 1 else math.nan


def survivors_study(
    runner: Runner,
    runs: int,
    systems: Sequence[str] = SYSTEMS,
    n: int = 100,
    m: int = 80,
    forced_small: bool = True,
) -> list[SurvivorRow]:
    """d. ``n`` v ``m`` one-hit-one-kill fighters: the bigger side's survivors."""
    scales = [default_scale(n, m)] + (["small (forced)"] if forced_small else [])
    plan = [
        (
            s,
            sc,
            Point(
                f"survivors/{s}/{n}v{m}/{sc}",
                config_text(s, "one_hit", n, m, battle=ATTRITION, large_scale_above=scale_arg(sc)),
                runs,
                seed_key=f"survivors/{s}/{n}v{m}",
            ),
        )
        for s in systems
        for sc in scales
    ]
    got = runner.run([p for *_, p in plan])
    return [SurvivorRow(s, n, m, sc, got[p.key]) for s, sc, p in plan]


def section(res: Results, charts: Mapping[str, str]) -> str:
    """The report's section d: what, the laws' figures, a row per system and scale."""
    results: list[SurvivorRow] = res.rows["survivors"]
    if not results:
        return ""
    n, m = results[0].n, results[0].m
    sq = lanchester(n, m, "square")
    li = lanchester(n, m, "linear")
    det = math.sqrt(n * n - m * m)
    lines = [f"## d. {n} v {m}: the bigger side's survivors\n"]
    lines.append(
        f"**What.** {n} v {m} one-hit-one-kill fighters, morale off, one initiative die per "
        "side, at the default scale (large) and forced small. Lanchester's deterministic "
        f"square law leaves the bigger side sqrt({n}² - {m}²) = {det:.0f} fighters; the "
        f"stochastic square law expects {float(sq.mean_a):.2f} (it wins with probability "
        f"{float(sq.p_a):.4f}), the linear law {float(li.mean_a):.2f} (n - m = {n - m} "
        "deterministically). A measurement, not an invariant: how far each system's "
        f"attrition is from aimed fire. {res.reps['survivors']:,} battles each; survivors count "
        "0 in a battle the bigger side did not win.\n"
    )
    rows = []
    for r in results:
        rows.append(
            [
                title(r.system),
                r.scale,
                r.sample.runs,
                Share(r.sample.a_wins, r.sample.runs).text(),
                pct(r.sample.draws / r.sample.runs),
                f"{r.mean:.1f} ± {r.half_width:.1f}",
                f"{r.mean / det:.2f}",
                f"{r.sample.mean_rounds:.1f}",
            ]
        )
    lines.append(
        md_table(
            [
                "system",
                "scale",
                "battles",
                f"{n} side wins [99%]",
                "draws",
                f"{n} side's survivors (99%)",
                f"/ {det:.0f}",
                "rounds",
            ],
            rows,
            right="2,4,5,6,7",
        )
    )
    return "\n".join(lines) + "\n"


# 200 battles a scale.
STUDY = Study("survivors", (Part("survivors", survivors_study, full=200, quick=30),), section)
