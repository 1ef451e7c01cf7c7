"""Validation studies: does the simulator behave the way a researcher can trust? (issue 14)

Run from the repository root::

    python -m benchmarks.validity                  # every study; writes docs/validation.md
                                                   # and its charts in docs/validation/
    python -m benchmarks.validity --quick          # fewer battles (about 1.5 minutes);
                                                   # writes results/validation-quick.md
    python -m benchmarks.validity --scenario wargame one_hit 10 8
                                                   # print one study scenario (YAML for sim run)

Five studies, each under every rule system (``wargame``, ``2w2p``, ``deathwish``, ``d6``):

a. **mirror**: identical sides win equally often, whichever is listed first;
b. **monotone**: a side made stronger in one stat (more fighters, hit dice or toughness,
   armor, tier, weapon, skill, fewer wounds carried) never does significantly worse;
c. **Lanchester**: the bigger of two identical sides wins, against Brown's stochastic square
   and linear laws computed exactly (:func:`lanchester`);
d. **100 v 80**: the bigger side's survivors against the square law's 60 (measured, no
   invariant);
e. **scale**: the same battle fought at large scale and forced small gives the same result,
   and the bigger side's lead grows with the ratio at large scale;
f. **shipped**: the scenarios we ship at both scales, each rule large scale adds switched
   off in turn (``benchmarks/validity_shipped.py``, hooked in here).

Every study is a function taking a :class:`Runner` and replicate counts, so the tests
(``tests/test_validity.py``) run the same code with fewer battles. Scenarios are built in
one place (:func:`scenario_text`). Seeds come from ``numpy.random.SeedSequence``: each
battle set ("point") has a key, and run ``i`` of a point always gets the same seed whatever
the replicate count, worker count or order (the quick run's battles are the first of the
full run's), so every figure is reproducible.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import functools
import math
import os
import subprocess
import sys
import time
import zlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import yaml

ROOT = Path(__file__).resolve().parents[1]
SYSTEMS = ("wargame", "2w2p", "deathwish", "d6")
SYSTEM_TITLES = {"wargame": "War Game", "2w2p": "2W2P", "deathwish": "Deathwish", "d6": "D6 tiers"}
MASTER_SEED = 14  # the number; every battle's seed derives from it and its point's key
MAX_ROUNDS = 50  # every study scenario (the default): a battle still on after it is a draw
FORCE_SMALL = 100_000  # large_scale_above that keeps any battle here at small scale
ATTRITION = {"morale": "none", "initiative": "sides"}  # battle options of the attrition studies
# Study e's sides fight without the leader large scale names (the frame's own continuity);
# what leaders add is attributed rule by rule in the shipped scenarios' study (issue 30)
LEADERLESS = {"faction_leader": "none"}
Z99 = 2.5758293035489004  # two-sided 99%: the standard normal's 99.5% quantile
Z99_ONE_SIDED = 2.3263478740408408  # one-sided 99%: the 99% quantile
SIDE_A, SIDE_B = "A", "B"


# ===================================================================== the fighters
@dataclass(frozen=True)
class Fighters:
    """A kind of fighter under one system: its scenario fields and the rule options it needs."""

    fields: Mapping[str, Any]
    options: Mapping[str, Any] = field(default_factory=dict)
    note: str = ""


EVERYDAY: dict[str, Fighters] = {
    "wargame": Fighters(
        {"hit_dice": 4}, note="4 HD, no armor, a plain weapon: the War Game's default fighter"
    ),
    "2w2p": Fighters(
        {"fights": 1},
        note="Fresh (1 fight: one die each, so a side's dice grow in step with its head count), "
        "in its prime (felled by the third wounding blow), no protection",
    ),
    "deathwish": Fighters(
        {"deathwish": {"weapon": "M1911"}},
        note="an M1911 (penetration 2, lethality 5), skill 5 (hits on a d10 of 5 or less), "
        "trauma tolerance 5, no armor",
    ),
    "d6": Fighters(
        {}, note="the D6 defaults: attack 4D, dodge 3D, damage 4D, Strength and Dexterity 3D"
    ),
}

ONE_HIT: dict[str, Fighters] = {
    "wargame": Fighters(
        {"hit_dice": 1},
        note="1 HD and no armor: any blow wounds, and a wound on 1 HD takes the fighter out "
        "([rules](rules.md#23-wounds)). Exact except for dodging: the balanced tactic "
        "dodges a blow that would take it out if it still has its HD this round, and then "
        "cannot attack",
    ),
    "2w2p": Fighters(
        {"fights": 3, "prime": False, "wounds": 1},
        note="Tested, not in its prime, one wounding blow already taken: it fights one tier "
        "worse (Fresh, one die each) and any hit fells it (a felling hit, or its second "
        "wounding blow). Exact; each die hits on 3-6 (2/3), and both sides roll at once",
    ),
    "deathwish": Fighters(
        {"deathwish": {"weapon": "M2HB"}},
        {"incapacitate_slight": 1.0, "incapacitate_moderate": 1.0, "incapacitate_serious": 1.0},
        note="an M2HB (7d10, lethality 8) and every wound level incapacitating "
        "(rules.options incapacitate_slight/moderate/serious: 1.0): a hit fails to take the "
        "target out only when it does no damage, with probability 0.2^7 = 0.0000128; "
        "a shot hits with probability 1/2 (skill 5)",
    ),
    "d6": Fighters(
        {"d6": {"damage": "12D"}},
        note="12D damage against a 3D body roll: a hit falls short of Incapacitated (a "
        "difference of 9 or more) with probability {d6_miss}; a hit needs the attack (4D) to "
        "beat the dodge (3D) and the difficulty 10",
    ),
}

CONFIGS: dict[str, dict[str, Fighters]] = {"everyday": EVERYDAY, "one_hit": ONE_HIT}
CONFIG_TITLES = {"everyday": "everyday", "one_hit": "one hit, one kill"}


def merged(base: Mapping[str, Any], extra: Mapping[str, Any]) -> dict[str, Any]:
    """``base`` with ``extra`` on top; the ``deathwish`` and ``d6`` blocks merge key by key."""
    out = dict(base)
    for k, v in extra.items():
        if isinstance(v, Mapping) and isinstance(out.get(k), Mapping):
            out[k] = {**out[k], **v}
        else:
            out[k] = v
    return out


def scenario_text(
    system: str,
    n: int,
    m: int,
    a: Mapping[str, Any] | None = None,
    b: Mapping[str, Any] | None = None,
    *,
    options: Mapping[str, Any] | None = None,
    battle: Mapping[str, Any] | None = None,
    large_scale_above: int | None = None,
    max_rounds: int = MAX_ROUNDS,
    description: str = "",
) -> str:
    """The scenario YAML of every study: side A (``n`` fighters ``a``) v side B (``m`` ``b``).

    ``a`` and ``b`` are fighter fields (as in a scenario file); ``options`` the system's rule
    options; ``battle`` the battle house rules; ``large_scale_above`` the large-scale
    threshold (``rules.options`` under ``wargame``, ``frame`` under the others, as
    :class:`sim.battle.battle.Battle` reads them). Both sides use the balanced tactic and no leader.
    """
    if system not in SYSTEMS:
        raise ValueError(f"unknown system {system!r}")
    opts = dict(options or {})
    frame: dict[str, Any] = {}
    if large_scale_above is not None:
        (opts if system == "wargame" else frame)["large_scale_above"] = large_scale_above
    doc: dict[str, Any] = {
        "name": f"validity-{system}-{n}v{m}",
        "description": description or f"{n} v {m} under {system} (benchmarks/validity.py)",
        "rules": {"system": system, "options": opts} if opts else system,
    }
    if frame:
        doc["frame"] = frame
    if battle:
        doc["battle"] = dict(battle)
    doc["max_rounds"] = max_rounds
    doc["sides"] = {
        SIDE_A: {"fighters": [{"name": "a", "count": n, **(a or {})}]},
        SIDE_B: {"fighters": [{"name": "b", "count": m, **(b or {})}]},
    }
    return yaml.safe_dump(doc, sort_keys=False, default_flow_style=None, width=100)


def config_text(
    system: str,
    config: str,
    n: int,
    m: int,
    *,
    battle: Mapping[str, Any] | None = None,
    large_scale_above: int | None = None,
) -> str:
    """:func:`scenario_text` of ``n`` v ``m`` identical fighters of a config (CONFIGS)."""
    kind = CONFIGS[config][system]
    return scenario_text(
        system,
        n,
        m,
        kind.fields,
        kind.fields,
        options=kind.options,
        battle=battle,
        large_scale_above=large_scale_above,
    )


# ===================================================================== fighting battles
@dataclass(frozen=True)
class Point:
    """A battle fought ``runs`` times; its ``key`` names it and gives its seeds.

    ``overrides`` are ``--set`` style changes to ``text``; ``mirrored`` lists side B first.
    Two points with one ``seed_key`` fight with the same seeds (common random numbers).
    """

    key: str
    text: str
    runs: int
    overrides: tuple[str, ...] = ()
    mirrored: bool = False
    source: str = "<validity>"
    seed_key: str = ""  # points with the same seed_key share seeds (default: the key)

    @property
    def seeds_from(self) -> str:
        return self.seed_key or self.key


def point_seeds(key: str, stop: int, start: int = 0) -> np.ndarray:
    """Seeds of runs ``start..stop-1`` of the point ``key`` (prefix-stable in ``stop``)."""
    seq = np.random.SeedSequence(MASTER_SEED, spawn_key=(zlib.crc32(key.encode()),))
    return seq.generate_state(stop, np.uint64)[start:]


@functools.lru_cache(maxsize=32)
def _scenario(text: str, source: str, overrides: tuple[str, ...], mirrored: bool) -> Any:
    from sim.scenario import parse_scenario

    sc = parse_scenario(text, source, overrides)
    names = (sc.sides[0].name, sc.sides[1].name)
    return (sc.mirrored() if mirrored else sc), names


def fight(point: Point, start: int, stop: int) -> np.ndarray:
    """Fight runs ``start..stop-1`` of ``point``: one row each.

    Columns: winner (1 the side listed first in the text, 2 the other, 0 a draw), rounds,
    and each side's fighters still standing (active or fleeing) at the end.
    """
    from sim.battle.battle import Battle

    sc, (a, b) = _scenario(point.text, point.source, point.overrides, point.mirrored)
    seeds = point_seeds(point.seeds_from, stop, start)
    out = np.zeros((len(seeds), 4), dtype=np.int64)
    for i, seed in enumerate(seeds):
        o = Battle(sc, seed=int(seed)).run()
        code = 1 if o.winner == a else 2 if o.winner == b else 0
        stand_a = o.sides[a]["active"] + o.sides[a]["fleeing"]
        stand_b = o.sides[b]["active"] + o.sides[b]["fleeing"]
        out[i] = (code, o.rounds, stand_a, stand_b)
    return out


@dataclass(frozen=True)
class Sample:
    """The outcomes of a point's runs (rows of :func:`fight`)."""

    key: str
    rows: np.ndarray

    @property
    def runs(self) -> int:
        return len(self.rows)

    @property
    def a_wins(self) -> int:
        return int((self.rows[:, 0] == 1).sum())

    @property
    def b_wins(self) -> int:
        return int((self.rows[:, 0] == 2).sum())

    @property
    def draws(self) -> int:
        return int((self.rows[:, 0] == 0).sum())

    @property
    def decisive(self) -> int:
        return self.runs - self.draws

    @property
    def mean_rounds(self) -> float:
        return float(self.rows[:, 1].mean())

    @property
    def a_survivors(self) -> np.ndarray:
        """Side A's fighters standing at the end of each run (0 when it lost)."""
        return np.where(self.rows[:, 0] == 1, self.rows[:, 2], 0)

    def winner_survivors(self) -> float:
        """Mean fighters the winner still has standing, over the decisive runs."""
        won = self.rows[:, 0]
        left = np.where(won == 1, self.rows[:, 2], self.rows[:, 3])[won != 0]
        return float(left.mean()) if len(left) else math.nan


