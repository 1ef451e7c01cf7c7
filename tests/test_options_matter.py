"""Every option changes something: each option, each value, a scenario whose outcomes it moves.

``PROBES`` maps every option of the catalogue (``sim options``, keyed ``group.name``) to one
or more :class:`Probe`: a small scenario in which the option matters, and the values to try
(every other choice, the other boolean, one or two numbers that matter). Each value is
fought over a fixed set of seeds beside the default, and the two distributions of *outcome
summaries* must differ. A summary is what a researcher sees of a run (:func:`summary`): the
``runs`` row (winner, end reason, rounds, each side's counts by status, wounds dealt, HD
lost), each fighter's final state, and the ``aftermath`` and ``campaign`` tables' rows;
never the event log.

"Differ" is a paired permutation test, not a comparison of rows. An option that only changes
how many numbers are drawn (an extra die that nobody looks at) changes every battle after
the draw, so the summaries are never equal seed for seed, yet their distribution is the
same. Both arms run the same seeds; the statistic is the largest standardised sum, over the
summary's columns (categories one-hot), of the per-seed differences, and its p-value comes
from swapping the two runs of each seed at random. A value passes at ``ALPHA`` or below.
:func:`test_the_check_is_not_fooled_by_an_extra_draw` holds the test to that: a scenario
fought with one number drawn and thrown away before the battle does not pass.

:func:`test_the_probes_cover_exactly_the_catalogue` fails when an option has no probe (a new
option needs one) or a probe's option is gone (a removed option leaves the registry).
``NOT_WIRED`` lists the options the code never reads where the seeds need them; their cases
are strict xfails, so wiring one in makes its case pass and the suite say so.

The permutation tests (about 35 CPU seconds, 221 cases) are slow statistical checks: the
quick loop leaves them to the whole suite; the catalogue's checks stay in it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np
import pytest
import yaml

from sim.cli.catalogue import option_rows
from sim.run.core import Fought, fight
from sim.scenario import Scenario, parse_scenario

SEEDS = 40
"""Seeds 0..SEEDS-1 for each arm, unless a probe asks for more."""
ALPHA = 0.01
"""A value changes the outcomes if the permutation test's p-value is at most this."""
PERMUTATIONS = 1999
"""Random swaps of the paired runs (so the smallest p-value is 1/2000)."""


@dataclass(frozen=True)
class Probe:
    """A scenario in which an option matters, and the values to try against its default.

    ``seeds``: runs per arm. ``sides``: for a tactic parameter, the sides whose tactic takes
    the value (default: every side). ``focus``: compare only the summary's columns whose
    names start with one of these (default: all), where the option shows and the rest of
    the summary only adds noise.
    """

    scenario: str
    values: tuple[Any, ...]
    seeds: int = SEEDS
    sides: tuple[str, ...] = ()
    focus: tuple[str, ...] = ()


BLUE = ("blue.",)
"""Focus: blue's counts by status, wounds and HD lost."""
RED = ("red.",)
"""Focus: red's counts by status, wounds and HD lost."""
AFTER = ("aftermath",)
"""Focus: the aftermath's rows."""
CAMPAIGN = ("campaign",)
"""Focus: the campaign's rows."""


# --------------------------------------------------------------------------------------------
# Where each group's options go in a scenario

_PATHS = {
    "2w2p": "rules.options",
    "deathwish": "rules.options",
    "d6": "rules.options",
    "battle": "battle",
    "2w2p-aftermath": "aftermath.options",
    "deathwish-aftermath": "aftermath.options",
    "d6-aftermath": "aftermath.options",
    "camp": "aftermath.camp",
    "campaign": "campaign.options",
}


def _system(doc: Mapping[str, Any]) -> str:
    rules = doc.get("rules", "wargame")
    return str(rules.get("system", "wargame") if isinstance(rules, dict) else rules)


def option_paths(key: str, probe: Probe) -> list[str]:
    """The dotted paths that set option ``key`` (``group.name``) in ``probe``'s scenario.

    War Game options go in ``rules.options`` under ``wargame`` and in ``frame`` under the
    other systems; a tactic parameter goes in the tactic of each of the probe's sides.
    """
    group, name = key.split(".", 1)
    doc = yaml.safe_load(probe.scenario)
    if group == "tactic":
        return [f"sides.{s}.tactic.params.{name}" for s in probe.sides or tuple(doc["sides"])]
    if group == "wargame":
        return [f"{'rules.options' if _system(doc) == 'wargame' else 'frame'}.{name}"]
    return [f"{_PATHS[group]}.{name}"]


def overrides(key: str, probe: Probe, value: Any) -> list[str]:
    """The ``--set`` overrides that give option ``key`` the value ``value`` in ``probe``."""
    return [f"{path}={json.dumps(value)}" for path in option_paths(key, probe)]


# --------------------------------------------------------------------------------------------
# Outcome summaries and the paired test


def summary(got: Fought) -> dict[str, Any]:
    """What a researcher sees of one run, flat: the ``runs`` row, the fighters' final state,
    the aftermath's rows (per patient and day, and counted per side and day) and the
    campaign's rows."""
    out = got.battle.outcome()
    s: dict[str, Any] = {
        "winner": out.winner,
        "end_reason": out.end_reason,
        "rounds": out.rounds,
        "scale_switches": out.scale_switches,
    }
    for side, counts in out.sides.items():
        for k, v in counts.items():
            s[f"{side}.{k}"] = v
    for row in got.battle.fighter_rows():
        for k in ("status", "hd_end", "armor_end", "wounds_taken", "wounds_dealt", "conditions"):
            s[f"{row['name']}.{k}"] = row[k]
    for row in got.aftermath:
        day = f"aftermath{row['battle']}.day{row['day']}"
        me, side = f"{day}.{row['name']}", f"{day}.{row['side']}"
        for k in ("status", "dice", "hd", "condition", "infections", "infections_known"):
            s[f"{me}.{k}"] = row[k]
        s[f"{me}.treated_by"] = len(row["treated_by"])
        wounds: dict[str, int] = {}
        for w in row["wounds"]:
            kind = f"wounds.{w['kind']}"
            for k, n in (
                (w["state"], 1),
                ("advances", w["advances"]),
                *((flag, int(w[flag])) for flag in WOUND_FLAGS),
            ):
                wounds[f"{kind}.{k}"] = wounds.get(f"{kind}.{k}", 0) + n
        for k, n in (*wounds.items(), (row["status"], 1)):
            s[f"{side}.{k}"] = s.get(f"{side}.{k}", 0) + n
        s.update({f"{me}.{k}": n for k, n in wounds.items()})
    for row in got.campaign:
        at = f"campaign{row['battle']}"
        s[f"{at}.winner"] = row["winner"]
        for k in ("fought", "status", "fit", "fights_after", "wounding", "felling", "hd"):
            s[f"{at}.{row['name']}.{k}"] = row[k]
        s[f"{at}.{row['name']}.dw_wounds"] = len(row["dw_wounds"])
        s[f"{at}.{row['name']}.condition"] = row["condition"]
    return s


WOUND_FLAGS = ("needs_reset", "reset_known", "infected", "infection_known")
"""Flags of an aftermath row's wounds, counted by kind in :func:`summary`."""


def _columns(runs: list[Mapping[str, Any]], focus: tuple[str, ...] = ()) -> np.ndarray:
    """The summaries as standardised columns, constant ones dropped.

    Numbers stay numbers (a count a summary does not have is 0); anything else is one 0/1
    column per value. ``focus``: only the keys that start with one of these prefixes.
    """
    keys = sorted({k for r in runs for k in r if not focus or k.startswith(focus)})
    cols: list[list[float]] = []
    for key in keys:
        values = [r.get(key) for r in runs]
        if all(
            isinstance(v, int | float) and not isinstance(v, bool) for v in values if v is not None
        ):
            cols.append([float(v or 0) for v in values])
        else:
            seen = sorted({repr(v) for v in values})
            cols += [[float(repr(v) == c) for v in values] for c in seen]
    x = np.array(cols, dtype=float).T.reshape(len(runs), -1)
    sd = x.std(axis=0)
    keep = sd > 1e-12
    return x[:, keep] / sd[keep]


@cache
def _swaps(n: int) -> np.ndarray:
    return np.random.default_rng(20261130).choice([-1.0, 1.0], size=(PERMUTATIONS, n))


def p_value(
    a: list[Mapping[str, Any]], b: list[Mapping[str, Any]], focus: tuple[str, ...] = ()
) -> float:
    """Paired permutation p-value of "``a`` and ``b`` come from one distribution".

    ``a[i]`` and ``b[i]`` are the summaries of runs with the same seed. The statistic is the
    largest absolute sum over the seeds of ``b[i] - a[i]`` in a standardised column; each
    permutation swaps the two runs of every seed with chance 1/2. 1.0 when every pair is the
    same.
    """
    n = len(a)
    assert len(b) == n
    x = _columns([*a, *b], focus)
    d = x[n:] - x[:n]
    if not d.any():
        return 1.0
    observed = np.abs(d.sum(axis=0)).max()
    stats = np.abs(_swaps(n) @ d).max(axis=1)
    return float((1 + np.count_nonzero(stats >= observed - 1e-9)) / (1 + len(stats)))


def runs(sc: Scenario, seeds: Iterable[int], *, extra_draw: bool = False) -> list[dict[str, Any]]:
    """The summaries of ``sc`` fought with each seed (``extra_draw``: one number drawn and
    thrown away first)."""
    out = []
    for seed in seeds:
        rng = np.random.default_rng(seed)
        if extra_draw:
            rng.random()
        out.append(summary(fight(sc, rng=rng)))
    return out


