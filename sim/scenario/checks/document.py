"""The whole document: every section's checks put together into one :class:`Checker`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sim.rules import SYSTEMS
from sim.scenario.checks.aftermath import AftermathChecks
from sim.scenario.checks.base import BAD, MAX_ROUNDS, get_or
from sim.scenario.checks.campaign import CampaignChecks
from sim.scenario.checks.events import EventChecks
from sim.scenario.checks.map import MapChecks
from sim.scenario.checks.rules import RuleChecks
from sim.scenario.checks.sides import SideChecks
from sim.scenario.model import (
    AftermathSpec,
    CampaignSpec,
    Event,
    FighterSpec,
    Scenario,
)
from sim.space.map import MapSpec

_TOP_KEYS = (
    "name",
    "description",
    "rules",
    "frame",
    "battle",
    "max_rounds",
    "seed",
    "templates",
    "factors",
    "sides",
    "events",
    "aftermath",
    "campaign",
    "map",
)


class Checker(RuleChecks, SideChecks, EventChecks, MapChecks, AftermathChecks, CampaignChecks):
    """Walks a scenario document, collecting an issue for every problem it finds.

    ``Checker(source, locate, overridden, default_name).scenario(doc)`` gives the
    :class:`Scenario`, or None with ``issues`` saying why. The sections are checked in the
    order of the format: top-level values, rules, templates and factors, sides, events,
    then the sides' leaders, tactics and goals, and the aftermath, campaign and map.
    """

    def scenario(self, doc: dict[str, Any]) -> Scenario | None:
        """The :class:`Scenario` a whole document describes, or None if it has issues."""
        self.keys(doc, "", _TOP_KEYS)
        if "sides" not in doc:
            self.error("sides", "required: a scenario needs sides (at least two)")
        name, description = self.titles(doc)
        seed = self.limits(doc)
        system, options = self.rules(get_or(doc, "rules", "wargame"))
        frame = self.frame(doc.get("frame"))
        if system in SYSTEMS:
            options, frame = self.frame_into_rules(system, options, frame)
        battle = self.battle(doc.get("battle"))
        if battle.get("large_scale") == "pools" and system in SYSTEMS:
            self.pools(system)
        self.templates_(doc.get("templates"))
        factors = self.factors(doc.get("factors"))
        side_names, side_maps, starting = self.rosters(doc, system)
        events = self.events(doc.get("events"), side_names)
        sides = self.sides(side_maps, starting, events)
        after, campaign, battle_map = self.after_and_around(
            doc, system, side_names, starting, events
        )
        if self.issues:
            return None
        built = self.attempt(
            "",
            lambda: Scenario(
                sides=tuple(sides),
                name=name,
                description=description.strip(),
                rules=system,
                options=options,
                frame=frame,
                battle=battle,
                max_rounds=self.max_rounds,
                factors=tuple(factors),
                events=tuple(events),
                seed=seed,
                aftermath=after,
                campaign=campaign,
                map=battle_map,
            ),
        )
        return None if built is BAD else built

    def titles(self, doc: Mapping[str, Any]) -> tuple[str, str]:
        """``name`` (default: the file's name) and ``description``."""
        name: Any = get_or(doc, "name", self.default_name)
        if self.text(name, "name", empty=False) is BAD:
            name = self.default_name
        description: Any = doc.get("description")
        if description is None:
            description = ""
        if self.text(description, "description") is BAD:
            description = ""
        return name, description

    def limits(self, doc: Mapping[str, Any]) -> int | None:
        """``max_rounds`` (kept for the checks that follow) and the ``seed``, if any."""
        if doc.get("max_rounds") is not None:
            rounds = self.whole(doc["max_rounds"], "max_rounds", 1, MAX_ROUNDS)
            self.max_rounds = MAX_ROUNDS if rounds is BAD else rounds
        else:
            self.max_rounds = 50
        seed = doc.get("seed")
        if seed is not None and self.whole(seed, "seed", 0, None) is BAD:
            seed = None
        return seed

    def after_and_around(
        self,
        doc: Mapping[str, Any],
        system: str,
        side_names: Sequence[str],
        starting: Mapping[str, Sequence[FighterSpec]],
        events: Sequence[Event],
    ) -> tuple[AftermathSpec | None, CampaignSpec | None, MapSpec | None]:
        """The ``aftermath``, ``campaign`` and ``map`` keys, each if given."""
        after = None
        if doc.get("aftermath") is not None:
            after = self.aftermath_(doc["aftermath"], system, side_names, starting)
        campaign = None
        if doc.get("campaign") is not None:
            campaign = self.campaign_(doc, system, side_names, starting)
        battle_map = None
        if doc.get("map") is not None:
            battle_map = self.map_(doc["map"], side_names, starting, events)
        return after, campaign, battle_map
