"""b. Monotone: a side made stronger in one stat never does significantly worse.

Side A climbs a ladder of rungs, each at least as strong as the one before by the rules (more
fighters, hit dice or toughness, armor, tier, weapon, skill, fewer wounds carried), against
a fixed side B. **Invariant:** no rung's win rate is significantly below the rung before
(one-sided, 99%).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from benchmarks.validity.base import EVERYDAY, SYSTEMS, Z99_ONE_SIDED, merged, scenario_text, title
from benchmarks.validity.battles import Point, Runner, Sample
from benchmarks.validity.charts import errorbar, pyplot
from benchmarks.validity.report import md_table, verdict
from benchmarks.validity.stats import Check, Share, drop_z, pct
from benchmarks.validity.study import Part, Results, Study


@dataclass(frozen=True, eq=False)
class Ladder:
    """Side A made stronger rung by rung in one stat, against a fixed side B.

    Each rung is (label, A's fields on top of the system's everyday fighter; ``count`` sets
    A's head count, default 3). ``both`` is given to both sides, ``b`` to B (3 fighters).
    ``why`` says why each rung is stronger than the one before by the rules.
    """

    system: str
    name: str
    rungs: tuple[tuple[str, Mapping[str, Any]], ...]
    why: str
    both: Mapping[str, Any] = field(default_factory=dict)

    def points(self, runs: int) -> list[Point]:
        kind = EVERYDAY[self.system]
        base = merged(kind.fields, self.both)
        out = []
        for label, extra in self.rungs:
            count = int(extra.get("count", 3))
            a = merged(base, {k: v for k, v in extra.items() if k != "count"})
            text = scenario_text(self.system, count, 3, a, base, options=kind.options)
            out.append(Point(f"monotone/{self.system}/{self.name}/{label}", text, runs))
        return out


def _fighters_ladder(system: str) -> Ladder:
    return Ladder(
        system,
        "fighters",
        tuple((f"{n} v 3", {"count": n}) for n in range(1, 6)),
        "more fighters of the same kind",
    )


def _wounds_ladder(system: str, what: str) -> Ladder:
    return Ladder(
        system,
        "unhurt",
        tuple((f"{w} wound" + ("s" * (w != 1)), {"wounds": w}) for w in (2, 1, 0)),
        f"fewer wounds carried into the battle (each wound: {what})",
    )


LADDERS: dict[str, tuple[Ladder, ...]] = {
    "wargame": (
        _fighters_ladder("wargame"),
        Ladder(
            "wargame",
            "hit dice",
            tuple((f"{h} HD", {"hit_dice": h}) for h in (2, 3, 4, 5, 6)),
            "more HD: more and bigger attacks, more dodges, more wounds to take",
        ),
        Ladder(
            "wargame",
            "armor",
            tuple(
                (name, {"armor": [name]} if name != "none" else {})
                for name in ("none", "doublet", "gambeson", "chain", "plate")
            ),
            "a bigger armor pool (0, 2, 3 = gambeson 4 less its 1 Dex, 6, 8) absorbs more",
        ),
        Ladder(
            "wargame",
            "weapon",
            (("plain", {}), ("garrote", {"weapon": "garrote"}), ("gun", {"weapon": "gun"})),
            "against armor (both sides in gambeson): a plain blow wounds only when its damage "
            "beats the pool; a garrote ignores armor and removes 1 HD every blow; a gun "
            "ignores armor and removes 1d4 HD",
            both={"armor": ["gambeson"]},
        ),
        Ladder(
            "wargame",
            "axe",
            (("plain", {}), ("axe", {"weapon": "axe"})),
            "an axe is a plain weapon that also strips 1 HD on max damage (a small edge: all "
            "spent dice must show 8)",
        ),
        _wounds_ladder("wargame", "1 HD lost"),
    ),
    "2w2p": (
        _fighters_ladder("2w2p"),
        Ladder(
            "2w2p",
            "tier",
            tuple(
                (f"{t} ({f})", {"fights": f})
                for t, f in (
                    ("Green", 0),
                    ("Fresh", 1),
                    ("Tested", 3),
                    ("Seasoned", 6),
                    ("Veteran", 10),
                    ("Hero", 15),
                )
            ),
            "a better tier rolls more dice for the same head count",
        ),
        Ladder(
            "2w2p",
            "protection",
            (
                ("none", {}),
                ("body", {"armor": ["gambeson"]}),
                ("body+head", {"armor": ["gambeson"], "head_protection": True}),
            ),
            "everyone protected: +1 defence die for body or head protection, +2 for both",
        ),
        Ladder(
            "2w2p",
            "prime",
            (("not prime", {"prime": False}), ("prime", {"prime": True})),
            "a fighter in its prime is felled by its third wounding blow, not its second",
        ),
        _wounds_ladder("2w2p", "a wounding blow: one tier worse, closer to felled"),
    ),
    "deathwish": (
        _fighters_ladder("deathwish"),
        Ladder(
            "deathwish",
            "toughness",
            tuple(
                (f"TT {v}", {"body": v, "strength": v}) for v in (3, 5, 7, 9)
            ),  # TT = (Body + Strength) / 2
            "Body and Strength 3, 5, 7, 9: trauma tolerance 3, 5, 7, 9, so higher wound thresholds",
        ),
        Ladder(
            "deathwish",
            "armor",
            tuple((f"armor {v}", {"deathwish": {"armor": v}}) for v in (0, 1, 2, 3)),
            "body armor 0-3 takes dice off every torso hit's damage roll",
        ),
        Ladder(
            "deathwish",
            "weapon",
            tuple(
                (w, {"deathwish": {"weapon": w}}) for w in ("Glock 18", "M1911", "M16", "FN MAG")
            ),
            "penetration/lethality 2/4 < 2/5 < 3/6 < 4/7: each at least as many dice, each "
            "die a success more often",
        ),
        Ladder(
            "deathwish",
            "skill",
            tuple((f"skill {v}", {"deathwish": {"skill": v}}) for v in (3, 4, 5, 6, 7)),
            "a higher skill hits more often (a d10 at or under it)",
        ),
        _wounds_ladder("deathwish", "a Slight wound, +1 to the difficulty of every task"),
    ),
    "d6": (
        _fighters_ladder("d6"),
        Ladder(
            "d6",
            "strength",
            tuple((f"Str {c}", {"d6": {"strength": c}}) for c in ("2D", "3D", "4D", "5D")),
            "more Strength: a bigger body roll (the average of Strength and Dexterity)",
        ),
        Ladder(
            "d6",
            "armor",
            tuple((f"armor {c}", {"d6": {"armor": c}}) for c in ("0D", "1D", "2D", "3D")),
            "armor dice add to the body roll",
        ),
        Ladder(
            "d6",
            "weapon",
            tuple((f"damage {c}", {"d6": {"damage": c}}) for c in ("3D", "4D", "5D", "6D")),
            "a weapon with more damage dice",
        ),
        Ladder(
            "d6",
            "skill",
            tuple((f"attack {c}", {"d6": {"attack": c}}) for c in ("3D", "4D", "5D", "6D")),
            "more attack (weapon skill) dice hit more often",
        ),
        _wounds_ladder("d6", "a Wounded result, -1D to every roll"),
    ),
}


@dataclass(frozen=True)
class LadderResult:
    ladder: Ladder
    samples: tuple[Sample, ...]

    @property
    def shares(self) -> list[Share]:
        """Side A's win rate (over all battles) on each rung."""
        return [Share(s.a_wins, s.runs) for s in self.samples]

    @property
    def steps(self) -> list[float]:
        """z of the drop from each rung to the next (positive: the stronger rung did worse)."""
        sh = self.shares
        return [drop_z(x, y) for x, y in zip(sh, sh[1:], strict=False)]

    def passed_at(self, z_one: float = Z99_ONE_SIDED) -> bool:
        """No step's drop exceeds the one-sided quantile ``z_one``."""
        return all(z <= z_one for z in self.steps)

    @property
    def passed(self) -> bool:
        return self.passed_at(Z99_ONE_SIDED)

    @property
    def rises(self) -> bool:
        """The top rung wins significantly more than the bottom one (information only)."""
        return drop_z(self.shares[-1], self.shares[0]) > Z99_ONE_SIDED


def monotone_study(
    runner: Runner,
    runs: int,
    systems: Sequence[str] = SYSTEMS,
    names: Sequence[str] | None = None,
) -> list[LadderResult]:
    """b. Every ladder of the systems (or only those ``names``): A's win rate per rung."""
    ladders = [lad for s in systems for lad in LADDERS[s] if names is None or lad.name in names]
    points = [(lad, lad.points(runs)) for lad in ladders]
    got = runner.run([p for _, ps in points for p in ps])
    return [LadderResult(lad, tuple(got[p.key] for p in ps)) for lad, ps in points]


def monotone_checks(results: Sequence[LadderResult], z_one: float = Z99_ONE_SIDED) -> list[Check]:
    """One check per ladder: no drop beyond the one-sided quantile ``z_one`` (99%)."""
    out = []
    for r in results:
        worst = max(range(len(r.steps)), key=lambda i: r.steps[i])
        labels = [label for label, _ in r.ladder.rungs]
        sh = r.shares
        out.append(
            Check(
                "monotone",
                r.ladder.system,
                f"{r.ladder.name}: no rung significantly below the one before",
                r.passed_at(z_one),
                " < ".join(pct(s.p, 0) for s in sh)
                + f"; largest drop {labels[worst]} -> {labels[worst + 1]} z = "
                f"{r.steps[worst]:.2f} (fails above {z_one:.2f})",
            )
        )
    return out


def section(res: Results, charts: Mapping[str, str]) -> str:
    """The report's section b: what, why, the invariant, a row per ladder, then per rung."""
    results: list[LadderResult] = res.rows["monotone"]
    lines = ["## b. Monotone stylised facts\n"]
    lines.append(
        "**What.** Side A is made stronger one stat at a time, rung by rung (a ladder), "
        "against a fixed side B of 3 everyday fighters; A has 3 fighters of the same kind "
        "except for the stat the ladder changes. The rungs are ordered by the rules: each "
        "rung is at least as strong as the one before in every respect and stronger in one "
        "(the reason is given per ladder).\n\n"
        "**Why.** Under a sound model more of a good thing never hurts. "
        "**Invariant:** no rung's win rate for A is significantly below the rung before "
        f"(one-sided test at 99%). {res.reps['monotone']:,} battles per rung. The last column "
        "says whether the top rung beats the bottom one significantly (information: a "
        "ladder that passes but is flat means the stat hardly matters).\n"
    )
    lines.append(
        "War Game weapons: only chains where each weapon removes at least as many HD as the "
        "one before with every blow are used. A garrote (ignores armor, removes 1 HD) beats "
        "a plain weapon (which wounds only when its damage beats the armor pool), and a gun "
        "(ignores armor, removes 1d4 HD) beats a garrote; an axe is a plain weapon that also "
        "strips 1 HD on max damage. The others are better only in some fights: a bastard "
        "sword doubles damage only two-handed (so no shield), a maul only when it empties "
        "the pool, a lance only mounted, a dagger only against helpless targets, a spear's "
        "shove only on a map, a warbow only against targets without metal armor or shields; "
        "a torch or whip adds its effect on max damage, as the axe does.\n"
    )
    lines.append(_ladder_table(results))
    lines.append("")
    lines.append("The intervals of every rung:\n")
    lines.append(_rung_table(results))
    if "monotone" in charts:
        lines.append(f"\n![A's win rate along every ladder]({charts['monotone']})\n")
    return "\n".join(lines) + "\n"


def _ladder_table(results: Sequence[LadderResult]) -> str:
    """A row per ladder: A's win rate per rung, the largest drop, the verdict, why."""
    rows = []
    for r in results:
        labels = [label for label, _ in r.ladder.rungs]
        rungs = ", ".join(f"{lab} {pct(s.p, 0)}" for lab, s in zip(labels, r.shares, strict=True))
        worst = max(r.steps) if r.steps else 0.0
        rows.append(
            [
                title(r.ladder.system),
                r.ladder.name,
                rungs,
                f"{worst:.2f}",
                verdict(r.passed),
                "yes" if r.rises else "no",
                r.ladder.why,
            ]
        )
    return md_table(
        [
            "system",
            "ladder",
            "A's win rate per rung",
            "largest drop z (fails > 2.33)",
            "verdict",
            "rises",
            "why each rung is stronger",
        ],
        rows,
        right="3",
    )


def _rung_table(results: Sequence[LadderResult]) -> str:
    """A row per rung of every ladder: A's win rate with its 99% interval, draws, rounds."""
    rows = []
    for r in results:
        for (label, _), sample, share in zip(r.ladder.rungs, r.samples, r.shares, strict=True):
            rows.append(
                [
                    title(r.ladder.system),
                    r.ladder.name,
                    label,
                    share.text(),
                    pct(sample.draws / sample.runs),
                    f"{sample.mean_rounds:.1f}",
                ]
            )
    return md_table(
        ["system", "ladder", "rung", "A wins [99%]", "draws", "rounds"], rows, right="4,5"
    )


def chart(res: Results) -> Any:
    """A's win rate along every ladder, a panel each, a row per system, with 99% intervals."""
    if not res.rows["monotone"]:
        return None
    by_system: dict[str, list[LadderResult]] = {}
    for r in res.rows["monotone"]:
        by_system.setdefault(r.ladder.system, []).append(r)
    ncols = max(len(v) for v in by_system.values())
    fig, axes = pyplot().subplots(
        len(by_system), ncols, figsize=(2.6 * ncols, 2.6 * len(by_system)), squeeze=False
    )
    for i, (system, results) in enumerate(by_system.items()):
        for j in range(ncols):
            ax = axes[i][j]
            if j >= len(results):
                ax.axis("off")
                continue
            r = results[j]
            labels = [label for label, _ in r.ladder.rungs]
            color = "tab:green" if r.passed else "tab:red"
            errorbar(ax, np.arange(len(labels)), r.shares, fmt="o-", color=color)
            ax.set_xticks(np.arange(len(labels)), labels, fontsize=6, rotation=35)
            ax.set_ylim(-3, 103)
            ax.set_title(f"{title(system)}: {r.ladder.name}", fontsize=8)
            ax.tick_params(axis="y", labelsize=7)
    fig.suptitle("b. A's win rate (%) along each ladder, 99% intervals (red: a drop)")
    fig.tight_layout()
    return fig


# 500 battles a rung: a drop between rungs is significant from about 7.4 points.
STUDY = Study(
    "monotone",
    (Part("monotone", monotone_study, full=500, quick=100),),
    section,
    lambda res: monotone_checks(res.rows["monotone"]),
    chart,
    summary="b. monotone",
)