_DEFAULTS: dict[str, list[dict[str, Any]]] = {}


def _default_runs(scenario: str, seeds: int) -> list[dict[str, Any]]:
    """The summaries of ``scenario`` as it is, seeds 0..seeds-1 (fought once per module)."""
    done = _DEFAULTS.setdefault(scenario, [])
    if len(done) < seeds:
        done += runs(parse_scenario(scenario, "<probe>"), range(len(done), seeds))
    return done[:seeds]


def option_p_value(key: str, probe: Probe, value: Any) -> float:
    """p-value of "``key`` = ``value`` leaves ``probe``'s outcomes as they are"."""
    sc = parse_scenario(probe.scenario, "<probe>", overrides(key, probe, value))
    changed = runs(sc, range(probe.seeds))
    return p_value(_default_runs(probe.scenario, probe.seeds), changed, probe.focus)


# --------------------------------------------------------------------------------------------
# Probe scenarios: small, fast, and built so that their option matters

# War Game
NO_DODGE = "{name: balanced, params: {dodge: never, mighty: never}}"


def classic(text: str) -> str:
    """``text`` with every side playing the default tactic of before issue 14: naming an ally
    next, keeping its reserve all round, mighty on armored targets (a preset's own mighty and
    any parameter the scenario sets stay). Where a probe needs those habits to show its
    option."""
    doc = yaml.safe_load(text)
    for side in doc["sides"].values():
        tactic = side.get("tactic", "balanced")
        if isinstance(tactic, str):
            tactic = {"name": tactic}
        params = dict(tactic.get("params") or {})
        params.setdefault("name_next", "ally_first")
        params.setdefault("all_in_last", False)
        if tactic.get("name", "balanced") == "balanced":
            params.setdefault("mighty", "armored")
        side["tactic"] = {**tactic, "params": params}
    return yaml.safe_dump(doc, sort_keys=False)


WG_MELEE = """
rules: wargame
max_rounds: 30
sides:
  red:
    fighters:
      - {name: R1, hit_dice: 5, armor: [chain], weapon: axe}
      - {name: R2, hit_dice: 4, armor: [gambeson], weapon: axe}
  blue:
    fighters:
      - {name: B1, hit_dice: 5, armor: [lamellar], weapon: axe}
      - {name: B2, hit_dice: 4, armor: [gambeson], weapon: axe}
"""

# the same melee where an item may block a blow (ten items each, the default inventory)
WG_BLOCKS = WG_MELEE.replace(
    "rules: wargame\n", "rules:\n  system: wargame\n  options: {inventory_block: true}\n"
)

# six-HD axemen without armor: what they keep back for dodging decides every exchange
WG_RESERVE = """
rules: wargame
max_rounds: 30
sides:
  red:
    fighters:
      - {name: R, count: 2, hit_dice: 6, weapon: axe}
  blue:
    fighters:
      - {name: B, count: 2, hit_dice: 6, weapon: axe}
"""

# the same melee, every side declaring mighty attacks on armored targets
WG_MELEE_ARMORED = WG_MELEE.replace(
    "  red:\n", "  red:\n    tactic: {name: balanced, params: {mighty: armored}}\n"
).replace("  blue:\n", "  blue:\n    tactic: {name: balanced, params: {mighty: armored}}\n")

WG_AGGRESSIVE = WG_MELEE.replace("  red:\n", "  red:\n    tactic: aggressive\n").replace(
    "  blue:\n", "  blue:\n    tactic: aggressive\n"
)

# two axemen against a knight whose armor holds anything but a big blow
WG_KNIGHT = f"""
rules: wargame
max_rounds: 30
sides:
  red:
    tactic: {NO_DODGE}
    fighters:
      - {{name: R1, hit_dice: 6, weapon: axe}}
      - {{name: R2, hit_dice: 6, weapon: axe}}
  blue:
    tactic: {NO_DODGE}
    fighters:
      - {{name: B1, hit_dice: 8, armor: [plate], shield: large, weapon: axe}}
"""

WG_LEADERS = """
rules: wargame
max_rounds: 30
sides:
  red:
    leader: R1
    fighters:
      - {name: R1, hit_dice: 5, armor: [chain], weapon: axe}
      - {name: R2, hit_dice: 3, armor: [gambeson], weapon: axe}
      - {name: R3, hit_dice: 4, weapon: spear}
  blue:
    leader: B1
    fighters:
      - {name: B1, hit_dice: 5, armor: [lamellar], weapon: axe}
      - {name: B2, hit_dice: 3, armor: [gambeson], weapon: axe}
      - {name: B3, hit_dice: 4, weapon: spear}
"""

# four a side with leaders in gambeson: one side routs, and its fleeing may be pursued
WG_ROUT = """
rules: wargame
max_rounds: 30
sides:
  red:
    leader: R 1
    fighters:
      - {name: R, count: 4, hit_dice: 4, armor: [gambeson], weapon: plain}
  blue:
    leader: B 1
    fighters:
      - {name: B, count: 4, hit_dice: 4, armor: [gambeson], weapon: plain}
"""

# the same, a side broken by a morale check withdrawing in order (battle.withdraw: broken)
WG_WITHDRAW = WG_ROUT.replace("max_rounds: 30", "max_rounds: 30\nbattle: {withdraw: broken}")

# six a side at small scale: half out, then more out, so morale triggers can fire again
WG_SIX = """
rules: {system: wargame, options: {large_scale_above: 100}}
max_rounds: 30
sides:
  red:
    leader: r 1
    fighters:
      - {name: r, count: 6, hit_dice: 4, weapon: axe}
  blue:
    leader: b 1
    fighters:
      - {name: b, count: 6, hit_dice: 4, weapon: axe}
"""

WG_MAULS = """
rules: wargame
max_rounds: 30
sides:
  red:
    fighters:
      - {name: R1, hit_dice: 6, weapon: maul}
      - {name: R2, hit_dice: 6, weapon: maul}
  blue:
    fighters:
      - {name: B1, hit_dice: 6, weapon: maul}
      - {name: B2, hit_dice: 6, weapon: maul}
"""

# every maul wound breaks bones
WG_BROKEN_BONES = WG_MAULS.replace(
    "rules: wargame", "rules: {system: wargame, options: {wound_types: by_kind}}"
)

# a duel next to a fire: whoever is pushed in burns until it puts the fire out
WG_FIRE = """
rules: wargame
max_rounds: 30
factors:
  - {hazard: fire}
sides:
  red:
    tactic: {name: balanced, params: {reserve: 0, dodge: never}}
    fighters:
      - {name: R, hit_dice: 10, armor: [plate]}
  blue:
    tactic: {name: balanced, params: {reserve: 0, dodge: never}}
    fighters:
      - {name: B, hit_dice: 10, armor: [plate]}
"""

# a duel next to a storm: a push costs the loser 2 HD right after it spent 1 resisting
# (only attacks may be survived for 1 HD, so the storm's wound is always taken)
WG_STORM_DUEL = """
rules:
  system: wargame
  options: {survive: attacks}
max_rounds: 30
factors:
  - {hazard: storm}
sides:
  red:
    fighters:
      - {name: R, hit_dice: 8}
  blue:
    fighters:
      - {name: B, hit_dice: 8}
"""

WG_BOWS = """
rules: wargame
max_rounds: 30
sides:
  red:
    fighters:
      - {name: R1, hit_dice: 5, armor: [gambeson], weapon: warbow}
      - {name: R2, hit_dice: 5, armor: [gambeson], weapon: warbow}
  blue:
    fighters:
      - {name: B1, hit_dice: 5, armor: [gambeson], weapon: axe}
      - {name: B2, hit_dice: 5, armor: [gambeson], weapon: axe}
"""

WG_BOWS_NO_DODGE = WG_BOWS.replace("  blue:\n", f"  blue:\n    tactic: {NO_DODGE}\n")

# mounted lancers against shielded foot that never dodges: a max-damage blow skewers
WG_LANCES = f"""
rules: wargame
max_rounds: 30
sides:
  riders:
    tactic: {NO_DODGE}
    fighters:
      - {{name: R1, hit_dice: 6, weapon: lance, mounted: true}}
      - {{name: R2, hit_dice: 6, weapon: lance, mounted: true}}
  foot:
    tactic: {NO_DODGE}
    fighters:
      - {{name: F1, hit_dice: 6, armor: [chain], shield: large, weapon: axe}}
      - {{name: F2, hit_dice: 6, armor: [chain], shield: large, weapon: axe}}
"""

WG_LANCES_ANY_EIGHT = WG_LANCES.replace(
    "rules: wargame", "rules: {system: wargame, options: {max_damage: any_eight}}"
)

# both sides in lamellar aim every blow at a limb (issue 19): called shots, dismemberment
WG_LIMBS = """
rules: {system: wargame, options: {max_damage: any_eight}}
max_rounds: 30
sides:
  red:
    tactic: {name: balanced, params: {called_shot: always}}
    fighters:
      - {name: R1, hit_dice: 5, armor: [lamellar], weapon: plain}
      - {name: R2, hit_dice: 5, armor: [lamellar], weapon: plain}
  blue:
    tactic: {name: balanced, params: {called_shot: always}}
    fighters:
      - {name: B1, hit_dice: 5, armor: [lamellar], weapon: plain}
      - {name: B2, hit_dice: 5, armor: [lamellar], weapon: plain}
"""

