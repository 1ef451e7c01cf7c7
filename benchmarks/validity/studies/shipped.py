"""f. The scenarios we ship, at large scale and forced small, rule by rule (issue 30).

Study e checks that large scale agrees with small scale on study sides of identical,
leaderless fighters. The scenarios in ``scenarios/`` have leaders, goals, terrain and mixed
troops. Two parts. *shipped*: every one of them with more than 10 fighters, each arm of
:mod:`benchmarks.validity.arms` (its default, small forced, each rule large scale adds off on
its own, all of them off), every arm with the same seeds. **Invariant** (per scenario): the
two scales agree within 5 points of every side's win rate and 25% of the mean length, or,
where they do not, they agree within those once every seed rule of large scale is switched
off: the difference is then the seed's, not our reading's. *pools*: faction pools (the
default reading, ``wargame.pool: members``) on study e's everyday War Game sides against the
same battle forced small. **Invariants:** pools end their fights (no more draws at
``max_rounds`` with morale off than small scale has) and let the bigger side win, more as the
ratio grows; how far they are from small scale is shown, not bound, since a pool averages
away its members' armor and HD.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from benchmarks.validity.arms import SEED, Arm, arms_for, fight_arm, fighters_of, shipped_scenarios
from benchmarks.validity.base import FORCE_SMALL, MAX_ROUNDS, SYSTEMS, Z99, config_text
from benchmarks.validity.battles import Point, Runner, Sample
from benchmarks.validity.charts import errorbar, pyplot
from benchmarks.validity.report import md_table
from benchmarks.validity.stats import Check, Share, paired_difference
from benchmarks.validity.studies.lanchester import AttritionRow
from benchmarks.validity.studies.scale import ratio_checks
from benchmarks.validity.study import Part, Results, Study

WIN_POINTS = 0.05  # the scales agree within 5 points of every side's win rate ...
LENGTH_SHARE = 0.25  # ... and 25% of the mean length
# the side whose win rate the tables show (the issue's); the first listed elsewhere
SUBJECT = {"siege": "attackers", "bridge": "raiders", "raid": "raiders", "adders": "adders"}
POOL_SIZES = ((6, 5), (10, 8), (12, 8), (16, 8), (20, 16))


# ===================================================================== the rows
@dataclass(frozen=True)
class Outcomes:
    """An arm's battles: one row per replicate (:func:`benchmarks.validity.arms.fight_arm`)."""

    arm: Arm
    rows: np.ndarray

    @property
    def runs(self) -> int:
        return len(self.rows)

    def wins(self, side: int) -> np.ndarray:
        """1 where side ``side`` (its index) won, else 0."""
        return (self.rows[:, 0] == side + 1).astype(float)

    @property
    def draws(self) -> int:
        return int((self.rows[:, 0] == 0).sum())

    @property
    def routs(self) -> int:
        return int(self.rows[:, 2].sum())

    @property
    def stalls(self) -> int:
        return int(self.rows[:, 3].sum())

    @property
    def mean_rounds(self) -> float:
        return float(self.rows[:, 1].mean())


@dataclass(frozen=True)
class ShippedRow:
    """A shipped scenario's arms, all fought with the same seeds."""

    name: str
    system: str
    fighters: int
    reading: str  # how its large scale is fought: turns, pools, or "-" (no factions)
    sides: tuple[str, ...]
    subject: int  # the index of the side the tables show
    arms: Mapping[str, Outcomes]

    def share(self, key: str, side: int | None = None) -> Share:
        """Side ``side``'s (default: the subject's) win rate in arm ``key``, 99% Wilson."""
        o = self.arms[key]
        return Share(int(o.wins(self.subject if side is None else side).sum()), o.runs)

    def diff(self, key: str, side: int | None = None, base: str = "small") -> tuple[float, ...]:
        """Side ``side``'s win rate in ``key`` less in ``base``, paired, with a 99% interval."""
        s = self.subject if side is None else side
        d = self.arms[key].wins(s) - self.arms[base].wins(s)
        half = Z99 * float(d.std(ddof=1)) / math.sqrt(len(d)) if len(d) > 1 else math.nan
        return float(d.mean()), float(d.mean()) - half, float(d.mean()) + half

    def gap(self, key: str, base: str = "small") -> tuple[float, float]:
        """The largest gap of a side's win rate, and the length ratio, ``key`` to ``base``."""
        points = max(abs(self.diff(key, s, base)[0]) for s in range(len(self.sides)))
        return points, self.arms[key].mean_rounds / self.arms[base].mean_rounds

    def agrees(self, key: str) -> bool:
        """Whether arm ``key`` agrees with small scale within 5 points and 25% of length."""
        points, ratio = self.gap(key)
        return points <= WIN_POINTS + 1e-12 and abs(ratio - 1) <= LENGTH_SHARE + 1e-12

    @property
    def explained(self) -> bool:
        """The scales agree, or agree once every seed rule is off (no gap of our reading's)."""
        return self.agrees("default") or ("all_off" in self.arms and self.agrees("all_off"))


