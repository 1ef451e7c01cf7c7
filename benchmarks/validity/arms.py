"""The shipped scenarios' arms: each rule large scale adds, switched off in turn (issue 30).

Study f (:mod:`benchmarks.validity.studies.shipped`) fights every scenario in ``scenarios/``
with more than 10 fighters (reinforcements included) at its default scale, with small scale
forced (``large_scale_above: 100000``), with each rule large scale adds switched off on its
own (``docs/rules.md`` 1.7: the leaders' roll, the rank and file, the fallen leader's 1 HD,
the leader named where none is, leader killing, faction pools) and with all of them off.
This module says which scenarios and arms that is (:func:`shipped_scenarios`,
:func:`arms_for`), fights an arm's battles (:func:`fight_arm`) and writes the experiment
files that reproduce them (:func:`write_experiments`; ``python -m benchmarks.validity
--experiments``).

Every arm of a scenario fights the same seeds: replicate ``r`` gets
``SeedSequence(99, spawn_key=(r,))``, the seed a sweep with ``seed: 99`` and ``seeds:
shared`` gives it, so ``sim sweep experiments/large_scale_<scenario>.yaml`` reproduces the
study's battles, and the differences between arms are paired.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.validity.base import FORCE_SMALL, ROOT

SCENARIOS = ROOT / "scenarios"
SEED = 99  # the seed: every arm's replicate r fights SeedSequence(99, spawn_key=(r,))
REPLICATES = 600  # the issue's battles an arm, and the experiment files'


@dataclass(frozen=True)
class Arm:
    """One way to fight a scenario: ``sets`` are ``--set`` overrides on top of its file.

    ``seed_rule``: the arm switches off a rule of the seed's large scale (rules.md 1.7); the
    ``all_off`` arm switches off every one of them.
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
    """Replicates ``start..stop-1`` of one arm, a row each.

    Columns: winner (side index + 1, 0 a draw), rounds, mutual rout (1/0), max_rounds (1/0).
    """
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


# ===================================================================== experiment files
def experiment_text(path: Path, replicates: int = REPLICATES) -> str:
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
    rules = "; ".join(a.label for a in arms if a.seed_rule)
    about = (
        f"Large scale on {path.name} (issue 30): its default (point 'default') against small "
        "scale forced ('small'), each rule large scale adds switched off on its own, and all "
        f"of them together ('all_off'), every point with the same {replicates} seeds (seeds: "
        "shared), so sim analyze gives each point's paired difference from the default. The "
        f"arms that switch a seed rule off: {rules or 'none'}; 'popcorn' fights large scale "
        "in the small scale's turn order. Written by benchmarks/validity/arms.py (python -m "
        "benchmarks.validity --experiments); the validation report's study f fights the same "
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


def experiment_files(folder: Path = ROOT / "experiments") -> dict[Path, str]:
    """Every shipped scenario's experiment file (those with rules to switch off), by path."""
    from sim.scenario import load_scenario

    return {
        folder / f"large_scale_{path.stem}.yaml": experiment_text(path)
        for path in shipped_scenarios()
        if len(arms_for(load_scenario(path))) > 2
    }


def write_experiments(folder: Path = ROOT / "experiments") -> list[Path]:
    """Write :func:`experiment_files` into ``folder``, each whole (a temporary file renamed)."""
    out = []
    for target, text in experiment_files(folder).items():
        tmp = target.with_name(f".{target.name}.tmp")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(target)
        out.append(target)
    return out