# every weapon wound rolls its d4 type: a quarter are lingering wounds (conditions)
WG_LINGERING = """
rules: {system: wargame, options: {wound_types: rolled}}
max_rounds: 30
sides:
  red:
    fighters:
      - {name: R1, hit_dice: 6, weapon: plain}
      - {name: R2, hit_dice: 6, weapon: plain}
  blue:
    fighters:
      - {name: B1, hit_dice: 6, weapon: plain}
      - {name: B2, hit_dice: 6, weapon: plain}
"""

# red pushes blue off a cliff (blue never pushes): every won contest kills
WG_CLIFF = """
rules: wargame
max_rounds: 30
factors:
  - {hazard: cliff}
sides:
  red:
    tactic: {name: balanced, params: {reserve: 0}}
    fighters:
      - {name: r, count: 2, hit_dice: 6, weapon: axe}
  blue:
    tactic: {name: balanced, params: {hazard: false}}
    fighters:
      - {name: b, count: 2, hit_dice: 6, weapon: axe}
"""

# a duel by a cliff without morale: red pushes once a turn (and does nothing else), blue
# never pushes; the battle lasts until a push succeeds
WG_CLIFF_DUEL = """
rules: wargame
battle: {morale: none}
max_rounds: 30
factors:
  - {hazard: cliff}
sides:
  red:
    tactic: {name: balanced, params: {reserve: 20}}
    fighters:
      - {name: R, hit_dice: 8, armor: [plate], shield: large}
  blue:
    tactic: {name: balanced, params: {hazard: false, reserve: 20}}
    fighters:
      - {name: B, hit_dice: 8, armor: [plate], shield: large}
"""

# the same, but blue (stronger) spends every die on its turn, so red's pushes often find it
# unable to resist
WG_CLIFF_DUEL_SPENT = """
rules: wargame
battle: {morale: none}
max_rounds: 30
factors:
  - {hazard: cliff}
sides:
  red:
    tactic: {name: balanced, params: {reserve: 20}}
    fighters:
      - {name: R, hit_dice: 8, strength: 5, armor: [plate], shield: large}
  blue:
    tactic: {name: balanced, params: {hazard: false, reserve: 0, dodge: never, mighty: never}}
    fighters:
      - {name: B, hit_dice: 8, strength: 9, armor: [plate], shield: large}
"""

WG_HAZARD = """
rules: wargame
max_rounds: 30
factors:
  - {hazard: storm}
sides:
  red:
    fighters:
      - {name: R1, hit_dice: 4, strength: 6, weapon: axe}
      - {name: R2, hit_dice: 4, strength: 6, weapon: axe}
  blue:
    fighters:
      - {name: B1, hit_dice: 4, strength: 5, weapon: axe}
      - {name: B2, hit_dice: 4, strength: 5, weapon: axe}
"""

# red's daggers strip an HD from anyone held; blue is pushed into tangling vines
WG_TANGLE = """
rules: wargame
max_rounds: 20
factors:
  - {hazard: tangle}
sides:
  red:
    fighters:
      - {name: r, count: 2, hit_dice: 5, weapon: dagger}
  blue:
    tactic: {name: balanced, params: {hazard: false}}
    fighters:
      - {name: b, count: 2, hit_dice: 5, weapon: axe}
"""

# strong daggers and bare hands against dodging axemen and two-handed bastard swords, no
# morale: grapples (the dagger strips 1 HD from the held), shoves (no dodging from the
# ground) and disarms (no doubled damage) (tactic.contest)
WG_BRAWL = """
rules: wargame
battle: {morale: none}
max_rounds: 30
sides:
  red:
    fighters:
      - {name: R1, hit_dice: 8, strength: 6, weapon: dagger}
      - {name: R2, hit_dice: 8, strength: 6}
  blue:
    fighters:
      - {name: B1, hit_dice: 8, armor: [gambeson], weapon: axe}
      - {name: B2, hit_dice: 8, armor: [gambeson], weapon: bastard_sword, two_handed: true}
"""

# whips rolling one d8 (max damage one time in eight) against two-handed bastard swords in
# chain: what the subduing blow does beside (tactic.whip): a disarmed sword no longer
# doubles its damage, a fighter knocked down spends a maneuver getting up
WG_WHIPS = """
rules:
  system: wargame
  options: {damage: weapon_d8}
battle: {morale: none}
max_rounds: 30
sides:
  red:
    fighters:
      - {name: r, count: 3, hit_dice: 6, weapon: whip}
  blue:
    tactic: {name: balanced, params: {dodge: never}}
    fighters:
      - {name: b, count: 3, hit_dice: 6, armor: [chain], weapon: bastard_sword, two_handed: true}
"""

# the same whips against brawlers with bare fists who dodge: auto knocks them down (no
# dodging from the ground), disarm takes nothing from them
WG_WHIPS_FISTS = WG_WHIPS.replace(
    "tactic: {name: balanced, params: {dodge: never}}", "tactic: balanced"
).replace("armor: [chain], weapon: bastard_sword, two_handed: true", "armor: [chain]")

# a medic with healing tools behind two axemen, no morale: bringing the fallen back (the
# default), also patching up the wounded, or never (tactic.heal)
WG_MEDICS = """
rules: wargame
battle: {morale: none}
max_rounds: 30
sides:
  red:
    fighters:
      - {name: R, count: 2, hit_dice: 5, weapon: axe}
      - {name: Medic, hit_dice: 6, healing_tools: 4}
  blue:
    fighters:
      - {name: B, count: 3, hit_dice: 5, weapon: axe}
"""

# torches rolling one d8 (max damage one time in eight) against men in plate (tactic: no
# dodging): whether a torch sets on fire what cannot be ignited (wargame.torch_ignites)
WG_TORCHES = """
rules:
  system: wargame
  options: {damage: weapon_d8}
battle: {morale: none}
max_rounds: 30
sides:
  red:
    fighters:
      - {name: r, count: 3, hit_dice: 6, weapon: torch}
  blue:
    tactic: {name: balanced, params: {dodge: never}}
    fighters:
      - {name: b, count: 3, hit_dice: 6, armor: [plate], weapon: axe}
"""

WG_DISTRACT = """
rules: wargame
max_rounds: 30
factors:
  - {distraction: sand}
  - {distraction: crowd}
sides:
  red:
    tactic: {name: balanced, params: {distract: true}}
    fighters:
      - {name: R1, hit_dice: 6, armor: [gambeson], weapon: axe}
      - {name: R2, hit_dice: 6, armor: [gambeson], weapon: axe}
  blue:
    fighters:
      - {name: B1, hit_dice: 6, armor: [gambeson], weapon: axe}
      - {name: B2, hit_dice: 6, armor: [gambeson], weapon: axe}
"""

WG_RESOLVE = """
rules: wargame
max_rounds: 30
sides:
  red:
    leader: R1
    fighters:
      - {name: R1, hit_dice: 5, resolve: 1, weapon: axe}
      - {name: R2, hit_dice: 5, resolve: 1, weapon: axe}
      - {name: R3, hit_dice: 5, resolve: 1, weapon: axe}
  blue:
    leader: B1
    fighters:
      - {name: B1, hit_dice: 5, resolve: 8, weapon: axe}
      - {name: B2, hit_dice: 5, resolve: 8, weapon: axe}
      - {name: B3, hit_dice: 5, resolve: 8, weapon: axe}
"""

# one round of gunmen who die of one hit: the side that moves first wins
WG_FIRST_MOVE = """
rules: {system: wargame, options: {large_scale_above: 100}}
max_rounds: 1
sides:
  red:
    fighters:
      - {name: r, count: 10, hit_dice: 1, weapon: gun}
  blue:
    fighters:
      - {name: b, count: 10, hit_dice: 1, weapon: gun}
"""

# the same, eight against two: everyone rolling gives the eight the first move
WG_FIRST_MOVE_UNEVEN = """
rules: {system: wargame, options: {large_scale_above: 100}}
max_rounds: 1
sides:
  red:
    fighters:
      - {name: r, count: 8, hit_dice: 1, weapon: gun}
  blue:
    fighters:
      - {name: b, count: 2, hit_dice: 1, weapon: gun}
"""

# archers against foot; the only cover in play is fog
WG_COVER = """
rules: wargame
max_rounds: 30
factors:
  - {cover: fog}
sides:
  archers:
    fighters:
      - {name: A1, hit_dice: 5, weapon: warbow}
      - {name: A2, hit_dice: 5, weapon: warbow}
  foot:
    fighters:
      - {name: F1, hit_dice: 5, weapon: axe}
      - {name: F2, hit_dice: 5, weapon: axe}
"""

WG_COVER_TREES = WG_COVER.replace("cover: fog", "cover: trees")

# the foot in chain: the trees would hide them, but loud armor is heard there
WG_LOUD = WG_COVER_TREES.replace("weapon: axe}", "armor: [chain], weapon: axe}")

# a duel of heavily armored fighters whose blows are one d8: pools are often part full
WG_ARMOR_DUEL = f"""
rules: {{system: wargame, options: {{damage: weapon_d8}}}}
max_rounds: 30
sides:
  red:
    tactic: {NO_DODGE}
    fighters:
      - {{name: R, hit_dice: 8, armor: [chain, gambeson], shield: large, weapon: axe}}
  blue:
    tactic: {NO_DODGE}
    fighters:
      - {{name: B, hit_dice: 8, armor: [chain, gambeson], shield: large, weapon: axe}}
"""

# large scale: factions that never dodge, so their pools trade blows
WG_LARGE = f"""
rules: {{system: wargame, options: {{large_scale_above: 4}}}}
max_rounds: 30
sides:
  red:
    leader: r 1
    tactic: {NO_DODGE}
    fighters:
      - {{name: r, count: 4, hit_dice: 3, weapon: axe}}
      - {{name: s, count: 3, hit_dice: 4, weapon: axe}}
  blue:
    leader: b 1
    tactic: {NO_DODGE}
    fighters:
      - {{name: b, count: 6, hit_dice: 4, weapon: axe}}
"""