@dataclass(frozen=True)
class PoolsRow:
    """``n`` v ``m`` everyday War Game fighters as faction pools and forced small.

    With the default morale and with morale off (where a stalled fight has nothing to end it
    but ``max_rounds``); each pair of arms fights with the same seeds.
    """

    n: int
    m: int
    pools: Sample
    small: Sample
    pools_quiet: Sample  # morale off
    small_quiet: Sample

    @staticmethod
    def stalls(sample: Sample) -> int:
        """Battles that ended at ``max_rounds``, nobody having won."""
        return int(((sample.rows[:, 0] == 0) & (sample.rows[:, 1] >= MAX_ROUNDS)).sum())


# ===================================================================== the battles
def scenarios_study(
    runner: Runner, runs: int, systems: Sequence[str] = SYSTEMS
) -> list[ShippedRow]:
    """Every shipped scenario with more than 10 fighters (under ``systems``), every arm.

    ``runner``: the report's runner (its worker pool when it has one; its battle count
    grows); ``runs``: replicates an arm.
    """
    from sim.scenario import load_scenario

    if runs < 1:
        return []
    plan = []
    for path in shipped_scenarios():
        sc = load_scenario(path)
        if sc.rules in systems:
            plan.append((path, sc, arms_for(sc)))
    step = max(5, min(100, math.ceil(runs / 4)))
    tasks = [
        (str(path), arm.sets, s, min(s + step, runs))
        for path, _, arms in plan
        for arm in arms
        for s in range(0, runs, step)
    ]
    if runner.pool is None:
        parts = [fight_arm(*t) for t in tasks]
    else:
        parts = list(runner.pool.map(fight_arm, *zip(*tasks, strict=True))) if tasks else []
    runner.battles += sum(len(p) for p in parts)
    got: dict[tuple[str, tuple[str, ...]], list[np.ndarray]] = {}
    for (path_s, sets, _, _), part in zip(tasks, parts, strict=True):
        got.setdefault((path_s, sets), []).append(part)
    rows = []
    for path, sc, arms in plan:
        names = tuple(s.name for s in sc.sides)
        outcomes = {a.key: Outcomes(a, np.concatenate(got[str(path), a.sets])) for a in arms}
        reading = "-" if len(arms) == 2 else str(sc.battle.get("large_scale", "turns"))
        subject = names.index(SUBJECT.get(sc.name, names[0]))
        rows.append(
            ShippedRow(sc.name, sc.rules, fighters_of(sc), reading, names, subject, outcomes)
        )
    return rows


def pools_study(runner: Runner, runs: int, systems: Sequence[str] = SYSTEMS) -> list[PoolsRow]:
    """Faction pools (the default reading) against small scale on study e's sides.

    The War Game's alone (the other systems have no pools): nothing without it.
    """
    if "wargame" not in systems or runs < 1:
        return []
    plan = {}
    for n, m in POOL_SIZES:
        for quiet in (False, True):
            morale = {"morale": "none"} if quiet else {}
            key = f"pools/{n}v{m}/{'quiet' if quiet else 'morale'}"
            for arm, battle, above in (
                ("pools", {"large_scale": "pools", **morale}, None),
                ("small", morale or None, FORCE_SMALL),
            ):
                text = config_text(
                    "wargame", "everyday", n, m, battle=battle, large_scale_above=above
                )
                plan[n, m, quiet, arm] = Point(f"{key}/{arm}", text, runs, seed_key=key)
    got = runner.run(list(plan.values()))
    return [
        PoolsRow(
            n,
            m,
            *(got[plan[n, m, q, arm].key] for q in (False, True) for arm in ("pools", "small")),
        )
        for n, m in POOL_SIZES
    ]