class Runner:
    """Fights points on ``workers`` processes (1: in this process); results do not depend on it.

    Use as a context manager so the worker pool is shut down.
    """

    def __init__(self, workers: int = 2, log: Callable[[str], None] | None = None) -> None:
        self.workers = max(1, workers)
        self.log = log or (lambda text: None)
        self.pool: cf.ProcessPoolExecutor | None = None
        self.battles = 0

    def __enter__(self) -> Runner:
        if self.workers > 1:
            self.pool = cf.ProcessPoolExecutor(max_workers=self.workers)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.pool is not None:
            self.pool.shutdown(cancel_futures=True)
            self.pool = None

    def run(self, points: Sequence[Point]) -> dict[str, Sample]:
        """Fight every point; the samples by key."""
        keys = [p.key for p in points]
        if len(set(keys)) != len(keys):
            raise ValueError("point keys must differ (a sample is filed under its key)")
        tasks = []
        for p in points:
            step = max(5, min(100, math.ceil(p.runs / 8)))
            tasks += [(p, s, min(s + step, p.runs)) for s in range(0, p.runs, step)]
        parts: dict[tuple[str, int], np.ndarray] = {}
        if self.pool is None:
            for p, s, e in tasks:
                parts[p.key, s] = fight(p, s, e)
        else:
            futures = {self.pool.submit(fight, p, s, e): (p.key, s) for p, s, e in tasks}
            for fut in cf.as_completed(futures):
                parts[futures[fut]] = fut.result()
        self.battles += sum(p.runs for p in points)
        return {
            p.key: Sample(
                p.key,
                np.concatenate([parts[p.key, s] for s in sorted(s for k, s in parts if k == p.key)])
                if p.runs
                else np.zeros((0, 4), dtype=np.int64),
            )
            for p in points
        }