# red's average HD is 3.5: rounding decides its pool
WG_LARGE_HALF = WG_LARGE.replace("{name: r, count: 4", "{name: r, count: 3")

# large scale, morale off: red goes for blue's leader; when leader killing fells it, blue's
# members of 8 HD (four attacks a turn) keep at most 1 HD for the rest of the round
WG_LARGE_LK = f"""
rules: {{system: wargame, options: {{large_scale_above: 4}}}}
battle: {{morale: none}}
max_rounds: 30
sides:
  red:
    leader: r 1
    tactic: {{name: balanced, params: {{dodge: never, mighty: never, leader_killing: always}}}}
    fighters:
      - {{name: r, count: 6, hit_dice: 8, weapon: axe}}
  blue:
    leader: b 1
    tactic: {NO_DODGE}
    fighters:
      - {{name: b, count: 4, hit_dice: 8, weapon: axe}}
"""

# the same with no leader named: at large scale the simulator names one, morale checks
# when it falls
WG_LARGE_LEADERLESS = WG_LARGE.replace("    leader: r 1\n", "").replace("    leader: b 1\n", "")

# the uneven first move at large scale: 8 guns against 2, one round
# (no leader named: the rank and file would keep one of blue's two out of reach)
WG_FIRST_MOVE_LARGE = WG_FIRST_MOVE_UNEVEN.replace(
    "large_scale_above: 100}}", "large_scale_above: 4}}\nbattle: {faction_leader: none}"
)

# the same, fought as faction pools
WG_POOLS = WG_LARGE.replace("max_rounds: 30", "max_rounds: 30\nbattle: {large_scale: pools}")
# ... as the seed's literal pools: a pool's HD are the average, so it scatters with members
# still standing, and rounding decides its HD
WG_POOLS_LITERAL = WG_POOLS.replace("large_scale_above: 4}", "large_scale_above: 4, pool: literal}")
WG_POOLS_HALF = WG_LARGE_HALF.replace(
    "max_rounds: 30", "max_rounds: 30\nbattle: {large_scale: pools}"
).replace("large_scale_above: 4}", "large_scale_above: 4, pool: literal}")

# six a side of mixed HD withdrawing when broken: a morale check puts some of a side to flight
WG_SIX_WITHDRAW = """
rules: {system: wargame, options: {large_scale_above: 100}}
max_rounds: 30
battle: {withdraw: broken}
sides:
  red:
    leader: r 1
    fighters:
      - {name: r, count: 3, hit_dice: 3, weapon: axe}
      - {name: s, count: 3, hit_dice: 6, weapon: axe}
  blue:
    leader: b 1
    fighters:
      - {name: b, count: 3, hit_dice: 3, weapon: axe}
      - {name: c, count: 3, hit_dice: 6, weapon: axe}
"""

# 2W2P
TWOWP_MELEE = """
rules: 2w2p
max_rounds: 30
sides:
  red:
    leader: R1
    fighters:
      - {name: R1, fights: 6, armor: [chain]}
      - {name: R2, fights: 3}
      - {name: R3, fights: 1}
  blue:
    leader: B1
    fighters:
      - {name: B1, fights: 6, armor: [chain]}
      - {name: B2, fights: 3}
      - {name: B3, fights: 1}
"""


def twowp_melee(red: str, blue: str, tactic: str = "balanced") -> str:
    """A 2W2P melee without morale: one front, both sides roll every round to the end."""
    return f"""
rules: 2w2p
battle: {{morale: none}}
max_rounds: 30
sides:
  red:
    tactic: {{name: {tactic}}}
    fighters:
      - {{name: r, {red}}}
  blue:
    tactic: {{name: {tactic}}}
    fighters:
      - {{name: b, {blue}}}
"""


TWOWP_FIVES = twowp_melee("count: 5, fights: 3", "count: 5, fights: 3")
TWOWP_GREENS = twowp_melee("count: 6, fights: 0", "count: 6, fights: 0")
# one Tested fighter with body armor against one without
TWOWP_ARMORED = twowp_melee("fights: 3, armor: [gambeson]", "fights: 3")
TWOWP_HELMED = twowp_melee(
    "count: 3, fights: 3, armor: [gambeson], head_protection: true", "count: 3, fights: 3"
)
# Veterans setting half their dice aside for defence
TWOWP_DEFENSIVE = twowp_melee("count: 3, fights: 12", "count: 3, fights: 12", "defensive")


def twowp_camp(
    patients: str, healers: str, *, days: int = 6, options: str = "", after: str = ""
) -> str:
    """A 2W2P company's aftermath: ``patients`` start wounded; the raiders are gone at once.

    ``options``: the rules' options; ``after``: the aftermath's own keys.
    """
    return f"""
rules: {{system: 2w2p, options: {{{options}}}}}
max_rounds: 1
sides:
  company:
    fighters:
{patients}
  raiders:
    fighters:
      - {{name: raider, status: fled}}
aftermath:
  days: {days}{after}
  healers:
{healers}
"""


NURSE = "    - {name: Mag, side: company, role: nurse}"
# six with two wounding blows each, one competent nurse: slow recoveries, secret re-sets
TWOWP_NURSED = twowp_camp("      - {name: w, count: 6, fights: 3, wounds: 2}", NURSE)
# six with one wound each and a specialized nurse: three dice a day, so dice to spare
TWOWP_WELL_NURSED = twowp_camp(
    "      - {name: w, count: 6, fights: 3, wounds: 1}",
    "    - {name: Mag, side: company, role: nurse, skill: specialized}",
)
# the four wounded are listed before the two felled; one nurse can take three
TWOWP_TRIAGE = twowp_camp(
    "      - {name: w, count: 4, fights: 3, wounds: 1}\n"
    "      - {name: f, count: 2, fights: 3, wounds: 3}",
    NURSE,
)
# six felled; one competent surgeon re-sets the felling wounds on the day of the battle but
# never finds the secret re-sets of the wounding ones (it cannot examine, and attends only
# to treat): a felling wound can recover while a wounding one never does
TWOWP_FELLED = twowp_camp(
    "      - {name: f, count: 6, fights: 3, wounds: 3}",
    "    - {name: Ide, side: company, role: surgeon}",
    options="patient_weight: 4",
)
# an experienced surgeon examines for secret re-sets
TWOWP_SURGERY = twowp_camp(
    "      - {name: w, count: 6, fights: 3, wounds: 2}",
    "    - {name: Ide, side: company, role: surgeon, skill: experienced}",
    days=6,
)
# working one hour a day: how many it examines is what it finds
TWOWP_SURGERY_HOUR = twowp_camp(
    "      - {name: w, count: 6, fights: 3, wounds: 2}",
    "    - {name: Ide, side: company, role: surgeon, skill: experienced}",
    days=3,
    after="\n  camp: {healer_hours: 1}",
)
# infections end only with their wound (or never); two wounds each and three dice a day
# (patient_weight 4): infections are common on the day of the blow and rarely kill after
TWOWP_INFECTED = twowp_camp(
    "      - {name: w, count: 6, fights: 3, wounds: 2}",
    NURSE,
    options="patient_weight: 4",
    after="\n  options: {infection_ends_when_removed: false}",
)
# an unskilled nurse under a specialized surgeon's supervision
TWOWP_STUDENT = twowp_camp(
    "      - {name: w, count: 4, fights: 3, wounds: 2}",
    "    - {name: Ide, side: company, role: surgeon, skill: specialized}\n"
    "    - {name: Mag, side: company, role: nurse, skill: unskilled, supervisor: Ide}",
)


# Deathwish
def dw_volley(*, weapon: str = "M16", target: str = "armor: 1", battle: str = "") -> str:
    """Twelve marksmen shoot once each at twelve targets who cannot shoot back.

    The marksmen always hit and spread their shots (``target: strongest`` picks an
    unwounded target), so blue's counts by status are twelve draws of one hit's effect.
    """
    return f"""
rules: deathwish
battle: {{morale: none{battle}}}
max_rounds: 1
sides:
  red:
    tactic: {{name: balanced, params: {{target: strongest}}}}
    fighters:
      - {{name: r, count: 12, deathwish: {{weapon: {weapon}, skill: 10}}}}
  blue:
    fighters:
      - {{name: b, count: 12, deathwish: {{{target}, skill: 0}}}}
"""


DW_VOLLEY = dw_volley()
# trauma tolerance 2: thresholds 1/1/2/4, so many Critical wounds
DW_VOLLEY_FRAIL = dw_volley(target="armor: 1, traits: -3")
# and a big gun: damage 8 and up (twice the Critical threshold) kills at once
DW_VOLLEY_MAGNUM = dw_volley(weapon="S&W 500", target="traits: -3")
DW_VOLLEY_HOLLOW = dw_volley(weapon="M16, ammo: hollow_point", target="armor: 0")
DW_VOLLEY_AP = dw_volley(weapon="M16, ammo: armor_piercing", target="armor: 3")
# trauma plates stop every torso hit; other locations are bare
DW_VOLLEY_PLATES = dw_volley(target="armor: 3")
DW_VOLLEY_LOCATIONS = dw_volley(battle=", deathwish_location: random")

