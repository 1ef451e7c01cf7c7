"""After a battle: its aftermath days, and whole campaigns of battles.

:func:`sim.run.core.fight` fights every run; for a scenario with ``aftermath`` or ``campaign`` it
comes here (:func:`aftermath_rows`, :func:`fight_campaign`):

- a scenario without ``aftermath`` or ``campaign``: exactly its battle run to its end,
  nothing more (so its rows are the same as ever);
- with ``aftermath`` (RULES.md 2.5, :mod:`sim.aftermath`): after the battle every side's
  camp runs ``aftermath.days`` days, its patients the side's fighters (the dead stay dead),
  its healers the camp healers of that side and the side's fighters whose ``skills`` name
  nurse, surgeon or physician; every draw from the battle's Generator, continuing after it;
- with ``campaign``: the battles in order, one Generator through all of them and their
  aftermaths (so a campaign is one run with one seed, and replays exactly). The company (the
  ``campaign.side``) is the scenario's roster of that side; after each battle every side's
  camp runs ``days_between`` days (after the last battle ``aftermath.days``, or
  ``days_between`` without an ``aftermath`` key), then the company's members who are fit
  fight the next battle carrying their fight count and their wounds.

What a member carries into the next battle (it is a patient in every later aftermath until
it heals; its wounds and infections stay dated on the campaign's calendar), as the battle's
rule system says (``RuleSystem.carry_out`` and ``carry_in``, and its aftermath's
:meth:`~sim.aftermath.Aftermath.member_fields`); this module never tests a system's name:

- under every system its fight count (one more for each battle it fought in and survived
  [S]: a Fresh fighter of 2 fights is Tested after its next one), so its 2W2P tier;
- **2W2P**: the wounding blows not yet recovered (each makes it fight one tier worse [S]);
  a later battle's day is no day of rest for its old wounds if it fought that day [S];
- **Deathwish**: its wound levels (the seed has no recovery: each adds its difficulty for
  good); a member incapacitated by its wounds stays so and is not treated again;
- **D6 tiers**: its condition (``wounded``, ``wounded_twice`` ...); a member raised from the
  dead in the aftermath is a member again (its half day of penalties is over by the next
  battle, a day or more later);
- **War Game**: its hit dice after rest (1 HD per 8 hours [S]).

Who fights the next battle [H]: members alive and ``active`` after the aftermath, and those
who ``fled`` (or were still fleeing) or ``surrendered``, unless ``campaign.options`` says
they leave; the incapacitated sit it out and go on healing. A leader who cannot fight leaves
the side leaderless for that battle. A company with nobody fit ends the campaign early.

The carried state is set on the battle's fighters after the battle is built and before its
first round (``sim.frame.agents.Fighter`` starts every fighter unhurt; see :func:`_carry_in`).

Records (:data:`sim.dataset.records.TABLES`): the ``runs``, ``rounds``, ``fighters`` and ``events``
rows of a campaign are those of its **last battle fought** (its winner, rounds and end); the
``aftermath`` table has every side's rows of every battle (``battle`` 1, 2 ...); the
``campaign`` table one row per company member per battle (:data:`CAMPAIGN_KEYS`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import numpy as np

from sim import aftermath as am
from sim.errors import SimError
from sim.options import CampaignOptions, build_options
from sim.rules import twowp
from sim.rules.common import Status
from sim.scenario import AftermathSpec, FighterSpec, Scenario, Side

if TYPE_CHECKING:
    from sim.battle.battle import Battle
    from sim.systems import RuleSystem

CAMPAIGN_KEYS = (
    "battle",
    "battle_label",
    "day",
    "winner",
    "name",
    "fought",
    "status_before",
    "battle_status",
    "status",
    "fit",
    "fights_before",
    "fights_after",
    "tier_before",
    "tier_after",
    "wounds",
    "wounding",
    "felling",
    "dw_wounds",
    "condition",
    "hd",
    "conditions",
)
"""Keys of a ``campaign`` row (``sim.dataset.records.CAMPAIGN_FIELDS`` less run_id)."""

AFTERMATH_EXTRA = ("battle", "battle_status", "wounded", "recovered")
"""Columns the run adds to the aftermath core's rows (``sim.aftermath.ROW_KEYS``)."""


# --------------------------------------------------------------------------------------------
# The aftermath of one battle


def aftermath_rows(battle: Battle, spec: AftermathSpec) -> list[dict[str, Any]]:
    """The ``aftermath`` rows of ``spec.days`` days after ``battle`` (battle 1), every side's.

    Every draw comes from the battle's Generator, after the battle's own.
    """
    rows: list[dict[str, Any]] = []
    for camp in _camps(battle, spec, spec.days, {}, 0):
        rows += _rows(camp, 1)
    return rows