# ===================================================================== statistics
@dataclass(frozen=True)
class Share:
    """``k`` of ``n`` with its Wilson score interval (:func:`sim.analysis.wilson`), 99% by default.

    ``z`` is the normal quantile of the interval (Z99 for 99%).
    """

    k: int
    n: int
    z: float = Z99

    @functools.cached_property
    def _pli(self) -> tuple[float, float, float]:
        from sim.analysis import wilson

        p, lo, hi = wilson(self.k, self.n, self.z)
        return float(p), float(lo), float(hi)

    @property
    def p(self) -> float:
        return self._pli[0]

    @property
    def lo(self) -> float:
        return self._pli[1]

    @property
    def hi(self) -> float:
        return self._pli[2]

    def text(self) -> str:
        """``48.2% [44.9-51.6]``; ``-`` when ``n`` is 0."""
        if not self.n:
            return "-"
        return f"{100 * self.p:.1f}% [{100 * self.lo:.1f}-{100 * self.hi:.1f}]"


def family_z(checks: int, level: float = 0.99, sides: int = 2) -> float:
    """The normal quantile that keeps ``checks`` tests together at ``level`` (Bonferroni).

    ``family_z(1)`` is Z99; the tests use it so that a test of several checks on few battles
    fails by chance at most 1% of the time, as one check of the report does.
    """
    from statistics import NormalDist

    return NormalDist().inv_cdf(1 - (1 - level) / (sides * checks))


def drop_z(before: Share, after: Share) -> float:
    """z of the drop ``before.p - after.p`` (two independent proportions, pooled error)."""
    n1, n2 = before.n, after.n
    pooled = (before.k + after.k) / (n1 + n2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    diff = before.k / n1 - after.k / n2
    if se == 0:
        return 0.0 if diff == 0 else math.copysign(math.inf, diff)
    return diff / se


def pct(x: float, digits: int = 1) -> str:
    return "-" if math.isnan(x) else f"{100 * x:.{digits}f}%"


# ===================================================================== Lanchester's laws
@dataclass(frozen=True)
class Law:
    """Brown's stochastic attrition from ``a`` v ``b``: A's win chance and mean survivors.

    ``mean_a`` is A's expected survivors (0 when it loses), ``mean_b`` B's; as one side is
    always wiped out, ``mean_a + mean_b`` is the winner's expected survivors.
    """

    a: int
    b: int
    law: str
    p_a: Any
    mean_a: Any
    mean_b: Any

    @property
    def mean_winner(self) -> Any:
        return self.mean_a + self.mean_b


def lanchester(a: int, b: int, law: str = "square", exact: bool = False) -> Law:
    """Exact stochastic Lanchester attrition by dynamic programming over the states (i, j).

    From (i, j) the next casualty falls on B with probability i / (i + j) under the
    ``square`` law (every fighter fires at the same rate: aimed fire), with probability 1/2
    under the ``linear`` law (casualties come from pairwise encounters); the battle ends
    when a side has nobody left. ``exact=True`` computes in fractions.
    """
    if law not in ("square", "linear"):
        raise ValueError(f"law must be 'square' or 'linear', got {law!r}")
    if a < 0 or b < 0 or a + b == 0:
        raise ValueError("the sides need 0 or more fighters, and somebody must fight")
    one: Any = Fraction(1) if exact else 1.0
    half: Any = Fraction(1, 2) if exact else 0.5
    mass: dict[tuple[int, int], Any] = {(a, b): one}
    p_a: Any = 0 * one
    mean_a: Any = 0 * one
    mean_b: Any = 0 * one
    for total in range(a + b, 0, -1):  # every move lowers i + j by one
        for i in range(max(0, total - b), min(a, total) + 1):
            j = total - i
            m = mass.pop((i, j), None)
            if m is None:
                continue
            if j == 0:
                p_a += m
                mean_a += i * m
                continue
            if i == 0:
                mean_b += j * m
                continue
            if law == "square":
                on_b = Fraction(i, i + j) if exact else i / (i + j)
            else:
                on_b = half
            mass[i, j - 1] = mass.get((i, j - 1), 0 * one) + m * on_b
            mass[i - 1, j] = mass.get((i - 1, j), 0 * one) + m * (1 - on_b)
    return Law(a, b, law, p_a, mean_a, mean_b)


# ===================================================================== checks
@dataclass(frozen=True)
class Check:
    """One invariant's verdict: which study, system and check, PASS or FAIL, and the figures."""

    study: str
    system: str
    name: str
    passed: bool
    figures: str

    @property
    def verdict(self) -> str:
        return "PASS" if self.passed else "FAIL"


# ===================================================================== a. mirror
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


# ===================================================================== b. monotone
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


# ===================================================================== c. Lanchester
LANCHESTER_SIZES = ((2, 1), (4, 3), (10, 8), (20, 16))


def default_scale(n: int, m: int) -> str:
    """The scale the default threshold (more than 10 individuals is large) gives n v m."""
    return "large" if n + m > 10 else "small"


@dataclass(frozen=True)
class AttritionRow:
    """N v M identical fighters of a config, at the default scale or forced small."""

    system: str
    config: str
    n: int
    m: int
    scale: str  # "small", "large" (the default threshold) or "small (forced)"
    sample: Sample

    @property
    def wins(self) -> Share:
        """The bigger side A's win rate over all battles."""
        return Share(self.sample.a_wins, self.sample.runs)

    @property
    def decisive(self) -> Share:
        """A's share of the decisive battles."""
        return Share(self.sample.a_wins, self.sample.decisive)

    @property
    def square(self) -> Law:
        return lanchester(self.n, self.m, "square")

    @property
    def linear(self) -> Law:
        return lanchester(self.n, self.m, "linear")

    @property
    def passed(self) -> bool:
        """The bigger side wins more often than the smaller: 99% lower bound above 50%."""
        return self.decisive.n > 0 and self.decisive.lo > 0.5

    @property
    def nearest(self) -> str:
        """Which law A's win rate agrees with: the laws inside its 99% interval, or where."""
        w, sq, li = self.wins, self.square.p_a, self.linear.p_a
        has_sq, has_li = w.lo <= sq <= w.hi, w.lo <= li <= w.hi
        if has_sq and has_li:
            return "both"
        if has_sq or has_li:
            return "square" if has_sq else "linear"
        if w.lo > max(sq, li):
            return "above square"
        if w.hi < min(sq, li):
            return "below linear"
        return "between"


def _scale_arg(scale: str) -> int | None:
    return FORCE_SMALL if scale == "small (forced)" else None


def lanchester_study(
    runner: Runner,
    runs: int,
    systems: Sequence[str] = SYSTEMS,
    configs: Sequence[str] = ("everyday", "one_hit"),
    sizes: Sequence[tuple[int, int]] = LANCHESTER_SIZES,
    scales: Sequence[str] = ("default", "small (forced)"),
) -> list[AttritionRow]:
    """c. N v M identical fighters with morale off and one initiative die per side.

    ``scales``: ``default`` fights each size at the scale the default threshold gives it;
    ``small (forced)`` fights the sizes that are large by default at small scale too. Both
    fight with the same seeds (paired battles).
    """
    plan = []
    for s in systems:
        for c in configs:
            for n, m in sizes:
                chosen = []
                if "default" in scales:
                    chosen.append(default_scale(n, m))
                if "small (forced)" in scales and default_scale(n, m) == "large":
                    chosen.append("small (forced)")
                for sc in chosen:
                    text = config_text(
                        s, c, n, m, battle=ATTRITION, large_scale_above=_scale_arg(sc)
                    )
                    key = f"lanchester/{s}/{c}/{n}v{m}"
                    plan.append((s, c, n, m, sc, Point(f"{key}/{sc}", text, runs, seed_key=key)))
    got = runner.run([p for *_, p in plan])
    return [AttritionRow(s, c, n, m, sc, got[p.key]) for s, c, n, m, sc, p in plan]


def paired_difference(a: Sample, b: Sample) -> tuple[float, float, float]:
    """A's win rate in ``a`` less in ``b`` over paired battles (same seeds), with its 99% CI."""
    d = (a.rows[:, 0] == 1).astype(float) - (b.rows[:, 0] == 1)
    mean = float(d.mean())
    se = float(d.std(ddof=1)) / math.sqrt(len(d)) if len(d) > 1 else math.nan
    return mean, mean - Z99 * se, mean + Z99 * se


def scale_gaps(rows: Sequence[AttritionRow], points: float = 0.05) -> list[str]:
    """Sentences on the sizes whose win rate at large scale differs from forced small.

    Only gaps of more than ``points`` whose paired 99% interval excludes 0.
    """
    out = []
    for r in rows:
        if r.scale != "large":
            continue
        twin = next(
            (
                x
                for x in rows
                if (x.system, x.config, x.n, x.m) == (r.system, r.config, r.n, r.m)
                and x.scale == "small (forced)"
            ),
            None,
        )
        if twin is None or twin.sample.runs != r.sample.runs:
            continue
        diff, lo, hi = paired_difference(r.sample, twin.sample)
        if abs(diff) > points and (lo > 0 or hi < 0):
            out.append(
                f"{_title(r.system)}, {CONFIG_TITLES[r.config]} {r.n} v {r.m}: the bigger "
                f"side wins {pct(r.wins.p)} at large scale against {pct(twin.wins.p)} forced "
                f"small ({100 * diff:+.1f} points, 99% {100 * lo:+.1f} to {100 * hi:+.1f}, "
                "paired)."
            )
    return out


def lanchester_checks(rows: Sequence[AttritionRow]) -> list[Check]:
    return [
        Check(
            "lanchester",
            r.system,
            f"{CONFIG_TITLES[r.config]} {r.n} v {r.m} ({r.scale}): the bigger side wins "
            "more often than not",
            r.passed,
            f"A {r.decisive.text()} of {r.decisive.n} decisive ({r.sample.draws} draws); "
            f"square law {pct(r.square.p_a)}",
        )
        for r in rows
    ]


# ===================================================================== d. 100 v 80
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
                config_text(s, "one_hit", n, m, battle=ATTRITION, large_scale_above=_scale_arg(sc)),
                runs,
                seed_key=f"survivors/{s}/{n}v{m}",
            ),
        )
        for s in systems
        for sc in scales
    ]
    got = runner.run([p for *_, p in plan])
    return [SurvivorRow(s, n, m, sc, got[p.key]) for s, sc, p in plan]