# the marksmen cannot finish a plated tank, so the battle runs its 8 rounds while the
# wounded bleed
DW_BLEEDING = """
rules: deathwish
battle: {morale: none}
max_rounds: 8
sides:
  red:
    tactic: {name: balanced, params: {target: strongest}}
    fighters:
      - {name: r, count: 6, deathwish: {weapon: M16, skill: 10}}
  blue:
    fighters:
      - {name: tank, deathwish: {armor: 20, skill: 0}}
      - {name: b, count: 6, deathwish: {armor: 1, skill: 0, traits: -3}}
"""

# the marksmen (skill 8) against targets who take cover behind trees on their turns
DW_COVER = """
rules: deathwish
battle: {morale: none}
max_rounds: 3
factors:
  - {cover: trees}
sides:
  red:
    tactic: {name: balanced, params: {target: strongest}}
    fighters:
      - {name: r, count: 12, deathwish: {weapon: M16, skill: 8}}
  blue:
    fighters:
      - {name: b, count: 12, deathwish: {skill: 0}}
"""

# pistols against targets of 8 HD: wounds lower the HD that morale compares with the roll
DW_MORALE = """
rules: deathwish
max_rounds: 4
sides:
  red:
    tactic: {name: balanced, params: {target: strongest}}
    fighters:
      - {name: r, count: 8, deathwish: {weapon: Glock 18, skill: 10}}
  blue:
    fighters:
      - {name: b, count: 8, hit_dice: 8, deathwish: {skill: 0}}
"""

# the volley's wounded (trauma tolerance 3: thresholds 1/2/3/6), one surgeon for the twelve,
# who can start 5 minutes after the battle; Serious wounds never incapacitate in battle
DW_AFTERMATH = """
rules: {system: deathwish, options: {incapacitate_serious: 0.0}}
battle: {morale: none}
max_rounds: 1
sides:
  red:
    tactic: {name: balanced, params: {target: strongest}}
    fighters:
      - {name: r, count: 12, deathwish: {weapon: M16, skill: 10}}
  blue:
    fighters:
      - {name: b, count: 12, deathwish: {armor: 1, skill: 0, traits: -2}}
aftermath:
  days: 2
  options: {reach_minutes: 5}
  healers:
    - {name: Medic, side: blue, role: surgeon}
"""

# the same, the surgeon there at once
DW_AFTERMATH_AT_ONCE = DW_AFTERMATH.replace("  options: {reach_minutes: 5}\n", "")

# D6 tiers
D6_PARRY = """
rules: d6
max_rounds: 30
sides:
  red:
    fighters:
      - {name: R1, d6: {attack: 4D, dodge: 2D, parry: 5D, damage: 4D}}
      - {name: R2, d6: {attack: 4D, dodge: 2D, parry: 5D, damage: 4D}}
  blue:
    fighters:
      - {name: B1, d6: {attack: 4D, dodge: 3D, damage: 4D}}
      - {name: B2, d6: {attack: 4D, dodge: 3D, damage: 4D}}
"""

# red parries with two-handed weapons, 2 worse once they have struck this round, against
# twice their number
D6_TWO_HANDED = """
rules: d6
battle: {morale: none}
max_rounds: 3
sides:
  red:
    fighters:
      - {name: R, count: 2, two_handed: true, d6: {attack: 5D, dodge: 2D, parry: 5D, damage: 4D}}
  blue:
    fighters:
      - {name: B, count: 4, d6: {attack: 4D+2, dodge: 3D, damage: 4D}}
"""

# red always hits blue's tough bodies: its tactic calls its shots, for a die more damage
D6_SHOTS = """
rules: d6
battle: {morale: none}
max_rounds: 1
sides:
  red:
    fighters:
      - {name: r, count: 8, d6: {attack: 7D, damage: 3D}}
  blue:
    fighters:
      - {name: b, count: 8, d6: {strength: 4D, dexterity: 4D, attack: 0D, dodge: 1D}}
"""

# red's blows take blue out whenever they land: its tactic never calls a shot, which would
# only cost it hits
D6_OVERKILL = """
rules: d6
battle: {morale: none}
max_rounds: 1
sides:
  red:
    fighters:
      - {name: r, count: 8, d6: {attack: 4D, damage: 12D}}
  blue:
    fighters:
      - {name: b, count: 8, d6: {strength: 1D, dexterity: 1D, attack: 0D, dodge: 2D}}
"""
CALLING = "tactic: {name: balanced, params: {called_shot: always}}\n    fighters:\n"

# three weak attackers on one strong fighter, 8 pips of advantage per ally before: the
# third's 16 pips are a decisive (+4D) or an overwhelming (+5D) advantage
D6_MOB = """
rules: {system: d6, options: {outnumber_pips: 8}}
battle: {morale: none}
max_rounds: 3
sides:
  red:
    fighters:
      - {name: r, count: 3, d6: {attack: 1D, damage: 5D}}
  blue:
    fighters:
      - {name: b, d6: {attack: 0D, dodge: 4D, armor: 1D}}
"""

# sure archers shoot at blue behind a wall: cover dice on the difficulty hardly matter to
# them, on the body they do
D6_COVERED = """
rules: d6
battle: {morale: none}
max_rounds: 2
factors: [{cover: building_wall}]
sides:
  red:
    fighters:
      - {name: r, count: 8, d6: {attack: 7D, damage: 4D, range: 300}}
  blue:
    fighters:
      - {name: b, count: 8, d6: {attack: 0D, dodge: 2D}}
"""

# fire-callers against riders who react with Ride: half or whole against an area attack
D6_CAVALRY = """
rules: d6
battle: {morale: none}
max_rounds: 1
sides:
  red:
    fighters:
      - {name: r, count: 3, d6: {attack: 5D, damage: 4D, area: 4, range: 60}}
  blue:
    fighters:
      - {name: b, count: 4, mounted: true, d6: {attack: 0D, dodge: 2D, ride: 5D}}
"""

D6_SIZES = """
rules: d6
max_rounds: 30
sides:
  giants:
    fighters:
      - {name: G1, d6: {attack: 4D, dodge: 2D, damage: 5D, size: 2}}
  men:
    fighters:
      - {name: M1, d6: {attack: 4D, dodge: 3D, damage: 4D, size: 1}}
      - {name: M2, d6: {attack: 4D, dodge: 3D, damage: 4D, size: 1}}
"""


def d6_camp(
    *, level: str = "competent", wounds: int = 2, strength: str = "2D", days: int = 7
) -> str:
    """Six D6 patients who start the aftermath hurt (``wounds``), one surgeon of ``level``."""
    return f"""
rules: d6
max_rounds: 1
sides:
  company:
    fighters:
      - {{name: w, count: 6, wounds: {wounds}, d6: {{strength: {strength}}}}}
  raiders:
    fighters:
      - {{name: raider, status: fled}}
aftermath:
  days: {days}
  healers:
    - {{name: Doc, side: company, role: surgeon, skill: {level}}}
"""


# Wounded twice, so first aid heals one wound or both; weak: time healing infects often
D6_CAMP = d6_camp()
# Mortally wounded: a competent surgeon's first aid seldom stabilizes them
D6_CAMP_MORTAL = d6_camp(wounds=4)
D6_CAMP_EXPERIENCED = d6_camp(level="experienced")
D6_CAMP_SPECIALIZED = d6_camp(level="specialized")
# Incapacitated: the heal dice decide how far first aid lifts them
D6_CAMP_DOWN = d6_camp(level="specialized", wounds=3)
# Strength 1D: a first-aid bonus of +1 often turns an infection into a healing
D6_CAMP_FRAIL = d6_camp(level="specialized", strength="1D", days=12)

# twelve poisoned knives (6D), one blow each, most of them stuns or wounds: a frail target
# (Strength 1D) seldom resists the poison, and fails by a wide margin
D6_VENOM = """
rules: d6
battle: {morale: none}
max_rounds: 1
sides:
  red:
    tactic: {name: balanced, params: {target: strongest, called_shot: never}}
    fighters:
      - {name: r, count: 12, d6: {attack: 6D, damage: 3D, poison: 6D}}
  blue:
    fighters:
      - {name: b, count: 12, d6: {strength: 1D, dexterity: 3D, attack: 0D, dodge: 1D}}
aftermath:
  days: 2
"""

# targets Wounded twice, poisoned by any blow (a harmless 0D poison, always resisted); a
# specialized surgeon's first aid heals one wound and gives a bonus that decides whether the
# day-3 time-healing roll of Strength 1D infects
D6_VENOM_AID = """
rules: {system: d6, options: {poison_from: stunned}}
battle: {morale: none}
max_rounds: 1
sides:
  red:
    tactic: {name: balanced, params: {target: strongest, called_shot: never}}
    fighters:
      - {name: r, count: 12, d6: {attack: 6D, damage: 3D, poison: 0D}}
  blue:
    fighters:
      - {name: b, count: 12, wounds: 2, d6: {strength: 1D, dexterity: 3D, attack: 0D, dodge: 1D}}
aftermath:
  days: 4
  healers:
    - {name: Doc, side: blue, role: surgeon, skill: specialized}
"""

# six dead and a priest: how they come back
D6_RAISE = """
rules: d6
max_rounds: 1
sides:
  company:
    fighters:
      - {name: w, count: 6, status: dead}
      - {name: Cap}
  raiders:
    fighters:
      - {name: raider, status: fled}
aftermath:
  days: 2
  healers:
    - {name: Anselm, side: company, role: priest}
"""

# twelve attackers, one blow each at twelve targets who hardly dodge (Strength 3D, Dexterity
# 3D+1: the rounding of their average, the body code, decides a pip)
D6_VOLLEY = """
rules: d6
battle: {morale: none}
max_rounds: 1
sides:
  red:
    tactic: {name: balanced, params: {target: strongest}}
    fighters:
      - {name: r, count: 12, d6: {attack: 3D, damage: 5D}}
  blue:
    fighters:
      - {name: b, count: 12, d6: {strength: 3D, dexterity: 3D+1, attack: 0D, dodge: 1D}}
"""