@dataclass
class _Camp:
    """One side's aftermath after one battle, and what its patients were at the start."""

    side: str
    run: am.Aftermath
    patients: dict[str, am.Patient]
    wounded: dict[str, bool]
    hd_max: dict[str, int]


def _camps(
    battle: Any,
    spec: AftermathSpec | None,
    days: int,
    extra: Mapping[str, list[tuple[am.Patient, FighterSpec]]],
    start_day: int,
    carried: Mapping[str, Mapping[str, Any]] | None = None,
) -> list[_Camp]:
    """Run ``days`` aftermath days for every side of ``battle``; one :class:`_Camp` each.

    ``extra`` adds patients (with their stat blocks) per side who did not fight (campaign
    members sitting out); ``carried`` holds what each company fighter brought into the
    battle (Patient fields: its 2W2P state, Deathwish wounds ...).
    """
    system = battle.system
    group = getattr(system.rules, "AftermathOptions", None)  # War Game has none
    aopts = (
        build_options(group, dict(spec.options), "aftermath.options")
        if group is not None and spec is not None
        else None
    )
    camp_opts = build_options(am.CampOptions, dict(spec.camp) if spec else {}, "aftermath.camp")
    out = []
    for name, side in battle.sides.items():
        fighters = list(side.fighters)
        patients = [_patient(system.aftermath, f, (carried or {}).get(f.name)) for f in fighters]
        specs = {f.name: f.spec for f in fighters}
        for p, fs in extra.get(name, ()):
            patients.append(p)
            specs[p.name] = fs
        healers = am.healers_from_fighters(fighters)
        healers += [h for h in (spec.healers if spec else ()) if h.side == name]
        run = am.Aftermath.kind(system.name)(
            patients,
            healers,
            system.name,
            battle.rng,
            camp=camp_opts,
            options=battle.options,
            aftermath_options=aopts,
            start_day=start_day,
        )
        run.run(days)
        out.append(
            _Camp(
                name,
                run,
                {p.name: p for p in patients},
                {p.name: run.wounded(p) for p in patients},
                {p.name: p.hd_max for p in patients},
            )
        )
    return out


def _patient(kind: type[am.Aftermath], f: Any, brought: Mapping[str, Any] | None) -> am.Patient:
    """A fighter's :class:`~sim.aftermath.Patient`; ``brought`` is what it carried in."""
    p = am.patient_from_fighter(f)
    return p if brought is None else kind.less_carried(p, brought)


def _rows(
    camp: _Camp, battle: int, carried: Mapping[str, Mapping[str, Any]] | None = None
) -> list[dict[str, Any]]:
    """The camp's aftermath rows with the run's columns (:data:`AFTERMATH_EXTRA`)."""
    out = []
    for r in camp.run.rows:
        name = r["name"]
        brought = (carried or {}).get(name, {})
        extra = {
            "battle": battle,
            "battle_status": camp.patients[name].status,
            "wounded": camp.wounded[name],
            "recovered": camp.run.recovered(r, camp.hd_max[name], brought),
        }
        out.append({**extra, **r})
    return out


# --------------------------------------------------------------------------------------------
# Campaigns


@dataclass
class _Member:
    """A company member between battles: its stat block and what it carries.

    ``carried`` holds Patient fields, as its battles' rule system takes them out of an
    aftermath (``RuleSystem.carry_out``): empty before its first battle. Gear it rolled
    (``weapon: {roll: d12}``) is rolled once, in its first battle, and is its own from then on:
    :attr:`spec` holds it, :attr:`gear` the fighters table's ``rolled_weapon``/``rolled_armor``.
    """

    spec: FighterSpec
    fights: int
    status: str = Status.ACTIVE.value
    carried: dict[str, Any] = field(default_factory=dict)
    gear: dict[str, str] = field(default_factory=dict)  # rolled in its first battle: kept

    @property
    def name(self) -> str:
        return self.spec.name

    def fit(self, options: CampaignOptions) -> bool:
        """Whether it fights the next battle (see the module docstring)."""
        if self.status == Status.ACTIVE.value:
            return True
        if self.status in (Status.FLED.value, Status.FLEEING.value):
            return options.fled == "rejoin"
        if self.status == Status.SURRENDERED.value:
            return options.surrendered == "rejoin"
        return False


@dataclass
class CampaignRun:
    """A campaign fought: its battles in order and its ``aftermath`` and ``campaign`` rows."""

    battles: list[Battle] = field(default_factory=list)
    aftermath: list[dict[str, Any]] = field(default_factory=list)
    campaign: list[dict[str, Any]] = field(default_factory=list)
    days: int = 0


