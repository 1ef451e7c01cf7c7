"""Study f: the scenarios we ship, at large scale and forced small, rule by rule (issue 30).

The validation report's study e checks that large scale agrees with small scale on study
sides of identical, leaderless fighters. The scenarios in ``scenarios/`` have leaders, goals,
terrain and mixed troops; this study fights every one of them with more than 10 fighters
(reinforcements included) at its default scale and with small scale forced
(``large_scale_above: 100000``), then switches the rules large scale adds off one at a time
(``docs/rules.md`` 1.7: the leaders' roll, the rank and file, the fallen leader's 1 HD, the
leader named where none is, leader killing, faction pools) and all of them together, so that
each difference between the scales is attributed to a named rule.

Every arm of a scenario fights the same seeds: replicate ``r`` gets
``SeedSequence(99, spawn_key=(r,))``, the seed a sweep with ``seed: 99`` and ``seeds:
shared`` gives it, so ``sim sweep experiments/large_scale_<scenario>.yaml`` (written by
:func:`experiment_text`) reproduces the study's figures, and the differences are paired.

Invariant (one per scenario): the two scales agree within 5 points of every side's win rate
and 25% of the mean length, or, where they do not, they agree within those once every seed
rule of large scale is switched off: the difference is then the seed's, not our reading's.

The study also fights faction pools (the default reading, ``wargame.pool: members``) on
study e's everyday War Game sides against the same battle forced small (:func:`pools_study`):
pools must end their fights (no more draws at ``max_rounds`` with morale off than small
scale has) and let the bigger side win, more as the ratio grows; how far they are from small
scale is shown, not bound, since a pool averages away its members' armor and HD.

Self-contained: :func:`shipped_study` takes the report's runner (its worker pool, if any)
and replicate count and returns its rows (:class:`StudyF`); :func:`shipped_checks` the
invariants as
:class:`benchmarks.validity.Check`; :func:`shipped_section` the report's Markdown;
:func:`draw_shipped` its chart.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = ROOT / "scenarios"
SEED = 99  # the seed: every arm's replicate r fights SeedSequence(99, spawn_key=(r,))
FORCE_SMALL = 100_000
WIN_POINTS = 0.05  # the scales agree within 5 points of every side's win rate ...
LENGTH_SHARE = 0.25  # ... and 25% of the mean length
Z95 = 1.959963984540054
# the side whose win rate the tables show (the issue's); the first listed elsewhere
SUBJECT = {"siege": "attackers", "bridge": "raiders", "raid": "raiders", "adders": "adders"}


# ===================================================================== the arms
@dataclass(frozen=True)
class Arm:
    """One way to fight a scenario: ``sets`` are ``--set`` overrides on top of its file.

    ``seed_rule``: the arm switches off a rule of the seed's large scale (rules.md 1.7); the
    ``all off`` arm switches off every one of them.
    """

    key: str
    label: str
    sets: tuple[str, ...] = ()
    seed_rule: bool = False


def fighters_of(sc: Any) -> int:
    """Fighters a scenario brings to its battle: its sides' and its reinforcements'."""
    return sum(len(s.fighters) for s in sc.sides) + sum(
        len(e.fighters) for e in sc.events if e.kind == "reinforce"
    )


def shipped_scenarios() -> list[Path]:
    """Every scenario file with more than 10 fighters, campaigns aside (sorted by name).

    A campaign (``campaign.yaml``) fights several 2W2P battles, where scale changes nothing;
    ``shieldwall.yaml`` stands for 2W2P here.
    """
    from sim.scenario import load_scenario

    out = []
    for path in sorted(SCENARIOS.glob("*.yaml")):
        sc = load_scenario(path)
        if fighters_of(sc) > 10 and sc.campaign is None:
            out.append(path)
    return out


def arms_for(sc: Any) -> list[Arm]:
    """The arms of scenario ``sc``: its default, forced small, each rule off, all off.

    Only the rules that can act in it: none under 2W2P (no factions); leader naming where a
    side names no leader; leader killing where a side's tactic tries it; pools where the
    scenario fights them. ``popcorn`` (the small scale's turn order at large scale) checks
    our reading of the factions' alternation, not a seed rule.
    """
    from sim import systems

    where = "rules.options" if sc.rules == "wargame" else "frame"
    arms = [
        Arm("default", "default"),
        Arm("small", "small forced", (f"{where}.large_scale_above={FORCE_SMALL}",)),
    ]
    if not systems.get(sc.rules).factions:
        return arms
    rules = [
        Arm("initiative", "everyone rolls initiative", ("battle.large_initiative=everyone",), True),
        Arm("ranks", "no rank and file", ("battle.rank_and_file=false",), True),
        Arm("leader_down", "no 1 HD after the leader falls", ("battle.leader_down=none",), True),
    ]
    if any(s.leader is None for s in sc.sides):
        rules.append(Arm("naming", "no leader named", ("battle.faction_leader=none",), True))
    killers = [s.name for s in sc.sides if sc.side_tactic(s.name).leader_killing == "always"]
    if killers:
        sets = tuple(f"sides.{n}.tactic.params.leader_killing=never" for n in killers)
        rules.append(Arm("killing", "no leader killing", sets, True))
    if sc.battle.get("large_scale") == "pools":
        rules.append(Arm("pools", "turns, not pools", ("battle.large_scale=turns",), True))
    everything = tuple(x for arm in rules for x in arm.sets)
    popcorn = Arm("popcorn", "popcorn turns (our reading)", ("battle.large_turns=popcorn",))
    return [*arms, *rules, popcorn, Arm("all_off", "every seed rule off", everything)]


def seeds(runs: int, start: int = 0) -> list[int]:
    """Replicates ``start..runs-1``'s seeds: a sweep's with ``seed: 99, seeds: shared``."""
    out = []
    for r in range(start, runs):
        child = np.random.SeedSequence(SEED, spawn_key=(r,))
        out.append(int(child.generate_state(1, dtype=np.uint64)[0]))
    return out


def fight_arm(path: str, sets: tuple[str, ...], start: int, stop: int) -> np.ndarray:
    """Replicates ``start..stop-1`` of one arm: winner (side index + 1, 0 a draw), rounds,
    mutual rout (1/0), max_rounds (1/0)."""
    from sim.battle.battle import Battle
    from sim.scenario import load_scenario

    sc = load_scenario(path, list(sets))
    names = [s.name for s in sc.sides]
    out = np.zeros((stop - start, 4), dtype=np.int64)
    for i, seed in enumerate(seeds(stop, start)):
        o = Battle(sc, seed=seed).run()
        won = names.index(o.winner) + 1 if o.winner is not None else 0
        out[i] = (won, o.rounds, o.end_reason == "mutual_rout", o.end_reason == "max_rounds")
    return out


# ===================================================================== the rows
@dataclass(frozen=True)
class Outcomes:
    """An arm's battles: one row per replicate (:func:`fight_arm`)."""

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

    def share(self, key: str, side: int | None = None) -> Any:
        """Side ``side``'s (default: the subject's) win rate in arm ``key`` with its 99%
        Wilson interval (:class:`benchmarks.validity.Share`)."""
        from benchmarks.validity import Share

        o = self.arms[key]
        return Share(int(o.wins(self.subject if side is None else side).sum()), o.runs)

    def diff(self, key: str, side: int | None = None, base: str = "small") -> tuple[float, ...]:
        """Side ``side``'s win rate in ``key`` less in ``base``, paired, with a 99% interval."""
        from benchmarks.validity import Z99

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
    pools: Any  # benchmarks.validity.Sample
    small: Any
    pools_quiet: Any  # morale off
    small_quiet: Any

    @staticmethod
    def stalls(sample: Any) -> int:
        """Battles that ended at ``max_rounds``, nobody having won."""
        from benchmarks.validity import MAX_ROUNDS

        return int(((sample.rows[:, 0] == 0) & (sample.rows[:, 1] >= MAX_ROUNDS)).sum())


@dataclass(frozen=True)
class StudyF:
    """Study f's rows: the shipped scenarios, and faction pools on the study sides."""

    scenarios: list[ShippedRow]
    pools: list[PoolsRow]

    def __bool__(self) -> bool:
        return bool(self.scenarios or self.pools)


POOL_SIZES = ((6, 5), (10, 8), (12, 8), (16, 8), (20, 16))


def pools_study(runner: Any, runs: int) -> list[PoolsRow]:
    """Faction pools (the default reading) against small scale on study e's sides."""
    from benchmarks import validity as v

    plan = {}
    for n, m in POOL_SIZES:
        for quiet in (False, True):
            morale = {"morale": "none"} if quiet else {}
            key = f"pools/{n}v{m}/{'quiet' if quiet else 'morale'}"
            for arm, battle, above in (
                ("pools", {"large_scale": "pools", **morale}, None),
                ("small", morale or None, v.FORCE_SMALL),
            ):
                text = v.config_text(
                    "wargame", "everyday", n, m, battle=battle, large_scale_above=above
                )
                plan[n, m, quiet, arm] = v.Point(f"{key}/{arm}", text, runs, seed_key=key)
    got = runner.run(list(plan.values()))
    return [
        PoolsRow(
            n,
            m,
            *(got[plan[n, m, q, arm].key] for q in (False, True) for arm in ("pools", "small")),
        )
        for n, m in POOL_SIZES
    ]


def shipped_study(runner: Any, runs: int, systems: Sequence[str] | None = None) -> StudyF:
    """Study f: the shipped scenarios (:func:`scenarios_study`) and, under the War Game,
    faction pools on the study sides (:func:`pools_study`)."""
    wargame = systems is None or "wargame" in systems
    pools = pools_study(runner, runs) if runs > 0 and wargame else []
    return StudyF(scenarios_study(runner, runs, systems), pools)


def scenarios_study(
    runner: Any, runs: int, systems: Sequence[str] | None = None
) -> list[ShippedRow]:
    """Every shipped scenario with more than 10 fighters (under ``systems``), every arm.

    ``runner``: the report's :class:`benchmarks.validity.Runner` (its worker pool when it has
    one; its battle count grows); ``runs``: replicates an arm.
    """
    from sim.scenario import load_scenario

    if runs < 1:
        return []
    plan = []
    for path in shipped_scenarios():
        sc = load_scenario(path)
        if systems is not None and sc.rules not in systems:
            continue
        plan.append((path, sc, arms_for(sc)))
    tasks = []
    step = max(5, min(100, math.ceil(runs / 4)))
    for path, _, arms in plan:
        for arm in arms:
            tasks += [(str(path), arm.sets, s, min(s + step, runs)) for s in range(0, runs, step)]
    pool = getattr(runner, "pool", None)
    if pool is None:
        parts = [fight_arm(*t) for t in tasks]
    else:
        parts = list(pool.map(fight_arm, *zip(*tasks, strict=True))) if tasks else []
    runner.battles = getattr(runner, "battles", 0) + sum(len(p) for p in parts)
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


# ===================================================================== the invariants
def shipped_checks(study: StudyF | None) -> list[Any]:
    """Study f's invariants: the scenarios' (:func:`scenario_checks`), the pools'."""
    if not study:
        return []
    return [*scenario_checks(study.scenarios), *pools_checks(study.pools)]


def pools_checks(rows: Sequence[PoolsRow]) -> list[Any]:
    """Pools end their fights, and the bigger side wins, more as the ratio grows.

    No more draws at ``max_rounds`` with morale off than small scale has (RULES.md 1.12:
    "a pooled fight may not end at max_rounds for want of harm where the same fight at small
    scale ends"), and study e's ratio checks on the pools' battles.
    """
    from benchmarks import validity as v

    out = []
    for r in rows:
        stalls, small = PoolsRow.stalls(r.pools_quiet), PoolsRow.stalls(r.small_quiet)
        out.append(
            v.Check(
                "shipped",
                "wargame",
                f"pools {r.n} v {r.m}, morale off: no more draws at max_rounds than small scale",
                stalls <= small,
                f"{stalls} of {r.pools_quiet.runs} at max_rounds (small: {small})",
            )
        )
    ratio = [v.AttritionRow("wargame", "everyday", r.n, r.m, "pools", r.pools) for r in rows]
    for c in v.ratio_checks([a for a in ratio if (a.n, a.m) != (6, 5)]):
        out.append(
            v.Check("shipped", c.system, c.name.replace("large", "pools"), c.passed, c.figures)
        )
    return out


def scenario_checks(rows: Sequence[ShippedRow]) -> list[Any]:
    """One check per scenario: the scales agree, or agree once the seed's rules are off."""
    from benchmarks.validity import Check

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


# ===================================================================== the report
def _pct(share: Any) -> str:
    return share.text()


def _draws(o: Outcomes) -> str:
    return f"{100 * o.draws / o.runs:.1f}% ({o.routs})"


def _signed(x: tuple[float, ...]) -> str:
    d, lo, hi = x
    return f"{100 * d:+.1f} ({100 * lo:+.1f} to {100 * hi:+.1f})"


def comparison_table(rows: Sequence[ShippedRow]) -> str:
    """Each scenario's default against small forced: win rate, draws, rounds."""
    from benchmarks.validity import md_table

    table = []
    for r in rows:
        d, s = r.arms["default"], r.arms["small"]
        points, ratio = r.gap("default")
        table.append(
            [
                f"`{r.name}`",
                r.system,
                str(r.fighters),
                r.reading,
                r.sides[r.subject],
                _pct(r.share("default")),
                _pct(r.share("small")),
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
    from benchmarks.validity import md_table

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
                    _pct(r.share(key)),
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
    p_off, r_off = r.gap("all_off")
    said = ", ".join(moved) if moved else "no single rule: only their sum"
    return (
        f"`{r.name}`: {100 * points:.1f} points and x{ratio:.2f} apart; closing most of it: "
        f"{said}; every seed rule off: {100 * p_off:.1f} points, x{r_off:.2f}."
    )


def pools_table(rows: Sequence[PoolsRow]) -> str:
    """Faction pools against small scale on study e's everyday War Game sides."""
    from benchmarks import validity as v

    table = []
    for r in rows:
        pools = v.Share(r.pools.a_wins, r.pools.runs)
        small = v.Share(r.small.a_wins, r.small.runs)
        _, lo, hi = v.paired_difference(r.pools, r.small)
        decisive = v.Share(r.pools.a_wins, r.pools.decisive)
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
    return v.md_table(
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


def shipped_section(study: StudyF, runs: int, chart: str | None = None) -> str:
    """The report's section of study f."""
    rows = study.scenarios
    lines = ["## f. The shipped scenarios at both scales\n"]
    lines.append(
        "**What.** Every scenario in `scenarios/` with more than 10 fighters (reinforcements "
        "included; `campaign.yaml`, a campaign of 2W2P battles, aside), fought at its "
        "default scale and with small scale forced (`large_scale_above: 100000`), then with "
        "each rule large scale adds switched off on its own and all together "
        "([rules](rules.md#17-what-large-scale-changes)): the leaders' roll for the first "
        "side, the rank and file (a leader reached only by leader killing), the 1 HD a "
        "faction keeps when its leader falls, the leader named where a side names none, "
        "leader killing, and faction pools. `popcorn turns` fights large scale in the small "
        "scale's turn order: a check of our reading of the factions' alternation, not a seed "
        f"rule. {runs:,} battles an arm, every arm of a scenario with the same seeds "
        f"(replicate r: `SeedSequence({SEED}, spawn_key=(r,))`, as `sim sweep "
        f"experiments/large_scale_<scenario>.yaml` with `seed: {SEED}` and `seeds: shared` "
        "gives it), so differences are paired; win rates carry 99% Wilson intervals, "
        "differences 99% intervals over the pairs.\n\n"
        "**Why.** Study e shows the frame's two scales agree on identical, leaderless study "
        "sides. A researcher fighting our own scenarios needs to know how far they differ and "
        "why: which part is the seed's large-scale rules, which an accident of our reading. "
        "**Invariant** (per scenario): every side's win rate within 5 points and the mean "
        "length within 25% of small scale, or, where not, within those once every seed rule "
        "is switched off, so that the whole difference is the seed's.\n"
    )
    lines.append(comparison_table(rows))
    lines.append("")
    lines.append("The rules one at a time (a side's wins, and its change from the default):\n")
    lines.append(ablation_table(rows))
    lines.append("")
    lines.append("**Reading it.**\n")
    lines += [f"- {attribution(r)}" for r in rows]
    lines.append("")
    if chart:
        lines.append(f"![Study f: each shipped scenario's side at both scales]({chart})\n")
    if study.pools:
        lines.append(
            "**Faction pools** (`battle: {large_scale: pools}`, the default reading "
            "`wargame.pool: members`: a turn a round for each member, the pool's HD its head "
            "count, its average HD the dice it dodges with) on study e's everyday War Game "
            "sides, against the same battle forced small, with the default morale and with "
            "morale off. **Invariants:** with morale off no more battles end at `max_rounds` "
            "than at small scale (the literal pools, `wargame.pool: literal`, end every one "
            "there), and study e's ratio checks on the pools. Pools do not meet study e's "
            "5 points: a pool averages away its members' armor and HD, one armor pool for the "
            "whole faction, so numbers count and quality hardly does "
            "([rules](rules.md#16-large-scale-factions)); the difference is shown, not held "
            "to a bound.\n"
        )
        lines.append(pools_table(study.pools))
        lines.append("")
    return "\n".join(lines) + "\n"


def draw_shipped(study: StudyF | None, folder: Path) -> Path | None:
    """The chart of study f: each scenario's side, default, small forced and all rules off."""
    rows = study.scenarios if study else []
    if not rows:
        return None
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    folder.mkdir(parents=True, exist_ok=True)
    fig, ax = plt.subplots(figsize=(10, 3.8))
    x = np.arange(len(rows))
    for shift, key, label, colour in (
        (-0.2, "default", "default (large scale)", "tab:red"),
        (0.0, "small", "small forced", "tab:blue"),
        (0.2, "all_off", "every seed rule off", "tab:grey"),
    ):
        pts = [(i, r.share(key)) for i, r in enumerate(rows) if key in r.arms]
        if not pts:
            continue
        xs = np.array([i for i, _ in pts]) + shift
        p = np.array([s.p for _, s in pts])
        lo = np.array([s.lo for _, s in pts])
        hi = np.array([s.hi for _, s in pts])
        ax.errorbar(
            xs,
            100 * p,
            yerr=[100 * (p - lo), 100 * (hi - p)],
            fmt="o",
            capsize=3,
            color=colour,
            label=label,
        )
    ax.set_xticks(x, [f"{r.name}\n{r.sides[r.subject]}" for r in rows], fontsize=8)
    ax.set_ylabel("the side's win rate (%)")
    ax.set_ylim(-3, 103)
    ax.legend(fontsize=7)
    ax.set_title("f. Shipped scenarios: default against small forced (99% Wilson intervals)")
    path = folder / "shipped.png"
    fig.savefig(path, dpi=90, bbox_inches="tight", metadata={"Software": None})
    plt.close(fig)
    return path


# ===================================================================== experiment files
def experiment_text(path: Path, replicates: int = 600) -> str:
    """The experiment file that sweeps scenario ``path``'s arms (``experiments/``).

    A ``list`` design, one point per arm (labelled), with ``seed: 99`` and ``seeds:
    shared``: the study's seeds, so the sweep gives the study's figures.
    """
    import yaml

    from sim.scenario import load_scenario

    sc = load_scenario(path)
    arms = arms_for(sc)
    keys = list(dict.fromkeys(s.partition("=")[0] for arm in arms for s in arm.sets))
    base = {key: _current(sc, key) for key in keys}  # a list design sets every key everywhere
    points = []
    for arm in arms:
        point: dict[str, Any] = {"label": arm.key, **base}
        for s in arm.sets:
            key, _, value = s.partition("=")
            point[key] = yaml.safe_load(value)
        points.append(point)
    import textwrap

    rules = "; ".join(a.label for a in arms if a.seed_rule)
    about = (
        f"Large scale on {path.name} (issue 30): its default (point 'default') against small "
        "scale forced ('small'), each rule large scale adds switched off on its own, and all "
        f"of them together ('all_off'), every point with the same {replicates} seeds (seeds: "
        "shared), so sim analyze gives each point's paired difference from the default. The "
        f"arms that switch a seed rule off: {rules or 'none'}; 'popcorn' fights large scale "
        "in the small scale's turn order. Written by benchmarks/validity_shipped.py (python -m "
        "benchmarks.validity_shipped); the validation report's study f fights the same "
        "battles."
    )
    header = "# yaml-language-server: $schema=../docs/schema/experiment.schema.json\n" + "".join(
        f"# {line}\n" for line in textwrap.wrap(about, 88)
    )
    body = {
        "name": f"large_scale_{sc.name}",
        "description": f"{sc.name}: large scale against small, rule by rule.",
        "scenario": f"../scenarios/{path.name}",
        "design": "list",
        "points": points,
        "replicates": replicates,
        "seed": SEED,
        "seeds": "shared",
        "tables": ["runs"],
    }
    text = yaml.safe_dump(body, sort_keys=False, default_flow_style=None, width=1000)
    return header + text


def _current(sc: Any, key: str) -> Any:
    """The value the dotted path ``key`` has in scenario ``sc`` (its default if unset)."""
    from sim import systems

    group, _, name = key.rpartition(".")
    if group == "battle":
        return getattr(sc.battle_options, name)
    if group in ("rules.options", "frame"):
        return getattr(sc.frame_options(systems.get(sc.rules)), name)
    if key.startswith("sides.") and name == "leader_killing":
        return sc.side_tactic(key.split(".")[1]).leader_killing
    raise ValueError(f"no current value for {key}")


def write_experiments(folder: Path = ROOT / "experiments") -> list[Path]:
    """Write every shipped scenario's experiment file (those with rules to switch off)."""
    from sim.scenario import load_scenario

    out = []
    for path in shipped_scenarios():
        if len(arms_for(load_scenario(path))) == 2:
            continue
        target = folder / f"large_scale_{path.stem}.yaml"
        target.write_text(experiment_text(path), encoding="utf-8")
        out.append(target)
    return out


if __name__ == "__main__":
    for written in write_experiments():
        print(f"wrote {written.relative_to(ROOT)}")