# a slow red fighter against three quicker ones, one round: in the seed's cycle it strikes
# last (mostly already down), in popcorn blue's first actor names it next
D6_QUICK = """
rules: d6
battle: {morale: none, d6_difficulty: 0}
max_rounds: 1
sides:
  red:
    fighters:
      - {name: r, d6: {dexterity: 1D, attack: 6D, dodge: 1D, damage: 5D}}
  blue:
    fighters:
      - {name: b, count: 3, d6: {dexterity: 2D, attack: 6D, dodge: 1D, damage: 5D}}
"""

# red takes an extra attack every turn: the Multiple Action Penalty on its attacks and, by
# default, its body
D6_FLURRY = """
rules: d6
battle: {morale: none}
max_rounds: 2
sides:
  red:
    tactic: {name: balanced, params: {extra_attacks: 1}}
    fighters:
      - {name: r, count: 6, d6: {attack: 4D, dodge: 2D, damage: 4D}}
  blue:
    fighters:
      - {name: b, count: 6, d6: {attack: 4D, dodge: 2D, damage: 4D}}
"""

# three fire-callers each catch four of blue: every area attack dodged burdens the dodger's
# body with the MAP, or only the first of the round
D6_FIREBALLS = """
rules: d6
battle: {morale: none}
max_rounds: 1
sides:
  red:
    fighters:
      - {name: r, count: 3, d6: {attack: 5D, damage: 4D, area: 4, range: 60}}
  blue:
    fighters:
      - {name: b, count: 4, d6: {attack: 0D, dodge: 3D}}
"""

# four who always hit and often stun one strong fighter: its attacks carry one die off per
# stun in effect (or one in all)
D6_STUNS = """
rules: d6
battle: {morale: none}
max_rounds: 10
sides:
  red:
    fighters:
      - {name: r, count: 4, d6: {attack: 6D, dodge: 1D, damage: 3D+1}}
  blue:
    fighters:
      - {name: B, d6: {strength: 4D, dexterity: 3D, attack: 5D, dodge: 1D, damage: 6D}}
"""

# red starts Wounded twice
D6_WOUNDED_TWICE = """
rules: d6
battle: {morale: none}
max_rounds: 20
sides:
  red:
    fighters:
      - {name: r, count: 2, wounds: 2, d6: {attack: 4D, dodge: 3D, damage: 4D}}
  blue:
    fighters:
      - {name: b, count: 2, d6: {attack: 4D, dodge: 3D, damage: 4D}}
"""

# blue sprints into contact with red, who holds and strikes: a sprinter dodges with half
# its 3D+2 (1D+2 rounded down, 2D up)
D6_SPRINT = """
rules: d6
battle: {morale: none, d6_difficulty: 0}
max_rounds: 1
map:
  picture: |
    1..2
    1..2
    1..2
    1..2
    1..2
    1..2
sides:
  red:
    tactic: {name: balanced, params: {formation: hold, target: strongest}}
    fighters:
      - {name: r, count: 6, d6: {attack: 1D+2, damage: 8D}}
  blue:
    fighters:
      - {name: b, count: 6, d6: {dodge: 3D+2}}
"""

# Campaigns: a War Game company at large scale through two battles: members who flee or surrender (a
# scattered faction) may come back for the second
WG_CAMPAIGN = f"""
rules: {{system: wargame, options: {{large_scale_above: 4}}}}
max_rounds: 30
sides:
  company:
    leader: c 1
    tactic: {NO_DODGE}
    fighters:
      - {{name: c, count: 6, hit_dice: 3, weapon: axe}}
  raiders:
    leader: r 1
    tactic: {NO_DODGE}
    fighters:
      - {{name: r, count: 6, hit_dice: 4, weapon: axe}}
campaign:
  side: company
  days_between: 1
  battles:
    - {{name: one}}
    - {{name: two}}
"""

WG_CAMPAIGN_POOLS = WG_CAMPAIGN.replace(
    "max_rounds: 30", "max_rounds: 30\nbattle: {large_scale: pools}"
).replace("large_scale_above: 4}", "large_scale_above: 4, pool: literal}")  # scattered: surrender

# War Game aftermath
WG_AFTERMATH = """
rules: wargame
max_rounds: 30
sides:
  red:
    fighters:
      - {name: r, count: 2, hit_dice: 6, weapon: axe}
  blue:
    fighters:
      - {name: b, count: 2, hit_dice: 6, weapon: axe}
aftermath:
  days: 3
"""

# Maps (no morale: the distances decide)
# two gunners against two axemen across an open field
MAP_GUNS = """
rules: wargame
battle: {morale: none}
max_rounds: 4
map:
  picture: |
    1..........................2
    1..........................2
sides:
  red:
    fighters:
      - {name: r, count: 2, hit_dice: 5, weapon: gun}
  blue:
    fighters:
      - {name: b, count: 2, hit_dice: 5, weapon: axe}
"""

# two archers who start next to two axemen
MAP_ARCHERS_ENGAGED = """
rules: wargame
battle: {morale: none}
max_rounds: 3
map:
  picture: |
    1.......2
    1.......2
    1.......2
  at:
    r 1: [1, 0]
    r 2: [1, 2]
    b 1: [2, 0]
    b 2: [2, 2]
sides:
  red:
    fighters:
      - {name: r, count: 2, hit_dice: 5, weapon: warbow}
  blue:
    fighters:
      - {name: b, count: 2, hit_dice: 5, weapon: axe}
"""

# blue holds: two near red's corner, its leader far down the field
MAP_LEADER = """
rules: wargame
battle: {morale: none}
max_rounds: 6
map:
  picture: |
    1.........2
    1.........2
    1..........
    ...........
    ...........
    ...........
    ..........2
sides:
  red:
    fighters:
      - {name: r, count: 2, hit_dice: 5, weapon: axe}
  blue:
    leader: B
    tactic: {name: balanced, params: {formation: hold}}
    fighters:
      - {name: b, count: 2, hit_dice: 4, weapon: axe}
      - {name: B, hit_dice: 3, weapon: axe}
"""

# Deathwish riflemen across a field (every firearm reaches 300 yards: all of it)
MAP_RIFLES = """
rules: deathwish
battle: {morale: none}
max_rounds: 3
map:
  picture: |
    1....................2
    1....................2
sides:
  red:
    fighters:
      - {name: r, count: 2, deathwish: {weapon: M16, skill: 6}}
  blue:
    fighters:
      - {name: b, count: 2, deathwish: {weapon: M16, skill: 6}}
"""

# the same with a range of 20 yards: 12 cells, so medium and long shots
MAP_RIFLES_SHORT = MAP_RIFLES.replace(
    "battle: {morale: none}", "battle: {morale: none, firearm_range_yd: 20}"
).replace("max_rounds: 3", "max_rounds: 4")

# D6 fighters on a map with a line of trees between them
MAP_D6 = """
rules: d6
battle: {morale: none}
max_rounds: 8
map:
  picture: |
    1....TT....2
    1....TT....2
  legend:
    T: {cover: trees}
sides:
  red:
    fighters:
      - {name: r, count: 2, d6: {attack: 4D, dodge: 3D, damage: 4D}}
  blue:
    fighters:
      - {name: b, count: 2, d6: {attack: 4D, dodge: 3D, damage: 4D}}
"""

WG_OBJECT = """
rules: wargame
max_rounds: 30
sides:
  red:
    goals:
      - {destroy: 30}
    fighters:
      - {name: r, count: 3, hit_dice: 4, weapon: axe}
  blue:
    fighters:
      - {name: b, count: 3, hit_dice: 4, weapon: axe}
"""


# --------------------------------------------------------------------------------------------
# The registry


def _probes(scenario: str, values: tuple[Any, ...], **kw: Any) -> tuple[Probe, ...]:
    return (Probe(scenario, values, **kw),)