def fight_campaign(
    scenario: Scenario,
    rng: np.random.Generator,
    events: bool,
    on_battle: Callable[[Battle], None] | None = None,
) -> CampaignRun:
    """Fight ``scenario``'s campaign with one Generator; ``on_battle`` sees each battle start."""
    from sim.battle.battle import Battle

    spec = scenario.campaign
    assert spec is not None
    options = build_options(CampaignOptions, dict(spec.options), "campaign.options")
    roster = next(s for s in scenario.sides if s.name == spec.side).fighters
    members = [_Member(f, f.fights) for f in roster]
    out = CampaignRun()
    day = 0
    last = len(spec.battles) - 1
    for index, battle_sc in enumerate(spec.battles):
        fit = [m for m in members if m.fit(options)]
        if not fit:
            break  # nobody left to fight: the campaign ends here
        sc = _with_company(battle_sc, spec.side, fit)
        battle = Battle(sc, rng=rng, events=events)
        carried = _carry_in(battle, spec.side, {m.name: m for m in fit})
        (on_battle or _unwatched)(battle)
        battle.run()
        _keep_gear(battle, spec.side, {m.name: m for m in fit})
        days = (
            (scenario.aftermath.days if scenario.aftermath is not None else spec.days_between)
            if index == last
            else spec.days_between
        )
        fit_names = {m.name for m in fit}
        sitting = [m for m in members if m.name not in fit_names and m.status != Status.DEAD.value]
        if not battle.system.aftermath.treats_sitting_out:
            sitting = []  # no recovery in Deathwish: they stay as they are, untreated again
        extra = {spec.side: [(_sitting_patient(m, spec.side), m.spec) for m in sitting]}
        camps = _camps(battle, scenario.aftermath, days, extra, day, carried)
        for camp in camps:
            out.aftermath += _rows(camp, index + 1, carried if camp.side == spec.side else None)
        company = next(c for c in camps if c.side == spec.side)
        before = {m.name: (m.fights, m.status) for m in members}
        in_battle = {f.name: f for f in battle.sides[spec.side].fighters}
        for m in members:
            if m.name in company.patients:
                _after(m, company.run, battle.system, in_battle.get(m.name))
        label = spec.names[index] if index < len(spec.names) else f"battle {index + 1}"
        out.campaign += [
            _campaign_row(
                m, index + 1, label, day, battle, in_battle.get(m.name), before[m.name], options
            )
            for m in members
        ]
        out.battles.append(battle)
        day += days
    if not out.battles:  # pragma: no cover - the loader requires a fighter in the company
        raise SimError(f"campaign: side {spec.side!r} has nobody to fight the first battle")
    out.days = day
    return out


def _unwatched(battle: Battle) -> None:
    """No one watches the battle."""


def _with_company(sc: Scenario, side: str, fit: list[_Member]) -> Scenario:
    """Battle ``sc`` with the company's fit members (their fight counts) as ``side``."""
    sides = []
    for s in sc.sides:
        if s.name == side:
            names = {m.name for m in fit}
            specs = tuple(replace(m.spec, fights=m.fights) for m in fit)
            leader = s.leader if s.leader in names else None
            s = Side(s.name, specs, leader, s.tactic, s.goals)
        sides.append(s)
    return replace(sc, sides=tuple(sides))


def _carry_in(battle: Any, side: str, fit: Mapping[str, _Member]) -> dict[str, dict[str, Any]]:
    """Give the company's fighters the wounds they carry, before the battle starts.

    ``sim.frame.agents.Fighter`` starts every fighter unhurt, so the battle's rule system sets the
    state on the built fighters here (``RuleSystem.carry_in``), and each is filed again in
    its side's weakest-first indexes with ``SideState.refile``, as ``Battle.harmed`` does
    when a fighter weakens. Returns, per fighter, what it brought (its ``carried``).
    """
    brought: dict[str, dict[str, Any]] = {}
    state = battle.sides[side]
    for f in state.fighters:
        m = fit[f.name]
        if m.gear:  # rolled in an earlier battle: its row says so, as the first battle's did
            battle.rolled_gear[f.name] = m.gear
        battle.system.carry_in(f, m.carried)
        state.refile(f)  # weaker now: file it again in the side's weakest-first indexes
        brought[f.name] = m.carried
    return brought