# ===================================================================== e. scale
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
                s, "everyday", n, m, battle=LEADERLESS, large_scale_above=_scale_arg(sc)
            )
            key = f"scale/{s}/{n}v{m}"
            plan[s, sc] = Point(f"{key}/{sc}", text, runs, seed_key=key)
    got = runner.run(list(plan.values()))
    return [
        ContinuityRow(s, n, m, got[plan[s, "large"].key], got[plan[s, "small (forced)"].key])
        for s in systems
    ]


def continuity_checks(rows: Sequence[ContinuityRow]) -> list[Check]:
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


def one_hit_note(system: str) -> str:
    """The one-hit-one-kill fighter's note, with its exact figures filled in."""
    note = ONE_HIT[system].note
    if "{d6_miss}" in note:
        from sim.dice import parse_code
        from sim.rules import d6

        three = parse_code("3D")
        dist = d6.tier_dist(parse_code("12D"), d6.body_code(three, three))
        short = dist.prob(lambda t: t in ("none", "stunned", "wounded"))
        note = note.replace("{d6_miss}", f"{float(short):.5f}")
    return note


# ===================================================================== the whole run
@dataclass(frozen=True)
class Replicates:
    """Battles per point of each study."""

    mirror: int
    monotone: int
    lanchester: int
    survivors: int
    continuity: int
    ratio: int
    shipped: int = 0


# Chosen for the interval each study needs (99% half-widths at p = 0.5) within about 10
# minutes on 2 cores: mirror 1,000 an order: +-4.1 points; a ladder's rung 500: a drop
# between rungs is significant from about 7.4 points; Lanchester 800: +-4.6 points; 100 v 80:
# 200 battles; scale 2,000 an arm, paired: the difference to within about +-4 points, so a
# gap of 5 is seen; ratio 800: +-4.6 points.
FULL = Replicates(
    mirror=1000,
    monotone=500,
    lanchester=800,
    survivors=200,
    continuity=2000,
    ratio=800,
    shipped=600,
)
QUICK = Replicates(
    mirror=200, monotone=100, lanchester=150, survivors=30, continuity=300, ratio=120, shipped=100
)


@dataclass
class Results:
    """Every study's rows, the time each took and the battles fought."""

    reps: Replicates
    systems: tuple[str, ...]
    mirror: list[MirrorRow] = field(default_factory=list)
    monotone: list[LadderResult] = field(default_factory=list)
    lanchester: list[AttritionRow] = field(default_factory=list)
    survivors: list[SurvivorRow] = field(default_factory=list)
    continuity: list[ContinuityRow] = field(default_factory=list)
    ratio: list[AttritionRow] = field(default_factory=list)
    shipped: Any = None  # study f's rows (validity_shipped.StudyF)
    seconds: dict[str, float] = field(default_factory=dict)
    battles: dict[str, int] = field(default_factory=dict)
    workers: int = 1

    def checks(self) -> list[Check]:
        return [
            *mirror_checks(self.mirror),
            *monotone_checks(self.monotone),
            *lanchester_checks(self.lanchester),
            *continuity_checks(self.continuity),
            *ratio_checks(self.ratio),
            *_shipped("shipped_checks")(self.shipped),
        ]


STUDIES: tuple[tuple[str, str, Callable[..., Any]], ...] = (
    ("mirror", "mirror", mirror_study),
    ("monotone", "monotone", monotone_study),
    ("lanchester", "lanchester", lanchester_study),
    ("survivors", "survivors", survivors_study),
    ("continuity", "continuity", continuity_study),
    ("ratio", "ratio", ratio_study),
    (
        "shipped",
        "shipped",
        lambda runner, runs, systems: _shipped("shipped_study")(runner, runs, systems),
    ),
)


def _shipped(name: str) -> Any:
    """Study f's ``name`` (:mod:`benchmarks.validity_shipped`, which imports this module)."""
    from benchmarks import validity_shipped

    return getattr(validity_shipped, name)