PROBES: dict[str, tuple[Probe, ...]] = {
    # War Game (rules.options under wargame)
    "wargame.damage": _probes(WG_KNIGHT, ("weapon_d8",)),
    "wargame.max_damage": _probes(WG_LANCES, ("any_eight",)),
    "wargame.finish": _probes(WG_MELEE, ("kill",)),
    "wargame.inventory_block": _probes(WG_MELEE, (True,)),
    "wargame.broken_bones": _probes(WG_BROKEN_BONES, ("forbidden",)),
    "wargame.wound_types": _probes(classic(WG_MAULS), ("by_kind", "rolled")),
    "wargame.called_shot_cost": _probes(WG_LIMBS, ("half",)),
    "wargame.dismember": _probes(WG_LIMBS, ("wound", "never")),
    "wargame.lingering": _probes(WG_LINGERING, ("record",)),
    "wargame.extinguish": _probes(classic(WG_FIRE), ("one_hd",), seeds=60),
    "wargame.mighty_hd": _probes(classic(WG_AGGRESSIVE), ("at_least_one",)),
    "wargame.wound_spendable": _probes(classic(WG_STORM_DUEL), ("unspent",), seeds=60),
    "wargame.warbow_direct": _probes(WG_BOWS_NO_DODGE, ("damage",)),
    "wargame.skewer": _probes(WG_LANCES_ANY_EIGHT, ("kill",)),
    "wargame.hazard_contest": _probes(WG_CLIFF, (False,)),
    "wargame.survive": _probes(WG_HAZARD, ("attacks",)),
    "wargame.torch_ignites": _probes(WG_TORCHES, ("anyone",)),
    "wargame.contest_ties": _probes(classic(WG_CLIFF_DUEL), ("attacker", "reroll"), seeds=200),
    "wargame.contest_roll": _probes(WG_CLIFF, ("spent",), seeds=150),
    "wargame.contest_unable": _probes(classic(WG_CLIFF_DUEL_SPENT), ("auto_lose",)),
    "wargame.distraction_limit": _probes(WG_DISTRACT, ("per_target",)),
    "wargame.morale_compare": _probes(WG_RESOLVE, ("fixed",)),
    "wargame.morale_triggers_once": _probes(WG_SIX, (False,)),
    "wargame.flee_turns": _probes(WG_LEADERS, (3,)),
    "wargame.initiative_ties": _probes(WG_FIRST_MOVE, ("first_listed",), seeds=80),
    "wargame.act_out_of_turn": _probes(WG_MELEE, (True,)),
    "wargame.weak_cover": _probes(WG_COVER, ("protects",)),
    "wargame.loud_armor": _probes(WG_LOUD, ("silent",)),
    "wargame.large_scale_above": _probes(WG_LEADERS, (3,)),
    "wargame.pool": _probes(WG_POOLS, ("headcount", "literal")),
    "wargame.faction_rounding": _probes(WG_POOLS_HALF, ("down",)),
    # 2W2P
    "2w2p.unskilled_weight": _probes(TWOWP_STUDENT, (1,), focus=AFTER),
    "2w2p.patient_weight": _probes(TWOWP_NURSED, (0, 4), focus=AFTER),
    "2w2p.below_green": _probes(TWOWP_GREENS, ("green",), seeds=80),
    "2w2p.protection_one": _probes(TWOWP_ARMORED, (0, 2), seeds=80),
    "2w2p.protection_both": _probes(TWOWP_HELMED, (0,)),
    "2w2p.defence_share": _probes(TWOWP_MELEE, (0.5,)),
    "2w2p.defence_order": _probes(TWOWP_DEFENSIVE, ("fewest_hits",)),
    "2w2p.take_hits": _probes(TWOWP_FIVES, ("shield_best", "random")),
    "2w2p.stack_advances": _probes(TWOWP_WELL_NURSED, (True,), focus=AFTER),
    "2w2p.reset_rule": _probes(TWOWP_NURSED, ("every_third",), focus=AFTER),
    "2w2p.infection_risk_recurs": _probes(TWOWP_NURSED, (True,), focus=AFTER),
    "2w2p.surgeon_examines_experienced": _probes(TWOWP_SURGERY_HOUR, (3, 5), seeds=80, focus=AFTER),
    # Deathwish
    "deathwish.threshold_compare": _probes(DW_VOLLEY, ("exceeds",), focus=BLUE),
    "deathwish.limb_lethality": _probes(DW_VOLLEY_LOCATIONS, (0, -5), focus=BLUE),
    "deathwish.hollow_point_penetration": _probes(DW_VOLLEY_HOLLOW, (0, -3), focus=BLUE),
    "deathwish.hollow_point_lethality": _probes(DW_VOLLEY_HOLLOW, (-3,), focus=BLUE),
    "deathwish.armor_piercing_penetration": _probes(DW_VOLLEY_AP, (-1, 3), focus=BLUE),
    "deathwish.armor_piercing_lethality": _probes(DW_VOLLEY_AP, (2,), focus=BLUE),
    "deathwish.incapacitate_slight": _probes(DW_VOLLEY, (1.0,), focus=BLUE),
    "deathwish.incapacitate_moderate": _probes(DW_VOLLEY, (0.0, 1.0), focus=BLUE),
    "deathwish.incapacitate_serious": _probes(DW_VOLLEY, (0.0,), focus=BLUE),
    "deathwish.incapacitate_critical": _probes(DW_VOLLEY_FRAIL, (0.0,), focus=BLUE),
    "deathwish.untreated_serious_rounds": _probes(DW_BLEEDING, (1,), focus=BLUE),
    "deathwish.untreated_critical_rounds": (
        Probe(DW_VOLLEY_FRAIL, (1,), focus=BLUE),
        Probe(DW_BLEEDING, (30,), focus=BLUE),
    ),
    "deathwish.instant_death_multiple": _probes(DW_VOLLEY_FRAIL, (1,), focus=BLUE),
    "deathwish.cheat_death_dice": _probes(DW_VOLLEY_MAGNUM, (0,), focus=BLUE),
    "deathwish.cheat_death": _probes(DW_VOLLEY_MAGNUM, (9,), focus=BLUE),
    "deathwish.cover_difficulty_per_point": _probes(DW_COVER, (4,), focus=BLUE),
    # D6 tiers
    "d6.map_dice_per_action": _probes(D6_FLURRY, (2,), focus=BLUE),
    "d6.map_applies_to_body": _probes(D6_FLURRY, (False,), focus=RED),
    "d6.halve_round": _probes(D6_SPRINT, ("up",), seeds=200, focus=BLUE),
    "d6.two_handed_parry_penalty": _probes(D6_TWO_HANDED, (6,), focus=RED),
    "d6.ride_vs_area": _probes(D6_CAVALRY, ("full",), focus=BLUE),
    "d6.called_shot_difficulty": _probes(
        D6_OVERKILL.replace("fighters:\n      - {name: r", CALLING + "      - {name: r"),
        ("3D",),
        focus=BLUE,
    ),
    "d6.called_shot_damage": _probes(D6_SHOTS, ("3D",), focus=BLUE),
    "d6.body_average": _probes(D6_VOLLEY, ("pips_up",), focus=BLUE),
    "d6.cover_on": _probes(D6_COVERED, ("body", "both"), focus=BLUE),
    "d6.area_dodge_map": _probes(D6_FIREBALLS, ("once",), focus=BLUE),
    "d6.outnumber_pips": _probes(D6_VOLLEY, (3,), focus=BLUE),
    "d6.turn_order": _probes(D6_QUICK, ("cycle",), focus=BLUE),
    "d6.scale_basis": _probes(D6_SIZES, ("relative",), seeds=200),
    "d6.modifier_overlap_16": _probes(D6_MOB, ("overwhelming",), seeds=200, focus=BLUE),
    "d6.stun_penalty": _probes(classic(D6_STUNS), ("once",), seeds=80, focus=RED),
    "d6.wound_penalty": _probes(D6_WOUNDED_TWICE, ("once",), seeds=80),
    "d6.infection_max": _probes(D6_CAMP, (0, 8), focus=AFTER),
    "d6.first_aid_heal_dice": _probes(D6_CAMP_DOWN, ("6D",), focus=AFTER),
    "d6.poison_from": _probes(D6_VENOM, ("stunned",), seeds=120, focus=("aftermath1.day1.",)),
    "d6.heal_wounded_twice": _probes(D6_CAMP, ("both",), focus=AFTER),
    # the battle frame (every system)
    "battle.morale_hd": _probes(DW_MORALE, ("full",), seeds=60, focus=BLUE),
    "battle.large_scale": _probes(WG_LARGE, ("pools",)),
    "battle.initiative": _probes(WG_FIRST_MOVE_UNEVEN, ("sides",)),
    "battle.large_turns": _probes(WG_FIRST_MOVE_LARGE, ("popcorn",)),
    "battle.large_initiative": _probes(WG_FIRST_MOVE_LARGE, ("everyone",)),
    "battle.rank_and_file": _probes(WG_LARGE, (False,)),
    "battle.leader_down": _probes(WG_LARGE_LK, ("none",), seeds=120, focus=RED),
    "battle.faction_leader": _probes(WG_LARGE_LEADERLESS, ("none",)),
    "battle.morale": (
        Probe(WG_LEADERS, ("none", "goal_failed", "leader_out", "quiet_rounds")),
        Probe(WG_SIX, ("half_out",)),
    ),
    "battle.rout": _probes(WG_LEADERS, ("field",)),
    "battle.withdraw": _probes(WG_ROUT, ("broken",)),
    "battle.withdraw_share": _probes(WG_SIX_WITHDRAW, (0, 0.3)),
    "battle.morale_at": _probes(WG_SIX_WITHDRAW, (0.1, 1)),
    "battle.pursuit": _probes(WG_WITHDRAW, (0.6, 1)),
    "battle.scattered": _probes(WG_POOLS_LITERAL, ("fled", "fight")),
    "battle.cover_rounds": _probes(WG_COVER_TREES, (1, 5)),
    "battle.deathwish_location": _probes(DW_VOLLEY_PLATES, ("random",), focus=BLUE),
    "battle.deathwish_cover": _probes(DW_COVER, (0, 4), focus=BLUE),
    "battle.d6_difficulty": _probes(D6_VOLLEY, (5, 15), focus=BLUE),
    "battle.d6_cover_dice": _probes(D6_COVERED, (0, 4), focus=BLUE),
    "battle.move_ft": _probes(MAP_GUNS, (5, 60)),
    "battle.gun_range_yd": _probes(MAP_GUNS, (5,)),
    "battle.firearm_range_yd": _probes(MAP_RIFLES, (5,)),
    "battle.ranged_in_melee": _probes(MAP_ARCHERS_ENGAGED, ("yes",)),
    "battle.range_bands": _probes(classic(MAP_RIFLES_SHORT), ("off",), seeds=60),
    # tactics (sides.X.tactic.params)
    "tactic.target": _probes(WG_LEADERS, ("strongest", "leader", "random")),
    "tactic.reserve": _probes(WG_RESERVE, (0, 3), seeds=80),
    "tactic.all_in_last": _probes(WG_MELEE, (False,), seeds=120),
    "tactic.dodge": _probes(WG_MELEE, ("never", "out")),
    "tactic.block": _probes(WG_BLOCKS, ("never", "first"), seeds=120),
    "tactic.contest": _probes(
        WG_BRAWL, ("grapple", "shove", "disarm", "auto"), sides=("red",), focus=BLUE + RED
    ),
    "tactic.heal": _probes(WG_MEDICS, ("never", "wounded"), sides=("red",)),
    "tactic.whip": (
        Probe(WG_WHIPS, ("shove", "none"), seeds=200, sides=("red",)),
        Probe(WG_WHIPS_FISTS, ("disarm",), seeds=200, sides=("red",)),
    ),
    "tactic.mighty": _probes(WG_MELEE, ("never", "armored", "always"), seeds=80),
    "tactic.mighty_pool": _probes(WG_MELEE_ARMORED, (0, 20), seeds=200),
    "tactic.recover_below": _probes(WG_ARMOR_DUEL, (0.0, 0.9), seeds=200),
    "tactic.cover": _probes(WG_COVER_TREES, (False,)),
    "tactic.hazard": _probes(WG_HAZARD, (False,)),
    "tactic.break_free": _probes(classic(WG_TANGLE), (False,), sides=("blue",)),
    "tactic.distract": _probes(WG_DISTRACT, (True,), sides=("blue",)),
    "tactic.leader_killing": _probes(WG_LARGE, ("always",)),
    "tactic.pursue": _probes(WG_ROUT, (True,)),
    "tactic.defence_share": _probes(TWOWP_MELEE, (0.5,)),
    "tactic.protect_leader": _probes(TWOWP_MELEE, (False,)),
    "tactic.objective_share": _probes(WG_OBJECT, (0.0, 1.0), sides=("red",)),
    "tactic.name_next": _probes(WG_LEADERS, ("ally_first",)),
    "tactic.parry": _probes(D6_PARRY, (False,), seeds=120),
    "tactic.ride": _probes(D6_CAVALRY, (False,), sides=("blue",), focus=BLUE),
    "tactic.formation": _probes(MAP_LEADER, ("hold", "flank", "leader"), sides=("red",)),
    "tactic.sprint": _probes(D6_SPRINT, (False,), sides=("blue",), focus=BLUE),
    "tactic.extra_attacks": _probes(D6_VOLLEY, (1,), sides=("red",), focus=BLUE),
    "tactic.called_shot": (
        Probe(D6_SHOTS, ("never",), sides=("red",), focus=BLUE),
        Probe(D6_OVERKILL, ("always",), sides=("red",), focus=BLUE),
    ),
    # the aftermath (aftermath.options, aftermath.camp) and campaigns (campaign.options)
    "2w2p-aftermath.rest": _probes(TWOWP_NURSED, ("light",), focus=AFTER),
    "2w2p-aftermath.rest_on_blow_day": _probes(TWOWP_WELL_NURSED, (True,), focus=AFTER),
    "2w2p-aftermath.unknown_reset_roll": _probes(TWOWP_NURSED, ("as_rolled",), focus=AFTER),
    "2w2p-aftermath.lost_recovery_keeps_advances": _probes(
        TWOWP_NURSED, (False,), seeds=60, focus=AFTER
    ),
    "2w2p-aftermath.infection_ends_when_removed": _probes(TWOWP_NURSED, (False,), focus=AFTER),
    "2w2p-aftermath.felled_until": _probes(TWOWP_FELLED, ("all_recovered",), focus=AFTER),
    "2w2p-aftermath.infection_ends_with_wound": _probes(TWOWP_INFECTED, (False,), focus=AFTER),
    "deathwish-aftermath.serious_minutes": _probes(DW_AFTERMATH, (0, 1000), seeds=80, focus=AFTER),
    "deathwish-aftermath.critical_minutes": _probes(DW_AFTERMATH, (0, 1000), focus=AFTER),
    "deathwish-aftermath.reach_minutes": _probes(DW_AFTERMATH_AT_ONCE, (60,), focus=AFTER),
    "deathwish-aftermath.critical_later_death": _probes(DW_AFTERMATH, (1.0,), focus=AFTER),
    "deathwish-aftermath.incapacitated_from": _probes(
        DW_AFTERMATH, ("critical", "as_battle"), focus=AFTER
    ),
    "d6-aftermath.wake": _probes(D6_CAMP_DOWN, ("stabilized",), focus=AFTER),
    "d6-aftermath.untreated_mortal": _probes(D6_CAMP_MORTAL, ("lingers",), focus=AFTER),
    "d6-aftermath.poison_fails": _probes(D6_VENOM, ("by_margin",), focus=AFTER),
    "d6-aftermath.first_aid_bonus": _probes(
        D6_VENOM_AID, ("either",), seeds=120, focus=("aftermath1.day3.",)
    ),
    "d6-aftermath.raised_as": _probes(D6_RAISE, ("wounded_twice",), focus=AFTER),
    "d6-aftermath.bonus_lasts": _probes(D6_CAMP_FRAIL, ("until_healed",), focus=AFTER),
    "camp.healer_hours": _probes(TWOWP_SURGERY, (1,), focus=AFTER),
    "camp.triage": _probes(TWOWP_TRIAGE, ("listed",), focus=AFTER),
    "camp.supervised_unskilled": _probes(TWOWP_STUDENT, ("none",), focus=AFTER),
    "camp.first_aid_competent": _probes(D6_CAMP, ("1D",), focus=AFTER),
    "camp.first_aid_experienced": _probes(D6_CAMP_EXPERIENCED, ("1D",), focus=AFTER),
    "camp.first_aid_specialized": _probes(D6_CAMP_SPECIALIZED, ("1D",), focus=AFTER),
    "camp.rest_hours_per_day": _probes(WG_AFTERMATH, (0, 24)),
    "camp.wake_above_hd": _probes(WG_AFTERMATH, (0, 4)),
    "campaign.fled": _probes(WG_CAMPAIGN, ("leave",), focus=CAMPAIGN),
    "campaign.surrendered": _probes(WG_CAMPAIGN_POOLS, ("leave",), focus=CAMPAIGN),
}