# ===================================================================== the invariants
def scenario_checks(rows: Sequence[ShippedRow]) -> list[Check]:
    """One check per scenario: the scales agree, or agree once the seed's rules are off."""
    out = []
    for r in rows:
        points, ratio = r.gap("default")
        figures = f"default v small: {100 * points:.1f} points, length x{ratio:.2f}"
        if "all_off" in r.arms:
            p_off, r_off = r.gap("all_off")
            figures += f"; every seed rule off: {100 * p_off:.1f} points, x{r_off:.2f}"
        out.append(
            Check(
                "shipped",
                r.system,
                f"{r.name}: within 5 points and 25% of small scale, or once the seed's "
                "large-scale rules are off",
                r.explained,
                figures,
            )
        )
    return out


def pools_checks(rows: Sequence[PoolsRow]) -> list[Check]:
    """Pools end their fights, and the bigger side wins, more as the ratio grows.

    No more draws at ``max_rounds`` with morale off than small scale has (a pooled fight may
    not stall for want of harm where the same fight at small scale ends), and study e's
    ratio checks on the pools' battles.
    """
    out = []
    for r in rows:
        stalls, small = PoolsRow.stalls(r.pools_quiet), PoolsRow.stalls(r.small_quiet)
        out.append(
            Check(
                "shipped",
                "wargame",
                f"pools {r.n} v {r.m}, morale off: no more draws at max_rounds than small scale",
                stalls <= small,
                f"{stalls} of {r.pools_quiet.runs} at max_rounds (small: {small})",
            )
        )
    ratio = [AttritionRow("wargame", "everyday", r.n, r.m, "pools", r.pools) for r in rows]
    for c in ratio_checks([a for a in ratio if (a.n, a.m) != (6, 5)]):
        out.append(
            Check("shipped", c.system, c.name.replace("large", "pools"), c.passed, c.figures)
        )
    return out


def _checks(res: Results) -> list[Check]:
    """Both parts' checks: the scenarios', then the pools'."""
    return [*scenario_checks(res.rows["shipped"]), *pools_checks(res.rows["pools"])]


# ===================================================================== the report
def _draws(o: Outcomes) -> str:
    return f"{100 * o.draws / o.runs:.1f}% ({o.routs})"


def _signed(x: tuple[float, ...]) -> str:
    d, lo, hi = x
    return f"{100 * d:+.1f} ({100 * lo:+.1f} to {100 * hi:+.1f})"


def comparison_table(rows: Sequence[ShippedRow]) -> str:
    """Each scenario's default against small forced: win rate, draws, rounds."""
    table = []
    for r in rows:
        d, s = r.arms["default"], r.arms["small"]
        _, ratio = r.gap("default")
        table.append(
            [
                f"`{r.name}`",
                r.system,
                str(r.fighters),
                r.reading,
                r.sides[r.subject],
                r.share("default").text(),
                r.share("small").text(),
                _signed(r.diff("default")),
                f"{_draws(d)} / {_draws(s)}",
                f"{d.mean_rounds:.2f} / {s.mean_rounds:.2f}",
                f"x{ratio:.2f}",
                "agree" if r.agrees("default") else "differ",
            ]
        )
    return md_table(
        [
            "scenario",
            "system",
            "fighters",
            "large scale",
            "side",
            "wins, default [99%]",
            "wins, small forced [99%]",
            "difference, points (99%)",
            "draws (mutual routs) default / small",
            "rounds default / small",
            "length",
            "5 points, 25%",
        ],
        table,
        right="2,7,9,10",
    )