def run_all(runner: Runner, reps: Replicates, systems: Sequence[str] = SYSTEMS) -> Results:
    """Every study under ``systems``, timed."""
    res = Results(reps, tuple(systems), workers=runner.workers)
    for name, attr, study in STUDIES:
        start, before = time.perf_counter(), runner.battles
        runner.log(f"{name}: {getattr(reps, attr)} battles a point ...")
        setattr(res, attr, study(runner, getattr(reps, attr), systems))
        res.seconds[name] = time.perf_counter() - start
        res.battles[name] = runner.battles - before
        runner.log(f"{name}: {res.battles[name]} battles in {res.seconds[name]:.1f} s")
    return res


# ===================================================================== the report
def md_table(headers: Sequence[str], rows: Iterable[Sequence[Any]], right: str = "") -> str:
    """A Markdown table; columns whose index is in ``right`` (as digits) align right."""
    align = ["---:" if str(i) in right.split(",") else "---" for i in range(len(headers))]
    lines = ["| " + " | ".join(headers) + " |", "| " + " | ".join(align) + " |"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def _verdict(passed: bool) -> str:
    return "PASS" if passed else "**FAIL**"


def _title(system: str) -> str:
    return SYSTEM_TITLES[system]


def _git_state() -> str:
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no", "sim", "benchmarks"],
            cwd=ROOT,
            capture_output=True,
            text=True,
        ).stdout.strip()
    except OSError:
        return "an unknown commit"
    if not head:
        return "an unknown commit"
    return f"commit `{head}`" + (
        " with uncommitted changes to sim/ or benchmarks/" if dirty else ""
    )