def _keep_gear(battle: Any, side: str, fit: Mapping[str, _Member]) -> None:
    """The gear the company's fighters rolled in this battle is theirs for the campaign."""
    for f in battle.sides[side].fighters:
        m = fit[f.name]
        if m.spec.rolled:
            m.spec = replace(m.spec, weapon=f.spec.weapon, armor=f.spec.armor, rolled=())
            m.gear = dict(battle.rolled_gear.get(f.name, {}))


def _sitting_patient(m: _Member, side: str) -> am.Patient:
    """A member who did not fight, as a patient of the battle's aftermath."""
    carried = {"hd": m.spec.hit_dice, **m.carried}
    return am.Patient(
        name=m.name,
        side=side,
        status=m.status,
        fights=m.fights,
        d6_strength=m.spec.d6.strength,
        d6_resist=m.spec.d6.resist,
        d6_religion=m.spec.d6.religion,
        hd_max=m.spec.hit_dice,
        **carried,
    )


def _after(m: _Member, run: am.Aftermath, system: RuleSystem, fighter: Any) -> None:
    """Update a member from the end of its aftermath."""
    got = run.survivor(m.name)
    m.status = got["status"]
    m.fights = got["fights"]
    m.carried = system.carry_out(fighter, got, m.carried)


def _campaign_row(
    m: _Member,
    battle_no: int,
    label: str,
    day: int,
    battle: Any,
    fighter: Any,
    before: tuple[int, str],
    options: CampaignOptions,
) -> dict[str, Any]:
    fights_before, status_before = before
    dead = m.status == Status.DEAD.value
    return {
        "battle": battle_no,
        "battle_label": label,
        "day": day,
        "winner": battle.winner,
        "name": m.name,
        "fought": fighter is not None,
        "status_before": status_before,
        "battle_status": fighter.status.value if fighter is not None else None,
        "status": m.status,
        "fit": m.fit(options),
        "fights_before": fights_before,
        "fights_after": m.fights,
        "tier_before": twowp.tier_from_fights(fights_before).name.lower(),
        "tier_after": twowp.tier_from_fights(m.fights).name.lower(),
        **battle.system.aftermath.member_fields(m.carried, m.spec.hit_dice, dead),
    }


# --------------------------------------------------------------------------------------------
# Summaries for ``sim run``


def aftermath_summary(rows: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Per battle and side: wounded, died of wounds, recovered and still wounded at the end.

    Counts fighters alive after the battle who were hurt (``wounded``); ``died_of_wounds``
    those of them dead on the last day; ``recovered`` those up with no open wound;
    ``still_wounded`` the rest.
    """
    last: dict[tuple[int, str, str], Mapping[str, Any]] = {}
    for r in rows:
        key = (r["battle"], r["side"], r["name"])
        if key not in last or r["day"] >= last[key]["day"]:
            last[key] = r
    out: dict[tuple[int, str], dict[str, Any]] = {}
    for (battle, side, _), r in last.items():
        s = out.setdefault(
            (battle, side),
            {
                "battle": battle,
                "side": side,
                "days": 0,
                "wounded": 0,
                "died_of_wounds": 0,
                "recovered": 0,
                "still_wounded": 0,
            },
        )
        s["days"] = max(s["days"], r["day"] + 1)
        if not r["wounded"]:
            continue
        s["wounded"] += 1
        if r["status"] == Status.DEAD.value:
            s["died_of_wounds"] += 1
        elif r["recovered"]:
            s["recovered"] += 1
        else:
            s["still_wounded"] += 1
    return list(out.values())


def campaign_summary(rows: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Per battle: who of the company fought, died, is alive and how many are veterans."""
    out: dict[int, dict[str, Any]] = {}
    for r in rows:
        s = out.setdefault(
            r["battle"],
            {
                "battle": r["battle"],
                "label": r["battle_label"],
                "day": r["day"],
                "winner": r["winner"],
                "fought": 0,
                "killed": 0,
                "died_of_wounds": 0,
                "alive": 0,
                "fit": 0,
                "veterans": 0,
            },
        )
        dead = r["status"] == Status.DEAD.value
        killed = r["battle_status"] == Status.DEAD.value
        s["fought"] += bool(r["fought"])
        s["killed"] += killed
        s["died_of_wounds"] += dead and not killed and r["status_before"] != Status.DEAD.value
        s["alive"] += not dead
        s["fit"] += bool(r["fit"])
        s["veterans"] += not dead and r["tier_after"] in ("veteran", "hero")
    return list(out.values())


__all__ = [
    "AFTERMATH_EXTRA",
    "CAMPAIGN_KEYS",
    "CampaignOptions",
    "CampaignRun",
    "aftermath_rows",
    "aftermath_summary",
    "campaign_summary",
    "fight_campaign",
]