NOT_WIRED: dict[str, str] = {}
"""Options the code never reads where the seeds need them (a bigger job than a test): their
cases are strict xfails."""


def _case(key: str, index: int, value: Any) -> Any:
    marks = ()
    if key in NOT_WIRED:
        marks = (pytest.mark.xfail(strict=True, reason=f"not wired: {NOT_WIRED[key]}"),)
    return pytest.param(key, index, value, id=f"{key}={value}", marks=marks)


CASES = [
    _case(key, i, value)
    for key, probes in PROBES.items()
    for i, probe in enumerate(probes)
    for value in probe.values
]


# --------------------------------------------------------------------------------------------
# The tests


def _catalogue() -> dict[str, dict[str, Any]]:
    return {f"{r['system']}.{r['name']}": r for r in option_rows()}


def test_the_probes_cover_exactly_the_catalogue():
    catalogue = _catalogue()
    assert sorted(catalogue.keys() - PROBES.keys()) == [], "options without a probe"
    assert sorted(PROBES.keys() - catalogue.keys()) == [], "probes of options that are gone"
    assert sorted(NOT_WIRED.keys() - catalogue.keys()) == [], "NOT_WIRED names a gone option"


def test_every_choice_and_the_other_boolean_is_tried():
    for key, row in _catalogue().items():
        tried = [v for probe in PROBES.get(key, ()) for v in probe.values]
        default = row["default"]
        assert tried, key
        assert default not in tried and len(set(map(repr, tried))) == len(tried), key
        if row["choices"]:
            assert set(tried) == set(row["choices"]) - {default}, key
        elif isinstance(default, bool):
            assert tried == [not default], key


@pytest.mark.parametrize("key", sorted(PROBES))
def test_a_probe_leaves_its_option_at_the_default(key):
    """Each arm differs from the probe's scenario in the option alone, and only there."""
    for probe in PROBES[key]:
        doc = yaml.safe_load(probe.scenario)
        for path in option_paths(key, probe):
            node: Any = doc
            for step in path.split(".")[:-1]:
                node = node.get(step) if isinstance(node, dict) else None
            assert not (isinstance(node, dict) and path.rsplit(".", 1)[1] in node), path


CONTROLS = {
    "wargame": WG_MELEE,
    "wargame-large": WG_LARGE,
    "2w2p": TWOWP_FIVES,
    "deathwish": DW_VOLLEY,
    "d6": D6_VOLLEY,
    "map": MAP_GUNS,
    "2w2p-aftermath": TWOWP_NURSED,
    "deathwish-aftermath": DW_AFTERMATH,
    "d6-aftermath": D6_CAMP,
    "campaign": WG_CAMPAIGN,
}


@pytest.mark.slow
@pytest.mark.parametrize("name", CONTROLS)
def test_the_check_is_not_fooled_by_an_extra_draw(name):
    """A dead option that only draws one more number passes nowhere.

    The same probe fought with one number drawn and thrown away before the battle: every run
    differs from its pair, the distribution does not.
    """
    scenario = CONTROLS[name]
    sc = parse_scenario(scenario, "<probe>")
    p = p_value(_default_runs(scenario, SEEDS), runs(sc, range(SEEDS), extra_draw=True))
    assert p > ALPHA


@pytest.mark.slow
@pytest.mark.parametrize(("key", "index", "value"), CASES)
def test_every_value_of_every_option_changes_the_outcomes(key, index, value):
    probe = PROBES[key][index]
    p = option_p_value(key, probe, value)
    assert p <= ALPHA, f"{key}={value!r} leaves the probe's outcomes as they are (p = {p:.3f})"