def ablation_table(rows: Sequence[ShippedRow]) -> str:
    """Each rule switched off on its own, and all together: where the gap goes."""
    table = []
    for r in rows:
        if len(r.arms) == 2:
            continue
        for key, o in r.arms.items():
            if key == "small":
                continue
            points, ratio = r.gap(key)
            table.append(
                [
                    f"`{r.name}`",
                    o.arm.label,
                    " ".join(f"`{x}`" for x in o.arm.sets) or "-",
                    r.share(key).text(),
                    _signed(r.diff(key, base="default")) if key != "default" else "-",
                    f"{100 * points:.1f}",
                    _draws(o),
                    f"{o.mean_rounds:.2f} (x{ratio:.2f})",
                ]
            )
    return md_table(
        [
            "scenario",
            "arm",
            "switch",
            "side's wins [99%]",
            "change from default, points (99%)",
            "largest gap to small, points",
            "draws (mutual routs)",
            "rounds (to small)",
        ],
        table,
        right="4,5,7",
    )


def attribution(r: ShippedRow) -> str:
    """A sentence: how far the scales differ and which named rules account for it."""
    points, ratio = r.gap("default")
    if r.agrees("default"):
        return f"`{r.name}`: the scales agree ({100 * points:.1f} points, length x{ratio:.2f})."
    moved = []
    for key, o in r.arms.items():
        if key in ("default", "small", "all_off") or not o.arm.seed_rule:
            continue
        p_k, r_k = r.gap(key)
        if points - p_k >= 0.02 or abs(ratio - 1) - abs(r_k - 1) >= 0.05:
            moved.append(f"{o.arm.label} ({100 * p_k:.1f} points, x{r_k:.2f})")
    said = ", ".join(moved) if moved else "no single rule: only their sum"
    if "all_off" not in r.arms:
        return f"`{r.name}`: {100 * points:.1f} points and x{ratio:.2f} apart; {said}."
    p_off, r_off = r.gap("all_off")
    return (
        f"`{r.name}`: {100 * points:.1f} points and x{ratio:.2f} apart; closing most of it: "
        f"{said}; every seed rule off: {100 * p_off:.1f} points, x{r_off:.2f}."
    )


def pools_table(rows: Sequence[PoolsRow]) -> str:
    """Faction pools against small scale on study e's everyday War Game sides."""
    table = []
    for r in rows:
        pools = Share(r.pools.a_wins, r.pools.runs)
        small = Share(r.small.a_wins, r.small.runs)
        _, lo, hi = paired_difference(r.pools, r.small)
        decisive = Share(r.pools.a_wins, r.pools.decisive)
        table.append(
            [
                f"{r.n} v {r.m}",
                pools.text(),
                small.text(),
                f"{100 * (pools.p - small.p):+.1f} ({100 * lo:+.1f} to {100 * hi:+.1f})",
                f"{r.pools.mean_rounds:.2f} / {r.small.mean_rounds:.2f}",
                decisive.text(),
                f"{PoolsRow.stalls(r.pools_quiet)} / {PoolsRow.stalls(r.small_quiet)}",
                f"{r.pools_quiet.mean_rounds:.2f} / {r.small_quiet.mean_rounds:.2f}",
            ]
        )
    return md_table(
        [
            "battle",
            "A wins, pools [99%]",
            "A wins, small forced [99%]",
            "difference, points (99%)",
            "rounds pools / small",
            "A's share of decisive, pools [99%]",
            "morale off: at max_rounds, pools / small",
            "morale off: rounds pools / small",
        ],
        table,
        right="3,4,6,7",
    )


WHAT = (
    "**What.** Every scenario in `scenarios/` with more than 10 fighters (reinforcements "
    "included; `campaign.yaml`, a campaign of 2W2P battles, aside), fought at its default "
    "scale and with small scale forced (`large_scale_above: 100000`), then with each rule "
    "large scale adds switched off on its own and all together "
    "([rules](rules.md#17-what-large-scale-changes)): the leaders' roll for the first side, "
    "the rank and file (a leader reached only by leader killing), the 1 HD a faction keeps "
    "when its leader falls, the leader named where a side names none, leader killing, and "
    "faction pools. `popcorn turns` fights large scale in the small scale's turn order: a "
    "check of our reading of the factions' alternation, not a seed rule. {runs:,} battles an "
    "arm, every arm of a scenario with the same seeds (replicate r: `SeedSequence({seed}, "
    "spawn_key=(r,))`, as `sim sweep experiments/large_scale_<scenario>.yaml` with `seed: "
    "{seed}` and `seeds: shared` gives it), so differences are paired; win rates carry 99% "
    "Wilson intervals, differences 99% intervals over the pairs.\n\n"
    "**Why.** Study e shows the frame's two scales agree on identical, leaderless study "
    "sides. A researcher fighting our own scenarios needs to know how far they differ and "
    "why: which part is the seed's large-scale rules, which an accident of our reading. "
    "**Invariant** (per scenario): every side's win rate within 5 points and the mean length "
    "within 25% of small scale, or, where not, within those once every seed rule is switched "
    "off, so that the whole difference is the seed's.\n"
)