def _minutes(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 90 else f"{seconds / 60:.1f} min"


def summary_rows(res: Results) -> list[list[str]]:
    """Per study and system: invariants passed of those checked."""
    checks = res.checks()
    studies = [
        ("a. mirror", "mirror"),
        ("b. monotone", "monotone"),
        ("c. Lanchester", "lanchester"),
        ("e. scale", "scale"),
        ("f. shipped", "shipped"),
    ]
    rows = []
    for label, study in studies:
        row = [label]
        for s in res.systems:
            mine = [c for c in checks if c.study == study and c.system == s]
            ok = sum(c.passed for c in mine)
            cell = f"{ok}/{len(mine)}"
            row.append(cell + (" PASS" if ok == len(mine) else " **FAIL**") if mine else "-")
        rows.append(row)
    return rows


def render(res: Results, charts: Mapping[str, str], command: str, total: float) -> str:
    """The whole report as Markdown; ``charts`` maps a chart name to its path from the report."""
    checks = res.checks()
    failed = [c for c in checks if not c.passed]
    systems = res.systems
    battles = sum(res.battles.values())
    out: list[str] = []
    add = out.append
    add("# Validation report\n")
    add(
        f"Generated by `{command}` from {_git_state()}: {battles:,} battles in "
        f"{_minutes(total)} on {res.workers} worker process{'es' if res.workers > 1 else ''}. "
        "Every figure, table and chart here comes from that command; do not edit this file, "
        "run it again (see [Re-running](#re-running)).\n"
    )
    add(
        "A researcher who uses the simulator needs to know that its outcomes follow from the "
        "rules and the fighters, not from accidents of the engine. These studies check "
        "stylised facts any sound battle model shows, under each of the four rule systems: "
        "identical sides win equally often; a side made stronger never does worse; the bigger "
        "of two identical sides wins, roughly as Lanchester's laws say; and the large-scale "
        "War Game agrees with the same battle fought man by man. Each check is an invariant "
        "with a verdict. The slow tests (`tests/test_validity.py`) keep the same invariants "
        "with fewer battles, and mark the ones that fail on today's model as expected "
        "failures.\n"
    )
    if res.reps == QUICK:
        add(
            "**A `--quick` run:** few battles, so the intervals are wide and an invariant "
            "judged on a point estimate (the scale study's 5 points) can fail by chance. "
            "Take verdicts from the full run.\n"
        )
    add("## Summary\n")
    add(
        md_table(
            ["study", *(_title(s) for s in systems)],
            summary_rows(res),
        )
    )
    add("")
    add(
        f"**{len(checks) - len(failed)} of {len(checks)} invariants pass.** "
        "Study d (100 v 80) measures and has no invariant."
        + (" The failures:" if failed else "")
        + "\n"
    )
    if failed:
        add(
            md_table(
                ["study", "system", "invariant", "figures"],
                [[c.study, _title(c.system), c.name, c.figures] for c in failed],
            )
        )
        add("")
    add(READING)
    add(_method(res))
    add(_mirror_section(res, charts))
    add(_monotone_section(res, charts))
    add(_lanchester_section(res, charts))
    add(_survivors_section(res))
    add(_scale_section(res, charts))
    if res.shipped:
        add(_shipped("shipped_section")(res.shipped, res.reps.shipped, charts.get("shipped")))
    add(_rerun_section(res, total))
    return "\n".join(out).rstrip() + "\n"


READING = """## Reading the results

- **Large and small scale fight alike by design.** At large scale the factions take turns,
  one member at a time ([rules](rules.md#16-large-scale-factions)): the same individual
  combat as at small scale, where sensible popcorn naming (each side names the enemy's most
  harmless fighter next) interleaves the sides in the same way. What large scale adds needs a
  leader (only leader killing reaches the enemy leader, and a faction that loses its leader
  falters); these study sides name none, and study e fights them without the one large scale
  would name (`battle.faction_leader: none`): so the two scales give the same figures, the
  continuity the invariants ask for. What the seed's leader rules add is study f's. Faction
  pools (`battle: {large_scale: pools}`) are an option: a pool averages away its members'
  armor and HD, so it is never the same battle as at small scale (study f measures how far).
- **The War Game is nearly deterministic between identical unarmored fighters.** A blow needs
  no roll to land and a dodge is a choice, so chance enters only through armor, weapon
  effects, morale and initiative. Whoever acts last in a round can spend every HD while its
  enemies have spent theirs; with both sides naming the enemy next, the bigger side keeps
  the last turn, and it wins every battle: far above both Lanchester laws, however close the
  numbers. One-hit-one-kill fighters (1 HD) trade a dodge for each attack, so the bigger side
  is left with about its surplus (21 of 100 against 80): the linear law's figure, not the
  square law's. Two equal duelists who dodge every wounding blow cannot hurt each other: with
  morale off such a duel is a draw at `max_rounds`; with morale on the quiet-rounds trigger
  ends it.
- **2W2P, Deathwish and D6 land near or above the square law**: every fighter rolls against
  one target each round (aimed fire), and a fighter that takes several hits to fall makes the
  bigger side's advantage grow, as 2W2P's everyday fighters (felled by the third wounding
  blow) show.
"""


def _method(res: Results) -> str:
    lines = ["## Method\n"]
    lines.append(
        "- **Battles.** Every study scenario is built by `scenario_text` in "
        "`benchmarks/validity.py`: side A against side B, each a group of identical fighters "
        "(`count`), the balanced tactic, no leader, no map, `max_rounds: "
        f"{MAX_ROUNDS}` (a battle still going then is a draw). Print any of them with "
        "`python -m benchmarks.validity --scenario SYSTEM CONFIG N M` and fight it with "
        "`sim run`. Unless a study says otherwise the battle rules are the defaults "
        "(morale on, initiative rolled by everyone, large scale above 10 fighters)."
    )
    lines.append(
        "- **Seeds.** Each set of battles has a key (such as `lanchester/d6/one_hit/10v8/large`); "
        f"run `i` of it gets child `i` of `numpy.random.SeedSequence({MASTER_SEED}, "
        "spawn_key=(crc32(key),))`, whatever the number of battles or workers, so the "
        "report is reproducible and the `--quick` run fights the first battles of the full one."
    )
    lines.append(
        "- **Intervals.** Win rates carry 99% Wilson score intervals (`sim.analysis.wilson`). "
        "A drop from one rung of a ladder to the next is significant when the one-sided "
        f"two-proportion z-test (pooled error) exceeds {Z99_ONE_SIDED:.2f} (99%)."
    )
    lines.append(
        "- **Standing** fighters are those still active or fleeing when the battle ends "
        "(the survivors).\n"
    )
    lines.append("The fighters (identical on both sides unless a ladder changes side A):\n")
    rows = []
    for s in res.systems:
        rows.append([_title(s), "everyday", _fields(EVERYDAY[s]), EVERYDAY[s].note])
        rows.append([_title(s), "one hit, one kill", _fields(ONE_HIT[s]), one_hit_note(s)])
    lines.append(md_table(["system", "fighter", "scenario fields", "what it is"], rows))
    lines.append("")
    return "\n".join(lines)


def _fields(kind: Fighters) -> str:
    text = yaml.safe_dump(dict(kind.fields), default_flow_style=True, width=1000).strip()
    if text == "{}":
        text = "(defaults)"
    if kind.options:
        opts = yaml.safe_dump(dict(kind.options), default_flow_style=True, width=1000).strip()
        text += f"; rules.options {opts}"
    return f"`{text}`"


def _mirror_section(res: Results, charts: Mapping[str, str]) -> str:
    lines = ["## a. Mirror symmetry\n"]
    lines.append(
        "**What.** Two identical sides: 3 v 3 everyday fighters, and `scenarios/mirror.yaml` "
        "(three different fighters a side, every one with a twin) fought under each system "
        "(`--set rules.system=...`). Each is fought with side A listed first and again, on "
        "other seeds, with side B listed first.\n\n"
        "**Why.** Nothing but chance may decide between identical sides: not the order the "
        "scenario lists them in, not who is checked first for morale or initiative. "
        "**Invariant:** 50% lies inside the 99% interval of side A's share of the decisive "
        f"battles, in both orders. {res.reps.mirror:,} battles each.\n"
    )
    rows = []
    for r in res.mirror:
        rows.append(
            [
                _title(r.system),
                r.scenario,
                r.first,
                r.sample.runs,
                pct(r.sample.draws / r.sample.runs),
                r.share.text(),
                pct(1 - r.share.p) if r.share.n else "-",
                _verdict(r.passed),
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


def _monotone_section(res: Results, charts: Mapping[str, str]) -> str:
    lines = ["## b. Monotone stylised facts\n"]
    lines.append(
        "**What.** Side A is made stronger one stat at a time, rung by rung (a ladder), "
        "against a fixed side B of 3 everyday fighters; A has 3 fighters of the same kind "
        "except for the stat the ladder changes. The rungs are ordered by the rules: each "
        "rung is at least as strong as the one before in every respect and stronger in one "
        "(the reason is given per ladder).\n\n"
        "**Why.** Under a sound model more of a good thing never hurts. "
        "**Invariant:** no rung's win rate for A is significantly below the rung before "
        f"(one-sided test at 99%). {res.reps.monotone:,} battles per rung. The last column "
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
    rows = []
    for r in res.monotone:
        labels = [label for label, _ in r.ladder.rungs]
        rungs = ", ".join(f"{lab} {pct(s.p, 0)}" for lab, s in zip(labels, r.shares, strict=True))
        worst = max(r.steps) if r.steps else 0.0
        rows.append(
            [
                _title(r.ladder.system),
                r.ladder.name,
                rungs,
                f"{worst:.2f}",
                _verdict(r.passed),
                "yes" if r.rises else "no",
                r.ladder.why,
            ]
        )
    lines.append(
        md_table(
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
    )
    lines.append("")
    lines.append("The intervals of every rung:\n")
    rows = []
    for r in res.monotone:
        for (label, _), sample, share in zip(r.ladder.rungs, r.samples, r.shares, strict=True):
            rows.append(
                [
                    _title(r.ladder.system),
                    r.ladder.name,
                    label,
                    share.text(),
                    pct(sample.draws / sample.runs),
                    f"{sample.mean_rounds:.1f}",
                ]
            )
    lines.append(
        md_table(["system", "ladder", "rung", "A wins [99%]", "draws", "rounds"], rows, right="4,5")
    )
    if "monotone" in charts:
        lines.append(f"\n![A's win rate along every ladder]({charts['monotone']})\n")
    return "\n".join(lines) + "\n"


def _num(x: float) -> str:
    return "-" if math.isnan(x) else f"{x:.2f}"


def _law_text(x: Any) -> str:
    return f"{100 * float(x):.1f}%"


def _lanchester_section(res: Results, charts: Mapping[str, str]) -> str:
    lines = ["## c. Lanchester scaling\n"]
    lines.append(
        "**What.** N v M identical fighters for (2, 1), (4, 3), (10, 8), (20, 16), everyday and "
        "one-hit-one-kill (see Method), with **morale off** (`battle: {morale: none}`) and "
        "**one initiative die per side** (`battle: {initiative: sides}`), so that only "
        "attrition decides and the bigger side does not also buy the first move with its "
        "head count. 10 v 8 and 20 v 16 are large scale under the default threshold; they "
        "are also fought forced small (`large_scale_above: 100000`).\n\n"
        "**The laws.** Brown's stochastic Lanchester laws, computed exactly by a dynamic "
        "program over the states (a, b) (`lanchester` in `benchmarks/validity.py`): under the "
        "**square law** (aimed fire: every fighter fires at the same rate) the next casualty "
        "falls on B with probability a / (a + b); under the **linear law** (casualties from "
        "one-on-one encounters) with probability 1/2. Checks the code reproduces: square law "
        "P(2 beats 1) = 5/6, P(10 beats 8) = 0.7914; linear law P(10 beats 8) = 0.68547. A "
        "battle model need not follow either law exactly (turns, simultaneous volleys, "
        "dodging and wounds that take several hits all move it), but it should land near "
        "them and rise with the numbers as they do.\n\n"
        "**Invariant:** the bigger side wins more often than the smaller: the 99% interval "
        "of its share of the decisive battles lies above 50%. "
        f"{res.reps.lanchester:,} battles each. *Laws* says which law lies inside the "
        "interval of A's win rate (or where the rate falls).\n"
    )
    rows = []
    for r in res.lanchester:
        rows.append(
            [
                _title(r.system),
                CONFIG_TITLES[r.config],
                f"{r.n} v {r.m}",
                r.scale,
                r.wins.text(),
                pct(r.sample.draws / r.sample.runs),
                _law_text(r.square.p_a),
                _law_text(r.linear.p_a),
                r.nearest,
                _num(r.sample.winner_survivors()),
                f"{float(r.square.mean_winner):.2f}",
                f"{float(r.linear.mean_winner):.2f}",
                f"{r.sample.mean_rounds:.1f}",
                _verdict(r.passed),
            ]
        )
    lines.append(
        md_table(
            [
                "system",
                "fighters",
                "battle",
                "scale",
                "A wins [99%]",
                "draws",
                "square",
                "linear",
                "laws",
                "winner's survivors",
                "square",
                "linear",
                "rounds",
                "verdict",
            ],
            rows,
            right="5,6,7,9,10,11,12",
        )
    )
    lines.append(
        "\n*Winner's survivors*: the mean fighters the winner still has standing, over the "
        "decisive battles, beside each law's expectation.\n"
    )
    gaps = scale_gaps(res.lanchester)
    lines.append(
        "Large scale against forced small (the same seeds): "
        + (
            "sizes where the bigger side's win rate differs by more than 5 points (paired "
            "99% interval clear of 0):\n\n" + "\n".join(f"- {g}" for g in gaps) + "\n"
            if gaps
            else "no size differs by more than 5 points with a paired 99% interval clear of 0.\n"
        )
    )
    if "lanchester" in charts:
        lines.append(
            f"![The bigger side's win rate against the square and linear laws]"
            f"({charts['lanchester']})\n"
        )
    return "\n".join(lines) + "\n"


def _survivors_section(res: Results) -> str:
    if not res.survivors:
        return ""
    n, m = res.survivors[0].n, res.survivors[0].m
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
        f"attrition is from aimed fire. {res.reps.survivors:,} battles each; survivors count "
        "0 in a battle the bigger side did not win.\n"
    )
    rows = []
    for r in res.survivors:
        rows.append(
            [
                _title(r.system),
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


def _scale_section(res: Results, charts: Mapping[str, str]) -> str:
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
        f"10 v 8. {res.reps.continuity:,} battles an arm; "
        f"{res.reps.ratio:,} per size.\n"
    )
    rows = []
    for r in res.continuity:
        lo, hi = r.diff_interval
        rows.append(
            [
                _title(r.system),
                f"{r.n} v {r.m}",
                r.wins_large.text(),
                r.wins_small.text(),
                f"{100 * r.diff:+.1f} ({100 * lo:+.1f} to {100 * hi:+.1f})",
                _verdict(r.wins_pass),
                f"{pct(r.large.draws / r.large.runs)} / {pct(r.small.draws / r.small.runs)}",
                f"{r.large.mean_rounds:.2f} / {r.small.mean_rounds:.2f}",
                f"x{r.length_ratio:.2f}",
                _verdict(r.length_pass),
            ]
        )
    lines.append(
        md_table(
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
    )
    lines.append("")
    rows = []
    for a in res.ratio:
        rows.append(
            [
                _title(a.system),
                f"{a.n} v {a.m}",
                f"{a.n / a.m:.2f}",
                a.wins.text(),
                pct(a.sample.draws / a.sample.runs),
                a.decisive.text(),
                f"{a.sample.mean_rounds:.1f}",
                _verdict(a.passed),
            ]
        )
    lines.append(
        md_table(
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
    )
    lines.append("")
    trend = [c for c in ratio_checks(res.ratio) if "ratio" in c.name or "20 v 16 not" in c.name]
    if trend:
        lines.append(
            md_table(
                ["system", "invariant", "figures", "verdict"],
                [[_title(c.system), c.name, c.figures, _verdict(c.passed)] for c in trend],
            )
        )
    if "scale" in charts:
        lines.append(
            f"\n![Large against small scale, and the ratio at large scale]({charts['scale']})\n"
        )
    return "\n".join(lines) + "\n"


def _rerun_section(res: Results, total: float) -> str:
    lines = ["## Re-running\n"]
    lines.append(
        "From the repository root (after `pip install -e .`):\n\n"
        "```sh\n"
        "python -m benchmarks.validity            # this report and docs/validation/*.png\n"
        "python -m benchmarks.validity --quick    # fewer battles: results/validation-quick.md\n"
        "python -m benchmarks.validity --scenario d6 one_hit 10 8   # print a study scenario\n"
        "python -m pytest -m slow tests/test_validity.py            # the invariants as tests\n"
        "```\n\n"
        "`--workers N` sets the worker processes (default 2); the figures do not depend on it. "
        "`--strict` exits with status 1 when an invariant fails.\n"
    )
    rows = []
    for name, attr, _ in STUDIES:
        rows.append(
            [
                name,
                f"{getattr(res.reps, attr):,}",
                f"{res.battles.get(name, 0):,}",
                _minutes(res.seconds.get(name, 0.0)),
            ]
        )
    rows.append(["all", "", f"{sum(res.battles.values()):,}", _minutes(total)])
    lines.append(md_table(["study", "battles per point", "battles", "time"], rows, right="1,2,3"))
    lines.append(
        "\nBattles per point were chosen from the interval each study needs (99% half-widths "
        "at 50%), within about 10 minutes on 2 cores: mirror ±4.1 points; a ladder's rungs "
        "detect a drop of about 7.4 points; Lanchester ±4.6; scale: the paired difference to "
        "about ±4 points, or exactly 0 where the scale changes nothing; ratio ±4.6; shipped: "
        "the issue's 600 battles an arm (a paired difference to about ±5 points). Times "
        "are wall clock with the workers above, on whatever else the machine was doing.\n"
    )
    return "\n".join(lines)


# ===================================================================== charts
def _errorbar(ax: Any, x: Any, shares: Sequence[Share], **kw: Any) -> None:
    p = np.array([s.p for s in shares])
    lo = np.array([s.lo for s in shares])
    hi = np.array([s.hi for s in shares])
    ax.errorbar(x, 100 * p, yerr=[100 * (p - lo), 100 * (hi - p)], capsize=3, **kw)


def draw_charts(res: Results, folder: Path) -> dict[str, Path]:
    """The PNG charts of every study that ran, in ``folder``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    folder.mkdir(parents=True, exist_ok=True)
    made: dict[str, Path] = {}
    meta = {"Software": None}  # no version stamp: the same figures give the same files

    def save(fig: Any, name: str) -> None:
        path = folder / f"{name}.png"
        fig.savefig(path, dpi=90, bbox_inches="tight", metadata=meta)
        plt.close(fig)
        made[name] = path

    if res.mirror:
        fig, ax = plt.subplots(figsize=(12, 3.8))
        labels = [
            f"{_title(r.system)}\n{r.scenario.removesuffix('.yaml')}\n{r.first} first"
            for r in res.mirror
        ]
        x = np.arange(len(res.mirror))
        _errorbar(ax, x, [r.share for r in res.mirror], fmt="o", color="tab:blue")
        ax.axhline(50, color="grey", lw=1, ls="--")
        ax.set_xticks(x, labels, fontsize=7)
        ax.set_ylabel("A's share of decisive battles (%)")
        ax.set_title("a. Mirror: identical sides, both orders (99% Wilson intervals)")
        save(fig, "mirror")

    if res.monotone:
        by_system: dict[str, list[LadderResult]] = {}
        for r in res.monotone:
            by_system.setdefault(r.ladder.system, []).append(r)
        ncols = max(len(v) for v in by_system.values())
        fig, axes = plt.subplots(
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
                _errorbar(ax, np.arange(len(labels)), r.shares, fmt="o-", color=color)
                ax.set_xticks(np.arange(len(labels)), labels, fontsize=6, rotation=35)
                ax.set_ylim(-3, 103)
                ax.set_title(f"{_title(system)}: {r.ladder.name}", fontsize=8)
                ax.tick_params(axis="y", labelsize=7)
        fig.suptitle("b. A's win rate (%) along each ladder, 99% intervals (red: a drop)")
        fig.tight_layout()
        save(fig, "monotone")

    if res.lanchester:
        configs = list(dict.fromkeys(r.config for r in res.lanchester))
        systems = list(dict.fromkeys(r.system for r in res.lanchester))
        sizes = list(dict.fromkeys((r.n, r.m) for r in res.lanchester))
        fig, axes = plt.subplots(
            len(configs),
            len(systems),
            figsize=(3.2 * len(systems), 3.0 * len(configs)),
            squeeze=False,
            sharey=True,
        )
        x = np.arange(len(sizes))
        square = [100 * lanchester(n, m, "square").p_a for n, m in sizes]
        linear = [100 * lanchester(n, m, "linear").p_a for n, m in sizes]
        for i, c in enumerate(configs):
            for j, s in enumerate(systems):
                ax = axes[i][j]
                ax.plot(x, square, "k-", lw=1, label="square law")
                ax.plot(x, linear, "k--", lw=1, label="linear law")
                rows = [r for r in res.lanchester if r.config == c and r.system == s]
                default = [r for r in rows if not r.scale.startswith("small (")]
                forced = [r for r in rows if r.scale.startswith("small (")]
                _errorbar(
                    ax,
                    [sizes.index((r.n, r.m)) - 0.05 for r in default],
                    [r.wins for r in default],
                    fmt="o",
                    color="tab:blue",
                    label="default scale",
                )
                if forced:
                    _errorbar(
                        ax,
                        [sizes.index((r.n, r.m)) + 0.05 for r in forced],
                        [r.wins for r in forced],
                        fmt="s",
                        color="tab:orange",
                        label="forced small",
                    )
                ax.set_xticks(x, [f"{n} v {m}" for n, m in sizes], fontsize=7)
                ax.set_ylim(-3, 103)
                ax.set_title(f"{_title(s)}, {CONFIG_TITLES[c]}", fontsize=8)
                if j == 0:
                    ax.set_ylabel("bigger side wins (%)")
        axes[0][0].legend(fontsize=6, loc="lower left")
        fig.suptitle("c. Lanchester: the bigger side's win rate (morale off), 99% intervals")
        fig.tight_layout()
        save(fig, "lanchester")

    if res.continuity or res.ratio:
        fig, (left, right) = plt.subplots(1, 2, figsize=(11, 3.6))
        if res.continuity:
            x = np.arange(len(res.continuity))
            _errorbar(
                left,
                x - 0.1,
                [r.wins_large for r in res.continuity],
                fmt="o",
                color="tab:blue",
                label="large scale",
            )
            _errorbar(
                left,
                x + 0.1,
                [r.wins_small for r in res.continuity],
                fmt="s",
                color="tab:orange",
                label="forced small",
            )
            left.set_xticks(x, [_title(r.system) for r in res.continuity], fontsize=8)
            n, m = res.continuity[0].n, res.continuity[0].m
            left.set_title(f"{n} v {m}: A's win rate at both scales", fontsize=9)
            left.set_ylabel("A wins (%)")
            left.set_ylim(-3, 103)
            left.legend(fontsize=7)
        if res.ratio:
            sizes = list(dict.fromkeys((r.n, r.m) for r in res.ratio))
            x = np.arange(len(sizes))
            for k, s in enumerate(dict.fromkeys(r.system for r in res.ratio)):
                rows = [r for r in res.ratio if r.system == s]
                _errorbar(
                    right,
                    [sizes.index((r.n, r.m)) + 0.06 * (k - 1.5) for r in rows],
                    [r.wins for r in rows],
                    fmt="o-",
                    label=_title(s),
                )
            right.set_xticks(x, [f"{n} v {m}" for n, m in sizes], fontsize=8)
            right.set_title("large scale: the bigger side's win rate", fontsize=9)
            right.set_ylim(-3, 103)
            right.legend(fontsize=7)
        fig.suptitle("e. Small and large scale (default battle rules), 99% intervals")
        fig.tight_layout()
        save(fig, "scale")
    shipped = _shipped("draw_shipped")(res.shipped, folder)
    if shipped is not None:
        made["shipped"] = shipped
    return made


# ===================================================================== command line
def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.validity",
        description="Run the validation studies and write the validation report.",
    )
    parser.add_argument("--quick", action="store_true", help="fewer battles (a smoke run)")
    parser.add_argument(
        "--out",
        type=Path,
        help="the report (default docs/validation.md; with --quick results/validation-quick.md); "
        "its charts go in a folder of the same name beside it",
    )
    parser.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument(
        "--systems", nargs="+", choices=SYSTEMS, default=list(SYSTEMS), help="rule systems"
    )
    parser.add_argument(
        "--strict", action="store_true", help="exit with status 1 when an invariant fails"
    )
    parser.add_argument(
        "--scenario",
        nargs=4,
        metavar=("SYSTEM", "CONFIG", "N", "M"),
        help="print the study scenario of N v M fighters (CONFIG: everyday or one_hit) and exit",
    )
    args = parser.parse_args(argv)
    if args.scenario:
        system, config, n, m = args.scenario
        if system not in SYSTEMS or config not in CONFIGS:
            parser.error(
                f"SYSTEM is one of {', '.join(SYSTEMS)}; CONFIG one of {', '.join(CONFIGS)}"
            )
        print(config_text(system, config, int(n), int(m)), end="")
        return 0
    out: Path = args.out or (
        ROOT / "results" / "validation-quick.md" if args.quick else ROOT / "docs" / "validation.md"
    )
    reps = QUICK if args.quick else FULL
    command = "python -m benchmarks.validity" + (" --quick" if args.quick else "")
    if args.systems != list(SYSTEMS):
        command += " --systems " + " ".join(args.systems)

    def log(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    start = time.perf_counter()
    with Runner(args.workers, log=log) as runner:
        res = run_all(runner, reps, args.systems)
    charts = draw_charts(res, out.parent / out.stem)
    total = time.perf_counter() - start
    rel = {k: os.path.relpath(v, out.parent).replace(os.sep, "/") for k, v in charts.items()}
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(f".{out.name}.tmp")
    tmp.write_text(render(res, rel, command, total), encoding="utf-8")
    tmp.replace(out)
    checks = res.checks()
    failed = [c for c in checks if not c.passed]
    for c in failed:
        print(f"FAIL {c.study} {c.system}: {c.name}: {c.figures}")
    print(
        f"{len(checks) - len(failed)} of {len(checks)} invariants pass; "
        f"{sum(res.battles.values()):,} battles in {_minutes(total)}; report: {out}"
    )
    return 1 if args.strict and failed else 0


if __name__ == "__main__":
    sys.exit(main())
