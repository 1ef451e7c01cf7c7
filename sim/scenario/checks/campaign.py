"""Checks of the ``campaign`` key: one side's company through several battles.

Each battle is the file's own document with the battle's entry merged in, checked whole by
a fresh checker (:meth:`~sim.scenario.checks.base.Checks.for_battle`): an issue at a path the
entry set is reported at ``campaign.battles[i].PATH`` (its line in the entry); an issue
elsewhere is the scenario's own, reported once.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from sim.errors import unknown
from sim.options import CampaignOptions
from sim.scenario.checks.aftermath import MAX_FIGHTER_DAYS
from sim.scenario.checks.base import BAD, MAX_DAYS, Checks, get_or
from sim.scenario.model import CampaignSpec, FighterSpec, Scenario
from sim.scenario.reader import join_path

_CAMPAIGN_KEYS = ("side", "battles", "days_between", "options")
_BATTLE_KEYS = (
    "name",
    "rules",
    "frame",
    "battle",
    "max_rounds",
    "templates",
    "factors",
    "sides",
    "events",
)
_BATTLE_EXAMPLE = "a battle: a mapping of the scenario keys it changes, such as {max_rounds: 20}"
MAX_BATTLES = 100
"""Most battles in one campaign."""


class CampaignChecks(Checks):
    """The campaign: its company's side, its battles, the days between them, its options."""

    def campaign_(
        self,
        doc: Mapping[str, Any],
        system: str,
        side_names: Sequence[str],
        starting: Mapping[str, Sequence[FighterSpec]],
    ) -> CampaignSpec | None:
        """The ``campaign`` key: the company's side, its battles (patches of this file)."""
        m = self.mapping(
            doc["campaign"], "campaign", "a mapping with side, battles and days_between"
        )
        if m is None:
            return None
        self.keys(m, "campaign", _CAMPAIGN_KEYS)
        side = self.company_side(m.get("side"), side_names, starting)
        days = self.whole(get_or(m, "days_between", 7), "campaign.days_between", 1, MAX_DAYS)
        options = self.options(
            CampaignOptions, m.get("options"), "campaign.options", "campaign option"
        )
        items: list[Any] | None = None
        if m.get("battles") is None:
            self.error("campaign.battles", "required: a list of battles, e.g. [{}, {}, {}]")
        else:
            items = self.a_list(m["battles"], "campaign.battles", "battles")
            if items is not None and not 1 <= len(items) <= MAX_BATTLES:
                self.error(
                    "campaign.battles", f"expected 1..{MAX_BATTLES} battles, got {len(items)}"
                )
                items = None
        base = {k: v for k, v in doc.items() if k not in ("aftermath", "campaign")}
        battles: list[Scenario] = []
        names: list[str] = []
        for i, entry in enumerate(items or []):
            made = self.campaign_battle(entry, i, base, side, system)
            if made is not None:
                battles.append(made[0])
                names.append(made[1])
        if side is None or days is BAD or items is None or len(battles) != len(items):
            return None
        if not self.within_rows(battles, days, doc.get("aftermath")):
            return None
        built = self.attempt(
            "campaign", lambda: CampaignSpec(side, tuple(battles), days, tuple(names), options)
        )
        return None if built is BAD else built

    def within_rows(self, battles: Sequence[Scenario], days: int, after: Any) -> bool:
        """Whether the campaign's aftermath rows stay within the limit (an error if not).

        Every fighter of a battle is a row for every day after it (``days_between``, after
        the last battle ``aftermath.days`` if given): summed over the battles, at most
        :data:`~sim.scenario.checks.aftermath.MAX_FIGHTER_DAYS`, as one battle's aftermath.
        """
        last = after.get("days", 7) if isinstance(after, dict) else days
        if not isinstance(last, int) or isinstance(last, bool) or not 1 <= last <= MAX_DAYS:
            last = days  # a bad aftermath.days is reported where it is
        total = 0
        for i, sc in enumerate(battles):
            fighters = sum(len(side.fighters) for side in sc.sides)
            fighters += sum(len(ev.fighters) for ev in sc.events if ev.kind == "reinforce")
            total += fighters * (last if i == len(battles) - 1 else days)
        if total <= MAX_FIGHTER_DAYS:
            return True
        self.error(
            "campaign.days_between",
            f"{len(battles)} battles, each with {days} days after it, make {total} fighter-days "
            "(a row each: every fighter of a battle, every day after it); the limit is "
            f"{MAX_FIGHTER_DAYS}: fewer battles, days or fighters",
        )
        return False

    def company_side(
        self, side: Any, side_names: Sequence[str], starting: Mapping[str, Sequence[FighterSpec]]
    ) -> Any:
        """``campaign.side``: a side of the scenario with fighters, or None."""
        if side is None:
            self.error("campaign.side", "required: the side whose company fights every battle")
        elif self.text(side, "campaign.side") is BAD:
            side = None
        elif side not in side_names:
            self.error("campaign.side", str(unknown("side", side, side_names)))
            side = None
        elif side in self.unsure or not starting.get(side):
            side = None
        return side

    def campaign_battle(
        self, entry: Any, i: int, base: Mapping[str, Any], side: Any, system: str
    ) -> tuple[Scenario, str] | None:
        """Battle ``i`` of the campaign (the file's battle patched by ``entry``) and its label."""
        path = f"campaign.battles[{i}]"
        em = {} if entry is None else self.mapping(entry, path, _BATTLE_EXAMPLE)
        if em is None:
            return None
        self.keys(em, path, _BATTLE_KEYS)
        label: Any = get_or(em, "name", f"battle {i + 1}")
        if self.text(label, join_path(path, "name"), empty=False) is BAD:
            label = f"battle {i + 1}"
        patch = {k: v for k, v in em.items() if k in _BATTLE_KEYS and k != "name"}
        sides_patch = patch.get("sides")
        if side is not None and isinstance(sides_patch, dict):
            mine = sides_patch.get(side)
            if isinstance(mine, dict) and "fighters" in mine:
                self.error(
                    join_path(join_path(join_path(path, "sides"), side), "fighters"),
                    "the company's fighters carry on from battle to battle: give them "
                    "once, in the scenario's sides",
                )
                return None
        merged = copy.deepcopy(dict(base))
        patched: set[str] = set()
        _merge(merged, patch, "", patched)
        sub = self.for_battle(path, patched)
        sc = sub.scenario(merged)
        for issue in sub.issues:
            if issue not in self.issues:
                self.issues.append(issue)
        if sc is None:
            return None
        if sc.rules != system:
            self.error(
                join_path(path, "rules"),
                f"a campaign keeps one rules system ({system}); this battle is {sc.rules}",
            )
            return None
        return sc, label


def _merge(base: dict[str, Any], patch: Mapping[str, Any], path: str, patched: set[str]) -> None:
    """Merge ``patch`` into ``base`` in place: mappings key by key, anything else replaced.

    ``patched`` collects the paths the patch set. A ``rules: NAME`` short form in ``base``
    becomes ``{system: NAME}`` so a patch can give ``rules: {options: ...}``.
    """
    for key, value in patch.items():
        here = join_path(path, key)
        old = base.get(key)
        if not path and key == "rules" and isinstance(old, str) and isinstance(value, dict):
            old = base[key] = {"system": old}
        if isinstance(value, dict) and isinstance(old, dict):
            _merge(old, value, here, patched)
        else:
            base[key] = copy.deepcopy(value)
            patched.add(here)