POOLS = (
    "**Faction pools** (`battle: {{large_scale: pools}}`, the default reading `wargame.pool: "
    "members`: a turn a round for each member, the pool's HD its head count, its average HD "
    "the dice it dodges with) on study e's everyday War Game sides, against the same battle "
    "forced small, with the default morale and with morale off; {runs:,} battles an arm. "
    "**Invariants:** with morale off no more battles end at `max_rounds` than at small scale "
    "(the literal pools, `wargame.pool: literal`, end every one there), and study e's ratio "
    "checks on the pools. Pools do not meet study e's 5 points: a pool averages away its "
    "members' armor and HD, one armor pool for the whole faction, so numbers count and "
    "quality hardly does ([rules](rules.md#16-large-scale-factions)); the difference is "
    "shown, not held to a bound.\n"
)


def section(res: Results, charts: Mapping[str, str]) -> str:
    """The report's section f: the scenarios, the rules one at a time, the reading, pools."""
    rows: list[ShippedRow] = res.rows["shipped"]
    pools: list[PoolsRow] = res.rows["pools"]
    lines = ["## f. The shipped scenarios at both scales\n"]
    lines.append(WHAT.format(runs=res.reps["shipped"], seed=SEED))
    if rows:
        lines.append(comparison_table(rows))
        lines.append("")
        lines.append("The rules one at a time (a side's wins, and its change from the default):\n")
        lines.append(ablation_table(rows))
        lines.append("")
        lines.append("**Reading it.**\n")
        lines += [f"- {attribution(r)}" for r in rows]
        lines.append("")
    if "shipped" in charts:
        lines.append(
            f"![Study f: each shipped scenario's side at both scales]({charts['shipped']})\n"
        )
    if pools:
        lines.append(POOLS.format(runs=res.reps["pools"]))
        lines.append(pools_table(pools))
        lines.append("")
    return "\n".join(lines) + "\n"


def chart(res: Results) -> Any:
    """Each scenario's side: default, small forced and every seed rule off."""
    rows: list[ShippedRow] = res.rows["shipped"]
    if not rows:
        return None
    fig, ax = pyplot().subplots(figsize=(10, 3.8))
    x = np.arange(len(rows))
    for shift, key, label, colour in (
        (-0.2, "default", "default (large scale)", "tab:red"),
        (0.0, "small", "small forced", "tab:blue"),
        (0.2, "all_off", "every seed rule off", "tab:grey"),
    ):
        pts = [(i, r.share(key)) for i, r in enumerate(rows) if key in r.arms]
        if pts:
            xs = np.array([i for i, _ in pts]) + shift
            errorbar(ax, xs, [s for _, s in pts], fmt="o", color=colour, label=label)
    ax.set_xticks(x, [f"{r.name}\n{r.sides[r.subject]}" for r in rows], fontsize=8)
    ax.set_ylabel("the side's win rate (%)")
    ax.set_ylim(-3, 103)
    ax.legend(fontsize=7)
    ax.set_title("f. Shipped scenarios: default against small forced (99% Wilson intervals)")
    return fig


# shipped 600 battles an arm (the issue's): a paired difference to about +-5 points (99%);
# pools 600 an arm, as study e's ratio, to see its rise.
STUDY = Study(
    "shipped",
    (
        Part("shipped", scenarios_study, full=600, quick=100),
        Part("pools", pools_study, full=600, quick=100),
    ),
    section,
    _checks,
    chart,
    summary="f. shipped",
)
